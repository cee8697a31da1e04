#!/bin/sh
# Re-run from the repository root after `make test-java` (or `make java-bench`'s
# first two steps: the release JNI library and Maven's test classpath).
set -e
cd bindings/java/chunkhash
CP=target/classes:target/test-classes:$(cat target/test-classpath.txt)
# The switch-over: JavaBlake3 against the native call, per length.
java -cp "$CP" io.chunkhash.SwitchOverBench 11 200 BLAKE3
# Blake3.hash before (the previous commit's classes, all native) and after, 64 B and 1 KiB:
# HashBench.java (this folder) run against each build's classes, alternating processes.
# And the library benchmark:
java -cp "$CP" io.chunkhash.bench.JavaBench 7 150
