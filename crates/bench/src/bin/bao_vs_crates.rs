//! Verified streaming (`chunkhash::blake3::bao`) against chunkhash's own
//! `hash` and the crates: outboard creation at 16 KiB groups against
//! `bao-tree` 0.17, at 1 KiB groups (`bao`'s format) against the `bao` 0.13
//! crate's `outboard` and `encode`, and verification of a whole combined
//! encoding against `hash` and the crates' decoders. One thread, one
//! process, interleaved rounds, medians of the thread's CPU time (the
//! machine is shared); before timing, every row's output is checked equal to
//! its anchor's.
//!
//! ```sh
//! cargo run --release -p chunkhash-bench --bin bao_vs_crates -- --sizes 16M,256M --rounds 7
//! ```
//!
//! Options: `--sizes` (default 16 MiB), `--rounds N` (default 7),
//! `--slice-ms MS` (default 300), `--only NAME` (configurations whose name
//! contains it: "outboard 16", "verify", ...).

use bao_tree::io::outboard::{PostOrderMemOutboard, PreOrderMemOutboard};
use bao_tree::BlockSize;
use chunkhash::blake3::{self, bao};
use chunkhash_bench::{format_size, median_ratio, random_input, run_interleaved_on, Case, Clock, Options, Timing};
use std::hint::black_box;
use std::process::ExitCode;
use std::time::Duration;

/// A row: its label and what it computes (compared with the other rows'
/// before timing).
type Row<'a> = (&'static str, Box<dyn Fn() -> Vec<u8> + 'a>);

/// The decoder over an encoding in memory, many groups per step: every
/// group verified, the bytes counted (what a reader hands out, without
/// copying them).
fn verify(tree: bao::Tree, root: blake3::Hash, encoding: &[u8]) -> Vec<u8> {
    let mut decoder = bao::Decoder::new(tree, root, &bao::WHOLE);
    let mut verified = 0u64;
    let mut rest = encoding;
    while decoder.want() != bao::Want::Done {
        let used =
            decoder.feed_stream(rest, |group| verified += group.bytes.len() as u64).expect("the encoding verifies");
        rest = &rest[used..];
    }
    verified.to_le_bytes().to_vec()
}

/// The `std::io::Read` wrapper, copied out to a sink.
fn verify_reader(tree: bao::Tree, root: blake3::Hash, encoding: &[u8]) -> Vec<u8> {
    let mut reader = bao::SliceReader::new(encoding, tree, root, &bao::WHOLE);
    std::io::copy(&mut reader, &mut std::io::sink()).expect("the encoding verifies").to_le_bytes().to_vec()
}

/// The configurations: a name, its rows, the index of the crate row (the
/// `x crate` column) and of `hash` (the `x hash` column).
fn configurations(input: &[u8]) -> Vec<(&'static str, Vec<Row<'_>>, usize, usize)> {
    let tree16 = bao::Tree::new(bao::Mode::hash(), 4).expect("16 KiB groups");
    let tree1 = bao::Tree::bao();
    let hash: Row = ("chunkhash hash", Box::new(move || blake3::hash(input).as_bytes().to_vec()));
    let (root16, encoding16) = tree16.encode(input);
    let encoding16 = std::rc::Rc::new(encoding16);
    let reader_encoding16 = encoding16.clone();
    let (root1, encoding1) = tree1.encode(input);
    let bao_root = ::bao::Hash::from(*root1.as_bytes());
    let theirs1 = encoding1.clone();
    vec![
        (
            "outboard 16 KiB groups",
            vec![
                ("chunkhash bao pre-order", Box::new(move || tree16.outboard(input, bao::Order::Pre).nodes().to_vec())),
                (
                    "chunkhash bao post-order",
                    Box::new(move || tree16.outboard(input, bao::Order::Post).nodes().to_vec()),
                ),
                (
                    "bao-tree 0.17 pre-order",
                    Box::new(move || PreOrderMemOutboard::create(input, BlockSize::from_chunk_log(4)).data),
                ),
                (
                    "bao-tree 0.17 post-order",
                    Box::new(move || PostOrderMemOutboard::create(input, BlockSize::from_chunk_log(4)).data),
                ),
                hash,
            ],
            2,
            4,
        ),
        (
            "outboard 1 KiB groups (bao)",
            vec![
                ("chunkhash bao outboard", Box::new(move || tree1.outboard(input, bao::Order::Pre).into_bao_bytes())),
                ("bao 0.13 outboard", Box::new(move || ::bao::encode::outboard(input).0)),
                ("chunkhash hash", Box::new(move || blake3::hash(input).as_bytes().to_vec())),
            ],
            1,
            2,
        ),
        (
            "encode 1 KiB groups (bao)",
            vec![
                ("chunkhash bao encode", Box::new(move || tree1.encode(input).1)),
                ("bao 0.13 encode", Box::new(move || ::bao::encode::encode(input).0)),
                ("chunkhash hash", Box::new(move || blake3::hash(input).as_bytes().to_vec())),
            ],
            1,
            2,
        ),
        (
            "verify whole encoding 16 KiB groups",
            vec![
                ("chunkhash bao Decoder", Box::new(move || verify(tree16, root16, &encoding16))),
                ("chunkhash bao SliceReader", Box::new(move || verify_reader(tree16, root16, &reader_encoding16))),
                ("chunkhash hash", Box::new(move || blake3::hash(input).as_bytes().to_vec())),
            ],
            2,
            2,
        ),
        (
            "verify whole encoding 1 KiB groups (bao)",
            vec![
                ("chunkhash bao Decoder", Box::new(move || verify(tree1, root1, &encoding1))),
                (
                    "bao 0.13 decode",
                    Box::new(move || {
                        (::bao::decode::decode(&theirs1, &bao_root).expect("verifies").len() as u64)
                            .to_le_bytes()
                            .to_vec()
                    }),
                ),
                ("chunkhash hash", Box::new(move || blake3::hash(input).as_bytes().to_vec())),
            ],
            1,
            2,
        ),
    ]
}

