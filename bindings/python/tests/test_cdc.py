"""`chunkhash.chunk` and `chunkhash.xet.hash_files`: Xet file hashes equal
`hf_xet.hash_files` (Hugging Face's client, from `make pydeps`), Xet chunks
rebuilt into a file hash by a Merkle tree written here from the
specification equal hf_xet's too (so every boundary and chunk hash is
right), FastCDC boundaries equal the CLI's, addresses equal the `blake3`
package's, and bad input raises a clear exception."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Dict, List, Tuple

import blake3 as reference_blake3
import pyarrow as pa
import pytest

import chunkhash
import chunkhash.xet
from conftest import SEED

# xet-core's keys (spec/hashing.md), as crates/chunkhash/src/xet.rs has them.
DATA_KEY = bytes([102, 151, 245, 119, 91, 149, 80, 222, 49, 53, 203, 172, 165, 151, 24, 28,
                  157, 228, 33, 16, 155, 235, 43, 88, 180, 208, 176, 75, 147, 173, 242, 41])
INTERNAL_NODE_KEY = bytes([1, 126, 197, 199, 165, 71, 41, 150, 253, 148, 102, 102, 180, 138, 2, 230,
                           93, 221, 83, 111, 55, 199, 109, 210, 248, 99, 82, 230, 74, 83, 113, 63])

TEXT = b"Xet cuts files with a Gear hash; this line repeats.\n"


def size_classes() -> Dict[str, bytes]:
    """Every size class of issue 32: empty, one byte, around Xet's 8, 64
    and 128 KiB, several MiB, and low-entropy inputs."""
    rng = random.Random(SEED)
    noise = rng.randbytes(3 << 20)
    files = {f"random-{n}": noise[:n] for n in (0, 1, 8191, 8192, 8193, 65536, 131071, 131072, 131073, 3 << 20)}
    for n in (8192, 131073, 1 << 20):
        files[f"zeros-{n}"] = bytes(n)
        files[f"text-{n}"] = (TEXT * (n // len(TEXT) + 1))[:n]
    return files


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> Dict[str, Tuple[Path, bytes]]:
    folder = tmp_path_factory.mktemp("cdc")
    out = {}
    for name, data in size_classes().items():
        path = folder / name
        path.write_bytes(data)
        out[name] = (path, data)
    return out


@pytest.fixture(scope="module")
def hf_xet_hashes(files: Dict[str, Tuple[Path, bytes]]) -> Dict[str, Tuple[str, int]]:
    """`hf_xet.hash_files` over every file, in a child process importing
    the wheel `make pydeps` installed (CHUNKHASH_PYDEPS)."""
    pydeps = os.environ.get("CHUNKHASH_PYDEPS", str(Path(__file__).resolve().parents[3] / "target" / "pydeps"))
    script = "import sys, hf_xet\nfor i in hf_xet.hash_files(sys.argv[1:]):\n    print(i.hash, i.file_size)\n"
    names = list(files)
    result = subprocess.run(
        [sys.executable, "-c", script, *(str(files[n][0]) for n in names)],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": pydeps},
    )
    assert result.returncode == 0, f"hf-xet is missing: `make pydeps` installs it into {pydeps}\n{result.stderr}"
    lines = result.stdout.split("\n")[: len(names)]
    return {name: (line.split()[0], int(line.split()[1])) for name, line in zip(names, lines)}


def xet_string(raw: bytes) -> str:
    """Xet's string form: each 8-byte group as a little-endian u64 in hex."""
    return "".join(raw[i : i + 8][::-1].hex() for i in range(0, 32, 8))


def reference_file_hash(chunks: List[Tuple[bytes, int]]) -> str:
    """The file hash of (chunk hash, size) leaves, level by level as the
    Xet specification's "Hashing" page describes it."""
    if not chunks:
        return "0" * 64
    level = chunks
    while len(level) > 1:
        parents = []
        start = 0
        while start < len(level):
            rest = level[start:]
            end = min(len(rest), 9)
            for i in range(2, end):
                if int.from_bytes(rest[i][0][24:], "little") % 4 == 0:
                    end = i + 1
                    break
            text = "".join(f"{xet_string(h)} : {s}\n" for h, s in rest[:end]).encode()
            key = INTERNAL_NODE_KEY
            parents.append((reference_blake3.blake3(text, key=key).digest(), sum(s for _, s in rest[:end])))
            start += end
        level = parents
    return xet_string(reference_blake3.blake3(level[0][0], key=bytes(32)).digest())


def test_hash_files_equals_hf_xet(files: Dict[str, Tuple[Path, bytes]], hf_xet_hashes: Dict[str, Tuple[str, int]]) -> None:
    names = list(files)
    ours = chunkhash.xet.hash_files([files[n][0] for n in names])
    assert [(info.hash, info.file_size) for info in ours] == [hf_xet_hashes[n] for n in names]
    assert chunkhash.xet.hash_files([]) == []


def test_xet_chunks_rebuild_hf_xets_file_hash(
    files: Dict[str, Tuple[Path, bytes]], hf_xet_hashes: Dict[str, Tuple[str, int]]
) -> None:
    for name, (path, data) in files.items():
        for source in (path, data):
            chunks = chunkhash.chunk(source)  # Xet's chunker, Xet addresses
            offsets, lengths = chunks.offsets, chunks.lengths
            addresses = [chunks.addresses[i] for i in range(len(offsets))]
            assert sum(lengths[i] for i in range(len(lengths))) == len(data), name
            leaves = []
            for i, address in enumerate(addresses):
                piece = data[offsets[i] : offsets[i] + lengths[i]]
                assert address == reference_blake3.blake3(piece, key=DATA_KEY).digest(), (name, i)
                assert 8192 <= len(piece) <= 131072 or i == len(addresses) - 1, (name, i, len(piece))
                leaves.append((address, len(piece)))
            assert reference_file_hash(leaves) == hf_xet_hashes[name][0], name


