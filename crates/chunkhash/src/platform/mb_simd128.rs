//! Multi-buffer kernels on wasm32 SIMD128: four messages at once, one per
//! 32-bit lane of a `v128`, a vector per state or message word holding
//! that word of every lane. SHA-256 (FIPS 180-4 section 6.2.2) runs the
//! round skeleton the x86 lane kernels share (`lane_rounds!` in
//! `sha256_portable.rs`); MD5 (RFC 1321 section 3.4) and SHA-1 (FIPS
//! 180-4 section 6.1.2) step through their 64 and 80 steps from the
//! tables of `mb_spec.rs`. SHA-512 has no form here: 64-bit words give
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

#[cfg(feature = "sha2")]
use super::sha256_portable::lane_rounds;
use super::simd128::{rotate_right, transpose4};

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

/// Block `n` of each lane's blocks (the caller checked the lengths).
#[inline(always)]
fn block<'a>(blocks: &[&'a [u8]; LANES], n: usize) -> [&'a [u8; BLOCK_LEN]; LANES] {
    core::array::from_fn(|lane| blocks[lane][n * BLOCK_LEN..n * BLOCK_LEN + BLOCK_LEN].try_into().unwrap())
}

/// `count` blocks of each lane's `blocks` into `state` (`S` words a lane):
/// `steps` turns the state vectors and a block's words into the state
/// before the feed-forward addition.
///
/// Panics if a lane has fewer than `count` blocks.
#[inline(always)]
fn compress_blocks<const S: usize>(
    state: &mut [[u32; LANES]; S],
    blocks: &[&[u8]; LANES],
    count: usize,
    big_endian: bool,
    steps: impl Fn([v128; S], [v128; 16]) -> [v128; S],
) {
    assert!(blocks.iter().all(|lane| lane.len() >= count * BLOCK_LEN), "a lane has fewer blocks than asked for");
    for n in 0..count {
        add_to_rows(state, steps(load_rows(state), words(block(blocks, n), big_endian)));
    }
}

/// SHA-256: one block of each lane into `state` (`state[word][lane]`).
#[cfg(feature = "sha2")]
pub(crate) fn sha256_compress(state: &mut [[u32; LANES]; 8], blocks: &[&[u8; BLOCK_LEN]; LANES]) {
    let lanes: [&[u8]; LANES] = core::array::from_fn(|lane| &blocks[lane][..]);
    compress_blocks(state, &lanes, 1, true, |[mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut h], mut w| {
        lane_rounds!(w, a, b, c, d, e, f, g, h);
        [a, b, c, d, e, f, g, h]
    });
}

// The functions `lane_rounds!` calls, on four lanes.

#[cfg(feature = "sha2")]
#[inline(always)]
fn add(a: v128, b: v128) -> v128 {
    u32x4_add(a, b)
}

#[cfg(feature = "sha2")]
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

/// `$state = $step($state, i)` for each literal `i`, in order: unrolled, so
/// each step's table entries, rotations and word indexes are constants.
/// Written as a loop, LLVM kept the 64 or 80 steps rolled, the words in
/// memory and the rotations variable: in the npm package's `hashMany`
/// (1024 x 64 B, 256 x 1 KiB, 64 x 4 KiB) MD5 ran 1.56-1.97x the scalar
/// build and SHA-1 1.13-1.14x; unrolled, 1.81-2.93x and 1.52-2.19x, for
/// 40 kB more of the SIMD128 module (`bindings/js/bench-many.mjs`).
#[cfg(feature = "compat")]
macro_rules! unrolled {
    ($state:ident = $step:ident; $($i:literal)*) => {
        $( $state = $step($state, $i); )*
    };
}

/// MD5's step `i` (RFC 1321 section 3.4): a new B from the four words,
/// which then move down one place, (A, B, C, D) becoming (D, new B, B, C).
#[cfg(feature = "compat")]
#[inline(always)]
fn md5_step([a, b, c, d]: [v128; 4], m: &[v128; 16], i: usize) -> [v128; 4] {
    use super::mb_spec::{md5_word_index, MD5_SHIFTS, MD5_T};
    let round = i / 16;
    let f = match round {
        // F and G as bit selects: (b AND c) OR (NOT b AND d), and
        // (b AND d) OR (c AND NOT d).
        0 => v128_bitselect(c, d, b),
        1 => v128_bitselect(b, c, d),
        2 => v128_xor(v128_xor(b, c), d),
        _ => v128_xor(c, v128_or(b, v128_not(d))),
    };
    let sum = u32x4_add(u32x4_add(a, f), u32x4_add(m[md5_word_index(round, i % 16)], u32x4_splat(MD5_T[i])));
    [d, u32x4_add(b, rotate_left(sum, MD5_SHIFTS[round][i % 4])), b, c]
}

/// MD5: `count` blocks of each lane's `blocks` into `state`
/// (`state[word][lane]`, words A, B, C, D).
///
/// Panics if a lane has fewer than `count` blocks.
#[cfg(feature = "compat")]
pub(crate) fn md5_compress(state: &mut [[u32; LANES]; 4], blocks: &[&[u8]; LANES], count: usize) {
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
#[cfg(feature = "compat")]
#[inline(always)]
fn sha1_step([a, b, c, d, e]: [v128; 5], w: &mut [v128; 16], t: usize) -> [v128; 5] {
    use super::mb_spec::SHA1_K;
    let j = t % 16;
    if t >= 16 {
        let mixed = v128_xor(v128_xor(w[(j + 13) % 16], w[(j + 8) % 16]), v128_xor(w[(j + 2) % 16], w[j]));
        w[j] = rotate_left(mixed, 1);
    }
    // Ch as a bit select, Parity, Maj as a bit select (`b` where `b` and
    // `c` agree, else `d`), Parity.
    let f = match t / 20 {
        0 => v128_bitselect(c, d, b),
        2 => v128_bitselect(c, d, v128_not(v128_xor(b, c))),
        _ => v128_xor(v128_xor(b, c), d),
    };
    let sum = u32x4_add(u32x4_add(rotate_left(a, 5), f), u32x4_add(e, u32x4_splat(SHA1_K[t / 20])));
    [u32x4_add(sum, w[j]), a, rotate_left(b, 30), c, d]
}

/// SHA-1: `count` blocks of each lane's `blocks` into `state`
/// (`state[word][lane]`, words a to e).
///
/// Panics if a lane has fewer than `count` blocks.
#[cfg(feature = "compat")]
pub(crate) fn sha1_compress(state: &mut [[u32; LANES]; 5], blocks: &[&[u8]; LANES], count: usize) {
    compress_blocks(state, blocks, count, true, |mut s, mut w| {
        let mut step = |s, t| sha1_step(s, &mut w, t);
        unrolled!(s = step;
            0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39
            40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63 64 65 66 67 68 69 70 71 72 73 74 75 76 77 78 79);
        s
    });
}
