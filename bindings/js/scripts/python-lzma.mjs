// Raw LZMA1 through Python's standard `lzma` module (liblzma), for the build
// (scripts/build.mjs compresses the modules) and the tests (which check our
// decoder, lib/lzma.mjs, against it). Bytes go over stdin and stdout.
// Python 3 is on every machine that builds or tests the package.

import { execFileSync } from 'node:child_process';

// The settings the package's modules are compressed with, all explicit (no
// preset: what a preset means may change between liblzma versions, and the
// build must stay reproducible). lc=3, lp=0, pb=0 measured best on the
// modules (wasm is byte-oriented, so no position bits); the dictionary holds
// both modules whole.
export const MODULE_SETTINGS = Object.freeze({ lc: 3, lp: 0, pb: 0, dictionarySize: 1 << 20 });

// argv: the action and a JSON list of [length, settings], one per stream;
// stdin: the inputs one after another; stdout: each output after its length
// (4 bytes, little-endian). One Python process for many streams: starting
// one costs about 0.1 s.
const SCRIPT = `
import json, lzma, struct, sys
data = sys.stdin.buffer.read()
at = 0
for length, s in json.loads(sys.argv[2]):
    f = {"id": lzma.FILTER_LZMA1, "dict_size": s["dictionarySize"], "lc": s["lc"], "lp": s["lp"], "pb": s["pb"]}
    if sys.argv[1] == "compress":
        f.update(mode=lzma.MODE_NORMAL, nice_len=273, mf=lzma.MF_BT4, depth=0)
        out = lzma.compress(data[at:at + length], format=lzma.FORMAT_RAW, filters=[f])
    else:
        out = lzma.decompress(data[at:at + length], format=lzma.FORMAT_RAW, filters=[f])
    at += length
    sys.stdout.buffer.write(struct.pack("<I", len(out)) + out)
`;

/** python3's output for `args`, given `input`. */
function run(args, input) {
  try {
    return execFileSync('python3', args, { input, maxBuffer: 1 << 30, stdio: ['pipe', 'pipe', 'inherit'] });
  } catch (error) {
    if (error.code === 'ENOENT') throw new Error('chunkhash js: python3 is missing (its standard lzma module compresses the WebAssembly modules)');
    throw error;
  }
}

/** Runs `action` on each [bytes, settings] of `items` in one Python process. */
function python(action, items) {
  const list = JSON.stringify(items.map(([bytes, settings]) => [bytes.length, settings]));
  const out = run(['-c', SCRIPT, action, list], Buffer.concat(items.map(([bytes]) => bytes)));
  const results = [];
  for (let at = 0; at < out.length;) {
    const length = out.readUInt32LE(at);
    results.push(new Uint8Array(out.buffer, out.byteOffset + at + 4, length));
    at += 4 + length;
  }
  return results;
}

/** Each [bytes, settings] of `items` compressed as a raw LZMA1 stream (with
 * liblzma's end marker): mode normal, binary tree match finder bt4, longest
 * "nice" length 273, default depth, and the settings' lc, lp, pb and
 * dictionarySize. */
export function compressLzma1Many(items) {
  return python('compress', items);
}

/** `bytes` compressed as compressLzma1Many does. */
export function compressLzma1(bytes, settings) {
  return python('compress', [[bytes, settings]])[0];
}

/** A raw LZMA1 stream decompressed by liblzma (a reference for lib/lzma.mjs). */
export function decompressLzma1(bytes, settings) {
  return python('decompress', [[bytes, settings]])[0];
}

// The `lzma` module has no version of its own: liblzma's is read from the
// library the module is linked with (lzma_version_string, through ctypes),
// or null where that fails (a liblzma linked statically, no ctypes, ...).
const VERSIONS = `
import json, sys
try:
    import ctypes, _lzma
    f = ctypes.CDLL(_lzma.__file__).lzma_version_string
    f.restype = ctypes.c_char_p
    liblzma = f().decode()
except Exception:  # a record only: never a reason to fail the build
    liblzma = None
print(json.dumps({"python": sys.version.split()[0], "liblzma": liblzma}))
`;

/** The versions of python3 and of the liblzma its `lzma` module uses: the
 * same modules compress to the same stream only with the same liblzma. */
export function lzmaVersions() {
  return JSON.parse(run(['-c', VERSIONS]).toString());
}
