#!/usr/bin/env bash
# Miri over the code whose memory safety matters most and that Miri can run
# in minutes (a compression takes tens of milliseconds under Miri): the
# portable BLAKE3 kernel, lane jobs, tree, hasher, batch scheduler, hex and
# the trailer mask (chunkhash's unit tests; the api, batch and differential
# tests against the official crate; the trailer tests of layouts and
# errors), and the C binding's pointer helpers (its unit tests: NULL,
# unaligned and short buffers through the extern "C" functions). The CPU
# detectors report no SIMD under Miri, so the portable kernel runs; inputs
# are Miri-sized (vectors::TestScale::Miri). Installs the nightly toolchain
# with miri and rust-src when missing.
set -euo pipefail
cd "$(dirname "$0")/../.."
. scripts/test/lib.sh

need_nightly miri rust-src
mkdir -p "$REPORT_DIR"
host=$(rustc -vV | sed -n 's/^host: //p')
failed=0
# run NAME CARGO_ARGS... [-- TEST_FILTERS...]
run() {
  local name=$1
  shift
  local log=$REPORT_DIR/miri-${name// /-}.log start=$SECONDS status=0
  echo "== miri: $name: cargo miri test $*"
  cargo "+$NIGHTLY" miri test "$@" >"$log" 2>&1 || status=$?
  finish_row miri "$host" "$name" "$log" "$status" "$start" || failed=1
}
cargo "+$NIGHTLY" miri setup >/dev/null
# All but the CRC kernels' tests, which sweep megabytes (days of Miri) and
# of which Miri runs the portable kernel, safe Rust (the SIMD kernels, all
# the CRC code's unsafe, do not run under Miri); and the chunk-run,
# parent-level and small-message kernel tests, which compare each backend
# with portable over megabytes or every lane count and block count (tens of
# thousands of compressions): under Miri portable is the only backend,
# compared with itself.
# Nor the multi-buffer tests (SHA-256, MD5, SHA-1, SHA-512 over thousands
# of messages, a million-byte NIST message among them): their unsafe is all
# in SIMD kernels Miri does not run, and the portable path they compare is
# safe code (10 minutes of Miri were not enough for the first of them);
# nor XXH64's differential sweep (safe code, 8,400 hashes).
run "chunkhash unit tests" -p chunkhash --lib -- --skip platform::crc::tests \
  --skip multi_buffer:: --skip platform::sha256::tests::every_kernel_compresses_as_the_portable_code \
  --skip xxh64::tests::differential_against_twox_hash \
  --skip platform::tests::chunk_runs_match_portable_on_every_count \
  --skip platform::tests::independent_blocks_match_portable_on_every_count \
  --skip platform::tests::small_message_kernels_match_portable
run "api, batch, differential" -p chunkhash --test api --test batch --test differential
# The trailer tests that hash a few hundred bytes; the others flip every
# bit of blocks up to 64 KiB, days of Miri.
run "trailer layout and errors" -p chunkhash --test trailer -- layout_is_id_then_checksum every_truncation \
  oversized_trailers unknown_ids error_messages unavailable_algorithms
# All but the two that need what Miri lacks or cannot afford: the vector
# file on disk (isolation) and batches of 300 messages.
run "C binding pointer helpers" -p chunkhash-c --lib -- --skip c_test_vectors_are_up_to_date \
  --skip large_batches_match_one_shot_hashes
exit $failed
