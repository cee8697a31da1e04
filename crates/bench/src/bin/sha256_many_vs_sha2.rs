//! `chunkhash::digest_many(Algorithm::Sha256, ..)` against a loop over the
//! `sha2` crate (which runs SHA-NI where the CPU has it), on batches of
//! 1024 x 64 B, 256 x 1 KiB and 64 x 4 KiB, plus one of mixed lengths
//! (0..4 KiB); and each multi-buffer kernel forced on its own (AVX-512
//! lanes, AVX2 lanes, four SHA-NI streams, portable), to pick a kernel per
//! message size. Every kernel's digests are checked against `sha2` before
//! timing. Interleaved rounds timed in the thread's CPU time, medians; ratios are medians of per-round
//! ratios against the `sha2` loop (above 1: faster than it).
//!
//! ```sh
//! cargo run --release -p chunkhash-bench --bin sha256_many_vs_sha2 -- [--rounds N] [--slice-ms MS] [--only NAME]
//! ```

use chunkhash::{digest, digest_many, sha256_many_on_kernel, Algorithm};
use chunkhash_bench::{core_ghz_on, median_ratio, random_input, run_interleaved_on, Case, Clock, Options};
use sha2::Digest as _;
use std::hint::black_box;
use std::time::Duration;

/// The kernels timed alone (the name `sha256_many_on_kernel` takes).
const KERNELS: [&str; 4] = ["avx512", "avx2", "shani", "portable"];

fn main() {
    let defaults = Options { rounds: 15, slice: Duration::from_millis(40), sizes: vec![64], only: String::new() };
    let options = Options::parse(std::env::args().skip(1), defaults, &["--rounds", "--slice-ms", "--only"])
        .unwrap_or_else(|error| {
            eprintln!("sha256_many_vs_sha2: {error}");
            std::process::exit(2);
        });
    println!(
        "SHA-256 batches; detected kernel: {}; sha2 crate: {}",
        detected_kernel(),
        Algorithm::Sha256.implementation().unwrap_or("?")
    );
    let data = random_input(1 << 20, 34);
    let mut lengths = chunkhash_bench::SeededRng::new(35);
    let mixed: Vec<usize> = (0..256).map(|_| lengths.below(4097) as usize).collect();
    let shapes: Vec<(String, Vec<usize>)> = vec![
        ("1024 x 64 B".into(), vec![64; 1024]),
        ("1024 x 128 B".into(), vec![128; 1024]),
        ("512 x 256 B".into(), vec![256; 512]),
        ("512 x 512 B".into(), vec![512; 512]),
        ("256 x 1 KiB".into(), vec![1024; 256]),
        ("64 x 4 KiB".into(), vec![4096; 64]),
        ("256 x 0..4 KiB".into(), mixed),
    ];
    let ghz = core_ghz_on(Clock::ThreadCpu);
    println!("core clock {ghz:.2} GHz (cycles per byte: the clock over the bytes per ns)");
    println!("{:<16} {:<22} {:>12} {:>10} {:>7} {:>9}", "batch", "case", "median µs", "MB/s", "cpb", "vs sha2");
    for (shape, lens) in &shapes {
        // Messages one after another in the buffer, each at its own offset.
        let mut start = 0;
        let messages: Vec<&[u8]> = lens
            .iter()
            .map(|&len| {
                let message = &data[start..start + len];
                start = (start + len + 64 + 3) % (data.len() - 4096);
                message
            })
            .collect();
        let bytes: usize = lens.iter().sum();
        let expected: Vec<[u8; 32]> = messages.iter().map(|m| sha2::Sha256::digest(m).into()).collect();
        let mut cases = vec![Case::new("sha2 loop", bytes, {
            let (messages, mut out) = (messages.clone(), vec![[0u8; 32]; messages.len()]);
            move || {
                for (message, out) in messages.iter().zip(out.iter_mut()) {
                    *out = sha2::Sha256::digest(black_box(message)).into();
                }
                black_box(&out);
            }
        })];
        let placeholder = digest(Algorithm::Sha256, b"");
        let mut check = vec![placeholder; messages.len()];
        digest_many(Algorithm::Sha256, &messages, &mut check);
        assert!(check.iter().zip(&expected).all(|(d, e)| d.as_bytes() == e), "digest_many differs from sha2");
        cases.push(Case::new("digest_many", bytes, {
            let (messages, mut out) = (messages.clone(), vec![placeholder; messages.len()]);
            move || {
                digest_many(Algorithm::Sha256, black_box(&messages), &mut out);
                black_box(&out);
            }
        }));
        for kernel in KERNELS {
            let mut out = vec![[0u8; 32]; messages.len()];
            if !sha256_many_on_kernel(kernel, &messages, &mut out) {
                println!("{shape:<16} kernel {kernel:<15} not supported here");
                continue;
            }
            assert_eq!(out, expected, "kernel {kernel} differs from sha2");
            let messages = messages.clone();
            cases.push(Case::new(format!("kernel {kernel}"), bytes, move || {
                sha256_many_on_kernel(kernel, black_box(&messages), &mut out);
                black_box(&out);
            }));
        }
        cases.retain(|case| options.only.is_empty() || case.name.contains(&options.only) || case.name == "sha2 loop");
        // The thread's CPU time: the machine is shared, and time other
        // processes hold the core is left out.
        let timings = run_interleaved_on(Clock::ThreadCpu, &mut cases, options.rounds, options.slice);
        for timing in &timings {
            let ns = timing.median_ns();
            println!(
                "{shape:<16} {:<22} {:>12.1} {:>10.0} {:>7.2} {:>8.2}x",
                timing.name,
                ns / 1e3,
                bytes as f64 / ns * 1e3,
                ns * ghz / bytes as f64,
                median_ratio(&timings[0], timing)
            );
        }
    }
}

/// The kernel `digest_many` uses here (`CHUNKHASH_SHA256_KERNEL` forces it).
fn detected_kernel() -> String {
    match std::env::var("CHUNKHASH_SHA256_KERNEL") {
        Ok(name) if !name.trim().is_empty() => format!("{name} (forced)"),
        _ => "the widest this CPU runs".into(),
    }
}
