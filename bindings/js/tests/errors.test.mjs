// Every bad input: a TypeError for a wrong type, a RangeError for a value
// out of range (key length, output length, unknown name), a TrailerError
// for a trailer that does not check out; each with a message that says
// what was wrong. Nothing is hashed after an error, and the module stays
// usable.

import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import * as chunkhash from 'chunkhash';

before(() => chunkhash.init());

const NOT_DATA = [
  [42, 'the number 42'],
  [null, 'null'],
  [undefined, 'undefined'],
  [true, 'the boolean true'],
  [10n, 'the bigint 10'],
  [{}, 'a Object'],
  [[1, 2], 'a Array'],
  [Object.create(null), 'an object'],
];

/** Asserts that `fn` throws `type` with a message matching `message`. */
function rejects(fn, type, message) {
  assert.throws(fn, (error) => {
    assert.equal(error.constructor, type, `${error.name}: ${error.message}`);
    assert.match(error.message, message);
    assert.match(error.message, /^chunkhash: /);
    return true;
  });
}

test('data that is not bytes or a string', () => {
  const hasher = chunkhash.createHasher('SHA-256');
  for (const [value, described] of NOT_DATA) {
    const message = new RegExp(`data must be a Uint8Array, ArrayBuffer or other ArrayBufferView, or a string, not ${described}$`);
    rejects(() => chunkhash.hash('BLAKE3', value), TypeError, message);
    rejects(() => chunkhash.blake3(value), TypeError, message);
    rejects(() => chunkhash.checksum('CRC32C', value), TypeError, message);
    rejects(() => hasher.update(value), TypeError, message);
    rejects(() => chunkhash.sealTrailer('CRC32C', value, 0), TypeError, /block must be/);
    rejects(() => chunkhash.verifyTrailer(value, new Uint8Array(5), 0), TypeError, /block must be/);
  }
  assert.equal(chunkhash.toHex(hasher.digest()), chunkhash.toHex(chunkhash.hash('SHA-256', '')));
  hasher.free();
});

test('algorithm names: not a string, or unknown', () => {
  for (const value of [1, null, undefined, {}]) {
    rejects(() => chunkhash.hash(value, ''), TypeError, /the algorithm must be a name \(string\)/);
    rejects(() => chunkhash.createHasher(value), TypeError, /the algorithm must be a name/);
    rejects(() => chunkhash.hashMany(value, []), TypeError, /the algorithm must be a name/);
  }
  for (const name of ['', 'md4', 'sha-257', ' sha256', 'SHA-256 ', 'x'.repeat(10000)]) {
    rejects(() => chunkhash.hash(name, ''), RangeError, /unknown algorithm ".*", expected one of BLAKE3, BLAKE3-160, XXH3-64, .*SHA-512\/160/);
    rejects(() => chunkhash.createHasher(name), RangeError, /unknown algorithm/);
    rejects(() => chunkhash.hashMany(name, ['a']), RangeError, /unknown algorithm/);
    rejects(() => chunkhash.checksum(name, ''), RangeError, /unknown algorithm/);
    rejects(() => chunkhash.sealTrailer(name, '', 0), RangeError, /unknown algorithm/);
  }
});

