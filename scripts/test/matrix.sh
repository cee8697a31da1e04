#!/usr/bin/env bash
# The chunkhash suite on every kernel: each x86 backend forced in turn on
# this machine, NEON and the portable kernel on aarch64 under qemu-user,
# SIMD128 and the scalar build on wasm32-wasip1 under Node's WASI (the BAO
# tests under Wasmtime too), and the portable kernel on big-endian s390x
# under qemu-user. What a target needs (Rust target, qemu, cross linker,
# libc, the wasmtime wheel) is installed when missing; what cannot be
# installed fails the run with the install to make. A row whose
# CPU features this machine lacks fails when CHUNKHASH_REQUIRE_BACKENDS
# names it (.ci/run requires every x86 BLAKE3 backend), and is otherwise reported
# as MISSING in the table and on stderr, never passed quietly.
#
#   scripts/test/matrix.sh [ROW_NAME_OR_TARGET...]   (every row by default)
#
# Emulated targets run with CHUNKHASH_TEST_SCALE=small: the length sweeps
# take every length to 129 bytes and, at each chunk count to the sweep's
# end, the chunk edge and 1, 63, 64 and 65 bytes either side of it (see
# vectors::lengths_up_to), and the random tests fewer rounds.
set -euo pipefail
cd "$(dirname "$0")/../.."
. scripts/test/lib.sh

# One row per run of the suite. Adding a kernel or a forcing knob is one
# line: the target it runs on, its name in the table (the name
# CHUNKHASH_REQUIRE_BACKENDS uses), the /proc/cpuinfo flags it needs on an
# x86_64 host ("-" for none), the tests it runs ("all": the library's unit
# tests and every integration test; else a comma-separated list of
# integration tests, "lib" for the library's unit tests), and the environment
# that forces it. The BLAKE3 rows (intrinsics and assembly) force the XXH3
# and multi-buffer (MD5, SHA-1 and SHA-512 lanes; their AVX-512 kernels need
# BW) kernels of the same level too, and the chunkers' Gear-scan kernel
# (CHUNKHASH_CDC_KERNEL: portable, avx2 or avx512; neon and simd128 on
# their targets, portable in those targets' portable rows); the CRC
# rows run what the CRC kernel decides (the CRC, registry and trailer tests) on each x86 CRC
# kernel. Elsewhere the CRC and XXH3 kernels' own tests force every one the
# target has (aarch64 CRC+PMULL, NEON, SIMD128). The sha256 rows run the
# library's unit tests ("lib": the SHA-256 kernels' own) and digest_many on
# each SHA-256 multi-buffer kernel; the wasm32-simd128 row forces the
# SIMD128 multi-buffer kernels (MD5, SHA-1 and SHA-256 lanes) with the
# BLAKE3 one, the aarch64 neon row the NEON ones (MD5 and SHA-1 lanes;
# detection never picks them) and the aarch64 portable row the portable
# one; elsewhere the unforced run tests every kernel the target has (the
# portable one off x86 and aarch64).
MATRIX='
x86_64          portable      -                              all                 CHUNKHASH_BACKEND=portable CHUNKHASH_XXH3_KERNEL=portable CHUNKHASH_MB_KERNEL=portable CHUNKHASH_CDC_KERNEL=portable
x86_64          sse41         sse4_1                         all                 CHUNKHASH_BACKEND=sse41 CHUNKHASH_XXH3_KERNEL=sse2 CHUNKHASH_MB_KERNEL=portable CHUNKHASH_CDC_KERNEL=portable
x86_64          avx2          avx2                           all                 CHUNKHASH_BACKEND=avx2 CHUNKHASH_XXH3_KERNEL=avx2 CHUNKHASH_MB_KERNEL=avx2 CHUNKHASH_CDC_KERNEL=avx2
x86_64          avx512        avx512f,avx512vl,avx512bw      all                 CHUNKHASH_BACKEND=avx512 CHUNKHASH_XXH3_KERNEL=avx512 CHUNKHASH_MB_KERNEL=avx512 CHUNKHASH_CDC_KERNEL=avx512
x86_64          avx2asm       avx2,bmi2                      all                 CHUNKHASH_BACKEND=avx2asm CHUNKHASH_XXH3_KERNEL=avx2 CHUNKHASH_MB_KERNEL=avx2 CHUNKHASH_CDC_KERNEL=avx2
x86_64          avx512asm     avx512f,avx512vl,avx512bw,bmi2 all                 CHUNKHASH_BACKEND=avx512asm CHUNKHASH_XXH3_KERNEL=avx512 CHUNKHASH_MB_KERNEL=avx512 CHUNKHASH_CDC_KERNEL=avx512
x86_64          crc-portable  -                              crc,registry,trailer CHUNKHASH_CRC_BACKEND=portable
x86_64          crc-sse42     sse4_2                         crc,registry,trailer CHUNKHASH_CRC_BACKEND=sse42
x86_64          crc-pclmul    sse4_2,pclmulqdq               crc,registry,trailer CHUNKHASH_CRC_BACKEND=pclmul
x86_64          crc-vpclmul   sse4_2,pclmulqdq,avx512f,vpclmulqdq crc,registry,trailer CHUNKHASH_CRC_BACKEND=vpclmul
x86_64          sha256-portable -                            lib,digest_many     CHUNKHASH_SHA256_KERNEL=portable
x86_64          sha256-shani  sha_ni,sse4_1                  lib,digest_many     CHUNKHASH_SHA256_KERNEL=shani
x86_64          sha256-avx2   avx2                           lib,digest_many     CHUNKHASH_SHA256_KERNEL=avx2
x86_64          sha256-avx512 avx2,avx512f,avx512bw          lib,digest_many     CHUNKHASH_SHA256_KERNEL=avx512
aarch64         neon          -                              all                 CHUNKHASH_BACKEND=neon CHUNKHASH_XXH3_KERNEL=neon CHUNKHASH_CRC_BACKEND=aarch64 CHUNKHASH_MB_KERNEL=neon CHUNKHASH_CDC_KERNEL=neon
aarch64         portable      -                              all                 CHUNKHASH_BACKEND=portable CHUNKHASH_XXH3_KERNEL=portable CHUNKHASH_CRC_BACKEND=portable CHUNKHASH_MB_KERNEL=portable CHUNKHASH_CDC_KERNEL=portable
wasm32-simd128  wasm32simd    -                              all                 CHUNKHASH_BACKEND=wasm32simd CHUNKHASH_XXH3_KERNEL=simd128 CHUNKHASH_MB_KERNEL=simd128 CHUNKHASH_SHA256_KERNEL=simd128 CHUNKHASH_CDC_KERNEL=simd128
wasm32          portable      -                              all                 CHUNKHASH_BACKEND=portable CHUNKHASH_CDC_KERNEL=portable
s390x           portable      -                              all                 CHUNKHASH_BACKEND=portable
'

