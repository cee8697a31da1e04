// The API's behaviour beyond the vectors: every input kind, strings as
// UTF-8, inputs larger than the module's 4 MiB staging area (fed in pieces),
// hashers (digest, reset, clone, free), batches split into groups, aliases,
// integer checksums. Run on the detected build; the vector and differential
// tests cover both.

import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { before, test } from 'node:test';
import { createBLAKE3 } from 'hash-wasm';
import * as chunkhash from 'chunkhash';
import { TestRng, hex, offsetsOf } from './helpers.mjs';

const MiB = 1 << 20;
const sha256 = (data) => createHash('sha256').update(data).digest('hex');
let blake3Reference;

before(async () => {
  await chunkhash.init();
  const hasher = await createBLAKE3();
  blake3Reference = (data) => {
    hasher.init();
    hasher.update(data);
    return hasher.digest('hex');
  };
});

test('every kind of input gives the digest of its bytes', () => {
  const bytes = new Uint8Array([0, 1, 2, 3, 250, 251, 252, 253, 254, 255, 9, 8]);
  const expected = hex(chunkhash.hash('SHA-256', bytes));
  assert.equal(expected, sha256(bytes));
  const shared = new SharedArrayBuffer(12);
  new Uint8Array(shared).set(bytes);
  const inputs = {
    Buffer: Buffer.from(bytes),
    ArrayBuffer: bytes.slice().buffer,
    SharedArrayBuffer: shared,
    DataView: new DataView(bytes.slice().buffer),
    Uint16Array: new Uint16Array(bytes.slice().buffer),
    Float64Array: new Float64Array(new Uint8Array([...bytes, 0, 0, 0, 0]).buffer).subarray(0, 1),
    'Uint8Array at an offset': new Uint8Array([7, 7, 7, ...bytes, 7]).subarray(3, 15),
    'Uint32Array at an offset': new Uint32Array(new Uint8Array([7, 7, 7, 7, ...bytes]).buffer, 4, 3),
  };
  for (const [kind, data] of Object.entries(inputs)) {
    const expectedHere = kind === 'Float64Array' ? hex(chunkhash.hash('SHA-256', bytes.subarray(0, 8))) : expected;
    assert.equal(hex(chunkhash.hash('SHA-256', data)), expectedHere, kind);
    assert.equal(hex(chunkhash.hashMany('SHA-256', [data])), expectedHere, `${kind}, batched`);
    assert.equal(hex(chunkhash.createHasher('SHA-256').update(data).digest()), expectedHere, `${kind}, hasher`);
  }
});

test('strings are hashed as UTF-8, lone surrogates as U+FFFD (as TextEncoder does)', () => {
  const strings = ['', 'abc', 'grüße', '日本語', '🦀 crab', 'a\u0000b', '\ud800', 'x\udc00y', '\ud83e', 'é'.repeat(1000)];
  for (const s of strings) {
    const utf8 = new TextEncoder().encode(s);
    for (const name of ['BLAKE3', 'XXH3-64', 'SHA-256']) {
      const expected = hex(chunkhash.hash(name, utf8));
      assert.equal(hex(chunkhash.hash(name, s)), expected, `${name} of ${JSON.stringify(s.slice(0, 10))}`);
      assert.equal(hex(chunkhash.createHasher(name).update(s).digest()), expected);
    }
    assert.equal(hex(chunkhash.blake3(s, { length: 50 })), hex(chunkhash.blake3(utf8, { length: 50 })));
  }
  const many = chunkhash.hashMany('BLAKE3', strings);
  strings.forEach((s, i) => assert.equal(hex(many.subarray(32 * i, 32 * i + 32)), blake3Reference(new TextEncoder().encode(s))));
});

test('inputs larger than the staging area go in pieces, same digest', () => {
  const rng = new TestRng('large inputs');
  const data = rng.bytes(9 * MiB + 123);
  assert.equal(hex(chunkhash.hash('SHA-256', data)), sha256(data));
  assert.equal(hex(chunkhash.hash('BLAKE3', data)), blake3Reference(data));
  assert.equal(hex(chunkhash.hashMany('BLAKE3', [data.subarray(0, 10), data, data.subarray(5)]).subarray(32, 64)), blake3Reference(data));
  assert.equal(hex(chunkhash.createHasher('BLAKE3').update(data).digest()), blake3Reference(data));
  const key = rng.bytes(32);
  const keyed = hex(chunkhash.blake3(data, { key }));
  assert.equal(keyed, hex(chunkhash.createHasher('BLAKE3', { key }).update(data.subarray(0, MiB)).update(data.subarray(MiB)).digest()));
  // A string of multi-byte characters whose UTF-8 crosses piece boundaries.
  const text = 'aé🦀'.repeat(1300000); // 5.2 M UTF-16 units, 9.1 MB of UTF-8
  const utf8 = new TextEncoder().encode(text);
  assert.ok(utf8.length > 2 * 4 * MiB);
  assert.equal(hex(chunkhash.hash('SHA-256', text)), sha256(utf8));
  assert.equal(hex(chunkhash.createHasher('SHA-256').update(text).digest()), sha256(utf8));
  assert.equal(hex(chunkhash.hashMany('SHA-256', ['x', text])).slice(64), sha256(utf8));
});

