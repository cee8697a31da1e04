//! XXH3 for inputs of up to 240 bytes (spec, "for small inputs" and "for
//! medium inputs"): scalar code, the same on every kernel, shaped for
//! latency (a few multiplications on a dependency chain; the branches only
//! on the length).
//!
//! Every function takes the seed and the first 136 bytes of the secret (the
//! shortest allowed; the spec's offsets read no further than byte 135), as
//! an array, so that no read needs a bounds check.

use super::spec::*;

/// The part of the secret the short paths read.
pub(crate) type Key = [u8; SHORT_SECRET_LEN];
/// Its length: the shortest secret allowed.
pub(crate) const SHORT_SECRET_LEN: usize = 136;

/// The short paths' part of a secret of at least 136 bytes.
///
/// # Panics
///
/// If the secret is shorter (a `Secret` never is).
#[inline(always)]
pub(crate) fn key(secret: &[u8]) -> &Key {
    secret.first_chunk().expect("xxh3 secrets have at least 136 bytes")
}

/// Bytes up to which the mixing of 16-byte pieces covers the input from
/// both ends (spec, "17-128 bytes of input").
const MIDSIZE_SPLIT: usize = 128;
/// The largest input the short paths take.
pub(crate) const SHORT_MAX: usize = 240;

/// XXH3-64 of an input of at most 240 bytes. The length tests form a
/// shallow tree (two tests reach every path up to 128 bytes), as they run on
/// every call.
#[inline(always)]
pub(crate) fn hash64(input: &[u8], secret: &Key, seed: u64) -> u64 {
    let len = input.len();
    if len <= 16 {
        if len > 8 {
            hash64_9to16(input, secret, seed)
        } else if len >= 4 {
            hash64_4to8(input, secret, seed)
        } else if len > 0 {
            hash64_1to3(input, secret, seed)
        } else {
            avalanche_xxh64(seed ^ read64(secret, 56) ^ read64(secret, 64))
        }
    } else if len <= MIDSIZE_SPLIT {
        hash64_17to128(input, secret, seed)
    } else {
        hash64_129to240(input, secret, seed)
    }
}

/// XXH3-128 of an input of at most 240 bytes, as (low, high).
#[inline(always)]
pub(crate) fn hash128(input: &[u8], secret: &Key, seed: u64) -> (u64, u64) {
    if input.len() <= MIDSIZE_SPLIT {
        hash128_0to128(input, secret, seed)
    } else {
        hash128_129to240(input, secret, seed)
    }
}

#[inline(always)]
fn hash128_0to128(input: &[u8], secret: &Key, seed: u64) -> (u64, u64) {
    let len = input.len();
    if len <= 16 {
        if len > 8 {
            hash128_9to16(input, secret, seed)
        } else if len >= 4 {
            hash128_4to8(input, secret, seed)
        } else if len > 0 {
            hash128_1to3(input, secret, seed)
        } else {
            (
                avalanche_xxh64(seed ^ read64(secret, 64) ^ read64(secret, 72)),
                avalanche_xxh64(seed ^ read64(secret, 80) ^ read64(secret, 88)),
            )
        }
    } else {
        hash128_17to128(input, secret, seed)
    }
}

/// [`hash128`] with the default secret and seed 0, the common case: up to
/// 128 bytes inline, 129 to 240 out of line (as the C library keeps its
/// `XXH3_len_129to240_128b`), each with the secret's words as constants.
/// Inlined, the 129-240 loop's registers and constants made every call
/// save and load more: callgrind counted 72 instructions a call at 16 B and
/// 115 at 64 B with it, 65 and 101 without (and 279 against 283 at 240 B).
/// The price is the call: 240 B inputs took about 7% longer on the project
/// machine (16 and 64 B 3-13% less; `xxh3_vs_c`, issue 34). XXH3-64 gained
/// nothing from the same split (two instructions more at 16 B, the length
/// tree one test deeper), so it stays whole.
#[inline(always)]
pub(crate) fn default_hash128(input: &[u8]) -> (u64, u64) {
    if input.len() <= MIDSIZE_SPLIT {
        hash128_0to128(input, key(&DEFAULT_SECRET), 0)
    } else {
        default_hash128_129to240(input)
    }
}

#[inline(never)]
fn default_hash128_129to240(input: &[u8]) -> (u64, u64) {
    // The caller's length test, repeated: out of line, the reads below need
    // it to drop their bounds checks (one test here instead of one a read).
    assert!(input.len() > MIDSIZE_SPLIT && input.len() <= SHORT_MAX);
    hash128_129to240(input, key(&DEFAULT_SECRET), 0)
}

/// Last byte, length, first byte and middle byte in one word.
#[inline(always)]
fn combine_1to3(input: &[u8]) -> u32 {
    let len = input.len();
    u32::from(input[len - 1]) | (len as u32) << 8 | u32::from(input[0]) << 16 | u32::from(input[len >> 1]) << 24
}

