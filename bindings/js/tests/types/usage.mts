// Type-checked by tests/types.test.mjs (tsc --noEmit): the ES module's
// declarations accept the documented uses and reject wrong ones.
import { algorithms, blake3, checksum, createHasher, hash, hashMany, init, sealTrailer, toHex, TrailerError, verifyTrailer } from 'chunkhash';
import type { AlgorithmId, BuildInfo, Hasher } from 'chunkhash';
import * as auto from 'chunkhash/auto';

const info: BuildInfo = await init({ simd: false });
const build: 'simd128' | 'scalar' = info.build;
const digest: Uint8Array = hash('SHA-256', new DataView(new ArrayBuffer(4)));
const alias: Uint8Array = hash('xxh3', 'text');
const extended: Uint8Array = blake3('data', { length: 64, key: new Uint8Array(32) });
const derived: Uint8Array = blake3(new ArrayBuffer(3), { deriveKeyContext: 'app 2026 purpose' });
const crc: number = checksum('CRC32C', 'abc');
const xxh: bigint = checksum('XXH3-64', 'abc');
const either: number | bigint = checksum('xxh32', 'abc');
// Every checksum of the registry (the list is written from it), ids 13 to 16 included.
const crc32: number = checksum('CRC-32', 'abc');
const nvme: bigint = checksum('CRC-64/NVME', 'abc');
const sha1Id: AlgorithmId = 16;
const many: Uint8Array = hashMany('BLAKE3', ['a', new Uint8Array(2)], { key: new Uint8Array(32) });
const column: Uint8Array = hashMany('XXH3-64', { values: new Uint8Array(8), offsets: new BigInt64Array([0n, 3n, 8n]) });
const hasher: Hasher = createHasher('BLAKE3').update('a').update(new Float32Array(2));
const out: Uint8Array = hasher.clone().reset().digest(100);
hasher.free();
const trailer: Uint8Array = sealTrailer('CRC32C', 'block', 4096n);
const name: string = verifyTrailer('block', trailer, 4096);
const kind: 'mismatch' | 'truncated' | 'too-long' | 'unknown-algorithm' = new TrailerError().kind;
const ids: number[] = algorithms().map((a) => a.id);
const text: string = toHex(auto.hash('BLAKE3', ''));

// @ts-expect-error: id 0 is reserved (a zeroed trailer names no algorithm)
const noSuchId: AlgorithmId = 0;
// @ts-expect-error: numbers are not inputs
hash('BLAKE3', 5);
// @ts-expect-error: length is a number
blake3('', { length: '32' });
// @ts-expect-error: a hasher's options have no length
createHasher('BLAKE3', { length: 64 });
// @ts-expect-error: keys are bytes, not strings
blake3('', { key: 'k' });
// @ts-expect-error: trailers are bytes
verifyTrailer('block', 'trailer', 0);
// @ts-expect-error: hashers come from createHasher
new (hasher.constructor as typeof Hasher)();

export { build, digest, alias, extended, derived, crc, xxh, either, crc32, nvme, sha1Id, noSuchId, many, column, out, name, kind, ids, text };
