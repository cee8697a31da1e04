"""Every bad input raises a clear TypeError or ValueError (or the OSError
of the file), never a crash, and leaves hasher objects usable."""

from __future__ import annotations

import array
import hashlib
import re
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pytest

import chunkhash

# hashlib's own message, kept identical.
STR_MESSAGE = "Strings must be encoded before hashing"


def test_str_is_refused_like_hashlib() -> None:
    with pytest.raises(TypeError) as ours:
        chunkhash.hash("sha256", "text")  # type: ignore[arg-type]
    with pytest.raises(TypeError) as theirs:
        hashlib.sha256("text")  # type: ignore[arg-type]
    assert str(ours.value) == str(theirs.value) == STR_MESSAGE
    for call in (
        lambda: chunkhash.blake3("text"),
        lambda: chunkhash.blake3().update("text"),
        lambda: chunkhash.sha256().update("text"),
        lambda: chunkhash.new("xxh3_64", "text"),
    ):
        with pytest.raises(TypeError, match=STR_MESSAGE):
            call()
    with pytest.raises(TypeError, match=r"messages\[1\]: " + STR_MESSAGE):
        chunkhash.hash_many([b"ok", "text"])


@pytest.mark.parametrize("value", [1, 1.5, None, object(), [b"a"]])
def test_non_buffers(value: Any) -> None:
    with pytest.raises(TypeError, match="bytes-like object is required"):
        chunkhash.hash("blake3", value)
    with pytest.raises(TypeError, match="bytes-like object is required"):
        chunkhash.xxh64().update(value)


def test_non_contiguous_buffers() -> None:
    strided = np.arange(100, dtype=np.uint8)[::2]
    fortran = np.asfortranarray(np.arange(100, dtype=np.uint8).reshape(10, 10))
    view = memoryview(bytes(100))[::3]
    for buffer in (strided, fortran, view):
        with pytest.raises(ValueError, match="not C-contiguous"):
            chunkhash.hash("blake3", buffer)
        with pytest.raises(ValueError, match="not C-contiguous"):
            chunkhash.sha256().update(buffer)
        with pytest.raises(ValueError, match=r"messages\[0\]: .*not C-contiguous"):
            chunkhash.hash_many([buffer])
    # A contiguous copy is the remedy the message names.
    assert chunkhash.hash("blake3", np.ascontiguousarray(strided)) == chunkhash.hash("blake3", strided.tobytes())


def test_unknown_names_list_the_valid_ones() -> None:
    for call in (
        lambda: chunkhash.hash("md4", b""),
        lambda: chunkhash.new("md4"),
        lambda: chunkhash.Hasher("md4"),
        lambda: chunkhash.hash_many([b""], "md4"),
        lambda: chunkhash.hash_array(pa.array([b""]), "md4"),
        lambda: chunkhash.file_digest(open(__file__, "rb"), "md4"),
    ):
        with pytest.raises(ValueError) as error:
            call()
        message = str(error.value)
        assert "unsupported hash type 'md4'" in message
        for name in chunkhash.algorithms_available:
            assert re.search(rf"\b{name}\b", message), name
    with pytest.raises(ValueError, match="unsupported hash type ' sha256'"):
        chunkhash.hash(" sha256", b"")
    with pytest.raises(TypeError, match="algorithm name must be a str, not 'bytes'"):
        chunkhash.hash(b"sha256", b"")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="algorithm name must be a str, not 'int'"):
        chunkhash.new(3)  # type: ignore[arg-type]


def test_keys_and_contexts() -> None:
    with pytest.raises(ValueError, match="key must be 32 bytes, got 31"):
        chunkhash.blake3(key=bytes(31))
    with pytest.raises(ValueError, match="key must be 32 bytes, got 33"):
        chunkhash.hash("blake3", b"", key=bytes(33))
    with pytest.raises(ValueError, match="key must be 32 bytes, got 0"):
        chunkhash.hash_many([b""], key=b"")
    with pytest.raises(TypeError, match=STR_MESSAGE):
        chunkhash.blake3(key="k" * 32)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="cannot be used together"):
        chunkhash.blake3(key=bytes(32), derive_key_context="c")
    with pytest.raises(ValueError, match="cannot be used together"):
        chunkhash.hash("blake3", b"", key=bytes(32), derive_key_context="c")
    with pytest.raises(TypeError, match="derive_key_context must be a str, not 'bytes'"):
        chunkhash.blake3(derive_key_context=b"c")  # type: ignore[arg-type]
    for call in (
        lambda: chunkhash.hash("sha256", b"", key=bytes(32)),
        lambda: chunkhash.new("xxh64", key=bytes(32)),
        lambda: chunkhash.hash_many([b""], "blake3_160", derive_key_context="c"),
        lambda: chunkhash.hash_array(pa.array([b""]), "crc32c", key=bytes(32)),
    ):
        with pytest.raises(ValueError, match="BLAKE3 options"):
            call()


