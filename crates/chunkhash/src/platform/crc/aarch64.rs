//! ARMv8 kernels: CRC-32C and CRC-32 with the CRC extension's instructions
//! (`crc32cx`, `crc32x`: aarch64 has both polynomials), and all three CRCs
//! by folding 128-bit lanes with PMULL (the carry-less multiply of the AES
//! extension), as `pclmul.rs` does on x86 with the same keys.
//!
//! Inputs of 128 bytes and more are folded with eight accumulators; the
//! folded value is reduced by two CRC instructions (CRC-32C, CRC-32) or by
//! Barrett reduction (CRC-64/NVME). Shorter inputs and the last bytes go
//! through the CRC instructions, or the portable tables for CRC-64/NVME.

#[cfg(not(target_arch = "aarch64"))]
compile_error!("aarch64.rs is aarch64 code");

use core::arch::aarch64::*;

use super::constants::{FoldConstants, SliceTables};
use super::portable;

/// Inputs from this many bytes are folded.
const FOLD_FROM: usize = 128;

/// Loads a lane.
#[target_feature(enable = "neon")]
#[inline]
fn load(lane: &[u8; 16]) -> uint64x2_t {
    // SAFETY: the reference makes 16 bytes readable; `vld1q_u8` reads them
    // at any alignment.
    vreinterpretq_u64_u8(unsafe { vld1q_u8(lane.as_ptr()) })
}

/// `lane` moved along the message by the distance of `keys`.
#[target_feature(enable = "neon,aes")]
#[inline]
fn fold(lane: uint64x2_t, keys: [u64; 2]) -> uint64x2_t {
    let low = vmull_p64(vgetq_lane_u64(lane, 0), keys[0]);
    let high = vmull_p64(vgetq_lane_u64(lane, 1), keys[1]);
    vreinterpretq_u64_p128(low ^ high)
}

/// `first` followed by `lanes` (at most 8) as one value, as in `pclmul.rs`.
#[target_feature(enable = "neon,aes")]
#[inline]
fn fold_tail(k: &FoldConstants, first: uint64x2_t, lanes: &[[u8; 16]]) -> uint64x2_t {
    let Some((last, between)) = lanes.split_last() else {
        return first;
    };
    let mut sum = veorq_u64(fold(first, k.lanes[between.len()]), load(last));
    for (i, lane) in between.iter().enumerate() {
        sum = veorq_u64(sum, fold(load(lane), k.lanes[between.len() - 1 - i]));
    }
    sum
}

/// Folds whole lanes (at least 8), `register` fed in first, into one value.
#[target_feature(enable = "neon,aes")]
#[inline]
fn fold_lanes(k: &FoldConstants, register: u64, lanes: &[[u8; 16]]) -> uint64x2_t {
    let first = veorq_u64(load(&lanes[0]), vsetq_lane_u64(register, vdupq_n_u64(0), 0));
    let mut acc = [first, load(&lanes[1]), load(&lanes[2]), load(&lanes[3])];
    let mut acc_high = [load(&lanes[4]), load(&lanes[5]), load(&lanes[6]), load(&lanes[7])];
    let (steps, rest) = lanes[8..].as_chunks::<8>();
    for step_lanes in steps {
        for j in 0..4 {
            acc[j] = veorq_u64(fold(acc[j], k.lanes[7]), load(&step_lanes[j]));
            acc_high[j] = veorq_u64(fold(acc_high[j], k.lanes[7]), load(&step_lanes[4 + j]));
        }
    }
    let mut x = acc_high[3];
    for (j, lane) in acc.iter().chain(&acc_high[..3]).enumerate() {
        x = veorq_u64(x, fold(*lane, k.lanes[6 - j]));
    }
    fold_tail(k, x, rest)
}

/// (t x^64) mod P for CRC-64/NVME: Barrett reduction, as `pclmul.rs`.
#[target_feature(enable = "neon,aes")]
#[inline]
fn absorb64(k: &FoldConstants, t: u64) -> u64 {
    let quotient = vmull_p64(t, k.barrett.mu) as u64;
    let product = vmull_p64(quotient, k.barrett.poly);
    ((product >> 64) as u64) ^ quotient
}

/// The CRC-32C register after `data`, from `register`.
///
/// # Safety
///
/// The CPU has the CRC and AES extensions (and NEON).
#[target_feature(enable = "neon,aes,crc")]
pub(super) unsafe fn crc32c(k: &FoldConstants, register: u32, data: &[u8]) -> u32 {
    crc32_family(k, register, data, |r, w| __crc32cd(r, w), |r, b| __crc32cb(r, b))
}

/// The CRC-32 (ISO-HDLC) register after `data`, from `register`.
///
/// # Safety
///
/// The CPU has the CRC and AES extensions (and NEON).
#[target_feature(enable = "neon,aes,crc")]
pub(super) unsafe fn crc32(k: &FoldConstants, register: u32, data: &[u8]) -> u32 {
    crc32_family(k, register, data, |r, w| __crc32d(r, w), |r, b| __crc32b(r, b))
}

/// A 32-bit CRC with its two instructions (8 bytes, 1 byte).
#[target_feature(enable = "neon,aes,crc")]
#[inline]
fn crc32_family(
    k: &FoldConstants,
    register: u32,
    data: &[u8],
    word: impl Fn(u32, u64) -> u32,
    byte: impl Fn(u32, u8) -> u32,
) -> u32 {
    let (mut register, rest) = if data.len() >= FOLD_FROM {
        let (lanes, tail) = data.as_chunks::<16>();
        let x = fold_lanes(k, u64::from(register), lanes);
        let low = word(0, vgetq_lane_u64(x, 0));
        (word(low, vgetq_lane_u64(x, 1)), tail)
    } else {
        (register, data)
    };
    let (words, tail) = rest.as_chunks::<8>();
    for w in words {
        register = word(register, u64::from_le_bytes(*w));
    }
    for &b in tail {
        register = byte(register, b);
    }
    register
}

/// The CRC-64/NVME register after `data`, from `register`.
///
/// # Safety
///
/// The CPU has the AES extension (and NEON).
#[target_feature(enable = "neon,aes")]
pub(super) unsafe fn crc64(k: &FoldConstants, tables: &SliceTables, register: u64, data: &[u8]) -> u64 {
    if data.len() < FOLD_FROM {
        return portable::update(tables, register, data);
    }
    let (lanes, tail) = data.as_chunks::<16>();
    let x = fold_lanes(k, register, lanes);
    let reduced = absorb64(k, vgetq_lane_u64(x, 0));
    portable::update(tables, absorb64(k, vgetq_lane_u64(x, 1) ^ reduced), tail)
}
