//! `chunkhash store ...`: the command line of `chunkhash-store`. Flags,
//! output and exit codes only; the store itself is the library.
//!
//! Exit status: 0 on success; 1 when the store is damaged (`verify` found
//! a problem, `get` met a damaged chunk) or an input could not be read or
//! changed while read; 2 for usage errors (no store given, not a store, an
//! unknown snapshot, another writer, a store of another algorithm).

#[cfg(feature = "bench")]
mod bench;
#[cfg(feature = "bench")]
mod bench_kv;

use crate::input::Progress;
use crate::status::Printer;
use anyhow::{anyhow, bail, Result};
use chunkhash::Algorithm;
use chunkhash_store::object::Node;
use chunkhash_store::{ChunkerSettings, CreateOptions, Error, GetOptions, Hashing, OpenOptions, PutOptions, Store};
use clap::{Args, Subcommand};
use std::io::Write;
use std::num::NonZeroUsize;
use std::path::{Path, PathBuf};

/// The environment variable naming the store when `--store` is not given.
pub const STORE_ENV: &str = "CHUNKHASH_STORE";

/// `chunkhash store`.
#[derive(Debug, Args)]
#[command(after_long_help = STORE_HELP)]
pub struct StoreFlags {
    /// The store: a directory, or s3://BUCKET/PREFIX (default: $CHUNKHASH_STORE)
    #[arg(long, global = true, value_name = "DIR|URL")]
    pub store: Option<PathBuf>,

    /// The S3 endpoint of an s3:// store, e.g. http://127.0.0.1:8333 (default:
    /// $AWS_ENDPOINT_URL_S3, $AWS_ENDPOINT_URL, else AWS in $AWS_REGION)
    #[arg(long, global = true, value_name = "URL")]
    pub s3_endpoint: Option<String>,

    /// The checksum every S3 upload carries, computed as packs are written:
    /// crc64nvme (default), crc32c, crc32, sha256 or xxhash3
    #[arg(long, global = true, value_name = "KIND")]
    pub s3_checksum: Option<String>,

    /// S3 packs longer than SIZE go up in parts of SIZE (default 8M; 5M at least)
    #[arg(long, global = true, value_name = "SIZE")]
    pub s3_part_size: Option<String>,

    /// S3: fail a connection that moves no byte for this long, then retry
    /// (default 60s; e.g. 30s, 500ms)
    #[arg(long, global = true, value_name = "TIME", value_parser = parse_time)]
    pub s3_timeout: Option<std::time::Duration>,

    /// S3: the longest a connect may take (default 10s)
    #[arg(long, global = true, value_name = "TIME", value_parser = parse_time)]
    pub s3_connect_timeout: Option<std::time::Duration>,

    /// S3: tries per request on timeouts, dropped connections and 5xx, the
    /// first included (default 5; 1 = no retries)
    #[arg(long, global = true, value_name = "N")]
    pub s3_tries: Option<u32>,

    /// Benchmarking only: upload to S3 without a checksum header
    #[arg(long, global = true, hide = true, conflicts_with = "s3_checksum")]
    pub s3_no_checksum: bool,

    /// init: the address algorithm, blake3-160 (default), blake3, sha512-160, sha256 or
    /// blake2b-256; other commands: fail unless the store uses it
    #[arg(short = 'a', long, global = true, value_name = "ALGO")]
    pub algorithm: Option<String>,

    #[command(subcommand)]
    pub command: StoreCommand,
}

const STORE_HELP: &str = "\
A store is a directory of packs (chunks sealed with CRC32C trailers), index
files and snapshot pointers; see the chunkhash-store crate docs for the format.
One writer at a time (put, reindex); any number of readers alongside.

