package io.chunkhash;

import java.nio.ByteBuffer;

/**
 * The native methods, implemented in Rust (crate {@code bindings/java/native}).
 * The public classes check arguments first so that their messages speak of the
 * caller's arguments; the native side checks again and never crashes the JVM.
 */
final class Native {
    static {
        NativeLoader.load();
    }

    private Native() {}

    /** BLAKE3 modes, as the native side numbers them. */
    static final int PLAIN = 0;
    static final int KEYED = 1;
    static final int DERIVE_KEY = 2;

    static native String backend();

    static native void blake3(int mode, byte[] keyOrContext, byte[] in, int off, int len, byte[] out);

    static native void blake3Direct(int mode, byte[] keyOrContext, ByteBuffer in, int pos, int len, byte[] out);

    static native long blake3HasherNew(int mode, byte[] keyOrContext);

    static native void blake3HasherUpdate(long handle, byte[] in, int off, int len);

    static native void blake3HasherUpdateDirect(long handle, ByteBuffer in, int pos, int len);

    static native void blake3HasherOutput(long handle, long position, byte[] out);

    static native void blake3HasherReset(long handle);

    static native void blake3HasherFree(long handle);

    static native void blake3Many(int mode, byte[] keyOrContext, int outLen, byte[] values, int[] offsets, byte[] out);

    static native void blake3ManyDirect(
            int mode, byte[] keyOrContext, int outLen, ByteBuffer[] buffers, int[] positions, int[] lengths, byte[] out);

    static native String algorithmName(int id);

    static native int digestLength(int id);

    static native int algorithmId(String name);

    static native void digest(int id, byte[] in, int off, int len, byte[] out);

    static native void digestDirect(int id, ByteBuffer in, int pos, int len, byte[] out);

    static native long value(int id, byte[] in, int off, int len);

    static native long valueDirect(int id, ByteBuffer in, int pos, int len);

    static native void digestMany(int id, byte[] values, int[] offsets, byte[] out);

    static native void valueMany(int id, byte[] values, int[] offsets, long[] out);

    static native void digestManyDirect(int id, ByteBuffer[] buffers, int[] positions, int[] lengths, byte[] out);

    static native long streamNew(int id);

    static native void streamUpdate(long handle, byte[] in, int off, int len);

    static native void streamUpdateDirect(long handle, ByteBuffer in, int pos, int len);

    static native void streamDigest(long handle, byte[] out);

    static native long streamValue(long handle);

    static native void streamReset(long handle);

    static native void streamFree(long handle);

    /** {@code bao}'s outboard file; the root hash goes to {@code rootOut} (32 bytes). */
    static native byte[] baoOutboard(
            int mode, byte[] keyOrContext, int groupLog, boolean postOrder, byte[] in, int off, int len, byte[] rootOut);

    static native byte[] baoOutboardDirect(int mode, byte[] keyOrContext, int groupLog, boolean postOrder, ByteBuffer in,
            int pos, int len, byte[] rootOut);

    /** The combined encoding; the root hash goes to {@code rootOut} (32 bytes). */
    static native byte[] baoEncode(int mode, byte[] keyOrContext, int groupLog, byte[] in, int off, int len, byte[] rootOut);

    /** The slice of {@code source} with {@code outboard}, or of {@code source}, an encoding, when it is null. */
    static native byte[] baoSlice(int groupLog, boolean postOrder, byte[] source, byte[] outboard, long start, long count)
            throws BaoException;

    /** The verified bytes; throws {@link BaoException}. */
    static native byte[] baoDecode(
            int mode, byte[] keyOrContext, int groupLog, byte[] root, byte[] stream, boolean whole, long start, long count)
            throws BaoException;

    /** Panics on the native side, caught there: for the test of that path only. */
    static native void panicForTests();
}
