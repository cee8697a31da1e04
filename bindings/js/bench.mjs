// Throughput of the chunkhash package against hash-wasm and Node's crypto:
//   node bindings/js/bench.mjs            (after `make js` and `npm ci` in bindings/js)
//   BENCH_ROUNDS=15 BENCH_MS=60 node bindings/js/bench.mjs
//   BENCH_BASELINE=DIR node bindings/js/bench.mjs   (DIR: bindings/js of another
//     checkout, built by its `make js`: that package measured beside this one,
//     in this process, for the before/after figures of a change)
//
// Each round measures every contender once, in turn, for BENCH_MS ms of this
// process's CPU time per size (process.cpuUsage: time other processes take
// on a shared machine is not counted), so slow drifts hit all of them alike.
// Reported: the median MB/s over the rounds, and ratios as the median of the
// per-round ratios. Inputs are random bytes (fixed seed) at an odd offset.

import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createBLAKE2b, createBLAKE3, createCRC32, createSHA256, createXXHash3 } from 'hash-wasm';
import * as chunkhash from './dist/chunkhash.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 9);
const MS = Number(process.env.BENCH_MS ?? 40);
const SIZES = [64, 1024, 4096, 1 << 20];
const CRC32C_POLYNOMIAL = 0x82f63b78;

function randomBytes(len, seed) {
  // SplitMix64 bytes: the same inputs on every run.
  const out = new Uint8Array(len + 7);
  let state = BigInt(seed);
  for (let i = 0; i < out.length; i += 8) {
    state = (state + 0x9e3779b97f4a7c15n) & 0xffffffffffffffffn;
    let z = state;
    z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & 0xffffffffffffffffn;
    z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & 0xffffffffffffffffn;
    z ^= z >> 31n;
    for (let j = 0; j < 8 && i + j < out.length; j++) out[i + j] = Number((z >> BigInt(8 * j)) & 0xffn);
  }
  const offset = seed % 7; // not 8-aligned, as real buffers often are not
  return out.subarray(offset, offset + len);
}

/** Milliseconds of CPU time this process has used. */
function cpuMs() {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/** Calls `fn` for about MS ms of CPU time; returns calls per CPU second. */
function rate(fn) {
  let calls = 0;
  let batch = 1;
  const start = cpuMs();
  let elapsed = 0;
  while (elapsed < MS) {
    for (let i = 0; i < batch; i++) fn();
    calls += batch;
    batch *= 2;
    elapsed = cpuMs() - start;
  }
  return (calls * 1000) / elapsed;
}

function hashWasm(hasher) {
  return (data) => {
    hasher.init();
    hasher.update(data);
    return hasher.digest('binary');
  };
}

function nodeCrypto(name) {
  return (data) => createHash(name).update(data).digest();
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/**
 * Runs `contenders` ({name, build?, fn(data)}) over every size, interleaved,
 * and prints MB/s and ratios against the first contender.
 */
// The build each package has loaded (see compare).
const loaded = new Map();

async function compare(title, contenders, sizes = SIZES) {
  console.log(`\n## ${title}`);
  const header = ['size', ...contenders.map((c) => `${c.name} MB/s`), ...contenders.slice(1).map((c) => `${contenders[0].name} / ${c.name}`)];
  console.log(`| ${header.join(' | ')} |`);
  console.log(`|${header.map(() => ' ---').join(' |')} |`);
  const results = {};
  for (const size of sizes) {
    const data = randomBytes(size, size);
    const perRound = contenders.map(() => []);
    for (let round = 0; round < ROUNDS; round++) {
      for (const [i, c] of contenders.entries()) {
        // A package is switched only when the build changes: a new instance
        // starts cold (its code not yet optimised), so re-loading it every
        // round would time that start instead of the steady state.
        const pkg = c.package ?? chunkhash;
        if (c.build && loaded.get(pkg) !== c.build) {
          await pkg.init({ simd: c.build === 'simd128' });
          loaded.set(pkg, c.build);
        }
        c.fn(data); // warm
        perRound[i].push((rate(() => c.fn(data)) * size) / 1e6);
      }
    }
    const mbs = perRound.map(median);
    const ratios = contenders.slice(1).map((_, i) => median(perRound[0].map((v, r) => v / perRound[i + 1][r])));
    results[size] = { mbs, ratios };
    const label = size >= 1 << 20 ? `${size >> 20} MiB` : size >= 1024 ? `${size >> 10} KiB` : `${size} B`;
    const ns = size === 64 ? ` (${contenders.map((c, i) => `${c.name} ${((64 / mbs[i]) * 1e3).toFixed(0)} ns`).join(', ')} per call)` : '';
    console.log(`| ${label} | ${mbs.map((v) => v.toFixed(0)).join(' | ')} | ${ratios.map((r) => r.toFixed(2) + 'x').join(' | ')} |${ns}`);
  }
  return results;
}

function packageSize() {
  const packed = JSON.parse(execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: here, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }))[0];
  const build = JSON.parse(readFileSync(join(here, 'dist', 'build.json'), 'utf8'));
  return { packed, build };
}

