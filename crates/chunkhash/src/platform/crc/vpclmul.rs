//! VPCLMULQDQ kernels (AVX-512): the three CRCs by folding four 128-bit
//! lanes per instruction (x86-64).
//!
//! The same folding as `pclmul.rs`, four lanes wide: four 512-bit
//! accumulators take 256 bytes per step, each moved 256 bytes by two
//! multiplications and merged with the next data by one three-way XOR
//! (`vpternlogq`). At the end the accumulators are folded into one vector,
//! the 64-byte blocks left are folded in one by one, the vector's four lanes
//! into one 128-bit value, and `pclmul.rs` takes over for the last lanes,
//! the reduction and the last bytes. Inputs under 256 bytes go to
//! `pclmul.rs` directly (CRC-32C from 160 bytes to its three chains).

#[cfg(not(target_arch = "x86_64"))]
compile_error!("vpclmul.rs is x86-64 code");

use core::arch::x86_64::*;

use super::constants::{FoldConstants, SliceTables};
use super::pclmul;
use super::portable;

/// Inputs from this many bytes are folded 512 bits at a time.
const WIDE_FROM: usize = 256;

/// Loads 64 bytes.
#[target_feature(enable = "avx512f")]
#[inline]
fn load(block: &[u8; 64]) -> __m512i {
    // SAFETY: the reference makes 64 bytes readable; `_mm512_loadu_si512`
    // reads them at any alignment.
    unsafe { _mm512_loadu_si512(block.as_ptr().cast()) }
}

/// A key pair in each of the four lanes.
#[target_feature(enable = "avx512f")]
#[inline]
fn broadcast(pair: [u64; 2]) -> __m512i {
    _mm512_broadcast_i32x4(pclmul::keys(pair))
}

/// `a` XOR `b` XOR `c`.
#[target_feature(enable = "avx512f")]
#[inline]
fn xor3(a: __m512i, b: __m512i, c: __m512i) -> __m512i {
    _mm512_ternarylogic_epi64(a, b, c, 0x96)
}

/// Each lane of `v` moved by the distance of `keys`, XORed with `next`.
#[target_feature(enable = "avx512f,vpclmulqdq")]
#[inline]
fn fold(v: __m512i, keys: __m512i, next: __m512i) -> __m512i {
    xor3(_mm512_clmulepi64_epi128(v, keys, 0x00), _mm512_clmulepi64_epi128(v, keys, 0x11), next)
}

/// Folds `data` (at least 256 bytes), `register` fed in first, into one
/// 128-bit value aligned to the end of its whole 16-byte lanes; returns it
/// with the 0 to 15 bytes after them.
#[target_feature(enable = "avx512f,vpclmulqdq,pclmulqdq,sse4.1")]
#[inline]
fn fold_wide<'a>(k: &FoldConstants, register: u64, data: &'a [u8]) -> (__m128i, &'a [u8]) {
    let (blocks, rest) = data.as_chunks::<64>();
    let first = _mm512_xor_si512(load(&blocks[0]), _mm512_zextsi128_si512(_mm_cvtsi64_si128(register as i64)));
    let mut acc = [first, load(&blocks[1]), load(&blocks[2]), load(&blocks[3])];
    let (steps, left) = blocks[4..].as_chunks::<4>();
    let step = broadcast(k.bytes_256);
    for step_blocks in steps {
        for j in 0..4 {
            acc[j] = fold(acc[j], step, load(&step_blocks[j]));
        }
    }
    let x = fold_to_lane(k, acc, left);
    let (lanes, tail) = rest.as_chunks::<16>();
    (pclmul::fold_tail(k, x, lanes), tail)
}

