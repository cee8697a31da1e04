//! The crate's smoke test (scripts/test/dist.sh): a new program depending on
//! the unpacked .crate by path. Prints "rust: ok" when every answer matches;
//! exits 1 otherwise.

use chunkhash::Algorithm;

fn main() {
    let checks = [
        // BLAKE3 of "abc" (the BLAKE3 reference implementation's output).
        (
            "BLAKE3(abc)",
            chunkhash::blake3::hash(b"abc").to_hex().to_string(),
            "6437b3ac38465133ffb63b75273a8db548c558465d79db03fd359c6cd5bd9d85",
        ),
        // CRC-32C of "123456789": the check value of the CRC catalogue.
        ("CRC32C(123456789)", chunkhash::digest(Algorithm::Crc32c, b"123456789").to_hex().to_string(), "e3069283"),
    ];
    let mut failed = false;
    for (what, actual, expected) in checks {
        if actual != expected {
            eprintln!("smoke: {what}: {actual}, expected {expected}");
            failed = true;
        }
    }
    println!("rust: {}", if failed { "FAILED" } else { "ok" });
    std::process::exit(i32::from(failed));
}
