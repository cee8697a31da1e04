//! The Gear scan for wasm32 SIMD128: a block's eight strips side by side,
//! two in each of four 128-bit registers.
//!
//! The walk of `avx2.rs` (see there and `strips.rs`): lane `l` rolls the
//! Gear hash over its own strip of `STRIP` positions, starting from zero
//! 63 bytes before it, so each tested hash is the windowed one
//! (`crate::platform::cdc`), and a block's answer is the first match of its
//! lowest lane that has one. The table lookups stay scalar loads (SIMD128
//! has no gather); the lanes take the hash's shift, add and test. A step
//! with no match (nearly every step, for the masks the kernels are given)
//! costs four `v128.and`, four `i64x2.eq`, three `v128.or` and one
//! `v128.any_true`; which lanes matched is worked out only when one did. SIMD128 is a build-time choice
//! (`-C target-feature=+simd128`), or the npm package's SIMD128 module
//! (`platform/simd128_module.rs`).

#[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
compile_error!("the SIMD128 chunker kernel is for wasm32 with simd128 only");

use core::arch::wasm32::*;

use super::strips::{self, FirstMatches, LANES, STRIP};
use super::LOOKBEHIND;

/// Registers of two lanes each.
const REGISTERS: usize = LANES / 2;

/// See `CdcPlatform::find`; `from >= LOOKBEHIND` unless the range is empty.
#[target_feature(enable = "simd128")]
pub(super) fn find(table: &[u64; 256], shifted: &[u64; 256], bytes: &[u8], from: usize, mask: u64) -> Option<usize> {
    strips::find_in_blocks(table, shifted, bytes, from, mask, |block| find_in_block(table, block, mask))
}

/// The table entries of the bytes at index `t` of the strips (strip `l`
/// starts at `l * STRIP`), lanes `2r` and `2r + 1` in register `r`, each
/// loaded from the table straight into its lane (a scalar entry moved
/// into a vector register measured slower under V8).
#[target_feature(enable = "simd128")]
#[inline]
fn entries(table: &[u64; 256], block: &[u8], t: usize) -> [v128; REGISTERS] {
    let entry = |l: usize| &table[block[l * STRIP + t] as usize] as *const u64;
    core::array::from_fn(|r| {
        // SAFETY: both pointers come from references to table entries,
        // 8 readable bytes each; SIMD128 loads need no alignment.
        unsafe { v128_load64_lane::<1>(v128_load64_zero(entry(2 * r)), entry(2 * r + 1)) }
    })
}

/// One step of the hash in each lane: `h = 2h + entry`.
#[target_feature(enable = "simd128")]
#[inline]
fn roll(hash: &mut [v128; REGISTERS], entries: [v128; REGISTERS]) {
    for (h, e) in hash.iter_mut().zip(entries) {
        *h = i64x2_add(i64x2_add(*h, *h), e);
    }
}

/// A bit per lane whose hash has no bit of the mask set.
#[target_feature(enable = "simd128")]
#[inline]
fn matches(hash: &[v128; REGISTERS], mask: v128) -> u8 {
    let zero = i64x2_splat(0);
    let matched = hash.map(|h| i64x2_eq(v128_and(h, mask), zero));
    if !v128_any_true(v128_or(v128_or(matched[0], matched[1]), v128_or(matched[2], matched[3]))) {
        return 0;
    }
    let mut bits = 0;
    for (r, m) in matched.iter().enumerate() {
        bits |= i64x2_bitmask(*m) << (2 * r);
    }
    bits
}

/// The first match in `block[LOOKBEHIND..]`, which is `LANES * STRIP` long,
/// as an index from there.
#[target_feature(enable = "simd128")]
#[inline]
fn find_in_block(table: &[u64; 256], block: &[u8], mask: u64) -> Option<usize> {
    // One length check here lets the compiler drop those of the loops.
    let block = &block[..LOOKBEHIND + LANES * STRIP];
    let mask_lanes = u64x2_splat(mask);
    let mut hash = [i64x2_splat(0); REGISTERS];
    for t in strips::warm_up_from(mask)..LOOKBEHIND {
        roll(&mut hash, entries(table, block, t));
    }
    let mut first_matches = FirstMatches::new();
    for step in 0..STRIP {
        roll(&mut hash, entries(table, block, LOOKBEHIND + step));
        let matched = matches(&hash, mask_lanes);
        if let Some(step) = first_matches.note(matched, step) {
            return Some(step);
        }
    }
    first_matches.first()
}
