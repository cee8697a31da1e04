// chunkhash for JavaScript: the chunkhash library compiled to WebAssembly,
// with a thin wrapper that moves bytes in and out of the module's memory.
// No hashing happens here; see bindings/js/wasm/src/lib.rs for the other
// side of the protocol (staging area in, output area out, negative codes).

import { decodeLzma1 } from './lzma.mjs';

// The embedded modules: the main one (every algorithm, scalar code) and the
// SIMD128 one (only the SIMD128 kernels of BLAKE3, XXH3 and the multi-buffer
// lanes of MD5, SHA-1 and SHA-256, which the main module imports), in that order in one LZMA stream. Imported lazily, so
// loading the package costs nothing until init(); see scripts/build.mjs for
// why one stream and how both modules share one memory.
const MODULES = () => import('../dist/modules.mjs');

// The smallest module that uses SIMD128: one function `() -> v128` whose body
// is `i32.const 0; i8x16.splat; i8x16.popcnt; end`. Engines without SIMD128
// (or with only a pre-standard draft of it) reject it.
const SIMD_PROBE = new Uint8Array([
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, // "\0asm", version 1
  0x01, 0x05, 0x01, 0x60, 0x00, 0x01, 0x7b, // type section: () -> v128
  0x03, 0x02, 0x01, 0x00, // function section: one function of type 0
  0x0a, 0x0a, 0x01, 0x08, 0x00, // code section: one body of 8 bytes, no locals
  0x41, 0x00, 0xfd, 0x0f, 0xfd, 0x62, 0x0b, // i32.const 0, i8x16.splat, i8x16.popcnt, end
]);

// Inputs longer than this go to the module in pieces, so its memory stays
// bounded whatever is hashed: a hasher takes the pieces one by one, and a
// batch goes in groups of up to this many bytes (one call per group).
const PIECE_BYTES = 4 << 20;
// At most this many messages per batch call, which bounds the output area.
const GROUP_MESSAGES = 1 << 16;

// BLAKE3's id in the registry (ids are a stable, on-disk contract).
const BLAKE3_ID = 1;
const MODE_HASH = 0;
const MODE_KEYED = 1;
const MODE_DERIVE_KEY = 2;
const BLAKE3_KEY_LEN = 32;
const BLAKE3_OUT_LEN = 32;

// The module's error codes (bindings/js/wasm/src/lib.rs).
const ERROR_UNKNOWN_ALGORITHM = -1;
const ERROR_INVALID_ARGUMENT = -3;
const ERROR_OUT_OF_MEMORY = -4;
const TRAILER_ERRORS = new Map([
  [-10, 'mismatch'],
  [-11, 'truncated'],
  [-12, 'too-long'],
  [-13, 'unknown-algorithm'],
]);

// Bao's error codes (bindings/js/wasm/src/bao.rs) and the kind of BaoError each is.
const BAO_ERRORS = new Map([
  [-20, 'mismatch'],
  [-21, 'truncated'],
  [-22, 'extended'],
  [-23, 'length'],
]);
const BAO_MAX_GROUP_LOG = 16;
const BAO_HEADER_LEN = 8;

// Chunk records in the output area (bindings/js/wasm/src/cdc.rs): offset
// (8 bytes), length (4), address (32), little-endian.
const CHUNK_RECORD_LEN = 44;
const CHUNK_ADDRESSES = new Map([
  ['blake3', { code: 0, width: 32 }],
  ['blake3-160', { code: 1, width: 20 }],
  ['xet', { code: 2, width: 32 }],
]);
const XET_HASH_HEX_LEN = 64;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Thrown by `verifyTrailer` when a trailer does not check out; `kind` says why. */
export class TrailerError extends Error {
  constructor(kind, message) {
    super(message);
    this.name = 'TrailerError';
    this.kind = kind;
  }
}

/**
 * Thrown by the Bao functions when bytes do not verify or a stream or
 * outboard has the wrong length. `kind`: `mismatch` (a parent node or chunk
 * group does not hash to what its parent or the root says: damage, another
 * root, key, group size or range), `truncated` (the stream ends early),
 * `extended` (bytes follow the end of the slice) or `length` (an outboard
 * or encoding whose length does not fit its header). From `baoDecode`,
 * `verified` holds the requested bytes verified before the failure (never
 * an unverified byte); else it is empty.
 */
export class BaoError extends Error {
  constructor(kind, message, verified) {
    super(message);
    this.name = 'BaoError';
    this.kind = kind;
    this.verified = verified;
  }
}

/** Whether this engine runs WebAssembly SIMD128 (the check `init` makes). */
export function simdSupported() {
  return WebAssembly.validate(SIMD_PROBE);
}

const engines = new Map();
let current = null;

/**
 * Loads the WebAssembly build this engine can run (SIMD128 when supported:
 * the main module with the SIMD128 module's kernels; else the main module
 * alone) and makes it the one every other function uses. `options.simd` forces a
 * build: `false` the scalar one, `true` the SIMD128 one; in Node the
 * environment variable CHUNKHASH_WASM=scalar|simd128 does the same when the
 * option is not given. Calling it again is cheap; hashers keep the build
 * they were made with.
 */
export async function init(options = {}) {
  if (options === null || typeof options !== 'object') {
    throw new TypeError(`chunkhash: init options must be an object, not ${describe(options)}`);
  }
  const build = chooseBuild(options.simd);
  if (!engines.has(build)) {
    const loading = load(build);
    engines.set(build, loading);
    loading.catch(() => engines.delete(build));
  }
  current = await engines.get(build);
  return current.info;
}

function chooseBuild(simd) {
  if (simd === undefined) {
    const forced = globalThis.process?.env?.CHUNKHASH_WASM;
    if (forced === 'scalar' || forced === 'simd128') return forced;
    if (forced) throw new RangeError(`chunkhash: CHUNKHASH_WASM must be scalar or simd128, not ${JSON.stringify(forced)}`);
    return simdSupported() ? 'simd128' : 'scalar';
  }
  if (typeof simd !== 'boolean') throw new TypeError(`chunkhash: the simd option must be a boolean, not ${describe(simd)}`);
  if (simd && !simdSupported()) throw new Error('chunkhash: this engine does not support WebAssembly SIMD128');
  return simd ? 'simd128' : 'scalar';
}

