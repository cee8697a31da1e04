//! PCLMULQDQ kernels: the three CRCs by folding 128-bit lanes with
//! carry-less multiplication (x86-64).
//!
//! The message is cut into 16-byte lanes. Eight accumulators take a lane
//! each per step and are moved 128 bytes along the message by two
//! multiplications (the keys of `constants.rs`), so eight independent chains
//! keep the multiplier busy. At the end the accumulators are folded into one
//! 128-bit value, the lanes left over are folded in, and that value is
//! reduced to the CRC register: by two `crc32` instructions for CRC-32C, by
//! Barrett reduction for the others. The last 0 to 15 bytes go through the
//! `crc32` instruction (CRC-32C) or the portable tables.
//!
//! Every fold of the final steps is independent of the others (each lane is
//! moved by its own distance, then all are XORed), so a short input costs
//! one multiplication latency, not one per lane.

#[cfg(not(target_arch = "x86_64"))]
compile_error!("pclmul.rs is x86-64 code");

use core::arch::x86_64::*;

use super::constants::{FoldConstants, SliceTables};
use super::portable;

/// Loads a lane.
#[target_feature(enable = "sse2")]
#[inline]
pub(super) fn load(lane: &[u8; 16]) -> __m128i {
    // SAFETY: the reference makes 16 bytes readable; `_mm_loadu_si128`
    // reads them at any alignment.
    unsafe { _mm_loadu_si128(lane.as_ptr().cast()) }
}

/// The keys as a vector: the multiplier of the first 8 bytes low.
#[target_feature(enable = "sse2")]
#[inline]
pub(super) fn keys(pair: [u64; 2]) -> __m128i {
    _mm_set_epi64x(pair[1] as i64, pair[0] as i64)
}

/// `lane` moved along the message by the distance of `keys` (not yet XORed
/// with what lies there).
#[target_feature(enable = "pclmulqdq,sse2")]
#[inline]
fn fold(lane: __m128i, keys: __m128i) -> __m128i {
    _mm_xor_si128(_mm_clmulepi64_si128(lane, keys, 0x00), _mm_clmulepi64_si128(lane, keys, 0x11))
}

/// One value standing for `first` followed by `lanes` (at most 8): each
/// moved to the end by its own distance, all XORed.
#[target_feature(enable = "pclmulqdq,sse2")]
#[inline]
pub(super) fn fold_tail(k: &FoldConstants, first: __m128i, lanes: &[[u8; 16]]) -> __m128i {
    let Some((last, between)) = lanes.split_last() else {
        return first;
    };
    let mut sum = _mm_xor_si128(fold(first, keys(k.lanes[between.len()])), load(last));
    for (i, lane) in between.iter().enumerate() {
        sum = _mm_xor_si128(sum, fold(load(lane), keys(k.lanes[between.len() - 1 - i])));
    }
    sum
}

/// Folds whole lanes (at least one), `register` fed in first, into one
/// 128-bit value aligned to their end.
#[target_feature(enable = "pclmulqdq,sse2")]
#[inline]
pub(super) fn fold_lanes(k: &FoldConstants, register: u64, lanes: &[[u8; 16]]) -> __m128i {
    let first = _mm_xor_si128(load(&lanes[0]), _mm_cvtsi64_si128(register as i64));
    if lanes.len() <= 9 {
        return fold_tail(k, first, &lanes[1..]);
    }
    let mut acc = [first, load(&lanes[1]), load(&lanes[2]), load(&lanes[3])];
    let mut acc_high = [load(&lanes[4]), load(&lanes[5]), load(&lanes[6]), load(&lanes[7])];
    let (steps, rest) = lanes[8..].as_chunks::<8>();
    let step = keys(k.lanes[7]);
    for step_lanes in steps {
        for j in 0..4 {
            acc[j] = _mm_xor_si128(fold(acc[j], step), load(&step_lanes[j]));
            acc_high[j] = _mm_xor_si128(fold(acc_high[j], step), load(&step_lanes[4 + j]));
        }
    }
    // The eight accumulators are consecutive lanes: one value, then the rest.
    let mut x = acc_high[3];
    for (j, lane) in acc.iter().chain(&acc_high[..3]).enumerate() {
        x = _mm_xor_si128(x, fold(*lane, keys(k.lanes[6 - j])));
    }
    fold_tail(k, x, rest)
}

