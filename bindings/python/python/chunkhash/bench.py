"""Benchmarks of the Python package against its peers, in one process.

    python -m chunkhash.bench [--rounds N] [--quick] [SECTION ...]

Sections: ``targets`` (the package's speed targets, each a pair timed
alternately in short samples), ``oneshot`` (per call at 64 B, 1 KiB, 4 KiB, 1 MiB against
blake3-py, python-xxhash, crc32c and hashlib), ``batch`` (``hash_many``
against a Python loop over blake3-py and against the Rust batch call it
wraps), ``arrow`` (``hash_array`` over a 1M-row binary column) and ``gil``
(what releasing the GIL costs, for the threshold), ``bao`` (Bao outboards
against the Rust call, per byte). Default: targets, oneshot, batch, arrow.

Every case of a section runs once per round, in turn, so a busy machine
slows all of them alike; each figure is the median over rounds of the time
per call, and each ratio the median of the per-round ratios. Peers that are
not installed are skipped. Inputs are random bytes from a fixed seed.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib
import importlib.metadata
import os
import platform
import random
import statistics
import sys
import threading
import time
from typing import Any, Callable, Dict, List, Optional, Tuple

import chunkhash

# The benchmark-only helpers of the native module (no stubs: not public API).
_native: Any = importlib.import_module("chunkhash._chunkhash")

Case = Tuple[str, Callable[[], Any], int]

SEED = 20261122


def _optional(name: str) -> Any:
    try:
        return __import__(name)
    except ImportError:
        return None


def _version(name: str) -> str:
    try:
        return importlib.metadata.version(name)
    except importlib.metadata.PackageNotFoundError:
        return "absent"


def _random_bytes(rng: random.Random, size: int) -> bytes:
    return rng.randbytes(size)


def _calibrate(function: Callable[[], Any], target_seconds: float) -> int:
    """Calls per sample so that one sample takes about `target_seconds`."""
    number = 1
    while True:
        start = time.perf_counter()
        for _ in range(number):
            function()
        elapsed = time.perf_counter() - start
        if elapsed >= target_seconds / 4 or number >= 1 << 24:
            return max(1, int(number * target_seconds / max(elapsed, 1e-9)))
        number *= 4


def _sample(function: Callable[[], Any], number: int) -> float:
    """Seconds per call over `number` calls."""
    start = time.perf_counter()
    for _ in range(number):
        function()
    return (time.perf_counter() - start) / number


def run_cases(cases: List[Case], rounds: int, target_seconds: float) -> Dict[str, List[float]]:
    """Per-call seconds of every case in every round, the cases interleaved.
    A case's third field is how many calls its function makes per call
    (for per-message figures)."""
    numbers = {name: _calibrate(function, target_seconds) for name, function, _ in cases}
    samples: Dict[str, List[float]] = {name: [] for name, _, _ in cases}
    for _ in range(rounds):
        for name, function, per_call in cases:
            samples[name].append(_sample(function, numbers[name]) / per_call)
    return samples


def _ratio(samples: Dict[str, List[float]], slower: str, faster: str) -> float:
    """Median over rounds of slower/faster: above 1, `faster` is faster."""
    return statistics.median(a / b for a, b in zip(samples[slower], samples[faster]))


def _ns(seconds: float) -> str:
    return f"{seconds * 1e9:12.1f}"


def _print_table(title: str, samples: Dict[str, List[float]], ratios: List[Tuple[str, str, str]]) -> None:
    print(f"\n{title}")
    print(f"{'case':46} {'median ns':>12} {'min ns':>12}")
    for name, values in samples.items():
        print(f"{name:46} {_ns(statistics.median(values))} {_ns(min(values))}")
    for label, slower, faster in ratios:
        if slower in samples and faster in samples:
            print(f"  {label}: {_ratio(samples, slower, faster):.2f}x")


SIZES = [("64 B", 64), ("1 KiB", 1024), ("4 KiB", 4096), ("1 MiB", 1 << 20)]


def bench_oneshot(rounds: int, target_seconds: float) -> None:
    """Per-call cost of one message, at each size, against every peer."""
    rng = random.Random(SEED)
    blake3_py = _optional("blake3")
    xxhash = _optional("xxhash")
    crc32c = _optional("crc32c")
    for label, size in SIZES:
        data = _random_bytes(rng, size)
        h = chunkhash.hash
        cases: List[Case] = [
            ("chunkhash.hash('blake3', d)", lambda: h("blake3", data), 1),
            ("chunkhash.blake3(d).digest()", lambda: chunkhash.blake3(data).digest(), 1),
            ("chunkhash.hash('xxh3_64', d)", lambda: h("xxh3_64", data), 1),
            ("chunkhash.hash('crc32c', d)", lambda: h("crc32c", data), 1),
            ("chunkhash.hash('sha256', d)", lambda: h("sha256", data), 1),
            ("hashlib.sha256(d).digest()", lambda: hashlib.sha256(data).digest(), 1),
        ]
        ratios = [
            ("blake3-py / chunkhash.hash('blake3')", "blake3.blake3(d).digest()", "chunkhash.hash('blake3', d)"),
            ("blake3-py / chunkhash.blake3(d).digest()", "blake3.blake3(d).digest()", "chunkhash.blake3(d).digest()"),
            ("xxhash.xxh3_64_digest / chunkhash.hash('xxh3_64')", "xxhash.xxh3_64_digest(d)", "chunkhash.hash('xxh3_64', d)"),
            ("crc32c.crc32c / chunkhash.hash('crc32c')", "crc32c.crc32c(d)", "chunkhash.hash('crc32c', d)"),
            ("hashlib.sha256 / chunkhash.hash('sha256')", "hashlib.sha256(d).digest()", "chunkhash.hash('sha256', d)"),
        ]
        if blake3_py is not None:
            b3 = blake3_py.blake3
            cases.append(("blake3.blake3(d).digest()", lambda: b3(data).digest(), 1))
        if xxhash is not None:
            xd = xxhash.xxh3_64_digest
            cases.append(("xxhash.xxh3_64_digest(d)", lambda: xd(data), 1))
        if crc32c is not None:
            cc = crc32c.crc32c
            cases.append(("crc32c.crc32c(d)", lambda: cc(data), 1))
        _print_table(f"one message of {label}, time per call", run_cases(cases, rounds, target_seconds), ratios)


def bench_batch(rounds: int, target_seconds: float) -> None:
    """hash_many against a Python loop over blake3-py and the Rust batch call."""
    rng = random.Random(SEED)
    blake3_py = _optional("blake3")
    rust = _native._rust_hash_many_ns
    for count, size in ((1024, 64), (256, 4096)):
        messages = [_random_bytes(rng, size) for _ in range(count)]
        out = bytearray(32 * count)
        hash_many = chunkhash.hash_many
        # The Rust side runs the same number of batch calls as one Python
        # sample, timed in Rust; the function returns ns per batch call.
        rust_repeat = max(1, _calibrate(lambda: hash_many(messages), target_seconds))
        cases: List[Case] = [
            ("chunkhash.hash_many(msgs)", lambda: hash_many(messages), count),
            ("chunkhash.hash_many(msgs, out=buf)", lambda: hash_many(messages, out=out), count),
            ("[chunkhash.hash('blake3', m) for m in msgs]", lambda: [chunkhash.hash("blake3", m) for m in messages], count),
        ]
        if blake3_py is not None:
            b3 = blake3_py.blake3
            cases.append(("[blake3.blake3(m).digest() for m in msgs]", lambda: [b3(m).digest() for m in messages], count))
        numbers = {name: _calibrate(function, target_seconds) for name, function, _ in cases}
        samples: Dict[str, List[float]] = {name: [] for name, _, _ in cases}
        samples["Rust Batch::hash_many_bytes (in process)"] = []
        for _ in range(rounds):
            for name, function, per_call in cases:
                samples[name].append(_sample(function, numbers[name]) / per_call)
            samples["Rust Batch::hash_many_bytes (in process)"].append(rust(messages, rust_repeat) / 1e9 / count)
        _print_table(
            f"hash_many, {count} x {size} B, time per message",
            samples,
            [
                ("blake3-py loop / hash_many", "[blake3.blake3(m).digest() for m in msgs]", "chunkhash.hash_many(msgs)"),
                ("hash_many / Rust batch (target <= 1.5)", "chunkhash.hash_many(msgs)", "Rust Batch::hash_many_bytes (in process)"),
                ("hash_many(out=) / Rust batch", "chunkhash.hash_many(msgs, out=buf)", "Rust Batch::hash_many_bytes (in process)"),
            ],
        )


def bench_arrow(rounds: int, target_seconds: float) -> None:
    """hash_array over a 1M-row binary column (64-byte values, 1% null)."""
    pyarrow = _optional("pyarrow")
    if pyarrow is None:
        print("\narrow: pyarrow is not installed, skipped")
        return
    rng = random.Random(SEED)
    rows = 1_000_000
    data = _random_bytes(rng, 64 * rows)
    values: List[Optional[bytes]] = [data[64 * i : 64 * i + 64] for i in range(rows)]
    for i in range(0, rows, 100):
        values[i] = None
    column = pyarrow.array(values, pyarrow.binary())
    present = [v for v in values if v is not None]
    cases: List[Case] = [
        ("hash_array(column)  [blake3]", lambda: chunkhash.hash_array(column), rows),
        ("hash_array(column, 'xxh3_64')", lambda: chunkhash.hash_array(column, "xxh3_64"), rows),
        ("hash_many(non-null values as bytes)", lambda: chunkhash.hash_many(present), len(present)),
    ]
    blake3_py = _optional("blake3")
    if blake3_py is not None:
        b3 = blake3_py.blake3
        cases.append(("[blake3.blake3(v).digest() for v in values]", lambda: [b3(v).digest() for v in present], len(present)))
    samples = run_cases(cases, max(3, rounds // 3), target_seconds)
    _print_table(
        f"hash_array, {rows} rows x 64 B binary, 1% null, time per row",
        samples,
        [("blake3-py loop / hash_array", "[blake3.blake3(v).digest() for v in values]", "hash_array(column)  [blake3]")],
    )
    print(f"  hash_array(column): {statistics.median(samples['hash_array(column)  [blake3]']) * rows * 1e3:.1f} ms per 1M-row column")


def bench_gil(rounds: int, target_seconds: float) -> None:
    """What releasing the GIL costs a call: `chunkhash.hash` with the
    threshold forced to 0 (always release) against forced off, alone and with
    a second Python thread running; and the hash time at each size."""
    set_threshold = _native._set_gil_threshold
    rng = random.Random(SEED)
    stop = threading.Event()

    def spin() -> None:
        while not stop.is_set():
            sum(range(100))

    for contended in (False, True):
        worker = threading.Thread(target=spin, daemon=True) if contended else None
        if worker is not None:
            worker.start()
        try:
            for name in ("blake3", "xxh3_64", "sha256"):
                for size in (256, 1024, 2048, 4096, 16384, 65536):
                    data = _random_bytes(rng, size)

                    def keep() -> Any:
                        return chunkhash.hash(name, data)

                    results: Dict[str, List[float]] = {"keep": [], "release": []}
                    number = _calibrate(keep, target_seconds / 4)
                    for _ in range(rounds):
                        set_threshold(1 << 62)
                        results["keep"].append(_sample(keep, number))
                        set_threshold(1)
                        results["release"].append(_sample(keep, number))
                    set_threshold(0)
                    keep_ns = statistics.median(results["keep"]) * 1e9
                    release_ns = statistics.median(results["release"]) * 1e9
                    print(
                        f"{'contended' if contended else 'alone':9} {name:8} {size:6} B: keep {keep_ns:9.1f} ns, "
                        f"release {release_ns:9.1f} ns, cost {release_ns - keep_ns:7.1f} ns"
                    )
        finally:
            stop.set()
            if worker is not None:
                worker.join()
            stop.clear()
            set_threshold(0)


def bench_targets(rounds: int, target_seconds: float) -> None:
    """The issue's targets, each as a pair timed alternately in short
    samples (a tenth of the usual) over ten times the rounds, so a noisy
    machine disturbs both sides of a pair alike. Reports each side's median
    and best round, and the median of the per-round ratios."""
    rng = random.Random(SEED)
    blake3_py = _optional("blake3")
    xxhash = _optional("xxhash")
    data = _random_bytes(rng, 64)
    messages = [_random_bytes(rng, 64) for _ in range(1024)]
    h = chunkhash.hash
    hash_many = chunkhash.hash_many
    rust = _native._rust_hash_many_ns
    sample = target_seconds / 10
    many_rounds = rounds * 10
    pairs: List[Tuple[str, Case, Optional[Case]]] = [
        ("hash('blake3', 64 B), target <= 150 ns", ("chunkhash.hash('blake3', d)", lambda: h("blake3", data), 1), None),
    ]
    if blake3_py is not None:
        b3 = blake3_py.blake3
        pairs.append((
            "blake3(d).digest(), 64 B, against blake3-py",
            ("chunkhash.blake3(d).digest()", lambda: chunkhash.blake3(data).digest(), 1),
            ("blake3.blake3(d).digest()", lambda: b3(data).digest(), 1),
        ))
        pairs.append((
            "hash_many 1024 x 64 B against a blake3-py loop, per message, target >= 10x",
            ("chunkhash.hash_many(msgs)", lambda: hash_many(messages), 1024),
            ("[blake3.blake3(m).digest() for m in msgs]", lambda: [b3(m).digest() for m in messages], 1024),
        ))
    if xxhash is not None:
        xd = xxhash.xxh3_64_digest
        pairs.append((
            "hash('xxh3_64', 64 B) against xxhash.xxh3_64_digest, target >= 1.00",
            ("chunkhash.hash('xxh3_64', d)", lambda: h("xxh3_64", data), 1),
            ("xxhash.xxh3_64_digest(d)", lambda: xd(data), 1),
        ))
    for title, ours, peer in pairs:
        cases = [ours] + ([peer] if peer is not None else [])
        samples = run_cases(cases, many_rounds, sample)
        ratios = [(f"{peer[0]} / {ours[0]}", peer[0], ours[0])] if peer is not None else []
        _print_table(title, samples, ratios)
    # hash_many against the Rust call it wraps: the Rust side times as many
    # calls as one Python sample makes.
    number = _calibrate(lambda: hash_many(messages), sample)
    samples = {"chunkhash.hash_many(msgs)": [], "Rust Batch::hash_many_bytes (in process)": []}
    for _ in range(many_rounds):
        samples["chunkhash.hash_many(msgs)"].append(_sample(lambda: hash_many(messages), number) / 1024)
        samples["Rust Batch::hash_many_bytes (in process)"].append(rust(messages, number) / 1e9 / 1024)
    _print_table(
        "hash_many 1024 x 64 B against the Rust batch call, per message, target <= 1.5",
        samples,
        [("hash_many / Rust", "chunkhash.hash_many(msgs)", "Rust Batch::hash_many_bytes (in process)")],
    )


def bench_bao(rounds: int, target_seconds: float) -> None:
    """``chunkhash.bao.outboard`` against the Rust call it wraps
    (``Tree::outboard``, timed in this process), per MiB of input, at 1 MiB
    and 64 MiB, groups of 1 KiB (``bao``'s) and 16 KiB; rounds alternate the
    two sides. Target: within 10%."""
    from chunkhash import bao

    rng = random.Random(SEED)
    rust = _native._rust_bao_outboard_ns
    for label, size in [("1 MiB", 1 << 20), ("64 MiB", 64 << 20)]:
        data = _random_bytes(rng, size)
        for group_log in (0, 4):
            python_name = f"bao.outboard(d, group_log={group_log})"
            rust_name = "Rust Tree::outboard (in process)"
            number = _calibrate(lambda: bao.outboard(data, group_log=group_log), target_seconds)
            samples: Dict[str, List[float]] = {python_name: [], rust_name: []}
            for _ in range(rounds):
                mib = size / (1 << 20)
                samples[python_name].append(_sample(lambda: bao.outboard(data, group_log=group_log), number) / mib)
                samples[rust_name].append(rust(data, group_log, number) / 1e9 / mib)
            _print_table(
                f"Bao outboard of {label}, {1 << group_log} KiB groups, time per MiB, target <= 1.10",
                samples,
                [("Python / Rust", python_name, rust_name)],
            )


SECTIONS = {"targets": bench_targets, "bao": bench_bao, "oneshot": bench_oneshot, "batch": bench_batch, "arrow": bench_arrow, "gil": bench_gil}


def main(argv: Optional[List[str]] = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m chunkhash.bench", description=__doc__.split("\n")[0])
    parser.add_argument("sections", nargs="*", help=f"sections to run, of {', '.join(SECTIONS)} (default: targets oneshot batch arrow)")
    parser.add_argument("--rounds", type=int, default=15, help="rounds per section (default 15)")
    parser.add_argument("--quick", action="store_true", help="short samples (a smoke run, not for figures)")
    args = parser.parse_args(argv)
    target_seconds = 0.002 if args.quick else 0.02
    sections = args.sections or ["targets", "oneshot", "batch", "arrow"]
    unknown = [section for section in sections if section not in SECTIONS]
    if unknown:
        parser.error(f"unknown section {unknown[0]!r}; choose from {', '.join(SECTIONS)}")
    print(
        f"chunkhash {chunkhash.__version__}, BLAKE3 backend {chunkhash.blake3_backend()}, "
        f"Python {platform.python_version()} ({sys.implementation.name}), {platform.machine()}, "
        f"{os.cpu_count()} CPUs, {args.rounds} rounds, medians"
    )
    peers = {name: _version(name) for name in ("blake3", "xxhash", "crc32c", "pyarrow")}
    print("peers: " + ", ".join(f"{name} {version}" for name, version in peers.items()))
    for section in sections:
        SECTIONS[section](args.rounds, target_seconds)


if __name__ == "__main__":
    main()