async function load(build) {
  const { default: base64, lzma, lengths, layout } = await MODULES();
  const binary = atob(base64);
  // A plain loop: Uint8Array.from(binary, ...) took 10 ms instead of 3 in a fresh Node.
  const stream = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) stream[i] = binary.charCodeAt(i);
  // The whole stream even for the scalar build: a match may cross from the
  // main module into the SIMD128 one, so its first part alone would not end
  // where the main module does (and the decoder refuses to cut a match).
  // The end marker checked too: LZMA has no checksum, and without it damage
  // to the stream's last bytes would go unseen.
  const modules = decodeLzma1(stream, { ...lzma, size: lengths.main + lengths.simd128, endMarker: true });
  const main = await WebAssembly.compile(modules.subarray(0, lengths.main));
  const memory = new WebAssembly.Memory({ initial: layout.pages });
  let kernels;
  if (build === 'simd128') {
    const simd = await WebAssembly.instantiate(modules.subarray(lengths.main), { env: { memory } });
    kernels = simd.instance.exports;
    // The build links the SIMD128 module's data and stack into the gap the
    // main module's layout leaves; a module from another build would not fit.
    const dataEnd = kernels.__data_end?.value;
    const heapBase = kernels.__heap_base?.value;
    if (!(layout.gapStart < dataEnd && dataEnd <= heapBase && heapBase <= layout.gapEnd)) {
      throw new Error('chunkhash: the SIMD128 module does not fit the main module (dist/ holds files of two builds)');
    }
  } else {
    // Never called: the main module runs its SIMD128 kernels only after
    // chunkhash_simd128_link(), which only the branch above calls.
    kernels = {};
    for (const { module, name } of WebAssembly.Module.imports(main)) {
      if (module === 'chunkhash_simd128') {
        kernels[name] = () => {
          throw new Error(`chunkhash: the SIMD128 kernel ${name} was called in the scalar build`);
        };
      }
    }
  }
  const instance = await WebAssembly.instantiate(main, { env: { memory }, chunkhash_simd128: kernels });
  if (build === 'simd128') instance.exports.chunkhash_simd128_link();
  return new Engine(instance.exports, memory, build);
}

function engine() {
  if (current === null) throw new Error('chunkhash: call `await init()` before hashing');
  return current;
}

/** One instantiated build: its exports, memory views and algorithm table. */
class Engine {
  constructor(exports, memory, build) {
    this.ex = exports;
    this.memory = memory;
    this.u8 = new Uint8Array(0);
    this.u32 = new Uint32Array(0);
    this.staging = 0;
    this.stagingLen = 0;
    this.output = exports.chunkhash_output();
    this.outputLen = 128; // the module's OUTPUT_START_LEN: no digest moves it
    this.reserve(64 << 10);
    // A batch group's offsets table: where each message starts, and where the last ends.
    this.offsets = new Uint32Array(GROUP_MESSAGES + 1);
    this.algorithms = [];
    this.ids = new Map();
    for (let id = 1; id <= exports.chunkhash_algorithm_count(); id++) {
      const packed = this.check(exports.chunkhash_algorithm_describe(id));
      const name = decoder.decode(this.view().subarray(this.output, this.output + (packed & 0xff)));
      const algorithm = Object.freeze({ id, name, digestLength: (packed >> 8) & 0xff, cryptographic: (packed >> 16) === 1 });
      this.algorithms[id] = algorithm;
      this.ids.set(name, id);
    }
    const backend = this.readOutput(this.check(exports.chunkhash_backend()));
    const multiBuffer = decoder.decode(this.readOutput(this.check(exports.chunkhash_multi_buffer_kernel())));
    this.info = Object.freeze({ build, backend: decoder.decode(backend), multiBuffer });
  }

  /** A view of the whole memory, renewed after the memory grew. */
  view() {
    if (this.u8.byteLength === 0) this.u8 = new Uint8Array(this.memory.buffer);
    return this.u8;
  }

  /** A 32-bit view of the whole memory (for offsets tables), renewed likewise. */
  view32() {
    if (this.u32.byteLength === 0) this.u32 = new Uint32Array(this.memory.buffer);
    return this.u32;
  }

  /**
   * Writes `offsets` (count + 1 entries) as a batch group's table after the
   * `at` bytes staged, at the next 4-byte boundary; returns its position.
   * The staging area must have room for the table and 3 bytes of padding.
   */
  putOffsets(at, offsets) {
    const tableAt = ((this.staging + at + 3) & ~3) - this.staging;
    this.view32().set(offsets, (this.staging + tableAt) >> 2);
    return tableAt;
  }

  /** Makes the staging area at least `len` bytes long. */
  reserve(len) {
    if (len <= this.stagingLen) return;
    const want = Math.max(len, Math.min(2 * this.stagingLen, PIECE_BYTES));
    const pointer = this.ex.chunkhash_staging(want);
    if (pointer === 0) throw new RangeError(`chunkhash: out of WebAssembly memory (asked for ${want} bytes)`);
    this.staging = pointer;
    this.stagingLen = want;
  }

  /** Throws the module's error for a negative result, else returns it. */
  check(result) {
    if (result >= 0) return result;
    // A call may grow (move) the output area and fail after: find it again.
    this.output = this.ex.chunkhash_output();
    const start = this.ex.chunkhash_message();
    const message = decoder.decode(this.view().subarray(start, start + this.ex.chunkhash_message_len()));
    if (TRAILER_ERRORS.has(result)) throw new TrailerError(TRAILER_ERRORS.get(result), message);
    if (BAO_ERRORS.has(result)) throw new BaoError(BAO_ERRORS.get(result), `chunkhash: ${message}`, new Uint8Array(0));
    if (result === ERROR_OUT_OF_MEMORY) throw new RangeError(`chunkhash: ${message}`);
    if (result === ERROR_UNKNOWN_ALGORITHM || result === ERROR_INVALID_ARGUMENT) throw new RangeError(`chunkhash: ${message}`);
    throw new Error(`chunkhash: ${message} (code ${result})`);
  }

