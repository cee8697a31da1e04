//! The XXH3 long-input kernel for x86 SSE2 (part of every x86-64 CPU): the
//! eight accumulators in four 128-bit registers. The data of a run of
//! stripes is summed unswapped and swapped once per run, as in `avx512.rs`
//! (which says why).

#[cfg(not(any(target_arch = "x86", target_arch = "x86_64")))]
compile_error!("the SSE2 kernel is for x86 only");

#[cfg(target_arch = "x86")]
use core::arch::x86::*;
#[cfg(target_arch = "x86_64")]
use core::arch::x86_64::*;

use super::stripes::{self, Accumulators, DEFAULT_BLOCK_LEN, DEFAULT_SECRET_LEN, PRIME32_1, STRIPE_LEN};

type Vectors = [__m128i; 4];

/// Loads 64 bytes, unaligned, as four vectors.
#[target_feature(enable = "sse2")]
#[inline]
fn load(bytes: &[u8; STRIPE_LEN]) -> Vectors {
    let pointer = bytes.as_ptr().cast::<__m128i>();
    // SAFETY: each load reads 16 of the 64 bytes `bytes` borrows, at any
    // alignment.
    core::array::from_fn(|i| unsafe { _mm_loadu_si128(pointer.add(i)) })
}

#[target_feature(enable = "sse2")]
#[inline]
fn load_acc(acc: &Accumulators) -> Vectors {
    let pointer = acc.as_ptr().cast::<__m128i>();
    // SAFETY: each load reads 16 of the 64 bytes of the accumulators.
    core::array::from_fn(|i| unsafe { _mm_loadu_si128(pointer.add(i)) })
}

#[target_feature(enable = "sse2")]
#[inline]
fn store_acc(acc: &mut Accumulators, value: Vectors) {
    let pointer = acc.as_mut_ptr().cast::<__m128i>();
    for (i, vector) in value.into_iter().enumerate() {
        // SAFETY: writes 16 of the 64 bytes of the accumulators.
        unsafe { _mm_storeu_si128(pointer.add(i), vector) }
    }
}

/// Accumulates `stripes`, stripe `i` with the secret from byte `8 * i`.
#[target_feature(enable = "sse2")]
#[inline]
fn accumulate(acc: &mut Vectors, stripes: &[u8], secret: &[u8]) {
    let mut products = *acc;
    let mut data_sum = [_mm_setzero_si128(); 4];
    for (index, stripe) in stripes.chunks_exact(STRIPE_LEN).enumerate() {
        let data = load(stripe.try_into().unwrap());
        let key = load(stripes::stripe_key(secret, index));
        for quarter in 0..4 {
            let mixed = _mm_xor_si128(data[quarter], key[quarter]);
            let product = _mm_mul_epu32(mixed, _mm_srli_epi64::<32>(mixed));
            products[quarter] = _mm_add_epi64(products[quarter], product);
            data_sum[quarter] = _mm_add_epi64(data_sum[quarter], data[quarter]);
        }
    }
    for quarter in 0..4 {
        acc[quarter] = _mm_add_epi64(products[quarter], _mm_shuffle_epi32::<0b01_00_11_10>(data_sum[quarter]));
    }
}

#[target_feature(enable = "sse2")]
#[inline]
fn scramble(acc: &mut Vectors, key: &[u8; STRIPE_LEN]) {
    let key = load(key);
    let prime = _mm_set1_epi32(PRIME32_1 as i32);
    for quarter in 0..4 {
        let value = acc[quarter];
        let mixed = _mm_xor_si128(_mm_xor_si128(value, _mm_srli_epi64::<47>(value)), key[quarter]);
        let low = _mm_mul_epu32(mixed, prime);
        let high = _mm_mul_epu32(_mm_srli_epi64::<32>(mixed), prime);
        acc[quarter] = _mm_add_epi64(low, _mm_slli_epi64::<32>(high));
    }
}

/// A whole 16-stripe block of a default-length secret: the same loop, with
/// sizes the compiler knows.
#[target_feature(enable = "sse2")]
#[inline]
fn accumulate_block(acc: &mut Vectors, block: &[u8; DEFAULT_BLOCK_LEN], secret: &[u8; DEFAULT_SECRET_LEN]) {
    accumulate(acc, block, secret);
}

stripes::entry_points!("sse2");