test('BLAKE3 output of any length, longer than the staging area too', () => {
  const data = new TextEncoder().encode('extended output');
  const long = chunkhash.blake3(data, { length: 9 * MiB + 5 });
  assert.equal(long.length, 9 * MiB + 5);
  for (const length of [0, 1, 31, 32, 33, 64, 65, 1000, 4 * MiB + 1]) {
    const out = chunkhash.blake3(data, { length });
    assert.equal(out.length, length);
    assert.deepEqual(out, long.subarray(0, length), `${length} bytes`);
  }
  const hasher = chunkhash.createHasher('BLAKE3').update(data);
  assert.deepEqual(hasher.digest(9 * MiB + 5), long);
  assert.deepEqual(hasher.digest(0), new Uint8Array(0));
  assert.deepEqual(hasher.digest(), long.subarray(0, 32));
});

test('a hasher: digest goes on, reset forgets, clone is independent, free releases', () => {
  const hasher = chunkhash.createHasher('xxh3');
  assert.equal(hasher.algorithm, 'XXH3-64');
  assert.equal(hasher.digestLength, 8);
  assert.equal(hasher.update('ab'), hasher);
  const ab = hex(hasher.digest());
  assert.equal(hex(hasher.digest()), ab);
  assert.equal(ab, hex(chunkhash.hash('XXH3-64', 'ab')));
  const copy = hasher.clone();
  hasher.update('c');
  assert.equal(hex(hasher.digest()), hex(chunkhash.hash('XXH3-64', 'abc')));
  assert.equal(hex(copy.digest()), ab);
  copy.update('d');
  assert.equal(hex(copy.digest()), hex(chunkhash.hash('XXH3-64', 'abd')));
  assert.equal(hasher.reset(), hasher);
  assert.equal(hex(hasher.digest()), hex(chunkhash.hash('XXH3-64', '')));
  const live = chunkhash.liveHashers();
  hasher.free();
  hasher.free(); // a second free does nothing
  assert.equal(chunkhash.liveHashers(), live - 1);
  assert.throws(() => hasher.update('x'), { name: 'TypeError', message: 'chunkhash: this hasher was freed' });
  assert.throws(() => hasher.digest(), TypeError);
  assert.throws(() => hasher.clone(), TypeError);
  assert.throws(() => hasher.reset(), TypeError);
  if (Symbol.dispose) {
    copy[Symbol.dispose]();
    assert.throws(() => copy.digest(), TypeError);
  } else {
    copy.free();
  }
});

test('keyed and key-derivation hashers keep their mode through reset and clone', () => {
  const key = new Uint8Array(32).fill(42);
  for (const options of [{ key }, { deriveKeyContext: 'chunkhash tests 2026 context' }]) {
    const expected = hex(chunkhash.blake3('material', options));
    const hasher = chunkhash.createHasher('BLAKE3', options).update('material');
    assert.equal(hex(hasher.digest()), expected);
    assert.equal(hex(hasher.clone().digest()), expected);
    assert.equal(hex(hasher.reset().update('material').digest()), expected);
    assert.equal(hex(chunkhash.hashMany('BLAKE3', ['material'], options)), expected);
    hasher.free();
  }
  // Key derivation is not the plain hash, nor the keyed one.
  assert.notEqual(hex(chunkhash.blake3('m', { deriveKeyContext: 'c' })), hex(chunkhash.blake3('m')));
});

test('a batch larger than one group (65536 messages, 4 MiB) is split and stays in order', () => {
  const rng = new TestRng('groups');
  const messages = Array.from({ length: 70000 }, (_, i) => (i % 3 === 0 ? `m${i}` : rng.bytes(i % 97)));
  messages.splice(12345, 0, rng.bytes(3 * MiB), rng.bytes(2 * MiB)); // 5 MiB: two groups there
  for (const name of ['BLAKE3', 'BLAKE3-160', 'CRC32C', 'SHA-256']) {
    const many = chunkhash.hashMany(name, messages);
    const len = many.length / messages.length;
    for (const i of [0, 1, 2, 12344, 12345, 12346, 12347, 65535, 65536, 65537, 69999, 70001]) {
      assert.equal(hex(many.subarray(i * len, (i + 1) * len)), hex(chunkhash.hash(name, messages[i])), `${name} message ${i}`);
    }
  }
});

