// WebAssembly memory is reused and never leaked: 1 GiB hashed in a loop,
// through every path that stages input (one-shot, pieces of a large input,
// strings, hashers, batches), leaves the module's memory where the first
// round left it; hashers dropped without free() are collected.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { dirname } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import * as chunkhash from 'chunkhash';

const MiB = 1 << 20;

test('hashing 1 GiB in a loop keeps memory bounded', async () => {
  await chunkhash.init();
  const block = new Uint8Array(16 * MiB).fill(0xa5);
  const text = 'é'.repeat(4 * MiB); // 8 MiB of UTF-8
  const smalls = Array.from({ length: 4096 }, (_, i) => block.subarray(i, i + 1024));
  let hashed = 0;
  let afterFirstRound = 0;
  for (let round = 0; hashed < 1024 * MiB; round++) {
    chunkhash.hash('BLAKE3', block); // 16 MiB, in 4 pieces
    chunkhash.blake3(block.subarray(0, 3 * MiB), { key: block.subarray(0, 32), length: 5 * MiB });
    chunkhash.hash('XXH3-64', text); // 8 MiB of UTF-8, in pieces
    const hasher = chunkhash.createHasher('BLAKE3');
    for (let i = 0; i < 4; i++) hasher.update(block.subarray(i * MiB, (i + 1) * MiB));
    hasher.clone().free();
    hasher.digest(64);
    hasher.free();
    chunkhash.hashMany('BLAKE3', smalls); // 4 MiB in one call, 4096 messages
    chunkhash.hashMany('CRC32C', [block, block.subarray(1)]); // two messages of a group each
    hashed += 16 * MiB + 3 * MiB + 8 * MiB + 4 * MiB + 4 * MiB + 32 * MiB - 1;
    if (round === 0) afterFirstRound = chunkhash.memoryBytes();
    assert.equal(chunkhash.memoryBytes(), afterFirstRound, `memory grew in round ${round}`);
    assert.equal(chunkhash.liveHashers(), 0);
  }
  assert.ok(hashed >= 1024 * MiB);
  // Staging (4 MiB) and output (5 MiB of extended output) areas, the stack
  // and the data: a bound that no leak of the loop above would stay under.
  assert.ok(afterFirstRound <= 24 * MiB, `${afterFirstRound} bytes of WebAssembly memory`);
  console.log(`# ${(hashed / MiB).toFixed(0)} MiB hashed; WebAssembly memory ${afterFirstRound / MiB} MiB throughout`);
});

test('hashers that are dropped without free() are collected', () => {
  // In a process of its own with --expose-gc, so that collection can be asked for.
  const out = execFileSync(process.execPath, ['--expose-gc', '--input-type=module', '-e', `
    import { init, createHasher, liveHashers, memoryBytes } from 'chunkhash';
    await init();
    const settle = () => new Promise((resolve) => setTimeout(resolve, 10));
    let most = 0;
    for (let round = 0; round < 20; round++) {
      for (let i = 0; i < 2000; i++) createHasher(i % 2 ? 'BLAKE3' : 'SHA-512').update('x');
      most = Math.max(most, liveHashers());
      for (let i = 0; i < 5 && liveHashers() > 0; i++) { gc(); await settle(); }
    }
    console.log(most, liveHashers(), memoryBytes());`], { cwd: dirname(fileURLToPath(import.meta.url)), encoding: 'utf8' });
  const [most, left, memory] = out.trim().split(' ').map(Number);
  // Without collection 40000 would be alive at the end; rounds let the
  // finalizers run, so far fewer are alive at any time.
  assert.ok(most >= 2000 && most < 20000, `at most ${most} hashers alive at once (2000 made per round)`);
  assert.ok(left < 2000, `${left} hashers left after collection`);
  assert.ok(memory <= 32 * MiB, `${memory} bytes of WebAssembly memory after 40000 hashers`);
});
