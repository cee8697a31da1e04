"""Every public call with the types a user would write; checked by
`mypy --strict` in test_typing.py (and run by it as an ordinary test)."""

from __future__ import annotations

import io

import pyarrow as pa  # type: ignore[import-untyped]

import chunkhash
import chunkhash.bao
import chunkhash.xet


def test_typed_usage() -> None:
    b3: chunkhash.blake3 = chunkhash.blake3(b"data", key=bytes(32))
    b3.update(memoryview(b"more"))
    out: bytes = b3.digest(64, seek=10)
    text: str = b3.hexdigest()
    # blake3-py's options and chaining.
    threaded: chunkhash.blake3 = chunkhash.blake3(max_threads=chunkhash.blake3.AUTO).update(b"a").update(b"b")
    hasher: chunkhash.Hasher = chunkhash.xxh3_64(bytearray(b"data"))
    value: int = hasher.intdigest()
    generic = chunkhash.new("sha256", b"x")
    digest: bytes = chunkhash.hash("blake3", b"x", derive_key_context="context")
    many: bytes = chunkhash.hash_many([b"a", b"b"], "xxh64")
    target = bytearray(64)
    filled: bytearray = chunkhash.hash_many([b"a", b"b"], out=target)
    column: chunkhash.DigestArray = chunkhash.hash_array(pa.array([b"a"]), "crc32c")
    first = column[0]
    names: frozenset[str] = chunkhash.algorithms_available
    from_file = chunkhash.file_digest(io.BytesIO(b"file"), "sha512")
    array_digest: bytes = chunkhash.hash("sha256", memoryview(b"view"))
    left: chunkhash.Blake3Subtree = chunkhash.blake3_subtree(bytes(1024), key=bytes(32))
    right = chunkhash.blake3_subtree(b"x", 1024, key=bytes(32))
    split: int = chunkhash.blake3_left_len(left.length + right.length)
    largest: int | None = chunkhash.blake3_max_subtree_len(right.offset)
    root: bytes = chunkhash.blake3_merge_root(left, right, key=bytes(32), length=64)
    assert split == 1024 and largest == 1024 and root
    assert out and text and value >= 0 and generic.digest() and digest and many and filled is target
    assert len(column) == 1 and first is not None and names and from_file.digest() and array_digest
    chunks: chunkhash.Chunks = chunkhash.chunk(b"data", fastcdc=(2048, 8192, 65536), address="blake3-160")
    offsets: chunkhash.DigestArray = chunkhash.chunk(bytearray(10), xet=True).offsets
    xet_infos: list[chunkhash.xet.XetFileInfo] = chunkhash.xet.hash_files([])
    assert len(chunks.lengths) == 1 and len(offsets) == 1 and xet_infos == []
    bao_root, bao_outboard = chunkhash.bao.outboard(b"data", group_log=4, post_order=True)
    encoded_root, encoding = chunkhash.bao.encode(bytearray(b"data"), key=bytes(32))
    bao_slice: bytes = chunkhash.bao.slice(b"data", bao_outboard, 0, 2, group_log=4, post_order=True)
    verified: bytes = chunkhash.bao.decode(encoding, encoded_root, key=bytes(32))
    reader: chunkhash.bao.SliceReader = chunkhash.bao.SliceReader(io.BytesIO(bao_slice), bao_root, 0, 2, group_log=4)
    pieces: list[bytes] = list(reader)
    size: int = chunkhash.bao.slice_len(4, 0, 2) + len(chunkhash.bao.slice_encoding(encoding, 0))
    assert bao_root and verified and pieces and size and issubclass(chunkhash.bao.BaoError, ValueError)
