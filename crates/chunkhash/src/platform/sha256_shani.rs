//! SHA-256 with the SHA extensions (SHA-NI), two messages interleaved: the
//! instructions' latency leaves the pipeline idle between the dependent
//! rounds of one message, and a second, independent message fills it
//! (FIPS 180-4, 6.2.2; the instruction forms are Intel's SDM's).
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
    let abcd = _mm_set_epi32(state[3] as i32, state[2] as i32, state[1] as i32, state[0] as i32);
    let efgh = _mm_set_epi32(state[7] as i32, state[6] as i32, state[5] as i32, state[4] as i32);
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
    let words = [
        _mm_extract_epi32::<0>(abcd),
        _mm_extract_epi32::<1>(abcd),
        _mm_extract_epi32::<2>(abcd),
        _mm_extract_epi32::<3>(abcd),
        _mm_extract_epi32::<0>(efgh),
        _mm_extract_epi32::<1>(efgh),
        _mm_extract_epi32::<2>(efgh),
        _mm_extract_epi32::<3>(efgh),
    ];
    for (word, value) in state.iter_mut().zip(words) {
        *word = value as u32;
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

/// Four rounds of one message: `current` holds W(t..t + 4) (computed
/// here from the three vectors after it, for t >= 16).
macro_rules! four_rounds {
    ($abef:ident, $cdgh:ident, $group:expr, $current:expr, $next:expr, $after:expr, $last:expr) => {
        if $group >= 4 {
            // W(t - 16) + σ0(W(t - 15)), + W(t - 7), then + σ1(W(t - 2)).
            let partial = _mm_add_epi32(_mm_sha256msg1_epu32($current, $next), _mm_alignr_epi8::<4>($last, $after));
            $current = _mm_sha256msg2_epu32(partial, $last);
        }
        let k = &K[4 * $group..4 * $group + 4];
        let wk = _mm_add_epi32($current, _mm_set_epi32(k[3] as i32, k[2] as i32, k[1] as i32, k[0] as i32));
        $cdgh = _mm_sha256rnds2_epu32($cdgh, $abef, wk);
        $abef = _mm_sha256rnds2_epu32($abef, $cdgh, _mm_shuffle_epi32::<0x0E>(wk));
    };
}

/// Sixteen rounds of two messages, side by side, on the message vectors
/// `w0` (`[W(t..t+4) of message 0, of message 1]`) to `w3`.
macro_rules! sixteen_rounds {
    ($abef0:ident, $cdgh0:ident, $abef1:ident, $cdgh1:ident, $w:ident, $group:expr) => {
        four_rounds!($abef0, $cdgh0, $group, $w[0][0], $w[1][0], $w[2][0], $w[3][0]);
        four_rounds!($abef1, $cdgh1, $group, $w[0][1], $w[1][1], $w[2][1], $w[3][1]);
        four_rounds!($abef0, $cdgh0, $group + 1, $w[1][0], $w[2][0], $w[3][0], $w[0][0]);
        four_rounds!($abef1, $cdgh1, $group + 1, $w[1][1], $w[2][1], $w[3][1], $w[0][1]);
        four_rounds!($abef0, $cdgh0, $group + 2, $w[2][0], $w[3][0], $w[0][0], $w[1][0]);
        four_rounds!($abef1, $cdgh1, $group + 2, $w[2][1], $w[3][1], $w[0][1], $w[1][1]);
        four_rounds!($abef0, $cdgh0, $group + 3, $w[3][0], $w[0][0], $w[1][0], $w[2][0]);
        four_rounds!($abef1, $cdgh1, $group + 3, $w[3][1], $w[0][1], $w[1][1], $w[2][1]);
    };
}

/// Compresses `blocks[0]` into `state[0]` and `blocks[1]` into `state[1]`,
/// the two messages' rounds interleaved.
///
/// # Safety
///
/// The CPU has the SHA extensions and SSE4.1.
///
/// # Panics
///
/// If the two runs of blocks differ in length.
#[target_feature(enable = "sha,sse4.1")]
pub(crate) unsafe fn compress2(state: &mut [[u32; 8]; 2], blocks: [&[[u8; BLOCK_LEN]]; 2]) {
    assert_eq!(blocks[0].len(), blocks[1].len(), "two runs of blocks of one length");
    let (mut abef0, mut cdgh0) = to_rounds_layout(&state[0]);
    let (mut abef1, mut cdgh1) = to_rounds_layout(&state[1]);
    for (block0, block1) in blocks[0].iter().zip(blocks[1]) {
        let (saved_abef0, saved_cdgh0, saved_abef1, saved_cdgh1) = (abef0, cdgh0, abef1, cdgh1);
        let (words0, words1) = (load_block(block0), load_block(block1));
        // w[i][m]: W(4i..4i + 4) of message m, then of later groups in place.
        let mut w = [[words0[0], words1[0]], [words0[1], words1[1]], [words0[2], words1[2]], [words0[3], words1[3]]];
        sixteen_rounds!(abef0, cdgh0, abef1, cdgh1, w, 0);
        sixteen_rounds!(abef0, cdgh0, abef1, cdgh1, w, 4);
        sixteen_rounds!(abef0, cdgh0, abef1, cdgh1, w, 8);
        sixteen_rounds!(abef0, cdgh0, abef1, cdgh1, w, 12);
        abef0 = _mm_add_epi32(abef0, saved_abef0);
        cdgh0 = _mm_add_epi32(cdgh0, saved_cdgh0);
        abef1 = _mm_add_epi32(abef1, saved_abef1);
        cdgh1 = _mm_add_epi32(cdgh1, saved_cdgh1);
    }
    let [state0, state1] = state;
    from_rounds_layout(abef0, cdgh0, state0);
    from_rounds_layout(abef1, cdgh1, state1);
}
