"""Runs a WASI test binary under Wasmtime (the second engine of the
wasm32-wasip1 rows of scripts/test/matrix.sh; Node's WASI is the first):

    python3 scripts/wasi-run.py FILE.wasm [ARGS...]

Wasmtime comes from the `wasmtime` wheel (Python bindings bundling the
engine), which the matrix installs pinned into $CHUNKHASH_PYDEPS. The guest
gets the arguments (FILE.wasm first, as cargo's runner convention has it),
the whole environment, this process's stdout and stderr, and the host's
root directory as its own. Exits with the guest's `proc_exit` code; a trap
(a Rust panic that aborts, an out-of-bounds access) prints Wasmtime's
message with the guest's backtrace and exits 134, like an abort.
"""

import os
import sys

pydeps = os.environ.get("CHUNKHASH_PYDEPS")
if pydeps:
    sys.path.insert(0, pydeps)

import wasmtime  # noqa: E402  (after the path above)


def main() -> int:
    if len(sys.argv) < 2:
        print("usage: wasi-run.py FILE.wasm [ARGS...]", file=sys.stderr)
        return 2
    engine = wasmtime.Engine()
    module = wasmtime.Module.from_file(engine, sys.argv[1])
    wasi = wasmtime.WasiConfig()
    wasi.argv = sys.argv[1:]
    wasi.inherit_env()
    wasi.inherit_stdout()
    wasi.inherit_stderr()
    wasi.preopen_dir("/", "/")
    store = wasmtime.Store(engine)
    store.set_wasi(wasi)
    linker = wasmtime.Linker(engine)
    linker.define_wasi()
    instance = linker.instantiate(store, module)
    start = instance.exports(store)["_start"]
    try:
        start(store)
    except wasmtime.ExitTrap as exit_trap:
        return exit_trap.code
    except wasmtime.Trap as trap:
        print(f"error: {sys.argv[1]} trapped: {trap}", file=sys.stderr)
        return 134
    return 0


if __name__ == "__main__":
    sys.exit(main())
