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
 * Spark SQL on local[2] (or another master): rows per second of chunkhash's
 * per-row functions and the batched transform against Spark's sha2(v, 256),
 * xxhash64(v), crc32(v) and a Java UDF that only returns the value's length,
 * over a DataFrame of binary values {@code v} (and the same in hex, a string
 * column {@code s}): cached in memory (the batched transform then gathers rows),
 * or written to Parquet and read back (the batched transform then hashes the
 * reader's column batches). Each query is written to Spark's no-op sink (every
 * row is computed, nothing is kept). Contenders run in interleaved rounds, the
 * first dropped as warm-up; figures are medians, each also as a ratio to the
 * median of its anchor (Spark's function of the same kind: xxhash64 for XXH3,
 * crc32 for CRC32C, sha2 for the rest). Run by {@code make java-bench}.
 * Arguments: [rows of 64 B] [rows of 1 KiB] [rounds] [queries to run, separated by ';' (default all)]
 * [rows of 4 KiB (default none)] [master (default local[2])] [source: cache or parquet (default cache)].
 */
public final class SparkBench {
    public static void main(String[] args) {
        long small = args.length > 0 ? Long.parseLong(args[0]) : 5_000_000L;
        long large = args.length > 1 ? Long.parseLong(args[1]) : 1_000_000L;
        int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 5;
        only = args.length > 3 && !args[3].isEmpty() ? List.of(args[3].split(";")) : null;
        long huge = args.length > 4 ? Long.parseLong(args[4]) : 0;
        String master = args.length > 5 ? args[5] : "local[2]";
        parquet = args.length > 6 && args[6].equals("parquet");
        if (args.length > 6 && !parquet && !args[6].equals("cache")) {
            throw new IllegalArgumentException("source " + args[6] + ": cache or parquet expected");
        }
        SparkSession spark = SparkSession.builder()
                .master(master)
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
        for (java.nio.file.Path dir : written) {
            try (java.util.stream.Stream<java.nio.file.Path> files = java.nio.file.Files.walk(dir)) {
                files.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
            } catch (java.io.IOException e) {
                System.err.println("could not delete " + dir + ": " + e);
            }
        }
    }

    private static List<String> only;
    private static boolean parquet;
    private static final List<java.nio.file.Path> written = new ArrayList<>();

    /** {@code rows} distinct binary values of {@code size} bytes, cached in two partitions. */
    static Dataset<Row> values(SparkSession spark, long rows, int size) {
        String piece = "unhex(sha2(cast(id as string), 256))"; // 32 bytes
        String expr = "substring(concat(" + String.join(", ", java.util.Collections.nCopies(size / 32, piece))
                + "), 1, " + size + ") as v";
        // s: the value in hex, a string column of 2 x size bytes, for the functions' string path.
        Dataset<Row> df = spark.range(0, rows, 1, 2).selectExpr(expr).selectExpr("v", "hex(v) as s");
        if (parquet) {
            try {
                java.nio.file.Path dir = java.nio.file.Files.createTempDirectory("chunkhash-spark-bench");
                String path = dir.resolve(size + ".parquet").toString();
                df.write().parquet(path);
                df = spark.read().parquet(path);
                if (!BatchedHash.isColumnar(df.select("v"))) {
                    throw new IllegalStateException("the Parquet scan is not columnar");
                }
                written.add(dir);
                return df;
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }
        df = df.cache();
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
        // Only the column hashed, as the per-row queries read (Spark prunes the others from their scans).
        for (Algorithm a : new Algorithm[] {Algorithm.BLAKE3, Algorithm.XXH3_64, Algorithm.CRC32C, Algorithm.SHA_256}) {
            queries.put("batched " + a, d -> BatchedHash.withHash(d.select("v"), "v", a, "h").select("h"));
        }
        if (only != null) {
            queries.keySet().retainAll(only);
            for (String anchor : new String[] {"sha2(v, 256)", "xxhash64(v)", "crc32(v)"}) {
                if (!queries.containsKey(anchor)) {
                    throw new IllegalArgumentException("the queries must include " + anchor);
                }
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
        System.out.printf("## Spark %s, %s, %,d rows of %s (median of %d interleaved rounds)%n",
                spark.sparkContext().master(), parquet ? "Parquet (batched: column batches)" : "cached (batched: rows)",
                rows, label, rounds);
        System.out.printf("%-22s %10s %14s %12s %12s %s%n", "query", "seconds", "M rows/s", "vs sha2", "vs anchor",
                "anchor");
        double sha2 = median(seconds.get("sha2(v, 256)"));
        for (Map.Entry<String, List<Double>> s : seconds.entrySet()) {
            double m = median(s.getValue());
            String anchor = anchor(s.getKey());
            System.out.printf("%-22s %10.3f %14.2f %11.2fx %11.2fx %s%n", s.getKey(), m, rows / m / 1e6, sha2 / m,
                    median(seconds.get(anchor)) / m, anchor);
        }
    }

    /** Spark's own function of the same kind as {@code query}. */
    static String anchor(String query) {
        String q = query.toLowerCase(java.util.Locale.ROOT);
        if (q.contains("xxh")) return q.endsWith("(s)") ? "xxhash64(s)" : "xxhash64(v)";
        if (q.contains("crc")) return q.endsWith("(s)") ? "crc32(s)" : "crc32(v)";
        return "sha2(v, 256)";
    }

    static double median(List<Double> v) {
        if (v == null) return Double.NaN; // an anchor left out of the queries
        double[] a = v.stream().mapToDouble(Double::doubleValue).toArray();
        Arrays.sort(a);
        return a.length % 2 == 1 ? a[a.length / 2] : (a[a.length / 2 - 1] + a[a.length / 2]) / 2;
    }
}