def test_hash_arguments() -> None:
    with pytest.raises(TypeError, match="takes 2 positional arguments"):
        chunkhash.hash("blake3")  # type: ignore[call-arg]
    with pytest.raises(TypeError, match="takes 2 positional arguments"):
        chunkhash.hash("blake3", b"", b"")  # type: ignore[call-arg]
    with pytest.raises(TypeError, match="unexpected keyword argument 'seed'"):
        chunkhash.hash("xxh3_64", b"", seed=1)  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        chunkhash.sha256(b"", b"")  # type: ignore[call-arg]


def test_extended_output_arguments() -> None:
    hasher = chunkhash.blake3(b"x")
    with pytest.raises(ValueError, match="length must be between 0 and 2\\*\\*64 - 1, got -1"):
        hasher.digest(-1)
    with pytest.raises(ValueError, match="seek must be between 0 and 2\\*\\*64 - 1, got -5"):
        hasher.digest(seek=-5)
    with pytest.raises(ValueError, match="seek must be between"):
        hasher.hexdigest(32, seek=1 << 64)
    with pytest.raises(TypeError, match="length must be an int, not 'float'"):
        hasher.digest(32.0)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="seek must be an int, not 'str'"):
        hasher.digest(seek="0")  # type: ignore[arg-type]
    assert hasher.digest() == chunkhash.hash("blake3", b"x")  # still usable


def test_outputs_past_maxsize_overflow() -> None:
    """As blake3-py: an output longer than one Python object can hold is an
    OverflowError, before anything is allocated."""
    hasher = chunkhash.blake3(b"x")
    with pytest.raises(OverflowError, match="too large: the output would exceed sys.maxsize"):
        hasher.digest(sys.maxsize + 1)
    with pytest.raises(OverflowError, match="too large"):
        hasher.digest(1 << 64)
    with pytest.raises(OverflowError, match="too large"):
        hasher.hexdigest(sys.maxsize // 2 + 1)
    assert len(hasher.hexdigest(100)) == 200


def test_blake3_takes_byte_items_only() -> None:
    """The blake3 class refuses buffers of wider items, as blake3-py does
    (hashlib-style calls hash their bytes: test_api's test_buffer_types)."""
    words = array.array("i", [1, 2, 3])
    with pytest.raises(BufferError, match="blake3 takes buffers of bytes, not of 4-byte items \\('array'\\)"):
        chunkhash.blake3(words)
    with pytest.raises(BufferError, match="not of 8-byte items"):
        chunkhash.blake3().update(np.arange(3, dtype=np.int64))
    assert chunkhash.blake3(memoryview(words).cast("B")).digest() == chunkhash.hash("blake3", words)
    assert chunkhash.blake3(array.array("b", b"ab")).digest() == chunkhash.hash("blake3", b"ab")


def test_max_threads_arguments() -> None:
    for bad in (0, -2, -(1 << 40)):
        with pytest.raises(ValueError, match=f"max_threads must be at least 1, or blake3.AUTO \\(-1\\), got {bad}"):
            chunkhash.blake3(max_threads=bad)
    with pytest.raises(TypeError):
        chunkhash.blake3(max_threads=2.0)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        chunkhash.blake3(max_threads="2")  # type: ignore[arg-type]
    with pytest.raises(OverflowError):
        chunkhash.blake3(max_threads=1 << 64)
    assert chunkhash.blake3.AUTO == -1


def test_intdigest_only_for_integer_checksums() -> None:
    with pytest.raises(TypeError, match="intdigest\\(\\) is for integer checksums .* sha256 digests are bytes"):
        chunkhash.sha256().intdigest()
    assert not hasattr(chunkhash.blake3(), "intdigest")


def test_hash_many_inputs() -> None:
    for single in (b"abc", bytearray(b"abc"), memoryview(b"abc"), "abc"):
        with pytest.raises(TypeError, match="not one '.*' \\(for one message use hash\\(\\)"):
            chunkhash.hash_many(single)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="messages must be an iterable of bytes-like objects, not 'int'"):
        chunkhash.hash_many(5)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"messages\[2\]: a bytes-like object is required, not 'int'"):
        chunkhash.hash_many([b"a", b"b", 3])  # type: ignore[list-item]
    with pytest.raises(TypeError, match=r"messages\[0\]: a bytes-like object is required"):
        chunkhash.hash_many((None,))  # type: ignore[arg-type]

    def failing() -> Any:
        yield b"a"
        raise RuntimeError("generator failed")

    with pytest.raises(RuntimeError, match="generator failed"):
        chunkhash.hash_many(failing())
    assert chunkhash.hash_many([]) == b""


