// The ways in: the ES module, the CommonJS entry (the same instance), the
// top-level-await entry, SIMD128 detection and the forced builds, and the
// error before init. Fresh processes where state matters.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import * as chunkhash from 'chunkhash';
import { SHIPPED, stripComments } from '../scripts/shipped.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const packageDir = join(here, '..');
const require = createRequire(import.meta.url);

/** Runs an ES module snippet in a new Node process; returns its stdout. */
function run(code, { env = {}, args = [] } = {}) {
  return execFileSync(process.execPath, [...args, '--input-type=module', '-e', code], {
    cwd: here,
    env: { ...process.env, CHUNKHASH_WASM: '', ...env },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  }).trim();
}

test('calls before init() throw, naming the fix', () => {
  const out = run(`
    import { hash, createHasher } from 'chunkhash';
    for (const f of [() => hash('BLAKE3', ''), () => createHasher('SHA-256')]) {
      try { f(); console.log('no error'); } catch (e) { console.log(e.constructor.name + ': ' + e.message); }
    }`);
  assert.equal(out, 'Error: chunkhash: call `await init()` before hashing\n'.repeat(2).trim());
});

test('the CommonJS entry forwards to the same instance', async () => {
  const cjs = require('chunkhash');
  assert.throws(() => cjs.hash('BLAKE3', ''), /call `await init\(\)` before hashing/);
  assert.equal(cjs.Hasher, undefined);
  const info = await cjs.init({ simd: false });
  assert.deepEqual(info, { build: 'scalar', backend: 'portable', multiBuffer: 'portable' });
  // The ES module now runs the build the CommonJS entry chose: one instance.
  assert.equal(chunkhash.buildInfo(), info);
  assert.equal(cjs.toHex(cjs.hash('CRC32C', '123456789')), 'e3069283');
  assert.ok(cjs.createHasher('BLAKE3') instanceof cjs.Hasher);
  assert.equal(cjs.TrailerError, chunkhash.TrailerError);
  const esmNames = Object.keys(chunkhash).filter((n) => n !== 'default').sort();
  assert.deepEqual(Object.keys(cjs).sort(), esmNames);
});

test('the CommonJS entry in a CommonJS program', () => {
  const out = execFileSync(process.execPath, ['-e', `
    const { init, blake3, toHex } = require('chunkhash');
    init().then((info) => console.log(info.build, toHex(blake3('abc'))));`], { cwd: here, encoding: 'utf8', env: { ...process.env, CHUNKHASH_WASM: '' } });
  assert.equal(out.trim(), 'simd128 6437b3ac38465133ffb63b75273a8db548c558465d79db03fd359c6cd5bd9d85');
});

