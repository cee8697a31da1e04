#!/bin/sh
# The Spark benchmark of the column-batch path: Parquet source, local[2] then local[1].
# Run from anywhere after `make test-java` and the classpath step of `make java-bench`.
OUT=$(cd "$(dirname "$0")" && pwd)
cd "$OUT/../../../../bindings/java/spark" || exit 1
ARGS=$(sed -n 's/.*<argLine>\(.*\)-Xmx2g<\/argLine>.*/\1/p' pom.xml)
Q='sha2(v, 256);xxhash64(v);crc32(v);blake3(v);xxh3_64(v);crc32c(v);batched BLAKE3;batched XXH3-64;batched CRC32C;batched SHA-256'
set -f # MASTERS: the masters to run, one process each
for M in ${MASTERS:-local[2] local[1]}; do
  F=$OUT/sparkbench-parquet-$(echo $M | tr -d '[]').txt
  { echo "\$ SparkBench 2000000 400000 5 '$Q' 100000 $M parquet"; date -u; uptime; } > $F
  java $ARGS -Xmx6g -cp target/classes:target/test-classes:$(cat target/test-classpath.txt) \
    io.chunkhash.spark.bench.SparkBench 2000000 400000 5 "$Q" 100000 "$M" parquet 2>&1 | grep -v ' WARN \|^WARNING' >> $F
  { date -u; uptime; } >> $F
done