--store s3://BUCKET/PREFIX keeps the same files as objects on S3-compatible
storage (credentials and region from AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY,
AWS_SESSION_TOKEN, AWS_REGION; anonymous when none are set). Every upload
carries a checksum chunkhash computes as it writes the packs (--s3-checksum:
x-amz-checksum-crc64nvme by default); packs longer than --s3-part-size go up
as multipart uploads (full-object CRCs, composite SHA-256 and XXHASH3). Every
download is checked against the checksum the server stored, of whichever kind
the object carries (none comes back for XXHASH3 from SeaweedFS: then the
records' trailers and addresses are what is checked, as on disk). The
manifest and snapshot pointers are written with If-None-Match: *, so writers
need no lock. reindex works on directories only. https:// endpoints use the
system's trusted certificates. A request that times out (--s3-timeout without
a byte moving, --s3-connect-timeout to connect), loses its connection or gets
HTTP 5xx is tried again, up to --s3-tries times in all, after a random wait
that doubles at each try (from up to 0.2 s); messages never show the signed
request URL or the credentials.

Exit status: 0 on success; 1 when the store is damaged (verify found a problem,
get met a damaged chunk) or an input could not be read or changed while read;
2 for usage errors (no store, not a store, unknown snapshot, another writer).";

/// The store subcommands.
#[derive(Debug, Subcommand)]
pub enum StoreCommand {
    /// Create a store in a new or empty directory
    Init(InitFlags),
    /// Store files and directories as a new snapshot; its address is the last line of stdout
    Put(PutFlags),
    /// Restore a snapshot into a new or empty directory, verifying every chunk; or, with --range,
    /// write a byte range of one file to stdout
    Get {
        /// The snapshot: its address, or at least its first 4 hex digits
        snapshot: String,
        /// Where to restore it (with --range: the file's path inside the snapshot)
        dest: PathBuf,
        /// Restore the setuid, setgid and sticky bits as stored (as tar's -p); off by default
        #[arg(long)]
        preserve_special_bits: bool,
        /// Write bytes START..END (END excluded, capped at the file's size; START.. to the end) of
        /// the file DEST to stdout, reading only the chunks they need and verifying them against
        /// the file's BLAKE3 root (recorded by put --roots)
        #[arg(long, value_name = "START..END", value_parser = parse_range)]
        range: Option<std::ops::Range<u64>>,
    },
    /// List the snapshots, or the entries of one snapshot
    Ls {
        /// The snapshot (none: list every snapshot)
        snapshot: Option<String>,
    },
    /// Read and check every record; name each damaged chunk and its files (exit 1 if any)
    Verify,
    /// Chunks, bytes, dedup ratio and the chunk size distribution
    Stats,
    /// Rebuild the index from the packs alone
    Reindex,
    /// Ingest a generated corpus with each address algorithm and hashing mode
    #[cfg(feature = "bench")]
    #[command(after_long_help = bench::BENCH_HELP)]
    Bench(bench::BenchFlags),
    /// Run the prolly map's workloads (sysbench inserts, key updates, proofs) with each hashing method
    #[cfg(feature = "bench")]
    #[command(name = "bench-kv", after_long_help = bench_kv::BENCH_KV_HELP)]
    BenchKv(bench_kv::BenchKvFlags),
}

/// `store init`.
#[derive(Debug, Args)]
pub struct InitFlags {
    /// The trailer checksum of every record (default: crc32c; any registry algorithm)
    #[arg(long, value_name = "ALGO")]
    pub trailer: Option<String>,
    /// Smallest chunk (default 16K)
    #[arg(long, value_name = "SIZE")]
    pub chunk_min: Option<String>,
    /// Average chunk (default 64K)
    #[arg(long, value_name = "SIZE")]
    pub chunk_avg: Option<String>,
    /// Largest chunk (default 256K)
    #[arg(long, value_name = "SIZE")]
    pub chunk_max: Option<String>,
}

