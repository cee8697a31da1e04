//! SHA-1 (FIPS 180-4 section 6.1) in 16 lanes of AVX-512F and BW: sixteen
//! messages at once, a register per 32-bit word holding that word of each
//! message. Each round function and each three-way exclusive or of the
//! schedule is one `vpternlogd`, each rotation one `vprold`.

#[cfg(not(any(target_arch = "x86", target_arch = "x86_64")))]
compile_error!("the AVX-512 SHA-1 kernel is for x86 only");

#[cfg(target_arch = "x86")]
use core::arch::x86::*;
#[cfg(target_arch = "x86_64")]
use core::arch::x86_64::*;

use super::mb_spec::{SHA1_BLOCK_LEN, SHA1_K};
use super::mb_x86::{load_u32_rows16, store_u32_rows16, words_u32_16};

pub(super) const LANES: usize = 16;

/// The five chaining words a to e of every lane: `state[word][lane]`.
pub(super) type State = [[u32; LANES]; 5];

// FIPS 180-4 section 4.1.1's functions as `vpternlogd` truth tables
// (bit `x << 2 | y << 1 | z` of the immediate is f(x, y, z)).
/// Ch, rounds 0-19: `x ? y : z`.
const CH: i32 = 0xca;
/// Parity, rounds 20-39 and 60-79: `x ^ y ^ z`.
const PARITY: i32 = 0x96;
/// Maj, rounds 40-59: the majority of the three bits.
const MAJ: i32 = 0xe8;

/// Twenty rounds from round `first` (a multiple of 20), with the
/// function `FUNCTION`, extending the schedule in its ring of 16 (W_t
/// replaces W_(t-16), section 6.1.2 step 1) from round 16 on.
#[target_feature(enable = "avx512f")]
#[inline]
fn rounds<const FUNCTION: i32>(s: &mut [__m512i; 5], w: &mut [__m512i; 16], first: usize) {
    let k = _mm512_set1_epi32(SHA1_K[first / 20] as i32);
    for t in first..first + 20 {
        let j = t % 16;
        if t >= 16 {
            let mixed = _mm512_ternarylogic_epi32::<PARITY>(w[(j + 13) % 16], w[(j + 8) % 16], w[(j + 2) % 16]);
            w[j] = _mm512_rol_epi32::<1>(_mm512_xor_si512(mixed, w[j]));
        }
        let [a, b, c, d, e] = *s;
        let f = _mm512_ternarylogic_epi32::<FUNCTION>(b, c, d);
        let sum = _mm512_add_epi32(_mm512_add_epi32(_mm512_rol_epi32::<5>(a), f), _mm512_add_epi32(e, k));
        *s = [_mm512_add_epi32(sum, w[j]), a, _mm512_rol_epi32::<30>(b), c, d];
    }
}

/// Compresses `count` blocks of each lane's `blocks` into `state`.
///
/// Panics if a lane has fewer than `count` blocks.
#[target_feature(enable = "avx512f,avx512bw")]
pub(super) fn compress(state: &mut State, blocks: &[&[u8]; LANES], count: usize) {
    for lane in blocks {
        assert!(lane.len() >= count * SHA1_BLOCK_LEN, "a lane has fewer blocks than asked for");
    }
    let mut s = [_mm512_setzero_si512(); 5];
    for (register, row) in s.iter_mut().zip(state.iter()) {
        *register = load_u32_rows16(row);
    }
    for n in 0..count {
        let mut w = words_u32_16(blocks, n, true);
        let before = s;
        rounds::<CH>(&mut s, &mut w, 0);
        rounds::<PARITY>(&mut s, &mut w, 20);
        rounds::<MAJ>(&mut s, &mut w, 40);
        rounds::<PARITY>(&mut s, &mut w, 60);
        for (word, old) in s.iter_mut().zip(before) {
            *word = _mm512_add_epi32(*word, old);
        }
    }
    for (row, register) in state.iter_mut().zip(s) {
        store_u32_rows16(row, register);
    }
}
