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
//!
//! CRC-32C has more: below 96 bytes one chain of `crc32` instructions is
//! faster than folding, from 160 to 255 bytes three chains merged by two
//! multiplications (`three_chains`; `vpclmul.rs` runs them too), and from
//! 4 KiB three `crc32` chains run beside the folding (the fused loop,
//! below), which on Zen 4 doubles the speed of 128-bit folding alone.

#[cfg(not(target_arch = "x86_64"))]
compile_error!("pclmul.rs is x86-64 code");

use core::arch::x86_64::*;

use super::constants::{FoldConstants, SliceTables, CRC32C};
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

// CRC-32C from `CHAINS_FROM` to `CHAINS_TO` bytes: three chains of `crc32`
// instructions side by side, cut as
//
//     [ A: the rest, 8 n to 8 n + 23 bytes | B: 8 n bytes | C: 8 n bytes ]
//
// with n = (bytes / 8) / 3. One chain waits 3 cycles per word; three
// chains issue a word a cycle, so 240 bytes take 10 words' latency, not
// 30, and fold nothing (15 lanes of folding are 28 multiplications and a
// reduction). A's register is shifted over 16 n bytes and B's over 8 n by
// one carry-less multiplication each, the two products XORed and reduced
// by one `crc32` ([`mul_x33`] is linear), then C's register XORed in.

/// Below this many bytes CRC-32C is one chain of `crc32` instructions:
/// measured on Zen 4 (`crc_kernels --sizes 32,48,64,96,128`), the chain
/// takes 7.8 ns for 64 bytes where folding takes 10.4, and folding wins
/// from 96 bytes (11.9 against 12.7 ns).
pub(super) const CRC32C_FOLD_FROM: usize = 96;
/// From this many bytes, and under `CHAINS_TO`, CRC-32C is three chains:
/// from 160 bytes (10 lanes) folding takes two rounds of multiplications
/// (`fold_lanes`), and the chains win; below, one round and folding wins
/// (128 bytes: 0.85-0.91x crc-fast with the chains, 0.98-1.23x folded).
const CHAINS_FROM: usize = 160;
/// CRC-32C is folded from this many bytes again.
const CHAINS_TO: usize = 256;
/// The most words per chain: n for the longest input under `CHAINS_TO`.
const CHAIN_WORDS_MAX: usize = (CHAINS_TO - 1) / 24;

/// `CHAIN_KEYS[n]` shifts A's and B's registers over 16 n and 8 n bytes
/// with [`mul_x33`]: x^(128 n - 33) and x^(64 n - 33) mod P, reflected (n
/// from 1).
static CHAIN_KEYS: [[u32; 2]; CHAIN_WORDS_MAX + 1] = {
    let mut keys = [[0u32; 2]; CHAIN_WORDS_MAX + 1];
    let mut n = 1;
    while n <= CHAIN_WORDS_MAX {
        keys[n] = [chain_key(128 * n as u64), chain_key(64 * n as u64)];
        n += 1;
    }
    keys
};

/// x^(`bits` - 33) mod P, reflected: shifts a register over `bits` bits
/// with [`mul_x33`].
const fn chain_key(bits: u64) -> u32 {
    (CRC32C.x_pow(bits - 33).reverse_bits() >> 32) as u32
}

/// Whether CRC-32C of `len` bytes runs [`three_chains`]: asked before the
/// folding paths are entered, so that their code is as it was without.
#[inline]
pub(super) fn chains_take(len: usize) -> bool {
    (CHAINS_FROM..CHAINS_TO).contains(&len)
}

