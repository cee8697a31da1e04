// A raw LZMA1 decoder, for the package's embedded WebAssembly modules
// (scripts/build.mjs compresses them with Python's lzma). Written here from
// Igor Pavlov's "LZMA specification (DRAFT version)", lzma-specification.txt
// of the LZMA SDK (public domain): its range decoder, literal, length and
// distance coders and state machine; names below follow the spec's.
//
// Why our own: LZMA shrank the package's tarball by a fifth, decoder
// included (BENCHMARKS.md has the figures), and no engine has an LZMA
// decoder built in. It only decodes (the build encodes), and only whole
// buffers of a size known in advance, so the dictionary is the output
// itself: no window to wrap, a match is a copy within `out`.
//
// Bad input throws an Error, never loops or reads outside the input: every
// turn of the main loop writes at least one byte or throws, so it ends after
// `size` turns at most, and every byte read is checked against the input's end.

// Probabilities are 11-bit (kNumBitModelTotalBits), moved by 1/32 (kNumMoveBits).
const PROB_INIT = 1024;
const STATES = 12;
const POS_STATES = 16; // 1 << kNumPosBitsMax
const LEN_PROBS = 2 + 2 * POS_STATES * 8 + 256; // choice, choice2, low, mid, high
const END_POS_MODEL = 14; // kEndPosModelIndex
const SIGN = -0x80000000;
// Where each group of probabilities starts in one Uint16Array.
const IS_MATCH = 0;
const IS_REP = IS_MATCH + STATES * POS_STATES;
const IS_REP_G0 = IS_REP + STATES;
const IS_REP_G1 = IS_REP_G0 + STATES;
const IS_REP_G2 = IS_REP_G1 + STATES;
const IS_REP0_LONG = IS_REP_G2 + STATES;
const POS_SLOT = IS_REP0_LONG + STATES * POS_STATES; // 4 length states x 6-bit tree
const SPEC_POS = POS_SLOT + 4 * 64; // distances of slots 4..13 (kNumFullDistances - kEndPosModelIndex + 1)
const ALIGN = SPEC_POS + 115; // the low 4 bits of larger distances
const LEN = ALIGN + 16;
const REP_LEN = LEN + LEN_PROBS;
const LITERAL = REP_LEN + LEN_PROBS;

// The decoder's state lives here, not in closures made by each call: V8
// optimises these functions once for every decode, where closures made per
// call were optimised again each time, and threw their caller's optimised
// code away (a different call target): a first decode of the package's
// modules in Chromium took 34 ms instead of 56, a second 19 instead of 52.
// `rc` holds the range decoder's `range` and `code`, unsigned 32-bit values
// kept as int32 and compared unsigned by flipping the sign bit (a number
// that is not a small integer, 2^30 and up in browsers, costs a heap
// allocation in unoptimised code).
const rc = new Int32Array(2);
let input = null;
let at = 0; // the next input byte
let probs = null;

const fail = (why) => {
  throw new Error(`chunkhash: corrupt LZMA data: ${why}`);
};
const next = () => (at < input.length ? input[at++] : fail(`the input ends early (after ${input.length} bytes)`));

/** One bit, coded with the probability at `index`, which it updates. */
function bit(index) {
  const prob = probs[index];
  let range = rc[0];
  let code = rc[1];
  const bound = Math.imul(range >>> 11, prob);
  let result = 0;
  if ((code ^ SIGN) < (bound ^ SIGN)) {
    range = bound;
    probs[index] = prob + ((2048 - prob) >> 5);
  } else {
    range = (range - bound) | 0;
    code = (code - bound) | 0;
    probs[index] = prob - (prob >> 5);
    result = 1;
  }
  normalize(range, code);
  return result;
}

/** Stores `range` and `code`, first shifting in an input byte if `range`
 * fell below 2^24 (the spec's Normalize). */
function normalize(range, code) {
  if (range >>> 24 === 0) {
    range <<= 8;
    code = (code << 8) | next();
  }
  rc[0] = range;
  rc[1] = code;
}

/** A `bits`-bit number, most significant bit first, each bit's probability
 * chosen by the bits above it (the spec's BitTreeDecode). */
