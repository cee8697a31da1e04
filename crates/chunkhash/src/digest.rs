//! One-shot and streaming hashing with any [`Algorithm`] of the registry,
//! and the [`Digest`] value they return.

use crate::algorithm::{Algorithm, UnavailableAlgorithm, MAX_DIGEST_LEN};
use crate::hex::HexError;
use crate::registry::{hash_with, Finish, State};
use core::fmt;

/// The output of an [`Algorithm`]: 4 to 64 bytes held inline (no heap).
///
/// Integer checksums (the CRCs and the xxHash family) are laid out
/// big-endian, so [`to_hex`](Digest::to_hex) prints what xxhsum and the usual
/// CRC32C references print (CRC32C of `"123456789"` is `e3069283`).
///
/// `==` compares the algorithm and then the bytes in constant time.
#[derive(Clone, Copy)]
pub struct Digest {
    // The digest, then zeros: equality may look at all of it.
    bytes: [u8; MAX_DIGEST_LEN],
    algorithm: Algorithm,
}

impl Digest {
    /// The algorithm that made this digest.
    pub const fn algorithm(&self) -> Algorithm {
        self.algorithm
    }

    /// The digest bytes, [`Algorithm::digest_len`] of them.
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes[..self.algorithm.digest_len()]
    }

    /// Bytes in the digest (never 0).
    #[allow(clippy::len_without_is_empty)] // A digest is never empty.
    pub const fn len(&self) -> usize {
        self.algorithm.digest_len()
    }

    /// Lowercase hex, `2 * len()` characters, held inline.
    pub fn to_hex(&self) -> DigestHex {
        let mut hex = DigestHex { buf: [0u8; 2 * MAX_DIGEST_LEN], len: (2 * self.len()) as u8 };
        crate::hex::encode_into(self.as_bytes(), &mut hex.buf);
        hex
    }

    /// Parses `2 * algorithm.digest_len()` hex characters (either case), as a
    /// `--check` line or a manifest stores them.
    pub fn from_hex(algorithm: Algorithm, hex: impl AsRef<str>) -> Result<Digest, HexError> {
        let mut bytes = [0u8; MAX_DIGEST_LEN];
        crate::hex::decode_into(hex.as_ref(), &mut bytes[..algorithm.digest_len()])?;
        Ok(Digest { algorithm, bytes })
    }
}

impl Digest {
    /// The first `algorithm.digest_len()` bytes of `output` as a digest
    /// (the rest stays zero, as equality expects).
    #[inline(always)]
    pub(crate) fn from_output(algorithm: Algorithm, output: &[u8]) -> Digest {
        let mut digest = Digest { bytes: [0u8; MAX_DIGEST_LEN], algorithm };
        let len = algorithm.digest_len();
        digest.bytes[..len].copy_from_slice(&output[..len]);
        digest
    }
}

impl PartialEq for Digest {
    fn eq(&self, other: &Digest) -> bool {
        self.algorithm == other.algorithm && crate::hex::constant_time_eq(&self.bytes, &other.bytes)
    }
}

impl Eq for Digest {}

/// Compares the digest bytes with a slice, in constant time for a slice of
/// the right length.
impl PartialEq<[u8]> for Digest {
    fn eq(&self, other: &[u8]) -> bool {
        crate::hex::constant_time_eq(self.as_bytes(), other)
    }
}

impl core::hash::Hash for Digest {
    fn hash<H: core::hash::Hasher>(&self, state: &mut H) {
        self.algorithm.hash(state);
        self.as_bytes().hash(state);
    }
}

impl AsRef<[u8]> for Digest {
    fn as_ref(&self) -> &[u8] {
        self.as_bytes()
    }
}

impl fmt::Display for Digest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_hex())
    }
}

impl fmt::Debug for Digest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Digest({}, {})", self.algorithm, self.to_hex())
    }
}

/// The hex form of a [`Digest`], up to 128 characters held inline.
/// Dereferences to `&str`.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct DigestHex {
    buf: [u8; 2 * MAX_DIGEST_LEN],
    len: u8,
}

impl DigestHex {
    /// The hex digits.
    pub fn as_str(&self) -> &str {
        // Only ASCII hex digits are ever stored.
        core::str::from_utf8(&self.buf[..self.len as usize]).unwrap_or_default()
    }
}

