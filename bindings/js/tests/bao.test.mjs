// Bao through both builds: the `bao` crate's vectors (vectors/bao, the same
// file the Rust, C, Python and Java tests read): outboards, combined
// encodings and slices byte for byte, every listed corruption rejected;
// then every single-bit flip of a small slice, truncation, extension, the
// wrong root, key, group size and range, and bad arguments.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import * as chunkhash from 'chunkhash';
import { xorshiftBytes } from './chunk-inputs.mjs';
import { BUILDS, hex, repo, TestRng } from './helpers.mjs';

const vectors = JSON.parse(readFileSync(join(repo, 'vectors', 'bao', 'test_vectors.json'), 'utf8'));

/** The vectors' input: a 4-byte little-endian counter from 1 (vectors::bao_input). */
function baoInput(len) {
  const out = new Uint8Array(len + 4);
  const view = new DataView(out.buffer);
  for (let i = 0; 4 * i < len; i++) view.setUint32(4 * i, i + 1, true);
  return out.subarray(0, len);
}

const blake3Hex = (bytes) => hex(chunkhash.blake3(bytes));

function flipped(bytes, index, mask = 1) {
  const out = bytes.slice();
  out[index] ^= mask;
  return out;
}

/** The BaoError `f` throws (fails if it returns). */
function baoError(f) {
  try {
    f();
  } catch (error) {
    assert.ok(error instanceof chunkhash.BaoError, `not a BaoError: ${error}`);
    return error;
  }
  assert.fail('no error');
}

