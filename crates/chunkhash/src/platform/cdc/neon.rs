//! The Gear scan for aarch64 NEON: a block's eight strips side by side,
//! two in each of four 128-bit registers.
//!
//! The walk of `avx2.rs` (`strips.rs`): lane `l` rolls the Gear hash over
//! its own strip of `STRIP` positions, starting from zero 63 bytes before
//! it, so each tested hash is the windowed one (`crate::platform::cdc`),
//! and a block's answer is the first match of its lowest lane that has
//! one. The table lookups stay scalar loads (NEON has no gather); the lanes
//! take the hash's shift, add and test. A step with no match (nearly every
//! step, for the masks the kernels are given) costs four `cmtst`, three
//! `and` and one `uminv`; which lanes matched is worked out only when one
//! did.
//!
//! Not picked by detection on aarch64: it is tested here under qemu-user,
//! where its speed says nothing, so it runs only when forced
//! (`CHUNKHASH_CDC_KERNEL=neon` or `Cdc::with_kernel`) until measured
//! against the portable scan on aarch64 hardware (the `cdc_kernel_speed`
//! example).

#[cfg(not(all(target_arch = "aarch64", target_endian = "little")))]
compile_error!("the NEON chunker kernel is for little-endian aarch64 only");

use core::arch::aarch64::*;

use super::strips::{self, GearLanes, STRIP};

/// See `CdcPlatform::find`; `from >= LOOKBEHIND` unless the range is empty.
#[target_feature(enable = "neon")]
pub(super) fn find(table: &[u64; 256], shifted: &[u64; 256], bytes: &[u8], from: usize, mask: u64) -> Option<usize> {
    // SAFETY: this function has NEON, `NeonLanes`' instructions.
    unsafe { strips::find::<NeonLanes>(table, shifted, bytes, from, mask) }
}

/// Eight hashes in four registers, lanes `2r` and `2r + 1` in register
/// `r`; NEON's instructions.
#[derive(Clone, Copy)]
struct NeonLanes([uint64x2_t; 4]);

// SAFETY: `GearLanes`' contract: every method uses NEON only, the set
// `NeonLanes` names.
unsafe impl GearLanes for NeonLanes {
    type Mask = uint64x2_t;

    #[target_feature(enable = "neon")]
    #[inline]
    unsafe fn mask(mask: u64) -> uint64x2_t {
        vdupq_n_u64(mask)
    }

    #[target_feature(enable = "neon")]
    #[inline]
    unsafe fn zero() -> Self {
        NeonLanes([vdupq_n_u64(0); 4])
    }

    #[target_feature(enable = "neon")]
    #[inline]
    unsafe fn roll(self, table: &[u64; 256], block: &[u8], t: usize) -> Self {
        let entry = |l: usize| vcreate_u64(table[block[l * STRIP + t] as usize]);
        NeonLanes(core::array::from_fn(|r| {
            let h = self.0[r];
            vaddq_u64(vaddq_u64(h, h), vcombine_u64(entry(2 * r), entry(2 * r + 1)))
        }))
    }

    #[target_feature(enable = "neon")]
    #[inline]
    unsafe fn matches(self, mask: uint64x2_t) -> u8 {
        // `cmtst`: all ones in a lane whose hash shares a bit with the
        // mask, that is, a lane that did not match.
        let missed = self.0.map(|h| vtstq_u64(h, mask));
        let all_missed = vandq_u64(vandq_u64(missed[0], missed[1]), vandq_u64(missed[2], missed[3]));
        if vminvq_u32(vreinterpretq_u32_u64(all_missed)) == u32::MAX {
            return 0;
        }
        let mut matched = 0;
        for (r, m) in missed.iter().enumerate() {
            matched |= u8::from(vgetq_lane_u64::<0>(*m) == 0) << (2 * r);
            matched |= u8::from(vgetq_lane_u64::<1>(*m) == 0) << (2 * r + 1);
        }
        matched
    }
}