/// `store put`.
#[derive(Debug, Args)]
pub struct PutFlags {
    /// Files, directories and symbolic links to store
    #[arg(value_name = "PATH", required = true)]
    pub paths: Vec<PathBuf>,
    /// How BLAKE3 addresses are computed: batch (default), per-chunk or portable
    #[arg(long, value_name = "MODE", default_value = "batch")]
    pub hashing: String,
    /// Don't fsync (faster; a crash of the process is still safe, a power cut may not be)
    #[arg(long)]
    pub no_fsync: bool,
    /// Threads that read, chunk and hash files (default: one per core); the store's files are the
    /// same for every N
    #[arg(long, value_name = "N")]
    pub threads: Option<NonZeroUsize>,
    /// Record each file's BLAKE3 root (as b3sum prints it) and a Bao outboard (16 KiB chunk
    /// groups), for `ls` and verified `get --range` reads; one more BLAKE3 pass over the data
    #[arg(long)]
    pub roots: bool,
    /// Testing only: seal packs at SIZE instead of 32 MiB, so that a small put fills several
    #[arg(long, value_name = "SIZE", hide = true)]
    pub pack_target: Option<String>,
}

/// Runs `chunkhash store ...`.
pub fn run(flags: StoreFlags, printer: &mut Printer) -> Result<()> {
    let expect = flags.algorithm.as_deref().map(parse_algorithm).transpose()?;
    #[cfg(feature = "bench")]
    if let StoreCommand::Bench(bench) = &flags.command {
        return bench::run(bench, printer);
    }
    #[cfg(feature = "bench")]
    if let StoreCommand::BenchKv(bench) = &flags.command {
        return bench_kv::run(bench, printer);
    }
    let path = match flags.store.or_else(|| std::env::var_os(STORE_ENV).map(PathBuf::from)) {
        Some(path) => path,
        None => bail!("no store given: use --store DIR or set {STORE_ENV}"),
    };
    let s3_checksum = match (&flags.s3_checksum, flags.s3_no_checksum) {
        (_, true) => None,
        (Some(name), false) => Some(chunkhash_store::location::upload::parse_kind(name)?),
        (None, false) => Some(chunkhash_store::location::s3::DEFAULT_CHECKSUM),
    };
    let s3_part_size = match &flags.s3_part_size {
        Some(text) => Some(chunkhash_store::parse_size(text).map_err(|e| anyhow!("--s3-part-size: {e}"))? as u64),
        None => None,
    };
    let defaults = chunkhash_store::location::s3::Network::default();
    let s3_network = chunkhash_store::location::s3::Network {
        connect_timeout: flags.s3_connect_timeout.unwrap_or(defaults.connect_timeout),
        timeout: flags.s3_timeout.unwrap_or(defaults.timeout),
        tries: flags.s3_tries.unwrap_or(defaults.tries),
    };
    let dir = &StoreAt { path, s3_endpoint: flags.s3_endpoint, s3_checksum, s3_part_size, s3_network };
    let result = match flags.command {
        StoreCommand::Init(init) => self::init(dir, expect, &init, printer),
        StoreCommand::Put(put) => self::put(dir, expect, &put, printer),
        StoreCommand::Get { snapshot, dest, range: Some(range), .. } => {
            self::get_range(dir, expect, &snapshot, &dest, range, printer)
        }
        StoreCommand::Get { snapshot, dest, preserve_special_bits, range: None } => {
            self::get(dir, expect, &snapshot, &dest, preserve_special_bits, printer)
        }
        StoreCommand::Ls { snapshot } => self::ls(dir, expect, snapshot.as_deref(), printer),
        StoreCommand::Verify => self::verify(dir, expect, printer),
        StoreCommand::Stats => self::stats(dir, expect, printer),
        StoreCommand::Reindex => self::reindex(dir, expect, printer),
        #[cfg(feature = "bench")]
        StoreCommand::Bench(_) | StoreCommand::BenchKv(_) => Ok(()),
    };
    match result {
        // Damage and unreadable inputs exit 1, as a mismatch does elsewhere.
        Err(error) => match error.downcast_ref::<Error>() {
            Some(store_error) if exits_1(store_error) => {
                printer.status.failed = true;
                printer.message(format_args!("store: {error:#}"))?;
                Ok(())
            }
            _ => Err(error),
        },
        Ok(()) => Ok(()),
    }
}

