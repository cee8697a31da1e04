//! The XXH3 long-input kernel for wasm32 SIMD128, a build-time choice
//! (`-C target-feature=+simd128`; wasm has no run-time detection): the
//! eight accumulators in four 128-bit registers. The 32 x 32 -> 64-bit
//! products come from `u64x2_extmul_low_u32x4` after a shuffle that puts
//! the low halves of both words in one vector and the high halves in
//! another. The data of a run of stripes is summed unswapped and swapped
//! once per run, as in `avx512.rs` (which says why).

#[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
compile_error!("the SIMD128 kernel needs wasm32 with the simd128 target feature");

use core::arch::wasm32::*;

use super::stripes::{self, Accumulators, DEFAULT_BLOCK_LEN, DEFAULT_SECRET_LEN, PRIME32_1, STRIPE_LEN};

type Vectors = [v128; 4];

/// Loads 64 bytes as four vectors.
#[target_feature(enable = "simd128")]
#[inline]
fn load(bytes: &[u8; STRIPE_LEN]) -> Vectors {
    // SAFETY: each load reads 16 of the 64 bytes `bytes` borrows, at any
    // alignment.
    core::array::from_fn(|i| unsafe { v128_load(bytes.as_ptr().add(16 * i).cast()) })
}

#[target_feature(enable = "simd128")]
#[inline]
fn load_acc(acc: &Accumulators) -> Vectors {
    // SAFETY: each load reads two of the eight accumulators.
    core::array::from_fn(|i| unsafe { v128_load(acc.as_ptr().add(2 * i).cast()) })
}

#[target_feature(enable = "simd128")]
#[inline]
fn store_acc(acc: &mut Accumulators, value: Vectors) {
    for (i, vector) in value.into_iter().enumerate() {
        // SAFETY: writes two of the eight accumulators.
        unsafe { v128_store(acc.as_mut_ptr().add(2 * i).cast(), vector) }
    }
}

/// Accumulates `stripes`, stripe `i` with the secret from byte `8 * i`.
#[target_feature(enable = "simd128")]
#[inline]
fn accumulate(acc: &mut Vectors, stripes: &[u8], secret: &[u8]) {
    let mut products = *acc;
    let mut data_sum = [u64x2_splat(0); 4];
    for (index, stripe) in stripes.chunks_exact(STRIPE_LEN).enumerate() {
        let data = load(stripe.try_into().unwrap());
        let key = load(stripes::stripe_key(secret, index));
        for quarter in 0..4 {
            let mixed = v128_xor(data[quarter], key[quarter]);
            let low = i32x4_shuffle::<0, 2, 0, 2>(mixed, mixed);
            let high = i32x4_shuffle::<1, 3, 1, 3>(mixed, mixed);
            products[quarter] = i64x2_add(products[quarter], u64x2_extmul_low_u32x4(low, high));
            data_sum[quarter] = i64x2_add(data_sum[quarter], data[quarter]);
        }
    }
    for quarter in 0..4 {
        let swapped = i64x2_shuffle::<1, 0>(data_sum[quarter], data_sum[quarter]);
        acc[quarter] = i64x2_add(products[quarter], swapped);
    }
}

#[target_feature(enable = "simd128")]
#[inline]
fn scramble(acc: &mut Vectors, key: &[u8; STRIPE_LEN]) {
    let key = load(key);
    let prime = u64x2_splat(u64::from(PRIME32_1));
    for quarter in 0..4 {
        let value = acc[quarter];
        let mixed = v128_xor(v128_xor(value, u64x2_shr(value, 47)), key[quarter]);
        acc[quarter] = i64x2_mul(mixed, prime);
    }
}

/// A whole 16-stripe block of a default-length secret: the same loop, with
/// sizes the compiler knows.
#[target_feature(enable = "simd128")]
#[inline]
fn accumulate_block(acc: &mut Vectors, block: &[u8; DEFAULT_BLOCK_LEN], secret: &[u8; DEFAULT_SECRET_LEN]) {
    accumulate(acc, block, secret);
}

stripes::entry_points!("simd128");
