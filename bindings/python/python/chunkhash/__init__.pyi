"""Type stubs of the chunkhash package (checked by the tests with mypy's
stubtest against the built module, and used by a typed example)."""

import sys
from typing import Any, Callable, Final, Iterable, NamedTuple, Optional, Protocol, Tuple, TypeVar, Union, final, overload

if sys.version_info >= (3, 12):
    from collections.abc import Buffer
else:
    from typing_extensions import Buffer

from os import PathLike

_StrPath = Union[str, "PathLike[str]"]
_W = TypeVar("_W", bound=Buffer)

class _ArrowArrayExporter(Protocol):
    def __arrow_c_array__(self, requested_schema: Optional[object] = None) -> Tuple[object, object]: ...

class _ArrowStreamExporter(Protocol):
    def __arrow_c_stream__(self, requested_schema: Optional[object] = None) -> object: ...


__version__: Final[str]
algorithms_available: Final[frozenset[str]]
algorithms_guaranteed: Final[frozenset[str]]

@final
class Hasher:
    """A running hash of any registry algorithm, hashlib style."""

    def __new__(cls, name: str, data: Optional[Buffer] = None, /) -> "Hasher": ...
    @property
    def name(self) -> str: ...
    @property
    def digest_size(self) -> int: ...
    @property
    def block_size(self) -> int: ...
    def update(self, data: Buffer, /) -> None: ...
    def update_mmap(self, path: _StrPath) -> None: ...
    def digest(self) -> bytes: ...
    def hexdigest(self) -> str: ...
    def intdigest(self) -> int: ...
    def copy(self) -> "Hasher": ...
    def reset(self) -> None: ...

@final
class blake3:
    """A running BLAKE3 hash, with its keyed and key-derivation modes and
    extended output."""

    name: Final = "blake3"
    digest_size: Final = 32
    block_size: Final = 64
    key_size: Final = 32
    AUTO: Final = -1
    def __new__(
        cls,
        data: Optional[Buffer] = None,
        /,
        *,
        key: Optional[Buffer] = None,
        derive_key_context: Optional[str] = None,
        max_threads: int = 1,
        usedforsecurity: bool = True,
    ) -> "blake3": ...
    def update(self, data: Buffer, /) -> "blake3": ...
    def update_mmap(self, path: _StrPath) -> "blake3": ...
    def digest(self, length: Optional[int] = None, *, seek: Optional[int] = None) -> bytes: ...
    def hexdigest(self, length: Optional[int] = None, *, seek: Optional[int] = None) -> str: ...
    def copy(self) -> "blake3": ...
    def reset(self) -> None: ...

@final
class DigestArray:
    """The result of `hash_array`: an Arrow array of digests."""

    def __arrow_c_array__(self, requested_schema: Optional[object] = None) -> Tuple[object, object]: ...
    def __arrow_c_stream__(self, requested_schema: Optional[object] = None) -> object: ...
    def __len__(self) -> int: ...
    def __getitem__(self, index: int, /) -> Union[bytes, int, None]: ...
    @property
    def null_count(self) -> int: ...
    @property
    def type(self) -> str: ...