def cli_chunks(path: Path, sizes: Tuple[int, int, int]) -> List[Tuple[int, int, str]]:
    cli = os.environ.get("CHUNKHASH_CLI", str(Path(__file__).resolve().parents[3] / "target/release/chunkhash"))
    flag = ",".join(str(s) for s in sizes)
    out = subprocess.run([cli, "chunk", "--json", "--fastcdc", flag, str(path)], capture_output=True, text=True, check=True)
    return [(row["offset"], row["length"], row["address"]) for row in map(json.loads, out.stdout.splitlines())]


@pytest.mark.parametrize("sizes", [(64, 256, 1024), (2048, 8192, 65536), (16384, 65536, 262144)])
def test_fastcdc_chunks_equal_the_cli(files: Dict[str, Tuple[Path, bytes]], sizes: Tuple[int, int, int]) -> None:
    for name in ("random-131073", "random-3145728", "text-1048576", "zeros-131073", "random-1", "random-0"):
        path, data = files[name]
        chunks = chunkhash.chunk(data, fastcdc=sizes)
        assert chunks.addresses.type == "fixed_size_binary[32]"
        ours = [
            (chunks.offsets[i], chunks.lengths[i], bytes(chunks.addresses[i]).hex()) for i in range(len(chunks.offsets))
        ]
        assert ours == cli_chunks(path, sizes), (name, sizes)
        for offset, length, address in ours:
            assert address == reference_blake3.blake3(data[offset : offset + length]).hexdigest()


def test_arrow_columns_and_blake3_160(files: Dict[str, Tuple[Path, bytes]]) -> None:
    path, data = files["random-3145728"]
    chunks = chunkhash.chunk(str(path), fastcdc=(2048, 8192, 65536), address="blake3-160")
    offsets, lengths, addresses = (pa.array(column) for column in chunks)
    assert offsets.type == pa.uint64() and lengths.type == pa.uint64()
    assert addresses.type == pa.binary(20)
    assert offsets.to_pylist()[1:] == [o + n for o, n in zip(offsets.to_pylist(), lengths.to_pylist())][:-1]
    for offset, length, address in zip(offsets.to_pylist(), lengths.to_pylist(), addresses.to_pylist()):
        assert address == reference_blake3.blake3(data[offset : offset + length]).digest()[:20]
    # The Xet chunker may address chunks with plain BLAKE3 too.
    xet = chunkhash.chunk(memoryview(data), xet=True, address="blake3")
    assert xet.offsets[1] == chunkhash.chunk(data).offsets[1]
    assert xet.addresses[0] == reference_blake3.blake3(data[: xet.lengths[0]]).digest()


def test_large_input_runs_in_parallel_with_the_same_chunks() -> None:
    # 16 MiB and more go through the segmented parallel path; its chunks
    # must be those of one pass, which the smaller prefix's give.
    data = random.Random(SEED).randbytes(17 << 20)
    whole = chunkhash.chunk(data, fastcdc=(16384, 65536, 262144))
    prefix = chunkhash.chunk(data[: (16 << 20) - 1], fastcdc=(16384, 65536, 262144))
    n = len(prefix.offsets) - 1  # the prefix's last chunk ends early
    assert [whole.offsets[i] for i in range(n)] == [prefix.offsets[i] for i in range(n)]
    assert [whole.addresses[i] for i in range(n)] == [prefix.addresses[i] for i in range(n)]
    assert sum(whole.lengths[i] for i in range(len(whole.lengths))) == len(data)


def test_bad_input_raises(tmp_path: Path) -> None:
    missing = tmp_path / "missing"
    with pytest.raises(FileNotFoundError):
        chunkhash.chunk(missing)
    with pytest.raises(FileNotFoundError):
        chunkhash.xet.hash_files([missing])
    with pytest.raises(IsADirectoryError):
        chunkhash.chunk(tmp_path)
    with pytest.raises(TypeError):
        chunkhash.chunk(12345)
    with pytest.raises(TypeError):
        chunkhash.chunk(None)
    with pytest.raises(TypeError, match="fastcdc"):
        chunkhash.chunk(b"data", fastcdc=8192)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="ints"):
        chunkhash.chunk(b"data", fastcdc=(2048, "8k", 65536))  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="three sizes"):
        chunkhash.chunk(b"data", fastcdc=(2048, 8192))  # type: ignore[arg-type]
    for sizes, message in [
        ((2048, 8192, 65537), "odd"),
        ((32, 8192, 65536), "minimum chunk size 32 is outside"),
        ((2048, 8192, 1024), "above the maximum"),
        ((2048, 8192, 1 << 40), "maximum chunk size"),
        ((-2, 8192, 65536), "out of range"),
        ((2048, 8192, 1 << 70), "out of range"),
    ]:
        with pytest.raises(ValueError, match=message):
            chunkhash.chunk(b"data", fastcdc=sizes)
    with pytest.raises(ValueError, match="not both"):
        chunkhash.chunk(b"data", xet=True, fastcdc=(2048, 8192, 65536))
    with pytest.raises(ValueError, match="unknown chunk address"):
        chunkhash.chunk(b"data", address="sha256")
    with pytest.raises(TypeError):
        chunkhash.chunk(b"data", address=3)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="list of paths"):
        chunkhash.xet.hash_files(str(missing))
    with pytest.raises(TypeError, match="path-like"):
        chunkhash.xet.hash_files([3])  # type: ignore[list-item]
