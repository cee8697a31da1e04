//! The reference C xxHash, as safe functions (feature `c-xxhash`): Debian's
//! libxxhash 0.8 with its run-time x86 dispatcher (the `*_dispatch`
//! entry points xxhsum uses), its portable entry points for seeds,
//! secrets and streaming (the C-oracle test), and on x86-64 its header
//! compiled with AVX2 and with AVX-512 forced (`csrc/xxh3_forced.c`).

#![allow(unsafe_code)]

use std::ffi::c_void;

#[repr(C)]
#[derive(Clone, Copy)]
struct Xxh128 {
    low64: u64,
    high64: u64,
}

impl From<Xxh128> for u128 {
    fn from(hash: Xxh128) -> u128 {
        u128::from(hash.high64) << 64 | u128::from(hash.low64)
    }
}

#[link(name = "xxhash")]
extern "C" {
    fn XXH3_64bits_dispatch(input: *const c_void, len: usize) -> u64;
    fn XXH3_128bits_dispatch(input: *const c_void, len: usize) -> Xxh128;
    fn XXH3_64bits_withSeed(input: *const c_void, len: usize, seed: u64) -> u64;
    fn XXH3_128bits_withSeed(input: *const c_void, len: usize, seed: u64) -> Xxh128;
    fn XXH3_64bits_withSecret(input: *const c_void, len: usize, secret: *const c_void, secret_len: usize) -> u64;
    fn XXH3_128bits_withSecret(input: *const c_void, len: usize, secret: *const c_void, secret_len: usize) -> Xxh128;
    fn XXH_versionNumber() -> u32;
    fn XXH64(input: *const c_void, len: usize, seed: u64) -> u64;
}

/// XXH3-64 by the C library's dispatcher (AVX-512 on a CPU that has it).
pub fn xxh3_64(input: &[u8]) -> u64 {
    // SAFETY: the library reads `len` bytes from `input`, which the slice holds.
    unsafe { XXH3_64bits_dispatch(input.as_ptr().cast(), input.len()) }
}

/// XXH3-128 by the C library's dispatcher.
pub fn xxh3_128(input: &[u8]) -> u128 {
    // SAFETY: as in `xxh3_64`.
    unsafe { XXH3_128bits_dispatch(input.as_ptr().cast(), input.len()) }.into()
}

/// Seeded XXH3-64 by the C library.
pub fn xxh3_64_with_seed(input: &[u8], seed: u64) -> u64 {
    // SAFETY: as in `xxh3_64`.
    unsafe { XXH3_64bits_withSeed(input.as_ptr().cast(), input.len(), seed) }
}

/// Seeded XXH3-128 by the C library.
pub fn xxh3_128_with_seed(input: &[u8], seed: u64) -> u128 {
    // SAFETY: as in `xxh3_64`.
    unsafe { XXH3_128bits_withSeed(input.as_ptr().cast(), input.len(), seed) }.into()
}

/// XXH3-64 with a custom secret by the C library.
///
/// # Panics
///
/// If the secret is shorter than 136 bytes (the library would not check).
pub fn xxh3_64_with_secret(input: &[u8], secret: &[u8]) -> u64 {
    assert!(secret.len() >= 136, "xxh3 secrets have at least 136 bytes");
    // SAFETY: the library reads the two slices within their lengths; the
    // secret is long enough (checked above).
    unsafe { XXH3_64bits_withSecret(input.as_ptr().cast(), input.len(), secret.as_ptr().cast(), secret.len()) }
}

/// XXH3-128 with a custom secret by the C library.
///
/// # Panics
///
/// If the secret is shorter than 136 bytes.
pub fn xxh3_128_with_secret(input: &[u8], secret: &[u8]) -> u128 {
    assert!(secret.len() >= 136, "xxh3 secrets have at least 136 bytes");
    // SAFETY: as in `xxh3_64_with_secret`.
    unsafe { XXH3_128bits_withSecret(input.as_ptr().cast(), input.len(), secret.as_ptr().cast(), secret.len()) }.into()
}

