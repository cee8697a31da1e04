//! The many-short-keys experiment: does hashing many 64-byte keys with
//! XXH3-64 across the eight 64-bit lanes of AVX-512 (one key per lane, as
//! BLAKE3's batch API runs one message per lane) beat a plain loop over
//! chunkhash's scalar short-input code?
//!
//! The lanes code is the best case for SIMD: keys of one length (64 or 128
//! bytes: the 17-128 byte path with 4 or 8 products), packed back to back,
//! seed 0. Eight keys are
//! loaded and transposed (24 shuffles) so that each vector holds one word
//! of all eight; each of the four 16-byte pieces is mixed with its secret
//! words; the 64 x 64 -> 128-bit products that XXH3 folds are built from
//! four 32 x 32 -> 64-bit ones (AVX-512 has no wider multiply), and the
//! final avalanche's 64-bit multiply from three. The scalar loop runs one
//! `mul` per product. Every lanes result is checked against
//! `chunkhash::xxh3::hash64` before timing.
//!
//! Not in the library (yet): it wins only modestly, in this best case
//! (the lab notes, crates/bench/runs/2026-11-28-lab-notes/README.md, "XXH3: many short keys"), and a general batch call with
//! keys of mixed lengths needs a kernel per length class and grouping by
//! class; the experiment stays here, where it can be rerun.
//!
//! ```sh
//! cargo run --release -p chunkhash-bench --bin xxh3_lanes
//! ```

#![allow(unsafe_code)]

use chunkhash_bench::{random_input, run_interleaved_best_of, Case, Timing};
use std::hint::black_box;
use std::time::Duration;

const KEYS: usize = 4096;

/// The scalar baseline: one call per key.
fn scalar<const LEN: usize>(keys: &[u8], out: &mut [u64]) {
    for (key, out) in keys.chunks_exact(LEN).zip(out) {
        *out = chunkhash::xxh3::hash64(key);
    }
}

#[cfg(target_arch = "x86_64")]
mod lanes {
    use core::arch::x86_64::*;

    const PRIME64_1: u64 = 0x9E37_79B1_85EB_CA87;
    const PRIME_MX1: u64 = 0x1656_6791_9E37_79F9;

    fn secret_word(i: usize) -> u64 {
        u64::from_le_bytes(chunkhash::xxh3::DEFAULT_SECRET[8 * i..8 * i + 8].try_into().unwrap())
    }

    /// Eight keys' word `w` in lane `k`: an 8 x 8 transpose of 64-bit words.
    #[target_feature(enable = "avx512f")]
    fn transpose(rows: [__m512i; 8]) -> [__m512i; 8] {
        let mut a = [_mm512_setzero_si512(); 8];
        for i in 0..4 {
            a[2 * i] = _mm512_unpacklo_epi64(rows[2 * i], rows[2 * i + 1]);
            a[2 * i + 1] = _mm512_unpackhi_epi64(rows[2 * i], rows[2 * i + 1]);
        }
        let low = _mm512_set_epi64(13, 12, 5, 4, 9, 8, 1, 0);
        let high = _mm512_set_epi64(15, 14, 7, 6, 11, 10, 3, 2);
        let mut b = [_mm512_setzero_si512(); 8];
        for base in [0, 4] {
            for parity in 0..2 {
                let (x, y) = (a[base + parity], a[base + parity + 2]);
                b[base + parity] = _mm512_permutex2var_epi64(x, low, y);
                b[base + parity + 2] = _mm512_permutex2var_epi64(x, high, y);
            }
        }
        // b[w]: words w and w + 4 of keys 0-3; b[w + 4]: of keys 4-7.
        let mut words = [_mm512_setzero_si512(); 8];
        for w in 0..4 {
            words[w] = _mm512_shuffle_i64x2::<0b01_00_01_00>(b[w], b[w + 4]);
            words[w + 4] = _mm512_shuffle_i64x2::<0b11_10_11_10>(b[w], b[w + 4]);
        }
        words
    }

    /// The 128-bit products of each lane, folded: low half xor high half.
    #[target_feature(enable = "avx512f")]
    fn multiply_fold(x: __m512i, y: __m512i) -> __m512i {
        let mask = _mm512_set1_epi64(0xFFFF_FFFF);
        let (x_high, y_high) = (_mm512_srli_epi64::<32>(x), _mm512_srli_epi64::<32>(y));
        let ll = _mm512_mul_epu32(x, y);
        let lh = _mm512_mul_epu32(x, y_high);
        let hl = _mm512_mul_epu32(x_high, y);
        let hh = _mm512_mul_epu32(x_high, y_high);
        let cross = _mm512_add_epi64(
            _mm512_add_epi64(_mm512_srli_epi64::<32>(ll), _mm512_and_si512(lh, mask)),
            _mm512_and_si512(hl, mask),
        );
        let low = _mm512_or_si512(_mm512_slli_epi64::<32>(cross), _mm512_and_si512(ll, mask));
        let high = _mm512_add_epi64(
            _mm512_add_epi64(hh, _mm512_srli_epi64::<32>(lh)),
            _mm512_add_epi64(_mm512_srli_epi64::<32>(hl), _mm512_srli_epi64::<32>(cross)),
        );
        _mm512_xor_si512(low, high)
    }

