// Builds the package's two WebAssembly modules and embeds them: `make js`
// and `npm run build` run it (after `npm ci`, for TypeScript; the Rust
// target wasm32-unknown-unknown is installed here with rustup when the
// toolchain lacks it, see needTarget below). Needs `python3`
// (its standard `lzma` module compresses the modules; see
// scripts/python-lzma.mjs). Writes bindings/js/dist/:
//   modules.mjs     both modules, the main one (bindings/js/wasm: every
//                   algorithm, scalar) then the SIMD128 one
//                   (bindings/js/simd128: only the SIMD128 kernels of BLAKE3,
//                   XXH3 and the MD5, SHA-1 and SHA-256 lanes, which the
//                   main module imports, used
//                   only where the engine validates SIMD128), as one raw
//                   LZMA1 stream: `export default "<base64>"`, with
//                   `lzma` (its properties), `lengths` (each module's bytes)
//                   and `layout` (the memory the loader creates and checks)
//   chunkhash.d.ts  the type declarations for the CommonJS entry
//   chunkhash.mjs, lzma.mjs, chunkhash.cjs, auto.mjs
//                   lib/'s JavaScript without its comments, which the
//                   package's entry points name
//   build.json      rustc version, sizes and SHA-256 of both modules, and
//                   the python3 and liblzma versions that compressed them
//                   (the stream is the same, byte for byte, only for the
//                   same liblzma)
//
// Why LZMA in one stream: the package ships the modules base64-encoded in a
// gzipped tarball, and gzip gets base64 of compressed bytes back to about
// their own size, so what counts is the best compression an engine can
// undo. LZMA (decoded by lib/lzma.mjs, ours) took both modules from 68.1 +
// 15.5 kB (gzip -9) to 58.0 kB (57,969 B); one stream rather than two
// (49,440 + 11,615 B) saves 3.1 kB more, as the SIMD128 module shares much
// with the main one (measured with rustc 1.95.0; dist/build.json holds a
// build's own sizes). The price: a page without SIMD128 downloads and
// decodes the SIMD128 module too (8.5 kB of the stream), though it never
// compiles it.
//
// Why two modules and not two builds: an engine without SIMD128 rejects a
// module with a single SIMD instruction, and two whole builds (one with
// SIMD128, one without) doubled the package. The main module is built
// without SIMD128; its imports `chunkhash_simd128.*` are the SIMD128
// module's exports, or stubs never called (see lib/chunkhash.mjs).
//
// Both modules import one memory (`--import-memory`), so their layouts must
// not meet. The main module's stack takes [0, GAP_START) (stack first: an
// overflow traps below address 0), its data and heap start at GAP_END. The
// SIMD128 module's data and stack are linked into the gap between
// (`--global-base`, `--no-stack-first`). Its data are panic messages only
// (a kernel's assertion), but they are written to memory when it is
// instantiated, so they must land in the gap: the checks below fail the
// build if either module's layout leaves its place.

import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { compressLzma1, lzmaVersions, MODULE_SETTINGS } from './python-lzma.mjs';
import { SHIPPED, stripComments } from './shipped.mjs';

const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const repo = join(packageDir, '..', '..');
const dist = join(packageDir, 'dist');
const cargo = process.env.CARGO || 'cargo';

const GAP_START = 960 << 10;
const GAP_END = 1024 << 10;
// The kernels' deepest frames are a few kilobytes (no recursion).
const SIMD128_STACK = 32 << 10;

const MODULES = {
  main: {
    package: 'chunkhash-js',
    file: 'chunkhash_js.wasm',
    rustflags: ['-C link-arg=--import-memory', `-C link-arg=-zstack-size=${GAP_START}`, `-C link-arg=--global-base=${GAP_END}`],
  },
  simd128: {
    package: 'chunkhash-js-simd128',
    file: 'chunkhash_js_simd128.wasm',
    rustflags: [
      '-C target-feature=+simd128',
      '-C link-arg=--import-memory',
      '-C link-arg=--no-stack-first',
      `-C link-arg=--global-base=${GAP_START}`,
      `-C link-arg=-zstack-size=${SIMD128_STACK}`,
    ],
  },
};

