#!/usr/bin/env python3
"""Builds vectors/golden.json from independent reference implementations, or
checks the committed file against them.

    python3 vectors/tools/check_golden.py           # check (exit 1 on any difference)
    python3 vectors/tools/check_golden.py --write   # regenerate the file

No chunkhash code is involved: every value comes from

- hashlib (CPython's OpenSSL): SHA-256, SHA-512, BLAKE2b-512, BLAKE2b-256, MD5, SHA-1
  (BLAKE2b with digest_size=32, as `b2sum -l 256`);
- the `xxhash` package (the official xxHash C library): XXH3-64, XXH3-128,
  XXH64, XXH32, all with seed 0; hexdigest() is the big-endian canonical form;
- the `crc32c` package (ICRAR's C implementation): CRC-32C, printed big-endian;
- zlib (CPython's `zlib.crc32`): CRC-32 (ISO-HDLC), printed big-endian, and
  `awscrt` (AWS's aws-checksums C library, what the S3 SDKs run):
  CRC-64/NVME, printed big-endian, and CRC-32 a second time;
- the `blake3` package (bindings to the official `blake3` Rust crate): BLAKE3
  default, keyed and derive-key modes;

and the two truncations (BLAKE3-160, SHA-512/160) are the first 20 bytes of
those. The trailer vectors re-implement the layout documented in
crates/chunkhash/src/trailer.rs from that text alone. The algorithm table
(ids, names, lengths) is the on-disk contract, written here a second time so
that the Rust test compares two independent copies.

Packages: vectors/tools/requirements.txt (`make check-golden` installs them).
"""

import hashlib
import json
import sys
import zlib
from pathlib import Path

import blake3
import crc32c
import xxhash
from awscrt import checksums as aws_checksums

GOLDEN = Path(__file__).resolve().parent.parent / "golden.json"

LENGTHS = [0, 1, 3, 64, 1000, 1024, 4096, 16384, 100000]
KEY = b"whats the Elvish word for friend"
CONTEXT_STRING = "BLAKE3 2019-12-27 16:29:52 test vectors context"

# id, canonical name, digest length in bytes: the on-disk contract.
ALGORITHMS = [
    (1, "BLAKE3", 32),
    (2, "BLAKE3-160", 20),
    (3, "XXH3-64", 8),
    (4, "XXH3-128", 16),
    (5, "XXH64", 8),
    (6, "XXH32", 4),
    (7, "CRC32C", 4),
    (8, "BLAKE2b-512", 64),
    (9, "BLAKE2b-256", 32),
    (10, "SHA-256", 32),
    (11, "SHA-512", 64),
    (12, "SHA-512/160", 20),
    (13, "CRC-32", 4),
    (14, "CRC-64/NVME", 8),
    (15, "MD5", 16),
    (16, "SHA-1", 20),
]

REFERENCES = {
    "BLAKE3": lambda data: blake3.blake3(data).digest(),
    "BLAKE3-160": lambda data: blake3.blake3(data).digest()[:20],
    "XXH3-64": lambda data: xxhash.xxh3_64(data, seed=0).digest(),
    "XXH3-128": lambda data: xxhash.xxh3_128(data, seed=0).digest(),
    "XXH64": lambda data: xxhash.xxh64(data, seed=0).digest(),
    "XXH32": lambda data: xxhash.xxh32(data, seed=0).digest(),
    "CRC32C": lambda data: crc32c.crc32c(data).to_bytes(4, "big"),
    "BLAKE2b-512": lambda data: hashlib.blake2b(data).digest(),
    "BLAKE2b-256": lambda data: hashlib.blake2b(data, digest_size=32).digest(),
    "SHA-256": lambda data: hashlib.sha256(data).digest(),
    "SHA-512": lambda data: hashlib.sha512(data).digest(),
    "SHA-512/160": lambda data: hashlib.sha512(data).digest()[:20],
    "CRC-32": lambda data: zlib.crc32(data).to_bytes(4, "big"),
    "CRC-64/NVME": lambda data: aws_checksums.crc64nvme(data).to_bytes(8, "big"),
    "MD5": lambda data: hashlib.md5(data).digest(),
    "SHA-1": lambda data: hashlib.sha1(data).digest(),
}

# Trailer cases: every algorithm at these block lengths and contexts. Contexts
# are u64; the file stores them as decimal strings so that JavaScript's
# JSON.parse (doubles) does not round the large ones.
TRAILER_LENGTHS = [0, 1000, 4096]
TRAILER_CONTEXTS = [0, 4096, 0x0123456789ABCDEF, 2**64 - 1]

MASK64 = 2**64 - 1
GAMMA = 0x9E3779B97F4A7C15


def pattern(length):
    """The input of every case: byte i is i % 251."""
    return bytes(i % 251 for i in range(length))


