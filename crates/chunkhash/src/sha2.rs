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
    // Out of line so the registry's inlined dispatch stays small (see digest.rs).
    #[inline(never)]
    pub(crate) fn sha256(input: &[u8]) -> [u8; 32] {
        hmac_sha256::Hash::hash(input)
    }

    #[inline(never)]
    pub(crate) fn sha512(input: &[u8]) -> [u8; 64] {
        hmac_sha512::Hash::hash(input)
    }

    /// Streaming SHA-256.
    #[derive(Clone)]
    pub(crate) struct Sha256Hasher(hmac_sha256::Hash);

    impl Sha256Hasher {
        pub(crate) fn new() -> Self {
            Sha256Hasher(hmac_sha256::Hash::new())
        }

        pub(crate) fn update(&mut self, input: &[u8]) {
            self.0.update(input);
        }

        pub(crate) fn finalize(&self) -> [u8; 32] {
            self.0.finalize()
        }
    }

    /// Streaming SHA-512.
    #[derive(Clone)]
    pub(crate) struct Sha512Hasher(hmac_sha512::Hash);

    impl Sha512Hasher {
        pub(crate) fn new() -> Self {
            Sha512Hasher(hmac_sha512::Hash::new())
        }

        pub(crate) fn update(&mut self, input: &[u8]) {
            self.0.update(input);
        }

        pub(crate) fn finalize(&self) -> [u8; 64] {
            self.0.finalize()
        }
    }
}

#[cfg(feature = "sha2-hw")]
mod backend {
    use ::sha2::Digest as _;

    // Out of line so the registry's inlined dispatch stays small (see digest.rs).
    #[inline(never)]
    pub(crate) fn sha256(input: &[u8]) -> [u8; 32] {
        ::sha2::Sha256::digest(input).into()
    }

    #[inline(never)]
    pub(crate) fn sha512(input: &[u8]) -> [u8; 64] {
        ::sha2::Sha512::digest(input).into()
    }

    /// Streaming SHA-256.
    #[derive(Clone)]
    pub(crate) struct Sha256Hasher(::sha2::Sha256);

    impl Sha256Hasher {
        pub(crate) fn new() -> Self {
            Sha256Hasher(::sha2::Sha256::new())
        }

        pub(crate) fn update(&mut self, input: &[u8]) {
            self.0.update(input);
        }

        pub(crate) fn finalize(&self) -> [u8; 32] {
            self.0.clone().finalize().into()
        }
    }

    /// Streaming SHA-512.
    #[derive(Clone)]
    pub(crate) struct Sha512Hasher(::sha2::Sha512);

    impl Sha512Hasher {
        pub(crate) fn new() -> Self {
            Sha512Hasher(::sha2::Sha512::new())
        }

        pub(crate) fn update(&mut self, input: &[u8]) {
            self.0.update(input);
        }

        pub(crate) fn finalize(&self) -> [u8; 64] {
            self.0.clone().finalize().into()
        }
    }
}

pub(crate) use backend::{sha256, sha512, Sha256Hasher, Sha512Hasher};