/// The register after the 128-bit value `x` (a message of 16 bytes), from
/// a zero register, by Barrett reduction of each half in turn.
#[target_feature(enable = "pclmulqdq,sse4.1")]
#[inline]
pub(super) fn reduce(k: &FoldConstants, x: __m128i) -> u64 {
    let first = absorb(k, _mm_cvtsi128_si64(x) as u64);
    absorb(k, _mm_extract_epi64(x, 1) as u64 ^ first)
}

/// (t x^w) mod P for a 64-bit reflected `t`: the register after 8 bytes
/// that were `t` XOR the register before.
#[target_feature(enable = "pclmulqdq,sse2")]
#[inline]
fn absorb(k: &FoldConstants, t: u64) -> u64 {
    let constants = _mm_set_epi64x(k.barrett.poly as i64, k.barrett.mu as i64);
    let quotient = _mm_clmulepi64_si128(_mm_cvtsi64_si128(t as i64), constants, 0x00);
    let product = _mm_clmulepi64_si128(quotient, constants, 0x10);
    let high = _mm_cvtsi128_si64(_mm_unpackhi_epi64(product, product)) as u64;
    (high ^ _mm_cvtsi128_si64(quotient) as u64) >> (64 - k.width)
}

/// The CRC-32C register after the value `x`, from a zero register: two
/// `crc32` instructions do the reduction.
#[target_feature(enable = "sse4.2")]
#[inline]
pub(super) fn reduce_crc32c(x: __m128i) -> u32 {
    let low = _mm_crc32_u64(0, _mm_cvtsi128_si64(x) as u64);
    _mm_crc32_u64(low, _mm_extract_epi64(x, 1) as u64) as u32
}

/// Below this many bytes CRC-32C is one chain of `crc32` instructions:
/// measured on Zen 4 (`crc_kernels --sizes 32,48,64,96,128`), the chain
/// takes 7.8 ns for 64 bytes where folding takes 10.4, and folding wins
/// from 96 bytes (11.9 against 12.7 ns).
pub(super) const CRC32C_FOLD_FROM: usize = 96;

/// The CRC-32C register after `data`, from `register`.
///
/// # Safety
///
/// The CPU has PCLMULQDQ and SSE4.2.
#[target_feature(enable = "pclmulqdq,sse4.2")]
pub(super) unsafe fn crc32c(k: &FoldConstants, register: u32, data: &[u8]) -> u32 {
    if data.len() < CRC32C_FOLD_FROM {
        return super::sse42::serial(register, data);
    }
    let (lanes, tail) = data.as_chunks::<16>();
    let x = fold_lanes(k, u64::from(register), lanes);
    super::sse42::serial(reduce_crc32c(x), tail)
}

/// The register of a CRC other than CRC-32C after `data`, from `register`;
/// `tables` are its portable tables, for inputs under 16 bytes and the
/// last bytes.
///
/// # Safety
///
/// The CPU has PCLMULQDQ and SSE4.1.
#[target_feature(enable = "pclmulqdq,sse4.1")]
pub(super) unsafe fn crc(k: &FoldConstants, tables: &SliceTables, register: u64, data: &[u8]) -> u64 {
    let (lanes, tail) = data.as_chunks::<16>();
    if lanes.is_empty() {
        return portable::update(tables, register, data);
    }
    let x = fold_lanes(k, register, lanes);
    portable::update(tables, reduce(k, x), tail)
}
