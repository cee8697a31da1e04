// The two WebAssembly modules in dist/modules.mjs and how they fit together:
// the stream decodes (by lib/lzma.mjs and by liblzma alike) to the modules
// the build recorded, and compresses back to itself (a rebuild gives the
// same file); the main module (every algorithm, no SIMD instruction) imports
// its memory and exactly the SIMD128 module's kernels; the SIMD128 module
// lives in the gap of the memory the main module's layout leaves; either
// build gives the same results, the scalar one through stubs it never calls.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import embedded, { layout, lengths, lzma } from '../dist/modules.mjs';
import { decodeLzma1 } from '../dist/lzma.mjs';
import { compressLzma1, decompressLzma1, MODULE_SETTINGS } from '../scripts/python-lzma.mjs';
import * as chunkhash from 'chunkhash';
import { inputPattern } from './helpers.mjs';

const stream = new Uint8Array(Buffer.from(embedded, 'base64'));
const decoded = decodeLzma1(stream, { ...lzma, size: lengths.main + lengths.simd128, endMarker: true });
const mainBytes = decoded.subarray(0, lengths.main);
const simdBytes = decoded.subarray(lengths.main);
const main = new WebAssembly.Module(mainBytes);
const simd = new WebAssembly.Module(simdBytes);

test('the embedded stream decodes to the modules dist/build.json names, by our decoder and by liblzma alike', () => {
  const build = JSON.parse(readFileSync(new URL('../dist/build.json', import.meta.url), 'utf8'));
  const sha256 = (bytes) => createHash('sha256').update(bytes).digest('hex');
  assert.deepEqual(Object.keys(build.modules), ['main', 'simd128']);
  assert.equal(sha256(mainBytes), build.modules.main.sha256);
  assert.equal(sha256(simdBytes), build.modules.simd128.sha256);
  assert.deepEqual(lengths, { main: build.modules.main.wasmBytes, simd128: build.modules.simd128.wasmBytes });
  assert.equal(stream.length, build.embedded.lzmaBytes);
  assert.deepEqual(decompressLzma1(stream, lzma), decoded, 'liblzma decodes the same bytes');
});

test('the embedded stream is the build\'s, byte for byte: compressing the modules again gives it', () => {
  assert.deepEqual(lzma, MODULE_SETTINGS);
  assert.deepEqual(compressLzma1(decoded, MODULE_SETTINGS), stream);
});

test('the main module imports its memory and exactly the SIMD128 module\'s kernels', () => {
  const imports = WebAssembly.Module.imports(main);
  assert.deepEqual(imports.filter((i) => i.module === 'env'), [{ module: 'env', name: 'memory', kind: 'memory' }]);
  const kernels = imports.filter((i) => i.module === 'chunkhash_simd128');
  assert.equal(kernels.length + 1, imports.length, 'no other imports');
  assert.ok(kernels.every((i) => i.kind === 'function'));
  const exported = WebAssembly.Module.exports(simd).filter((e) => e.kind === 'function');
  assert.deepEqual(kernels.map((i) => i.name).sort(), exported.map((e) => e.name).sort());
  assert.deepEqual(WebAssembly.Module.imports(simd), [{ module: 'env', name: 'memory', kind: 'memory' }]);
});

test('only the SIMD128 module has SIMD instructions (wabt\'s wasm-validate --disable-simd)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'chunkhash-modules-'));
  try {
    const validate = (bytes, name) => {
      writeFileSync(join(dir, name), bytes);
      try {
        execFileSync('wasm-validate', ['--disable-simd', join(dir, name)], { stdio: 'pipe' });
        return 'valid';
      } catch (error) {
        if (error.code === 'ENOENT') throw new Error('wasm-validate (Debian\'s wabt) is missing: make test-js installs it');
        return 'invalid';
      }
    };
    assert.equal(validate(mainBytes, 'main.wasm'), 'valid');
    assert.equal(validate(simdBytes, 'simd128.wasm'), 'invalid');
  } finally {
    rmSync(dir, { recursive: true });
  }
});

test('the SIMD128 module\'s data and stack lie in the gap between the main module\'s stack and data', async () => {
  assert.ok(layout.gapStart < layout.gapEnd && layout.gapEnd <= layout.pages * 65536);
  const memory = new WebAssembly.Memory({ initial: layout.pages });
  const side = (await WebAssembly.instantiate(simd, { env: { memory } })).exports;
  assert.ok(layout.gapStart < side.__data_end.value, 'data from the gap\'s start');
  assert.ok(side.__data_end.value <= side.__heap_base.value && side.__heap_base.value <= layout.gapEnd, 'stack after the data, inside the gap');
  // Instantiating the SIMD128 module writes nothing outside the gap.
  const bytes = new Uint8Array(memory.buffer);
  assert.ok(bytes.subarray(0, layout.gapStart).every((b) => b === 0), 'below the gap');
  assert.ok(bytes.subarray(layout.gapEnd).every((b) => b === 0), 'above the gap');
  // The main module's data start at the gap's end: its first global (the
  // stack pointer) is not exported, but its data end is.
  const stubs = Object.fromEntries(WebAssembly.Module.imports(main).filter((i) => i.module === 'chunkhash_simd128').map((i) => [i.name, () => assert.fail(`${i.name} called`)]));
  const instance = await WebAssembly.instantiate(main, { env: { memory }, chunkhash_simd128: stubs });
  assert.ok(instance.exports.__data_end.value > layout.gapEnd);
});

test('both builds give the same results on the inputs that reach the SIMD128 kernels', async () => {
  const long = inputPattern(1 << 20);
  const small = Array.from({ length: 37 }, (_, i) => inputPattern(i * 7));
  const results = [];
  for (const simd of [true, false]) {
    const info = await chunkhash.init({ simd });
    assert.equal(info.backend, simd ? 'wasm32simd' : 'portable');
    results.push([
      chunkhash.toHex(chunkhash.blake3(long)),
      chunkhash.toHex(chunkhash.hash('BLAKE3', long.subarray(0, 5000))),
      chunkhash.toHex(chunkhash.hashMany('BLAKE3', small)),
      chunkhash.toHex(chunkhash.hash('XXH3-64', long)),
      chunkhash.toHex(chunkhash.hash('XXH3-128', long.subarray(0, 241))),
      (() => {
        const hasher = chunkhash.createHasher('XXH3-64');
        for (let at = 0; at < 100000; at += 999) hasher.update(long.subarray(at, at + 999));
        return chunkhash.toHex(hasher.digest());
      })(),
    ]);
  }
  assert.deepEqual(results[0], results[1]);
});