impl core::ops::Deref for DigestHex {
    type Target = str;
    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl AsRef<str> for DigestHex {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

impl fmt::Display for DigestHex {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Debug for DigestHex {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl PartialEq<str> for DigestHex {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for DigestHex {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

/// The digest of `input` under `algorithm`.
///
/// # Panics
///
/// If the algorithm's cargo feature is off ([`Algorithm::is_available`] is
/// false), which cannot happen with the default features. Where the
/// algorithm comes from outside (a name, an id read from disk) and the build
/// may lack features, use [`try_digest`].
///
/// ```
/// use chunkhash::{digest, Algorithm};
///
/// let crc = digest(Algorithm::Crc32c, b"123456789");
/// assert_eq!(crc.to_hex(), "e3069283");
/// assert_eq!(crc.as_bytes(), [0xe3, 0x06, 0x92, 0x83]);
/// ```
#[inline]
pub fn digest(algorithm: Algorithm, input: &[u8]) -> Digest {
    hash_with(algorithm, input, ToDigest(algorithm)).unwrap_or_else(|| unavailable(algorithm))
}

/// The digest of `input` under `algorithm`, or an error if this build lacks
/// the algorithm's cargo feature.
#[inline]
pub fn try_digest(algorithm: Algorithm, input: &[u8]) -> Result<Digest, UnavailableAlgorithm> {
    hash_with(algorithm, input, ToDigest(algorithm)).ok_or(UnavailableAlgorithm(algorithm))
}

/// A [`Digest`] from an algorithm's output.
struct ToDigest(Algorithm);

impl Finish for ToDigest {
    type Output = Digest;

    #[inline(always)]
    fn finish<const N: usize>(self, output: [u8; N]) -> Digest {
        let mut digest = Digest { bytes: [0u8; MAX_DIGEST_LEN], algorithm: self.0 };
        digest.bytes[..N].copy_from_slice(&output);
        digest
    }
}

#[cold]
#[inline(never)]
pub(crate) fn unavailable(algorithm: Algorithm) -> ! {
    panic!("{}", UnavailableAlgorithm(algorithm))
}

/// Incremental hashing with any [`Algorithm`]: feed input in pieces, get
/// the same [`Digest`] as [`digest`] of the whole. No heap allocation.
///
/// ```
/// use chunkhash::{digest, Algorithm, StreamingHasher};
///
/// let mut hasher = StreamingHasher::new(Algorithm::Xxh3_64);
/// hasher.update(b"chunk ").update(b"bytes");
/// assert_eq!(hasher.finalize(), digest(Algorithm::Xxh3_64, b"chunk bytes"));
/// ```
#[derive(Clone)]
pub struct StreamingHasher {
    algorithm: Algorithm,
    state: State,
}

impl StreamingHasher {
    /// A hasher for `algorithm`.
    ///
    /// # Panics
    ///
    /// If the algorithm's cargo feature is off, as [`digest`] does; see
    /// [`try_new`](StreamingHasher::try_new).
    pub fn new(algorithm: Algorithm) -> StreamingHasher {
        StreamingHasher::try_new(algorithm).unwrap_or_else(|error| unavailable(error.algorithm()))
    }

    /// A hasher for `algorithm`, or an error if this build lacks the
    /// algorithm's cargo feature.
    pub fn try_new(algorithm: Algorithm) -> Result<StreamingHasher, UnavailableAlgorithm> {
        match State::new(algorithm) {
            Some(state) => Ok(StreamingHasher { algorithm, state }),
            None => Err(UnavailableAlgorithm(algorithm)),
        }
    }

    /// The algorithm this hasher computes.
    pub const fn algorithm(&self) -> Algorithm {
        self.algorithm
    }

    /// Adds input.
    pub fn update(&mut self, input: &[u8]) -> &mut Self {
        self.state.update(input);
        self
    }

    /// The digest of all input so far. The hasher is unchanged: more input
    /// may follow.
    pub fn finalize(&self) -> Digest {
        self.state.finalize_with(ToDigest(self.algorithm))
    }

    /// Forgets all input, as a new hasher for the same algorithm.
    pub fn reset(&mut self) -> &mut Self {
        self.state.reset();
        self
    }
}

impl fmt::Debug for StreamingHasher {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("StreamingHasher").field("algorithm", &self.algorithm).finish_non_exhaustive()
    }
}

#[cfg(feature = "std")]
impl std::io::Write for StreamingHasher {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.update(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}
