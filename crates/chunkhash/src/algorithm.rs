//! The registry of checksum algorithms and their stable numeric ids.
//!
//! The ids are an on-disk contract: block trailers ([`crate::trailer`]) and
//! the tables of storage systems record them. An id never changes meaning,
//! a new algorithm gets a new id, and 0 is reserved so that a zeroed trailer
//! (a hole, a wiped sector) never names an algorithm.

use core::fmt;
use core::str::FromStr;

/// A checksum or hash algorithm of the registry.
///
/// `id()` is stable forever (see the table in the crate docs); the enum is
/// `#[non_exhaustive]` because new algorithms get new ids.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
#[repr(u8)]
pub enum Algorithm {
    /// BLAKE3, 32 bytes.
    Blake3 = 1,
    /// The first 20 bytes of BLAKE3: the chunk address of
    /// [`blake3::Hash::address`](crate::blake3::Hash::address), and what
    /// `b3sum -l 20` prints.
    Blake3_160 = 2,
    /// XXH3, 64-bit output, seed 0 and the default secret.
    Xxh3_64 = 3,
    /// XXH3, 128-bit output (`XXH128`), seed 0 and the default secret.
    Xxh3_128 = 4,
    /// XXH64, seed 0.
    Xxh64 = 5,
    /// XXH32, seed 0.
    Xxh32 = 6,
    /// CRC-32C (Castagnoli, the iSCSI polynomial; reflected, initial value
    /// and final XOR `0xFFFFFFFF`): check value `0xE3069283` for `"123456789"`.
    Crc32c = 7,
    /// BLAKE2b with a 64-byte output, unkeyed (what `b2sum` prints).
    Blake2b512 = 8,
    /// BLAKE2b with a 32-byte output, unkeyed: the digest length is a BLAKE2b
    /// parameter, so this is not a truncation of BLAKE2b-512 (`b2sum -l 256`,
    /// btrfs `blake2`).
    Blake2b256 = 9,
    /// SHA-256 (FIPS 180-4).
    Sha256 = 10,
    /// SHA-512 (FIPS 180-4).
    Sha512 = 11,
    /// The first 20 bytes of SHA-512: the legacy chunk address of Dolt-style
    /// (noms) chunk stores, kept for migration. Not the FIPS 180-4
    /// "SHA-512/t" family, which uses other initial values.
    Sha512_160 = 12,
}

/// Every algorithm, in id order.
const ALL: [Algorithm; 12] = [
    Algorithm::Blake3,
    Algorithm::Blake3_160,
    Algorithm::Xxh3_64,
    Algorithm::Xxh3_128,
    Algorithm::Xxh64,
    Algorithm::Xxh32,
    Algorithm::Crc32c,
    Algorithm::Blake2b512,
    Algorithm::Blake2b256,
    Algorithm::Sha256,
    Algorithm::Sha512,
    Algorithm::Sha512_160,
];

/// The largest [`Algorithm::digest_len`]: 64 bytes (BLAKE2b-512, SHA-512).
pub const MAX_DIGEST_LEN: usize = 64;