fn exits_1(error: &Error) -> bool {
    error.is_damage() || matches!(error, Error::FileChanged { .. } | Error::Io { .. } | Error::BadInput { .. })
}

fn parse_algorithm(name: &str) -> Result<Algorithm> {
    name.parse::<Algorithm>().map_err(|e| anyhow!("{e}"))
}

/// A time such as `30`, `30s`, `1.5s` or `500ms` (seconds without a unit).
fn parse_time(text: &str) -> std::result::Result<std::time::Duration, String> {
    let (number, scale) = match text.strip_suffix("ms") {
        Some(number) => (number, 0.001),
        None => (text.strip_suffix('s').unwrap_or(text), 1.0),
    };
    match number.trim().parse::<f64>() {
        Ok(value) if value.is_finite() && value > 0.0 && value * scale < 1e9 => {
            Ok(std::time::Duration::from_secs_f64(value * scale))
        }
        _ => Err(format!("{text} is not a time above zero such as 30s or 500ms")),
    }
}

fn parse_size(text: &Option<String>, default: u32, what: &str) -> Result<u32> {
    match text {
        None => Ok(default),
        Some(text) => {
            let size = chunkhash_store::parse_size(text).map_err(|e| anyhow!("{what}: {e}"))?;
            u32::try_from(size).map_err(|_| anyhow!("{what}: {text} is too large"))
        }
    }
}

/// Where the store is: a directory or an S3 URL.
#[derive(Debug)]
struct StoreAt {
    path: PathBuf,
    s3_endpoint: Option<String>,
    s3_checksum: Option<chunkhash::s3_checksums::S3Checksum>,
    s3_part_size: Option<u64>,
    s3_network: chunkhash_store::location::s3::Network,
}

impl StoreAt {
    /// The S3 location, when the store is an s3:// URL.
    fn s3(&self) -> Result<Option<Box<dyn chunkhash_store::location::Location>>> {
        let Some(url) = self.path.to_str().filter(|path| path.starts_with("s3://")) else { return Ok(None) };
        let mut location = chunkhash_store::location::S3::new(url, self.s3_endpoint.as_deref())?;
        location.set_checksum(self.s3_checksum)?;
        location.set_network(self.s3_network)?;
        if let Some(part_size) = self.s3_part_size {
            location.set_part_size(part_size)?;
        }
        Ok(Some(Box::new(location)))
    }

    fn open(&self, options: OpenOptions) -> Result<Store> {
        Ok(match self.s3()? {
            Some(location) => Store::open_location(location, options)?,
            None => Store::open(&self.path, options)?,
        })
    }

    fn create(&self, create: CreateOptions) -> Result<Store> {
        Ok(match self.s3()? {
            Some(location) => Store::create_location(location, create, OpenOptions::default())?,
            None => Store::create(&self.path, create, OpenOptions::default())?,
        })
    }
}

/// Opens the store, printing what recovery did.
fn open(dir: &StoreAt, expect: Option<Algorithm>, options: OpenOptions, printer: &mut Printer) -> Result<Store> {
    let store = dir.open(OpenOptions { expect, ..options })?;
    for note in store.notes() {
        printer.message(format_args!("store: {note}"))?;
    }
    Ok(store)
}

