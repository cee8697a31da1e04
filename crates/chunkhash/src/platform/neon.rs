//! aarch64 NEON kernels: 4 lanes of 32-bit words. NEON is part of every
//! little-endian aarch64 target, so it is a build-time choice with nothing
//! to detect. Single blocks use the portable compression, which the
//! compiler vectorises well enough there.

#[cfg(not(all(target_arch = "aarch64", target_endian = "little")))]
compile_error!("the NEON backend is for little-endian aarch64 only");

use core::arch::aarch64::*;

use super::job::LaneJob;
use super::lanes::{self, LaneVector};
use super::spec::{CvBytes, CvWords, MAX_LANES};

/// Four lanes; its instructions are NEON's, part of the target.
#[derive(Clone, Copy)]
struct NeonX4(uint32x4_t);

/// Loads 16 bytes, unaligned.
///
/// # Safety
///
/// `src` is valid for 16 bytes of reads.
#[inline(always)]
unsafe fn loadu(src: *const u8) -> uint32x4_t {
    // SAFETY: `vld1q_u8` reads 16 bytes, which the caller guarantees are
    // readable; a byte load needs no alignment; NEON is part of the target.
    unsafe { vreinterpretq_u32_u8(vld1q_u8(src)) }
}

/// Stores 16 bytes, unaligned.
///
/// # Safety
///
/// `dst` is valid for 16 bytes of writes.
#[inline(always)]
unsafe fn storeu(dst: *mut u8, value: uint32x4_t) {
    // SAFETY: `vst1q_u8` writes 16 bytes, which the caller guarantees are
    // writable; a byte store needs no alignment; NEON is part of the target.
    unsafe { vst1q_u8(dst, vreinterpretq_u8_u32(value)) }
}

/// Transposes four rows of four words (`mb_neon.rs` uses it too).
#[target_feature(enable = "neon")]
#[inline]
pub(super) fn transpose4(rows: [uint32x4_t; 4]) -> [uint32x4_t; 4] {
    // ab.0 = [a0, b0, a2, b2], ab.1 = [a1, b1, a3, b3]; the same for cd.
    let ab = vtrnq_u32(rows[0], rows[1]);
    let cd = vtrnq_u32(rows[2], rows[3]);
    [
        vcombine_u32(vget_low_u32(ab.0), vget_low_u32(cd.0)),
        vcombine_u32(vget_low_u32(ab.1), vget_low_u32(cd.1)),
        vcombine_u32(vget_high_u32(ab.0), vget_high_u32(cd.0)),
        vcombine_u32(vget_high_u32(ab.1), vget_high_u32(cd.1)),
    ]
}

/// Rotates each word right by `N` with a shift and a shift-right-insert.
#[target_feature(enable = "neon")]
#[inline]
fn rotate_right<const N: i32, const LEFT: i32>(a: uint32x4_t) -> uint32x4_t {
    vsriq_n_u32::<N>(vshlq_n_u32::<LEFT>(a), a)
}

// SAFETY: `LaneVector`'s contract: every method uses NEON only, the set
// `NeonX4` names, which every little-endian aarch64 target has.
unsafe impl LaneVector for NeonX4 {
    const LANES: usize = 4;
    type Mask = uint32x4_t;

