//! SHA-256 multi-buffer kernel, AVX2: eight independent messages, one per
//! 32-bit lane of the ymm registers, one block each per call (FIPS 180-4,
//! 6.2.2, computed in every lane at once). AVX2 has no rotate instruction:
//! each rotation is two shifts and an OR.

#[cfg(target_arch = "x86")]
use core::arch::x86::*;
#[cfg(target_arch = "x86_64")]
use core::arch::x86_64::*;

use super::sha256_portable::{lane_rounds, BLOCK_LEN};

/// Lanes per call.
pub(crate) const LANES: usize = 8;

#[target_feature(enable = "avx2")]
#[inline]
fn add(a: __m256i, b: __m256i) -> __m256i {
    _mm256_add_epi32(a, b)
}

/// A round constant in every lane.
#[target_feature(enable = "avx2")]
#[inline]
fn splat(k: u32) -> __m256i {
    _mm256_set1_epi32(k as i32)
}

#[target_feature(enable = "avx2")]
#[inline]
fn xor3(a: __m256i, b: __m256i, c: __m256i) -> __m256i {
    _mm256_xor_si256(_mm256_xor_si256(a, b), c)
}

/// Rotates each word right by `N` (`M` is `32 - N`: a const generic
/// argument cannot be computed from another).
#[target_feature(enable = "avx2")]
#[inline]
fn ror<const N: i32, const M: i32>(x: __m256i) -> __m256i {
    _mm256_or_si256(_mm256_srli_epi32::<N>(x), _mm256_slli_epi32::<M>(x))
}

#[target_feature(enable = "avx2")]
#[inline]
fn big_sigma0(a: __m256i) -> __m256i {
    xor3(ror::<2, 30>(a), ror::<13, 19>(a), ror::<22, 10>(a))
}

#[target_feature(enable = "avx2")]
#[inline]
fn big_sigma1(e: __m256i) -> __m256i {
    xor3(ror::<6, 26>(e), ror::<11, 21>(e), ror::<25, 7>(e))
}

#[target_feature(enable = "avx2")]
#[inline]
fn small_sigma0(x: __m256i) -> __m256i {
    xor3(ror::<7, 25>(x), ror::<18, 14>(x), _mm256_srli_epi32::<3>(x))
}

#[target_feature(enable = "avx2")]
#[inline]
fn small_sigma1(x: __m256i) -> __m256i {
    xor3(ror::<17, 15>(x), ror::<19, 13>(x), _mm256_srli_epi32::<10>(x))
}

/// Ch(e, f, g) = (e AND f) XOR (NOT e AND g), as ((f XOR g) AND e) XOR g.
#[target_feature(enable = "avx2")]
#[inline]
fn choose(e: __m256i, f: __m256i, g: __m256i) -> __m256i {
    _mm256_xor_si256(_mm256_and_si256(_mm256_xor_si256(f, g), e), g)
}

/// Maj(a, b, c), as (a AND b) XOR (c AND (a XOR b)).
#[target_feature(enable = "avx2")]
#[inline]
fn majority(a: __m256i, b: __m256i, c: __m256i) -> __m256i {
    _mm256_xor_si256(_mm256_and_si256(a, b), _mm256_and_si256(c, _mm256_xor_si256(a, b)))
}

/// Transposes eight rows of eight words: word `j` of row `i` becomes word
/// `i` of row `j`. Words, then pairs of words, are interleaved inside each
/// 128-bit half; then the halves are exchanged.
#[target_feature(enable = "avx2")]
#[inline]
fn transpose(rows: &[__m256i; 8]) -> [__m256i; 8] {
    let mut pairs = [_mm256_setzero_si256(); 8];
    for k in 0..4 {
        pairs[2 * k] = _mm256_unpacklo_epi32(rows[2 * k], rows[2 * k + 1]);
        pairs[2 * k + 1] = _mm256_unpackhi_epi32(rows[2 * k], rows[2 * k + 1]);
    }
    // quads[4q + m], in 128-bit half j: word 4j + m of rows 4q..4q + 4.
    let mut quads = [_mm256_setzero_si256(); 8];
    for q in 0..2 {
        quads[4 * q] = _mm256_unpacklo_epi64(pairs[4 * q], pairs[4 * q + 2]);
        quads[4 * q + 1] = _mm256_unpackhi_epi64(pairs[4 * q], pairs[4 * q + 2]);
        quads[4 * q + 2] = _mm256_unpacklo_epi64(pairs[4 * q + 1], pairs[4 * q + 3]);
        quads[4 * q + 3] = _mm256_unpackhi_epi64(pairs[4 * q + 1], pairs[4 * q + 3]);
    }
    let mut columns = [_mm256_setzero_si256(); 8];
    for m in 0..4 {
        columns[m] = _mm256_permute2x128_si256::<0x20>(quads[m], quads[4 + m]);
        columns[4 + m] = _mm256_permute2x128_si256::<0x31>(quads[m], quads[4 + m]);
    }
    columns
}

/// Compresses one block in each of the eight lanes: `state[i][l]` is word
/// `i` of lane `l`'s hash value, `blocks[l]` its block.
///
/// # Safety
///
/// The CPU has AVX2.
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn compress(state: &mut [[u32; LANES]; 8], blocks: &[&[u8; BLOCK_LEN]; LANES]) {
    // Big-endian words: reverse the bytes of each 32-bit word.
    let swap = _mm256_set_epi8(
        12, 13, 14, 15, 8, 9, 10, 11, 4, 5, 6, 7, 0, 1, 2, 3, 12, 13, 14, 15, 8, 9, 10, 11, 4, 5, 6, 7, 0, 1, 2, 3,
    );
    let mut low = [_mm256_setzero_si256(); LANES];
    let mut high = [_mm256_setzero_si256(); LANES];
    for ((low, high), block) in low.iter_mut().zip(high.iter_mut()).zip(blocks) {
        // SAFETY: `block` is a reference to 64 bytes: two unaligned 32-byte
        // loads, at 0 and 32.
        let (first, second) =
            unsafe { (_mm256_loadu_si256(block.as_ptr().cast()), _mm256_loadu_si256(block.as_ptr().add(32).cast())) };
        *low = _mm256_shuffle_epi8(first, swap);
        *high = _mm256_shuffle_epi8(second, swap);
    }
    let (first, second) = (transpose(&low), transpose(&high));
    let mut w = [_mm256_setzero_si256(); 16];
    w[..8].copy_from_slice(&first);
    w[8..].copy_from_slice(&second);
    let mut words = [_mm256_setzero_si256(); 8];
    for (vector, lanes) in words.iter_mut().zip(state.iter()) {
        // SAFETY: `lanes` is a reference to 8 words, 32 bytes.
        *vector = unsafe { _mm256_loadu_si256(lanes.as_ptr().cast()) };
    }
    let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut h] = words;
    lane_rounds!(w, a, b, c, d, e, f, g, h);
    for ((lanes, old), new) in state.iter_mut().zip(words).zip([a, b, c, d, e, f, g, h]) {
        // SAFETY: `lanes` is a mutable reference to 8 words, 32 bytes.
        unsafe { _mm256_storeu_si256(lanes.as_mut_ptr().cast(), add(old, new)) };
    }
}
