//! wasm32 SIMD128 kernels: 4 lanes of 32-bit words. WebAssembly has no
//! run-time feature detection, so this file is compiled only when the build
//! enables `simd128` (`-C target-feature=+simd128`), and then every engine
//! that loads the module must support it. Single blocks use the portable
//! compression.

#[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
compile_error!("the SIMD128 backend needs wasm32 with the simd128 target feature");

use core::arch::wasm32::*;

use super::job::LaneJob;
use super::lanes::{self, LaneVector};
use super::spec::{CvBytes, CvWords, MAX_LANES};

/// Four lanes; its instructions are SIMD128's, enabled by the build.
#[derive(Clone, Copy)]
struct Simd128X4(v128);

/// Loads 16 bytes, unaligned.
///
/// # Safety
///
/// `src` is valid for 16 bytes of reads.
#[inline(always)]
unsafe fn loadu(src: *const u8) -> v128 {
    // SAFETY: `v128_load` reads 16 bytes at any alignment, which the caller
    // guarantees are readable.
    unsafe { v128_load(src.cast()) }
}

/// Stores 16 bytes, unaligned.
///
/// # Safety
///
/// `dst` is valid for 16 bytes of writes.
#[inline(always)]
unsafe fn storeu(dst: *mut u8, value: v128) {
    // SAFETY: `v128_store` writes 16 bytes at any alignment, which the
    // caller guarantees are writable.
    unsafe { v128_store(dst.cast(), value) }
}

/// Transposes four rows of four words (the multi-buffer kernels of
/// `mb_simd128.rs` use it too).
#[target_feature(enable = "simd128")]
#[inline]
pub(super) fn transpose4(rows: [v128; 4]) -> [v128; 4] {
    let ab_low = i32x4_shuffle::<0, 4, 1, 5>(rows[0], rows[1]);
    let ab_high = i32x4_shuffle::<2, 6, 3, 7>(rows[0], rows[1]);
    let cd_low = i32x4_shuffle::<0, 4, 1, 5>(rows[2], rows[3]);
    let cd_high = i32x4_shuffle::<2, 6, 3, 7>(rows[2], rows[3]);
    [
        i64x2_shuffle::<0, 2>(ab_low, cd_low),
        i64x2_shuffle::<1, 3>(ab_low, cd_low),
        i64x2_shuffle::<0, 2>(ab_high, cd_high),
        i64x2_shuffle::<1, 3>(ab_high, cd_high),
    ]
}

#[target_feature(enable = "simd128")]
#[inline]
pub(super) fn rotate_right<const N: u32>(a: v128) -> v128 {
    v128_or(u32x4_shr(a, N), u32x4_shl(a, 32 - N))
}

// SAFETY: `LaneVector`'s contract: every method uses SIMD128 only, the set
// `Simd128X4` names, which every build of this file enables.
unsafe impl LaneVector for Simd128X4 {
    const LANES: usize = 4;
    type Mask = v128;

