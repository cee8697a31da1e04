// Differential tests: random inputs (fixed, printed seed) at edge and random
// lengths, one-shot, split at random points, and batched, against
// independent implementations: Node's crypto (OpenSSL) for SHA-256, SHA-512, MD5, SHA-1,
// BLAKE2b-512, and hash-wasm (its own C implementations) for BLAKE3 (plain,
// keyed, extended output), XXH3-64, XXH3-128, XXH64, XXH32, CRC32C, CRC-32,
// CRC-64/NVME and BLAKE2b-256. The 160-bit truncations are checked as
// prefixes. The multi-buffer algorithms (MD5, SHA-1, SHA-256) also over
// batch shapes that exercise their SIMD128 lanes.

import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, test } from 'node:test';
import {
  createBLAKE2b,
  createBLAKE3,
  createCRC32,
  createCRC64,
  createXXHash128,
  createXXHash3,
  createXXHash32,
  createXXHash64,
} from 'hash-wasm';
import * as chunkhash from 'chunkhash';
import { BUILDS, EDGE_LENGTHS, TestRng, hex, offsetsOf } from './helpers.mjs';

const CRC32C_POLYNOMIAL = 0x82f63b78;
// CRC-64/NVME's polynomial 0xAD93D23594C93659, bit-reversed as hash-wasm
// takes it (its check value, "123456789" -> ae8b14860a799888, is in the
// golden vectors).
const CRC64_NVME_POLYNOMIAL = '9a6c9329ac4bc9b5';

const once = (hasher) => (data) => {
  hasher.init();
  hasher.update(data);
  return hasher.digest('hex');
};
const node = (name, length) => (data) => createHash(name).update(data).digest('hex').slice(0, length && 2 * length);

/** Each registry algorithm and an independent reference giving lowercase hex. */
const REFERENCES = {
  BLAKE3: once(await createBLAKE3()),
  'BLAKE3-160': (data) => REFERENCES.BLAKE3(data).slice(0, 40),
  'XXH3-64': once(await createXXHash3()),
  'XXH3-128': once(await createXXHash128()),
  XXH64: once(await createXXHash64()),
  XXH32: once(await createXXHash32()),
  CRC32C: once(await createCRC32(CRC32C_POLYNOMIAL)),
  'BLAKE2b-512': node('blake2b512'),
  'BLAKE2b-256': once(await createBLAKE2b(256)),
  'SHA-256': node('sha256'),
  'SHA-512': node('sha512'),
  'SHA-512/160': node('sha512', 20),
  'CRC-32': once(await createCRC32()),
  'CRC-64/NVME': once(await createCRC64(CRC64_NVME_POLYNOMIAL)),
  MD5: node('md5'),
  'SHA-1': node('sha1'),
};

function lengths(rng, count, max) {
  return [...EDGE_LENGTHS, ...Array.from({ length: count }, () => rng.range(0, max))];
}

