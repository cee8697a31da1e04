//! SSE4.1 kernels: 4 lanes of 32-bit words, and the single-block
//! compression as four row vectors (used by the AVX2 backend too).

#[cfg(target_arch = "x86")]
use core::arch::x86::*;
#[cfg(target_arch = "x86_64")]
use core::arch::x86_64::*;

use super::job::LaneJob;
use super::lanes::{self, LaneVector};
use super::spec::{block_words, cv_bytes, CvBytes, CvWords, BLOCK_LEN, IV, MAX_LANES, MSG_SCHEDULE};

/// Four lanes; its instructions are SSE4.1's (and the SSSE3 and SSE2 ones
/// that implies).
#[derive(Clone, Copy)]
pub(super) struct Sse41x4(pub(super) __m128i);

/// Loads 16 bytes, unaligned.
///
/// # Safety
///
/// The CPU has SSE4.1, and `src` is valid for 16 bytes of reads.
#[target_feature(enable = "sse4.1")]
#[inline]
unsafe fn loadu(src: *const u8) -> __m128i {
    // SAFETY: `_mm_loadu_si128` reads 16 bytes at any alignment; the caller
    // guarantees they are readable.
    unsafe { _mm_loadu_si128(src.cast()) }
}

/// Stores 16 bytes, unaligned.
///
/// # Safety
///
/// The CPU has SSE4.1, and `dst` is valid for 16 bytes of writes.
#[target_feature(enable = "sse4.1")]
#[inline]
unsafe fn storeu(dst: *mut u8, value: __m128i) {
    // SAFETY: `_mm_storeu_si128` writes 16 bytes at any alignment; the
    // caller guarantees they are writable.
    unsafe { _mm_storeu_si128(dst.cast(), value) }
}

/// Lanes `[a, b, c, d]`, in memory order.
#[target_feature(enable = "sse4.1")]
#[inline]
fn set4(a: u32, b: u32, c: u32, d: u32) -> __m128i {
    _mm_setr_epi32(a as i32, b as i32, c as i32, d as i32)
}

// Byte shuffles that rotate each 32-bit word right by 16 and by 8: one
// instruction instead of two shifts and an OR.
#[target_feature(enable = "sse4.1")]
#[inline]
fn rot16(a: __m128i) -> __m128i {
    _mm_shuffle_epi8(a, _mm_setr_epi8(2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13))
}

#[target_feature(enable = "sse4.1")]
#[inline]
fn rot8(a: __m128i) -> __m128i {
    _mm_shuffle_epi8(a, _mm_setr_epi8(1, 2, 3, 0, 5, 6, 7, 4, 9, 10, 11, 8, 13, 14, 15, 12))
}

#[target_feature(enable = "sse4.1")]
#[inline]
fn rot12(a: __m128i) -> __m128i {
    _mm_or_si128(_mm_srli_epi32::<12>(a), _mm_slli_epi32::<20>(a))
}

#[target_feature(enable = "sse4.1")]
#[inline]
fn rot7(a: __m128i) -> __m128i {
    _mm_or_si128(_mm_srli_epi32::<7>(a), _mm_slli_epi32::<25>(a))
}

/// Transposes four rows of four words.
///
/// Always inlined, into SSE4.1 and AVX-512 functions alike, so it cannot
/// carry a `#[target_feature]` of its own.
///
/// # Safety
///
/// The caller runs with SSE4.1 enabled.
#[inline(always)]
unsafe fn transpose4(rows: [__m128i; 4]) -> [__m128i; 4] {
    // SAFETY: SSE2 register operations, enabled with SSE4.1 by the caller.
    unsafe {
        let ab_low = _mm_unpacklo_epi32(rows[0], rows[1]);
        let ab_high = _mm_unpackhi_epi32(rows[0], rows[1]);
        let cd_low = _mm_unpacklo_epi32(rows[2], rows[3]);
        let cd_high = _mm_unpackhi_epi32(rows[2], rows[3]);
        [
            _mm_unpacklo_epi64(ab_low, cd_low),
            _mm_unpackhi_epi64(ab_low, cd_low),
            _mm_unpacklo_epi64(ab_high, cd_high),
            _mm_unpackhi_epi64(ab_high, cd_high),
        ]
    }
}

