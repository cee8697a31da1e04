"""chunkhash.dask's column functions on a distributed LocalCluster of two
worker processes: every algorithm on binary and string columns against the
package's one-shot `hash` and independent references, nulls, empty values,
a value over 1 MiB, an all-null partition; the dask.hashing hook; bad input
raised on the client. The cluster is conftest's `dask_client`."""

from __future__ import annotations

import random
from typing import Any, List, Optional

import dask
import dask.dataframe as dd
import dask.hashing
import numpy as np
import pandas as pd
import pyarrow as pa
import pytest
from conftest import COLUMN_ALGORITHMS, column_reference, column_values

import chunkhash
import chunkhash.dask as chd

def _series(values: List[Optional[bytes]], text: bool) -> dd.Series:
    """Partitions of three rows; with `column_values`, the second one holds
    only nulls."""
    if text:
        data = pd.Series([None if v is None else v.hex() for v in values], dtype=pd.ArrowDtype(pa.string()), name="v")
    else:
        data = pd.Series(values, dtype=pd.ArrowDtype(pa.binary()), name="v")
    return dd.from_pandas(data, chunksize=3, sort=False)


def _expected(algorithm: str, values: List[Optional[bytes]], text: bool, check: Any) -> List[Any]:
    inputs = [None if v is None else (v.hex().encode() if text else v) for v in values]
    return [None if v is None else check(algorithm, v) for v in inputs]


def _one_shot(algorithm: str, value: bytes) -> Any:
    digest = chunkhash.hash(COLUMN_ALGORITHMS[algorithm], value)
    return int.from_bytes(digest, "big") if algorithm in ("xxh3_64", "crc32c", "crc64nvme") else digest


def _values(result: pd.Series) -> List[Any]:
    return [None if value is pd.NA else value for value in result.tolist()]


@pytest.mark.parametrize("text", [False, True], ids=["binary", "string"])
@pytest.mark.parametrize("algorithm", list(COLUMN_ALGORITHMS))
def test_column_functions(dask_client: Any, rng: random.Random, algorithm: str, text: bool) -> None:
    values = column_values(rng)
    series = _series(values, text)
    assert series.npartitions == 4 and series.partitions[1].isna().all().compute()
    function = getattr(chd, algorithm)
    digests = function(series)
    result = digests.compute()
    assert result.dtype == pd.ArrowDtype(chunkhash._columns.digest_type(algorithm))
    assert result.name == "v" and list(result.index) == list(range(len(values)))
    assert _values(result) == _expected(algorithm, values, text, column_reference)
    assert _values(result) == _expected(algorithm, values, text, _one_shot)


def test_blake3_options(dask_client: Any, rng: random.Random) -> None:
    import blake3 as blake3_py

    values = column_values(rng)
    series = _series(values, False)
    short = _values(chd.blake3(series, 7).compute())
    assert short == [None if v is None else blake3_py.blake3(v).digest()[:7] for v in values]
    key = bytes(range(32))
    keyed = _values(chd.blake3(series, key=key).compute())
    assert keyed == [None if v is None else blake3_py.blake3(v, key=key).digest() for v in values]
    derived = _values(chd.blake3(series, derive_key_context="chunkhash tests").compute())
    assert derived == [None if v is None else blake3_py.blake3(v, derive_key_context="chunkhash tests").digest() for v in values]


def test_frame_and_pandas_string_dtype(dask_client: Any) -> None:
    frame = dd.from_pandas(
        pd.DataFrame({"a": pd.Series(["x", None, "zz"], dtype="string[pyarrow]"), "b": pd.Series([b"1", b"", None], dtype=pd.ArrowDtype(pa.large_binary()))}),
        npartitions=2,
    )
    result = chd.crc32c(frame).compute()
    assert list(result.columns) == ["a", "b"]
    assert _values(result["a"]) == [column_reference("crc32c", b"x"), None, column_reference("crc32c", b"zz")]
    assert _values(result["b"]) == [column_reference("crc32c", b"1"), 0, None]


def test_empty_column(dask_client: Any) -> None:
    empty = dd.from_pandas(pd.Series([], dtype=pd.ArrowDtype(pa.binary())), npartitions=1)
    assert len(chd.address(empty).compute()) == 0