  /** A copy of the first `len` bytes of the output area. */
  readOutput(len) {
    const start = this.outputStart(len);
    return this.view().slice(start, start + len);
  }

  /** The first `len` bytes of the output area, valid until the next call. */
  outputView(len) {
    const start = this.outputStart(len);
    return this.view().subarray(start, start + len);
  }

  /** The output area's address, asked again after an output longer than any before (it may have moved). */
  outputStart(len) {
    if (len > this.outputLen) {
      this.output = this.ex.chunkhash_output();
      this.outputLen = len;
    }
    return this.output;
  }

  /** The id of an algorithm name or alias (any case, `_` for `-`). */
  id(name) {
    const known = this.ids.get(name);
    if (known !== undefined) return known;
    if (typeof name !== 'string') throw new TypeError(`chunkhash: the algorithm must be a name (string), not ${describe(name)}`);
    const len = this.put(name, 0, PIECE_BYTES);
    const id = len < 0 ? ERROR_UNKNOWN_ALGORITHM : this.ex.chunkhash_algorithm_parse(len);
    if (id < 0) {
      const names = this.algorithms.slice(1).map((a) => a.name).join(', ');
      throw new RangeError(`chunkhash: unknown algorithm ${JSON.stringify(name.slice(0, 64))}, expected one of ${names} (any case; aliases such as sha256, xxh3, xxh128, b3 work too)`);
    }
    // Remember the spellings in use, up to a point (case variants are endless).
    if (this.ids.size < 256) this.ids.set(name, id);
    return id;
  }

  /**
   * Writes `data` (bytes or a string) to the staging area at `offset` if it
   * fits in `limit` bytes there; returns its length in bytes, or -1 when it
   * does not fit (the caller then feeds it in pieces).
   */
  put(data, offset, limit) {
    if (typeof data === 'string') {
      const room = Math.min(data.length * 3, limit - offset);
      if (room < data.length) return -1;
      this.reserve(offset + room);
      const start = this.staging + offset;
      const { read, written } = encoder.encodeInto(data, this.view().subarray(start, start + room));
      return read === data.length ? written : -1;
    }
    if (offset + data.length > limit) return -1;
    this.reserve(offset + data.length);
    this.view().set(data, this.staging + offset);
    return data.length;
  }

  /** Calls `take(len)` for each piece of `data` staged at offset 0. */
  feed(data, take) {
    if (typeof data === 'string') {
      this.reserve(PIECE_BYTES);
      for (let rest = data; rest.length > 0; ) {
        const { read, written } = encoder.encodeInto(rest, this.view().subarray(this.staging, this.staging + PIECE_BYTES));
        take(written);
        rest = rest.substring(read);
      }
      return;
    }
    for (let start = 0; start < data.length; start += PIECE_BYTES) {
      take(this.put(data.subarray(start, start + PIECE_BYTES), 0, PIECE_BYTES));
    }
  }

  /** Stages a BLAKE3 mode's parameter at offset 0; returns its length. */
  putParam(mode) {
    return mode.param === null ? 0 : this.put(mode.param, 0, PIECE_BYTES);
  }

  newHasher(id, mode) {
    return this.check(this.ex.chunkhash_hasher_new(id, mode.code, this.putParam(mode)));
  }

  /** `len` output bytes of a live hasher, from byte 0, in pieces. */
  finalize(handle, len) {
    if (len <= PIECE_BYTES) {
      return this.readOutput(this.check(this.ex.chunkhash_hasher_finalize(handle, 0, 0, len)));
    }
    const out = new Uint8Array(len);
    for (let position = 0; position < len; position += PIECE_BYTES) {
      const n = Math.min(PIECE_BYTES, len - position);
      this.check(this.ex.chunkhash_hasher_finalize(handle, position % 2 ** 32, Math.floor(position / 2 ** 32), n));
      out.set(this.outputView(n), position);
    }
    return out;
  }

  /** The one-shot result of `data` through a temporary hasher (long inputs). */
  streamed(id, mode, data, len) {
    const handle = this.newHasher(id, mode);
    try {
      this.feed(data, (n) => this.check(this.ex.chunkhash_hasher_update(handle, n)));
      return this.finalize(handle, len);
    } finally {
      this.ex.chunkhash_hasher_free(handle);
    }
  }
}

/**
 * The digest of `data` under a registry algorithm: BLAKE3, BLAKE3-160,
 * XXH3-64, XXH3-128, XXH64, XXH32, CRC32C, BLAKE2b-512, BLAKE2b-256,
 * SHA-256, SHA-512, SHA-512/160 (names and aliases in any case). Integer
 * checksums are big-endian, as xxhsum and CRC32C tools print them.
 */
export function hash(name, data) {
  const e = engine();
  const id = e.id(name);
  return oneShot(e, id, NO_MODE, input(data), e.algorithms[id].digestLength);
}

/**
 * BLAKE3 of `data`: the plain hash, the keyed hash (`key`, 32 bytes) or key
 * derivation (`deriveKeyContext`, a string naming the application and
 * purpose), `length` bytes of output (default 32; any length, extended).
 */
export function blake3(data, options) {
  const e = engine();
  const bytes = input(data);
  const mode = blake3Mode(options, true);
  return oneShot(e, BLAKE3_ID, mode, bytes, mode.length);
}

