//! SHA-512 (FIPS 180-4 section 6.4) in 8 lanes of AVX-512F and BW: eight
//! messages at once, a register per 64-bit word holding that word of each
//! message. Each sum of three rotations and each of Ch and Maj is one
//! `vpternlogq`, each rotation one `vprorq`; BW gives the byte shuffle that
//! reads the big-endian words.

#[cfg(not(any(target_arch = "x86", target_arch = "x86_64")))]
compile_error!("the AVX-512 SHA-512 kernel is for x86 only");

#[cfg(target_arch = "x86")]
use core::arch::x86::*;
#[cfg(target_arch = "x86_64")]
use core::arch::x86_64::*;

use super::mb_spec::{SHA512_BLOCK_LEN, SHA512_K};
use super::mb_x86::loadu512;

pub(super) const LANES: usize = 8;

/// The eight chaining words a to h of every lane: `state[word][lane]`.
pub(super) type State = [[u64; LANES]; 8];

/// `vpternlogq` truth tables (bit `x << 2 | y << 1 | z` is f(x, y, z)).
const XOR3: i32 = 0x96;
/// Ch: `x ? y : z`.
const CH: i32 = 0xca;
/// Maj: the majority of the three bits.
const MAJ: i32 = 0xe8;

#[target_feature(enable = "avx512f")]
#[inline]
fn load_row(row: &[u64; LANES]) -> __m512i {
    // SAFETY: reads the 64 bytes of `row`, at any alignment.
    unsafe { _mm512_loadu_si512(row.as_ptr().cast()) }
}

#[target_feature(enable = "avx512f")]
#[inline]
fn store_row(row: &mut [u64; LANES], value: __m512i) {
    // SAFETY: writes the 64 bytes of `row`, at any alignment.
    unsafe { _mm512_storeu_si512(row.as_mut_ptr().cast(), value) }
}

/// Reverses the bytes of each 64-bit word: SHA's words are big-endian.
#[target_feature(enable = "avx512f,avx512bw")]
#[inline]
fn swap_bytes(x: __m512i) -> __m512i {
    let order = _mm512_broadcast_i32x4(_mm_set_epi8(8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7));
    _mm512_shuffle_epi8(x, order)
}

/// Transposes 8 rows of 8 64-bit words: pairs of rows interleaved within
/// each 128-bit quarter, then the quarters transposed as a 4 x 4 matrix.
#[target_feature(enable = "avx512f")]
#[inline]
fn transpose_u64_8x8(rows: &mut [__m512i; 8]) {
    let mut t = [_mm512_setzero_si512(); 8];
    for i in 0..4 {
        t[2 * i] = _mm512_unpacklo_epi64(rows[2 * i], rows[2 * i + 1]);
        t[2 * i + 1] = _mm512_unpackhi_epi64(rows[2 * i], rows[2 * i + 1]);
    }
    // Quarter k of t[2i + j] holds word 2k + j of rows 2i and 2i + 1.
    for j in 0..2 {
        let low01 = _mm512_shuffle_i64x2::<0x44>(t[j], t[2 + j]);
        let high01 = _mm512_shuffle_i64x2::<0xee>(t[j], t[2 + j]);
        let low23 = _mm512_shuffle_i64x2::<0x44>(t[4 + j], t[6 + j]);
        let high23 = _mm512_shuffle_i64x2::<0xee>(t[4 + j], t[6 + j]);
        rows[j] = _mm512_shuffle_i64x2::<0x88>(low01, low23);
        rows[2 + j] = _mm512_shuffle_i64x2::<0xdd>(low01, low23);
        rows[4 + j] = _mm512_shuffle_i64x2::<0x88>(high01, high23);
        rows[6 + j] = _mm512_shuffle_i64x2::<0xdd>(high01, high23);
    }
}

/// The block's 16 words, word `w` of every lane in `w[w]`.
#[target_feature(enable = "avx512f,avx512bw")]
#[inline]
fn message_words(blocks: &[&[u8]; LANES], n: usize) -> [__m512i; 16] {
    let mut low = [_mm512_setzero_si512(); 8];
    let mut high = [_mm512_setzero_si512(); 8];
    for (lane, bytes) in blocks.iter().enumerate() {
        let block = &bytes[n * SHA512_BLOCK_LEN..(n + 1) * SHA512_BLOCK_LEN];
        low[lane] = swap_bytes(loadu512(block[..64].try_into().unwrap()));
        high[lane] = swap_bytes(loadu512(block[64..].try_into().unwrap()));
    }
    transpose_u64_8x8(&mut low);
    transpose_u64_8x8(&mut high);
    let mut w = [_mm512_setzero_si512(); 16];
    w[..8].copy_from_slice(&low);
    w[8..].copy_from_slice(&high);
    w
}

