package io.chunkhash;

import java.util.zip.CRC32C;

/**
 * Where a short input is hashed in plain Java instead of through JNI: a native
 * call costs about 100 ns before any byte is hashed, more than the whole hash
 * of a short value in Java. {@link #maxLen} is the longest input each
 * algorithm hashes here; each limit is the measured switch-over length (the
 * length from which the native call is faster; {@code SwitchOverBench} in the
 * tests, figures in crates/bench/runs/2026-11-28-java-and-spark), capped by what the Java code can
 * do (XXH3 up to 240 bytes). Both paths give the same values: the tests
 * compare them at every length up to 4160.
 *
 * <p>BLAKE3: {@link Blake3}'s one-shot plain and keyed calls on arrays and
 * heap buffers (not derive-key, the {@link Blake3.Hasher}, the batches or
 * direct buffers) use {@link JavaBlake3} for inputs of up to
 * {@link #BLAKE3_MAX} bytes and outputs of up to {@link #BLAKE3_OUT_MAX}: one
 * compression. Measured: 1.08-1.26x the native call at 0 and 64 bytes, but
 * 0.90-0.93x at 65 and 128 (two compressions; a scalar compression in Java
 * takes about twice the native SIMD one) and 0.60x at 1024.
 */
final class ShortPath {
    private ShortPath() {}

    /** XXH3-64 and XXH3-128: the Java code's limit (the specification's short and mid-size inputs). */
    static final int XXH3_MAX = JavaXxh3.MAX_LEN;
    /** CRC32C: {@link java.util.zip.CRC32C} (a CPU instruction where the JVM has the intrinsic). */
    static final int CRC32C_MAX = 4096;
    /** CRC-64/NVME: slicing by 8 against the native carry-less multiplication. */
    static final int CRC64_NVME_MAX = 80;
    /** BLAKE3: the longest input hashed in Java: one block (the Java code could take one chunk, 1024). */
    static final int BLAKE3_MAX = 64;
    /** BLAKE3: the longest output made in Java (each further 64 bytes cost one more compression). */
    static final int BLAKE3_OUT_MAX = 64;
    /** Per algorithm id, the longest input hashed in Java; -1 where there is no Java path. */
    private static final int[] MAX_LEN = new int[Algorithm.values().length + 1];

    static {
        java.util.Arrays.fill(MAX_LEN, -1);
        MAX_LEN[Algorithm.XXH3_64.id()] = XXH3_MAX;
        MAX_LEN[Algorithm.XXH3_128.id()] = XXH3_MAX;
        MAX_LEN[Algorithm.CRC32C.id()] = CRC32C_MAX;
        MAX_LEN[Algorithm.CRC_64_NVME.id()] = CRC64_NVME_MAX;
    }

    /** The longest input of {@code algorithm} hashed in Java ({@link #value}); -1 for none. */
    static int maxLen(Algorithm algorithm) {
        return MAX_LEN[algorithm.id()];
    }

    /** The digest of an algorithm with a Java path into {@code out} (its digest length), for {@code len <= maxLen}. */
    static void digest(Algorithm algorithm, byte[] in, int off, int len, byte[] out) {
        if (algorithm == Algorithm.XXH3_128) {
            JavaXxh3.hash128(in, off, len, out, 0);
            return;
        }
        long value = value(algorithm, in, off, len);
        for (int i = out.length - 1; i >= 0; i--, value >>>= 8) out[i] = (byte) value; // big-endian, as value()
    }

    /** The value of an algorithm with a Java path and a digest of at most 8 bytes, for {@code len <= maxLen}. */
    static long value(Algorithm algorithm, byte[] in, int off, int len) {
        switch (algorithm) {
            case XXH3_64:
                return JavaXxh3.hash64(in, off, len);
            case CRC32C:
                CRC32C crc = new CRC32C();
                crc.update(in, off, len);
                return crc.getValue();
            case CRC_64_NVME:
                return JavaCrc64Nvme.value(in, off, len);
            default:
                throw new IllegalArgumentException(algorithm + " has no Java path");
        }
    }

}
