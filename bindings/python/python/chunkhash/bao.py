"""`chunkhash.bao`: Bao verified streaming (the Rust `chunkhash::blake3::bao`).

A BLAKE3 hash proves a whole object; Bao's parent nodes make any part of it
provable on its own. This module makes a message's *outboard* (its parent
nodes, stored beside the data), its *combined encoding* (nodes and data
interleaved), *slices* (the bytes of one range with the nodes that prove
them), and reads a slice or encoding back through `SliceReader`, which
hands out bytes only once they are verified against the root hash::

    from chunkhash import bao

    root, outboard = bao.outboard(data)                  # root == blake3(data).digest()
    piece = bao.slice(data, outboard, 40_000, 1_000)     # from a file path too
    bao.decode(piece, root, 40_000, 1_000)               # == data[40_000:41_000], or BaoError
    with bao.SliceReader(open("big.bao", "rb"), root) as reader:   # a whole encoding
        for verified in reader:                          # verified bytes, piece by piece
            ...

The formats are those of the `bao` crate and command (`group_log=0`, the
default: groups of one 1 KiB chunk, pre-order, an 8-byte little-endian
length header) and `bao-tree`'s chunk groups (`group_log=k`: 2^k chunks a
group, so an outboard costs 6.25% / 2^k of the data) and post-order
outboards (`post_order=True`). `key=` and `derive_key_context=` build the
keyed or key-derivation tree, whose root is `chunkhash.blake3(key=...)`'s.
A reader must use the tree (`group_log`, mode) the data was encoded with,
and the range the slice was made for.

Every byte is computed by the Rust crate; large inputs and files release the
GIL. Errors: `BaoError` (a `ValueError`) for data that does not verify,
ends early, or does not fit its length; `ValueError` and `TypeError` for
bad arguments; `OSError` for unreadable files.
"""

from __future__ import annotations

import importlib
import io
import os
from typing import IO, Any, Iterator, Optional, Tuple, Union, cast

# The native module has no stub of its own (the package's stub is
# __init__.pyi), so it is reached untyped, as chunkhash.s3 does.
_native: Any = importlib.import_module("chunkhash._chunkhash")

BaoError: type[ValueError] = _native.BaoError
"""Raised for a slice, encoding or outboard that cannot give verified bytes:
a part that does not verify against the root hash (damage, another root,
range, message, mode or group size), a stream that ends early, or an
outboard or encoding whose size does not fit its length header."""

HEADER_LEN = 8
"""Bytes of the length header that starts outboards, encodings and slices."""
MAX_GROUP_LOG = 16
"""The largest `group_log`: groups of 2^16 chunks (64 MiB)."""

_U64 = 2**64
# Bytes a SliceReader asks its stream for at once, so that one native call
# verifies many chunk groups side by side.
_READ_SIZE = 256 * 1024

Source = Union[bytes, bytearray, memoryview, str, "os.PathLike[str]", Any]


def _group_log(group_log: Any) -> int:
    if isinstance(group_log, bool) or not isinstance(group_log, int):
        raise TypeError(f"group_log must be an int, not {type(group_log).__name__}")
    if not 0 <= group_log <= MAX_GROUP_LOG:
        raise ValueError(f"group_log must be 0 to {MAX_GROUP_LOG}, got {group_log}")
    return group_log


