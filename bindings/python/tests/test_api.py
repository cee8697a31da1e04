"""hashlib conventions, accepted buffers, files and memory maps."""

from __future__ import annotations

import array
import hashlib
import io
import mmap
import os
import random
from pathlib import Path

import blake3 as blake3_py
import numpy as np
import pytest

import chunkhash


def test_constructors_follow_the_registry() -> None:
    """One constructor per registry algorithm, named as algorithms_available
    lists it, each giving a hasher of that name."""
    assert chunkhash.algorithms_guaranteed == chunkhash.algorithms_available
    for name in chunkhash.algorithms_available:
        assert name.isidentifier(), name
        hasher = getattr(chunkhash, name)()
        assert hasher.name == name
        assert chunkhash.new(name).name == name
        assert chunkhash.new(name.upper()).name == name
    assert isinstance(chunkhash.blake3(), chunkhash.blake3)
    assert isinstance(chunkhash.new("blake3"), chunkhash.blake3)
    assert isinstance(chunkhash.new("sha256"), chunkhash.Hasher)


def test_registry_spellings() -> None:
    """Names the registry accepts besides the Python ones: canonical names,
    b3sum/xxhsum/coreutils spellings, any case."""
    for spelling, name in [("SHA-256", "sha256"), ("XXH3", "xxh3_64"), ("XXH128", "xxh3_128"), ("b3", "blake3"),
                           ("BLAKE2b-512", "blake2b"), ("CRC-32C", "crc32c"), ("SHA512/160", "sha512_160"),
                           ("CRC-32", "crc32"), ("CRC-64/NVME", "crc64nvme")]:
        assert chunkhash.new(spelling).name == name
        assert chunkhash.hash(spelling, b"abc") == chunkhash.hash(name, b"abc")


@pytest.mark.parametrize("name,digest_size,block_size", [
    ("blake3", 32, 64), ("blake3_160", 20, 64), ("xxh3_64", 8, 64), ("xxh3_128", 16, 64), ("xxh64", 8, 32),
    ("xxh32", 4, 16), ("crc32c", 4, 1), ("blake2b", 64, 128), ("blake2b_256", 32, 128), ("sha256", 32, 64),
    ("sha512", 64, 128), ("sha512_160", 20, 128), ("crc32", 4, 1), ("crc64nvme", 8, 1),
])
def test_attributes(name: str, digest_size: int, block_size: int) -> None:
    hasher = chunkhash.new(name)
    assert (hasher.name, hasher.digest_size, hasher.block_size) == (name, digest_size, block_size)
    assert len(hasher.digest()) == digest_size
    if name in ("sha256", "sha512", "blake2b"):
        reference = hashlib.new(name)
        assert (reference.digest_size, reference.block_size) == (digest_size, block_size)


@pytest.mark.parametrize("name", sorted(chunkhash.algorithms_available))
def test_update_copy_reset(name: str) -> None:
    hasher = chunkhash.new(name)
    # hashlib's update returns None; blake3-py's returns the object (for
    # chaining), and chunkhash.blake3 is a drop-in for blake3-py's class.
    assert hasher.update(b"hello ") is (hasher if name == "blake3" else None)
    snapshot = hasher.copy()
    hasher.update(b"world")
    assert snapshot.digest() == chunkhash.hash(name, b"hello ")
    assert hasher.digest() == chunkhash.hash(name, b"hello world")
    assert hasher.digest() == hasher.digest()  # digest() leaves the state as it was
    assert hasher.hexdigest() == hasher.digest().hex()
    assert hasher.reset() is None
    assert hasher.digest() == chunkhash.hash(name, b"")
    assert chunkhash.new(name, b"abc").digest() == getattr(chunkhash, name)(b"abc").digest()
    assert getattr(chunkhash, name)(b"abc", usedforsecurity=False).digest() == chunkhash.hash(name, b"abc")


