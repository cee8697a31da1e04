package io.chunkhash;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.Objects;

/**
 * Every algorithm of the registry ({@link Algorithm}): digests as bytes (in
 * the registry's byte order, as {@code chunkhash sum} prints them), 64-bit
 * values for digests of at most 8 bytes (the bytes read big-endian: CRC32C of
 * "123456789" is 0xe3069283), batches in one native call, and streaming
 * {@link java.util.zip.Checksum}s. All methods are thread-safe. An input
 * another thread writes into while it is hashed gives the digest of some mix
 * of its old and new bytes, never a crash or a read outside it (as for
 * {@link Blake3}). Short inputs of XXH3-64, XXH3-128, CRC32C and CRC-64/NVME are hashed
 * in plain Java, where that is faster than a native call (the same values).
 */
public final class Checksums {
    private Checksums() {}

    /** The digest of {@code input}. */
    public static byte[] of(Algorithm algorithm, byte[] input) {
        return of(algorithm, Inputs.nonNull(input, "input"), 0, input.length);
    }

    /** The digest of {@code len} bytes of {@code input} from {@code off}. */
    public static byte[] of(Algorithm algorithm, byte[] input, int off, int len) {
        int id = id(algorithm);
        Inputs.checkRange(input, off, len);
        byte[] out = new byte[algorithm.digestLength()];
        if (len <= ShortPath.maxLen(algorithm)) {
            ShortPath.digest(algorithm, input, off, len, out);
        } else {
            Native.digest(id, input, off, len, out);
        }
        return out;
    }

    /** The digest of the buffer's remaining bytes (read in place when direct); the position is not moved. */
    public static byte[] of(Algorithm algorithm, ByteBuffer input) {
        int id = id(algorithm);
        Objects.requireNonNull(input, "input is null");
        if (input.isDirect()) {
            byte[] out = new byte[algorithm.digestLength()];
            Native.digestDirect(id, input, input.position(), input.remaining(), out);
            return out;
        }
        if (input.hasArray()) {
            return of(algorithm, input.array(), input.arrayOffset() + input.position(), input.remaining());
        }
        return of(algorithm, Inputs.copyRemaining(input));
    }

    /** The digest as a number, for algorithms of at most 8 bytes (CRCs, XXH32, XXH64, XXH3-64). */
    public static long value(Algorithm algorithm, byte[] input) {
        return value(algorithm, Inputs.nonNull(input, "input"), 0, input.length);
    }

    /** The digest of {@code len} bytes from {@code off} as a number. */
    public static long value(Algorithm algorithm, byte[] input, int off, int len) {
        int id = valueId(algorithm);
        Inputs.checkRange(input, off, len);
        if (len <= ShortPath.maxLen(algorithm)) {
            return ShortPath.value(algorithm, input, off, len);
        }
        return Native.value(id, input, off, len);
    }

    /** The digest of the buffer's remaining bytes as a number; the position is not moved. */
    public static long value(Algorithm algorithm, ByteBuffer input) {
        int id = valueId(algorithm);
        Objects.requireNonNull(input, "input is null");
        if (input.isDirect()) {
            return Native.valueDirect(id, input, input.position(), input.remaining());
        }
        if (input.hasArray()) {
            return value(algorithm, input.array(), input.arrayOffset() + input.position(), input.remaining());
        }
        return value(algorithm, Inputs.copyRemaining(input));
    }

    /**
     * The digests of n values in Arrow's layout (see {@link Blake3#hashMany(byte[], int[])}):
     * n x digest length bytes, in one native call.
     */
    public static byte[] ofMany(Algorithm algorithm, byte[] values, int[] offsets) {
        int id = id(algorithm);
        int n = Inputs.checkOffsets(values, offsets);
        byte[] out = new byte[Math.multiplyExact(n, algorithm.digestLength())];
        Native.digestMany(id, values, offsets, out);
        return out;
    }

    /** The digests of the buffers' remaining bytes, n x digest length bytes, in one native call. */
    public static byte[] ofMany(Algorithm algorithm, List<ByteBuffer> buffers) {
        int id = id(algorithm);
        Inputs.Buffers b = new Inputs.Buffers(buffers);
        if (b.direct == null) {
            return ofMany(algorithm, b.values, b.offsets);
        }
        byte[] out = new byte[Math.multiplyExact(b.count, algorithm.digestLength())];
        Native.digestManyDirect(id, b.direct, b.positions, b.lengths, out);
        return out;
    }

    /** The values of n values in Arrow's layout, in one native call (algorithms of at most 8 bytes). */
    public static long[] valueMany(Algorithm algorithm, byte[] values, int[] offsets) {
        int id = valueId(algorithm);
        int n = Inputs.checkOffsets(values, offsets);
        long[] out = new long[n];
        Native.valueMany(id, values, offsets, out);
        return out;
    }

    /** A streaming hasher of any algorithm; a {@link java.util.zip.Checksum} for those of at most 8 bytes. */
    public static StreamingChecksum newHasher(Algorithm algorithm) {
        return new StreamingChecksum(algorithm);
    }

    /** CRC32C (Castagnoli), as {@link java.util.zip.CRC32C} computes it. */
    public static StreamingChecksum crc32c() {
        return new StreamingChecksum(Algorithm.CRC32C);
    }

    /** CRC-32 (ISO-HDLC, zlib), as {@link java.util.zip.CRC32} computes it. */
    public static StreamingChecksum crc32() {
        return new StreamingChecksum(Algorithm.CRC_32);
    }

    /** CRC-64/NVME (S3's CRC64NVME). */
    public static StreamingChecksum crc64Nvme() {
        return new StreamingChecksum(Algorithm.CRC_64_NVME);
    }

    /** XXH3-64 with seed 0. */
    public static StreamingChecksum xxh3_64() {
        return new StreamingChecksum(Algorithm.XXH3_64);
    }

    /** XXH64 with seed 0. */
    public static StreamingChecksum xxh64() {
        return new StreamingChecksum(Algorithm.XXH64);
    }

    static int id(Algorithm algorithm) {
        return Objects.requireNonNull(algorithm, "algorithm is null").id();
    }

    static int valueId(Algorithm algorithm) {
        int id = id(algorithm);
        if (!algorithm.hasValue()) {
            throw new IllegalArgumentException(
                    algorithm + " has a " + algorithm.digestLength() + "-byte digest, not a 64-bit value; use of()");
        }
        return id;
    }
}
