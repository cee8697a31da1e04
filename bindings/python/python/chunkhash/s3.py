"""Every checksum Amazon S3 records for an object, as S3 reports it::

    import boto3, chunkhash.s3

    sums = chunkhash.s3.checksums("pack.bin")              # or bytes
    boto3.client("s3").put_object(Bucket="b", Key="k", Body=open("pack.bin", "rb"),
                                  ChecksumCRC64NVME=sums["ChecksumCRC64NVME"])
    sums.etag                                              # '"<hex md5>"'

The ten kinds (CRC32, CRC32C, CRC64NVME, SHA1, SHA256, SHA512, MD5,
XXHASH64, XXHASH3, XXHASH128) are keyed by their boto3 parameter names
(`ChecksumCRC32`, ...; the HTTP header is `x-amz-checksum-` and the kind in
lower case); each value is the base64 of the big-endian digest. With
`part_size`, the multipart forms of an upload in parts of that size: the
CRCs full-object (the CRC of the whole object), the others composite (the
kind's hash of the concatenated part digests, then `-N`), and the ETag the
MD5 of the part MD5s, then `-N`. One pass over the data, on two threads,
without the GIL, by the Rust crate `chunkhash` (module `chunkhash::s3_checksums`).
MD5 and SHA-1 are here for S3's sake only: never for new designs.
"""

from __future__ import annotations

import importlib
import os
from typing import Any, Dict, Iterable, Optional, Union

_native: Any = importlib.import_module("chunkhash._chunkhash")

#: The ten kinds, in the order of S3's documentation.
KINDS = ("CRC32", "CRC32C", "CRC64NVME", "SHA1", "SHA256", "SHA512", "MD5", "XXHASH64", "XXHASH3", "XXHASH128")


class Checksums(Dict[str, str]):
    """The values by boto3 parameter name (`ChecksumCRC64NVME`, ...), plus
    `etag` (with its double quotes, as S3's ETag header) and `parts` (the
    number of parts; 0 for a single-part upload)."""

    etag: str
    parts: int

    def __init__(self, values: Iterable[tuple[str, str]], etag: str, parts: int) -> None:
        super().__init__(values)
        self.etag = etag
        self.parts = parts

    def headers(self) -> Dict[str, str]:
        """The same values keyed by HTTP header (`x-amz-checksum-crc64nvme`, ...)."""
        return {"x-amz-checksum-" + name[len("Checksum"):].lower(): value for name, value in self.items()}


def checksums(
    path_or_bytes: Union[str, "os.PathLike[str]", bytes, bytearray, memoryview, Any],
    part_size: Optional[int] = None,
    *,
    algorithms: Optional[Iterable[str]] = None,
) -> Checksums:
    """S3's checksums of a file (a `str` or path-like object) or of a buffer
    (bytes, bytearray, memoryview, numpy array, ...). `algorithms` picks
    kinds by S3 name (`"CRC64NVME"`, any case; default: all ten); the ETag
    is always computed. Raises `OSError` for an unreadable file and
    `ValueError` for an unknown kind or a part size below 1."""
    if part_size is not None and part_size < 1:
        raise ValueError(f"part_size must be at least 1 byte, not {part_size}")
    kinds = None if algorithms is None else [str(name) for name in algorithms]
    if isinstance(path_or_bytes, (str, os.PathLike)):
        source: Any = os.fspath(path_or_bytes)
        values, etag, parts = _native._s3_checksums(source, True, part_size, kinds)
    else:
        values, etag, parts = _native._s3_checksums(path_or_bytes, False, part_size, kinds)
    return Checksums(values, etag, parts)
