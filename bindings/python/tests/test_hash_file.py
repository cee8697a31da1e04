"""One file hashed in parts: `crc_combine`; the parts' tasks and the merge
run in this process at sizes around every split (0, 1, 1024, 1025, 2^k
chunks and one byte either side) against blake3-py, the crc32c package
and awscrt; `chunkhash.dask.hash_file` on the LocalCluster and
`chunkhash.spark.hash_file` on local[2] against b3sum and `chunkhash sum`
(CHUNKHASH_PEER_B3SUM and CHUNKHASH_CLI, which `make test-python` sets),
also on a sparse file over 2 GiB; bad input as errors on the driver."""

from __future__ import annotations

import os
import random
import subprocess
from pathlib import Path
from typing import Any, Dict, List

import awscrt.checksums
import blake3 as blake3_py
import crc32c as crc32c_py
import pytest

import chunkhash
from chunkhash import _file_parts

KIB = 1024
# Around every split the tree makes for parts of 1 to 16 KiB.
SIZES = sorted({0, 1, 1023, 1024, 1025, 3 * KIB, 3 * KIB + 1} | {(KIB << k) + d for k in range(1, 7) for d in (-1, 0, 1)})


def _tool(variable: str) -> str:
    """The peer tool a variable names; skipped when unset (outside `make`),
    failed when it names nothing to run."""
    path = os.environ.get(variable)
    if not path:
        pytest.skip(f"{variable} is not set (make test-python sets it)")
    assert os.access(path, os.X_OK), f"{variable}={path} is not an executable"
    return path


def _sums(command: List[str], paths: List[Path]) -> Dict[str, str]:
    """BLAKE3 hex digests as b3sum-style output gives them, by path."""
    output = subprocess.run([*command, *map(str, paths)], check=True, capture_output=True, text=True).stdout
    return {line.split("  ", 1)[1]: line.split("  ", 1)[0] for line in output.splitlines()}


def _write(folder: Path, size: int, rng: random.Random) -> Path:
    path = folder / f"f{size}"
    path.write_bytes(rng.randbytes(size))
    return path


def _check_references(result: _file_parts.FileHash, data: bytes) -> None:
    assert result.size == len(data)
    assert result.digest == blake3_py.blake3(data).digest()
    assert result.crc32c == crc32c_py.crc32c(data)
    assert result.crc64nvme == awscrt.checksums.crc64nvme(data)


def _in_process(path: Path, part_size: Any) -> _file_parts.FileHash:
    """What hash_file does, its tasks run here in turn."""
    file, size, part_size, parts = _file_parts.plan(path, part_size, 2)
    results = [_file_parts.hash_part(file, part) for part in reversed(parts)]
    return _file_parts.combine(file, size, part_size, results)


def test_crc_combine(rng: random.Random) -> None:
    for _ in range(50):
        data = rng.randbytes(rng.randrange(0, 5000))
        cut = rng.randrange(0, len(data) + 1)
        a, b = data[:cut], data[cut:]
        assert chunkhash.crc_combine("crc32c", crc32c_py.crc32c(a), crc32c_py.crc32c(b), len(b)) == crc32c_py.crc32c(data)
        nvme = awscrt.checksums.crc64nvme
        assert chunkhash.crc_combine("crc64nvme", nvme(a), nvme(b), len(b)) == nvme(data)
        crc32 = chunkhash.crc32
        assert chunkhash.crc_combine("crc32", crc32(a).intdigest(), crc32(b).intdigest(), len(b)) == crc32(data).intdigest()


def test_crc_combine_errors() -> None:
    with pytest.raises(ValueError, match="is not a CRC"):
        chunkhash.crc_combine("xxh3_64", 1, 2, 3)
    with pytest.raises(ValueError, match="unsupported hash type 'crc16'"):
        chunkhash.crc_combine("crc16", 1, 2, 3)
    with pytest.raises(ValueError, match="0x100000000 is not a CRC32C value: it has more than 32 bits"):
        chunkhash.crc_combine("crc32c", 1 << 32, 0, 3)
    with pytest.raises(OverflowError):
        chunkhash.crc_combine("crc64nvme", -1, 0, 3)


