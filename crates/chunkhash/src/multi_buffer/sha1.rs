//! SHA-1 (FIPS 180-4) of many messages at once: 16 lanes on AVX-512, 8
//! on AVX2, else one message at a time through `sha1`. For compatibility
//! only (S3's SHA1 checksums of multipart parts, sha1sum files): SHA-1 is
//! broken against collisions.

use crate::platform::multi_buffer::MbPlatform;

/// The SHA-1 of each message into the same place of `out`, on the best
/// kernel this machine runs.
///
/// # Panics
///
/// If `out` and `messages` differ in length.
pub(crate) fn sha1_many(messages: &[&[u8]], out: &mut [[u8; 20]]) {
    MbPlatform::detect().sha1_many(messages, out);
}
