//! SHA-1 (FIPS 180-4 section 6.1) in 8 lanes of AVX2: eight messages at
//! once, a register per 32-bit word holding that word of each message.
//! A rotation is two shifts and an or.

#[cfg(not(any(target_arch = "x86", target_arch = "x86_64")))]
compile_error!("the AVX2 SHA-1 kernel is for x86 only");

#[cfg(target_arch = "x86")]
use core::arch::x86::*;
#[cfg(target_arch = "x86_64")]
use core::arch::x86_64::*;

use super::mb_spec::{SHA1_BLOCK_LEN, SHA1_K};
use super::mb_x86::{load_u32_rows8, store_u32_rows8, words_u32_8};

pub(super) const LANES: usize = 8;

/// The five chaining words a to e of every lane: `state[word][lane]`.
pub(super) type State = [[u32; LANES]; 5];

/// Rotates each word left by `N`; `BACK` is `32 - N` (a const generic
/// cannot be computed from another).
#[target_feature(enable = "avx2")]
#[inline]
fn rol<const N: i32, const BACK: i32>(x: __m256i) -> __m256i {
    debug_assert_eq!(N + BACK, 32);
    _mm256_or_si256(_mm256_slli_epi32::<N>(x), _mm256_srli_epi32::<BACK>(x))
}

/// FIPS 180-4 section 4.1.1's function for rounds `20 * GROUP` to
/// `20 * GROUP + 19`: Ch as `z ^ (x & (y ^ z))`, Parity, Maj as
/// `(x & y) | (z & (x | y))`, Parity.
#[target_feature(enable = "avx2")]
#[inline]
fn function<const GROUP: usize>(x: __m256i, y: __m256i, z: __m256i) -> __m256i {
    match GROUP {
        0 => _mm256_xor_si256(z, _mm256_and_si256(x, _mm256_xor_si256(y, z))),
        2 => _mm256_or_si256(_mm256_and_si256(x, y), _mm256_and_si256(z, _mm256_or_si256(x, y))),
        _ => _mm256_xor_si256(_mm256_xor_si256(x, y), z),
    }
}

/// The twenty rounds of group `GROUP`, extending the schedule in its ring
/// of 16 (W_t replaces W_(t-16), section 6.1.2 step 1) from round 16 on.
#[target_feature(enable = "avx2")]
#[inline]
fn rounds<const GROUP: usize>(s: &mut [__m256i; 5], w: &mut [__m256i; 16]) {
    let k = _mm256_set1_epi32(SHA1_K[GROUP] as i32);
    for t in 20 * GROUP..20 * GROUP + 20 {
        let j = t % 16;
        if t >= 16 {
            let mixed = _mm256_xor_si256(
                _mm256_xor_si256(w[(j + 13) % 16], w[(j + 8) % 16]),
                _mm256_xor_si256(w[(j + 2) % 16], w[j]),
            );
            w[j] = rol::<1, 31>(mixed);
        }
        let [a, b, c, d, e] = *s;
        let f = function::<GROUP>(b, c, d);
        let sum = _mm256_add_epi32(_mm256_add_epi32(rol::<5, 27>(a), f), _mm256_add_epi32(e, k));
        *s = [_mm256_add_epi32(sum, w[j]), a, rol::<30, 2>(b), c, d];
    }
}

/// Compresses `count` blocks of each lane's `blocks` into `state`.
///
/// Panics if a lane has fewer than `count` blocks.
#[target_feature(enable = "avx2")]
pub(super) fn compress(state: &mut State, blocks: &[&[u8]; LANES], count: usize) {
    for lane in blocks {
        assert!(lane.len() >= count * SHA1_BLOCK_LEN, "a lane has fewer blocks than asked for");
    }
    let mut s = [_mm256_setzero_si256(); 5];
    for (register, row) in s.iter_mut().zip(state.iter()) {
        *register = load_u32_rows8(row);
    }
    for n in 0..count {
        let mut w = words_u32_8(blocks, n, true);
        let before = s;
        rounds::<0>(&mut s, &mut w);
        rounds::<1>(&mut s, &mut w);
        rounds::<2>(&mut s, &mut w);
        rounds::<3>(&mut s, &mut w);
        for (word, old) in s.iter_mut().zip(before) {
            *word = _mm256_add_epi32(*word, old);
        }
    }
    for (row, register) in state.iter_mut().zip(s) {
        store_u32_rows8(row, register);
    }
}
