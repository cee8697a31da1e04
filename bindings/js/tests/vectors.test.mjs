// Every vector of the project's vectors/ folder through both builds: the
// official BLAKE3 vectors (all three modes, 131 extended bytes, the first 32
// as the default output) and golden.json (every registry algorithm, BLAKE3
// keyed and derive-key, trailers), each one-shot, incremental (split at
// several points) and in one batch.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import * as chunkhash from 'chunkhash';
import { BUILDS, ascii, blake3Vectors, golden, hex, inputPattern } from './helpers.mjs';

const official = blake3Vectors();
const gold = golden();

/** The input split at 0, a third, the middle and the end, fed piece by piece. */
function incremental(hasher, input, length) {
  const cuts = [0, Math.floor(input.length / 3), Math.floor(input.length / 2), input.length];
  for (let i = 1; i < cuts.length; i++) hasher.update(input.subarray(cuts[i - 1], cuts[i]));
  const digest = length === undefined ? hasher.digest() : hasher.digest(length);
  hasher.free();
  return digest;
}

for (const build of BUILDS) {
  describe(`${build.name} build`, () => {
    test('init selects it', async () => {
      const info = await chunkhash.init(build.options);
      assert.deepEqual(info, { build: build.name, backend: build.backend, multiBuffer: build.multiBuffer });
      assert.deepEqual(chunkhash.buildInfo(), info);
    });

    test('official BLAKE3 vectors: hash, keyed_hash, derive_key, 131 bytes and the default 32', async () => {
      await chunkhash.init(build.options);
      const key = ascii(official.key);
      const modes = [
        ['hash', {}],
        ['keyed_hash', { key }],
        ['derive_key', { deriveKeyContext: official.context_string }],
      ];
      let checked = 0;
      for (const c of official.cases) {
        const input = inputPattern(c.input_len);
        for (const [field, options] of modes) {
          const expected = c[field];
          const what = `${field} of ${c.input_len} bytes`;
          assert.equal(hex(chunkhash.blake3(input, { ...options, length: 131 })), expected, what);
          assert.equal(hex(chunkhash.blake3(input, options)), expected.slice(0, 64), `${what}, default length`);
          assert.equal(hex(incremental(chunkhash.createHasher('BLAKE3', options), input, 131)), expected, `${what}, incremental`);
          checked++;
        }
      }
      assert.equal(checked, 3 * official.cases.length);
    });

    test('official BLAKE3 vectors in one batch per mode', async () => {
      await chunkhash.init(build.options);
      const inputs = official.cases.map((c) => inputPattern(c.input_len));
      const modes = [
        ['hash', undefined],
        ['keyed_hash', { key: ascii(official.key) }],
        ['derive_key', { deriveKeyContext: official.context_string }],
      ];
      for (const [field, options] of modes) {
        const many = chunkhash.hashMany('BLAKE3', inputs, options);
        assert.equal(many.length, 32 * inputs.length);
        official.cases.forEach((c, i) => assert.equal(hex(many.subarray(32 * i, 32 * i + 32)), c[field].slice(0, 64), `${field} of ${c.input_len} bytes`));
      }
    });

    test('golden.json: the registry table', async () => {
      await chunkhash.init(build.options);
      const table = chunkhash.algorithms().map(({ id, name, digestLength }) => ({ id, name, digest_len: digestLength }));
      assert.deepEqual(table, gold.algorithms);
    });

    test('golden.json: every digest, one-shot, incremental and batched', async () => {
      await chunkhash.init(build.options);
      const options = {
        hash: undefined,
        keyed_hash: { key: ascii(gold.key) },
        derive_key: { deriveKeyContext: gold.context_string },
      };
      for (const row of gold.digests) {
        const input = inputPattern(row.input_len);
        const what = `${row.algorithm} ${row.mode} of ${row.input_len} bytes`;
        const mode = options[row.mode];
        if (row.mode === 'hash') {
          assert.equal(hex(chunkhash.hash(row.algorithm, input)), row.hex, what);
        }
        if (row.algorithm === 'BLAKE3') {
          assert.equal(hex(chunkhash.blake3(input, mode)), row.hex, `${what}, blake3()`);
        }
        assert.equal(hex(incremental(chunkhash.createHasher(row.algorithm, mode), input)), row.hex, `${what}, incremental`);
      }
      // One batch per algorithm and mode, with every input length.
      const groups = groupBy(gold.digests);
      for (const rows of groups.values()) {
        const { algorithm, mode } = rows[0];
        const many = chunkhash.hashMany(algorithm, rows.map((r) => inputPattern(r.input_len)), options[mode]);
        const len = many.length / rows.length;
        rows.forEach((r, i) => assert.equal(hex(many.subarray(len * i, len * (i + 1))), r.hex, `${algorithm} ${mode} of ${r.input_len} bytes, batched`));
      }
    });

    test('golden.json: integer checksums are the big-endian digests', async () => {
      await chunkhash.init(build.options);
      const checksums = gold.algorithms.filter((a) => ['CRC32C', 'XXH32', 'XXH64', 'XXH3-64', 'XXH3-128'].includes(a.name));
      assert.equal(checksums.length, 5);
      for (const row of gold.digests.filter((r) => checksums.some((a) => a.name === r.algorithm))) {
        const value = chunkhash.checksum(row.algorithm, inputPattern(row.input_len));
        const expected = BigInt(`0x${row.hex}`);
        if (row.hex.length === 8) assert.equal(value, Number(expected), row.algorithm);
        else assert.equal(value, expected, row.algorithm);
      }
    });

    test('golden.json: every trailer seals and verifies', async () => {
      await chunkhash.init(build.options);
      for (const row of gold.trailers) {
        const block = inputPattern(row.input_len);
        const context = BigInt(row.context);
        const what = `${row.algorithm} trailer, ${row.input_len} bytes, context ${row.context}`;
        assert.equal(hex(chunkhash.sealTrailer(row.algorithm, block, context)), row.hex, what);
        assert.equal(chunkhash.verifyTrailer(block, Buffer.from(row.hex, 'hex'), context), row.algorithm, what);
      }
    });
  });
}

/** Rows by algorithm and mode, in file order. */
function groupBy(rows) {
  const groups = new Map();
  for (const r of rows) {
    const key = `${r.algorithm}|${r.mode}`;
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push(r);
  }
  return groups;
}