for (const build of BUILDS) {
  describe(`${build.name} build`, () => {
    test('every registry algorithm is compared', async () => {
      await chunkhash.init(build.options);
      assert.deepEqual(Object.keys(REFERENCES), chunkhash.algorithms().map((a) => a.name));
    });

    test('one-shot and incremental against the references', async () => {
      await chunkhash.init(build.options);
      const rng = new TestRng(`differential ${build.name}`);
      for (const len of lengths(rng, 40, 20000)) {
        const data = rng.bytes(len);
        for (const [name, reference] of Object.entries(REFERENCES)) {
          const expected = reference(data);
          assert.equal(hex(chunkhash.hash(name, data)), expected, `${name} of ${len} bytes`);
          const hasher = chunkhash.createHasher(name);
          let at = 0;
          while (at < len) {
            const end = Math.min(len, at + rng.range(0, 3000));
            hasher.update(data.subarray(at, end));
            at = end;
          }
          assert.equal(hex(hasher.digest()), expected, `${name} of ${len} bytes, incremental`);
          hasher.free();
        }
      }
    });

    test('batches against the references', async () => {
      await chunkhash.init(build.options);
      const rng = new TestRng(`differential batches ${build.name}`);
      for (let round = 0; round < 4; round++) {
        // Mostly small messages, so BLAKE3 fills its SIMD lanes, with a few large ones.
        const messages = lengths(rng, 100, round % 2 ? 300 : 5000).map((len) => rng.bytes(len));
        for (const [name, reference] of Object.entries(REFERENCES)) {
          const many = chunkhash.hashMany(name, messages);
          const len = many.length / messages.length;
          messages.forEach((m, i) => assert.equal(hex(many.subarray(i * len, (i + 1) * len)), reference(m), `${name} message ${i} of ${m.length} bytes`));
        }
      }
    });

    // MD5, SHA-1 and SHA-256 run four messages side by side in the SIMD128
    // build: lanes that start and finish at different blocks, batches that
    // leave lanes idle, one long message holding a lane while the others
    // turn over.
    test('hashMany batch shapes for the multi-buffer algorithms against node:crypto', async () => {
      const info = await chunkhash.init(build.options);
      assert.equal(info.multiBuffer, build.multiBuffer);
      const rng = new TestRng(`differential multi-buffer ${build.name}`);
      const shapes = [];
      for (const len of [0, 1, 55, 56, 63, 64, 65, 119, 120, 128, 1000]) {
        for (const count of [1, 3, 4, 5, 8, 17]) shapes.push([`${count} x ${len} B`, Array.from({ length: count }, () => rng.bytes(len))]);
      }
      for (let round = 0; round < 6; round++) {
        const count = rng.range(1, 70);
        shapes.push([`${count} of 0-4160 B`, Array.from({ length: count }, () => rng.bytes(rng.range(0, 4161)))]);
      }
      const long = Array.from({ length: 30 }, () => rng.bytes(rng.range(0, 200)));
      long.splice(rng.range(0, 30), 0, rng.bytes(100003));
      shapes.push(['one long among short', long]);
      for (const [name, digest] of [['MD5', 'md5'], ['SHA-1', 'sha1'], ['SHA-256', 'sha256']]) {
        for (const [shape, messages] of shapes) {
          const many = chunkhash.hashMany(name, messages);
          const len = many.length / messages.length;
          messages.forEach((m, i) =>
            assert.equal(hex(many.subarray(i * len, (i + 1) * len)), createHash(digest).update(m).digest('hex'), `${name}, ${shape}: message ${i} of ${m.length} bytes`),
          );
        }
      }
    });

    test('columns (one buffer and offsets) against the references', async () => {
      await chunkhash.init(build.options);
      const rng = new TestRng(`differential columns ${build.name}`);
      for (const Offsets of [Int32Array, Uint32Array, BigInt64Array]) {
        // Values of 0-200 bytes, as in an Arrow string column, with a few
        // large ones; the column starts inside its buffer.
        const lens = lengths(rng, 300, 200).concat(lengths(rng, 3, 70000));
        const skip = rng.range(0, 17);
        const values = rng.bytes(skip + lens.reduce((a, b) => a + b, 0) + rng.range(0, 9));
        const offsets = offsetsOf(Offsets, lens, skip);
        const value = (i) => values.subarray(Number(offsets[i]), Number(offsets[i + 1]));
        for (const [name, reference] of Object.entries(REFERENCES)) {
          const many = chunkhash.hashMany(name, { values, offsets });
          const len = many.length / lens.length;
          assert.equal(many.length % lens.length, 0);
          lens.forEach((_, i) => assert.equal(hex(many.subarray(i * len, (i + 1) * len)), reference(value(i)), `${name} ${Offsets.name} value ${i}`));
        }
        const key = rng.bytes(32);
        const keyed = chunkhash.hashMany('BLAKE3', { values: values.buffer, offsets }, { key });
        lens.forEach((_, i) => assert.equal(hex(keyed.subarray(32 * i, 32 * i + 32)), hex(chunkhash.blake3(value(i), { key })), `keyed value ${i}`));
      }
      assert.deepEqual(chunkhash.hashMany('BLAKE3', { values: new Uint8Array(0), offsets: new Int32Array([0]) }), new Uint8Array(0));
    });

    test('BLAKE3 keyed and extended output against hash-wasm', async () => {
      await chunkhash.init(build.options);
      const rng = new TestRng(`differential BLAKE3 modes ${build.name}`);
      const key = rng.bytes(32);
      const keyed = once(await createBLAKE3(256, key));
      for (const len of lengths(rng, 20, 10000)) {
        const data = rng.bytes(len);
        assert.equal(hex(chunkhash.blake3(data, { key })), keyed(data), `keyed, ${len} bytes`);
        const outLen = rng.range(1, 300);
        const extended = once(await createBLAKE3(8 * outLen));
        assert.equal(hex(chunkhash.blake3(data, { length: outLen })), extended(data), `${outLen} output bytes of ${len}`);
      }
      const messages = lengths(rng, 50, 3000).map((len) => rng.bytes(len));
      const many = chunkhash.hashMany('BLAKE3', messages, { key });
      messages.forEach((m, i) => assert.equal(hex(many.subarray(32 * i, 32 * i + 32)), keyed(m), `keyed batch, message ${i}`));
    });
  });
}
