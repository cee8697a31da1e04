//! Draws the plots of BENCHMARKS.md from the recorded outputs in
//! `crates/bench/runs/`, each SVG beside the output it is drawn from:
//!
//! ```sh
//! cargo run --release -p chunkhash-bench --bin plot_recorded [RUNS_DIR]
//! ```
//!
//! Nothing is measured here: the figures are those of the recorded runs.

use chunkhash_bench::plot::{plot_series, Series};
use chunkhash_bench::recorded;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

type Reader = fn(&str) -> Result<Vec<Series>, String>;

/// Each plot: the recorded output, the SVG written beside it, its title and
/// y axis, and how its series are read.
const PLOTS: &[(&str, &str, &str, &str, Reader)] = &[
    (
        "2026-11-24-polyglot-2core-blake3/runs-1-2.txt",
        "blake3_vs_official.svg",
        "BLAKE3, one message, one thread (2026-11-24, loaded)",
        "MB/s (10^6 bytes per second)",
        recorded::blake3_single,
    ),
    (
        "2026-11-24-polyglot-2core-blake3/runs-1-2.txt",
        "batch_vs_loop.svg",
        "BLAKE3: many messages of one size, one thread (2026-11-24)",
        "MB/s (10^6 bytes per second)",
        recorded::blake3_batch,
    ),
    (
        "2026-11-23-polyglot-2core-xxh3/xxh3_vs_c.txt",
        "xxh3_vs_c.svg",
        "XXH3-64 against libxxhash 0.8.1 (2026-11-23, run 1)",
        "GB/s (10^9 bytes per second)",
        |text| recorded::xxh3_vs_c(text, "XXH3-64:"),
    ),
    (
        "2026-11-23-polyglot-2core/crc_kernels.txt",
        "crc32c_vs_crc_fast.svg",
        "CRC32C, best rounds (2026-11-23, loaded)",
        "GB/s (10^9 bytes per second)",
        |text| recorded::crc_best(text, "CRC32C", &["chunkhash::crc", "crc-fast", "crc32c 0.6", "kernel portable"]),
    ),
];

fn main() -> ExitCode {
    let runs = std::env::args_os()
        .nth(1)
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("runs"));
    let mut failed = false;
    for (source, svg, title, y_desc, read) in PLOTS {
        let source = runs.join(source);
        let out = source.with_file_name(svg);
        let drawn = std::fs::read_to_string(&source)
            .map_err(|e| e.to_string())
            .and_then(|text| read(&text))
            .and_then(|series| plot_series(title, y_desc, series, &out).map_err(|e| e.to_string()));
        match drawn {
            Ok(()) => println!("{}", out.display()),
            Err(e) => {
                eprintln!("plot_recorded: {}: {e}", source.display());
                failed = true;
            }
        }
    }
    if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
