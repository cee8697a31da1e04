//! chunkhash forced to its AVX2 backend against the official `blake3` crate
//! built with its `no_avx512` feature: what both give on an AVX2 machine,
//! measured on an AVX-512 one.
//!
//! ```text
//! cargo run --release -p chunkhash-bench-no-avx512 -- [single] [ragged] [batch] [small] [parallel] [contention] [cold] [--rounds N]
//! cargo run --profile bench-lto -p chunkhash-bench-no-avx512 -- ...
//! ```
//!
//! chunkhash runs on `avx2asm` (its AVX2 assembly kernels) where the CPU has
//! them, else `avx2`; `CHUNKHASH_BACKEND` overrides it (`avx2` is the
//! intrinsics kernel).

use chunkhash::blake3::Backend;

fn main() {
    let kernels = chunkhash_bench::official::official_kernels();
    if kernels.contains("AVX512") {
        eprintln!("blake3_vs_official_avx2: the official crate uses {kernels}: its `no_avx512` feature did not apply");
        std::process::exit(2);
    }
    let backend = if Backend::Avx2Asm.is_supported() { Backend::Avx2Asm } else { Backend::Avx2 };
    chunkhash_bench::official::main("blake3_vs_official_avx2", Some(backend));
}
