"""The Arrow path with pyarrow and with polars: every accepted type, chunked
input, nulls, and the result imported back by both libraries."""

from __future__ import annotations

import blake3 as blake3_py
import polars as pl
import pyarrow as pa
import pytest
import xxhash

import chunkhash

VALUES = [b"", b"a", None, b"x" * 12, b"y" * 13, bytes(range(256)) * 40, None, b"last"]


@pytest.mark.parametrize("arrow_type", [pa.binary(), pa.large_binary(), pa.binary_view(), pa.string(), pa.large_string(), pa.string_view()])
def test_pyarrow_types(arrow_type: pa.DataType) -> None:
    """12-byte values sit inline in a view, 13-byte ones in a data buffer."""
    text = pa.types.is_string(arrow_type) or pa.types.is_large_string(arrow_type) or arrow_type == pa.string_view()
    values = [None if v is None else (v.decode("latin-1") if text else v) for v in VALUES]
    column = chunkhash.hash_array(pa.array(values, arrow_type))
    expected = [None if v is None else blake3_py.blake3(v.encode("utf-8") if isinstance(v, str) else v).digest() for v in values]
    assert [column[i] for i in range(len(values))] == expected
    assert column.null_count == 2 and column.type == "fixed_size_binary[32]"


def test_result_imported_by_pyarrow() -> None:
    column = chunkhash.hash_array(pa.array(VALUES))
    imported = pa.array(column)
    assert imported.type == pa.binary(32)
    assert imported.to_pylist() == [None if v is None else blake3_py.blake3(v).digest() for v in VALUES]
    # The export can be taken again, and outlives the DigestArray object.
    again = pa.array(column)
    del column
    assert again.equals(imported)
    # The stream export: one chunk.
    chunked = pa.chunked_array(chunkhash.hash_array(pa.array(VALUES)))
    assert chunked.num_chunks == 1 and chunked.chunk(0).equals(imported)


@pytest.mark.parametrize("name,arrow_type,reference", [
    ("xxh3_64", pa.uint64(), lambda v: xxhash.xxh3_64_intdigest(v)),
    ("xxh64", pa.uint64(), lambda v: xxhash.xxh64_intdigest(v)),
    ("xxh32", pa.uint32(), lambda v: xxhash.xxh32_intdigest(v)),
    ("xxh3_128", pa.binary(16), lambda v: xxhash.xxh3_128_digest(v)),
])
def test_integer_checksums(name: str, arrow_type: pa.DataType, reference: object) -> None:
    imported = pa.array(chunkhash.hash_array(pa.array(VALUES), name))
    assert imported.type == arrow_type
    assert imported.to_pylist() == [None if v is None else reference(v) for v in VALUES]  # type: ignore[operator]


def test_chunked_array() -> None:
    chunked = pa.chunked_array([pa.array(VALUES[:3]), pa.array([], pa.binary()), pa.array(VALUES[3:])])
    column = chunkhash.hash_array(chunked)
    assert [column[i] for i in range(len(VALUES))] == [None if v is None else blake3_py.blake3(v).digest() for v in VALUES]
    assert column.null_count == 2


def test_empty_and_all_null() -> None:
    assert len(chunkhash.hash_array(pa.array([], pa.binary()))) == 0
    assert pa.array(chunkhash.hash_array(pa.array([], pa.string()))).type == pa.binary(32)
    column = chunkhash.hash_array(pa.array([None, None], pa.binary()))
    assert column.null_count == 2 and pa.array(column).to_pylist() == [None, None]


def test_polars_in_and_out() -> None:
    strings = pl.Series("s", ["a", None, "ccc" * 100, ""])
    column = chunkhash.hash_array(strings)
    expected = [None if v is None else blake3_py.blake3(v.encode()).digest() for v in strings.to_list()]
    assert [column[i] for i in range(4)] == expected
    back = pl.Series(column)
    assert back.dtype == pl.Binary and back.to_list() == expected
    ints = pl.Series(chunkhash.hash_array(pl.Series([b"a", None], dtype=pl.Binary), "crc32c"))
    assert ints.dtype == pl.UInt32 and ints.to_list() == [int.from_bytes(chunkhash.hash("crc32c", b"a"), "big"), None]
    frame = pl.DataFrame({"chunk": [b"one", b"two"]})
    assert pl.Series(chunkhash.hash_array(frame["chunk"], "xxh64")).to_list() == [xxhash.xxh64_intdigest(b"one"), xxhash.xxh64_intdigest(b"two")]


def test_million_rows_zero_copy_input() -> None:
    """A 1M-row column, hashed in blocks of 64Ki rows: the input buffers are
    read in place (the call allocates no Arrow memory), and rows on both
    sides of every block edge, nulls among them, match hash_many."""
    values = [None if i % 1000 == 999 or i == 65536 else i.to_bytes(8, "little") * 3 for i in range(1_000_000)]
    column = pa.array(values, pa.binary())
    before = pa.total_allocated_bytes()
    digests = chunkhash.hash_array(column, "xxh3_64")
    assert pa.total_allocated_bytes() == before
    imported = pa.array(digests).to_pylist()
    rows = sorted({*range(0, 1_000_000, 99_991), *(k * 65536 + d for k in range(1, 16) for d in (-1, 0, 1)), 999_999})
    assert [imported[i] for i in rows] == [None if values[i] is None else xxhash.xxh3_64_intdigest(values[i]) for i in rows]
    assert digests.null_count == sum(v is None for v in values)
