package io.chunkhash.spark;

import io.chunkhash.Algorithm;
import io.chunkhash.Blake3;
import io.chunkhash.Checksums;
import java.util.Arrays;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.Objects;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.rdd.RDD;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.catalyst.expressions.JoinedRow;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.unsafe.types.UTF8String;
import scala.reflect.ClassTag$;

/**
 * A DataFrame transform that hashes one column in batches of rows: the values
 * of a batch are gathered into one array with Arrow-style offsets and hashed in
 * one native call ({@link Blake3#hashMany}, {@link Checksums#ofMany}), BLAKE3's
 * short values side by side in the SIMD lanes. The result is the input with one
 * more column: binary for BLAKE3 (32 bytes), BLAKE3-160 (the 20-byte address) and
 * digests longer than 8 bytes, bigint for the others; null where the input is null.
 *
 * <p>Works on the rows Spark holds internally (no conversion to {@link Row}),
 * in the classic (not Connect) API.
 */
public final class BatchedHash {
    /** Rows per native call unless told otherwise. */
    public static final int DEFAULT_BATCH = 1024;

    private BatchedHash() {}

    public static Dataset<Row> withHash(Dataset<Row> df, String inputColumn, Algorithm algorithm, String outputColumn) {
        return withHash(df, inputColumn, algorithm, outputColumn, DEFAULT_BATCH);
    }

    public static Dataset<Row> withHash(Dataset<Row> df, String inputColumn, Algorithm algorithm, String outputColumn,
            int batchRows) {
        Objects.requireNonNull(df, "df is null");
        Objects.requireNonNull(algorithm, "algorithm is null");
        Objects.requireNonNull(outputColumn, "outputColumn is null");
        if (batchRows < 1) {
            throw new IllegalArgumentException("batchRows " + batchRows + " is below 1");
        }
        StructType schema = df.schema();
        int column = schema.fieldIndex(inputColumn); // IllegalArgumentException naming the column
        DataType type = schema.fields()[column].dataType();
        if (!type.equals(DataTypes.BinaryType) && !type.equals(DataTypes.StringType)) {
            throw new IllegalArgumentException(
                    "column " + inputColumn + " is " + type.simpleString() + "; binary or string expected");
        }
        boolean string = type.equals(DataTypes.StringType);
        boolean asLong = algorithm.hasValue();
        StructType out = schema.add(new StructField(outputColumn,
                asLong ? DataTypes.LongType : DataTypes.BinaryType, true, org.apache.spark.sql.types.Metadata.empty()));

        org.apache.spark.sql.classic.Dataset<Row> classic = (org.apache.spark.sql.classic.Dataset<Row>) df;
        RDD<InternalRow> rows = classic.queryExecution().toRdd();
        JavaRDD<InternalRow> hashed = JavaRDD.fromRDD(rows, ClassTag$.MODULE$.apply(InternalRow.class))
                .mapPartitions(partition -> new Batches(partition, column, string, algorithm, batchRows));
        return classic.sparkSession().internalCreateDataFrame(hashed.rdd(), out, false);
    }

    /** The rows of one partition, each joined with its hash, hashed a batch at a time. */
    private static final class Batches implements Iterator<InternalRow> {
        private final Iterator<InternalRow> input;
        private final int column;
        private final boolean string;
        private final Algorithm algorithm;
        private final InternalRow[] rows;
        private final boolean[] nulls;
        private final int[] offsets;
        private byte[] values = new byte[1 << 16];
        private Object[] hashes;
        private int size;
        private int next;

        Batches(Iterator<InternalRow> input, int column, boolean string, Algorithm algorithm, int batchRows) {
            this.input = input;
            this.column = column;
            this.string = string;
            this.algorithm = algorithm;
            this.rows = new InternalRow[batchRows];
            this.nulls = new boolean[batchRows];
            this.offsets = new int[batchRows + 1];
        }

        @Override
        public boolean hasNext() {
            return next < size || input.hasNext();
        }

        @Override
        public InternalRow next() {
            if (next == size) {
                fill();
            }
            Object hash = hashes[next];
            InternalRow row = rows[next];
            rows[next] = null;
            next++;
            return new JoinedRow(row, new GenericInternalRow(new Object[] {hash}));
        }

        private void fill() {
            if (!input.hasNext()) {
                throw new NoSuchElementException();
            }
            int n = 0;
            int at = 0;
            while (n < rows.length && input.hasNext()) {
                InternalRow row = input.next().copy(); // the iterator reuses its row
                rows[n] = row;
                nulls[n] = row.isNullAt(column);
                if (!nulls[n]) {
                    if (string) {
                        UTF8String s = row.getUTF8String(column);
                        at = ensure(at, s.numBytes());
                        s.writeToMemory(values, org.apache.spark.unsafe.Platform.BYTE_ARRAY_OFFSET + at);
                        at += s.numBytes();
                    } else {
                        byte[] b = row.getBinary(column);
                        at = ensure(at, b.length);
                        System.arraycopy(b, 0, values, at, b.length);
                        at += b.length;
                    }
                }
                n++;
                offsets[n] = at;
            }
            int[] used = n == rows.length ? offsets : Arrays.copyOf(offsets, n + 1);
            hashes = new Object[n];
            if (algorithm.hasValue()) {
                long[] v = Checksums.valueMany(algorithm, values, used);
                for (int i = 0; i < n; i++) hashes[i] = nulls[i] ? null : v[i];
            } else {
                int d = algorithm.digestLength();
                byte[] all = algorithm == Algorithm.BLAKE3 ? Blake3.hashMany(values, used)
                        : algorithm == Algorithm.BLAKE3_160 ? Blake3.addressMany(values, used)
                        : Checksums.ofMany(algorithm, values, used);
                for (int i = 0; i < n; i++) {
                    hashes[i] = nulls[i] ? null : Arrays.copyOfRange(all, d * i, d * i + d);
                }
            }
            size = n;
            next = 0;
        }

        /** Room for {@code more} bytes after {@code at}; returns {@code at}. */
        private int ensure(int at, int more) {
            long need = (long) at + more;
            if (need > values.length) {
                if (need > Integer.MAX_VALUE - 8) {
                    throw new IllegalArgumentException("a batch of values over 2 GiB; use a smaller batchRows");
                }
                values = Arrays.copyOf(values, (int) Math.max(need, Math.min(2L * values.length, Integer.MAX_VALUE - 8)));
            }
            return at;
        }
    }

}
