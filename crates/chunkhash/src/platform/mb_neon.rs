//! Multi-buffer kernels on aarch64 NEON: four messages at once, one per
//! 32-bit lane of a `uint32x4_t`, a vector per state or message word
//! holding that word of every lane. MD5 (RFC 1321 section 3.4) and SHA-1
//! (FIPS 180-4 section 6.1.2) step through their 64 and 80 steps from the
//! tables of `mb_spec.rs`, as `mb_simd128.rs` does on wasm32. SHA-256 and
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

use super::mb_spec::{md5_word_index, MD5_SHIFTS, MD5_T, SHA1_K};

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

/// Transposes four rows of four words: word `i` of every row in vector `i`.
#[target_feature(enable = "neon")]
#[inline]
fn transpose4(rows: [uint32x4_t; 4]) -> [uint32x4_t; 4] {
    // ab.0 = [a0, b0, a2, b2], ab.1 = [a1, b1, a3, b3]; the same for cd.
    let ab = vtrnq_u32(rows[0], rows[1]);
    let cd = vtrnq_u32(rows[2], rows[3]);
    [
        vcombine_u32(vget_low_u32(ab.0), vget_low_u32(cd.0)),
        vcombine_u32(vget_low_u32(ab.1), vget_low_u32(cd.1)),
        vcombine_u32(vget_high_u32(ab.0), vget_high_u32(cd.0)),
        vcombine_u32(vget_high_u32(ab.1), vget_high_u32(cd.1)),
    ]
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

/// Block `n` of each lane's blocks (the caller checked the lengths).
#[target_feature(enable = "neon")]
#[inline]
fn block<'a>(blocks: &[&'a [u8]; LANES], n: usize) -> [&'a [u8; BLOCK_LEN]; LANES] {
    core::array::from_fn(|lane| blocks[lane][n * BLOCK_LEN..n * BLOCK_LEN + BLOCK_LEN].try_into().unwrap())
}

/// `count` blocks of each lane's `blocks` into `state` (`S` words a lane):
/// `steps` turns the state vectors and a block's words into the state
/// before the feed-forward addition.
///
/// Panics if a lane has fewer than `count` blocks.
#[target_feature(enable = "neon")]
#[inline]
fn compress_blocks<const S: usize>(
    state: &mut [[u32; LANES]; S],
    blocks: &[&[u8]; LANES],
    count: usize,
    big_endian: bool,
    steps: impl Fn([uint32x4_t; S], [uint32x4_t; 16]) -> [uint32x4_t; S],
) {
    assert!(blocks.iter().all(|lane| lane.len() >= count * BLOCK_LEN), "a lane has fewer blocks than asked for");
    for n in 0..count {
        add_to_rows(state, steps(load_rows(state), words(block(blocks, n), big_endian)));
    }
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

/// `$state = $step($state, i)` for each literal `i`, in order: unrolled, so
/// each step's table entries, rotations and word indexes are constants
/// (as in `mb_simd128.rs`, where LLVM kept a loop rolled).
macro_rules! unrolled {
    ($state:ident = $step:ident; $($i:literal)*) => {
        $( $state = $step($state, $i); )*
    };
}

/// MD5's step `i` (RFC 1321 section 3.4): a new B from the four words,
/// which then move down one place, (A, B, C, D) becoming (D, new B, B, C).
#[target_feature(enable = "neon")]
#[inline]
fn md5_step([a, b, c, d]: [uint32x4_t; 4], m: &[uint32x4_t; 16], i: usize) -> [uint32x4_t; 4] {
    let round = i / 16;
    let f = match round {
        // F and G as bit selects (`vbslq_u32(mask, if set, if clear)`):
        // (b AND c) OR (NOT b AND d), and (b AND d) OR (c AND NOT d); I's
        // (b OR NOT d) in one `orn`.
        0 => vbslq_u32(b, c, d),
        1 => vbslq_u32(d, b, c),
        2 => veorq_u32(veorq_u32(b, c), d),
        _ => veorq_u32(c, vornq_u32(b, d)),
    };
    let sum = vaddq_u32(vaddq_u32(a, f), vaddq_u32(m[md5_word_index(round, i % 16)], vdupq_n_u32(MD5_T[i])));
    [d, vaddq_u32(b, rotate_left(sum, MD5_SHIFTS[round][i % 4])), b, c]
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
    compress_blocks(state, blocks, count, false, |mut s, m| {
        let step = |s, i| md5_step(s, &m, i);
        unrolled!(s = step;
            0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31
            32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63);
        s
    });
}

/// SHA-1's step `t` (FIPS 180-4 section 6.1.2), its schedule in a ring of
/// sixteen words: W(t) replaces W(t - 16).
#[target_feature(enable = "neon")]
#[inline]
fn sha1_step([a, b, c, d, e]: [uint32x4_t; 5], w: &mut [uint32x4_t; 16], t: usize) -> [uint32x4_t; 5] {
    let j = t % 16;
    if t >= 16 {
        let mixed = veorq_u32(veorq_u32(w[(j + 13) % 16], w[(j + 8) % 16]), veorq_u32(w[(j + 2) % 16], w[j]));
        w[j] = rotate_left(mixed, 1);
    }
    // Ch as a bit select, Parity, Maj as a bit select (`d` where `b` and
    // `c` differ, else `c`), Parity.
    let f = match t / 20 {
        0 => vbslq_u32(b, c, d),
        2 => vbslq_u32(veorq_u32(b, c), d, c),
        _ => veorq_u32(veorq_u32(b, c), d),
    };
    let sum = vaddq_u32(vaddq_u32(rotate_left(a, 5), f), vaddq_u32(e, vdupq_n_u32(SHA1_K[t / 20])));
    [vaddq_u32(sum, w[j]), a, rotate_left(b, 30), c, d]
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
    compress_blocks(state, blocks, count, true, |mut s, mut w| {
        let mut step = |s, t| sha1_step(s, &mut w, t);
        unrolled!(s = step;
            0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39
            40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63 64 65 66 67 68 69 70 71 72 73 74 75 76 77 78 79);
        s
    });
}
