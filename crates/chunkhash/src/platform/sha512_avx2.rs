//! SHA-512 (FIPS 180-4 section 6.4) in 4 lanes of AVX2: four messages at
//! once, a register per 64-bit word holding that word of each message.
//! AVX2 has no rotation or three-input logic: a rotation is two shifts and
//! an or.

#[cfg(not(any(target_arch = "x86", target_arch = "x86_64")))]
compile_error!("the AVX2 SHA-512 kernel is for x86 only");

#[cfg(target_arch = "x86")]
use core::arch::x86::*;
#[cfg(target_arch = "x86_64")]
use core::arch::x86_64::*;

use super::mb_spec::{SHA512_BLOCK_LEN, SHA512_K};
use super::mb_x86::loadu256;

pub(super) const LANES: usize = 4;

/// The eight chaining words a to h of every lane: `state[word][lane]`.
pub(super) type State = [[u64; LANES]; 8];

#[target_feature(enable = "avx2")]
#[inline]
fn load_row(row: &[u64; LANES]) -> __m256i {
    // SAFETY: reads the 32 bytes of `row`, at any alignment.
    unsafe { _mm256_loadu_si256(row.as_ptr().cast()) }
}

#[target_feature(enable = "avx2")]
#[inline]
fn store_row(row: &mut [u64; LANES], value: __m256i) {
    // SAFETY: writes the 32 bytes of `row`, at any alignment.
    unsafe { _mm256_storeu_si256(row.as_mut_ptr().cast(), value) }
}

/// Reverses the bytes of each 64-bit word: SHA's words are big-endian.
#[target_feature(enable = "avx2")]
#[inline]
fn swap_bytes(x: __m256i) -> __m256i {
    let order = _mm256_set_epi8(
        8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7,
    );
    _mm256_shuffle_epi8(x, order)
}

/// Transposes 4 rows of 4 64-bit words.
#[target_feature(enable = "avx2")]
#[inline]
fn transpose_u64_4x4(rows: &mut [__m256i; 4]) {
    // Words 0 and 2 (low), 1 and 3 (high) of rows 0 and 1, and of 2 and 3.
    let low01 = _mm256_unpacklo_epi64(rows[0], rows[1]);
    let high01 = _mm256_unpackhi_epi64(rows[0], rows[1]);
    let low23 = _mm256_unpacklo_epi64(rows[2], rows[3]);
    let high23 = _mm256_unpackhi_epi64(rows[2], rows[3]);
    rows[0] = _mm256_permute2x128_si256::<0x20>(low01, low23);
    rows[1] = _mm256_permute2x128_si256::<0x20>(high01, high23);
    rows[2] = _mm256_permute2x128_si256::<0x31>(low01, low23);
    rows[3] = _mm256_permute2x128_si256::<0x31>(high01, high23);
}

/// The block's 16 words, word `w` of every lane in `w[w]`.
#[target_feature(enable = "avx2")]
#[inline]
fn message_words(blocks: &[&[u8]; LANES], n: usize) -> [__m256i; 16] {
    let mut w = [_mm256_setzero_si256(); 16];
    for quarter in 0..4 {
        let mut rows = [_mm256_setzero_si256(); 4];
        for (row, bytes) in rows.iter_mut().zip(blocks) {
            let start = n * SHA512_BLOCK_LEN + 32 * quarter;
            *row = swap_bytes(loadu256(bytes[start..start + 32].try_into().unwrap()));
        }
        transpose_u64_4x4(&mut rows);
        w[4 * quarter..4 * quarter + 4].copy_from_slice(&rows);
    }
    w
}

/// Rotates each word right by `N`; `BACK` is `64 - N` (a const generic
/// cannot be computed from another).
#[target_feature(enable = "avx2")]
#[inline]
fn ror<const N: i32, const BACK: i32>(x: __m256i) -> __m256i {
    debug_assert_eq!(N + BACK, 64);
    _mm256_or_si256(_mm256_srli_epi64::<N>(x), _mm256_slli_epi64::<BACK>(x))
}

