//! S3's checksums of a buffer in one call (`chunkhash::s3_checksums`).

use core::ffi::c_char;

#[cfg(feature = "s3")]
use chunkhash::s3_checksums::{S3Checksum, S3Hasher};

use crate::{guard, Input, OutParam};

/// Bytes of each string of `chunkhash_s3_sums`, its NUL included:
/// room for the base64 of a 64-byte digest (88 characters) and `-N` for any
/// part count.
pub const CHUNKHASH_S3_VALUE_LEN: usize = 112;

/// S3's checksums of one object, as S3 reports them: each a NUL-terminated
/// string, the base64 of the big-endian digest (`"AAAAAAAAAAA="`), with
/// `-N` after the composite values of an upload in N parts. `etag` is the
/// ETag with its double quotes. `parts` is the number of parts, 0 for a
/// single-part upload.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct chunkhash_s3_sums {
    pub crc32: [c_char; CHUNKHASH_S3_VALUE_LEN],
    pub crc32c: [c_char; CHUNKHASH_S3_VALUE_LEN],
    pub crc64nvme: [c_char; CHUNKHASH_S3_VALUE_LEN],
    pub sha1: [c_char; CHUNKHASH_S3_VALUE_LEN],
    pub sha256: [c_char; CHUNKHASH_S3_VALUE_LEN],
    pub sha512: [c_char; CHUNKHASH_S3_VALUE_LEN],
    pub md5: [c_char; CHUNKHASH_S3_VALUE_LEN],
    pub xxhash64: [c_char; CHUNKHASH_S3_VALUE_LEN],
    pub xxhash3: [c_char; CHUNKHASH_S3_VALUE_LEN],
    pub xxhash128: [c_char; CHUNKHASH_S3_VALUE_LEN],
    pub etag: [c_char; CHUNKHASH_S3_VALUE_LEN],
    pub parts: u64,
}

#[cfg(feature = "s3")]
fn c_string(text: &str) -> [c_char; CHUNKHASH_S3_VALUE_LEN] {
    let mut out = [0 as c_char; CHUNKHASH_S3_VALUE_LEN];
    assert!(text.len() < CHUNKHASH_S3_VALUE_LEN, "S3 value {text:?} longer than the struct's strings");
    for (slot, &byte) in out.iter_mut().zip(text.as_bytes()) {
        *slot = byte as c_char;
    }
    out
}

/// Fills `*out` with every S3 checksum of the `len` bytes at `data` (CRC32,
/// CRC32C, CRC64NVME, SHA1, SHA256, SHA512, MD5, XXHASH64, XXHASH3,
/// XXHASH128) and the ETag, computed in one pass on two threads. With
/// `part_size` 0, the values of a single-part upload; otherwise of a
/// multipart upload in parts of `part_size` bytes: the CRCs full-object,
/// the others composite (`"...-N"`), the ETag the MD5 of the part MD5s. MD5
/// and SHA-1 are for S3's sake only, never for new designs.
///
/// Returns `CHUNKHASH_NULL_POINTER` or `CHUNKHASH_INVALID_LENGTH` for a bad
/// buffer or a NULL `out`, `CHUNKHASH_UNAVAILABLE_ALGORITHM` from a build
/// without the `s3` feature (never the default build).
///
/// # Safety
///
/// `data` must be readable for `len` bytes (any pointer when `len` is 0),
/// and `out` writable.
#[no_mangle]
pub unsafe extern "C" fn chunkhash_s3_checksums(
    data: *const u8,
    len: usize,
    part_size: u64,
    out: *mut chunkhash_s3_sums,
) -> crate::chunkhash_status {
    guard(|| {
        // SAFETY: the caller promised `data` is readable for `len` bytes.
        let input = unsafe { Input::new(data, len) }?;
        // SAFETY: the caller promised `out` is writable.
        let out = unsafe { OutParam::new(out) }?;
        #[cfg(not(feature = "s3"))]
        {
            let _ = (input, part_size, out);
            Err(crate::chunkhash_status::CHUNKHASH_UNAVAILABLE_ALGORITHM)
        }
        #[cfg(feature = "s3")]
        {
            let mut hasher = match part_size {
                0 => S3Hasher::new(&S3Checksum::ALL),
                size => S3Hasher::with_part_size(&S3Checksum::ALL, size).expect("not 0"),
            };
            hasher.update(input.bytes());
            let sums = hasher.finalize();
            let value = |kind| c_string(sums.get(kind).expect("every kind was asked for"));
            out.set(chunkhash_s3_sums {
                crc32: value(S3Checksum::Crc32),
                crc32c: value(S3Checksum::Crc32c),
                crc64nvme: value(S3Checksum::Crc64Nvme),
                sha1: value(S3Checksum::Sha1),
                sha256: value(S3Checksum::Sha256),
                sha512: value(S3Checksum::Sha512),
                md5: value(S3Checksum::Md5),
                xxhash64: value(S3Checksum::Xxhash64),
                xxhash3: value(S3Checksum::Xxhash3),
                xxhash128: value(S3Checksum::Xxhash128),
                etag: c_string(sums.etag()),
                parts: sums.parts(),
            });
            Ok(())
        }
    })
}

#[cfg(all(test, feature = "s3"))]
mod tests {
    use super::*;
    use crate::chunkhash_status::*;
    use core::ffi::CStr;

    fn text(field: &[c_char]) -> &str {
        // SAFETY: `c_string` always leaves a NUL in the field.
        unsafe { CStr::from_ptr(field.as_ptr()) }.to_str().unwrap()
    }

    #[test]
    fn values_and_statuses() {
        let mut out = core::mem::MaybeUninit::<chunkhash_s3_sums>::zeroed();
        // SAFETY: a local buffer and a local output.
        let status = unsafe { chunkhash_s3_checksums(b"abc".as_ptr(), 3, 2, out.as_mut_ptr()) };
        assert_eq!(status, CHUNKHASH_OK);
        // SAFETY: written by the successful call.
        let out = unsafe { out.assume_init() };
        let mut hasher = S3Hasher::with_part_size(&S3Checksum::ALL, 2).unwrap();
        hasher.update(b"abc");
        let sums = hasher.finalize();
        assert_eq!(text(&out.crc64nvme), sums.get(S3Checksum::Crc64Nvme).unwrap());
        assert_eq!(text(&out.xxhash128), sums.get(S3Checksum::Xxhash128).unwrap());
        assert_eq!(text(&out.etag), sums.etag());
        assert_eq!(out.parts, 2);
        // SAFETY: NULL pointers are reported, never read or written.
        unsafe {
            assert_eq!(chunkhash_s3_checksums(core::ptr::null(), 1, 0, &mut { out }), CHUNKHASH_NULL_POINTER);
            assert_eq!(chunkhash_s3_checksums(b"abc".as_ptr(), 3, 0, core::ptr::null_mut()), CHUNKHASH_NULL_POINTER);
        }
    }
}

#[cfg(all(test, not(feature = "s3")))]
mod tests_without_s3 {
    use super::*;
    use crate::chunkhash_status::*;

    #[test]
    fn unavailable_without_the_feature() {
        let mut out = core::mem::MaybeUninit::<chunkhash_s3_sums>::zeroed();
        // SAFETY: a local buffer and a local output.
        let status = unsafe { chunkhash_s3_checksums(b"abc".as_ptr(), 3, 0, out.as_mut_ptr()) };
        assert_eq!(status, CHUNKHASH_UNAVAILABLE_ALGORITHM);
    }
}
