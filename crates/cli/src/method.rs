//! How the command hashes: an algorithm of the registry and, for BLAKE3,
//! its mode (plain, keyed, derive-key) and output length; the hasher that
//! computes it; and the names algorithms are asked for by.
//!
//! The length rule is here, once ([`Method::with_length`]): BLAKE3 gives any
//! length from 1 to [`MAX_LENGTH`] bytes (extended output), every other
//! algorithm, BLAKE3-160 included, only its own digest length.

use anyhow::{bail, Result};
use chunkhash::blake3;
use std::fmt;

pub use chunkhash::Algorithm;

/// The largest BLAKE3 output accepted, from `-l` or a check line. The digest
/// is held in memory and printed as hex, so this bounds the memory a typo
/// can ask for.
pub const MAX_LENGTH: usize = 16 << 20;

/// Parses an algorithm name; the error lists the valid ones. Besides the
/// registry's names and aliases (`blake3`, `sha256`, `xxh3`, `blake2b-256`,
/// ...), the names of the tools work: `b3sum`, `b2sum`, `sha256sum`,
/// `xxhsum` (XXH64, its default), `xxh3sum`, `xxh128sum`, ...
pub fn parse_algorithm(text: &str) -> Result<Algorithm> {
    let name = text.trim();
    if let Ok(algorithm) = name.parse::<Algorithm>() {
        return Ok(algorithm);
    }
    let lower = name.to_ascii_lowercase();
    let tool = match lower.as_str() {
        "b2sum" => Some(Algorithm::Blake2b512),
        "xxhsum" => Some(Algorithm::Xxh64),
        _ => lower.strip_suffix("sum").and_then(|stem| stem.parse::<Algorithm>().ok()),
    };
    match tool {
        Some(algorithm) => Ok(algorithm),
        None => bail!("unknown algorithm {:?}; valid algorithms are: {}", text, valid_names()),
    }
}

/// The valid names, comma-separated, for error messages and `--help`.
pub fn valid_names() -> String {
    Algorithm::all().iter().map(|algorithm| algorithm.name().to_ascii_lowercase()).collect::<Vec<_>>().join(", ")
}

/// Every algorithm's shortest usual name, comma-separated, for `--help`:
/// its `--tag` tag in lowercase (`xxh3`, `xxh128`, `blake2b`, `sha256`), as
/// the tools spell it, which the parser accepts; `default` is marked.
pub fn short_names(default: Option<Algorithm>) -> String {
    let name = |&algorithm: &Algorithm| {
        let mark = if Some(algorithm) == default { " (default)" } else { "" };
        format!("{}{mark}", algorithm.bsd_tag().to_ascii_lowercase())
    };
    Algorithm::all().iter().map(name).collect::<Vec<_>>().join(", ")
}

/// Whether the algorithm is BLAKE3 or a truncation of it: those have
/// extended output, keys, derive-key and multi-threaded hashing.
pub fn is_blake3_family(algorithm: Algorithm) -> bool {
    matches!(algorithm, Algorithm::Blake3 | Algorithm::Blake3_160)
}

/// Whether the algorithm has extended output: any length is a prefix of
/// one endless output (only BLAKE3 itself; BLAKE3-160 is fixed at 20).
fn is_extendable(algorithm: Algorithm) -> bool {
    algorithm == Algorithm::Blake3
}

/// Whether the algorithm is BLAKE2b, whose output length is a parameter of
/// the hash (b2sum's `-l`): 1 to [`BLAKE2B_MAX_LENGTH`] bytes, each length a
/// different hash, not a truncation.
pub fn is_blake2b(algorithm: Algorithm) -> bool {
    matches!(algorithm, Algorithm::Blake2b512 | Algorithm::Blake2b256)
}

/// The longest BLAKE2b output: 64 bytes (b2sum's `-l 512`).
pub const BLAKE2B_MAX_LENGTH: usize = 64;

/// Whether the algorithm is one of xxhsum's: those may be written in
/// little-endian order (`--little-endian`), and name stdin `stdin`.
pub fn is_xxhash(algorithm: Algorithm) -> bool {
    matches!(algorithm, Algorithm::Xxh32 | Algorithm::Xxh64 | Algorithm::Xxh3_64 | Algorithm::Xxh3_128)
}