impl Algorithm {
    /// Every algorithm, in id order. The CLI and the bindings list these.
    pub const fn all() -> &'static [Algorithm] {
        &ALL
    }

    /// The stable numeric id (1 to 12 today; 0 is reserved and never used).
    pub const fn id(self) -> u8 {
        self as u8
    }

    /// The algorithm with this id, or an error for 0 and ids not assigned.
    pub const fn from_id(id: u8) -> Result<Algorithm, UnknownAlgorithm> {
        if id >= 1 && id as usize <= ALL.len() {
            Ok(ALL[id as usize - 1])
        } else {
            Err(UnknownAlgorithm(id))
        }
    }

    /// The canonical name, as the crate docs' table spells it: `BLAKE3`,
    /// `XXH3-64`, `CRC32C`, `SHA-256`, ... `Display` prints it too.
    pub const fn name(self) -> &'static str {
        match self {
            Algorithm::Blake3 => "BLAKE3",
            Algorithm::Blake3_160 => "BLAKE3-160",
            Algorithm::Xxh3_64 => "XXH3-64",
            Algorithm::Xxh3_128 => "XXH3-128",
            Algorithm::Xxh64 => "XXH64",
            Algorithm::Xxh32 => "XXH32",
            Algorithm::Crc32c => "CRC32C",
            Algorithm::Blake2b512 => "BLAKE2b-512",
            Algorithm::Blake2b256 => "BLAKE2b-256",
            Algorithm::Sha256 => "SHA-256",
            Algorithm::Sha512 => "SHA-512",
            Algorithm::Sha512_160 => "SHA-512/160",
        }
    }

    /// The tag of BSD-style (`--tag`) checksum lines, `TAG (FILE) = HEX`,
    /// spelled as the usual tool prints it: coreutils `sha256sum`/`sha512sum`
    /// (`SHA256`, `SHA512`) and `b2sum` (`BLAKE2b`, and `BLAKE2b-256` for
    /// `-l 256`), xxhsum 0.8 (`XXH32`, `XXH64`, `XXH3`, `XXH128`). b3sum has
    /// no `--tag`; `BLAKE3` is the name other tools use. The two 160-bit
    /// truncations and CRC32C have no tool of their own and follow the
    /// coreutils `NAME-BITS` pattern (`BLAKE3-160`, `SHA512-160`, `CRC32C`).
    /// Every tag parses back to its algorithm with [`FromStr`].
    pub const fn bsd_tag(self) -> &'static str {
        match self {
            Algorithm::Blake3 => "BLAKE3",
            Algorithm::Blake3_160 => "BLAKE3-160",
            Algorithm::Xxh3_64 => "XXH3",
            Algorithm::Xxh3_128 => "XXH128",
            Algorithm::Xxh64 => "XXH64",
            Algorithm::Xxh32 => "XXH32",
            Algorithm::Crc32c => "CRC32C",
            Algorithm::Blake2b512 => "BLAKE2b",
            Algorithm::Blake2b256 => "BLAKE2b-256",
            Algorithm::Sha256 => "SHA256",
            Algorithm::Sha512 => "SHA512",
            Algorithm::Sha512_160 => "SHA512-160",
        }
    }

    /// Bytes in a digest: 4 (CRC32C, XXH32), 8, 16, 20, 32 or 64.
    pub const fn digest_len(self) -> usize {
        match self {
            Algorithm::Crc32c | Algorithm::Xxh32 => 4,
            Algorithm::Xxh3_64 | Algorithm::Xxh64 => 8,
            Algorithm::Xxh3_128 => 16,
            Algorithm::Blake3_160 | Algorithm::Sha512_160 => 20,
            Algorithm::Blake3 | Algorithm::Blake2b256 | Algorithm::Sha256 => 32,
            Algorithm::Blake2b512 | Algorithm::Sha512 => 64,
        }
    }

    /// Whether the algorithm is a cryptographic hash (collision and preimage
    /// resistant), as opposed to a checksum that only catches accidents
    /// (CRC32C and the xxHash family, which anyone can forge). The 160-bit
    /// truncations are cryptographic with 80-bit collision resistance.
    pub const fn is_cryptographic(self) -> bool {
        match self {
            Algorithm::Xxh3_64 | Algorithm::Xxh3_128 | Algorithm::Xxh64 | Algorithm::Xxh32 | Algorithm::Crc32c => false,
            Algorithm::Blake3
            | Algorithm::Blake3_160
            | Algorithm::Blake2b512
            | Algorithm::Blake2b256
            | Algorithm::Sha256
            | Algorithm::Sha512
            | Algorithm::Sha512_160 => true,
        }
    }

    /// The cargo feature that compiles this algorithm in, or `None` for the
    /// BLAKE3 ones, which are always there.
    pub const fn cargo_feature(self) -> Option<&'static str> {
        match self {
            Algorithm::Blake3 | Algorithm::Blake3_160 => None,
            Algorithm::Xxh3_64 | Algorithm::Xxh3_128 | Algorithm::Xxh64 | Algorithm::Xxh32 => Some("xxhash"),
            Algorithm::Crc32c => Some("crc32c"),
            Algorithm::Blake2b512 | Algorithm::Blake2b256 => Some("blake2"),
            Algorithm::Sha256 | Algorithm::Sha512 | Algorithm::Sha512_160 => Some("sha2"),
        }
    }

    /// Whether this build can compute the algorithm: true for all of them
    /// with the default features. Without its cargo feature the variant and
    /// its id still exist (they are a contract), but hashing with it returns
    /// [`UnavailableAlgorithm`] from the `try_` functions.
    pub const fn is_available(self) -> bool {
        match self {
            Algorithm::Blake3 | Algorithm::Blake3_160 => true,
            Algorithm::Xxh3_64 | Algorithm::Xxh3_128 | Algorithm::Xxh64 | Algorithm::Xxh32 => cfg!(feature = "xxhash"),
            Algorithm::Crc32c => cfg!(feature = "crc32c"),
            Algorithm::Blake2b512 | Algorithm::Blake2b256 => cfg!(feature = "blake2"),
            Algorithm::Sha256 | Algorithm::Sha512 | Algorithm::Sha512_160 => cfg!(feature = "sha2"),
        }
    }

    /// The names `FromStr` accepts besides the canonical one, lowercase with
    /// `-` (parsing ignores case and reads `_` as `-`): the spellings of
    /// b3sum, xxhsum (`-H` names and `--tag` tags), coreutils and btrfs.
    const fn aliases(self) -> &'static [&'static str] {
        match self {
            Algorithm::Blake3 => &["b3"],
            Algorithm::Blake3_160 => &["b3-160"],
            Algorithm::Xxh3_64 => &["xxh3", "xxh3-64bits"],
            Algorithm::Xxh3_128 => &["xxh128", "xxh3-128bits"],
            Algorithm::Xxh64 => &["xxhash64"],
            Algorithm::Xxh32 => &["xxhash32"],
            Algorithm::Crc32c => &["crc-32c", "crc-32/iscsi"],
            Algorithm::Blake2b512 => &["blake2b"],
            Algorithm::Blake2b256 => &[],
            Algorithm::Sha256 => &["sha256", "sha2-256"],
            Algorithm::Sha512 => &["sha512", "sha2-512"],
            Algorithm::Sha512_160 => &["sha512/160", "sha512-160"],
        }
    }

    fn matches(self, name: &str) -> bool {
        let same = |candidate: &str| {
            candidate.len() == name.len()
                && candidate.bytes().zip(name.bytes()).all(|(c, n)| {
                    let n = if n == b'_' { b'-' } else { n.to_ascii_lowercase() };
                    c.to_ascii_lowercase() == n
                })
        };
        same(self.name()) || self.aliases().iter().any(|alias| same(alias))
    }
}