/// Loads 64-byte blocks of four lanes as sixteen word vectors.
///
/// # Safety
///
/// The caller runs with SSE4.1 enabled, and each of the first four
/// pointers plus `offset` is valid for 64 bytes of reads.
#[inline(always)]
unsafe fn load_blocks4(blocks: &[*const u8; MAX_LANES], offset: usize) -> [__m128i; 16] {
    // SAFETY: SSE4.1 is enabled by the caller; each load is 16 bytes at
    // `16 * quarter < 64` bytes past a pointer plus `offset`, inside the
    // 64 readable bytes the caller guarantees.
    unsafe {
        let mut words = [_mm_setzero_si128(); 16];
        for quarter in 0..4 {
            let rows = core::array::from_fn(|lane| loadu(blocks[lane].add(offset + 16 * quarter)));
            words[4 * quarter..4 * quarter + 4].copy_from_slice(&transpose4(rows));
        }
        words
    }
}

/// Stores four lanes of chaining values, transposed back.
///
/// # Safety
///
/// The caller runs with SSE4.1 enabled.
///
/// # Panics
///
/// If `out` holds fewer than four values.
#[inline(always)]
unsafe fn store_cvs4(cv: [__m128i; 8], out: &mut [CvBytes]) {
    let out = &mut out[..4];
    // SAFETY: SSE4.1 is enabled by the caller; each store is 16 bytes at
    // offset 0 or 16 of a 32-byte `out` entry.
    unsafe {
        let low = transpose4([cv[0], cv[1], cv[2], cv[3]]);
        let high = transpose4([cv[4], cv[5], cv[6], cv[7]]);
        for lane in 0..4 {
            storeu(out[lane].as_mut_ptr(), low[lane]);
            storeu(out[lane].as_mut_ptr().add(16), high[lane]);
        }
    }
}

// SAFETY: `LaneVector`'s contract: every method uses SSE4.1 instructions
// (and the SSSE3 and SSE2 ones it implies) only, the set `Sse41x4` names.
unsafe impl LaneVector for Sse41x4 {
    const LANES: usize = 4;
    type Mask = __m128i;

    #[target_feature(enable = "sse4.1")]
    #[inline]
    unsafe fn splat(word: u32) -> Self {
        Sse41x4(_mm_set1_epi32(word as i32))
    }
    #[target_feature(enable = "sse4.1")]
    #[inline]
    unsafe fn from_words(words: &[u32; MAX_LANES]) -> Self {
        // SAFETY: this method runs with SSE4.1; `words` has 64 readable bytes.
        Sse41x4(unsafe { loadu(words.as_ptr().cast()) })
    }
    #[target_feature(enable = "sse4.1")]
    #[inline]
    unsafe fn add(a: Self, b: Self) -> Self {
        Sse41x4(_mm_add_epi32(a.0, b.0))
    }
    #[target_feature(enable = "sse4.1")]
    #[inline]
    unsafe fn xor(a: Self, b: Self) -> Self {
        Sse41x4(_mm_xor_si128(a.0, b.0))
    }
    #[target_feature(enable = "sse4.1")]
    #[inline]
    unsafe fn or(a: Self, b: Self) -> Self {
        Sse41x4(_mm_or_si128(a.0, b.0))
    }
    #[target_feature(enable = "sse4.1")]
    #[inline]
    unsafe fn rot16(a: Self) -> Self {
        Sse41x4(rot16(a.0))
    }
    #[target_feature(enable = "sse4.1")]
    #[inline]
    unsafe fn rot12(a: Self) -> Self {
        Sse41x4(rot12(a.0))
    }
    #[target_feature(enable = "sse4.1")]
    #[inline]
    unsafe fn rot8(a: Self) -> Self {
        Sse41x4(rot8(a.0))
    }
    #[target_feature(enable = "sse4.1")]
    #[inline]
    unsafe fn rot7(a: Self) -> Self {
        Sse41x4(rot7(a.0))
    }
    #[target_feature(enable = "sse4.1")]
    #[inline]
    unsafe fn store_words(self, words: &mut [u32; MAX_LANES]) {
        // SAFETY: an unaligned 16-byte store into the 64 bytes of `words`.
        unsafe { _mm_storeu_si128(words.as_mut_ptr().cast(), self.0) }
    }
    #[target_feature(enable = "sse4.1")]
    #[inline]
    unsafe fn eq(a: Self, b: Self) -> __m128i {
        _mm_cmpeq_epi32(a.0, b.0)
    }
    #[target_feature(enable = "sse4.1")]
    #[inline]
    unsafe fn blend(mask: __m128i, if_true: Self, if_false: Self) -> Self {
        Sse41x4(_mm_blendv_epi8(if_false.0, if_true.0, mask))
    }
    #[inline(always)]
    unsafe fn prefetch(address: *const u8) {
        // SAFETY: a prefetch is a hint: it never faults and changes nothing
        // the program can observe; it is SSE, which the caller enables.
        unsafe { _mm_prefetch::<_MM_HINT_T0>(address.cast()) }
    }
    // Always inlined: as a call it would return the vectors through memory.
    #[inline(always)]
    unsafe fn load_blocks(blocks: &[*const u8; MAX_LANES], offset: usize) -> [Self; 16] {
        // SAFETY: `load_blocks4` has this method's contract: SSE4.1 enabled
        // and 64 readable bytes per pointer plus `offset`.
        let words = unsafe { load_blocks4(blocks, offset) };
        // A loop, not `array::map`, as in `avx512.rs`.
        let mut vectors = [Sse41x4(words[0]); 16];
        for (vector, &word) in vectors.iter_mut().zip(&words) {
            *vector = Sse41x4(word);
        }
        vectors
    }
    // Always inlined: as a call it would return the vectors through memory.
    #[inline(always)]
    unsafe fn store_cvs(cv: &[Self; 8], out: &mut [CvBytes]) {
        let mut words = [cv[0].0; 8];
        for (word, vector) in words.iter_mut().zip(cv) {
            *word = vector.0;
        }
        // SAFETY: `store_cvs4` needs SSE4.1, which this method's caller enables.
        unsafe { store_cvs4(words, out) }
    }
}

