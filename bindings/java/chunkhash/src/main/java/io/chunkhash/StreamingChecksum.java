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
 */
public final class StreamingChecksum implements Checksum, AutoCloseable {
    private final Algorithm algorithm;
    private final NativeHandle state;

    StreamingChecksum(Algorithm algorithm) {
        this.algorithm = algorithm;
        this.state = new NativeHandle(this, Native.streamNew(Checksums.id(algorithm)), Native::streamFree);
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
        synchronized (state) {
            Native.streamUpdate(state.get(), input, off, len);
        }
    }

    /** Adds the buffer's remaining bytes and moves its position to its limit (a direct buffer is read in place). */
    @Override
    public void update(ByteBuffer input) {
        Objects.requireNonNull(input, "input is null");
        if (input.isDirect()) {
            synchronized (state) {
                Native.streamUpdateDirect(state.get(), input, input.position(), input.remaining());
            }
        } else if (input.hasArray()) {
            update(input.array(), input.arrayOffset() + input.position(), input.remaining());
        } else {
            byte[] copy = Inputs.copyRemaining(input);
            update(copy, 0, copy.length);
        }
        input.position(input.limit());
    }

    /** The digest of all input so far; more input may follow. */
    public byte[] digest() {
        byte[] out = new byte[algorithm.digestLength()];
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
    public long getValue() {
        if (!algorithm.hasValue()) {
            throw new IllegalStateException(algorithm + " has a " + algorithm.digestLength()
                    + "-byte digest, not a 64-bit value; use digest()");
        }
        synchronized (state) {
            return Native.streamValue(state.get());
        }
    }

    @Override
    public void reset() {
        synchronized (state) {
            Native.streamReset(state.get());
        }
    }

    /** Frees the native state; further use throws {@link IllegalStateException}. */
    @Override
    public void close() {
        state.close();
    }
}
