"""BLAKE3 subtrees: messages hashed as random trees of ranges and merged,
against blake3-py (an independent implementation) and chunkhash's one-shot
calls, in every mode with extended output; pickling; every misuse."""

from __future__ import annotations

import os
import pickle
import random
from typing import Any, Dict

import blake3 as blake3_py
import pytest

import chunkhash

SEED = int(os.environ.get("CHUNKHASH_TEST_SEED", "20"))
KEY = b"chunkhash python subtree key 32B"
CONTEXT = "chunkhash 2026-11-22 python subtree tests"
MODES: Dict[str, Dict[str, Any]] = {
    "hash": {},
    "keyed": {"key": KEY},
    "derive_key": {"derive_key_context": CONTEXT},
}


def random_tree(rng: random.Random, data: bytes, offset: int, mode: Dict[str, Any]) -> chunkhash.Blake3Subtree:
    """The subtree of `data` (at `offset`): whole, or split where the tree
    splits and merged, each parent checked against the range hashed whole."""
    whole = chunkhash.blake3_subtree(data, offset, **mode)
    assert (whole.offset, whole.length) == (offset, len(data))
    if len(data) <= 1024 or rng.random() < 0.3:
        return whole
    split = chunkhash.blake3_left_len(len(data))
    left = random_tree(rng, data[:split], offset, mode)
    right = random_tree(rng, memoryview(data)[split:].tobytes(), offset + split, mode)
    parent = chunkhash.blake3_merge(left, right, **mode)
    assert parent == whole
    return parent


def reference(data: bytes, name: str, length: int, seek: int) -> bytes:
    if name == "hash":
        hasher = blake3_py.blake3(data)
    elif name == "keyed":
        hasher = blake3_py.blake3(data, key=KEY)
    else:
        hasher = blake3_py.blake3(data, derive_key_context=CONTEXT)
    return hasher.digest(length, seek=seek)


@pytest.mark.parametrize("name", sorted(MODES))
def test_random_trees_match_blake3_py(name: str) -> None:
    print(f"seed {SEED} (set CHUNKHASH_TEST_SEED to replay another)")
    rng = random.Random(SEED)
    mode = MODES[name]
    lens = [1025, 2048, 2049, 16 * 1024 + 1] + [rng.randint(1025, 1 << 20) for _ in range(8)]
    for length in lens:
        data = rng.randbytes(length)
        split = chunkhash.blake3_left_len(length)
        left = random_tree(rng, data[:split], 0, mode)
        right = random_tree(rng, data[split:], split, mode)
        assert chunkhash.blake3_merge_root(left, right, **mode) == reference(data, name, 32, 0), length
        assert chunkhash.blake3_merge_root(left, right, **mode) == chunkhash.blake3(data, **mode).digest()
        seek = rng.randint(0, 1000)
        assert chunkhash.blake3_merge_root(left, right, length=100, seek=seek, **mode) == reference(
            data, name, 100, seek
        )


def test_subtree_values_are_picklable_and_rebuildable() -> None:
    subtree = chunkhash.blake3_subtree(b"x" * 3000, 4096)
    assert pickle.loads(pickle.dumps(subtree)) == subtree
    assert chunkhash.Blake3Subtree(subtree.cv, 4096, 3000) == subtree
    assert hash(chunkhash.Blake3Subtree(subtree.cv, 4096, 3000)) == hash(subtree)
    assert len(subtree.cv) == 32 and "offset=4096, length=3000" in repr(subtree)
    assert chunkhash.blake3_subtree(bytearray(b"abc")) == chunkhash.blake3_subtree(memoryview(b"abc"), 0)


def test_helpers() -> None:
    assert chunkhash.blake3_left_len(1025) == 1024
    assert chunkhash.blake3_left_len(4096) == 2048
    assert chunkhash.blake3_left_len(4097) == 4096
    assert chunkhash.blake3_max_subtree_len(0) is None
    assert chunkhash.blake3_max_subtree_len(3 * 1024) == 1024
    assert chunkhash.blake3_max_subtree_len(12 * 1024) == 4096


def test_misuse_is_a_value_error() -> None:
    chunk = b"c" * 1024
    with pytest.raises(ValueError, match="not a multiple of the chunk length"):
        chunkhash.blake3_subtree(b"x", 1000)
    with pytest.raises(ValueError, match="empty subtree"):
        chunkhash.blake3_subtree(b"", 1024)
    with pytest.raises(ValueError, match="holds at most 1024 bytes, not 1025"):
        chunkhash.blake3_subtree(chunk + b"x", 3 * 1024)
    with pytest.raises(ValueError, match="one chunk or less"):
        chunkhash.blake3_left_len(1024)
    with pytest.raises(ValueError, match="not a multiple"):
        chunkhash.blake3_max_subtree_len(1)
    c0, c1, c2, c3 = (chunkhash.blake3_subtree(chunk, i * 1024) for i in range(4))
    with pytest.raises(ValueError, match="not the two children of one tree node"):
        chunkhash.blake3_merge(c0, c2)
    with pytest.raises(ValueError, match="not the two children"):
        chunkhash.blake3_merge(c1, c0)
    with pytest.raises(ValueError, match="holds at most 1024 bytes, not 2048"):
        chunkhash.blake3_merge(c1, c2)
    with pytest.raises(ValueError, match="left subtree at offset 0, not 2048"):
        chunkhash.blake3_merge_root(c2, c3)
    with pytest.raises(ValueError, match="cv must be 32 bytes, got 31"):
        chunkhash.Blake3Subtree(bytes(31), 0, 1)
    with pytest.raises(ValueError, match="holds at most 1024 bytes"):
        chunkhash.Blake3Subtree(bytes(32), 1024, 2048)
    with pytest.raises(ValueError, match="offset must be between 0 and 2\\*\\*64 - 1"):
        chunkhash.Blake3Subtree(bytes(32), -1024, 1)
    with pytest.raises(ValueError, match="key must be 32 bytes"):
        chunkhash.blake3_merge(c0, c1, key=b"short")
    with pytest.raises(ValueError, match="cannot be used together"):
        chunkhash.blake3_subtree(chunk, key=KEY, derive_key_context=CONTEXT)
    with pytest.raises(TypeError):
        chunkhash.blake3_merge(c0, b"not a subtree")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        chunkhash.blake3_subtree("text")  # type: ignore[arg-type]
