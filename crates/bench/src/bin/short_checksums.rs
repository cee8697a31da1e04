//! The scalar checksums on short inputs, by call-site shape, against their
//! anchors (issue 34): XXH64 against xxHash's C library (feature
//! `c-xxhash`, Debian's libxxhash-dev), and CRC32C, CRC-32 and CRC-64/NVME
//! against the `crc-fast` crate. XXH3 has its own table in `xxh3_vs_c`.
//!
//! At 16, 64 and 240 B, each implementation in the shapes real code calls
//! it in: a tight loop (inlined where the compiler can), an out-of-line
//! function called in a loop, a closure called through `&mut dyn FnMut` (a
//! hash table's hasher, a callback), and for chunkhash the registry's
//! `digest` with the algorithm known at compile time. The anchor's `digest`
//! column is its loop. Interleaved rounds in one process, medians, ns per
//! call; every implementation is checked against its anchor first.
//!
//! ```sh
//! make xxhash-c
//! cargo run --release -p chunkhash-bench --features c-xxhash --bin short_checksums -- --rounds 21
//! ```
//!
//! Options: `--rounds N` (21), `--slice-ms MS` (5), `--tries N` (3).
//! `--count ALGORITHM:SIDE:SHAPE:SIZE N` (SIDE `chunkhash` or `anchor`) runs
//! one shape N times and nothing else, for instruction counts:
//!
//! ```sh
//! valgrind --tool=callgrind --toggle-collect='*shape_*' \
//!     target/release/short_checksums --count CRC32C:chunkhash:digest:16 100000
//! ```

use chunkhash::{digest, Algorithm};
use chunkhash_bench::call_shapes::{shape_dyn, shape_loop};
use chunkhash_bench::{c_xxhash, format_size, median_ratio, random_input, run_interleaved_best_of, Case, Timing};
use std::process::ExitCode;
use std::time::Duration;

/// Calls per timed operation, so that the harness's own call is a small part.
const BATCH: usize = 100;
const SIZES: [usize; 3] = [16, 64, 240];
const SHAPES: [&str; 4] = ["loop", "out-of-line", "dyn", "digest"];

/// One algorithm: its anchor's name, its two implementations for the
/// equality check, and `run`, which runs a shape with the implementations
/// as concrete closures (so the loop shape inlines them).
struct Row {
    algorithm: Algorithm,
    anchor: &'static str,
    ours: fn(&[u8]) -> u64,
    theirs: fn(&[u8]) -> u64,
    /// `run(ours, shape, input, calls)`.
    run: fn(bool, &str, &[u8], usize),
}

/// Declares one algorithm's row: its out-of-line functions and its shapes.
macro_rules! row {
    ($algorithm:ident, $anchor:literal, |$d:ident| $ours:expr, |$e:ident| $theirs:expr) => {{
        #[inline(never)]
        fn ours_out_of_line($d: &[u8]) -> u64 {
            $ours
        }
        #[inline(never)]
        fn theirs_out_of_line($e: &[u8]) -> u64 {
            $theirs
        }
        fn run(ours: bool, shape: &str, input: &[u8], calls: usize) {
            match (ours, shape) {
                (true, "loop") => shape_loop(|$d: &[u8]| $ours, input, calls),
                (true, "out-of-line") => shape_loop(ours_out_of_line, input, calls),
                (true, "dyn") => shape_dyn(&mut |$d: &[u8]| $ours, input, calls),
                (true, _) => shape_loop(|d: &[u8]| digest(Algorithm::$algorithm, d), input, calls),
                (false, "out-of-line") => shape_loop(theirs_out_of_line, input, calls),
                (false, "dyn") => shape_dyn(&mut |$e: &[u8]| $theirs, input, calls),
                (false, _) => shape_loop(|$e: &[u8]| $theirs, input, calls),
            }
        }
        Row { algorithm: Algorithm::$algorithm, anchor: $anchor, ours: |$d| $ours, theirs: |$e| $theirs, run }
    }};
}

fn rows() -> Vec<Row> {
    use chunkhash::crc;
    vec![
        row!(Xxh64, "xxHash C", |d| chunkhash::xxh64::hash(d), |d| c_xxhash::xxh64(d)),
        row!(Crc32c, "crc-fast", |d| u64::from(crc::crc32c(d)), |d| u64::from(crc_fast::crc32_iscsi(d))),
        row!(Crc32, "crc-fast", |d| u64::from(crc::crc32(d)), |d| u64::from(crc_fast::crc32_iso_hdlc(d))),
        row!(Crc64Nvme, "crc-fast", |d| crc::crc64_nvme(d), |d| crc_fast::crc64_nvme(d)),
    ]
}

