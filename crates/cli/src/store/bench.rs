//! `chunkhash store bench`: its flags and output. The benchmark itself (the
//! corpus, the rounds, the table and the JSON) is the `chunkhash-bench`
//! library's `store` module.

use crate::status::Printer;
use anyhow::{anyhow, bail, Context, Result};
use chunkhash_bench::store::{self, corpus, Method, Plan, METHODS};
use chunkhash_store::parse_size;
use clap::Args;
use std::path::PathBuf;

pub const BENCH_HELP: &str = "\
The corpus (seeded, so every run and machine ingests the same bytes): --size
bytes of files from 1 KiB to 64 MiB (log-uniform sizes) whose content is cut
into segments of 256 KiB to 4 MiB, about 30% of them repeating an earlier
segment; plus 100,000 small files (64 B to 8 KiB, 30% exact copies) per GiB of
--size, 100 to a directory.

Methods: sha512-160, sha256, blake2b-256 (one chunk per call), blake3-portable
(the portable kernel forced), blake3-per-chunk (one call per chunk, SIMD
kernel), blake3-batch (the batch API, all chunks of a read-ahead batch in one
call); not run unless named: sha512-160-batch, sha256-batch (a read-ahead
batch's chunks in one digest_many call, the store's default for those
algorithms), blake3-batch-roots (blake3-batch with put --roots: each file's
BLAKE3 root and Bao outboard recorded too). The BLAKE3 methods use BLAKE3-160 addresses, the store's
default.

Each run creates a fresh store and times `put` of the whole corpus (walk, read,
chunk, hash, write packs, commit) on each --threads count. Rounds alternate:
each runs every method at every thread count once, starting one further along;
a warm-up run comes first. Reported per method, thread count and fsync setting: the median time and MB/s (10^6 bytes per second of
corpus), the median share of time spent hashing (summed over the threads, so
above 100% is possible with several), the noise (interquartile range
over median) and the speed relative to SHA-512/160 (the median over rounds of
the paired ratio of times).

--json writes: {\"tool\", \"version\", \"backend\", \"core_ghz\", \"runs\",
\"corpus\": {\"seed\", \"bytes\", \"files\", \"large_bytes\", \"small_files\",
\"small_bytes\", \"repeated_bytes\"}, \"chunker\": {\"min\", \"avg\", \"max\"},
\"chunks\": {\"count\", \"bytes\", \"stored_bytes\", \"mean\", \"min\", \"p10\", \"p50\",
\"p90\", \"max\", \"buckets\": [[low, high, count]]}, \"rows\": [{\"method\", \"threads\",
\"algorithm\", \"hashing\", \"fsync\", \"seconds\", \"mb_per_s\", \"hash_share\",
\"vs_sha512_160\", \"noise\", \"runs_s\", \"hash_s\", \"cpu_s\", \"cpu_mb_per_s\"}]}.

CPU MB/s divides by the ingesting thread's on-CPU time (Linux schedstat): on a
shared machine it leaves out the time spent waiting for a core. One-thread rows
only: with more, the calling thread does a part of the work.";

/// `store bench`.
#[derive(Debug, Args)]
pub struct BenchFlags {
    /// Bytes of large files in the corpus: 1GiB (default), 64MiB, ...; small files scale with it
    #[arg(long, value_name = "SIZE", default_value = "1GiB")]
    pub size: String,
    /// Small files in the corpus (default: 100000 per GiB of --size)
    #[arg(long, value_name = "N")]
    pub small_files: Option<String>,
    /// Timed runs of each method per fsync setting
    #[arg(long, value_name = "N", default_value = "5")]
    pub runs: String,
    /// Runs without fsync, with fsync, or both: no, yes, both
    #[arg(long, value_name = "WHEN", default_value = "both")]
    pub fsync: String,
    /// Comma-separated methods (default: the first six below)
    #[arg(long, value_name = "LIST")]
    pub methods: Option<String>,
    /// Comma-separated thread counts of each put (e.g. 1,2); every method runs at each
    #[arg(long, value_name = "LIST", default_value = "1")]
    pub threads: String,
    /// Where the corpus and stores are written (default: the system temp directory)
    #[arg(long, value_name = "DIR")]
    pub dir: Option<PathBuf>,
    /// Where the stores of the fsync runs are written (default: --dir); give a disk, as a tmpfs
    /// ignores fsync
    #[arg(long, value_name = "DIR")]
    pub fsync_dir: Option<PathBuf>,
    /// Write the results as JSON to FILE
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
    /// Seed of the corpus
    #[arg(long, value_name = "N", default_value = "16")]
    pub seed: String,
}

fn parse_count(text: &str, what: &str) -> Result<u64> {
    text.trim().parse().map_err(|_| anyhow!("{what}: {text:?} is not a whole number"))
}

/// The plan of `flags`.
fn plan(flags: &BenchFlags) -> Result<Plan> {
    let size = parse_size(&flags.size).map_err(|e| anyhow!("--size: {e}"))? as u64;
    let small_files = match &flags.small_files {
        Some(text) => parse_count(text, "--small-files")?,
        None => corpus::small_files_for(size),
    };
    let fsyncs = match flags.fsync.as_str() {
        "no" => vec![false],
        "yes" => vec![true],
        "both" => vec![false, true],
        other => bail!("--fsync {other:?}: use no, yes or both"),
    };
    let methods = match &flags.methods {
        None => store::default_methods(),
        Some(list) => list
            .split(',')
            .map(|key| {
                Method::from_key(key).ok_or_else(|| {
                    let keys: Vec<&str> = METHODS.iter().map(|m| m.key).collect();
                    anyhow!("unknown method {key:?}; methods are {}", keys.join(", "))
                })
            })
            .collect::<Result<_>>()?,
    };
    let threads = flags
        .threads
        .split(',')
        .map(|count| match parse_count(count, "--threads")? {
            0 => bail!("--threads: a put needs at least one thread"),
            n => Ok(n as usize),
        })
        .collect::<Result<_>>()?;
    let dir = flags.dir.clone().unwrap_or_else(std::env::temp_dir);
    Ok(Plan {
        threads,
        size,
        small_files,
        seed: parse_count(&flags.seed, "--seed")?,
        runs: parse_count(&flags.runs, "--runs")? as usize,
        fsyncs,
        methods,
        fsync_dir: flags.fsync_dir.clone().unwrap_or_else(|| dir.clone()),
        dir,
    })
}

/// Runs `store bench`.
pub fn run(flags: &BenchFlags, printer: &mut Printer) -> Result<()> {
    let plan = plan(flags)?;
    // Only stderr is written while measuring (stdout holds nothing to
    // flush), and nothing useful is left to do if stderr is gone.
    let run = store::measure(&plan, &mut |line| {
        let _ = printer.message(format_args!("store bench: {line}"));
    })?;
    run.print_table(printer.out())?;
    if let Some(path) = &flags.json {
        std::fs::write(path, store::json::to_string(&run))
            .with_context(|| format!("{}: writing JSON", path.display()))?;
    }
    Ok(())
}
