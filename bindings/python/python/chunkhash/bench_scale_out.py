"""Benchmarks of chunkhash.dask and chunkhash.spark against their peers.

    python -m chunkhash.bench_scale_out [--rounds N] [--scale F] [--file PATH] [--cli PATH] [SECTION ...]

Sections: ``dask`` (a BLAKE3 column of 10 M values of 64 B and of 1 M of
1 KiB on a LocalCluster of two worker processes, against a
`map_partitions` loop over blake3-py and one over
`dask.hashing.hash_buffer`), ``spark`` (5 M values of 64 B on local[2]:
the BLAKE3 column function against an `arrow_udf` that returns its input,
Spark's `sha2(v, 256)` and `xxhash64(v)`, and a per-row blake3-py UDF) and
``file`` (`chunkhash.dask.hash_file` of a 4 GiB file with two workers and
with one, against `chunkhash sum` in one process). Default: all three.
`--scale` multiplies every row count and the file size (0.1 for a smoke run).

Each round runs every case of a section once, in turn, so a busy machine
slows all of them alike; figures are medians over rounds, ratios medians of
the per-round ratios. Column data is made and cached on the workers
first; each case hashes it and writes nothing back (Dask: the result
persisted on the workers; Spark: the `noop` sink).
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import shutil
import statistics
import subprocess
import sys
import time
import warnings
from typing import Any, Callable, Dict, List, Optional, Tuple

import chunkhash

from .bench import _ratio, _version

Case = Tuple[str, Callable[[], Any]]

SEED = 20261122


def _run(title: str, cases: List[Case], rounds: int, items: int, unit: str, ratios: List[Tuple[str, str, str]]) -> None:
    """Every case once per round, in turn; prints seconds and `items` per
    second (medians) and the ratios (median of per-round ratios)."""
    for _, function in cases:
        function()  # Warm-up: imports, worker start, JIT of nothing.
    samples: Dict[str, List[float]] = {name: [] for name, _ in cases}
    # A case may return the CPU seconds its workers spent: how many cores
    # it had (CPU / wall) tells a loaded machine from a slow program.
    busy: Dict[str, List[float]] = {name: [] for name, _ in cases}
    for _ in range(rounds):
        for name, function in cases:
            start = time.perf_counter()
            cpu = function()
            samples[name].append(time.perf_counter() - start)
            if isinstance(cpu, float):
                busy[name].append(cpu / samples[name][-1])
    print(f"\n{title}")
    print(f"{'case':58} {'median s':>9} {'min s':>9} {unit + '/s':>12} {'cores busy':>10}")
    for name, values in samples.items():
        median = statistics.median(values)
        cores = f"{statistics.median(busy[name]):10.2f}" if busy[name] else ""
        print(f"{name:58} {median:9.3f} {min(values):9.3f} {items / median / 1e6:10.2f} M {cores}")
    for label, slower, faster in ratios:
        print(f"  {label}: {_ratio(samples, slower, faster):.2f}x")
    sys.stdout.flush()


def _binary_column(rows: int, size: int, seed: int) -> Any:
    """A pyarrow binary array of `rows` random values of `size` bytes."""
    import numpy as np
    import pyarrow as pa  # type: ignore[import-untyped]

    data = np.random.default_rng(seed).integers(0, 256, rows * size, dtype=np.uint8)
    offsets = np.arange(0, (rows + 1) * size, size, dtype=np.int32)
    return pa.Array.from_buffers(pa.binary(), rows, [None, pa.py_buffer(offsets), pa.py_buffer(data)])


def bench_dask(rounds: int, scale: float) -> None:
    import blake3 as blake3_py
    import dask
    import dask.dataframe as dd
    import dask.hashing
    import distributed
    import pandas as pd  # type: ignore[import-untyped]
    import pyarrow as pa  # type: ignore[import-untyped]

    import chunkhash.dask as chd

    def blake3_py_loop(part: pd.Series) -> pd.Series:
        digests = [None if v is None else blake3_py.blake3(v).digest() for v in pa.chunked_array(part.array.__arrow_array__()).to_pylist()]
        return pd.Series(pd.arrays.ArrowExtensionArray(pa.array(digests, pa.binary(32))), index=part.index)

    def hash_buffer_loop(part: pd.Series) -> pd.Series:
        values = pa.chunked_array(part.array.__arrow_array__()).to_pylist()
        digests = [None if v is None else dask.hashing.hash_buffer(v) for v in values]
        return pd.Series(pd.arrays.ArrowExtensionArray(pa.array(digests, pa.binary())), index=part.index)

    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0") as cluster, distributed.Client(cluster) as client:
        print(f"\nDask {_version('dask')}, LocalCluster: 2 worker processes x 1 thread; hash_buffer's hasher: {dask.hashing.hashers[0].__name__}")
        for rows, size in ((10_000_000, 64), (1_000_000, 1024)):
            rows = max(1000, int(rows * scale))
            partitions = 20
            per = rows // partitions
            series = dd.from_delayed(
                [dask.delayed(_partition)(per, size, SEED + i) for i in range(partitions)],
                meta=pd.Series([], dtype=pd.ArrowDtype(pa.binary())),
            ).persist()
            distributed.wait(series)
            total = per * partitions

            def run(column: Any) -> Callable[[], float]:
                return lambda: _worker_cpu(client, lambda: distributed.wait(client.persist(column)))

            meta32 = pd.Series([], dtype=pd.ArrowDtype(pa.binary(32)))
            meta = pd.Series([], dtype=pd.ArrowDtype(pa.binary()))
            cases = [
                ("chunkhash.dask.blake3", run(chd.blake3(series))),
                ("map_partitions: blake3-py per value", run(series.map_partitions(blake3_py_loop, meta=meta32))),
                ("map_partitions: dask.hashing.hash_buffer per value", run(series.map_partitions(hash_buffer_loop, meta=meta))),
            ]
            _run(
                f"Dask: BLAKE3 of {total:,} values of {size} B in {partitions} partitions",
                cases,
                rounds,
                total,
                "rows",
                [
                    ("chunkhash.dask.blake3 / blake3-py loop", "map_partitions: blake3-py per value", "chunkhash.dask.blake3"),
                    ("chunkhash.dask.blake3 / hash_buffer loop", "map_partitions: dask.hashing.hash_buffer per value", "chunkhash.dask.blake3"),
                ],
            )
            del series
            client.run(_collect_garbage)


def _worker_cpu(client: Any, action: Callable[[], Any]) -> float:
    """Runs `action`; returns the CPU seconds the client's workers spent."""
    before = client.run(time.process_time)
    action()
    after = client.run(time.process_time)
    return float(sum(after.values()) - sum(before.values()))


