//! Checked settings, built from the raw flags: every combination that makes
//! no sense is refused here, with a message, before any file is touched.

#[cfg(feature = "bench")]
use crate::flags::BenchFlags;
use crate::flags::{CheckFlags, CheckOptions, Command, Flags, IoFlags, SumFlags};
use crate::format::Format;
use crate::method::{self, Algorithm, Blake3Mode, LengthError, Method};
use anyhow::{anyhow, bail, Context, Result};
use chunkhash::blake3;
#[cfg(feature = "bench")]
use chunkhash_bench::run::Plan;
use std::io::Read;
use std::path::PathBuf;

/// What to do.
#[derive(Debug)]
pub enum Task {
    /// Print the version.
    Version,
    /// Print help (no subcommand given).
    Help,
    /// Hash files.
    Sum(SumSettings),
    /// Check files.
    Check(CheckSettings),
    /// Benchmark.
    #[cfg(feature = "bench")]
    Bench(BenchSettings),
    /// `chunkhash store ...` (checked by the store module).
    Store(Box<crate::store::StoreFlags>),
    S3sum(crate::s3sum::S3sumFlags),
    Chunk(crate::chunk::ChunkFlags),
    XetHash(crate::chunk::XetHashFlags),
    Bao(crate::bao::BaoFlags),
}

/// How inputs are read.
#[derive(Clone, Copy, Debug)]
pub struct IoSettings {
    /// Memory-map large files.
    pub mmap: bool,
    /// Threads of the pool the command runs in.
    pub threads: usize,
}

impl IoSettings {
    /// Whether BLAKE3 may hash one input on several threads.
    pub fn parallel(&self) -> bool {
        self.threads > 1
    }
}

/// `sum`, checked.
#[derive(Debug)]
pub struct SumSettings {
    /// Inputs, `-` for stdin; never empty.
    pub inputs: Vec<PathBuf>,
    /// What to hash with.
    pub method: Method,
    /// Output form.
    pub format: Format,
    /// Write non-UTF-8 names as their bytes in BLAKE3 lines too (b3sum
    /// writes U+FFFD for what is not UTF-8; coreutils and xxhsum the bytes).
    pub raw_names: bool,
    /// Reading.
    pub io: IoSettings,
}

/// `check`, checked.
#[derive(Debug)]
pub struct CheckSettings {
    /// Check files, `-` for stdin; never empty.
    pub files: Vec<PathBuf>,
    /// `-a`: the algorithm for every line.
    pub forced: Option<Algorithm>,
    /// Don't print OK lines.
    pub quiet: bool,
    /// Print nothing on stdout and no summary.
    pub status_only: bool,
    /// Improperly formatted lines make the run fail (exit 1).
    pub strict: bool,
    /// Warn about each improperly formatted line.
    pub warn: bool,
    /// Missing files are neither reported nor failures.
    pub ignore_missing: bool,
    /// Reading.
    pub io: IoSettings,
}

/// `bench`, checked.
#[cfg(feature = "bench")]
#[derive(Debug)]
pub struct BenchSettings {
    /// What to measure: algorithms, sizes, batch and threads rows, rounds.
    pub plan: Plan,
    /// Write JSON here.
    pub json: Option<PathBuf>,
    /// Compare with this saved run.
    pub compare: Option<PathBuf>,
    /// Take the rows of this saved run instead of measuring.
    pub current: Option<PathBuf>,
    /// Draw an SVG here.
    pub plot: Option<PathBuf>,
    /// Testing: every time is multiplied by this.
    pub inject_slowdown: f64,
}

