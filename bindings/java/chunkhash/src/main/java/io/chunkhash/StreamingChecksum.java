package io.chunkhash;

import java.nio.ByteBuffer;
import java.util.Objects;
import java.util.zip.Checksum;

/**
 * Incremental hashing with any registry algorithm, and a
 * {@link java.util.zip.Checksum} for those whose digest fits in a long (CRC32C,
 * CRC-32, CRC-64/NVME, XXH3-64, XXH64, XXH32): {@link #getValue} is the digest
 * read big-endian. Holds native memory: close it, or the cleaner frees it once
 * unreachable. Calls on one instance from several threads are serialised.
 *
 * <p>For the algorithms with a plain-Java path (XXH3-64, XXH3-128, CRC32C, CRC-64/NVME),
 * input is kept in Java while it is no longer than that path's limit and
 * hashed there; the native state is made only when more arrives, and fed what
 * was kept. The values are the same either way.
 */
public final class StreamingChecksum implements Checksum, AutoCloseable {
    private final Algorithm algorithm;
    /** The input kept in Java (null: none is, every byte goes to the native state). */
    private final byte[] pending;
    private int pendingLen;
    /** Whether the input since the last reset is all in {@code pending}. */
    private boolean inJava;
    /** The native state, made at the first input that does not fit in {@code pending}. */
    private NativeHandle state;
    private boolean closed;

    StreamingChecksum(Algorithm algorithm) {
        this.algorithm = algorithm;
        int javaMax = ShortPath.maxLen(algorithm);
        this.pending = javaMax > 0 ? new byte[javaMax] : null;
        this.inJava = pending != null;
        if (pending == null) {
            this.state = newState();
        }
    }

    private NativeHandle newState() {
        return new NativeHandle(this, Native.streamNew(Checksums.id(algorithm)), Native::streamFree);
    }

    public Algorithm algorithm() {
        return algorithm;
    }

    @Override
    public void update(int b) {
        update(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void update(byte[] input, int off, int len) {
        Inputs.checkRange(input, off, len);
        synchronized (this) {
            if (keep(len)) {
                System.arraycopy(input, off, pending, pendingLen, len);
                pendingLen += len;
                return;
            }
            NativeHandle s = nativeState();
            synchronized (s) {
                Native.streamUpdate(s.get(), input, off, len);
            }
        }
    }

    /** Adds the buffer's remaining bytes and moves its position to its limit (a direct buffer is read in place). */
    @Override
    public void update(ByteBuffer input) {
        Objects.requireNonNull(input, "input is null");
        if (input.isDirect()) {
            synchronized (this) {
                if (keep(input.remaining())) {
                    int n = input.remaining();
                    input.duplicate().get(pending, pendingLen, n);
                    pendingLen += n;
                } else {
                    NativeHandle s = nativeState();
                    synchronized (s) {
                        Native.streamUpdateDirect(s.get(), input, input.position(), input.remaining());
                    }
                }
            }
        } else if (input.hasArray()) {
            update(input.array(), input.arrayOffset() + input.position(), input.remaining());
        } else {
            byte[] copy = Inputs.copyRemaining(input);
            update(copy, 0, copy.length);
        }
        input.position(input.limit());
    }

    /** Whether {@code len} more bytes stay in Java; checks that the hasher is open. Under this object's lock. */
    private boolean keep(int len) {
        checkOpen();
        return inJava && len <= pending.length - pendingLen;
    }

    /** The native state holding all input so far (the kept input moved into it). Under this object's lock. */
    private NativeHandle nativeState() {
        if (state == null) {
            state = newState();
        }
        if (inJava) {
            synchronized (state) {
                long handle = state.get();
                Native.streamReset(handle);
                Native.streamUpdate(handle, pending, 0, pendingLen);
            }
            inJava = false;
        }
        return state;
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("the hasher is closed");
        }
    }

    /** The digest of all input so far; more input may follow. */
    public synchronized byte[] digest() {
        byte[] out = new byte[algorithm.digestLength()];
        checkOpen();
        if (inJava) {
            ShortPath.digest(algorithm, pending, 0, pendingLen, out);
            return out;
        }
        synchronized (state) {
            Native.streamDigest(state.get(), out);
        }
        return out;
    }

    /**
     * The digest so far as a number; {@link IllegalStateException} for an
     * algorithm whose digest is longer than 8 bytes.
     */
    @Override
    public synchronized long getValue() {
        if (!algorithm.hasValue()) {
            throw new IllegalStateException(algorithm + " has a " + algorithm.digestLength()
                    + "-byte digest, not a 64-bit value; use digest()");
        }
        checkOpen();
        if (inJava) {
            return ShortPath.value(algorithm, pending, 0, pendingLen);
        }
        synchronized (state) {
            return Native.streamValue(state.get());
        }
    }

    @Override
    public synchronized void reset() {
        checkOpen();
        pendingLen = 0;
        if (pending != null) {
            inJava = true; // the native state, if any, is reset when next needed
        } else {
            synchronized (state) {
                Native.streamReset(state.get());
            }
        }
    }

    /** Frees the native state; further use throws {@link IllegalStateException}. Closing twice is harmless. */
    @Override
    public synchronized void close() {
        closed = true;
        if (state != null) {
            state.close();
        }
    }
}
