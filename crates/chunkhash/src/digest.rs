//! One-shot and streaming hashing with any [`Algorithm`] of the registry,
//! and the [`Digest`] value they return.

use crate::algorithm::{Algorithm, UnavailableAlgorithm, MAX_DIGEST_LEN};
use crate::hex::HexError;
use core::fmt;

/// The output of an [`Algorithm`]: 4 to 64 bytes held inline (no heap).
///
/// Integer checksums (CRC32C, XXH32, XXH64, XXH3-64, XXH3-128) are laid out
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
    let mut bytes = [0u8; MAX_DIGEST_LEN];
    if !hash_into(algorithm, input, &mut bytes) {
        unavailable(algorithm);
    }
    Digest { bytes, algorithm }
}

/// The digest of `input` under `algorithm`, or an error if this build lacks
/// the algorithm's cargo feature.
#[inline]
pub fn try_digest(algorithm: Algorithm, input: &[u8]) -> Result<Digest, UnavailableAlgorithm> {
    let mut bytes = [0u8; MAX_DIGEST_LEN];
    if hash_into(algorithm, input, &mut bytes) {
        Ok(Digest { bytes, algorithm })
    } else {
        Err(UnavailableAlgorithm(algorithm))
    }
}

#[cold]
#[inline(never)]
pub(crate) fn unavailable(algorithm: Algorithm) -> ! {
    panic!("{}", UnavailableAlgorithm(algorithm))
}

/// Hashes `input` into the front of `out` (which the caller zeroed); false
/// if this build lacks the algorithm. Every arm is a call and a copy of a
/// fixed size: no variable-length `memcpy`, and no large `Result` moved
/// around, which had made a 64-byte XXH3 through the registry cost three
/// times the direct call (callgrind: 44 instructions of the wrapper's own).
#[inline(always)]
fn hash_into(algorithm: Algorithm, input: &[u8], out: &mut [u8; MAX_DIGEST_LEN]) -> bool {
    match algorithm {
        Algorithm::Blake3 => put(out, blake3(input)),
        Algorithm::Blake3_160 => put(out, prefix::<20, 32>(blake3(input))),
        #[cfg(feature = "xxhash")]
        Algorithm::Xxh3_64 => put(out, crate::xxhash::xxh3_64(input)),
        #[cfg(feature = "xxhash")]
        Algorithm::Xxh3_128 => put(out, crate::xxhash::xxh3_128(input)),
        #[cfg(feature = "xxhash")]
        Algorithm::Xxh64 => put(out, crate::xxhash::xxh64(input)),
        #[cfg(feature = "xxhash")]
        Algorithm::Xxh32 => put(out, crate::xxhash::xxh32(input)),
        #[cfg(feature = "crc32c")]
        Algorithm::Crc32c => put(out, crate::crc32c::crc32c(input)),
        #[cfg(feature = "blake2")]
        Algorithm::Blake2b512 => put(out, crate::blake2b::blake2b::<64>(input)),
        #[cfg(feature = "blake2")]
        Algorithm::Blake2b256 => put(out, crate::blake2b::blake2b::<32>(input)),
        #[cfg(feature = "sha2")]
        Algorithm::Sha256 => put(out, crate::sha2::sha256(input)),
        #[cfg(feature = "sha2")]
        Algorithm::Sha512 => put(out, crate::sha2::sha512(input)),
        #[cfg(feature = "sha2")]
        Algorithm::Sha512_160 => put(out, prefix::<20, 64>(crate::sha2::sha512(input))),
        #[allow(unreachable_patterns)] // Reached only when a feature is off.
        _ => return false,
    }
    true
}

/// Kept out of line: BLAKE3's tree hashing needs a large stack frame, and
/// inlined into the dispatch it made every algorithm's call pay for it.
#[inline(never)]
fn blake3(input: &[u8]) -> [u8; 32] {
    crate::blake3::hash(input).into()
}

#[inline(always)]
fn put<const N: usize>(out: &mut [u8; MAX_DIGEST_LEN], output: [u8; N]) {
    out[..N].copy_from_slice(&output);
}

