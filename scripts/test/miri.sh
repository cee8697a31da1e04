#!/usr/bin/env bash
# Miri over the code whose memory safety matters most and that Miri can run:
# the portable BLAKE3 kernel, the tree, the hasher, the batch scheduler,
# hex and trailers (chunkhash's unit tests and the api, batch, differential,
# trailer and registry tests), and the C binding's pointer helpers (its unit
# tests, which call the extern "C" functions with real pointers, NULL and
# wrong lengths). Under Miri the CPU detectors report no SIMD, so the
# portable kernel runs; inputs are Miri-sized (vectors::TestScale::Miri).
# Installs the nightly toolchain with miri and rust-src when missing.
set -euo pipefail
cd "$(dirname "$0")/../.."
. scripts/test/lib.sh

need_nightly miri rust-src
mkdir -p "$REPORT_DIR"
# Seeds stay as they are; Miri's own isolation is kept (no file system, no
# clock), which the selected tests do not need.
export MIRIFLAGS="${MIRIFLAGS:-}"
failed=0
run() {
  local name=$1
  shift
  local log=$REPORT_DIR/miri-$name.log start=$SECONDS status=0
  echo "== miri: $name: cargo miri test $*"
  cargo "+$NIGHTLY" miri test "$@" >"$log" 2>&1 || status=$?
  grep -E '^test result:' "$log" | sed 's/^/   /' || true
  local tests
  tests=$(count_tests "$log")
  if [ "$status" = 0 ] && [ "$tests" != - ] && [ "$tests" -gt 0 ]; then
    record miri "$(rustc -vV | sed -n 's/^host: //p')" "$name" "$tests" pass $((SECONDS - start))
  else
    tail -n 40 "$log" >&2
    echo "error: miri $name failed (exit $status; full log $log)" >&2
    record miri "$(rustc -vV | sed -n 's/^host: //p')" "$name" "$tests" FAIL $((SECONDS - start))
    failed=1
  fi
}
cargo "+$NIGHTLY" miri setup -q 2>/dev/null || cargo "+$NIGHTLY" miri setup
run chunkhash -p chunkhash --lib --test api --test batch --test differential --test trailer --test registry
run "C binding" -p chunkhash-c --lib
exit $failed
