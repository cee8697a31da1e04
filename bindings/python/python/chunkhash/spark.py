"""chunkhash for PySpark: columns hashed one Arrow batch per call, and one
file hashed by many executors.

Column functions (PySpark 4.1 and later, as `arrow_udf`s) take a binary or
string column (a `Column` or a column name) and give a column of digests;
null values give null digests::

    import chunkhash.spark as chs

    frame.select(chs.blake3("payload"), chs.xxh3_64("payload"))

Spark has no unsigned integers: `xxh3_64` and `crc64nvme` are `bigint`
holding the unsigned value's 64 bits (as Spark's own `xxhash64`),
`crc32c` is a `bigint` from 0 to 2**32 - 1, the others are `binary`.

`with_digests(frame, column, algorithm)` adds the digest column through
`DataFrame.mapInArrow` instead, which PySpark 3.5 has too, and checks the
column's type on the driver before anything runs. (The column functions
meet a wrong-typed column only in the executors; the error reaches the
driver as a `PythonException` when the job runs.)

`hash_file(spark, path)` splits a file at BLAKE3 subtree boundaries, hashes
each part in a task (each reads its own range, so the executors must see
the same file system), and merges on the driver: the same BLAKE3 hash as
`chunkhash sum` and b3sum, and the file's CRC32C and CRC64/NVME.

Two paths, and `implementation(spark)` says which the column functions
take. When the session runs chunkhash's Spark SQL extension (its two jars
on `spark.jars` and `spark.sql.extensions` set to
`io.chunkhash.spark.ChunkhashExtensions`: see the README), the column
functions call its JVM functions, which hash in the executors' JVMs with no
Python worker at all: "jvm". Otherwise, and for keyed and derive-key BLAKE3
(which the SQL functions do not take), they run chunkhash's Python package
in Spark's Python workers: "python-arrow". Both give the same values and
types. `with_digests` and `hash_file` always run the Python package.
"""

from __future__ import annotations

import functools
import os
from typing import Any, Callable, Iterator, Optional, Union

import pyarrow as pa  # type: ignore[import-untyped]
from pyspark.sql import Column, DataFrame, SparkSession
from pyspark.sql.types import BinaryType, DataType, LongType, StringType, StructField, StructType

from ._columns import BLAKE3_LEN, check_algorithm, hash_arrow
from ._file_parts import FileHash, combine, hash_part, plan

__all__ = [
    "FileHash",
    "address",
    "blake3",
    "crc32c",
    "crc64nvme",
    "hash_column",
    "hash_file",
    "implementation",
    "with_digests",
    "xxh3_128",
    "xxh3_64",
]

ColumnOrName = Union[Column, str]

# The Spark type of each column function's digests.
_SPARK_TYPES = {
    "blake3": BinaryType(),
    "address": BinaryType(),
    "xxh3_128": BinaryType(),
    "xxh3_64": LongType(),
    "crc32c": LongType(),
    "crc64nvme": LongType(),
}


# The extension class, and the SQL name of each column function there.
_EXTENSION = "io.chunkhash.spark.ChunkhashExtensions"
_SQL_NAMES = {
    "blake3": "blake3",
    "address": "blake3_address",
    "xxh3_64": "xxh3_64",
    "xxh3_128": "xxh3_128",
    "crc32c": "crc32c",
    "crc64nvme": "crc64nvme",
}


def _jvm_functions(spark: Optional[SparkSession]) -> bool:
    """Whether `spark` (by default the active session) runs chunkhash's SQL
    extension: named in `spark.sql.extensions` and its functions registered
    (Spark only warns, and registers nothing, when the class is missing)."""
    spark = spark or SparkSession.getActiveSession()
    if spark is None:
        return False
    extensions = spark.conf.get("spark.sql.extensions", None) or ""
    if _EXTENSION not in [name.strip() for name in extensions.split(",")]:
        return False
    return bool(spark.catalog.functionExists("blake3_address"))


def implementation(spark: Optional[SparkSession] = None) -> str:
    """Which path the column functions take in `spark` (by default the
    active session): "jvm" when it runs chunkhash's Spark SQL extension,
    else "python-arrow" (chunkhash's Python package in Spark's Python
    workers, Arrow batches in and out)."""
    return "jvm" if _jvm_functions(spark) else "python-arrow"


def _spark_digests(values: Union[pa.Array, pa.ChunkedArray], algorithm: str, length: int, key: Optional[bytes], context: Optional[str]) -> pa.Array:
    """The digests of one Arrow batch's column, as Spark's Arrow types."""
    digests = hash_arrow(values, algorithm, length, key, context)
    if pa.types.is_fixed_size_binary(digests.type):
        return digests.cast(pa.binary())
    if digests.type == pa.uint64():
        # Spark's bigint, with the unsigned value's bits.
        return digests.view(pa.int64())
    return digests.cast(pa.int64())


def _check_options(algorithm: str, length: int, key: Optional[bytes], context: Optional[str]) -> None:
    check_algorithm(algorithm, length)
    if (key is not None or context is not None) and algorithm != "blake3":
        raise ValueError(f"key and derive_key_context apply to blake3 only, not {algorithm}")