/// Runs one shape of one side of `row`, `calls` times.
fn run(row: &Row, ours: bool, shape: &str, input: &[u8], calls: usize) {
    (row.run)(ours, shape, input, calls)
}

fn parse_args() -> Result<(usize, Duration, usize), String> {
    let (mut rounds, mut slice_ms, mut tries) = (21, 5, 3);
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = |name: &str| -> Result<u64, String> {
            let v = args.next().ok_or_else(|| format!("{name} needs a value"))?;
            v.parse().map_err(|e| format!("{name} {v:?}: {e}"))
        };
        match arg.as_str() {
            "--rounds" => rounds = value("--rounds")? as usize,
            "--slice-ms" => slice_ms = value("--slice-ms")?,
            "--tries" => tries = value("--tries")? as usize,
            _ => return Err(format!("unknown argument {arg:?} (expected --rounds, --slice-ms or --tries)")),
        }
    }
    Ok((rounds.max(1), Duration::from_millis(slice_ms.max(1)), tries.max(1)))
}

/// `--count ALGORITHM:SIDE:SHAPE:SIZE N`.
fn count(spec: &str, calls: &str) -> Result<(), String> {
    let [algorithm, side, shape, size] = spec.split(':').collect::<Vec<_>>()[..] else {
        return Err(format!("--count {spec:?}: expected ALGORITHM:SIDE:SHAPE:SIZE"));
    };
    let algorithm: Algorithm = algorithm.parse().map_err(|e| format!("{e}"))?;
    let rows = rows();
    let row = rows.iter().find(|r| r.algorithm == algorithm).ok_or_else(|| format!("no row for {algorithm}"))?;
    let ours = match side {
        "chunkhash" => true,
        "anchor" => false,
        _ => return Err(format!("--count: side {side:?} is chunkhash or anchor")),
    };
    if !SHAPES.contains(&shape) {
        return Err(format!("--count: shape {shape:?} is one of {SHAPES:?}"));
    }
    let size: usize = size.parse().map_err(|e| format!("--count size {size:?}: {e}"))?;
    let calls: usize = calls.parse().map_err(|e| format!("--count N {calls:?}: {e}"))?;
    run(row, ours, shape, &random_input(size, size as u64), calls);
    Ok(())
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let [flag, spec, calls] = &args[..] {
        if flag == "--count" {
            return match count(spec, calls) {
                Ok(()) => ExitCode::SUCCESS,
                Err(message) => {
                    eprintln!("short_checksums: {message}");
                    ExitCode::from(2)
                }
            };
        }
    }
    let (rounds, slice, tries) = match parse_args() {
        Ok(options) => options,
        Err(message) => {
            eprintln!("short_checksums: {message}");
            return ExitCode::from(2);
        }
    };
    let rows = rows();
    for row in &rows {
        for size in [0, 1, 15, 16, 17, 64, 239, 240, 241, 4096] {
            let input = random_input(size, size as u64 + 7);
            let (ours, theirs) = ((row.ours)(&input), (row.theirs)(&input));
            let through_digest = digest(row.algorithm, &input);
            let digest_value = through_digest.as_bytes().iter().fold(0u64, |v, b| v << 8 | u64::from(*b));
            if ours != theirs || digest_value != theirs {
                eprintln!("short_checksums: {} disagrees with {} at {size} B", row.algorithm, row.anchor);
                return ExitCode::FAILURE;
            }
        }
    }
    println!("# ns per call (median of {rounds} interleaved rounds), and anchor time / chunkhash time");
    for row in &rows {
        println!("\n{} against {}\n", row.algorithm, row.anchor);
        println!("| size | shape | chunkhash ns | {} ns | ratio |", row.anchor);
        println!("| ---: | --- | ---: | ---: | ---: |");
        for size in SIZES {
            let input = random_input(size, size as u64);
            let mut cases = Vec::new();
            for shape in SHAPES {
                for ours in [true, false] {
                    let (input, row) = (&input, row);
                    cases.push(Case::new(format!("{ours} {shape}"), size * BATCH, move || {
                        run(row, ours, shape, input, BATCH)
                    }));
                }
            }
            let t = run_interleaved_best_of(&mut cases, rounds, slice, tries);
            let per_call = |timing: &Timing| timing.median_ns() / BATCH as f64;
            for (i, shape) in SHAPES.iter().enumerate() {
                let (ours, theirs) = (&t[2 * i], &t[2 * i + 1]);
                println!(
                    "| {} | {shape} | {:.2} | {:.2} | {:.3} |",
                    format_size(size),
                    per_call(ours),
                    per_call(theirs),
                    median_ratio(theirs, ours)
                );
            }
        }
    }
    ExitCode::SUCCESS
}
