//! Loads and transposes the x86 multi-buffer kernels share: each lane's
//! block arrives as a row of words, and the kernels need a register per
//! word holding that word of every lane.

// The 32-bit transposes serve MD5 and SHA-1 (the `compat` feature) only.
#![cfg_attr(not(feature = "compat"), allow(dead_code))]

#[cfg(not(any(target_arch = "x86", target_arch = "x86_64")))]
compile_error!("the multi-buffer x86 helpers are for x86 only");

#[cfg(target_arch = "x86")]
use core::arch::x86::*;
#[cfg(target_arch = "x86_64")]
use core::arch::x86_64::*;

/// Loads 64 bytes, unaligned.
#[target_feature(enable = "avx512f")]
#[inline]
pub(super) fn loadu512(bytes: &[u8; 64]) -> __m512i {
    // SAFETY: reads the 64 bytes `bytes` borrows, at any alignment.
    unsafe { _mm512_loadu_si512(bytes.as_ptr().cast()) }
}

/// Loads 32 bytes, unaligned.
#[target_feature(enable = "avx2")]
#[inline]
pub(super) fn loadu256(bytes: &[u8; 32]) -> __m256i {
    // SAFETY: reads the 32 bytes `bytes` borrows, at any alignment.
    unsafe { _mm256_loadu_si256(bytes.as_ptr().cast()) }
}

/// Loads one row of 16 words per lane.
#[target_feature(enable = "avx512f")]
#[inline]
pub(super) fn load_u32_rows16(row: &[u32; 16]) -> __m512i {
    // SAFETY: reads the 64 bytes of `row`, at any alignment.
    unsafe { _mm512_loadu_si512(row.as_ptr().cast()) }
}

#[target_feature(enable = "avx512f")]
#[inline]
pub(super) fn store_u32_rows16(row: &mut [u32; 16], value: __m512i) {
    // SAFETY: writes the 64 bytes of `row`, at any alignment.
    unsafe { _mm512_storeu_si512(row.as_mut_ptr().cast(), value) }
}

#[target_feature(enable = "avx2")]
#[inline]
pub(super) fn load_u32_rows8(row: &[u32; 8]) -> __m256i {
    // SAFETY: reads the 32 bytes of `row`, at any alignment.
    unsafe { _mm256_loadu_si256(row.as_ptr().cast()) }
}

#[target_feature(enable = "avx2")]
#[inline]
pub(super) fn store_u32_rows8(row: &mut [u32; 8], value: __m256i) {
    // SAFETY: writes the 32 bytes of `row`, at any alignment.
    unsafe { _mm256_storeu_si256(row.as_mut_ptr().cast(), value) }
}

/// Block `index` of `blocks` (64 bytes; the caller checked the length).
#[inline(always)]
pub(super) fn block64(blocks: &[u8], index: usize) -> &[u8; 64] {
    blocks[index * 64..index * 64 + 64].try_into().unwrap()
}

/// Transposes 16 rows of 16 32-bit words: word `w` of row `r` becomes
/// word `r` of row `w`. Pairs of rows are interleaved by 32 and 64 bits
/// within each 128-bit quarter, then the quarters are transposed as a 4 x 4
/// matrix of their own (64 instructions for 256 words).
#[target_feature(enable = "avx512f")]
#[inline]
pub(super) fn transpose_u32_16x16(rows: &mut [__m512i; 16]) {
    let mut t = [_mm512_setzero_si512(); 16];
    for i in 0..8 {
        t[2 * i] = _mm512_unpacklo_epi32(rows[2 * i], rows[2 * i + 1]);
        t[2 * i + 1] = _mm512_unpackhi_epi32(rows[2 * i], rows[2 * i + 1]);
    }
    // Now quarter k of u[4g + j] holds word 4k + j of rows 4g to 4g + 3.
    let mut u = [_mm512_setzero_si512(); 16];
    for g in 0..4 {
        u[4 * g] = _mm512_unpacklo_epi64(t[4 * g], t[4 * g + 2]);
        u[4 * g + 1] = _mm512_unpackhi_epi64(t[4 * g], t[4 * g + 2]);
        u[4 * g + 2] = _mm512_unpacklo_epi64(t[4 * g + 1], t[4 * g + 3]);
        u[4 * g + 3] = _mm512_unpackhi_epi64(t[4 * g + 1], t[4 * g + 3]);
    }
    // Word 4k + j of every row: quarter k of u[j], u[4 + j], u[8 + j], u[12 + j].
    for j in 0..4 {
        let low01 = _mm512_shuffle_i32x4::<0x44>(u[j], u[4 + j]);
        let high01 = _mm512_shuffle_i32x4::<0xee>(u[j], u[4 + j]);
        let low23 = _mm512_shuffle_i32x4::<0x44>(u[8 + j], u[12 + j]);
        let high23 = _mm512_shuffle_i32x4::<0xee>(u[8 + j], u[12 + j]);
        rows[j] = _mm512_shuffle_i32x4::<0x88>(low01, low23);
        rows[4 + j] = _mm512_shuffle_i32x4::<0xdd>(low01, low23);
        rows[8 + j] = _mm512_shuffle_i32x4::<0x88>(high01, high23);
        rows[12 + j] = _mm512_shuffle_i32x4::<0xdd>(high01, high23);
    }
}

