//! XXH3-64, XXH3-128, XXH64 and XXH32 (seed 0, default secret), adapted
//! from the `twox-hash` crate.
//!
//! One module for the family because one crate serves it (the STYLE guide
//! names modules after algorithms; here the family shares a crate and a
//! cargo feature, `xxhash`). Outputs are big-endian bytes, as xxhsum prints
//! them and as the xxHash spec's canonical form stores them.
//!
//! Why `twox-hash` 2.1 over `xxhash-rust` 0.8 (`checksum_candidates`,
//! BENCHMARKS.md "Checksum crates"; 2-core Zen 4, medians of 21 interleaved
//! rounds): twox-hash picks AVX2 for XXH3 at run time (with `std`),
//! xxhash-rust only at compile time, so on a default x86-64 build twox-hash
//! hashes XXH3 1.8-1.9x as fast from 4 KiB on (XXH3-64 at 1 MiB: 56.6 vs
//! 30.2 GB/s; XXH3-128: 55.5 vs 29.3 GB/s). XXH64 and XXH32 are equal within
//! noise at every size. Built with `-C target-cpu=native`, xxhash-rust uses
//! AVX-512 and is ~1.1x faster on large XXH3 inputs (61.7 vs 55.4 GB/s at
//! 1 MiB), which twox-hash does not have: that is what run-time dispatch to
//! AVX-512 would add. Clean release build of the crate alone: 0.68 s CPU
//! for twox-hash, 0.44 s for xxhash-rust. Without `std` twox-hash runs its
//! portable code.

use crate::wrapper::wrapper;
use crate::xxh3::{self, Kernel};
use core::hash::Hasher;
use twox_hash::{XxHash32, XxHash64};

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
        hash(input) => xxh3::hash128(input).to_be_bytes();
        new() => State::new();
        update(state, input) => state.update(input);
        finalize(state) => state.finalize().to_be_bytes();
    }
}

wrapper! {
    /// XXH64 (seed 0): scalar code only, in twox-hash as in the reference.
    Xxh64(XxHash64): 8, implementation: "twox-hash scalar";
    {
        hash(input) => XxHash64::oneshot(0, input).to_be_bytes();
        new() => XxHash64::with_seed(0);
        update(state, input) => Hasher::write(state, input);
        finalize(state) => Hasher::finish(state).to_be_bytes();
    }
}

wrapper! {
    /// XXH32 (seed 0): scalar code only.
    Xxh32(XxHash32): 4, implementation: "twox-hash scalar";
    {
        hash(input) => XxHash32::oneshot(0, input).to_be_bytes();
        new() => XxHash32::with_seed(0);
        update(state, input) => Hasher::write(state, input);
        finalize(state) => state.finish_32().to_be_bytes();
    }
}