test('BLAKE3 options', () => {
  for (const options of [null, 5, 'key', true]) {
    rejects(() => chunkhash.blake3('', options), TypeError, /BLAKE3 options must be an object/);
    rejects(() => chunkhash.createHasher('BLAKE3', options), TypeError, /BLAKE3 options must be an object/);
  }
  rejects(() => chunkhash.blake3('', { lenght: 5 }), TypeError, /unknown BLAKE3 option "lenght" \(expected length, key or deriveKeyContext\)/);
  rejects(() => chunkhash.createHasher('BLAKE3', { length: 64 }), TypeError, /unknown BLAKE3 option "length" \(expected key or deriveKeyContext\)/);
  rejects(() => chunkhash.hashMany('BLAKE3', [], { length: 64 }), TypeError, /unknown BLAKE3 option "length"/);
  for (const key of ['k'.repeat(32), 32, null, [1, 2]]) {
    rejects(() => chunkhash.blake3('', { key }), TypeError, /key must be a Uint8Array, ArrayBuffer or other ArrayBufferView, not/);
  }
  for (const len of [0, 16, 31, 33, 64]) {
    rejects(() => chunkhash.blake3('', { key: new Uint8Array(len) }), RangeError, new RegExp(`a BLAKE3 key is 32 bytes, not ${len}$`));
    rejects(() => chunkhash.createHasher('BLAKE3', { key: new ArrayBuffer(len) }), RangeError, /a BLAKE3 key is 32 bytes/);
    rejects(() => chunkhash.hashMany('BLAKE3', ['a'], { key: new Uint8Array(len) }), RangeError, /a BLAKE3 key is 32 bytes/);
  }
  rejects(() => chunkhash.blake3('', { key: new Uint8Array(32), deriveKeyContext: 'c' }), TypeError, /a key or a deriveKeyContext, not both/);
  for (const context of [5, null, new Uint8Array(3)]) {
    rejects(() => chunkhash.blake3('', { deriveKeyContext: context }), TypeError, /deriveKeyContext must be a string/);
  }
  for (const length of [-1, 1.5, NaN, Infinity, 2 ** 53]) {
    rejects(() => chunkhash.blake3('', { length }), RangeError, /length must be a whole number of bytes, 0 or more/);
  }
  for (const length of ['32', 32n, null]) {
    rejects(() => chunkhash.blake3('', { length }), TypeError, /length must be a number/);
  }
});

