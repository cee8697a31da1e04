package io.chunkhash;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Objects;

/**
 * BLAKE3 through chunkhash's Rust implementation (SIMD kernels chosen for the
 * CPU at run time): one-shot hashes, keyed hashes and key derivation, any
 * output length, 20-byte addresses, an incremental {@link Hasher}, and batches
 * of many values in one native call ({@link #hashMany}).
 *
 * <p>All methods are thread-safe. Null arguments throw {@link NullPointerException};
 * a key that is not 32 bytes, negative lengths and bad offsets throw
 * {@link IllegalArgumentException}; an {@code (off, len)} outside an array throws
 * {@link IndexOutOfBoundsException}.
 *
 * <p>An array or buffer another thread writes into while it is hashed gives the
 * digest of some mix of its old and new bytes, never a crash or a read outside
 * it: the native side reads the length fixed at the call (an array's length,
 * a direct buffer's capacity). Hash it again once the writes are done.
 */
public final class Blake3 {
    /** Bytes in a default-length hash. */
    public static final int OUT_LEN = 32;
    /** Bytes in a key. */
    public static final int KEY_LEN = 32;
    /** Bytes in an address: the first 20 bytes of the hash. */
    public static final int ADDRESS_LEN = 20;

    private Blake3() {}

    /** The SIMD backend in use: {@code avx512}, {@code avx2}, {@code sse41}, {@code neon}, {@code portable}, ... */
    public static String backend() {
        return Native.backend();
    }

    /** The 32-byte hash of {@code input}. */
    public static byte[] hash(byte[] input) {
        return hash(Inputs.nonNull(input, "input"), 0, input.length);
    }

    /** The 32-byte hash of {@code len} bytes of {@code input} from {@code off}. */
    public static byte[] hash(byte[] input, int off, int len) {
        return output(Native.PLAIN, null, input, off, len, OUT_LEN);
    }

    /** The first {@code length} bytes of the extended output (XOF) for {@code input}; the first 32 are the hash. */
    public static byte[] hash(byte[] input, int length) {
        return output(Native.PLAIN, null, Inputs.nonNull(input, "input"), 0, input.length, length);
    }

    /**
     * The hash of the buffer's remaining bytes; the position is not moved. A
     * direct buffer is read in place, a heap buffer from its array, without a copy.
     */
    public static byte[] hash(ByteBuffer input) {
        return output(Native.PLAIN, null, input, OUT_LEN);
    }

    /** The 32-byte keyed hash (a MAC) of {@code input} under a 32-byte key. */
    public static byte[] keyedHash(byte[] key, byte[] input) {
        return output(Native.KEYED, checkKey(key), Inputs.nonNull(input, "input"), 0, input.length, OUT_LEN);
    }

    /** The keyed hash of the buffer's remaining bytes. */
    public static byte[] keyedHash(byte[] key, ByteBuffer input) {
        return output(Native.KEYED, checkKey(key), input, OUT_LEN);
    }

    /** A 32-byte key derived from key material under a context string (BLAKE3's derive_key mode). */
    public static byte[] deriveKey(String context, byte[] keyMaterial) {
        return deriveKey(context, keyMaterial, OUT_LEN);
    }

    /** {@code length} bytes of key derived from key material under a context string. */
    public static byte[] deriveKey(String context, byte[] keyMaterial, int length) {
        return output(Native.DERIVE_KEY, contextBytes(context), Inputs.nonNull(keyMaterial, "key material"), 0,
                keyMaterial.length, length);
    }

    /** The 20-byte address of {@code input}: the first 20 bytes of its hash. */
    public static byte[] address(byte[] input) {
        return output(Native.PLAIN, null, Inputs.nonNull(input, "input"), 0, input.length, ADDRESS_LEN);
    }

    /** The address of the buffer's remaining bytes. */
    public static byte[] address(ByteBuffer input) {
        return output(Native.PLAIN, null, input, ADDRESS_LEN);
    }

    /**
     * The hashes of n values laid out as in Arrow: value {@code i} is
     * {@code values[offsets[i] .. offsets[i + 1]]}, so {@code offsets} has n + 1
     * ascending entries inside {@code values}. Returns n x 32 bytes, hash {@code i}
     * at {@code 32 * i}. One native call hashes all of them, short ones side by
     * side in the SIMD lanes.
     */
    public static byte[] hashMany(byte[] values, int[] offsets) {
        return many(Native.PLAIN, null, OUT_LEN, values, offsets);
    }

    /** The keyed hashes of n values (layout as in {@link #hashMany(byte[], int[])}). */
    public static byte[] keyedHashMany(byte[] key, byte[] values, int[] offsets) {
        return many(Native.KEYED, checkKey(key), OUT_LEN, values, offsets);
    }

    /** The 20-byte addresses of n values: n x 20 bytes (layout as in {@link #hashMany(byte[], int[])}). */
    public static byte[] addressMany(byte[] values, int[] offsets) {
        return many(Native.PLAIN, null, ADDRESS_LEN, values, offsets);
    }

    /** The hashes of the buffers' remaining bytes, n x 32 bytes, in one native call. */
    public static byte[] hashMany(List<ByteBuffer> buffers) {
        return many(Native.PLAIN, null, OUT_LEN, buffers);
    }

    /** The addresses of the buffers' remaining bytes, n x 20 bytes, in one native call. */
    public static byte[] addressMany(List<ByteBuffer> buffers) {
        return many(Native.PLAIN, null, ADDRESS_LEN, buffers);
    }

    static byte[] checkKey(byte[] key) {
        Objects.requireNonNull(key, "key is null");
        if (key.length != KEY_LEN) {
            throw new IllegalArgumentException("key: " + key.length + " bytes, a BLAKE3 key is " + KEY_LEN);
        }
        return key;
    }

