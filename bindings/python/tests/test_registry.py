"""The Python package's algorithm lists against the registry table
(crates/chunkhash/src/registry.rs), which the extension reports row by row
(`_registry()`): the names and constructors of src/names.rs, the imports of
chunkhash/__init__.py, the stubs of chunkhash/__init__.pyi and
`algorithms_available`. A registry row added without its Python line fails
here; `test_the_check_finds_*` show that the check can fail."""

from __future__ import annotations

import re
from pathlib import Path
from types import ModuleType
from typing import Any, List, Sequence, Tuple

import pytest

import chunkhash
from chunkhash import _chunkhash

Row = Tuple[int, str, int, bool, Any]
PACKAGE = Path(chunkhash.__file__).parent


def problems(rows: Sequence[Row], module: ModuleType, init: str, stubs: str) -> List[str]:
    """Every way the Python lists differ from the registry rows."""
    found = []
    if [row[0] for row in rows] != list(range(1, len(rows) + 1)):
        found.append(f"registry ids are not 1 to {len(rows)} in order")
    names = set()
    for algorithm_id, name, digest_len, cryptographic, python_name in rows:
        if python_name is None:
            found.append(f"{name} (id {algorithm_id}) has no Python name: add its line to python_names! in src/names.rs")
            continue
        names.add(python_name)
        constructor = getattr(module, python_name, None)
        if constructor is None:
            found.append(f"chunkhash has no constructor {python_name} for {name}")
        else:
            hasher = constructor()
            if (hasher.name, hasher.digest_size) != (python_name, digest_len):
                found.append(f"{python_name}(): name {hasher.name!r}, digest_size {hasher.digest_size}, "
                             f"where the registry has {digest_len} bytes")
            if not cryptographic and hasher.intdigest() != int.from_bytes(hasher.digest(), "big"):
                found.append(f"{python_name}(): intdigest() is not the digest's integer")
        if not re.search(rf"^    {python_name},$", init, re.MULTILINE):
            found.append(f"chunkhash/__init__.py does not import {python_name}")
        if not re.search(rf"^(def {python_name}\(|class {python_name}:)", stubs, re.MULTILINE):
            found.append(f"chunkhash/__init__.pyi has no stub for {python_name}")
    if set(module.algorithms_available) != names:
        found.append(f"algorithms_available is {sorted(module.algorithms_available)}, the registry gives {sorted(names)}")
    return found


def current() -> Tuple[List[Row], str, str]:
    return (list(_chunkhash._registry()), (PACKAGE / "__init__.py").read_text(),
            (PACKAGE / "__init__.pyi").read_text())


def test_python_lists_follow_the_registry() -> None:
    rows, init, stubs = current()
    assert len(rows) >= 16
    assert problems(rows, chunkhash, init, stubs) == []


def test_the_check_finds_a_row_without_a_python_name() -> None:
    rows, init, stubs = current()
    rows.append((len(rows) + 1, "CRC-16/TEST", 2, False, None))
    assert problems(rows, chunkhash, init, stubs) == [
        "CRC-16/TEST (id 17) has no Python name: add its line to python_names! in src/names.rs"]


def test_the_check_finds_a_name_without_constructor_import_or_stub() -> None:
    rows, init, stubs = current()
    rows.append((len(rows) + 1, "CRC-16/TEST", 2, False, "crc16_test"))
    found = problems(rows, chunkhash, init, stubs)
    assert len(found) == 4, found
    assert "no constructor crc16_test" in found[0]
    assert "does not import crc16_test" in found[1]
    assert "no stub for crc16_test" in found[2]
    assert "algorithms_available" in found[3]


@pytest.mark.parametrize("missing", ["sha1", "blake3"])
def test_the_check_finds_a_line_missing_from_the_files(missing: str) -> None:
    rows, init, stubs = current()
    init = init.replace(f"    {missing},\n", "")
    stubs = re.sub(rf"^(def {missing}\(|class {missing}:)", "#", stubs, flags=re.MULTILINE)
    assert problems(rows, chunkhash, init, stubs) == [
        f"chunkhash/__init__.py does not import {missing}", f"chunkhash/__init__.pyi has no stub for {missing}"]


def test_the_check_finds_a_wrong_digest_length() -> None:
    rows, init, stubs = current()
    rows = [(i, name, length + (name == "SHA-1"), crypto, py) for i, name, length, crypto, py in rows]
    assert problems(rows, chunkhash, init, stubs) == [
        "sha1(): name 'sha1', digest_size 20, where the registry has 21 bytes"]
