// The npm tarball's smoke test (scripts/test/dist.sh): run in a fresh
// project where only the packed package is installed. Both entries: the ES
// module (`import`) and the CommonJS one (`require`, which the package maps
// to dist/chunkhash.cjs). Prints "node: ok" when every answer matches and
// exits 1 otherwise.
import { createRequire } from 'node:module';
import * as esm from 'chunkhash';

const require = createRequire(import.meta.url);
const cjs = require('chunkhash');
const failed = [];
for (const [entry, api, resolved] of [['esm', esm, import.meta.resolve('chunkhash')], ['cjs', cjs, require.resolve('chunkhash')]]) {
  const info = await api.init();
  const checks = [
    // BLAKE3 of "abc" (the BLAKE3 reference implementation's output).
    ['BLAKE3(abc)', api.toHex(api.blake3('abc')), '6437b3ac38465133ffb63b75273a8db548c558465d79db03fd359c6cd5bd9d85'],
    // CRC-32C of "123456789": the check value of the CRC catalogue.
    ['CRC32C(123456789)', api.toHex(api.hash('CRC32C', '123456789')), 'e3069283'],
  ];
  for (const [what, actual, expected] of checks) {
    if (actual !== expected) failed.push(`${entry} ${what}: ${actual}, expected ${expected}`);
  }
  console.log(`node ${entry}: ${info.build} build, ${resolved}`);
}
for (const line of failed) console.error(`smoke: ${line}`);
console.log(`node: ${failed.length ? 'FAILED' : 'ok'}`);
process.exitCode = failed.length ? 1 : 0;