/// Transposes 8 rows of 8 32-bit words, as [`transpose_u32_16x16`] does
/// with two 128-bit halves per row (24 instructions for 64 words).
#[target_feature(enable = "avx2")]
#[inline]
pub(super) fn transpose_u32_8x8(rows: &mut [__m256i; 8]) {
    let mut t = [_mm256_setzero_si256(); 8];
    for i in 0..4 {
        t[2 * i] = _mm256_unpacklo_epi32(rows[2 * i], rows[2 * i + 1]);
        t[2 * i + 1] = _mm256_unpackhi_epi32(rows[2 * i], rows[2 * i + 1]);
    }
    let mut u = [_mm256_setzero_si256(); 8];
    for g in 0..2 {
        u[4 * g] = _mm256_unpacklo_epi64(t[4 * g], t[4 * g + 2]);
        u[4 * g + 1] = _mm256_unpackhi_epi64(t[4 * g], t[4 * g + 2]);
        u[4 * g + 2] = _mm256_unpacklo_epi64(t[4 * g + 1], t[4 * g + 3]);
        u[4 * g + 3] = _mm256_unpackhi_epi64(t[4 * g + 1], t[4 * g + 3]);
    }
    for j in 0..4 {
        rows[j] = _mm256_permute2x128_si256::<0x20>(u[j], u[4 + j]);
        rows[4 + j] = _mm256_permute2x128_si256::<0x31>(u[j], u[4 + j]);
    }
}

/// Block `n` of each of 16 lanes, word `w` of every lane in register
/// `w`; with `big_endian` (SHA's words) each word's bytes reversed first.
#[target_feature(enable = "avx512f,avx512bw")]
#[inline]
pub(super) fn words_u32_16(blocks: &[&[u8]; 16], n: usize, big_endian: bool) -> [__m512i; 16] {
    let order = _mm512_broadcast_i32x4(_mm_set_epi8(12, 13, 14, 15, 8, 9, 10, 11, 4, 5, 6, 7, 0, 1, 2, 3));
    let mut w = [_mm512_setzero_si512(); 16];
    for (row, lane) in w.iter_mut().zip(blocks) {
        let words = loadu512(block64(lane, n));
        *row = if big_endian { _mm512_shuffle_epi8(words, order) } else { words };
    }
    transpose_u32_16x16(&mut w);
    w
}

/// Block `n` of each of 8 lanes, word `w` of every lane in register `w`
/// (words 0-7 and 8-15 transposed apart); with `big_endian` (SHA's words)
/// each word's bytes reversed first.
#[target_feature(enable = "avx2")]
#[inline]
pub(super) fn words_u32_8(blocks: &[&[u8]; 8], n: usize, big_endian: bool) -> [__m256i; 16] {
    let order = _mm256_set_epi8(
        12, 13, 14, 15, 8, 9, 10, 11, 4, 5, 6, 7, 0, 1, 2, 3, 12, 13, 14, 15, 8, 9, 10, 11, 4, 5, 6, 7, 0, 1, 2, 3,
    );
    let load = |bytes: &[u8]| {
        let words = loadu256(bytes.try_into().unwrap());
        if big_endian {
            _mm256_shuffle_epi8(words, order)
        } else {
            words
        }
    };
    let mut low = [_mm256_setzero_si256(); 8];
    let mut high = [_mm256_setzero_si256(); 8];
    for (lane, bytes) in blocks.iter().enumerate() {
        let block = block64(bytes, n);
        low[lane] = load(&block[..32]);
        high[lane] = load(&block[32..]);
    }
    transpose_u32_8x8(&mut low);
    transpose_u32_8x8(&mut high);
    let mut w = [_mm256_setzero_si256(); 16];
    w[..8].copy_from_slice(&low);
    w[8..].copy_from_slice(&high);
    w
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transposes_move_word_w_of_row_r_to_word_r_of_row_w() {
        if std::is_x86_feature_detected!("avx512f") {
            // SAFETY: the CPU has AVX-512F.
            unsafe { check_16x16() };
        }
        if std::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU has AVX2.
            unsafe { check_8x8() };
        }
    }

    #[target_feature(enable = "avx512f")]
    fn check_16x16() {
        let mut rows = [_mm512_setzero_si512(); 16];
        for (r, row) in rows.iter_mut().enumerate() {
            let words: [u32; 16] = core::array::from_fn(|w| (r * 100 + w) as u32);
            *row = load_u32_rows16(&words);
        }
        transpose_u32_16x16(&mut rows);
        for (w, row) in rows.iter().enumerate() {
            let mut words = [0u32; 16];
            store_u32_rows16(&mut words, *row);
            assert_eq!(words, core::array::from_fn(|r| (r * 100 + w) as u32));
        }
    }

    #[target_feature(enable = "avx2")]
    fn check_8x8() {
        let mut rows = [_mm256_setzero_si256(); 8];
        for (r, row) in rows.iter_mut().enumerate() {
            let words: [u32; 8] = core::array::from_fn(|w| (r * 100 + w) as u32);
            *row = load_u32_rows8(&words);
        }
        transpose_u32_8x8(&mut rows);
        for (w, row) in rows.iter().enumerate() {
            let mut words = [0u32; 8];
            store_u32_rows8(&mut words, *row);
            assert_eq!(words, core::array::from_fn(|r| (r * 100 + w) as u32));
        }
    }
}
