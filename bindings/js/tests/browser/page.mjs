// Loaded by tests/browser.test.mjs in headless Chromium: runs the package as
// a page would (a native ES module import, no bundler), through both builds,
// on the project's vectors, and leaves a summary in `window.result`.

import * as chunkhash from '/dist/chunkhash.mjs';

const hex = (bytes) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
const pattern = (len) => Uint8Array.from({ length: len }, (_, i) => i % 251);
const ascii = (s) => new TextEncoder().encode(s);

async function run() {
  const golden = await (await fetch('/vectors/golden.json')).json();
  const official = await (await fetch('/vectors/blake3/test_vectors.json')).json();
  const result = { simdSupported: chunkhash.simdSupported(), builds: [], failures: [] };
  const check = (actual, expected, what) => {
    if (actual !== expected) result.failures.push(`${what}: ${actual} != ${expected}`);
  };
  for (const simd of [true, false]) {
    const info = await chunkhash.init({ simd });
    let checked = 0;
    const modes = { hash: undefined, keyed_hash: { key: ascii(golden.key) }, derive_key: { deriveKeyContext: golden.context_string } };
    for (const row of golden.digests) {
      const input = pattern(row.input_len);
      const actual = row.mode === 'hash' ? chunkhash.hash(row.algorithm, input) : chunkhash.blake3(input, modes[row.mode]);
      check(hex(actual), row.hex, `${info.build} ${row.algorithm} ${row.mode} ${row.input_len}`);
      checked++;
    }
    for (const c of official.cases) {
      const input = pattern(c.input_len);
      check(hex(chunkhash.blake3(input, { length: 131 })), c.hash, `${info.build} BLAKE3 ${c.input_len}`);
      check(hex(chunkhash.blake3(input, { key: ascii(official.key), length: 131 })), c.keyed_hash, `${info.build} keyed ${c.input_len}`);
      check(hex(chunkhash.blake3(input, { deriveKeyContext: official.context_string, length: 131 })), c.derive_key, `${info.build} derive ${c.input_len}`);
      checked += 3;
    }
    const many = chunkhash.hashMany('BLAKE3', official.cases.map((c) => pattern(c.input_len)));
    official.cases.forEach((c, i) => check(hex(many.subarray(32 * i, 32 * i + 32)), c.hash.slice(0, 64), `${info.build} batch ${c.input_len}`));
    checked += official.cases.length;
    const hasher = chunkhash.createHasher('SHA-256').update('ab').update(ascii('c'));
    check(hex(hasher.digest()), 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad', `${info.build} SHA-256 hasher`);
    hasher.free();
    check(chunkhash.checksum('CRC32C', '123456789'), 0xe3069283, `${info.build} CRC32C checksum`);
    checked += 2;
    result.builds.push({ ...info, checked });
  }
  return result;
}

// The summary goes to `window.result` only when the run ends; no element
// may have the id `result`, or the browser's named access would make
// `window.result` that element from the start and the test would read it
// before the run ends.
run().then(
  (result) => {
    window.result = result;
    document.getElementById('output').textContent = JSON.stringify(result, null, 1);
  },
  (error) => {
    window.result = { error: String(error && error.stack ? error.stack : error) };
  },
);
