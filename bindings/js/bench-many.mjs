// hashMany of the multi-buffer algorithms (MD5, SHA-1, SHA-256): the
// SIMD128 build (four messages side by side in SIMD128 lanes) against the
// scalar build (the same main module without the SIMD128 one: one message
// at a time) and a loop over Node's crypto (native OpenSSL, for context):
//   node bindings/js/bench-many.mjs        (after `make js`)
//   BENCH_ROUNDS=15 BENCH_MS=300 node bindings/js/bench-many.mjs
// After a warm-up round, each round runs each contender in turn for BENCH_MS
// ms of this process's CPU time (bench-lib.mjs); reported: median MB/s of
// message bytes over the rounds and the median of the per-round ratios.
// Switching builds is `init`, which keeps each instantiated build, so every
// contender runs warm. Inputs: pseudo-random bytes (xorshift32).

import { createHash } from 'node:crypto';
import os from 'node:os';
import * as chunkhash from './dist/chunkhash.mjs';
import { median, rate } from './bench-lib.mjs';
import { xorshiftBytes } from './tests/chunk-inputs.mjs';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 9);
const MS = Number(process.env.BENCH_MS ?? 200);
const SHAPES = [
  [1024, 64],
  [256, 1024],
  [64, 4096],
];
const ALGORITHMS = [
  ['SHA-256', 'sha256'],
  ['MD5', 'md5'],
  ['SHA-1', 'sha1'],
];

const simd = await chunkhash.init({ simd: true });
const scalar = await chunkhash.init({ simd: false });
console.log(`# Node ${process.version}, ${os.cpus()[0].model}, ${os.cpus().length} CPUs, load ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
console.log(`lanes: ${JSON.stringify(simd)}; scalar: ${JSON.stringify(scalar)}`);
console.log(`${ROUNDS} rounds of ${MS} ms of CPU time per contender; MB/s of message bytes, medians`);
console.log('| algorithm | batch | lanes MB/s | scalar MB/s | node:crypto MB/s | lanes / scalar | lanes / node:crypto |');
console.log('| --- | --- | --- | --- | --- | --- | --- |');

for (const [name, nodeName] of ALGORITHMS) {
  for (const [count, len] of SHAPES) {
    const bytes = xorshiftBytes(count * len);
    const messages = Array.from({ length: count }, (_, i) => bytes.subarray(i * len, (i + 1) * len));
    const contenders = [
      { simd: true, fn: () => chunkhash.hashMany(name, messages) },
      { simd: false, fn: () => chunkhash.hashMany(name, messages) },
      { fn: () => messages.forEach((m) => createHash(nodeName).update(m).digest()) },
    ];
    // The builds agree, or the figures mean nothing.
    await chunkhash.init({ simd: true });
    const lanes = chunkhash.hashMany(name, messages);
    await chunkhash.init({ simd: false });
    if (Buffer.compare(lanes, chunkhash.hashMany(name, messages)) !== 0) throw new Error(`${name}: the builds disagree`);
    const mbs = contenders.map(() => []);
    for (let round = 0; round <= ROUNDS; round++) {
      for (const [i, c] of contenders.entries()) {
        if (c.simd !== undefined) await chunkhash.init({ simd: c.simd });
        const perSecond = rate(c.fn, MS);
        if (round > 0) mbs[i].push((perSecond * count * len) / 1e6);
      }
    }
    const ratio = (a, b) => median(mbs[a].map((v, r) => v / mbs[b][r]));
    const cells = [...mbs.map((m) => median(m).toFixed(0)), ratio(0, 1).toFixed(2) + 'x', ratio(0, 2).toFixed(2) + 'x'];
    console.log(`| ${name} | ${count} x ${len} B | ${cells.join(' | ')} |`);
  }
}
