//! The run of `chunkhash store bench`, the end-to-end ingest benchmark: it
//! writes a seeded corpus ([`corpus`]), then ingests it into a fresh store
//! per run with each address algorithm and BLAKE3 hashing mode
//! ([`METHODS`]), without and with fsync, and reports per method the median
//! time and MB/s, the share of time spent hashing, the noise and the speed
//! against SHA-512/160 ([`Run`], its table, and its JSON in [`json`]).
//!
//! Rounds alternate: each round runs every method once, starting one further
//! along, after one warm-up run, so load from a neighbour hits all methods
//! alike; the speed against SHA-512/160 is the median over rounds of the
//! paired ratio of times. Each method runs at each of the plan's thread
//! counts (`PutOptions::threads`; one by default), the counts interleaved in
//! the rounds like the methods.

pub mod corpus;
pub mod json;

use crate::harness::{core_ghz, median, median_paired_ratio, spread, thread_cpu_seconds};
use chunkhash::{blake3, Algorithm};
use chunkhash_store::{ChunkSizes, ChunkerSettings, CreateOptions, Hashing, OpenOptions, PutOptions, PutReport, Store};
use corpus::{create_dir, Corpus};
use std::fmt;
use std::fs;
use std::io::{self, Write};
use std::num::NonZeroUsize;
use std::path::{Path, PathBuf};

/// One way of computing the store's addresses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Method {
    /// The name `--methods` takes and the JSON writes.
    pub key: &'static str,
    /// The name the table prints.
    pub name: &'static str,
    /// The address algorithm of the store.
    pub algorithm: Algorithm,
    /// How BLAKE3 addresses are computed.
    pub hashing: Hashing,
    /// Whether `put` records each file's BLAKE3 root and Bao outboard
    /// (`PutOptions::roots`).
    pub roots: bool,
}

impl Method {
    /// The method of a `--methods` key (any case).
    pub fn from_key(key: &str) -> Option<Method> {
        METHODS.iter().copied().find(|method| method.key.eq_ignore_ascii_case(key.trim()))
    }
}

/// Every method, in the order the table prints them; the BLAKE3 methods
/// use BLAKE3-160 addresses, the store's default.
pub const METHODS: [Method; 9] = [
    Method {
        key: "sha512-160",
        name: "SHA-512/160",
        algorithm: Algorithm::Sha512_160,
        hashing: Hashing::PerChunk,
        roots: false,
    },
    Method { key: "sha256", name: "SHA-256", algorithm: Algorithm::Sha256, hashing: Hashing::PerChunk, roots: false },
    Method {
        key: "blake2b-256",
        name: "BLAKE2b-256",
        algorithm: Algorithm::Blake2b256,
        hashing: Hashing::PerChunk,
        roots: false,
    },
    Method {
        key: "blake3-portable",
        name: "BLAKE3 portable",
        algorithm: Algorithm::Blake3_160,
        hashing: Hashing::Portable,
        roots: false,
    },
    Method {
        key: "blake3-per-chunk",
        name: "BLAKE3 per chunk",
        algorithm: Algorithm::Blake3_160,
        hashing: Hashing::PerChunk,
        roots: false,
    },
    Method {
        key: "blake3-batch",
        name: "BLAKE3 batch",
        algorithm: Algorithm::Blake3_160,
        hashing: Hashing::Batch,
        roots: false,
    },
    Method {
        key: "sha512-160-batch",
        name: "SHA-512/160 batch",
        algorithm: Algorithm::Sha512_160,
        hashing: Hashing::Batch,
        roots: false,
    },
    Method {
        key: "sha256-batch",
        name: "SHA-256 batch",
        algorithm: Algorithm::Sha256,
        hashing: Hashing::Batch,
        roots: false,
    },
    Method {
        key: "blake3-batch-roots",
        name: "BLAKE3 batch + roots",
        algorithm: Algorithm::Blake3_160,
        hashing: Hashing::Batch,
        roots: true,
    },
];

