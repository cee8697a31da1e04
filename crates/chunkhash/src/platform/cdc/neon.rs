//! The Gear scan for aarch64 NEON: a block's eight strips side by side,
//! two in each of four 128-bit registers.
//!
//! The walk of `avx2.rs` (see there and `strips.rs`): lane `l` rolls the
//! Gear hash over its own strip of `STRIP` positions, starting from zero
//! 63 bytes before it, so each tested hash is the windowed one
//! (`crate::platform::cdc`), and a block's answer is the first match of its
//! lowest lane that has one. The table lookups stay scalar loads (NEON has
//! no gather); the lanes take the hash's shift, add and test. A step with
//! no match (nearly every step, for the masks the kernels are given) costs
//! four `cmtst`, three `and` and one `uminv`; which lanes matched is worked
//! out only when one did.
//!
//! Not the default on aarch64: it is tested here under qemu-user, where its
//! speed says nothing, so it runs only when forced (`CHUNKHASH_CDC_KERNEL=neon`
//! or `Cdc::with_kernel`) until measured against the portable scan on
//! aarch64 hardware.

#[cfg(not(all(target_arch = "aarch64", target_endian = "little")))]
compile_error!("the NEON chunker kernel is for little-endian aarch64 only");

use core::arch::aarch64::*;

use super::strips::{self, FirstMatches, LANES, STRIP};
use super::LOOKBEHIND;

/// Registers of two lanes each.
const REGISTERS: usize = LANES / 2;

/// See `CdcPlatform::find`; `from >= LOOKBEHIND` unless the range is empty.
#[target_feature(enable = "neon")]
pub(super) fn find(table: &[u64; 256], shifted: &[u64; 256], bytes: &[u8], from: usize, mask: u64) -> Option<usize> {
    strips::find_in_blocks(table, shifted, bytes, from, mask, |block| {
        // Safe to call: the closure has `find`'s target feature.
        find_in_block(table, block, mask)
    })
}

/// The table entries of the bytes at index `t` of the strips (strip `l`
/// starts at `l * STRIP`), lanes `2r` and `2r + 1` in register `r`.
#[target_feature(enable = "neon")]
#[inline]
fn entries(table: &[u64; 256], block: &[u8], t: usize) -> [uint64x2_t; REGISTERS] {
    let entry = |l: usize| table[block[l * STRIP + t] as usize];
    core::array::from_fn(|r| vcombine_u64(vcreate_u64(entry(2 * r)), vcreate_u64(entry(2 * r + 1))))
}

/// One step of the hash in each lane: `h = 2h + entry`.
#[target_feature(enable = "neon")]
#[inline]
fn roll(hash: &mut [uint64x2_t; REGISTERS], entries: [uint64x2_t; REGISTERS]) {
    for (h, e) in hash.iter_mut().zip(entries) {
        *h = vaddq_u64(vaddq_u64(*h, *h), e);
    }
}

/// A bit per lane whose hash has no bit of the mask set.
#[target_feature(enable = "neon")]
#[inline]
fn matches(hash: &[uint64x2_t; REGISTERS], mask: uint64x2_t) -> u8 {
    // `cmtst`: all ones in a lane whose hash shares a bit with the mask,
    // that is, a lane that did not match.
    let missed = hash.map(|h| vtstq_u64(h, mask));
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

/// The first match in `block[LOOKBEHIND..]`, which is `LANES * STRIP` long,
/// as an index from there.
#[target_feature(enable = "neon")]
#[inline]
fn find_in_block(table: &[u64; 256], block: &[u8], mask: u64) -> Option<usize> {
    // One length check here lets the compiler drop those of the loops.
    let block = &block[..LOOKBEHIND + LANES * STRIP];
    let mask_lanes = vdupq_n_u64(mask);
    let mut hash = [vdupq_n_u64(0); REGISTERS];
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
