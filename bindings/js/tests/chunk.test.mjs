// chunk() through both builds against the Rust CLI's chunks, addresses and
// Xet file hashes on fixed inputs (tests/fixtures/chunks.json, written by
// scripts/chunk-fixture.mjs from `chunkhash chunk --json` and
// `chunkhash xet-hash`), with the input given whole, as a string and as an
// ArrayBuffer; then bad options.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import * as chunkhash from 'chunkhash';
import { BUILDS, hex, repo } from './helpers.mjs';
import { CHUNK_CASES, chunkInput } from './chunk-inputs.mjs';

const fixture = JSON.parse(readFileSync(join(repo, 'bindings', 'js', 'tests', 'fixtures', 'chunks.json'), 'utf8'));

/** Xet's string form of a hash: each 8-byte group reversed. */
function xetForm(bytes) {
  const out = new Uint8Array(bytes.length);
  for (let i = 0; i < bytes.length; i++) out[i] = bytes[(i & ~7) + 7 - (i & 7)];
  return hex(out);
}

for (const build of BUILDS) {
  describe(`${build.name} build`, () => {
    test('chunks, addresses and Xet file hashes equal the CLI\'s', async () => {
      await chunkhash.init(build.options);
      assert.deepEqual(fixture.cases.map((c) => c.args), CHUNK_CASES.map((c) => c.args), 'the fixture is of these cases');
      for (const c of fixture.cases) {
        const data = chunkInput(c.input);
        const got = chunkhash.chunk(data, c.options);
        assert.equal(got.offsets.length, c.chunks.length, c.command);
        const xet = (c.options.address ?? (c.options.fastcdc ? 'blake3' : 'xet')) === 'xet';
        assert.equal(got.addressLength, c.options.address === 'blake3-160' ? 20 : 32);
        c.chunks.forEach(([offset, length, address], i) => {
          assert.equal(got.offsets[i], offset, `${c.command}: chunk ${i}`);
          assert.equal(got.lengths[i], length, `${c.command}: chunk ${i}`);
          const bytes = got.addresses.subarray(i * got.addressLength, (i + 1) * got.addressLength);
          assert.equal(xet ? xetForm(bytes) : hex(bytes), address, `${c.command}: chunk ${i}`);
        });
        assert.equal(got.xetFileHash, c.xetHash, c.command);
      }
      // The same chunks from an ArrayBuffer, and from a string (its UTF-8 bytes).
      const text = 'chunkhash \u00e9t\u00e9 '.repeat(30000);
      const fromString = chunkhash.chunk(text);
      const bytes = new TextEncoder().encode(text);
      assert.deepEqual(chunkhash.chunk(bytes.buffer), fromString);
      assert.equal(fromString.lengths.reduce((a, b) => a + b, 0), bytes.length);
      const empty = chunkhash.chunk(new Uint8Array(0));
      assert.equal(empty.offsets.length, 0);
      assert.equal(empty.xetFileHash, '0'.repeat(64));
    });

    test('bad chunk options are TypeErrors or RangeErrors naming the value', async () => {
      await chunkhash.init(build.options);
      const data = new Uint8Array(100);
      assert.throws(() => chunkhash.chunk(data, { fastcdc: [2048, 8192, 1000] }), /fastcdc: .*/);
      assert.throws(() => chunkhash.chunk(data, { fastcdc: [2047, 8192, 65536] }), RangeError);
      assert.throws(() => chunkhash.chunk(data, { fastcdc: [2048, 8192] }), TypeError);
      assert.throws(() => chunkhash.chunk(data, { fastcdc: [2048, -1, 65536] }), RangeError);
      assert.throws(() => chunkhash.chunk(data, { address: 'sha256' }), /unknown chunk address/);
      assert.throws(() => chunkhash.chunk(data, { xet: true }), /unknown chunk option "xet"/);
      assert.throws(() => chunkhash.chunk(null), TypeError);
      assert.equal(chunkhash.chunk(data, { fastcdc: [2048, 8192, 65536] }).xetFileHash, null);
    });
  });
}
