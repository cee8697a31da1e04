"""The wheel's smoke test (scripts/test/dist.sh): run by a fresh virtual
environment's Python where only the wheel is installed and no cargo or rustc
is on PATH. Prints "python X.Y: ok" and exits 0 when every answer matches."""

import sys

import chunkhash

# BLAKE3 of "abc" (the BLAKE3 reference implementation's output) and of the
# empty input (the official test_vectors.json, input_len 0); CRC-32C of
# "123456789" (the check value of the CRC catalogue); SHA-256 of "abc"
# (FIPS 180-2, appendix B.1).
CHECKS = [
    ("BLAKE3(abc)", chunkhash.blake3(b"abc").hexdigest(), "6437b3ac38465133ffb63b75273a8db548c558465d79db03fd359c6cd5bd9d85"),
    ("BLAKE3()", chunkhash.blake3().hexdigest(), "af1349b9f5f9a1a6a0404dea36dcc9499bcb25c9adc112b7cc9a93cae41f3262"),
    ("CRC32C(123456789)", chunkhash.crc32c(b"123456789").hexdigest(), "e3069283"),
    ("SHA-256(abc)", chunkhash.hash("SHA-256", bytearray(b"abc")).hex(), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
]
failed = [f"{what}: {actual}, expected {expected}" for what, actual, expected in CHECKS if actual != expected]
for line in failed:
    print("smoke:", line, file=sys.stderr)
version = f"{sys.version_info.major}.{sys.version_info.minor}"
print(f"python {version}: {'FAILED' if failed else 'ok'} ({chunkhash.__file__})")
sys.exit(1 if failed else 0)
