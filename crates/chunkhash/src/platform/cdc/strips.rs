//! The block walk the SIMD Gear-scan kernels share (safe code, no
//! intrinsics): a range is taken a block of `LANES` strips at a time, each
//! strip in a lane of its own, and the portable scan takes the rest.

use super::{portable, LOOKBEHIND};

/// Strips side by side: 64-bit lanes of one 512-bit register or two 256-bit.
pub(super) const LANES: usize = 8;
/// Positions in a strip. Long strips: the 63 steps before each are work
/// added, and a block scanned past the match is work lost, which
/// `CdcPlatform::lanes_pay` keeps small by sending only masks of rare
/// matches to the kernels.
pub(super) const STRIP: usize = 1024;

/// See `CdcPlatform::find`: `in_block` finds the first match in
/// `block[LOOKBEHIND..]` (`LANES * STRIP` positions, strip `l` from index
/// `LOOKBEHIND + l * STRIP`), as an index from there.
#[inline(always)]
pub(super) fn find_in_blocks(
    table: &[u64; 256],
    shifted: &[u64; 256],
    bytes: &[u8],
    from: usize,
    mask: u64,
    mut in_block: impl FnMut(&[u8]) -> Option<usize>,
) -> Option<usize> {
    let mut start = from;
    while bytes.len() - start >= LANES * STRIP {
        let block = &bytes[start - LOOKBEHIND..start + LANES * STRIP];
        if let Some(i) = in_block(block) {
            return Some(start + i);
        }
        start += LANES * STRIP;
    }
    portable::find(table, shifted, bytes, start, mask)
}

/// The first step of the hash in a block (bits above the mask's top one
/// never matter: the hash from that many bytes back has them all;
/// FastCDC's masks end at bit 47), as an index into the block.
pub(super) fn warm_up_from(mask: u64) -> usize {
    let window = 64 - mask.leading_zeros() as usize;
    LOOKBEHIND + 1 - window.max(1)
}

/// Each lane's first match in a block, noted as the lanes go.
pub(super) struct FirstMatches {
    found: u8,
    first: [usize; LANES],
}

impl FirstMatches {
    pub(super) fn new() -> Self {
        FirstMatches { found: 0, first: [0; LANES] }
    }

    /// Notes the lanes of `matched` (a bit per lane) at `step`: the
    /// block's answer when lane 0 matched, whose strip comes first.
    #[inline(always)]
    pub(super) fn note(&mut self, matched: u8, step: usize) -> Option<usize> {
        let new = matched & !self.found;
        if new == 0 {
            return None;
        }
        // Rare (a mask's worth of bits).
        if new & 1 != 0 {
            return Some(step);
        }
        for (lane, first) in self.first.iter_mut().enumerate() {
            if new >> lane & 1 != 0 {
                *first = step;
            }
        }
        self.found |= new;
        None
    }

    /// The block's first match: the first of the lowest lane with one.
    pub(super) fn first(&self) -> Option<usize> {
        (self.found != 0).then(|| {
            let lane = self.found.trailing_zeros() as usize;
            lane * STRIP + self.first[lane]
        })
    }
}
