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
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import net.openhft.hashing.LongHashFunction;

/** The SQL functions and the batched transform on local[2], row by row against oracles and the Java API. */
class SqlFunctionsTest {
    private static SparkSession spark;
    private static List<Row> rows;
    private static Dataset<Row> frame;

    @BeforeAll
    static void start() {
        spark = TestSession.get();
        long seed = TestSession.seed("SqlFunctionsTest", 0x737061726bL);
        SplittableRandom random = new SplittableRandom(seed);
        rows = new ArrayList<>();
        // Nulls, empty values, non-ASCII strings; binary values of every length to 260 and on both sides of each
        // switch-over between the Java and native paths (80, 240, 4096 bytes; io.chunkhash.ShortPath), random
        // lengths to 5000, and (below) a few over 1 MiB.
        rows.add(RowFactory.create(0, null, null));
        rows.add(RowFactory.create(1, "", new byte[0]));
        rows.add(RowFactory.create(2, "grüße, 世界", "grüße, 世界".getBytes(StandardCharsets.UTF_8)));
        List<Integer> lengths = new ArrayList<>();
        for (int len = 0; len <= 260; len++) lengths.add(len);
        for (int around : new int[] {1024, 4096, 4160}) {
            for (int len = around - 3; len <= around + 3; len++) lengths.add(len);
        }
        while (lengths.size() < 340) lengths.add(random.nextInt(5000));
        for (int i = 3; i < 3 + lengths.size(); i++) {
            int len = lengths.get(i - 3);
            byte[] b = new byte[len];
            random.nextBytes(b);
            String s = i % 7 == 0 ? null : randomString(random, len);
            rows.add(RowFactory.create(i, s, i % 11 == 0 ? null : b));
        }
        for (int i = 3 + lengths.size(), end = i + 3; i < end; i++) {
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

    /**
     * Every function on every row, with whole-stage code generation on and off, against oracles that do not
     * share the library's plain-Java short paths: the JDK's CRC32C, zero-allocation-hashing's XXH3, and the
     * native batch calls (one native call per value list) for the rest.
     */
    @ParameterizedTest(name = "spark.sql.codegen.wholeStage={0}")
    @ValueSource(booleans = {true, false})
    void sqlFunctionsMatchTheOraclesRowByRow(boolean wholeStage) {
        // Columns 14-19: strings that start inside their array (substring shares it), and extended output.
        String query = "SELECT id, s, b, blake3(b), blake3(s), blake3(b, 64), blake3_address(b),"
                + " xxh3_64(b), xxh3_64(s), xxh3_128(b), crc32c(b), crc32c(s), crc64nvme(b), crc64nvme(s),"
                + " blake3(substring(s, 3)), blake3_address(substring(s, 3)), xxh3_64(substring(s, 3)),"
                + " xxh3_128(substring(s, 3)), crc32c(substring(s, 3)), blake3(s, 40) FROM t";
        List<Row> result;
        String previous = spark.conf().get("spark.sql.codegen.wholeStage");
        spark.conf().set("spark.sql.codegen.wholeStage", wholeStage);
        try {
            Dataset<Row> df = spark.sql(query);
            result = df.collectAsList();
            // Whole-stage code calls the functions' static methods directly; with it off there is no such stage.
            // (Read after the query ran: adaptive execution settles the final plan then.)
            String plan = codegen(df);
            for (String method : new String[] {"blake3", "blake3Address", "xxh3_64", "xxh3_128", "crc32c",
                    "crc64nvme"}) {
                assertEquals(wholeStage, plan.contains("io.chunkhash.spark.SqlFunctions." + method + "("), method);
            }
        } finally {
            spark.conf().set("spark.sql.codegen.wholeStage", previous);
        }
        assertEquals(rows.size(), result.size());
        int nulls = 0;
        int checked = 0;
        for (Row r : result) {
            byte[] b = r.isNullAt(2) ? null : (byte[]) r.get(2);
            byte[] s = utf8(r);
            String what = "row " + r.getInt(0) + (wholeStage ? "" : ", no whole-stage codegen");
            if (b == null) {
                for (int c : new int[] {3, 5, 6, 7, 9, 10, 12}) assertNull(r.get(c), what + " column " + c);
                nulls++;
            } else {
                assertArrayEquals(Blake3.hashMany(b, new int[] {0, b.length}), (byte[]) r.get(3), what);
                assertArrayEquals(DifferentialOracles.blake3(b, 64), (byte[]) r.get(5), what);
                assertArrayEquals(Blake3.addressMany(b, new int[] {0, b.length}), (byte[]) r.get(6), what);
                assertEquals(LongHashFunction.xx3().hashBytes(b), r.getLong(7), what);
                assertArrayEquals(Checksums.ofMany(Algorithm.XXH3_128, b, new int[] {0, b.length}),
                        (byte[]) r.get(9), what);
                assertEquals(DifferentialOracles.crc32c(b), r.getLong(10), what);
                assertEquals(Checksums.valueMany(Algorithm.CRC_64_NVME, b, new int[] {0, b.length})[0],
                        r.getLong(12), what);
                checked++;
            }
            if (s == null) {
                for (int c : new int[] {4, 8, 11, 13, 14, 15, 16, 17, 18, 19}) {
                    assertNull(r.get(c), what + " column " + c);
                }
            } else {
                String text = r.getString(1);
                byte[] tail = (text.length() >= 2 ? text.substring(2) : "").getBytes(StandardCharsets.UTF_8);
                assertArrayEquals(Blake3.hashMany(tail, new int[] {0, tail.length}), (byte[]) r.get(14), what);
                assertArrayEquals(Blake3.addressMany(tail, new int[] {0, tail.length}), (byte[]) r.get(15), what);
                assertEquals(LongHashFunction.xx3().hashBytes(tail), r.getLong(16), what);
                assertArrayEquals(Checksums.ofMany(Algorithm.XXH3_128, tail, new int[] {0, tail.length}),
                        (byte[]) r.get(17), what);
                assertEquals(DifferentialOracles.crc32c(tail), r.getLong(18), what);
                assertArrayEquals(DifferentialOracles.blake3(s, 40), (byte[]) r.get(19), what);
                assertArrayEquals(Blake3.hashMany(s, new int[] {0, s.length}), (byte[]) r.get(4), what);
                assertEquals(LongHashFunction.xx3().hashBytes(s), r.getLong(8), what);
                assertEquals(DifferentialOracles.crc32c(s), r.getLong(11), what);
                assertEquals(Checksums.valueMany(Algorithm.CRC_64_NVME, s, new int[] {0, s.length})[0],
                        r.getLong(13), what);
            }
        }
        assertTrue(nulls > 10, "nulls were tested");
        assertTrue(checked > 300, "values were tested: " + checked);
        // The types: binary and bigint.
        StructType schema = spark.sql("SELECT blake3(b), xxh3_64(b), crc32c(s) FROM t").schema();
        assertEquals(DataTypes.BinaryType, schema.fields()[0].dataType());
        assertEquals(DataTypes.LongType, schema.fields()[1].dataType());
        assertEquals(DataTypes.LongType, schema.fields()[2].dataType());
    }

    /** The whole-stage generated code of a query's physical plan ("" parts where a stage has none). */
    static String codegen(Dataset<Row> df) {
        org.apache.spark.sql.execution.SparkPlan plan =
                ((org.apache.spark.sql.classic.Dataset<Row>) df).queryExecution().executedPlan();
        return org.apache.spark.sql.execution.debug.package$.MODULE$.codegenString(plan);
    }

    /** Oracles for the tests, independent of chunkhash's Java paths. */
    static final class DifferentialOracles {
        static long crc32c(byte[] b) {
            java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
            crc.update(b);
            return crc.getValue();
        }

        /** BLAKE3 extended output through the native incremental hasher. */
        static byte[] blake3(byte[] b, int length) {
            try (Blake3.Hasher h = new Blake3.Hasher()) {
                return h.update(b).digest(length);
            }
        }
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
