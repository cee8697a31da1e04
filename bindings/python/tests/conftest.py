"""Shared helpers of the Python package's tests: the repository's vector
files, pattern inputs, and the fixed random seed every random test uses."""

from __future__ import annotations

import json
import os
import random
from pathlib import Path
from typing import Any, Dict, Iterator

import pytest

# The vectors/ folder at the root of the repository: the same files every
# binding tests against (see vectors/README.md for their provenance).
VECTORS = Path(__file__).resolve().parents[3] / "vectors"

# Fixed unless CHUNKHASH_TEST_SEED is set; printed in pytest's header so a
# failure can be replayed.
SEED = int(os.environ.get("CHUNKHASH_TEST_SEED", "20261122"))


def pytest_configure(config: Any) -> None:
    # PySpark 4.3 warns on every Arrow UDF that it was not tested with
    # pandas 3 (which Dask brings); chunkhash.spark never uses pandas.
    config.addinivalue_line("filterwarnings", "ignore:PySpark does not yet fully support pandas:FutureWarning")


def pytest_report_header(config: Any) -> str:
    import chunkhash

    return f"chunkhash {chunkhash.__version__}, BLAKE3 backend {chunkhash.blake3_backend()}, random seed {SEED} (CHUNKHASH_TEST_SEED)"


def pattern(length: int) -> bytes:
    """The vectors' input: byte i is i % 251."""
    return bytes(i % 251 for i in range(length))


_loaded: Dict[str, Any] = {}


def load(name: str) -> Any:
    if name not in _loaded:
        _loaded[name] = json.loads((VECTORS / name).read_text())
    return _loaded[name]


@pytest.fixture
def rng(request: Any) -> random.Random:
    """A generator seeded from SEED and the test's name, so each test's
    inputs stay the same whatever else runs."""
    return random.Random(f"{SEED}:{request.node.nodeid}")


def column_reference(algorithm: str, value: bytes) -> Any:
    """What the column functions of chunkhash.dask and chunkhash.spark must
    give for one value, from independent implementations: blake3-py,
    python-xxhash, the crc32c package and awscrt's CRC64/NVME."""
    import awscrt.checksums
    import blake3
    import crc32c
    import xxhash

    references = {
        "blake3": lambda v: blake3.blake3(v).digest(),
        "address": lambda v: blake3.blake3(v).digest()[:20],
        "xxh3_64": xxhash.xxh3_64_intdigest,
        "xxh3_128": xxhash.xxh3_128_digest,
        "crc32c": crc32c.crc32c,
        "crc64nvme": awscrt.checksums.crc64nvme,
    }
    return references[algorithm](value)


# The column functions' algorithms, and the registry name of each in
# `chunkhash.hash` (the package's own one-shot function). Written out here
# rather than imported from `chunkhash._columns.ALGORITHMS` on purpose: a
# wrong entry in the package's table must fail the tests, not feed them.
COLUMN_ALGORITHMS = {
    "blake3": "blake3",
    "address": "blake3_160",
    "xxh3_64": "xxh3_64",
    "xxh3_128": "xxh3_128",
    "crc32c": "crc32c",
    "crc64nvme": "crc64nvme",
}


def column_values(rng: random.Random) -> list:
    """A column's values for the scale-out tests: empty, short, nulls (rows
    3 to 5 fill a partition or batch of three rows alone), values across
    BLAKE3's chunk boundary and one over 1 MiB."""
    return [
        b"",
        b"a",
        rng.randbytes(64),
        None,
        None,
        None,
        rng.randbytes(1024),
        rng.randbytes(1025),
        None,
        b"",
        rng.randbytes((1 << 20) + 7),
        rng.randbytes(13),
    ]


@pytest.fixture(scope="session")
def dask_client() -> Iterator[Any]:
    """One Dask cluster for the whole test session: two worker processes
    (so every task's arguments and results cross a pickle), one thread
    each."""
    import distributed

    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0") as cluster:
        with distributed.Client(cluster) as client:
            yield client


# Rows per Arrow batch in the Spark tests: three, so that the rows of
# `column_values` fill several batches, one of them all null.
SPARK_BATCH_ROWS = 3


@pytest.fixture(scope="session")
def spark() -> Iterator[Any]:
    """One Spark session for the whole test session, on local[2]; its
    Python workers run this interpreter (the test environment, where
    chunkhash is installed)."""
    import sys

    os.environ["PYSPARK_PYTHON"] = sys.executable
    from pyspark.sql import SparkSession

    session = (
        SparkSession.builder.master("local[2]")
        .appName("chunkhash-tests")
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.sql.shuffle.partitions", "2")
        .config("spark.sql.execution.arrow.maxRecordsPerBatch", str(SPARK_BATCH_ROWS))
        .getOrCreate()
    )
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()
