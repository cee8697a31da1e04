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

// A build with one of the `compat` and `sha2` features uses only its
// algorithms' constants; off x86 only some have lanes (wasm32 and aarch64
// have no SHA-512 lanes: `mb_simd128.rs` says why), or none.
#![cfg_attr(
    any(not(all(feature = "compat", feature = "sha2")), not(any(target_arch = "x86", target_arch = "x86_64"))),
    allow(dead_code)
)]

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

/// The left rotation of MD5's steps: step `i` of round `round` rotates by
/// `MD5_SHIFTS[round][i % 4]` (RFC 1321 section 3.4, `S11` to `S44`). The
/// x86 kernels take them as const generic arguments instead.
#[cfg(any(target_arch = "wasm32", target_arch = "aarch64"))]
pub(crate) const MD5_SHIFTS: [[u32; 4]; 4] = [[7, 12, 17, 22], [5, 9, 14, 20], [4, 11, 16, 23], [6, 10, 15, 21]];

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

/// SHA-1's block length (FIPS 180-4 section 5.1.1).
pub(crate) const SHA1_BLOCK_LEN: usize = 64;

/// SHA-1's initial hash value (FIPS 180-4 section 5.3.1).
pub(crate) const SHA1_IV: [u32; 5] = [0x6745_2301, 0xefcd_ab89, 0x98ba_dcfe, 0x1032_5476, 0xc3d2_e1f0];

/// SHA-1's constant for each run of 20 steps (FIPS 180-4 section 4.2.1).
pub(crate) const SHA1_K: [u32; 4] = [0x5a82_7999, 0x6ed9_eba1, 0x8f1b_bcdc, 0xca62_c1d6];

/// SHA-512's block length (FIPS 180-4 section 5.1.2).
pub(crate) const SHA512_BLOCK_LEN: usize = 128;

/// SHA-512's initial hash value (FIPS 180-4 section 5.3.5).
pub(crate) const SHA512_IV: [u64; 8] = [
    0x6a09_e667_f3bc_c908,
    0xbb67_ae85_84ca_a73b,
    0x3c6e_f372_fe94_f82b,
    0xa54f_f53a_5f1d_36f1,
    0x510e_527f_ade6_82d1,
    0x9b05_688c_2b3e_6c1f,
    0x1f83_d9ab_fb41_bd6b,
    0x5be0_cd19_137e_2179,
];

/// SHA-512's round constants (FIPS 180-4 section 4.2.3).
pub(crate) const SHA512_K: [u64; 80] = [
    0x428a_2f98_d728_ae22,
    0x7137_4491_23ef_65cd,
    0xb5c0_fbcf_ec4d_3b2f,
    0xe9b5_dba5_8189_dbbc,
    0x3956_c25b_f348_b538,
    0x59f1_11f1_b605_d019,
    0x923f_82a4_af19_4f9b,
    0xab1c_5ed5_da6d_8118,
    0xd807_aa98_a303_0242,
    0x1283_5b01_4570_6fbe,
    0x2431_85be_4ee4_b28c,
    0x550c_7dc3_d5ff_b4e2,
    0x72be_5d74_f27b_896f,
    0x80de_b1fe_3b16_96b1,
    0x9bdc_06a7_25c7_1235,
    0xc19b_f174_cf69_2694,
    0xe49b_69c1_9ef1_4ad2,
    0xefbe_4786_384f_25e3,
    0x0fc1_9dc6_8b8c_d5b5,
    0x240c_a1cc_77ac_9c65,
    0x2de9_2c6f_592b_0275,
    0x4a74_84aa_6ea6_e483,
    0x5cb0_a9dc_bd41_fbd4,
    0x76f9_88da_8311_53b5,
    0x983e_5152_ee66_dfab,
    0xa831_c66d_2db4_3210,
    0xb003_27c8_98fb_213f,
    0xbf59_7fc7_beef_0ee4,
    0xc6e0_0bf3_3da8_8fc2,
    0xd5a7_9147_930a_a725,
    0x06ca_6351_e003_826f,
    0x1429_2967_0a0e_6e70,
    0x27b7_0a85_46d2_2ffc,
    0x2e1b_2138_5c26_c926,
    0x4d2c_6dfc_5ac4_2aed,
    0x5338_0d13_9d95_b3df,
    0x650a_7354_8baf_63de,
    0x766a_0abb_3c77_b2a8,
    0x81c2_c92e_47ed_aee6,
    0x9272_2c85_1482_353b,
    0xa2bf_e8a1_4cf1_0364,
    0xa81a_664b_bc42_3001,
    0xc24b_8b70_d0f8_9791,
    0xc76c_51a3_0654_be30,
    0xd192_e819_d6ef_5218,
    0xd699_0624_5565_a910,
    0xf40e_3585_5771_202a,
    0x106a_a070_32bb_d1b8,
    0x19a4_c116_b8d2_d0c8,
    0x1e37_6c08_5141_ab53,
    0x2748_774c_df8e_eb99,
    0x34b0_bcb5_e19b_48a8,
    0x391c_0cb3_c5c9_5a63,
    0x4ed8_aa4a_e341_8acb,
    0x5b9c_ca4f_7763_e373,
    0x682e_6ff3_d6b2_b8a3,
    0x748f_82ee_5def_b2fc,
    0x78a5_636f_4317_2f60,
    0x84c8_7814_a1f0_ab72,
    0x8cc7_0208_1a64_39ec,
    0x90be_fffa_2363_1e28,
    0xa450_6ceb_de82_bde9,
    0xbef9_a3f7_b2c6_7915,
    0xc671_78f2_e372_532b,
    0xca27_3ece_ea26_619c,
    0xd186_b8c7_21c0_c207,
    0xeada_7dd6_cde0_eb1e,
    0xf57d_4f7f_ee6e_d178,
    0x06f0_67aa_7217_6fba,
    0x0a63_7dc5_a2c8_98a6,
    0x113f_9804_bef9_0dae,
    0x1b71_0b35_131c_471b,
    0x28db_77f5_2304_7d84,
    0x32ca_ab7b_40c7_2493,
    0x3c9e_be0a_15c9_bebc,
    0x431d_67c4_9c10_0d4c,
    0x4cc5_d4be_cb3e_42b6,
    0x597f_299c_fc65_7e2a,
    0x5fcb_6fab_3ad6_faec,
    0x6c44_198c_4a47_5817,
];

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