// opt-level 3, as the library's own release builds: "s" made the modules
// only 3 kB smaller gzipped but XXH3 three times and BLAKE3 up to five
// times slower, and "z" for the cold crates alone (SHA-2, BLAKE2b, MD5,
// SHA-1, twox-hash) made the module larger (67.7 kB gzipped instead of
// 64.9). panic = "abort": wasm32-unknown-unknown cannot unwind anyway. One
// codegen unit and fat LTO let the linker drop what the exports never reach.
const PROFILE = [
  'profile.release.opt-level=3',
  'profile.release.panic="abort"',
  'profile.release.lto="fat"',
  'profile.release.codegen-units=1',
  'profile.release.strip=true',
];

// Panic messages carry source paths; the registry's is under CARGO_HOME,
// which differs between machines. Workspace paths are already relative.
const cargoHome = process.env.CARGO_HOME || join(homedir(), '.cargo');
const remap = `--remap-path-prefix=${cargoHome}=/cargo`;

const rustc = execFileSync(process.env.RUSTC || 'rustc', ['--version'], { encoding: 'utf8' }).trim();
needTarget('wasm32-unknown-unknown');
// TypeScript strips the comments at the end (scripts/shipped.mjs): say so
// before the Rust builds rather than after them.
await import('typescript').catch(() => {
  throw new Error('chunkhash js build: TypeScript is missing: run `npm ci` in bindings/js first (`make js` does)');
});
mkdirSync(dist, { recursive: true });
const report = { rustc, lzma: lzmaVersions(), modules: {} };
const wasm = {};

for (const [name, module] of Object.entries(MODULES)) {
  const targetDir = join(repo, 'target', 'js', name);
  const args = ['build', '--quiet', '--release', '--locked', '-p', module.package, '--target', 'wasm32-unknown-unknown', '--target-dir', targetDir];
  for (const setting of PROFILE) args.push('--config', setting);
  execFileSync(cargo, args, {
    cwd: repo,
    stdio: 'inherit',
    env: { ...process.env, RUSTFLAGS: [remap, ...module.rustflags].join(' ') },
  });
  wasm[name] = readFileSync(join(targetDir, 'wasm32-unknown-unknown', 'release', module.file));
}

const main = parse(wasm.main);
const simd128 = parse(wasm.simd128);
checkLayouts(main, simd128);

const stream = compressLzma1(Buffer.concat([wasm.main, wasm.simd128]), MODULE_SETTINGS);
const lengths = { main: wasm.main.length, simd128: wasm.simd128.length };
const layout = { pages: main.memoryPages, gapStart: GAP_START, gapEnd: GAP_END };
const source = `// Generated by bindings/js/scripts/build.mjs (${rustc}); do not edit.\n` +
  `// The chunkhash WebAssembly modules, main then SIMD128, as one raw LZMA1 stream (lib/lzma.mjs decodes it), base64-encoded.\n` +
  `export default ${JSON.stringify(Buffer.from(stream).toString('base64'))};\n` +
  `// The stream's properties and each module's length in bytes, in stream order.\n` +
  `export const lzma = ${JSON.stringify(MODULE_SETTINGS)};\n` +
  `export const lengths = ${JSON.stringify(lengths)};\n` +
  `// The memory both modules share: its first size in pages, and the gap the SIMD128 module lives in.\n` +
  `export const layout = ${JSON.stringify(layout)};\n`;