// FIPS 180-4 section 4.1.3's four functions, each three terms combined
// by exclusive or in one instruction.

#[target_feature(enable = "avx512f")]
#[inline]
fn big_sigma0(x: __m512i) -> __m512i {
    _mm512_ternarylogic_epi64::<XOR3>(_mm512_ror_epi64::<28>(x), _mm512_ror_epi64::<34>(x), _mm512_ror_epi64::<39>(x))
}

#[target_feature(enable = "avx512f")]
#[inline]
fn big_sigma1(x: __m512i) -> __m512i {
    _mm512_ternarylogic_epi64::<XOR3>(_mm512_ror_epi64::<14>(x), _mm512_ror_epi64::<18>(x), _mm512_ror_epi64::<41>(x))
}

#[target_feature(enable = "avx512f")]
#[inline]
fn small_sigma0(x: __m512i) -> __m512i {
    _mm512_ternarylogic_epi64::<XOR3>(_mm512_ror_epi64::<1>(x), _mm512_ror_epi64::<8>(x), _mm512_srli_epi64::<7>(x))
}

#[target_feature(enable = "avx512f")]
#[inline]
fn small_sigma1(x: __m512i) -> __m512i {
    _mm512_ternarylogic_epi64::<XOR3>(_mm512_ror_epi64::<19>(x), _mm512_ror_epi64::<61>(x), _mm512_srli_epi64::<6>(x))
}

/// One round (FIPS 180-4 section 6.4.2, step 3), `wk` being W_t + K_t.
#[target_feature(enable = "avx512f")]
#[inline]
fn round(s: &mut [__m512i; 8], wk: __m512i) {
    let [a, b, c, d, e, f, g, h] = *s;
    let ch = _mm512_ternarylogic_epi64::<CH>(e, f, g);
    let t1 = _mm512_add_epi64(_mm512_add_epi64(h, big_sigma1(e)), _mm512_add_epi64(ch, wk));
    let t2 = _mm512_add_epi64(big_sigma0(a), _mm512_ternarylogic_epi64::<MAJ>(a, b, c));
    *s = [_mm512_add_epi64(t1, t2), a, b, c, _mm512_add_epi64(d, t1), e, f, g];
}

/// Compresses `count` blocks of each lane's `blocks` into `state`.
///
/// Panics if a lane has fewer than `count` blocks.
#[target_feature(enable = "avx512f,avx512bw")]
pub(super) fn compress(state: &mut State, blocks: &[&[u8]; LANES], count: usize) {
    for lane in blocks {
        assert!(lane.len() >= count * SHA512_BLOCK_LEN, "a lane has fewer blocks than asked for");
    }
    let mut s = [_mm512_setzero_si512(); 8];
    for (register, row) in s.iter_mut().zip(state.iter()) {
        *register = load_row(row);
    }
    for n in 0..count {
        // The schedule in a ring of 16: W_t replaces W_(t-16) (section 6.4.2, step 1).
        let mut w = message_words(blocks, n);
        let before = s;
        for t in 0..16 {
            round(&mut s, _mm512_add_epi64(w[t], _mm512_set1_epi64(SHA512_K[t] as i64)));
        }
        for group in 1..5 {
            for j in 0..16 {
                let sum = _mm512_add_epi64(small_sigma1(w[(j + 14) % 16]), w[(j + 9) % 16]);
                w[j] = _mm512_add_epi64(_mm512_add_epi64(sum, small_sigma0(w[(j + 1) % 16])), w[j]);
                round(&mut s, _mm512_add_epi64(w[j], _mm512_set1_epi64(SHA512_K[16 * group + j] as i64)));
            }
        }
        for (word, old) in s.iter_mut().zip(before) {
            *word = _mm512_add_epi64(*word, old);
        }
    }
    for (row, register) in state.iter_mut().zip(s) {
        store_row(row, register);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transpose_moves_word_w_of_row_r_to_word_r_of_row_w() {
        if !(std::is_x86_feature_detected!("avx512f") && std::is_x86_feature_detected!("avx512bw")) {
            std::println!("AVX-512 missing: transpose not tested");
            return;
        }
        // SAFETY: the CPU has AVX-512F.
        unsafe { check() };
    }

    #[target_feature(enable = "avx512f")]
    fn check() {
        let mut rows = [_mm512_setzero_si512(); 8];
        for (r, row) in rows.iter_mut().enumerate() {
            *row = load_row(&core::array::from_fn(|w| (r * 100 + w) as u64));
        }
        transpose_u64_8x8(&mut rows);
        for (w, row) in rows.iter().enumerate() {
            let mut words = [0; 8];
            store_row(&mut words, *row);
            assert_eq!(words, core::array::from_fn(|r| (r * 100 + w) as u64));
        }
    }
}
