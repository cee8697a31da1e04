//! MD5 (RFC 1321) in 8 lanes of AVX2: eight messages at once, a register
//! per 32-bit word holding that word of each message. AVX2 has neither a
//! three-input logic instruction nor a rotation, so each round function
//! takes two or three instructions and each rotation three.

#[cfg(not(any(target_arch = "x86", target_arch = "x86_64")))]
compile_error!("the AVX2 MD5 kernel is for x86 only");

#[cfg(target_arch = "x86")]
use core::arch::x86::*;
#[cfg(target_arch = "x86_64")]
use core::arch::x86_64::*;

use super::mb_spec::{md5_word_index, MD5_BLOCK_LEN, MD5_T};
use super::mb_x86::{load_u32_rows8, store_u32_rows8, words_u32_8};

pub(super) const LANES: usize = 8;

/// The four chaining words A, B, C, D of every lane: `state[word][lane]`.
pub(super) type State = [[u32; LANES]; 4];

/// The round functions of RFC 1321 section 3.4, with fewer operations
/// than as written: F = `z ^ (x & (y ^ z))`, G = `y ^ (z & (x ^ y))`.
#[target_feature(enable = "avx2")]
#[inline]
fn function<const ROUND: usize>(x: __m256i, y: __m256i, z: __m256i) -> __m256i {
    match ROUND {
        0 => _mm256_xor_si256(z, _mm256_and_si256(x, _mm256_xor_si256(y, z))),
        1 => _mm256_xor_si256(y, _mm256_and_si256(z, _mm256_xor_si256(x, y))),
        2 => _mm256_xor_si256(_mm256_xor_si256(x, y), z),
        _ => _mm256_xor_si256(y, _mm256_or_si256(x, _mm256_xor_si256(z, _mm256_set1_epi32(-1)))),
    }
}

/// One step: `a = b + ((a + f(b, c, d) + word + t) <<< SHIFT)`; `BACK`
/// is `32 - SHIFT` (a const generic cannot be computed from another).
#[target_feature(enable = "avx2")]
#[inline]
fn step<const ROUND: usize, const SHIFT: i32, const BACK: i32>(
    a: __m256i,
    b: __m256i,
    c: __m256i,
    d: __m256i,
    word: __m256i,
    t: u32,
) -> __m256i {
    debug_assert_eq!(SHIFT + BACK, 32);
    let f = function::<ROUND>(b, c, d);
    let sum = _mm256_add_epi32(_mm256_add_epi32(a, f), _mm256_add_epi32(word, _mm256_set1_epi32(t as i32)));
    let rotated = _mm256_or_si256(_mm256_slli_epi32::<SHIFT>(sum), _mm256_srli_epi32::<BACK>(sum));
    _mm256_add_epi32(b, rotated)
}

/// One round of 16 steps, with the round's four shifts (and `32 - shift`).
#[allow(clippy::too_many_arguments)]
#[target_feature(enable = "avx2")]
#[inline]
fn round<
    const ROUND: usize,
    const S0: i32,
    const B0: i32,
    const S1: i32,
    const B1: i32,
    const S2: i32,
    const B2: i32,
    const S3: i32,
    const B3: i32,
>(
    s: &mut [__m256i; 4],
    m: &[__m256i; 16],
) {
    let t = |i: usize| MD5_T[16 * ROUND + i];
    let w = |i: usize| m[md5_word_index(ROUND, i)];
    for i in (0..16).step_by(4) {
        let [a, b, c, d] = *s;
        let a = step::<ROUND, S0, B0>(a, b, c, d, w(i), t(i));
        let d = step::<ROUND, S1, B1>(d, a, b, c, w(i + 1), t(i + 1));
        let c = step::<ROUND, S2, B2>(c, d, a, b, w(i + 2), t(i + 2));
        let b = step::<ROUND, S3, B3>(b, c, d, a, w(i + 3), t(i + 3));
        *s = [a, b, c, d];
    }
}

/// Compresses `count` blocks of each lane's `blocks` into `state`.
///
/// Panics if a lane has fewer than `count` blocks.
#[target_feature(enable = "avx2")]
pub(super) fn compress(state: &mut State, blocks: &[&[u8]; LANES], count: usize) {
    for lane in blocks {
        assert!(lane.len() >= count * MD5_BLOCK_LEN, "a lane has fewer blocks than asked for");
    }
    let mut s = [_mm256_setzero_si256(); 4];
    for (register, row) in s.iter_mut().zip(state.iter()) {
        *register = load_u32_rows8(row);
    }
    for n in 0..count {
        let m = words_u32_8(blocks, n, false);
        let before = s;
        // The shifts of RFC 1321 section 3.4, round by round.
        round::<0, 7, 25, 12, 20, 17, 15, 22, 10>(&mut s, &m);
        round::<1, 5, 27, 9, 23, 14, 18, 20, 12>(&mut s, &m);
        round::<2, 4, 28, 11, 21, 16, 16, 23, 9>(&mut s, &m);
        round::<3, 6, 26, 10, 22, 15, 17, 21, 11>(&mut s, &m);
        for (word, old) in s.iter_mut().zip(before) {
            *word = _mm256_add_epi32(*word, old);
        }
    }
    for (row, register) in state.iter_mut().zip(s) {
        store_u32_rows8(row, register);
    }
}