impl fmt::Display for Algorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Algorithm {
    type Err = ParseAlgorithmError;

    /// Parses a canonical name or an alias, ignoring case and reading `_` as
    /// `-`: `blake3`/`b3`, `blake3-160`, `xxh3`/`xxh3_64`/`XXH3-64`,
    /// `xxh128`/`xxh3_128`, `xxh64`, `xxh32`, `crc32c`, `blake2b` (512) /
    /// `blake2b-512`, `blake2b-256`, `sha256`/`sha-256`, `sha512`,
    /// `sha512/160`/`sha512-160`. Every [`Algorithm::bsd_tag`] parses too.
    /// Surrounding whitespace is an error, not ignored.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        ALL.iter().copied().find(|algorithm| algorithm.matches(s)).ok_or_else(|| ParseAlgorithmError::new(s))
    }
}

impl TryFrom<u8> for Algorithm {
    type Error = UnknownAlgorithm;
    fn try_from(id: u8) -> Result<Self, Self::Error> {
        Algorithm::from_id(id)
    }
}

impl From<Algorithm> for u8 {
    fn from(algorithm: Algorithm) -> u8 {
        algorithm.id()
    }
}

/// An algorithm id that names no algorithm: 0 (reserved) or one not
/// assigned yet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UnknownAlgorithm(u8);

