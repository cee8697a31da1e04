//! AVX-512 kernels (AVX-512F + AVX-512VL): 16 lanes in zmm registers; 8 and
//! 4 lanes in ymm and xmm registers for calls with fewer jobs; and the
//! single-block compression as four row vectors.
//!
//! What AVX-512 adds over AVX2 here is a rotate instruction (`vprord`): one
//! instruction for each of the four rotations of G, where AVX2 needs a byte
//! shuffle or two shifts and an OR. The narrower kernels reuse the AVX2 and
//! SSE4.1 loads and transposes and swap in these rotations.

#[cfg(target_arch = "x86")]
use core::arch::x86::*;
#[cfg(target_arch = "x86_64")]
use core::arch::x86_64::*;

use super::avx2::Avx2x8;
use super::job::LaneJob;
use super::lanes::{self, LaneVector};
use super::spec::{CvBytes, CvWords, BLOCK_LEN, IV, MAX_LANES, OUT_LEN};
use super::sse41::Sse41x4;

/// Sixteen lanes; its instructions are AVX-512F and AVX-512VL's.
#[derive(Clone, Copy)]
struct Avx512x16(__m512i);

/// Loads 64 bytes, unaligned.
///
/// # Safety
///
/// The CPU has AVX-512F + VL, and `src` is valid for 64 bytes of reads.
#[target_feature(enable = "avx512f,avx512vl")]
#[inline]
unsafe fn loadu(src: *const u8) -> __m512i {
    // SAFETY: `_mm512_loadu_si512` reads 64 bytes at any alignment; the
    // caller guarantees they are readable.
    unsafe { _mm512_loadu_si512(src.cast()) }
}

/// Transposes the 4x4 word squares inside every 128-bit block, for rows 0-3
/// and for rows 4-7: interleave words, then pairs of words. Afterwards
/// `out[4q + j]`, in 128-bit block `k`, holds word `4k + j` of rows
/// `4q..4q + 4`.
///
/// # Safety
///
/// The caller runs with AVX-512F enabled.
#[inline(always)]
unsafe fn transpose_4x4_blocks(rows: [__m512i; 8]) -> [__m512i; 8] {
    // SAFETY: AVX-512F on registers, enabled by the caller.
    unsafe {
        let words: [__m512i; 8] = core::array::from_fn(|i| {
            let (x, y) = (rows[i & !1], rows[i | 1]);
            if i % 2 == 0 {
                _mm512_unpacklo_epi32(x, y)
            } else {
                _mm512_unpackhi_epi32(x, y)
            }
        });
        core::array::from_fn(|i| {
            let (q, j) = (i / 4, i % 4);
            let (x, y) = (words[4 * q + (j / 2)], words[4 * q + 2 + (j / 2)]);
            if j % 2 == 0 {
                _mm512_unpacklo_epi64(x, y)
            } else {
                _mm512_unpackhi_epi64(x, y)
            }
        })
    }
}

/// Loads the 64-byte blocks of sixteen lanes as sixteen word vectors.
///
/// Lanes `l` and `l + 8` share a register (low and high 256 bits), filled
/// by a 256-bit load and an insert from memory; an 8x8 transpose inside each
/// half then gives word vectors with the lanes in order.
///
/// # Safety
///
/// The caller runs with AVX-512F + VL enabled, and each of the sixteen
/// pointers plus `offset` is valid for 64 bytes of reads.
#[inline(always)]
unsafe fn load_blocks16(blocks: &[*const u8; MAX_LANES], offset: usize) -> [__m512i; 16] {
    // SAFETY: AVX-512F + VL (which include AVX2) are enabled by the caller;
    // each load is 32 bytes at 0 or 32 bytes past a pointer plus `offset`,
    // inside the 64 readable bytes the caller guarantees.
    unsafe { transpose_rows16(|lane, half| _mm256_loadu_si256(blocks[lane].add(offset + 32 * half).cast())) }
}