impl Task {
    /// Checks the flags. `stdin` supplies the key for `--keyed`.
    pub fn from_flags(flags: Flags, stdin: &mut dyn Read) -> Result<Task> {
        if flags.version {
            return Ok(Task::Version);
        }
        match flags.command {
            None => Ok(Task::Help),
            Some(Command::Sum(sum)) if sum.check => {
                let check =
                    CheckFlags { files: sum.files, algorithm: sum.algorithm, options: sum.check_options, io: sum.io };
                Ok(Task::Check(check_settings(check)?))
            }
            Some(Command::Sum(sum)) => Ok(Task::Sum(sum_settings(sum, stdin)?)),
            Some(Command::Check(check)) => Ok(Task::Check(check_settings(check)?)),
            #[cfg(feature = "bench")]
            Some(Command::Bench(bench)) => Ok(Task::Bench(bench_settings(bench)?)),
            Some(Command::Store(store)) => Ok(Task::Store(Box::new(store))),
            Some(Command::S3sum(s3sum)) => Ok(Task::S3sum(s3sum)),
            Some(Command::Chunk(chunk)) => Ok(Task::Chunk(chunk)),
            Some(Command::XetHash(xet_hash)) => Ok(Task::XetHash(xet_hash)),
            Some(Command::Bao(bao)) => Ok(Task::Bao(bao)),
        }
    }
}

fn io_settings(io: &IoFlags) -> Result<IoSettings> {
    // 0 is the default, as b3sum's `--num-threads 0`.
    let threads = match io.threads.as_deref().map(str::trim) {
        None | Some("0") => default_threads(),
        Some(text) => parse_threads(text, "-j/--threads")?,
    };
    Ok(IoSettings { mmap: !io.no_mmap, threads })
}

/// All cores, or `RAYON_NUM_THREADS` when set, as b3sum (and rayon's own
/// default pool) read it.
fn default_threads() -> usize {
    let from_env = std::env::var("RAYON_NUM_THREADS").ok().and_then(|text| text.trim().parse::<usize>().ok());
    match from_env {
        Some(n) if (1..=1024).contains(&n) => n,
        _ => std::thread::available_parallelism().map_or(1, |n| n.get()),
    }
}

fn parse_threads(text: &str, flag: &str) -> Result<usize> {
    match text.trim().parse::<usize>() {
        Ok(n) if (1..=1024).contains(&n) => Ok(n),
        _ => bail!("bad {flag} {text:?}: expected a thread count from 1 to 1024"),
    }
}

fn inputs_or_stdin(files: Vec<PathBuf>) -> Vec<PathBuf> {
    if files.is_empty() {
        vec![PathBuf::from("-")]
    } else {
        files
    }
}

fn sum_settings(flags: SumFlags, stdin: &mut dyn Read) -> Result<SumSettings> {
    // -q/--quiet is accepted and does nothing, as xxhsum's when hashing.
    let options = &flags.check_options;
    if options.status || options.strict || options.warn || options.ignore_missing {
        bail!("--status, --strict, --warn and --ignore-missing only apply to -c/--check");
    }
    let algorithm = match &flags.algorithm {
        Some(name) => method::parse_algorithm(name)?,
        None => Algorithm::Blake3,
    };
    if (flags.keyed || flags.derive_key.is_some()) && algorithm != Algorithm::Blake3 {
        bail!("--keyed and --derive-key are BLAKE3 modes; they cannot be used with {}", algorithm.name());
    }
    let Method { algorithm, out_len, .. } = match &flags.length {
        None => Method::plain(algorithm),
        Some(text) => resolve_length(algorithm, text)?,
    };
    let inputs = inputs_or_stdin(flags.files);
    // --raw wins over --tag, as in b3sum.
    let format = if flags.raw {
        if inputs.len() > 1 {
            bail!("--raw writes bytes with no names, so it takes only one input ({} given)", inputs.len());
        }
        Format::Raw
    } else if flags.tag {
        Format::Tag
    } else {
        Format::Plain
    };
    let mode = if flags.keyed {
        if inputs.iter().any(|input| input.as_os_str() == "-") {
            bail!("--keyed reads the key from standard input, so `-` cannot also be an input; name the files");
        }
        Blake3Mode::Keyed(read_key(stdin)?)
    } else if let Some(context) = flags.derive_key.clone() {
        Blake3Mode::DeriveKey(context)
    } else {
        Blake3Mode::Hash
    };
    let method = Method { algorithm, mode, out_len };
    let io = io_settings(&flags.io)?;
    Ok(SumSettings { inputs, method, format, raw_names: flags.raw_names, io })
}