fn init(dir: &StoreAt, algorithm: Option<Algorithm>, flags: &InitFlags, printer: &mut Printer) -> Result<()> {
    let defaults = CreateOptions::default();
    let chunker = ChunkerSettings {
        min: parse_size(&flags.chunk_min, defaults.chunker.min, "--chunk-min")?,
        avg: parse_size(&flags.chunk_avg, defaults.chunker.avg, "--chunk-avg")?,
        max: parse_size(&flags.chunk_max, defaults.chunker.max, "--chunk-max")?,
    };
    let trailer = flags.trailer.as_deref().map(parse_algorithm).transpose()?.unwrap_or(defaults.trailer);
    let options = CreateOptions { address: algorithm.unwrap_or(defaults.address), trailer, chunker };
    let store = dir.create(options)?;
    let manifest = store.manifest();
    writeln!(
        printer.out(),
        "created store {}: addresses {}, trailers {}, chunks {} / {} / {} bytes (min / avg / max)",
        dir.path.display(),
        manifest.address,
        manifest.trailer,
        manifest.chunker.min,
        manifest.chunker.avg,
        manifest.chunker.max
    )?;
    Ok(())
}

fn put(dir: &StoreAt, expect: Option<Algorithm>, flags: &PutFlags, printer: &mut Printer) -> Result<()> {
    let hashing: Hashing = flags.hashing.parse().map_err(|e: String| anyhow!(e))?;
    let pack_target = match &flags.pack_target {
        Some(text) => chunkhash_store::parse_size(text).map_err(|e| anyhow!("--pack-target: {e}"))? as u64,
        None => chunkhash_store::DEFAULT_PACK_TARGET,
    };
    let options = OpenOptions { write: true, fsync: !flags.no_fsync, pack_target, ..OpenOptions::default() };
    let mut store = open(dir, expect, options, printer)?;
    let mut progress = Progress::new(None);
    progress.set_unit("chunked and hashed");
    printer.progress = Some(progress.bar());
    let mut count = |bytes: u64| progress.add(bytes);
    let options = PutOptions {
        hashing,
        progress: Some(&mut count),
        threads: flags.threads,
        roots: flags.roots,
        ..PutOptions::default()
    };
    let result = store.put(&flags.paths, options);
    progress.finish();
    printer.progress = None;
    let report = result?;
    for skipped in &report.skipped {
        printer.message(format_args!("store: {skipped}"))?;
    }
    let seconds = report.elapsed.as_secs_f64();
    writeln!(
        printer.out(),
        "{} files, {} directories, {} links: {} bytes in {} chunks; new: {} chunks, {} bytes, {} objects",
        report.files,
        report.dirs,
        report.symlinks,
        report.bytes,
        report.chunk_sizes.count(),
        report.new_chunks,
        report.new_bytes,
        report.new_objects
    )?;
    writeln!(
        printer.out(),
        "{:.3} s, {:.1} MB/s on {} threads; hashing ({} {}) {:.3} s of CPU over the threads",
        seconds,
        report.bytes as f64 / seconds.max(1e-9) / 1e6,
        report.threads,
        store.algorithm(),
        hashing.name(),
        report.hash_time.as_secs_f64(),
    )?;
    if flags.roots {
        writeln!(printer.out(), "roots and outboards {:.3} s of CPU over the threads", report.root_time.as_secs_f64())?;
    }
    writeln!(printer.out(), "{}", report.snapshot)?;
    Ok(())
}

fn get(
    dir: &StoreAt,
    expect: Option<Algorithm>,
    snapshot: &str,
    dest: &Path,
    preserve_special_bits: bool,
    printer: &mut Printer,
) -> Result<()> {
    let store = open(dir, expect, OpenOptions::default(), printer)?;
    let address = store.resolve(snapshot)?;
    let total = store.snapshot(&address)?.bytes;
    let mut progress = Progress::new(Some(total));
    printer.progress = Some(progress.bar());
    let mut count = |bytes: u64| progress.add(bytes);
    let result = store.get_with(&address, dest, GetOptions { preserve_special_bits, progress: Some(&mut count) });
    progress.finish();
    printer.progress = None;
    let report = result?;
    writeln!(
        printer.out(),
        "restored {} files, {} directories, {} links, {} bytes into {}",
        report.files,
        report.dirs,
        report.symlinks,
        report.bytes,
        dest.display()
    )?;
    Ok(())
}