def test_wrong_column_type_raises_on_the_client() -> None:
    numbers = dd.from_pandas(pd.Series([1, 2, 3], name="n"), npartitions=1)
    with pytest.raises(TypeError, match="column 'n' has dtype int64; chunkhash.dask hashes Arrow-backed binary or string"):
        chd.blake3(numbers)
    # Dask would turn an object column into Arrow strings by itself.
    with dask.config.set({"dataframe.convert-string": False}):
        objects = dd.from_pandas(pd.Series([b"a", b"b"], dtype=object, name="o"), npartitions=1)
    with pytest.raises(TypeError, match="column 'o' has dtype object"):
        chd.xxh3_64(objects)
    lists = dd.from_pandas(pd.Series([[1], [2]], dtype=pd.ArrowDtype(pa.list_(pa.int64())), name="l"), npartitions=1)
    with pytest.raises(TypeError, match="column 'l' holds list<item: int64>"):
        chd.crc64nvme(lists)
    frame = dd.from_pandas(pd.DataFrame({"ok": pd.Series([b"a"], dtype=pd.ArrowDtype(pa.binary())), "bad": [1.5]}), npartitions=1)
    with pytest.raises(TypeError, match="column 'bad' has dtype float64"):
        chd.crc32c(frame)
    with pytest.raises(TypeError, match="expected a Dask Series or DataFrame, not Series"):
        chd.blake3(pd.Series([b"a"], dtype=pd.ArrowDtype(pa.binary())))  # type: ignore[arg-type]


def test_bad_options_raise_on_the_client() -> None:
    series = _series([b"a"], False)
    with pytest.raises(ValueError, match="unknown column algorithm 'md5'; expected one of blake3, address"):
        chd.hash_column(series, "md5")
    with pytest.raises(ValueError, match="blake3 length must be from 1 to 32, not 33"):
        chd.blake3(series, 33)
    with pytest.raises(ValueError, match="blake3 length must be from 1 to 32, not 0"):
        chd.blake3(series, 0)
    with pytest.raises(ValueError, match="length applies to blake3 only"):
        chd.hash_column(series, "crc32c", length=4)
    with pytest.raises(ValueError, match="key and derive_key_context apply to blake3 only"):
        chd.hash_column(series, "xxh3_64", key=bytes(32))
    # A key of the wrong size reaches hash_array only in the task; its
    # ValueError comes back to the client as it is.
    with pytest.raises(ValueError, match="key"):
        chd.blake3(series, key=b"short").compute(scheduler="sync")


def test_dask_hashing_hook() -> None:
    data = np.arange(1000, dtype=np.int64)
    before = dask.base.tokenize(data)
    chd.register_hasher()
    chd.register_hasher()
    try:
        assert dask.hashing.hashers.count(chd.hash_buffer) == 1 and dask.hashing.hashers[0] is chd.hash_buffer
        assert dask.hashing.hash_buffer(b"chunk") == column_reference("xxh3_128", b"chunk")
        assert dask.hashing.hash_buffer(data) == column_reference("xxh3_128", data.tobytes())
        # A strided view is not a contiguous buffer: TypeError, on which
        # dask goes on to its next hasher.
        with pytest.raises(TypeError, match="not C-contiguous"):
            chd.hash_buffer(memoryview(data)[::2])
        assert dask.base.tokenize(data) == dask.base.tokenize(data.copy())
    finally:
        chd.unregister_hasher()
    assert chd.hash_buffer not in dask.hashing.hashers
    assert dask.base.tokenize(data) == before


def test_offsets_not_aligned() -> None:
    """Partitions that crossed a pickle may hold an offsets buffer at an odd
    address, which `hash_array` refuses; the column functions copy those
    offsets (only) to aligned memory first."""
    from chunkhash._columns import hash_arrow

    values = [b"a", None, b"", b"bc" * 40]
    array = pa.array(values, pa.binary())
    validity, offsets, data = array.buffers()
    shifted = pa.py_buffer(b"\0" + offsets.to_pybytes()).slice(1)
    misaligned = pa.Array.from_buffers(pa.binary(), len(values), [validity, shifted, data], array.null_count)
    assert misaligned.buffers()[1].address % 4 != 0
    expected = [None if v is None else column_reference("blake3", v) for v in values]
    assert hash_arrow(misaligned, "blake3").to_pylist() == expected
    assert hash_arrow(pa.chunked_array([array, misaligned]), "blake3").to_pylist() == expected + expected
