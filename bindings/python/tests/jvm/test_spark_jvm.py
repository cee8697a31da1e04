"""chunkhash.spark in a session that runs chunkhash's Spark SQL extension
(the JVM functions of bindings/java). `make test-java` runs this file after
building the two jars, and names them in CHUNKHASH_SPARK_JARS; `make
test-python` leaves it out (it has no jars). The column functions must take
the JVM path, with no Python worker in the plan, and give what the
independent references give; keyed BLAKE3, which the SQL functions do not
take, must still run through the Python path. (A plain session's
"python-arrow" is checked in test_spark.py: a second session in this JVM
would keep this one's static `spark.sql.extensions`.)"""

from __future__ import annotations

import os
import random
import sys
from typing import Any, Iterator, List, Optional

import pytest
from conftest import COLUMN_ALGORITHMS, SEED, column_reference, column_values

import chunkhash
import chunkhash.spark as chs

EXTENSION = "io.chunkhash.spark.ChunkhashExtensions"


@pytest.fixture(scope="module")
def jvm_spark() -> Iterator[Any]:
    jars = os.environ.get("CHUNKHASH_SPARK_JARS", "")
    assert jars, "CHUNKHASH_SPARK_JARS must name chunkhash's two jars (make test-java sets it)"
    for jar in jars.split(","):
        assert os.path.isfile(jar), f"no jar at {jar}"
    os.environ["PYSPARK_PYTHON"] = sys.executable
    from pyspark.sql import SparkSession

    session = (
        SparkSession.builder.master("local[2]")
        .appName("chunkhash-jvm-tests")
        .config("spark.jars", jars)
        .config("spark.sql.extensions", EXTENSION)
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .getOrCreate()
    )
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()


def _spark_value(algorithm: str, value: int) -> int:
    """64-bit checksums as Spark holds them: signed bigints, same bits."""
    return value - (1 << 64) if algorithm in ("xxh3_64", "crc64nvme") and value >= 1 << 63 else value


def _frame(spark: Any, values: List[Optional[bytes]], text: bool) -> Any:
    from pyspark.sql.types import BinaryType, StringType, StructField, StructType

    if text:
        rows = [(None if v is None else v.hex(),) for v in values]
        return spark.createDataFrame(rows, StructType([StructField("v", StringType())])).coalesce(1)
    return spark.createDataFrame([(v,) for v in values], StructType([StructField("v", BinaryType())])).coalesce(1)


def _plan(frame: Any) -> str:
    return str(frame._jdf.queryExecution().executedPlan().toString())


@pytest.mark.parametrize("text", [False, True], ids=["binary", "string"])
def test_column_functions_take_the_jvm_path(jvm_spark: Any, text: bool) -> None:
    assert chs.implementation(jvm_spark) == "jvm"
    values = column_values(random.Random(f"{SEED}:jvm:{text}"))
    algorithms = list(COLUMN_ALGORITHMS)
    selected = _frame(jvm_spark, values, text).select(*[chs.hash_column("v", a) for a in algorithms], chs.blake3("v", 16))
    plan = _plan(selected)
    assert "EvalPython" not in plan, plan
    rows = selected.collect()
    assert len(rows) == len(values)
    for row, value in zip(rows, values):
        data = None if value is None else (value.hex().encode() if text else value)
        for i, algorithm in enumerate(algorithms):
            expected = None if data is None else column_reference(algorithm, data)
            if isinstance(expected, int):
                expected = _spark_value(algorithm, expected)
            assert row[i] == expected, (algorithm, None if data is None else len(data))
        assert row[len(algorithms)] == (None if data is None else chunkhash.blake3(data).digest(16))


def test_keyed_blake3_falls_back_to_python(jvm_spark: Any) -> None:
    key = bytes(range(32))
    values = [b"", b"abc", None, bytes(2000)]
    selected = _frame(jvm_spark, values, False).select(chs.blake3("v", key=key))
    assert "ArrowEvalPython" in _plan(selected)
    got = [row[0] for row in selected.collect()]
    assert got == [None if v is None else chunkhash.blake3(v, key=key).digest() for v in values]