fn ls(dir: &StoreAt, expect: Option<Algorithm>, snapshot: Option<&str>, printer: &mut Printer) -> Result<()> {
    let store = open(dir, expect, OpenOptions::default(), printer)?;
    let Some(snapshot) = snapshot else {
        let mut snapshots = Vec::new();
        for address in store.snapshots()? {
            snapshots.push((store.snapshot(&address)?, address));
        }
        snapshots.sort_by_key(|(root, address)| (root.time, *address));
        for (root, address) in snapshots {
            writeln!(printer.out(), "{address}  {}  {} files  {} bytes", utc(root.time), root.files, root.bytes)?;
        }
        return Ok(());
    };
    let address = store.resolve(snapshot)?;
    let entries = store.ls(&address)?;
    // The roots' column only when a file has one (stores from before roots
    // list as they did).
    let roots = entries.iter().any(|entry| matches!(entry.node, Node::File { root: Some(_), .. }));
    for entry in entries {
        let out = printer.out();
        match &entry.node {
            Node::File { mode, size, .. } => write!(out, "file {mode:04o} {size:>12} ")?,
            Node::Dir { mode, .. } => write!(out, "dir  {mode:04o} {:>12} ", "-")?,
            Node::Symlink { .. } => write!(out, "link {:>4} {:>12} ", "-", "-")?,
        }
        if roots {
            match &entry.node {
                Node::File { root: Some(root), .. } => write!(out, "{}  ", root.root)?,
                _ => write!(out, "{:<64}  ", "-")?,
            }
        }
        out.write_all(&crate::escape::escape(&entry.path))?;
        if let Node::Symlink { target } = &entry.node {
            out.write_all(b" -> ")?;
            out.write_all(&crate::escape::escape(target))?;
        }
        out.write_all(b"\n")?;
    }
    Ok(())
}

/// `START..END` or `START..` (to the end of the file).
fn parse_range(text: &str) -> std::result::Result<std::ops::Range<u64>, String> {
    let (start, end) = text.split_once("..").ok_or_else(|| format!("{text:?} is not START..END"))?;
    let number = |part: &str| part.parse::<u64>().map_err(|_| format!("{part:?} in {text:?} is not a byte offset"));
    let start = number(start)?;
    let end = if end.is_empty() { u64::MAX } else { number(end)? };
    if end < start {
        return Err(format!("{text:?} ends before it starts"));
    }
    Ok(start..end)
}

/// `get --range`: verified bytes of one file to stdout.
fn get_range(
    dir: &StoreAt,
    expect: Option<Algorithm>,
    snapshot: &str,
    path: &Path,
    range: std::ops::Range<u64>,
    printer: &mut Printer,
) -> Result<()> {
    use std::os::unix::ffi::OsStrExt;
    let store = open(dir, expect, OpenOptions::default(), printer)?;
    let address = store.resolve(snapshot)?;
    store.read_range(&address, path.as_os_str().as_bytes(), range, printer.out())?;
    Ok(())
}

/// `YYYY-MM-DD HH:MM:SS UTC` (civil-from-days, proleptic Gregorian).
fn utc(seconds: u64) -> String {
    let days = (seconds / 86_400) as i64;
    let rest = seconds % 86_400;
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02} {:02}:{:02}:{:02} UTC", rest / 3600, rest / 60 % 60, rest % 60)
}

