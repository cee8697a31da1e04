//! Test support shared by chunkhash's crates and bindings: the project's
//! known-answer vectors (the `vectors/` folder at the repository root, with
//! its provenance in `vectors/README.md`) and seeded random inputs.
//!
//! The vector files are embedded at compile time, so tests need no path at
//! run time and never read anything outside the repository.

use serde_json::Value;

/// The official BLAKE3 test vectors, verbatim.
pub const BLAKE3_TEST_VECTORS_JSON: &str = include_str!("../../../vectors/blake3/test_vectors.json");

/// One case of the official BLAKE3 vectors: 131-byte outputs of each mode.
#[derive(Clone, Debug)]
pub struct Blake3Case {
    /// Length of the input, built by [`input_pattern`].
    pub input_len: usize,
    /// Extended output of the default hash.
    pub hash: Vec<u8>,
    /// Extended output of the keyed hash under [`Blake3Vectors::key`].
    pub keyed_hash: Vec<u8>,
    /// Extended output of key derivation under [`Blake3Vectors::context_string`].
    pub derive_key: Vec<u8>,
}

/// The official BLAKE3 vectors, parsed.
#[derive(Clone, Debug)]
pub struct Blake3Vectors {
    /// The keyed-mode key.
    pub key: [u8; 32],
    /// The key-derivation context.
    pub context_string: String,
    /// Every case.
    pub cases: Vec<Blake3Case>,
}

/// Parses the embedded official BLAKE3 vectors.
pub fn blake3_vectors() -> Blake3Vectors {
    let json: Value = serde_json::from_str(BLAKE3_TEST_VECTORS_JSON).expect("vectors file is JSON");
    let text = |value: &Value, field: &str| -> String {
        value[field].as_str().unwrap_or_else(|| panic!("field {field} is a string")).to_owned()
    };
    let key: [u8; 32] = text(&json, "key").into_bytes().try_into().expect("key is 32 bytes");
    let cases = json["cases"]
        .as_array()
        .expect("cases is an array")
        .iter()
        .map(|case| Blake3Case {
            input_len: case["input_len"].as_u64().expect("input_len is a number") as usize,
            hash: decode_hex(&text(case, "hash")),
            keyed_hash: decode_hex(&text(case, "keyed_hash")),
            derive_key: decode_hex(&text(case, "derive_key")),
        })
        .collect();
    Blake3Vectors { key, context_string: text(&json, "context_string"), cases }
}

/// The input of the official vectors: byte `i` is `i % 251`.
pub fn input_pattern(len: usize) -> Vec<u8> {
    (0..len).map(|i| (i % 251) as u8).collect()
}

/// Decodes hex; panics on bad input (vector files are trusted test data).
pub fn decode_hex(hex: &str) -> Vec<u8> {
    assert!(hex.len().is_multiple_of(2), "odd hex length");
    (0..hex.len()).step_by(2).map(|i| u8::from_str_radix(&hex[i..i + 2], 16).expect("hex digit")).collect()
}

/// Encodes lowercase hex.
pub fn encode_hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// A small seeded generator (SplitMix64) for reproducible random tests.
/// Not for cryptography.
#[derive(Clone, Debug)]
pub struct TestRng(u64);

impl TestRng {
    /// A generator from a seed; tests print the seed they use.
    pub fn new(seed: u64) -> Self {
        TestRng(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E3779B97F4A7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58476D1CE4E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D049BB133111EB);
        z ^ (z >> 31)
    }

    /// A uniform value in `range` (inclusive bounds).
    pub fn range(&mut self, range: std::ops::RangeInclusive<usize>) -> usize {
        let span = (range.end() - range.start()) as u64 + 1;
        range.start() + (self.next_u64() % span) as usize
    }

    /// Fills a buffer with random bytes.
    pub fn fill(&mut self, buf: &mut [u8]) {
        for chunk in buf.chunks_mut(8) {
            let bytes = self.next_u64().to_le_bytes();
            chunk.copy_from_slice(&bytes[..chunk.len()]);
        }
    }

    /// `len` random bytes.
    pub fn bytes(&mut self, len: usize) -> Vec<u8> {
        let mut buf = vec![0u8; len];
        self.fill(&mut buf);
        buf
    }
}

/// The seed of a random test: `CHUNKHASH_TEST_SEED` if set, else `default`.
/// Printed, so a failure can be replayed.
pub fn test_seed(test: &str, default: u64) -> u64 {
    let seed = std::env::var("CHUNKHASH_TEST_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or(default);
    println!("{test}: seed {seed} (set CHUNKHASH_TEST_SEED to replay another)");
    seed
}
