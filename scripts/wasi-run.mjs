// Runs a WASI test binary under Node (the runner of the wasm32-wasip1 rows of scripts/test/matrix.sh):
// node scripts/wasi-run.mjs FILE.wasm [ARGS...]
//
// Always with V8's fast API calls off (--no-turbo-fast-api-calls; the script
// starts itself again with it when it was not given). With them on, Node 20
// (20.20.2) and 22 (22.23.5) call node:wasi's functions as fast API calls,
// and the process dies of SIGSEGV after the guest has finished (in V8's JS
// code, once "abort: Invalid bytecode"): after tests/bao.rs and
// tests/bao_encoder.rs in half the runs or more (bao_encoder's SIMD128
// build: every run), in either build, with every kernel portable, with
// Liftoff alone or TurboFan alone. A corrupt heap, as when a garbage
// collection starts inside a fast call (the open nodejs/node#46777);
// single-threaded GC hides it too. Node 24 and Wasmtime run the same
// binaries clean. Off, WASI calls take V8's ordinary path, a little slower
// (the guest makes few of them).
import { spawnSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { constants } from 'node:os';
import { argv, env, execArgv, execPath, exit } from 'node:process';
import { WASI } from 'node:wasi';

const NO_FAST_CALLS = '--no-turbo-fast-api-calls';
if (!execArgv.includes(NO_FAST_CALLS)) {
  const child = spawnSync(execPath, [...execArgv, NO_FAST_CALLS, ...argv.slice(1)], { stdio: 'inherit' });
  if (child.error) throw child.error;
  // A signal is reported as the shell would (128 + its number), never as success.
  exit(child.status ?? 128 + (constants.signals[child.signal] ?? 0));
}
const wasi = new WASI({ version: 'preview1', args: argv.slice(2), env, preopens: { '/': '/' }, returnOnExit: true });
const module = await WebAssembly.compile(await readFile(argv[2]));
const instance = await WebAssembly.instantiate(module, wasi.getImportObject());
exit(wasi.start(instance));
