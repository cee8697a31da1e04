//! chunkhash's content-defined chunking against the crates: FastCDC 2020
//! (`chunkhash::cdc::Cdc::fastcdc`) against the `fastcdc` crate's v2020
//! chunker at 16/64/256 KiB and 2/8/64 KiB (normalization level 1, the
//! store's), and Xet's chunker (`Cdc::xet`) against the same rules built on
//! the `gearhash` crate's SIMD scan, on random and text-like data. One
//! process, interleaved rounds, medians of the thread's CPU time (the
//! machine is shared); before timing, every row's cut points are checked
//! equal to its anchor's.
//!
//! ```sh
//! cargo run --release -p chunkhash-bench --bin cdc_vs_fastcdc -- --sizes 64M --rounds 11
//! ```
//!
//! Options: `--sizes` (input size, default 64 MiB), `--rounds N` (default
//! 11), `--slice-ms MS` (default 200), `--only NAME` (rows of the
//! configurations whose name contains it: "fastcdc 16", "xet", ...).

use chunkhash::cdc::{Cdc, Normalization};
use chunkhash_bench::{format_size, median_ratio, random_input, run_interleaved_on, Case, Clock, Options, SeededRng};
use fastcdc::v2020;
use std::hint::black_box;
use std::process::ExitCode;
use std::time::Duration;

/// One chunker: the sum of its chunk lengths times their count, and the
/// cut points when asked for them.
type Chunker = Box<dyn Fn(&[u8]) -> Vec<usize>>;

/// Words with spaces and newlines: text's byte histogram and low entropy.
fn text_input(len: usize, seed: u64) -> Vec<u8> {
    const WORDS: [&str; 24] = [
        "the",
        "chunk",
        "of",
        "data",
        "store",
        "and",
        "hash",
        "is",
        "a",
        "boundary",
        "content",
        "defined",
        "to",
        "rolling",
        "gear",
        "in",
        "deduplication",
        "fast",
        "with",
        "for",
        "every",
        "byte",
        "window",
        "table",
    ];
    let mut rng = SeededRng::new(seed);
    let mut out = Vec::with_capacity(len + 16);
    while out.len() < len {
        let r = rng.next_u64();
        out.extend_from_slice(WORDS[(r % WORDS.len() as u64) as usize].as_bytes());
        out.push(if r >> 60 == 0 { b'\n' } else { b' ' });
    }
    out.truncate(len);
    out
}

/// Xet's rules on the `gearhash` crate's scan (`vectors::cdc`).
fn gearhash_xet(data: &[u8]) -> Vec<usize> {
    let mut end = 0;
    vectors::cdc::xet_chunk_lengths_by_gearhash(data)
        .into_iter()
        .map(|length| {
            end += length;
            end
        })
        .collect()
}

fn ends_of(chunks: impl Iterator<Item = (usize, usize)>) -> Vec<usize> {
    chunks.map(|(offset, length)| offset + length).collect()
}

/// The configurations: a name and its rows, the anchor last.
fn configurations() -> Vec<(String, Vec<(String, Chunker)>)> {
    let mut out = Vec::new();
    for (min, avg, max) in [(16 << 10, 64 << 10, 256 << 10), (2 << 10, 8 << 10, 64 << 10)] {
        let cdc = Cdc::fastcdc(min, avg, max, Normalization::Level1).expect("valid sizes");
        let ours: Chunker = Box::new(move |d| ends_of(cdc.chunks(d).map(|c| (c.offset as usize, c.length))));
        let theirs: Chunker = Box::new(move |d| {
            ends_of(
                v2020::FastCDC::with_level(d, min, avg, max, v2020::Normalization::Level1)
                    .map(|c| (c.offset, c.length)),
            )
        });
        let name = format!("fastcdc {}/{}/{}", min >> 10, avg >> 10, max >> 10);
        out.push((name, vec![("chunkhash::cdc".to_string(), ours), ("fastcdc 5 v2020".to_string(), theirs)]));
    }
    let xet = Cdc::xet();
    let ours: Chunker = Box::new(move |d| ends_of(xet.chunks(d).map(|c| (c.offset as usize, c.length))));
    out.push((
        "xet 8/64/128".to_string(),
        vec![("chunkhash::cdc".to_string(), ours), ("gearhash 0.1 (xet rules)".to_string(), Box::new(gearhash_xet))],
    ));
    out
}

fn main() -> ExitCode {
    let defaults =
        Options { rounds: 11, slice: Duration::from_millis(200), sizes: vec![64 << 20], only: String::new() };
    let Options { rounds, slice, sizes, only } =
        match Options::parse(std::env::args().skip(1), defaults, &["--rounds", "--slice-ms", "--sizes", "--only"]) {
            Ok(options) => options,
            Err(message) => {
                eprintln!("cdc_vs_fastcdc: {message}");
                return ExitCode::from(2);
            }
        };
    let configurations: Vec<_> = configurations().into_iter().filter(|(name, _)| name.contains(&only)).collect();
    println!(
        "# content-defined chunking: {rounds} rounds x {} ms per case, medians of thread CPU time",
        slice.as_millis()
    );
    println!("# every row's cut points checked equal to its anchor's (the last row of its configuration) first");
    println!();
    println!("| chunker | data | size | implementation | chunks | GB/s | x anchor (median ratio) | spread |");
    println!("| --- | --- | --- | --- | ---: | ---: | ---: | ---: |");
    for &size in &sizes {
        let inputs = [("random", random_input(size, 0xCDC)), ("text", text_input(size, 0xCDC))];
        for (data_name, input) in &inputs {
            for (name, rows) in &configurations {
                let anchor = (rows.last().expect("an anchor").1)(input);
                for (label, run) in rows {
                    if run(input) != anchor {
                        eprintln!("cdc_vs_fastcdc: {name}, {data_name}: {label} cuts elsewhere than the anchor");
                        return ExitCode::FAILURE;
                    }
                }
                let mut cases: Vec<Case> = rows
                    .iter()
                    .map(|(label, run)| {
                        Case::new(label.clone(), size, move || {
                            black_box(run(black_box(input)));
                        })
                    })
                    .collect();
                let timings = run_interleaved_on(Clock::ThreadCpu, &mut cases, rounds, slice);
                let anchor_timing = timings.last().expect("an anchor timing");
                for timing in &timings {
                    println!(
                        "| {name} | {data_name} | {} | {} | {} | {:.2} | {:.2} | {:.0}% |",
                        format_size(size),
                        timing.name,
                        anchor.len(),
                        timing.mb_per_s() / 1000.0,
                        median_ratio(anchor_timing, timing),
                        timing.spread() * 100.0,
                    );
                }
            }
        }
    }
    ExitCode::SUCCESS
}