#[target_feature(enable = "avx2")]
#[inline]
fn xor3(x: __m256i, y: __m256i, z: __m256i) -> __m256i {
    _mm256_xor_si256(_mm256_xor_si256(x, y), z)
}

// FIPS 180-4 section 4.1.3's four functions.

#[target_feature(enable = "avx2")]
#[inline]
fn big_sigma0(x: __m256i) -> __m256i {
    xor3(ror::<28, 36>(x), ror::<34, 30>(x), ror::<39, 25>(x))
}

#[target_feature(enable = "avx2")]
#[inline]
fn big_sigma1(x: __m256i) -> __m256i {
    xor3(ror::<14, 50>(x), ror::<18, 46>(x), ror::<41, 23>(x))
}

#[target_feature(enable = "avx2")]
#[inline]
fn small_sigma0(x: __m256i) -> __m256i {
    xor3(ror::<1, 63>(x), ror::<8, 56>(x), _mm256_srli_epi64::<7>(x))
}

#[target_feature(enable = "avx2")]
#[inline]
fn small_sigma1(x: __m256i) -> __m256i {
    xor3(ror::<19, 45>(x), ror::<61, 3>(x), _mm256_srli_epi64::<6>(x))
}

/// One round (FIPS 180-4 section 6.4.2, step 3), `wk` being W_t + K_t.
/// Ch as `g ^ (e & (f ^ g))`, Maj as `(a & b) | (c & (a | b))`.
#[target_feature(enable = "avx2")]
#[inline]
fn round(s: &mut [__m256i; 8], wk: __m256i) {
    let [a, b, c, d, e, f, g, h] = *s;
    let ch = _mm256_xor_si256(g, _mm256_and_si256(e, _mm256_xor_si256(f, g)));
    let maj = _mm256_or_si256(_mm256_and_si256(a, b), _mm256_and_si256(c, _mm256_or_si256(a, b)));
    let t1 = _mm256_add_epi64(_mm256_add_epi64(h, big_sigma1(e)), _mm256_add_epi64(ch, wk));
    let t2 = _mm256_add_epi64(big_sigma0(a), maj);
    *s = [_mm256_add_epi64(t1, t2), a, b, c, _mm256_add_epi64(d, t1), e, f, g];
}

/// Compresses `count` blocks of each lane's `blocks` into `state`.
///
/// Panics if a lane has fewer than `count` blocks.
#[target_feature(enable = "avx2")]
pub(super) fn compress(state: &mut State, blocks: &[&[u8]; LANES], count: usize) {
    for lane in blocks {
        assert!(lane.len() >= count * SHA512_BLOCK_LEN, "a lane has fewer blocks than asked for");
    }
    let mut s = [_mm256_setzero_si256(); 8];
    for (register, row) in s.iter_mut().zip(state.iter()) {
        *register = load_row(row);
    }
    for n in 0..count {
        // The schedule in a ring of 16: W_t replaces W_(t-16) (section 6.4.2, step 1).
        let mut w = message_words(blocks, n);
        let before = s;
        for t in 0..16 {
            round(&mut s, _mm256_add_epi64(w[t], _mm256_set1_epi64x(SHA512_K[t] as i64)));
        }
        for group in 1..5 {
            for j in 0..16 {
                let sum = _mm256_add_epi64(small_sigma1(w[(j + 14) % 16]), w[(j + 9) % 16]);
                w[j] = _mm256_add_epi64(_mm256_add_epi64(sum, small_sigma0(w[(j + 1) % 16])), w[j]);
                round(&mut s, _mm256_add_epi64(w[j], _mm256_set1_epi64x(SHA512_K[16 * group + j] as i64)));
            }
        }
        for (word, old) in s.iter_mut().zip(before) {
            *word = _mm256_add_epi64(*word, old);
        }
    }
    for (row, register) in state.iter_mut().zip(s) {
        store_row(row, register);
    }
}
