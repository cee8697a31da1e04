package io.chunkhash.spark;

import static org.apache.spark.sql.functions.call_function;
import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.lit;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.chunkhash.Algorithm;
import io.chunkhash.Blake3;
import io.chunkhash.Checksums;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The SQL functions and the batched transform on local[2], row by row against the Java API. */
class SqlFunctionsTest {
    private static SparkSession spark;
    private static List<Row> rows;
    private static Dataset<Row> frame;

    @BeforeAll
    static void start() {
        spark = SparkSession.builder()
                .master("local[2]")
                .appName("chunkhash-spark-test")
                .config("spark.sql.extensions", ChunkhashExtensions.class.getName())
                .config("spark.ui.enabled", "false")
                .config("spark.sql.shuffle.partitions", "2")
                .getOrCreate();
        long seed = 0x737061726bL;
        String env = System.getenv("CHUNKHASH_TEST_SEED");
        if (env != null) seed = Long.parseLong(env.trim());
        System.out.println("SqlFunctionsTest: seed " + seed + " (set CHUNKHASH_TEST_SEED to replay another)");
        SplittableRandom random = new SplittableRandom(seed);
        rows = new ArrayList<>();
        // Nulls, empty values, short values of every length to 200, a few over 1 MiB, non-ASCII strings.
        rows.add(RowFactory.create(0, null, null));
        rows.add(RowFactory.create(1, "", new byte[0]));
        rows.add(RowFactory.create(2, "grüße, 世界", "grüße, 世界".getBytes(StandardCharsets.UTF_8)));
        for (int i = 3; i < 300; i++) {
            int len = i < 203 ? i - 3 : random.nextInt(3000);
            byte[] b = new byte[len];
            random.nextBytes(b);
            String s = i % 7 == 0 ? null : randomString(random, len);
            rows.add(RowFactory.create(i, s, i % 11 == 0 ? null : b));
        }
        for (int i = 300; i < 303; i++) {
            byte[] big = new byte[(1 << 20) + random.nextInt(1, 5000)];
            random.nextBytes(big);
            rows.add(RowFactory.create(i, randomString(random, big.length / 4), big));
        }
        StructType schema = new StructType()
                .add("id", DataTypes.IntegerType, false)
                .add("s", DataTypes.StringType, true)
                .add("b", DataTypes.BinaryType, true);
        frame = spark.createDataFrame(rows, schema).repartition(2).cache();
        frame.createOrReplaceTempView("t");
    }

    @AfterAll
    static void stop() {
        if (spark != null) spark.stop();
    }

    static String randomString(SplittableRandom random, int len) {
        StringBuilder sb = new StringBuilder(len);
        for (int i = 0; i < len; i++) sb.append((char) (random.nextInt(5) == 0 ? 0x4e00 + random.nextInt(500) : 'a' + random.nextInt(26)));
        return sb.toString();
    }

    /** The rows in two partitions, cached: the tests read them many times. */
    static Dataset<Row> frame() {
        return frame;
    }

