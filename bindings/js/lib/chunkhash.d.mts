// Type declarations of the chunkhash package (ES module and CommonJS entries).

/** What can be hashed: bytes in any typed-array or buffer form, or a string (hashed as UTF-8). */
export type Input = Uint8Array | ArrayBuffer | SharedArrayBuffer | ArrayBufferView | string;

/** Bytes for keys and trailers (no strings). */
export type Bytes = Uint8Array | ArrayBuffer | SharedArrayBuffer | ArrayBufferView;

// BEGIN generated from the registry (crates/chunkhash/src/registry.rs): cargo run -p chunkhash-binding-lists
/** The stable registry ids (an on-disk contract): `algorithms()` lists them. */
export type AlgorithmId = 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9 | 10 | 11 | 12 | 13 | 14 | 15 | 16;

/** Canonical names of the registry; aliases (`sha256`, `xxh3`, `b3`, any case, `_` for `-`) are accepted too. */
export type AlgorithmName =
  | 'BLAKE3'
  | 'BLAKE3-160'
  | 'XXH3-64'
  | 'XXH3-128'
  | 'XXH64'
  | 'XXH32'
  | 'CRC32C'
  | 'BLAKE2b-512'
  | 'BLAKE2b-256'
  | 'SHA-256'
  | 'SHA-512'
  | 'SHA-512/160'
  | 'CRC-32'
  | 'CRC-64/NVME'
  | 'MD5'
  | 'SHA-1'
  | (string & {});

/** The 32-bit checksums, whose integer value is a number. */
export type Checksum32Name = 'XXH32' | 'CRC32C' | 'CRC-32';
/** The 64- and 128-bit checksums, whose integer value is a bigint. */
export type Checksum64Name = 'XXH3-64' | 'XXH3-128' | 'XXH64' | 'CRC-64/NVME';
// END generated

export interface Algorithm {
  /** The stable registry id (an on-disk contract). */
  readonly id: AlgorithmId;
  readonly name: AlgorithmName;
  readonly digestLength: number;
  /** False for the checksums that catch accidents only (the CRCs, xxHash). */
  readonly cryptographic: boolean;
}

export interface InitOptions {
  /** Force the SIMD128 build (true) or the scalar one (false); detected when absent. */
  simd?: boolean;
}

export interface BuildInfo {
  /** The WebAssembly build in use. */
  readonly build: 'simd128' | 'scalar';
  /** The BLAKE3 backend it runs. */
  readonly backend: 'wasm32simd' | 'portable';
  /** What `hashMany` runs MD5, SHA-1 and SHA-256 on: four messages side by side in SIMD128 lanes, or one at a time. */
  readonly multiBuffer: 'simd128' | 'portable';
}

export interface Blake3ModeOptions {
  /** A 32-byte key: the keyed hash (a MAC or PRF). */
  key?: Bytes;
  /** A context string naming the application and purpose: key derivation from the input. */
  deriveKeyContext?: string;
}

export interface Blake3Options extends Blake3ModeOptions {
  /** Output bytes (default 32); longer outputs extend the hash. */
  length?: number;
}

/** Loads the build this engine can run; call once before anything else. */
export function init(options?: InitOptions): Promise<BuildInfo>;

/** Whether this engine runs WebAssembly SIMD128. */
export function simdSupported(): boolean;

/** BLAKE3: plain, keyed or key derivation, any output length. */
export function blake3(data: Input, options?: Blake3Options): Uint8Array;

/** The digest of `data` under a registry algorithm (integers big-endian). */
export function hash(name: AlgorithmName, data: Input): Uint8Array;

/** The integer value of a checksum. */
export function checksum(name: Checksum32Name, data: Input): number;
export function checksum(name: Checksum64Name, data: Input): bigint;
export function checksum(name: AlgorithmName, data: Input): number | bigint;

/**
 * A column of values in one buffer, Arrow's layout: value i is
 * `values[offsets[i] .. offsets[i + 1]]` (n values take n + 1 offsets).
 */
export interface Column {
  values: Uint8Array | ArrayBufferView | ArrayBuffer;
  offsets: Int32Array | Uint32Array | BigInt64Array;
}

