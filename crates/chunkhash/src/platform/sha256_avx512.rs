//! SHA-256 multi-buffer kernel, AVX-512F + AVX-512BW: sixteen independent
//! messages, one per 32-bit lane of the zmm registers, one block each per
//! call (FIPS 180-4, 6.2.2, computed in every lane at once).
//!
//! AVX-512 gives the rotations one instruction each (`vprord`) and the
//! three-input functions (Ch, Maj, the three-way XORs of the Σ and σ
//! functions) one `vpternlogd` each, which is most of its lead over AVX2.

#[cfg(target_arch = "x86")]
use core::arch::x86::*;
#[cfg(target_arch = "x86_64")]
use core::arch::x86_64::*;

use super::sha256_portable::{lane_rounds, BLOCK_LEN};

/// Lanes per call.
pub(crate) const LANES: usize = 16;

#[target_feature(enable = "avx512f")]
#[inline]
fn add(a: __m512i, b: __m512i) -> __m512i {
    _mm512_add_epi32(a, b)
}

/// A round constant in every lane.
#[target_feature(enable = "avx512f")]
#[inline]
fn splat(k: u32) -> __m512i {
    _mm512_set1_epi32(k as i32)
}

/// `vpternlogd` truth tables: bit `4a + 2b + c` of the table is the
/// function's value on bits a, b, c.
const XOR3: i32 = 0x96;
const CHOOSE: i32 = 0xCA;
const MAJORITY: i32 = 0xE8;

#[target_feature(enable = "avx512f")]
#[inline]
fn big_sigma0(a: __m512i) -> __m512i {
    _mm512_ternarylogic_epi32::<XOR3>(_mm512_ror_epi32::<2>(a), _mm512_ror_epi32::<13>(a), _mm512_ror_epi32::<22>(a))
}

#[target_feature(enable = "avx512f")]
#[inline]
fn big_sigma1(e: __m512i) -> __m512i {
    _mm512_ternarylogic_epi32::<XOR3>(_mm512_ror_epi32::<6>(e), _mm512_ror_epi32::<11>(e), _mm512_ror_epi32::<25>(e))
}

#[target_feature(enable = "avx512f")]
#[inline]
fn small_sigma0(x: __m512i) -> __m512i {
    _mm512_ternarylogic_epi32::<XOR3>(_mm512_ror_epi32::<7>(x), _mm512_ror_epi32::<18>(x), _mm512_srli_epi32::<3>(x))
}

#[target_feature(enable = "avx512f")]
#[inline]
fn small_sigma1(x: __m512i) -> __m512i {
    _mm512_ternarylogic_epi32::<XOR3>(_mm512_ror_epi32::<17>(x), _mm512_ror_epi32::<19>(x), _mm512_srli_epi32::<10>(x))
}

/// Ch(e, f, g): f where e has a 1, g where it has a 0.
#[target_feature(enable = "avx512f")]
#[inline]
fn choose(e: __m512i, f: __m512i, g: __m512i) -> __m512i {
    _mm512_ternarylogic_epi32::<CHOOSE>(e, f, g)
}

/// Maj(a, b, c): the bit most of the three have.
#[target_feature(enable = "avx512f")]
#[inline]
fn majority(a: __m512i, b: __m512i, c: __m512i) -> __m512i {
    _mm512_ternarylogic_epi32::<MAJORITY>(a, b, c)
}

