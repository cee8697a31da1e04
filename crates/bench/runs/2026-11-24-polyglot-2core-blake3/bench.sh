#!/bin/bash
# The runs of this folder (runs-1-2.txt). From the repository root, build
# first (each package on its own, see crates/bench-no-avx512/Cargo.toml):
#   cargo build --release -p chunkhash-bench --bin blake3_vs_official
#   cargo build --release -p chunkhash-bench-no-avx512
#   cargo build --profile bench-lto -p chunkhash-bench --bin blake3_vs_official
#   cargo build --profile bench-lto -p chunkhash-bench-no-avx512
cd "$(dirname "$0")/../../../.."
for run in 1 2; do
  echo "######## run $run"
  for profile in release bench-lto; do
    for bin in blake3_vs_official blake3_vs_official_avx2; do
      echo "==== $profile $bin (single ragged batch, --cpu-time --rounds 21)  $(date +%T) $(uptime)"
      target/$profile/$bin --cpu-time --rounds 21 single ragged batch
      if [ $profile = release ]; then
        echo "==== $profile $bin parallel --rounds 11  $(date +%T) $(uptime)"
        target/$profile/$bin --rounds 11 parallel
      fi
    done
  done
done
echo "==== end $(date +%T) $(uptime)"
