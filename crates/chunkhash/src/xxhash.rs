//! The xxHash family in the registry (seed 0, default secret): XXH3-64 and
//! XXH3-128 from chunkhash's own [`xxh3`](crate::xxh3) module, XXH64 from
//! its own [`xxh64`](crate::xxh64), XXH32 adapted from the `twox-hash` crate.
//!
//! One module for the family because it shares a cargo feature, `xxhash`
//! (the STYLE guide names modules after algorithms). Outputs are big-endian
//! bytes, as xxhsum prints them and as the xxHash spec's canonical form
//! stores them.
//!
//! XXH3 is written here because no crate picks an AVX-512 kernel at run
//! time: twox-hash stops at AVX2 and ran XXH3 at 0.65-0.81x the reference
//! C library's speed; chunkhash's XXH3 is at or above the C library at
//! every size (crate docs, BENCHMARKS.md "XXH3 against the reference C
//! library"). XXH64 is written here for its short inputs (see `xxh64.rs`).
//! XXH32 stays on twox-hash 2.1: a scalar
//! algorithm with nothing for kernels to win, twox-hash and xxhash-rust 0.8
//! run them at equal speed (`checksum_candidates`, BENCHMARKS.md "Checksum
//! crates"; 2-core Zen 4, medians of 21 interleaved rounds), and twox-hash
//! builds in 0.68 s of CPU alone. twox-hash also stays a dev-dependency
//! with its XXH3 and XXH64, the independent oracle of those tests.

use crate::wrapper::wrapper;
use crate::xxh3::{self, Kernel};
use crate::xxh64;
use core::hash::Hasher;
use twox_hash::XxHash32;

/// chunkhash's own XXH3 and the kernel its long-input loop runs on here.
fn xxh3_implementation() -> &'static str {
    match Kernel::detect() {
        Kernel::Avx512 => "chunkhash avx512",
        Kernel::Avx2 => "chunkhash avx2",
        Kernel::Sse2 => "chunkhash sse2",
        Kernel::Neon => "chunkhash neon",
        Kernel::Simd128 => "chunkhash simd128",
        _ => "chunkhash portable",
    }
}

wrapper! {
    /// XXH3-64.
    Xxh3_64(xxh3::Hasher64<'static>): 8, implementation: xxh3_implementation();
    {
        // Inlined across the crate boundary: the short path is a few
        // nanoseconds, so a call and a returned array cost as much as the
        // hash (issue 34's call-site shapes).
        #[inline]
        hash(input) => xxh3::hash64(input).to_be_bytes();
        new() => State::new();
        update(state, input) => state.update(input);
        finalize(state) => state.finalize().to_be_bytes();
    }
}

wrapper! {
    /// XXH3-128.
    Xxh3_128(xxh3::Hasher128<'static>): 16, implementation: xxh3_implementation();
    {
        // Inlined across the crate boundary: the short path is a few
        // nanoseconds, so a call and a returned array cost as much as the
        // hash (issue 34's call-site shapes).
        #[inline]
        hash(input) => xxh3::hash128(input).to_be_bytes();
        new() => State::new();
        update(state, input) => state.update(input);
        finalize(state) => state.finalize().to_be_bytes();
    }
}

wrapper! {
    /// XXH64 (seed 0): chunkhash's own scalar code (`xxh64.rs`).
    Xxh64(xxh64::Hasher): 8, implementation: "chunkhash scalar";
    {
        // Inlined across the crate boundary: the short path is a few
        // nanoseconds, so a call and a returned array cost as much as the
        // hash (issue 34's call-site shapes).
        #[inline]
        hash(input) => xxh64::hash(input).to_be_bytes();
        new() => State::with_seed(0);
        update(state, input) => state.update(input);
        finalize(state) => state.finalize().to_be_bytes();
    }
}

wrapper! {
    /// XXH32 (seed 0): scalar code only.
    Xxh32(XxHash32): 4, implementation: "twox-hash scalar";
    {
        // Inlined across the crate boundary: the short path is a few
        // nanoseconds, so a call and a returned array cost as much as the
        // hash (issue 34's call-site shapes).
        #[inline]
        hash(input) => XxHash32::oneshot(0, input).to_be_bytes();
        new() => XxHash32::with_seed(0);
        update(state, input) => Hasher::write(state, input);
        finalize(state) => state.finish_32().to_be_bytes();
    }
}
