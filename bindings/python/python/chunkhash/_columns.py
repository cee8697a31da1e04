"""The column functions `chunkhash.dask` and `chunkhash.spark` share: which
algorithms they offer, the Arrow type of each one's digests, and one Arrow
array (or chunked array) hashed by one `hash_array` call.

Imports pyarrow, which both Dask's Arrow-backed columns and PySpark's Arrow
UDFs already need.
"""

from __future__ import annotations

from typing import Dict, Optional, Union

import pyarrow as pa  # type: ignore[import-untyped]

from . import hash_array

# The column functions and the registry algorithm behind each. `address` is
# BLAKE3 cut to 20 bytes (the registry's BLAKE3-160, the store's address).
ALGORITHMS: Dict[str, str] = {
    "blake3": "blake3",
    "address": "blake3_160",
    "xxh3_64": "xxh3_64",
    "xxh3_128": "xxh3_128",
    "crc32c": "crc32c",
    "crc64nvme": "crc64nvme",
}

# What `hash_array` returns for each: the integer checksums as unsigned
# integers, the others as fixed-size binary.
DIGEST_TYPES: Dict[str, pa.DataType] = {
    "blake3": pa.binary(32),
    "address": pa.binary(20),
    "xxh3_64": pa.uint64(),
    "xxh3_128": pa.binary(16),
    "crc32c": pa.uint32(),
    "crc64nvme": pa.uint64(),
}

BLAKE3_LEN = 32


def _is_value_type(arrow_type: pa.DataType) -> bool:
    types = pa.types
    return bool(
        types.is_binary(arrow_type)
        or types.is_large_binary(arrow_type)
        or types.is_string(arrow_type)
        or types.is_large_string(arrow_type)
        or types.is_binary_view(arrow_type)
        or types.is_string_view(arrow_type)
    )


def check_value_type(arrow_type: pa.DataType, column: object) -> None:
    """TypeError unless `arrow_type` is one `hash_array` takes."""
    if not _is_value_type(arrow_type):
        raise TypeError(
            f"column {column!r} holds {arrow_type}; chunkhash hashes binary or string columns "
            "(Arrow binary, large_binary, binary_view, string, large_string, string_view)"
        )


def check_algorithm(algorithm: str, length: int) -> None:
    """ValueError for an algorithm the column functions lack or a BLAKE3
    length they cannot give; checked where the job is built, not in a task."""
    if algorithm not in ALGORITHMS:
        raise ValueError(f"unknown column algorithm {algorithm!r}; expected one of {', '.join(ALGORITHMS)}")
    if length != BLAKE3_LEN and algorithm != "blake3":
        raise ValueError(f"length applies to blake3 only, not {algorithm}")
    if not 1 <= length <= BLAKE3_LEN:
        # A column of longer outputs would need BLAKE3's extended output per
        # value, which the batch path does not compute.
        raise ValueError(
            f"blake3 length must be from 1 to {BLAKE3_LEN}, not {length}; "
            "for longer outputs use chunkhash.blake3(value).digest(length) per value"
        )


def digest_type(algorithm: str, length: int = BLAKE3_LEN) -> pa.DataType:
    """The Arrow type of the digests `hash_arrow` returns."""
    return pa.binary(length) if algorithm == "blake3" else DIGEST_TYPES[algorithm]


def hash_arrow(
    values: Union[pa.Array, pa.ChunkedArray],
    algorithm: str,
    length: int = BLAKE3_LEN,
    key: Optional[bytes] = None,
    derive_key_context: Optional[str] = None,
) -> pa.Array:
    """The digest of every value, one `hash_array` call for the whole input;
    null values give null digests."""
    check_value_type(values.type, "values")
    values = _aligned(values)
    if algorithm == "blake3":
        digests = pa.array(hash_array(values, "blake3", key=key, derive_key_context=derive_key_context))
    else:
        digests = pa.array(hash_array(values, ALGORITHMS[algorithm]))
    if algorithm == "blake3" and length != BLAKE3_LEN:
        digests = _truncate(digests, length)
    return digests


def _aligned(values: Union[pa.Array, pa.ChunkedArray]) -> Union[pa.Array, pa.ChunkedArray]:
    """`values` with each chunk's offsets (or views) buffer at an address
    aligned for its integers, which `hash_array` requires. Arrays that
    crossed a pickle (Dask sends partitions between processes with
    protocol 5's out-of-band buffers) may start that buffer anywhere; only
    such a chunk's offsets are copied, never its data."""
    chunks = values.chunks if isinstance(values, pa.ChunkedArray) else [values]
    if all(_offsets_aligned(chunk) for chunk in chunks):
        return values
    import numpy as np

    fixed = []
    for chunk in chunks:
        if not _offsets_aligned(chunk):
            buffers = chunk.buffers()
            # numpy allocates at 16-byte boundaries or better.
            buffers[1] = pa.py_buffer(np.frombuffer(buffers[1], dtype=np.uint8).copy())
            chunk = pa.Array.from_buffers(chunk.type, len(chunk), buffers, chunk.null_count, chunk.offset)
        fixed.append(chunk)
    return pa.chunked_array(fixed, values.type)


def _offsets_aligned(chunk: pa.Array) -> bool:
    offsets = chunk.buffers()[1]
    return offsets is None or offsets.address % 8 == 0


def _truncate(digests: pa.FixedSizeBinaryArray, length: int) -> pa.Array:
    """The first `length` bytes of each 32-byte BLAKE3 digest: a shorter
    BLAKE3 output is a prefix of the longer one (the specification's XOF).
    `digests` is `hash_array`'s export, which starts at offset 0."""
    import numpy as np

    validity, data = digests.buffers()
    rows = np.frombuffer(data, dtype=np.uint8, count=len(digests) * BLAKE3_LEN).reshape(-1, BLAKE3_LEN)
    values = pa.py_buffer(np.ascontiguousarray(rows[:, :length]))
    return pa.Array.from_buffers(pa.binary(length), len(digests), [validity, values], digests.null_count)
