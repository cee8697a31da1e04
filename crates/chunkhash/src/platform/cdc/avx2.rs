//! The Gear scan for x86 AVX2: a block's eight strips side by side, one in
//! each 64-bit lane of two registers.
//!
//! Lane `l` rolls the Gear hash over its own strip of `STRIP` positions,
//! starting from zero 63 bytes before it, so each tested hash is the
//! windowed one (`crate::platform::cdc`); one test of all eight lanes
//! against the mask per step (two compares and two `movmskpd`), and a block's answer is the first match of
//! its lowest lane that has one. The table lookups stay scalar loads:
//! measured on Zen 4, a 512-bit `vpgatherqq` took about 4 ns (as long as
//! 8 scalar lookups and their inserts several times over), and building
//! 64-bit entries from `vpermi2b` byte tables costs more shuffles than the
//! scalar scan spends per byte. What the lanes save is the hash's shift,
//! add and test: one instruction each for four positions. `avx512.rs` is
//! the same walk in one register of eight lanes.

#[cfg(not(any(target_arch = "x86", target_arch = "x86_64")))]
compile_error!("the AVX2 kernel is for x86 only");

#[cfg(target_arch = "x86")]
use core::arch::x86::*;
#[cfg(target_arch = "x86_64")]
use core::arch::x86_64::*;

use super::{portable, LOOKBEHIND};

const LANES: usize = 8;

/// See `CdcPlatform::find`; `from >= LOOKBEHIND` unless the range is empty.
#[target_feature(enable = "avx2")]
pub(super) fn find(table: &[u64; 256], shifted: &[u64; 256], bytes: &[u8], from: usize, mask: u64) -> Option<usize> {
    // Long strips: the 63 steps before each are work added, and a block
    // scanned past the match is work lost, which `CdcPlatform::lanes_pay`
    // keeps small by sending only masks of rare matches here.
    find_in_blocks::<1024>(table, shifted, bytes, from, mask)
}

#[target_feature(enable = "avx2")]
#[inline]
fn find_in_blocks<const STRIP: usize>(
    table: &[u64; 256],
    shifted: &[u64; 256],
    bytes: &[u8],
    from: usize,
    mask: u64,
) -> Option<usize> {
    let mut start = from;
    while bytes.len() - start >= LANES * STRIP {
        let block = &bytes[start - LOOKBEHIND..start + LANES * STRIP];
        if let Some(i) = find_in_block::<STRIP>(table, block, mask) {
            return Some(start + i);
        }
        start += LANES * STRIP;
    }
    portable::find(table, shifted, bytes, start, mask)
}

/// The table entries of the bytes at index `t` of the strips (strip `l`
/// starts at `l * STRIP`), lane `l` from strip `l`. (A function, not a
/// closure: a closure would not inherit the target feature, and was not
/// inlined.)
#[target_feature(enable = "avx2")]
#[inline]
fn entries<const STRIP: usize>(table: &[u64; 256], block: &[u8], t: usize) -> [__m256i; 2] {
    let entry = |l: usize| table[block[l * STRIP + t] as usize] as i64;
    let quarters = [
        _mm_set_epi64x(entry(1), entry(0)),
        _mm_set_epi64x(entry(3), entry(2)),
        _mm_set_epi64x(entry(5), entry(4)),
        _mm_set_epi64x(entry(7), entry(6)),
    ];
    [
        _mm256_inserti128_si256::<1>(_mm256_castsi128_si256(quarters[0]), quarters[1]),
        _mm256_inserti128_si256::<1>(_mm256_castsi128_si256(quarters[2]), quarters[3]),
    ]
}

/// One step of the hash in each lane: `h = 2h + entry`.
#[target_feature(enable = "avx2")]
#[inline]
fn roll(hash: &mut [__m256i; 2], entries: [__m256i; 2]) {
    for (h, e) in hash.iter_mut().zip(entries) {
        *h = _mm256_add_epi64(_mm256_add_epi64(*h, *h), e);
    }
}

/// A bit per lane whose hash has no bit of the mask set.
#[target_feature(enable = "avx2")]
#[inline]
fn matches(hash: &[__m256i; 2], mask: __m256i) -> u8 {
    let zero = _mm256_setzero_si256();
    let low = _mm256_cmpeq_epi64(_mm256_and_si256(hash[0], mask), zero);
    let high = _mm256_cmpeq_epi64(_mm256_and_si256(hash[1], mask), zero);
    // No closure for the two: it would not inherit the target feature.
    let low = _mm256_movemask_pd(_mm256_castsi256_pd(low)) as u8;
    let high = _mm256_movemask_pd(_mm256_castsi256_pd(high)) as u8;
    low | high << 4
}

/// The first match in `block[LOOKBEHIND..]`, which is `LANES * STRIP` long,
/// as an index from there.
#[target_feature(enable = "avx2")]
#[inline]
fn find_in_block<const STRIP: usize>(table: &[u64; 256], block: &[u8], mask: u64) -> Option<usize> {
    // One length check here lets the compiler drop those of the loops.
    let block = &block[..LOOKBEHIND + LANES * STRIP];
    let mask_lanes = _mm256_set1_epi64x(mask as i64);
    let mut hash = [_mm256_setzero_si256(); 2];
    // Bits above the mask's top one never matter: the hash from that
    // many bytes back has them all (FastCDC's masks end at bit 47).
    let window = 64 - mask.leading_zeros() as usize;
    for t in LOOKBEHIND + 1 - window.max(1)..LOOKBEHIND {
        roll(&mut hash, entries::<STRIP>(table, block, t));
    }
    let mut found: u8 = 0;
    let mut first = [0usize; LANES];
    for step in 0..STRIP {
        roll(&mut hash, entries::<STRIP>(table, block, LOOKBEHIND + step));
        let matched = matches(&hash, mask_lanes) & !found;
        if matched != 0 {
            // Rare (a mask's worth of bits): note each lane's first match.
            if matched & 1 != 0 {
                // Lane 0's strip comes first: nothing later can be earlier.
                return Some(step);
            }
            for (lane, first) in first.iter_mut().enumerate() {
                if matched >> lane & 1 != 0 {
                    *first = step;
                }
            }
            found |= matched;
        }
    }
    (found != 0).then(|| {
        let lane = found.trailing_zeros() as usize;
        lane * STRIP + first[lane]
    })
}
