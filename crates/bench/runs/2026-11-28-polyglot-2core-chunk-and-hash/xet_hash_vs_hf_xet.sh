#!/bin/sh
# chunkhash xet-hash against hf_xet.hash_files (the hf-xet 1.8.0 wheel) on one
# file, whole process each, interleaved, both pinned to one core; prints
# "NAME wall user sys" per run (GNU time). Page cache warm: run it twice, or
# `cat FILE > /dev/null` first.
#   sh xet_hash_vs_hf_xet.sh FILE ROUNDS
# from the repository root, after `cargo build --release -p chunkhash-cli`
# and `make pydeps`.
F=$1; N=${2:-9}
for i in $(seq "$N"); do
  /usr/bin/time -f "chunkhash %e %U %S" taskset -c 1 target/release/chunkhash xet-hash "$F" > /dev/null
  PYTHONPATH=target/pydeps /usr/bin/time -f "hf_xet %e %U %S" taskset -c 1 \
    python3 -c "import sys, hf_xet; print(hf_xet.hash_files([sys.argv[1]])[0].hash)" "$F" > /dev/null
done
