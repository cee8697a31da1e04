//! CRC-32C (Castagnoli), adapted from the `crc32c` crate. The 32-bit value
//! is stored big-endian, the byte order in which the usual CRC32C references
//! (and xxhsum-style tools) print it as hex.
//!
//! Why `crc32c` 0.6 over `crc-fast` 1.10 (`checksum_candidates`,
//! BENCHMARKS.md "Checksum crates"): crc-fast is faster, 2.1-2.2x from 4 KiB
//! on (1 MiB: 46 vs 22 GB/s) with its VPCLMULQDQ/AVX-512 folding, and 1.35x
//! at 64 bytes; but a clean release build of crc-fast alone takes 4.4 s of
//! CPU (70,000 lines of Rust), more than the whole official `blake3` crate
//! (2.7-3.3 s), against 0.71 s for crc32c. The registry is on by default, so
//! that cost would land on every user of chunkhash; 22 GB/s (SSE4.2 `crc32`
//! instructions, three streams interleaved, picked at run time) already
//! outruns storage devices. Both crates dispatch at run time, so
//! `-C target-cpu=native` changes neither (26.8 vs 56.5 GB/s at 1 MiB).
//! crc32c needs `std` (it detects SSE4.2 with `is_x86_feature_detected!`),
//! so the `crc32c` feature implies `std`. Its build script (with
//! `rustc_version` and `semver`) is most of its build time.

pub(crate) fn crc32c(input: &[u8]) -> [u8; 4] {
    ::crc32c::crc32c(input).to_be_bytes()
}

/// Streaming CRC-32C: the running CRC is the whole state.
#[derive(Clone)]
pub(crate) struct Crc32cHasher(u32);

impl Crc32cHasher {
    pub(crate) fn new() -> Self {
        Crc32cHasher(0)
    }

    pub(crate) fn update(&mut self, input: &[u8]) {
        self.0 = ::crc32c::crc32c_append(self.0, input);
    }

    pub(crate) fn finalize(&self) -> [u8; 4] {
        self.0.to_be_bytes()
    }
}
