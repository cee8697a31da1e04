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

use twox_hash::xxhash3_128::{RawHasher as RawXxh3_128, SecretBuffer as SecretBuffer128};
use twox_hash::xxhash3_64::{RawHasher as RawXxh3_64, SecretBuffer as SecretBuffer64};
use twox_hash::{XxHash32, XxHash3_128, XxHash3_64, XxHash64};

pub(crate) fn xxh3_64(input: &[u8]) -> [u8; 8] {
    XxHash3_64::oneshot(input).to_be_bytes()
}

pub(crate) fn xxh3_128(input: &[u8]) -> [u8; 16] {
    XxHash3_128::oneshot(input).to_be_bytes()
}

pub(crate) fn xxh64(input: &[u8]) -> [u8; 8] {
    XxHash64::oneshot(0, input).to_be_bytes()
}

pub(crate) fn xxh32(input: &[u8]) -> [u8; 4] {
    XxHash32::oneshot(0, input).to_be_bytes()
}

/// The default secret, borrowed: the streaming XXH3 hashers allocate nothing.
type DefaultSecret = &'static [u8; 192];

/// Streaming XXH3-64.
#[derive(Clone)]
pub(crate) struct Xxh3_64Hasher(RawXxh3_64<DefaultSecret>);

impl Xxh3_64Hasher {
    pub(crate) fn new() -> Self {
        Xxh3_64Hasher(RawXxh3_64::new(SecretBuffer64::default()))
    }

    pub(crate) fn update(&mut self, input: &[u8]) {
        core::hash::Hasher::write(&mut self.0, input);
    }

    pub(crate) fn finalize(&self) -> [u8; 8] {
        core::hash::Hasher::finish(&self.0).to_be_bytes()
    }
}

/// Streaming XXH3-128.
#[derive(Clone)]
pub(crate) struct Xxh3_128Hasher(RawXxh3_128<DefaultSecret>);

impl Xxh3_128Hasher {
    pub(crate) fn new() -> Self {
        Xxh3_128Hasher(RawXxh3_128::new(SecretBuffer128::default()))
    }

    pub(crate) fn update(&mut self, input: &[u8]) {
        self.0.write(input);
    }

    pub(crate) fn finalize(&self) -> [u8; 16] {
        self.0.finish_128().to_be_bytes()
    }
}

/// Streaming XXH64.
#[derive(Clone)]
pub(crate) struct Xxh64Hasher(XxHash64);

impl Xxh64Hasher {
    pub(crate) fn new() -> Self {
        Xxh64Hasher(XxHash64::with_seed(0))
    }

    pub(crate) fn update(&mut self, input: &[u8]) {
        core::hash::Hasher::write(&mut self.0, input);
    }

    pub(crate) fn finalize(&self) -> [u8; 8] {
        core::hash::Hasher::finish(&self.0).to_be_bytes()
    }
}

/// Streaming XXH32.
#[derive(Clone)]
pub(crate) struct Xxh32Hasher(XxHash32);

impl Xxh32Hasher {
    pub(crate) fn new() -> Self {
        Xxh32Hasher(XxHash32::with_seed(0))
    }

    pub(crate) fn update(&mut self, input: &[u8]) {
        core::hash::Hasher::write(&mut self.0, input);
    }

    pub(crate) fn finalize(&self) -> [u8; 4] {
        self.0.finish_32().to_be_bytes()
    }
}