/**
 * Digests of many messages back to back: message i's at i * digest length.
 * One WebAssembly call per group of messages; a `Column` is copied in one
 * piece per group, a list one message at a time.
 */
export function hashMany(name: AlgorithmName, messages: Iterable<Input> | Column, options?: Blake3ModeOptions): Uint8Array;

/** An incremental hasher. */
export function createHasher(name: AlgorithmName, options?: Blake3ModeOptions): Hasher;

export class Hasher {
  private constructor();
  /** The canonical algorithm name. */
  readonly algorithm: string;
  /** Bytes in a default digest. */
  readonly digestLength: number;
  update(data: Input): this;
  /** The digest so far (the hasher goes on); BLAKE3 takes an output length. */
  digest(length?: number): Uint8Array;
  /** The integer value of a checksum's digest: a number for 32-bit ones, else a bigint. */
  checksum(): number | bigint;
  reset(): this;
  clone(): Hasher;
  /** Frees the WebAssembly memory now (otherwise when garbage-collected; `using` calls it too). */
  free(): void;
}

/** A block trailer: id byte + checksum mixed with `context` (0 to 2^64 - 1). */
export function sealTrailer(name: AlgorithmName, block: Input, context: number | bigint): Uint8Array;

/** The algorithm name if the trailer matches its block and context; throws TrailerError otherwise. */
export function verifyTrailer(block: Input, trailer: Bytes, context: number | bigint): string;

export class TrailerError extends Error {
  readonly kind: 'mismatch' | 'truncated' | 'too-long' | 'unknown-algorithm';
}

/** A BLAKE3 mode for the Bao functions: the plain hash (neither), keyed, or key derivation. */
export interface BaoModeOptions {
  key?: Bytes;
  deriveKeyContext?: string;
  /** Chunk groups of 2^groupLog KiB, 0 (bao's format, the default) to 16. */
  groupLog?: number;
}

/** `bao`'s outboard file (8-byte length, then parent nodes) and the root hash. */
export function baoOutboard(data: Input, options?: BaoModeOptions & { order?: 'pre' | 'post' }): { root: Uint8Array; outboard: Uint8Array };

/** The combined encoding (length, then nodes and groups in pre-order) and the root hash. */
export function baoEncode(data: Input, options?: BaoModeOptions): { root: Uint8Array; encoding: Uint8Array };

/** The slice for `start .. start + count`: from the data and its outboard, or from a combined encoding (no outboard). */
export function baoSlice(
  source: Input,
  start: number | bigint,
  count: number | bigint,
  options?: { outboard?: Bytes; order?: 'pre' | 'post'; groupLog?: number },
): Uint8Array;

/** The verified bytes of a combined encoding, or with start and count of a slice; throws BaoError otherwise. */
export function baoDecode(
  root: Bytes,
  stream: Bytes,
  options?: BaoModeOptions & { start?: number | bigint; count?: number | bigint },
): Uint8Array;

export class BaoError extends Error {
  readonly kind: 'mismatch' | 'truncated' | 'extended' | 'length';
  /** From baoDecode: the requested bytes verified before the failure. */
  readonly verified: Uint8Array;
}

export interface Chunks {
  /** Where each chunk starts (exact below 2^53). */
  offsets: Float64Array;
  lengths: Uint32Array;
  /** Chunk i's address at i * addressLength. */
  addresses: Uint8Array;
  addressLength: 20 | 32;
  /** Xet's file hash (64 hex digits, as the Hub prints it) with Xet's chunker and addresses, else null. */
  xetFileHash: string | null;
}

/** Content-defined chunks (Xet's chunker, or FastCDC 2020 with [min, avg, max]) and their addresses. */
export function chunk(data: Input, options?: { fastcdc?: [number, number, number]; address?: 'xet' | 'blake3' | 'blake3-160' }): Chunks;

/** The registry, in id order. */
export function algorithms(): Algorithm[];

/** The build in use and its BLAKE3 backend. */
export function buildInfo(): BuildInfo;

/** Bytes of WebAssembly memory (for memory checks). */
export function memoryBytes(): number;

/** Hashers not freed yet (for memory checks). */
export function liveHashers(): number;

/** Lowercase hex. */
export function toHex(bytes: Bytes): string;
