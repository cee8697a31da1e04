#!/usr/bin/env python3
"""`chunkhash sum -a xxh3|xxh128` against `xxhsum -H3|-H2` on one file.

Runs the commands alternately (A B A B ...), so load from other work on the
machine falls on both alike, after two warm-up runs each (page cache warm),
and reports per command the median wall time and the median CPU time
(user + system, from wait4: less sensitive to the machine's load than wall
time), and the median of the per-round ratios xxhsum / chunkhash (above 1:
chunkhash is faster). Checks first that both print the same digest.

    python3 crates/bench/scripts/xxh3_cli_vs_xxhsum.py FILE [ROUNDS]

Needs Debian's `xxhash` package (xxhsum) and a release build of the CLI
(`cargo build --release -p chunkhash-cli`); `make bench-xxh3` does both.
"""

import os
import statistics
import subprocess
import sys
import time

CHUNKHASH = os.path.join(os.path.dirname(__file__), "../../../target/release/chunkhash")


def run(command):
    """Wall, user and system seconds of one run, its output discarded."""
    start = time.perf_counter()
    # No terminal on stderr: neither tool draws a progress indicator.
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - start
    if status != 0:
        sys.exit(f"{command}: exit status {status}")
    return wall, usage.ru_utime, usage.ru_stime


def digest(command):
    out = subprocess.run(command, check=True, capture_output=True, text=True).stdout
    # "XXH3 (FILE) = HEX" (xxhsum -H3), "HEX  FILE", or "XXH3_HEX  FILE".
    words = out.replace("XXH3_", "").split()
    return words[-1] if "=" in words else words[0]


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    path = sys.argv[1]
    rounds = int(sys.argv[2]) if len(sys.argv) == 3 else 21
    print(f"file {path} ({os.path.getsize(path)} bytes), {rounds} alternating rounds; load {os.getloadavg()}")
    for algorithm, flag in (("xxh3", "-H3"), ("xxh128", "-H2")):
        ours = [CHUNKHASH, "sum", "-a", algorithm, path]
        theirs = ["xxhsum", flag, path]
        if digest(ours) != digest(theirs):
            sys.exit(f"{algorithm}: chunkhash and xxhsum disagree")
        for _ in range(2):
            run(ours)
            run(theirs)
        times = {"chunkhash": [], "xxhsum": []}
        for _ in range(rounds):
            times["chunkhash"].append(run(ours))
            times["xxhsum"].append(run(theirs))
        print(f"\n{' '.join(ours[1:4])} vs xxhsum {flag}")
        for name, samples in times.items():
            wall, user, system = (statistics.median(s[i] for s in samples) * 1e3 for i in range(3))
            cpu = statistics.median(s[1] + s[2] for s in samples) * 1e3
            print(f"  {name:10} median wall {wall:6.1f} ms, CPU {cpu:6.1f} ms (user {user:5.1f}, system {system:6.1f})")
        for label, measure in (("wall", lambda s: s[0]), ("CPU", lambda s: s[1] + s[2])):
            ratios = [measure(b) / measure(a) for a, b in zip(times["chunkhash"], times["xxhsum"])]
            print(f"  xxhsum / chunkhash, median of per-round {label} ratios: {statistics.median(ratios):.3f}")
    print(f"\nload after: {os.getloadavg()}")


if __name__ == "__main__":
    main()
