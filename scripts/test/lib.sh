# Shared by the test scripts in this folder (sourced, not run).
#
# `need_*` install what a test needs when it is missing and stop the run with
# a message naming the install when that fails: an absent tool never lets a
# test pass unrun. `record` adds a row to the table `make test` prints last
# (parts.sh); `count_tests` reads the test counts from a log, `finish_row` records a run.

REPORT_DIR=${REPORT_DIR:-target/test-report}
# The nightly toolchain of Miri and the fuzz targets. Unpinned: both use
# only what every nightly has; set CHUNKHASH_NIGHTLY=nightly-YYYY-MM-DD to pin.
NIGHTLY=${CHUNKHASH_NIGHTLY:-nightly}

die() {
  echo "error: $*" >&2
  exit 1
}

# need_rustup_target TRIPLE [TOOLCHAIN]
need_rustup_target() {
  local toolchain=${2:-stable}
  rustup target list --installed --toolchain "$toolchain" 2>/dev/null | grep -qx "$1" && return
  echo "== installing the Rust target $1 ($toolchain)"
  rustup target add --toolchain "$toolchain" "$1" ||
    die "could not install the Rust target $1: run 'rustup target add --toolchain $toolchain $1'"
}

# need_nightly COMPONENT...: the nightly toolchain with the given components.
need_nightly() {
  local missing=0 component
  if rustup run "$NIGHTLY" rustc --version >/dev/null 2>&1; then
    for component in "$@"; do
      rustup component list --installed --toolchain "$NIGHTLY" 2>/dev/null | grep -q "^$component" || missing=1
    done
  else
    missing=1
  fi
  [ "$missing" = 0 ] && return
  local components
  components=$(IFS=,; echo "$*")
  echo "== installing the $NIGHTLY toolchain with $components"
  # Components go into the nightly that is there (installing the toolchain
  # again would update it under whoever else uses it).
  if rustup run "$NIGHTLY" rustc --version >/dev/null 2>&1; then
    rustup component add --toolchain "$NIGHTLY" "$@"
  else
    rustup toolchain install "$NIGHTLY" --profile minimal ${components:+--component "$components"}
  fi || die "could not install $NIGHTLY with $components: run 'rustup toolchain install $NIGHTLY --component $components'"
}

# need_apt COMMAND PACKAGE...: installs the Debian packages unless COMMAND
# (a program, or a file path) is already there.
need_apt() {
  local command=$1
  shift
  if [[ $command == /* ]]; then [ -e "$command" ] && return; else command -v "$command" >/dev/null && return; fi
  echo "== installing $* (for $command)"
  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq -o DPkg::Lock::Timeout=600 "$@"; } ||
    die "could not install $*: run 'apt-get install $*' (needed for $command)"
  if [[ $command == /* ]]; then [ -e "$command" ]; else command -v "$command" >/dev/null; fi ||
    die "$command is still missing after installing $*"
}

# need_pydep PACKAGE VERSION: the Python package at exactly VERSION in
# $CHUNKHASH_PYDEPS (target/pydeps by default, where `make pydeps` puts
# the others), installed there with pip, never globally.
need_pydep() {
  local dir=${CHUNKHASH_PYDEPS:-$PWD/target/pydeps} python=${PYTHON:-python3}
  "$python" -c 'import sys; sys.path.insert(0, sys.argv[1]); import importlib.metadata as m; sys.exit(m.version(sys.argv[2]) != sys.argv[3])' \
    "$dir" "$1" "$2" 2>/dev/null && return
  echo "== installing the Python package $1==$2 into $dir"
  "$python" -m pip install --quiet --disable-pip-version-check --root-user-action=ignore --upgrade --target "$dir" "$1==$2" ||
    die "could not install $1==$2: run '$python -m pip install --target $dir $1==$2'"
}

# record KIND TARGET RUN TESTS RESULT SECONDS: one row of the final table,
# under the make target running now (parts.sh sets CHUNKHASH_TEST_PART).
# KIND is matrix, miri or fuzz (whose TESTS are libFuzzer runs).
record() {
  mkdir -p "$REPORT_DIR"
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "${CHUNKHASH_TEST_PART:--}" "$@" >>"$REPORT_DIR/rows.tsv"
}

# The tests a log shows ran, summed over every runner's closing lines:
# cargo test ("test result: ok. 12 passed; 0 failed"), pytest ("3 passed,
# 1 failed in 2s"), node --test ("# tests 30" or "ℹ tests 30"), libFuzzer
# ("Done 1234 runs"), and a plain "N passed, N failed" line. Prints "-"
# when the log has none (lint, builds).
count_tests() {
  awk '
    /^test result: / { for (i = 1; i <= NF; i++) if ($(i) ~ /^(passed|failed);?$/) { n += $(i - 1); seen = 1 } next }
    /^(# |ℹ )tests [0-9]+$/ { n += $NF; seen = 1; next }
    /^Done [0-9]+ runs/ { n += $2; seen = 1; next }
    /^=+ .*[0-9]+ (passed|failed)/ { for (i = 1; i <= NF; i++) if ($(i) ~ /^(passed|failed),?$/) { n += $(i - 1); seen = 1 } next }
    /^([A-Za-z]+: )?[0-9]+ passed, [0-9]+ failed/ { sub(/^[A-Za-z]+: /, ""); n += $1 + $3; seen = 1 }
    END { if (seen) print n; else print "-" }
  ' "$1"
}

# finish_row KIND TARGET RUN LOG STATUS START: prints the log's test
# results, and records the row: pass when the command succeeded and ran at
# least one test, else FAIL, with the log's tail on stderr.
finish_row() {
  local kind=$1 target=$2 run=$3 log=$4 status=$5 start=$6 tests
  grep -E '^test result:' "$log" | sed 's/^/   /' || true
  tests=$(count_tests "$log")
  if [ "$status" = 0 ] && [ "$tests" != - ] && [ "$tests" -gt 0 ]; then
    record "$kind" "$target" "$run" "$tests" pass $((SECONDS - start))
  else
    tail -n 40 "$log" >&2
    echo "error: $kind $target $run failed (exit $status, $tests tests; full log $log)" >&2
    record "$kind" "$target" "$run" "$tests" FAIL $((SECONDS - start))
    return 1
  fi
}