for (const build of BUILDS) {
  describe(`${build.name} build`, () => {
    test('bao vectors: hash, outboard, encode, slice and every corruption', async () => {
      await chunkhash.init(build.options);
      for (const c of vectors.hash) {
        const { root } = chunkhash.baoOutboard(baoInput(c.input_len));
        assert.equal(hex(root), c.bao_hash, `root of ${c.input_len}`);
      }
      for (const c of vectors.outboard) {
        const input = baoInput(c.input_len);
        const { root, outboard } = chunkhash.baoOutboard(input);
        assert.equal(hex(root), c.bao_hash);
        assert.equal(outboard.length, c.output_len);
        assert.equal(blake3Hex(outboard), c.encoded_blake3, `outboard of ${c.input_len}`);
        // Damage to the outboard or the data shows when the slice of it all is read.
        const all = (data, ob) => chunkhash.baoDecode(root, chunkhash.baoSlice(data, 0, 2 ** 53 - 1, { outboard: ob }), { start: 0, count: 2 ** 53 - 1 });
        assert.deepEqual(all(input, outboard), input);
        for (const point of c.outboard_corruptions) {
          assert.throws(() => all(input, flipped(outboard, point)), chunkhash.BaoError, `outboard corruption at ${point}`);
        }
        for (const point of c.input_corruptions) {
          assert.throws(() => all(flipped(input, point), outboard), chunkhash.BaoError, `input corruption at ${point}`);
        }
      }
      for (const c of vectors.encode) {
        const input = baoInput(c.input_len);
        const { root, encoding } = chunkhash.baoEncode(input);
        assert.equal(hex(root), c.bao_hash);
        assert.equal(encoding.length, c.output_len);
        assert.equal(blake3Hex(encoding), c.encoded_blake3, `encoding of ${c.input_len}`);
        assert.deepEqual(chunkhash.baoDecode(root, encoding), input);
        for (const point of c.corruptions) {
          const error = baoError(() => chunkhash.baoDecode(root, flipped(encoding, point)));
          // Only verified bytes come back: a prefix of the input, short of all of it.
          assert.ok(error.verified.length < Math.max(input.length, 1), `corruption at ${point}`);
          assert.deepEqual(error.verified, input.subarray(0, error.verified.length));
        }
      }
      let slices = 0;
      for (const c of vectors.slice) {
        const input = baoInput(c.input_len);
        const { root, outboard } = chunkhash.baoOutboard(input);
        const { encoding } = chunkhash.baoEncode(input);
        for (const s of c.slices) {
          const slice = chunkhash.baoSlice(input, s.start, s.len, { outboard });
          assert.equal(slice.length, s.output_len);
          assert.equal(blake3Hex(slice), s.output_blake3, `slice ${s.start}+${s.len} of ${c.input_len}`);
          assert.deepEqual(chunkhash.baoSlice(encoding, s.start, s.len), slice, 'from the encoding');
          const expected = input.subarray(Math.min(s.start, input.length), Math.min(s.start + s.len, input.length));
          assert.deepEqual(chunkhash.baoDecode(root, slice, { start: s.start, count: s.len }), expected);
          for (const point of s.corruptions) {
            assert.throws(() => chunkhash.baoDecode(root, flipped(slice, point), { start: s.start, count: s.len }), chunkhash.BaoError);
          }
          slices++;
        }
      }
      assert.ok(slices > 50, `${slices} slices`);
    });

    test('every bit flip of a slice, truncation, extension, wrong root, key, group size and range', async () => {
      await chunkhash.init(build.options);
      const rng = new TestRng('bao flips', 33);
      const input = rng.bytes(9000);
      const key = rng.bytes(32);
      for (const [options, groupLog] of [[{}, 0], [{ key }, 1], [{ deriveKeyContext: 'chunkhash bao test' }, 2]]) {
        const { root, outboard } = chunkhash.baoOutboard(input, { ...options, groupLog });
        assert.deepEqual(root, chunkhash.blake3(input, options));
        const [start, count] = [5000, 100];
        const slice = chunkhash.baoSlice(input, start, count, { outboard, groupLog });
        const read = (bytes, more = {}) => chunkhash.baoDecode(root, bytes, { ...options, groupLog, start, count, ...more });
        assert.deepEqual(read(slice), input.subarray(start, start + count));
        // A flip in the body is an error. One in the length header may go
        // unseen where the slice does not prove the length (it has no final
        // group: as in Bao's spec), and then the bytes read are still right.
        let unseen = 0;
        // Every byte with 1 KiB groups; with larger ones (the same code on
        // longer groups) every 7th, to keep the test short.
        for (let i = 0; i < slice.length; i += groupLog === 0 ? 1 : 7) {
          for (let bit = 0; bit < 8; bit++) {
            let out;
            try {
              out = read(flipped(slice, i, 1 << bit));
            } catch (error) {
              assert.ok(error instanceof chunkhash.BaoError, String(error));
              assert.ok(['mismatch', 'truncated', 'extended'].includes(error.kind), error.message);
              assert.equal(error.verified.length, 0, 'one range: nothing before the failing group');
              continue;
            }
            assert.ok(i < 8, `flip of bit ${bit} of byte ${i} accepted`);
            assert.deepEqual(out, input.subarray(start, start + count));
            unseen++;
          }
        }
        assert.ok(unseen < 16, `${unseen} header flips unseen`);
        for (const cut of [0, 7, 8, 72, slice.length - 1]) {
          const error = baoError(() => read(slice.subarray(0, cut)));
          assert.equal(error.kind, 'truncated');
          assert.match(error.message, /the stream ends at byte/);
        }
        const longer = new Uint8Array(slice.length + 1);
        longer.set(slice);
        const extended = baoError(() => read(longer));
        assert.equal(extended.kind, 'extended');
        assert.deepEqual(extended.verified, input.subarray(start, start + count));
        assert.equal(baoError(() => chunkhash.baoDecode(flipped(root, 31, 0x80), slice, { ...options, groupLog, start, count })).kind, 'mismatch');
        assert.ok(['mismatch', 'truncated'].includes(baoError(() => read(slice, { groupLog: groupLog + 1 })).kind));
        assert.throws(() => read(slice, { start: 0 }), chunkhash.BaoError, 'a slice for another range');
        if (options.key) assert.equal(baoError(() => chunkhash.baoDecode(root, slice, { groupLog, start, count })).kind, 'mismatch');
      }
      // A truncated combined encoding gives the groups verified before the cut, and the error.
      const { root, encoding } = chunkhash.baoEncode(input);
      const cut = baoError(() => chunkhash.baoDecode(root, encoding.subarray(0, 6000)));
      assert.equal(cut.kind, 'truncated');
      assert.ok(cut.verified.length > 0 && cut.verified.length % 1024 === 0);
      assert.deepEqual(cut.verified, input.subarray(0, cut.verified.length));
    });

    test('post-order outboards, large groups, strings and bigints', async () => {
      await chunkhash.init(build.options);
      const input = new TextEncoder().encode('chunkhash '.repeat(40000));
      for (const groupLog of [0, 4, 16]) {
        const pre = chunkhash.baoOutboard(input, { groupLog });
        const post = chunkhash.baoOutboard(input, { groupLog, order: 'post' });
        assert.deepEqual(post.root, pre.root);
        assert.equal(post.outboard.length, pre.outboard.length);
        const fromPost = chunkhash.baoSlice(input, 123456n, 70000n, { outboard: post.outboard, order: 'post', groupLog });
        assert.deepEqual(fromPost, chunkhash.baoSlice(input, 123456, 70000, { outboard: pre.outboard, groupLog }));
        assert.deepEqual(chunkhash.baoDecode(pre.root, fromPost, { groupLog, start: 123456n, count: 70000n }), input.subarray(123456, 193456));
      }
      assert.deepEqual(chunkhash.baoOutboard('chunkhash '.repeat(40000)).outboard, chunkhash.baoOutboard(input).outboard);
      // Past the end: the last group proves the length and no bytes come.
      const { root, outboard } = chunkhash.baoOutboard(input);
      const past = chunkhash.baoSlice(input, 10n ** 18n, 5, { outboard });
      assert.equal(chunkhash.baoDecode(root, past, { start: 10n ** 18n, count: 5 }).length, 0);
      const empty = chunkhash.baoEncode(new Uint8Array(0));
      assert.equal(chunkhash.baoDecode(empty.root, empty.encoding).length, 0);
    });

    test('outboards of inputs copied in pieces are the one-shot call\'s', async () => {
      await chunkhash.init(build.options);
      const e = chunkhash._benchmarkEngine();
      const input = xorshiftBytes(3 * (256 << 10) + 5000);
      for (const [groupLog, order] of [[0, 'pre'], [0, 'post'], [4, 'pre'], [9, 'post'], [12, 'pre']]) {
        const ours = chunkhash.baoOutboard(input, { groupLog, order });
        e.reserve(input.length);
        e.view().set(input, e.staging);
        const whole = e.readOutput(e.check(e.ex.chunkhash_bao_outboard(0, 0, input.length, groupLog, order === 'post' ? 1 : 0)));
        assert.deepEqual(ours, { root: whole.subarray(0, 32), outboard: whole.subarray(32) }, `groupLog ${groupLog} ${order}`);
        assert.equal(hex(ours.root), blake3Hex(input));
      }
    });

    test('an outboard in pieces ends at its first error; an empty piece adds nothing', async () => {
      await chunkhash.init(build.options);
      const e = chunkhash._benchmarkEngine();
      const input = xorshiftBytes(8 * 1024 + 5);
      const update = (bytes) => e.check(e.ex.chunkhash_bao_outboard_update(e.put(bytes, 0, bytes.length)));
      const finish = () => e.readOutput(e.check(e.ex.chunkhash_bao_outboard_finish()));
      const begin = () => e.check(e.ex.chunkhash_bao_outboard_begin(0, 0, BigInt(input.length), 0, 0));
      const { root, outboard } = chunkhash.baoOutboard(input);
      begin();
      update(input.subarray(0, 1024));
      // Three groups are no subtree: an error, after which the outboard is
      // gone (it used to take the next piece as if nothing had happened).
      assert.throws(() => update(input.subarray(1024, 4096)), /piece/);
      assert.throws(() => update(input.subarray(1024, 2048)), /no Bao outboard in progress/);
      assert.throws(finish, /no Bao outboard in progress/);
      // Begun again: empty pieces anywhere, the one-shot call's bytes.
      begin();
      for (const [start, end] of [[0, 0], [0, 4096], [4096, 4096], [4096, 8192], [8192, input.length], [input.length, input.length]]) {
        update(input.subarray(start, end));
      }
      const whole = finish();
      assert.deepEqual({ root: whole.subarray(0, 32), outboard: whole.subarray(32) }, { root, outboard });
    });

    test('bad arguments are TypeErrors, RangeErrors or BaoErrors naming the value', async () => {
      await chunkhash.init(build.options);
      const data = new Uint8Array(5000);
      const { root, outboard } = chunkhash.baoOutboard(data);
      assert.throws(() => chunkhash.baoOutboard(data, { groupLog: 17 }), /groupLog is a whole number from 0 .* not 17/);
      assert.throws(() => chunkhash.baoOutboard(data, { groupLog: 1.5 }), RangeError);
      assert.throws(() => chunkhash.baoOutboard(data, { order: 'in' }), /order is 'pre' or 'post'/);
      assert.throws(() => chunkhash.baoOutboard(data, { group: 1 }), /unknown option "group"/);
      assert.throws(() => chunkhash.baoOutboard(null), TypeError);
      assert.throws(() => chunkhash.baoOutboard(data, { key: new Uint8Array(31) }), /key is 32 bytes, not 31/);
      assert.throws(() => chunkhash.baoSlice(data, -1, 1, { outboard }), /start is an integer from 0/);
      assert.throws(() => chunkhash.baoSlice(data, 0, 2n ** 64n, { outboard }), /count is an integer from 0/);
      assert.throws(() => chunkhash.baoSlice(data, 0, '1', { outboard }), TypeError);
      assert.equal(baoError(() => chunkhash.baoSlice(data, 0, 1, { outboard: outboard.subarray(0, 3) })).kind, 'length');
      assert.equal(baoError(() => chunkhash.baoSlice(data.subarray(1), 0, 1, { outboard })).kind, 'length');
      assert.equal(baoError(() => chunkhash.baoSlice(data, 0, 1)).kind, 'length', 'data taken for an encoding');
      assert.throws(() => chunkhash.baoDecode(root.subarray(1), outboard), /root hash is 32 bytes, not 31/);
      assert.throws(() => chunkhash.baoDecode(root, 'text'), TypeError);
      assert.throws(() => chunkhash.baoDecode(root, outboard, { start: 0 }), /both start and count/);
      // After errors the module goes on.
      assert.deepEqual(chunkhash.baoOutboard(data), { root, outboard });
    });
  });
}
