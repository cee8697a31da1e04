#!/bin/bash
f=bao-1g.bin
for round in 1 2 3; do
  for v in old new; do
    /usr/bin/time -f "$v combined %e %U %S %M" target/chunkhash-$v bao encode $f /tmp/bao-$v.bao 2>&1 | tail -1
    /usr/bin/time -f "$v outboard %e %U %S %M" target/chunkhash-$v bao encode $f --outboard=/tmp/bao-$v.obao 2>&1 | tail -1
    /usr/bin/time -f "$v stdin-outboard %e %U %S %M" target/chunkhash-$v bao encode - --outboard=/tmp/bao-$v.sobao < $f 2>&1 | tail -1
  done
done
