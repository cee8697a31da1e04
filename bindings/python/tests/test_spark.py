"""chunkhash.spark on local[2] (conftest's `spark` session, three rows per
Arrow batch): every algorithm through the arrow_udf column functions and
through mapInArrow, on binary and string columns, against the package's
one-shot `hash` and independent references; nulls, empty values, a value
over 1 MiB, an all-null batch; bad input as an error on the driver."""

from __future__ import annotations

import random
from typing import Any, List, Optional

import pytest
from conftest import COLUMN_ALGORITHMS, column_reference, column_values

import chunkhash
import chunkhash.spark as chs

pyspark_errors = pytest.importorskip("pyspark.errors")

INTEGERS = ("xxh3_64", "crc32c", "crc64nvme")


def _frame(spark: Any, values: List[Optional[bytes]], text: bool) -> Any:
    """One partition, so the rows stay in order and batches of three put
    rows 3 to 5 (all null in `column_values`) in a batch of their own."""
    from pyspark.sql.types import BinaryType, StringType, StructField, StructType

    if text:
        rows = [(None if v is None else v.hex(),) for v in values]
        schema = StructType([StructField("v", StringType())])
    else:
        rows = [(v,) for v in values]
        schema = StructType([StructField("v", BinaryType())])
    return spark.createDataFrame(rows, schema).coalesce(1)


def _spark_value(algorithm: str, value: Any) -> Any:
    """A reference value as Spark holds it: 64-bit checksums as signed
    bigints with the same bits."""
    if algorithm in ("xxh3_64", "crc64nvme") and value >= 1 << 63:
        return value - (1 << 64)
    return value


def _expected(algorithm: str, values: List[Optional[bytes]], text: bool) -> List[Any]:
    inputs = [None if v is None else (v.hex().encode() if text else v) for v in values]
    return [None if v is None else _spark_value(algorithm, column_reference(algorithm, v)) for v in inputs]


def _one_shot(algorithm: str, values: List[Optional[bytes]], text: bool) -> List[Any]:
    inputs = [None if v is None else (v.hex().encode() if text else v) for v in values]
    digests = [None if v is None else chunkhash.hash(COLUMN_ALGORITHMS[algorithm], v) for v in inputs]
    if algorithm in INTEGERS:
        return [None if d is None else _spark_value(algorithm, int.from_bytes(d, "big")) for d in digests]
    return digests


def test_implementation(spark: Any) -> None:
    # A session without chunkhash's SQL extension (the JVM path is tested
    # in tests/jvm, with the jars).
    assert chs.implementation(spark) == "python-arrow"


@pytest.mark.parametrize("text", [False, True], ids=["binary", "string"])
def test_column_functions(spark: Any, rng: random.Random, text: bool) -> None:
    values = column_values(rng)
    frame = _frame(spark, values, text)
    result = frame.select(*(getattr(chs, algorithm)("v") for algorithm in COLUMN_ALGORITHMS)).collect()
    for index, algorithm in enumerate(COLUMN_ALGORITHMS):
        column = [row[index] for row in result]
        column = [bytes(v) if isinstance(v, (bytearray, memoryview)) else v for v in column]
        assert column == _expected(algorithm, values, text), algorithm
        assert column == _one_shot(algorithm, values, text), algorithm
    assert frame.select(chs.blake3("v")).columns == ["blake3(v)"]


@pytest.mark.parametrize("algorithm", list(COLUMN_ALGORITHMS))
def test_map_in_arrow(spark: Any, rng: random.Random, algorithm: str) -> None:
    values = column_values(rng)
    frame = chs.with_digests(_frame(spark, values, False), "v", algorithm)
    assert frame.columns == ["v", f"v_{algorithm}"]
    rows = frame.collect()
    assert [row[0] for row in rows] == values
    assert [row[1] for row in rows] == _expected(algorithm, values, False)


def test_blake3_options(spark: Any, rng: random.Random) -> None:
    import blake3 as blake3_py

    values = column_values(rng)
    key = bytes(range(32))
    frame = _frame(spark, values, False)
    rows = frame.select(chs.blake3("v", 9), chs.blake3(frame.v, key=key), chs.blake3("v", derive_key_context="chunkhash tests")).collect()
    assert [row[0] for row in rows] == [None if v is None else blake3_py.blake3(v).digest()[:9] for v in values]
    assert [row[1] for row in rows] == [None if v is None else blake3_py.blake3(v, key=key).digest() for v in values]
    assert [row[2] for row in rows] == [None if v is None else blake3_py.blake3(v, derive_key_context="chunkhash tests").digest() for v in values]
    keyed = chs.with_digests(frame, "v", "blake3", "k", length=5, key=key).collect()
    assert [row.k for row in keyed] == [None if v is None else blake3_py.blake3(v, key=key).digest()[:5] for v in values]


def test_empty_frame(spark: Any) -> None:
    assert _frame(spark, [], False).select(chs.address("v")).collect() == []


def test_bad_input_on_the_driver(spark: Any) -> None:
    numbers = spark.createDataFrame([(1,), (2,)], "n bigint")
    # mapInArrow: the schema is checked before anything runs.
    with pytest.raises(TypeError, match="column 'n' is bigint; chunkhash hashes binary or string columns"):
        chs.with_digests(numbers, "n", "blake3")
    # The arrow_udf meets the type in the executor; the job fails on the
    # driver with chunkhash's message.
    with pytest.raises(pyspark_errors.PythonException, match="column 'values' holds int64; chunkhash hashes binary or string columns"):
        numbers.select(chs.xxh3_64("n")).collect()
    for call in (lambda: chs.hash_column("n", "md5"), lambda: chs.with_digests(numbers, "n", "sha1")):
        with pytest.raises(ValueError, match="unknown column algorithm"):
            call()
    with pytest.raises(ValueError, match="blake3 length must be from 1 to 32, not 64"):
        chs.blake3("v", 64)
    with pytest.raises(ValueError, match="key and derive_key_context apply to blake3 only"):
        chs.hash_column("v", "crc32c", key=bytes(32))
