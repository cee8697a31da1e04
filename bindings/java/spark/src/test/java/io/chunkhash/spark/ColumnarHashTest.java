package io.chunkhash.spark;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.chunkhash.Algorithm;
import io.chunkhash.Blake3;
import io.chunkhash.Checksums;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import net.openhft.hashing.LongHashFunction;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link BatchedHash} over Parquet (and ORC), where it hashes Spark's column batches ({@link ColumnarHash}): every
 * algorithm on every row against independent oracles (the JDK's MessageDigest, CRC32C and CRC32,
 * zero-allocation-hashing's XXH3 and XXH64, the native incremental BLAKE3), against the per-row SQL functions,
 * and against the row path; column batches of 1, 7 and 4096 rows, nulls, empty values, an empty file.
 */
class ColumnarHashTest {
    @TempDir
    static Path dir;

    private static SparkSession spark;
    private static Map<Integer, Row> rows;
    private static String parquet;

    @BeforeAll
    static void write() {
        spark = TestSession.get();
        long seed = TestSession.seed("ColumnarHashTest", 0x636f6c756d6eL);
        SplittableRandom random = new SplittableRandom(seed);
        List<Row> list = new ArrayList<>();
        list.add(RowFactory.create(0, null, null));
        list.add(RowFactory.create(1, "", new byte[0]));
        list.add(RowFactory.create(2, "grüße, 世界", "grüße, 世界".getBytes(StandardCharsets.UTF_8)));
        // Lengths around BLAKE3's block and chunk and the Java short paths' switch-overs, and random ones;
        // runs of nulls longer than a batch of 7 (ids 100 to 115).
        for (int i = 3; i < 400; i++) {
            int len = i < 300 ? random.nextInt(i < 200 ? 300 : 5000) : 1024 + random.nextInt(-70, 70);
            byte[] b = new byte[len];
            random.nextBytes(b);
            boolean nullRun = i >= 100 && i < 116;
            String s = nullRun || i % 7 == 0 ? null : SqlFunctionsTest.randomString(random, len);
            list.add(RowFactory.create(i, s, nullRun || i % 11 == 0 ? null : b));
        }
        byte[] big = new byte[(1 << 20) + 17];
        random.nextBytes(big);
        list.add(RowFactory.create(400, "x", big));
        StructType schema = new StructType()
                .add("id", DataTypes.IntegerType, false)
                .add("s", DataTypes.StringType, true)
                .add("b", DataTypes.BinaryType, true);
        parquet = dir.resolve("values.parquet").toString();
        spark.createDataFrame(list, schema).repartition(2).write().parquet(parquet);
        rows = new HashMap<>();
        for (Row r : list) rows.put(r.getInt(0), r);
    }

    static Dataset<Row> read() {
        return spark.read().parquet(parquet);
    }

    /** Runs {@code body} with the Parquet reader's batch size set to {@code batchRows} rows. */
    static <T> T withBatchSize(int batchRows, java.util.function.Supplier<T> body) {
        String key = "spark.sql.parquet.columnarReaderBatchSize";
        String previous = spark.conf().get(key);
        spark.conf().set(key, batchRows);
        try {
            return body.get();
        } finally {
            spark.conf().set(key, previous);
        }
    }

    @Test
    void everyAlgorithmMatchesTheOraclesRowByRow() {
        long inPlace = ColumnarHash.IN_PLACE.sum();
        List<Algorithm> strings = List.of(Algorithm.BLAKE3, Algorithm.XXH3_64, Algorithm.CRC32C, Algorithm.SHA_256);
        for (Algorithm algorithm : Algorithm.values()) {
            // Strings take the same gathering as binary values after their first step: four algorithms suffice.
            for (String column : strings.contains(algorithm) ? new String[] {"b", "s"} : new String[] {"b"}) {
                List<Row> out = withBatchSize(7, () -> {
                    Dataset<Row> df = read();
                    assertTrue(BatchedHash.isColumnar(df), "a Parquet scan is read in column batches");
                    return BatchedHash.withHash(df, column, algorithm, "h").collectAsList();
                });
                check(algorithm, column, out, "column batches of 7");
            }
        }
        // Parquet's on-heap vectors hold these random values in row order: hashed where they lie.
        long n = ColumnarHash.IN_PLACE.sum() - inPlace;
        System.out.println("ColumnarHashTest: " + n + " batches hashed in place");
        // 20 queries, each of at least 58 batches of at most 7 rows: every batch was.
        assertTrue(n >= 20 * 58, "batches hashed in place: " + n);
    }

    @Test
    void batchShapesAndTheRowPathAgree() {
        Object[][] shapes = {{1, Algorithm.BLAKE3}, {4096, Algorithm.CRC32C}, {4096, Algorithm.SHA_256}};
        for (Object[] shape : shapes) {
            int batchRows = (Integer) shape[0];
            Algorithm algorithm = (Algorithm) shape[1];
            List<Row> out = withBatchSize(batchRows,
                    () -> BatchedHash.withHash(read(), "b", algorithm, "h").collectAsList());
            check(algorithm, "b", out, "column batches of " + batchRows);
        }
        // ORC's vectorized reader too.
        String orc = dir.resolve("values.orc").toString();
        read().write().orc(orc);
        Dataset<Row> fromOrc = spark.read().orc(orc);
        assertTrue(BatchedHash.isColumnar(fromOrc), "an ORC scan is read in column batches");
        check(Algorithm.XXH3_128, "s", BatchedHash.withHash(fromOrc, "s", Algorithm.XXH3_128, "h").collectAsList(),
                "ORC column batches");
        // The row path over the same file: a filter between the scan and the transform.
        Dataset<Row> filtered = read().where("id >= 0");
        assertFalse(BatchedHash.isColumnar(filtered));
        check(Algorithm.XXH3_64, "s", BatchedHash.withHash(filtered, "s", Algorithm.XXH3_64, "h", 5).collectAsList(),
                "row path");
        // A frame Spark makes row by row.
        Dataset<Row> made = spark.range(0, 50, 1, 2).selectExpr("cast(id as string) as s");
        assertFalse(BatchedHash.isColumnar(made));
        List<Row> hashed = BatchedHash.withHash(made, "s", Algorithm.CRC32C, "h", 3).collectAsList();
        assertEquals(50, hashed.size());
        for (Row r : hashed) {
            assertEquals(oracleValue(Algorithm.CRC32C, r.getString(0).getBytes(StandardCharsets.UTF_8)), r.getLong(1));
        }
    }

    @Test
    void perRowSqlFunctionsAgree() {
        read().createOrReplaceTempView("columnar_values");
        Map<Integer, Row> sql = new HashMap<>();
        for (Row r : spark.sql("SELECT id, blake3(b), blake3_address(s), xxh3_64(b), xxh3_128(s), crc32c(b),"
                + " crc64nvme(s) FROM columnar_values").collectAsList()) {
            sql.put(r.getInt(0), r);
        }
        Object[][] cases = {{Algorithm.BLAKE3, "b", 1}, {Algorithm.BLAKE3_160, "s", 2}, {Algorithm.XXH3_64, "b", 3},
                {Algorithm.XXH3_128, "s", 4}, {Algorithm.CRC32C, "b", 5}, {Algorithm.CRC_64_NVME, "s", 6}};
        for (Object[] c : cases) {
            Algorithm algorithm = (Algorithm) c[0];
            int field = (Integer) c[2];
            List<Row> out = BatchedHash.withHash(read(), (String) c[1], algorithm, "h").collectAsList();
            assertEquals(rows.size(), out.size());
            for (Row r : out) {
                Row want = sql.get(r.getInt(0));
                String what = algorithm + " " + c[1] + " row " + r.getInt(0);
                if (want.isNullAt(field)) {
                    assertNull(r.get(3), what);
                } else if (algorithm.hasValue()) {
                    assertEquals(want.getLong(field), r.getLong(3), what);
                } else {
                    assertArrayEquals((byte[]) want.get(field), (byte[]) r.get(3), what);
                }
            }
        }
    }

    @Test
    void emptyFileAndAllNullBatches() {
        String empty = dir.resolve("empty.parquet").toString();
        read().limit(0).write().parquet(empty);
        Dataset<Row> none = spark.read().parquet(empty);
        assertTrue(BatchedHash.isColumnar(none));
        assertEquals(0, BatchedHash.withHash(none, "b", Algorithm.BLAKE3, "h").count());
        assertEquals(0, BatchedHash.withHash(none, "s", Algorithm.CRC32C, "h").collectAsList().size());
        // Ids 100 to 115 are null in both columns: with batches of 4, some batches hold only nulls.
        String nulls = dir.resolve("nulls.parquet").toString();
        read().where("id >= 100 AND id < 116").coalesce(1).write().parquet(nulls);
        List<Row> out = withBatchSize(4, () -> BatchedHash.withHash(spark.read().parquet(nulls), "b",
                Algorithm.SHA_256, "h").collectAsList());
        assertEquals(16, out.size());
        for (Row r : out) assertNull(r.get(3), "row " + r.getInt(0));
    }

    @Test
    void dictionaryEncodedValuesAreGathered() {
        // Five distinct strings: Parquet writes them dictionary-encoded, and the reader's vector holds indexes
        // into a dictionary, not the values in row order, so they are gathered instead of hashed in place.
        String path = dir.resolve("dictionary.parquet").toString();
        read().selectExpr("id", "IF(id % 3 = 0, NULL, concat('väl ', id % 5)) AS s").write().parquet(path);
        long gathered = ColumnarHash.GATHERED.sum();
        for (Algorithm algorithm : new Algorithm[] {Algorithm.BLAKE3, Algorithm.CRC32C}) {
            List<Row> out = withBatchSize(7, () -> BatchedHash.withHash(spark.read().parquet(path), "s", algorithm,
                    "h").collectAsList());
            assertEquals(rows.size(), out.size());
            for (Row r : out) {
                String what = algorithm + " row " + r.getInt(0);
                if (r.isNullAt(1)) {
                    assertNull(r.get(2), what);
                    continue;
                }
                byte[] value = r.getString(1).getBytes(StandardCharsets.UTF_8);
                if (algorithm.hasValue()) {
                    assertEquals(oracleValue(algorithm, value), r.getLong(2), what);
                } else {
                    assertArrayEquals(oracleDigest(algorithm, value), (byte[]) r.get(2), what);
                }
            }
        }
        long n = ColumnarHash.GATHERED.sum() - gathered;
        System.out.println("ColumnarHashTest: " + n + " dictionary batches gathered");
        assertTrue(n >= 2 * 58, "batches gathered: " + n);
    }

    /** Every row present once, its columns carried through unchanged, and its hash equal to the oracle's. */
    static void check(Algorithm algorithm, String column, List<Row> out, String how) {
        assertEquals(rows.size(), out.size(), how);
        java.util.Set<Integer> seen = new java.util.HashSet<>();
        int hashed = 0;
        for (Row r : out) {
            int id = r.getInt(0);
            String what = algorithm + " of " + column + ", " + how + ", row " + id;
            assertTrue(seen.add(id), what + " twice");
            Row in = rows.get(id);
            assertEquals(in.get(1), r.get(1), what + ": s changed");
            assertArrayEquals((byte[]) in.get(2), (byte[]) r.get(2), what + ": b changed");
            byte[] value = column.equals("b") ? (byte[]) in.get(2)
                    : in.isNullAt(1) ? null : in.getString(1).getBytes(StandardCharsets.UTF_8);
            if (value == null) {
                assertNull(r.get(3), what);
            } else if (algorithm.hasValue()) {
                assertEquals(oracleValue(algorithm, value), r.getLong(3), what);
                hashed++;
            } else {
                assertArrayEquals(oracleDigest(algorithm, value), (byte[]) r.get(3), what);
                hashed++;
            }
        }
        assertTrue(hashed > 300, how + ": values were hashed: " + hashed);
    }

    /** Independent implementations where the JDK or a test library has one; else the single-value native call. */
    static long oracleValue(Algorithm algorithm, byte[] b) {
        switch (algorithm) {
            case CRC32C: {
                java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
                crc.update(b);
                return crc.getValue();
            }
            case CRC_32: {
                java.util.zip.CRC32 crc = new java.util.zip.CRC32();
                crc.update(b);
                return crc.getValue();
            }
            case XXH3_64:
                return LongHashFunction.xx3().hashBytes(b);
            case XXH64:
                return LongHashFunction.xx().hashBytes(b);
            default:
                try (io.chunkhash.StreamingChecksum h = Checksums.newHasher(algorithm)) {
                    h.update(b, 0, b.length);
                    return h.getValue();
                }
        }
    }

    static byte[] oracleDigest(Algorithm algorithm, byte[] b) {
        String jdk = switch (algorithm) {
            case SHA_256 -> "SHA-256";
            case SHA_512 -> "SHA-512";
            case SHA_1 -> "SHA-1";
            case MD5 -> "MD5";
            default -> null;
        };
        if (jdk != null) {
            try {
                return MessageDigest.getInstance(jdk).digest(b);
            } catch (NoSuchAlgorithmException e) {
                throw new AssertionError(e);
            }
        }
        if (algorithm == Algorithm.BLAKE3 || algorithm == Algorithm.BLAKE3_160) {
            try (Blake3.Hasher h = new Blake3.Hasher()) {
                return h.update(b).digest(algorithm.digestLength());
            }
        }
        return Checksums.of(algorithm, b);
    }
}
