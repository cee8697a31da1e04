#!/usr/bin/env bash
# The fuzz targets (fuzz/): builds them with libFuzzer and AddressSanitizer
# on nightly (the instrumentation cargo-fuzz uses, without installing
# cargo-fuzz: 2 to 6 minutes of build saved on a fresh machine; `cargo fuzz
# run TARGET` works on the same folder), then runs each target.
#
#   scripts/test/fuzz.sh smoke [TARGET...]    (make test; all targets by default)
#   scripts/test/fuzz.sh SECONDS [TARGET...]  (make fuzz)
#
# smoke: a fixed number of runs from a fixed libFuzzer seed, starting from
# the committed seeds (fuzz/seeds/TARGET) alone, so every run of make test
# tries the same inputs and its result depends on the code only, never on
# the machine's speed. SECONDS: each target that long from a random seed, on
# the committed seeds and its working corpus (target/fuzz-corpus/TARGET,
# kept between runs). A crash stops that target, fails the run and leaves
# the input in target/fuzz-artifacts/TARGET/; a crash becomes a regression
# test in the crate it is about.
set -euo pipefail
cd "$(dirname "$0")/../.."
. scripts/test/lib.sh

budget=${1:?usage: scripts/test/fuzz.sh smoke|SECONDS [TARGET...]}
shift
[ "$budget" = smoke ] || [[ $budget =~ ^[0-9]+$ ]] || die "the budget is smoke or a number of seconds, not $budget"
# Every target: the longest input it is given (the hashing targets need
# room for 16 chunks and more; the parsers, lines and names of a few
# hundred bytes) and its runs in make test (about 5 s each on the 2-core
# machine, 40 s for all; the store's targets, the last eight, about 3 s
# each).
TARGETS='
hex                   512    60000
algorithm_names       128    40000
trailer_verify        4096   150000
check_line            1024   150000
blake3_one_shot       20000  40000
blake3_hasher_splits  512    1500
blake3_hash_many      2048   1200
registry_streaming    8192   10000
cdc_kernels           1024   400
store_objects         1024   50000
store_pack_record     1024   50000
store_pack_scan       4096   30000
store_index           2048   60000
store_manifest        512    100000
store_names           128    100000
prolly_node           2048   80000
prolly_proof          4096   80000
'
declare -A MAX_LEN SMOKE_RUNS
all=()
while read -r name max_len smoke_runs; do
  [ -n "$name" ] || continue
  all+=("$name")
  MAX_LEN[$name]=$max_len
  SMOKE_RUNS[$name]=$smoke_runs
done <<<"$TARGETS"
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=("${all[@]}")

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
  mkdir -p "target/fuzz-artifacts/$target" "$REPORT_DIR"
  log=$REPORT_DIR/fuzz-$target.log
  if [ "$budget" = smoke ]; then
    # A fresh corpus each time: the inputs tried follow from the seeds alone.
    corpus=target/fuzz-smoke/$target
    rm -rf "$corpus"
    limit=(-runs="${SMOKE_RUNS[$target]}" -seed=1)
    run="$target (${SMOKE_RUNS[$target]} runs)"
  else
    corpus=target/fuzz-corpus/$target
    limit=(-max_total_time="$budget")
    run="$target (${budget}s)"
  fi
  mkdir -p "$corpus"
  echo "== fuzz $run"
  start=$SECONDS
  status=0
  # The timeout only catches a hang: the slowest input takes milliseconds.
  "$bin/$target" "${limit[@]}" -max_len="${MAX_LEN[$target]}" -timeout=300 -rss_limit_mb=4096 \
    -print_final_stats=1 -artifact_prefix="target/fuzz-artifacts/$target/" \
    "$corpus" "fuzz/seeds/$target" >"$log" 2>&1 || status=$?
  runs=$(count_tests "$log")
  if [ "$status" = 0 ]; then
    result=pass
    echo "   $runs runs in $((SECONDS - start)) s, corpus of $(ls "$corpus" | wc -l) inputs, no crash"
  else
    result=FAIL
    failed=1
    grep -E "panicked|ERROR|SUMMARY|Test unit written" "$log" | head -8 >&2 || true
    echo "   fuzz $target failed (exit $status): full log $log" >&2
  fi
  record fuzz "$host" "$run" "$runs" "$result" $((SECONDS - start))
done
exit $failed
