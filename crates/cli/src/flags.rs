//! The raw command line as clap parses it. Nothing here is checked beyond
//! its type; `settings.rs` turns these flags into validated settings.

use crate::method::{short_names, Algorithm};
use clap::{Args, Parser, Subcommand};
use std::path::PathBuf;

/// Hash, check and benchmark files: BLAKE3 by default, and the storage
/// checksums of the chunkhash registry.
#[derive(Debug, Parser)]
#[command(name = "chunkhash", disable_version_flag = true, max_term_width = 100)]
pub struct Flags {
    /// Print the version, the SIMD backends compiled in and the one detected
    #[arg(short = 'V', long)]
    pub version: bool,

    #[command(subcommand)]
    pub command: Option<Command>,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Print checksums: `HEX  NAME` lines (b3sum, coreutils, xxhsum) or `--tag` lines
    #[command(after_long_help = SUM_HELP)]
    Sum(SumFlags),
    /// Check files against checksum lines of chunkhash, b3sum, xxhsum, sha256sum, sha512sum or b2sum
    #[command(after_long_help = CHECK_HELP)]
    Check(CheckFlags),
    /// Measure ns/op, MB/s and cycles/byte per algorithm and input size
    #[command(after_long_help = BENCH_HELP)]
    Bench(BenchFlags),
    /// A content-addressed chunk store: init, put, get, ls, verify, stats, reindex, bench
    Store(crate::store::StoreFlags),
}

const SUM_HELP: &str = "\
With no FILE, or when FILE is -, read standard input.

-l/--length counts bytes for every algorithm (as b3sum does; b2sum's -l counts
bits): BLAKE3 gives any length from 1 to 16777216 bytes (extended output),
BLAKE2b takes 32 or 64 (BLAKE2b-256 and BLAKE2b-512), and any other algorithm
only its own digest length.

Names holding a backslash, newline or carriage return are escaped as coreutils
does: `\\\\`, `\\n`, `\\r`, and the line starts with a backslash.

With BLAKE3 on more than one thread (-j, default: all cores), files of 4 MiB
and more are memory-mapped (unless --no-mmap) and hashed on all threads; other
files are read. Many small files go through the batch path.

Exit status: 0 if every file was hashed, 1 if any could not be read (or is a
directory), 2 for bad usage.";

const CHECK_HELP: &str = "\
Each line is `HEX  NAME`, `HEX *NAME` or `TAG (NAME) = HEX`, optionally starting
with a backslash when NAME is escaped. Blank lines and lines starting with `#`
are skipped. The algorithm comes from the tag (BLAKE3, SHA256, BLAKE2b-256,
XXH64, XXH3, XXH128_LE, ...), from the `XXH3_` prefix xxhsum writes, or from
the digest length. When several algorithms share a length (32 bytes: BLAKE3,
SHA-256, BLAKE2b-256), the first such line of a check file is hashed with each
and the one that matches is used for the rest of that file. -a forces one.

Prints `NAME: OK`, `NAME: FAILED` or `NAME: FAILED open or read`; warnings and
a summary go to stderr.

Exit status: 0 if every listed file matched, 1 if any mismatched or could not
be read, 2 if a check file had no properly formatted line, or any improperly
formatted line under --strict, or for bad usage.";

const BENCH_HELP: &str = "\
Each algorithm and size is one row: the median over --rounds interleaved rounds
(every round runs each row for about --slice-ms), reported as ns/op, MB/s
(10^6 bytes per second), cycles/byte (at the core clock measured at start) and
the backend used. Rows with --batch hash many inputs of the size per call; rows
with --threads N > 1 hash each input on N threads (BLAKE3 only).

Noise and --compare: a row's noise is the interquartile range of its rounds
divided by its median. Against a saved run, a row whose median time grew by
more than max(5%, 2 x (base noise + new noise)) is marked REGRESSION, and the
command exits 3. A row that got faster by as much is marked faster.

--json writes: {\"tool\", \"version\", \"backend\", \"core_ghz\", \"threads\",
\"rounds\", \"slice_ms\", \"rows\": [{\"algorithm\", \"size\", \"mode\" (single,
batch or threads), \"threads\", \"batch_inputs\", \"ns_per_op\", \"mb_per_s\",
\"cycles_per_byte\", \"noise\", \"backend\", \"rounds_ns\"}]}. ns_per_op is per
input, also in batch rows.

The default run (every algorithm, 64 B to 1 MiB) takes well under a minute.";

/// `chunkhash sum`.
#[derive(Debug, Args)]
pub struct SumFlags {
    /// Files to hash (- or none: standard input)
    #[arg(value_name = "FILE")]
    pub files: Vec<PathBuf>,

