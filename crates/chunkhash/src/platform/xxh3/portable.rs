//! The XXH3 long-input kernel in plain Rust: the spec's `accumulate` and
//! `round_scramble`, one 64-bit lane at a time. It runs everywhere (under
//! Miri too: no intrinsics) and is what the SIMD kernels are tested against.

use super::stripes::{self, Accumulators, PRIME32_1, STRIPE_LEN};

fn read_u64(bytes: &[u8], index: usize) -> u64 {
    u64::from_le_bytes(bytes[8 * index..8 * index + 8].try_into().unwrap())
}

/// Accumulates `stripes`, stripe `i` with the secret from byte `8 * i`.
#[inline]
fn accumulate(acc: &mut Accumulators, stripes: &[u8], secret: &[u8]) {
    for (index, stripe) in stripes.chunks_exact(STRIPE_LEN).enumerate() {
        let key = stripes::stripe_key(secret, index);
        for lane in 0..8 {
            let data = read_u64(stripe, lane);
            let mixed = data ^ read_u64(key, lane);
            acc[lane ^ 1] = acc[lane ^ 1].wrapping_add(data);
            acc[lane] = acc[lane].wrapping_add((mixed & 0xFFFF_FFFF) * (mixed >> 32));
        }
    }
}

fn scramble(acc: &mut Accumulators, key: &[u8; STRIPE_LEN]) {
    for (lane, value) in acc.iter_mut().enumerate() {
        let mixed = *value ^ (*value >> 47) ^ read_u64(key, lane);
        *value = mixed.wrapping_mul(u64::from(PRIME32_1));
    }
}

/// See `stripes::consume`.
pub(super) fn consume(acc: &mut Accumulators, input: &[u8], secret: &[u8], done: usize) -> usize {
    stripes::consume(acc, input, secret, done, accumulate, |a, b, k| accumulate(a, b, k), scramble)
}

/// See `stripes::hash_long`.
pub(super) fn hash_long(acc: &mut Accumulators, input: &[u8], secret: &[u8]) {
    stripes::hash_long(acc, input, secret, accumulate, |a, b, k| accumulate(a, b, k), scramble);
}

/// Accumulates the final stripe of an input (see `stripes::last_stripe_key`).
pub(super) fn accumulate_last(acc: &mut Accumulators, stripe: &[u8; STRIPE_LEN], secret: &[u8]) {
    accumulate(acc, stripe, stripes::last_stripe_key(secret));
}