/// The methods a run measures unless told otherwise: all but the batch
/// forms of SHA-512/160 and SHA-256 and the put with roots (asked for by
/// name), so the default run keeps its length.
pub fn default_methods() -> Vec<Method> {
    METHODS
        .iter()
        .copied()
        .filter(|method| (method.key.starts_with("blake3") || method.hashing != Hashing::Batch) && !method.roots)
        .collect()
}

/// What to measure.
#[derive(Clone, Debug, PartialEq)]
pub struct Plan {
    /// Bytes of large files in the corpus (at least 1 KiB).
    pub size: u64,
    /// Small files in the corpus ([`corpus::small_files_for`] by default).
    pub small_files: u64,
    /// Seed of the corpus.
    pub seed: u64,
    /// Timed runs of each method per fsync setting (at least 1).
    pub runs: usize,
    /// The fsync settings, in order: `false` (no fsync), `true`, or both.
    pub fsyncs: Vec<bool>,
    /// The methods, in order (at least one).
    pub methods: Vec<Method>,
    /// Threads of each `put` (`PutOptions::threads`), in order (at least
    /// one count, each at least 1); every method runs at every count.
    pub threads: Vec<usize>,
    /// Where the corpus and the stores of the runs without fsync are
    /// written, in a directory of this process that is removed at the end.
    pub dir: PathBuf,
    /// Where the stores of the fsync runs are written (likewise): a disk, as
    /// a tmpfs ignores fsync.
    pub fsync_dir: PathBuf,
}

/// One method at one fsync setting, over all rounds.
#[derive(Clone, Debug)]
pub struct Row {
    /// The method.
    pub method: Method,
    /// Threads reading, chunking and hashing.
    pub threads: usize,
    /// Whether every commit was made durable.
    pub fsync: bool,
    /// Seconds of each run's `put`.
    pub seconds: Vec<f64>,
    /// Seconds of each run spent computing addresses.
    pub hash_seconds: Vec<f64>,
    /// On-CPU seconds of the ingesting thread in each run (empty where the
    /// system does not say, and with more than one thread).
    pub cpu_seconds: Vec<f64>,
}

impl Row {
    /// The median seconds of a run.
    pub fn median_seconds(&self) -> f64 {
        median(&self.seconds)
    }

    /// The median over runs of the share of time spent hashing (hashing
    /// time summed over the threads, so it may pass 1 with several).
    pub fn hash_share(&self) -> f64 {
        let shares: Vec<f64> = self.hash_seconds.iter().zip(&self.seconds).map(|(h, s)| h / s).collect();
        median(&shares)
    }

    /// The interquartile range of the runs' times over their median.
    pub fn noise(&self) -> f64 {
        spread(&self.seconds)
    }

    /// 10^6 bytes of `bytes` per on-CPU second, when known for every run.
    pub fn cpu_mb_per_s(&self, bytes: u64) -> Option<f64> {
        (!self.cpu_seconds.is_empty() && self.cpu_seconds.len() == self.seconds.len())
            .then(|| bytes as f64 / median(&self.cpu_seconds) / 1e6)
    }
}

/// A whole run: what the table prints and `--json` writes.
#[derive(Clone, Debug)]
pub struct Run {
    /// chunkhash version.
    pub version: String,
    /// BLAKE3 backend detected.
    pub backend: String,
    /// Core clock measured at start.
    pub core_ghz: f64,
    /// Timed runs per method and fsync setting.
    pub runs: usize,
    /// Seed of the corpus.
    pub seed: u64,
    /// The corpus.
    pub corpus: Corpus,
    /// The chunker of every store.
    pub chunker: ChunkerSettings,
    /// The chunks the corpus was cut into (the same in every run).
    pub chunks: ChunkSizes,
    /// Bytes of the chunks a fresh store keeps: the corpus without repeats.
    pub stored_bytes: u64,
    /// The rows: per fsync setting, one per method.
    pub rows: Vec<Row>,
}

