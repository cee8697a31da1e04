//! SHA-256 and SHA-512 (FIPS 180-4), adapted from RustCrypto's `sha2`.
//!
//! Why `sha2` 0.11 (`checksum_candidates` and `scripts/build_times.sh`,
//! BENCHMARKS.md "Checksum crates"): it uses the CPU's SHA extensions,
//! picked at run time with `cpufeatures` (SHA-NI on x86, the SHA2 extension
//! on aarch64; no `std` needed), and so runs SHA-256 5.8x as fast as the
//! portable code of `hmac-sha256` (1 MiB: 1.28 vs 0.22 GB/s; 4 KiB: 1.69
//! vs 0.27 GB/s). For SHA-512 the gap is ~1.1x (x86 has no SHA-512
//! instructions before Arrow Lake; `sha2` uses AVX2). It costs build time
//! (3.9 s of CPU alone, the RustCrypto `digest` stack), which the registry
//! pays by default so that every user gets the fast code; the lean build
//! leaves the family out (see the crate docs). `sha2` 0.10 runs the same
//! code paths and builds in half the time, but is the older line.

use crate::wrapper::{aarch64_has, wrapper, x86_has};
use ::sha2::Digest as _;

wrapper! {
    /// SHA-256 from RustCrypto's `sha2`.
    Sha256(::sha2::Sha256): 32, implementation: sha256_implementation(),
    /// SHA-512 from RustCrypto's `sha2`.
    Sha512(::sha2::Sha512): 64, implementation: sha512_implementation();
    {
        // Out of line so the registry's inlined dispatch stays small (see registry.rs).
        #[inline(never)]
        hash(input) => State::digest(input).into();
        new() => State::new();
        update(state, input) => state.update(input);
        finalize(state) => state.clone().finalize().into();
    }
}

/// sha2 0.11 (`sha256.rs`): SHA-NI (with SSE4.1) on x86, the SHA2
/// extension on aarch64, picked at run time with `cpufeatures`, even
/// without `std`; chunkhash asks the CPU only with `std`.
fn sha256_implementation() -> &'static str {
    match (cfg!(feature = "std"), x86_has!("sha", "sse4.1"), aarch64_has!("sha2")) {
        (false, _, _) => "sha2 (instruction set picked at run time)",
        (true, true, _) => "sha2 shani",
        (true, false, true) => "sha2 aarch64-sha2",
        (true, false, false) => "sha2 soft",
    }
}

/// sha2 0.11 (`sha512.rs`): AVX2 on x86 (it has no backend for x86's
/// SHA-512 instructions), the SHA3 extension on aarch64, as for SHA-256.
fn sha512_implementation() -> &'static str {
    match (cfg!(feature = "std"), x86_has!("avx2"), aarch64_has!("sha3")) {
        (false, _, _) => "sha2 (instruction set picked at run time)",
        (true, true, _) => "sha2 avx2",
        (true, false, true) => "sha2 aarch64-sha3",
        (true, false, false) => "sha2 soft",
    }
}