    static byte[] contextBytes(String context) {
        return Objects.requireNonNull(context, "context is null").getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] output(int mode, byte[] keyOrContext, byte[] input, int off, int len, int length) {
        Inputs.checkRange(input, off, len);
        checkLength(length);
        byte[] out = new byte[length];
        // One block in, one block out: one compression in Java beats the native call (ShortPath). Derive-key
        // stays native: hashing its context first makes two compressions, where the call is as fast.
        if (len <= ShortPath.BLAKE3_MAX && length <= ShortPath.BLAKE3_OUT_MAX && mode != Native.DERIVE_KEY) {
            int[] key = mode == Native.KEYED ? JavaBlake3.keyWords(keyOrContext) : JavaBlake3.IV;
            JavaBlake3.hash(key, mode == Native.KEYED ? JavaBlake3.KEYED_HASH : 0, input, off, len, out);
            return out;
        }
        Native.blake3(mode, keyOrContext, input, off, len, out);
        return out;
    }

    private static byte[] output(int mode, byte[] keyOrContext, ByteBuffer input, int length) {
        Objects.requireNonNull(input, "input is null");
        if (input.isDirect()) {
            byte[] out = new byte[length];
            Native.blake3Direct(mode, keyOrContext, input, input.position(), input.remaining(), out);
            return out;
        }
        if (input.hasArray()) {
            return output(mode, keyOrContext, input.array(), input.arrayOffset() + input.position(),
                    input.remaining(), length);
        }
        byte[] copy = Inputs.copyRemaining(input); // a read-only heap buffer
        return output(mode, keyOrContext, copy, 0, copy.length, length);
    }

    private static void checkLength(int length) {
        if (length < 0) {
            throw new IllegalArgumentException("output length " + length + " is negative");
        }
    }

    private static byte[] many(int mode, byte[] keyOrContext, int outLen, byte[] values, int[] offsets) {
        int n = Inputs.checkOffsets(values, offsets);
        byte[] out = new byte[Math.multiplyExact(n, outLen)];
        Native.blake3Many(mode, keyOrContext, outLen, values, offsets, out);
        return out;
    }

    private static byte[] many(int mode, byte[] keyOrContext, int outLen, List<ByteBuffer> buffers) {
        Inputs.Buffers b = new Inputs.Buffers(buffers);
        if (b.direct == null) {
            return many(mode, keyOrContext, outLen, b.values, b.offsets);
        }
        byte[] out = new byte[Math.multiplyExact(b.count, outLen)];
        Native.blake3ManyDirect(mode, keyOrContext, outLen, b.direct, b.positions, b.lengths, out);
        return out;
    }

    /**
     * Incremental BLAKE3: {@link #update} any number of times, then {@link #digest}
     * (the hasher stays usable: more input may follow). Holds native memory:
     * close it (try-with-resources), or the cleaner frees it once the hasher
     * is unreachable. Calls on one hasher from several threads are serialised.
     */
    public static final class Hasher implements AutoCloseable {
        private final NativeHandle state;

        private Hasher(int mode, byte[] keyOrContext) {
            this.state = new NativeHandle(this, Native.blake3HasherNew(mode, keyOrContext), Native::blake3HasherFree);
        }

        /** A hasher of plain hashes. */
        public Hasher() {
            this(Native.PLAIN, null);
        }

        /** A hasher of keyed hashes under a 32-byte key. */
        public static Hasher keyed(byte[] key) {
            return new Hasher(Native.KEYED, checkKey(key));
        }

        /** A hasher that derives keys from key material under a context string. */
        public static Hasher deriveKey(String context) {
            return new Hasher(Native.DERIVE_KEY, contextBytes(context));
        }

        public Hasher update(byte[] input) {
            return update(Inputs.nonNull(input, "input"), 0, input.length);
        }

        public Hasher update(byte[] input, int off, int len) {
            Inputs.checkRange(input, off, len);
            synchronized (state) {
                Native.blake3HasherUpdate(state.get(), input, off, len);
            }
            return this;
        }

        /** Adds the buffer's remaining bytes and moves its position to its limit. */
        public Hasher update(ByteBuffer input) {
            Objects.requireNonNull(input, "input is null");
            if (input.isDirect()) {
                synchronized (state) {
                    Native.blake3HasherUpdateDirect(state.get(), input, input.position(), input.remaining());
                }
            } else if (input.hasArray()) {
                update(input.array(), input.arrayOffset() + input.position(), input.remaining());
            } else {
                update(Inputs.copyRemaining(input));
            }
            input.position(input.limit());
            return this;
        }

        /** The 32-byte hash of all input so far. */
        public byte[] digest() {
            return digest(OUT_LEN);
        }

        /** The first {@code length} bytes of the extended output of all input so far. */
        public byte[] digest(int length) {
            checkLength(length);
            byte[] out = new byte[length];
            output(0, out);
            return out;
        }

        /** Fills {@code out} with extended output from byte {@code position} on (seeking in the XOF stream). */
        public void output(long position, byte[] out) {
            Objects.requireNonNull(out, "out is null");
            if (position < 0) {
                throw new IllegalArgumentException("output position " + position + " is negative");
            }
            synchronized (state) {
                Native.blake3HasherOutput(state.get(), position, out);
            }
        }

        /** Forgets all input: the hasher is as new, in the same mode. */
        public Hasher reset() {
            synchronized (state) {
                Native.blake3HasherReset(state.get());
            }
            return this;
        }

        /** Frees the native state; further use throws {@link IllegalStateException}. Closing twice is harmless. */
        @Override
        public void close() {
            state.close();
        }
    }
}
