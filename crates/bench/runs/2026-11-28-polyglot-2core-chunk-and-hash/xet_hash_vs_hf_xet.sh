#!/bin/sh
# chunkhash xet-hash against hf_xet.hash_files (the hf-xet 1.8.0 wheel) on one
# file, whole process each, interleaved; prints "NAME wall user sys" per run
# (GNU time). Page cache warm: `cat FILE > /dev/null` first.
#   sh xet_hash_vs_hf_xet.sh FILE ROUNDS one    # both pinned to one core, one thread
#   sh xet_hash_vs_hf_xet.sh FILE ROUNDS both   # both free to use every core
# from the repository root, after `cargo build --release -p chunkhash-cli`
# and `make pydeps`.
F=$1; N=${2:-9}
if [ "${3:-one}" = one ]; then PIN="taskset -c 1"; export RAYON_NUM_THREADS=1; else PIN=""; fi
for i in $(seq "$N"); do
  /usr/bin/time -f "chunkhash %e %U %S" $PIN target/release/chunkhash xet-hash "$F" > /dev/null
  PYTHONPATH=target/pydeps /usr/bin/time -f "hf_xet %e %U %S" $PIN \
    python3 -c "import sys, hf_xet; print(hf_xet.hash_files([sys.argv[1]])[0].hash)" "$F" > /dev/null
done