def _u64(value: Any, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be an int, not {type(value).__name__}")
    if not 0 <= value < _U64:
        raise ValueError(f"{name} must be 0 to 2**64 - 1, got {value}")
    return value


def _range(start: Any, count: Any) -> Tuple[int, int]:
    """`start .. start + count` (`count=None`: to the end), capped at 2**64 - 1."""
    start = _u64(start, "start")
    if count is None:
        return start, _U64 - 1
    return start, min(start + _u64(count, "count"), _U64 - 1)


def _source(data_or_path: Any) -> Tuple[Any, bool]:
    if isinstance(data_or_path, (str, os.PathLike)):
        return os.fspath(data_or_path), True
    return data_or_path, False


def outboard(
    data_or_path: Source,
    *,
    group_log: int = 0,
    post_order: bool = False,
    key: Optional[Any] = None,
    derive_key_context: Optional[str] = None,
) -> Tuple[bytes, bytes]:
    """The root hash (32 bytes) and outboard of a buffer or a file (a `str`
    or path-like object), made at hashing speed with the GIL released. The
    outboard starts with the 8-byte length header, then 64 bytes per parent
    node, in pre-order (`bao encode --outboard`'s file for `group_log=0`) or
    post-order; `bao-tree`'s outboard is the part after the header."""
    source, is_path = _source(data_or_path)
    result = _native._bao_outboard(source, is_path, _group_log(group_log), bool(post_order), key, derive_key_context)
    return cast(Tuple[bytes, bytes], result)


def encode(
    data_or_path: Source,
    *,
    group_log: int = 0,
    key: Optional[Any] = None,
    derive_key_context: Optional[str] = None,
) -> Tuple[bytes, bytes]:
    """The root hash and combined encoding of a buffer or a file: the length
    header, then parents and groups in pre-order (`bao encode`'s output for
    `group_log=0`)."""
    source, is_path = _source(data_or_path)
    return cast(Tuple[bytes, bytes], _native._bao_encode(source, is_path, _group_log(group_log), key, derive_key_context))


def slice(
    data_or_path: Source,
    outboard: Any,
    start: int,
    count: Optional[int] = None,
    *,
    group_log: int = 0,
    post_order: bool = False,
) -> bytes:
    """The slice of a buffer or file for bytes `start .. start + count`
    (`count=None`: to the end) from its outboard (as `outboard()` made it,
    with the same `group_log` and order): the header, then the groups that
    meet the range and the parents above them (`bao slice`'s output). As in
    Bao, an empty range counts as one byte and a range past the end gives
    the last group, which proves the length. The nodes are copied, not
    checked; `BaoError` if the outboard does not fit the data's length."""
    source, is_path = _source(data_or_path)
    begin, end = _range(start, count)
    return cast(bytes, _native._bao_slice(source, is_path, outboard, begin, end, _group_log(group_log), bool(post_order)))


def slice_encoding(encoding: Any, start: int, count: Optional[int] = None, *, group_log: int = 0) -> bytes:
    """The slice for bytes `start .. start + count` taken from a combined
    encoding: the same bytes as `slice()`. `BaoError` if the encoding's size
    does not fit its header."""
    begin, end = _range(start, count)
    return cast(bytes, _native._bao_slice_encoding(encoding, begin, end, _group_log(group_log)))


def slice_len(length: int, start: int, count: Optional[int] = None, *, group_log: int = 0) -> int:
    """The size in bytes of the slice of a `length`-byte message for `start ..
    start + count`, header included."""
    begin, end = _range(start, count)
    return cast(int, _native._bao_slice_len(_u64(length, "length"), begin, end, _group_log(group_log)))


class SliceReader(io.RawIOBase):
    """A reader of the verified bytes of a slice (made for bytes `start ..
    start + count`) or of a whole combined encoding (`start=0`,
    `count=None`, the defaults), read from `stream` (a binary file object, or
    a bytes-like object) and checked against the 32-byte `root`.

    `read`, `readinto` and `readall` return only bytes that are verified:
    the range's bytes in order, capped at the message's end. Iterating gives
    them in verified pieces (bytes objects of one or more chunk groups), not
    lines. At the first part that does not verify the reader raises
    `BaoError`, after handing out every byte before it; a stream that ends
    early raises `BaoError` too. Bytes after the slice are left unread when
    the stream gives no more than it is asked for (the reader reads ahead
    in pieces of up to 256 KiB, with `read1` when the stream has it).
    """

    def __init__(
        self,
        stream: Union[IO[bytes], Any],
        root: Any,
        start: int = 0,
        count: Optional[int] = None,
        *,
        group_log: int = 0,
        key: Optional[Any] = None,
        derive_key_context: Optional[str] = None,
    ) -> None:
        super().__init__()
        if isinstance(stream, (bytes, bytearray, memoryview)):
            stream = io.BytesIO(stream)
        if not hasattr(stream, "read"):
            raise TypeError(f"stream must be a binary file object or bytes, not {type(stream).__name__}")
        begin, end = _range(start, count)
        self._verifier = _native._BaoVerifier(root, begin, end, _group_log(group_log), key, derive_key_context)
        self._stream = stream
        self._read = getattr(stream, "read1", stream.read)
        self._pending = bytearray()
        self._ready = b""

    def readable(self) -> bool:
        return True

    def _next_piece(self) -> bytes:
        """The next verified bytes; b"" at the end."""
        while True:
            need = self._verifier.want()
            if need is None:
                return b""
            while len(self._pending) < need:
                more = self._read(max(_READ_SIZE, need - len(self._pending)))
                if not more:
                    raise BaoError(
                        f"the stream ends at byte {self._verifier.position() + len(self._pending)}, "
                        f"inside an item of {need} bytes: the slice is truncated"
                    )
                self._pending += more
            used, verified = self._verifier.feed(self._pending)
            del self._pending[:used]
            if verified:
                return bytes(verified)

    def readinto(self, buffer: Any) -> int:
        view = memoryview(buffer).cast("B")
        if not self._ready:
            self._ready = self._next_piece()
        n = min(len(view), len(self._ready))
        view[:n] = self._ready[:n]
        self._ready = self._ready[n:]
        return n

    def readall(self) -> bytes:
        pieces = [self._ready]
        self._ready = b""
        while True:
            piece = self._next_piece()
            if not piece:
                return b"".join(pieces)
            pieces.append(piece)

    def read(self, size: Optional[int] = -1) -> bytes:
        if size is None or size < 0:
            return self.readall()
        buffer = bytearray(size)
        return bytes(buffer[: self.readinto(buffer)])

    def __iter__(self) -> Iterator[bytes]:
        return self

    def __next__(self) -> bytes:
        piece, self._ready = (self._ready or self._next_piece()), b""
        if not piece:
            raise StopIteration
        return piece


def decode(
    slice_or_encoding: Any,
    root: Any,
    start: int = 0,
    count: Optional[int] = None,
    *,
    group_log: int = 0,
    key: Optional[Any] = None,
    derive_key_context: Optional[str] = None,
) -> bytes:
    """The verified bytes of a slice (made for `start .. start + count`) or
    of a whole encoding (the defaults), given as bytes: `BaoError` unless
    every part verifies against `root`, and if bytes follow the slice."""
    data = memoryview(slice_or_encoding).cast("B")
    reader = SliceReader(data, root, start, count, group_log=group_log, key=key, derive_key_context=derive_key_context)
    out = reader.readall()
    begin, end = _range(start, count)
    expected = slice_len(int.from_bytes(data[:HEADER_LEN], "little"), begin, end - begin, group_log=group_log)
    if len(data) != expected:
        raise BaoError(f"{len(data)} bytes given, but the slice is {expected} bytes: trailing bytes")
    return out


__all__ = [
    "BaoError",
    "HEADER_LEN",
    "MAX_GROUP_LOG",
    "SliceReader",
    "decode",
    "encode",
    "outboard",
    "slice",
    "slice_encoding",
    "slice_len",
]
