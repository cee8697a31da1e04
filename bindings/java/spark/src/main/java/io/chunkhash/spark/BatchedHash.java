package io.chunkhash.spark;

import io.chunkhash.Algorithm;
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
import org.apache.spark.sql.execution.SparkPlan;
import org.apache.spark.sql.execution.vectorized.WritableColumnVector;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import scala.reflect.ClassTag$;

/**
 * A DataFrame transform that hashes one column in batches: the values of a
 * batch are gathered into one array with Arrow-style offsets and hashed in one
 * native call ({@link io.chunkhash.Blake3#hashMany}, {@link io.chunkhash.Checksums#ofMany}),
 * BLAKE3's and SHA-256's short values side by side in the SIMD lanes. The result
 * is the input with one more column: binary for BLAKE3 (32 bytes), BLAKE3-160 (the
 * 20-byte address) and digests longer than 8 bytes, bigint for the others; null
 * where the input is null.
 *
 * <p>Where the DataFrame is a scan Spark reads in column batches (Parquet or ORC
 * through the vectorized readers, Spark's default; nothing between the read and
 * this call but a choice of columns that the scan itself does), each of Spark's
 * column batches is hashed as it comes, with no row made before the hash
 * ({@link ColumnarHash}); {@code batchRows} is then the reader's batch size
 * ({@code spark.sql.parquet.columnarReaderBatchSize}, 4096). Otherwise the rows
 * are gathered {@code batchRows} at a time. Both work on the rows and columns
 * Spark holds internally (no conversion to {@link Row}), in the classic (not
 * Connect) API.
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
        SparkPlan columnar = ColumnarHash.source(classic);
        RDD<InternalRow> hashed;
        if (columnar != null) {
            hashed = ColumnarHash.hash(columnar, column, string, algorithm);
        } else {
            RDD<InternalRow> rows = classic.queryExecution().toRdd();
            hashed = JavaRDD.fromRDD(rows, ClassTag$.MODULE$.apply(InternalRow.class))
                    .mapPartitions(partition -> new Batches(partition, column, string, algorithm, batchRows))
                    .rdd();
        }
        return classic.sparkSession().internalCreateDataFrame(hashed, out, false);
    }

    /** Whether {@link #withHash} takes the columnar path for {@code df} (for tests and benchmarks). */
    public static boolean isColumnar(Dataset<Row> df) {
        return ColumnarHash.source((org.apache.spark.sql.classic.Dataset<Row>) df) != null;
    }

    /** The rows of one partition, each joined with its hash, hashed a batch at a time. */
    private static final class Batches implements Iterator<InternalRow> {
        private final Iterator<InternalRow> input;
        private final int column;
        private final boolean string;
        private final Algorithm algorithm;
        private final InternalRow[] rows;
        private final ValueBatch batch;
        private final WritableColumnVector hashes;
        private int size;
        private int next;

        Batches(Iterator<InternalRow> input, int column, boolean string, Algorithm algorithm, int batchRows) {
            this.input = input;
            this.column = column;
            this.string = string;
            this.algorithm = algorithm;
            this.rows = new InternalRow[batchRows];
            this.batch = new ValueBatch(algorithm, batchRows);
            this.hashes = ValueBatch.hashVector(algorithm, batchRows);
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
            Object hash = hashes.isNullAt(next) ? null
                    : algorithm.hasValue() ? (Object) hashes.getLong(next) : hashes.getBinary(next);
            InternalRow row = rows[next];
            rows[next] = null;
            next++;
            return new JoinedRow(row, new GenericInternalRow(new Object[] {hash}));
        }

        private void fill() {
            if (!input.hasNext()) {
                throw new NoSuchElementException();
            }
            batch.clear();
            int n = 0;
            while (n < rows.length && input.hasNext()) {
                InternalRow row = input.next().copy(); // the iterator reuses its row
                rows[n++] = row;
                if (row.isNullAt(column)) {
                    batch.addNull();
                } else if (string) {
                    batch.add(row.getUTF8String(column));
                } else {
                    batch.add(row.getBinary(column));
                }
            }
            batch.hashInto(hashes);
            size = n;
            next = 0;
        }
    }
}
