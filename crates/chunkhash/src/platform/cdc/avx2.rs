//! The Gear scan for x86 AVX2: a block's eight strips side by side, one in
//! each 64-bit lane of two registers.
//!
//! Lane `l` rolls the Gear hash over its own strip of `STRIP` positions,
//! starting from zero 63 bytes before it, so each tested hash is the
//! windowed one (`crate::platform::cdc`); one test of all eight lanes
//! against the mask per step (two compares and two `movmskpd`), and a block's answer is the first match of
//! its lowest lane that has one (the walk is `strips.rs`). The table lookups stay scalar loads:
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

use super::strips::{self, GearLanes, STRIP};

/// See `CdcPlatform::find`; `from >= LOOKBEHIND` unless the range is empty.
#[target_feature(enable = "avx2")]
pub(super) fn find(table: &[u64; 256], shifted: &[u64; 256], bytes: &[u8], from: usize, mask: u64) -> Option<usize> {
    // SAFETY: this function has AVX2, `Avx2Lanes`' instructions.
    unsafe { strips::find::<Avx2Lanes>(table, shifted, bytes, from, mask) }
}

/// The table entries of the bytes at index `t` of the strips (strip `l`
/// starts at `l * STRIP`), lanes 0-3 in the first register; the AVX-512
/// kernel joins the two.
#[target_feature(enable = "avx2")]
#[inline]
pub(super) fn entries(table: &[u64; 256], block: &[u8], t: usize) -> [__m256i; 2] {
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

/// Eight hashes in two registers, lanes 0-3 in the first; AVX2's
/// instructions.
#[derive(Clone, Copy)]
struct Avx2Lanes([__m256i; 2]);

// SAFETY: `GearLanes`' contract: every method uses AVX2 only, the set
// `Avx2Lanes` names.
unsafe impl GearLanes for Avx2Lanes {
    type Mask = __m256i;

    #[target_feature(enable = "avx2")]
    #[inline]
    unsafe fn mask(mask: u64) -> __m256i {
        _mm256_set1_epi64x(mask as i64)
    }

    #[target_feature(enable = "avx2")]
    #[inline]
    unsafe fn zero() -> Self {
        Avx2Lanes([_mm256_setzero_si256(); 2])
    }

    #[target_feature(enable = "avx2")]
    #[inline]
    unsafe fn roll(self, table: &[u64; 256], block: &[u8], t: usize) -> Self {
        let entries = entries(table, block, t);
        Avx2Lanes([0, 1].map(|i| _mm256_add_epi64(_mm256_add_epi64(self.0[i], self.0[i]), entries[i])))
    }

    #[target_feature(enable = "avx2")]
    #[inline]
    unsafe fn matches(self, mask: __m256i) -> u8 {
        let zero = _mm256_setzero_si256();
        let low = _mm256_cmpeq_epi64(_mm256_and_si256(self.0[0], mask), zero);
        let high = _mm256_cmpeq_epi64(_mm256_and_si256(self.0[1], mask), zero);
        let low = _mm256_movemask_pd(_mm256_castsi256_pd(low)) as u8;
        let high = _mm256_movemask_pd(_mm256_castsi256_pd(high)) as u8;
        low | high << 4
    }
}
