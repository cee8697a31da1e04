//! XXH3's constants and mixing steps (xxHash spec, "XXH3 Algorithm
//! Overview", "Seed and Secret", "Final Mixing Step"): what the short-input
//! code, the finalisation and the streaming state share. The spec is
//! `doc/xxhash_spec.md` of the xxHash repository (Yann Collet, BSD-2-Clause
//! code, the document free to copy); everything here is written from it.

pub(crate) const PRIME32_1: u64 = 0x9E37_79B1;
pub(crate) const PRIME32_2: u64 = 0x85EB_CA77;
pub(crate) const PRIME32_3: u64 = 0xC2B2_AE3D;
pub(crate) const PRIME64_1: u64 = 0x9E37_79B1_85EB_CA87;
pub(crate) const PRIME64_2: u64 = 0xC2B2_AE3D_27D4_EB4F;
pub(crate) const PRIME64_3: u64 = 0x1656_67B1_9E37_79F9;
pub(crate) const PRIME64_4: u64 = 0x85EB_CA77_C2B2_AE63;
pub(crate) const PRIME64_5: u64 = 0x27D4_EB2F_1656_67C5;
pub(crate) const PRIME_MX1: u64 = 0x1656_6791_9E37_79F9;
pub(crate) const PRIME_MX2: u64 = 0x9FB2_1C65_1E98_DF25;

/// Bytes in the default secret and in a secret derived from a seed.
pub(crate) const DEFAULT_SECRET_LEN: usize = 192;

/// The spec's default secret.
pub(crate) const DEFAULT_SECRET: [u8; DEFAULT_SECRET_LEN] = [
    0xb8, 0xfe, 0x6c, 0x39, 0x23, 0xa4, 0x4b, 0xbe, 0x7c, 0x01, 0x81, 0x2c, 0xf7, 0x21, 0xad, 0x1c, //
    0xde, 0xd4, 0x6d, 0xe9, 0x83, 0x90, 0x97, 0xdb, 0x72, 0x40, 0xa4, 0xa4, 0xb7, 0xb3, 0x67, 0x1f, //
    0xcb, 0x79, 0xe6, 0x4e, 0xcc, 0xc0, 0xe5, 0x78, 0x82, 0x5a, 0xd0, 0x7d, 0xcc, 0xff, 0x72, 0x21, //
    0xb8, 0x08, 0x46, 0x74, 0xf7, 0x43, 0x24, 0x8e, 0xe0, 0x35, 0x90, 0xe6, 0x81, 0x3a, 0x26, 0x4c, //
    0x3c, 0x28, 0x52, 0xbb, 0x91, 0xc3, 0x00, 0xcb, 0x88, 0xd0, 0x65, 0x8b, 0x1b, 0x53, 0x2e, 0xa3, //
    0x71, 0x64, 0x48, 0x97, 0xa2, 0x0d, 0xf9, 0x4e, 0x38, 0x19, 0xef, 0x46, 0xa9, 0xde, 0xac, 0xd8, //
    0xa8, 0xfa, 0x76, 0x3f, 0xe3, 0x9c, 0x34, 0x3f, 0xf9, 0xdc, 0xbb, 0xc7, 0xc7, 0x0b, 0x4f, 0x1d, //
    0x8a, 0x51, 0xe0, 0x4b, 0xcd, 0xb4, 0x59, 0x31, 0xc8, 0x9f, 0x7e, 0xc9, 0xd9, 0x78, 0x73, 0x64, //
    0xea, 0xc5, 0xac, 0x83, 0x34, 0xd3, 0xeb, 0xc3, 0xc5, 0x81, 0xa0, 0xff, 0xfa, 0x13, 0x63, 0xeb, //
    0x17, 0x0d, 0xdd, 0x51, 0xb7, 0xf0, 0xda, 0x49, 0xd3, 0x16, 0x55, 0x26, 0x29, 0xd4, 0x68, 0x9e, //
    0x2b, 0x16, 0xbe, 0x58, 0x7d, 0x47, 0xa1, 0xfc, 0x8f, 0xf8, 0xb8, 0xd1, 0x7a, 0xd0, 0x31, 0xce, //
    0x45, 0xcb, 0x3a, 0x8f, 0x95, 0x16, 0x04, 0x28, 0xaf, 0xd7, 0xfb, 0xca, 0xbb, 0x4b, 0x40, 0x7e, //
];

/// The accumulators' starting values for long inputs.
pub(crate) const INITIAL_ACCUMULATORS: [u64; 8] =
    [PRIME32_3, PRIME64_1, PRIME64_2, PRIME64_3, PRIME64_4, PRIME32_2, PRIME64_5, PRIME32_1];

/// Little-endian word at byte `at`.
#[inline(always)]
pub(crate) fn read64(bytes: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(bytes[at..at + 8].try_into().unwrap())
}

/// Little-endian 32-bit word at byte `at`.
#[inline(always)]
pub(crate) fn read32(bytes: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap())
}

/// The full 128-bit product of two words, as (low, high).
#[inline(always)]
pub(crate) fn multiply(a: u64, b: u64) -> (u64, u64) {
    let product = u128::from(a) * u128::from(b);
    (product as u64, (product >> 64) as u64)
}

/// The 128-bit product folded to 64 bits: low half xor high half.
#[inline(always)]
pub(crate) fn multiply_fold(a: u64, b: u64) -> u64 {
    let (low, high) = multiply(a, b);
    low ^ high
}

/// The spec's `avalanche`.
#[inline(always)]
pub(crate) fn avalanche(mut x: u64) -> u64 {
    x ^= x >> 37;
    x = x.wrapping_mul(PRIME_MX1);
    x ^ (x >> 32)
}

/// The spec's `avalanche_XXH64`.
#[inline(always)]
pub(crate) fn avalanche_xxh64(mut x: u64) -> u64 {
    x ^= x >> 33;
    x = x.wrapping_mul(PRIME64_2);
    x ^= x >> 29;
    x = x.wrapping_mul(PRIME64_3);
    x ^ (x >> 32)
}

/// The secret a seed selects for inputs over 240 bytes (spec
/// `deriveSecret`): the default secret as 24 little-endian words, the seed
/// added to the even ones and subtracted from the odd ones.
pub(crate) fn derive_secret(seed: u64) -> [u8; DEFAULT_SECRET_LEN] {
    let mut secret = DEFAULT_SECRET;
    for (i, word) in secret.chunks_exact_mut(8).enumerate() {
        let value = u64::from_le_bytes((&*word).try_into().unwrap());
        let value = if i % 2 == 0 { value.wrapping_add(seed) } else { value.wrapping_sub(seed) };
        word.copy_from_slice(&value.to_le_bytes());
    }
    secret
}
