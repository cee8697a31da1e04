"""Differential tests against independent implementations, over random
lengths, split points and batch shapes from a fixed seed (conftest.SEED):
hashlib (SHA-2, BLAKE2b), blake3-py (the official Rust crate), python-xxhash
(the official C library), crc32c (ICRAR's C implementation), zlib (CRC-32)
and awscrt (AWS's aws-checksums, CRC-64/NVME)."""

from __future__ import annotations

import hashlib
import random
import zlib
from typing import Callable, Dict, List

import blake3 as blake3_py
from awscrt import checksums as aws_checksums
import crc32c as crc32c_ref
import numpy as np
import pyarrow as pa
import pytest
import xxhash

import chunkhash

# Reference digests in chunkhash's layout: integer checksums big-endian, as
# their canonical digest() forms are.
REFERENCES: Dict[str, Callable[[bytes], bytes]] = {
    "blake3": lambda data: blake3_py.blake3(data).digest(),
    "blake3_160": lambda data: blake3_py.blake3(data).digest()[:20],
    "xxh3_64": lambda data: xxhash.xxh3_64(data).digest(),
    "xxh3_128": lambda data: xxhash.xxh3_128(data).digest(),
    "xxh64": lambda data: xxhash.xxh64(data).digest(),
    "xxh32": lambda data: xxhash.xxh32(data).digest(),
    "crc32c": lambda data: crc32c_ref.crc32c(data).to_bytes(4, "big"),
    "crc32": lambda data: zlib.crc32(data).to_bytes(4, "big"),
    "crc64nvme": lambda data: aws_checksums.crc64nvme(data).to_bytes(8, "big"),
    "blake2b": lambda data: hashlib.blake2b(data).digest(),
    "blake2b_256": lambda data: hashlib.blake2b(data, digest_size=32).digest(),
    "sha256": lambda data: hashlib.sha256(data).digest(),
    "sha512": lambda data: hashlib.sha512(data).digest(),
    "sha512_160": lambda data: hashlib.sha512(data).digest()[:20],
    "md5": lambda data: hashlib.md5(data).digest(),
    "sha1": lambda data: hashlib.sha1(data).digest(),
}


def test_every_algorithm_has_a_reference() -> None:
    assert set(REFERENCES) == chunkhash.algorithms_available


def random_length(rng: random.Random) -> int:
    """Mostly small, sometimes across chunk and block edges, sometimes big."""
    kind = rng.random()
    if kind < 0.5:
        return rng.randrange(0, 300)
    if kind < 0.8:
        return rng.choice([64, 1024, 2048, 4096, 8192]) + rng.randrange(-3, 4)
    return rng.randrange(0, 200_000)


@pytest.mark.parametrize("name", sorted(REFERENCES))
def test_random_lengths_and_splits(name: str, rng: random.Random) -> None:
    reference = REFERENCES[name]
    for _ in range(40):
        data = rng.randbytes(max(0, random_length(rng)))
        expected = reference(data)
        assert chunkhash.hash(name, data) == expected, len(data)
        hasher = getattr(chunkhash, name)()
        position = 0
        while position < len(data):
            step = rng.choice([1, 7, 63, 64, 65, 1024, 5000, len(data)])
            hasher.update(memoryview(data)[position : position + step])
            position += step
        assert hasher.digest() == expected, len(data)
        if name not in ("blake3",):
            assert isinstance(hasher, chunkhash.Hasher)


@pytest.mark.parametrize("name", ["xxh3_64", "xxh3_128", "xxh64", "xxh32", "crc32c", "crc32", "crc64nvme"])
def test_intdigest(name: str, rng: random.Random) -> None:
    ints = {
        "xxh3_64": lambda d: xxhash.xxh3_64_intdigest(d),
        "xxh3_128": lambda d: xxhash.xxh3_128_intdigest(d),
        "xxh64": lambda d: xxhash.xxh64_intdigest(d),
        "xxh32": lambda d: xxhash.xxh32_intdigest(d),
        "crc32c": lambda d: crc32c_ref.crc32c(d),
        "crc32": lambda d: zlib.crc32(d),
        "crc64nvme": lambda d: aws_checksums.crc64nvme(d),
    }
    for _ in range(50):
        data = rng.randbytes(random_length(rng))
        hasher = chunkhash.new(name, data)
        assert isinstance(hasher, chunkhash.Hasher)
        assert hasher.intdigest() == ints[name](data)


