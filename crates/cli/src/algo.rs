//! What the command hashes with: an algorithm, and for BLAKE3 its mode
//! (plain, keyed, derive-key) and output length. Everything the other
//! modules need to know about algorithms goes through here.

use anyhow::{bail, Result};
use chunkhash::blake3;
use std::fmt;

pub use chunkhash::Algorithm;

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

/// Whether the algorithm is BLAKE3 or a truncation of it: those have
/// extended output, keys, derive-key and multi-threaded hashing.
pub fn is_blake3_family(algorithm: Algorithm) -> bool {
    matches!(algorithm, Algorithm::Blake3 | Algorithm::Blake3_160)
}

/// The algorithm that `-l LEN` (bytes) selects in place of `algorithm`:
/// BLAKE2b-512 with 32 is BLAKE2b-256 and back, as b2sum's `-l 256` / `-l 512`.
pub fn length_sibling(algorithm: Algorithm, len: usize) -> Option<Algorithm> {
    Algorithm::all()
        .iter()
        .copied()
        .find(|&other| other != algorithm && other.digest_len() == len && same_family(algorithm, other))
}

fn same_family(a: Algorithm, b: Algorithm) -> bool {
    let blake2b = |x| matches!(x, Algorithm::Blake2b512 | Algorithm::Blake2b256);
    blake2b(a) && blake2b(b)
}

/// The tag of `--tag` lines for a method: the algorithm's, whatever the
/// BLAKE3 output length (the hex length tells it).
pub fn tag_for(method: &Method) -> &'static str {
    method.algorithm.bsd_tag()
}

/// Text written before the hex in untagged lines: xxhsum marks XXH3-64 with
/// `XXH3_` so that it is not mistaken for XXH64, which has the same length.
pub fn hex_prefix(algorithm: Algorithm) -> &'static str {
    match algorithm {
        Algorithm::Xxh3_64 => "XXH3_",
        _ => "",
    }
}

/// XXH3-64, whose untagged lines carry xxhsum's `XXH3_` prefix.
pub fn xxh3_64() -> Option<Algorithm> {
    Some(Algorithm::Xxh3_64)
}

/// The method for a digest of `len` bytes said to be `algorithm`'s: BLAKE3
/// takes any length (extended output), the others only their own.
pub fn method_for_length(algorithm: Algorithm, len: usize) -> Result<Method, String> {
    if algorithm == Algorithm::Blake3 {
        if len == 0 || len > crate::settings::MAX_LENGTH {
            return Err(format!("a {len}-byte BLAKE3 digest is out of range"));
        }
        return Ok(Method::blake3_xof(len));
    }
    if len == algorithm.digest_len() {
        Ok(Method::plain(algorithm))
    } else {
        Err(format!("a {len}-byte digest cannot be {} ({} bytes)", algorithm.name(), algorithm.digest_len()))
    }
}

/// Every plain method whose digest has `len` bytes, in id order.
pub fn candidates_for_len(len: usize) -> Vec<Method> {
    Algorithm::all().iter().copied().filter(|a| a.digest_len() == len).map(Method::plain).collect()
}

/// The method of a `TAG (NAME) = HEX` line with a `len`-byte digest, and
/// whether the tag asks for little-endian display (xxhsum's `_LE` tags).
/// Tags are matched as the tools print them, ignoring case, then as any
/// name the algorithm parser knows.
pub fn method_for_tag(tag: &str, len: usize) -> Result<(Method, bool), String> {
    let (base, little_endian) = match tag.strip_suffix("_LE") {
        Some(base) if base.starts_with("XXH") => (base, true),
        _ => (tag, false),
    };
    let algorithm = Algorithm::all()
        .iter()
        .copied()
        .find(|a| a.bsd_tag().eq_ignore_ascii_case(base))
        .or_else(|| base.parse::<Algorithm>().ok())
        .ok_or_else(|| format!("unknown algorithm tag {tag:?}"))?;
    Ok((method_for_length(algorithm, len)?, little_endian))
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

    /// BLAKE3 (plain) with `out_len` bytes of extended output.
    pub fn blake3_xof(out_len: usize) -> Method {
        Method { algorithm: Algorithm::Blake3, mode: Blake3Mode::Hash, out_len }
    }

    /// Whether [`hash_many`](crate::sum) can take inputs of this method: the
    /// plain 32-byte BLAKE3 hash.
    pub fn is_plain_blake3(&self) -> bool {
        self.algorithm == Algorithm::Blake3 && matches!(self.mode, Blake3Mode::Hash) && self.out_len == blake3::OUT_LEN
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
            Inner::Registry(hasher) => hasher.finalize().as_bytes().to_vec(),
        }
    }
}

