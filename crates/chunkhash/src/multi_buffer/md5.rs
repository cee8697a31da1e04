//! MD5 (RFC 1321) of many messages at once: 16 lanes on AVX-512, 8 on
//! AVX2, else one message at a time through `md-5`. For compatibility
//! only (S3 ETags hash every part of a multipart upload, md5sum files):
//! MD5 is broken against collisions.

use crate::platform::multi_buffer::MbPlatform;

/// The MD5 of each message into the same place of `out`, on the best
/// kernel this machine runs.
///
/// # Panics
///
/// If `out` and `messages` differ in length.
pub(crate) fn md5_many(messages: &[&[u8]], out: &mut [[u8; 16]]) {
    MbPlatform::detect().md5_many(messages, out);
}
