#!/usr/bin/env bash
# The fuzz targets (fuzz/): builds them with libFuzzer and AddressSanitizer
# on nightly (the instrumentation cargo-fuzz uses, without installing
# cargo-fuzz: 2 to 6 minutes of build saved on a fresh machine; `cargo fuzz
# run TARGET` works on the same folder), then runs each for SECONDS on its
# committed seeds (fuzz/seeds/TARGET) and its working corpus
# (target/fuzz-corpus/TARGET, kept between runs). A crash stops that target,
# fails the run and leaves the input in target/fuzz-artifacts/TARGET/; a
# crash becomes a regression test in the crate it is about.
#
#   scripts/test/fuzz.sh SECONDS [TARGET...]     (all targets by default)
set -euo pipefail
cd "$(dirname "$0")/../.."
. scripts/test/lib.sh

seconds=${1:?usage: scripts/test/fuzz.sh SECONDS [TARGET...]}
shift
# Every target, with the longest input it is given: the hashing targets need
# room for 16 chunks and more; the parsers, lines and names of a few
# hundred bytes.
declare -A MAX_LEN=(
  [hex]=512
  [algorithm_names]=128
  [trailer_verify]=4096
  [check_line]=1024
  [blake3_one_shot]=20000
  [blake3_hasher_splits]=512
  [blake3_hash_many]=2048
  [registry_streaming]=8192
)
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(hex algorithm_names trailer_verify check_line blake3_one_shot blake3_hasher_splits blake3_hash_many registry_streaming)

need_nightly rust-src
host=$(rustc -vV | sed -n 's/^host: //p')
echo "== fuzz targets: build ($NIGHTLY, libFuzzer + AddressSanitizer)"
RUSTFLAGS="-Cpasses=sancov-module -Cllvm-args=-sanitizer-coverage-level=4 \
-Cllvm-args=-sanitizer-coverage-inline-8bit-counters -Cllvm-args=-sanitizer-coverage-pc-table \
-Cllvm-args=-sanitizer-coverage-trace-compares -Cllvm-args=-sanitizer-coverage-stack-depth \
--cfg fuzzing -Zsanitizer=address -Cdebug-assertions -Coverflow-checks" \
  cargo "+$NIGHTLY" build -q --release --locked --manifest-path fuzz/Cargo.toml \
  --target "$host" --target-dir target/fuzz --bins
bin=target/fuzz/$host/release

failed=0
for target in "${targets[@]}"; do
  [ -n "${MAX_LEN[$target]:-}" ] || die "unknown fuzz target $target (known: ${!MAX_LEN[*]})"
  mkdir -p "target/fuzz-corpus/$target" "target/fuzz-artifacts/$target" "$REPORT_DIR"
  log=$REPORT_DIR/fuzz-$target.log
  echo "== fuzz $target: ${seconds}s"
  start=$SECONDS
  status=0
  "$bin/$target" -max_total_time="$seconds" -max_len="${MAX_LEN[$target]}" -timeout=30 -rss_limit_mb=4096 \
    -print_final_stats=1 -artifact_prefix="target/fuzz-artifacts/$target/" \
    "target/fuzz-corpus/$target" "fuzz/seeds/$target" >"$log" 2>&1 || status=$?
  runs=$(count_tests "$log")
  if [ "$status" = 0 ]; then
    result=pass
    echo "   $runs runs, corpus $(ls "target/fuzz-corpus/$target" | wc -l) inputs, no crash"
  else
    result=FAIL
    failed=1
    grep -E "panicked|ERROR|SUMMARY|Test unit written" "$log" | head -8 >&2 || true
    echo "   fuzz $target failed (exit $status): full log $log" >&2
  fi
  record fuzz "$host" "$target (${seconds}s)" "$runs" "$result" $((SECONDS - start))
done
exit $failed
