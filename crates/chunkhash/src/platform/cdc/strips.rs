//! The block walk every SIMD Gear-scan kernel shares (safe code, no
//! intrinsics): a range is taken a block of `LANES` strips at a time, each
//! strip in a lane of its own, and the portable scan takes the rest. Each
//! kernel file implements [`GearLanes`] for its registers and instantiates
//! [`find`] inside a `#[target_feature]` function; everything here is
//! `#[inline(always)]` (and no closure: a closure does not take the
//! caller's target features, and its calls of the lane operations were not
//! inlined), so it compiles with that file's instructions.

use super::{portable, LOOKBEHIND};

/// Strips side by side: 64-bit lanes of one 512-bit register, two 256-bit
/// or four 128-bit.
pub(super) const LANES: usize = 8;
/// Positions in a strip. Long strips: the 63 steps before each are work
/// added, and a block scanned past the match is work lost, which
/// `CdcPlatform::lanes_pay` keeps small by sending only masks of rare
/// matches to the kernels.
pub(super) const STRIP: usize = 1024;

/// The `LANES` Gear hashes of a kernel's registers, lane `l` rolling over
/// strip `l` of a block, and the operations the walk needs.
///
/// # Safety
///
/// Every method may use instructions the CPU may lack: those of the
/// `#[target_feature]` set that the implementing type names in its
/// documentation ("`Self`'s instructions" below), and no others. Callers of
/// every method must run with that set enabled.
pub(super) unsafe trait GearLanes: Copy {
    /// The mask in every lane.
    type Mask: Copy;

    /// `mask` in every lane.
    ///
    /// # Safety
    ///
    /// The caller runs with `Self`'s instructions enabled.
    unsafe fn mask(mask: u64) -> Self::Mask;

    /// Every hash zero.
    ///
    /// # Safety
    ///
    /// The caller runs with `Self`'s instructions enabled.
    unsafe fn zero() -> Self;

    /// One step of every hash, `h = 2h + table[byte]`, lane `l` taking the
    /// byte at index `t` of strip `l` (`block[l * STRIP + t]`).
    ///
    /// # Safety
    ///
    /// The caller runs with `Self`'s instructions enabled.
    unsafe fn roll(self, table: &[u64; 256], block: &[u8], t: usize) -> Self;

    /// A bit per lane whose hash has no bit of `mask` set.
    ///
    /// # Safety
    ///
    /// The caller runs with `Self`'s instructions enabled.
    unsafe fn matches(self, mask: Self::Mask) -> u8;
}

/// See `CdcPlatform::find`; `from >= LOOKBEHIND` unless the range is empty.
///
/// # Safety
///
/// The caller runs with `L`'s instructions enabled.
#[inline(always)]
pub(super) unsafe fn find<L: GearLanes>(
    table: &[u64; 256],
    shifted: &[u64; 256],
    bytes: &[u8],
    from: usize,
    mask: u64,
) -> Option<usize> {
    let mut start = from;
    while bytes.len() - start >= LANES * STRIP {
        let block = &bytes[start - LOOKBEHIND..start + LANES * STRIP];
        // SAFETY: the caller's contract: `L`'s instructions are enabled.
        if let Some(i) = unsafe { find_in_block::<L>(table, block, mask) } {
            return Some(start + i);
        }
        start += LANES * STRIP;
    }
    portable::find(table, shifted, bytes, start, mask)
}

/// The first match in `block[LOOKBEHIND..]`, which is `LANES * STRIP` long
/// (strip `l` from index `LOOKBEHIND + l * STRIP`), as an index from there.
///
/// # Safety
///
/// The caller runs with `L`'s instructions enabled.
#[inline(always)]
unsafe fn find_in_block<L: GearLanes>(table: &[u64; 256], block: &[u8], mask: u64) -> Option<usize> {
    // One length check here lets the compiler drop those of the loops.
    let block = &block[..LOOKBEHIND + LANES * STRIP];
    // SAFETY: the caller's contract: `L`'s instructions are enabled.
    let (mask_lanes, mut hash) = unsafe { (L::mask(mask), L::zero()) };
    for t in warm_up_from(mask)..LOOKBEHIND {
        // SAFETY: the caller's contract.
        hash = unsafe { hash.roll(table, block, t) };
    }
    let mut first_matches = FirstMatches::new();
    for step in 0..STRIP {
        // SAFETY: the caller's contract.
        let matched = unsafe {
            hash = hash.roll(table, block, LOOKBEHIND + step);
            hash.matches(mask_lanes)
        };
        if let Some(step) = first_matches.note(matched, step) {
            return Some(step);
        }
    }
    first_matches.first()
}

/// The first step of the hash in a block (bits above the mask's top one
/// never matter: the hash from that many bytes back has them all;
/// FastCDC's masks end at bit 47), as an index into the block.
fn warm_up_from(mask: u64) -> usize {
    let window = 64 - mask.leading_zeros() as usize;
    LOOKBEHIND + 1 - window.max(1)
}

/// Each lane's first match in a block, noted as the lanes go.
struct FirstMatches {
    found: u8,
    first: [usize; LANES],
}

impl FirstMatches {
    fn new() -> Self {
        FirstMatches { found: 0, first: [0; LANES] }
    }

    /// Notes the lanes of `matched` (a bit per lane) at `step`: the
    /// block's answer when lane 0 matched, whose strip comes first.
    #[inline(always)]
    fn note(&mut self, matched: u8, step: usize) -> Option<usize> {
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
    fn first(&self) -> Option<usize> {
        (self.found != 0).then(|| {
            let lane = self.found.trailing_zeros() as usize;
            lane * STRIP + self.first[lane]
        })
    }
}