writeFileSync(join(dist, 'modules.mjs'), source);
// The files of the builds before both modules went into one stream.
for (const old of ['main.mjs', 'simd128.mjs']) rmSync(join(dist, old), { force: true });
for (const [name, bytes] of Object.entries(wasm)) {
  report.modules[name] = {
    wasmBytes: bytes.length,
    wasmGzipBytes: gzipSync(bytes, { level: 9 }).length,
    sha256: createHash('sha256').update(bytes).digest('hex'),
  };
}
report.embedded = { lzmaBytes: stream.length, gzipBytes: gzipSync(source, { level: 9 }).length };

// The declarations hold no ES-module syntax beyond `export`, which a
// CommonJS declaration file reads the same way; TypeScript wants a file of
// its own per module format. A .d.ts in a package without "type" is the
// CommonJS one, as a .d.cts would be; the name matters for size: npm packs
// files grouped by extension, so .mts and .ts sit side by side in the
// tarball and gzip stores the second copy almost free (.cts: 1.9 kB more).
copyFileSync(join(packageDir, 'lib', 'chunkhash.d.mts'), join(dist, 'chunkhash.d.ts'));

// The JavaScript the package runs, without comments (scripts/shipped.mjs).
for (const name of SHIPPED) {
  writeFileSync(join(dist, name), await stripComments(readFileSync(join(packageDir, 'lib', name), 'utf8'), name));
}
writeFileSync(join(dist, 'build.json'), JSON.stringify(report, null, 2) + '\n');

for (const [name, r] of Object.entries(report.modules)) {
  console.log(`chunkhash js: ${name}: ${r.wasmBytes} B wasm, ${r.wasmGzipBytes} B gzipped, sha256 ${r.sha256}`);
}
console.log(`chunkhash js: both as embedded (dist/modules.mjs): ${report.embedded.lzmaBytes} B LZMA, ${report.embedded.gzipBytes} B gzipped`);

/** Fails the build unless both modules keep to their parts of the memory. */
function checkLayouts(main, simd128) {
  const fail = (message) => {
    throw new Error(`chunkhash js build: ${message}`);
  };
  const kernels = main.imports.filter((i) => i.module === 'chunkhash_simd128').map((i) => i.name).sort();
  const exported = simd128.exports.filter((e) => e.kind === 0).map((e) => e.name).sort();
  if (kernels.length === 0 || JSON.stringify(kernels) !== JSON.stringify(exported)) {
    fail(`the main module imports [${kernels}] but the SIMD128 module exports [${exported}]`);
  }
  for (const [name, m, allowed] of [['main', main, ['env', 'chunkhash_simd128']], ['SIMD128', simd128, ['env']]]) {
    const other = m.imports.filter((i) => !allowed.includes(i.module) || (i.module === 'env' && !(i.kind === 2 && i.name === 'memory')));
    if (other.length > 0) fail(`the ${name} module imports ${other.map((i) => `${i.module}.${i.name}`)}`);
    if (m.memoryPages === undefined) fail(`the ${name} module does not import its memory`);
  }
  // The main module: stack below the gap, data (and so bss and heap) above it.
  if (main.globals[0] !== GAP_START) fail(`the main module's stack starts at ${main.globals[0]}, not ${GAP_START}`);
  for (const { offset } of main.data) {
    if (offset < GAP_END) fail(`the main module has data at ${offset}, below ${GAP_END}`);
  }
  // The SIMD128 module: data, then its stack, all inside the gap.
  for (const { offset, length } of simd128.data) {
    if (offset < GAP_START || offset + length > GAP_END) fail(`the SIMD128 module has data at [${offset}, ${offset + length}), outside the gap`);
  }
  const stackTop = simd128.globals[0];
  const heapBase = simd128.globals[simd128.exports.find((e) => e.name === '__heap_base')?.index] ?? stackTop;
  if (!(stackTop > GAP_START && stackTop <= GAP_END && heapBase <= GAP_END)) {
    fail(`the SIMD128 module's stack ends at ${stackTop} (heap base ${heapBase}), outside the gap`);
  }
  if (simd128.start !== undefined) fail('the SIMD128 module has a start function');
}

