//! The portable Gear scan for a windowed match: the chunker's own scalar
//! scan (`crate::cdc::scan`, two bytes a step) started on a hash of the
//! 63 bytes before the range. The oracle of the SIMD kernels, and what
//! they run on the part of a range their blocks do not cover.

use super::LOOKBEHIND;
use crate::cdc::scan::{roll, scan};

/// See `CdcPlatform::find`; `from >= LOOKBEHIND` unless the range is empty.
pub(super) fn find(table: &[u64; 256], shifted: &[u64; 256], bytes: &[u8], from: usize, mask: u64) -> Option<usize> {
    if from >= bytes.len() {
        return None;
    }
    let mut hash = roll(table, 0, &bytes[from - LOOKBEHIND..from]);
    scan(table, shifted, &mut hash, &bytes[from..], mask).map(|i| from + i)
}
