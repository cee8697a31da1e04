//! SHA-512 (FIPS 180-4) of many messages at once: 8 lanes on AVX-512,
//! 4 on AVX2, else one message at a time through `sha2`. For batches of
//! chunks under SHA-512 or SHA-512/160 addresses (the first 20 bytes).

use crate::platform::multi_buffer::MbPlatform;

/// The SHA-512 of each message into the same place of `out`, on the best
/// kernel this machine runs.
///
/// # Panics
///
/// If `out` and `messages` differ in length.
pub(crate) fn sha512_many(messages: &[&[u8]], out: &mut [[u8; 64]]) {
    MbPlatform::detect().sha512_many(messages, out);
}
