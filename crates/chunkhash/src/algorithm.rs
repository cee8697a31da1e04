//! What an [`Algorithm`] is: its id, names, lengths and flags (read from
//! the registry table in `registry.rs`, which declares the enum), parsing a
//! name, and the errors for an unknown id or name and for an algorithm this
//! build lacks.

use crate::registry::{Properties, ALL, PROPERTIES};
use core::fmt;
use core::str::FromStr;

pub use crate::registry::{Algorithm, MAX_DIGEST_LEN};

impl Algorithm {
    /// Every algorithm, in id order. The CLI and the bindings list these.
    pub const fn all() -> &'static [Algorithm] {
        ALL
    }

    /// The stable numeric id (1 to 16 today; 0 is reserved and never used).
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

    /// The algorithm's row of the registry table.
    const fn properties(self) -> &'static Properties {
        &PROPERTIES[self as usize]
    }

    /// The canonical name, as the crate docs' table spells it: `BLAKE3`,
    /// `XXH3-64`, `CRC32C`, `SHA-256`, ... `Display` prints it too.
    pub const fn name(self) -> &'static str {
        self.properties().name
    }

    /// The tag of BSD-style (`--tag`) checksum lines, `TAG (FILE) = HEX`,
    /// spelled as the usual tool prints it: coreutils `sha256sum`/`sha512sum`
    /// (`SHA256`, `SHA512`) and `b2sum` (`BLAKE2b`, and `BLAKE2b-256` for
    /// `-l 256`), xxhsum 0.8 (`XXH32`, `XXH64`, `XXH3`, `XXH128`). b3sum has
    /// no `--tag`; `BLAKE3` is the name other tools use. The two 160-bit
    /// truncations and CRC32C have no tool of their own and follow the
    /// coreutils `NAME-BITS` pattern (`BLAKE3-160`, `SHA512-160`, `CRC32C`);
    /// CRC-32 and CRC-64/NVME use S3's names (`CRC32`, `CRC64NVME`), since
    /// coreutils' `cksum -a crc32b` prints no tag.
    /// Every tag parses back to its algorithm with [`FromStr`].
    pub const fn bsd_tag(self) -> &'static str {
        self.properties().bsd_tag
    }

    /// Bytes in a digest: 4 (CRC32C, CRC-32, XXH32), 8, 16, 20, 32 or 64.
    pub const fn digest_len(self) -> usize {
        self.properties().digest_len
    }

    /// Whether the algorithm is a cryptographic hash (collision and preimage
    /// resistant), as opposed to a checksum that only catches accidents
    /// (the CRCs and the xxHash family, which anyone can forge). The 160-bit
    /// truncations are cryptographic with 80-bit collision resistance. MD5
    /// and SHA-1 count as designed, but their collision resistance is
    /// broken: they are for compatibility only.
    pub const fn is_cryptographic(self) -> bool {
        self.properties().cryptographic
    }

    /// The cargo feature that compiles this algorithm in, or `None` for the
    /// BLAKE3 ones, which are always there.
    pub const fn cargo_feature(self) -> Option<&'static str> {
        self.properties().cargo_feature
    }

    /// Whether this build can compute the algorithm: true for all of them
    /// with the default features. Without its cargo feature the variant and
    /// its id still exist (they are a contract), but hashing with it returns
    /// [`UnavailableAlgorithm`] from the `try_` functions.
    pub const fn is_available(self) -> bool {
        self.properties().available
    }

    /// The code that computes the algorithm on this machine, or `None` if
    /// this build lacks it: the crate chunkhash wraps and the instruction set
    /// that crate picks on this CPU (`"sha2 shani"`, `"blake2b_simd avx2"`,
    /// `"twox-hash scalar"`), or for chunkhash's own code its kernel: for
    /// XXH3 `"chunkhash avx512"` and the like, for BLAKE3 and BLAKE3-160
    /// [`Backend::detect`](crate::Backend::detect)'s (`"avx512"`, `"neon"`,
    /// ...), for the CRCs the CRC kernel's (`"vpclmul"`, `"pclmul"`,
    /// `"sse42"`, `"aarch64"`, `"portable"`). For reports and benchmarks;
    /// the spelling may change.
    ///
    /// ```
    /// use chunkhash::Algorithm;
    ///
    /// let blake3 = Algorithm::Blake3.implementation();
    /// assert_eq!(blake3, Some(chunkhash::Backend::detect().name()));
    /// # #[cfg(feature = "crc")]
    /// assert_eq!(Algorithm::Crc32c.implementation(), Some(chunkhash::crc::CrcBackend::detect().name()));
    /// ```
    pub fn implementation(self) -> Option<&'static str> {
        crate::registry::implementation(self)
    }

    /// The names `FromStr` accepts besides the canonical one, lowercase with
    /// `-` (parsing ignores case and reads `_` as `-`): the spellings of
    /// b3sum, xxhsum (`-H` names and `--tag` tags), coreutils and btrfs.
    const fn aliases(self) -> &'static [&'static str] {
        self.properties().aliases
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
    /// `sha512/160`/`sha512-160`, `crc32`/`crc-32`/`crc32b`,
    /// `crc64nvme`/`crc-64/nvme`. `crc` and `cksum` are not accepted: they
    /// name the POSIX `cksum` CRC, which is none of these. Every [`Algorithm::bsd_tag`] parses too.
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
        for &algorithm in ALL {
            for alias in algorithm.aliases() {
                assert_eq!(*alias, alias.to_ascii_lowercase().replace('_', "-"), "{alias}");
                let owners: std::vec::Vec<Algorithm> = ALL.iter().copied().filter(|a| a.matches(alias)).collect();
                assert_eq!(owners, [algorithm], "{alias}");
            }
        }
    }
}
