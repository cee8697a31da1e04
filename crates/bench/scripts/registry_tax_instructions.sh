#!/usr/bin/env bash
# Instructions per call of every row of `registry_tax` (64-byte input),
# counted by callgrind: (Ir with N calls - Ir with 0 calls) / N. Counts are
# deterministic, so they show the registry's own cost on a machine too
# noisy to time a few nanoseconds.
#
#   crates/bench/scripts/registry_tax_instructions.sh [N]
set -euo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
n=${1:-20000}
cd "$root"
cargo build -q --release -p chunkhash-bench --bin registry_tax
bin=$root/target/release/registry_tax
ir() {
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$bin" --count "$1" "$2" "$3" 2>&1 |
    sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}
echo "| algorithm | direct | digest | digest - direct | seal | direct + mask | seal - (direct + mask) | verify |"
echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
for algorithm in BLAKE3 BLAKE3-160 XXH3-64 XXH3-128 XXH64 XXH32 CRC32C BLAKE2b-512 BLAKE2b-256 SHA-256 SHA-512 SHA-512/160 CRC-32 CRC-64/NVME MD5 SHA-1; do
  declare -A per_call=()
  for row in direct digest seal "direct + mask" verify; do
    zero=$(ir "$algorithm" "$row" 0)
    many=$(ir "$algorithm" "$row" "$n")
    per_call[$row]=$(( (many - zero) / n ))
  done
  echo "| $algorithm | ${per_call[direct]} | ${per_call[digest]} | $(( per_call[digest] - per_call[direct] )) |" \
       "${per_call[seal]} | ${per_call[direct + mask]} | $(( per_call[seal] - per_call[direct + mask] )) | ${per_call[verify]} |"
done