test('a column larger than one group is split at its own offsets and stays in order', () => {
  const rng = new TestRng('column groups');
  const lens = Array.from({ length: 70000 }, (_, i) => i % 97);
  lens.splice(12345, 0, 3 * MiB, 2 * MiB);
  const skip = 5; // the column starts inside its buffer: offsets[0] is not 0
  const values = rng.bytes(skip + lens.reduce((a, b) => a + b, 0));
  for (const Offsets of [Int32Array, BigInt64Array]) {
    const offsets = offsetsOf(Offsets, lens, skip);
    for (const name of ['BLAKE3', 'BLAKE3-160', 'XXH3-64', 'MD5']) {
      const many = chunkhash.hashMany(name, { values, offsets });
      const len = many.length / lens.length;
      for (const i of [0, 1, 12344, 12345, 12346, 12347, 65535, 65536, 65537, 70001]) {
        const value = values.subarray(Number(offsets[i]), Number(offsets[i + 1]));
        assert.equal(hex(many.subarray(i * len, (i + 1) * len)), hex(chunkhash.hash(name, value)), `${name} ${Offsets.name} value ${i}`);
      }
    }
  }
});

test('batches take any iterable, and an empty one', () => {
  assert.deepEqual(chunkhash.hashMany('BLAKE3', []), new Uint8Array(0));
  function* generate() {
    yield 'a';
    yield new Uint8Array([98]);
  }
  const many = chunkhash.hashMany('SHA-512/160', generate());
  assert.equal(many.length, 40);
  assert.equal(hex(many.subarray(20)), hex(chunkhash.hash('SHA-512/160', 'b')));
  assert.equal(hex(chunkhash.hashMany('XXH32', new Set(['a', 'b']))), hex(chunkhash.hash('XXH32', 'a')) + hex(chunkhash.hash('XXH32', 'b')));
});

test('names and aliases in any case, with _ for -', () => {
  const same = {
    BLAKE3: ['blake3', 'b3', 'Blake3'],
    'BLAKE3-160': ['blake3_160', 'b3-160'],
    'XXH3-64': ['xxh3', 'XXH3', 'xxh3_64', 'xxh3-64bits'],
    'XXH3-128': ['xxh128', 'xxh3-128'],
    'SHA-256': ['sha256', 'SHA_256', 'sha2-256'],
    'SHA-512/160': ['sha512-160', 'sha512/160'],
    CRC32C: ['crc32c', 'crc-32c', 'crc-32/iscsi'],
    'BLAKE2b-512': ['blake2b', 'blake2B-512'],
  };
  for (const [name, aliases] of Object.entries(same)) {
    const expected = hex(chunkhash.hash(name, 'alias'));
    for (const alias of aliases) assert.equal(hex(chunkhash.hash(alias, 'alias')), expected, alias);
  }
});

test('integer checksums: numbers for 32 bits, bigints above', () => {
  assert.equal(chunkhash.checksum('CRC32C', '123456789'), 0xe3069283);
  assert.equal(typeof chunkhash.checksum('XXH32', ''), 'number');
  assert.equal(chunkhash.checksum('XXH64', ''), 0xef46db3751d8e999n);
  assert.equal(typeof chunkhash.checksum('XXH3-64', ''), 'bigint');
  const x128 = chunkhash.checksum('XXH3-128', 'abc');
  assert.equal(x128, BigInt(`0x${hex(chunkhash.hash('XXH3-128', 'abc'))}`));
  assert.ok(x128 > 1n << 64n || x128 < 1n << 64n); // a bigint of up to 128 bits
  const hasher = chunkhash.createHasher('CRC32C').update('1234').update('56789');
  assert.equal(hasher.checksum(), 0xe3069283);
  hasher.free();
});

test('trailers take a number or bigint context up to 2^64 - 1', () => {
  for (const context of [0, 4096, Number.MAX_SAFE_INTEGER, 2n ** 64n - 1n]) {
    const sealed = chunkhash.sealTrailer('XXH3-64', 'block', context);
    assert.equal(sealed.length, 9);
    assert.equal(chunkhash.verifyTrailer('block', sealed, BigInt(context)), 'XXH3-64');
  }
  assert.deepEqual(chunkhash.sealTrailer('CRC32C', 'b', 7), chunkhash.sealTrailer('CRC32C', 'b', 7n));
});

test('toHex', () => {
  assert.equal(chunkhash.toHex(new Uint8Array([0, 15, 16, 255])), '000f10ff');
  assert.equal(chunkhash.toHex(new Uint16Array([0x0102])), '0201');
});
