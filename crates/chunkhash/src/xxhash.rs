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

use crate::wrapper::{aarch64_has, wrapper, x86_has};
use core::hash::Hasher;
use twox_hash::xxhash3_128::{RawHasher as RawXxh3_128, SecretBuffer as SecretBuffer128};
use twox_hash::xxhash3_64::{RawHasher as RawXxh3_64, SecretBuffer as SecretBuffer64};
use twox_hash::{XxHash32, XxHash3_128, XxHash3_64, XxHash64};

/// The default secret, borrowed: the streaming XXH3 states allocate nothing.
type DefaultSecret = &'static [u8; 192];

/// What twox-hash 2.1 runs for XXH3's long inputs (`xxhash3/large.rs`):
/// with `std`, AVX2 or else SSE2 on x86-64 and NEON on aarch64, picked at
/// run time; otherwise its scalar code. Inputs up to 240 bytes always take
/// the scalar path.
fn xxh3_implementation() -> &'static str {
    let std = cfg!(feature = "std");
    match (std && cfg!(target_arch = "x86_64"), x86_has!("avx2"), std && aarch64_has!("neon")) {
        (true, true, _) => "twox-hash avx2",
        (true, false, _) => "twox-hash sse2",
        (false, _, true) => "twox-hash neon",
        (false, _, false) => "twox-hash scalar",
    }
}

wrapper! {
    /// XXH3-64.
    Xxh3_64(RawXxh3_64<DefaultSecret>): 8, implementation: xxh3_implementation();
    {
        // In line: twox-hash's length dispatch joins the registry's
        // (callgrind, 64 bytes through `digest`: 123 instructions out of
        // line, against 70 for the direct call).
        #[inline(always)]
        hash(input) => XxHash3_64::oneshot(input).to_be_bytes();
        new() => RawXxh3_64::new(SecretBuffer64::default());
        update(state, input) => Hasher::write(state, input);
        finalize(state) => Hasher::finish(state).to_be_bytes();
    }
}

wrapper! {
    /// XXH3-128.
    Xxh3_128(RawXxh3_128<DefaultSecret>): 16, implementation: xxh3_implementation();
    {
        hash(input) => XxHash3_128::oneshot(input).to_be_bytes();
        new() => RawXxh3_128::new(SecretBuffer128::default());
        update(state, input) => state.write(input);
        finalize(state) => state.finish_128().to_be_bytes();
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
