//! `chunkhash store bench`: the end-to-end ingest benchmark. It writes a
//! seeded corpus, then ingests it into a fresh store per run with each
//! address algorithm and BLAKE3 hashing mode, in alternating rounds (each
//! round runs every method once, starting one further along), without and
//! with fsync. One thread does all the work, as in a store's write path.

use crate::status::Printer;
use anyhow::{anyhow, bail, Context, Result};
use chunkhash::{blake3, Algorithm};
use chunkhash_bench::median;
use chunkhash_store::{ChunkSizes, CreateOptions, Hashing, OpenOptions, PutOptions, PutReport, Store};
use clap::Args;
use serde_json::{json, Value};
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use vectors::TestRng;

pub const BENCH_HELP: &str = "\
The corpus (seeded, so every run and machine ingests the same bytes): --size
bytes of files from 1 KiB to 64 MiB (log-uniform sizes) whose content is cut
into segments of 256 KiB to 4 MiB, about 30% of them repeating an earlier
segment; plus 100,000 small files (64 B to 8 KiB, 30% exact copies) per GiB of
--size, 100 to a directory.

Methods: sha512-160, sha256, blake2b-256 (one chunk per call), blake3-portable
(the portable kernel forced), blake3-per-chunk (one call per chunk, SIMD
kernel), blake3-batch (the batch API, all chunks of a read-ahead batch in one
call); the BLAKE3 methods use BLAKE3-160 addresses, the store's default.

Each run creates a fresh store and times `put` of the whole corpus (walk, read,
chunk, hash, write packs, commit). Rounds alternate: each runs every method
once, starting one further along; a warm-up run comes first. Reported per
method and fsync setting: the median time and MB/s (10^6 bytes per second of
corpus), the median share of time spent hashing, the noise (interquartile range
over median) and the speed relative to SHA-512/160 (the median over rounds of
the paired ratio of times).

