//! Measures the candidate crates for each checksum of chunkhash's registry
//! at 64 B, 4 KiB and 1 MiB, so each choice rests on figures from this
//! machine.
//!
//! The first row of each algorithm is chunkhash's own registry
//! (`chunkhash::digest`, over the crate chosen, with the algorithm hidden
//! from the optimiser as when it comes from a config file), so the table
//! also shows what the wrapper costs. Within one algorithm and size, the rows run interleaved
//! in the same rounds (`run_interleaved`), and each reports the median over
//! rounds and the median paired ratio against the first row. Before timing, every
//! candidate's output is compared with the others' on random inputs of many
//! lengths, so a wrong implementation is never timed.
//!
//! ```sh
//! cargo run --release -p chunkhash-bench --bin checksum_candidates
//! # Crates whose fast path is chosen at compile time, built for this CPU:
//! RUSTFLAGS="-C target-cpu=native" CARGO_TARGET_DIR=target/native \
//!     cargo run --release -p chunkhash-bench --bin checksum_candidates
//! ```
//!
//! Options: `--rounds N` (default 15), `--slice-ms MS` per case and round
//! (default 20), `--only NAME` to run the algorithms whose name contains NAME.

use chunkhash::Algorithm;
use chunkhash_bench::{core_ghz, format_size, median_ratio, random_input, run_interleaved, Case, Options};
use std::hint::black_box;
use std::process::ExitCode;
use std::time::Duration;

/// One implementation of an algorithm. `run` is what is timed: one call,
/// its natural result (an integer, an array, a `Digest`) kept alive with
/// `black_box`, so no row pays for a conversion the others skip. `bytes`
/// gives the same result as bytes (integers big-endian, as xxhsum prints)
/// for the cross-check only.
struct Candidate {
    label: &'static str,
    run: fn(&[u8]),
    bytes: fn(&[u8]) -> Vec<u8>,
}

struct Family {
    algorithm: &'static str,
    candidates: Vec<Candidate>,
}

/// `candidate!(label, |input| call, |result| bytes of the result)`.
macro_rules! candidate {
    ($label:expr, |$input:ident| $call:expr, |$result:ident| $bytes:expr) => {
        Candidate {
            label: $label,
            run: |$input| {
                black_box($call);
            },
            bytes: |$input| {
                let $result = $call;
                $bytes.to_vec()
            },
        }
    };
}

/// The first row of every family: chunkhash's registry, with the algorithm
/// hidden from the optimiser as when it comes from a config file.
macro_rules! registry {
    ($algorithm:ident) => {
        candidate!("chunkhash::digest", |d| chunkhash::digest(black_box(Algorithm::$algorithm), d), |v| v.as_bytes())
    };
}

fn families() -> Vec<Family> {
    use sha2::Digest as _;
    use sha2_010::Digest as _;
    vec![
        Family {
            algorithm: "XXH3-64",
            candidates: vec![
                registry!(Xxh3_64),
                candidate!("xxhash-rust 0.8", |d| xxhash_rust::xxh3::xxh3_64(d), |v| v.to_be_bytes()),
                candidate!("twox-hash 2.1", |d| twox_hash::XxHash3_64::oneshot(d), |v| v.to_be_bytes()),
            ],
        },
        Family {
            algorithm: "XXH3-128",
            candidates: vec![
                registry!(Xxh3_128),
                candidate!("xxhash-rust 0.8", |d| xxhash_rust::xxh3::xxh3_128(d), |v| v.to_be_bytes()),
                candidate!("twox-hash 2.1", |d| twox_hash::XxHash3_128::oneshot(d), |v| v.to_be_bytes()),
            ],
        },
        Family {
            algorithm: "XXH64",
            candidates: vec![
                registry!(Xxh64),
                candidate!("xxhash-rust 0.8", |d| xxhash_rust::xxh64::xxh64(d, 0), |v| v.to_be_bytes()),
                candidate!("twox-hash 2.1", |d| twox_hash::XxHash64::oneshot(0, d), |v| v.to_be_bytes()),
            ],
        },
        Family {
            algorithm: "XXH32",
            candidates: vec![
                registry!(Xxh32),
                candidate!("xxhash-rust 0.8", |d| xxhash_rust::xxh32::xxh32(d, 0), |v| v.to_be_bytes()),
                candidate!("twox-hash 2.1", |d| twox_hash::XxHash32::oneshot(0, d), |v| v.to_be_bytes()),
            ],
        },
        Family {
            algorithm: "CRC32C",
            candidates: vec![
                registry!(Crc32c),
                candidate!("crc32c 0.6", |d| crc32c::crc32c(d), |v| v.to_be_bytes()),
                candidate!("crc-fast 1.10", |d| crc_fast::crc32_iscsi(d), |v| v.to_be_bytes()),
            ],
        },
        Family {
            algorithm: "BLAKE2b-512",
            candidates: vec![
                registry!(Blake2b512),
                candidate!("blake2 0.11", |d| blake2::Blake2b512::digest(d), |v| v),
                candidate!("blake2b_simd 1.0", |d| blake2b_simd::blake2b(d), |v| v.as_bytes()),
            ],
        },
        Family {
            algorithm: "BLAKE2b-256",
            candidates: vec![
                registry!(Blake2b256),
                candidate!("blake2 0.11", |d| blake2::Blake2b256::digest(d), |v| v),
                candidate!("blake2b_simd 1.0", |d| blake2b_simd::Params::new().hash_length(32).hash(d), |v| v
                    .as_bytes()),
            ],
        },
        Family {
            algorithm: "SHA-256",
            candidates: vec![
                registry!(Sha256),
                candidate!("sha2 0.11", |d| sha2::Sha256::digest(d), |v| v),
                candidate!("sha2 0.10", |d| sha2_010::Sha256::digest(d), |v| v),
                candidate!("hmac-sha256 1.1", |d| hmac_sha256::Hash::hash(d), |v| v),
            ],
        },
        Family {
            algorithm: "SHA-512",
            candidates: vec![
                registry!(Sha512),
                candidate!("sha2 0.11", |d| sha2::Sha512::digest(d), |v| v),
                candidate!("sha2 0.10", |d| sha2_010::Sha512::digest(d), |v| v),
                candidate!("hmac-sha512 1.1", |d| hmac_sha512::Hash::hash(d), |v| v),
            ],
        },
        Family {
            // Not a choice (chunkhash's own BLAKE3): for scale beside the others.
            algorithm: "BLAKE3",
            candidates: vec![registry!(Blake3), candidate!("blake3 1.8", |d| blake3::hash(d), |v| v.as_bytes())],
        },
    ]
}

