//! SHA-256 with the SHA extensions (SHA-NI), several messages interleaved:
//! the instructions' latency leaves the pipeline idle between the dependent
//! rounds of one message, and independent messages fill it (FIPS 180-4,
//! 6.2.2; the instruction forms are Intel's SDM's).
//!
//! `sha256rnds2` keeps the working variables as two vectors, ABEF and CDGH
//! (A in the high word); the state is converted to that layout once per
//! call, so a call runs as many blocks as the two messages share.

#[cfg(target_arch = "x86")]
use core::arch::x86::*;
#[cfg(target_arch = "x86_64")]
use core::arch::x86_64::*;

use super::sha256_portable::{BLOCK_LEN, K};

/// `state` (a..h) as ABEF and CDGH.
#[target_feature(enable = "sha,sse4.1")]
#[inline]
fn to_rounds_layout(state: &[u32; 8]) -> (__m128i, __m128i) {
    // SAFETY: `state` is a reference to 8 words, 32 bytes: two unaligned
    // 16-byte loads, at 0 and 16.
    let (abcd, efgh) =
        unsafe { (_mm_loadu_si128(state.as_ptr().cast()), _mm_loadu_si128(state.as_ptr().add(4).cast())) };
    let badc = _mm_shuffle_epi32::<0xB1>(abcd);
    let hgfe = _mm_shuffle_epi32::<0x1B>(efgh);
    (_mm_alignr_epi8::<8>(badc, hgfe), _mm_blend_epi16::<0xF0>(hgfe, badc))
}

/// ABEF and CDGH back as a..h.
#[target_feature(enable = "sha,sse4.1")]
#[inline]
fn from_rounds_layout(abef: __m128i, cdgh: __m128i, state: &mut [u32; 8]) {
    let feba = _mm_shuffle_epi32::<0x1B>(abef);
    let dchg = _mm_shuffle_epi32::<0xB1>(cdgh);
    let abcd = _mm_blend_epi16::<0xF0>(feba, dchg);
    let efgh = _mm_alignr_epi8::<8>(dchg, feba);
    // SAFETY: `state` is a mutable reference to 8 words, 32 bytes: two
    // unaligned 16-byte stores, at 0 and 16.
    unsafe {
        _mm_storeu_si128(state.as_mut_ptr().cast(), abcd);
        _mm_storeu_si128(state.as_mut_ptr().add(4).cast(), efgh);
    }
}

/// The message words of one block, big-endian, four per vector.
#[target_feature(enable = "sha,sse4.1")]
#[inline]
fn load_block(block: &[u8; BLOCK_LEN]) -> [__m128i; 4] {
    let swap = _mm_set_epi64x(0x0c0d0e0f08090a0b, 0x0405060700010203);
    let mut words = [_mm_setzero_si128(); 4];
    for (i, vector) in words.iter_mut().enumerate() {
        // SAFETY: `block` is a reference to 64 bytes; this reads bytes
        // 16i..16i + 16 of them, unaligned.
        *vector = _mm_shuffle_epi8(unsafe { _mm_loadu_si128(block.as_ptr().add(16 * i).cast()) }, swap);
    }
    words
}

/// Four rounds of every message: `w[current][s]` holds W(t..t + 4) of
/// message `s` (computed here from the three vectors after it, for t >= 16).
macro_rules! four_rounds {
    ($abef:ident, $cdgh:ident, $w:ident, $group:expr, $current:literal, $next:literal, $after:literal, $last:literal) => {
        let k = &K[4 * $group..4 * $group + 4];
        let k = _mm_set_epi32(k[3] as i32, k[2] as i32, k[1] as i32, k[0] as i32);
        for s in 0..N {
            if $group >= 4 {
                // W(t - 16) + σ0(W(t - 15)), + W(t - 7), then + σ1(W(t - 2)).
                let partial = _mm_add_epi32(
                    _mm_sha256msg1_epu32($w[$current][s], $w[$next][s]),
                    _mm_alignr_epi8::<4>($w[$last][s], $w[$after][s]),
                );
                $w[$current][s] = _mm_sha256msg2_epu32(partial, $w[$last][s]);
            }
            let wk = _mm_add_epi32($w[$current][s], k);
            $cdgh[s] = _mm_sha256rnds2_epu32($cdgh[s], $abef[s], wk);
            $abef[s] = _mm_sha256rnds2_epu32($abef[s], $cdgh[s], _mm_shuffle_epi32::<0x0E>(wk));
        }
    };
}

/// Compresses `blocks[s]` into `state[s]` for each of the `N` messages,
/// their rounds interleaved.
///
/// # Safety
///
/// The CPU has the SHA extensions and SSE4.1.
///
/// # Panics
///
/// If the runs of blocks differ in length.
// Index loops: block `i` of every stream, and stream `s` of several arrays.
#[allow(clippy::needless_range_loop)]
#[target_feature(enable = "sha,sse4.1")]
pub(crate) unsafe fn compress<const N: usize>(state: &mut [[u32; 8]; N], blocks: [&[[u8; BLOCK_LEN]]; N]) {
    let len = blocks[0].len();
    assert!(blocks.iter().all(|run| run.len() == len), "runs of blocks of one length");
    let mut abef = [_mm_setzero_si128(); N];
    let mut cdgh = [_mm_setzero_si128(); N];
    for s in 0..N {
        (abef[s], cdgh[s]) = to_rounds_layout(&state[s]);
    }
    for i in 0..len {
        let (saved_abef, saved_cdgh) = (abef, cdgh);
        // w[j][s]: W(4j..4j + 4) of message s, then of later groups in place.
        let mut w = [[_mm_setzero_si128(); N]; 4];
        for s in 0..N {
            let words = load_block(&blocks[s][i]);
            for j in 0..4 {
                w[j][s] = words[j];
            }
        }
        for group in (0..16).step_by(4) {
            four_rounds!(abef, cdgh, w, group, 0, 1, 2, 3);
            four_rounds!(abef, cdgh, w, group + 1, 1, 2, 3, 0);
            four_rounds!(abef, cdgh, w, group + 2, 2, 3, 0, 1);
            four_rounds!(abef, cdgh, w, group + 3, 3, 0, 1, 2);
        }
        for s in 0..N {
            abef[s] = _mm_add_epi32(abef[s], saved_abef[s]);
            cdgh[s] = _mm_add_epi32(cdgh[s], saved_cdgh[s]);
        }
    }
    for s in 0..N {
        from_rounds_layout(abef[s], cdgh[s], &mut state[s]);
    }
}