/// Transposes sixteen rows of sixteen words: word `j` of row `i` becomes
/// word `i` of row `j`. Words, then pairs of words, are interleaved inside
/// each 128-bit block; then the 4x4 square of 128-bit blocks is transposed
/// with two rounds of block shuffles.
#[target_feature(enable = "avx512f")]
#[inline]
fn transpose(rows: &[__m512i; 16]) -> [__m512i; 16] {
    let mut pairs = [_mm512_setzero_si512(); 16];
    for k in 0..8 {
        pairs[2 * k] = _mm512_unpacklo_epi32(rows[2 * k], rows[2 * k + 1]);
        pairs[2 * k + 1] = _mm512_unpackhi_epi32(rows[2 * k], rows[2 * k + 1]);
    }
    // quads[4q + m], in 128-bit block j: word 4j + m of rows 4q..4q + 4.
    let mut quads = [_mm512_setzero_si512(); 16];
    for q in 0..4 {
        quads[4 * q] = _mm512_unpacklo_epi64(pairs[4 * q], pairs[4 * q + 2]);
        quads[4 * q + 1] = _mm512_unpackhi_epi64(pairs[4 * q], pairs[4 * q + 2]);
        quads[4 * q + 2] = _mm512_unpacklo_epi64(pairs[4 * q + 1], pairs[4 * q + 3]);
        quads[4 * q + 3] = _mm512_unpackhi_epi64(pairs[4 * q + 1], pairs[4 * q + 3]);
    }
    let mut columns = [_mm512_setzero_si512(); 16];
    for m in 0..4 {
        // Blocks 0, 1 of quads m and 4 + m, then blocks 2, 3; and the same for 8 + m, 12 + m.
        let low = _mm512_shuffle_i32x4::<0x44>(quads[m], quads[4 + m]);
        let high = _mm512_shuffle_i32x4::<0xEE>(quads[m], quads[4 + m]);
        let low2 = _mm512_shuffle_i32x4::<0x44>(quads[8 + m], quads[12 + m]);
        let high2 = _mm512_shuffle_i32x4::<0xEE>(quads[8 + m], quads[12 + m]);
        // Even blocks, then odd blocks: block j of each quad, in row order.
        columns[m] = _mm512_shuffle_i32x4::<0x88>(low, low2);
        columns[4 + m] = _mm512_shuffle_i32x4::<0xDD>(low, low2);
        columns[8 + m] = _mm512_shuffle_i32x4::<0x88>(high, high2);
        columns[12 + m] = _mm512_shuffle_i32x4::<0xDD>(high, high2);
    }
    columns
}

/// Compresses one block in each of the sixteen lanes: `state[i][l]` is
/// word `i` of lane `l`'s hash value, `blocks[l]` its block.
///
/// # Safety
///
/// The CPU has AVX-512F and AVX-512BW.
#[target_feature(enable = "avx512f,avx512bw")]
pub(crate) unsafe fn compress(state: &mut [[u32; LANES]; 8], blocks: &[&[u8; BLOCK_LEN]; LANES]) {
    // Big-endian words: reverse the bytes of each 32-bit word.
    let swap = _mm512_broadcast_i32x4(_mm_set_epi8(12, 13, 14, 15, 8, 9, 10, 11, 4, 5, 6, 7, 0, 1, 2, 3));
    let mut rows = [_mm512_setzero_si512(); LANES];
    for (row, block) in rows.iter_mut().zip(blocks) {
        // SAFETY: `block` is a reference to 64 bytes, the width of the
        // unaligned load.
        *row = _mm512_shuffle_epi8(unsafe { _mm512_loadu_si512(block.as_ptr().cast()) }, swap);
    }
    let mut w = transpose(&rows);
    let mut words = [_mm512_setzero_si512(); 8];
    for (vector, lanes) in words.iter_mut().zip(state.iter()) {
        // SAFETY: `lanes` is a reference to 16 words, 64 bytes.
        *vector = unsafe { _mm512_loadu_si512(lanes.as_ptr().cast()) };
    }
    let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut h] = words;
    lane_rounds!(w, a, b, c, d, e, f, g, h);
    for ((lanes, old), new) in state.iter_mut().zip(words).zip([a, b, c, d, e, f, g, h]) {
        // SAFETY: `lanes` is a mutable reference to 16 words, 64 bytes.
        unsafe { _mm512_storeu_si512(lanes.as_mut_ptr().cast(), add(old, new)) };
    }
}
