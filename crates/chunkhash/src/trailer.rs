//! Self-describing block trailers: the RocksDB block checksum, with the
//! algorithm named inside it and the block's context mixed in.
//!
//! ```
//! use chunkhash::trailer::{self, TrailerError};
//! use chunkhash::Algorithm;
//!
//! let block = b"block bytes";
//! let offset = 4096; // where the block lives: its file offset, say
//! let sealed = trailer::seal(block, Algorithm::Crc32c, offset);
//! assert_eq!(sealed.as_bytes().len(), 5);
//!
//! // Reading it back: the trailer says which algorithm to check with.
//! assert_eq!(trailer::verify(block, sealed.as_bytes(), offset), Ok(Algorithm::Crc32c));
//! // The same bytes read from another offset do not pass.
//! assert!(matches!(trailer::verify(block, sealed.as_bytes(), 8192), Err(TrailerError::Mismatch(_))));
//! ```
//!
//! # Byte layout
//!
//! ```text
//! offset 0     1                                   1 + L
//!        +-----+-----------------------------------+
//!        | id  | checksum XOR mask(context, id)    |   L = digest_len(id): 4, 8, 16, 20, 32 or 64
//!        +-----+-----------------------------------+
//! ```
//!
//! - **Byte 0: the algorithm id** ([`Algorithm::id`], the table in the
//!   crate docs). It comes first so that a reader who knows where the block
//!   ends reads one byte and then knows how many follow, and so that a short
//!   read is reported as [`TrailerError::Truncated`] rather than as an
//!   unknown id. Id 0 is reserved: an all-zero trailer (a hole, a wiped
//!   sector) never verifies, and neither does an erased-flash 0xFF one.
//! - **No length byte.** The id fixes the length, from 5 bytes (CRC32C,
//!   CRC-32, XXH32) to 65 (SHA-512, BLAKE2b-512); a length byte could only repeat it
//!   or contradict it. A trailer of any other length is rejected
//!   ([`Truncated`](TrailerError::Truncated), [`TooLong`](TrailerError::TooLong)).
//! - **Bytes 1..: the checksum of the block**, exactly [`crate::digest()`]
//!   (integers big-endian), XORed byte by byte with the first `L` bytes of
//!   `mask(context, id)`.
//!
//! The mask is eight 64-bit words from SplitMix64, each stored
//! little-endian, one after another:
//!
//! ```text
//! GAMMA = 0x9E3779B97F4A7C15
//! state = context XOR (id * GAMMA)                  (wrapping multiply)
//! word i (i = 0..7): state = state + GAMMA          (wrapping add)
//!                    z = state
//!                    z = (z XOR (z >> 30)) * 0xBF58476D1CE4E5B9
//!                    z = (z XOR (z >> 27)) * 0x94D049BB133111EB
//!                    word = z XOR (z >> 31)
//! ```
//!
//! # Why the context is mixed in this way
//!
//! `context` is whatever says where the block belongs, for example its file
//! offset, or a file id and an offset packed into 64 bits. It is mixed into
//! the stored checksum, not into the hashed bytes, as RocksDB's context
//! checksums do (format_version 6 adds a modifier made from the block's
//! offset to the stored checksum):
//!
//! - **It costs nothing per byte.** Appending 8 bytes of context to a 4 KiB
//!   block would cost BLAKE3 a fifth chunk and BLAKE2b an extra block; seeding
//!   each algorithm its own way (a BLAKE3 key, a BLAKE2b salt, an xxHash
//!   seed, a CRC initial value) would need a rule per algorithm and none
//!   exists for SHA-2. The mask is computed in a few nanoseconds.
//! - **The checksum stays the standard one.** Unmasking gives exactly what
//!   `sha256sum`, `xxhsum` or a CRC32C library print for the block, so any
//!   implementation can be checked against independent tools (the golden
//!   vectors are, see `vectors/README.md`).
//! - **A moved block is always caught for checksums of 8 bytes or more.**
//!   The first mask word is a bijection of the context (XOR with a
//!   constant, an add, and the SplitMix64 finaliser are all invertible), so
//!   two different contexts give two different masks: a block and trailer
//!   copied to another context never verify, whatever the block holds. For
//!   the 4-byte checksums (CRC32C, CRC-32, XXH32) the mask is the low 32 bits of
//!   that word, so a wrong context passes with probability 2^-32, the same
//!   as any other corruption of a 32-bit checksum, and with no pattern (a
//!   plain `offset` XOR or sum would miss, for instance, offsets exactly
//!   4 GiB apart).
//! - **The id is mixed in too**, so a bit flip that turns one algorithm's id
//!   into another's of the same length (BLAKE3 and BLAKE2b-256 differ in one
//!   bit) also changes the mask.
//!
//! A trailer detects accidents: bit rot, torn or misdirected writes, reads
//! from the wrong place. It is not a MAC: anyone can compute one, so it says
//! nothing about who wrote the block. Use a keyed hash for that.
//!
//! `verify` never panics, whatever the bytes; each way a trailer can be
//! wrong is its own [`TrailerError`] variant.

