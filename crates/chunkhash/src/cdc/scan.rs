//! The Gear rolling hash and its scan for a cut point (safe, portable code).
//!
//! The Gear hash of FastCDC (Xia et al., ATC '16, section 3.1) takes one
//! table lookup, one shift and one add per byte:
//! `h = (h << 1) + G[byte]`. After 64 bytes the shift has pushed every
//! older byte out, so the hash at a position is a function of the last 64
//! bytes alone (bit `k` of the last `k + 1`).

/// Adds `bytes` to the hash `h` without testing any position.
#[inline]
pub(crate) fn roll(table: &[u64; 256], h: u64, bytes: &[u8]) -> u64 {
    // Only the last 64 bytes can change the result.
    let tail = &bytes[bytes.len().saturating_sub(64)..];
    let mut h = if bytes.len() >= 64 { 0 } else { h };
    for &b in tail {
        h = (h << 1).wrapping_add(table[b as usize]);
    }
    h
}

/// Adds `bytes` to the hash `*h` one byte at a time and returns the index of
/// the first byte after which `*h & mask == 0`, leaving `*h` the hash up to
/// and including it; `None` (and `*h` over all of `bytes`) if there is none.
/// `shifted` is `table` with each entry shifted left by one.
#[inline]
pub(crate) fn scan(table: &[u64; 256], shifted: &[u64; 256], h: &mut u64, bytes: &[u8], mask: u64) -> Option<usize> {
    // One loop per case, so FastCDC's (top bit clear) has no second test.
    if mask >> 63 == 0 {
        scan_pairs::<false>(table, shifted, h, bytes, mask)
    } else {
        scan_pairs::<true>(table, shifted, h, bytes, mask)
    }
}

/// [`scan`], for masks with the top bit set when `TOP_BIT`.
#[inline(always)]
fn scan_pairs<const TOP_BIT: bool>(
    table: &[u64; 256],
    shifted: &[u64; 256],
    h: &mut u64,
    bytes: &[u8],
    mask: u64,
) -> Option<usize> {
    // Two bytes a step, as the 2020 paper does: `4h + (G[a] << 1)` is the
    // hash after `a` shifted left by one, tested against the mask shifted
    // by one (the same test while the mask's top bit is clear, a filter
    // passed by every match otherwise), then
    // `+ G[b]` is the hash after `b`. Three operations per two bytes, where
    // the plain loop takes four; this loop is bound by operation count on
    // this machine (tried and slower: the hash after `a` computed apart,
    // one branch for both tests, four strips of a block side by side).
    let shifted_mask = mask << 1;
    let mut hash = *h;
    let mut pairs = bytes.chunks_exact(2);
    let mut index = 0;
    for pair in &mut pairs {
        let before = hash;
        hash = (before << 2).wrapping_add(shifted[pair[0] as usize]);
        if hash & shifted_mask == 0 {
            // The shift dropped the top bit of the hash after `a`: with a
            // mask that tests it (Xet's), this test was only a filter.
            let after_a = (before << 1).wrapping_add(table[pair[0] as usize]);
            if !TOP_BIT || after_a & mask == 0 {
                *h = after_a;
                return Some(index);
            }
        }
        hash = hash.wrapping_add(table[pair[1] as usize]);
        if hash & mask == 0 {
            *h = hash;
            return Some(index + 1);
        }
        index += 2;
    }
    for &b in pairs.remainder() {
        hash = (hash << 1).wrapping_add(table[b as usize]);
        if hash & mask == 0 {
            *h = hash;
            return Some(index);
        }
        index += 1;
    }
    *h = hash;
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cdc::tables::{GEAR_FASTCDC, GEAR_FASTCDC_SHIFTED};

    fn scan_bytewise(table: &[u64; 256], h: &mut u64, bytes: &[u8], mask: u64) -> Option<usize> {
        for (i, &b) in bytes.iter().enumerate() {
            *h = (*h << 1).wrapping_add(table[b as usize]);
            if *h & mask == 0 {
                return Some(i);
            }
        }
        None
    }

    #[test]
    fn pairs_equal_one_byte_at_a_time() {
        let mut state = 7u64;
        let bytes: [u8; 4099] = core::array::from_fn(|_| {
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (state >> 56) as u8
        });
        // A shorter input under Miri (scripts/test/miri.sh), still with cuts.
        let bytes = &bytes[..if cfg!(miri) { 1500 } else { bytes.len() }];
        for mask in [0xffu64 << 4, 0x3f << 20, 0x1ff, 0x0000_d903_0353_0000, 0xffff << 48, 0x8000_0000_0000_01ff] {
            for start in 0..5 {
                let (mut h1, mut h2) = (start as u64, start as u64);
                let (mut from, mut found) = (start, 0);
                while from < bytes.len() {
                    let a = scan(&GEAR_FASTCDC, &GEAR_FASTCDC_SHIFTED, &mut h1, &bytes[from..], mask);
                    let b = scan_bytewise(&GEAR_FASTCDC, &mut h2, &bytes[from..], mask);
                    assert_eq!((a, h1), (b, h2), "mask {mask:x} from {from}");
                    match a {
                        Some(i) => {
                            from += i + 1;
                            found += 1;
                        }
                        None => break,
                    }
                }
                assert!(
                    found > 0 || mask.count_ones() > if cfg!(miri) { 8 } else { 10 },
                    "mask {mask:x}: no cut found"
                );
            }
        }
    }

    #[test]
    fn roll_equals_scan_without_cut() {
        let bytes: [u8; 200] = core::array::from_fn(|i| (i * 7 + 3) as u8);
        for len in [0, 1, 63, 64, 65, 200] {
            let mut h = 12345;
            assert_eq!(scan(&GEAR_FASTCDC, &GEAR_FASTCDC_SHIFTED, &mut h, &bytes[..len], u64::MAX), None);
            assert_eq!(roll(&GEAR_FASTCDC, 12345, &bytes[..len]), h, "len {len}");
        }
    }
}
