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

use crate::wrapper::{aarch64_has, x86_has, Wrapper};

/// CRC-32C: the running CRC is the whole streaming state.
#[derive(Clone)]
pub(crate) struct Crc32c(u32);

impl Wrapper<4> for Crc32c {
    fn hash(input: &[u8]) -> [u8; 4] {
        ::crc32c::crc32c(input).to_be_bytes()
    }

    fn new() -> Self {
        Crc32c(0)
    }

    fn update(&mut self, input: &[u8]) {
        self.0 = ::crc32c::crc32c_append(self.0, input);
    }

    fn finalize(&self) -> [u8; 4] {
        self.0.to_be_bytes()
    }

    /// crc32c 0.6 (`crc32c_append`): the SSE4.2 `crc32` instruction on
    /// x86-64, the `crc` extension on aarch64, each detected at run time;
    /// otherwise its eight tables.
    fn implementation() -> &'static str {
        match (cfg!(target_arch = "x86_64") && x86_has!("sse4.2"), aarch64_has!("crc")) {
            (true, _) => "crc32c sse4.2",
            (false, true) => "crc32c crc",
            (false, false) => "crc32c table",
        }
    }
}