# The second engine of the wasm32-wasip1 rows: the `wasmtime` wheel on PyPI
# (Python bindings bundling Wasmtime), installed into $CHUNKHASH_PYDEPS.
WASMTIME_PY_VERSION=50.0.1

# How each target builds and runs: sets triple, rustflags, runner,
# target_dir, test_args and scale, and installs what the target needs;
# also_runner and also_tests (integration tests, comma-separated) name
# tests run a second time under a second runner.
setup_target() {
  rustflags='' runner='' target_dir=target/cross scale=small test_args='--all-features'
  also_runner='' also_tests=''
  case $1 in
    x86_64)
      triple=$(rustc -vV | sed -n 's/^host: //p')
      [ "$triple" = x86_64-unknown-linux-gnu ] || die "the x86_64 rows need an x86_64 Linux host, this is $triple"
      target_dir=target scale=full
      ;;
    aarch64 | s390x)
      local gnu=$1-linux-gnu libc=arm64
      [ "$1" = s390x ] && libc=s390x
      triple=$1-unknown-linux-gnu
      need_rustup_target "$triple"
      need_apt "qemu-$1" qemu-user
      need_apt "$gnu-gcc" "gcc-$gnu"
      need_apt "/usr/$gnu/include/stdio.h" "libc6-dev-$libc-cross"
      runner="qemu-$1 -L /usr/$gnu"
      local upper=${triple^^}
      upper=${upper//-/_}
      export "CARGO_TARGET_${upper}_LINKER=$gnu-gcc" "CC_${triple//-/_}=$gnu-gcc"
      ;;
    wasm32 | wasm32-simd128)
      triple=wasm32-wasip1
      need_rustup_target "$triple"
      need_apt node nodejs
      # Without V8's fast API calls, which corrupt Node 20's and 22's heap
      # in WASI calls (see scripts/wasi-run.mjs).
      runner="node --no-warnings --no-turbo-fast-api-calls $PWD/scripts/wasi-run.mjs"
      # The BAO tests, after which Node crashed with fast calls on, again
      # under Wasmtime: their results do not hang on one engine. (Not the
      # whole row: Wasmtime compiles each binary whole before it starts,
      # V8 lazily, and the row took up to twice as long.)
      export CHUNKHASH_PYDEPS=${CHUNKHASH_PYDEPS:-$PWD/target/pydeps}
      need_pydep wasmtime "$WASMTIME_PY_VERSION"
      also_runner="${PYTHON:-python3} $PWD/scripts/wasi-run.py" also_tests=bao,bao_encoder
      # rayon (the "parallel" feature) needs threads, which WASI lacks.
      test_args=''
      if [ "$1" = wasm32-simd128 ]; then
        rustflags='-C target-feature=+simd128'
        # Another RUSTFLAGS would rebuild the scalar build each time.
        target_dir=target/cross-simd128
      fi
      ;;
    *) die "unknown target $1 in the matrix" ;;
  esac
}