test('chunkhash/auto needs no init()', () => {
  const out = run(`import { buildInfo, toHex, hash } from 'chunkhash/auto'; console.log(buildInfo().build, toHex(hash('SHA-256', 'abc')));`);
  assert.equal(out, 'simd128 ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
});

test('SIMD128 is detected, and the scalar build loads where it is missing', () => {
  assert.equal(chunkhash.simdSupported(), true, 'Node 18+ runs SIMD128');
  const probe = `import { init, simdSupported, blake3, toHex } from 'chunkhash';
    const info = await init(); console.log(simdSupported(), info.build, info.backend, toHex(blake3('abc')));`;
  assert.equal(run(probe), 'true simd128 wasm32simd 6437b3ac38465133ffb63b75273a8db548c558465d79db03fd359c6cd5bd9d85');
  const noSimd = ['--import', join(here, 'fixtures', 'no-simd.mjs')];
  assert.equal(run(probe, { args: noSimd }), 'false scalar portable 6437b3ac38465133ffb63b75273a8db548c558465d79db03fd359c6cd5bd9d85');
  const forced = run(`import { init } from 'chunkhash'; try { await init({ simd: true }); } catch (e) { console.log(e.message); }`, { args: noSimd });
  assert.equal(forced, 'chunkhash: this engine does not support WebAssembly SIMD128');
});

test('a SIMD128 module that does not fit the main module\'s memory layout is refused', () => {
  const misfit = ['--import', join(here, 'fixtures', 'misfit-simd.mjs')];
  const code = `import { init, blake3, toHex } from 'chunkhash';
    try { await init({ simd: true }); console.log('loaded'); } catch (e) { console.log(e.message); }
    const info = await init({ simd: false }); console.log(info.build, toHex(blake3('abc')));`;
  assert.equal(run(code, { args: misfit }), [
    'chunkhash: the SIMD128 module does not fit the main module (dist/ holds files of two builds)',
    'scalar 6437b3ac38465133ffb63b75273a8db548c558465d79db03fd359c6cd5bd9d85',
  ].join('\n'));
});

test('a first batch of addresses leaves the output area where the wrapper finds it', () => {
  // In a fresh process the first batch decides how far the output area
  // grows; BLAKE3-160 once grew it past its output and every later call read
  // the old place. Both builds, a list then a column, then a plain hash.
  const code = (simd) => `import { init, hashMany, blake3, toHex } from 'chunkhash';
    await init({ simd: ${simd} });
    const messages = Array.from({ length: 600 }, (_, i) => 'message ' + i + '.'.repeat(i % 150));
    const address = (m) => toHex(blake3(m).subarray(0, 20));
    const list = hashMany('BLAKE3-160', messages.slice(0, 5));
    const next = toHex(blake3('abc'));
    const long = hashMany('BLAKE3-160', messages);
    const values = new TextEncoder().encode(messages.slice(0, 5).join(''));
    const offsets = Int32Array.from([0, ...messages.slice(0, 5).map((_, i) => messages.slice(0, i + 1).join('').length)]);
    const column = hashMany('BLAKE3-160', { values, offsets });
    const wrong = (out, n) => messages.slice(0, n).filter((m, i) => toHex(out.subarray(20 * i, 20 * i + 20)) !== address(m)).length;
    console.log(wrong(list, 5), next, wrong(long, 600), wrong(column, 5), toHex(blake3('abc')));`;
  const abc = '6437b3ac38465133ffb63b75273a8db548c558465d79db03fd359c6cd5bd9d85';
  for (const simd of [true, false]) {
    assert.equal(run(code(simd)), `0 ${abc} 0 0 ${abc}`, simd ? 'SIMD128 build' : 'scalar build');
  }
});

test('CHUNKHASH_WASM forces a build when init() is given no option', () => {
  const code = `import { init } from 'chunkhash'; try { console.log((await init()).build); } catch (e) { console.log(e.name + ': ' + e.message); }`;
  assert.equal(run(code, { env: { CHUNKHASH_WASM: 'scalar' } }), 'scalar');
  assert.equal(run(code, { env: { CHUNKHASH_WASM: 'simd128' } }), 'simd128');
  assert.equal(run(code, { env: { CHUNKHASH_WASM: 'sse' } }), 'RangeError: chunkhash: CHUNKHASH_WASM must be scalar or simd128, not "sse"');
  const option = `import { init } from 'chunkhash'; console.log((await init({ simd: true })).build);`;
  assert.equal(run(option, { env: { CHUNKHASH_WASM: 'scalar' } }), 'simd128', 'the option wins over the variable');
});

test('hashers keep the build they were made with', async () => {
  await chunkhash.init({ simd: true });
  const hasher = chunkhash.createHasher('BLAKE3').update('a');
  await chunkhash.init({ simd: false });
  hasher.update('bc');
  assert.equal(chunkhash.toHex(hasher.digest()), '6437b3ac38465133ffb63b75273a8db548c558465d79db03fd359c6cd5bd9d85');
  hasher.free();
});

test('the entry points are dist/\'s files, lib/\'s without comments, exporting the same', async () => {
  assert.equal(fileURLToPath(import.meta.resolve('chunkhash')), join(packageDir, 'dist', 'chunkhash.mjs'));
  assert.equal(fileURLToPath(import.meta.resolve('chunkhash/auto')), join(packageDir, 'dist', 'auto.mjs'));
  assert.equal(require.resolve('chunkhash'), join(packageDir, 'dist', 'chunkhash.cjs'));
  for (const name of SHIPPED) {
    const shipped = readFileSync(join(packageDir, 'dist', name), 'utf8');
    // Built from lib/ as it is now (`make js` after an edit), and shorter.
    assert.equal(shipped, await stripComments(readFileSync(join(packageDir, 'lib', name), 'utf8'), name), `dist/${name} is stale: run make js`);
    const lines = shipped.split('\n');
    assert.ok(lines.slice(1).every((line) => !/^\s*(\/\/|\/\*)/.test(line)), `dist/${name} has a comment line`);
  }
  // Nothing the source exports is lost (a second copy of the module, never initialised).
  const source = await import('../lib/chunkhash.mjs');
  assert.notEqual(source.init, chunkhash.init, 'two files');
  assert.deepEqual(Object.keys(chunkhash).sort(), Object.keys(source).sort());
});
