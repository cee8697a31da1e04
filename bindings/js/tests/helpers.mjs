// Shared by the tests: the project's vectors, seeded random inputs, and the
// list of builds every test runs through.

import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repo = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

/** Both WebAssembly builds; `init(build.options)` selects one. */
export const BUILDS = [
  { name: 'simd128', options: { simd: true }, backend: 'wasm32simd', multiBuffer: 'simd128' },
  { name: 'scalar', options: { simd: false }, backend: 'portable', multiBuffer: 'portable' },
];

/** vectors/blake3/test_vectors.json: the official BLAKE3 vectors. */
export function blake3Vectors() {
  return JSON.parse(readFileSync(join(repo, 'vectors', 'blake3', 'test_vectors.json'), 'utf8'));
}

/** vectors/golden.json: every registry algorithm, BLAKE3 modes, trailers. */
export function golden() {
  return JSON.parse(readFileSync(join(repo, 'vectors', 'golden.json'), 'utf8'));
}

/** The vectors' input: byte i is i % 251. */
export function inputPattern(len) {
  const out = new Uint8Array(len);
  for (let i = 0; i < len; i++) out[i] = i % 251;
  return out;
}

export const ascii = (s) => new TextEncoder().encode(s);
export const hex = (bytes) => Buffer.from(bytes).toString('hex');

/**
 * SplitMix64 with a fixed seed, printed so a failure can be replayed;
 * CHUNKHASH_TEST_SEED overrides it.
 */
export class TestRng {
  constructor(name, seed = 0x5eed) {
    const forced = process.env.CHUNKHASH_TEST_SEED;
    this.state = BigInt(forced ?? seed);
    console.log(`# ${name}: seed ${this.state} (CHUNKHASH_TEST_SEED to change)`);
  }

  next() {
    this.state = (this.state + 0x9e3779b97f4a7c15n) & 0xffffffffffffffffn;
    let z = this.state;
    z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & 0xffffffffffffffffn;
    z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & 0xffffffffffffffffn;
    return z ^ (z >> 31n);
  }

  /** An integer in [low, high]. */
  range(low, high) {
    return low + Number(this.next() % BigInt(high - low + 1));
  }

  bytes(len) {
    const out = new Uint8Array(len);
    for (let i = 0; i < len; i += 8) {
      let word = this.next();
      for (let j = i; j < Math.min(i + 8, len); j++, word >>= 8n) out[j] = Number(word & 0xffn);
    }
    return out;
  }
}

/** Lengths on the edges of BLAKE3 blocks and chunks, xxHash's stripes and the SHA-2 blocks. */
export const EDGE_LENGTHS = [0, 1, 3, 4, 8, 15, 16, 17, 31, 32, 33, 63, 64, 65, 111, 112, 127, 128, 129, 240, 241, 1023, 1024, 1025, 2048, 3073, 4096, 8193, 16384, 31745, 65537];

/**
 * Arrow-style offsets of values of lengths `lens` lying one after another
 * from byte `start`, as an `Offsets` array (Int32Array, Uint32Array or
 * BigInt64Array).
 */
export function offsetsOf(Offsets, lens, start) {
  const offsets = new Offsets(lens.length + 1);
  let at = start;
  lens.forEach((len, i) => {
    offsets[i] = Offsets === BigInt64Array ? BigInt(at) : at;
    at += len;
  });
  offsets[lens.length] = Offsets === BigInt64Array ? BigInt(at) : at;
  return offsets;
}
