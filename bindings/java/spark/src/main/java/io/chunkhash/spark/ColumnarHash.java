package io.chunkhash.spark;

import io.chunkhash.Algorithm;
import java.util.Collections;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.concurrent.atomic.LongAdder;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.rdd.RDD;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.execution.ColumnarToRowExec;
import org.apache.spark.sql.execution.SparkPlan;
import org.apache.spark.sql.execution.WholeStageCodegenExec;
import org.apache.spark.sql.execution.vectorized.WritableColumnVector;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.sql.vectorized.ColumnarBatch;
import scala.reflect.ClassTag$;

/**
 * The columnar path of {@link BatchedHash}: when a DataFrame's plan is a scan
 * that yields column batches (Parquet or ORC read by the vectorized readers)
 * turned into rows and nothing else, the scan's batches are taken before they
 * become rows, and each batch's column is hashed in one native call: in place
 * where the vector holds the values in one Java array in row order (Parquet's
 * plain-encoded binary and string columns), gathered otherwise (dictionaries,
 * ORC's vectors, off-heap memory). The hashes go into one more column vector,
 * and the rows are read off the batch, as Spark's own {@code ColumnarToRowExec}
 * does.
 */
final class ColumnarHash {
    private ColumnarHash() {}

    /** Batches hashed in place and gathered, in this JVM: the tests check that each path ran. */
    static final LongAdder IN_PLACE = new LongAdder();
    static final LongAdder GATHERED = new LongAdder();

    /** The plan that yields {@code df}'s rows as column batches, in {@code df}'s column order; or null. */
    static SparkPlan source(org.apache.spark.sql.classic.Dataset<Row> df) {
        SparkPlan plan = df.queryExecution().executedPlan();
        if (plan instanceof WholeStageCodegenExec stage) {
            plan = stage.child();
        }
        if (!(plan instanceof ColumnarToRowExec toRows) || !toRows.child().supportsColumnar()) {
            return null;
        }
        SparkPlan scan = toRows.child();
        StructType have = scan.schema();
        StructType want = df.schema();
        if (have.length() != want.length()) {
            return null;
        }
        for (int i = 0; i < want.length(); i++) {
            StructField a = have.fields()[i];
            StructField b = want.fields()[i];
            if (!a.name().equals(b.name()) || !a.dataType().equals(b.dataType())) {
                return null;
            }
        }
        return scan;
    }

    /** The rows of {@code source} with the hash of {@code column} after them, a batch per native call. */
    static RDD<InternalRow> hash(SparkPlan source, int column, boolean string, Algorithm algorithm) {
        RDD<ColumnarBatch> batches = source.executeColumnar();
        return JavaRDD.fromRDD(batches, ClassTag$.MODULE$.apply(ColumnarBatch.class))
                .mapPartitions(partition -> new Rows(partition, column, string, algorithm))
                .rdd();
    }

    /**
     * The rows of one partition's batches, each batch hashed when its first row is asked for. The reader reuses
     * its batch for the next one, so a batch's rows are all handed on (and copied by the consumer, as after
     * {@code ColumnarToRowExec}) before the next batch is read.
     */
    private static final class Rows implements Iterator<InternalRow> {
        private final Iterator<ColumnarBatch> input;
        private final int column;
        private final boolean string;
        private final ValueBatch values;
        private final WritableColumnVector hashes;
        private Iterator<InternalRow> rows = Collections.emptyIterator();

        Rows(Iterator<ColumnarBatch> input, int column, boolean string, Algorithm algorithm) {
            this.input = input;
            this.column = column;
            this.string = string;
            this.values = new ValueBatch(algorithm, 4096);
            this.hashes = ValueBatch.hashVector(algorithm, 4096);
        }

        @Override
        public boolean hasNext() {
            while (!rows.hasNext() && input.hasNext()) {
                rows = hashed(input.next()).rowIterator();
            }
            return rows.hasNext();
        }

        @Override
        public InternalRow next() {
            if (!hasNext()) {
                throw new NoSuchElementException();
            }
            return rows.next();
        }

        /** {@code batch} with one more column: the hashes of its column {@code column}. */
        private ColumnarBatch hashed(ColumnarBatch batch) {
            int n = batch.numRows();
            ColumnVector in = batch.column(column);
            values.clear();
            if (in instanceof WritableColumnVector vector && values.addInPlace(vector, n)) {
                IN_PLACE.increment();
            } else {
                GATHERED.increment();
                // Gathered. A Spark vector hands out a value in place as a UTF8String (binary values too); an
                // Arrow vector of binary values only as a byte[].
                values.clear();
                boolean asUtf8 = string || in instanceof WritableColumnVector;
                for (int i = 0; i < n; i++) {
                    if (in.isNullAt(i)) {
                        values.addNull();
                    } else if (asUtf8) {
                        values.add(in.getUTF8String(i));
                    } else {
                        values.add(in.getBinary(i));
                    }
                }
            }
            values.hashInto(hashes);
            ColumnVector[] columns = new ColumnVector[batch.numCols() + 1];
            for (int c = 0; c < batch.numCols(); c++) columns[c] = batch.column(c);
            columns[batch.numCols()] = hashes;
            return new ColumnarBatch(columns, n);
        }
    }
}