@pytest.mark.parametrize("part_size", [KIB, 2 * KIB, 4 * KIB, 16 * KIB, None])
def test_parts_in_process(tmp_path: Path, rng: random.Random, part_size: Any) -> None:
    for size in SIZES:
        path = _write(tmp_path, size, rng)
        result = _in_process(path, part_size)
        _check_references(result, path.read_bytes())
        expected_parts = 1 if part_size is None or size <= part_size else -(-size // part_size)
        assert result.parts == expected_parts, size


def test_blocks_inside_a_part(tmp_path: Path, rng: random.Random, monkeypatch: pytest.MonkeyPatch) -> None:
    """Tasks read 1 MiB blocks; with 1 KiB blocks the merge inside a part
    runs at these small sizes too."""
    monkeypatch.setattr(_file_parts, "BLOCK_LEN", KIB)
    for size in SIZES:
        path = _write(tmp_path, size, rng)
        for part_size in (4 * KIB, 16 * KIB, 64 * KIB):
            _check_references(_in_process(path, part_size), path.read_bytes())


def test_file_hash_formats(tmp_path: Path) -> None:
    path = tmp_path / "s3"
    path.write_bytes(b"hello world")
    result = _in_process(path, None)
    assert result.hexdigest() == blake3_py.blake3(b"hello world").hexdigest()
    # S3's checksum headers for b"hello world" (its documented CRC32C).
    assert result.crc32c_base64 == "yZRlqg=="
    assert result.crc64nvme_base64 == __import__("base64").b64encode(awscrt.checksums.crc64nvme(b"hello world").to_bytes(8, "big")).decode()


def test_bad_input(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        _file_parts.plan(tmp_path / "missing", None, 2)
    with pytest.raises(ValueError, match="is not a regular file"):
        _file_parts.plan(tmp_path, None, 2)
    path = tmp_path / "f"
    path.write_bytes(bytes(5000))
    for bad in (0, 512, 3000, -1024):
        with pytest.raises(ValueError, match="part_size must be a power of two of at least 1024 bytes"):
            _file_parts.plan(path, bad, 2)
    with pytest.raises(TypeError, match="part_size must be an int"):
        _file_parts.plan(path, 1024.0, 2)  # type: ignore[arg-type]
    # A file that shrinks between the plan and a task.
    file, _, _, parts = _file_parts.plan(path, 1024, 2)
    path.write_bytes(bytes(3000))
    with pytest.raises(ValueError, match="changed while it was hashed: 3000 bytes"):
        _file_parts.hash_part(file, parts[-1])


def _distributed_sizes(folder: Path, rng: random.Random) -> List[Path]:
    return [_write(folder, size, rng) for size in (0, 1, 1024, 1025, 4 * KIB - 1, 4 * KIB + 1, 64 * KIB + KIB + 1)]


def test_dask_hash_file(dask_client: Any, tmp_path: Path, rng: random.Random) -> None:
    import chunkhash.dask as chd

    paths = _distributed_sizes(tmp_path, rng)
    b3sum = _sums([_tool("CHUNKHASH_PEER_B3SUM")], paths)
    cli = _sums([_tool("CHUNKHASH_CLI"), "sum"], paths)
    for path in paths:
        for part_size in (KIB, 4 * KIB, None):
            result = chd.hash_file(path, part_size=part_size)
            _check_references(result, path.read_bytes())
            assert result.hexdigest() == b3sum[str(path)] == cli[str(path)]
    with pytest.raises(FileNotFoundError):
        chd.hash_file(tmp_path / "missing")


def test_spark_hash_file(spark: Any, tmp_path: Path, rng: random.Random) -> None:
    import chunkhash.spark as chs

    paths = _distributed_sizes(tmp_path, rng)
    b3sum = _sums([_tool("CHUNKHASH_PEER_B3SUM")], paths)
    for path in paths:
        # Parts of 1 KiB ran in-process and on Dask; a Spark task costs more.
        for part_size in (4 * KIB, None):
            result = chs.hash_file(spark, path, part_size=part_size)
            _check_references(result, path.read_bytes())
            assert result.hexdigest() == b3sum[str(path)]
    with pytest.raises(ValueError, match="part_size must be a power of two"):
        chs.hash_file(spark, paths[0], part_size=1000)


def test_sparse_file_over_2_gib(dask_client: Any, spark: Any, tmp_path: Path) -> None:
    """2 GiB + 3073 bytes, mostly a hole, with data at the ends and across
    the 1 GiB split, in the default parts."""
    import chunkhash.dask as chd
    import chunkhash.spark as chs

    size = (2 << 30) + 3 * KIB + 1
    path = tmp_path / "sparse"
    with open(path, "wb") as file:
        file.truncate(size)
        for offset in (0, (1 << 30) - 5, size - 100):
            file.seek(offset)
            file.write(bytes(range(1, 101)))
    (digest,) = _sums([_tool("CHUNKHASH_PEER_B3SUM")], [path]).values()
    (cli,) = _sums([_tool("CHUNKHASH_CLI"), "sum"], [path]).values()
    crc_c = crc_nvme = 0
    with open(path, "rb") as file:
        while block := file.read(64 << 20):
            crc_c = crc32c_py.crc32c(block, crc_c)
            crc_nvme = awscrt.checksums.crc64nvme(block, crc_nvme)
    for result in (chd.hash_file(path), chs.hash_file(spark, path)):
        # Two worker threads, at most four parts each: 512 MiB parts.
        assert result.size == size and result.parts == 5 and result.part_size == 512 << 20
        assert result.hexdigest() == digest == cli
        assert (result.crc32c, result.crc64nvme) == (crc_c, crc_nvme)