#[inline(always)]
fn hash64_1to3(input: &[u8], secret: &Key, seed: u64) -> u64 {
    let key = u64::from(read32(secret, 0) ^ read32(secret, 4)).wrapping_add(seed);
    avalanche_xxh64(key ^ u64::from(combine_1to3(input)))
}

#[inline(always)]
fn hash128_1to3(input: &[u8], secret: &Key, seed: u64) -> (u64, u64) {
    let combined = combine_1to3(input);
    let low_key = u64::from(read32(secret, 0) ^ read32(secret, 4)).wrapping_add(seed);
    let high_key = u64::from(read32(secret, 8) ^ read32(secret, 12)).wrapping_sub(seed);
    let high = u64::from(combined.swap_bytes().rotate_left(13));
    (avalanche_xxh64(low_key ^ u64::from(combined)), avalanche_xxh64(high_key ^ high))
}

/// The seed with the byte-swapped low half xored into its high half.
#[inline(always)]
fn modified_seed(seed: u64) -> u64 {
    seed ^ (u64::from((seed as u32).swap_bytes()) << 32)
}

#[inline(always)]
fn hash64_4to8(input: &[u8], secret: &Key, seed: u64) -> u64 {
    let len = input.len();
    let first = u64::from(u32::from_le_bytes(*front(input)));
    let last = u64::from(u32::from_le_bytes(*back(input)));
    let key = (read64(secret, 8) ^ read64(secret, 16)).wrapping_sub(modified_seed(seed));
    let mut value = key ^ (last | first << 32);
    value ^= value.rotate_left(49) ^ value.rotate_left(24);
    value = value.wrapping_mul(PRIME_MX2);
    value ^= (value >> 35).wrapping_add(len as u64);
    value = value.wrapping_mul(PRIME_MX2);
    value ^ (value >> 28)
}

#[inline(always)]
fn hash128_4to8(input: &[u8], secret: &Key, seed: u64) -> (u64, u64) {
    let len = input.len();
    let first = u64::from(u32::from_le_bytes(*front(input)));
    let last = u64::from(u32::from_le_bytes(*back(input)));
    let key = (read64(secret, 16) ^ read64(secret, 24)).wrapping_add(modified_seed(seed));
    let value = key ^ (first | last << 32);
    let (mut low, mut high) = multiply(value, PRIME64_1.wrapping_add((len as u64) << 2));
    high = high.wrapping_add(low << 1);
    low ^= high >> 3;
    low ^= low >> 35;
    low = low.wrapping_mul(PRIME_MX2);
    low ^= low >> 28;
    (low, avalanche(high))
}

#[inline(always)]
fn hash64_9to16(input: &[u8], secret: &Key, seed: u64) -> u64 {
    let len = input.len();
    let low = (read64(secret, 24) ^ read64(secret, 32)).wrapping_add(seed) ^ u64::from_le_bytes(*front(input));
    let high = (read64(secret, 40) ^ read64(secret, 48)).wrapping_sub(seed) ^ u64::from_le_bytes(*back(input));
    let value = (len as u64).wrapping_add(low.swap_bytes()).wrapping_add(high).wrapping_add(multiply_fold(low, high));
    avalanche(value)
}

#[inline(always)]
fn hash128_9to16(input: &[u8], secret: &Key, seed: u64) -> (u64, u64) {
    let len = input.len();
    let first = u64::from_le_bytes(*front(input));
    let last = u64::from_le_bytes(*back(input));
    let value1 = (read64(secret, 32) ^ read64(secret, 40)).wrapping_sub(seed) ^ first ^ last;
    let value2 = (read64(secret, 48) ^ read64(secret, 56)).wrapping_add(seed) ^ last;
    let (low, high) = multiply(value1, PRIME64_1);
    let low = low.wrapping_add(((len - 1) as u64) << 54);
    // The spec's simplified form of `high + (value2 >> 32 << 32) + (value2 as u32) * PRIME32_2`.
    let high = high.wrapping_add(value2).wrapping_add((value2 & 0xFFFF_FFFF).wrapping_mul(PRIME32_2 - 1));
    let low = low ^ high.swap_bytes();
    // A 128 x 64-bit multiplication of (low, high) by PRIME64_2.
    let (low, carry) = multiply(low, PRIME64_2);
    let high = carry.wrapping_add(high.wrapping_mul(PRIME64_2));
    (avalanche(low), avalanche(high))
}

/// The spec's `mixStep`: 16 bytes of input at `at`, 16 of the secret at `key`.
#[inline(always)]
fn mix16(input: &[u8], at: usize, secret: &Key, key: usize, seed: u64) -> u64 {
    multiply_fold(
        read64(input, at) ^ read64(secret, key).wrapping_add(seed),
        read64(input, at + 8) ^ read64(secret, key + 8).wrapping_sub(seed),
    )
}

/// The spec's `mixTwoChunks` on the two accumulators of XXH3-128: the
/// first 16 bytes of `first` and of `second`, 32 bytes of secret at `key`.
#[inline(always)]
fn mix32(acc: &mut (u64, u64), first: &[u8], second: &[u8], secret: &Key, key: usize, seed: u64) {
    acc.0 = acc.0.wrapping_add(mix16(first, 0, secret, key, seed));
    acc.1 = acc.1.wrapping_add(mix16(second, 0, secret, key + 16, seed));
    acc.0 ^= read64(second, 0).wrapping_add(read64(second, 8));
    acc.1 ^= read64(first, 0).wrapping_add(read64(first, 8));
}

