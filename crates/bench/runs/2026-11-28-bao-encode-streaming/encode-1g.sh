#!/bin/bash
# Interleaved rounds: old and new chunkhash bao encode (combined, outboard) on a 1 GiB file.
f=bao-1g.bin
for round in 1 2 3 4 5; do
  for v in old new; do
    for mode in combined outboard post16k; do
      case $mode in
        combined) args="$f /tmp/bao-$v.bao";;
        outboard) args="$f --outboard=/tmp/bao-$v.obao";;
        post16k) args="--group-size 16KiB --post-order encode $f --outboard=/tmp/bao-$v.p16";;
      esac
      if [ $mode = post16k ]; then cmd="bao $args"; else cmd="bao encode $args"; fi
      /usr/bin/time -f "$v $mode %e %U %S %M" target/chunkhash-$v $cmd 2>&1 | tail -1
    done
  done
  /usr/bin/time -f "new hash %e %U %S %M" target/chunkhash-new bao hash $f 2>&1 >/dev/null | tail -1
done
