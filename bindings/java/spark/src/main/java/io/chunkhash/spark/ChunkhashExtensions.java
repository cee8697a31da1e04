package io.chunkhash.spark;

import java.util.Arrays;
import java.util.List;
import org.apache.spark.sql.SparkSessionExtensions;
import org.apache.spark.sql.catalyst.FunctionIdentifier;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.ExpressionInfo;
import org.apache.spark.sql.catalyst.expressions.objects.StaticInvoke;
import org.apache.spark.sql.types.AbstractDataType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import scala.Function1;
import scala.Option;
import scala.Tuple3;
import scala.collection.immutable.Seq;
import scala.jdk.javaapi.CollectionConverters;
import scala.runtime.BoxedUnit;

/**
 * Registers chunkhash's SQL functions in every session of an application:
 * {@code spark.sql.extensions=io.chunkhash.spark.ChunkhashExtensions}.
 *
 * <ul>
 *   <li>{@code blake3(v)}: 32-byte BLAKE3 hash (binary); {@code blake3(v, n)}: n bytes of extended output
 *   <li>{@code blake3_address(v)}: the first 20 bytes of the hash (binary)
 *   <li>{@code xxh3_64(v)}: XXH3-64, seed 0 (bigint, the digest read big-endian, as {@code xxhash64} returns a bigint)
 *   <li>{@code xxh3_128(v)}: XXH3-128 (16-byte binary, big-endian as {@code xxhsum} prints it)
 *   <li>{@code crc32c(v)}, {@code crc64nvme(v)}: CRC32C and CRC-64/NVME (bigint, as {@code crc32} returns)
 * </ul>
 *
 * <p>{@code v} is binary or string (hashed as its UTF-8 bytes); a null {@code v} gives null. Each function is a
 * {@link StaticInvoke} of a method of {@link SqlFunctions}: Spark's generated code calls it with the value's bytes,
 * so there is no UDF conversion per row. For many short values, {@link BatchedHash} is faster still: one native
 * call per batch of rows.
 */
public final class ChunkhashExtensions implements Function1<SparkSessionExtensions, BoxedUnit> {
    @Override
    public BoxedUnit apply(SparkSessionExtensions extensions) {
        register(extensions, "blake3", "blake3", DataTypes.BinaryType, 1, 2,
                "_FUNC_(v[, length]) - BLAKE3 hash of v (32 bytes, or length bytes of extended output)");
        register(extensions, "blake3_address", "blake3Address", DataTypes.BinaryType, 1, 1,
                "_FUNC_(v) - 20-byte BLAKE3 address of v (the first 20 bytes of its hash)");
        register(extensions, "xxh3_64", "xxh3_64", DataTypes.LongType, 1, 1, "_FUNC_(v) - XXH3-64 of v, as a bigint");
        register(extensions, "xxh3_128", "xxh3_128", DataTypes.BinaryType, 1, 1,
                "_FUNC_(v) - XXH3-128 of v, 16 bytes (big-endian)");
        register(extensions, "crc32c", "crc32c", DataTypes.LongType, 1, 1, "_FUNC_(v) - CRC32C of v, as a bigint");
        register(extensions, "crc64nvme", "crc64nvme", DataTypes.LongType, 1, 1,
                "_FUNC_(v) - CRC-64/NVME of v, as a bigint");
        return BoxedUnit.UNIT;
    }

    /** The names registered, for tests and for the Python layer. */
    public static final List<String> FUNCTIONS =
            List.of("blake3", "blake3_address", "xxh3_64", "xxh3_128", "crc32c", "crc64nvme");

    private static void register(SparkSessionExtensions extensions, String name, String method, DataType result,
            int minArgs, int maxArgs, String usage) {
        ExpressionInfo info = new ExpressionInfo(SqlFunctions.class.getName(), null, name, usage, "");
        Function1<Seq<Expression>, Expression> builder = arguments -> build(name, method, result, minArgs, maxArgs,
                CollectionConverters.asJava(arguments));
        extensions.injectFunction(new Tuple3<>(new FunctionIdentifier(name), info, builder));
    }

    static Expression build(String name, String method, DataType result, int minArgs, int maxArgs,
            List<Expression> arguments) {
        int n = arguments.size();
        if (n < minArgs || n > maxArgs) {
            String expected = minArgs == maxArgs ? String.valueOf(minArgs) : minArgs + " or " + maxArgs;
            throw new IllegalArgumentException(name + " takes " + expected + " argument" + (maxArgs == 1 ? "" : "s")
                    + ", got " + n);
        }
        // Implicit casts (InvokeLike is ImplicitCastInputTypes) turn a string into its UTF-8 bytes and a
        // numeric length into an int; propagateNull makes a null argument give null.
        List<AbstractDataType> inputTypes = n == 1
                ? List.of(DataTypes.BinaryType)
                : Arrays.asList(DataTypes.BinaryType, DataTypes.IntegerType);
        return new StaticInvoke(SqlFunctions.class, result, method, seq(arguments), seq(inputTypes),
                true, true, true, Option.empty());
    }

    static <T> Seq<T> seq(List<T> list) {
        return CollectionConverters.asScala(list).toList();
    }
}