test('options given to algorithms that take none', () => {
  rejects(() => chunkhash.createHasher('SHA-256', { key: new Uint8Array(32) }), TypeError, /SHA-256 takes no options \(key and deriveKeyContext are BLAKE3's\)/);
  rejects(() => chunkhash.hashMany('BLAKE3-160', [], { deriveKeyContext: 'c' }), TypeError, /BLAKE3-160 takes no options/);
  rejects(() => chunkhash.createHasher('CRC32C', 7), TypeError, /options must be an object/);
  const hasher = chunkhash.createHasher('XXH64');
  rejects(() => hasher.digest(8), TypeError, /XXH64 has a fixed digest length; only BLAKE3 takes a length/);
  const blake3 = chunkhash.createHasher('BLAKE3');
  rejects(() => blake3.digest(-5), RangeError, /length must be a whole number/);
  rejects(() => blake3.digest('5'), TypeError, /length must be a number/);
  hasher.free();
  blake3.free();
});

test('batches that are not lists of inputs', () => {
  for (const [value, described] of [[42, 'the number 42'], [null, 'null'], ['abc', 'the string "abc"'], [new Uint8Array(4), 'a Uint8Array'], [{}, 'a Object']]) {
    rejects(() => chunkhash.hashMany('BLAKE3', value), TypeError, new RegExp(`messages must be an array \\(or other iterable\\) of inputs, or a \\{values, offsets\\} column, not ${described}`));
  }
  rejects(() => chunkhash.hashMany('BLAKE3', ['ok', new Uint8Array(1), 3]), TypeError, /messages\[2\] must be a Uint8Array, ArrayBuffer or other ArrayBufferView, or a string, not the number 3/);
  rejects(() => chunkhash.hashMany('XXH3-64', [null]), TypeError, /messages\[0\] must be/);
});

test('columns with bad values or offsets', () => {
  const values = new Uint8Array(10);
  rejects(() => chunkhash.hashMany('BLAKE3', { values, offsets: [0, 10] }), TypeError, /offsets must be an Int32Array, Uint32Array or BigInt64Array, not a Array/);
  rejects(() => chunkhash.hashMany('BLAKE3', { values: 'text', offsets: new Int32Array([0, 1]) }), TypeError, /values must be a Uint8Array, ArrayBuffer or other ArrayBufferView, not the string "text"/);
  rejects(() => chunkhash.hashMany('BLAKE3', { values, offsets: new Int32Array(0) }), RangeError, /offsets is empty: n values take n \+ 1 offsets/);
  rejects(() => chunkhash.hashMany('BLAKE3', { values, offsets: new Int32Array([-1, 4]) }), RangeError, /offsets\[0\] is -1, below 0/);
  rejects(() => chunkhash.hashMany('XXH3-64', { values, offsets: new Int32Array([0, 6, 5]) }), RangeError, /offsets\[2\] is 5, below offsets\[1\] \(6\): offsets must not decrease/);
  rejects(() => chunkhash.hashMany('CRC32C', { values, offsets: new BigInt64Array([0n, 11n]) }), RangeError, /the last offset is 11, past the end of values \(10 bytes\)/);
  rejects(() => chunkhash.hashMany('BLAKE3', { values: new Uint8Array(4), offsets: new Uint32Array([0, 5]) }), RangeError, /the last offset is 5, past the end of values \(4 bytes\)/);
  // The module stays usable, and a good column after bad ones hashes.
  assert.equal(chunkhash.hashMany('BLAKE3', { values, offsets: new Uint32Array([0, 10]) }).length, 32);
});

test('checksums of cryptographic hashes', () => {
  for (const name of ['BLAKE3', 'SHA-256', 'BLAKE2b-512', 'SHA-512/160']) {
    rejects(() => chunkhash.checksum(name, ''), RangeError, /is not an integer checksum; checksum\(\) takes XXH3-64, XXH3-128, XXH64, XXH32, CRC32C, CRC-32, CRC-64\/NVME/);
  }
  const hasher = chunkhash.createHasher('sha256');
  rejects(() => hasher.checksum(), RangeError, /SHA-256 is not an integer checksum/);
  hasher.free();
});

test('trailer contexts and trailers', () => {
  for (const context of [-1, 1.5, NaN, 2 ** 53, -1n, 2n ** 64n]) {
    rejects(() => chunkhash.sealTrailer('CRC32C', '', context), RangeError, /a trailer context is an integer from 0 to 2\^64 - 1/);
    rejects(() => chunkhash.verifyTrailer('', new Uint8Array(5), context), RangeError, /a trailer context is an integer/);
  }
  for (const context of ['5', null, undefined]) {
    rejects(() => chunkhash.sealTrailer('CRC32C', '', context), TypeError, /a trailer context is a number or bigint/);
  }
  rejects(() => chunkhash.verifyTrailer('', 'trailer', 0), TypeError, /trailer must be a Uint8Array, ArrayBuffer or other ArrayBufferView, not the string "trailer"/);
  const sealed = chunkhash.sealTrailer('SHA-256', 'block', 9);
  const cases = [
    ['mismatch', 'block', sealed, 10, /SHA-256 checksum mismatch: the block, its trailer or the context differs from what was sealed/],
    ['mismatch', 'blocK', sealed, 9, /SHA-256 checksum mismatch/],
    ['truncated', 'block', sealed.subarray(0, 32), 9, /truncated SHA-256 trailer: 32 bytes, expected 33/],
    ['truncated', 'block', new Uint8Array(0), 9, /trailer is empty/],
    ['too-long', 'block', new Uint8Array([...sealed, 0]), 9, /SHA-256 trailer is too long: 34 bytes, expected 33/],
    ['unknown-algorithm', 'block', new Uint8Array([0, 1, 2, 3, 4]), 9, /trailer names unknown algorithm id 0/],
    ['unknown-algorithm', 'block', new Uint8Array([200, 1, 2, 3, 4]), 9, /unknown algorithm id 200/],
  ];
  for (const [kind, block, trailer, context, message] of cases) {
    assert.throws(() => chunkhash.verifyTrailer(block, trailer, context), (error) => {
      assert.ok(error instanceof chunkhash.TrailerError, `${error}`);
      assert.ok(error instanceof Error);
      assert.equal(error.name, 'TrailerError');
      assert.equal(error.kind, kind);
      assert.match(error.message, message);
      return true;
    });
  }
});

test('init options', async () => {
  for (const options of [null, 5, 'simd']) {
    await assert.rejects(chunkhash.init(options), { name: 'TypeError', message: /init options must be an object/ });
  }
  for (const simd of ['yes', 1, null]) {
    await assert.rejects(chunkhash.init({ simd }), { name: 'TypeError', message: /the simd option must be a boolean/ });
  }
});

test('hashers are made by createHasher only', () => {
  assert.throws(() => new chunkhash.Hasher(), { name: 'TypeError', message: 'chunkhash: make hashers with createHasher()' });
  rejects(() => chunkhash.toHex('00'), TypeError, /bytes must be a Uint8Array/);
});

test('after all those errors the module still hashes, and no hasher is left', () => {
  assert.equal(chunkhash.checksum('CRC32C', '123456789'), 0xe3069283);
  assert.equal(chunkhash.liveHashers(), 0);
});