def splitmix_mask(context, algorithm_id, length):
    """mask(context, id) of the trailer layout: SplitMix64 words, little-endian."""
    state = (context ^ (algorithm_id * GAMMA)) & MASK64
    out = b""
    while len(out) < length:
        state = (state + GAMMA) & MASK64
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        z ^= z >> 31
        out += z.to_bytes(8, "little")
    return out[:length]


def trailer(name, algorithm_id, block, context):
    checksum = REFERENCES[name](block)
    mask = splitmix_mask(context, algorithm_id, len(checksum))
    return bytes([algorithm_id]) + bytes(c ^ m for c, m in zip(checksum, mask))


def build():
    for _, name, length in ALGORITHMS:
        assert len(REFERENCES[name](b"abc")) == length, name
    # Published check values, so a broken reference package cannot slip through.
    assert crc32c.crc32c(b"123456789") == 0xE3069283
    assert zlib.crc32(b"123456789") == 0xCBF43926
    assert aws_checksums.crc64nvme(b"123456789") == 0xAE8B14860A799888
    assert hashlib.sha256(b"abc").hexdigest().startswith("ba7816bf8f01cfea")
    assert hashlib.md5(b"abc").hexdigest() == "900150983cd24fb0d6963f7d28e17f72"
    assert hashlib.sha1(b"abc").hexdigest() == "a9993e364706816aba3e25717850c26c9cd0d89d"
    assert xxhash.xxh64(b"", seed=0).intdigest() == 0xEF46DB3751D8E999

    inputs = {length: pattern(length) for length in LENGTHS}
    # CRC-32 from two independent libraries must agree before it is written.
    for data in inputs.values():
        assert zlib.crc32(data) == aws_checksums.crc32(data)
    digests = []
    for _, name, _ in ALGORITHMS:
        for length in LENGTHS:
            digests.append(
                {"algorithm": name, "mode": "hash", "input_len": length, "hex": REFERENCES[name](inputs[length]).hex()}
            )
    for length in LENGTHS:
        keyed = blake3.blake3(inputs[length], key=KEY).digest()
        digests.append({"algorithm": "BLAKE3", "mode": "keyed_hash", "input_len": length, "hex": keyed.hex()})
    for length in LENGTHS:
        derived = blake3.blake3(inputs[length], derive_key_context=CONTEXT_STRING).digest()
        digests.append({"algorithm": "BLAKE3", "mode": "derive_key", "input_len": length, "hex": derived.hex()})

    trailers = []
    for algorithm_id, name, _ in ALGORITHMS:
        for length in TRAILER_LENGTHS:
            for context in TRAILER_CONTEXTS:
                sealed = trailer(name, algorithm_id, pattern(length), context)
                trailers.append({"algorithm": name, "input_len": length, "context": str(context), "hex": sealed.hex()})

    return {
        "_comment": "chunkhash golden vectors; format, provenance and how they were cross-checked: vectors/README.md",
        "input": "byte i of an input of input_len bytes is i % 251",
        "key": KEY.decode("ascii"),
        "context_string": CONTEXT_STRING,
        "algorithms": [{"id": i, "name": n, "digest_len": l} for i, n, l in ALGORITHMS],
        "digests": digests,
        "trailers": trailers,
    }


def render(golden):
    """JSON with one entry of each list per line, so a diff names the entry."""
    lines = ["{"]
    for i, (key, value) in enumerate(golden.items()):
        comma = "," if i + 1 < len(golden) else ""
        if isinstance(value, list):
            lines.append(f" {json.dumps(key)}: [")
            lines += [f"  {json.dumps(entry)}" + ("," if j + 1 < len(value) else "") for j, entry in enumerate(value)]
            lines.append(f" ]{comma}")
        else:
            lines.append(f" {json.dumps(key)}: {json.dumps(value)}{comma}")
    lines.append("}")
    return "\n".join(lines) + "\n"


def main(argv):
    if argv not in ([], ["--write"]):
        print("usage: check_golden.py [--write]", file=sys.stderr)
        return 2
    expected = build()
    text = render(expected)
    if argv == ["--write"]:
        GOLDEN.write_text(text)
        print(f"wrote {GOLDEN} ({len(expected['digests'])} digests, {len(expected['trailers'])} trailers)")
        return 0
    found_text = GOLDEN.read_text()
    if found_text == text:
        print(
            f"golden.json: all {len(expected['digests'])} digests and {len(expected['trailers'])} trailers "
            "match hashlib, zlib, xxhash, crc32c, awscrt and blake3"
        )
        return 0
    found = json.loads(found_text)
    problems = 0
    for section in ("algorithms", "digests", "trailers"):
        want, got = expected[section], found.get(section, [])
        if len(want) != len(got):
            print(f"{section}: {len(got)} entries in the file, {len(want)} expected")
            problems += 1
        for w, g in zip(want, got):
            if w != g:
                print(f"{section}: file has {g}, references give {w}")
                problems += 1
    print(f"golden.json differs from the references ({problems or 'formatting'} differences)")
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
