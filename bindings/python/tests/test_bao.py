"""chunkhash.bao: the bao crate's vectors (vectors/bao/test_vectors.json)
byte for byte, roots against the blake3 wheel over random lengths around
group edges, slices from outboards and encodings alike, every bit flip and
every truncation of a slice rejected (and nothing unverified handed out),
wrong roots, trees and ranges, and inputs as bytes, buffers and paths."""

from __future__ import annotations

import io
import random
from pathlib import Path
from typing import List, Optional

import blake3 as blake3_py
import pytest

from chunkhash import bao

from conftest import load

VECTORS = load("bao/test_vectors.json")
KEY = b"whats the Elvish word for friend"


def bao_input(length: int) -> bytes:
    """The bao vectors' input: a 4-byte little-endian counter from 1."""
    words = (length + 3) // 4
    return b"".join((i + 1).to_bytes(4, "little") for i in range(words))[:length]


def flip(data: bytes, index: int, mask: int = 1) -> bytes:
    bad = bytearray(data)
    bad[index] ^= mask
    return bytes(bad)


def b3(data: bytes) -> str:
    return blake3_py.blake3(data).hexdigest()


def read_in_pieces(reader: bao.SliceReader, size: int) -> bytes:
    out = bytearray()
    while True:
        piece = reader.read(size)
        if not piece:
            return bytes(out)
        out += piece


def verified_prefix(stream: bytes, root: bytes, start: int, count: Optional[int], **tree: int) -> bytes:
    """What a SliceReader hands out before its error (asserted to come)."""
    got = bytearray()
    with pytest.raises(bao.BaoError):
        for piece in bao.SliceReader(stream, root, start, count, **tree):
            got += piece
    return bytes(got)


def test_bao_vectors_encode() -> None:
    for case in VECTORS["encode"]:
        data = bao_input(case["input_len"])
        root, encoded = bao.encode(data)
        assert root.hex() == case["bao_hash"]
        assert len(encoded) == case["output_len"]
        assert b3(encoded) == case["encoded_blake3"]
        assert bao.decode(encoded, root) == data
        for point in case["corruptions"]:
            with pytest.raises(bao.BaoError):
                bao.decode(flip(encoded, point), root)


def test_bao_vectors_outboard() -> None:
    for case in VECTORS["outboard"]:
        data = bao_input(case["input_len"])
        root, outboard = bao.outboard(data)
        assert root.hex() == case["bao_hash"]
        assert len(outboard) == case["output_len"]
        assert b3(outboard) == case["encoded_blake3"]
        for point in case["input_corruptions"]:
            whole = bao.slice(flip(data, point), outboard, 0)
            with pytest.raises(bao.BaoError, match="does not verify"):
                bao.decode(whole, root)


def test_bao_vectors_slice() -> None:
    for case in VECTORS["slice"]:
        data = bao_input(case["input_len"])
        root, outboard = bao.outboard(data)
        _, encoded = bao.encode(data)
        for sc in case["slices"]:
            start, count = sc["start"], sc["len"]
            piece = bao.slice(data, outboard, start, count)
            assert len(piece) == sc["output_len"] == bao.slice_len(len(data), start, count)
            assert b3(piece) == sc["output_blake3"]
            assert bao.slice_encoding(encoded, start, count) == piece
            assert bao.decode(piece, root, start, count) == data[start : start + count]
            for point in sc["corruptions"]:
                with pytest.raises(bao.BaoError):
                    bao.decode(flip(piece, point), root, start, count)


def test_vectors_hash_roots() -> None:
    for case in VECTORS["hash"]:
        root, _ = bao.outboard(bao_input(case["input_len"]), group_log=3)
        assert root.hex() == case["bao_hash"]


def lengths_around_groups(rng: random.Random, group: int) -> List[int]:
    lengths = {0, 1, group - 1, group, group + 1, 2 * group, 3 * group + 1}
    lengths.update(rng.randrange(1, 9 * group) for _ in range(4))
    return sorted(lengths)