/// The transpose of `load_blocks16` over rows from `row(lane, half)`: the
/// 32 bytes `32 * half..` of lane `lane`'s block.
///
/// # Safety
///
/// The caller runs with AVX-512F + VL enabled (and what `row` needs).
#[inline(always)]
unsafe fn transpose_rows16(row: impl Fn(usize, usize) -> __m256i) -> [__m512i; 16] {
    // SAFETY: AVX-512F + VL on registers, enabled by the caller.
    unsafe {
        // Blocks 0 and 2 (1 and 3) of `x` and `y`, interleaved as 64-bit pairs.
        let even_blocks = _mm512_setr_epi64(0, 1, 8, 9, 4, 5, 12, 13);
        let odd_blocks = _mm512_setr_epi64(2, 3, 10, 11, 6, 7, 14, 15);
        let mut words = [_mm512_setzero_si512(); 16];
        for half in 0..2 {
            let mut rows = [_mm512_setzero_si512(); 8];
            for (lane, rows) in rows.iter_mut().enumerate() {
                let (low, high) = (row(lane, half), row(lane + 8, half));
                *rows = _mm512_inserti64x4::<1>(_mm512_castsi256_si512(low), high);
            }
            // b[4q + j], 128-bit block k of each half: word 4k + j of rows 4q..4q+3.
            let b = transpose_4x4_blocks(rows);
            for j in 0..4 {
                words[8 * half + j] = _mm512_permutex2var_epi64(b[j], even_blocks, b[4 + j]);
                words[8 * half + 4 + j] = _mm512_permutex2var_epi64(b[j], odd_blocks, b[4 + j]);
            }
        }
        words
    }
}

/// Stores sixteen lanes of chaining values, transposed back: interleaving
/// words, then pairs of words, leaves each lane's value in two 128-bit
/// blocks, which are paired up and stored.
///
/// # Safety
///
/// The caller runs with AVX-512F + VL enabled.
///
/// # Panics
///
/// If `out` holds fewer than sixteen values.
#[inline(always)]
unsafe fn store_cvs16(cv: [__m512i; 8], out: &mut [CvBytes]) {
    let out = &mut out[..16];
    // SAFETY: AVX-512F + VL are enabled by the caller; each store writes the
    // 32 bytes of one `out` entry.
    unsafe {
        // b[4q + j], block k: words 4q..4q+3 of lane 4k + j.
        let b = transpose_4x4_blocks(cv);
        for j in 0..4 {
            let (x, y) = (b[j], b[4 + j]);
            // [x0, y0, x1, y1] and [x2, y2, x3, y3]: lanes j, 4+j, 8+j, 12+j.
            let first =
                _mm512_shuffle_i32x4::<0xD8>(_mm512_shuffle_i32x4::<0x44>(x, y), _mm512_shuffle_i32x4::<0x44>(x, y));
            let second =
                _mm512_shuffle_i32x4::<0xD8>(_mm512_shuffle_i32x4::<0xEE>(x, y), _mm512_shuffle_i32x4::<0xEE>(x, y));
            let pairs = [
                _mm512_castsi512_si256(first),
                _mm512_extracti64x4_epi64::<1>(first),
                _mm512_castsi512_si256(second),
                _mm512_extracti64x4_epi64::<1>(second),
            ];
            for (k, pair) in pairs.into_iter().enumerate() {
                _mm256_storeu_si256(out[4 * k + j].as_mut_ptr().cast(), pair);
            }
        }
    }
}

// SAFETY: `LaneVector`'s contract: every method uses AVX-512F + VL
// instructions (and the older ones they imply) only, the set `Avx512x16` names.
unsafe impl LaneVector for Avx512x16 {
    const LANES: usize = 16;
    type Mask = __mmask16;

