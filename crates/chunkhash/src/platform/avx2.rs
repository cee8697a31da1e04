//! AVX2 kernels: 8 lanes of 32-bit words. Single blocks use the SSE4.1
//! row compression, which every AVX2 CPU has.

#[cfg(target_arch = "x86")]
use core::arch::x86::*;
#[cfg(target_arch = "x86_64")]
use core::arch::x86_64::*;

use super::job::LaneJob;
use super::lanes::{self, LaneVector};
use super::spec::{CvBytes, CvWords, MAX_LANES};

/// Eight lanes; its instructions are AVX2's (and the AVX ones that implies).
#[derive(Clone, Copy)]
pub(super) struct Avx2x8(pub(super) __m256i);

/// Loads 32 bytes, unaligned.
///
/// # Safety
///
/// The CPU has AVX2, and `src` is valid for 32 bytes of reads.
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn loadu(src: *const u8) -> __m256i {
    // SAFETY: `_mm256_loadu_si256` reads 32 bytes at any alignment; the
    // caller guarantees they are readable.
    unsafe { _mm256_loadu_si256(src.cast()) }
}

/// Stores 32 bytes, unaligned.
///
/// # Safety
///
/// The CPU has AVX2, and `dst` is valid for 32 bytes of writes.
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn storeu(dst: *mut u8, value: __m256i) {
    // SAFETY: `_mm256_storeu_si256` writes 32 bytes at any alignment; the
    // caller guarantees they are writable.
    unsafe { _mm256_storeu_si256(dst.cast(), value) }
}

/// Transposes eight rows of eight words.
///
/// Always inlined, into AVX2 and AVX-512 functions alike, so it cannot
/// carry a `#[target_feature]` of its own.
///
/// # Safety
///
/// The caller runs with AVX2 enabled.
#[inline(always)]
unsafe fn transpose8(rows: [__m256i; 8]) -> [__m256i; 8] {
    // SAFETY: AVX2 register operations, enabled by the caller.
    unsafe {
        // Within each 128-bit half: interleave words, then pairs of words ...
        let a: [__m256i; 8] = core::array::from_fn(|i| {
            let (x, y) = (rows[i & !1], rows[i | 1]);
            if i % 2 == 0 {
                _mm256_unpacklo_epi32(x, y)
            } else {
                _mm256_unpackhi_epi32(x, y)
            }
        });
        // b[4q + j], half h: word 4h + j of rows 4q..4q+3.
        let b: [__m256i; 8] = core::array::from_fn(|i| {
            let (q, j) = (i / 4, i % 4);
            let (x, y) = (a[4 * q + (j / 2)], a[4 * q + 2 + (j / 2)]);
            if j % 2 == 0 {
                _mm256_unpacklo_epi64(x, y)
            } else {
                _mm256_unpackhi_epi64(x, y)
            }
        });
        // ... then join the halves: word j of all eight rows.
        core::array::from_fn(|i| {
            let j = i % 4;
            if i < 4 {
                _mm256_permute2x128_si256::<0x20>(b[j], b[4 + j])
            } else {
                _mm256_permute2x128_si256::<0x31>(b[j], b[4 + j])
            }
        })
    }
}

/// Loads 64-byte blocks of eight lanes as sixteen word vectors.
///
/// # Safety
///
/// The caller runs with AVX2 enabled, and each of the first eight pointers
/// plus `offset` is valid for 64 bytes of reads.
#[inline(always)]
unsafe fn load_blocks8(blocks: &[*const u8; MAX_LANES], offset: usize) -> [__m256i; 16] {
    // SAFETY: AVX2 is enabled by the caller; each load is 32 bytes at 0 or
    // 32 bytes past a pointer plus `offset`, inside the 64 readable bytes the
    // caller guarantees.
    unsafe {
        let low = transpose8(core::array::from_fn(|lane| loadu(blocks[lane].add(offset))));
        let high = transpose8(core::array::from_fn(|lane| loadu(blocks[lane].add(offset + 32))));
        core::array::from_fn(|i| if i < 8 { low[i] } else { high[i - 8] })
    }
}

/// Stores eight lanes of chaining values, transposed back.
///
/// # Safety
///
/// The caller runs with AVX2 enabled.
///
/// # Panics
///
/// If `out` holds fewer than eight values.
#[inline(always)]
unsafe fn store_cvs8(cv: [__m256i; 8], out: &mut [CvBytes]) {
    let out = &mut out[..8];
    // SAFETY: AVX2 is enabled by the caller; each store writes the 32 bytes
    // of one `out` entry.
    unsafe {
        for (lane, words) in transpose8(cv).into_iter().enumerate() {
            storeu(out[lane].as_mut_ptr(), words);
        }
    }
}

// SAFETY: `LaneVector`'s contract: every method uses AVX2 instructions (and
// the AVX and SSE ones it implies) only, the set `Avx2x8` names.
unsafe impl LaneVector for Avx2x8 {
    const LANES: usize = 8;
    type Mask = __m256i;