fn verify(dir: &StoreAt, expect: Option<Algorithm>, printer: &mut Printer) -> Result<()> {
    let store = open(dir, expect, OpenOptions::default(), printer)?;
    let total = store.stats().map(|stats| stats.pack_bytes).ok();
    let mut progress = Progress::new(total);
    printer.progress = Some(progress.bar());
    let mut count = |bytes: u64| progress.add(bytes);
    let result = store.verify(Some(&mut count));
    progress.finish();
    printer.progress = None;
    let report = result?;
    for note in &report.notes {
        printer.message(format_args!("store: {note}"))?;
    }
    for damage in &report.damage {
        printer.message(format_args!("store: damaged: {}: {}", damage.what, damage.reason))?;
        for file in &damage.files {
            printer.message(format_args!("store:   in {file}"))?;
        }
    }
    let verdict = if report.damage.is_empty() {
        "every record is sound".to_string()
    } else {
        printer.status.failed = true;
        format!("{} problems found", report.damage.len())
    };
    writeln!(
        printer.out(),
        "checked {} records in {} packs ({} bytes) and {} snapshots: {verdict}",
        report.records,
        report.packs,
        report.bytes,
        report.snapshots
    )?;
    Ok(())
}

fn stats(dir: &StoreAt, expect: Option<Algorithm>, printer: &mut Printer) -> Result<()> {
    let store = open(dir, expect, OpenOptions::default(), printer)?;
    let mut stats = store.stats()?;
    let manifest = *store.manifest();
    let out = printer.out();
    writeln!(out, "addresses:      {} (trailers {})", manifest.address, manifest.trailer)?;
    writeln!(
        out,
        "chunker:        fastcdc-2020 {} / {} / {}",
        manifest.chunker.min, manifest.chunker.avg, manifest.chunker.max
    )?;
    writeln!(out, "snapshots:      {}", stats.snapshots)?;
    writeln!(out, "packs:          {} ({} bytes)", stats.packs, stats.pack_bytes)?;
    writeln!(out, "records:        {} (chunks and metadata objects, each stored once)", stats.records)?;
    writeln!(out, "stored bytes:   {}", stats.payload_bytes)?;
    writeln!(out, "file bytes:     {} (all snapshots)", stats.logical_bytes)?;
    writeln!(out, "dedup ratio:    {:.2}", stats.dedup_ratio())?;
    let sizes = &mut stats.sizes;
    writeln!(out, "record sizes:   {}", sizes.summary())?;
    for (low, high, count) in sizes.buckets() {
        writeln!(out, "  {low:>9} ..< {high:<9} {count}")?;
    }
    Ok(())
}

fn reindex(dir: &StoreAt, expect: Option<Algorithm>, printer: &mut Printer) -> Result<()> {
    // The index as it was, when it can still be read, to say what changed.
    if dir.s3()?.is_some() {
        bail!("reindex works on a store in a directory, not on S3");
    }
    let dir = &dir.path;
    let before =
        Store::open(dir, OpenOptions { expect, ..OpenOptions::default() }).ok().map(|s| s.index().to_sorted_vec());
    let (store, problems) = Store::reindex(dir, OpenOptions { expect, ..OpenOptions::default() })?;
    for note in store.notes() {
        printer.message(format_args!("store: {note}"))?;
    }
    for problem in &problems {
        printer.message(format_args!("store: damaged: {problem}"))?;
    }
    if !problems.is_empty() {
        printer.status.failed = true;
    }
    let after = store.index().to_sorted_vec();
    let comparison = match before {
        Some(before) if before == after => "it equals the index it replaces".to_string(),
        Some(before) => format!("it differs from the index it replaces ({} entries before)", before.len()),
        None => "the index it replaces could not be read".to_string(),
    };
    writeln!(
        printer.out(),
        "rebuilt the index from {} packs: {} records; {comparison}",
        after.iter().map(|entry| entry.1).collect::<std::collections::HashSet<_>>().len(),
        after.len()
    )?;
    Ok(())
}

#[cfg(test)]
mod tests {
    #[test]
    fn utc_dates() {
        assert_eq!(super::utc(0), "1970-01-01 00:00:00 UTC");
        assert_eq!(super::utc(951_782_400), "2000-02-29 00:00:00 UTC");
        assert_eq!(super::utc(1_700_000_000), "2023-11-14 22:13:20 UTC");
    }
}
