// Bao outboard creation through the package against the same Rust call in
// the same WebAssembly module with its input staged beforehand (what the
// wrapper adds: copying the input in and the outboard out):
//   node bindings/js/bench-bao.mjs        (after `make js`)
//   BENCH_ROUNDS=15 BENCH_MS=300 node bindings/js/bench-bao.mjs
// After a warm-up round, each round runs each contender in turn for BENCH_MS ms of this process's
// CPU time (process.cpuUsage); reported: median MB/s over the rounds and the
// median of the per-round ratios. Inputs: pseudo-random bytes (xorshift32).

import * as chunkhash from './dist/chunkhash.mjs';
import { median, rate as rateFor } from './bench-lib.mjs';
import { xorshiftBytes } from './tests/chunk-inputs.mjs';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 9);
const MS = Number(process.env.BENCH_MS ?? 200);
const SIZES = [1 << 20, 16 << 20];
const GROUP_LOGS = [0, 4];
const rate = (fn) => rateFor(fn, MS);

for (const simd of [true, false]) {
  const info = await chunkhash.init({ simd });
  const e = chunkhash._benchmarkEngine();
  console.log(`build ${info.build} (backend ${info.backend}), ${ROUNDS} rounds of ${MS} ms per contender`);
  console.log('size      group  package MB/s  wasm call MB/s  package/call');
  for (const size of SIZES) {
    const data = xorshiftBytes(size);
    for (const groupLog of GROUP_LOGS) {
      const pkg = [];
      const raw = [];
      const ratios = [];
      // Round 0 warms up (compilation, memory growth) and is not counted.
      for (let round = 0; round <= ROUNDS; round++) {
        const a = rate(() => chunkhash.baoOutboard(data, { groupLog }));
        e.reserve(size);
        e.view().set(data, e.staging);
        const b = rate(() => e.check(e.ex.chunkhash_bao_outboard(0, 0, size, groupLog, 0)));
        if (round === 0) continue;
        pkg.push((a * size) / 1e6);
        raw.push((b * size) / 1e6);
        ratios.push(a / b);
      }
      const label = `${size >> 20} MiB`.padEnd(10) + `${1 << groupLog} KiB`.padEnd(7);
      console.log(`${label}${median(pkg).toFixed(0).padStart(12)}  ${median(raw).toFixed(0).padStart(14)}  ${median(ratios).toFixed(3).padStart(12)}`);
    }
  }
}