/// Every candidate of a family must agree on every input, or timing it is pointless.
fn cross_check(family: &Family) -> Result<(), String> {
    let mut lengths: Vec<usize> = (0..=300).collect();
    lengths.extend([1023, 1024, 1025, 4096, 65536, 100_000, 1 << 20]);
    for (i, &len) in lengths.iter().enumerate() {
        let input = random_input(len, 0xC0FFEE + i as u64);
        let reference = (family.candidates[0].bytes)(&input);
        for candidate in &family.candidates[1..] {
            if (candidate.bytes)(&input) != reference {
                return Err(format!(
                    "{}: {} disagrees with {} at length {len}",
                    family.algorithm, candidate.label, family.candidates[0].label
                ));
            }
        }
    }
    Ok(())
}

fn main() -> ExitCode {
    let defaults =
        Options { rounds: 15, slice: Duration::from_millis(20), sizes: vec![64, 4096, 1 << 20], only: String::new() };
    let Options { rounds, slice, only, .. } =
        match Options::parse(std::env::args().skip(1), defaults, &["--rounds", "--slice-ms", "--only"]) {
            Ok(options) => options,
            Err(message) => {
                eprintln!("checksum_candidates: {message}");
                return ExitCode::from(2);
            }
        };
    let families: Vec<Family> =
        families().into_iter().filter(|f| f.algorithm.to_ascii_lowercase().contains(only.as_str())).collect();
    for family in &families {
        if let Err(message) = cross_check(family) {
            eprintln!("checksum_candidates: {message}");
            return ExitCode::FAILURE;
        }
    }
    let ghz = core_ghz();
    let compiled: Vec<&str> = [
        ("sse4.2", cfg!(target_feature = "sse4.2")),
        ("avx2", cfg!(target_feature = "avx2")),
        ("avx512f", cfg!(target_feature = "avx512f")),
        ("sha", cfg!(target_feature = "sha")),
        ("vpclmulqdq", cfg!(target_feature = "vpclmulqdq")),
    ]
    .into_iter()
    .filter_map(|(name, on)| on.then_some(name))
    .collect();
    println!(
        "# checksum candidates: {rounds} rounds x {} ms per case, medians; core clock {ghz:.2} GHz",
        slice.as_millis()
    );
    println!("# compiled-in target features beyond the baseline: {compiled:?}");
    println!("# all candidates cross-checked equal on 308 input lengths before timing");
    println!();
    println!("| algorithm | size | crate | MB/s | cycles/byte | time vs first (paired median) | spread |");
    println!("| --- | --- | --- | ---: | ---: | ---: | ---: |");
    for family in &families {
        for size in [64usize, 4096, 1 << 20] {
            let input = random_input(size, 42);
            let mut cases: Vec<Case> = family
                .candidates
                .iter()
                .map(|candidate| {
                    let (input, run) = (&input, candidate.run);
                    Case::new(candidate.label, size, move || run(black_box(input)))
                })
                .collect();
            let timings = run_interleaved(&mut cases, rounds, slice);
            for timing in &timings {
                println!(
                    "| {} | {} | {} | {:.0} | {:.3} | {:.2} | {:.0}% |",
                    family.algorithm,
                    format_size(size),
                    timing.name,
                    timing.mb_per_s(),
                    timing.cycles_per_byte(ghz),
                    median_ratio(timing, &timings[0]),
                    timing.spread() * 100.0
                );
            }
        }
    }
    ExitCode::SUCCESS
}
