package io.chunkhash.spark;

import io.chunkhash.Algorithm;
import io.chunkhash.Blake3;
import io.chunkhash.Checksums;

/**
 * The bodies of the SQL functions: static methods that Spark's generated code
 * calls directly, one value per call (a string arrives as its UTF-8 bytes;
 * null never arrives: the expression is null for a null input).
 */
public final class SqlFunctions {
    private SqlFunctions() {}

    public static byte[] blake3(byte[] value) {
        return Blake3.hash(value);
    }

    public static byte[] blake3(byte[] value, int length) {
        return Blake3.hash(value, length);
    }

    public static byte[] blake3Address(byte[] value) {
        return Blake3.address(value);
    }

    public static long xxh3_64(byte[] value) {
        return Checksums.value(Algorithm.XXH3_64, value);
    }

    public static byte[] xxh3_128(byte[] value) {
        return Checksums.of(Algorithm.XXH3_128, value);
    }

    public static long crc32c(byte[] value) {
        return Checksums.value(Algorithm.CRC32C, value);
    }

    public static long crc64nvme(byte[] value) {
        return Checksums.value(Algorithm.CRC_64_NVME, value);
    }
}
