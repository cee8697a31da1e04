//! chunkhash's BLAKE3 against the official `blake3` crate with all its
//! kernels (AVX-512 where the CPU has it), on chunkhash's best backend.
//!
//! ```text
//! cargo run --release -p chunkhash-bench --bin blake3_vs_official -- [single] [ragged] [batch] [small] [parallel] [contention] [cold] [--rounds N]
//! cargo run --profile bench-lto -p chunkhash-bench --bin blake3_vs_official -- ...
//! ```
//!
//! With no section named, all but `contention` and `cold` (the diagnostics
//! of BENCHMARKS.md) run. Build this package on its own (`-p`):
//! `chunkhash-bench-no-avx512` turns off the official crate's AVX-512
//! kernels, and cargo would apply that here too if both were built by one
//! command. The first line printed names the kernels each side uses.

fn main() {
    if chunkhash_bench::official::official_kernels().contains("AVX512")
        || !std::arch::is_x86_feature_detected!("avx512f")
    {
        chunkhash_bench::official::main("blake3_vs_official", None);
    } else {
        eprintln!(
            "blake3_vs_official: the official crate was built without its AVX-512 kernels (feature unification \
             with chunkhash-bench-no-avx512?); build with `cargo run --release -p chunkhash-bench --bin blake3_vs_official`"
        );
        std::process::exit(2);
    }
}