use crate::algorithm::{Algorithm, UnavailableAlgorithm, MAX_DIGEST_LEN};
use crate::registry::{hash_with, Finish};
use core::fmt;

/// The longest trailer: an id byte and a 64-byte checksum.
pub const MAX_TRAILER_LEN: usize = 1 + MAX_DIGEST_LEN;

/// The length of a trailer for `algorithm`: 1 + [`Algorithm::digest_len`].
pub const fn trailer_len(algorithm: Algorithm) -> usize {
    1 + algorithm.digest_len()
}

/// A sealed trailer, held inline; write [`as_bytes`](Trailer::as_bytes)
/// after the block.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Trailer {
    algorithm: Algorithm,
    // The trailer, then zeros.
    bytes: [u8; MAX_TRAILER_LEN],
}

impl Trailer {
    /// The trailer's bytes, [`trailer_len`] of them.
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes[..self.len()]
    }

    /// Bytes in the trailer: 5 to 65.
    #[allow(clippy::len_without_is_empty)] // A trailer is never empty.
    pub const fn len(&self) -> usize {
        trailer_len(self.algorithm)
    }

    /// The algorithm named in byte 0.
    pub const fn algorithm(&self) -> Algorithm {
        self.algorithm
    }
}

impl AsRef<[u8]> for Trailer {
    fn as_ref(&self) -> &[u8] {
        self.as_bytes()
    }
}

impl fmt::Debug for Trailer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Trailer({}, ", self.algorithm())?;
        crate::hex::write(f, self.as_bytes())?;
        f.write_str(")")
    }
}

const GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;

/// The SplitMix64 finaliser: a bijection on 64-bit words.
const fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// XORs `mask(context, id)` into a checksum; its own inverse.
fn mask<const N: usize>(mut checksum: [u8; N], context: u64, algorithm: Algorithm) -> [u8; N] {
    let mut state = context ^ (algorithm.id() as u64).wrapping_mul(GAMMA);
    for chunk in checksum.chunks_mut(8) {
        state = state.wrapping_add(GAMMA);
        for (byte, mask) in chunk.iter_mut().zip(mix(state).to_le_bytes()) {
            *byte ^= mask;
        }
    }
    checksum
}

/// The trailer of an algorithm's output (a [`Finish`] of the registry, so
/// each algorithm masks and stores a fixed-size array).
struct Seal {
    algorithm: Algorithm,
    context: u64,
}

impl Finish for Seal {
    type Output = Trailer;

    #[inline(always)]
    fn finish<const N: usize>(self, checksum: [u8; N]) -> Trailer {
        let mut bytes = [0u8; MAX_TRAILER_LEN];
        bytes[0] = self.algorithm.id();
        bytes[1..1 + N].copy_from_slice(&mask(checksum, self.context, self.algorithm));
        Trailer { algorithm: self.algorithm, bytes }
    }
}

/// Whether an algorithm's output, masked, equals the stored checksum (of
/// the same length: `verify` checked), compared in constant time.
struct Matches<'a> {
    algorithm: Algorithm,
    context: u64,
    stored: &'a [u8],
}

impl Finish for Matches<'_> {
    type Output = bool;

    #[inline(always)]
    fn finish<const N: usize>(self, checksum: [u8; N]) -> bool {
        crate::hex::constant_time_eq(&mask(checksum, self.context, self.algorithm), self.stored)
    }
}

/// Seals `block`: the trailer naming `algorithm`, holding its checksum of
/// the block with `context` mixed in (see the module docs for the layout).
///
/// # Panics
///
/// If the algorithm's cargo feature is off, which cannot happen with the
/// default features; see [`try_seal`].
pub fn seal(block: &[u8], algorithm: Algorithm, context: u64) -> Trailer {
    try_seal(block, algorithm, context).unwrap_or_else(|error| panic!("{error}"))
}

/// [`seal`], or an error if this build lacks the algorithm's cargo feature.
pub fn try_seal(block: &[u8], algorithm: Algorithm, context: u64) -> Result<Trailer, UnavailableAlgorithm> {
    hash_with(algorithm, block, Seal { algorithm, context }).ok_or(UnavailableAlgorithm(algorithm))
}

