//! BLAKE2b-512 and BLAKE2b-256 (unkeyed, as `b2sum` and `b2sum -l 256`),
//! adapted from the `blake2b_simd` crate.
//!
//! Why `blake2b_simd` 1.0 over RustCrypto's `blake2` 0.11 (`checksum_candidates`,
//! BENCHMARKS.md "Checksum crates"): on a default build the two hash within
//! about 10% of each other (0.7-1.2 GB/s at 4 KiB and 1 MiB; one BLAKE2b
//! message gains little from AVX2 on Zen 4), and built with
//! `-C target-cpu=native` blake2b_simd is 1.27x faster (1.13 vs 0.89 GB/s at
//! 1 MiB), because blake2 has only portable code. The deciding figure is
//! build cost: `blake2` needs the RustCrypto `digest` stack (`typenum`,
//! `hybrid-array`, `crypto-common`, `block-buffer`): 3.1 s of CPU alone,
//! against 2.1 s for blake2b_simd (`arrayvec`, `constant_time_eq`). Even so
//! BLAKE2b is the registry's most expensive family to build (see the crate
//! docs, "Build time"). With `std`, blake2b_simd picks AVX2 at run time;
//! without it, its portable code.

use crate::wrapper::{x86_has, Wrapper};
use blake2b_simd::{Params, State};

fn params(len: usize) -> Params {
    let mut params = Params::new();
    params.hash_length(len);
    params
}

/// Unkeyed BLAKE2b with an `N`-byte output (64 or 32 here).
#[derive(Clone)]
pub(crate) struct Blake2b<const N: usize>(State);

impl<const N: usize> Wrapper<N> for Blake2b<N> {
    // Out of line so the registry's inlined dispatch stays small (see registry.rs).
    #[inline(never)]
    fn hash(input: &[u8]) -> [u8; N] {
        // The crate's own one-shot for the default length: it starts from
        // constant parameters, where `params` builds them (callgrind, 64
        // bytes: 145 instructions more per hash).
        let hash = if N == 64 { blake2b_simd::blake2b(input) } else { params(N).hash(input) };
        let mut out = [0u8; N];
        out.copy_from_slice(hash.as_bytes());
        out
    }

    fn new() -> Self {
        Blake2b(params(N).to_state())
    }

    fn update(&mut self, input: &[u8]) {
        self.0.update(input);
    }

    fn finalize(&self) -> [u8; N] {
        let mut out = [0u8; N];
        out.copy_from_slice(self.0.finalize().as_bytes());
        out
    }

    /// blake2b_simd 1.0 (`guts.rs`, `Implementation::detect`): AVX2, else
    /// SSE4.1, else portable; at run time with `std`, from the build's target
    /// features without it. Other architectures run the portable code.
    fn implementation() -> &'static str {
        match (x86_has!("avx2"), x86_has!("sse4.1")) {
            (true, _) => "blake2b_simd avx2",
            (false, true) => "blake2b_simd sse4.1",
            (false, false) => "blake2b_simd portable",
        }
    }
}