    // The help lists the registry's algorithms, from its table.
    #[arg(short = 'a', long = "algorithm", value_name = "ALGO", help = format!(
        "Algorithm: {} (tool names like sha256sum or b2sum work too)",
        short_names(Some(Algorithm::Blake3))
    ))]
    pub algorithm: Option<String>,

    /// Output bytes (BLAKE3 extended output); see below for other algorithms
    #[arg(short = 'l', long = "length", value_name = "LEN", allow_hyphen_values = true)]
    pub length: Option<String>,

    /// BSD-style lines: `ALGO (FILE) = HEX`
    #[arg(long)]
    pub tag: bool,

    /// Write the raw digest bytes to stdout (one input only)
    #[arg(long, conflicts_with = "tag")]
    pub raw: bool,

    /// BLAKE3 keyed mode: read the 32-byte key from standard input
    #[arg(long)]
    pub keyed: bool,

    /// BLAKE3 key derivation mode with this context string
    #[arg(long, value_name = "CONTEXT", conflicts_with = "keyed")]
    pub derive_key: Option<String>,

    /// Read checksum lines from the FILEs and check them (as `chunkhash check`)
    #[arg(short = 'c', long, conflicts_with_all = ["length", "tag", "raw", "keyed", "derive_key"])]
    pub check: bool,

    #[command(flatten)]
    pub check_options: CheckOptions,

    #[command(flatten)]
    pub io: IoFlags,
}

/// `chunkhash check`.
#[derive(Debug, Args)]
pub struct CheckFlags {
    /// Check files (- or none: standard input)
    #[arg(value_name = "FILE")]
    pub files: Vec<PathBuf>,

    #[arg(short = 'a', long = "algorithm", value_name = "ALGO", help = format!(
        "Use this algorithm for every line instead of inferring it: {}",
        short_names(None)
    ))]
    pub algorithm: Option<String>,

    #[command(flatten)]
    pub options: CheckOptions,

    #[command(flatten)]
    pub io: IoFlags,
}

/// What `check` prints and what makes it fail.
#[derive(Debug, Args)]
pub struct CheckOptions {
    /// Don't print OK for each file that matches
    #[arg(short = 'q', long)]
    pub quiet: bool,

    /// Print nothing on stdout and no summary; the exit status tells
    #[arg(long)]
    pub status: bool,

    /// Exit 2 if any line is improperly formatted
    #[arg(long)]
    pub strict: bool,

    /// Warn about each improperly formatted line
    #[arg(short = 'w', long)]
    pub warn: bool,

    /// Don't fail or report for listed files that don't exist
    #[arg(long)]
    pub ignore_missing: bool,
}

/// How files are read.
#[derive(Debug, Args)]
pub struct IoFlags {
    /// Threads for hashing (default: all cores; 1: single-threaded)
    #[arg(short = 'j', long = "threads", visible_alias = "num-threads", value_name = "N")]
    pub threads: Option<String>,

    /// Read files instead of memory-mapping them (this also makes BLAKE3 single-threaded)
    #[arg(long)]
    pub no_mmap: bool,
}

/// `chunkhash bench`.
#[derive(Debug, Args)]
pub struct BenchFlags {
    /// Comma-separated algorithms, or `all` (the default)
    #[arg(short = 'a', long = "algorithms", value_name = "ALGOS")]
    pub algorithms: Option<String>,

    /// Comma-separated input sizes: 64, 4K, 1MiB (default: 64,1K,4K,64K,1M)
    #[arg(long, value_name = "LIST", allow_hyphen_values = true)]
    pub sizes: Option<String>,

    /// Also measure BLAKE3 on many inputs per call (the batch path)
    #[arg(long)]
    pub batch: bool,

    /// Also measure BLAKE3 multi-threaded on N threads
    #[arg(long, value_name = "N")]
    pub threads: Option<String>,

    /// Write the results as JSON to FILE
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,

    /// Compare with a saved --json run; exit 3 if any row regressed beyond the noise
    #[arg(long, value_name = "BASE.json")]
    pub compare: Option<PathBuf>,

    /// Use the rows of a saved --json run instead of measuring (for --compare)
    #[arg(long, value_name = "RUN.json")]
    pub current: Option<PathBuf>,

    /// Draw throughput against input size per algorithm as SVG
    #[arg(long, value_name = "FILE.svg")]
    pub plot: Option<PathBuf>,

    /// Timed rounds per row (the median is over these)
    #[arg(long, value_name = "N", default_value = "9")]
    pub rounds: String,

    /// Milliseconds each row runs per round
    #[arg(long, value_name = "MS", default_value = "20")]
    pub slice_ms: String,

    /// Testing only: multiply every measured time by FACTOR
    #[arg(long, value_name = "FACTOR", hide = true)]
    pub inject_slowdown: Option<String>,
}

/// Parses the process's arguments; on a usage error prints it and exits 2,
/// on --help prints it and exits 0 (clap's own behaviour).
pub fn parse() -> Flags {
    Flags::parse()
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn definitions_are_consistent() {
        Flags::command().debug_assert();
    }

    /// The algorithm lists in the help name every algorithm, each once.
    #[test]
    fn help_lists_every_algorithm() {
        let command = Flags::command();
        for subcommand in ["sum", "check"] {
            let help = command.find_subcommand(subcommand).unwrap().get_arguments().find(|a| a.get_id() == "algorithm");
            let help = help.unwrap().get_help().unwrap().to_string();
            let list = help.split_once(':').unwrap().1.split(" (tool").next().unwrap();
            let mut named: Vec<Algorithm> = list
                .split(',')
                .map(|name| name.trim().trim_end_matches(" (default)"))
                .map(|name| crate::method::parse_algorithm(name).unwrap())
                .collect();
            named.sort();
            assert_eq!(named, Algorithm::all(), "{subcommand}: {help}");
        }
    }
}
