//! The XXH3 long-input kernel for x86 AVX-512F: the eight accumulators in
//! one 512-bit register.
//!
//! Per stripe the spec adds each 64-bit word of data to the neighbouring
//! accumulator (`acc[i ^ 1] += stripe[i]`). Here the data of a run of
//! stripes goes unswapped into a sum of its own and is swapped once at the
//! end of the run: additions modulo 2^64 commute, so the result is the
//! spec's, for one shuffle per run instead of one per stripe (a sixth of the
//! vector work of a stripe). The two sums are independent chains.

#[cfg(not(any(target_arch = "x86", target_arch = "x86_64")))]
compile_error!("the AVX-512 kernel is for x86 only");

#[cfg(target_arch = "x86")]
use core::arch::x86::*;
#[cfg(target_arch = "x86_64")]
use core::arch::x86_64::*;

use super::stripes::{self, Accumulators, DEFAULT_BLOCK_LEN, DEFAULT_SECRET_LEN, PRIME32_1, STRIPE_LEN};

/// Loads 64 bytes, unaligned.
#[target_feature(enable = "avx512f")]
#[inline]
fn loadu(bytes: &[u8; STRIPE_LEN]) -> __m512i {
    // SAFETY: reads the 64 bytes `bytes` borrows, at any alignment.
    unsafe { _mm512_loadu_si512(bytes.as_ptr().cast()) }
}

#[target_feature(enable = "avx512f")]
#[inline]
fn load_acc(acc: &Accumulators) -> __m512i {
    // SAFETY: reads the 64 bytes of the eight accumulators, at any alignment.
    unsafe { _mm512_loadu_si512(acc.as_ptr().cast()) }
}

#[target_feature(enable = "avx512f")]
#[inline]
fn store_acc(acc: &mut Accumulators, value: __m512i) {
    // SAFETY: writes the 64 bytes of the eight accumulators, at any alignment.
    unsafe { _mm512_storeu_si512(acc.as_mut_ptr().cast(), value) }
}

/// One stripe: the product of each word's halves into `products`, the
/// data itself into `data_sum` (swapped into place later, `swap_pairs`).
#[target_feature(enable = "avx512f")]
#[inline]
fn accumulate_one(products: &mut __m512i, data_sum: &mut __m512i, data: __m512i, key: __m512i) {
    let mixed = _mm512_xor_si512(data, key);
    // The low half of each word times its high half.
    let product = _mm512_mul_epu32(mixed, _mm512_srli_epi64::<32>(mixed));
    *products = _mm512_add_epi64(*products, product);
    *data_sum = _mm512_add_epi64(*data_sum, data);
}

/// Swaps the words of each pair: lane i's data belongs to lane i ^ 1.
#[target_feature(enable = "avx512f")]
#[inline]
fn swap_pairs(words: __m512i) -> __m512i {
    _mm512_shuffle_epi32::<0b01_00_11_10>(words)
}

/// Accumulates `stripes`, stripe `i` with the secret from byte `8 * i`.
#[target_feature(enable = "avx512f")]
#[inline]
fn accumulate(acc: &mut __m512i, stripes: &[u8], secret: &[u8]) {
    let mut products = *acc;
    let mut data_sum = _mm512_setzero_si512();
    for (index, stripe) in stripes.chunks_exact(STRIPE_LEN).enumerate() {
        let key = loadu(stripes::stripe_key(secret, index));
        accumulate_one(&mut products, &mut data_sum, loadu(stripe.try_into().unwrap()), key);
    }
    *acc = _mm512_add_epi64(products, swap_pairs(data_sum));
}

#[target_feature(enable = "avx512f")]
#[inline]
fn scramble(acc: &mut __m512i, key: &[u8; STRIPE_LEN]) {
    scramble_with(acc, loadu(key));
}

#[target_feature(enable = "avx512f")]
#[inline]
fn scramble_with(acc: &mut __m512i, key: __m512i) {
    // 0x96: the three-way exclusive or.
    let mixed = _mm512_ternarylogic_epi64::<0x96>(*acc, _mm512_srli_epi64::<47>(*acc), key);
    // A 64-bit by 32-bit multiplication from two 32 x 32 -> 64 ones.
    let prime = _mm512_set1_epi32(PRIME32_1 as i32);
    let low = _mm512_mul_epu32(mixed, prime);
    let high = _mm512_mul_epu32(_mm512_srli_epi64::<32>(mixed), prime);
    *acc = _mm512_add_epi64(low, _mm512_slli_epi64::<32>(high));
}

/// A whole 16-stripe block of a default-length secret (the default one, or
/// one derived from a seed). The 16 secret windows are loaded in the loop,
/// but the compiler hoists them out of the caller's loop over blocks into
/// registers (AVX-512 has 32), so a stripe costs one load instead of two.
#[target_feature(enable = "avx512f")]
#[inline]
fn accumulate_block(acc: &mut __m512i, block: &[u8; DEFAULT_BLOCK_LEN], secret: &[u8; DEFAULT_SECRET_LEN]) {
    accumulate(acc, block, secret);
}

stripes::entry_points!("avx512f");
