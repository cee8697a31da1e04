//! chunkhash's content-defined chunking against the crates: FastCDC 2020
//! (`chunkhash::cdc::Cdc::fastcdc`) against the `fastcdc` crate's v2020
//! chunker at 16/64/256 KiB and 2/8/64 KiB (normalization level 1, the
//! store's), and Xet's chunker (`Cdc::xet`) against the same rules built on
//! the `gearhash` crate's SIMD scan, on random and text-like data. Then
//! chunks and their addresses: `Cdc::chunk_and_hash` (each group of chunks
//! hashed by the batch hasher while in cache) against the `fastcdc` crate
//! then chunkhash's BLAKE3 one after the other (FastCDC 16/64/256 KiB,
//! plain BLAKE3), and against the `gearhash` scan then chunkhash's keyed
//! BLAKE3 (Xet's chunk hashes); chunkhash's chunker and BLAKE3 in two
//! passes between them. One process, interleaved rounds, medians of the
//! thread's CPU time (the machine is shared); before timing, every row's
//! cut points (and addresses) are checked equal to its anchor's.
//!
//! ```sh
//! cargo run --release -p chunkhash-bench --bin cdc_vs_fastcdc -- --sizes 64M --rounds 11
//! ```
//!
//! Options: `--sizes` (input size, default 64 MiB), `--rounds N` (default
//! 11), `--slice-ms MS` (default 200), `--only NAME` (rows of the
//! configurations whose name contains it: "fastcdc 16", "xet", ...).

use chunkhash::blake3::{self, Batch};
use chunkhash::cdc::{Cdc, CdcKernel, Normalization};
use chunkhash::xet;
use chunkhash_bench::{format_size, median_ratio, random_input, run_interleaved_on, Case, Clock, Options, SeededRng};
use fastcdc::v2020;
use std::hint::black_box;
use std::process::ExitCode;
use std::time::Duration;

/// One row: each chunk's end and its address (zeros in rows that only
/// chunk).
type Chunker = Box<dyn Fn(&[u8]) -> Vec<(usize, [u8; 32])>>;

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

/// Xet's rules on the `gearhash` crate's scan (`vectors::cdc`): the
/// chunks' (offset, length).
fn gearhash_xet(data: &[u8]) -> Vec<(usize, usize)> {
    let mut offset = 0;
    vectors::cdc::xet_chunk_lengths_by_gearhash(data)
        .into_iter()
        .map(|length| {
            offset += length;
            (offset - length, length)
        })
        .collect()
}

fn ends_of(chunks: impl Iterator<Item = (usize, usize)>) -> Vec<(usize, [u8; 32])> {
    chunks.map(|(offset, length)| (offset + length, [0; 32])).collect()
}

/// Chunks found first, all of them, then hashed one after the other.
fn hashed_after(data: &[u8], chunks: Vec<(usize, usize)>, hash: impl Fn(&[u8]) -> [u8; 32]) -> Vec<(usize, [u8; 32])> {
    chunks.into_iter().map(|(offset, length)| (offset + length, hash(&data[offset..][..length]))).collect()
}

/// `Cdc::chunk_and_hash` in one pass.
fn one_pass(cdc: Cdc, batch: Batch, data: &[u8]) -> Vec<(usize, [u8; 32])> {
    let mut out = Vec::new();
    cdc.chunk_and_hash(data, &batch, |chunk, hash: [u8; 32]| out.push((chunk.offset as usize + chunk.length, hash)));
    out
}

/// `cdc` on each Gear-scan kernel this machine runs, the detected one
/// first (the default: `CHUNKHASH_CDC_KERNEL` or the fastest).
fn kernel_rows(cdc: Cdc) -> Vec<(String, Chunker)> {
    let mut kernels = vec![cdc.kernel()];
    kernels.extend(CdcKernel::all().iter().filter(|k| k.is_supported() && **k != cdc.kernel()));
    kernels
        .into_iter()
        .map(|kernel| {
            let cdc = cdc.with_kernel(kernel).expect("a supported kernel");
            let run: Chunker = Box::new(move |d| ends_of(cdc.chunks(d).map(|c| (c.offset as usize, c.length))));
            (format!("chunkhash::cdc ({kernel})"), run)
        })
        .collect()
}

/// The configurations: a name and its rows, the anchor last.
fn configurations() -> Vec<(String, Vec<(String, Chunker)>)> {
    let mut out = Vec::new();
    for (min, avg, max) in [(16 << 10, 64 << 10, 256 << 10), (2 << 10, 8 << 10, 64 << 10)] {
        let cdc = Cdc::fastcdc(min, avg, max, Normalization::Level1).expect("valid sizes");
        let mut rows = kernel_rows(cdc);
        let theirs: Chunker = Box::new(move |d| {
            ends_of(
                v2020::FastCDC::with_level(d, min, avg, max, v2020::Normalization::Level1)
                    .map(|c| (c.offset, c.length)),
            )
        });
        let name = format!("fastcdc {}/{}/{}", min >> 10, avg >> 10, max >> 10);
        rows.push(("fastcdc 5 v2020".to_string(), theirs));
        out.push((name, rows));
    }
    let xet = Cdc::xet();
    let mut rows = kernel_rows(xet);
    rows.push(("gearhash 0.1 (xet rules)".to_string(), Box::new(|d| ends_of(gearhash_xet(d).into_iter()))));
    out.push(("xet 8/64/128".to_string(), rows));

    let cdc = Cdc::fastcdc(16 << 10, 64 << 10, 256 << 10, Normalization::Level1).expect("valid sizes");
    let two_passes: Chunker = Box::new(move |d| {
        let chunks = cdc.chunks(d).map(|c| (c.offset as usize, c.length)).collect();
        hashed_after(d, chunks, |bytes| *blake3::hash(bytes).as_bytes())
    });
    let crate_then_blake3: Chunker = Box::new(|d| {
        let chunks = v2020::FastCDC::with_level(d, 16 << 10, 64 << 10, 256 << 10, v2020::Normalization::Level1)
            .map(|c| (c.offset, c.length))
            .collect();
        hashed_after(d, chunks, |bytes| *blake3::hash(bytes).as_bytes())
    });
    out.push((
        "fastcdc 16/64/256 + blake3".to_string(),
        vec![
            ("chunk_and_hash (one pass)".to_string(), Box::new(move |d| one_pass(cdc, Batch::new(), d))),
            ("chunkhash::cdc, then blake3".to_string(), two_passes),
            ("fastcdc 5 v2020, then blake3".to_string(), crate_then_blake3),
        ],
    ));

    let two_passes: Chunker = Box::new(move |d| {
        let chunks = xet.chunks(d).map(|c| (c.offset as usize, c.length)).collect();
        hashed_after(d, chunks, |bytes| *xet::chunk_hash(bytes).as_bytes())
    });
    let gearhash_then_blake3: Chunker =
        Box::new(|d| hashed_after(d, gearhash_xet(d), |bytes| *xet::chunk_hash(bytes).as_bytes()));
    out.push((
        "xet + keyed blake3".to_string(),
        vec![
            ("chunk_and_hash (one pass)".to_string(), Box::new(move |d| one_pass(xet, xet::chunk_batch(), d))),
            ("chunkhash::cdc, then blake3".to_string(), two_passes),
            ("gearhash 0.1, then blake3".to_string(), gearhash_then_blake3),
        ],
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