def test_hash_many_out() -> None:
    messages = [b"a", b"bc"]
    with pytest.raises(ValueError, match="out has 63 bytes; 2 messages of blake3 need 64"):
        chunkhash.hash_many(messages, out=bytearray(63))
    with pytest.raises(ValueError, match="out has 65 bytes"):
        chunkhash.hash_many(messages, out=bytearray(65))
    with pytest.raises(TypeError, match="out must be a writable C-contiguous buffer .* got bytes"):
        chunkhash.hash_many(messages, out=bytes(64))
    with pytest.raises(TypeError, match="out must be a writable C-contiguous buffer"):
        chunkhash.hash_many(messages, out=np.zeros(128, dtype=np.uint8)[::2])
    with pytest.raises(TypeError, match="out must be a writable C-contiguous buffer .* got int"):
        chunkhash.hash_many(messages, out=5)  # type: ignore[type-var]
    shared = bytearray(64)
    with pytest.raises(ValueError, match=r"out overlaps messages\[1\]"):
        chunkhash.hash_many([b"x", memoryview(shared)[10:20]], out=shared)
    assert shared == bytearray(64)  # nothing written on failure


def test_hash_array_inputs() -> None:
    with pytest.raises(TypeError, match="Arrow PyCapsule interface .* got 'list'"):
        chunkhash.hash_array([b"a"])  # type: ignore[arg-type]
    for array in (pa.array([1, 2]), pa.array([[b"a"]]), pa.array(["a"]).dictionary_encode()):
        with pytest.raises(TypeError, match="hash_array takes binary, large_binary, string, large_string, binary_view or string_view arrays, got Arrow format"):
            chunkhash.hash_array(array)

    class BadExporter:
        def __arrow_c_array__(self, requested_schema: Any = None) -> Any:
            return "not a pair"

    with pytest.raises(TypeError, match="must return a \\(schema capsule, array capsule\\) pair"):
        chunkhash.hash_array(BadExporter())  # type: ignore[arg-type]

    class WrongCapsules:
        def __arrow_c_array__(self, requested_schema: Any = None) -> Any:
            schema, array = pa.array([b"a"]).__arrow_c_array__()
            return array, schema  # swapped

    with pytest.raises(ValueError, match="expected a PyCapsule named 'arrow_schema'"):
        chunkhash.hash_array(WrongCapsules())  # type: ignore[arg-type]

    class NotCapsules:
        def __arrow_c_array__(self, requested_schema: Any = None) -> Any:
            return 1, 2

    with pytest.raises(TypeError, match="expected a PyCapsule named 'arrow_schema', got 'int'"):
        chunkhash.hash_array(NotCapsules())  # type: ignore[arg-type]

    class ReusedCapsules:
        pair = pa.array([b"a"]).__arrow_c_array__()

        def __arrow_c_array__(self, requested_schema: Any = None) -> Any:
            return self.pair

    reused = ReusedCapsules()
    assert chunkhash.hash_array(reused)[0] == chunkhash.hash("blake3", b"a")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="already consumed"):
        chunkhash.hash_array(reused)  # type: ignore[arg-type]


def test_digest_array_indexing() -> None:
    column = chunkhash.hash_array(pa.array([b"a", None]))
    assert column[-1] is None and column[-2] == column[0]
    with pytest.raises(IndexError):
        column[2]
    with pytest.raises(IndexError):
        column[-3]


def test_update_mmap_errors(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError) as error:
        chunkhash.blake3().update_mmap(tmp_path / "missing")
    assert error.value.filename == str(tmp_path / "missing")
    with pytest.raises(IsADirectoryError):
        chunkhash.sha256().update_mmap(tmp_path)
    with pytest.raises(TypeError):
        chunkhash.blake3().update_mmap(5)  # type: ignore[arg-type]


def test_file_digest_errors() -> None:
    with pytest.raises(ValueError, match="not a file-like object in binary reading mode"):
        chunkhash.file_digest(open(__file__, "r"), "sha256")
    with pytest.raises(ValueError, match="not a file-like object"):
        chunkhash.file_digest(b"bytes", "sha256")