/// The lengths an algorithm gives, for messages: `1 to 64 bytes`, `32 bytes`.
pub fn lengths_text(algorithm: Algorithm) -> String {
    if is_extendable(algorithm) {
        format!("1 to {MAX_LENGTH} bytes")
    } else if is_blake2b(algorithm) {
        format!("1 to {BLAKE2B_MAX_LENGTH} bytes")
    } else {
        format!("{} bytes only", algorithm.digest_len())
    }
}

/// Every plain method whose digest has `len` bytes, in id order: what an
/// untagged check line of that length may have been made with. BLAKE3
/// gives any length (b3sum `-l`), BLAKE2b up to 64 bytes (b2sum `-l`); a
/// method that gives the same bytes as an earlier one (BLAKE3-160 is BLAKE3
/// at 20 bytes) is listed once.
pub fn candidates_for_len(len: usize) -> Vec<Method> {
    let mut methods: Vec<Method> =
        Algorithm::all().iter().filter_map(|&algorithm| Method::with_length(algorithm, len).ok()).collect();
    methods.dedup_by(|later, earlier| later.same_output(earlier));
    methods
}

/// A length the algorithm cannot give (see [`Method::with_length`]); each
/// caller words it for its own input (`-l`, a check line).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LengthError {
    /// BLAKE3 or BLAKE2b, but 0 or more than its longest output.
    OutOfRange,
    /// Another algorithm, whose only length is its digest length.
    Fixed,
}

/// The BLAKE3 modes.
#[derive(Clone)]
pub enum Blake3Mode {
    /// The default hash.
    Hash,
    /// Keyed with 32 bytes.
    Keyed([u8; blake3::KEY_LEN]),
    /// Key derivation with a context string.
    DeriveKey(String),
}

impl fmt::Debug for Blake3Mode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Never print the key.
        match self {
            Blake3Mode::Hash => f.write_str("Hash"),
            Blake3Mode::Keyed(_) => f.write_str("Keyed(..)"),
            Blake3Mode::DeriveKey(context) => write!(f, "DeriveKey({context:?})"),
        }
    }
}

/// An algorithm with everything needed to hash: mode and output length.
///
/// BLAKE2b of a length the registry has no id for (b2sum `-l 128`) is
/// `Blake2b512` with that `out_len`: BLAKE2b with that output length.
#[derive(Clone, Debug)]
pub struct Method {
    /// The algorithm.
    pub algorithm: Algorithm,
    /// The BLAKE3 mode (always `Hash` for other algorithms).
    pub mode: Blake3Mode,
    /// Output bytes.
    pub out_len: usize,
}

impl Method {
    /// The algorithm with its default mode and length.
    pub fn plain(algorithm: Algorithm) -> Method {
        Method { algorithm, mode: Blake3Mode::Hash, out_len: algorithm.digest_len() }
    }

    /// The algorithm (default mode) giving `len` bytes: the length rule.
    /// BLAKE2b's two registry lengths keep their own algorithm (32 bytes is
    /// BLAKE2b-256, 64 BLAKE2b-512, as b2sum's `-l 256` / `-l 512`).
    pub fn with_length(algorithm: Algorithm, len: usize) -> Result<Method, LengthError> {
        if is_blake2b(algorithm) {
            if len == 0 || len > BLAKE2B_MAX_LENGTH {
                return Err(LengthError::OutOfRange);
            }
            let registered = [Algorithm::Blake2b256, Algorithm::Blake2b512].into_iter().find(|a| a.digest_len() == len);
            let algorithm = registered.unwrap_or(Algorithm::Blake2b512);
            return Ok(Method { out_len: len, ..Method::plain(algorithm) });
        }
        if is_extendable(algorithm) {
            if len == 0 || len > MAX_LENGTH {
                return Err(LengthError::OutOfRange);
            }
        } else if len != algorithm.digest_len() {
            return Err(LengthError::Fixed);
        }
        Ok(Method { out_len: len, ..Method::plain(algorithm) })
    }

    /// Whether two plain methods give the same bytes: the same algorithm
    /// and length, or BLAKE3 and BLAKE3-160 (BLAKE3 cut to 20 bytes).
    fn same_output(&self, other: &Method) -> bool {
        let blake3 = is_blake3_family(self.algorithm) && is_blake3_family(other.algorithm);
        self.out_len == other.out_len && (self.algorithm == other.algorithm || blake3)
    }