impl Run {
    /// The row's speed against SHA-512/160 at the same fsync setting and
    /// thread count: the
    /// median over rounds of `SHA-512/160 time / row time`, above 1 is
    /// faster. `None` when SHA-512/160 was not measured.
    pub fn vs_sha512_160(&self, row: &Row) -> Option<f64> {
        let base = self.rows.iter().find(|base| {
            base.fsync == row.fsync && base.threads == row.threads && base.method.algorithm == Algorithm::Sha512_160
        })?;
        Some(median_paired_ratio(&base.seconds, &row.seconds))
    }

    /// Prints the run as a table: a header line, one line per row, then the
    /// chunk size distribution.
    pub fn print_table(&self, out: &mut impl Write) -> io::Result<()> {
        let bytes = self.corpus.bytes();
        writeln!(
            out,
            "chunkhash {} store bench: {} bytes in {} files + {} small files ({:.0}% repeated), seed {}; BLAKE3 backend {}, core {:.2} GHz; median of {} runs",
            self.version,
            bytes,
            self.corpus.files,
            self.corpus.small_files,
            100.0 * self.corpus.repeated_bytes as f64 / bytes as f64,
            self.seed,
            self.backend,
            self.core_ghz,
            self.runs
        )?;
        writeln!(
            out,
            "{:<6} {:<17} {:>7} {:>9} {:>9} {:>8} {:>15} {:>7} {:>9}",
            "fsync", "method", "threads", "MB/s", "seconds", "hashing", "vs SHA-512/160", "noise", "CPU MB/s"
        )?;
        for row in &self.rows {
            let seconds = row.median_seconds();
            let ratio = self.vs_sha512_160(row).map_or("-".to_string(), |r| format!("{r:.2}x"));
            let cpu = row.cpu_mb_per_s(bytes).map_or("-".to_string(), |mb| format!("{mb:.1}"));
            writeln!(
                out,
                "{:<6} {:<17} {:>7} {:>9.1} {:>9.3} {:>7.1}% {:>15} {:>6.1}% {:>9}",
                if row.fsync { "yes" } else { "no" },
                row.method.name,
                row.threads,
                bytes as f64 / seconds / 1e6,
                seconds,
                100.0 * row.hash_share(),
                ratio,
                100.0 * row.noise(),
                cpu
            )?;
        }
        let mut sizes = self.chunks.clone();
        writeln!(
            out,
            "chunks: {} ({} bytes; {} bytes new to the store); size {}",
            sizes.count(),
            sizes.total(),
            self.stored_bytes,
            sizes.summary()
        )?;
        for (low, high, count) in sizes.buckets() {
            writeln!(out, "  {low:>9} ..< {high:<9} {count}")?;
        }
        Ok(())
    }
}

/// Why a run could not be measured.
#[derive(Debug)]
#[non_exhaustive]
pub enum Error {
    /// The plan asks for nothing, or for a corpus too small to chunk.
    BadPlan(&'static str),
    /// The store failed, or writing the corpus or clearing a store did
    /// (an [`chunkhash_store::Error::Io`] naming the file).
    Store(chunkhash_store::Error),
    /// A put read another number of bytes than the corpus holds.
    Incomplete {
        /// Bytes the put read.
        ingested: u64,
        /// Bytes of the corpus.
        corpus: u64,
    },
}

impl Error {
    fn io(action: &'static str, path: &Path, source: io::Error) -> Error {
        Error::Store(chunkhash_store::Error::Io { action, path: path.to_path_buf(), source })
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::BadPlan(reason) => f.write_str(reason),
            Error::Store(error) => error.fmt(f),
            Error::Incomplete { ingested, corpus } => {
                write!(f, "the store ingested {ingested} bytes of a {corpus}-byte corpus")
            }
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            // The store's error is this one's message; its cause comes next.
            Error::Store(error) => error.source(),
            _ => None,
        }
    }
}

impl From<chunkhash_store::Error> for Error {
    fn from(error: chunkhash_store::Error) -> Error {
        Error::Store(error)
    }
}

