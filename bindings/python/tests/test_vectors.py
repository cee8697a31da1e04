"""Known answers: every case of the official BLAKE3 vectors
(vectors/blake3/test_vectors.json) and every digest of vectors/golden.json,
through every entry point: objects (whole and split), one-shot, batch and
Arrow."""

from __future__ import annotations

from typing import Any, List

import pyarrow as pa
import pytest

import chunkhash
from conftest import load, pattern

OFFICIAL = load("blake3/test_vectors.json")
GOLDEN = load("golden.json")
KEY = OFFICIAL["key"].encode()
CONTEXT = OFFICIAL["context_string"]


def splits(length: int) -> List[int]:
    """Split points: the edges, the middle (as blake3-py), and block and
    chunk boundaries."""
    points = {0, 1, length // 2, length - 1, length, 63, 64, 65, 1023, 1024, 1025}
    return sorted(p for p in points if 0 <= p <= length)


@pytest.mark.parametrize("case", OFFICIAL["cases"], ids=lambda c: f"len{c['input_len']}")
def test_official_blake3(case: Any) -> None:
    data = pattern(case["input_len"])
    modes = [
        ("hash", {}),
        ("keyed_hash", {"key": KEY}),
        ("derive_key", {"derive_key_context": CONTEXT}),
    ]
    for mode, options in modes:
        expected = bytes.fromhex(case[mode])
        assert len(expected) == 131
        hasher = chunkhash.blake3(data, **options)
        # All 131 extended bytes, and every tail from a seek position.
        assert hasher.digest(131) == expected, mode
        assert hasher.hexdigest(131) == case[mode]
        for seek in (1, 31, 32, 63, 64, 65, 100, 130):
            assert hasher.digest(131 - seek, seek=seek) == expected[seek:], (mode, seek)
        # The first 32 bytes are the default digest.
        assert hasher.digest() == expected[:32]
        assert chunkhash.hash("blake3", data, **options) == expected[:32]
        assert chunkhash.new("blake3", data, **options).digest() == expected[:32]
        for split in splits(len(data)):
            incremental = chunkhash.blake3(**options)
            incremental.update(data[:split])
            incremental.update(data[split:])
            assert incremental.digest(131) == expected, (mode, split)


def test_official_blake3_batch_and_arrow() -> None:
    """All cases in one hash_many call per mode (the batch API sees every
    length at once: single chunks, pooled windows, and messages hashed
    alone), and through hash_array."""
    inputs = [pattern(case["input_len"]) for case in OFFICIAL["cases"]]
    for mode, options in (("hash", {}), ("keyed_hash", {"key": KEY}), ("derive_key", {"derive_key_context": CONTEXT})):
        expected = b"".join(bytes.fromhex(case[mode])[:32] for case in OFFICIAL["cases"])
        assert chunkhash.hash_many(inputs, **options) == expected, mode
        column = chunkhash.hash_array(pa.array(inputs, pa.binary()), **options)
        assert b"".join(column[i] for i in range(len(inputs))) == expected, mode  # type: ignore[misc]
    # The 20-byte truncation, through its own batch path.
    addresses = b"".join(bytes.fromhex(case["hash"])[:20] for case in OFFICIAL["cases"])
    assert chunkhash.hash_many(inputs, "blake3_160") == addresses


def golden_rows() -> List[Any]:
    return GOLDEN["digests"]


def test_golden_table_matches_the_registry() -> None:
    """Every algorithm of the golden table has a constructor, and its
    digest_size is the table's."""
    names = set()
    for row in GOLDEN["algorithms"]:
        hasher = chunkhash.new(row["name"])
        assert hasher.digest_size == row["digest_len"], row
        names.add(hasher.name)
        assert hasattr(chunkhash, hasher.name), row
    assert names == chunkhash.algorithms_available


@pytest.mark.parametrize("row", golden_rows(), ids=lambda r: f"{r['algorithm']}-{r['mode']}-{r['input_len']}")
def test_golden(row: Any) -> None:
    data = pattern(row["input_len"])
    expected = bytes.fromhex(row["hex"])
    options = {"hash": {}, "keyed_hash": {"key": GOLDEN["key"].encode()}, "derive_key": {"derive_key_context": GOLDEN["context_string"]}}[row["mode"]]
    name = row["algorithm"]
    assert chunkhash.hash(name, data, **options) == expected
    hasher = chunkhash.new(name, data, **options)
    assert hasher.digest() == expected
    assert hasher.hexdigest() == row["hex"]
    python_name = hasher.name
    if not options:
        assert getattr(chunkhash, python_name)(data).digest() == expected
        assert chunkhash.hash(python_name, data) == expected
    for split in splits(len(data)):
        incremental = chunkhash.new(name, **options)
        incremental.update(data[:split])
        incremental.update(data[split:])
        assert incremental.digest() == expected, split
    assert chunkhash.hash_many([data, data], name, **options) == expected * 2
    column = chunkhash.hash_array(pa.array([data], pa.large_binary()), name, **options)
    value = column[0]
    if isinstance(value, int):
        assert value == int.from_bytes(expected, "big")
        assert isinstance(hasher, chunkhash.Hasher) and hasher.intdigest() == value
    else:
        assert value == expected
