"""chunkhash for Dask: columns hashed where their partitions live, and one
file hashed by many workers.

Column functions take a Dask Series (or a DataFrame, every column hashed)
of Arrow-backed binary or string values (`pd.ArrowDtype(pa.binary())`,
`pd.ArrowDtype(pa.string())`, or pandas' pyarrow `str` dtype) and return a
lazy Series of Arrow-backed digests, one `hash_array` call per partition;
null values give null digests::

    import chunkhash.dask as chd

    frame["id"] = chd.blake3(frame["payload"])        # binary[pyarrow], 32 bytes
    frame["addr"] = chd.address(frame["payload"])     # 20 bytes
    frame["check"] = chd.crc32c(frame["payload"])     # uint32[pyarrow]

A column of the wrong type or an unknown algorithm raises when the call is
made, on the client, before anything runs.

`hash_file(path)` splits a file at BLAKE3 subtree boundaries, hashes each
part in a task (each task reads its own range, so the workers must see the
same file system), and merges on the client: the same BLAKE3 hash as
`chunkhash sum` and b3sum, and the file's CRC32C and CRC64/NVME.

`register_hasher()` puts chunkhash's XXH3-128 first in
`dask.hashing.hashers`, the list `dask.hashing.hash_buffer` (and so
`dask.base.tokenize` for NumPy buffers) tries in turn.
"""

from __future__ import annotations

import os
from typing import Any, Callable, Optional, Union

import dask
import dask.dataframe as dd
import dask.hashing
import pandas as pd  # type: ignore[import-untyped]
import pyarrow as pa  # type: ignore[import-untyped]

from . import hash as _hash
from ._columns import BLAKE3_LEN, check_algorithm, check_value_type, digest_type, hash_arrow
from ._file_parts import FileHash, PartHash, combine, hash_part, plan

__all__ = [
    "FileHash",
    "address",
    "blake3",
    "crc32c",
    "crc64nvme",
    "hash_buffer",
    "hash_column",
    "hash_file",
    "register_hasher",
    "unregister_hasher",
    "xxh3_128",
    "xxh3_64",
]

Column = Union[dd.Series, dd.DataFrame]


def _arrow_type(dtype: Any, column: object) -> pa.DataType:
    """The Arrow type behind a pandas dtype; TypeError for a dtype whose
    values are not Arrow binary or string data."""
    if isinstance(dtype, pd.ArrowDtype):
        arrow_type = dtype.pyarrow_dtype
    elif isinstance(dtype, pd.StringDtype) and dtype.storage == "pyarrow":
        arrow_type = pa.large_string()
    else:
        raise TypeError(
            f"column {column!r} has dtype {dtype}; chunkhash.dask hashes Arrow-backed binary or string "
            "columns: convert with .astype(pd.ArrowDtype(pa.binary())) or .astype('string[pyarrow]')"
        )
    check_value_type(arrow_type, column)
    return arrow_type


def _digest_series(series: pd.Series, algorithm: str, length: int, key: Optional[bytes], context: Optional[str]) -> pd.Series:
    # The partition's Arrow data (a chunked array, never copied), hashed in
    # one call.
    values = pa.chunked_array(series.array.__arrow_array__())
    digests = hash_arrow(values, algorithm, length, key, context)
    return pd.Series(pd.arrays.ArrowExtensionArray(digests), index=series.index, name=series.name)


def _digest_partition(part: Union[pd.Series, pd.DataFrame], algorithm: str, length: int, key: Optional[bytes], context: Optional[str]) -> Any:
    if isinstance(part, pd.DataFrame):
        return pd.DataFrame({name: _digest_series(part[name], algorithm, length, key, context) for name in part.columns}, index=part.index)
    return _digest_series(part, algorithm, length, key, context)


