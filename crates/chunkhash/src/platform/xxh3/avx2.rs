//! The XXH3 long-input kernel for x86 AVX2: the eight accumulators in two
//! 256-bit registers. The data of a run of stripes is summed unswapped and
//! swapped once per run, as in `avx512.rs` (which says why).

#[cfg(not(any(target_arch = "x86", target_arch = "x86_64")))]
compile_error!("the AVX2 kernel is for x86 only");

#[cfg(target_arch = "x86")]
use core::arch::x86::*;
#[cfg(target_arch = "x86_64")]
use core::arch::x86_64::*;

use super::stripes::{self, Accumulators, DEFAULT_BLOCK_LEN, DEFAULT_SECRET_LEN, PRIME32_1, STRIPE_LEN};

type Vectors = [__m256i; 2];

/// Loads 64 bytes, unaligned, as two vectors.
#[target_feature(enable = "avx2")]
#[inline]
fn loadu(bytes: &[u8; STRIPE_LEN]) -> Vectors {
    let pointer = bytes.as_ptr().cast::<__m256i>();
    // SAFETY: each load reads 32 of the 64 bytes `bytes` borrows, at any
    // alignment.
    unsafe { [_mm256_loadu_si256(pointer), _mm256_loadu_si256(pointer.add(1))] }
}

#[target_feature(enable = "avx2")]
#[inline]
fn load_acc(acc: &Accumulators) -> Vectors {
    let pointer = acc.as_ptr().cast::<__m256i>();
    // SAFETY: each load reads 32 of the 64 bytes of the accumulators.
    unsafe { [_mm256_loadu_si256(pointer), _mm256_loadu_si256(pointer.add(1))] }
}

#[target_feature(enable = "avx2")]
#[inline]
fn store_acc(acc: &mut Accumulators, value: Vectors) {
    let pointer = acc.as_mut_ptr().cast::<__m256i>();
    // SAFETY: each store writes 32 of the 64 bytes of the accumulators.
    unsafe {
        _mm256_storeu_si256(pointer, value[0]);
        _mm256_storeu_si256(pointer.add(1), value[1]);
    }
}

/// Accumulates `stripes`, stripe `i` with the secret from byte `8 * i`.
#[target_feature(enable = "avx2")]
#[inline]
fn accumulate(acc: &mut Vectors, stripes: &[u8], secret: &[u8]) {
    let mut products = *acc;
    let mut data_sum = [_mm256_setzero_si256(); 2];
    for (index, stripe) in stripes.chunks_exact(STRIPE_LEN).enumerate() {
        let data = loadu(stripe.try_into().unwrap());
        let key = loadu(stripes::stripe_key(secret, index));
        for half in 0..2 {
            let mixed = _mm256_xor_si256(data[half], key[half]);
            let product = _mm256_mul_epu32(mixed, _mm256_srli_epi64::<32>(mixed));
            products[half] = _mm256_add_epi64(products[half], product);
            data_sum[half] = _mm256_add_epi64(data_sum[half], data[half]);
        }
    }
    for half in 0..2 {
        acc[half] = _mm256_add_epi64(products[half], _mm256_shuffle_epi32::<0b01_00_11_10>(data_sum[half]));
    }
}

#[target_feature(enable = "avx2")]
#[inline]
fn scramble(acc: &mut Vectors, key: &[u8; STRIPE_LEN]) {
    let key = loadu(key);
    let prime = _mm256_set1_epi32(PRIME32_1 as i32);
    for half in 0..2 {
        let value = acc[half];
        let mixed = _mm256_xor_si256(_mm256_xor_si256(value, _mm256_srli_epi64::<47>(value)), key[half]);
        let low = _mm256_mul_epu32(mixed, prime);
        let high = _mm256_mul_epu32(_mm256_srli_epi64::<32>(mixed), prime);
        acc[half] = _mm256_add_epi64(low, _mm256_slli_epi64::<32>(high));
    }
}

/// A whole 16-stripe block of a default-length secret: the same loop, with
/// sizes the compiler knows.
#[target_feature(enable = "avx2")]
#[inline]
fn accumulate_block(acc: &mut Vectors, block: &[u8; DEFAULT_BLOCK_LEN], secret: &[u8; DEFAULT_SECRET_LEN]) {
    accumulate(acc, block, secret);
}

stripes::entry_points!("avx2");
