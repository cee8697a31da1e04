"""chunkhash: hashing for storage systems.

hashlib-style objects for BLAKE3 and the checksum registry, one-shot and
batch calls, and Arrow arrays in and out::

    import chunkhash

    chunkhash.blake3(b"chunk").hexdigest()          # like hashlib
    chunkhash.hash("xxh3_64", b"chunk")             # one-shot, bytes
    chunkhash.hash_many([b"a", b"b", b"c"])         # 3 x 32 bytes, SIMD lanes
    chunkhash.hash_array(pyarrow_or_polars_column)  # Arrow in, Arrow out

One BLAKE3 hash from ranges hashed by many workers: `blake3_subtree` on
each range (its offset a multiple of 1024, split where `blake3_left_len`
says), `blake3_merge` up the tree, `blake3_merge_root` at the top; `crc_combine`
joins the parts' CRCs. `chunkhash.dask` and `chunkhash.spark` use these for
columns and files on a cluster (they import Dask or PySpark; this module
does not).

Content-defined chunks and their addresses in one call:
`chunk(data_or_path, fastcdc=(min, avg, max))` or Xet's chunker (the
default), three Arrow arrays (offsets, lengths, addresses);
`chunkhash.xet.hash_files(paths)` gives Xet file hashes as `hf_xet` does.

Verified streaming (Bao): `chunkhash.bao` makes outboards, encodings and
slices of buffers and files, and `chunkhash.bao.SliceReader` hands out a
slice's bytes only once they are verified against the root hash.

Every digest is computed by the Rust crate `chunkhash`; this package only
converts arguments. Inputs are any C-contiguous buffer (bytes, bytearray,
memoryview, mmap, numpy arrays); `str` must be encoded first, as with
hashlib. Large inputs release the GIL (see `chunkhash._chunkhash`'s docs
and BENCHMARKS.md for the threshold); objects are safe to share between
threads, on free-threaded builds too. A buffer another thread writes into
while it is hashed (a bytearray, a numpy array) gives the digest of some
mix of its old and new bytes, as with hashlib, never a crash or a read
outside it: its length is fixed when it is exported, and it cannot be
resized while exported. Hash it again once the writes are done.
"""

from __future__ import annotations

import io
from typing import Any, Callable, Union

from ._chunkhash import (
    Blake3Subtree,
    DigestArray,
    Hasher,
    __version__,
    algorithms_available,
    algorithms_guaranteed,
    blake2b,
    blake2b_256,
    blake3,
    blake3_160,
    blake3_backend,
    blake3_left_len,
    blake3_max_subtree_len,
    blake3_merge,
    blake3_merge_root,
    blake3_subtree,
    crc32,
    crc32c,
    crc64nvme,
    crc_combine,
    hash,
    hash_array,
    hash_many,
    md5,
    new,
    sha1,
    sha256,
    sha512,
    sha512_160,
    xxh3_128,
    xxh3_64,
    xxh32,
    xxh64,
)
from ._chunking import Chunks, chunk


# The read size of file_digest, as hashlib's: 256 KiB, so each update
# releases the GIL while the next read waits.
_FILE_BUFFER_SIZE = 2**18


def file_digest(
    fileobj: Any,
    digest: Union[str, Callable[[], Union[Hasher, blake3]]],
    /,
    *,
    _bufsize: int = _FILE_BUFFER_SIZE,
) -> Union[Hasher, blake3]:
    """Hashes a file object opened for reading in binary mode, as
    `hashlib.file_digest` does: `digest` is an algorithm name or a callable
    returning a fresh hasher. Returns the hasher.

    For a file on disk, `chunkhash.new(name).update_mmap(path)` avoids the
    copies of reading.
    """
    hasher = new(digest) if isinstance(digest, str) else digest()
    if isinstance(fileobj, io.BytesIO):
        hasher.update(fileobj.getbuffer())
        return hasher
    if not (hasattr(fileobj, "readinto") and hasattr(fileobj, "readable") and fileobj.readable()):
        raise ValueError(f"'{fileobj!r}' is not a file-like object in binary reading mode.")
    buffer = bytearray(_bufsize)
    view = memoryview(buffer)
    while True:
        size = fileobj.readinto(buffer)
        if size is None:
            raise BlockingIOError("I/O operation would block.")
        if size == 0:
            break
        hasher.update(view[:size])
    return hasher