/// The CRC-32C register after `data` (`CHAINS_FROM` to `CHAINS_TO` bytes)
/// by three chains, from `register`. Out of line, as the folding paths:
/// inlined beside them, it cost them 7 to 15 instructions a call.
#[target_feature(enable = "pclmulqdq,sse4.2")]
#[inline(never)]
pub(super) fn three_chains(register: u32, data: &[u8]) -> u32 {
    debug_assert!((CHAINS_FROM..CHAINS_TO).contains(&data.len()));
    let n = data.len() / 24;
    let (a, bc) = data.split_at(data.len() - 16 * n);
    let (b, c) = bc.as_chunks::<8>().0.split_at(n);
    // A's first 0 to 2 words alone, then a word of each chain per step,
    // then A's last 0 to 7 bytes.
    let (a_words, a_tail) = a.as_chunks::<8>();
    let (a_head, a_words) = a_words.split_at(a_words.len() - n);
    let mut ra = u64::from(register);
    for word in a_head {
        ra = _mm_crc32_u64(ra, u64::from_le_bytes(*word));
    }
    let (mut rb, mut rc) = (0u64, 0u64);
    for ((wa, wb), wc) in a_words.iter().zip(b).zip(c) {
        ra = _mm_crc32_u64(ra, u64::from_le_bytes(*wa));
        rb = _mm_crc32_u64(rb, u64::from_le_bytes(*wb));
        rc = _mm_crc32_u64(rc, u64::from_le_bytes(*wc));
    }
    let ra = super::sse42::serial(ra as u32, a_tail);
    let [key_a, key_b] = CHAIN_KEYS[n];
    let product = _mm_xor_si128(
        _mm_clmulepi64_si128(_mm_cvtsi32_si128(ra as i32), _mm_cvtsi32_si128(key_a as i32), 0x00),
        _mm_clmulepi64_si128(_mm_cvtsi32_si128(rb as i32), _mm_cvtsi32_si128(key_b as i32), 0x00),
    );
    _mm_crc32_u64(0, _mm_cvtsi128_si64(product) as u64) as u32 ^ rc as u32
}

// CRC-32C from 4 KiB: the fused loop. The vector unit and the integer unit
// run side by side: while four 128-bit accumulators fold 64 bytes,
// three chains of the `crc32` instruction take `STREAM_WORDS` words each
// from three other regions of the input, cut as
//
//     [ vector: 64 n bytes | A: L bytes | B: L bytes | C: L bytes | rest ]
//
// with L = 8 STREAM_WORDS n, n as large as fits. At the end the vector's
// register is shifted over 3L bytes, A's over 2L and B's over L (a stream's
// register followed by zeros: times x^(8 bytes) mod P), and all four XORed;
// the rest takes the register on. (With 512-bit vectors, `vpclmul.rs`,
// folding alone is as fast.)

/// CRC-32C inputs from this many bytes run the fused loop.
const FUSED_FROM: usize = 4096;
/// The largest piece of input one fused loop takes, so that a stream has
/// fewer than 2^21 bytes (the table of powers below).
const FUSED_MAX: usize = 1 << 20;
/// Words each `crc32` chain takes per 64-byte vector step: on Zen 4 the
/// three chains hash 8 bytes a cycle, 128-bit folding about 4.
const STREAM_WORDS: usize = 5;
/// Bytes per step of the fused loop.
const FUSED_STEP: usize = 64 + 3 * 8 * STREAM_WORDS;

/// `POWERS[i]` is x^(8 2^i - 33) mod P, reflected, for 2^i-byte shifts
/// (i from 3: a stream is a whole number of words).
static POWERS: [u32; 21] = {
    let mut powers = [0u32; 21];
    let mut i = 3;
    while i < 21 {
        powers[i] = (CRC32C.x_pow(8 * (1 << i) - 33).reverse_bits() >> 32) as u32;
        i += 1;
    }
    powers
};

/// a b x^33 mod P, all reflected: the carry-less product is a b x (one bit
/// off in 64 bits), and `crc32` of it from a zero register multiplies by
/// x^32 and reduces.
#[target_feature(enable = "pclmulqdq,sse4.2")]
#[inline]
fn mul_x33(a: u32, b: u32) -> u32 {
    let product = _mm_clmulepi64_si128(_mm_cvtsi32_si128(a as i32), _mm_cvtsi32_si128(b as i32), 0x00);
    _mm_crc32_u64(0, _mm_cvtsi128_si64(product) as u64) as u32
}

/// x^(8 `bytes` - 33) mod P: the key that shifts a register over `bytes`
/// bytes of zeros with [`mul_x33`], for `bytes` a multiple of 8 below 2^21.
#[target_feature(enable = "pclmulqdq,sse4.2")]
#[inline]
fn shift_key(bytes: usize) -> u32 {
    debug_assert!(bytes.is_multiple_of(8) && bytes > 0 && bytes < 1 << 21);
    let mut bits = bytes >> 3;
    let mut key = None;
    let mut i = 3;
    while bits != 0 {
        if bits & 1 == 1 {
            key = Some(key.map_or(POWERS[i], |key| mul_x33(key, POWERS[i])));
        }
        bits >>= 1;
        i += 1;
    }
    key.unwrap_or(0)
}

