//! Self-describing block trailers: seal and verify.
//!
//! The layout (documented in `crates/chunkhash/src/trailer.rs`): byte 0 is
//! the algorithm id, then the algorithm's checksum of the block XORed with a
//! mask made from a 64-bit context (the block's offset, say), so a block
//! read from the wrong place does not verify.

use crate::algorithm::known;
use crate::chunkhash_status::*;
use crate::{guard, Input, OutParam, Output};
use chunkhash::trailer::{self, TrailerError};

/// The longest trailer in bytes (an id byte and a 64-byte checksum): a
/// buffer of this size holds any trailer.
pub const CHUNKHASH_MAX_TRAILER_LEN: usize = 65;

/// Stores in `*len` the length of a trailer for the algorithm `id`:
/// 1 + its digest length, from 5 to `CHUNKHASH_MAX_TRAILER_LEN` bytes.
///
/// Returns `CHUNKHASH_NULL_POINTER` or `CHUNKHASH_UNKNOWN_ALGORITHM`.
///
/// # Safety
///
/// `len` must be writable.
#[no_mangle]
pub unsafe extern "C" fn chunkhash_trailer_len(id: u32, len: *mut usize) -> crate::chunkhash_status {
    guard(|| {
        // SAFETY: the caller promised `len` is writable.
        let len = unsafe { OutParam::new(len) }?;
        len.set(trailer::trailer_len(known(id)?));
        Ok(())
    })
}

/// Seals `block`: writes the trailer naming the algorithm `id` and holding
/// its checksum of the block with `context` mixed in to the front of `out`,
/// exactly `chunkhash_trailer_len(id)` bytes. Store the trailer after the
/// block; `context` is whatever says where the block belongs (its file
/// offset, say) and must be given again to verify. `out` may overlap
/// `block`.
///
/// Returns `CHUNKHASH_NULL_POINTER`, `CHUNKHASH_INVALID_LENGTH`,
/// `CHUNKHASH_UNKNOWN_ALGORITHM`, `CHUNKHASH_UNAVAILABLE_ALGORITHM`, or
/// `CHUNKHASH_BUFFER_TOO_SMALL` when `out_len` is less than the trailer.
///
/// # Safety
///
/// `block` must be readable for `block_len` bytes and `out` writable for
/// `out_len` bytes (either may be NULL when its length is 0).
#[no_mangle]
pub unsafe extern "C" fn chunkhash_trailer_seal(
    block: *const u8,
    block_len: usize,
    id: u32,
    context: u64,
    out: *mut u8,
    out_len: usize,
) -> crate::chunkhash_status {
    guard(|| {
        // SAFETY: the caller promised `block` is readable for `block_len` bytes.
        let block = unsafe { Input::new(block, block_len) }?;
        // SAFETY: the caller promised `out` is writable for `out_len` bytes.
        let out = unsafe { Output::new(out, out_len) }?;
        let algorithm = known(id)?;
        if !algorithm.is_available() {
            return Err(CHUNKHASH_UNAVAILABLE_ALGORITHM);
        }
        out.require(trailer::trailer_len(algorithm))?;
        let sealed =
            trailer::try_seal(block.bytes(), algorithm, context).map_err(|_| CHUNKHASH_UNAVAILABLE_ALGORITHM)?;
        out.write(sealed.as_bytes());
        Ok(())
    })
}

