#!/usr/bin/env bash
# Checks the backends of other architectures where this machine can:
# builds for every installed target, and runs the test suite where a runner
# exists (qemu-user for aarch64, Node's WASI for wasm32). Targets or tools
# that are missing are skipped with a note: CI never installs a target.
set -euo pipefail
cd "$(dirname "$0")/.."
installed=$(rustup target list --installed 2>/dev/null || true)
have() { printf '%s\n' "$installed" | grep -qx "$1"; }
ran=0

if have aarch64-unknown-linux-gnu; then
  echo "== aarch64 (NEON): cargo check"
  cargo check -q -p chunkhash --target aarch64-unknown-linux-gnu --target-dir target/cross
  if command -v qemu-aarch64 >/dev/null && command -v aarch64-linux-gnu-gcc >/dev/null; then
    echo "== aarch64 (NEON): tests under qemu-aarch64"
    CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_LINKER=aarch64-linux-gnu-gcc \
    CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_RUNNER="qemu-aarch64 -L /usr/aarch64-linux-gnu" \
    CC_aarch64_unknown_linux_gnu=aarch64-linux-gnu-gcc \
      cargo test -q -p chunkhash --target aarch64-unknown-linux-gnu --target-dir target/cross
  else
    echo "note: qemu-aarch64 or aarch64-linux-gnu-gcc missing: aarch64 built, not run"
  fi
  ran=1
else
  echo "note: target aarch64-unknown-linux-gnu not installed, NEON not checked (rustup target add aarch64-unknown-linux-gnu)"
fi

if have wasm32-unknown-unknown; then
  echo "== wasm32 (SIMD128 and without): cargo check"
  RUSTFLAGS="-C target-feature=+simd128" \
    cargo check -q -p chunkhash --no-default-features --target wasm32-unknown-unknown --target-dir target/cross-simd128
  cargo check -q -p chunkhash --no-default-features --target wasm32-unknown-unknown --target-dir target/cross
  ran=1
else
  echo "note: target wasm32-unknown-unknown not installed, SIMD128 not checked (rustup target add wasm32-unknown-unknown)"
fi

if have wasm32-wasip1 && command -v node >/dev/null; then
  echo "== wasm32 (SIMD128): tests under Node's WASI"
  RUSTFLAGS="-C target-feature=+simd128" CARGO_TARGET_WASM32_WASIP1_RUNNER="node --no-warnings $PWD/scripts/wasi-run.mjs" \
    cargo test -q -p chunkhash --target wasm32-wasip1 --target-dir target/cross-simd128
  ran=1
else
  echo "note: target wasm32-wasip1 (or node) not installed, SIMD128 tests not run"
fi

[ "$ran" = 1 ] || echo "note: no other architecture checked on this machine"
