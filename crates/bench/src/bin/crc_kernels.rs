//! chunkhash's CRC kernels against the crates: each kernel forced by name,
//! the registry (`chunkhash::digest`, the algorithm hidden from the
//! optimiser), the direct call (`chunkhash::crc::*`), `crc-fast` 1.10 (all
//! three CRCs, VPCLMULQDQ folding) and, for CRC-32C, `crc32c` 0.6 (what the
//! registry ran before these kernels). Interleaved rounds, medians, one
//! process; before timing every row is checked equal to the others.
//!
//! ```sh
//! cargo run --release -p chunkhash-bench --bin crc_kernels -- --rounds 21
//! ```
//!
//! Options: `--rounds N` (default 15), `--slice-ms MS` (default 20),
//! `--sizes 64,4K,64K,1M`, `--only NAME` (the CRCs whose name contains it).
//! On a loaded machine the medians swing with the neighbours' work; the
//! fastest round of each row ("best") is the least disturbed, so the table
//! gives that ratio too. The "x crc-fast" column is the paired median of
//! crc-fast's time over the row's: above 1.00 the row is faster.

use chunkhash::crc::{CrcBackend, CrcKernels};
use chunkhash::{digest, Algorithm};
use chunkhash_bench::{core_ghz, format_size, median_ratio, random_input, run_interleaved, Case, Options};
use std::hint::black_box;
use std::process::ExitCode;
use std::time::Duration;

/// One implementation: its CRC of the input, as an integer.
type Crc = Box<dyn Fn(&[u8]) -> u64>;
type Row = (String, Crc);

fn rows(algorithm: Algorithm) -> Vec<Row> {
    let mut rows: Vec<Row> = Vec::new();
    let integer = |d: chunkhash::Digest| d.as_bytes().iter().fold(0u64, |v, &b| v << 8 | u64::from(b));
    rows.push(("chunkhash::digest".into(), Box::new(move |d| integer(digest(black_box(algorithm), d)))));
    type Function = fn(&[u8]) -> u64;
    let (direct, crc_fast): (Function, Function) = match algorithm {
        Algorithm::Crc32c => (|d| chunkhash::crc::crc32c(d).into(), |d| crc_fast::crc32_iscsi(d).into()),
        Algorithm::Crc32 => (|d| chunkhash::crc::crc32(d).into(), |d| crc_fast::crc32_iso_hdlc(d).into()),
        _ => (chunkhash::crc::crc64_nvme, crc_fast::crc64_nvme),
    };
    rows.push((format!("chunkhash::crc ({})", CrcBackend::detect()), Box::new(direct)));
    for &backend in CrcBackend::all() {
        let Ok(kernels) = CrcKernels::new(backend) else { continue };
        let run: Crc = match algorithm {
            Algorithm::Crc32c => Box::new(move |d| kernels.crc32c(d).into()),
            Algorithm::Crc32 => Box::new(move |d| kernels.crc32(d).into()),
            _ => Box::new(move |d| kernels.crc64_nvme(d)),
        };
        rows.push((format!("kernel {backend}"), run));
    }
    rows.push(("crc-fast 1.10".into(), Box::new(crc_fast)));
    if algorithm == Algorithm::Crc32c {
        rows.push(("crc32c 0.6 (registry before)".into(), Box::new(|d| crc32c::crc32c(d).into())));
    }
    rows
}

fn main() -> ExitCode {
    let defaults = Options {
        rounds: 15,
        slice: Duration::from_millis(20),
        sizes: vec![64, 4096, 65536, 1 << 20],
        only: String::new(),
    };
    let Options { rounds, slice, sizes, only } =
        match Options::parse(std::env::args().skip(1), defaults, &["--rounds", "--slice-ms", "--sizes", "--only"]) {
            Ok(options) => options,
            Err(message) => {
                eprintln!("crc_kernels: {message}");
                return ExitCode::from(2);
            }
        };
    let algorithms: Vec<Algorithm> = [Algorithm::Crc32c, Algorithm::Crc32, Algorithm::Crc64Nvme]
        .into_iter()
        .filter(|a| a.name().to_ascii_lowercase().contains(&only))
        .collect();
    for &algorithm in &algorithms {
        let rows = rows(algorithm);
        for len in (0..=300).chain([1023, 4096, 4097, 65536, 1 << 20]) {
            let input = random_input(len, 0xC0FFEE + len as u64);
            let reference = (rows[0].1)(&input);
            if let Some((label, _)) = rows.iter().find(|(_, run)| run(&input) != reference) {
                eprintln!("crc_kernels: {algorithm}: {label} disagrees with the registry at length {len}");
                return ExitCode::FAILURE;
            }
        }
    }
    println!(
        "# CRC kernels: {rounds} rounds x {} ms per case, medians; core clock {:.2} GHz; CRC backend detected: {}",
        slice.as_millis(),
        core_ghz(),
        CrcBackend::detect()
    );
    println!("# all rows cross-checked equal on 306 input lengths before timing");
    println!();
    println!("| algorithm | size | implementation | GB/s | ns | x crc-fast (paired median) | spread | best ns | x crc-fast (best) |");
    println!("| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |");
    for &algorithm in &algorithms {
        let rows = rows(algorithm);
        for &size in &sizes {
            let input = random_input(size, 42);
            let mut cases: Vec<Case> = rows
                .iter()
                .map(|(label, run)| {
                    let input = &input;
                    Case::new(label.clone(), size, move || {
                        black_box(run(black_box(input)));
                    })
                })
                .collect();
            let timings = run_interleaved(&mut cases, rounds, slice);
            let crc_fast = timings.iter().find(|t| t.name.starts_with("crc-fast")).expect("a crc-fast row");
            let best = |t: &chunkhash_bench::Timing| t.rounds_ns.iter().copied().fold(f64::INFINITY, f64::min);
            for timing in &timings {
                println!(
                    "| {algorithm} | {} | {} | {:.1} | {:.1} | {:.2} | {:.0}% | {:.1} | {:.2} |",
                    format_size(size),
                    timing.name,
                    timing.mb_per_s() / 1000.0,
                    timing.median_ns(),
                    median_ratio(crc_fast, timing),
                    timing.spread() * 100.0,
                    best(timing),
                    best(crc_fast) / best(timing)
                );
            }
        }
    }
    ExitCode::SUCCESS
}