/// XXH64 (seed 0) by the C library: scalar code, as in every build.
pub fn xxh64(input: &[u8]) -> u64 {
    // SAFETY: as in `xxh3_64`.
    unsafe { XXH64(input.as_ptr().cast(), input.len(), 0) }
}

/// The library's version, as "0.8.1".
pub fn version() -> String {
    // SAFETY: no arguments, returns a number.
    let number = unsafe { XXH_versionNumber() };
    format!("{}.{}.{}", number / 10000, number / 100 % 100, number % 100)
}

/// The C XXH3 with one instruction set forced (x86-64 only).
#[cfg(target_arch = "x86_64")]
pub mod forced {
    use super::Xxh128;
    use std::ffi::c_void;

    extern "C" {
        fn c_avx2_xxh3_64(input: *const c_void, len: usize) -> u64;
        fn c_avx2_xxh3_128(input: *const c_void, len: usize) -> Xxh128;
        fn c_avx2_vector() -> i32;
        fn c_avx512_xxh3_64(input: *const c_void, len: usize) -> u64;
        fn c_avx512_xxh3_128(input: *const c_void, len: usize) -> Xxh128;
        fn c_avx512_vector() -> i32;
    }

    /// The header's `XXH_VECTOR` values (xxhash.h, `XXH_VECTOR_TYPE`).
    const XXH_AVX2: i32 = 2;
    const XXH_AVX512: i32 = 3;

    /// Whether this CPU runs the AVX2 build, and that build is AVX2.
    pub fn avx2_supported() -> bool {
        // SAFETY: returns a compile-time constant, no AVX2 instruction runs.
        std::arch::is_x86_feature_detected!("avx2") && unsafe { c_avx2_vector() } == XXH_AVX2
    }

    /// Whether this CPU runs the AVX-512 build, and that build is AVX-512.
    pub fn avx512_supported() -> bool {
        // SAFETY: as above.
        std::arch::is_x86_feature_detected!("avx512f") && unsafe { c_avx512_vector() } == XXH_AVX512
    }

    /// XXH3-64 by the AVX2 build.
    ///
    /// # Panics
    ///
    /// If the CPU lacks AVX2.
    pub fn avx2_xxh3_64(input: &[u8]) -> u64 {
        assert!(avx2_supported(), "the CPU has AVX2");
        // SAFETY: the CPU has AVX2 (checked); the C code reads `len` bytes of `input`.
        unsafe { c_avx2_xxh3_64(input.as_ptr().cast(), input.len()) }
    }

    /// XXH3-128 by the AVX2 build.
    ///
    /// # Panics
    ///
    /// If the CPU lacks AVX2.
    pub fn avx2_xxh3_128(input: &[u8]) -> u128 {
        assert!(avx2_supported(), "the CPU has AVX2");
        // SAFETY: as in `avx2_xxh3_64`.
        unsafe { c_avx2_xxh3_128(input.as_ptr().cast(), input.len()) }.into()
    }

    /// XXH3-64 by the AVX-512 build.
    ///
    /// # Panics
    ///
    /// If the CPU lacks AVX-512F.
    pub fn avx512_xxh3_64(input: &[u8]) -> u64 {
        assert!(avx512_supported(), "the CPU has AVX-512F");
        // SAFETY: the CPU has AVX-512F (checked); the C code reads `len` bytes of `input`.
        unsafe { c_avx512_xxh3_64(input.as_ptr().cast(), input.len()) }
    }

    /// XXH3-128 by the AVX-512 build.
    ///
    /// # Panics
    ///
    /// If the CPU lacks AVX-512F.
    pub fn avx512_xxh3_128(input: &[u8]) -> u128 {
        assert!(avx512_supported(), "the CPU has AVX-512F");
        // SAFETY: as in `avx512_xxh3_64`.
        unsafe { c_avx512_xxh3_128(input.as_ptr().cast(), input.len()) }.into()
    }
}