@pytest.mark.parametrize("group_log", [0, 1, 4, 7])
def test_random_lengths_roots_and_slices(rng: random.Random, group_log: int) -> None:
    group = 1024 << group_log
    for length in lengths_around_groups(rng, group):
        data = rng.randbytes(length)
        root, pre = bao.outboard(data, group_log=group_log)
        root_post, post = bao.outboard(data, group_log=group_log, post_order=True)
        assert root == root_post == blake3_py.blake3(data).digest(), length
        groups = max(1, -(-length // group))
        assert len(pre) == len(post) == 8 + 64 * (groups - 1)
        assert pre[:8] == length.to_bytes(8, "little")
        root_enc, encoded = bao.encode(data, group_log=group_log)
        assert root_enc == root and len(encoded) == len(pre) + length
        assert bao.decode(encoded, root, group_log=group_log) == data
        for _ in range(3):
            start = rng.randrange(length + 2)
            count = rng.randrange(2 * group + 2)
            piece = bao.slice(data, pre, start, count, group_log=group_log)
            assert piece == bao.slice(data, post, start, count, group_log=group_log, post_order=True)
            assert piece == bao.slice_encoding(encoded, start, count, group_log=group_log)
            assert len(piece) == bao.slice_len(length, start, count, group_log=group_log)
            expected = data[start : start + count]
            assert bao.decode(piece, root, start, count, group_log=group_log) == expected
            reader = bao.SliceReader(io.BufferedReader(io.BytesIO(piece)), root, start, count, group_log=group_log)
            assert read_in_pieces(reader, rng.randrange(1, 5000)) == expected


def test_keyed_and_derive_key_roots(rng: random.Random) -> None:
    data = rng.randbytes(70_000)
    root, outboard = bao.outboard(data, group_log=2, key=KEY)
    assert root == blake3_py.blake3(data, key=KEY).digest()
    piece = bao.slice(data, outboard, 30_000, 5_000, group_log=2)
    assert bao.decode(piece, root, 30_000, 5_000, group_log=2, key=KEY) == data[30_000:35_000]
    # The plain tree's reader does not accept the keyed tree's slice.
    with pytest.raises(bao.BaoError):
        bao.decode(piece, root, 30_000, 5_000, group_log=2)
    context = "chunkhash 2026-11-28 bao tests"
    root, encoded = bao.encode(data, derive_key_context=context)
    assert root == blake3_py.blake3(data, derive_key_context=context).digest()
    assert bao.decode(encoded, root, derive_key_context=context) == data


def test_every_bit_flip_is_rejected(rng: random.Random) -> None:
    data = rng.randbytes(2500)  # three groups of 1 KiB
    root, outboard = bao.outboard(data)
    # The slice of the last group proves the length too: every flip fails.
    piece = bao.slice(data, outboard, 2100, 100)
    for index in range(len(piece)):
        for bit in range(8):
            bad = flip(piece, index, 1 << bit)
            with pytest.raises(bao.BaoError):
                bao.decode(bad, root, 2100, 100)
            assert data[2100:2200].startswith(verified_prefix(bad, root, 2100, 100))
    # A slice of the first groups does not prove the length (as in the Bao
    # spec): a header flip that keeps the tree's shape still gives the true
    # bytes. Every other flip fails.
    piece = bao.slice(data, outboard, 1000, 100)
    for index in range(len(piece)):
        for bit in range(8):
            bad = flip(piece, index, 1 << bit)
            try:
                assert bao.decode(bad, root, 1000, 100) == data[1000:1100]
                assert index < bao.HEADER_LEN, (index, bit)
            except bao.BaoError:
                pass


def test_truncated_and_extended_streams(rng: random.Random) -> None:
    data = rng.randbytes(5000)
    root, encoded = bao.encode(data)
    for cut in sorted({0, 1, 7, 8, 9, 71, 72, 73, 1000, len(encoded) // 2, len(encoded) - 1}):
        with pytest.raises(bao.BaoError):
            bao.decode(encoded[:cut], root)
        assert data.startswith(verified_prefix(encoded[:cut], root, 0, None))
    with pytest.raises(bao.BaoError, match="trailing bytes"):
        bao.decode(encoded + b"\0", root)
    with pytest.raises(bao.BaoError, match="truncated"):
        bao.SliceReader(encoded[:100], root).read()


def test_wrong_root_tree_or_range(rng: random.Random) -> None:
    data = rng.randbytes(40_000)
    root, outboard = bao.outboard(data, group_log=2)
    piece = bao.slice(data, outboard, 10_000, 100, group_log=2)
    with pytest.raises(bao.BaoError, match="does not verify"):
        bao.decode(piece, blake3_py.blake3(b"another").digest(), 10_000, 100, group_log=2)
    with pytest.raises(bao.BaoError):
        bao.decode(piece, root, 10_000, 100, group_log=3)
    with pytest.raises(bao.BaoError):
        bao.decode(piece, root, 30_000, 100, group_log=2)
    # A range past the end gives the last group, which proves the length.
    past = bao.slice(data, outboard, 50_000, 10, group_log=2)
    assert past == bao.slice(data, outboard, 39_999, 1, group_log=2)
    assert bao.decode(past, root, 50_000, 10, group_log=2) == b""


def test_inputs_as_buffers_and_paths(tmp_path: Path, rng: random.Random) -> None:
    import numpy as np

    data = rng.randbytes(200_000)  # mapped from a file (64 KiB and up)
    path = tmp_path / "data.bin"
    path.write_bytes(data)
    small = tmp_path / "small.bin"
    small.write_bytes(data[:1000])  # read, not mapped
    expected = bao.outboard(data, group_log=4)
    for source in [bytearray(data), memoryview(data), np.frombuffer(data, dtype=np.uint8), path, str(path)]:
        assert bao.outboard(source, group_log=4) == expected
    assert bao.outboard(small) == bao.outboard(data[:1000])
    assert bao.encode(path) == bao.encode(data)
    assert bao.slice(path, expected[1], 100_000, 10, group_log=4) == bao.slice(data, expected[1], 100_000, 10, group_log=4)
    with open(path, "rb") as f:
        encoded = bao.encode(f.read())[1]
    enc_path = tmp_path / "data.bao"
    enc_path.write_bytes(encoded)
    with open(enc_path, "rb") as f, bao.SliceReader(f, expected[0]) as reader:
        assert reader.read() == data
    with pytest.raises(FileNotFoundError):
        bao.outboard(tmp_path / "missing")


def test_argument_errors() -> None:
    with pytest.raises(ValueError, match="group_log"):
        bao.outboard(b"x", group_log=17)
    with pytest.raises(TypeError, match="group_log"):
        bao.outboard(b"x", group_log=1.5)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="root must be 32 bytes"):
        bao.decode(bao.encode(b"x")[1], b"short")
    with pytest.raises(ValueError, match="start"):
        bao.slice(b"x", bao.outboard(b"x")[1], -1, 1)
    with pytest.raises(bao.BaoError, match="outboard"):
        bao.slice(b"x" * 5000, bao.outboard(b"x" * 4000)[1], 0, 1)
    with pytest.raises(bao.BaoError, match="header"):
        bao.slice(b"x", b"1234", 0, 1)
    with pytest.raises(bao.BaoError, match="encoding"):
        bao.slice_encoding(bao.encode(b"x" * 5000)[1][:-1], 0, 1)
    with pytest.raises(TypeError, match="stream"):
        bao.SliceReader(42, bytes(32))
    with pytest.raises(TypeError):
        bao.outboard(42)
    assert issubclass(bao.BaoError, ValueError)


def test_threads_share_inputs_and_readers(rng: random.Random) -> None:
    """Threads making outboards of one buffer (the GIL released: 1 MiB is
    past BLAKE3's threshold) and reading slices of it all get the
    single-threaded answers; readers of one stream, each its own, too."""
    import threading

    data = rng.randbytes(1 << 20)
    root, outboard = bao.outboard(data, group_log=2)
    piece = bao.slice(data, outboard, 300_000, 200_000, group_log=2)
    errors: List[BaseException] = []

    def work() -> None:
        try:
            for _ in range(3):
                assert bao.outboard(data, group_log=2) == (root, outboard)
                reader = bao.SliceReader(piece, root, 300_000, 200_000, group_log=2)
                assert read_in_pieces(reader, 4096) == data[300_000:500_000]
        except BaseException as error:  # reported by the main thread
            errors.append(error)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