/** `length` output bytes for one input: one call when it fits, else a hasher. */
function oneShot(e, id, mode, data, length) {
  const paramLen = e.putParam(mode);
  const len = length <= PIECE_BYTES ? e.put(data, paramLen, PIECE_BYTES) : -1;
  if (len < 0) return e.streamed(id, mode, data, length);
  const result = mode === NO_MODE ? e.ex.chunkhash_digest(id, len) : e.ex.chunkhash_blake3(mode.code, paramLen, len, length);
  return e.readOutput(e.check(result));
}

/**
 * The integer value of a checksum: a number for the 32-bit ones (CRC32C,
 * XXH32), a bigint for XXH64, XXH3-64 and XXH3-128.
 */
export function checksum(name, data) {
  const e = engine();
  const algorithm = e.algorithms[e.id(name)];
  if (algorithm.cryptographic) {
    const checksums = e.algorithms.slice(1).filter((a) => !a.cryptographic).map((a) => a.name).join(', ');
    throw new RangeError(`chunkhash: ${algorithm.name} is not an integer checksum; checksum() takes ${checksums}`);
  }
  return integer(oneShot(e, algorithm.id, NO_MODE, input(data), algorithm.digestLength));
}

function integer(digest) {
  const view = new DataView(digest.buffer, digest.byteOffset, digest.byteLength);
  if (digest.length === 4) return view.getUint32(0);
  let value = 0n;
  for (let i = 0; i < digest.length; i += 8) value = (value << 64n) | view.getBigUint64(i);
  return value;
}

/**
 * The digests of many messages, back to back in one Uint8Array (message i's
 * digest at i * digest length). The messages are copied into WebAssembly
 * memory together and hashed in one call (per 4 MiB or 65536 messages);
 * BLAKE3 hashes small messages side by side in SIMD lanes. `options` takes
 * BLAKE3's `key` or `deriveKeyContext`.
 */
export function hashMany(name, messages, options) {
  const e = engine();
  const id = e.id(name);
  const column = isColumn(messages);
  const list = column ? null : messageList(messages);
  const mode = id === BLAKE3_ID ? blake3Mode(options, false) : noOptions(e.algorithms[id], options);
  const digestLength = e.algorithms[id].digestLength;
  if (column) return hashColumn(e, id, mode, digestLength, messages);
  const out = new Uint8Array(list.length * digestLength);
  let i = 0;
  while (i < list.length) {
    // One pass per group: each message is checked, copied after the
    // previous one and where it ends noted; the offsets follow the messages.
    // A message is let in if it fits at its largest size (a string of n
    // UTF-16 units takes at most 3n bytes of UTF-8) with the table.
    const paramLen = e.putParam(mode);
    const offsets = e.offsets;
    offsets[0] = paramLen;
    let u8 = e.view();
    let at = paramLen;
    let end = i;
    while (end < list.length && end - i < GROUP_MESSAGES) {
      const message = inputAt(list, end);
      const max = typeof message === 'string' ? 3 * message.length : message.length;
      const need = at + max + 3 + 4 * (end - i + 2);
      if (need > PIECE_BYTES) break;
      if (need > e.stagingLen) {
        e.reserve(need); // may move the area (contents kept) and grow the memory
        u8 = e.view();
      }
      const start = e.staging + at;
      if (typeof message === 'string') {
        at += encoder.encodeInto(message, u8.subarray(start, start + max)).written;
      } else {
        u8.set(message, start);
        at += max;
      }
      offsets[end - i + 1] = at;
      end++;
    }
    if (end === i) {
      // One message larger than a group: hashed on its own, in pieces.
      out.set(oneShot(e, id, mode, inputAt(list, i), digestLength), i * digestLength);
      i++;
      continue;
    }
    const count = end - i;
    const tableAt = e.putOffsets(at, offsets.subarray(0, count + 1));
    e.check(e.ex.chunkhash_hash_many(id, mode.code, paramLen, count, at - paramLen, tableAt));
    out.set(e.outputView(count * digestLength), i * digestLength);
    i = end;
  }
  return out;
}

/** `{values, offsets}`: a column (Arrow's layout) rather than a list of messages. */
function isColumn(messages) {
  return messages !== null && typeof messages === 'object' && !ArrayBuffer.isView(messages) &&
    typeof messages[Symbol.iterator] !== 'function' && 'offsets' in messages;
}

/**
 * hashMany over a column: value i is `values[offsets[i] .. offsets[i + 1]]`,
 * as in an Arrow binary or string array. Each group of values is one copy
 * into WebAssembly memory (a list costs one copy per message, which is most
 * of a 64-byte message's time).
 */
function hashColumn(e, id, mode, digestLength, column) {
  const values = bytesOnly(column.values, 'values');
  const offsets = column.offsets;
  let at;
  if (offsets instanceof Int32Array || offsets instanceof Uint32Array) at = (i) => offsets[i];
  else if (offsets instanceof BigInt64Array) at = (i) => Number(offsets[i]);
  else throw new TypeError(`chunkhash: offsets must be an Int32Array, Uint32Array or BigInt64Array, not ${describe(offsets)}`);
  if (offsets.length === 0) throw new RangeError('chunkhash: offsets is empty: n values take n + 1 offsets');
  if (at(0) < 0) throw new RangeError(`chunkhash: offsets[0] is ${at(0)}, below 0`);
  for (let i = 1; i < offsets.length; i++) {
    if (at(i) < at(i - 1)) throw new RangeError(`chunkhash: offsets[${i}] is ${at(i)}, below offsets[${i - 1}] (${at(i - 1)}): offsets must not decrease`);
  }
  const last = at(offsets.length - 1);
  if (last > values.length) throw new RangeError(`chunkhash: the last offset is ${last}, past the end of values (${values.length} bytes)`);

  const count = offsets.length - 1;
  const out = new Uint8Array(count * digestLength);
  let i = 0;
  while (i < count) {
    const paramLen = e.putParam(mode);
    const start = at(i);
    let end = i;
    while (end < count && end - i < GROUP_MESSAGES && paramLen + at(end + 1) - start + 3 + 4 * (end - i + 2) <= PIECE_BYTES) end++;
    if (end === i) {
      // One value larger than a group: hashed on its own, in pieces.
      out.set(oneShot(e, id, mode, values.subarray(start, at(i + 1)), digestLength), i * digestLength);
      i++;
      continue;
    }
    const bytes = at(end) - start;
    e.reserve(paramLen + bytes + 3 + 4 * (end - i + 1)); // may move the area (contents kept)
    e.view().set(values.subarray(start, start + bytes), e.staging + paramLen);
    // The column's own offsets, as they stand: the module counts from the first.
    let table;
    if (offsets instanceof BigInt64Array) {
      table = e.offsets.subarray(0, end - i + 1);
      for (let k = i; k <= end; k++) table[k - i] = at(k) - start;
    } else {
      table = offsets.subarray(i, end + 1);
    }
    const tableAt = e.putOffsets(paramLen + bytes, table);
    e.check(e.ex.chunkhash_hash_many(id, mode.code, paramLen, end - i, bytes, tableAt));
    out.set(e.outputView((end - i) * digestLength), i * digestLength);
    i = end;
  }
  return out;
}

