//! Multi-buffer kernels on wasm32 SIMD128: four messages at once, one per
//! 32-bit lane of a `v128`, a vector per state or message word holding
//! that word of every lane. SHA-256 (FIPS 180-4 section 6.2.2) runs the
//! round skeleton the x86 lane kernels share (`lane_rounds!` in
//! `sha256_portable.rs`); MD5 (RFC 1321 section 3.4) and SHA-1 (FIPS
//! 180-4 section 6.1.2) step through their 64 and 80 steps from the
//! tables of `mb_spec.rs`, in the steps `mb_neon.rs` shares
//! (`mb_four_lanes.rs`). SHA-512 has no form here: 64-bit words give
//! SIMD128 two lanes, and it has no 64-bit rotation, so each of its six
//! rotations per round would cost three instructions for two messages,
//! where the scalar loop does one in a single `i64.rotr`.
//!
//! WebAssembly has no run-time feature detection: this file is compiled
//! only when the build enables `simd128`, and then every engine that loads
//! the module has it. The npm package's scalar main module reaches these
//! kernels through the SIMD128 side module (`simd128_module.rs`).

// A build with one of the `compat` and `sha2` features uses only its
// algorithms' kernels.
#![cfg_attr(not(all(feature = "compat", feature = "sha2")), allow(dead_code))]

#[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
compile_error!("the SIMD128 multi-buffer kernels need wasm32 with the simd128 target feature");

use core::arch::wasm32::*;

use super::mb_four_lanes::four_lane_blocks;
#[cfg(feature = "compat")]
use super::mb_four_lanes::four_lane_steps;
#[cfg(feature = "sha2")]
use super::sha256_portable::lane_rounds;
#[cfg(feature = "sha2")]
use super::simd128::rotate_right;
use super::simd128::transpose4;

/// Messages per call.
pub(crate) const LANES: usize = 4;

/// Bytes in a block of MD5, SHA-1 and SHA-256.
const BLOCK_LEN: usize = 64;

/// The bytes of each 32-bit word reversed: SHA's words are big-endian.
const BIG_ENDIAN: [u8; 16] = [3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12];

/// Loads 16 bytes, unaligned.
#[inline(always)]
fn load(bytes: &[u8; 16]) -> v128 {
    // SAFETY: reads the 16 bytes `bytes` borrows, at any alignment.
    unsafe { v128_load(bytes.as_ptr().cast()) }
}

/// One word of every lane.
#[inline(always)]
fn load_row(row: &[u32; LANES]) -> v128 {
    // SAFETY: reads the 16 bytes of `row`, at any alignment.
    unsafe { v128_load(row.as_ptr().cast()) }
}

/// Word `i` of every lane in vector `i`.
#[inline(always)]
fn load_rows<const S: usize>(rows: &[[u32; LANES]; S]) -> [v128; S] {
    core::array::from_fn(|i| load_row(&rows[i]))
}

/// Adds `vectors` to the rows of `rows`, word by word.
#[inline(always)]
fn add_to_rows<const S: usize>(rows: &mut [[u32; LANES]; S], vectors: [v128; S]) {
    for (row, vector) in rows.iter_mut().zip(vectors) {
        let sum = u32x4_add(load_row(row), vector);
        // SAFETY: writes the 16 bytes of `row`, at any alignment.
        unsafe { v128_store(row.as_mut_ptr().cast(), sum) };
    }
}

/// The sixteen words of one 64-byte block of each lane, word `w` of every
/// lane in vector `w`; with `big_endian`, each word's bytes reversed first.
#[inline(always)]
fn words(blocks: [&[u8; BLOCK_LEN]; LANES], big_endian: bool) -> [v128; 16] {
    let order = load(&BIG_ENDIAN);
    let mut w = [u32x4_splat(0); 16];
    for quarter in 0..4 {
        let rows: [v128; LANES] = core::array::from_fn(|lane| {
            let bytes = load(blocks[lane][16 * quarter..16 * quarter + 16].try_into().unwrap());
            if big_endian {
                i8x16_swizzle(bytes, order)
            } else {
                bytes
            }
        });
        w[4 * quarter..4 * quarter + 4].copy_from_slice(&transpose4(rows));
    }
    w
}