/// Rows that must give the same bytes: the outboards of one order and
/// group size, the encodings, the verified lengths.
fn check(name: &str, rows: &[Row<'_>], input_len: u64) -> Result<(), String> {
    let outputs: Vec<Vec<u8>> = rows.iter().map(|(_, run)| run()).collect();
    let same = |a: usize, b: usize| outputs[a] == outputs[b];
    let ok = match name {
        "outboard 16 KiB groups" => same(0, 2) && same(1, 3),
        "verify whole encoding 16 KiB groups" => outputs[0] == input_len.to_le_bytes() && same(0, 1),
        // Outboards, encodings, verified lengths: the crate's row is 1.
        _ => same(0, 1),
    };
    if ok {
        Ok(())
    } else {
        Err(format!("{name}: a row's output differs from its anchor's"))
    }
}

fn ratio(anchor: &Timing, timing: &Timing) -> f64 {
    median_ratio(anchor, timing)
}

fn main() -> ExitCode {
    let defaults = Options { rounds: 7, slice: Duration::from_millis(300), sizes: vec![16 << 20], only: String::new() };
    let Options { rounds, slice, sizes, only } =
        match Options::parse(std::env::args().skip(1), defaults, &["--rounds", "--slice-ms", "--sizes", "--only"]) {
            Ok(options) => options,
            Err(message) => {
                eprintln!("bao_vs_crates: {message}");
                return ExitCode::from(2);
            }
        };
    println!(
        "# verified streaming: {rounds} rounds x {} ms per case, medians of thread CPU time, one thread",
        slice.as_millis()
    );
    println!("# backend {}; outputs checked equal to the crates' first", blake3::Backend::detect());
    println!();
    println!("| configuration | size | implementation | GB/s | x hash | x crate | spread |");
    println!("| --- | --- | --- | ---: | ---: | ---: | ---: |");
    for &size in &sizes {
        let input = random_input(size, 0xBA0);
        let configurations: Vec<_> =
            configurations(&input).into_iter().filter(|(name, ..)| name.to_ascii_lowercase().contains(&only)).collect();
        for (name, rows, krate, hash) in &configurations {
            if let Err(message) = check(name, rows, size as u64) {
                eprintln!("bao_vs_crates: {message}");
                return ExitCode::FAILURE;
            }
            let mut cases: Vec<Case> = rows
                .iter()
                .map(|(label, run)| {
                    Case::new(*label, size, move || {
                        black_box(run());
                    })
                })
                .collect();
            let timings = run_interleaved_on(Clock::ThreadCpu, &mut cases, rounds, slice);
            for timing in &timings {
                println!(
                    "| {name} | {} | {} | {:.2} | {:.3} | {:.2} | {:.0}% |",
                    format_size(size),
                    timing.name,
                    timing.mb_per_s() / 1000.0,
                    ratio(&timings[*hash], timing),
                    ratio(&timings[*krate], timing),
                    timing.spread() * 100.0,
                );
            }
        }
    }
    ExitCode::SUCCESS
}