    static byte[] utf8(Row row) {
        return row.isNullAt(1) ? null : row.getString(1).getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void sqlFunctionsMatchTheJavaApiRowByRow() {
        List<Row> result = spark.sql("SELECT id, s, b, blake3(b), blake3(s), blake3(b, 64), blake3_address(b),"
                + " xxh3_64(b), xxh3_64(s), xxh3_128(b), crc32c(b), crc32c(s), crc64nvme(b) FROM t").collectAsList();
        assertEquals(rows.size(), result.size());
        int nulls = 0;
        for (Row r : result) {
            byte[] b = r.isNullAt(2) ? null : (byte[]) r.get(2);
            byte[] s = utf8(r);
            String what = "row " + r.getInt(0);
            if (b == null) {
                for (int c : new int[] {3, 5, 6, 7, 9, 10, 12}) assertNull(r.get(c), what + " column " + c);
                nulls++;
            } else {
                assertArrayEquals(Blake3.hash(b), (byte[]) r.get(3), what);
                assertArrayEquals(Blake3.hash(b, 64), (byte[]) r.get(5), what);
                assertArrayEquals(Blake3.address(b), (byte[]) r.get(6), what);
                assertEquals(Checksums.value(Algorithm.XXH3_64, b), r.getLong(7), what);
                assertArrayEquals(Checksums.of(Algorithm.XXH3_128, b), (byte[]) r.get(9), what);
                assertEquals(Checksums.value(Algorithm.CRC32C, b), r.getLong(10), what);
                assertEquals(Checksums.value(Algorithm.CRC_64_NVME, b), r.getLong(12), what);
            }
            if (s == null) {
                assertNull(r.get(4), what);
                assertNull(r.get(8), what);
                assertNull(r.get(11), what);
            } else {
                assertArrayEquals(Blake3.hash(s), (byte[]) r.get(4), what);
                assertEquals(Checksums.value(Algorithm.XXH3_64, s), r.getLong(8), what);
                assertEquals(Checksums.value(Algorithm.CRC32C, s), r.getLong(11), what);
            }
        }
        assertTrue(nulls > 10, "nulls were tested");
        // The types: binary and bigint.
        StructType schema = spark.sql("SELECT blake3(b), xxh3_64(b), crc32c(s) FROM t").schema();
        assertEquals(DataTypes.BinaryType, schema.fields()[0].dataType());
        assertEquals(DataTypes.LongType, schema.fields()[1].dataType());
        assertEquals(DataTypes.LongType, schema.fields()[2].dataType());
    }

    @Test
    void dataFrameApiAndCrossChecks() {
        Row r = frame().where("id = 2")
                .select(call_function("blake3", col("s")), call_function("crc32c", col("b")), col("b"),
                        org.apache.spark.sql.functions.crc32(col("b")), call_function("blake3", lit("abc")))
                .first();
        assertArrayEquals(Blake3.hash("grüße, 世界".getBytes(StandardCharsets.UTF_8)), (byte[]) r.get(0));
        java.util.zip.CRC32C jdk = new java.util.zip.CRC32C();
        jdk.update((byte[]) r.get(2));
        assertEquals(jdk.getValue(), r.getLong(1));
        assertArrayEquals(Blake3.hash("abc".getBytes(StandardCharsets.US_ASCII)), (byte[]) r.get(4));
    }

    @Test
    void wrongArgumentCounts() {
        Throwable e = assertThrows(Exception.class, () -> spark.sql("SELECT crc32c(b, 1) FROM t").collect());
        assertTrue(messages(e).contains("crc32c takes 1 argument, got 2"), messages(e));
        e = assertThrows(Exception.class, () -> spark.sql("SELECT blake3() FROM t").collect());
        assertTrue(messages(e).contains("blake3 takes 1 or 2 arguments, got 0"), messages(e));
    }

    @Test
    void batchedTransformMatchesTheJavaApi() {
        String[][] cases = {{"BLAKE3", "b"}, {"BLAKE3", "s"}, {"BLAKE3-160", "b"}, {"XXH3-64", "s"},
                {"CRC32C", "b"}, {"SHA-256", "s"}};
        for (String[] c : cases) {
            Algorithm algorithm = Algorithm.fromName(c[0]);
            String column = c[1];
            {
                // A batch of 7 rows: batches end inside partitions, and partitions end inside batches.
                List<Row> result = BatchedHash.withHash(frame(), column, algorithm, "h", 7).collectAsList();
                assertEquals(rows.size(), result.size());
                for (Row r : result) {
                    String what = algorithm + " " + column + " row " + r.getInt(0);
                    byte[] value = column.equals("b") ? (r.isNullAt(2) ? null : (byte[]) r.get(2)) : utf8(r);
                    if (value == null) {
                        assertNull(r.get(3), what);
                    } else if (algorithm.hasValue()) {
                        assertEquals(Checksums.value(algorithm, value), r.getLong(3), what);
                    } else {
                        assertArrayEquals(Checksums.of(algorithm, value), (byte[]) r.get(3), what);
                    }
                }
            }
        }
        assertEquals(DataTypes.BinaryType,
                BatchedHash.withHash(frame(), "b", Algorithm.BLAKE3, "h").schema().apply("h").dataType());
        assertEquals(DataTypes.LongType,
                BatchedHash.withHash(frame(), "b", Algorithm.CRC32C, "h").schema().apply("h").dataType());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> BatchedHash.withHash(frame(), "id", Algorithm.BLAKE3, "h"));
        assertEquals("column id is int; binary or string expected", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> BatchedHash.withHash(frame(), "b", Algorithm.BLAKE3,
                "h", 0));
        assertEquals("batchRows 0 is below 1", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> BatchedHash.withHash(frame(), "nope", Algorithm.BLAKE3, "h"));
    }

    static String messages(Throwable e) {
        StringBuilder sb = new StringBuilder();
        for (Throwable t = e; t != null; t = t.getCause()) sb.append(t).append(" | ");
        return sb.toString();
    }
}
