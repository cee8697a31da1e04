//! The Gear scan for wasm32 SIMD128: a block's eight strips side by side,
//! two in each of four 128-bit registers.
//!
//! The walk of `avx2.rs` (`strips.rs`): lane `l` rolls the Gear hash over
//! its own strip of `STRIP` positions, starting from zero 63 bytes before
//! it, so each tested hash is the windowed one (`crate::platform::cdc`),
//! and a block's answer is the first match of its lowest lane that has
//! one. The table lookups stay scalar loads (SIMD128 has no gather); the
//! lanes take the hash's shift, add and test. A step with no match (nearly
//! every step, for the masks the kernels are given) costs four `v128.and`,
//! four `i64x2.eq`, three `v128.or` and one `v128.any_true`; which lanes
//! matched is worked out only when one did. SIMD128 is a build-time choice
//! (`-C target-feature=+simd128`).
//!
//! Not picked by detection: under Node (V8, x86-64) it measured 0.65-0.87x
//! the portable scan at FastCDC 16/64/256 KiB and Xet (the
//! `cdc_kernel_speed` example; BENCHMARKS.md). The loop is already tight
//! (no bounds checks, entries loaded straight into lanes): with two 64-bit
//! lanes a register, the eight table lookups a step, which the lanes
//! cannot share, cost as much as the scalar scan's whole step.

#[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
compile_error!("the SIMD128 chunker kernel is for wasm32 with simd128 only");

use core::arch::wasm32::*;

use super::strips::{self, GearLanes, STRIP};

/// See `CdcPlatform::find`; `from >= LOOKBEHIND` unless the range is empty.
#[target_feature(enable = "simd128")]
pub(super) fn find(table: &[u64; 256], shifted: &[u64; 256], bytes: &[u8], from: usize, mask: u64) -> Option<usize> {
    // SAFETY: this function has SIMD128, `Simd128Lanes`' instructions.
    unsafe { strips::find::<Simd128Lanes>(table, shifted, bytes, from, mask) }
}

/// Eight hashes in four registers, lanes `2r` and `2r + 1` in register
/// `r`; SIMD128's instructions.
#[derive(Clone, Copy)]
struct Simd128Lanes([v128; 4]);

// SAFETY: `GearLanes`' contract: every method uses SIMD128 only, the set
// `Simd128Lanes` names.
unsafe impl GearLanes for Simd128Lanes {
    type Mask = v128;

    #[target_feature(enable = "simd128")]
    #[inline]
    unsafe fn mask(mask: u64) -> v128 {
        u64x2_splat(mask)
    }

    #[target_feature(enable = "simd128")]
    #[inline]
    unsafe fn zero() -> Self {
        Simd128Lanes([i64x2_splat(0); 4])
    }

    /// Each entry loaded from the table straight into its lane: a scalar
    /// entry moved into a vector register measured slower under V8.
    #[target_feature(enable = "simd128")]
    #[inline]
    unsafe fn roll(self, table: &[u64; 256], block: &[u8], t: usize) -> Self {
        let entry = |l: usize| &table[block[l * STRIP + t] as usize] as *const u64;
        Simd128Lanes(core::array::from_fn(|r| {
            // SAFETY: both pointers come from references to table entries,
            // 8 readable bytes each; SIMD128 loads need no alignment.
            let entries = unsafe { v128_load64_lane::<1>(v128_load64_zero(entry(2 * r)), entry(2 * r + 1)) };
            let h = self.0[r];
            i64x2_add(i64x2_add(h, h), entries)
        }))
    }

    #[target_feature(enable = "simd128")]
    #[inline]
    unsafe fn matches(self, mask: v128) -> u8 {
        let zero = i64x2_splat(0);
        let matched = self.0.map(|h| i64x2_eq(v128_and(h, mask), zero));
        if !v128_any_true(v128_or(v128_or(matched[0], matched[1]), v128_or(matched[2], matched[3]))) {
            return 0;
        }
        let mut bits = 0;
        for (r, m) in matched.iter().enumerate() {
            bits |= i64x2_bitmask(*m) << (2 * r);
        }
        bits
    }
}
