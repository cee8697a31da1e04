// The inputs of tests/chunk.test.mjs and of the fixture it compares with
// (scripts/chunk-fixture.mjs writes tests/fixtures/chunks.json from them).

/** Pseudo-random bytes: xorshift32 (13, 17, 5) from state 1, the low byte of each state (bench-bao.mjs uses it too). */
export function xorshiftBytes(len) {
  const out = new Uint8Array(len);
  let x = 1;
  for (let i = 0; i < len; i++) {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    out[i] = x & 0xff;
  }
  return out;
}

/** An input by name: `random` (1.5 MB) or `zeros` (300 kB: every cut at the maximum). */
export function chunkInput(name) {
  if (name === 'random') return xorshiftBytes(1_500_000);
  if (name === 'zeros') return new Uint8Array(300_000);
  throw new Error(`unknown chunk input ${name}`);
}

/** Each case: an input, the CLI's arguments, and the same as chunk() options. */
export const CHUNK_CASES = [
  { input: 'random', args: [], options: {} },
  { input: 'random', args: ['--fastcdc', '2048,8192,65536'], options: { fastcdc: [2048, 8192, 65536] } },
  { input: 'random', args: ['--fastcdc', '16384,65536,262144', '--address', 'blake3-160'], options: { fastcdc: [16384, 65536, 262144], address: 'blake3-160' } },
  { input: 'random', args: ['--address', 'blake3'], options: { address: 'blake3' } },
  { input: 'zeros', args: [], options: {} },
  { input: 'zeros', args: ['--fastcdc', '2048,8192,65536'], options: { fastcdc: [2048, 8192, 65536] } },
];