function tree(base, bits) {
  let m = 1;
  for (let i = 0; i < bits; i++) m = (m << 1) | bit(base + m);
  return m - (1 << bits);
}

/** The same, least significant bit first (BitTreeReverseDecode). */
function reverseTree(base, bits) {
  let m = 1;
  let symbol = 0;
  for (let i = 0; i < bits; i++) {
    const b = bit(base + m);
    m = (m << 1) | b;
    symbol |= b << i;
  }
  return symbol;
}

/** Bits of probability 1/2, which update no model (DecodeDirectBits):
 * `code` < 2 * `range` here, so `code - range` is negative (as int32)
 * exactly when the bit is 0. */
function direct(bits) {
  let result = 0;
  for (let i = 0; i < bits; i++) {
    const range = rc[0] >>> 1;
    let code = (rc[1] - range) | 0;
    const t = code >> 31; // -1 for a 0 bit, 0 for a 1 bit
    code = (code + (range & t)) | 0;
    result = (result << 1) | (t + 1);
    normalize(range, code);
  }
  return result;
}

/** A match length minus 2 (kMatchMinLen): 0-7, 8-15 or 16-271. */
function length(base, posState) {
  if (bit(base) === 0) return tree(base + 2 + posState * 8, 3);
  if (bit(base + 1) === 0) return 8 + tree(base + 2 + (POS_STATES + posState) * 8, 3);
  return 16 + tree(base + 2 + 2 * POS_STATES * 8, 8);
}

/** A match distance minus 1; 0xffffffff is the end marker. */
function distance(len) {
  const slot = tree(POS_SLOT + Math.min(len, 3) * 64, 6);
  if (slot < 4) return slot;
  const directBits = (slot >>> 1) - 1;
  const dist = ((2 | (slot & 1)) << directBits) >>> 0;
  if (slot < END_POS_MODEL) return dist + reverseTree(SPEC_POS + dist - slot, directBits);
  return (dist + direct(directBits - 4) * 16 + reverseTree(ALIGN, 4)) >>> 0;
}

/**
 * Decodes a raw LZMA1 stream (no header) into exactly `size` bytes, with the
 * properties it was encoded with: `lc` (0-8), `lp` (0-4), `pb` (0-4) and
 * `dictionarySize` (below 4096 it counts as 4096, as the spec says). An end
 * marker before the `size` bytes is an error. With `endMarker: true` one
 * must follow them, the range decoder must then finish (code 0) and the
 * input end there: LZMA has no checksum, and these checks are what catches
 * most damage to a stream's last bytes (which otherwise would decode to
 * wrong bytes or not be read at all). Without it, nothing after the `size`
 * bytes is read.
 */
export function decodeLzma1(bytes, { lc, lp, pb, dictionarySize, size, endMarker = false }) {
  const property = (value, max, name) => {
    if (!Number.isInteger(value) || value < 0 || value > max) throw new RangeError(`chunkhash: LZMA ${name} must be an integer in [0, ${max}], not ${value}`);
  };
  property(lc, 8, 'lc');
  property(lp, 4, 'lp');
  property(pb, 4, 'pb');
  property(dictionarySize, 2 ** 32 - 1, 'dictionarySize');
  property(size, 2 ** 31, 'size');
  if (typeof endMarker !== 'boolean') throw new TypeError(`chunkhash: LZMA endMarker must be a boolean, not ${typeof endMarker}`);
  if (!(bytes instanceof Uint8Array)) throw new TypeError('chunkhash: LZMA input must be a Uint8Array');
  try {
    input = bytes;
    at = 0;
    probs = new Uint16Array(LITERAL + (0x300 << (lc + lp))).fill(PROB_INIT);
    if (next() !== 0) fail('the first byte is not 0');
    rc[0] = -1;
    rc[1] = 0;
    for (let i = 0; i < 4; i++) rc[1] = (rc[1] << 8) | next();
    if (rc[1] === -1) fail('the range decoder starts out of range');
    return decode(lc, lp, pb, Math.max(dictionarySize, 4096), size, endMarker);
  } finally {
    // Let the input and the probabilities go.
    input = null;
    probs = null;
  }
}