impl UnknownAlgorithm {
    /// The id that was asked for.
    pub const fn id(&self) -> u8 {
        self.0
    }
}

impl fmt::Display for UnknownAlgorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown algorithm id {} (known ids are 1 to {}; 0 is reserved)", self.0, ALL.len())
    }
}

#[cfg(feature = "std")]
impl std::error::Error for UnknownAlgorithm {}

/// A name that is not an algorithm's name or alias. The message lists the
/// accepted names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseAlgorithmError {
    // The first bytes of the bad name, kept inline so parsing needs no heap.
    name: [u8; 32],
    len: u8,
    truncated: bool,
}

impl ParseAlgorithmError {
    fn new(name: &str) -> Self {
        let mut stored = [0u8; 32];
        let mut len = name.len().min(stored.len());
        while !name.is_char_boundary(len) {
            len -= 1;
        }
        stored[..len].copy_from_slice(&name.as_bytes()[..len]);
        ParseAlgorithmError { name: stored, len: len as u8, truncated: len < name.len() }
    }

    fn name(&self) -> &str {
        core::str::from_utf8(&self.name[..self.len as usize]).unwrap_or_default()
    }
}

impl fmt::Display for ParseAlgorithmError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let ellipsis = if self.truncated { "..." } else { "" };
        write!(f, "unknown algorithm {:?}{ellipsis}, expected one of ", self.name())?;
        for (i, algorithm) in ALL.iter().enumerate() {
            f.write_str(if i == 0 { "" } else { ", " })?;
            f.write_str(algorithm.name())?;
            let aliases = algorithm.aliases();
            for (j, alias) in aliases.iter().enumerate() {
                f.write_str(if j == 0 { " (" } else { ", " })?;
                f.write_str(alias)?;
            }
            if !aliases.is_empty() {
                f.write_str(")")?;
            }
        }
        f.write_str(", ignoring case")
    }
}

#[cfg(feature = "std")]
impl std::error::Error for ParseAlgorithmError {}

/// An algorithm this build cannot compute because its cargo feature is off.
/// Never returned with the default features.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UnavailableAlgorithm(pub(crate) Algorithm);

impl UnavailableAlgorithm {
    /// The algorithm that was asked for.
    pub const fn algorithm(&self) -> Algorithm {
        self.0
    }
}

impl fmt::Display for UnavailableAlgorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (id {}) is not in this build of chunkhash", self.0, self.0.id())?;
        match self.0.cargo_feature() {
            Some(feature) => write!(f, " (enable the cargo feature `{feature}`)"),
            None => Ok(()),
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for UnavailableAlgorithm {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_dense_and_in_order() {
        for (i, algorithm) in ALL.iter().enumerate() {
            assert_eq!(algorithm.id() as usize, i + 1);
            assert_eq!(Algorithm::from_id(algorithm.id()), Ok(*algorithm));
        }
        assert!(ALL.iter().all(|a| a.digest_len() <= MAX_DIGEST_LEN));
        assert!(ALL.iter().any(|a| a.digest_len() == MAX_DIGEST_LEN));
    }

    #[test]
    fn aliases_are_lowercase_and_unambiguous() {
        for algorithm in ALL {
            for alias in algorithm.aliases() {
                assert_eq!(*alias, alias.to_ascii_lowercase().replace('_', "-"), "{alias}");
                let owners: std::vec::Vec<Algorithm> = ALL.iter().copied().filter(|a| a.matches(alias)).collect();
                assert_eq!(owners, [algorithm], "{alias}");
            }
        }
    }
}