def hash_column(
    column: Column,
    algorithm: str = "blake3",
    *,
    length: int = BLAKE3_LEN,
    key: Optional[bytes] = None,
    derive_key_context: Optional[str] = None,
) -> Column:
    """The digests of a Dask Series (or of each column of a DataFrame):
    `algorithm` one of blake3, address, xxh3_64, xxh3_128, crc32c,
    crc64nvme; `length` (1 to 32), `key` and `derive_key_context` for
    blake3. Lazy; the partitions keep their index and divisions."""
    check_algorithm(algorithm, length)
    if (key is not None or derive_key_context is not None) and algorithm != "blake3":
        raise ValueError(f"key and derive_key_context apply to blake3 only, not {algorithm}")
    digest_dtype = pd.ArrowDtype(digest_type(algorithm, length))
    if isinstance(column, dd.DataFrame):
        for name, dtype in column.dtypes.items():
            _arrow_type(dtype, name)
        meta: Any = pd.DataFrame({name: pd.Series([], dtype=digest_dtype) for name in column.columns})
    elif isinstance(column, dd.Series):
        _arrow_type(column.dtype, column.name)
        meta = pd.Series([], dtype=digest_dtype, name=column.name)
    else:
        raise TypeError(f"expected a Dask Series or DataFrame, not {type(column).__name__}")
    return column.map_partitions(_digest_partition, algorithm, length, key, derive_key_context, meta=meta)


def blake3(column: Column, length: int = BLAKE3_LEN, *, key: Optional[bytes] = None, derive_key_context: Optional[str] = None) -> Column:
    """BLAKE3 of each value, `length` bytes (1 to 32; a prefix of the 32)."""
    return hash_column(column, "blake3", length=length, key=key, derive_key_context=derive_key_context)


def address(column: Column) -> Column:
    """The 20-byte content address of each value (BLAKE3 cut to 160 bits)."""
    return hash_column(column, "address")


def xxh3_64(column: Column) -> Column:
    """XXH3-64 of each value, as uint64."""
    return hash_column(column, "xxh3_64")


def xxh3_128(column: Column) -> Column:
    """XXH3-128 of each value, 16 bytes big-endian (xxhash's digest())."""
    return hash_column(column, "xxh3_128")


def crc32c(column: Column) -> Column:
    """CRC32C of each value, as uint32."""
    return hash_column(column, "crc32c")


def crc64nvme(column: Column) -> Column:
    """CRC64/NVME of each value, as uint64."""
    return hash_column(column, "crc64nvme")


def _worker_threads() -> int:
    """Threads of the current distributed client, or of this machine."""
    try:
        from distributed import default_client

        return sum(default_client().nthreads().values())
    except (ImportError, ValueError):
        return os.cpu_count() or 1


def hash_file(path: Union[str, "os.PathLike[str]"], *, part_size: Optional[int] = None) -> FileHash:
    """The BLAKE3 hash, CRC32C and CRC64/NVME of one file, its parts hashed
    by the current Dask scheduler's workers (each reads its own range).
    `part_size`: a power of two of at least 1024 bytes; by default the
    smallest power of two from 16 MiB that gives each worker thread at most
    four parts."""
    path, size, part_size, parts = plan(path, part_size, _worker_threads())
    tasks = [dask.delayed(hash_part, pure=False)(path, part) for part in parts]
    results: tuple[PartHash, ...] = dask.compute(*tasks)
    return combine(path, size, part_size, results)


def hash_buffer(buffer: Any) -> bytes:
    """XXH3-128 of a buffer, 16 bytes: a `dask.hashing.hashers` entry.
    TypeError for a buffer chunkhash cannot read in place (not
    C-contiguous), which tells Dask to try its next hasher."""
    try:
        return _hash("xxh3_128", buffer)
    except ValueError as error:
        raise TypeError(str(error)) from error


def register_hasher(hasher: Callable[[Any], bytes] = hash_buffer) -> None:
    """Puts `hasher` first in `dask.hashing.hashers` (once), so
    `dask.hashing.hash_buffer` and tokenizing NumPy arrays use it in this
    process."""
    if hasher not in dask.hashing.hashers:
        dask.hashing.hashers.insert(0, hasher)


def unregister_hasher(hasher: Callable[[Any], bytes] = hash_buffer) -> None:
    """Takes `hasher` out of `dask.hashing.hashers` again."""
    while hasher in dask.hashing.hashers:
        dask.hashing.hashers.remove(hasher)