/// Checks `trailer` against `block` and `context`, and returns the algorithm
/// it names. Never panics: any byte string gets `Ok` or a [`TrailerError`].
///
/// The checks run in this order: an id must be there and be known, the
/// trailer must have that algorithm's length, the build must include the
/// algorithm, and the checksum must match (compared in constant time).
pub fn verify(block: &[u8], trailer: &[u8], context: u64) -> Result<Algorithm, TrailerError> {
    let Some((&id, stored)) = trailer.split_first() else {
        return Err(TrailerError::Truncated { algorithm: None, expected: 1, found: 0 });
    };
    let algorithm = Algorithm::from_id(id).map_err(|_| TrailerError::UnknownAlgorithm(id))?;
    let expected = trailer_len(algorithm);
    if trailer.len() < expected {
        return Err(TrailerError::Truncated { algorithm: Some(algorithm), expected, found: trailer.len() });
    }
    if trailer.len() > expected {
        return Err(TrailerError::TooLong { algorithm, expected, found: trailer.len() });
    }
    let matches = hash_with(algorithm, block, Matches { algorithm, context, stored });
    if matches.ok_or(TrailerError::Unavailable(algorithm))? {
        Ok(algorithm)
    } else {
        Err(TrailerError::Mismatch(algorithm))
    }
}

/// Why a trailer did not verify. Each way a trailer can be wrong is its own
/// variant; messages name the algorithm and the lengths involved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum TrailerError {
    /// Occurs when byte 0 names no algorithm: id 0 (reserved, as in a zeroed
    /// trailer) or an id not assigned yet (15 to 255 today).
    UnknownAlgorithm(u8),
    /// Occurs when the trailer is shorter than its algorithm's layout:
    /// `algorithm` is `None` for an empty trailer, which lacks even the id.
    Truncated {
        /// The algorithm named in byte 0, if there is a byte 0.
        algorithm: Option<Algorithm>,
        /// Bytes the layout needs (1 for an empty trailer).
        expected: usize,
        /// Bytes given.
        found: usize,
    },
    /// Occurs when the trailer is longer than its algorithm's layout, as
    /// when the caller split block and trailer in the wrong place.
    TooLong {
        /// The algorithm named in byte 0.
        algorithm: Algorithm,
        /// Bytes the layout needs.
        expected: usize,
        /// Bytes given.
        found: usize,
    },
    /// Occurs when the trailer names an algorithm this build does not include
    /// (its cargo feature is off). Never with the default features.
    Unavailable(Algorithm),
    /// Occurs when the checksum does not match: the block, the trailer or
    /// the context differs from what was sealed (a flipped bit, a torn
    /// write, a block read from the wrong place).
    Mismatch(Algorithm),
}

impl fmt::Display for TrailerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            TrailerError::UnknownAlgorithm(id) => {
                let known = Algorithm::all().len();
                write!(f, "trailer names unknown algorithm id {id} (known ids are 1 to {known}; 0 is reserved)")
            }
            TrailerError::Truncated { algorithm: None, .. } => {
                f.write_str("trailer is empty: expected at least 1 byte, the algorithm id")
            }
            TrailerError::Truncated { algorithm: Some(algorithm), expected, found } => {
                write!(f, "truncated {algorithm} trailer: {found} bytes, expected {expected}")
            }
            TrailerError::TooLong { algorithm, expected, found } => {
                write!(f, "{algorithm} trailer is too long: {found} bytes, expected {expected}")
            }
            TrailerError::Unavailable(algorithm) => write!(f, "trailer uses {}", UnavailableAlgorithm(algorithm)),
            TrailerError::Mismatch(algorithm) => write!(
                f,
                "{algorithm} checksum mismatch: the block, its trailer or the context differs from what was sealed"
            ),
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for TrailerError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mask_is_its_own_inverse_and_starts_with_a_bijection_of_the_context() {
        let bytes = mask([0x5au8; MAX_DIGEST_LEN], 12345, Algorithm::Sha512);
        assert_ne!(bytes, [0x5au8; MAX_DIGEST_LEN]);
        assert_eq!(mask(bytes, 12345, Algorithm::Sha512), [0x5au8; MAX_DIGEST_LEN]);
        // A shorter checksum gets the first bytes of the same mask.
        assert_eq!(mask([0x5au8; 20], 12345, Algorithm::Sha512)[..], bytes[..20]);
        // The finaliser is a bijection: distinct inputs never collide.
        let mut seen: std::vec::Vec<u64> = (0..4096u64).map(|x| mix(x * 4096)).collect();
        seen.sort_unstable();
        seen.dedup();
        assert_eq!(seen.len(), 4096);
    }
}
