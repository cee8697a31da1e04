"""The type stubs: mypy's stubtest compares chunkhash/__init__.pyi with the
built module, and mypy --strict checks a program using every call."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def run(cwd: Path, *args: str) -> None:
    result = subprocess.run([sys.executable, "-m", *args], capture_output=True, text=True, cwd=cwd)
    assert result.returncode == 0, result.stdout + result.stderr


# mypy's cache goes to the test's temporary folder, not the source tree.
def test_stubs_match_the_module(tmp_path: Path) -> None:
    run(tmp_path, "mypy.stubtest", "chunkhash")


def test_typed_usage_checks_strictly(tmp_path: Path) -> None:
    run(HERE, "mypy", "--strict", "--cache-dir", str(tmp_path), "typed_usage.py")


def test_package_is_marked_typed() -> None:
    import chunkhash

    assert (Path(chunkhash.__file__).parent / "py.typed").exists()
    assert (Path(chunkhash.__file__).parent / "__init__.pyi").exists()