    /// The name of the hash for messages: `BLAKE3`, `SHA-256`, `BLAKE2b-128`.
    pub fn name(&self) -> String {
        if is_blake2b(self.algorithm) && self.out_len != self.algorithm.digest_len() {
            format!("BLAKE2b-{}", self.out_len * 8)
        } else {
            self.algorithm.name().to_string()
        }
    }

    /// Whether [`chunkhash::digest_many`] gives this method's bytes: the
    /// algorithm's plain hash at its registry length (not keyed or
    /// derive-key BLAKE3, not BLAKE3 extended, not BLAKE2b of another
    /// length).
    pub fn is_registry_digest(&self) -> bool {
        matches!(self.mode, Blake3Mode::Hash) && self.out_len == self.algorithm.digest_len()
    }

    /// A fresh hasher. BLAKE3-160 is BLAKE3 cut to 20 bytes, so it takes
    /// the BLAKE3 path (and its threads); the rest are the registry's.
    pub fn hasher(&self) -> MethodHasher {
        let inner = if is_blake3_family(self.algorithm) {
            let hasher = match &self.mode {
                Blake3Mode::Hash => blake3::Hasher::new(),
                Blake3Mode::Keyed(key) => blake3::Hasher::new_keyed(key),
                Blake3Mode::DeriveKey(context) => blake3::Hasher::new_derive_key(context),
            };
            Inner::Blake3(Box::new(hasher))
        } else if is_blake2b(self.algorithm) && self.out_len != self.algorithm.digest_len() {
            Inner::Blake2b(Box::new(blake2b_simd::Params::new().hash_length(self.out_len).to_state()))
        } else {
            Inner::Registry(Box::new(chunkhash::StreamingHasher::new(self.algorithm)))
        };
        MethodHasher { inner, out_len: self.out_len }
    }

    /// The digest of a whole buffer.
    #[cfg(test)]
    pub fn digest(&self, input: &[u8]) -> Vec<u8> {
        let mut hasher = self.hasher();
        hasher.update(input, false);
        hasher.finish()
    }
}

enum Inner {
    Blake3(Box<blake3::Hasher>),
    Blake2b(Box<blake2b_simd::State>),
    Registry(Box<chunkhash::StreamingHasher>),
}

/// An incremental hasher for a [`Method`].
pub struct MethodHasher {
    inner: Inner,
    out_len: usize,
}

impl fmt::Debug for MethodHasher {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("MethodHasher").field("out_len", &self.out_len).finish_non_exhaustive()
    }
}

impl MethodHasher {
    /// Adds input; `parallel` lets BLAKE3 use the current rayon pool.
    pub fn update(&mut self, input: &[u8], parallel: bool) {
        match &mut self.inner {
            Inner::Blake3(hasher) => {
                if parallel {
                    hasher.update_parallel(input);
                } else {
                    hasher.update(input);
                }
            }
            Inner::Blake2b(hasher) => {
                hasher.update(input);
            }
            Inner::Registry(hasher) => {
                hasher.update(input);
            }
        }
    }

