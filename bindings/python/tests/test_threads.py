"""Threads sharing hasher objects and calling every entry point at once.
Each update of a shared object adds the same bytes, so the final digest is
known whatever the interleaving; large updates release the GIL (and on a
free-threaded build nothing holds one), so they really overlap."""

from __future__ import annotations

import random

import hashlib
import sys
import threading
from pathlib import Path
from typing import Callable, List

import pyarrow as pa

import chunkhash

THREADS = 8


def run_threads(work: Callable[[int], None]) -> None:
    errors: List[BaseException] = []
    barrier = threading.Barrier(THREADS)

    def target(index: int) -> None:
        try:
            barrier.wait()
            work(index)
        except BaseException as error:  # reported below, in the test's thread
            errors.append(error)

    threads = [threading.Thread(target=target, args=(i,)) for i in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors, errors


def test_build_kind() -> None:
    """Says which kind of interpreter ran the thread tests."""
    gil = getattr(sys, "_is_gil_enabled", lambda: True)()
    print(f"threads tests on {sys.version.split()[0]}, GIL {'enabled' if gil else 'disabled (free-threaded)'}")


def test_shared_hasher_updates() -> None:
    for name in ("blake3", "sha256", "xxh3_64", "crc32c"):
        for chunk_size in (100, 3000, 70_000):  # below and above every threshold
            chunk = bytes(i % 253 for i in range(chunk_size))
            rounds = 20
            hasher = chunkhash.new(name)

            def work(index: int) -> None:
                for _ in range(rounds):
                    hasher.update(chunk)
                    hasher.digest()  # reads interleaved with writes
                    hasher.copy()

            run_threads(work)
            assert hasher.digest() == chunkhash.hash(name, chunk * (rounds * THREADS)), (name, chunk_size)


def test_shared_blake3_extended_output_and_reset() -> None:
    chunk = bytes(5000)
    hasher = chunkhash.blake3(key=bytes(range(32)))

    def work(index: int) -> None:
        for _ in range(10):
            hasher.update(chunk)
            assert len(hasher.digest(100, seek=index)) == 100

    run_threads(work)
    expected = chunkhash.blake3(chunk * (10 * THREADS), key=bytes(range(32))).digest(200)
    assert hasher.digest(200) == expected


def test_concurrent_one_shot_batch_and_arrow() -> None:
    messages = [bytes([i]) * (i * 37) for i in range(200)]
    expected_many = chunkhash.hash_many(messages)
    column = pa.array(messages)
    expected_column = [chunkhash.hash("blake3", m) for m in messages]

    def work(index: int) -> None:
        for _ in range(5):
            assert chunkhash.hash_many(messages) == expected_many
            digests = chunkhash.hash_array(column)
            assert [digests[i] for i in range(len(messages))] == expected_column
            assert chunkhash.hash("blake3", messages[index]) == expected_column[index]

    run_threads(work)


def test_shared_bytearray_resized_while_hashing_is_refused() -> None:
    """While one thread hashes a bytearray (GIL released), another cannot
    resize it: the buffer export locks its size, so the hash never reads
    freed memory."""
    data = bytearray(8 << 20)
    hasher = chunkhash.blake3()
    started = threading.Event()
    outcome: List[str] = []

    def resize() -> None:
        started.wait()
        try:
            data.extend(b"x")
            outcome.append("resized")
        except BufferError:
            outcome.append("refused")

    thread = threading.Thread(target=resize)
    thread.start()
    started.set()
    hasher.update(data)
    thread.join()
    # Either the resize came before or after the export (allowed), or during
    # it (refused); never a crash.
    assert outcome and outcome[0] in ("resized", "refused")


def test_max_threads_gives_the_same_hash(tmp_path: Path) -> None:
    """blake3's max_threads (blake3-py's option): a count or AUTO hashes on
    rayon threads through the crate's update_parallel, and every split and
    count gives the one-thread digest. 3 MiB + 1000 bytes from a fixed seed
    (several parallel subtrees, and an unaligned tail)."""
    seed = 31
    print(f"seed {seed}")
    data = random.Random(seed).randbytes(3 * 2**20 + 1000)
    expected = chunkhash.blake3(data).digest()
    path = tmp_path / "data"
    path.write_bytes(data)
    for max_threads in (1, 2, 3, chunkhash.blake3.AUTO):
        assert chunkhash.blake3(data, max_threads=max_threads).digest() == expected, max_threads
        hasher = chunkhash.blake3(max_threads=max_threads)
        for start, end in ((0, 1000), (1000, 2**20 + 7), (2**20 + 7, len(data))):
            assert hasher.update(data[start:end]) is hasher
        assert hasher.digest() == expected, max_threads
        copy = hasher.copy()  # shares the pool
        assert copy.update(b"more").digest() == chunkhash.blake3(data + b"more").digest()
        assert chunkhash.blake3(max_threads=max_threads).update_mmap(path).digest() == expected
        keyed = chunkhash.blake3(data, key=bytes(range(32)), max_threads=max_threads)
        assert keyed.digest() == chunkhash.blake3(data, key=bytes(range(32))).digest()


def test_shared_hasher_with_a_pool() -> None:
    """Threads updating one hasher that has a pool of its own: its lock is
    taken on the calling thread, never on a pool thread, so the callers
    queue instead of deadlocking (blake3-py issue 120)."""
    data = bytes(2**20)
    hasher = chunkhash.blake3(max_threads=2)
    run_threads(lambda _: [hasher.update(data) for _ in range(4)])
    assert hasher.digest() == chunkhash.blake3(data * (4 * THREADS)).digest()

def test_a_buffer_written_while_hashed() -> None:
    """Another thread writes into a 64 MiB bytearray while it is hashed with
    the GIL released (one-shot BLAKE3, a hasher's update, a registry
    algorithm): each digest is of some mix of old and new bytes, so only its
    length is known, but nothing crashes or reads outside the buffer (the
    length is fixed when the buffer is exported, and a bytearray cannot be
    resized while exported). Once the writer stops, hashing the buffer again
    gives the digest of its final contents."""
    size = 64 << 20
    data = bytearray(size)
    stop = threading.Event()
    rounds = 0

    def writer() -> None:
        nonlocal rounds
        value = 1
        while not stop.is_set():
            # Slices spread over the whole buffer, so each hash meets some.
            for start in range(0, size, 1 << 20):
                data[start : start + 4096] = bytes([value]) * 4096
            value = value % 255 + 1
            rounds += 1

    thread = threading.Thread(target=writer)
    thread.start()
    try:
        while rounds == 0:  # the writer is running before the first hash
            threading.Event().wait(0.001)
        for _ in range(3):
            assert len(chunkhash.blake3(data).digest()) == 32
            hasher = chunkhash.blake3()
            hasher.update(data)
            assert len(hasher.digest()) == 32
            assert len(chunkhash.hash("sha256", data)) == 32
            assert len(chunkhash.hash("xxh3_64", memoryview(data))) == 8
    finally:
        stop.set()
        thread.join()
    assert rounds > 0
    final = bytes(data)
    assert chunkhash.blake3(data).digest() == chunkhash.blake3(final).digest()
    assert chunkhash.hash("sha256", data) == hashlib.sha256(final).digest()
    hasher = chunkhash.new("xxh3_64")
    hasher.update(data)
    assert hasher.digest() == chunkhash.hash("xxh3_64", final)