/**
 * The parts of a module the checks read: imports, exports, the constant
 * initial values of its i32 globals (the first is the stack pointer), the
 * offsets and lengths of its active data segments, its memory's first size.
 */
function parse(bytes) {
  let at = 8;
  const u32 = () => {
    let value = 0;
    for (let shift = 0; ; shift += 7) {
      const byte = bytes[at++];
      value += (byte & 0x7f) * 2 ** shift;
      if ((byte & 0x80) === 0) return value;
    }
  };
  const i32 = () => {
    let value = 0;
    let shift = 0;
    let byte;
    do {
      byte = bytes[at++];
      value |= (byte & 0x7f) << shift;
      shift += 7;
    } while (byte & 0x80);
    return shift < 32 && byte & 0x40 ? value | (-1 << shift) : value;
  };
  const name = () => {
    const length = u32();
    at += length;
    return bytes.subarray(at - length, at).toString();
  };
  const limits = () => {
    const flags = bytes[at++];
    const min = u32();
    if (flags & 1) u32();
    return min;
  };
  // A constant expression: `i32.const N end` gives N, anything else null.
  const constant = () => {
    const op = bytes[at++];
    const value = op === 0x41 ? i32() : null;
    while (bytes[at - 1] !== 0x0b) at++;
    return value;
  };
  const module = { imports: [], exports: [], globals: [], data: [], memoryPages: undefined, start: undefined };
  let importedGlobals = 0;
  while (at < bytes.length) {
    const id = bytes[at++];
    const size = u32();
    const end = at + size;
    if (id === 2) {
      for (let n = u32(); n > 0; n--) {
        const entry = { module: name(), name: name(), kind: bytes[at++] };
        if (entry.kind === 0) u32();
        else if (entry.kind === 1) (at++, limits());
        else if (entry.kind === 2) module.memoryPages = limits();
        else if (entry.kind === 3) (at += 2, importedGlobals++);
        module.imports.push(entry);
      }
    } else if (id === 6) {
      for (let n = u32(), index = importedGlobals; n > 0; n--, index++) {
        at += 2; // value type, mutability
        module.globals[index] = constant();
      }
    } else if (id === 7) {
      for (let n = u32(); n > 0; n--) module.exports.push({ name: name(), kind: bytes[at++], index: u32() });
    } else if (id === 8) {
      module.start = u32();
    } else if (id === 11) {
      for (let n = u32(); n > 0; n--) {
        const flags = u32();
        if (flags === 1) throw new Error('chunkhash js build: a passive data segment');
        if (flags === 2) u32();
        const offset = constant();
        const length = u32();
        at += length;
        module.data.push({ offset, length });
      }
    }
    at = end;
  }
  return module;
}

/**
 * Installs the Rust target `triple` when the toolchain lacks it: without it
 * cargo stops with "can't find crate for `core`", which names neither the
 * target nor the fix. The toolchain is the one `rustc` in the repository
 * runs (rustup's choice there); without rustup, the error says what to add.
 */
function needTarget(triple) {
  const sysroot = execFileSync(process.env.RUSTC || 'rustc', ['--print', 'sysroot'], { cwd: repo, encoding: 'utf8' }).trim();
  if (existsSync(join(sysroot, 'lib', 'rustlib', triple))) return;
  console.log(`chunkhash js: installing the Rust target ${triple} (rustup target add ${triple})`);
  try {
    execFileSync('rustup', ['target', 'add', triple], { cwd: repo, stdio: 'inherit' });
  } catch (error) {
    throw new Error(`chunkhash js build: the Rust target ${triple} is missing from ${sysroot} and \`rustup target add ${triple}\` failed (${error.message}): install it, then run \`npm run build\` again`);
  }
  if (!existsSync(join(sysroot, 'lib', 'rustlib', triple))) {
    throw new Error(`chunkhash js build: the Rust target ${triple} is still missing from ${sysroot}: run \`rustup target add ${triple}\``);
  }
}