    #[target_feature(enable = "simd128")]
    #[inline]
    unsafe fn splat(word: u32) -> Self {
        Simd128X4(u32x4_splat(word))
    }
    #[target_feature(enable = "simd128")]
    #[inline]
    unsafe fn from_words(words: &[u32; MAX_LANES]) -> Self {
        // SAFETY: `words` has at least 16 readable bytes.
        Simd128X4(unsafe { loadu(words.as_ptr().cast()) })
    }
    #[target_feature(enable = "simd128")]
    #[inline]
    unsafe fn add(a: Self, b: Self) -> Self {
        Simd128X4(u32x4_add(a.0, b.0))
    }
    #[target_feature(enable = "simd128")]
    #[inline]
    unsafe fn xor(a: Self, b: Self) -> Self {
        Simd128X4(v128_xor(a.0, b.0))
    }
    #[target_feature(enable = "simd128")]
    #[inline]
    unsafe fn or(a: Self, b: Self) -> Self {
        Simd128X4(v128_or(a.0, b.0))
    }
    #[target_feature(enable = "simd128")]
    #[inline]
    unsafe fn rot16(a: Self) -> Self {
        Simd128X4(i8x16_shuffle::<2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13>(a.0, a.0))
    }
    #[target_feature(enable = "simd128")]
    #[inline]
    unsafe fn rot12(a: Self) -> Self {
        Simd128X4(rotate_right::<12>(a.0))
    }
    #[target_feature(enable = "simd128")]
    #[inline]
    unsafe fn rot8(a: Self) -> Self {
        // Two shifts and an OR, not a byte shuffle: V8 builds a shuffle's
        // 16-byte mask anew at each use (four instructions: no register is
        // free to keep it), which made BLAKE3 at 1 MiB 9-16% slower in Node.
        // Rotating by 16 stays a shuffle (two instructions, no mask).
        Simd128X4(rotate_right::<8>(a.0))
    }
    #[target_feature(enable = "simd128")]
    #[inline]
    unsafe fn rot7(a: Self) -> Self {
        Simd128X4(rotate_right::<7>(a.0))
    }
    #[target_feature(enable = "simd128")]
    #[inline]
    unsafe fn store_words(self, words: &mut [u32; MAX_LANES]) {
        // SAFETY: `words` has room for every lane.
        unsafe { v128_store(words.as_mut_ptr().cast(), self.0) }
    }
    #[target_feature(enable = "simd128")]
    #[inline]
    unsafe fn eq(a: Self, b: Self) -> v128 {
        u32x4_eq(a.0, b.0)
    }
    #[target_feature(enable = "simd128")]
    #[inline]
    unsafe fn blend(mask: v128, if_true: Self, if_false: Self) -> Self {
        Simd128X4(v128_bitselect(if_true.0, if_false.0, mask))
    }
    #[inline(always)]
    unsafe fn load_blocks(blocks: &[*const u8; MAX_LANES], offset: usize) -> [Self; 16] {
        let mut words = [Simd128X4(u32x4_splat(0)); 16];
        for quarter in 0..4 {
            // SAFETY: the caller guarantees 64 readable bytes per pointer plus offset.
            let rows = core::array::from_fn(|lane| unsafe { loadu(blocks[lane].add(offset + 16 * quarter)) });
            for (i, column) in transpose4(rows).into_iter().enumerate() {
                words[4 * quarter + i] = Simd128X4(column);
            }
        }
        words
    }
    #[inline(always)]
    unsafe fn store_cvs(cv: &[Self; 8], out: &mut [CvBytes]) {
        let out = &mut out[..4];
        let low = transpose4([cv[0].0, cv[1].0, cv[2].0, cv[3].0]);
        let high = transpose4([cv[4].0, cv[5].0, cv[6].0, cv[7].0]);
        for lane in 0..4 {
            // SAFETY: each `out` entry is 32 writable bytes.
            unsafe {
                storeu(out[lane].as_mut_ptr(), low[lane]);
                storeu(out[lane].as_mut_ptr().add(16), high[lane]);
            }
        }
    }
}

/// Hashes up to four jobs side by side (see [`lanes::hash_lanes`]).
///
/// # Safety
///
/// The engine supports SIMD128, which every build of this file requires.
#[target_feature(enable = "simd128")]
pub(super) unsafe fn hash_lanes4(key: &CvWords, jobs: &[LaneJob<'_>], out: &mut [CvBytes]) {
    // SAFETY: the build enables SIMD128, which `Simd128X4` needs.
    unsafe { lanes::hash_lanes::<Simd128X4>(key, jobs, out) }
}

/// Hashes up to four messages of `blocks` blocks each side by side (see
/// [`lanes::hash_short_messages`]).
///
/// # Safety
///
/// The build enables SIMD128 (this file is built only then).
#[target_feature(enable = "simd128")]
pub(super) unsafe fn hash_short4(key: &CvWords, blocks: usize, flags: [u8; 3], inputs: &[&[u8]], out: &mut [CvBytes]) {
    // SAFETY: SIMD128, which `Simd128X4` needs, is enabled for the whole build.
    unsafe { lanes::hash_short_messages::<Simd128X4, lanes::PaddedTails>(key, blocks, flags, inputs, out) }
}

#[cfg(test)]
mod tests {
    use super::super::backend::Backend;
    use super::super::tests::{check_lane_vector, kernel_supported};
    use super::*;

    #[test]
    fn simd128x4_transposes_lane_loads_and_word_operations() {
        assert!(kernel_supported(Backend::Wasm32Simd), "this file is only built with SIMD128");
        // SAFETY: the build enables SIMD128, `Simd128X4`'s instructions.
        unsafe { check_lane_vector::<Simd128X4>() }
    }
}
