#!/usr/bin/env python3
"""`chunkhash s3sum` (all ten S3 checksums and the ETag, one read, two
threads) against the separate tools run one after another on the same file:
md5sum, sha1sum, sha256sum, sha512sum, xxhsum -H1 (XXH64), -H3 (XXH3-64),
-H2 (XXH128), and awscrt for CRC32, CRC32C and CRC64NVME (the AWS SDKs' C
checksums, reading the file in 1 MiB pieces in one Python process).

Rounds alternate (s3sum, then the tools), page cache warm after a warm-up
round; reported: median wall time of each side, and the median of the
per-round ratios tools / s3sum (above 1: s3sum is faster). Checks first that
s3sum's values equal the tools' (hex converted to base64).

    python3 crates/bench/scripts/s3sum_vs_tools.py FILE [ROUNDS]

Needs a release build of the CLI, xxhsum, and awscrt in the Python running
the awscrt step (PYTHON, default target/py-venv/bin/python);
`make bench-s3sum` prepares all three.
"""

import base64
import json
import os
import statistics
import subprocess
import sys
import time

ROOT = os.path.join(os.path.dirname(__file__), "../../..")
CHUNKHASH = os.path.join(ROOT, "target/release/chunkhash")
PYTHON = os.environ.get("PYTHON", os.path.join(ROOT, "target/py-venv/bin/python"))
AWSCRT = """
import sys
from awscrt import checksums as c
a = b = d = 0
with open(sys.argv[1], "rb") as f:
    while piece := f.read(1 << 20):
        a = c.crc32(piece, a); b = c.crc32c(piece, b); d = c.crc64nvme(piece, d)
print(a.to_bytes(4, "big").hex(), b.to_bytes(4, "big").hex(), d.to_bytes(8, "big").hex())
"""


def tools(path):
    return [
        ("MD5", ["md5sum", path]),
        ("SHA1", ["sha1sum", path]),
        ("SHA256", ["sha256sum", path]),
        ("SHA512", ["sha512sum", path]),
        ("XXHASH64", ["xxhsum", "-H1", path]),
        ("XXHASH3", ["xxhsum", "-H3", path]),
        ("XXHASH128", ["xxhsum", "-H2", path]),
        ("CRC32 CRC32C CRC64NVME", [PYTHON, "-c", AWSCRT, path]),
    ]


def wall(command):
    start = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def check(path):
    ours = json.loads(subprocess.run([CHUNKHASH, "s3sum", "--json", path], check=True, capture_output=True,
                                     text=True).stdout)["checksums"]
    for kinds, command in tools(path):
        words = subprocess.run(command, check=True, capture_output=True, text=True).stdout.split()
        # "HEX  FILE", "XXH3 (FILE) = HEX" (xxhsum -H3 0.8.1) or three hex words (awscrt).
        hexes = words[:3] if len(kinds.split()) == 3 else [words[-1] if "=" in words else words[0]]
        for kind, hex_value in zip(kinds.split(), hexes):
            expected = base64.b64encode(bytes.fromhex(hex_value.removeprefix("XXH3_"))).decode()
            assert ours["Checksum" + kind] == expected, (kind, ours["Checksum" + kind], expected)


def main():
    path = sys.argv[1]
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 7
    check(path)
    ours, theirs, ratios = [], [], []
    for round_number in range(rounds + 1):
        a = wall([CHUNKHASH, "s3sum", path])
        b = sum(wall(command) for _, command in tools(path))
        if round_number == 0:
            continue  # warm-up
        ours.append(a)
        theirs.append(b)
        ratios.append(b / a)
    size = os.path.getsize(path) / 1e6
    print(f"{path}: {size:.0f} MB, {rounds} rounds, load average {os.getloadavg()[0]:.1f}")
    print(f"s3sum (ten values + ETag): median {statistics.median(ours):.3f} s ({size / statistics.median(ours):.0f} MB/s)")
    print(f"the tools one after another: median {statistics.median(theirs):.3f} s ({size / statistics.median(theirs):.0f} MB/s)")
    print(f"tools / s3sum: median {statistics.median(ratios):.2f}x (range {min(ratios):.2f}-{max(ratios):.2f})")


if __name__ == "__main__":
    main()
