//! Multi-buffer kernels on aarch64 NEON: four messages at once, one per
//! 32-bit lane of a `uint32x4_t`, a vector per state or message word
//! holding that word of every lane. MD5 (RFC 1321 section 3.4) and SHA-1
//! (FIPS 180-4 section 6.1.2) run the steps `mb_simd128.rs` runs on wasm32
//! (`mb_four_lanes.rs`), on NEON's instructions. SHA-256 and
//! SHA-512 have no form here: SHA-256's multi-buffer kernels have their
//! own registry (`sha256.rs`), and SHA-512's 64-bit words give NEON two
//! lanes.
//!
//! NEON is part of every little-endian aarch64 target, so there is nothing
//! to detect; but the kernels are tested here under qemu-user only, where
//! speed means nothing, so detection does not pick them
//! (`MbKernel::detectable`): they run when forced
//! (`CHUNKHASH_MB_KERNEL=neon`) until measured against the wrapped crates
//! on aarch64 hardware.

#[cfg(not(all(target_arch = "aarch64", target_endian = "little")))]
compile_error!("the NEON multi-buffer kernels are for little-endian aarch64 only");

use core::arch::aarch64::*;

use super::mb_four_lanes::{four_lane_blocks, four_lane_steps};
use super::neon::transpose4;

/// Messages per call.
pub(crate) const LANES: usize = 4;

/// Bytes in a block of MD5 and SHA-1.
const BLOCK_LEN: usize = 64;

/// Loads 16 bytes, unaligned.
#[target_feature(enable = "neon")]
#[inline]
fn load(bytes: &[u8; 16]) -> uint8x16_t {
    // SAFETY: reads the 16 bytes `bytes` borrows; a byte load needs no
    // alignment; NEON is part of the target.
    unsafe { vld1q_u8(bytes.as_ptr()) }
}

/// One word of every lane.
#[target_feature(enable = "neon")]
#[inline]
fn load_row(row: &[u32; LANES]) -> uint32x4_t {
    // SAFETY: reads the 16 bytes of `row`, which is aligned for `u32`;
    // NEON is part of the target.
    unsafe { vld1q_u32(row.as_ptr()) }
}

/// Word `i` of every lane in vector `i`.
#[target_feature(enable = "neon")]
#[inline]
fn load_rows<const S: usize>(rows: &[[u32; LANES]; S]) -> [uint32x4_t; S] {
    core::array::from_fn(|i| load_row(&rows[i]))
}

/// Adds `vectors` to the rows of `rows`, word by word.
#[target_feature(enable = "neon")]
#[inline]
fn add_to_rows<const S: usize>(rows: &mut [[u32; LANES]; S], vectors: [uint32x4_t; S]) {
    for (row, vector) in rows.iter_mut().zip(vectors) {
        let sum = vaddq_u32(load_row(row), vector);
        // SAFETY: writes the 16 bytes of `row`, which is aligned for `u32`;
        // NEON is part of the target.
        unsafe { vst1q_u32(row.as_mut_ptr(), sum) };
    }
}

/// The sixteen words of one 64-byte block of each lane, word `w` of every
/// lane in vector `w`; with `big_endian`, each word's bytes reversed first.
#[target_feature(enable = "neon")]
#[inline]
fn words(blocks: [&[u8; BLOCK_LEN]; LANES], big_endian: bool) -> [uint32x4_t; 16] {
    let mut w = [vdupq_n_u32(0); 16];
    for quarter in 0..4 {
        let rows: [uint32x4_t; LANES] = core::array::from_fn(|lane| {
            let bytes = load(blocks[lane][16 * quarter..16 * quarter + 16].try_into().unwrap());
            vreinterpretq_u32_u8(if big_endian { vrev32q_u8(bytes) } else { bytes })
        });
        w[4 * quarter..4 * quarter + 4].copy_from_slice(&transpose4(rows));
    }
    w
}

four_lane_blocks!(uint32x4_t; #[target_feature(enable = "neon")] #[inline]);
four_lane_steps!(uint32x4_t; #[target_feature(enable = "neon")] #[inline]);

// The functions the shared steps call, on four lanes.

#[target_feature(enable = "neon")]
#[inline]
fn add(a: uint32x4_t, b: uint32x4_t) -> uint32x4_t {
    vaddq_u32(a, b)
}

#[target_feature(enable = "neon")]
#[inline]
fn xor(a: uint32x4_t, b: uint32x4_t) -> uint32x4_t {
    veorq_u32(a, b)
}

/// `a OR NOT b` in one `orn`.
#[target_feature(enable = "neon")]
#[inline]
fn or_not(a: uint32x4_t, b: uint32x4_t) -> uint32x4_t {
    vornq_u32(a, b)
}

/// Bits of `if_set` where `mask` has ones, else of `if_clear`: one `bsl`.
#[target_feature(enable = "neon")]
#[inline]
fn select(mask: uint32x4_t, if_set: uint32x4_t, if_clear: uint32x4_t) -> uint32x4_t {
    vbslq_u32(mask, if_set, if_clear)
}

#[target_feature(enable = "neon")]
#[inline]
fn splat(k: u32) -> uint32x4_t {
    vdupq_n_u32(k)
}

/// Rotates each word left by `shift` (from 1 to 31): NEON's register
/// shift takes a count per lane, negative for a right shift. The steps are
/// unrolled, so `shift` is a constant the compiler folds in.
#[target_feature(enable = "neon")]
#[inline]
fn rotate_left(x: uint32x4_t, shift: u32) -> uint32x4_t {
    let left = vdupq_n_s32(shift as i32);
    let right = vdupq_n_s32(shift as i32 - 32);
    vorrq_u32(vshlq_u32(x, left), vshlq_u32(x, right))
}

/// MD5: `count` blocks of each lane's `blocks` into `state`
/// (`state[word][lane]`, words A, B, C, D).
///
/// Panics if a lane has fewer than `count` blocks.
pub(crate) fn md5_compress(state: &mut [[u32; LANES]; 4], blocks: &[&[u8]; LANES], count: usize) {
    // SAFETY: NEON is part of every little-endian aarch64 target, the only
    // one this file is built for.
    unsafe { md5_neon(state, blocks, count) }
}

#[target_feature(enable = "neon")]
fn md5_neon(state: &mut [[u32; LANES]; 4], blocks: &[&[u8]; LANES], count: usize) {
    compress_blocks(state, blocks, count, false, |s, m| md5_steps(s, m));
}

/// SHA-1: `count` blocks of each lane's `blocks` into `state`
/// (`state[word][lane]`, words a to e).
///
/// Panics if a lane has fewer than `count` blocks.
pub(crate) fn sha1_compress(state: &mut [[u32; LANES]; 5], blocks: &[&[u8]; LANES], count: usize) {
    // SAFETY: NEON is part of every little-endian aarch64 target, the only
    // one this file is built for.
    unsafe { sha1_neon(state, blocks, count) }
}

#[target_feature(enable = "neon")]
fn sha1_neon(state: &mut [[u32; LANES]; 5], blocks: &[&[u8]; LANES], count: usize) {
    compress_blocks(state, blocks, count, true, |s, w| sha1_steps(s, w));
}