/// Four accumulators of consecutive 64-byte blocks, then the `left` blocks
/// after them, as one 128-bit value aligned to the end of the last block.
#[target_feature(enable = "avx512f,vpclmulqdq,pclmulqdq,sse4.1")]
#[inline]
fn fold_to_lane(k: &FoldConstants, acc: [__m512i; 4], left: &[[u8; 64]]) -> __m128i {
    // Four consecutive blocks into one, then the blocks left.
    let x01 = fold(acc[0], broadcast(k.bytes_192), acc[3]);
    let x12 = fold(acc[1], broadcast(k.bytes_128), _mm512_setzero_si512());
    let mut v = fold(acc[2], broadcast(k.bytes_64), _mm512_xor_si512(x01, x12));
    let block_step = broadcast(k.bytes_64);
    for block in left {
        v = fold(v, block_step, load(block));
    }
    // The four lanes into one: lanes 0 to 2 moved 48, 32 and 16 bytes,
    // lane 3 as it is (its key is zero, and it is XORed back in).
    let lane_keys = _mm512_inserti32x4(
        _mm512_inserti32x4(
            _mm512_inserti32x4(_mm512_setzero_si512(), pclmul::keys(k.lanes[2]), 0),
            pclmul::keys(k.lanes[1]),
            1,
        ),
        pclmul::keys(k.lanes[0]),
        2,
    );
    let moved =
        _mm512_xor_si512(_mm512_clmulepi64_epi128(v, lane_keys, 0x00), _mm512_clmulepi64_epi128(v, lane_keys, 0x11));
    let halves = _mm256_xor_si256(_mm512_castsi512_si256(moved), _mm512_extracti64x4_epi64(moved, 1));
    let x = _mm_xor_si128(_mm256_castsi256_si128(halves), _mm256_extracti128_si256(halves, 1));
    _mm_xor_si128(x, _mm512_extracti32x4_epi32(v, 3))
}

/// The CRC-32C register after `data`, from `register`.
///
/// # Safety
///
/// The CPU has AVX-512F, VPCLMULQDQ, PCLMULQDQ and SSE4.2.
#[target_feature(enable = "avx512f,vpclmulqdq,pclmulqdq,sse4.2")]
pub(super) unsafe fn crc32c(k: &FoldConstants, register: u32, data: &[u8]) -> u32 {
    // Short inputs first, in a function with a small frame (see `pclmul.rs`).
    if data.len() < pclmul::CRC32C_FOLD_FROM {
        return super::sse42::serial(register, data);
    }
    if pclmul::chains_take(data.len()) {
        return pclmul::three_chains(register, data);
    }
    crc32c_long(k, register, data)
}

/// [`crc32c`] from `CRC32C_FOLD_FROM` bytes. Unlike `pclmul.rs`, no
/// `crc32` chains beside the folding: 512-bit folding alone keeps up with
/// the caches here (1 MiB: 16.0 us with and without them, 64 KiB: 1.05 and
/// 1.04 us; BENCHMARKS.md, "CRC kernels").
#[target_feature(enable = "avx512f,vpclmulqdq,pclmulqdq,sse4.2")]
#[inline(never)]
fn crc32c_long(k: &FoldConstants, register: u32, data: &[u8]) -> u32 {
    if data.len() < WIDE_FROM {
        return pclmul::fold_or_chain(k, register, data);
    }
    let (x, tail) = fold_wide(k, u64::from(register), data);
    super::sse42::serial(pclmul::reduce_crc32c(x), tail)
}

/// The register of a CRC other than CRC-32C after `data`, from `register`.
///
/// # Safety
///
/// The CPU has AVX-512F, VPCLMULQDQ, PCLMULQDQ and SSE4.1.
#[target_feature(enable = "avx512f,vpclmulqdq,pclmulqdq,sse4.1")]
pub(super) unsafe fn crc(k: &FoldConstants, tables: &SliceTables, register: u64, data: &[u8]) -> u64 {
    if data.len() < WIDE_FROM {
        // SAFETY: this function's contract includes `pclmul::crc`'s.
        return unsafe { pclmul::crc(k, tables, register, data) };
    }
    let (x, tail) = fold_wide(k, register, data);
    portable::update(tables, pclmul::reduce(k, x), tail)
}
