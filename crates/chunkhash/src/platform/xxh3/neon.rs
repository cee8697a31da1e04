//! The XXH3 long-input kernel for aarch64 NEON (part of every little-endian
//! aarch64 target, so there is nothing to detect): the eight accumulators in
//! four 128-bit registers. NEON multiplies 32-bit halves into 64 bits with
//! a narrowing step first: `vmovn` takes the low halves, `vshrn` the high
//! ones, and `vmlal` multiplies and adds. The data of a run of stripes is
//! summed unswapped and swapped once per run, as in `avx512.rs` (which says
//! why).

#[cfg(not(all(target_arch = "aarch64", target_endian = "little")))]
compile_error!("the NEON kernel is for little-endian aarch64 only");

use core::arch::aarch64::*;

use super::stripes::{self, Accumulators, DEFAULT_BLOCK_LEN, DEFAULT_SECRET_LEN, PRIME32_1, STRIPE_LEN};

type Vectors = [uint64x2_t; 4];

/// Loads 64 bytes as four vectors of two little-endian words.
#[target_feature(enable = "neon")]
#[inline]
fn load(bytes: &[u8; STRIPE_LEN]) -> Vectors {
    // SAFETY: each load reads 16 of the 64 bytes `bytes` borrows; a byte
    // load needs no alignment.
    core::array::from_fn(|i| unsafe { vreinterpretq_u64_u8(vld1q_u8(bytes.as_ptr().add(16 * i))) })
}

#[target_feature(enable = "neon")]
#[inline]
fn load_acc(acc: &Accumulators) -> Vectors {
    // SAFETY: each load reads two of the eight accumulators.
    core::array::from_fn(|i| unsafe { vld1q_u64(acc.as_ptr().add(2 * i)) })
}

#[target_feature(enable = "neon")]
#[inline]
fn store_acc(acc: &mut Accumulators, value: Vectors) {
    for (i, vector) in value.into_iter().enumerate() {
        // SAFETY: writes two of the eight accumulators.
        unsafe { vst1q_u64(acc.as_mut_ptr().add(2 * i), vector) }
    }
}

/// Accumulates `stripes`, stripe `i` with the secret from byte `8 * i`.
#[target_feature(enable = "neon")]
#[inline]
fn accumulate(acc: &mut Vectors, stripes: &[u8], secret: &[u8]) {
    let mut products = *acc;
    let mut data_sum = [vdupq_n_u64(0); 4];
    for (index, stripe) in stripes.chunks_exact(STRIPE_LEN).enumerate() {
        let data = load(stripe.try_into().unwrap());
        let key = load(stripes::stripe_key(secret, index));
        for quarter in 0..4 {
            let mixed = veorq_u64(data[quarter], key[quarter]);
            products[quarter] = vmlal_u32(products[quarter], vmovn_u64(mixed), vshrn_n_u64::<32>(mixed));
            data_sum[quarter] = vaddq_u64(data_sum[quarter], data[quarter]);
        }
    }
    for quarter in 0..4 {
        acc[quarter] = vaddq_u64(products[quarter], vextq_u64::<1>(data_sum[quarter], data_sum[quarter]));
    }
}

#[target_feature(enable = "neon")]
#[inline]
fn scramble(acc: &mut Vectors, key: &[u8; STRIPE_LEN]) {
    let key = load(key);
    for quarter in 0..4 {
        let value = acc[quarter];
        let mixed = veorq_u64(veorq_u64(value, vshrq_n_u64::<47>(value)), key[quarter]);
        // (high * prime) << 32 + low * prime: the product modulo 2^64.
        let high = vshlq_n_u64::<32>(vmull_n_u32(vshrn_n_u64::<32>(mixed), PRIME32_1));
        acc[quarter] = vmlal_n_u32(high, vmovn_u64(mixed), PRIME32_1);
    }
}

/// A whole 16-stripe block of a default-length secret: the same loop, with
/// sizes the compiler knows.
#[target_feature(enable = "neon")]
#[inline]
fn accumulate_block(acc: &mut Vectors, block: &[u8; DEFAULT_BLOCK_LEN], secret: &[u8; DEFAULT_SECRET_LEN]) {
    accumulate(acc, block, secret);
}

stripes::entry_points!("neon");
