"""`chunkhash.chunk`: content-defined chunks and their addresses in one
call (the Rust `chunkhash::cdc`; the argument checks are here, the work
in `_chunkhash._chunk`, without the GIL)."""

from __future__ import annotations

import importlib
import os
from typing import TYPE_CHECKING, Any, NamedTuple, Optional, Tuple

if TYPE_CHECKING:
    from . import DigestArray

# The native module has no stub of its own (the package's stub is
# __init__.pyi), so it is reached untyped, as chunkhash.s3 does.
_native: Any = importlib.import_module("chunkhash._chunkhash")

# The largest size passed on to the library, which names its own limits
# (min 64..1 MiB, avg 256..4 MiB, max 1 KiB..16 MiB, all even).
_SIZE_LIMIT = 2**63


class Chunks(NamedTuple):
    """The chunks of an input, in order, as three Arrow arrays of one row
    per chunk (each a `DigestArray`: `pyarrow.array(...)`,
    `polars.Series(...)` or indexing read them)."""

    offsets: DigestArray
    """uint64: each chunk's first byte, from the start of the input."""
    lengths: DigestArray
    """uint64: each chunk's length in bytes."""
    addresses: DigestArray
    """fixed_size_binary[32] (or [20] for blake3-160): each chunk's address."""


def chunk(
    data_or_path: Any,
    *,
    xet: bool = False,
    fastcdc: Optional[Tuple[int, int, int]] = None,
    address: Optional[str] = None,
) -> Chunks:
    """Cuts a buffer (bytes, bytearray, memoryview, numpy array, ...) or a
    file (a `str` or path-like object) into content-defined chunks and
    addresses each one, in one call with the GIL released.

    The chunker is Xet's (Hugging Face's xet-core: 8 KiB to 128 KiB) unless
    `fastcdc=(min, avg, max)` picks FastCDC 2020, cutting where the `fastcdc`
    crate's v2020 chunker cuts with those sizes (normalization level 1).
    `address` is `"xet"` (Xet's chunk hash, the raw 32 bytes; the default
    with Xet's chunker), `"blake3"` (the default with FastCDC) or
    `"blake3-160"` (BLAKE3's first 20 bytes). Raises `OSError` for an
    unreadable file, `ValueError` for sizes the chunker refuses or an
    unknown address, `TypeError` for arguments of the wrong type.
    """
    if xet and fastcdc is not None:
        raise ValueError("chunk takes xet=True or fastcdc=(min, avg, max), not both")
    sizes = None if fastcdc is None else _fastcdc_sizes(fastcdc)
    if address is None:
        address = "blake3" if sizes is not None else "xet"
    elif not isinstance(address, str):
        raise TypeError(f"address must be a str, not {type(address).__name__}")
    if isinstance(data_or_path, (str, os.PathLike)):
        offsets, lengths, addresses = _native._chunk(os.fspath(data_or_path), True, sizes, address)
    else:
        offsets, lengths, addresses = _native._chunk(data_or_path, False, sizes, address)
    return Chunks(offsets, lengths, addresses)


def _fastcdc_sizes(fastcdc: Any) -> Tuple[int, int, int]:
    if isinstance(fastcdc, (str, bytes)) or not hasattr(fastcdc, "__len__"):
        raise TypeError(f"fastcdc must be a (min, avg, max) tuple of ints, not {type(fastcdc).__name__}")
    if len(fastcdc) != 3:
        raise ValueError(f"fastcdc must be three sizes (min, avg, max), got {len(fastcdc)}")
    for size in fastcdc:
        if isinstance(size, bool) or not isinstance(size, int):
            raise TypeError(f"fastcdc sizes must be ints, not {type(size).__name__}")
        if not 0 <= size < _SIZE_LIMIT:
            raise ValueError(f"fastcdc size {size} is out of range")
    min_size, avg_size, max_size = fastcdc
    return (min_size, avg_size, max_size)
