"""One file hashed by many workers: the plan (parts at subtree-aligned
offsets), the work of one task (its part's BLAKE3 subtree and CRCs, read
from the file itself), and the driver's merge into the file's BLAKE3 hash
and full-object CRC32C and CRC64/NVME. `chunkhash.dask.hash_file` and
`chunkhash.spark.hash_file` only run the tasks.

Every part but the last has the same size, a power of two times 1024 bytes,
so each part starts at a multiple of its size: a whole subtree of the
BLAKE3 tree (`blake3_max_subtree_len` allows it), and every split the tree
makes above the parts (`blake3_left_len`) falls between two parts.
"""

from __future__ import annotations

import base64
import mmap
import os
import stat
from dataclasses import dataclass
from typing import BinaryIO, List, Optional, Sequence, Tuple, Union

from . import Blake3Subtree, blake3, blake3_left_len, blake3_merge, blake3_merge_root, blake3_subtree, crc32c, crc64nvme, crc_combine

CHUNK_LEN = 1024
# Each task reads and hashes its part one block at a time, so the block is
# still in cache for the two CRCs after BLAKE3 has read it.
BLOCK_LEN = 1 << 20
# The default part size never goes below this: smaller parts cost more in
# task overhead than they win in balance.
MIN_DEFAULT_PART_LEN = 16 << 20
# Parts per worker thread by default, so that unequal last parts and slow
# workers even out.
PARTS_PER_WORKER = 4


@dataclass(frozen=True)
class FileHash:
    """The hashes of one file, from its parts: BLAKE3 (`digest`, 32 bytes,
    what b3sum prints) and the full-object CRC32C and CRC64/NVME (integers,
    as `chunkhash.crc32c(data).intdigest()`)."""

    path: str
    size: int
    digest: bytes
    crc32c: int
    crc64nvme: int
    parts: int
    part_size: int

    def hexdigest(self) -> str:
        return self.digest.hex()

    @property
    def crc32c_base64(self) -> str:
        """The CRC32C as S3's `x-amz-checksum-crc32c` writes it."""
        return base64.b64encode(self.crc32c.to_bytes(4, "big")).decode()

    @property
    def crc64nvme_base64(self) -> str:
        """The CRC64/NVME as S3's `x-amz-checksum-crc64nvme` writes it."""
        return base64.b64encode(self.crc64nvme.to_bytes(8, "big")).decode()


@dataclass(frozen=True)
class Part:
    """Bytes [offset, offset + length) of the file; `whole` when it is the
    only part, so its task gives the root hash itself."""

    offset: int
    length: int
    whole: bool


@dataclass(frozen=True)
class PartHash:
    """What one task sends back: the part's subtree (or the file's hash for
    a whole file) and the part's CRCs."""

    part: Part
    blake3: Union[Blake3Subtree, bytes]
    crc32c: int
    crc64nvme: int


def check_part_size(part_size: int) -> None:
    if isinstance(part_size, bool) or not isinstance(part_size, int):
        raise TypeError(f"part_size must be an int, not {type(part_size).__name__}")
    if part_size < CHUNK_LEN or part_size & (part_size - 1):
        raise ValueError(f"part_size must be a power of two of at least {CHUNK_LEN} bytes, not {part_size}")


