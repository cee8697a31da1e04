package io.chunkhash.spark.bench;

import io.chunkhash.Algorithm;
import io.chunkhash.spark.BatchedHash;
import io.chunkhash.spark.ChunkhashExtensions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.api.java.UDF1;
import org.apache.spark.sql.types.DataTypes;

/**
 * Spark SQL on local[2]: rows per second of chunkhash's functions and the
 * batched transform against Spark's sha2(v, 256), xxhash64(v), crc32(v) and a
 * Java UDF that only returns the value's length, over a cached DataFrame of
 * binary values {@code v} (and the same in hex, a string column {@code s}).
 * Each query is written to Spark's no-op sink (every row is computed,
 * nothing is kept). Contenders run in interleaved rounds, the first
 * dropped as warm-up; figures are medians. Run by {@code make java-bench}.
 * Arguments: [rows of 64 B] [rows of 1 KiB] [rounds] [queries to run, separated by ';' (default all)]
 * [rows of 4 KiB (default none)].
 */
public final class SparkBench {
    public static void main(String[] args) {
        long small = args.length > 0 ? Long.parseLong(args[0]) : 5_000_000L;
        long large = args.length > 1 ? Long.parseLong(args[1]) : 1_000_000L;
        int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 5;
        only = args.length > 3 && !args[3].isEmpty() ? List.of(args[3].split(";")) : null;
        long huge = args.length > 4 ? Long.parseLong(args[4]) : 0;
        SparkSession spark = SparkSession.builder()
                .master("local[2]")
                .appName("chunkhash-spark-bench")
                .config("spark.sql.extensions", ChunkhashExtensions.class.getName())
                .config("spark.ui.enabled", "false")
                .getOrCreate();
        spark.sparkContext().setLogLevel("ERROR");
        spark.udf().register("java_len", (UDF1<byte[], Integer>) v -> v.length, DataTypes.IntegerType);
        if (small > 0) bench(spark, "64 B", values(spark, small, 64), rounds);
        if (large > 0) bench(spark, "1 KiB", values(spark, large, 1024), rounds);
        if (huge > 0) bench(spark, "4 KiB", values(spark, huge, 4096), rounds);
        spark.stop();
    }

    private static List<String> only;

    /** {@code rows} distinct binary values of {@code size} bytes, cached in two partitions. */
    static Dataset<Row> values(SparkSession spark, long rows, int size) {
        String piece = "unhex(sha2(cast(id as string), 256))"; // 32 bytes
        String expr = "substring(concat(" + String.join(", ", java.util.Collections.nCopies(size / 32, piece))
                + "), 1, " + size + ") as v";
        // s: the value in hex, a string column of 2 x size bytes, for the functions' string path.
        Dataset<Row> df = spark.range(0, rows, 1, 2).selectExpr(expr).selectExpr("v", "hex(v) as s").cache();
        df.count();
        return df;
    }

    static void bench(SparkSession spark, String label, Dataset<Row> df, int rounds) {
        long rows = df.count();
        Map<String, Function<Dataset<Row>, Dataset<Row>>> queries = new LinkedHashMap<>();
        for (String e : new String[] {"length(v)", "java_len(v)", "sha2(v, 256)", "xxhash64(v)", "crc32(v)",
                "blake3(v)", "blake3_address(v)", "xxh3_64(v)", "xxh3_128(v)", "crc32c(v)", "crc64nvme(v)",
                "xxhash64(s)", "xxh3_64(s)", "crc32(s)", "crc32c(s)"}) {
            queries.put(e, d -> d.selectExpr(e + " as h"));
        }
        queries.put("batched BLAKE3", d -> BatchedHash.withHash(d, "v", Algorithm.BLAKE3, "h").select("h"));
        queries.put("batched XXH3-64", d -> BatchedHash.withHash(d, "v", Algorithm.XXH3_64, "h").select("h"));
        if (only != null) {
            queries.keySet().retainAll(only);
            if (!queries.containsKey("sha2(v, 256)")) {
                throw new IllegalArgumentException("the queries must include sha2(v, 256)");
            }
        }
        Map<String, List<Double>> seconds = new LinkedHashMap<>();
        for (String q : queries.keySet()) seconds.put(q, new ArrayList<>());
        for (int round = 0; round <= rounds; round++) { // round 0 is warm-up
            for (Map.Entry<String, Function<Dataset<Row>, Dataset<Row>>> q : queries.entrySet()) {
                long start = System.nanoTime();
                q.getValue().apply(df).write().format("noop").mode("overwrite").save();
                double s = (System.nanoTime() - start) / 1e9;
                if (round > 0) seconds.get(q.getKey()).add(s);
            }
        }
        System.out.println();
        System.out.printf("## Spark local[2], %,d rows of %s (median of %d interleaved rounds)%n", rows, label, rounds);
        System.out.printf("%-22s %10s %14s %12s%n", "query", "seconds", "M rows/s", "vs sha2");
        double sha2 = median(seconds.get("sha2(v, 256)"));
        for (Map.Entry<String, List<Double>> s : seconds.entrySet()) {
            double m = median(s.getValue());
            System.out.printf("%-22s %10.3f %14.2f %11.2fx%n", s.getKey(), m, rows / m / 1e6, sha2 / m);
        }
    }

    static double median(List<Double> v) {
        double[] a = v.stream().mapToDouble(Double::doubleValue).toArray();
        Arrays.sort(a);
        return a.length % 2 == 1 ? a[a.length / 2] : (a[a.length / 2 - 1] + a[a.length / 2]) / 2;
    }
}
