//! The raw command line as clap parses it. Nothing here is checked beyond
//! its type; `settings.rs` turns these flags into validated settings.

use crate::method::{short_names, Algorithm};
use clap::{Args, CommandFactory, Parser, Subcommand};
use std::ffi::OsString;
use std::path::{Path, PathBuf};

/// Hash, check and benchmark files: BLAKE3 by default, and the storage
/// checksums of the chunkhash registry.
#[derive(Debug, Parser)]
#[command(name = "chunkhash", disable_version_flag = true, max_term_width = 100, after_help = TOP_HELP)]
pub struct Flags {
    /// Print the version, the SIMD backends compiled in and the one detected
    #[arg(short = 'V', long)]
    pub version: bool,

    #[command(subcommand)]
    pub command: Option<Command>,
}

/// The subcommands. A repeated option takes its last value, as in the
/// peers (`-l 32 -l 64`, `--tag --tag`); the usage line of an error is the
/// general one, not the options just given (which would read as required).
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Print checksums: `HEX  NAME` lines (b3sum, coreutils, xxhsum) or `--tag` lines
    #[command(after_long_help = SUM_HELP, args_override_self = true, override_usage = SUM_USAGE)]
    Sum(SumFlags),
    /// Check files against checksum lines of chunkhash, b3sum, xxhsum, coreutils or OpenSSL
    #[command(after_long_help = CHECK_HELP, args_override_self = true, override_usage = CHECK_USAGE)]
    Check(CheckFlags),
    /// Measure ns/op, MB/s and cycles/byte per algorithm and input size
    #[cfg(feature = "bench")]
    #[command(after_long_help = BENCH_HELP, args_override_self = true, override_usage = BENCH_USAGE)]
    Bench(BenchFlags),
    /// A content-addressed chunk store: init, put, get, ls, verify, stats, reindex, bench
    #[command(args_override_self = true)]
    Store(crate::store::StoreFlags),
    /// Every S3 checksum of files (CRC32 ... XXHASH128, ETag), as S3 reports them
    #[command(args_override_self = true)]
    S3sum(crate::s3sum::S3sumFlags),
    /// Content-defined chunks of files (Xet's or FastCDC's) with their addresses
    #[command(args_override_self = true)]
    Chunk(crate::chunk::ChunkFlags),
    /// Xet file hashes, as the Hugging Face Hub shows them (`xetHash`)
    #[command(args_override_self = true)]
    XetHash(crate::chunk::XetHashFlags),
    /// Verified streaming, as the bao command: hash, encode, decode, slice, decode-slice
    #[command(args_override_self = true)]
    Bao(crate::bao::BaoFlags),
}

/// The subcommand a command line without one runs: `chunkhash FILE` is
/// `chunkhash sum FILE`, as `b3sum FILE`.
const DEFAULT_COMMAND: &str = "sum";

const TOP_HELP: &str = "\
`chunkhash FILE...` and `chunkhash -a ALGO FILE...` are `chunkhash sum`.";

const SUM_USAGE: &str = "chunkhash sum [OPTIONS] [FILE]...\n       chunkhash [OPTIONS] [FILE]...";
const CHECK_USAGE: &str = "chunkhash check [OPTIONS] [FILE]...\n       chunkhash sum -c [OPTIONS] [FILE]...";
#[cfg(feature = "bench")]
const BENCH_USAGE: &str = "chunkhash bench [OPTIONS]";

const SUM_HELP: &str = "\
With no FILE, or when FILE is -, read standard input.

-l/--length counts bytes for every algorithm (as b3sum does; b2sum's -l counts
bits): BLAKE3 gives any length from 1 to 16777216 bytes (extended output),
BLAKE2b 1 to 64 (b2sum's -l 8 to -l 512; 32 is BLAKE2b-256, 64 BLAKE2b-512),
and any other algorithm only its own digest length.

Names holding a backslash, newline or carriage return are escaped as coreutils,
b3sum and xxhsum do: `\\\\`, `\\n`, `\\r`, and the line starts with a backslash.
In BLAKE3 lines a name that is not UTF-8 is written as b3sum writes it, with
U+FFFD for the bytes that are not (--raw-names: the bytes, as coreutils). With
an xxHash algorithm, standard input is named `stdin`, as xxhsum names it.

With BLAKE3 on more than one thread (-j, default: all cores), files of 4 MiB
and more are memory-mapped (unless --no-mmap) and hashed on all threads; other
files are read. Many small files go through the batch path.

Exit status: 0 if every file was hashed, 1 if any could not be read (or is a
directory), 2 for bad usage.";

const CHECK_HELP: &str = "\
Each line is `HEX  NAME`, `HEX *NAME`, `HEX NAME` (BSD `md5 -r`; one check file
uses one of the untagged forms, as in coreutils), `TAG (NAME) = HEX` or
OpenSSL's `TAG(NAME)= HEX`, optionally starting with a backslash when NAME is
escaped. Blank lines and lines starting with `#` are skipped. The algorithm
comes from the tag (BLAKE3, SHA256, BLAKE2b-128, XXH64, XXH3, XXH128_LE, ...),
from the `XXH3_` prefix xxhsum writes, or from the digest length: an untagged
line of N bytes may be BLAKE3 (b3sum -l N), BLAKE2b (b2sum -l 8N), and any
algorithm of that length, xxHash ones in either byte order (xxhsum
--little-endian). The first line of a length that matches one of them fixes it
for the rest of that check file; a line that matches none, when no line of its
length did, is reported as `cannot determine the algorithm (use -a)` and counted
as improperly formatted, not as FAILED. -a forces one algorithm. md5sum and
sha1sum files are checked (MD5 and SHA-1, for compatibility); SHA-224, SHA-384
and SM3, which chunkhash lacks, are reported as unsupported.

