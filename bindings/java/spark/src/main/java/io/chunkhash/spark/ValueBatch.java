package io.chunkhash.spark;

import io.chunkhash.Algorithm;
import io.chunkhash.Blake3;
import io.chunkhash.Checksums;
import java.util.Arrays;
import org.apache.spark.sql.execution.vectorized.OnHeapColumnVector;
import org.apache.spark.sql.execution.vectorized.WritableColumnVector;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.unsafe.Platform;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * The values of one batch of a column in one array with Arrow-style offsets
 * (value i is {@code values[offsets[i] .. offsets[i + 1])}, a null an empty
 * range), gathered there or, where a column vector already holds them so,
 * taken in place; then hashed in one native call. Both batch paths fill it: rows
 * ({@link BatchedHash}) and column batches ({@link ColumnarHash}); reused from
 * batch to batch, so a partition allocates it once.
 */
final class ValueBatch {
    private final Algorithm algorithm;
    private byte[] values = new byte[1 << 16];
    /** The array of a column vector whose values are hashed in place, or null when they were gathered. */
    private byte[] borrowed;
    private int[] offsets;
    private boolean[] nulls;
    private int size;

    ValueBatch(Algorithm algorithm, int rows) {
        this.algorithm = algorithm;
        this.offsets = new int[rows + 1];
        this.nulls = new boolean[rows];
    }

    void clear() {
        size = 0;
        borrowed = null;
        offsets[0] = 0;
    }

    /**
     * Takes the first {@code n} values of {@code in} in place, with no copy, when the vector holds them in one
     * Java array in row order (Spark's on-heap vectors as the Parquet reader fills them): the offsets then
     * point into that array. Returns false for any other layout (a dictionary, off-heap memory, values out of
     * order), leaving the batch to be cleared and gathered. Only on an empty batch.
     */
    boolean addInPlace(WritableColumnVector in, int n) {
        if (size != 0 || in.hasDictionary()) {
            return false;
        }
        rows(n);
        byte[] base = null;
        int end = 0;
        for (int i = 0; i < n; i++) {
            nulls[i] = in.isNullAt(i);
            if (!nulls[i]) {
                int off = in.getArrayOffset(i);
                if (base == null) {
                    UTF8String first = in.getUTF8String(i);
                    if (!(first.getBaseObject() instanceof byte[] array)
                            || first.getBaseOffset() != Platform.BYTE_ARRAY_OFFSET + off) {
                        return false;
                    }
                    base = array;
                    Arrays.fill(offsets, 0, i + 1, off); // the nulls before it: empty ranges where it starts
                    end = off;
                }
                if (off != end) {
                    return false;
                }
                end = off + in.getArrayLength(i);
            }
            offsets[i + 1] = end;
        }
        if (base != null && end > base.length) {
            return false;
        }
        borrowed = base; // null when all are null: empty ranges of the batch's own array
        size = n;
        return true;
    }

    void addNull() {
        int at = offsets[size];
        room(0);
        nulls[size] = true;
        offsets[++size] = at;
    }

    void add(UTF8String value) {
        int at = offsets[size];
        room(value.numBytes());
        value.writeToMemory(values, Platform.BYTE_ARRAY_OFFSET + at);
        nulls[size] = false;
        offsets[++size] = at + value.numBytes();
    }

    void add(byte[] value) {
        int at = offsets[size];
        room(value.length);
        System.arraycopy(value, 0, values, at, value.length);
        nulls[size] = false;
        offsets[++size] = at + value.length;
    }

    /**
     * Hashes the batch in one native call into {@code out} (reset first): null where the value is null, else
     * a bigint for algorithms of at most 8 bytes ({@code out} of LongType), the digest for the others (BinaryType).
     */
    void hashInto(WritableColumnVector out) {
        out.reset();
        out.reserve(size);
        if (algorithm.hasValue()) {
            long[] v = hashValues();
            for (int i = 0; i < size; i++) {
                if (nulls[i]) out.putNull(i); else out.putLong(i, v[i]);
            }
        } else {
            int d = algorithm.digestLength();
            byte[] all = hashDigests();
            for (int i = 0; i < size; i++) {
                if (nulls[i]) out.putNull(i); else out.putByteArray(i, all, d * i, d);
            }
        }
    }

    /** A column vector for {@link #hashInto} of {@code rows} rows to start with. */
    static WritableColumnVector hashVector(Algorithm algorithm, int rows) {
        return new OnHeapColumnVector(rows, algorithm.hasValue() ? DataTypes.LongType : DataTypes.BinaryType);
    }

    /** The 64-bit values of the batch in one native call (algorithms of at most 8 bytes); null rows hash as empty values. */
    private long[] hashValues() {
        return Checksums.valueMany(algorithm, source(), usedOffsets());
    }

    /**
     * The digests of the batch in one native call, {@code size() x digestLength} bytes. A null is hashed as an
     * empty value.
     */
    private byte[] hashDigests() {
        int[] used = usedOffsets();
        byte[] source = source();
        return algorithm == Algorithm.BLAKE3 ? Blake3.hashMany(source, used)
                : algorithm == Algorithm.BLAKE3_160 ? Blake3.addressMany(source, used)
                : Checksums.ofMany(algorithm, source, used);
    }

    private byte[] source() {
        return borrowed != null ? borrowed : values;
    }

    private int[] usedOffsets() {
        return size + 1 == offsets.length ? offsets : Arrays.copyOf(offsets, size + 1);
    }

    /** Room for {@code n} rows. */
    private void rows(int n) {
        if (n > nulls.length) {
            nulls = Arrays.copyOf(nulls, Math.max(n, 2 * nulls.length));
            offsets = Arrays.copyOf(offsets, nulls.length + 1);
        }
    }

    /** Room for one more value of {@code more} bytes. */
    private void room(int more) {
        rows(size + 1);
        long need = (long) offsets[size] + more;
        if (need > values.length) {
            if (need > Integer.MAX_VALUE - 8) {
                throw new IllegalArgumentException("a batch of values over 2 GiB; use a smaller batchRows");
            }
            values = Arrays.copyOf(values, (int) Math.max(need, Math.min(2L * values.length, Integer.MAX_VALUE - 8)));
        }
    }
}