    /// The digest, `out_len` bytes.
    pub fn finish(self) -> Vec<u8> {
        match self.inner {
            Inner::Blake3(hasher) => {
                let mut out = vec![0u8; self.out_len];
                hasher.finalize_xof().fill(&mut out);
                out
            }
            Inner::Blake2b(hasher) => hasher.finalize().as_bytes().to_vec(),
            Inner::Registry(hasher) => hasher.finalize().as_bytes().to_vec(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chunkhash::hex::constant_time_eq;

    #[test]
    fn names_parse_case_insensitively_and_errors_list_the_valid_ones() {
        assert_eq!(parse_algorithm("blake3").unwrap(), Algorithm::Blake3);
        assert_eq!(parse_algorithm("B3SUM").unwrap(), Algorithm::Blake3);
        assert_eq!(parse_algorithm("sha256sum").unwrap(), Algorithm::Sha256);
        assert_eq!(parse_algorithm("b2sum").unwrap(), Algorithm::Blake2b512);
        assert_eq!(parse_algorithm("xxhsum").unwrap(), Algorithm::Xxh64);
        assert_eq!(parse_algorithm("xxh128sum").unwrap(), Algorithm::Xxh3_128);
        assert_eq!(parse_algorithm("XXH3").unwrap(), Algorithm::Xxh3_64);
        assert_eq!(parse_algorithm("md5sum").unwrap(), Algorithm::Md5);
        assert_eq!(parse_algorithm("sha1sum").unwrap(), Algorithm::Sha1);
        let error = parse_algorithm("md4").unwrap_err().to_string();
        assert!(error.contains("\"md4\"") && error.contains("blake3") && error.contains("sha-512/160"), "{error}");
        assert!(parse_algorithm("sum").is_err());
    }

    #[test]
    fn every_method_matches_the_registry() {
        let input = vectors_input();
        for &algorithm in Algorithm::all() {
            let method = Method::plain(algorithm);
            assert_eq!(method.digest(&input), chunkhash::digest(algorithm, &input).as_bytes(), "{algorithm}");
            let mut split = method.hasher();
            split.update(&input[..1000], false);
            split.update(&input[1000..], true);
            assert_eq!(split.finish(), chunkhash::digest(algorithm, &input).as_bytes(), "{algorithm}");
        }
    }

    fn vectors_input() -> Vec<u8> {
        (0..300_000u32).map(|i| (i % 251) as u8).collect()
    }

    #[test]
    fn lengths_select_candidates() {
        let names = |len| candidates_for_len(len).iter().map(Method::name).collect::<Vec<_>>();
        assert_eq!(names(32), ["BLAKE3", "BLAKE2b-256", "SHA-256"]);
        assert_eq!(names(64), ["BLAKE3", "BLAKE2b-512", "SHA-512"]);
        assert_eq!(names(20), ["BLAKE3", "BLAKE2b-160", "SHA-512/160", "SHA-1"]);
        assert_eq!(names(16), ["BLAKE3", "XXH3-128", "BLAKE2b-128", "MD5"]);
        assert_eq!(names(8), ["BLAKE3", "XXH3-64", "XXH64", "BLAKE2b-64", "CRC-64/NVME"]);
        assert_eq!(names(4), ["BLAKE3", "XXH32", "CRC32C", "BLAKE2b-32", "CRC-32"]);
        assert_eq!(names(9), ["BLAKE3", "BLAKE2b-72"]);
        assert_eq!(names(65), ["BLAKE3"]);
        assert!(candidates_for_len(0).is_empty());
    }

    /// BLAKE2b of every length b2sum gives: `-l 8` to `-l 512` bits. The
    /// two registry lengths keep their algorithm; the others are checked
    /// against blake2b_simd's one-shot call and differ from truncations.
    #[test]
    fn blake2b_of_every_length() {
        let input = vectors_input();
        for len in 1..=BLAKE2B_MAX_LENGTH {
            let method = Method::with_length(Algorithm::Blake2b512, len).unwrap();
            assert_eq!(Method::with_length(Algorithm::Blake2b256, len).unwrap().algorithm, method.algorithm);
            let expected = blake2b_simd::Params::new().hash_length(len).hash(&input);
            assert_eq!(method.digest(&input), expected.as_bytes(), "{len}");
            let long = Method::plain(Algorithm::Blake2b512).digest(&input);
            assert_eq!(len == 64, method.digest(&input) == long[..len], "{len}");
        }
        assert_eq!(Method::with_length(Algorithm::Blake2b512, 32).unwrap().algorithm, Algorithm::Blake2b256);
        assert_eq!(Method::with_length(Algorithm::Blake2b256, 64).unwrap().algorithm, Algorithm::Blake2b512);
        assert_eq!(Method::with_length(Algorithm::Blake2b512, 16).unwrap().name(), "BLAKE2b-128");
        assert_eq!(Method::with_length(Algorithm::Blake2b512, 0).unwrap_err(), LengthError::OutOfRange);
        assert_eq!(Method::with_length(Algorithm::Blake2b512, 65).unwrap_err(), LengthError::OutOfRange);
    }

    #[test]
    fn blake3_xof_extends_the_default_hash() {
        let long = Method::with_length(Algorithm::Blake3, 64).unwrap().digest(b"abc");
        assert_eq!(&long[..32], blake3::hash(b"abc").as_bytes());
        assert!(constant_time_eq(&Method::plain(Algorithm::Blake3).digest(b"abc"), blake3::hash(b"abc").as_bytes()));
        assert!(!constant_time_eq(&long[..32], &long[32..]));
    }
}