A line named `-` reads standard input, and so does a line named `stdin` that
xxhsum may have written (an xxHash tag, the XXH3_ prefix, or 4, 8 or 16 bytes).

Prints `NAME: OK`, `NAME: FAILED` or `NAME: FAILED open or read`; a NAME holding
a backslash, newline or carriage return is escaped, after a backslash (as b3sum
and xxhsum do). Warnings and a summary go to stderr. Of --quiet, --status and
--warn the last one given wins, as in coreutils.

Exit status: 0 if every listed file matched, 1 if any mismatched or could not
be read, or a check file had no properly formatted line, or any improperly
formatted line under --strict; 2 for bad usage.";

#[cfg(feature = "bench")]
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

    /// Write the raw digest bytes to stdout (one input only; wins over --tag, as in b3sum)
    #[arg(long)]
    pub raw: bool,

    /// Write names that are not UTF-8 as their bytes in BLAKE3 lines too (b3sum writes U+FFFD)
    #[arg(long)]
    pub raw_names: bool,

    /// BLAKE3 keyed mode: read the 32-byte key from standard input
    #[arg(long)]
    pub keyed: bool,

    /// BLAKE3 key derivation mode with this context string
    #[arg(long, value_name = "CONTEXT", conflicts_with = "keyed")]
    pub derive_key: Option<String>,

    /// Read checksum lines from the FILEs and check them (as `chunkhash check`)
    #[arg(short = 'c', long, conflicts_with_all = ["length", "tag", "raw", "raw_names", "keyed", "derive_key"])]
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

/// What `check` prints and what makes it fail. Of --quiet, --status and
/// --warn the last one given wins, as in coreutils.
#[derive(Debug, Args)]
pub struct CheckOptions {
    /// Don't print OK for each file that matches (accepted and ignored when hashing, as in xxhsum)
    #[arg(short = 'q', long, overrides_with_all = ["status", "warn"])]
    pub quiet: bool,

    /// Print nothing on stdout and no summary; the exit status tells
    #[arg(long, overrides_with_all = ["quiet", "warn"])]
    pub status: bool,

    /// Exit 1 if any line is improperly formatted
    #[arg(long)]
    pub strict: bool,

    /// Warn about each improperly formatted line
    #[arg(short = 'w', long, overrides_with_all = ["quiet", "status"])]
    pub warn: bool,

    /// Don't fail or report for listed files that don't exist
    #[arg(long)]
    pub ignore_missing: bool,
}

/// How files are read.
#[derive(Debug, Args)]
pub struct IoFlags {
    /// Threads for hashing (default or 0: all cores, or RAYON_NUM_THREADS; 1: single-threaded)
    #[arg(short = 'j', long = "threads", visible_alias = "num-threads", value_name = "N")]
    pub threads: Option<String>,

    /// Read files instead of memory-mapping them (this also makes BLAKE3 single-threaded)
    #[arg(long)]
    pub no_mmap: bool,
}

/// `chunkhash bench`.
#[cfg(feature = "bench")]
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
    let args = with_default_command(std::env::args_os().collect());
    match Flags::try_parse_from(&args) {
        Ok(flags) => flags,
        Err(error) if error.kind() == clap::error::ErrorKind::InvalidSubcommand => {
            let name = args.get(1).map(|arg| arg.to_string_lossy().into_owned()).unwrap_or_default();
            let _ = error.print();
            eprintln!("note: no file named '{name}' either; to hash files: chunkhash sum FILE...");
            std::process::exit(crate::status::EXIT_USAGE.into());
        }
        Err(error) => error.exit(),
    }
}

/// The command line with `sum` put in front of the arguments when no
/// subcommand is given but a file or an option is (`chunkhash FILE`,
/// `chunkhash --tag FILE`, `chunkhash -`). A first word that is neither a
/// subcommand nor an existing file is left for clap to refuse, so a typo of
/// a subcommand is not read as a missing file.
pub fn with_default_command(mut args: Vec<OsString>) -> Vec<OsString> {
    let Some(first) = args.get(1) else { return args };
    let command = Flags::command();
    let text = first.to_string_lossy();
    let is_subcommand = text == "help" || command.get_subcommands().any(|sub| sub.get_name() == text);
    let is_top_level_flag = matches!(text.as_ref(), "-V" | "--version" | "-h" | "--help");
    let is_input = text.starts_with('-') || Path::new(first).exists();
    if !is_subcommand && !is_top_level_flag && is_input {
        args.insert(1, OsString::from(DEFAULT_COMMAND));
    }
    args
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_or_an_option_first_means_sum() {
        let with = |args: &[&str]| {
            let args = args.iter().map(OsString::from).collect();
            with_default_command(args).iter().map(|a| a.to_string_lossy().into_owned()).collect::<Vec<_>>()
        };
        assert_eq!(with(&["chunkhash", "Cargo.toml"]), ["chunkhash", "sum", "Cargo.toml"]);
        assert_eq!(with(&["chunkhash", "-a", "sha256", "x"]), ["chunkhash", "sum", "-a", "sha256", "x"]);
        assert_eq!(with(&["chunkhash", "-"]), ["chunkhash", "sum", "-"]);
        for kept in [&["chunkhash"][..], &["chunkhash", "check", "x"], &["chunkhash", "-V"], &["chunkhash", "chek"]] {
            assert_eq!(with(kept), kept, "{kept:?}");
        }
    }

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