def new(
    name: str,
    data: Optional[Buffer] = None,
    /,
    *,
    key: Optional[Buffer] = None,
    derive_key_context: Optional[str] = None,
    usedforsecurity: bool = True,
) -> Union[Hasher, blake3]: ...
def blake3_160(data: Optional[Buffer] = None, /, *, usedforsecurity: bool = True) -> Hasher: ...
def xxh3_64(data: Optional[Buffer] = None, /, *, usedforsecurity: bool = True) -> Hasher: ...
def xxh3_128(data: Optional[Buffer] = None, /, *, usedforsecurity: bool = True) -> Hasher: ...
def xxh64(data: Optional[Buffer] = None, /, *, usedforsecurity: bool = True) -> Hasher: ...
def xxh32(data: Optional[Buffer] = None, /, *, usedforsecurity: bool = True) -> Hasher: ...
def crc32(data: Optional[Buffer] = None, /, *, usedforsecurity: bool = True) -> Hasher: ...
def crc32c(data: Optional[Buffer] = None, /, *, usedforsecurity: bool = True) -> Hasher: ...
def crc64nvme(data: Optional[Buffer] = None, /, *, usedforsecurity: bool = True) -> Hasher: ...
def blake2b(data: Optional[Buffer] = None, /, *, usedforsecurity: bool = True) -> Hasher: ...
def blake2b_256(data: Optional[Buffer] = None, /, *, usedforsecurity: bool = True) -> Hasher: ...
def sha256(data: Optional[Buffer] = None, /, *, usedforsecurity: bool = True) -> Hasher: ...
def sha512(data: Optional[Buffer] = None, /, *, usedforsecurity: bool = True) -> Hasher: ...
def sha512_160(data: Optional[Buffer] = None, /, *, usedforsecurity: bool = True) -> Hasher: ...
def md5(data: Optional[Buffer] = None, /, *, usedforsecurity: bool = True) -> Hasher: ...
def sha1(data: Optional[Buffer] = None, /, *, usedforsecurity: bool = True) -> Hasher: ...
def hash(
    name: str,
    data: Buffer,
    /,
    *,
    key: Optional[Buffer] = None,
    derive_key_context: Optional[str] = None,
) -> bytes: ...
@overload
def hash_many(
    messages: Iterable[Buffer],
    name: Optional[str] = None,
    *,
    key: Optional[Buffer] = None,
    derive_key_context: Optional[str] = None,
    out: None = None,
) -> bytes: ...
@overload
def hash_many(
    messages: Iterable[Buffer],
    name: Optional[str] = None,
    *,
    key: Optional[Buffer] = None,
    derive_key_context: Optional[str] = None,
    out: _W,
) -> _W: ...
def hash_array(
    array: Union[_ArrowArrayExporter, _ArrowStreamExporter],
    name: Optional[str] = None,
    *,
    key: Optional[Buffer] = None,
    derive_key_context: Optional[str] = None,
) -> DigestArray: ...
def blake3_backend() -> str: ...

class Chunks(NamedTuple):
    """The chunks of an input: offsets, lengths (uint64) and addresses."""

    offsets: DigestArray
    lengths: DigestArray
    addresses: DigestArray

def chunk(
    data_or_path: Union[Buffer, _StrPath],
    *,
    xet: bool = False,
    fastcdc: Optional[Tuple[int, int, int]] = None,
    address: Optional[str] = None,
) -> Chunks: ...
def crc_combine(name: str, crc_a: int, crc_b: int, length_b: int, /) -> int: ...

@final
class Blake3Subtree:
    """A range of a BLAKE3 message and its chaining value; picklable."""

    def __new__(cls, cv: Buffer, offset: int, length: int) -> "Blake3Subtree": ...
    @property
    def cv(self) -> bytes: ...
    @property
    def offset(self) -> int: ...
    @property
    def length(self) -> int: ...
    def __eq__(self, other: object, /) -> bool: ...
    def __hash__(self) -> int: ...
    def __reduce__(self) -> Tuple[type["Blake3Subtree"], Tuple[bytes, int, int]]: ...

def blake3_subtree(
    data: Buffer,
    /,
    offset: int = 0,
    *,
    key: Optional[Buffer] = None,
    derive_key_context: Optional[str] = None,
) -> Blake3Subtree: ...
def blake3_merge(
    left: Blake3Subtree,
    right: Blake3Subtree,
    /,
    *,
    key: Optional[Buffer] = None,
    derive_key_context: Optional[str] = None,
) -> Blake3Subtree: ...
def blake3_merge_root(
    left: Blake3Subtree,
    right: Blake3Subtree,
    /,
    *,
    key: Optional[Buffer] = None,
    derive_key_context: Optional[str] = None,
    length: Optional[int] = None,
    seek: Optional[int] = None,
) -> bytes: ...
def blake3_left_len(length: int) -> int: ...
def blake3_max_subtree_len(offset: int) -> Optional[int]: ...
def file_digest(
    fileobj: Any,
    digest: Union[str, Callable[[], Union[Hasher, blake3]]],
    /,
    *,
    _bufsize: int = ...,
) -> Union[Hasher, blake3]: ...