/// The first `N` bytes; callers have checked the length, so the check here
/// folds away.
#[inline(always)]
fn front<const N: usize>(input: &[u8]) -> &[u8; N] {
    input.first_chunk().unwrap()
}

/// The last `N` bytes.
#[inline(always)]
fn back<const N: usize>(input: &[u8]) -> &[u8; N] {
    input.last_chunk().unwrap()
}

/// 17 to 128 bytes: pieces `i` from the front (secret at `32 * i`) and from
/// the back (secret at `32 * i + 16`) for `i` below `(len - 1) / 32 + 1`;
/// the spec's loop, unrolled by length. For XXH3-64 the order does not
/// matter (the accumulator only adds).
#[inline(always)]
fn hash64_17to128(input: &[u8], secret: &Key, seed: u64) -> u64 {
    let len = input.len();
    let mut acc = (len as u64).wrapping_mul(PRIME64_1);
    if len > 32 {
        if len > 64 {
            if len > 96 {
                acc = acc.wrapping_add(mix16(front::<64>(input), 48, secret, 96, seed));
                acc = acc.wrapping_add(mix16(back::<64>(input), 0, secret, 112, seed));
            }
            acc = acc.wrapping_add(mix16(front::<48>(input), 32, secret, 64, seed));
            acc = acc.wrapping_add(mix16(back::<48>(input), 0, secret, 80, seed));
        }
        acc = acc.wrapping_add(mix16(front::<32>(input), 16, secret, 32, seed));
        acc = acc.wrapping_add(mix16(back::<32>(input), 0, secret, 48, seed));
    }
    acc = acc.wrapping_add(mix16(front::<16>(input), 0, secret, 0, seed));
    acc = acc.wrapping_add(mix16(back::<16>(input), 0, secret, 16, seed));
    avalanche(acc)
}

/// As `hash64_17to128`, the innermost pair first, as the spec orders it
/// (the accumulators mix with exclusive or as well as addition).
#[inline(always)]
fn hash128_17to128(input: &[u8], secret: &Key, seed: u64) -> (u64, u64) {
    let len = input.len();
    let mut acc = ((len as u64).wrapping_mul(PRIME64_1), 0);
    if len > 32 {
        if len > 64 {
            if len > 96 {
                mix32(&mut acc, &front::<64>(input)[48..], back::<64>(input), secret, 96, seed);
            }
            mix32(&mut acc, &front::<48>(input)[32..], back::<48>(input), secret, 64, seed);
        }
        mix32(&mut acc, &front::<32>(input)[16..], back::<32>(input), secret, 32, seed);
    }
    mix32(&mut acc, front::<16>(input), back::<16>(input), secret, 0, seed);
    finish128(acc, len, seed)
}

#[inline(always)]
fn hash64_129to240(input: &[u8], secret: &Key, seed: u64) -> u64 {
    let len = input.len();
    let mut acc = (len as u64).wrapping_mul(PRIME64_1);
    for i in 0..8 {
        acc = acc.wrapping_add(mix16(input, 16 * i, secret, 16 * i, seed));
    }
    acc = avalanche(acc);
    for i in 8..len / 16 {
        acc = acc.wrapping_add(mix16(input, 16 * i, secret, 16 * (i - 8) + 3, seed));
    }
    acc = acc.wrapping_add(mix16(input, len - 16, secret, 119, seed));
    avalanche(acc)
}

#[inline(always)]
fn hash128_129to240(input: &[u8], secret: &Key, seed: u64) -> (u64, u64) {
    let len = input.len();
    let mut acc = ((len as u64).wrapping_mul(PRIME64_1), 0);
    for i in 0..4 {
        let piece = &input[32 * i..32 * i + 32];
        mix32(&mut acc, piece, &piece[16..], secret, 32 * i, seed);
    }
    acc = (avalanche(acc.0), avalanche(acc.1));
    for i in 4..len / 32 {
        let piece = &input[32 * i..32 * i + 32];
        mix32(&mut acc, piece, &piece[16..], secret, 32 * (i - 4) + 3, seed);
    }
    // The last 32 bytes, halves swapped and the seed negated (spec).
    let last = back::<32>(input);
    mix32(&mut acc, &last[16..], last, secret, 103, seed.wrapping_neg());
    finish128(acc, len, seed)
}

#[inline(always)]
fn finish128(acc: (u64, u64), len: usize, seed: u64) -> (u64, u64) {
    let low = acc.0.wrapping_add(acc.1);
    let high = acc
        .0
        .wrapping_mul(PRIME64_1)
        .wrapping_add(acc.1.wrapping_mul(PRIME64_4))
        .wrapping_add((len as u64).wrapping_sub(seed).wrapping_mul(PRIME64_2));
    (avalanche(low), avalanche(high).wrapping_neg())
}