/// `-l LEN` for an algorithm: always bytes, under the length rule of
/// [`Method::with_length`] (BLAKE2b's length picks BLAKE2b-256 or -512 at
/// 32 and 64, as b2sum's `-l 256` and `-l 512`). The error names the
/// lengths that work.
pub fn resolve_length(algorithm: Algorithm, text: &str) -> Result<Method> {
    let len: usize = text.trim().parse().map_err(|_| anyhow!("bad -l/--length {text:?}: expected a byte count"))?;
    Method::with_length(algorithm, len).map_err(|error| {
        let name = if method::is_blake2b(algorithm) { "BLAKE2b" } else { algorithm.name() };
        let gives = method::lengths_text(algorithm);
        match error {
            LengthError::OutOfRange if method::is_blake2b(algorithm) => {
                anyhow!("bad -l/--length {len}: {name} gives {gives} (-l counts bytes: b2sum's -l 512 is -l 64)")
            }
            LengthError::OutOfRange => anyhow!("bad -l/--length {len}: {name} gives {gives} (-l counts bytes)"),
            LengthError::Fixed => anyhow!(
                "bad -l/--length {len}: {name} gives {gives} (-l counts bytes; BLAKE3 gives {}, BLAKE2b {})",
                method::lengths_text(Algorithm::Blake3),
                method::lengths_text(Algorithm::Blake2b512)
            ),
        }
    })
}

/// Reads exactly 32 key bytes, as b3sum does: fewer or more is an error.
pub fn read_key(stdin: &mut dyn Read) -> Result<[u8; blake3::KEY_LEN]> {
    let mut key = Vec::with_capacity(blake3::KEY_LEN + 1);
    stdin.take(blake3::KEY_LEN as u64 + 1).read_to_end(&mut key).context("reading the key from standard input")?;
    match key.len() {
        n if n < blake3::KEY_LEN => {
            bail!("--keyed: expected {} key bytes on standard input, found {n}", blake3::KEY_LEN)
        }
        n if n > blake3::KEY_LEN => bail!("--keyed: read more than {} key bytes from standard input", blake3::KEY_LEN),
        _ => Ok(key.try_into().expect("length checked")),
    }
}

fn check_settings(flags: CheckFlags) -> Result<CheckSettings> {
    let forced = flags.algorithm.as_deref().map(method::parse_algorithm).transpose()?;
    let CheckOptions { quiet, status, strict, warn, ignore_missing } = flags.options;
    Ok(CheckSettings {
        files: inputs_or_stdin(flags.files),
        forced,
        quiet,
        status_only: status,
        strict,
        warn,
        ignore_missing,
        io: io_settings(&flags.io)?,
    })
}

/// The default sizes: a small record, a 1 KiB and a 4 KiB block (btrfs's
/// table), a 64 KiB chunk and 1 MiB.
#[cfg(feature = "bench")]
pub const DEFAULT_SIZES: [usize; 5] = [64, 1024, 4096, 64 * 1024, 1 << 20];

#[cfg(feature = "bench")]
fn bench_settings(flags: BenchFlags) -> Result<BenchSettings> {
    let algorithms = match flags.algorithms.as_deref().map(str::trim) {
        None | Some("all") => Algorithm::all().to_vec(),
        Some(list) => {
            let mut algorithms = Vec::new();
            for name in list.split(',').map(str::trim).filter(|name| !name.is_empty()) {
                let algorithm = method::parse_algorithm(name)?;
                if !algorithms.contains(&algorithm) {
                    algorithms.push(algorithm);
                }
            }
            if algorithms.is_empty() {
                bail!(
                    "bad -a/--algorithms {list:?}: no algorithm named; valid algorithms are: {}",
                    method::valid_names()
                );
            }
            algorithms
        }
    };
    let sizes = match &flags.sizes {
        None => DEFAULT_SIZES.to_vec(),
        Some(list) => parse_sizes(list)?,
    };
    let threads = match &flags.threads {
        None => 1,
        Some(text) => parse_threads(text, "--threads")?,
    };
    let rounds = match flags.rounds.trim().parse::<usize>() {
        Ok(n) if (1..=1000).contains(&n) => n,
        _ => bail!("bad --rounds {:?}: expected 1 to 1000", flags.rounds),
    };
    let slice_ms = match flags.slice_ms.trim().parse::<u64>() {
        Ok(n) if (1..=10_000).contains(&n) => n,
        _ => bail!("bad --slice-ms {:?}: expected 1 to 10000", flags.slice_ms),
    };
    let inject_slowdown = match &flags.inject_slowdown {
        None => 1.0,
        Some(text) => match text.trim().parse::<f64>() {
            Ok(factor) if factor.is_finite() && factor > 0.0 => factor,
            _ => bail!("bad --inject-slowdown {text:?}: expected a positive factor"),
        },
    };
    Ok(BenchSettings {
        plan: Plan { algorithms, sizes, batch: flags.batch, threads, rounds, slice_ms },
        json: flags.json,
        compare: flags.compare,
        current: flags.current,
        plot: flags.plot,
        inject_slowdown,
    })
}