def test_blake3_modes_and_extended_output(rng: random.Random) -> None:
    for _ in range(60):
        data = rng.randbytes(random_length(rng))
        key = rng.randbytes(32)
        context = f"chunkhash test {rng.randrange(1 << 30)}"
        length = rng.randrange(0, 300)
        seek = rng.choice([0, rng.randrange(0, 1000), (1 << 64) - 1 - length])
        ours = chunkhash.blake3(data)
        theirs = blake3_py.blake3(data)
        assert ours.digest(length, seek=seek) == theirs.digest(length, seek=seek)
        assert chunkhash.blake3(data, key=key).digest(length, seek=seek) == blake3_py.blake3(data, key=key).digest(length, seek=seek)
        assert chunkhash.hash("blake3", data, key=key) == blake3_py.blake3(data, key=key).digest()
        assert chunkhash.hash("blake3", data, derive_key_context=context) == blake3_py.blake3(data, derive_key_context=context).digest()
        assert chunkhash.blake3(data, derive_key_context=context).hexdigest(length) == blake3_py.blake3(
            data, derive_key_context=context
        ).hexdigest(length)


@pytest.mark.parametrize("name", sorted(REFERENCES))
def test_batch_shapes(name: str, rng: random.Random) -> None:
    """hash_many and hash_array against the reference, over batch sizes
    around the lane counts (1, 4, 8, 16 lanes) and mixed lengths."""
    reference = REFERENCES[name]
    for count in (0, 1, 2, 3, 7, 8, 9, 15, 16, 17, 31, 33, 100, 257):
        uniform = rng.random() < 0.3
        length = rng.randrange(0, 2000)
        messages = [rng.randbytes(length if uniform else random_length(rng) % 20_000) for _ in range(count)]
        expected = b"".join(reference(m) for m in messages)
        assert chunkhash.hash_many(messages, name) == expected, (count, uniform)
        assert chunkhash.hash_many(tuple(messages), name) == expected
        assert chunkhash.hash_many(iter(messages), name) == expected
        out = bytearray(len(expected))
        assert chunkhash.hash_many([bytearray(m) for m in messages], name, out=out) is out
        assert out == expected
        column = chunkhash.hash_array(pa.array(messages, pa.binary()), name)
        assert len(column) == count
        values = [column[i] for i in range(count)]
        size = len(reference(b""))
        digests = [expected[i * size : (i + 1) * size] for i in range(count)]
        assert values == [int.from_bytes(d, "big") if isinstance(v, int) else d for v, d in zip(values, digests)]


def test_blake3_batch_modes(rng: random.Random) -> None:
    key = rng.randbytes(32)
    context = "chunkhash batch test context"
    for count in (1, 16, 17, 200):
        messages = [rng.randbytes(random_length(rng) % 9000) for _ in range(count)]
        assert chunkhash.hash_many(messages, key=key) == b"".join(blake3_py.blake3(m, key=key).digest() for m in messages)
        assert chunkhash.hash_many(messages, derive_key_context=context) == b"".join(
            blake3_py.blake3(m, derive_key_context=context).digest() for m in messages
        )
        column = chunkhash.hash_array(pa.array(messages), key=key)
        assert [column[i] for i in range(count)] == [blake3_py.blake3(m, key=key).digest() for m in messages]


def test_batch_into_numpy(rng: random.Random) -> None:
    messages = [rng.randbytes(rng.randrange(0, 3000)) for _ in range(50)]
    out = np.zeros((50, 32), dtype=np.uint8)
    result = chunkhash.hash_many(messages, out=out)
    assert result is out
    assert [bytes(row) for row in out] == [blake3_py.blake3(m).digest() for m in messages]


def test_numpy_messages(rng: random.Random) -> None:
    """Rows of a 2-D array, and arrays of other item types: their bytes are
    hashed, as hashlib does."""
    matrix = np.frombuffer(rng.randbytes(64 * 40), dtype=np.uint8).reshape(40, 64)
    assert chunkhash.hash_many(list(matrix)) == b"".join(blake3_py.blake3(row.tobytes()).digest() for row in matrix)
    floats = np.arange(100, dtype=np.float64)
    assert chunkhash.hash("sha256", floats) == hashlib.sha256(floats.tobytes()).digest()


