"""Hugging Face's Xet hashes: `hash_files(paths)` gives what
`hf_xet.hash_files` gives (the Hub's `xetHash` of each file, and its
size), computed by the Rust `chunkhash::xet` without the GIL, on all
cores for files of 16 MiB and more.

`chunkhash.chunk(path, xet=True)` gives the chunks and chunk hashes."""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any, Iterable, List, Union

import importlib

# The native module has no stub of its own (the package's stub is
# __init__.pyi), so it is reached untyped, as chunkhash.s3 does.
_native: Any = importlib.import_module("chunkhash._chunkhash")


@dataclass(frozen=True)
class XetFileInfo:
    """A file's Xet hash, as `hf_xet.hash_files` returns it."""

    hash: str
    """The file hash in Xet's string form (64 hex digits; each 8-byte group
    printed as a little-endian number), all zeros for an empty file."""
    file_size: int
    """The file's size in bytes."""

    @property
    def filesize(self) -> int:
        """`file_size`, by the other name hf_xet's objects also answer to."""
        return self.file_size


def hash_files(paths: Iterable[Union[str, "os.PathLike[str]"]]) -> List[XetFileInfo]:
    """The Xet hash and size of each file, in order. Raises `OSError` for
    the first file that cannot be read, `TypeError` for a path that is not
    a `str` or path-like object (or a single `str` instead of a list)."""
    if isinstance(paths, (str, bytes, os.PathLike)):
        raise TypeError("hash_files takes a list of paths, not a single path")
    names = []
    for path in paths:
        if not isinstance(path, (str, os.PathLike)):
            raise TypeError(f"paths must be str or path-like objects, not {type(path).__name__}")
        names.append(os.fspath(path))
    return [XetFileInfo(hash, size) for hash, size in _native._xet_hash_files(names)]