    #[target_feature(enable = "avx2")]
    #[inline]
    unsafe fn splat(word: u32) -> Self {
        Avx2x8(_mm256_set1_epi32(word as i32))
    }
    #[target_feature(enable = "avx2")]
    #[inline]
    unsafe fn from_words(words: &[u32; MAX_LANES]) -> Self {
        // SAFETY: this method runs with AVX2; `words` has 64 readable bytes.
        Avx2x8(unsafe { loadu(words.as_ptr().cast()) })
    }
    #[target_feature(enable = "avx2")]
    #[inline]
    unsafe fn add(a: Self, b: Self) -> Self {
        Avx2x8(_mm256_add_epi32(a.0, b.0))
    }
    #[target_feature(enable = "avx2")]
    #[inline]
    unsafe fn xor(a: Self, b: Self) -> Self {
        Avx2x8(_mm256_xor_si256(a.0, b.0))
    }
    #[target_feature(enable = "avx2")]
    #[inline]
    unsafe fn or(a: Self, b: Self) -> Self {
        Avx2x8(_mm256_or_si256(a.0, b.0))
    }
    #[target_feature(enable = "avx2")]
    #[inline]
    unsafe fn rot16(a: Self) -> Self {
        // Shifts, not a byte shuffle: the message transposes keep the shuffle
        // units busy (measured on Zen 4: about 3% faster per block).
        Avx2x8(_mm256_or_si256(_mm256_srli_epi32::<16>(a.0), _mm256_slli_epi32::<16>(a.0)))
    }
    #[target_feature(enable = "avx2")]
    #[inline]
    unsafe fn rot12(a: Self) -> Self {
        Avx2x8(_mm256_or_si256(_mm256_srli_epi32::<12>(a.0), _mm256_slli_epi32::<20>(a.0)))
    }
    #[target_feature(enable = "avx2")]
    #[inline]
    unsafe fn rot8(a: Self) -> Self {
        Avx2x8(_mm256_or_si256(_mm256_srli_epi32::<8>(a.0), _mm256_slli_epi32::<24>(a.0)))
    }
    #[target_feature(enable = "avx2")]
    #[inline]
    unsafe fn rot7(a: Self) -> Self {
        Avx2x8(_mm256_or_si256(_mm256_srli_epi32::<7>(a.0), _mm256_slli_epi32::<25>(a.0)))
    }
    #[target_feature(enable = "avx2")]
    #[inline]
    unsafe fn store_words(self, words: &mut [u32; MAX_LANES]) {
        // SAFETY: an unaligned 32-byte store into the 64 bytes of `words`.
        unsafe { _mm256_storeu_si256(words.as_mut_ptr().cast(), self.0) }
    }
    #[target_feature(enable = "avx2")]
    #[inline]
    unsafe fn eq(a: Self, b: Self) -> __m256i {
        _mm256_cmpeq_epi32(a.0, b.0)
    }
    #[target_feature(enable = "avx2")]
    #[inline]
    unsafe fn blend(mask: __m256i, if_true: Self, if_false: Self) -> Self {
        Avx2x8(_mm256_blendv_epi8(if_false.0, if_true.0, mask))
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
        // SAFETY: `load_blocks8` has this method's contract: AVX2 enabled and
        // 64 readable bytes per pointer plus `offset`.
        let words = unsafe { load_blocks8(blocks, offset) };
        // A loop, not `array::map`: that is not always inlined here, and as
        // a call it moves the vectors through memory (measured: a call per
        // kernel step).
        let mut vectors = [Avx2x8(words[0]); 16];
        for (vector, &word) in vectors.iter_mut().zip(&words) {
            *vector = Avx2x8(word);
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
        // SAFETY: `store_cvs8` needs AVX2, which this method's caller enables.
        unsafe { store_cvs8(words, out) }
    }
}

/// Hashes up to eight jobs side by side (see [`lanes::hash_lanes`]).
///
/// # Safety
///
/// The CPU has AVX2.
#[target_feature(enable = "avx2")]
pub(super) unsafe fn hash_lanes8(key: &CvWords, jobs: &[LaneJob<'_>], out: &mut [CvBytes]) {
    // SAFETY: `hash_lanes` needs `Avx2x8`'s instructions, AVX2, which this
    // function enables.
    unsafe { lanes::hash_lanes::<Avx2x8>(key, jobs, out) }
}

/// Hashes up to eight messages of `blocks` blocks each side by side (see
/// [`lanes::hash_short_messages`]).
///
/// # Safety
///
/// The CPU has AVX2.
#[target_feature(enable = "avx2")]
pub(super) unsafe fn hash_short8(key: &CvWords, blocks: usize, flags: [u8; 3], inputs: &[&[u8]], out: &mut [CvBytes]) {
    // SAFETY: `hash_short_messages` needs `Avx2x8`'s instructions, AVX2,
    // which this function enables.
    unsafe { lanes::hash_short_messages::<Avx2x8, lanes::PaddedTails>(key, blocks, flags, inputs, out) }
}

#[cfg(test)]
mod tests {
    use super::*;

    super::super::tests::lane_vector_test!(avx2x8_transposes_lane_loads_and_word_operations, Avx2x8, "avx2", Avx2);
}