@pytest.mark.parametrize("name", sorted(REFERENCES))
def test_batch_equals_one_at_a_time(name: str, rng: random.Random) -> None:
    """hash_many and hash_array (32- and 64-bit offsets, sliced so the first
    offset is not 0, nulls among the rows) equal chunkhash.hash of each
    message, over more rows than the binding's group of 256 digests, with
    one long message among short ones (lengths 0..4160)."""
    messages = [rng.randbytes(rng.randrange(0, 300)) for _ in range(700)]
    messages[300] = rng.randbytes(4160)
    one_at_a_time = [chunkhash.hash(name, m) for m in messages]
    assert chunkhash.hash_many(messages, name) == b"".join(one_at_a_time)
    values: List[object] = [None if i % 97 == 5 else m for i, m in enumerate(messages)]
    for arrow_type in (pa.binary(), pa.large_binary()):
        column = chunkhash.hash_array(pa.array(values, arrow_type).slice(3, 650), name)
        got = [column[i] for i in range(len(column))]
        expected = [None if v is None else d for v, d in zip(values[3:653], one_at_a_time[3:653])]
        got_bytes = [g if not isinstance(g, int) else g.to_bytes(len(one_at_a_time[0]), "big") for g in got]
        assert got_bytes == expected, (name, arrow_type)


@pytest.mark.parametrize("nulls", [0.0, 0.1, 1.0])
def test_arrow_nulls_and_offsets(nulls: float, rng: random.Random) -> None:
    values: List[object] = [None if rng.random() < nulls else rng.randbytes(rng.randrange(0, 3000)) for _ in range(300)]
    array = pa.array(values, pa.binary())
    for start, stop in ((0, 300), (1, 300), (7, 150), (299, 300), (5, 5)):
        sliced = array.slice(start, stop - start)
        for name in ("blake3", "xxh3_64", "crc32c", "sha256"):
            column = chunkhash.hash_array(sliced, name)
            expected = [None if v is None else REFERENCES[name](v) for v in values[start:stop]]  # type: ignore[arg-type]
            got = [column[i] for i in range(len(column))]
            got_bytes = [g if not isinstance(g, int) else g.to_bytes(len(REFERENCES[name](b"")), "big") for g in got]
            assert got_bytes == expected, (start, stop, name)
            assert column.null_count == sum(v is None for v in values[start:stop])
            imported = pa.array(column)
            assert imported.null_count == column.null_count
            assert len(imported) == stop - start


@pytest.mark.parametrize("arrow_type", [pa.binary(), pa.large_binary(), pa.string(), pa.large_string()])
def test_arrow_short_values_every_mode(arrow_type: pa.DataType, rng: random.Random) -> None:
    # A column of short values (0..=200 bytes, the batch's small-message
    # path), sliced so the first offset is not 0, in every BLAKE3 mode.
    text = pa.types.is_string(arrow_type) or pa.types.is_large_string(arrow_type)
    raw = [bytes(rng.randrange(32, 127) for _ in range(rng.randrange(0, 201))) for _ in range(700)]
    values: List[object] = [None if rng.random() < 0.05 else (v.decode() if text else v) for v in raw]
    array = pa.array(values, arrow_type).slice(3, 650)
    expected_values = values[3:653]
    key = bytes(range(32))
    context = "chunkhash 2026-11-24 hash_array short values"
    cases = [
        ("blake3", {}, lambda v: blake3_py.blake3(v).digest()),
        ("blake3_160", {}, lambda v: blake3_py.blake3(v).digest()[:20]),
        ("blake3", {"key": key}, lambda v: blake3_py.blake3(v, key=key).digest()),
        ("blake3", {"derive_key_context": context}, lambda v: blake3_py.blake3(v, derive_key_context=context).digest()),
    ]
    for name, options, reference in cases:
        column = chunkhash.hash_array(array, name, **options)
        for i, value in enumerate(expected_values):
            data = value.encode() if isinstance(value, str) else value
            assert column[i] == (None if data is None else reference(data)), (name, options, i)


def test_arrow_bad_offsets_are_value_errors() -> None:
    data = pa.py_buffer(b"abcdefgh")
    # Offsets pyarrow's own checks let through: out of order, or negative.
    for offsets in ([0, 5, 3], [1, 0, 3], [2, -1, 3]):
        for arrow_type, width in ((pa.binary(), "<i4"), (pa.large_binary(), "<i8")):
            buffer = pa.py_buffer(np.array(offsets, dtype=width).tobytes())
            array = pa.Array.from_buffers(arrow_type, 2, [None, buffer, data])
            with pytest.raises(ValueError, match="malformed Arrow array"):
                chunkhash.hash_array(array, "blake3")
