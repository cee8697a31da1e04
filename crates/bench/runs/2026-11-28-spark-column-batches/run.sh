#!/bin/sh
# The Spark benchmark of batched hashing, one process per master in MASTERS
# (default: local[2] local[1]). SOURCE=parquet (the default: the batched
# transform hashes the reader's column batches; 64 B, 1 KiB and 4 KiB) or
# SOURCE=cache (a cached DataFrame: the batched transform gathers rows; 64 B).
# Run from anywhere after `make test-java` and the classpath step of `make java-bench`.
OUT=$(cd "$(dirname "$0")" && pwd)
cd "$OUT/../../../../bindings/java/spark" || exit 1
SOURCE=${SOURCE:-parquet}
case $SOURCE in
  parquet) ROWS='2000000 400000'; ROWS_4K=100000 ;;
  cache) ROWS='2000000 0'; ROWS_4K=0 ;;
  *) echo "SOURCE=$SOURCE: parquet or cache" >&2; exit 2 ;;
esac
ARGS=$(sed -n 's/.*<argLine>\(.*\)-Xmx2g<\/argLine>.*/\1/p' pom.xml)
Q='sha2(v, 256);xxhash64(v);crc32(v);blake3(v);xxh3_64(v);crc32c(v);batched BLAKE3;batched XXH3-64;batched CRC32C;batched SHA-256'
set -f
for M in ${MASTERS:-local[2] local[1]}; do
  F=$OUT/sparkbench-$SOURCE-$(echo $M | tr -d '[]').txt
  { echo "\$ SparkBench $ROWS 5 '$Q' $ROWS_4K $M $SOURCE"; date -u; uptime; } > $F
  java $ARGS -Xmx6g -cp target/classes:target/test-classes:$(cat target/test-classpath.txt) \
    io.chunkhash.spark.bench.SparkBench $ROWS 5 "$Q" $ROWS_4K "$M" $SOURCE 2>&1 | grep -v ' WARN \|^WARNING' >> $F
  { date -u; uptime; } >> $F
done
