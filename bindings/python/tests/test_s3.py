"""chunkhash.s3.checksums against independent references: awscrt (the AWS
SDKs' own C checksums) for CRC32, CRC32C and CRC64NVME, hashlib for SHA-1,
SHA-256, SHA-512 and MD5, python-xxhash for XXHASH64, XXHASH3 and XXHASH128;
the multipart forms are built here part by part (full-object CRCs of the
whole data; composites as the hash of the concatenated part digests, then
-N; the ETag the MD5 of the part MD5s, then -N)."""

from __future__ import annotations

import base64
import hashlib
import os
import random
from pathlib import Path
from typing import Callable, Dict, List, Optional

import pytest
import xxhash
from awscrt import checksums as aws

import chunkhash.s3

SEED = int(os.environ.get("CHUNKHASH_TEST_SEED", "22"))

DIGESTS: Dict[str, Callable[[bytes], bytes]] = {
    "CRC32": lambda data: aws.crc32(data).to_bytes(4, "big"),
    "CRC32C": lambda data: aws.crc32c(data).to_bytes(4, "big"),
    "CRC64NVME": lambda data: aws.crc64nvme(data).to_bytes(8, "big"),
    "SHA1": lambda data: hashlib.sha1(data).digest(),
    "SHA256": lambda data: hashlib.sha256(data).digest(),
    "SHA512": lambda data: hashlib.sha512(data).digest(),
    "MD5": lambda data: hashlib.md5(data).digest(),
    "XXHASH64": lambda data: xxhash.xxh64(data).digest(),
    "XXHASH3": lambda data: xxhash.xxh3_64(data).digest(),
    "XXHASH128": lambda data: xxhash.xxh3_128(data).digest(),
}
FULL_OBJECT = {"CRC32", "CRC32C", "CRC64NVME"}


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def expected(data: bytes, part_size: Optional[int]) -> tuple[Dict[str, str], str]:
    if part_size is None:
        return {"Checksum" + k: b64(f(data)) for k, f in DIGESTS.items()}, f'"{hashlib.md5(data).hexdigest()}"'
    parts: List[bytes] = [data[i:i + part_size] for i in range(0, len(data), part_size)] or [b""]
    n = len(parts)
    values = {}
    for kind, digest in DIGESTS.items():
        if kind in FULL_OBJECT:
            values["Checksum" + kind] = b64(digest(data))
        else:
            values["Checksum" + kind] = b64(digest(b"".join(digest(p) for p in parts))) + f"-{n}"
    md5s = b"".join(hashlib.md5(p).digest() for p in parts)
    return values, f'"{hashlib.md5(md5s).hexdigest()}-{n}"'


def test_kinds_and_published_values() -> None:
    assert chunkhash.s3.KINDS == tuple(DIGESTS)
    sums = chunkhash.s3.checksums(b"")
    assert sums["ChecksumCRC64NVME"] == "AAAAAAAAAAA="
    assert sums.etag == '"d41d8cd98f00b204e9800998ecf8427e"' and sums.parts == 0
    assert chunkhash.s3.checksums(b"abc").headers()["x-amz-checksum-sha256"] == \
        "ungWv48Bz+pBQUDeXa4iI7ADYaOWF3qctBD/YfIAFa0="


def test_random_lengths_and_part_sizes(tmp_path: Path) -> None:
    print(f"seed {SEED} (CHUNKHASH_TEST_SEED)")
    rng = random.Random(SEED)
    cases = [(0, None), (0, 5), (10, 5), (11, 5), (1 << 20, 1 << 18), (3 << 20, None)]
    cases += [(rng.randrange(0, 3 << 20), rng.choice([None, rng.randrange(1, 1 << 20)])) for _ in range(12)]
    for length, part_size in cases:
        data = rng.randbytes(length)
        values, etag = expected(data, part_size)
        what = f"{length} bytes, part size {part_size}"
        from_bytes = chunkhash.s3.checksums(data, part_size)
        assert dict(from_bytes) == values, what
        assert from_bytes.etag == etag, what
        assert from_bytes.parts == (0 if part_size is None else max(1, -(-length // part_size))), what
        path = tmp_path / "object"
        path.write_bytes(data)
        for source in (path, str(path)):
            from_file = chunkhash.s3.checksums(source, part_size)
            assert (dict(from_file), from_file.etag) == (values, etag), what
        assert dict(chunkhash.s3.checksums(memoryview(bytearray(data)), part_size)) == values


def test_a_subset_of_kinds() -> None:
    sums = chunkhash.s3.checksums(b"abc", algorithms=["crc64nvme", "SHA1"])
    assert sorted(sums) == ["ChecksumCRC64NVME", "ChecksumSHA1"]
    assert sums["ChecksumSHA1"] == b64(hashlib.sha1(b"abc").digest())
    assert sums.etag == f'"{hashlib.md5(b"abc").hexdigest()}"'


def test_errors(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="unknown S3 checksum"):
        chunkhash.s3.checksums(b"abc", algorithms=["SHA384"])
    with pytest.raises(ValueError, match="part_size"):
        chunkhash.s3.checksums(b"abc", 0)
    with pytest.raises(FileNotFoundError):
        chunkhash.s3.checksums(tmp_path / "missing")
    with pytest.raises(TypeError):
        chunkhash.s3.checksums(12345)