function messageList(messages) {
  if (messages === null || typeof messages !== 'object' || typeof messages[Symbol.iterator] !== 'function' || ArrayBuffer.isView(messages)) {
    throw new TypeError(`chunkhash: messages must be an array (or other iterable) of inputs, or a {values, offsets} column, not ${describe(messages)}`);
  }
  return Array.isArray(messages) ? messages : Array.from(messages);
}

/** Message `i` as a Uint8Array or string; TypeError naming it otherwise. */
function inputAt(list, i) {
  const message = list[i];
  if (message instanceof Uint8Array || typeof message === 'string') return message;
  return bytesOnly(message, `messages[${i}]`, ', or a string');
}

const hasherRegistry = new FinalizationRegistry(({ engine, handle }) => engine.ex.chunkhash_hasher_free(handle));

/**
 * An incremental hasher: `update` with pieces, `digest` any time (the
 * hasher goes on), `reset`, `clone`. Its WebAssembly memory is freed when
 * the hasher is garbage-collected, or at once by `free()` (or `using`).
 */
export function createHasher(name, options) {
  const e = engine();
  const id = e.id(name);
  const mode = id === BLAKE3_ID ? blake3Mode(options, false) : noOptions(e.algorithms[id], options);
  return new Hasher(HASHER_TOKEN, e, id, e.newHasher(id, mode));
}

const HASHER_TOKEN = Symbol('chunkhash.Hasher');

export class Hasher {
  #engine;
  #id;
  #handle;

  constructor(token, engine, id, handle) {
    if (token !== HASHER_TOKEN) throw new TypeError('chunkhash: make hashers with createHasher()');
    this.#engine = engine;
    this.#id = id;
    this.#handle = handle;
    hasherRegistry.register(this, { engine, handle }, this);
  }

  /** The canonical algorithm name. */
  get algorithm() {
    return this.#engine.algorithms[this.#id].name;
  }

  /** Bytes in a default digest. */
  get digestLength() {
    return this.#engine.algorithms[this.#id].digestLength;
  }

  #live() {
    if (this.#handle === 0) throw new TypeError('chunkhash: this hasher was freed');
    return this.#handle;
  }

  /** Adds input; returns the hasher. */
  update(data) {
    const handle = this.#live();
    const e = this.#engine;
    const bytes = input(data);
    const len = e.put(bytes, 0, PIECE_BYTES);
    if (len >= 0) e.check(e.ex.chunkhash_hasher_update(handle, len));
    else e.feed(bytes, (n) => e.check(e.ex.chunkhash_hasher_update(handle, n)));
    return this;
  }

  /** The digest of the input so far; BLAKE3 takes an output `length`. */
  digest(length) {
    const handle = this.#live();
    if (length === undefined) length = this.digestLength;
    else if (this.#id !== BLAKE3_ID) throw new TypeError(`chunkhash: ${this.algorithm} has a fixed digest length; only BLAKE3 takes a length`);
    else checkLength(length);
    return this.#engine.finalize(handle, length);
  }

  /** The integer value of a checksum's digest (see `checksum`). */
  checksum() {
    const algorithm = this.#engine.algorithms[this.#id];
    if (algorithm.cryptographic) throw new RangeError(`chunkhash: ${algorithm.name} is not an integer checksum`);
    return integer(this.digest());
  }

  /** Forgets all input (keeps the algorithm, key or context); returns the hasher. */
  reset() {
    this.#engine.check(this.#engine.ex.chunkhash_hasher_reset(this.#live()));
    return this;
  }

  /** An independent copy with the same input so far. */
  clone() {
    const handle = this.#engine.check(this.#engine.ex.chunkhash_hasher_clone(this.#live()));
    return new Hasher(HASHER_TOKEN, this.#engine, this.#id, handle);
  }

  /** Frees the hasher's WebAssembly memory now; the hasher is unusable after. */
  free() {
    if (this.#handle === 0) return;
    hasherRegistry.unregister(this);
    this.#engine.ex.chunkhash_hasher_free(this.#handle);
    this.#handle = 0;
  }

  [Symbol.dispose ?? Symbol.for('nodejs.dispose')]() {
    this.free();
  }
}

/**
 * A block trailer: the algorithm's id byte, then the block's checksum mixed
 * with `context` (a non-negative integer below 2^64, number or bigint:
 * where the block belongs, such as its file offset). Layout:
 * crates/chunkhash/src/trailer.rs.
 */
export function sealTrailer(name, block, context) {
  const e = engine();
  const id = e.id(name);
  const ctx = trailerContext(context);
  const len = e.put(input(block, 'block'), 0, Infinity);
  return e.readOutput(e.check(e.ex.chunkhash_trailer_seal(id, ctx, len)));
}

/**
 * Checks a trailer against its block and context and returns the name of
 * the algorithm it uses; throws a `TrailerError` (kind `mismatch`,
 * `truncated`, `too-long` or `unknown-algorithm`) when it does not check out.
 */
export function verifyTrailer(block, trailer, context) {
  const e = engine();
  const ctx = trailerContext(context);
  const blockLen = e.put(input(block, 'block'), 0, Infinity);
  const trailerLen = e.put(bytesOnly(trailer, 'trailer'), blockLen, Infinity);
  return e.algorithms[e.check(e.ex.chunkhash_trailer_verify(ctx, blockLen, trailerLen))].name;
}

function trailerContext(context) {
  return uint64(context, 'a trailer context');
}

/** `value` (a number or bigint from 0 to 2^64 - 1) as a bigint, for a 64-bit parameter. */
function uint64(value, what) {
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value) || value < 0) {
      throw new RangeError(`chunkhash: ${what} is an integer from 0 to 2^64 - 1 (a bigint above 2^53), not ${value}`);
    }
    return BigInt(value);
  }
  if (typeof value === 'bigint') {
    if (value < 0n || value >= 1n << 64n) throw new RangeError(`chunkhash: ${what} is an integer from 0 to 2^64 - 1, not ${value}`);
    return value;
  }
  throw new TypeError(`chunkhash: ${what} is a number or bigint, not ${describe(value)}`);
}

