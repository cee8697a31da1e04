//! SSE4.2 kernel: CRC-32C with the `crc32` instruction (x86-64 only; the
//! instruction computes no other CRC).
//!
//! One `crc32` on 8 bytes has a latency of 3 cycles and a throughput of one
//! per cycle on the CPUs of this project (Zen 4; Intel since Nehalem), so a
//! single chain runs at a third of the instruction's speed. Long inputs are
//! cut into three equal blocks hashed side by side, each from a zero
//! register, and merged: the register of A||B is A's shifted over |B| bytes
//! of zeros, XOR B's. The shift is a table lookup per register byte
//! ([`ShiftTable`], built at compile time), so this kernel needs nothing
//! but SSE4.2. The folding kernels (`pclmul.rs`, `vpclmul.rs`) use it
//! for inputs too short to fold.

#[cfg(not(target_arch = "x86_64"))]
compile_error!("sse42.rs is x86-64 code");

use core::arch::x86_64::*;

use super::constants::{shift, shift_table, ShiftTable, CRC32C};

/// Bytes per stream in the two block sizes: long blocks while three fit,
/// then short ones; each merge costs about as much as 24 bytes of one chain.
const LONG: usize = 4096;
const SHORT: usize = 256;

static SHIFT_LONG: ShiftTable = shift_table(CRC32C, LONG as u64);
static SHIFT_SHORT: ShiftTable = shift_table(CRC32C, SHORT as u64);

/// The CRC-32C register after `data`, from `register` (no initial or final
/// XOR).
///
/// # Safety
///
/// The CPU has SSE4.2.
#[target_feature(enable = "sse4.2")]
pub(super) unsafe fn crc32c(register: u32, data: &[u8]) -> u32 {
    let mut register = register;
    let mut rest = data;
    while rest.len() >= 3 * LONG {
        let (blocks, tail) = rest.split_at(3 * LONG);
        register = three_streams::<LONG>(register, blocks, &SHIFT_LONG);
        rest = tail;
    }
    while rest.len() >= 3 * SHORT {
        let (blocks, tail) = rest.split_at(3 * SHORT);
        register = three_streams::<SHORT>(register, blocks, &SHIFT_SHORT);
        rest = tail;
    }
    serial(register, rest)
}

/// Three blocks of `B` bytes side by side, merged with `shift_b`, the shift
/// over `B` bytes.
#[target_feature(enable = "sse4.2")]
#[inline]
fn three_streams<const B: usize>(register: u32, blocks: &[u8], shift_b: &ShiftTable) -> u32 {
    let (a, rest) = blocks.split_at(B);
    let (b, c) = rest.split_at(B);
    let (a, b, c) = (a.as_chunks::<8>().0, b.as_chunks::<8>().0, c.as_chunks::<8>().0);
    let (mut ra, mut rb, mut rc) = (u64::from(register), 0u64, 0u64);
    for ((wa, wb), wc) in a.iter().zip(b).zip(c) {
        ra = _mm_crc32_u64(ra, u64::from_le_bytes(*wa));
        rb = _mm_crc32_u64(rb, u64::from_le_bytes(*wb));
        rc = _mm_crc32_u64(rc, u64::from_le_bytes(*wc));
    }
    let ab = shift(shift_b, ra as u32) ^ rb as u32;
    shift(shift_b, ab) ^ rc as u32
}

/// One chain: 8 bytes per instruction, then the last 0 to 7 bytes.
#[target_feature(enable = "sse4.2")]
#[inline]
pub(super) fn serial(register: u32, data: &[u8]) -> u32 {
    let (words, tail) = data.as_chunks::<8>();
    let mut register = u64::from(register);
    for word in words {
        register = _mm_crc32_u64(register, u64::from_le_bytes(*word));
    }
    let mut register = register as u32;
    let (halves, tail) = tail.as_chunks::<4>();
    for half in halves {
        register = _mm_crc32_u32(register, u32::from_le_bytes(*half));
    }
    for &byte in tail {
        register = _mm_crc32_u8(register, byte);
    }
    register
}
