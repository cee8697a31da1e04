//! Combining CRCs: the CRC of A||B from the CRCs of A and B.

use crate::algorithm::known;
use crate::chunkhash_status::*;
use crate::{guard, OutParam};

/// Stores in `*out` the CRC of A||B, from `crc_a` (the CRC of A), `crc_b`
/// (the CRC of B) and `len_b` (the length of B in bytes), for the algorithm
/// `id`: `CHUNKHASH_ALGORITHM_CRC32C`, `CHUNKHASH_ALGORITHM_CRC32` or
/// `CHUNKHASH_ALGORITHM_CRC64_NVME`. The CRCs are integers, as
/// `chunkhash_digest` writes them big-endian. This is how S3 builds a
/// full-object checksum from the parts of a multipart upload.
///
/// `len_b` must be the length of B: a wrong length still gives
/// `CHUNKHASH_OK` and a value (the CRC of some other message), since no
/// function can tell.
///
/// Returns `CHUNKHASH_NULL_POINTER`, `CHUNKHASH_UNKNOWN_ALGORITHM`,
/// `CHUNKHASH_UNAVAILABLE_ALGORITHM`, `CHUNKHASH_NOT_A_CRC` for an
/// algorithm that is not one of the three CRCs, or `CHUNKHASH_INVALID_CRC`
/// for a 32-bit CRC given a value above `UINT32_MAX`.
///
/// # Safety
///
/// `out` must be writable.
#[no_mangle]
pub unsafe extern "C" fn chunkhash_crc_combine(
    id: u32,
    crc_a: u64,
    crc_b: u64,
    len_b: u64,
    out: *mut u64,
) -> crate::chunkhash_status {
    guard(|| {
        // SAFETY: the caller promised `out` is writable.
        let out = unsafe { OutParam::new(out) }?;
        let algorithm = known(id)?;
        #[cfg(feature = "crc")]
        {
            let combined = chunkhash::crc_combine(algorithm, crc_a, crc_b, len_b).map_err(|error| match error {
                chunkhash::CrcCombineError::NotACrc(_) => CHUNKHASH_NOT_A_CRC,
                _ => CHUNKHASH_INVALID_CRC,
            })?;
            out.set(combined);
            Ok(())
        }
        #[cfg(not(feature = "crc"))]
        {
            let _ = (crc_a, crc_b, len_b, out);
            Err(match algorithm {
                chunkhash::Algorithm::Crc32c | chunkhash::Algorithm::Crc32 | chunkhash::Algorithm::Crc64Nvme => {
                    CHUNKHASH_UNAVAILABLE_ALGORITHM
                }
                _ => CHUNKHASH_NOT_A_CRC,
            })
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn combine_statuses() {
        let mut out = 7u64;
        // SAFETY: `out` is a local.
        let status = unsafe { chunkhash_crc_combine(0, 0, 0, 0, &mut out) };
        assert_eq!(status, CHUNKHASH_UNKNOWN_ALGORITHM);
        // SAFETY: as above.
        let status = unsafe { chunkhash_crc_combine(1, 0, 0, 0, &mut out) };
        assert_eq!(status, CHUNKHASH_NOT_A_CRC);
        // SAFETY: a NULL output is reported, not written.
        let status = unsafe { chunkhash_crc_combine(7, 0, 0, 0, core::ptr::null_mut()) };
        assert_eq!(status, CHUNKHASH_NULL_POINTER);
        assert_eq!(out, 7, "nothing written on failure");
        if cfg!(feature = "crc") {
            // SAFETY: as above.
            let status = unsafe { chunkhash_crc_combine(7, 1 << 32, 0, 0, &mut out) };
            assert_eq!(status, CHUNKHASH_INVALID_CRC);
            // CRC-32C of "123456789" from "1234" and "56789".
            // SAFETY: as above.
            let status = unsafe { chunkhash_crc_combine(7, 0xF63A_F4EE, 0x83B5_65D8, 5, &mut out) };
            assert_eq!((status, out), (CHUNKHASH_OK, 0xE306_9283));
        } else {
            // SAFETY: as above.
            let status = unsafe { chunkhash_crc_combine(7, 0, 0, 0, &mut out) };
            assert_eq!(status, CHUNKHASH_UNAVAILABLE_ALGORITHM);
        }
    }
}