/**
 * Bao's outboard of `data` (chunkhash::blake3::bao): `{root, outboard}`,
 * the 32-byte root hash (BLAKE3 of `data`, or its keyed hash or derived
 * key) and `bao`'s outboard file: the length as 8 little-endian bytes,
 * then the tree's parent nodes, 64 bytes each. Options: `groupLog`
 * (chunk groups of 2^groupLog KiB, 0 to 16; default 0, `bao`'s format),
 * `order` (`'pre'`, `bao`'s, the default, or `'post'`, bao-tree's
 * post-order; `outboard.subarray(8)` is bao-tree's outboard data), `key`
 * or `deriveKeyContext` as for `blake3`. `data` is copied into
 * WebAssembly memory whole.
 */
export function baoOutboard(data, options) {
  const e = engine();
  const { mode, groupLog, postOrder } = baoOptions(options, ['groupLog', 'order', 'key', 'deriveKeyContext']);
  const paramLen = e.putParam(mode);
  const len = e.put(input(data), paramLen, Infinity);
  const out = e.readOutput(e.check(e.ex.chunkhash_bao_outboard(mode.code, paramLen, len, groupLog, postOrder)));
  return { root: out.subarray(0, BLAKE3_OUT_LEN), outboard: out.subarray(BLAKE3_OUT_LEN) };
}

/**
 * Bao's combined encoding of `data` (`bao encode`'s output for groupLog 0):
 * `{root, encoding}`, the length header, then parent nodes and chunk
 * groups in pre-order. Options: `groupLog`, `key`, `deriveKeyContext`.
 */
export function baoEncode(data, options) {
  const e = engine();
  const { mode, groupLog } = baoOptions(options, ['groupLog', 'key', 'deriveKeyContext']);
  const paramLen = e.putParam(mode);
  const len = e.put(input(data), paramLen, Infinity);
  const out = e.readOutput(e.check(e.ex.chunkhash_bao_encode(mode.code, paramLen, len, groupLog)));
  return { root: out.subarray(0, BLAKE3_OUT_LEN), encoding: out.subarray(BLAKE3_OUT_LEN) };
}

/**
 * The Bao slice for bytes `start .. start + count` (numbers or bigints), as
 * `bao slice` makes it: from `source`, the data, with `options.outboard`
 * (from `baoOutboard`, in the `order` it was made in), or from `source`, a
 * combined encoding, without one. Nodes and data are copied, not checked
 * (readers check them). Options: `outboard`, `order`, `groupLog`.
 */
export function baoSlice(source, start, count, options) {
  const e = engine();
  const { groupLog, postOrder, outboard } = baoOptions(options, ['outboard', 'order', 'groupLog']);
  const first = uint64(start, 'start');
  const length = uint64(count, 'count');
  const len = e.put(input(source, 'source'), 0, Infinity);
  let outboardLen = 0;
  if (outboard !== undefined) {
    const bytes = bytesOnly(outboard, 'outboard');
    if (bytes.length < BAO_HEADER_LEN) {
      throw new BaoError('length', `chunkhash: an outboard of ${bytes.length} bytes is shorter than its 8-byte header`, new Uint8Array(0));
    }
    outboardLen = e.put(bytes, len, Infinity);
  }
  return e.readOutput(e.check(e.ex.chunkhash_bao_slice(len, outboardLen, groupLog, postOrder, first, length)));
}

/**
 * Verifies a combined encoding, or with `start` and `count` the slice for
 * those bytes, against `root` (32 bytes) and returns the verified bytes:
 * the whole message, or the range (capped at the message's end). Throws a
 * `BaoError` at the first byte that does not verify (its `verified`: the
 * bytes verified before it), for a stream that ends early or runs on past
 * its end. Options: `start`, `count`, `groupLog`, `key`, `deriveKeyContext`
 * (as the stream was made with).
 */
export function baoDecode(root, stream, options) {
  const e = engine();
  const { mode, groupLog, start, count } = baoOptions(options, ['start', 'count', 'groupLog', 'key', 'deriveKeyContext']);
  if ((start === undefined) !== (count === undefined)) throw new TypeError('chunkhash: give baoDecode both start and count (a slice) or neither (a combined encoding)');
  const whole = start === undefined ? 1 : 0;
  const first = whole ? 0n : uint64(start, 'start');
  const length = whole ? 0n : uint64(count, 'count');
  const rootBytes = bytesOnly(root, 'root');
  if (rootBytes.length !== BLAKE3_OUT_LEN) throw new RangeError(`chunkhash: a Bao root hash is ${BLAKE3_OUT_LEN} bytes, not ${rootBytes.length}`);
  const paramLen = e.putParam(mode);
  e.put(rootBytes, paramLen, Infinity);
  const len = e.put(bytesOnly(stream, 'stream'), paramLen + BLAKE3_OUT_LEN, Infinity);
  const result = e.ex.chunkhash_bao_decode(mode.code, paramLen, len, groupLog, whole, first, length);
  if (result < 0 && BAO_ERRORS.has(result)) {
    // The bytes verified before the failure, then the error.
    const verified = e.readOutput(e.ex.chunkhash_bao_verified_len());
    try {
      e.check(result);
    } catch (error) {
      error.verified = verified;
      throw error;
    }
  }
  return e.readOutput(e.check(result));
}