/// The first `M` bytes of an `N`-byte output (the 160-bit truncations).
#[inline(always)]
fn prefix<const M: usize, const N: usize>(output: [u8; N]) -> [u8; M] {
    let mut first = [0u8; M];
    first.copy_from_slice(&output[..M]);
    first
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

// The BLAKE3 hasher (about 2.8 KiB) sets the size of every variant; boxing
// it would need the heap, which the registry does without (no_std, no alloc).
#[allow(clippy::large_enum_variant)]
#[derive(Clone)]
enum State {
    Blake3(crate::blake3::Hasher),
    #[cfg(feature = "xxhash")]
    Xxh3_64(crate::xxhash::Xxh3_64Hasher),
    #[cfg(feature = "xxhash")]
    Xxh3_128(crate::xxhash::Xxh3_128Hasher),
    #[cfg(feature = "xxhash")]
    Xxh64(crate::xxhash::Xxh64Hasher),
    #[cfg(feature = "xxhash")]
    Xxh32(crate::xxhash::Xxh32Hasher),
    #[cfg(feature = "crc32c")]
    Crc32c(crate::crc32c::Crc32cHasher),
    #[cfg(feature = "blake2")]
    Blake2b512(crate::blake2b::Blake2bHasher<64>),
    #[cfg(feature = "blake2")]
    Blake2b256(crate::blake2b::Blake2bHasher<32>),
    #[cfg(feature = "sha2")]
    Sha256(crate::sha2::Sha256Hasher),
    #[cfg(feature = "sha2")]
    Sha512(crate::sha2::Sha512Hasher),
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
        let state = match algorithm {
            Algorithm::Blake3 | Algorithm::Blake3_160 => State::Blake3(crate::blake3::Hasher::new()),
            #[cfg(feature = "xxhash")]
            Algorithm::Xxh3_64 => State::Xxh3_64(crate::xxhash::Xxh3_64Hasher::new()),
            #[cfg(feature = "xxhash")]
            Algorithm::Xxh3_128 => State::Xxh3_128(crate::xxhash::Xxh3_128Hasher::new()),
            #[cfg(feature = "xxhash")]
            Algorithm::Xxh64 => State::Xxh64(crate::xxhash::Xxh64Hasher::new()),
            #[cfg(feature = "xxhash")]
            Algorithm::Xxh32 => State::Xxh32(crate::xxhash::Xxh32Hasher::new()),
            #[cfg(feature = "crc32c")]
            Algorithm::Crc32c => State::Crc32c(crate::crc32c::Crc32cHasher::new()),
            #[cfg(feature = "blake2")]
            Algorithm::Blake2b512 => State::Blake2b512(crate::blake2b::Blake2bHasher::new()),
            #[cfg(feature = "blake2")]
            Algorithm::Blake2b256 => State::Blake2b256(crate::blake2b::Blake2bHasher::new()),
            #[cfg(feature = "sha2")]
            Algorithm::Sha256 => State::Sha256(crate::sha2::Sha256Hasher::new()),
            #[cfg(feature = "sha2")]
            Algorithm::Sha512 | Algorithm::Sha512_160 => State::Sha512(crate::sha2::Sha512Hasher::new()),
            #[allow(unreachable_patterns)] // Reached only when a feature is off.
            _ => return Err(UnavailableAlgorithm(algorithm)),
        };
        Ok(StreamingHasher { algorithm, state })
    }

    /// The algorithm this hasher computes.
    pub const fn algorithm(&self) -> Algorithm {
        self.algorithm
    }

    /// Adds input.
    pub fn update(&mut self, input: &[u8]) -> &mut Self {
        match &mut self.state {
            State::Blake3(hasher) => {
                hasher.update(input);
            }
            #[cfg(feature = "xxhash")]
            State::Xxh3_64(hasher) => hasher.update(input),
            #[cfg(feature = "xxhash")]
            State::Xxh3_128(hasher) => hasher.update(input),
            #[cfg(feature = "xxhash")]
            State::Xxh64(hasher) => hasher.update(input),
            #[cfg(feature = "xxhash")]
            State::Xxh32(hasher) => hasher.update(input),
            #[cfg(feature = "crc32c")]
            State::Crc32c(hasher) => hasher.update(input),
            #[cfg(feature = "blake2")]
            State::Blake2b512(hasher) => hasher.update(input),
            #[cfg(feature = "blake2")]
            State::Blake2b256(hasher) => hasher.update(input),
            #[cfg(feature = "sha2")]
            State::Sha256(hasher) => hasher.update(input),
            #[cfg(feature = "sha2")]
            State::Sha512(hasher) => hasher.update(input),
        }
        self
    }

    /// The digest of all input so far. The hasher is unchanged: more input
    /// may follow.
    pub fn finalize(&self) -> Digest {
        let mut bytes = [0u8; MAX_DIGEST_LEN];
        let out = &mut bytes;
        match &self.state {
            State::Blake3(hasher) => {
                let hash: [u8; 32] = hasher.finalize().into();
                if self.algorithm == Algorithm::Blake3_160 {
                    put(out, prefix::<20, 32>(hash));
                } else {
                    put(out, hash);
                }
            }
            #[cfg(feature = "xxhash")]
            State::Xxh3_64(hasher) => put(out, hasher.finalize()),
            #[cfg(feature = "xxhash")]
            State::Xxh3_128(hasher) => put(out, hasher.finalize()),
            #[cfg(feature = "xxhash")]
            State::Xxh64(hasher) => put(out, hasher.finalize()),
            #[cfg(feature = "xxhash")]
            State::Xxh32(hasher) => put(out, hasher.finalize()),
            #[cfg(feature = "crc32c")]
            State::Crc32c(hasher) => put(out, hasher.finalize()),
            #[cfg(feature = "blake2")]
            State::Blake2b512(hasher) => put(out, hasher.finalize()),
            #[cfg(feature = "blake2")]
            State::Blake2b256(hasher) => put(out, hasher.finalize()),
            #[cfg(feature = "sha2")]
            State::Sha256(hasher) => put(out, hasher.finalize()),
            #[cfg(feature = "sha2")]
            State::Sha512(hasher) => {
                let hash = hasher.finalize();
                if self.algorithm == Algorithm::Sha512_160 {
                    put(out, prefix::<20, 64>(hash));
                } else {
                    put(out, hash);
                }
            }
        }
        Digest { bytes, algorithm: self.algorithm }
    }

    /// Forgets all input, as a new hasher for the same algorithm.
    pub fn reset(&mut self) -> &mut Self {
        // `try_new` succeeded for this algorithm once, so it does again.
        if let Ok(fresh) = StreamingHasher::try_new(self.algorithm) {
            *self = fresh;
        }
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
