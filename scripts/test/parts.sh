#!/usr/bin/env bash
# `make test`: runs each part (a make target) in turn, goes on past a
# failure so that one run shows every problem, and ends with one table:
# each part, and inside the matrix, Miri and fuzz parts each target and
# backend, with the tests that ran and pass or fail. Exits 1 if any part
# failed. Every part's output is shown as it runs and kept in
# target/test-report/part-NAME.log.
#
#   scripts/test/parts.sh PART...        (MAKE names the make to call)
set -uo pipefail
cd "$(dirname "$0")/../.."
. scripts/test/lib.sh

rm -rf "$REPORT_DIR"
mkdir -p "$REPORT_DIR"
: >"$REPORT_DIR/rows.tsv"
: >"$REPORT_DIR/parts.tsv"
started=$SECONDS
for part in "$@"; do
  echo "==== make $part"
  start=$SECONDS
  log=$REPORT_DIR/part-$part.log
  CHUNKHASH_TEST_PART=$part ${MAKE:-make} --no-print-directory "$part" 2>&1 | tee "$log"
  status=${PIPESTATUS[0]}
  result=pass
  [ "$status" = 0 ] || result=FAIL
  printf '%s\t%s\t%s\t%s\n' "$part" "$(count_tests "$log")" "$result" $((SECONDS - start)) >>"$REPORT_DIR/parts.tsv"
done

# The table. A part's tests are its runners' closing lines, or the sum of
# its rows (fuzz rows count libFuzzer runs, not tests, and are left out).
echo
echo "==== make test: every part, target and backend ($(((SECONDS - started) / 60)) min $(((SECONDS - started) % 60)) s)"
awk -F'\t' '
  FILENAME == ARGV[1] { rows[$1] = rows[$1] $0 "\n"; if ($2 != "fuzz" && $5 ~ /^[0-9]+$/) sum[$1] += $5; if ($6 == "FAIL") bad++; next }
  BEGIN { fmt = "%-17s %-7s %-26s %-36s %12s  %-7s %6s\n"; printf fmt, "part", "kind", "target", "backend / run", "tests", "result", "time" }
  {
    part = $1; tests = (part in sum) ? sum[part] : $2
    printf fmt, part, "", "", "", tests, $3, $4 "s"
    if ($3 != "pass") failed_parts++
    if (tests ~ /^[0-9]+$/ && $3 == "pass") passed += tests
    n = split(rows[part], lines, "\n")
    for (i = 1; i < n; i++) {
      split(lines[i], f, "\t")
      t = f[5]; if (f[2] == "fuzz") t = t " runs"
      printf fmt, "", f[2], f[3], f[4], t, f[6], f[7] "s"
    }
  }
  END {
    print "(tests: cargo, pytest and node test counts; failed: failing parts and rows; MISSING: a backend this CPU lacks, not required)"
    printf "make test: %d passed, %d failed\n", passed, failed_parts + bad
  }
' "$REPORT_DIR/rows.tsv" "$REPORT_DIR/parts.tsv"
! grep -q $'\tFAIL\t' "$REPORT_DIR/parts.tsv"