    #[target_feature(enable = "neon")]
    #[inline]
    unsafe fn splat(word: u32) -> Self {
        NeonX4(vdupq_n_u32(word))
    }
    #[target_feature(enable = "neon")]
    #[inline]
    unsafe fn from_words(words: &[u32; MAX_LANES]) -> Self {
        // SAFETY: `words` has at least 16 readable bytes.
        NeonX4(unsafe { loadu(words.as_ptr().cast()) })
    }
    #[target_feature(enable = "neon")]
    #[inline]
    unsafe fn add(a: Self, b: Self) -> Self {
        NeonX4(vaddq_u32(a.0, b.0))
    }
    #[target_feature(enable = "neon")]
    #[inline]
    unsafe fn xor(a: Self, b: Self) -> Self {
        NeonX4(veorq_u32(a.0, b.0))
    }
    #[target_feature(enable = "neon")]
    #[inline]
    unsafe fn or(a: Self, b: Self) -> Self {
        NeonX4(vorrq_u32(a.0, b.0))
    }
    #[target_feature(enable = "neon")]
    #[inline]
    unsafe fn rot16(a: Self) -> Self {
        // Swapping the 16-bit halves of each word is one instruction.
        NeonX4(vreinterpretq_u32_u16(vrev32q_u16(vreinterpretq_u16_u32(a.0))))
    }
    #[target_feature(enable = "neon")]
    #[inline]
    unsafe fn rot12(a: Self) -> Self {
        NeonX4(rotate_right::<12, 20>(a.0))
    }
    #[target_feature(enable = "neon")]
    #[inline]
    unsafe fn rot8(a: Self) -> Self {
        NeonX4(rotate_right::<8, 24>(a.0))
    }
    #[target_feature(enable = "neon")]
    #[inline]
    unsafe fn rot7(a: Self) -> Self {
        NeonX4(rotate_right::<7, 25>(a.0))
    }
    #[target_feature(enable = "neon")]
    #[inline]
    unsafe fn store_words(self, words: &mut [u32; MAX_LANES]) {
        // SAFETY: `words` has room for every lane.
        unsafe { vst1q_u32(words.as_mut_ptr(), self.0) }
    }
    #[target_feature(enable = "neon")]
    #[inline]
    unsafe fn eq(a: Self, b: Self) -> uint32x4_t {
        vceqq_u32(a.0, b.0)
    }
    #[target_feature(enable = "neon")]
    #[inline]
    unsafe fn blend(mask: uint32x4_t, if_true: Self, if_false: Self) -> Self {
        NeonX4(vbslq_u32(mask, if_true.0, if_false.0))
    }
    #[inline(always)]
    unsafe fn load_blocks(blocks: &[*const u8; MAX_LANES], offset: usize) -> [Self; 16] {
        // SAFETY: NEON is baseline on aarch64.
        let mut words = [NeonX4(unsafe { vdupq_n_u32(0) }); 16];
        for quarter in 0..4 {
            // SAFETY: the caller guarantees 64 readable bytes per pointer plus offset.
            let rows = core::array::from_fn(|lane| unsafe { loadu(blocks[lane].add(offset + 16 * quarter)) });
            // SAFETY: NEON is part of every aarch64 CPU.
            for (i, column) in unsafe { transpose4(rows) }.into_iter().enumerate() {
                words[4 * quarter + i] = NeonX4(column);
            }
        }
        words
    }
    #[inline(always)]
    unsafe fn store_cvs(cv: &[Self; 8], out: &mut [CvBytes]) {
        let out = &mut out[..4];
        // SAFETY: NEON is part of every aarch64 CPU.
        let (low, high) = unsafe {
            (transpose4([cv[0].0, cv[1].0, cv[2].0, cv[3].0]), transpose4([cv[4].0, cv[5].0, cv[6].0, cv[7].0]))
        };
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
/// The CPU has NEON, which every target this file is built for has.
#[target_feature(enable = "neon")]
pub(super) unsafe fn hash_lanes4(key: &CvWords, jobs: &[LaneJob<'_>], out: &mut [CvBytes]) {
    // SAFETY: NEON, which `NeonX4` needs, is part of every aarch64 CPU.
    unsafe { lanes::hash_lanes::<NeonX4>(key, jobs, out) }
}

/// Hashes up to four messages of `blocks` blocks each side by side (see
/// [`lanes::hash_short_messages`]).
///
/// # Safety
///
/// The CPU has NEON, which every target this file is built for has.
#[target_feature(enable = "neon")]
pub(super) unsafe fn hash_short4(key: &CvWords, blocks: usize, flags: [u8; 3], inputs: &[&[u8]], out: &mut [CvBytes]) {
    // SAFETY: NEON, which `NeonX4` needs, is part of every aarch64 CPU.
    unsafe { lanes::hash_short_messages::<NeonX4, lanes::PaddedTails>(key, blocks, flags, inputs, out) }
}

#[cfg(test)]
mod tests {
    use super::*;

    super::super::tests::lane_vector_test!(neonx4_transposes_lane_loads_and_word_operations, NeonX4, "neon", Neon);
}