def default_part_size(size: int, workers: int) -> int:
    """The smallest power of two (at least MIN_DEFAULT_PART_LEN) that gives
    each worker thread at most PARTS_PER_WORKER parts."""
    target = -(-size // max(1, workers * PARTS_PER_WORKER))
    part_size = MIN_DEFAULT_PART_LEN
    while part_size < target:
        part_size *= 2
    return part_size


def plan(path: Union[str, "os.PathLike[str]"], part_size: Optional[int], workers: int) -> Tuple[str, int, int, List[Part]]:
    """The file's absolute path, size, part size and parts."""
    path = os.path.abspath(os.fspath(path))
    status = os.stat(path)
    if not stat.S_ISREG(status.st_mode):
        raise ValueError(f"{path} is not a regular file; hash_file splits files by offset")
    size = status.st_size
    if part_size is None:
        part_size = default_part_size(size, workers)
    check_part_size(part_size)
    if size <= part_size:
        return path, size, part_size, [Part(0, size, True)]
    parts = [Part(offset, min(part_size, size - offset), False) for offset in range(0, size, part_size)]
    return path, size, part_size, parts


def hash_part(path: str, part: Part) -> PartHash:
    """A task: reads its part of the file (mapped, never copied) and hashes
    it block by block into BLAKE3 subtrees, merged to the part's subtree,
    and the part's CRCs. For a whole file, the BLAKE3 hash itself."""
    crc_c = crc32c()
    crc_nvme = crc64nvme()
    whole = blake3() if part.whole else None
    blocks: List[Blake3Subtree] = []
    # Blocks of a part start at multiples of their length: subtrees.
    block_len = BLOCK_LEN if part.whole else min(BLOCK_LEN, _power_of_two_at_most(part.length))
    with open(path, "rb") as file, _mapped(file, part) as view:
        for start in range(0, part.length, block_len):
            with view[start : start + block_len] as block:
                if whole is not None:
                    whole.update(block)
                else:
                    blocks.append(blake3_subtree(block, part.offset + start))
                crc_c.update(block)
                crc_nvme.update(block)
    value = whole.digest() if whole is not None else merge(blocks, block_len, root=False)
    assert isinstance(value, (bytes, Blake3Subtree))
    return PartHash(part, value, crc_c.intdigest(), crc_nvme.intdigest())


def _power_of_two_at_most(length: int) -> int:
    power = CHUNK_LEN
    while power * 2 <= length:
        power *= 2
    return power


class _mapped:
    """The part's bytes as a memoryview of a read-only mapping (mmap wants
    an offset aligned to the allocation granularity, parts may start at any
    multiple of 1024). ValueError if the file's size is not the plan's."""

    def __init__(self, file: BinaryIO, part: Part) -> None:
        self.file, self.part = file, part
        self.map: Optional[mmap.mmap] = None

    def __enter__(self) -> memoryview:
        part, end = self.part, self.part.offset + self.part.length
        size = os.fstat(self.file.fileno()).st_size
        if size < end or (part.whole and size != end):
            raise ValueError(f"{self.file.name} changed while it was hashed: {size} bytes, planned {end} or more")
        if part.length == 0:
            self.view = memoryview(b"")
            return self.view
        skip = part.offset % mmap.ALLOCATIONGRANULARITY
        self.map = mmap.mmap(self.file.fileno(), skip + part.length, offset=part.offset - skip, access=mmap.ACCESS_READ)
        self.view = memoryview(self.map)[skip:]
        return self.view

    def __exit__(self, *exc: object) -> None:
        self.view.release()
        if self.map is not None:
            self.map.close()


def merge(nodes: Sequence[Blake3Subtree], unit: int, root: bool) -> Union[Blake3Subtree, bytes]:
    """The subtree over consecutive `nodes`, each `unit` bytes (a power of
    two times 1024) but the last, split where BLAKE3 splits: the left
    part of a node of more than `unit` bytes is a multiple of `unit`. With
    `root`, the hash of the message they make (at least two nodes)."""

    def build(low: int, high: int, at_root: bool) -> Union[Blake3Subtree, bytes]:
        if high - low == 1:
            return nodes[low]
        length = nodes[high - 1].offset + nodes[high - 1].length - nodes[low].offset
        middle = low + blake3_left_len(length) // unit
        left, right = build(low, middle, False), build(middle, high, False)
        assert isinstance(left, Blake3Subtree) and isinstance(right, Blake3Subtree)
        return blake3_merge_root(left, right) if at_root else blake3_merge(left, right)

    if root and len(nodes) < 2:
        raise ValueError("a root needs at least two subtrees")
    return build(0, len(nodes), root)


def combine(path: str, size: int, part_size: int, results: Sequence[PartHash]) -> FileHash:
    """The driver's step: the parts' values, in file order, into the file's."""
    results = sorted(results, key=lambda result: result.part.offset)
    if len(results) == 1:
        (only,) = results
        assert isinstance(only.blake3, bytes)
        return FileHash(path, size, only.blake3, only.crc32c, only.crc64nvme, 1, part_size)
    subtrees = [result.blake3 for result in results]
    assert all(isinstance(subtree, Blake3Subtree) for subtree in subtrees)
    digest = merge(subtrees, part_size, root=True)  # type: ignore[arg-type]
    assert isinstance(digest, bytes)
    crc_c, crc_nvme = results[0].crc32c, results[0].crc64nvme
    for result in results[1:]:
        crc_c = crc_combine("crc32c", crc_c, result.crc32c, result.part.length)
        crc_nvme = crc_combine("crc64nvme", crc_nvme, result.crc64nvme, result.part.length)
    return FileHash(path, size, digest, crc_c, crc_nvme, len(results), part_size)