const { packed, build } = packageSize();
await chunkhash.init();
console.log(`# chunkhash ${packed.version} (${build.rustc}), Node ${process.version}, ${os.cpus()[0].model}, ${os.cpus().length} CPUs, load ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
console.log(`${ROUNDS} interleaved rounds of ${MS} ms of CPU time per contender and size; medians.`);
console.log(`\npackage: ${packed.size} B gzipped (npm pack tarball, ${packed.entryCount} files, ${packed.unpackedSize} B unpacked); target < 60 kB`);
for (const [name, b] of Object.entries(build.modules)) {
  console.log(`  ${name}: ${b.wasmBytes} B wasm, ${b.wasmGzipBytes} B gzipped`);
}
console.log(`  both as embedded: ${build.embedded.lzmaBytes} B LZMA, ${build.embedded.gzipBytes} B gzipped`);

const hw = {
  blake3: hashWasm(await createBLAKE3()),
  xxh3: hashWasm(await createXXHash3()),
  crc32c: hashWasm(await createCRC32(CRC32C_POLYNOMIAL)),
  sha256: hashWasm(await createSHA256()),
  blake2b: hashWasm(await createBLAKE2b(512)),
};
const ours = (build, name) => ({ name: `chunkhash ${build}`, build, fn: (data) => chunkhash.hash(name, data) });

const blake3 = await compare('BLAKE3 (Node has no BLAKE3)', [
  ours('simd128', 'BLAKE3'),
  ours('scalar', 'BLAKE3'),
  { name: 'hash-wasm', fn: hw.blake3 },
]);
await compare('XXH3-64 (Node has no XXH3)', [ours('simd128', 'XXH3-64'), ours('scalar', 'XXH3-64'), { name: 'hash-wasm', fn: hw.xxh3 }]);
await compare('CRC32C (Node has no CRC32C)', [ours('simd128', 'CRC32C'), { name: 'hash-wasm', fn: hw.crc32c }]);
await compare('SHA-256', [ours('simd128', 'SHA-256'), { name: 'hash-wasm', fn: hw.sha256 }, { name: 'node:crypto', fn: nodeCrypto('sha256') }]);
await compare('BLAKE2b-512', [ours('simd128', 'BLAKE2b-512'), { name: 'hash-wasm', fn: hw.blake2b }, { name: 'node:crypto', fn: nodeCrypto('blake2b512') }]);

// Batches: 1024 messages of 64 bytes, as one Uint8Array of 64 KiB counted.
const messages = Array.from({ length: 1024 }, (_, i) => randomBytes(64, 1000 + i));
// The same messages as one column (one buffer and offsets, Arrow's layout).
const column = {
  values: Buffer.concat(messages),
  offsets: Int32Array.from({ length: messages.length + 1 }, (_, i) => 64 * i),
};
const batchOf = (fn) => () => {
  for (const m of messages) fn(m);
};
const batch = await compare(
  'hashMany BLAKE3, 1024 x 64 B, SIMD128 build (MB/s of message bytes)',
  [
    { name: 'hashMany', build: 'simd128', fn: () => chunkhash.hashMany('BLAKE3', messages) },
    { name: 'loop of hash', build: 'simd128', fn: batchOf((m) => chunkhash.hash('BLAKE3', m)) },
    { name: 'loop of hash-wasm', fn: batchOf(hw.blake3) },
    { name: 'hashMany column', build: 'simd128', fn: () => chunkhash.hashMany('BLAKE3', column) },
  ],
  [64 * 1024],
);
await compare(
  'hashMany BLAKE3, 1024 x 64 B, scalar build',
  [
    { name: 'hashMany', build: 'scalar', fn: () => chunkhash.hashMany('BLAKE3', messages) },
    { name: 'loop of hash', build: 'scalar', fn: batchOf((m) => chunkhash.hash('BLAKE3', m)) },
  ],
  [64 * 1024],
);
await compare(
  'hashMany XXH3-64, 1024 x 64 B',
  [
    { name: 'hashMany', build: 'simd128', fn: () => chunkhash.hashMany('XXH3-64', messages) },
    { name: 'loop of hash', build: 'simd128', fn: batchOf((m) => chunkhash.hash('XXH3-64', m)) },
  ],
  [64 * 1024],
);

const mib = blake3[1 << 20];
const b64 = blake3[64];
console.log('\n## Targets');
console.log(`BLAKE3 1 MiB, SIMD128 / hash-wasm: ${mib.ratios[1].toFixed(2)}x (target >= 2x)`);
console.log(`BLAKE3 64 B per call: ${((64 / b64.mbs[0]) * 1e3).toFixed(0)} ns vs hash-wasm ${((64 / b64.mbs[2]) * 1e3).toFixed(0)} ns, time ratio ${(1 / b64.ratios[1]).toFixed(2)} (target <= 1)`);
console.log(`hashMany 1024 x 64 B / loop of single calls: ${batch[64 * 1024].ratios[0].toFixed(2)}x (target >= 5x)`);
console.log(`hashMany of a column (one buffer + offsets) / loop of single calls: ${(batch[64 * 1024].mbs[3] / batch[64 * 1024].mbs[1]).toFixed(2)}x (ratio of medians)`);
console.log(`package gzipped: ${packed.size} B (target < 60000 B)`);

// Before and after: the package of another checkout against this one.
const baselineDir = process.env.BENCH_BASELINE;
if (baselineDir) {
  // Older checkouts shipped lib/ itself; newer ones ship dist/.
  const shipped = join(baselineDir, 'dist', 'chunkhash.mjs');
  const entry = existsSync(shipped) ? shipped : join(baselineDir, 'lib', 'chunkhash.mjs');
  const before = await import(pathToFileURL(entry).href);
  const pair = (build, fnOf) => [
    { name: `this ${build}`, build, fn: fnOf(chunkhash) },
    { name: `baseline ${build}`, build, package: before, fn: fnOf(before) },
  ];
  console.log(`\n# Before and after: ${entry} against this package (ratios: this / baseline, above 1 is faster now)`);
  for (const build of ['simd128', 'scalar']) {
    await compare(`BLAKE3, ${build} build`, pair(build, (p) => (data) => p.hash('BLAKE3', data)));
  }
  await compare('CRC32C', pair('simd128', (p) => (data) => p.hash('CRC32C', data)), [4096, 1 << 20]);
  await compare('hashMany BLAKE3, 1024 x 64 B list', pair('simd128', (p) => () => p.hashMany('BLAKE3', messages)), [64 * 1024]);
  await compare('hashMany BLAKE3, 1024 x 64 B column', pair('simd128', (p) => () => p.hashMany('BLAKE3', column)), [64 * 1024]);
}
