#!/bin/bash
# One process per put, interleaved: BASE and NEW binaries, --threads 1 and 2,
# a fresh store in STDIR (default /var/tmp; the recorded run used /dev/shm)
# for each put; prints "variant wall user sys" per put.
#   put-base-vs-branch.sh BASE NEW CORPUS ROUNDS
base=$1; new=$2; corpus=$3; rounds=$4
for r in $(seq 1 "$rounds"); do
  for v in base:1 new:1 base:2 new:2; do
    bin=$base; [ "${v%%:*}" = new ] && bin=$new
    st=${STDIR:-/var/tmp}/put-ab-$$; rm -rf "$st"
    "$bin" store --store "$st" init >/dev/null
    /usr/bin/time -f "$v %e s wall %U user %S sys" "$bin" store --store "$st" put --no-fsync --threads "${v##*:}" "$corpus" 2>&1 >/dev/null | tail -1
    rm -rf "$st"
  done
done