/// Checks `trailer` against `block` and `context`; on success stores the
/// id of the algorithm the trailer names in `*id`. `trailer` must be
/// exactly the trailer: a reader who knows where the block ends reads byte
/// 0 (the id), asks `chunkhash_trailer_len` how long the trailer is, and
/// passes that many bytes.
///
/// Returns, checking in this order: `CHUNKHASH_NULL_POINTER`,
/// `CHUNKHASH_INVALID_LENGTH`, `CHUNKHASH_TRAILER_TRUNCATED` for an empty
/// trailer, `CHUNKHASH_UNKNOWN_ALGORITHM` when byte 0 names no algorithm
/// (0, as in a zeroed sector, or an id not assigned),
/// `CHUNKHASH_TRAILER_TRUNCATED` or `CHUNKHASH_TRAILER_TOO_LONG` when the
/// length is not that algorithm's, `CHUNKHASH_UNAVAILABLE_ALGORITHM`, and
/// `CHUNKHASH_CHECKSUM_MISMATCH` when the block, the trailer or the context
/// differs from what was sealed. Any bytes give one of these: a trailer is
/// never trusted.
///
/// # Safety
///
/// `block` must be readable for `block_len` bytes and `trailer` for
/// `trailer_len` bytes (either may be NULL when its length is 0); `id` must
/// be writable.
#[no_mangle]
pub unsafe extern "C" fn chunkhash_trailer_verify(
    block: *const u8,
    block_len: usize,
    trailer: *const u8,
    trailer_len: usize,
    context: u64,
    id: *mut u32,
) -> crate::chunkhash_status {
    guard(|| {
        // SAFETY: the caller promised `block` is readable for `block_len` bytes.
        let block = unsafe { Input::new(block, block_len) }?;
        // SAFETY: the caller promised `trailer` is readable for `trailer_len` bytes.
        let trailer = unsafe { Input::new(trailer, trailer_len) }?;
        // SAFETY: the caller promised `id` is writable.
        let id = unsafe { OutParam::new(id) }?;
        let algorithm = trailer::verify(block.bytes(), trailer.bytes(), context).map_err(|error| match error {
            TrailerError::UnknownAlgorithm(_) => CHUNKHASH_UNKNOWN_ALGORITHM,
            TrailerError::Truncated { .. } => CHUNKHASH_TRAILER_TRUNCATED,
            TrailerError::TooLong { .. } => CHUNKHASH_TRAILER_TOO_LONG,
            TrailerError::Unavailable(_) => CHUNKHASH_UNAVAILABLE_ALGORITHM,
            TrailerError::Mismatch(_) => CHUNKHASH_CHECKSUM_MISMATCH,
            // A new kind of error, added to the library after this binding:
            // the trailer did not verify, which is the safe answer.
            _ => CHUNKHASH_CHECKSUM_MISMATCH,
        })?;
        id.set(u32::from(algorithm.id()));
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn max_trailer_len_matches_the_library() {
        assert_eq!(CHUNKHASH_MAX_TRAILER_LEN, trailer::MAX_TRAILER_LEN);
    }

    #[cfg(not(all(feature = "xxhash", feature = "crc", feature = "blake2", feature = "sha2")))]
    #[test]
    fn missing_families_are_unavailable_for_trailers() {
        use chunkhash::Algorithm;
        let missing = Algorithm::all().iter().copied().find(|a| !a.is_available()).expect("a family is off");
        let id = u32::from(missing.id());
        let mut out = [0u8; CHUNKHASH_MAX_TRAILER_LEN];
        // SAFETY: `out` is a local of the length given.
        let status = unsafe { chunkhash_trailer_seal(b"block".as_ptr(), 5, id, 0, out.as_mut_ptr(), out.len()) };
        assert_eq!(status, CHUNKHASH_UNAVAILABLE_ALGORITHM);
        // A trailer of the right length naming the missing algorithm.
        let mut sealed = vec![0u8; trailer::trailer_len(missing)];
        sealed[0] = missing.id();
        let mut found = 0u32;
        // SAFETY: all locals of the lengths given.
        let status =
            unsafe { chunkhash_trailer_verify(b"block".as_ptr(), 5, sealed.as_ptr(), sealed.len(), 0, &mut found) };
        assert_eq!(status, CHUNKHASH_UNAVAILABLE_ALGORITHM);
        assert_eq!(found, 0, "nothing written");
    }
}