--json writes: {\"tool\", \"version\", \"backend\", \"core_ghz\", \"runs\",
\"corpus\": {\"seed\", \"bytes\", \"files\", \"large_bytes\", \"small_files\",
\"small_bytes\", \"repeated_bytes\"}, \"chunker\": {\"min\", \"avg\", \"max\"},
\"chunks\": {\"count\", \"bytes\", \"stored_bytes\", \"mean\", \"min\", \"p10\", \"p50\",
\"p90\", \"max\", \"buckets\": [[low, high, count]]}, \"rows\": [{\"method\",
\"algorithm\", \"hashing\", \"fsync\", \"seconds\", \"mb_per_s\", \"hash_share\",
\"vs_sha512_160\", \"noise\", \"runs_s\", \"hash_s\", \"cpu_s\", \"cpu_mb_per_s\"}]}.

CPU MB/s divides by the ingesting thread's on-CPU time (Linux schedstat): on a
shared machine it leaves out the time spent waiting for a core.";

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
    /// Comma-separated methods (default: all six, see below)
    #[arg(long, value_name = "LIST")]
    pub methods: Option<String>,
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

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Method {
    key: &'static str,
    name: &'static str,
    algorithm: Algorithm,
    hashing: Hashing,
}

const METHODS: [Method; 6] = [
    Method { key: "sha512-160", name: "SHA-512/160", algorithm: Algorithm::Sha512_160, hashing: Hashing::PerChunk },
    Method { key: "sha256", name: "SHA-256", algorithm: Algorithm::Sha256, hashing: Hashing::PerChunk },
    Method { key: "blake2b-256", name: "BLAKE2b-256", algorithm: Algorithm::Blake2b256, hashing: Hashing::PerChunk },
    Method {
        key: "blake3-portable",
        name: "BLAKE3 portable",
        algorithm: Algorithm::Blake3_160,
        hashing: Hashing::Portable,
    },
    Method {
        key: "blake3-per-chunk",
        name: "BLAKE3 per chunk",
        algorithm: Algorithm::Blake3_160,
        hashing: Hashing::PerChunk,
    },
    Method { key: "blake3-batch", name: "BLAKE3 batch", algorithm: Algorithm::Blake3_160, hashing: Hashing::Batch },
];

const GIB: u64 = 1 << 30;
const SMALL_FILES_PER_GIB: u64 = 100_000;
const SMALL_PER_DIR: u64 = 100;
const REPEAT_PERCENT: u64 = 30;

/// What was generated.
#[derive(Debug, Default)]
struct Corpus {
    files: u64,
    large_bytes: u64,
    small_files: u64,
    small_bytes: u64,
    repeated_bytes: u64,
}

impl Corpus {
    fn bytes(&self) -> u64 {
        self.large_bytes + self.small_bytes
    }
}

fn parse_count(text: &str, what: &str) -> Result<u64> {
    text.trim().parse().map_err(|_| anyhow!("{what}: {text:?} is not a whole number"))
}

/// A size, with `G`/`GiB` on top of what the harness parses.
fn parse_size(text: &str) -> Result<u64> {
    let trimmed = text.trim();
    let lower = trimmed.to_ascii_lowercase();
    for suffix in ["gib", "gb", "g"] {
        if let Some(number) = lower.strip_suffix(suffix) {
            let gib = parse_count(number, "--size")?;
            return gib.checked_mul(GIB).ok_or_else(|| anyhow!("--size {text} is too large"));
        }
    }
    Ok(chunkhash_bench::parse_size(trimmed).map_err(|e| anyhow!("--size: {e}"))? as u64)
}

/// Runs `store bench`.
pub fn run(flags: &BenchFlags, printer: &mut Printer) -> Result<()> {
    let size = parse_size(&flags.size)?;
    if size < 1024 {
        bail!("--size {} is too small: at least 1 KiB", flags.size);
    }
    let small_files = match &flags.small_files {
        Some(text) => parse_count(text, "--small-files")?,
        None => ((size as u128 * SMALL_FILES_PER_GIB as u128) / GIB as u128) as u64,
    };
    let runs = parse_count(&flags.runs, "--runs")? as usize;
    if runs == 0 {
        bail!("--runs must be at least 1");
    }
    let seed = parse_count(&flags.seed, "--seed")?;
    let fsyncs: Vec<bool> = match flags.fsync.as_str() {
        "no" => vec![false],
        "yes" => vec![true],
        "both" => vec![false, true],
        other => bail!("--fsync {other:?}: use no, yes or both"),
    };
    let methods: Vec<Method> = match &flags.methods {
        None => METHODS.to_vec(),
        Some(list) => list
            .split(',')
            .map(|key| {
                METHODS.iter().copied().find(|m| m.key.eq_ignore_ascii_case(key.trim())).ok_or_else(|| {
                    let keys: Vec<&str> = METHODS.iter().map(|m| m.key).collect();
                    anyhow!("unknown method {key:?}; methods are {}", keys.join(", "))
                })
            })
            .collect::<Result<_>>()?,
    };
    let own = format!("chunkhash-store-bench-{}", std::process::id());
    let base = flags.dir.clone().unwrap_or_else(std::env::temp_dir).join(&own);
    let fsync_base = flags.fsync_dir.as_ref().map_or_else(|| base.clone(), |dir| dir.join(&own));
    for dir in [&base, &fsync_base] {
        fs::create_dir_all(dir).with_context(|| format!("{}: creating", dir.display()))?;
    }
    let result = measure(&base, &fsync_base, size, small_files, seed, runs, &fsyncs, &methods, printer);
    let _ = fs::remove_dir_all(&base);
    let _ = fs::remove_dir_all(&fsync_base);
    let run = result?;
    print_table(printer, &run)?;
    if let Some(path) = &flags.json {
        let text = serde_json::to_string_pretty(&to_json(&run)).context("encoding JSON")?;
        fs::write(path, text + "\n").with_context(|| format!("{}: writing JSON", path.display()))?;
    }
    Ok(())
}

/// One method at one fsync setting, over all rounds.
struct Row {
    method: Method,
    fsync: bool,
    seconds: Vec<f64>,
    hash_seconds: Vec<f64>,
    /// On-CPU seconds of the ingesting thread (empty where unknown).
    cpu_seconds: Vec<f64>,
}

struct Run {
    core_ghz: f64,
    runs: usize,
    seed: u64,
    corpus: Corpus,
    chunker: chunkhash_store::ChunkerSettings,
    sample: PutReport,
    rows: Vec<Row>,
}

#[allow(clippy::too_many_arguments)]
fn measure(
    base: &Path,
    fsync_base: &Path,
    size: u64,
    small_files: u64,
    seed: u64,
    runs: usize,
    fsyncs: &[bool],
    methods: &[Method],
    printer: &mut Printer,
) -> Result<Run> {
    let corpus_dir = base.join("corpus");
    printer.message(format_args!("store bench: writing the corpus under {}", corpus_dir.display()))?;
    let corpus = generate(&corpus_dir, size, small_files, seed)?;
    printer.message(format_args!(
        "store bench: {} bytes in {} files ({} small); {} runs per method and fsync setting",
        corpus.bytes(),
        corpus.files + corpus.small_files,
        corpus.small_files,
        runs
    ))?;
    let core_ghz = chunkhash_bench::core_ghz();
    let inputs = [corpus_dir.clone()];
    let store_of = |fsync: bool| if fsync { fsync_base.join("store") } else { base.join("store") };
    let ingest = |method: &Method, fsync: bool| -> Result<(PutReport, Option<f64>)> {
        let store_dir = store_of(fsync);
        if store_dir.exists() {
            fs::remove_dir_all(&store_dir).with_context(|| format!("{}: removing", store_dir.display()))?;
        }
        let create = CreateOptions { address: method.algorithm, ..CreateOptions::default() };
        let mut store = Store::create(&store_dir, create, OpenOptions { fsync, ..OpenOptions::default() })?;
        let cpu_before = thread_cpu_seconds();
        let report = store.put(&inputs, PutOptions { hashing: method.hashing, ..PutOptions::default() })?;
        let cpu = thread_cpu_seconds().zip(cpu_before).map(|(after, before)| after - before);
        if report.bytes != corpus.bytes() {
            bail!("ingested {} bytes of a {}-byte corpus", report.bytes, corpus.bytes());
        }
        Ok((report, cpu))
    };
    let mut rows = Vec::new();
    let mut sample = None;
    for &fsync in fsyncs {
        // Warm-up: page cache, allocator, the store's code paths.
        let (warm, _) = ingest(methods.last().unwrap_or(&METHODS[5]), fsync)?;
        sample.get_or_insert(warm);
        let first = rows.len();
        for method in methods {
            rows.push(Row {
                method: *method,
                fsync,
                seconds: Vec::new(),
                hash_seconds: Vec::new(),
                cpu_seconds: Vec::new(),
            });
        }
        for round in 0..runs {
            for k in 0..methods.len() {
                let index = (round + k) % methods.len();
                let (report, cpu) = ingest(&methods[index], fsync)?;
                let (seconds, hash) = (report.elapsed.as_secs_f64(), report.hash_time.as_secs_f64());
                printer.message(format_args!(
                    "store bench: fsync {} round {}/{runs}: {:<16} {:>7.3} s {:>8.1} MB/s, hashing {:>4.1}%",
                    if fsync { "yes" } else { "no " },
                    round + 1,
                    methods[index].name,
                    seconds,
                    corpus.bytes() as f64 / seconds / 1e6,
                    100.0 * hash / seconds
                ))?;
                rows[first + index].seconds.push(seconds);
                rows[first + index].hash_seconds.push(hash);
                rows[first + index].cpu_seconds.extend(cpu);
            }
        }
    }
    for fsync in [false, true] {
        let _ = fs::remove_dir_all(store_of(fsync));
    }
    let sample = sample.ok_or_else(|| anyhow!("nothing was measured"))?;
    Ok(Run { core_ghz, runs, seed, corpus, chunker: CreateOptions::default().chunker, sample, rows })
}

/// On-CPU time of this thread (`/proc/thread-self/schedstat`, Linux): it
/// leaves out time spent waiting for a core another process holds, which
/// wall time on a shared machine does not; kernel work done for the thread
/// (copying pages) is in it.
fn thread_cpu_seconds() -> Option<f64> {
    let text = fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let nanoseconds: u64 = text.split_whitespace().next()?.parse().ok()?;
    (nanoseconds > 0).then_some(nanoseconds as f64 / 1e9)
}

/// MB/s per on-CPU second, when known for every run.
fn cpu_mb_per_s(row: &Row, bytes: u64) -> Option<f64> {
    (!row.cpu_seconds.is_empty() && row.cpu_seconds.len() == row.seconds.len())
        .then(|| bytes as f64 / median(&row.cpu_seconds) / 1e6)
}

/// A log-uniform size in `low..=high`.
fn log_uniform(rng: &mut TestRng, low: u64, high: u64) -> u64 {
    let unit = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
    let (low_ln, high_ln) = ((low as f64).ln(), (high as f64).ln());
    ((low_ln + unit * (high_ln - low_ln)).exp() as u64).clamp(low, high)
}

fn chance(rng: &mut TestRng, percent: u64) -> bool {
    rng.next_u64() % 100 < percent
}

/// Writes the corpus (see `BENCH_HELP`).
fn generate(root: &Path, size: u64, small_files: u64, seed: u64) -> Result<Corpus> {
    let mut rng = TestRng::new(seed);
    let mut corpus = Corpus::default();
    let write =
        |path: &Path, bytes: &[u8]| fs::write(path, bytes).with_context(|| format!("{}: writing", path.display()));
    let large = root.join("large");
    fs::create_dir_all(&large).with_context(|| format!("{}: creating", large.display()))?;
    // Segments that later files may repeat; bounded to 64 of them.
    let mut pool: Vec<Vec<u8>> = Vec::new();
    while corpus.large_bytes < size {
        let len = log_uniform(&mut rng, 1 << 10, 64 << 20).min(size - corpus.large_bytes) as usize;
        let mut file = Vec::with_capacity(len);
        while file.len() < len {
            let segment = (log_uniform(&mut rng, 256 << 10, 4 << 20) as usize).min(len - file.len());
            if !pool.is_empty() && chance(&mut rng, REPEAT_PERCENT) {
                // A whole earlier segment (cut only by the file's end), so
                // repeats are as long as fresh segments.
                let source = &pool[rng.range(0..=pool.len() - 1)];
                let take = source.len().min(len - file.len());
                file.extend_from_slice(&source[..take]);
                corpus.repeated_bytes += take as u64;
            } else {
                let start = file.len();
                file.resize(start + segment, 0);
                rng.fill(&mut file[start..]);
                let fresh = file[start..].to_vec();
                if pool.len() < 64 {
                    pool.push(fresh);
                } else {
                    let slot = rng.range(0..=63);
                    pool[slot] = fresh;
                }
            }
        }
        write(&large.join(format!("{:05}.bin", corpus.files)), &file)?;
        corpus.files += 1;
        corpus.large_bytes += len as u64;
    }
    let mut recent: Vec<Vec<u8>> = Vec::new();
    for index in 0..small_files {
        let dir = root.join("small").join(format!("{:04}", index / SMALL_PER_DIR));
        if index % SMALL_PER_DIR == 0 {
            fs::create_dir_all(&dir).with_context(|| format!("{}: creating", dir.display()))?;
        }
        let bytes = if !recent.is_empty() && chance(&mut rng, REPEAT_PERCENT) {
            let copy = recent[rng.range(0..=recent.len() - 1)].clone();
            corpus.repeated_bytes += copy.len() as u64;
            copy
        } else {
            let len = log_uniform(&mut rng, 64, 8 << 10) as usize;
            let bytes = rng.bytes(len);
            if recent.len() < 1000 {
                recent.push(bytes.clone());
            } else {
                let slot = rng.range(0..=999);
                recent[slot] = bytes.clone();
            }
            bytes
        };
        write(&dir.join(format!("{index:06}.txt")), &bytes)?;
        corpus.small_files += 1;
        corpus.small_bytes += bytes.len() as u64;
    }
    Ok(corpus)
}

fn sha_row(run: &Run, fsync: bool) -> Option<&Row> {
    run.rows.iter().find(|row| row.fsync == fsync && row.method.algorithm == Algorithm::Sha512_160)
}

/// The median over rounds of `base time / row time`: above 1 is faster.
fn speedup(row: &Row, base: Option<&Row>) -> Option<f64> {
    let base = base?;
    let ratios: Vec<f64> = base.seconds.iter().zip(&row.seconds).map(|(b, r)| b / r).collect();
    (!ratios.is_empty()).then(|| median(&ratios))
}

fn hash_share(row: &Row) -> f64 {
    let shares: Vec<f64> = row.hash_seconds.iter().zip(&row.seconds).map(|(h, s)| h / s).collect();
    median(&shares)
}

fn noise(values: &[f64]) -> f64 {
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    let q = |p: f64| sorted[((sorted.len() - 1) as f64 * p).round() as usize];
    (q(0.75) - q(0.25)) / median(values)
}

fn print_table(printer: &mut Printer, run: &Run) -> Result<()> {
    let bytes = run.corpus.bytes();
    let out = printer.out();
    writeln!(
        out,
        "chunkhash {} store bench: {} bytes in {} files + {} small files ({:.0}% repeated), seed {}; BLAKE3 backend {}, core {:.2} GHz; median of {} runs, one thread",
        env!("CARGO_PKG_VERSION"),
        bytes,
        run.corpus.files,
        run.corpus.small_files,
        100.0 * run.corpus.repeated_bytes as f64 / bytes as f64,
        run.seed,
        blake3::Backend::detect().name(),
        run.core_ghz,
        run.runs
    )?;
    writeln!(
        out,
        "{:<6} {:<17} {:>9} {:>9} {:>8} {:>15} {:>7} {:>9}",
        "fsync", "method", "MB/s", "seconds", "hashing", "vs SHA-512/160", "noise", "CPU MB/s"
    )?;
    for row in &run.rows {
        let seconds = median(&row.seconds);
        let ratio = speedup(row, sha_row(run, row.fsync)).map_or("-".to_string(), |r| format!("{r:.2}x"));
        let cpu = cpu_mb_per_s(row, bytes).map_or("-".to_string(), |mb| format!("{mb:.1}"));
        writeln!(
            out,
            "{:<6} {:<17} {:>9.1} {:>9.3} {:>7.1}% {:>15} {:>6.1}% {:>9}",
            if row.fsync { "yes" } else { "no" },
            row.method.name,
            bytes as f64 / seconds / 1e6,
            seconds,
            100.0 * hash_share(row),
            ratio,
            100.0 * noise(&row.seconds),
            cpu
        )?;
    }
    let mut sizes = run.sample.chunk_sizes.clone();
    writeln!(
        out,
        "chunks: {} ({} bytes; {} bytes new to the store); size mean {:.0}, min {}, p10 {}, median {}, p90 {}, max {}",
        sizes.count(),
        sizes.total(),
        run.sample.new_bytes,
        sizes.mean(),
        sizes.percentile(0.0),
        sizes.percentile(10.0),
        sizes.percentile(50.0),
        sizes.percentile(90.0),
        sizes.percentile(100.0)
    )?;
    for (low, high, count) in sizes.buckets() {
        writeln!(out, "  {low:>9} ..< {high:<9} {count}")?;
    }
    Ok(())
}

fn size_summary(sizes: &ChunkSizes) -> Value {
    let mut sizes = sizes.clone();
    json!({
        "count": sizes.count(),
        "bytes": sizes.total(),
        "mean": sizes.mean(),
        "min": sizes.percentile(0.0),
        "p10": sizes.percentile(10.0),
        "p50": sizes.percentile(50.0),
        "p90": sizes.percentile(90.0),
        "max": sizes.percentile(100.0),
        "buckets": sizes.buckets().iter().map(|(low, high, count)| json!([low, high, count])).collect::<Vec<_>>(),
    })
}

fn to_json(run: &Run) -> Value {
    let bytes = run.corpus.bytes();
    let rows: Vec<Value> = run
        .rows
        .iter()
        .map(|row| {
            let seconds = median(&row.seconds);
            json!({
                "method": row.method.key,
                "algorithm": row.method.algorithm.name(),
                "hashing": row.method.hashing.name(),
                "fsync": row.fsync,
                "seconds": seconds,
                "mb_per_s": bytes as f64 / seconds / 1e6,
                "hash_share": hash_share(row),
                "vs_sha512_160": speedup(row, sha_row(run, row.fsync)),
                "noise": noise(&row.seconds),
                "runs_s": row.seconds,
                "hash_s": row.hash_seconds,
                "cpu_s": row.cpu_seconds,
                "cpu_mb_per_s": cpu_mb_per_s(row, bytes),
            })
        })
        .collect();
    let mut chunks = size_summary(&run.sample.chunk_sizes);
    chunks["stored_bytes"] = json!(run.sample.new_bytes);
    json!({
        "tool": "chunkhash store bench",
        "version": env!("CARGO_PKG_VERSION"),
        "backend": blake3::Backend::detect().name(),
        "core_ghz": run.core_ghz,
        "runs": run.runs,
        "corpus": {
            "seed": run.seed,
            "bytes": bytes,
            "files": run.corpus.files + run.corpus.small_files,
            "large_bytes": run.corpus.large_bytes,
            "small_files": run.corpus.small_files,
            "small_bytes": run.corpus.small_bytes,
            "repeated_bytes": run.corpus.repeated_bytes,
        },
        "chunker": {"min": run.chunker.min, "avg": run.chunker.avg, "max": run.chunker.max},
        "chunks": chunks,
        "rows": rows,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_parse_with_gigabytes() {
        assert_eq!(parse_size("1GiB").unwrap(), GIB);
        assert_eq!(parse_size("64MiB").unwrap(), 64 << 20);
        assert_eq!(parse_size("4096").unwrap(), 4096);
        assert!(parse_size("lots").is_err());
    }

    #[test]
    fn the_corpus_is_seeded_and_repeats_about_a_third() {
        let dir = std::env::temp_dir().join(format!("chunkhash-corpus-test-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        let first = generate(&dir.join("a"), 24 << 20, 300, 7).unwrap();
        let second = generate(&dir.join("b"), 24 << 20, 300, 7).unwrap();
        assert_eq!((first.large_bytes, first.small_files), (24 << 20, 300));
        assert_eq!(first.bytes(), second.bytes());
        assert_eq!(fs::read(dir.join("a/large/00000.bin")).unwrap(), fs::read(dir.join("b/large/00000.bin")).unwrap());
        let share = first.repeated_bytes as f64 / first.bytes() as f64;
        assert!((0.2..0.4).contains(&share), "{share}");
        fs::remove_dir_all(&dir).unwrap();
    }
}