/// Measures `plan`: writes the corpus, runs every round, and removes what it
/// wrote (also on failure). `progress` is told what happens, a line at a time
/// (the corpus, then each run's time).
pub fn measure(plan: &Plan, progress: &mut dyn FnMut(fmt::Arguments<'_>)) -> Result<Run, Error> {
    if plan.size < 1024 {
        return Err(Error::BadPlan("the corpus must hold at least 1 KiB of large files"));
    }
    if plan.runs == 0 || plan.methods.is_empty() || plan.fsyncs.is_empty() || plan.threads.is_empty() {
        return Err(Error::BadPlan("nothing to measure: no runs, no methods, no thread count or no fsync setting"));
    }
    if plan.threads.contains(&0) {
        return Err(Error::BadPlan("a put needs at least one thread"));
    }
    let own = format!("chunkhash-store-bench-{}", std::process::id());
    let base = plan.dir.join(&own);
    let fsync_base = plan.fsync_dir.join(&own);
    let result = create_dir(&base).and_then(|()| create_dir(&fsync_base)).and_then(|()| {
        let stores = [base.join("store"), fsync_base.join("store")];
        measure_in(plan, &base.join("corpus"), &stores, progress)
    });
    let _ = fs::remove_dir_all(&base);
    let _ = fs::remove_dir_all(&fsync_base);
    result
}

/// [`measure`] with the corpus at `corpus_dir` and the stores at
/// `stores[fsync]`.
fn measure_in(
    plan: &Plan,
    corpus_dir: &Path,
    stores: &[PathBuf; 2],
    progress: &mut dyn FnMut(fmt::Arguments<'_>),
) -> Result<Run, Error> {
    progress(format_args!("writing the corpus under {}", corpus_dir.display()));
    let corpus = corpus::generate(corpus_dir, plan.size, plan.small_files, plan.seed)?;
    progress(format_args!(
        "{} bytes in {} files ({} small); {} runs per method and fsync setting",
        corpus.bytes(),
        corpus.files + corpus.small_files,
        corpus.small_files,
        plan.runs
    ));
    let ghz = core_ghz();
    let inputs = [corpus_dir.to_path_buf()];
    let ingest = |method: &Method, threads: usize, fsync: bool| -> Result<(PutReport, Option<f64>), Error> {
        let store_dir = &stores[usize::from(fsync)];
        if store_dir.exists() {
            fs::remove_dir_all(store_dir).map_err(|source| Error::io("removing", store_dir, source))?;
        }
        let create = CreateOptions { address: method.algorithm, ..CreateOptions::default() };
        let mut store = Store::create(store_dir, create, OpenOptions { fsync, ..OpenOptions::default() })?;
        let cpu_before = thread_cpu_seconds();
        let options = PutOptions {
            hashing: method.hashing,
            threads: NonZeroUsize::new(threads),
            roots: method.roots,
            ..PutOptions::default()
        };
        let report = store.put(&inputs, options)?;
        // The calling thread's CPU time is the whole put's on one thread only.
        let cpu = thread_cpu_seconds().zip(cpu_before).map(|(after, before)| after - before).filter(|_| threads == 1);
        if report.bytes != corpus.bytes() {
            return Err(Error::Incomplete { ingested: report.bytes, corpus: corpus.bytes() });
        }
        Ok((report, cpu))
    };
    // Each method at each thread count, interleaved alike.
    let methods: Vec<(Method, usize)> =
        plan.methods.iter().flat_map(|&method| plan.threads.iter().map(move |&threads| (method, threads))).collect();
    let mut rows = Vec::new();
    let mut sample = None;
    for &fsync in &plan.fsyncs {
        // Warm-up: page cache, allocator, the store's code paths.
        let (last, threads) = methods[methods.len() - 1];
        let (warm, _) = ingest(&last, threads, fsync)?;
        sample.get_or_insert((warm.chunk_sizes, warm.new_bytes));
        let first = rows.len();
        rows.extend(methods.iter().map(|&(method, threads)| Row {
            method,
            threads,
            fsync,
            seconds: Vec::new(),
            hash_seconds: Vec::new(),
            cpu_seconds: Vec::new(),
        }));
        for round in 0..plan.runs {
            for k in 0..methods.len() {
                let index = (round + k) % methods.len();
                let (method, threads) = methods[index];
                let (report, cpu) = ingest(&method, threads, fsync)?;
                let (seconds, hash) = (report.elapsed.as_secs_f64(), report.hash_time.as_secs_f64());
                progress(format_args!(
                    "fsync {} round {}/{}: {:<16} {:>2} threads {:>7.3} s {:>8.1} MB/s, hashing {:>4.1}%",
                    if fsync { "yes" } else { "no " },
                    round + 1,
                    plan.runs,
                    method.name,
                    threads,
                    seconds,
                    corpus.bytes() as f64 / seconds / 1e6,
                    100.0 * hash / seconds
                ));
                let row = &mut rows[first + index];
                row.seconds.push(seconds);
                row.hash_seconds.push(hash);
                row.cpu_seconds.extend(cpu);
            }
        }
    }
    // The plan has at least one fsync setting, so the warm-up ran.
    let (chunks, stored_bytes) = sample.unwrap_or_default();
    Ok(Run {
        version: env!("CARGO_PKG_VERSION").to_string(),
        backend: blake3::Backend::detect().name().to_string(),
        core_ghz: ghz,
        runs: plan.runs,
        seed: plan.seed,
        corpus,
        chunker: CreateOptions::default().chunker,
        chunks,
        stored_bytes,
        rows,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plan(dir: &Path) -> Plan {
        Plan {
            size: 2 << 20,
            small_files: 30,
            seed: 5,
            runs: 2,
            fsyncs: vec![false],
            methods: vec![Method::from_key("SHA512-160").unwrap(), Method::from_key(" blake3-batch").unwrap()],
            threads: vec![1],
            dir: dir.to_path_buf(),
            fsync_dir: dir.to_path_buf(),
        }
    }

    #[test]
    fn a_small_run_measures_every_row_and_leaves_nothing_behind() {
        let dir = std::env::temp_dir().join(format!("chunkhash-store-bench-test-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let mut lines = Vec::new();
        let run = measure(&plan(&dir), &mut |line| lines.push(line.to_string())).unwrap();
        assert_eq!(lines.len(), 2 + 2 * 2, "{lines:?}");
        assert_eq!(run.rows.len(), 2);
        assert!(run.rows.iter().all(|row| row.seconds.len() == 2 && row.hash_seconds.len() == 2));
        assert_eq!(run.vs_sha512_160(&run.rows[0]), Some(1.0));
        assert!((0.0..=1.0).contains(&run.rows[1].hash_share()));
        assert_eq!(run.chunks.total(), run.corpus.bytes());
        assert!(run.stored_bytes < run.corpus.bytes(), "repeats are stored once");
        let mut table = Vec::new();
        run.print_table(&mut table).unwrap();
        let table = String::from_utf8(table).unwrap();
        assert!(table.contains("BLAKE3 batch") && table.contains("1.00x"), "{table}");
        assert_eq!(fs::read_dir(&dir).unwrap().count(), 0, "the run's files are removed");
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_plan_of_nothing_is_refused() {
        let dir = std::env::temp_dir();
        let refused = |plan: Plan| measure(&plan, &mut |_| ()).unwrap_err().to_string();
        assert!(refused(Plan { runs: 0, ..plan(&dir) }).starts_with("nothing to measure"));
        assert!(refused(Plan { methods: Vec::new(), ..plan(&dir) }).starts_with("nothing to measure"));
        assert!(refused(Plan { size: 1000, ..plan(&dir) }).contains("at least 1 KiB"));
    }

    #[test]
    fn an_unwritable_directory_is_named() {
        let file = std::env::temp_dir().join(format!("chunkhash-store-bench-file-{}", std::process::id()));
        fs::write(&file, b"not a directory").unwrap();
        let error = measure(&plan(&file), &mut |_| ()).unwrap_err().to_string();
        let own = file.join(format!("chunkhash-store-bench-{}", std::process::id()));
        assert!(error.starts_with(&format!("{}: creating: ", own.display())), "{error}");
        fs::remove_file(&file).unwrap();
    }
}
