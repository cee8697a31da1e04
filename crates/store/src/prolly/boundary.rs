//! Where nodes end: a hash of each key against a Weibull rule, so that a
//! node's end depends only on the entries since the previous end, never on
//! the order in which they were inserted.
//!
//! After each entry the builder knows how many entry bytes the node holds
//! before it (`before`) and with it (`after`). The node ends after the entry
//! when `after` reaches [`MAX_ENTRY_BYTES`], never below [`MIN_NODE_BYTES`],
//! and otherwise with the probability that a Weibull-distributed size
//! (shape 4, scale [`TARGET_NODE_BYTES`]) falls in `(before, after]` given
//! that it is above `before`:
//!
//! ```text
//! p = 1 - S(after) / S(before),   S(x) = exp(-(x / 4096)^4)
//! ```
//!
//! The entry's "coin" is its key's XXH3-64 (levels above the leaves remix it
//! with the level, so a key that ended a leaf is not more likely to end its
//! parent), read as a fraction of 2^64: the node ends when the coin is below
//! `p`. Sizes so drawn have mean 4096 x Gamma(1.25) = 3713 bytes and almost
//! never pass 12 KiB (S(12288) = e^-81), so the maximum is a guard for large
//! entries rather than part of the shape.
//!
//! `S` is computed with additions, multiplications and divisions only
//! (a Taylor series and repeated squaring), which IEEE 754 rounds the same
//! way on every platform: the library `exp` may differ in its last bit
//! between C libraries, and one bit would move a boundary and change a root.

use chunkhash::Algorithm;
use std::sync::OnceLock;

/// No node ends below this many entry bytes (the last node of a level may
/// be smaller: the entries simply end).
pub const MIN_NODE_BYTES: usize = 512;
/// The scale of the Weibull rule: nodes hold 3713 entry bytes on average.
pub const TARGET_NODE_BYTES: usize = 4096;
/// The most entry bytes a node holds, so that with its header (at most 8
/// bytes) a node stays within 16 KiB; a single entry larger than this gets
/// a node of its own.
pub const MAX_ENTRY_BYTES: usize = 16 * 1024 - 8;

/// The Weibull shape: 4, as the node size distributions of Dolt's prolly
/// trees use (sizes cluster near the target, rarely far above it).
const SHAPE_POWER: u32 = 4;

/// `exp(-t)` for `0 <= t <= 256` with basic arithmetic only:
/// `exp(-t / 1024)` by its Taylor series (12 terms; the argument is at most
/// 0.25, so the error is below 10^-17), then squared ten times.
fn exp_neg(t: f64) -> f64 {
    let x = -t / 1024.0;
    let mut term = 1.0;
    let mut sum = 1.0;
    for n in 1..=12 {
        term = term * x / f64::from(n);
        sum += term;
    }
    for _ in 0..10 {
        sum *= sum;
    }
    sum
}

/// `S(x)` for every size a decision can see, `0..MAX_ENTRY_BYTES`.
fn survival() -> &'static [f64] {
    static TABLE: OnceLock<Vec<f64>> = OnceLock::new();
    TABLE.get_or_init(|| {
        (0..MAX_ENTRY_BYTES)
            .map(|x| {
                let r = x as f64 / TARGET_NODE_BYTES as f64;
                exp_neg(r.powi(SHAPE_POWER as i32))
            })
            .collect()
    })
}

/// The key's coin at `level`: XXH3-64 of the key (the registry's, seed 0)
/// at the leaves; above them that value remixed with the level by the
/// MurmurHash3 64-bit finaliser, a bijection whose output bits each depend
/// on every input bit.
pub(crate) fn coin(level: u8, key: &[u8]) -> u64 {
    let digest = chunkhash::digest(Algorithm::Xxh3_64, key);
    let mut bytes = [0u8; 8];
    bytes.copy_from_slice(digest.as_bytes());
    let hash = u64::from_be_bytes(bytes);
    if level == 0 {
        return hash;
    }
    let mut h = hash ^ u64::from(level).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    h ^= h >> 33;
    h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
    h ^= h >> 33;
    h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    h ^ (h >> 33)
}

/// Whether a node at `level` ends after an entry with `key`, which took its
/// entry bytes from `before` to `after`.
pub(crate) fn ends_after(level: u8, key: &[u8], before: usize, after: usize) -> bool {
    if after >= MAX_ENTRY_BYTES {
        return true;
    }
    if after < MIN_NODE_BYTES {
        return false;
    }
    let table = survival();
    let p = 1.0 - table[after] / table[before];
    // 2^64: the coin as a fraction of it is below p.
    (coin(level, key) as f64) < p * 18_446_744_073_709_551_616.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_series_matches_the_library_exp_closely() {
        for t in [0.0, 1e-9, 0.001, 0.5, 1.0, 3.7, 20.0, 100.0, 255.0] {
            let ours = exp_neg(t);
            let libm = (-t).exp();
            assert!((ours - libm).abs() <= 1e-12 * libm, "t {t}: {ours} vs {libm}");
        }
        // Pinned values: a change of the table changes every root.
        assert_eq!(survival()[0], 1.0);
        assert_eq!(survival()[4096].to_bits(), exp_neg(1.0).to_bits());
    }

    #[test]
    fn sizes_follow_the_rule() {
        // Fixed-size entries with varied keys: node sizes stay in bounds
        // and average near 4096 x Gamma(1.25) = 3713.
        let entry = 100;
        let mut sizes = Vec::new();
        let mut size = 0;
        for i in 0u64..200_000 {
            let before = size;
            size += entry;
            if ends_after(0, &i.to_be_bytes(), before, size) {
                sizes.push(size);
                size = 0;
            }
        }
        let mean = sizes.iter().sum::<usize>() as f64 / sizes.len() as f64;
        assert!(sizes.iter().all(|&s| (MIN_NODE_BYTES..=MAX_ENTRY_BYTES + entry).contains(&s)));
        assert!((3500.0..3950.0).contains(&mean), "mean node {mean} over {} nodes", sizes.len());
    }

    #[test]
    fn levels_draw_independent_coins() {
        let same =
            (0u64..10_000).filter(|i| coin(0, &i.to_le_bytes()) >> 60 == coin(1, &i.to_le_bytes()) >> 60).count();
        // Equal top nibbles by chance: 1 in 16.
        assert!((450..800).contains(&same), "{same}");
    }
}