def test_blake3_reset_and_copy_keep_the_mode() -> None:
    key = bytes(range(32))
    hasher = chunkhash.blake3(b"abc", key=key)
    copy = hasher.copy()
    hasher.reset()
    hasher.update(b"abc")
    assert hasher.digest() == copy.digest() == blake3_py.blake3(b"abc", key=key).digest()
    derived = chunkhash.blake3(derive_key_context="ctx")
    derived.update(b"material")
    assert derived.digest() == blake3_py.blake3(b"material", derive_key_context="ctx").digest()
    assert chunkhash.blake3.key_size == 32 and chunkhash.blake3.digest_size == 32


def test_extended_output_edges() -> None:
    hasher = chunkhash.blake3(b"x")
    assert hasher.digest(0) == b""
    assert hasher.digest(0, seek=5) == b""
    assert hasher.digest(1000) == blake3_py.blake3(b"x").digest(1000)
    assert hasher.digest(64, seek=(1 << 64) - 64) == blake3_py.blake3(b"x").digest(64, seek=(1 << 64) - 64)
    assert hasher.hexdigest(40, seek=3) == blake3_py.blake3(b"x").hexdigest(40, seek=3)


def test_intdigest_is_the_big_endian_digest() -> None:
    hasher = chunkhash.crc32c(b"123456789")
    assert hasher.intdigest() == 0xE3069283  # the CRC-32C check value
    assert hasher.digest() == bytes.fromhex("e3069283")


def test_buffers_of_every_kind(tmp_path: Path) -> None:
    data = bytes(range(256)) * 20
    expected = chunkhash.hash("blake3", data)

    class Subclass(bytes):
        pass

    path = tmp_path / "data"
    path.write_bytes(data)
    with open(path, "rb") as file, mmap.mmap(file.fileno(), 0, access=mmap.ACCESS_READ) as mapped:
        assert chunkhash.hash("blake3", mapped) == expected
    for buffer in (
        data,
        bytearray(data),
        memoryview(data),
        memoryview(bytearray(data)),
        Subclass(data),
        np.frombuffer(data, dtype=np.uint8),
        np.frombuffer(data, dtype=np.uint8).reshape(20, 256),  # C-contiguous 2-D
        array.array("B", data),
    ):
        assert chunkhash.hash("blake3", buffer) == expected, type(buffer)
        assert chunkhash.blake3(buffer).digest() == expected
        assert chunkhash.hash_many([buffer]) == expected
    # Any item type: the bytes are hashed, as hashlib does.
    words = array.array("I", range(100))
    assert chunkhash.hash("sha256", words) == hashlib.sha256(words).digest()
    assert chunkhash.hash("blake3", memoryview(b"")) == chunkhash.hash("blake3", b"")


def test_file_digest(tmp_path: Path) -> None:
    data = random.Random(1).randbytes(600_000)
    path = tmp_path / "file"
    path.write_bytes(data)
    for name in ("blake3", "sha256", "xxh3_64"):
        with open(path, "rb") as file:
            assert chunkhash.file_digest(file, name).digest() == chunkhash.hash(name, data)
        with open(path, "rb", buffering=0) as file:
            assert chunkhash.file_digest(file, lambda: chunkhash.new(name)).digest() == chunkhash.hash(name, data)
        assert chunkhash.file_digest(io.BytesIO(data), name).digest() == chunkhash.hash(name, data)
    if hasattr(hashlib, "file_digest"):  # Python 3.11 and later
        with open(path, "rb") as file, open(path, "rb") as again:
            assert chunkhash.file_digest(file, "sha256").hexdigest() == hashlib.file_digest(again, "sha256").hexdigest()


def test_update_mmap(tmp_path: Path) -> None:
    for size in (0, 1, 65535, 65536, 1 << 20):  # read below 64 KiB, mapped from it
        data = random.Random(size).randbytes(size)
        path = tmp_path / f"file{size}"
        path.write_bytes(data)
        for name in ("blake3", "crc32c", "sha512"):
            hasher = chunkhash.new(name, b"prefix")
            hasher.update_mmap(path)
            hasher.update_mmap(str(path))
            assert hasher.digest() == chunkhash.hash(name, b"prefix" + data + data), (size, name)
    # A file whose size says nothing (a character device): read to its end.
    hasher = chunkhash.blake3()
    hasher.update_mmap(os.devnull)
    assert hasher.digest() == chunkhash.hash("blake3", b"")