selected=("$@")
wanted() {
  [ ${#selected[@]} -eq 0 ] && return
  local want
  for want in "${selected[@]}"; do [ "$want" = "$1" ] || [ "$want" = "$2" ] || [ "$want" = "$1/$2" ] && return; done
  return 1
}

required=",${CHUNKHASH_REQUIRE_BACKENDS:-},"
for name in ${required//,/ }; do
  printf '%s\n' "$MATRIX" | awk -v n="$name" '$1 == "x86_64" && $2 == n { found = 1 } END { exit !found }' ||
    die "CHUNKHASH_REQUIRE_BACKENDS names $name, which has no x86_64 row in scripts/test/matrix.sh"
done
cpu_flags=" $(grep -m1 '^flags' /proc/cpuinfo 2>/dev/null | cut -d: -f2) "

failed=0
while read -r target name needs tests knobs; do
  [ -n "$target" ] || continue
  wanted "$target" "$name" || continue
  label="$target/$name"
  start=$SECONDS
  if [ "$target" = x86_64 ] && [ "$needs" != - ]; then
    lacking=''
    for flag in ${needs//,/ }; do [[ $cpu_flags == *" $flag "* ]] || lacking+=" $flag"; done
    if [ -n "$lacking" ]; then
      if [[ $required == *",$name,"* ]]; then
        echo "error: $label is required (CHUNKHASH_REQUIRE_BACKENDS) but this CPU lacks:$lacking" >&2
        record matrix "$target" "$name" 0 FAIL 0
        failed=1
      else
        echo "WARNING: $label NOT TESTED: this CPU lacks$lacking (set CHUNKHASH_REQUIRE_BACKENDS to make this an error)" >&2
        record matrix "$target" "$name" 0 MISSING 0
      fi
      continue
    fi
  fi
  setup_target "$target"
  log=$REPORT_DIR/matrix-${target}-${name}.log
  mkdir -p "$REPORT_DIR"
  where=''
  [ "$target" = x86_64 ] || where=" --target $triple"
  echo "== $label: cargo test -p chunkhash$where $test_args, tests $tests ($knobs, scale $scale${runner:+, under ${runner%% *}})"
  # The runner and flags apply to this target only; the knobs and scale to
  # the tests. A cross run does not inherit the host's required list.
  status=0
  (
    [ "$target" = x86_64 ] || unset CHUNKHASH_REQUIRE_BACKENDS
    upper=${triple^^}
    upper=${upper//-/_}
    [ -z "$runner" ] || export "CARGO_TARGET_${upper}_RUNNER=$runner"
    [ -z "$rustflags" ] || export RUSTFLAGS="$rustflags"
    for knob in $knobs; do export "${knob?}"; done
    export CHUNKHASH_TEST_SCALE=$scale
    # The host build is test-rust's own (target/debug): no --target.
    cross=()
    [ "$target" = x86_64 ] || cross=(--target "$triple" --target-dir "$target_dir")
    # Doc tests do not run for other targets; on the host they ran in test-rust.
    selection=(--lib --tests)
    if [ "$tests" != all ]; then
      selection=()
      for test in ${tests//,/ }; do
        if [ "$test" = lib ]; then selection+=(--lib); else selection+=(--test "$test"); fi
      done
    fi
    # The subshell's status is its last command's (set -e does not hold left
    # of ||): a failure here ends it.
    # shellcheck disable=SC2086
    cargo test -p chunkhash "${cross[@]}" "${selection[@]}" $test_args || exit
    if [ -n "$also_runner" ]; then
      echo "== $label: tests $also_tests again under $also_runner"
      export "CARGO_TARGET_${upper}_RUNNER=$also_runner"
      selection=()
      for test in ${also_tests//,/ }; do selection+=(--test "$test"); done
      # shellcheck disable=SC2086
      cargo test -p chunkhash "${cross[@]}" "${selection[@]}" $test_args
    fi
  ) >"$log" 2>&1 || status=$?
  finish_row matrix "$target" "$name" "$log" "$status" "$start" || failed=1
done <<<"$MATRIX"
exit $failed
