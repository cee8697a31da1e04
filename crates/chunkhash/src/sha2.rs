//! SHA-256 and SHA-512 (FIPS 180-4). By default from the `hmac-sha256` and
//! `hmac-sha512` crates; with the `sha2-hw` feature from RustCrypto's `sha2`.
//!
//! The one choice in the registry where build time and speed pull apart
//! (`checksum_candidates` and `scripts/build_times.sh`, BENCHMARKS.md
//! "Checksum crates"):
//!
//! - `sha2` 0.11 uses the CPU's SHA extensions (SHA-NI on x86, picked at run
//!   time): SHA-256 runs 5.8x as fast as the portable code of `hmac-sha256`
//!   (1 MiB: 1.28 vs 0.22 GB/s; 4 KiB: 1.69 vs 0.27 GB/s). For SHA-512 the
//!   gap is ~1.1x (x86 has no SHA-512 instructions before Arrow Lake; `sha2`
//!   uses AVX2), and none with `-C target-cpu=native`.
//! - But `sha2` needs the RustCrypto `digest` stack: a clean release build of
//!   `sha2` alone takes 3.9 s of CPU, more than the whole official `blake3`
//!   crate (2.7-3.3 s), while `hmac-sha256` and `hmac-sha512` together take
//!   0.43 s and have no dependencies. (`sha2` 0.10 builds in about half the
//!   time of 0.11 and runs the same code paths; the newer line was kept for
//!   the opt-in feature.)
//!
//! The registry is on by default, and chunkhash's default build should stay
//! close to `blake3`'s, so the default is the light pair; users who hash
//! much SHA-256 turn on `sha2-hw` and pay the build time once. Both backends
//! give the same bytes (`make test` runs the golden vectors on both).

#[cfg(not(feature = "sha2-hw"))]
mod backend {
    use crate::wrapper::wrapper;

    wrapper! {
        /// SHA-256 from `hmac-sha256`: portable code only.
        Sha256(hmac_sha256::Hash): 32, implementation: "hmac-sha256 portable",
        /// SHA-512 from `hmac-sha512`: portable code only.
        Sha512(hmac_sha512::Hash): 64, implementation: "hmac-sha512 portable";
        {
            // Out of line so the registry's inlined dispatch stays small (see registry.rs).
            #[inline(never)]
            hash(input) => State::hash(input);
            new() => State::new();
            update(state, input) => state.update(input);
            finalize(state) => state.finalize();
        }
    }
}

#[cfg(feature = "sha2-hw")]
mod backend {
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
}

pub(crate) use backend::{Sha256, Sha512};