function decode(lc, lp, pb, dictionarySize, size, endMarker) {
  const out = new Uint8Array(size);
  let pos = 0; // bytes decoded so far, also the position in the dictionary
  const pbMask = (1 << pb) - 1;
  const lpMask = (1 << lp) - 1;
  let state = 0;
  let rep0 = 0;
  let rep1 = 0;
  let rep2 = 0;
  let rep3 = 0;
  while (pos < size) {
    const posState = pos & pbMask;
    if (bit(IS_MATCH + state * POS_STATES + posState) === 0) {
      // A literal, coded with the previous byte's top `lc` bits as context;
      // after a match, also with the byte at rep0 until a bit differs.
      const prev = pos > 0 ? out[pos - 1] : 0;
      const base = LITERAL + 0x300 * (((pos & lpMask) << lc) + (prev >>> (8 - lc)));
      let symbol = 1;
      if (state >= 7) {
        let matchByte = out[pos - rep0 - 1];
        while (symbol < 0x100) {
          const matchBit = (matchByte >>> 7) & 1;
          matchByte <<= 1;
          const b = bit(base + ((1 + matchBit) << 8) + symbol);
          symbol = (symbol << 1) | b;
          if (b !== matchBit) break;
        }
      }
      while (symbol < 0x100) symbol = (symbol << 1) | bit(base + symbol);
      out[pos++] = symbol;
      state = state < 4 ? 0 : state < 10 ? state - 3 : state - 6;
      continue;
    }
    let len;
    if (bit(IS_REP + state) === 1) {
      // A match at one of the last four distances.
      if (pos === 0) fail('a repeated match before any byte');
      if (bit(IS_REP_G0 + state) === 0) {
        if (bit(IS_REP0_LONG + state * POS_STATES + posState) === 0) {
          // One byte from rep0 (a "short rep").
          state = state < 7 ? 9 : 11;
          out[pos] = out[pos - rep0 - 1];
          pos++;
          continue;
        }
      } else {
        let dist;
        if (bit(IS_REP_G1 + state) === 0) {
          dist = rep1;
        } else {
          if (bit(IS_REP_G2 + state) === 0) {
            dist = rep2;
          } else {
            dist = rep3;
            rep3 = rep2;
          }
          rep2 = rep1;
        }
        rep1 = rep0;
        rep0 = dist;
      }
      len = length(REP_LEN, posState);
      state = state < 7 ? 8 : 11;
    } else {
      rep3 = rep2;
      rep2 = rep1;
      rep1 = rep0;
      len = length(LEN, posState);
      state = state < 7 ? 7 : 10;
      rep0 = distance(len);
      if (rep0 === 0xffffffff) fail(`an end marker after ${pos} of ${size} bytes`);
      if (rep0 >= pos || rep0 >= dictionarySize) fail(`a match at distance ${rep0 + 1} after ${pos} bytes (dictionary ${dictionarySize})`);
    }
    len += 2;
    if (len > size - pos) fail(`a match of ${len} bytes at ${pos} runs past the ${size} bytes announced`);
    // Byte by byte: a match may overlap the bytes it writes (a run).
    for (const end = pos + len; pos < end; pos++) out[pos] = out[pos - rep0 - 1];
  }
  if (endMarker) {
    // The end marker: a plain match (its length is not checked, as in the
    // spec) at distance 0xffffffff; then, as the spec's IsFinishedOK, code 0.
    const after = `after the ${size} bytes announced`;
    if (bit(IS_MATCH + state * POS_STATES + (pos & pbMask)) === 0) fail(`a literal ${after}, not the end marker`);
    if (bit(IS_REP + state) === 1) fail(`a repeated match ${after}, not the end marker`);
    const dist = distance(length(LEN, pos & pbMask));
    if (dist !== 0xffffffff) fail(`a match at distance ${dist + 1} ${after}, not the end marker`);
    if (rc[1] !== 0) fail('the range decoder does not finish at 0 after the end marker');
    // The encoder's flush writes the bytes the decoder's last normalisation
    // reads, no more: anything after is not part of the stream.
    if (at !== input.length) fail(`the input does not end at the end marker (${input.length - at} of ${input.length} bytes left)`);
  }
  return out;
}
