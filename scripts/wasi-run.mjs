// Runs a WASI test binary under Node (the runner of the wasm32-wasip1 rows of scripts/test/matrix.sh):
// node scripts/wasi-run.mjs FILE.wasm [ARGS...]
import { readFile } from 'node:fs/promises';
import { WASI } from 'node:wasi';
import { argv, env, exit } from 'node:process';
const wasi = new WASI({ version: 'preview1', args: argv.slice(2), env, preopens: { '/': '/' }, returnOnExit: true });
const module = await WebAssembly.compile(await readFile(argv[2]));
const instance = await WebAssembly.instantiate(module, wasi.getImportObject());
exit(wasi.start(instance));