def hash_column(
    column: ColumnOrName,
    algorithm: str = "blake3",
    *,
    length: int = BLAKE3_LEN,
    key: Optional[bytes] = None,
    derive_key_context: Optional[str] = None,
) -> Column:
    """The digests of a binary or string column, as an `arrow_udf` (PySpark
    4.1 or later): `algorithm` one of blake3, address, xxh3_64, xxh3_128,
    crc32c, crc64nvme; `length` (1 to 32), `key` and `derive_key_context`
    for blake3. Through the JVM functions when the active session has them
    (plain BLAKE3 only), else one `hash_array` call per Arrow batch."""
    _check_options(algorithm, length, key, derive_key_context)
    if key is None and derive_key_context is None and _jvm_functions(None):
        from pyspark.sql import functions

        target = functions.col(column) if isinstance(column, str) else column
        arguments = [target, functions.lit(length)] if algorithm == "blake3" and length != BLAKE3_LEN else [target]
        result = functions.call_function(_SQL_NAMES[algorithm], *arguments)
        return result.alias(f"{algorithm}({column})") if isinstance(column, str) else result
    try:
        from pyspark.sql.functions import arrow_udf
    except ImportError as error:
        raise RuntimeError(
            "chunkhash.spark's column functions need PySpark 4.1 or later (arrow_udf); "
            "with PySpark 3.5 use chunkhash.spark.with_digests(frame, column, algorithm)"
        ) from error

    def digests(values: pa.Array) -> pa.Array:
        return _spark_digests(values, algorithm, length, key, derive_key_context)

    # A scalar Arrow UDF by its type hints. (PySpark's stubs want the UDF
    # type as an argument, which its runtime warns against.)
    udf = arrow_udf(digests, _SPARK_TYPES[algorithm])  # type: ignore[call-overload]
    name = column if isinstance(column, str) else None
    result = udf(column)
    return result.alias(f"{algorithm}({name})") if name is not None else result


def blake3(column: ColumnOrName, length: int = BLAKE3_LEN, *, key: Optional[bytes] = None, derive_key_context: Optional[str] = None) -> Column:
    """BLAKE3 of each value, `length` bytes (1 to 32; a prefix of the 32)."""
    return hash_column(column, "blake3", length=length, key=key, derive_key_context=derive_key_context)


def address(column: ColumnOrName) -> Column:
    """The 20-byte content address of each value (BLAKE3 cut to 160 bits)."""
    return hash_column(column, "address")


def xxh3_64(column: ColumnOrName) -> Column:
    """XXH3-64 of each value, as a bigint with its 64 bits."""
    return hash_column(column, "xxh3_64")


def xxh3_128(column: ColumnOrName) -> Column:
    """XXH3-128 of each value, 16 bytes big-endian (xxhash's digest())."""
    return hash_column(column, "xxh3_128")


def crc32c(column: ColumnOrName) -> Column:
    """CRC32C of each value, as a bigint."""
    return hash_column(column, "crc32c")


def crc64nvme(column: ColumnOrName) -> Column:
    """CRC64/NVME of each value, as a bigint with its 64 bits."""
    return hash_column(column, "crc64nvme")


def _append_digests(
    batches: Iterator[pa.RecordBatch], column: str, output: str, algorithm: str, length: int, key: Optional[bytes], context: Optional[str]
) -> Iterator[pa.RecordBatch]:
    for batch in batches:
        yield batch.append_column(output, _spark_digests(batch.column(column), algorithm, length, key, context))


def with_digests(
    frame: DataFrame,
    column: str,
    algorithm: str = "blake3",
    output: Optional[str] = None,
    *,
    length: int = BLAKE3_LEN,
    key: Optional[bytes] = None,
    derive_key_context: Optional[str] = None,
) -> DataFrame:
    """`frame` with one more column, `output` (by default
    "<column>_<algorithm>"): the digests of `column`, computed in
    `mapInArrow` (PySpark 3.5 and later), one `hash_array` call per Arrow
    batch. TypeError at once for a column that is not binary or string."""
    _check_options(algorithm, length, key, derive_key_context)
    field = frame.schema[column]
    if not isinstance(field.dataType, (BinaryType, StringType)):
        raise TypeError(f"column {column!r} is {field.dataType.simpleString()}; chunkhash hashes binary or string columns")
    output = output or f"{column}_{algorithm}"
    digest_type: DataType = _SPARK_TYPES[algorithm]
    schema = StructType([*frame.schema.fields, StructField(output, digest_type, True)])
    append: Callable[[Iterator[pa.RecordBatch]], Iterator[pa.RecordBatch]] = functools.partial(
        _append_digests, column=column, output=output, algorithm=algorithm, length=length, key=key, context=derive_key_context
    )
    return frame.mapInArrow(append, schema)


def hash_file(spark: SparkSession, path: Union[str, "os.PathLike[str]"], *, part_size: Optional[int] = None) -> FileHash:
    """The BLAKE3 hash, CRC32C and CRC64/NVME of one file, its parts hashed
    by Spark tasks (each reads its own range of the file). `part_size`: a
    power of two of at least 1024 bytes; by default the smallest power of
    two from 16 MiB that gives each of the session's default parallelism
    at most four parts."""
    context = spark.sparkContext
    path, size, part_size, parts = plan(path, part_size, context.defaultParallelism)
    results: Any = context.parallelize(parts, len(parts)).map(functools.partial(hash_part, path)).collect()
    return combine(path, size, part_size, results)