/// Lowercase hex.
pub fn to_hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut out = String::with_capacity(2 * bytes.len());
    for &b in bytes {
        out.push(DIGITS[usize::from(b >> 4)] as char);
        out.push(DIGITS[usize::from(b & 15)] as char);
    }
    out
}

/// Parses hex of either case; `None` for an odd length or a non-hex digit.
pub fn from_hex(text: &[u8]) -> Option<Vec<u8>> {
    if !text.len().is_multiple_of(2) {
        return None;
    }
    let digit = |c: u8| match c {
        b'0'..=b'9' => Some(c - b'0'),
        b'a'..=b'f' => Some(c - b'a' + 10),
        b'A'..=b'F' => Some(c - b'A' + 10),
        _ => None,
    };
    text.chunks_exact(2).map(|pair| Some(digit(pair[0])? << 4 | digit(pair[1])?)).collect()
}

/// Compares digests without an early exit on the first differing byte.
pub fn digests_equal(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_round_trip() {
        let bytes = [0u8, 1, 0xab, 0xff];
        assert_eq!(to_hex(&bytes), "0001abff");
        assert_eq!(from_hex(b"0001ABff").as_deref(), Some(&bytes[..]));
        assert_eq!(from_hex(b"abc"), None);
        assert_eq!(from_hex(b"zz"), None);
    }

    #[test]
    fn names_parse_case_insensitively_and_errors_list_the_valid_ones() {
        assert_eq!(parse_algorithm("blake3").unwrap(), Algorithm::Blake3);
        assert_eq!(parse_algorithm("B3SUM").unwrap(), Algorithm::Blake3);
        assert_eq!(parse_algorithm("sha256sum").unwrap(), Algorithm::Sha256);
        assert_eq!(parse_algorithm("b2sum").unwrap(), Algorithm::Blake2b512);
        assert_eq!(parse_algorithm("xxhsum").unwrap(), Algorithm::Xxh64);
        assert_eq!(parse_algorithm("xxh128sum").unwrap(), Algorithm::Xxh3_128);
        assert_eq!(parse_algorithm("XXH3").unwrap(), Algorithm::Xxh3_64);
        let error = parse_algorithm("md5").unwrap_err().to_string();
        assert!(error.contains("\"md5\"") && error.contains("blake3") && error.contains("sha-512/160"), "{error}");
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
    fn lengths_select_candidates_and_tags_select_one() {
        let names = |len| candidates_for_len(len).iter().map(|m| m.algorithm).collect::<Vec<_>>();
        assert_eq!(names(32), [Algorithm::Blake3, Algorithm::Blake2b256, Algorithm::Sha256]);
        assert_eq!(names(8), [Algorithm::Xxh3_64, Algorithm::Xxh64]);
        assert_eq!(names(4), [Algorithm::Xxh32, Algorithm::Crc32c]);
        assert!(names(9).is_empty());
        assert_eq!(method_for_tag("BLAKE2b", 64).unwrap().0.algorithm, Algorithm::Blake2b512);
        assert_eq!(method_for_tag("BLAKE2b-256", 32).unwrap().0.algorithm, Algorithm::Blake2b256);
        assert_eq!(method_for_tag("SHA256", 32).unwrap().0.algorithm, Algorithm::Sha256);
        assert_eq!(method_for_tag("XXH3", 8).unwrap().0.algorithm, Algorithm::Xxh3_64);
        let (method, little_endian) = method_for_tag("XXH128_LE", 16).unwrap();
        assert_eq!((method.algorithm, method.out_len, little_endian), (Algorithm::Xxh3_128, 16, true));
        assert!(method_for_tag("SHA256", 64).unwrap_err().contains("64-byte"));
        assert!(method_for_tag("BLAKE2b-160", 20).is_err());
        assert_eq!(length_sibling(Algorithm::Blake2b512, 32), Some(Algorithm::Blake2b256));
        assert_eq!(length_sibling(Algorithm::Sha256, 64), None);
    }

    #[test]
    fn blake3_xof_extends_the_default_hash() {
        let long = Method::blake3_xof(64).digest(b"abc");
        assert_eq!(&long[..32], blake3::hash(b"abc").as_bytes());
        assert!(digests_equal(&Method::plain(Algorithm::Blake3).digest(b"abc"), blake3::hash(b"abc").as_bytes()));
        assert!(!digests_equal(&long[..32], &long[32..]));
    }
}