four_lane_blocks!(v128; #[inline(always)]);

/// SHA-256: one block of each lane into `state` (`state[word][lane]`).
#[cfg(feature = "sha2")]
pub(crate) fn sha256_compress(state: &mut [[u32; LANES]; 8], blocks: &[&[u8; BLOCK_LEN]; LANES]) {
    let lanes: [&[u8]; LANES] = core::array::from_fn(|lane| &blocks[lane][..]);
    compress_blocks(state, &lanes, 1, true, |[mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut h], mut w| {
        lane_rounds!(w, a, b, c, d, e, f, g, h);
        [a, b, c, d, e, f, g, h]
    });
}

// The functions `lane_rounds!` and the MD5 and SHA-1 steps
// (`mb_four_lanes.rs`) call, on four lanes.

#[inline(always)]
fn add(a: v128, b: v128) -> v128 {
    u32x4_add(a, b)
}

#[inline(always)]
fn splat(k: u32) -> v128 {
    u32x4_splat(k)
}

#[cfg(feature = "sha2")]
#[inline(always)]
fn big_sigma0(a: v128) -> v128 {
    v128_xor(v128_xor(rotate_right::<2>(a), rotate_right::<13>(a)), rotate_right::<22>(a))
}

#[cfg(feature = "sha2")]
#[inline(always)]
fn big_sigma1(e: v128) -> v128 {
    v128_xor(v128_xor(rotate_right::<6>(e), rotate_right::<11>(e)), rotate_right::<25>(e))
}

#[cfg(feature = "sha2")]
#[inline(always)]
fn small_sigma0(x: v128) -> v128 {
    v128_xor(v128_xor(rotate_right::<7>(x), rotate_right::<18>(x)), u32x4_shr(x, 3))
}

#[cfg(feature = "sha2")]
#[inline(always)]
fn small_sigma1(x: v128) -> v128 {
    v128_xor(v128_xor(rotate_right::<17>(x), rotate_right::<19>(x)), u32x4_shr(x, 10))
}

/// Ch(e, f, g): SIMD128's bit select takes `f` where `e` has ones, else `g`.
#[cfg(feature = "sha2")]
#[inline(always)]
fn choose(e: v128, f: v128, g: v128) -> v128 {
    v128_bitselect(f, g, e)
}

/// Maj(a, b, c): `b` where `a` and `b` agree, else `c`, as a bit select.
#[cfg(feature = "sha2")]
#[inline(always)]
fn majority(a: v128, b: v128, c: v128) -> v128 {
    v128_bitselect(b, c, v128_not(v128_xor(a, b)))
}

/// Rotates each word left by `shift` (from 1 to 31).
#[cfg(feature = "compat")]
#[inline(always)]
fn rotate_left(x: v128, shift: u32) -> v128 {
    v128_or(u32x4_shl(x, shift), u32x4_shr(x, 32 - shift))
}

#[cfg(feature = "compat")]
#[inline(always)]
fn xor(a: v128, b: v128) -> v128 {
    v128_xor(a, b)
}

/// `a OR NOT b`.
#[cfg(feature = "compat")]
#[inline(always)]
fn or_not(a: v128, b: v128) -> v128 {
    v128_or(a, v128_not(b))
}

/// Bits of `if_set` where `mask` has ones, else of `if_clear`.
#[cfg(feature = "compat")]
#[inline(always)]
fn select(mask: v128, if_set: v128, if_clear: v128) -> v128 {
    v128_bitselect(if_set, if_clear, mask)
}

#[cfg(feature = "compat")]
four_lane_steps!(v128; #[inline(always)]);

/// MD5: `count` blocks of each lane's `blocks` into `state`
/// (`state[word][lane]`, words A, B, C, D).
///
/// Panics if a lane has fewer than `count` blocks.
#[cfg(feature = "compat")]
pub(crate) fn md5_compress(state: &mut [[u32; LANES]; 4], blocks: &[&[u8]; LANES], count: usize) {
    compress_blocks(state, blocks, count, false, md5_steps);
}

/// SHA-1: `count` blocks of each lane's `blocks` into `state`
/// (`state[word][lane]`, words a to e).
///
/// Panics if a lane has fewer than `count` blocks.
#[cfg(feature = "compat")]
pub(crate) fn sha1_compress(state: &mut [[u32; LANES]; 5], blocks: &[&[u8]; LANES], count: usize) {
    compress_blocks(state, blocks, count, true, sha1_steps);
}