def _partition(rows: int, size: int, seed: int) -> Any:
    import pandas as pd  # type: ignore[import-untyped]

    return pd.Series(pd.arrays.ArrowExtensionArray(_binary_column(rows, size, seed)))


def _collect_garbage() -> None:
    import gc

    gc.collect()


def bench_spark(rounds: int, scale: float) -> None:
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    import blake3 as blake3_py
    from pyspark.sql import SparkSession
    from pyspark.sql import functions as F
    from pyspark.sql.types import BinaryType

    import chunkhash.spark as chs

    spark = (
        SparkSession.builder.master("local[2]")
        .appName("chunkhash-bench")
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.driver.memory", "4g")
        .getOrCreate()
    )
    spark.sparkContext.setLogLevel("ERROR")
    try:
        rows = max(1000, int(5_000_000 * scale))
        # 64 random-looking bytes per row (SHA-512 of the row number), made
        # once and cached in the JVM.
        frame = spark.range(rows, numPartitions=2).select(F.unhex(F.sha2(F.col("id").cast("string"), 512)).alias("v")).cache()
        frame.count()

        # No type hints: arrow_udf's default, a scalar UDF.
        passthrough = F.arrow_udf(lambda v: v, BinaryType())  # type: ignore[call-overload]
        per_row = F.udf(lambda v: None if v is None else blake3_py.blake3(v).digest(), BinaryType())

        def write(columns: Callable[[], Any]) -> Callable[[], None]:
            return lambda: columns().write.format("noop").mode("overwrite").save()

        print(
            f"\nPySpark {_version('pyspark')} local[2], Arrow batches of {spark.conf.get('spark.sql.execution.arrow.maxRecordsPerBatch')} rows, "
            f"path {chs.implementation(spark)}"
        )
        cases = [
            ("arrow_udf returning its input (the floor)", write(lambda: frame.select(passthrough("v")))),
            ("chunkhash.spark.blake3 (arrow_udf)", write(lambda: frame.select(chs.blake3("v")))),
            ("chunkhash.spark.with_digests blake3 (mapInArrow)", write(lambda: chs.with_digests(frame, "v", "blake3").select("v_blake3"))),
            ("Spark sha2(v, 256)", write(lambda: frame.select(F.sha2("v", 256)))),
            ("Spark xxhash64(v)", write(lambda: frame.select(F.xxhash64("v")))),
            ("per-row udf: blake3-py", write(lambda: frame.select(per_row("v")))),
        ]
        _run(
            f"PySpark: BLAKE3 of {rows:,} values of 64 B",
            cases,
            rounds,
            rows,
            "rows",
            [
                ("chunkhash.spark.blake3 rows/s / passthrough arrow_udf rows/s", "arrow_udf returning its input (the floor)", "chunkhash.spark.blake3 (arrow_udf)"),
                ("chunkhash.spark.blake3 / per-row blake3-py udf", "per-row udf: blake3-py", "chunkhash.spark.blake3 (arrow_udf)"),
                ("chunkhash.spark.blake3 / sha2(v, 256)", "Spark sha2(v, 256)", "chunkhash.spark.blake3 (arrow_udf)"),
            ],
        )
    finally:
        spark.stop()