    /// The low 64 bits of each lane times a constant.
    #[target_feature(enable = "avx512f")]
    fn multiply_low(x: __m512i, constant: u64) -> __m512i {
        let c = _mm512_set1_epi64(constant as i64);
        let c_high = _mm512_set1_epi64((constant >> 32) as i64);
        let cross = _mm512_add_epi64(_mm512_mul_epu32(x, c_high), _mm512_mul_epu32(_mm512_srli_epi64::<32>(x), c));
        _mm512_add_epi64(_mm512_mul_epu32(x, c), _mm512_slli_epi64::<32>(cross))
    }

    /// XXH3-64 (seed 0) of eight keys of `LEN` bytes (64 or 128) packed in
    /// `keys`.
    #[target_feature(enable = "avx512f")]
    fn hash8<const LEN: usize>(keys: &[u8]) -> [u64; 8] {
        assert!(keys.len() == 8 * LEN && (LEN == 64 || LEN == 128));
        // Word w of every key, for w below LEN / 8.
        let mut w = [_mm512_setzero_si512(); 16];
        for half in 0..LEN / 64 {
            // SAFETY: each load reads 64 bytes of `keys`, in bounds (asserted).
            let rows: [__m512i; 8] =
                core::array::from_fn(|i| unsafe { _mm512_loadu_si512(keys[LEN * i + 64 * half..].as_ptr().cast()) });
            w[8 * half..8 * half + 8].copy_from_slice(&transpose(rows));
        }
        let s = |i: usize| _mm512_set1_epi64(secret_word(i) as i64);
        let mut acc = _mm512_set1_epi64((LEN as u64).wrapping_mul(PRIME64_1) as i64);
        // Pieces i from the front (word 2i, secret word 4i) and the back
        // (word LEN/8 - 2 - 2i, secret word 4i + 2), i below LEN / 32.
        let words = LEN / 8;
        for i in 0..LEN / 32 {
            for (piece, key) in [(2 * i, 4 * i), (words - 2 - 2 * i, 4 * i + 2)] {
                let x = _mm512_xor_si512(w[piece], s(key));
                let y = _mm512_xor_si512(w[piece + 1], s(key + 1));
                acc = _mm512_add_epi64(acc, multiply_fold(x, y));
            }
        }
        acc = _mm512_xor_si512(acc, _mm512_srli_epi64::<37>(acc));
        acc = multiply_low(acc, PRIME_MX1);
        acc = _mm512_xor_si512(acc, _mm512_srli_epi64::<32>(acc));
        let mut out = [0u64; 8];
        // SAFETY: writes the 64 bytes of `out`.
        unsafe { _mm512_storeu_si512(out.as_mut_ptr().cast(), acc) };
        out
    }

    /// All keys, eight at a time.
    ///
    /// # Safety
    ///
    /// The CPU has AVX-512F.
    #[target_feature(enable = "avx512f")]
    pub(super) unsafe fn hash_all<const LEN: usize>(keys: &[u8], out: &mut [u64]) {
        for (eight, out) in keys.chunks_exact(8 * LEN).zip(out.chunks_exact_mut(8)) {
            out.copy_from_slice(&hash8::<LEN>(eight));
        }
    }
}

fn main() {
    if !std::arch::is_x86_feature_detected!("avx512f") {
        eprintln!("xxh3_lanes: needs AVX-512F");
        std::process::exit(2);
    }
    println!("load {}", std::fs::read_to_string("/proc/loadavg").unwrap_or_default().trim());
    measure::<64>();
    measure::<128>();
}

fn measure<const LEN: usize>() {
    let keys = random_input(KEYS * LEN, LEN as u64);
    let mut expected = vec![0u64; KEYS];
    scalar::<LEN>(&keys, &mut expected);
    let mut got = vec![0u64; KEYS];
    // SAFETY: AVX-512F was detected in `main`.
    unsafe { lanes::hash_all::<LEN>(&keys, &mut got) };
    assert!(got == expected, "the lanes code disagrees with chunkhash::xxh3::hash64 at {LEN} bytes");

    let (mut out_scalar, mut out_lanes) = (vec![0u64; KEYS], vec![0u64; KEYS]);
    let mut cases = vec![
        Case::new("scalar loop", KEYS * LEN, || scalar::<LEN>(black_box(&keys), &mut out_scalar)),
        // SAFETY: AVX-512F was detected in `main`.
        Case::new("avx512 lanes", KEYS * LEN, || unsafe { lanes::hash_all::<LEN>(black_box(&keys), &mut out_lanes) }),
    ];
    let t: Vec<Timing> = run_interleaved_best_of(&mut cases, 31, Duration::from_millis(10), 5);
    println!("{KEYS} keys of {LEN} B, XXH3-64");
    for timing in &t {
        println!("  {:14} {:6.2} ns per key", timing.name, timing.median_ns() / KEYS as f64);
    }
    println!(
        "  lanes time / scalar time (median of per-round ratios): {:.3}",
        chunkhash_bench::median_ratio(&t[1], &t[0])
    );
}