/// The fused loop over `data` (at least `FUSED_FROM`, at most `FUSED_MAX`
/// bytes); returns the register after all but the rest, and the rest.
#[target_feature(enable = "pclmulqdq,sse4.2")]
#[inline]
fn crc32c_fused<'a>(k: &FoldConstants, register: u32, data: &'a [u8]) -> (u32, &'a [u8]) {
    let steps = data.len() / FUSED_STEP;
    let stream_len = 8 * STREAM_WORDS * steps;
    let (vector, streams) = data.split_at(64 * steps);
    let (a, streams) = streams.split_at(stream_len);
    let (b, streams) = streams.split_at(stream_len);
    let (c, rest) = streams.split_at(stream_len);
    let (blocks, _) = vector.as_chunks::<64>();
    let words = |stream: &'a [u8]| stream.as_chunks::<8>().0.as_chunks::<STREAM_WORDS>().0;
    let (a, b, c) = (words(a), words(b), words(c));
    // The shift keys do not depend on the data: they run in the loop's shadow.
    let key_l = shift_key(stream_len);
    let key_2l = mul_x33(key_l, key_l);
    let key_3l = mul_x33(key_2l, key_l);

    let (first, blocks) = blocks.split_first().expect("at least one step");
    let first = first.as_chunks::<16>().0;
    let start = _mm_cvtsi32_si128(register as i32);
    let mut acc = [_mm_xor_si128(load(&first[0]), start), load(&first[1]), load(&first[2]), load(&first[3])];
    let (mut ra, mut rb, mut rc) = (0u64, 0u64, 0u64);
    let mut stream_step = |i: usize| {
        for w in 0..STREAM_WORDS {
            ra = _mm_crc32_u64(ra, u64::from_le_bytes(a[i][w]));
            rb = _mm_crc32_u64(rb, u64::from_le_bytes(b[i][w]));
            rc = _mm_crc32_u64(rc, u64::from_le_bytes(c[i][w]));
        }
    };
    stream_step(0);
    let step = keys(k.lanes[3]);
    for (i, block) in blocks.iter().enumerate() {
        let lanes = block.as_chunks::<16>().0;
        for j in 0..4 {
            acc[j] = _mm_xor_si128(fold(acc[j], step), load(&lanes[j]));
        }
        stream_step(i + 1);
    }
    let x = _mm_xor_si128(
        _mm_xor_si128(fold(acc[0], keys(k.lanes[2])), fold(acc[1], keys(k.lanes[1]))),
        _mm_xor_si128(fold(acc[2], keys(k.lanes[0])), acc[3]),
    );
    let merged = mul_x33(reduce_crc32c(x), key_3l) ^ mul_x33(ra as u32, key_2l) ^ mul_x33(rb as u32, key_l) ^ rc as u32;
    (merged, rest)
}

/// The CRC-32C register after `data`, from `register`.
///
/// # Safety
///
/// The CPU has PCLMULQDQ and SSE4.2.
#[target_feature(enable = "pclmulqdq,sse4.2")]
pub(super) unsafe fn crc32c(k: &FoldConstants, register: u32, data: &[u8]) -> u32 {
    // Short inputs first, in a function with a small frame: at 64 bytes the
    // chain is 24 cycles, and the long paths' prologue was a tenth of that.
    if data.len() < CRC32C_FOLD_FROM {
        return super::sse42::serial(register, data);
    }
    if chains_take(data.len()) {
        return three_chains(register, data);
    }
    crc32c_long(k, register, data)
}

/// [`crc32c`] from `CRC32C_FOLD_FROM` bytes.
#[target_feature(enable = "pclmulqdq,sse4.2")]
#[inline(never)]
fn crc32c_long(k: &FoldConstants, register: u32, data: &[u8]) -> u32 {
    let (mut register, mut rest) = (register, data);
    while rest.len() >= FUSED_FROM {
        let (piece, after) = rest.split_at(rest.len().min(FUSED_MAX));
        let (fused, piece_rest) = crc32c_fused(k, register, piece);
        register = fold_or_chain(k, fused, piece_rest);
        rest = after;
    }
    fold_or_chain(k, register, rest)
}

/// CRC-32C of inputs under 4 KiB: lanes folded, or one chain of `crc32`
/// instructions below `CRC32C_FOLD_FROM` bytes.
#[target_feature(enable = "pclmulqdq,sse4.2")]
#[inline]
pub(super) fn fold_or_chain(k: &FoldConstants, register: u32, data: &[u8]) -> u32 {
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
