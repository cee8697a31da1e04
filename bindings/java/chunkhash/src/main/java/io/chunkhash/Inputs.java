package io.chunkhash;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.Objects;

/** Argument checks and buffer handling shared by the public classes. */
final class Inputs {
    private Inputs() {}

    static byte[] nonNull(byte[] array, String what) {
        return Objects.requireNonNull(array, () -> what + " is null");
    }

    /** Checks {@code off}, {@code len} inside {@code array} (IndexOutOfBoundsException, as the JDK does). */
    static void checkRange(byte[] array, int off, int len) {
        nonNull(array, "input");
        Objects.checkFromIndexSize(off, len, array.length);
    }

    /** The bytes a heap buffer without an accessible array holds from its position, copied. */
    static byte[] copyRemaining(ByteBuffer buffer) {
        byte[] copy = new byte[buffer.remaining()];
        buffer.duplicate().get(copy);
        return copy;
    }

    /**
     * Checks that {@code values} and {@code offsets} are there and that offsets has
     * its n + 1 entries; returns n. That they ascend and stay inside values is
     * checked natively, in the one pass that also splits the values.
     */
    static int checkOffsets(byte[] values, int[] offsets) {
        nonNull(values, "values");
        Objects.requireNonNull(offsets, "offsets is null");
        if (offsets.length == 0) {
            throw new IllegalArgumentException("offsets is empty; n values need n + 1 offsets");
        }
        return offsets.length - 1;
    }

    /**
     * Many buffers as one native call takes them: all direct, or copied into
     * one array with offsets when any is not.
     */
    static final class Buffers {
        final ByteBuffer[] direct; // null when copied
        final int[] positions;
        final int[] lengths;
        final byte[] values; // null when direct
        final int[] offsets;
        final int count;

        Buffers(List<ByteBuffer> buffers) {
            Objects.requireNonNull(buffers, "buffers is null");
            int n = buffers.size();
            ByteBuffer[] array = buffers.toArray(new ByteBuffer[0]);
            boolean allDirect = true;
            long total = 0;
            for (int i = 0; i < n; i++) {
                if (array[i] == null) {
                    throw new NullPointerException("buffers[" + i + "] is null");
                }
                allDirect &= array[i].isDirect();
                total += array[i].remaining();
            }
            this.count = n;
            if (allDirect) {
                this.direct = array;
                this.positions = new int[n];
                this.lengths = new int[n];
                for (int i = 0; i < n; i++) {
                    positions[i] = array[i].position();
                    lengths[i] = array[i].remaining();
                }
                this.values = null;
                this.offsets = null;
            } else {
                if (total > Integer.MAX_VALUE - 8) {
                    throw new IllegalArgumentException("buffers: " + total + " bytes in all, more than one array holds");
                }
                this.direct = null;
                this.positions = null;
                this.lengths = null;
                this.values = new byte[(int) total];
                this.offsets = new int[n + 1];
                int at = 0;
                for (int i = 0; i < n; i++) {
                    ByteBuffer b = array[i].duplicate();
                    int len = b.remaining();
                    b.get(values, at, len);
                    at += len;
                    offsets[i + 1] = at;
                }
            }
        }
    }
}