/** The Bao options named in `allowed`, checked: the BLAKE3 mode, group size, order and the rest. */
function baoOptions(options, allowed) {
  if (options === undefined) options = {};
  if (options === null || typeof options !== 'object') throw new TypeError(`chunkhash: Bao options must be an object, not ${describe(options)}`);
  for (const name of Object.keys(options)) {
    if (!allowed.includes(name)) throw new TypeError(`chunkhash: unknown option ${JSON.stringify(name)} (expected ${allowed.join(', ')})`);
  }
  const { groupLog = 0, order = 'pre', key, deriveKeyContext, ...rest } = options;
  if (typeof groupLog !== 'number') throw new TypeError(`chunkhash: groupLog must be a number, not ${describe(groupLog)}`);
  if (!Number.isInteger(groupLog) || groupLog < 0 || groupLog > BAO_MAX_GROUP_LOG) {
    throw new RangeError(`chunkhash: groupLog is a whole number from 0 (1 KiB groups) to ${BAO_MAX_GROUP_LOG} (64 MiB), not ${groupLog}`);
  }
  if (order !== 'pre' && order !== 'post') throw new RangeError(`chunkhash: order is 'pre' or 'post', not ${describe(order)}`);
  const modeOptions = {};
  if (key !== undefined) modeOptions.key = key;
  if (deriveKeyContext !== undefined) modeOptions.deriveKeyContext = deriveKeyContext;
  return { ...rest, mode: blake3Mode(modeOptions, false), groupLog, postOrder: order === 'post' ? 1 : 0 };
}

/**
 * Content-defined chunks of `data` and their addresses, in one pass:
 * `{offsets, lengths, addresses, addressLength, xetFileHash}`. The chunker
 * is Xet's (Hugging Face's xet-core: 8 KiB to 128 KiB) unless
 * `fastcdc: [min, avg, max]` picks FastCDC 2020, cutting where the
 * `fastcdc` crate's v2020 chunker cuts with those sizes (normalization
 * level 1). `address`: `'xet'` (Xet's chunk hash, the default with Xet's
 * chunker), `'blake3'` (the default with FastCDC) or `'blake3-160'`.
 * `offsets` is a Float64Array (exact below 2^53), `lengths` a Uint32Array,
 * `addresses` one Uint8Array (chunk i's at i * addressLength). With Xet's
 * chunker and addresses, `xetFileHash` is Xet's file hash as the Hub
 * prints it (64 hex digits), else null. `data` goes into WebAssembly
 * memory in pieces of 4 MiB.
 */
export function chunk(data, options) {
  const e = engine();
  if (options === undefined) options = {};
  if (options === null || typeof options !== 'object') throw new TypeError(`chunkhash: chunk options must be an object, not ${describe(options)}`);
  for (const name of Object.keys(options)) {
    if (name !== 'fastcdc' && name !== 'address') throw new TypeError(`chunkhash: unknown chunk option ${JSON.stringify(name)} (expected fastcdc or address)`);
  }
  const bytes = input(data);
  const sizes = options.fastcdc === undefined ? null : fastcdcSizes(options.fastcdc);
  const addressName = options.address ?? (sizes === null ? 'xet' : 'blake3');
  const address = CHUNK_ADDRESSES.get(addressName);
  if (address === undefined) {
    throw new RangeError(`chunkhash: unknown chunk address ${describe(addressName)} (known: ${[...CHUNK_ADDRESSES.keys()].join(', ')})`);
  }
  const [min, avg, max] = sizes ?? [0, 0, 0];
  e.check(e.ex.chunkhash_cdc_begin(sizes === null ? 0 : 1, min, avg, max, address.code));
  const found = new ChunkList(address.width);
  e.feed(bytes, (n) => found.add(e, e.check(e.ex.chunkhash_cdc_update(n))));
  const last = e.check(e.ex.chunkhash_cdc_finish());
  const withFileHash = sizes === null && address.code === CHUNK_ADDRESSES.get('xet').code;
  const records = e.outputView(last * CHUNK_RECORD_LEN + (withFileHash ? XET_HASH_HEX_LEN : 0));
  const xetFileHash = withFileHash ? decoder.decode(records.subarray(last * CHUNK_RECORD_LEN)) : null;
  found.add(e, last);
  return { ...found.result(), addressLength: address.width, xetFileHash };
}

function fastcdcSizes(fastcdc) {
  if (!Array.isArray(fastcdc) || fastcdc.length !== 3) {
    throw new TypeError(`chunkhash: fastcdc must be [min, avg, max], three sizes in bytes, not ${describe(fastcdc)}`);
  }
  for (const size of fastcdc) {
    // The module checks the ranges and says which rule a size breaks.
    if (!Number.isSafeInteger(size) || size < 0 || size > 2 ** 32 - 1) {
      throw new RangeError(`chunkhash: fastcdc sizes are whole numbers of bytes, not ${describe(size)}`);
    }
  }
  return fastcdc;
}

/** Chunk records read from the output area into growing typed arrays. */
class ChunkList {
  constructor(width) {
    this.width = width;
    this.count = 0;
    this.offsets = new Float64Array(64);
    this.lengths = new Uint32Array(64);
    this.addresses = new Uint8Array(64 * width);
  }

