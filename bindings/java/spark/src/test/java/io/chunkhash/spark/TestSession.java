package io.chunkhash.spark;

import org.apache.spark.sql.SparkSession;

/**
 * The one local[2] session every Spark test class shares (a session takes
 * seconds to start on the test machine). Made at first use and left running:
 * Spark's own shutdown hook stops it when Surefire's JVM exits.
 */
final class TestSession {
    private static SparkSession spark;

    private TestSession() {}

    static synchronized SparkSession get() {
        if (spark == null) {
            spark = SparkSession.builder()
                    .master("local[2]")
                    .appName("chunkhash-spark-test")
                    .config("spark.sql.extensions", ChunkhashExtensions.class.getName())
                    .config("spark.ui.enabled", "false")
                    .config("spark.sql.shuffle.partitions", "2")
                    .getOrCreate();
        }
        return spark;
    }

    /** The seed of a test's random values: {@code fallback}, or CHUNKHASH_TEST_SEED when set; printed. */
    static long seed(String test, long fallback) {
        String env = System.getenv("CHUNKHASH_TEST_SEED");
        long seed = env == null ? fallback : Long.parseLong(env.trim());
        System.out.println(test + ": seed " + seed + " (set CHUNKHASH_TEST_SEED to replay another)");
        return seed;
    }
}