/// Hashes up to four jobs side by side (see [`lanes::hash_lanes`]).
///
/// # Safety
///
/// The CPU has SSE4.1.
#[target_feature(enable = "sse4.1")]
pub(super) unsafe fn hash_lanes4(key: &CvWords, jobs: &[LaneJob<'_>], out: &mut [CvBytes]) {
    // SAFETY: `hash_lanes` needs `Sse41x4`'s instructions, SSE4.1, which
    // this function enables.
    unsafe { lanes::hash_lanes::<Sse41x4>(key, jobs, out) }
}

/// Hashes up to four messages of `blocks` blocks each side by side (see
/// [`lanes::hash_short_messages`]).
///
/// # Safety
///
/// The CPU has SSE4.1.
#[target_feature(enable = "sse4.1")]
pub(super) unsafe fn hash_short4(key: &CvWords, blocks: usize, flags: [u8; 3], inputs: &[&[u8]], out: &mut [CvBytes]) {
    // SAFETY: `hash_short_messages` needs `Sse41x4`'s instructions, SSE4.1,
    // which this function enables.
    unsafe { lanes::hash_short_messages::<Sse41x4, lanes::PaddedTails>(key, blocks, flags, inputs, out) }
}

/// The seven rounds on the four rows of the state.
///
/// Always inlined: a call would return the rows through memory, on the
/// critical path of every block (measured: 20% slower per block).
///
/// # Safety
///
/// The caller runs with SSE4.1 enabled.
#[inline(always)]
unsafe fn compress_rows(cv: &CvWords, block: &[u8; BLOCK_LEN], block_len: u8, counter: u64, flags: u8) -> [__m128i; 4] {
    // SAFETY: SSE4.1 register operations, enabled by the caller; memory is
    // read only through safe indexing of `block`.
    unsafe {
        let m = block_words(block);
        {
            let mut row0 = set4(cv[0], cv[1], cv[2], cv[3]);
            let mut row1 = set4(cv[4], cv[5], cv[6], cv[7]);
            let mut row2 = set4(IV[0], IV[1], IV[2], IV[3]);
            let mut row3 = set4(counter as u32, (counter >> 32) as u32, block_len as u32, flags as u32);
            for s in &MSG_SCHEDULE {
                // Columns: G(0,4,8,12) .. G(3,7,11,15) in lanes 0..3.
                let mx = set4(m[s[0]], m[s[2]], m[s[4]], m[s[6]]);
                let my = set4(m[s[1]], m[s[3]], m[s[5]], m[s[7]]);
                g(&mut row0, &mut row1, &mut row2, &mut row3, mx, my);
                // Diagonals: rotate rows 0, 2 and 3 so that lane j computes the
                // diagonal through v[4 + j]: G(3,4,9,14), G(0,5,10,15), G(1,6,11,12),
                // G(2,7,8,13). Row 1 (b) stays put: the column step finishes it
                // last, so shuffling it would lengthen the critical path.
                row0 = _mm_shuffle_epi32::<0b10_01_00_11>(row0);
                row2 = _mm_shuffle_epi32::<0b00_11_10_01>(row2);
                row3 = _mm_shuffle_epi32::<0b01_00_11_10>(row3);
                let mx = set4(m[s[14]], m[s[8]], m[s[10]], m[s[12]]);
                let my = set4(m[s[15]], m[s[9]], m[s[11]], m[s[13]]);
                g(&mut row0, &mut row1, &mut row2, &mut row3, mx, my);
                row0 = _mm_shuffle_epi32::<0b00_11_10_01>(row0);
                row2 = _mm_shuffle_epi32::<0b10_01_00_11>(row2);
                row3 = _mm_shuffle_epi32::<0b01_00_11_10>(row3);
            }
            [row0, row1, row2, row3]
        }
    }
}

#[target_feature(enable = "sse4.1")]
#[inline]
fn g(row0: &mut __m128i, row1: &mut __m128i, row2: &mut __m128i, row3: &mut __m128i, mx: __m128i, my: __m128i) {
    {
        *row0 = _mm_add_epi32(_mm_add_epi32(*row0, mx), *row1);
        *row3 = rot16(_mm_xor_si128(*row3, *row0));
        *row2 = _mm_add_epi32(*row2, *row3);
        *row1 = rot12(_mm_xor_si128(*row1, *row2));
        *row0 = _mm_add_epi32(_mm_add_epi32(*row0, my), *row1);
        *row3 = rot8(_mm_xor_si128(*row3, *row0));
        *row2 = _mm_add_epi32(*row2, *row3);
        *row1 = rot7(_mm_xor_si128(*row1, *row2));
    }
}

#[target_feature(enable = "sse4.1")]
#[inline]
fn compress_in_place_inline(cv: &mut CvWords, block: &[u8; BLOCK_LEN], block_len: u8, counter: u64, flags: u8) {
    // SAFETY: this function enables SSE4.1, which `compress_rows` and
    // `storeu` need; the two 16-byte stores fill the 32 bytes of `cv`.
    unsafe {
        let [row0, row1, row2, row3] = compress_rows(cv, block, block_len, counter, flags);
        storeu(cv.as_mut_ptr().cast(), _mm_xor_si128(row0, row2));
        storeu(cv.as_mut_ptr().add(4).cast(), _mm_xor_si128(row1, row3));
    }
}

/// Compresses one block into `cv`.
///
/// # Safety
///
/// The CPU has SSE4.1.
#[target_feature(enable = "sse4.1")]
pub(super) unsafe fn compress_in_place(
    cv: &mut CvWords,
    block: &[u8; BLOCK_LEN],
    block_len: u8,
    counter: u64,
    flags: u8,
) {
    compress_in_place_inline(cv, block, block_len, counter, flags)
}

/// Compresses one block and returns all 64 output bytes.
///
/// # Safety
///
/// The CPU has SSE4.1.
#[target_feature(enable = "sse4.1")]
pub(super) unsafe fn compress_xof(
    cv: &CvWords,
    block: &[u8; BLOCK_LEN],
    block_len: u8,
    counter: u64,
    flags: u8,
) -> [u8; BLOCK_LEN] {
    let mut out = [0u8; BLOCK_LEN];
    // SAFETY: this function enables SSE4.1, which `compress_rows`, `loadu`
    // and `storeu` need; the loads read the 32 bytes of `cv` and the stores
    // write the 64 bytes of `out`.
    unsafe {
        let [row0, row1, row2, row3] = compress_rows(cv, block, block_len, counter, flags);
        storeu(out.as_mut_ptr(), _mm_xor_si128(row0, row2));
        storeu(out.as_mut_ptr().add(16), _mm_xor_si128(row1, row3));
        storeu(out.as_mut_ptr().add(32), _mm_xor_si128(row2, loadu(cv.as_ptr().cast())));
        storeu(out.as_mut_ptr().add(48), _mm_xor_si128(row3, loadu(cv.as_ptr().add(4).cast())));
    }
    out
}

/// One job as a chain of row compressions.
///
/// # Safety
///
/// The CPU has SSE4.1.
#[target_feature(enable = "sse4.1")]
pub(super) unsafe fn hash_job(key: &CvWords, job: &LaneJob<'_>) -> CvBytes {
    let mut cv = *key;
    job.for_each_block(|block, len, flags| compress_in_place_inline(&mut cv, block, len, job.counter(), flags));
    cv_bytes(&cv)
}

#[cfg(test)]
mod tests {
    use super::*;

    super::super::tests::lane_vector_test!(sse41x4_transposes_lane_loads_and_word_operations, Sse41x4, "sse4.1", Sse41);
}
