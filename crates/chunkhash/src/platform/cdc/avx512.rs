//! The Gear scan for x86 AVX-512F: a block's eight strips side by side,
//! one in each 64-bit lane of a register.
//!
//! Lane `l` rolls the Gear hash over its own strip of `STRIP` positions,
//! starting from zero 63 bytes before it, so each tested hash is the
//! windowed one (`crate::platform::cdc`); one test of all eight lanes
//! against the mask per step, and a block's answer is the first match of
//! its lowest lane that has one (the walk is `strips.rs`). The table lookups stay scalar loads:
//! measured on Zen 4, a 512-bit `vpgatherqq` took about 4 ns (as long as
//! 8 scalar lookups and their inserts several times over), and building
//! 64-bit entries from `vpermi2b` byte tables costs more shuffles than the
//! scalar scan spends per byte. What the lanes save is the hash's shift,
//! add and test: one instruction each for eight positions. The same walk
//! as `avx2.rs` in one register instead of two: it measured 5-10% faster
//! than that one in the crate on Zen 4 (crates/bench/runs/, 2026-11-28).

#[cfg(not(any(target_arch = "x86", target_arch = "x86_64")))]
compile_error!("the AVX-512 kernel is for x86 only");

#[cfg(target_arch = "x86")]
use core::arch::x86::*;
#[cfg(target_arch = "x86_64")]
use core::arch::x86_64::*;

use super::avx2;
use super::strips::{self, GearLanes};

/// See `CdcPlatform::find`; `from >= LOOKBEHIND` unless the range is empty.
#[target_feature(enable = "avx512f")]
pub(super) fn find(table: &[u64; 256], shifted: &[u64; 256], bytes: &[u8], from: usize, mask: u64) -> Option<usize> {
    // SAFETY: this function has AVX-512F, `Avx512Lanes`' instructions.
    unsafe { strips::find::<Avx512Lanes>(table, shifted, bytes, from, mask) }
}

/// Eight hashes in one register; AVX-512F's instructions (and the AVX2
/// ones they imply).
#[derive(Clone, Copy)]
struct Avx512Lanes(__m512i);

// SAFETY: `GearLanes`' contract: every method uses AVX-512F (and what it
// implies) only, the set `Avx512Lanes` names.
unsafe impl GearLanes for Avx512Lanes {
    type Mask = __m512i;

    #[target_feature(enable = "avx512f")]
    #[inline]
    unsafe fn mask(mask: u64) -> __m512i {
        _mm512_set1_epi64(mask as i64)
    }

    #[target_feature(enable = "avx512f")]
    #[inline]
    unsafe fn zero() -> Self {
        Avx512Lanes(_mm512_setzero_si512())
    }

    #[target_feature(enable = "avx512f")]
    #[inline]
    unsafe fn roll(self, table: &[u64; 256], block: &[u8], t: usize) -> Self {
        // AVX2's entries (Rust's avx512f implies avx2; the detector checks
        // the CPU has both), joined in one register.
        let [low, high] = avx2::entries(table, block, t);
        let entries = _mm512_inserti64x4::<1>(_mm512_castsi256_si512(low), high);
        Avx512Lanes(_mm512_add_epi64(_mm512_add_epi64(self.0, self.0), entries))
    }

    #[target_feature(enable = "avx512f")]
    #[inline]
    unsafe fn matches(self, mask: __m512i) -> u8 {
        _mm512_testn_epi64_mask(self.0, mask)
    }
}
