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

use blake2b_simd::{Params, State};

fn params(len: usize) -> Params {
    let mut params = Params::new();
    params.hash_length(len);
    params
}

/// BLAKE2b with an output of `N` bytes (64 or 32 here).
// Out of line so the registry's inlined dispatch stays small (see digest.rs).
#[inline(never)]
pub(crate) fn blake2b<const N: usize>(input: &[u8]) -> [u8; N] {
    let mut out = [0u8; N];
    out.copy_from_slice(params(N).hash(input).as_bytes());
    out
}

/// Streaming BLAKE2b with an `N`-byte output.
#[derive(Clone)]
pub(crate) struct Blake2bHasher<const N: usize>(State);

impl<const N: usize> Blake2bHasher<N> {
    pub(crate) fn new() -> Self {
        Blake2bHasher(params(N).to_state())
    }

    pub(crate) fn update(&mut self, input: &[u8]) {
        self.0.update(input);
    }

    pub(crate) fn finalize(&self) -> [u8; N] {
        let mut out = [0u8; N];
        out.copy_from_slice(self.0.finalize().as_bytes());
        out
    }
}
