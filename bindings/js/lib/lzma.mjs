// A raw LZMA1 decoder, for the package's embedded WebAssembly modules
// (scripts/build.mjs compresses them with Python's lzma). Written here from
// Igor Pavlov's "LZMA specification (DRAFT version)", lzma-specification.txt
// of the LZMA SDK (public domain): its range decoder, literal, length and
// distance coders and state machine; names below follow the spec's.
//
// Why our own: LZMA makes the package ~23 kB smaller than deflate, and no
// engine has an LZMA decoder built in. It only decodes (the build encodes),
// and only whole buffers of a size known in advance, so the dictionary is the
// output itself: no window to wrap, a match is a copy within `out`.
//
// Bad input throws an Error, never loops or reads outside `input`: every turn
// of the main loop writes at least one byte or throws, so it ends after
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

/**
 * Decodes a raw LZMA1 stream (no header) into exactly `size` bytes, with the
 * properties it was encoded with: `lc` (0-8), `lp` (0-4), `pb` (0-4) and
 * `dictionarySize`. An end marker after the `size` bytes is not needed and
 * not read; one before them is an error. Bytes after are ignored, so a
 * prefix of a longer stream decodes too.
 */
export function decodeLzma1(input, { lc, lp, pb, dictionarySize, size }) {
  const fail = (why) => {
    throw new Error(`chunkhash: corrupt LZMA data: ${why}`);
  };
  const property = (value, max, name) => {
    if (!Number.isInteger(value) || value < 0 || value > max) throw new RangeError(`chunkhash: LZMA ${name} must be an integer in [0, ${max}], not ${value}`);
  };
  property(lc, 8, 'lc');
  property(lp, 4, 'lp');
  property(pb, 4, 'pb');
  property(dictionarySize, 2 ** 32 - 1, 'dictionarySize');
  property(size, 2 ** 31, 'size');
  if (!(input instanceof Uint8Array)) throw new TypeError('chunkhash: LZMA input must be a Uint8Array');

  const out = new Uint8Array(size);
  const probs = new Uint16Array(LITERAL + (0x300 << (lc + lp))).fill(PROB_INIT);
  let at = 0; // the next input byte
  let pos = 0; // bytes decoded so far, also the position in the dictionary
  const next = () => (at < input.length ? input[at++] : fail(`the input ends early (after ${input.length} bytes, ${pos} of ${size} bytes decoded)`));

  // The range decoder. `range` and `code` are unsigned 32-bit values held
  // as int32 (`| 0`), compared unsigned by flipping the sign bit: a number
  // above 2^31 would be a heap allocation per bit in unoptimised code, and
  // made the garbage collector a fifth of a cold decode.
  if (next() !== 0) fail('the first byte is not 0');
  let range = -1;
  let code = 0;
  for (let i = 0; i < 4; i++) code = (code << 8) | next();
  if (code === range) fail('the range decoder starts out of range');

  const bit = (index) => {
    const prob = probs[index];
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
    if (range >>> 24 === 0) {
      range <<= 8;
      code = (code << 8) | next();
    }
    return result;
  };
  // A `bits`-bit number, most significant bit first, each bit's probability
  // chosen by the bits above it (the spec's BitTreeDecode).
  const tree = (base, bits) => {
    let m = 1;
    for (let i = 0; i < bits; i++) m = (m << 1) | bit(base + m);
    return m - (1 << bits);
  };
  // The same, least significant bit first (BitTreeReverseDecode).
  const reverseTree = (base, bits) => {
    let m = 1;
    let symbol = 0;
    for (let i = 0; i < bits; i++) {
      const b = bit(base + m);
      m = (m << 1) | b;
      symbol |= b << i;
    }
    return symbol;
  };
  // Bits of probability 1/2, which update no model (DecodeDirectBits):
  // `code` < 2 * `range` here, so `code - range` is negative (as int32)
  // exactly when the bit is 0.
  const direct = (bits) => {
    let result = 0;
    for (let i = 0; i < bits; i++) {
      range >>>= 1;
      code = (code - range) | 0;
      const t = code >> 31; // -1 for a 0 bit, 0 for a 1 bit
      code = (code + (range & t)) | 0;
      result = (result << 1) | (t + 1);
      if (range >>> 24 === 0) {
        range <<= 8;
        code = (code << 8) | next();
      }
    }
    return result;
  };
  // A match length minus 2 (kMatchMinLen): 0-7, 8-15 or 16-271.
  const length = (base, posState) => {
    if (bit(base) === 0) return tree(base + 2 + posState * 8, 3);
    if (bit(base + 1) === 0) return 8 + tree(base + 2 + (POS_STATES + posState) * 8, 3);
    return 16 + tree(base + 2 + 2 * POS_STATES * 8, 8);
  };
  // A distance minus 1; 0xffffffff is the end marker.
  const distance = (len) => {
    const slot = tree(POS_SLOT + Math.min(len, 3) * 64, 6);
    if (slot < 4) return slot;
    const directBits = (slot >>> 1) - 1;
    const dist = ((2 | (slot & 1)) << directBits) >>> 0;
    if (slot < END_POS_MODEL) return dist + reverseTree(SPEC_POS + dist - slot, directBits);
    return (dist + direct(directBits - 4) * 16 + reverseTree(ALIGN, 4)) >>> 0;
  };

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
  return out;
}