  /** Takes the `count` records the last call wrote to the output area. */
  add(e, count) {
    if (this.count + count > this.offsets.length) {
      const room = Math.max(2 * this.offsets.length, this.count + count);
      const offsets = new Float64Array(room);
      offsets.set(this.offsets.subarray(0, this.count));
      const lengths = new Uint32Array(room);
      lengths.set(this.lengths.subarray(0, this.count));
      const addresses = new Uint8Array(room * this.width);
      addresses.set(this.addresses.subarray(0, this.count * this.width));
      Object.assign(this, { offsets, lengths, addresses });
    }
    const records = e.outputView(count * CHUNK_RECORD_LEN);
    const view = new DataView(records.buffer, records.byteOffset, records.byteLength);
    for (let i = 0; i < count; i++) {
      const at = i * CHUNK_RECORD_LEN;
      const k = this.count + i;
      this.offsets[k] = view.getUint32(at, true) + view.getUint32(at + 4, true) * 2 ** 32;
      this.lengths[k] = view.getUint32(at + 8, true);
      this.addresses.set(records.subarray(at + 12, at + 12 + this.width), k * this.width);
    }
    this.count += count;
  }

  result() {
    return {
      offsets: this.offsets.slice(0, this.count),
      lengths: this.lengths.slice(0, this.count),
      addresses: this.addresses.slice(0, this.count * this.width),
    };
  }
}

/** The registry: `{id, name, digestLength, cryptographic}` for each algorithm, in id order. */
export function algorithms() {
  return engine().algorithms.slice(1);
}

/** Which build runs and which BLAKE3 backend it uses: `{build, backend}`. */
export function buildInfo() {
  return engine().info;
}

/** Bytes of WebAssembly memory of the current build (for memory checks). */
export function memoryBytes() {
  return engine().memory.buffer.byteLength;
}

/** Hashers whose memory is not freed yet (for memory checks). */
export function liveHashers() {
  return engine().ex.chunkhash_hasher_count();
}

/**
 * Undocumented and unstable, for bench-bao.mjs only: the current build's
 * engine, so that a benchmark can call a WebAssembly export on input staged
 * beforehand (the library's own cost, without the wrapper's copies).
 */
export function _benchmarkEngine() {
  return engine();
}

/** Lowercase hex of bytes. */
export function toHex(bytes) {
  let hex = '';
  for (const byte of bytesOnly(bytes, 'bytes')) hex += byte.toString(16).padStart(2, '0');
  return hex;
}

const NO_MODE = Object.freeze({ code: MODE_HASH, param: null, length: BLAKE3_OUT_LEN });

function blake3Mode(options, withLength) {
  if (options === undefined) return NO_MODE;
  if (options === null || typeof options !== 'object') {
    throw new TypeError(`chunkhash: BLAKE3 options must be an object, not ${describe(options)}`);
  }
  for (const name of Object.keys(options)) {
    if (name !== 'key' && name !== 'deriveKeyContext' && !(withLength && name === 'length')) {
      throw new TypeError(`chunkhash: unknown BLAKE3 option ${JSON.stringify(name)} (expected ${withLength ? 'length, ' : ''}key or deriveKeyContext)`);
    }
  }
  const { key, deriveKeyContext, length = BLAKE3_OUT_LEN } = options;
  checkLength(length);
  if (key !== undefined && deriveKeyContext !== undefined) {
    throw new TypeError('chunkhash: give BLAKE3 a key or a deriveKeyContext, not both');
  }
  if (key !== undefined) {
    const bytes = bytesOnly(key, 'key');
    if (bytes.length !== BLAKE3_KEY_LEN) throw new RangeError(`chunkhash: a BLAKE3 key is ${BLAKE3_KEY_LEN} bytes, not ${bytes.length}`);
    return { code: MODE_KEYED, param: bytes, length };
  }
  if (deriveKeyContext !== undefined) {
    if (typeof deriveKeyContext !== 'string') {
      throw new TypeError(`chunkhash: deriveKeyContext must be a string, not ${describe(deriveKeyContext)}`);
    }
    return { code: MODE_DERIVE_KEY, param: deriveKeyContext, length };
  }
  return length === BLAKE3_OUT_LEN ? NO_MODE : { code: MODE_HASH, param: null, length };
}

function noOptions(algorithm, options) {
  if (options === undefined) return NO_MODE;
  if (options === null || typeof options !== 'object') {
    throw new TypeError(`chunkhash: options must be an object, not ${describe(options)}`);
  }
  if (Object.keys(options).length > 0) {
    throw new TypeError(`chunkhash: ${algorithm.name} takes no options (key and deriveKeyContext are BLAKE3's)`);
  }
  return NO_MODE;
}

function checkLength(length) {
  if (typeof length !== 'number') throw new TypeError(`chunkhash: length must be a number, not ${describe(length)}`);
  if (!Number.isSafeInteger(length) || length < 0) {
    throw new RangeError(`chunkhash: length must be a whole number of bytes, 0 or more, not ${length}`);
  }
}

/** `data` as a Uint8Array view (no copy) or a string; TypeError otherwise. */
function input(data, what = 'data') {
  if (data instanceof Uint8Array || typeof data === 'string') return data;
  return bytesOnly(data, what, ', or a string');
}

function bytesOnly(data, what, orString = '') {
  if (data instanceof Uint8Array) return data;
  if (ArrayBuffer.isView(data)) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  if (data instanceof ArrayBuffer || (typeof SharedArrayBuffer === 'function' && data instanceof SharedArrayBuffer)) {
    return new Uint8Array(data);
  }
  throw new TypeError(`chunkhash: ${what} must be a Uint8Array, ArrayBuffer or other ArrayBufferView${orString}, not ${describe(data)}`);
}

function describe(value) {
  if (value === null) return 'null';
  if (typeof value === 'object') return value.constructor?.name ? `a ${value.constructor.name}` : 'an object';
  if (typeof value === 'string') return `the string ${JSON.stringify(value.length > 40 ? value.slice(0, 40) + '...' : value)}`;
  return typeof value === 'undefined' ? 'undefined' : `the ${typeof value} ${String(value)}`;
}
