"""Shared helpers of the Python package's tests: the repository's vector
files, pattern inputs, and the fixed random seed every random test uses."""

from __future__ import annotations

import json
import os
import random
from pathlib import Path
from typing import Any, Dict

import pytest

# The vectors/ folder at the root of the repository: the same files every
# binding tests against (see vectors/README.md for their provenance).
VECTORS = Path(__file__).resolve().parents[3] / "vectors"

# Fixed unless CHUNKHASH_TEST_SEED is set; printed in pytest's header so a
# failure can be replayed.
SEED = int(os.environ.get("CHUNKHASH_TEST_SEED", "20261122"))


def pytest_report_header(config: Any) -> str:
    import chunkhash

    return f"chunkhash {chunkhash.__version__}, BLAKE3 backend {chunkhash.blake3_backend()}, random seed {SEED} (CHUNKHASH_TEST_SEED)"


def pattern(length: int) -> bytes:
    """The vectors' input: byte i is i % 251."""
    return bytes(i % 251 for i in range(length))


_loaded: Dict[str, Any] = {}


def load(name: str) -> Any:
    if name not in _loaded:
        _loaded[name] = json.loads((VECTORS / name).read_text())
    return _loaded[name]


@pytest.fixture
def rng(request: Any) -> random.Random:
    """A generator seeded from SEED and the test's name, so each test's
    inputs stay the same whatever else runs."""
    return random.Random(f"{SEED}:{request.node.nodeid}")