    #[target_feature(enable = "avx512f,avx512vl")]
    #[inline]
    unsafe fn splat(word: u32) -> Self {
        Avx512x16(_mm512_set1_epi32(word as i32))
    }
    #[target_feature(enable = "avx512f,avx512vl")]
    #[inline]
    unsafe fn from_words(words: &[u32; MAX_LANES]) -> Self {
        // SAFETY: this method runs with AVX-512F + VL; `words` has 64 readable bytes.
        Avx512x16(unsafe { loadu(words.as_ptr().cast()) })
    }
    #[target_feature(enable = "avx512f,avx512vl")]
    #[inline]
    unsafe fn add(a: Self, b: Self) -> Self {
        Avx512x16(_mm512_add_epi32(a.0, b.0))
    }
    #[target_feature(enable = "avx512f,avx512vl")]
    #[inline]
    unsafe fn xor(a: Self, b: Self) -> Self {
        Avx512x16(_mm512_xor_si512(a.0, b.0))
    }
    #[target_feature(enable = "avx512f,avx512vl")]
    #[inline]
    unsafe fn or(a: Self, b: Self) -> Self {
        Avx512x16(_mm512_or_si512(a.0, b.0))
    }
    #[target_feature(enable = "avx512f,avx512vl")]
    #[inline]
    unsafe fn rot16(a: Self) -> Self {
        Avx512x16(_mm512_ror_epi32::<16>(a.0))
    }
    #[target_feature(enable = "avx512f,avx512vl")]
    #[inline]
    unsafe fn rot12(a: Self) -> Self {
        Avx512x16(_mm512_ror_epi32::<12>(a.0))
    }
    #[target_feature(enable = "avx512f,avx512vl")]
    #[inline]
    unsafe fn rot8(a: Self) -> Self {
        Avx512x16(_mm512_ror_epi32::<8>(a.0))
    }
    #[target_feature(enable = "avx512f,avx512vl")]
    #[inline]
    unsafe fn rot7(a: Self) -> Self {
        Avx512x16(_mm512_ror_epi32::<7>(a.0))
    }
    #[target_feature(enable = "avx512f,avx512vl")]
    #[inline]
    unsafe fn store_words(self, words: &mut [u32; MAX_LANES]) {
        // SAFETY: an unaligned 64-byte store into the 64 bytes of `words`.
        unsafe { _mm512_storeu_si512(words.as_mut_ptr().cast(), self.0) }
    }
    #[target_feature(enable = "avx512f,avx512vl")]
    #[inline]
    unsafe fn eq(a: Self, b: Self) -> __mmask16 {
        _mm512_cmpeq_epi32_mask(a.0, b.0)
    }
    #[target_feature(enable = "avx512f,avx512vl")]
    #[inline]
    unsafe fn blend(mask: __mmask16, if_true: Self, if_false: Self) -> Self {
        Avx512x16(_mm512_mask_blend_epi32(mask, if_false.0, if_true.0))
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
        // SAFETY: `load_blocks16` has this method's contract: AVX-512F + VL
        // enabled and 64 readable bytes per pointer plus `offset`.
        let words = unsafe { load_blocks16(blocks, offset) };
        // A loop, not `array::map`: that is not always inlined here, and as
        // a call it moves the vectors through memory (measured: a call per
        // kernel step).
        let mut vectors = [Avx512x16(words[0]); 16];
        for (vector, &word) in vectors.iter_mut().zip(&words) {
            *vector = Avx512x16(word);
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
        // SAFETY: `store_cvs16` needs AVX-512F + VL, which this method's caller enables.
        unsafe { store_cvs16(words, out) }
    }
}

/// Implements `LaneVector` for a narrower vector by forwarding to the AVX2
/// or SSE4.1 type and replacing the rotations with `vprord`.
macro_rules! narrow_with_rotate {
    ($name:ident, $inner:ident, $lanes:expr, $ror:ident) => {
        /// A narrower vector whose instructions are AVX-512F + VL's and the
        /// wrapped type's.
        #[derive(Clone, Copy)]
        struct $name($inner);

        // SAFETY: `LaneVector`'s contract: the rotations use AVX-512F + VL
        // and the other methods `$inner`'s instructions, all in the set
        // `$name` names.
        unsafe impl LaneVector for $name {
            const LANES: usize = $lanes;
            type Mask = <$inner as LaneVector>::Mask;

            #[target_feature(enable = "avx512f,avx512vl")]
            #[inline]
            unsafe fn splat(word: u32) -> Self {
                // SAFETY: `$inner`'s instructions are enabled: AVX-512F, enabled here, implies AVX2 and SSE4.1.
                $name(unsafe { <$inner>::splat(word) })
            }
            #[target_feature(enable = "avx512f,avx512vl")]
            #[inline]
            unsafe fn from_words(words: &[u32; MAX_LANES]) -> Self {
                // SAFETY: `$inner`'s instructions are enabled: AVX-512F, enabled here, implies AVX2 and SSE4.1.
                $name(unsafe { <$inner>::from_words(words) })
            }
            #[target_feature(enable = "avx512f,avx512vl")]
            #[inline]
            unsafe fn add(a: Self, b: Self) -> Self {
                // SAFETY: `$inner`'s instructions are enabled: AVX-512F, enabled here, implies AVX2 and SSE4.1.
                $name(unsafe { <$inner>::add(a.0, b.0) })
            }
            #[target_feature(enable = "avx512f,avx512vl")]
            #[inline]
            unsafe fn xor(a: Self, b: Self) -> Self {
                // SAFETY: `$inner`'s instructions are enabled: AVX-512F, enabled here, implies AVX2 and SSE4.1.
                $name(unsafe { <$inner>::xor(a.0, b.0) })
            }
            #[target_feature(enable = "avx512f,avx512vl")]
            #[inline]
            unsafe fn or(a: Self, b: Self) -> Self {
                // SAFETY: `$inner`'s instructions are enabled: AVX-512F, enabled here, implies AVX2 and SSE4.1.
                $name(unsafe { <$inner>::or(a.0, b.0) })
            }
            #[target_feature(enable = "avx512f,avx512vl")]
            #[inline]
            unsafe fn rot16(a: Self) -> Self {
                $name($inner($ror::<16>(a.0 .0)))
            }
            #[target_feature(enable = "avx512f,avx512vl")]
            #[inline]
            unsafe fn rot12(a: Self) -> Self {
                $name($inner($ror::<12>(a.0 .0)))
            }
            #[target_feature(enable = "avx512f,avx512vl")]
            #[inline]
            unsafe fn rot8(a: Self) -> Self {
                $name($inner($ror::<8>(a.0 .0)))
            }
            #[target_feature(enable = "avx512f,avx512vl")]
            #[inline]
            unsafe fn rot7(a: Self) -> Self {
                $name($inner($ror::<7>(a.0 .0)))
            }
            #[target_feature(enable = "avx512f,avx512vl")]
            #[inline]
            unsafe fn store_words(self, words: &mut [u32; MAX_LANES]) {
                // SAFETY: `$inner`'s instructions are enabled: AVX-512F, enabled here, implies AVX2 and SSE4.1.
                unsafe { self.0.store_words(words) }
            }
            #[target_feature(enable = "avx512f,avx512vl")]
            #[inline]
            unsafe fn eq(a: Self, b: Self) -> Self::Mask {
                // SAFETY: `$inner`'s instructions are enabled: AVX-512F, enabled here, implies AVX2 and SSE4.1.
                unsafe { <$inner>::eq(a.0, b.0) }
            }
            #[target_feature(enable = "avx512f,avx512vl")]
            #[inline]
            unsafe fn blend(mask: Self::Mask, if_true: Self, if_false: Self) -> Self {
                // SAFETY: `$inner`'s instructions are enabled: AVX-512F, enabled here, implies AVX2 and SSE4.1.
                $name(unsafe { <$inner>::blend(mask, if_true.0, if_false.0) })
            }
            #[inline(always)]
            unsafe fn prefetch(address: *const u8) {
                // SAFETY: `$inner::prefetch` needs `$inner`'s instructions,
                // which this method's caller enables, and takes any address.
                unsafe { <$inner>::prefetch(address) }
            }
            // Always inlined: as a call it would return the vectors through memory.
            #[inline(always)]
            unsafe fn load_blocks(blocks: &[*const u8; MAX_LANES], offset: usize) -> [Self; 16] {
                // SAFETY: `$inner::load_blocks` has this method's contract:
                // its instructions enabled and 64 readable bytes per pointer
                // plus `offset`.
                let words = unsafe { <$inner>::load_blocks(blocks, offset) };
                // A loop, not `array::map` (see `Avx512x16::load_blocks`).
                let mut vectors = [$name(words[0]); 16];
                for (vector, &word) in vectors.iter_mut().zip(&words) {
                    *vector = $name(word);
                }
                vectors
            }
            // Always inlined: as a call it would return the vectors through memory.
            #[inline(always)]
            unsafe fn store_cvs(cv: &[Self; 8], out: &mut [CvBytes]) {
                let mut inner = [cv[0].0; 8];
                for (inner, vector) in inner.iter_mut().zip(cv) {
                    *inner = vector.0;
                }
                // SAFETY: `$inner::store_cvs` needs `$inner`'s instructions,
                // which this method's caller enables.
                unsafe { <$inner>::store_cvs(&inner, out) }
            }
        }
    };
}

narrow_with_rotate!(Avx512x8, Avx2x8, 8, _mm256_ror_epi32);
narrow_with_rotate!(Avx512x4, Sse41x4, 4, _mm_ror_epi32);

/// Hashes up to sixteen jobs side by side (see [`lanes::hash_lanes`]).
///
/// # Safety
///
/// The CPU has AVX-512F + VL.
#[target_feature(enable = "avx512f,avx512vl")]
pub(super) unsafe fn hash_lanes16(key: &CvWords, jobs: &[LaneJob<'_>], out: &mut [CvBytes]) {
    // SAFETY: `hash_lanes` needs `Avx512x16`'s instructions, AVX-512F + VL,
    // which this function enables.
    unsafe { lanes::hash_lanes::<Avx512x16>(key, jobs, out) }
}

/// Hashes up to eight jobs side by side in ymm registers.
///
/// # Safety
///
/// The CPU has AVX-512F + VL and AVX2.
#[target_feature(enable = "avx512f,avx512vl,avx2")]
pub(super) unsafe fn hash_lanes8(key: &CvWords, jobs: &[LaneJob<'_>], out: &mut [CvBytes]) {
    // SAFETY: `hash_lanes` needs `Avx512x8`'s instructions, AVX-512F + VL
    // and AVX2, which this function enables.
    unsafe { lanes::hash_lanes::<Avx512x8>(key, jobs, out) }
}

/// Hashes up to four jobs side by side in xmm registers.
///
/// # Safety
///
/// The CPU has AVX-512F + VL and SSE4.1.
#[target_feature(enable = "avx512f,avx512vl,sse4.1")]
pub(super) unsafe fn hash_lanes4(key: &CvWords, jobs: &[LaneJob<'_>], out: &mut [CvBytes]) {
    // SAFETY: `hash_lanes` needs `Avx512x4`'s instructions, AVX-512F + VL
    // and SSE4.1, which this function enables.
    unsafe { lanes::hash_lanes::<Avx512x4>(key, jobs, out) }
}

/// Hashes up to 16 messages of `blocks` blocks each side by side (see
/// [`lanes::hash_short_messages`]).
///
/// # Safety
///
/// The CPU has AVX-512F + VL.
#[target_feature(enable = "avx512f,avx512vl")]
pub(super) unsafe fn hash_short16(key: &CvWords, blocks: usize, flags: [u8; 3], inputs: &[&[u8]], out: &mut [CvBytes]) {
    // SAFETY: `hash_short_messages` needs `Avx512x16`'s instructions, AVX-512F
    // + VL, which this function enables.
    unsafe { lanes::hash_short_messages::<Avx512x16, lanes::PaddedTails>(key, blocks, flags, inputs, out) }
}

/// Partial last blocks read in place with byte-masked loads (AVX-512BW):
/// no copy, and no branch on a message's length. Its instructions are
/// AVX-512F, VL and BW.
struct MaskedTails;

// SAFETY: `load_tails` uses AVX-512F, VL and BW, the set this type names.
unsafe impl lanes::TailLoads<Avx512x16> for MaskedTails {
    const MASKED: bool = true;

    #[inline(always)]
    unsafe fn load_tails(tails: &[*const u8; MAX_LANES], lens: &[u32; MAX_LANES]) -> [Avx512x16; 16] {
        // SAFETY: AVX-512F + VL + BW are enabled by the caller. Each masked
        // load reads only the bytes its mask selects, the first `lens[lane]`
        // (at most 64) bytes at the lane's pointer, which the caller
        // guarantees are readable; the others are neither read nor faulted
        // on, and are zero in the result.
        let words = unsafe {
            transpose_rows16(|lane, half| {
                let len = lens[lane].min(BLOCK_LEN as u32);
                let bytes = if len == 0 { 0 } else { u64::MAX >> (64 - len) };
                let mask = (bytes >> (32 * half)) as u32;
                _mm256_maskz_loadu_epi8(mask, tails[lane].wrapping_add(32 * half).cast())
            })
        };
        let mut vectors = [Avx512x16(words[0]); 16];
        for (vector, &word) in vectors.iter_mut().zip(&words) {
            *vector = Avx512x16(word);
        }
        vectors
    }
}

/// Hashes up to sixteen messages of `blocks` blocks each side by side,
/// reading partial last blocks in place (see [`MaskedTails`]).
///
/// # Safety
///
/// The CPU has AVX-512F + VL and AVX-512BW.
#[target_feature(enable = "avx512f,avx512vl,avx512bw")]
pub(super) unsafe fn hash_short16_masked(
    key: &CvWords,
    blocks: usize,
    flags: [u8; 3],
    inputs: &[&[u8]],
    out: &mut [CvBytes],
) {
    // SAFETY: `hash_short_messages` needs `Avx512x16`'s instructions,
    // AVX-512F + VL, and `MaskedTails`', AVX-512F + VL + BW, which this
    // function enables.
    unsafe { lanes::hash_short_messages::<Avx512x16, MaskedTails>(key, blocks, flags, inputs, out) }
}

/// Hashes up to eight messages of `blocks` blocks each side by side (see
/// [`lanes::hash_short_messages`]).
///
/// # Safety
///
/// The CPU has AVX-512F + VL and AVX2.
#[target_feature(enable = "avx512f,avx512vl,avx2")]
pub(super) unsafe fn hash_short8(key: &CvWords, blocks: usize, flags: [u8; 3], inputs: &[&[u8]], out: &mut [CvBytes]) {
    // SAFETY: `hash_short_messages` needs `Avx512x8`'s instructions, AVX-512F
    // + VL and AVX2, which this function enables.
    unsafe { lanes::hash_short_messages::<Avx512x8, lanes::PaddedTails>(key, blocks, flags, inputs, out) }
}

/// Indices for `_mm_permutex2var_epi32`: 0-3 pick from the first vector,
/// 4-7 from the second.
///
/// # Safety
///
/// The caller runs with AVX-512F + VL enabled.
#[inline(always)]
unsafe fn pick(a: i32, b: i32, c: i32, d: i32) -> __m128i {
    // SAFETY: SSE2 on registers, enabled by the caller.
    unsafe { _mm_setr_epi32(a, b, c, d) }
}

/// The message words of one round, as the row compression consumes them:
/// the column step's first and second words (`mx`, `my` of G0..G3), and the
/// diagonal step's, where lane `j` computes the diagonal through `v[4 + j]`
/// (G7, G4, G5, G6). With `s` the round's schedule (`MSG_SCHEDULE`):
///
/// ```text
/// column_x   = (s0,  s2, s4,  s6)     column_y   = (s1,  s3, s5,  s7)
/// diagonal_x = (s14, s8, s10, s12)    diagonal_y = (s15, s9, s11, s13)
/// ```
#[derive(Clone, Copy)]
struct RoundWords {
    column_x: __m128i,
    column_y: __m128i,
    diagonal_x: __m128i,
    diagonal_y: __m128i,
}

impl RoundWords {
    /// Round 0, from the block read as four 16-byte loads.
    ///
    /// Not one 64-byte load: a block the caller has just written (a padded
    /// last block, a parent node, the root's block) sits in the store buffer
    /// as narrower stores, which cannot forward to one wide load (measured on
    /// Zen 4: 20 ns more per hash of a 64-byte message).
    ///
    /// # Safety
    ///
    /// The caller runs with AVX-512F + VL enabled.
    #[inline(always)]
    unsafe fn first(block: &[u8; BLOCK_LEN]) -> RoundWords {
        // SAFETY: AVX-512F + VL are enabled by the caller; the four 16-byte
        // loads at `16 * i` for `i < 4` lie inside the 64 bytes of `block`.
        unsafe {
            let quarter = |i: usize| _mm_loadu_si128(block.as_ptr().add(16 * i).cast());
            let (words_0_3, words_4_7, words_8_11, words_12_15) = (quarter(0), quarter(1), quarter(2), quarter(3));
            RoundWords {
                column_x: _mm_permutex2var_epi32(words_0_3, pick(0, 2, 4, 6), words_4_7),
                column_y: _mm_permutex2var_epi32(words_0_3, pick(1, 3, 5, 7), words_4_7),
                diagonal_x: _mm_permutex2var_epi32(words_8_11, pick(6, 0, 2, 4), words_12_15),
                diagonal_y: _mm_permutex2var_epi32(words_8_11, pick(7, 1, 3, 5), words_12_15),
            }
        }
    }

    /// The next round's words. Each round permutes the message by the spec's
    /// `[2, 6, 3, 10, 7, 0, 4, 13, 1, 11, 12, 5, 9, 14, 15, 8]`, which maps
    /// this round's vectors to the next round's as
    ///
    /// ```text
    /// column_x   = (s2,  s3,  s7, s4)  = (cx1, cy1, cy3, cx2)
    /// column_y   = (s6,  s10, s0, s13) = (cx3, dx2, cx0, dy3)
    /// diagonal_x = (s15, s1, s12, s9)  = (dy0, cy0, dx3, dy1)
    /// diagonal_y = (s8,  s11, s5, s14) = (dx1, dy2, cy2, dx0)
    /// ```
    ///
    /// None of it depends on the state, so it runs beside the rounds.
    ///
    /// # Safety
    ///
    /// The caller runs with AVX-512F + VL enabled.
    #[inline(always)]
    unsafe fn next(self) -> RoundWords {
        let RoundWords { column_x: cx, column_y: cy, diagonal_x: dx, diagonal_y: dy } = self;
        // SAFETY: AVX-512F + VL register operations, enabled by the caller.
        unsafe {
            let cx3_dx2_cx0 = _mm_permutex2var_epi32(cx, pick(3, 6, 0, 0), dx);
            let dy0_cy0_dy1 = _mm_permutex2var_epi32(dy, pick(0, 4, 0, 1), cy);
            let dx1_dy2_dx0 = _mm_permutex2var_epi32(dx, pick(1, 6, 0, 0), dy);
            RoundWords {
                column_x: _mm_permutex2var_epi32(cx, pick(1, 5, 7, 2), cy),
                column_y: _mm_mask_blend_epi32(0b1000, cx3_dx2_cx0, dy),
                diagonal_x: _mm_permutex2var_epi32(dy0_cy0_dy1, pick(0, 1, 7, 3), dx),
                diagonal_y: _mm_mask_blend_epi32(0b0100, dx1_dy2_dx0, cy),
            }
        }
    }
}

#[target_feature(enable = "avx512f,avx512vl")]
#[inline]
fn g(row0: &mut __m128i, row1: &mut __m128i, row2: &mut __m128i, row3: &mut __m128i, mx: __m128i, my: __m128i) {
    *row0 = _mm_add_epi32(_mm_add_epi32(*row0, mx), *row1);
    *row3 = _mm_ror_epi32::<16>(_mm_xor_si128(*row3, *row0));
    *row2 = _mm_add_epi32(*row2, *row3);
    *row1 = _mm_ror_epi32::<12>(_mm_xor_si128(*row1, *row2));
    *row0 = _mm_add_epi32(_mm_add_epi32(*row0, my), *row1);
    *row3 = _mm_ror_epi32::<8>(_mm_xor_si128(*row3, *row0));
    *row2 = _mm_add_epi32(*row2, *row3);
    *row1 = _mm_ror_epi32::<7>(_mm_xor_si128(*row1, *row2));
}

/// The seven rounds on the four rows of the state.
///
/// Always inlined: as a call, it returns the rows through memory on the
/// critical path of every block (measured on Zen 4: about 10% per block).
///
/// # Safety
///
/// The caller runs with AVX-512F + VL enabled.
#[inline(always)]
unsafe fn compress_rows(cv: &CvWords, block: &[u8; BLOCK_LEN], block_len: u8, counter: u64, flags: u8) -> [__m128i; 4] {
    // SAFETY: `compress_cv_rows` needs AVX-512F + VL enabled, as this
    // function does; the other operations are on registers.
    unsafe {
        let row0 = _mm_setr_epi32(cv[0] as i32, cv[1] as i32, cv[2] as i32, cv[3] as i32);
        let row1 = _mm_setr_epi32(cv[4] as i32, cv[5] as i32, cv[6] as i32, cv[7] as i32);
        compress_cv_rows([row0, row1], block, block_len, counter, flags)
    }
}

/// `compress_rows` with the chaining value in two registers.
///
/// # Safety
///
/// The caller runs with AVX-512F + VL enabled.
#[inline(always)]
unsafe fn compress_cv_rows(
    cv: [__m128i; 2],
    block: &[u8; BLOCK_LEN],
    block_len: u8,
    counter: u64,
    flags: u8,
) -> [__m128i; 4] {
    // SAFETY: AVX-512F + VL are enabled by the caller, which `RoundWords`
    // needs too; the only memory read is `block`, through `RoundWords::first`.
    unsafe {
        let mut words = RoundWords::first(block);
        let [mut row0, mut row1] = cv;
        let mut row2 = _mm_setr_epi32(IV[0] as i32, IV[1] as i32, IV[2] as i32, IV[3] as i32);
        let mut row3 = _mm_setr_epi32(counter as i32, (counter >> 32) as i32, block_len as i32, flags as i32);
        for round in 0..7 {
            if round > 0 {
                words = words.next();
            }
            g(&mut row0, &mut row1, &mut row2, &mut row3, words.column_x, words.column_y);
            // Diagonals: rotate rows 0, 2 and 3 so that lane j computes the
            // diagonal through v[4 + j]. Row 1 (b) stays put: the column step
            // finishes it last, so shuffling it would lengthen the critical path.
            row0 = _mm_shuffle_epi32::<0b10_01_00_11>(row0);
            row2 = _mm_shuffle_epi32::<0b00_11_10_01>(row2);
            row3 = _mm_shuffle_epi32::<0b01_00_11_10>(row3);
            g(&mut row0, &mut row1, &mut row2, &mut row3, words.diagonal_x, words.diagonal_y);
            row0 = _mm_shuffle_epi32::<0b00_11_10_01>(row0);
            row2 = _mm_shuffle_epi32::<0b10_01_00_11>(row2);
            row3 = _mm_shuffle_epi32::<0b01_00_11_10>(row3);
        }
        [row0, row1, row2, row3]
    }
}

/// Compresses one block into `cv`.
///
/// # Safety
///
/// The CPU has AVX-512F + VL.
#[target_feature(enable = "avx512f,avx512vl")]
pub(super) unsafe fn compress_in_place(
    cv: &mut CvWords,
    block: &[u8; BLOCK_LEN],
    block_len: u8,
    counter: u64,
    flags: u8,
) {
    // SAFETY: this function enables AVX-512F + VL, which `compress_rows`
    // needs; the two 16-byte stores fill the 32 bytes of `cv`.
    unsafe {
        let [row0, row1, row2, row3] = compress_rows(cv, block, block_len, counter, flags);
        _mm_storeu_si128(cv.as_mut_ptr().cast(), _mm_xor_si128(row0, row2));
        _mm_storeu_si128(cv.as_mut_ptr().add(4).cast(), _mm_xor_si128(row1, row3));
    }
}

/// Compresses one block and returns all 64 output bytes.
///
/// # Safety
///
/// The CPU has AVX-512F + VL.
#[target_feature(enable = "avx512f,avx512vl")]
pub(super) unsafe fn compress_xof(
    cv: &CvWords,
    block: &[u8; BLOCK_LEN],
    block_len: u8,
    counter: u64,
    flags: u8,
) -> [u8; BLOCK_LEN] {
    let mut out = [0u8; BLOCK_LEN];
    // SAFETY: this function enables AVX-512F + VL, which `compress_rows`
    // needs; the loads read the 32 bytes of `cv` and the stores write the
    // 64 bytes of `out`.
    unsafe {
        let [row0, row1, row2, row3] = compress_rows(cv, block, block_len, counter, flags);
        let cv_low = _mm_loadu_si128(cv.as_ptr().cast());
        let cv_high = _mm_loadu_si128(cv.as_ptr().add(4).cast());
        _mm_storeu_si128(out.as_mut_ptr().cast(), _mm_xor_si128(row0, row2));
        _mm_storeu_si128(out.as_mut_ptr().add(16).cast(), _mm_xor_si128(row1, row3));
        _mm_storeu_si128(out.as_mut_ptr().add(32).cast(), _mm_xor_si128(row2, cv_low));
        _mm_storeu_si128(out.as_mut_ptr().add(48).cast(), _mm_xor_si128(row3, cv_high));
    }
    out
}

/// Compresses whole blocks into `cv` one after another, the first with
/// `first_flags` added: every block of a chunk but its last. The chaining
/// value stays in registers from block to block.
///
/// # Safety
///
/// The CPU has AVX-512F + VL.
#[target_feature(enable = "avx512f,avx512vl")]
pub(super) unsafe fn compress_blocks(
    cv: &mut CvWords,
    blocks: &[[u8; BLOCK_LEN]],
    counter: u64,
    flags: u8,
    first_flags: u8,
) {
    // SAFETY: this function enables AVX-512F + VL, which `compress_cv_rows`
    // needs; the loads read and the stores write the 32 bytes of `cv`.
    unsafe {
        let mut rows = [_mm_loadu_si128(cv.as_ptr().cast()), _mm_loadu_si128(cv.as_ptr().add(4).cast())];
        let mut block_flags = flags | first_flags;
        for block in blocks {
            let [row0, row1, row2, row3] = compress_cv_rows(rows, block, BLOCK_LEN as u8, counter, block_flags);
            rows = [_mm_xor_si128(row0, row2), _mm_xor_si128(row1, row3)];
            block_flags = flags;
        }
        _mm_storeu_si128(cv.as_mut_ptr().cast(), rows[0]);
        _mm_storeu_si128(cv.as_mut_ptr().add(4).cast(), rows[1]);
    }
}

/// One job as a chain of row compressions, the chaining value in registers
/// from block to block.
///
/// # Safety
///
/// The CPU has AVX-512F + VL.
#[target_feature(enable = "avx512f,avx512vl")]
pub(super) unsafe fn hash_job(key: &CvWords, job: &LaneJob<'_>) -> CvBytes {
    let mut out = [0u8; OUT_LEN];
    // SAFETY: this function enables AVX-512F + VL, which `compress_cv_rows`
    // needs; the loads read the 32 bytes of `key` and the stores write the
    // 32 bytes of `out`.
    unsafe {
        let mut rows = [_mm_loadu_si128(key.as_ptr().cast()), _mm_loadu_si128(key.as_ptr().add(4).cast())];
        job.for_each_block(|block, len, flags| {
            let [row0, row1, row2, row3] = compress_cv_rows(rows, block, len, job.counter(), flags);
            rows = [_mm_xor_si128(row0, row2), _mm_xor_si128(row1, row3)];
        });
        _mm_storeu_si128(out.as_mut_ptr().cast(), rows[0]);
        _mm_storeu_si128(out.as_mut_ptr().add(16).cast(), rows[1]);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    super::super::tests::lane_vector_test!(
        avx512x16_transposes_lane_loads_and_word_operations,
        Avx512x16,
        "avx512f,avx512vl",
        Avx512
    );
    super::super::tests::lane_vector_test!(
        avx512x8_transposes_lane_loads_and_word_operations,
        Avx512x8,
        "avx512f,avx512vl,avx2",
        Avx512
    );
    super::super::tests::lane_vector_test!(
        avx512x4_transposes_lane_loads_and_word_operations,
        Avx512x4,
        "avx512f,avx512vl,sse4.1",
        Avx512
    );
}
