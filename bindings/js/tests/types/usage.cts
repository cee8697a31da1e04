// The CommonJS entry's declarations (dist/chunkhash.d.cts).
import chunkhash = require('chunkhash');

async function main(): Promise<string> {
  await chunkhash.init();
  const crc: number = chunkhash.checksum('CRC32C', '123456789');
  // @ts-expect-error: a checksum of 64 bits is a bigint
  const wrong: number = chunkhash.checksum('XXH64', '');
  return chunkhash.toHex(chunkhash.hash('BLAKE3', String(crc + wrong)));
}

export = main;
