#!/usr/bin/env bash
# Interleaved rounds of the CLI on FILE: s3sum before issue 34's change
# (parts in order) and after (parts side by side), all ten kinds and the
# ETag alone, in parts of 8 MiB; and coreutils md5sum (one MD5 stream).
# Wall seconds per run from /usr/bin/time; page cache warm (warm-up round).
# usage: cli_rounds.sh BEFORE_BINARY AFTER_BINARY FILE [ROUNDS]
set -euo pipefail
before=$1 after=$2 file=$3 rounds=${4:-3}
run() { /usr/bin/time -f "%e" "$@" 2>&1 >/dev/null | tail -1; }
for round in $(seq 0 "$rounds"); do
  line="round $round:"
  line+=" before-all=$(run "$before" s3sum --part-size 8MiB "$file")"
  line+=" after-all=$(run "$after" s3sum --part-size 8MiB "$file")"
  line+=" before-etag=$(run "$before" s3sum --part-size 8MiB --algorithms ETag "$file")"
  line+=" after-etag=$(run "$after" s3sum --part-size 8MiB --algorithms ETag "$file")"
  line+=" md5sum=$(run md5sum "$file")"
  echo "$line (load: $(cut -d' ' -f1-3 /proc/loadavg))"
done
