//! MD5 (RFC 1321) in 16 lanes of AVX-512F: sixteen messages at once, a
//! register per 32-bit word holding that word of each message.
//!
//! MD5 is one serial chain per message, so a single message cannot use
//! SIMD; independent messages can. Each round function is one
//! `vpternlogd` and each rotation one `vprold`.

#[cfg(not(any(target_arch = "x86", target_arch = "x86_64")))]
compile_error!("the AVX-512 MD5 kernel is for x86 only");

#[cfg(target_arch = "x86")]
use core::arch::x86::*;
#[cfg(target_arch = "x86_64")]
use core::arch::x86_64::*;

use super::mb_spec::{md5_word_index, MD5_BLOCK_LEN, MD5_T};
use super::mb_x86::{load_u32_rows16, store_u32_rows16, words_u32_16};

pub(super) const LANES: usize = 16;

/// The four chaining words A, B, C, D of every lane: `state[word][lane]`.
pub(super) type State = [[u32; LANES]; 4];

// The round functions of RFC 1321 section 3.4 as `vpternlogd` truth
// tables: bit `x << 2 | y << 1 | z` of the immediate is f(x, y, z).
/// F: `x ? y : z`.
const F: i32 = 0xca;
/// G: `z ? x : y`.
const G: i32 = 0xe4;
/// H: `x ^ y ^ z`.
const H: i32 = 0x96;
/// I: `y ^ (x | !z)`.
const I: i32 = 0x39;

/// One step: `a = b + ((a + f(b, c, d) + word + t) <<< SHIFT)`.
#[target_feature(enable = "avx512f")]
#[inline]
fn step<const FUNCTION: i32, const SHIFT: i32>(
    a: __m512i,
    b: __m512i,
    c: __m512i,
    d: __m512i,
    word: __m512i,
    t: u32,
) -> __m512i {
    let f = _mm512_ternarylogic_epi32::<FUNCTION>(b, c, d);
    let sum = _mm512_add_epi32(_mm512_add_epi32(a, f), _mm512_add_epi32(word, _mm512_set1_epi32(t as i32)));
    _mm512_add_epi32(b, _mm512_rol_epi32::<SHIFT>(sum))
}

/// One round of 16 steps, with the round's function and four shifts.
#[target_feature(enable = "avx512f")]
#[inline]
fn round<const ROUND: usize, const FUNCTION: i32, const S0: i32, const S1: i32, const S2: i32, const S3: i32>(
    s: &mut [__m512i; 4],
    m: &[__m512i; 16],
) {
    let t = |i: usize| MD5_T[16 * ROUND + i];
    let w = |i: usize| m[md5_word_index(ROUND, i)];
    for i in (0..16).step_by(4) {
        let [a, b, c, d] = *s;
        let a = step::<FUNCTION, S0>(a, b, c, d, w(i), t(i));
        let d = step::<FUNCTION, S1>(d, a, b, c, w(i + 1), t(i + 1));
        let c = step::<FUNCTION, S2>(c, d, a, b, w(i + 2), t(i + 2));
        let b = step::<FUNCTION, S3>(b, c, d, a, w(i + 3), t(i + 3));
        *s = [a, b, c, d];
    }
}

/// Compresses `count` blocks of each lane's `blocks` into `state`.
///
/// Panics if a lane has fewer than `count` blocks.
#[target_feature(enable = "avx512f,avx512bw")]
pub(super) fn compress(state: &mut State, blocks: &[&[u8]; LANES], count: usize) {
    for lane in blocks {
        assert!(lane.len() >= count * MD5_BLOCK_LEN, "a lane has fewer blocks than asked for");
    }
    let mut s = [_mm512_setzero_si512(); 4];
    for (register, row) in s.iter_mut().zip(state.iter()) {
        *register = load_u32_rows16(row);
    }
    for n in 0..count {
        let m = words_u32_16(blocks, n, false);
        let before = s;
        // The shifts of RFC 1321 section 3.4, round by round.
        round::<0, F, 7, 12, 17, 22>(&mut s, &m);
        round::<1, G, 5, 9, 14, 20>(&mut s, &m);
        round::<2, H, 4, 11, 16, 23>(&mut s, &m);
        round::<3, I, 6, 10, 15, 21>(&mut s, &m);
        for (word, old) in s.iter_mut().zip(before) {
            *word = _mm512_add_epi32(*word, old);
        }
    }
    for (row, register) in state.iter_mut().zip(s) {
        store_u32_rows16(row, register);
    }
}