def _make_file(path: str, size: int) -> None:
    """Random content (a sparse file would hash its holes from the zero
    page, faster than real data)."""
    if os.path.exists(path) and os.path.getsize(path) == size:
        return
    import numpy as np

    generator = np.random.default_rng(SEED)
    with open(path, "wb") as file:
        left = size
        while left:
            block = min(left, 64 << 20)
            file.write(generator.integers(0, 256, block, dtype=np.uint8).tobytes())
            left -= block


def bench_file(rounds: int, scale: float, path: str, cli: Optional[str]) -> None:
    import distributed

    import chunkhash.dask as chd

    size = max(1 << 20, int((4 << 30) * scale))
    _make_file(path, size)
    expected = chunkhash.blake3()
    expected.update_mmap(path)  # Also warms the page cache.
    cases: List[Case] = []
    with (
        distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0") as two,
        distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True, dashboard_address=":0") as one,
        distributed.Client(two, set_as_default=False) as client_two,
        distributed.Client(one, set_as_default=False) as client_one,
    ):

        def on(client: Any) -> Callable[[], float]:
            def go() -> None:
                with client.as_current():
                    result = chd.hash_file(path)
                assert result.digest == expected.digest(), "hash_file disagrees with blake3.update_mmap"

            return lambda: _worker_cpu(client, go)

        def cli_run(threads: str) -> Callable[[], float]:
            def go() -> float:
                before = resource.getrusage(resource.RUSAGE_CHILDREN)
                subprocess.run([str(cli), "sum", "-j", threads, path], check=True, capture_output=True)
                after = resource.getrusage(resource.RUSAGE_CHILDREN)
                return float(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)

            return go

        cases += [("chunkhash.dask.hash_file, 2 workers", on(client_two)), ("chunkhash.dask.hash_file, 1 worker", on(client_one))]
        if cli:
            for threads in ("1", "2"):
                cases.append((f"chunkhash sum -j {threads} (one process)", cli_run(threads)))
        with client_two.as_current():
            parts = chd.hash_file(path)
        _run(
            f"hash_file of {size / (1 << 30):.2f} GiB ({parts.parts} parts of {parts.part_size >> 20} MiB, BLAKE3 + CRC32C + CRC64/NVME; page cache warm)",
            cases,
            rounds,
            size,
            "bytes",
            [("2 workers / 1 worker", "chunkhash.dask.hash_file, 1 worker", "chunkhash.dask.hash_file, 2 workers")]
            + ([("2 workers / chunkhash sum -j 1", "chunkhash sum -j 1 (one process)", "chunkhash.dask.hash_file, 2 workers")] if cli else []),
        )


def main(argv: Optional[List[str]] = None) -> None:
    sections = ("dask", "spark", "file")
    parser = argparse.ArgumentParser(prog="python -m chunkhash.bench_scale_out", description=(__doc__ or "").split("\n")[0])
    parser.add_argument("sections", nargs="*", help=f"of {', '.join(sections)} (default: all)")
    parser.add_argument("--rounds", type=int, default=5, help="rounds per section (default 5)")
    parser.add_argument("--scale", type=float, default=1.0, help="multiplies row counts and the file size (default 1)")
    parser.add_argument("--file", default="chunkhash-bench-file.bin", help="the file section's file, made (random) when missing or of another size")
    parser.add_argument("--cli", default=os.environ.get("CHUNKHASH_CLI") or shutil.which("chunkhash"), help="the chunkhash CLI (default: $CHUNKHASH_CLI or PATH)")
    args = parser.parse_args(argv)
    # PySpark 4.3 warns on each UDF that it was not tested with pandas 3.
    warnings.filterwarnings("ignore", "PySpark does not yet fully support pandas", FutureWarning)
    chosen = args.sections or list(sections)
    for section in chosen:
        if section not in sections:
            parser.error(f"unknown section {section!r}; choose from {', '.join(sections)}")
    print(
        f"chunkhash {chunkhash.__version__}, BLAKE3 backend {chunkhash.blake3_backend()}, Python {platform.python_version()}, "
        f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}, {args.rounds} rounds, scale {args.scale}"
    )
    print("peers: " + ", ".join(f"{name} {_version(name)}" for name in ("blake3", "dask", "distributed", "pyspark", "pyarrow")))
    if "dask" in chosen:
        bench_dask(args.rounds, args.scale)
    if "spark" in chosen:
        bench_spark(args.rounds, args.scale)
    if "file" in chosen:
        bench_file(args.rounds, args.scale, args.file, args.cli)
    print(f"\nload average at the end {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