/// The largest size `--sizes` accepts: the benchmark holds one input of the
/// largest size in memory (and the batch rows a few more).
#[cfg(feature = "bench")]
pub const MAX_BENCH_SIZE: usize = 256 << 20;

/// Parses `--sizes`: comma-separated sizes with optional B/K/KiB/M/MiB.
#[cfg(feature = "bench")]
pub fn parse_sizes(list: &str) -> Result<Vec<usize>> {
    let mut sizes = Vec::new();
    for item in list.split(',') {
        if item.trim().is_empty() {
            bail!("bad --sizes {list:?}: empty item");
        }
        let size = chunkhash_store::parse_size(item).map_err(|e| anyhow!("bad --sizes {list:?}: {e}"))?;
        if size == 0 || size > MAX_BENCH_SIZE {
            bail!("bad --sizes {list:?}: sizes go from 1 B to 256 MiB");
        }
        if !sizes.contains(&size) {
            sizes.push(size);
        }
    }
    Ok(sizes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn key_must_be_exactly_32_bytes() {
        assert_eq!(read_key(&mut &[7u8; 32][..]).unwrap(), [7u8; 32]);
        let short = read_key(&mut &[7u8; 31][..]).unwrap_err().to_string();
        assert!(short.contains("found 31"), "{short}");
        let long = read_key(&mut &[7u8; 33][..]).unwrap_err().to_string();
        assert!(long.contains("more than 32"), "{long}");
    }

    #[test]
    fn lengths_are_bytes() {
        let resolved = |algorithm, text| resolve_length(algorithm, text).map(|m| (m.algorithm, m.out_len));
        assert_eq!(resolved(Algorithm::Blake3, "64").unwrap(), (Algorithm::Blake3, 64));
        assert_eq!(resolved(Algorithm::Blake2b512, "32").unwrap(), (Algorithm::Blake2b256, 32));
        assert_eq!(resolved(Algorithm::Blake2b512, "48").unwrap(), (Algorithm::Blake2b512, 48));
        let blake2b = resolve_length(Algorithm::Blake2b512, "512").unwrap_err().to_string();
        assert!(blake2b.contains("1 to 64 bytes") && blake2b.contains("-l 64"), "{blake2b}");
        let sha = resolve_length(Algorithm::Sha256, "64").unwrap_err().to_string();
        assert!(sha.contains("32 bytes only") && sha.contains("BLAKE2b 1 to 64"), "{sha}");
        assert!(resolve_length(Algorithm::Blake3, "0").is_err());
        assert!(resolve_length(Algorithm::Blake3, "-1").is_err());
        assert!(resolve_length(Algorithm::Blake3, "abc").is_err());
        assert!(resolve_length(Algorithm::Blake3, &(method::MAX_LENGTH + 1).to_string()).is_err());
    }

    #[cfg(feature = "bench")]
    #[test]
    fn sizes_parse_and_bad_ones_are_refused() {
        assert_eq!(parse_sizes("64,4K, 1MiB").unwrap(), vec![64, 4096, 1 << 20]);
        assert!(parse_sizes("").is_err());
        assert!(parse_sizes("64,,4K").is_err());
        assert!(parse_sizes("0").is_err());
        assert!(parse_sizes("12 parsecs").is_err());
        assert!(parse_sizes("1024M").is_err());
    }
}
