//! `chunkhash bao`: the `bao` command's subcommands and arguments (hash,
//! encode, decode, slice, decode-slice) on `chunkhash::blake3::bao`, plus
//! chunk groups (`--group-size`) and post-order outboards (`--post-order`).
//!
//! In bounded memory: hashing; encoding (`bao::Encoder`, with a temporary
//! file where the input's length or a seekable output is missing: see
//! [`encode`]); decoding a whole encoding, a slice, or a whole input with a
//! pre-order outboard (bytes are written as they verify). Slicing, and
//! decoding a range or with a post-order outboard, map a file input
//! (standard input is read whole) and read the outboard into memory.
//!
//! A regular OUTPUT is written under a temporary name and renamed into
//! place once complete (`OutputFile`): a failure leaves it as it was.

// The bao command slices one range; the library takes lists of ranges.
#![allow(clippy::single_range_in_vec_init)]

use crate::input::{whole_input, WholeInput};
use crate::status::Printer;
use anyhow::{bail, Context, Result};
use chunkhash::blake3::{self, bao};
use clap::{Args, Subcommand};
use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::ops::Range;
use std::path::{Path, PathBuf};

/// `chunkhash bao`.
#[derive(Debug, Args)]
#[command(after_long_help = BAO_HELP)]
pub struct BaoFlags {
    #[command(subcommand)]
    pub command: BaoCommand,

    /// Chunk groups of SIZE bytes, a power of two from 1024 (bao's) to 64MiB
    #[arg(long, global = true, value_name = "SIZE", default_value = "1024")]
    pub group_size: String,

    /// Outboards in post-order (bao-tree's), not pre-order (bao's)
    #[arg(long, global = true)]
    pub post_order: bool,
}

/// The subcommands, with the `bao` command's arguments.
#[derive(Debug, Subcommand)]
pub enum BaoCommand {
    /// Print the BLAKE3 hash of each input (`-` or none: standard input)
    Hash { inputs: Vec<PathBuf> },
    /// Write the combined encoding of INPUT to OUTPUT, or its outboard to --outboard
    Encode {
        input: PathBuf,
        output: Option<PathBuf>,
        #[arg(long, value_name = "FILE")]
        outboard: Option<PathBuf>,
    },
    /// Verify an encoding (or INPUT with --outboard) against HASH and write the bytes
    Decode {
        hash: String,
        input: Option<PathBuf>,
        output: Option<PathBuf>,
        #[arg(long, value_name = "FILE")]
        outboard: Option<PathBuf>,
        #[arg(long, value_name = "N")]
        start: Option<u64>,
        #[arg(long, value_name = "N")]
        count: Option<u64>,
    },
    /// Write the slice of an encoding (or of INPUT with --outboard) for COUNT bytes from START
    Slice {
        start: u64,
        count: u64,
        input: Option<PathBuf>,
        output: Option<PathBuf>,
        #[arg(long, value_name = "FILE")]
        outboard: Option<PathBuf>,
    },
    /// Verify a slice against HASH and write its bytes
    DecodeSlice { hash: String, start: u64, count: u64, input: Option<PathBuf>, output: Option<PathBuf> },
}

const BAO_HELP: &str = "\
The arguments of the bao command, so its scripts run unchanged: inputs and
outputs are files, or standard input and output when left out or `-`.
With the default group size and pre-order, every output is bao's, byte for
byte. Decoding writes only verified bytes and stops with exit code 1 at the
first that does not verify. An OUTPUT file is written under a temporary name
beside it and renamed into place once complete: a command that fails leaves
OUTPUT as it was.";

/// Runs a subcommand. A bad argument is an error (exit 2); a file that
/// cannot be read or written, or bytes that do not verify, print
/// `chunkhash: bao: ...` and exit 1.
pub fn run(flags: BaoFlags, printer: &mut Printer) -> Result<()> {
    let tree = bao::Tree::new(bao::Mode::hash(), group_log(&flags.group_size)?)?;
    let order = if flags.post_order { bao::Order::Post } else { bao::Order::Pre };
    let hash = match &flags.command {
        BaoCommand::Decode { hash, .. } | BaoCommand::DecodeSlice { hash, .. } => Some(parse_hash(hash)?),
        _ => None,
    };
    if let Err(error) = run_checked(flags.command, tree, order, hash, printer.out()) {
        if crate::status::is_broken_pipe(&error) {
            return Err(error);
        }
        printer.flush()?;
        printer.message(format_args!("bao: {error:#}"))?;
        printer.status.failed = true;
    }
    Ok(())
}

fn run_checked(
    command: BaoCommand,
    tree: bao::Tree,
    order: bao::Order,
    root: Option<blake3::Hash>,
    out: &mut dyn Write,
) -> Result<()> {
    let root = || root.expect("decode commands parse their hash first");
    match command {
        BaoCommand::Hash { inputs } => {
            let inputs = if inputs.is_empty() { vec![PathBuf::from("-")] } else { inputs };
            let many = inputs.len() > 1;
            for input in &inputs {
                let hash = hash_stream(open(Some(input))?).with_context(|| input.display().to_string())?;
                if many {
                    writeln!(out, "{hash}  {}", input.display())?;
                } else {
                    writeln!(out, "{hash}")?;
                }
            }
        }
        BaoCommand::Encode { input, output, outboard } => {
            let (format, output) = match (output, outboard) {
                (None, Some(path)) => (bao::Format::Outboard(order), Some(path)),
                (output, None) => (bao::Format::Combined, output),
                (Some(_), Some(_)) => bail!("encode takes OUTPUT or --outboard, not both"),
            };
            encode(tree, format, &input, output.as_deref(), out)?;
        }
        BaoCommand::Decode { input, output, outboard, start, count, .. } => {
            refuse_overwrite(output.as_deref(), &[input.as_deref(), outboard.as_deref()])?;
            refuse_two_stdins(input.as_deref(), outboard.as_deref())?;
            let root = root();
            let ranges = match (start, count) {
                (None, None) => bao::WHOLE.to_vec(),
                (start, count) => {
                    let start = start.unwrap_or(0);
                    vec![start..count.map_or(u64::MAX, |count| start.saturating_add(count))]
                }
            };
            match outboard {
                None if ranges == bao::WHOLE => {
                    // The whole encoding streams through the reader.
                    let reader = bao::SliceReader::new(open(input.as_deref())?, tree, root, &ranges);
                    copy_verified(reader, output.as_deref(), out)?;
                }
                None => {
                    let slice = tree.slice_encoding(&read_all(input.as_deref())?, &ranges)?;
                    copy_verified(bao::SliceReader::new(&slice[..], tree, root, &ranges), output.as_deref(), out)?;
                }
                Some(path) if ranges == bao::WHOLE && order == bao::Order::Pre => {
                    // The outboard and INPUT stream as the combined encoding.
                    let stream = Interleaved::new(&tree, input.as_deref(), &path)?;
                    copy_verified(bao::SliceReader::new(stream, tree, root, &ranges), output.as_deref(), out)?;
                }
                Some(path) => {
                    let slice = slice_with_outboard(&tree, order, root, input.as_deref(), &path, &ranges)?;
                    copy_verified(bao::SliceReader::new(&slice[..], tree, root, &ranges), output.as_deref(), out)?;
                }
            }
        }
        BaoCommand::Slice { start, count, input, output, outboard } => {
            refuse_two_stdins(input.as_deref(), outboard.as_deref())?;
            let ranges = [start..start.saturating_add(count)];
            let slice = match outboard {
                None => tree.slice_encoding(&read_all(input.as_deref())?, &ranges)?,
                // The slice only copies nodes; the root is not needed.
                Some(path) => slice_with_outboard(&tree, order, blake3::hash(b""), input.as_deref(), &path, &ranges)?,
            };
            write_all(output.as_deref(), out, &slice)?;
        }
        BaoCommand::DecodeSlice { start, count, input, output, .. } => {
            refuse_overwrite(output.as_deref(), &[input.as_deref()])?;
            let ranges = [start..start.saturating_add(count)];
            let reader = bao::SliceReader::new(open(input.as_deref())?, tree, root(), &ranges);
            copy_verified(reader, output.as_deref(), out)?;
        }
    }
    Ok(())
}

/// Writes the encoding (or outboard) of INPUT to OUTPUT (or `out`) in
/// bounded memory. From a regular file, `bao::Encoder` needs a seekable
/// output (it fills each parent node in where pre-order puts it, before
/// its subtree): an output that cannot seek (standard output, a pipe) is
/// written to a temporary file first and copied out at the end (beside
/// OUTPUT, or in the system's temporary directory for standard output).
/// From a stream (standard input, a pipe), whose length is known only at
/// its end, an outboard is made in post-order and reordered
/// ([`encode_outboard_stream`]); the combined encoding needs the length
/// first, so the stream is copied to a temporary file beside the output
/// (and for an output that cannot seek, written from that copy and its
/// outboard: [`encode_interleaved`]).
fn encode(
    tree: bao::Tree,
    format: bao::Format,
    input: &Path,
    output: Option<&Path>,
    out: &mut dyn Write,
) -> Result<()> {
    let output = output.filter(|path| path.as_os_str() != "-");
    // Beside a regular OUTPUT (or one still to be made); a pipe's or a
    // device's directory (`/dev`) is no place for a file.
    let beside = output.filter(|path| std::fs::metadata(path).map_or(true, |meta| meta.is_file()));
    let spool_dir = match beside.map(|path| path.parent().unwrap_or(Path::new(""))) {
        Some(dir) if dir.as_os_str().is_empty() => PathBuf::from("."),
        Some(dir) => dir.to_path_buf(),
        None => std::env::temp_dir(),
    };
    refuse_overwrite(output, &[Some(input)])?;
    let (mut reader, len) = open_input(input)?;
    let (len, input_spool) = match (len, format) {
        (Some(len), _) => (len, None),
        // An outboard needs no copy of the input.
        (None, bao::Format::Outboard(order)) => {
            return encode_outboard_stream(tree, order, &mut reader, input, output, &spool_dir, out);
        }
        (None, bao::Format::Combined) => {
            let (spooled, len, spool) = spool_input(reader, input, &spool_dir)?;
            reader = spooled;
            (len, Some(spool))
        }
    };
    let mut file = match output {
        Some(path) => OutputFile::create(path)?,
        None => {
            return match &input_spool {
                Some(spool) => encode_interleaved(tree, spool, input, len, &spool_dir, out),
                None => encode_spooled(tree, format, &mut reader, input, len, &spool_dir, out),
            };
        }
    };
    let path = output.expect("an output file");
    if file.is_staged() {
        encode_to(tree, format, &mut reader, input, len, &mut file.file, path)?;
        return file.finish();
    }
    // A pipe or device: written once whole.
    let written = match &input_spool {
        Some(spool) => encode_interleaved(tree, spool, input, len, &spool_dir, &mut file.file),
        None => encode_spooled(tree, format, &mut reader, input, len, &spool_dir, &mut file.file),
    };
    written.with_context(|| path.display().to_string())
}

/// The combined encoding of INPUT's copy in a temporary file (`spool`),
/// for an output that cannot seek, without a second copy of it all: its
/// pre-order outboard goes to a temporary file in `dir` (6.25% of the
/// input with 1 KiB groups), then the encoding is written in order from
/// the copy and the outboard. Reading INPUT twice is safe only because
/// the copy is ours (a regular INPUT could change in between).
fn encode_interleaved(
    tree: bao::Tree,
    spool: &Spool,
    input: &Path,
    len: u64,
    dir: &Path,
    out: &mut dyn Write,
) -> Result<()> {
    let mut data = spool.file.try_clone()?;
    data.seek(SeekFrom::Start(0))?;
    let outboard = Spool::new(dir)?;
    let mut nodes = outboard.file.try_clone()?;
    encode_to(tree, bao::Format::Outboard(bao::Order::Pre), &mut data, input, len, &mut nodes, &outboard.path)?;
    data.seek(SeekFrom::Start(0))?;
    nodes.seek(SeekFrom::Start(0))?;
    let name = || "a temporary file".to_string();
    let mut stream = Interleaved::from_readers(&tree, Box::new(data), name(), Box::new(nodes), name())?;
    io::copy(&mut stream, out)?;
    Ok(())
}

/// Refuses an OUTPUT that is one of the inputs: a mistake, and a pipe or
/// device written in place would lose the input.
fn refuse_overwrite(output: Option<&Path>, inputs: &[Option<&Path>]) -> Result<()> {
    let Some(output) = output.filter(|path| path.as_os_str() != "-") else {
        return Ok(());
    };
    for input in inputs.iter().flatten().filter(|input| input.as_os_str() != "-") {
        if same_file(input, output) {
            bail!("{}: the input and the output are the same file", output.display());
        }
    }
    Ok(())
}

/// Refuses standard input for both INPUT (none or `-`) and `--outboard -`:
/// one stream cannot be read as two files.
fn refuse_two_stdins(input: Option<&Path>, outboard: Option<&Path>) -> Result<()> {
    if is_stdin(outboard.unwrap_or(Path::new(""))) && is_stdin(input.unwrap_or(Path::new("-"))) {
        bail!("INPUT and --outboard cannot both be standard input: give INPUT (or the outboard) as a file");
    }
    Ok(())
}

fn is_stdin(path: &Path) -> bool {
    path.as_os_str() == "-"
}

/// A path for messages: standard input by name.
fn input_name(path: &Path) -> String {
    match is_stdin(path) {
        true => "standard input".to_string(),
        false => path.display().to_string(),
    }
}

/// Whether two paths name one existing file.
fn same_file(a: &Path, b: &Path) -> bool {
    let (Ok(a_meta), Ok(b_meta)) = (std::fs::metadata(a), std::fs::metadata(b)) else {
        return false;
    };
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        a_meta.dev() == b_meta.dev() && a_meta.ino() == b_meta.ino()
    }
    #[cfg(not(unix))]
    {
        let _ = (a_meta, b_meta);
        matches!((a.canonicalize(), b.canonicalize()), (Ok(a), Ok(b)) if a == b)
    }
}

/// [`encode`] into a temporary file in `dir`, then copied to `out`.
fn encode_spooled(
    tree: bao::Tree,
    format: bao::Format,
    reader: &mut dyn Read,
    input: &Path,
    len: u64,
    dir: &Path,
    out: &mut dyn Write,
) -> Result<()> {
    let spool = Spool::new(dir)?;
    let mut file = spool.file.try_clone()?;
    encode_to(tree, format, reader, input, len, &mut file, &spool.path)?;
    file.seek(SeekFrom::Start(0))?;
    io::copy(&mut file, out)?;
    Ok(())
}

/// Feeds `len` bytes of `reader` (INPUT) to an encoder writing `file`; an
/// error if INPUT does not have `len` bytes (it changed while read).
fn encode_to(
    tree: bao::Tree,
    format: bao::Format,
    reader: &mut dyn Read,
    input: &Path,
    len: u64,
    file: &mut File,
    path: &Path,
) -> Result<()> {
    let output = || path.display().to_string();
    let mut encoder = bao::Encoder::new(tree, len, format, file).with_context(output)?;
    // Whole steps of the encoder (1 MiB) go through without a copy.
    let mut buf = vec![0u8; 4 << 20];
    let mut total = 0u64;
    loop {
        let n = fill(reader, &mut buf).with_context(|| input.display().to_string())?;
        if n == 0 {
            break;
        }
        total += n as u64;
        if total > len {
            bail!("{}: grew while it was read (from {len} bytes)", input.display());
        }
        encoder.update(&buf[..n]).with_context(output)?;
    }
    if total < len {
        bail!("{}: shrank while it was read (from {len} bytes to {total})", input.display());
    }
    encoder.finish().with_context(output)?;
    Ok(())
}

/// Reads until `buf` is full or the input ends; the bytes read.
fn fill(reader: &mut dyn Read, buf: &mut [u8]) -> io::Result<usize> {
    let mut filled = 0;
    while filled < buf.len() {
        match reader.read(&mut buf[filled..]) {
            Ok(0) => break,
            Ok(n) => filled += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(filled)
}

/// INPUT, and its length if it is a regular file.
fn open_input(input: &Path) -> Result<(Box<dyn Read>, Option<u64>)> {
    if input.as_os_str() == "-" {
        return Ok((Box::new(io::stdin()), None));
    }
    let name = || input.display().to_string();
    let file = File::open(input).with_context(name)?;
    let metadata = file.metadata().with_context(name)?;
    if metadata.is_dir() {
        return Err(crate::input::is_a_directory()).with_context(name);
    }
    Ok((Box::new(file), metadata.is_file().then_some(metadata.len())))
}

/// INPUT (a stream) copied to a temporary file in `dir` (returned too, to
/// live as long as the reader), and its length.
fn spool_input(mut reader: Box<dyn Read>, input: &Path, dir: &Path) -> Result<(Box<dyn Read>, u64, Spool)> {
    let spool = Spool::new(dir)?;
    let mut file = spool.file.try_clone()?;
    let len = io::copy(&mut reader, &mut file).with_context(|| input.display().to_string())?;
    file.seek(SeekFrom::Start(0))?;
    Ok((Box::new(file), len, spool))
}

/// The outboard of a stream (standard input, a pipe): its post-order nodes
/// go to a temporary file in `dir` as they are hashed (an outboard's size,
/// not the input's), then to OUTPUT (or `out`) after the length header, in
/// `order`. Writes only in sequence: any output will do.
fn encode_outboard_stream(
    tree: bao::Tree,
    order: bao::Order,
    reader: &mut dyn Read,
    input: &Path,
    output: Option<&Path>,
    dir: &Path,
    out: &mut dyn Write,
) -> Result<()> {
    let spool = Spool::new(dir)?;
    let mut encoder = bao::PostOrderEncoder::new(tree, io::BufWriter::new(spool.file.try_clone()?));
    let mut buf = vec![0u8; 4 << 20];
    loop {
        let n = fill(reader, &mut buf).with_context(|| input.display().to_string())?;
        if n == 0 {
            break;
        }
        encoder.update(&buf[..n]).context("a temporary file")?;
    }
    let (_, len, nodes) = encoder.finish().context("a temporary file")?;
    let mut nodes = nodes.into_inner().map_err(|error| error.into_error()).context("a temporary file")?;
    nodes.seek(SeekFrom::Start(0))?;
    let mut write = |out: &mut dyn Write| -> io::Result<()> {
        out.write_all(&len.to_le_bytes())?;
        match order {
            bao::Order::Post => io::copy(&mut nodes, out).map(drop),
            bao::Order::Pre => bao::post_to_pre_order(&tree, len, &mut nodes, out).map(drop),
        }
    };
    match output {
        Some(path) => {
            let mut file = OutputFile::create(path)?;
            let mut buffered = io::BufWriter::new(&mut file.file);
            write(&mut buffered).and_then(|()| buffered.flush()).with_context(|| path.display().to_string())?;
            drop(buffered);
            file.finish()
        }
        None => Ok(write(out)?),
    }
}

/// A temporary file in a directory, removed when dropped (on Unix its name
/// goes at once: nothing is left behind even if the process is killed).
struct Spool {
    file: File,
    path: PathBuf,
}

impl Spool {
    fn new(dir: &Path) -> Result<Spool> {
        // Readable by its owner only.
        let (file, path) = create_temp(dir, ".chunkhash-bao-", 0o600)
            .with_context(|| format!("a temporary file in {}", dir.display()))?;
        #[cfg(unix)]
        let _ = std::fs::remove_file(&path);
        Ok(Spool { file, path })
    }
}

/// A new file in `dir`, named `PREFIX<pid>-<nanoseconds>-<attempt>.tmp`,
/// created with `mode` on Unix (less the umask), read and write.
fn create_temp(dir: &Path, prefix: &str, mode: u32) -> io::Result<(File, PathBuf)> {
    #[cfg(not(unix))]
    let _ = mode;
    for attempt in 0u32.. {
        // Not guessable in advance (another user could otherwise take
        // the names first).
        let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.subsec_nanos());
        let path = dir.join(format!("{prefix}{}-{nanos:08x}-{attempt}.tmp", std::process::id()));
        let mut options = std::fs::OpenOptions::new();
        options.read(true).write(true).create_new(true);
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::mode(&mut options, mode);
        match options.open(&path) {
            Ok(file) => return Ok((file, path)),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists && attempt < 1000 => {}
            Err(e) => return Err(e),
        }
    }
    unreachable!("the loop returns")
}

/// OUTPUT, open for writing. A regular file (or a new one) is written
/// under a temporary name beside it and takes OUTPUT's place only in
/// [`finish`](OutputFile::finish), once complete: a command that fails
/// leaves OUTPUT as it was, absent or the user's file untouched, and its
/// temporary file is removed (as `gzip -d`, `xz -d` and `zstd -d` remove an
/// output they could not finish). A pipe or device is written in place.
struct OutputFile {
    file: File,
    staged: Option<Staged>,
}

/// A temporary file that becomes `target` when `renamed`, and is removed
/// when dropped before.
struct Staged {
    temp: PathBuf,
    target: PathBuf,
    renamed: bool,
}

impl OutputFile {
    fn create(path: &Path) -> Result<OutputFile> {
        let name = || path.display().to_string();
        // Through a symbolic link, the file it names is replaced and the
        // link stays, as writing in place would do; a dangling link is
        // written in place.
        let target = match std::fs::symlink_metadata(path) {
            Ok(meta) if meta.file_type().is_symlink() => std::fs::canonicalize(path).ok(),
            _ => Some(path.to_path_buf()),
        };
        let target = target.filter(|target| target.file_name().is_some());
        let existing = target.as_deref().map(std::fs::metadata);
        // For a file to replace, its permissions; none for a new file.
        let staged = match &existing {
            Some(Ok(meta)) if meta.is_file() => Some(Some(meta.permissions())),
            Some(Err(e)) if e.kind() == io::ErrorKind::NotFound => Some(None),
            _ => None,
        };
        let (Some(target), Some(permissions)) = (target, staged) else {
            return Ok(OutputFile { file: File::create(path).with_context(name)?, staged: None });
        };
        if permissions.is_some() {
            // A file we may not write (read-only) is refused, as writing in
            // place would refuse it, not replaced.
            std::fs::OpenOptions::new().write(true).open(&target).with_context(name)?;
        }
        let dir = match target.parent() {
            Some(dir) if !dir.as_os_str().is_empty() => dir,
            _ => Path::new("."),
        };
        let prefix = format!(".{}.chunkhash-", target.file_name().expect("a file name").to_string_lossy());
        // A new file gets the mode File::create gives; a replaced one its own.
        let (file, temp) = create_temp(dir, &prefix, if permissions.is_some() { 0o600 } else { 0o666 })
            .with_context(|| format!("{}: a temporary file in {}", name(), dir.display()))?;
        let staged = Staged { temp, target, renamed: false };
        if let Some(permissions) = permissions {
            file.set_permissions(permissions).with_context(name)?;
        }
        Ok(OutputFile { file, staged: Some(staged) })
    }

    /// Whether OUTPUT is a regular file (written under a temporary name).
    fn is_staged(&self) -> bool {
        self.staged.is_some()
    }

    /// The output is complete: it takes OUTPUT's place.
    fn finish(self) -> Result<()> {
        let OutputFile { file, staged } = self;
        drop(file);
        if let Some(mut staged) = staged {
            std::fs::rename(&staged.temp, &staged.target).with_context(|| staged.target.display().to_string())?;
            staged.renamed = true;
        }
        Ok(())
    }
}

impl Drop for Staged {
    fn drop(&mut self) {
        if !self.renamed {
            let _ = std::fs::remove_file(&self.temp);
        }
    }
}

impl Drop for Spool {
    fn drop(&mut self) {
        #[cfg(not(unix))]
        let _ = std::fs::remove_file(&self.path);
    }
}

/// `log2(SIZE / 1024)` of a power-of-two group size.
fn group_log(size: &str) -> Result<u8> {
    let bytes = chunkhash_store::parse_size(size).map_err(|e| anyhow::anyhow!("--group-size {size:?}: {e}"))? as u64;
    if !bytes.is_power_of_two() || !(1024..=1024 << bao::MAX_GROUP_LOG).contains(&bytes) {
        bail!("--group-size {size:?}: a power of two from 1024 to 64MiB");
    }
    Ok((bytes / 1024).ilog2() as u8)
}

fn parse_hash(hex: &str) -> Result<blake3::Hash> {
    blake3::Hash::from_hex(hex).with_context(|| format!("hash {hex:?}"))
}

fn slice_with_outboard(
    tree: &bao::Tree,
    order: bao::Order,
    root: blake3::Hash,
    input: Option<&Path>,
    outboard: &Path,
    ranges: &[Range<u64>],
) -> Result<Vec<u8>> {
    let data = read_all(input)?;
    let file = read_all(Some(outboard))?;
    let Some((header, nodes)) = file.split_first_chunk::<8>() else {
        bail!("{}: an outboard starts with an 8-byte length", input_name(outboard));
    };
    let len = u64::from_le_bytes(*header);
    if len != data.len() as u64 {
        bail!("{}: the outboard is of {len} bytes, the input of {}", input_name(outboard), data.len());
    }
    let outboard = bao::Outboard::from_parts(tree, root, len, order, nodes.to_vec())?;
    Ok(tree.slice(&data, &outboard, ranges)?)
}

/// The combined encoding, read from a pre-order outboard (`bao`'s, with
/// its header) and the input beside it: before each group, the parents
/// that pre-order puts there, in bounded memory. A short or long input or
/// outboard is an error (else the decoder catches the damage). Either may
/// be standard input (not both).
struct Interleaved {
    data: io::BufReader<Box<dyn Read>>,
    outboard: io::BufReader<Box<dyn Read>>,
    input: String,
    outboard_name: String,
    len: u64,
    group_len: u64,
    groups: u64,
    /// The next group, and the bytes of outboard, then of input, before it.
    next: u64,
    header: std::ops::Range<usize>,
    header_bytes: [u8; bao::HEADER_LEN],
    parent_bytes: u64,
    group_bytes: u64,
    ended: bool,
}

impl Interleaved {
    fn new(tree: &bao::Tree, input: Option<&Path>, outboard: &Path) -> Result<Interleaved> {
        let outboard_name = input_name(outboard);
        let file = open(Some(outboard))?;
        let input_path = input.unwrap_or(Path::new("-"));
        let metadata = (!is_stdin(input_path)).then(|| std::fs::metadata(input_path).ok()).flatten();
        let stream = Interleaved::from_readers(tree, open(input)?, input_name(input_path), file, outboard_name)?;
        if let Some(metadata) = metadata {
            if metadata.is_file() && metadata.len() != stream.len {
                bail!(
                    "{}: the outboard is of {} bytes, the input of {}",
                    stream.outboard_name,
                    stream.len,
                    metadata.len()
                );
            }
        }
        Ok(stream)
    }

    /// The data and the outboard (from its header on) as readers, named
    /// for messages.
    fn from_readers(
        tree: &bao::Tree,
        data: Box<dyn Read>,
        input: String,
        mut outboard: Box<dyn Read>,
        outboard_name: String,
    ) -> Result<Interleaved> {
        let mut header_bytes = [0u8; bao::HEADER_LEN];
        outboard
            .read_exact(&mut header_bytes)
            .with_context(|| format!("{outboard_name}: an outboard starts with an 8-byte length"))?;
        let len = u64::from_le_bytes(header_bytes);
        let group_len = tree.group_len() as u64;
        Ok(Interleaved {
            data: io::BufReader::with_capacity(1 << 20, data),
            outboard: io::BufReader::with_capacity(1 << 16, outboard),
            input,
            outboard_name,
            len,
            group_len,
            groups: len.div_ceil(group_len).max(1),
            next: 0,
            header: 0..bao::HEADER_LEN,
            header_bytes,
            parent_bytes: 0,
            group_bytes: 0,
            ended: false,
        })
    }

    /// Parents before group `index` in pre-order: one per subtree that
    /// starts there, which is as many as its index's trailing zeros, or
    /// fewer near the end (the height of the tree of the groups from it on).
    fn parents_before(&self, index: u64) -> u32 {
        let rest = 64 - (self.groups - index - 1).leading_zeros();
        if index == 0 {
            rest
        } else {
            index.trailing_zeros().min(rest)
        }
    }

    /// Once the last group is read: an error if either file goes on.
    fn check_end(&mut self) -> io::Result<()> {
        if !self.ended {
            self.ended = true;
            if self.data.read(&mut [0])? != 0 {
                return Err(self.error(format!("{}: longer than the outboard's {} bytes", self.input, self.len)));
            }
            if self.outboard.read(&mut [0])? != 0 {
                return Err(self.error(format!("{}: longer than a {}-byte input needs", self.outboard_name, self.len)));
            }
        }
        Ok(())
    }

    fn error(&self, message: String) -> io::Error {
        io::Error::new(io::ErrorKind::InvalidData, message)
    }
}

impl Read for Interleaved {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if !self.header.is_empty() {
            let n = buf.len().min(self.header.len());
            buf[..n].copy_from_slice(&self.header_bytes[self.header.start..self.header.start + n]);
            self.header.start += n;
            return Ok(n);
        }
        let mut filled = 0;
        while filled < buf.len() {
            let want = (buf.len() - filled) as u64;
            let n = if self.parent_bytes > 0 {
                let n = self.outboard.read(&mut buf[filled..][..want.min(self.parent_bytes) as usize])?;
                if n == 0 {
                    return Err(
                        self.error(format!("{}: shorter than a {}-byte input needs", self.outboard_name, self.len))
                    );
                }
                self.parent_bytes -= n as u64;
                n
            } else if self.group_bytes > 0 {
                let n = self.data.read(&mut buf[filled..][..want.min(self.group_bytes) as usize])?;
                if n == 0 {
                    return Err(self.error(format!("{}: shorter than the outboard's {} bytes", self.input, self.len)));
                }
                self.group_bytes -= n as u64;
                if self.group_bytes == 0 && self.next == self.groups {
                    self.check_end()?;
                }
                n
            } else if self.next < self.groups {
                self.parent_bytes = u64::from(self.parents_before(self.next)) * bao::PARENT_LEN as u64;
                self.group_bytes = self.group_len.min(self.len - self.next * self.group_len);
                self.next += 1;
                continue;
            } else {
                self.check_end()?;
                break;
            };
            filled += n;
        }
        Ok(filled)
    }
}

/// Standard input for none or `-`, else the file.
fn open(path: Option<&Path>) -> Result<Box<dyn Read>> {
    match path {
        None => Ok(Box::new(io::stdin())),
        Some(path) if path.as_os_str() == "-" => Ok(Box::new(io::stdin())),
        Some(path) => Ok(Box::new(File::open(path).with_context(|| path.display().to_string())?)),
    }
}

/// The whole input: a file mapped, standard input read.
fn read_all(path: Option<&Path>) -> Result<WholeInput> {
    let path = path.unwrap_or(Path::new("-"));
    whole_input(path).with_context(|| path.display().to_string())
}

/// The BLAKE3 hash of everything `reader` gives, read in 1 MiB pieces.
fn hash_stream(mut reader: impl Read) -> io::Result<blake3::Hash> {
    let mut hasher = blake3::Hasher::new();
    let mut buf = vec![0u8; 1 << 20];
    loop {
        match reader.read(&mut buf) {
            Ok(0) => return Ok(hasher.finalize()),
            Ok(n) => {
                hasher.update(&buf[..n]);
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
}

fn write_all(path: Option<&Path>, out: &mut dyn Write, bytes: &[u8]) -> Result<()> {
    match path {
        Some(path) if path.as_os_str() != "-" => {
            let mut file = OutputFile::create(path)?;
            file.file.write_all(bytes).with_context(|| path.display().to_string())?;
            file.finish()?
        }
        _ => out.write_all(bytes)?,
    }
    Ok(())
}

/// Copies verified bytes to OUTPUT (or `out`) as they come; the first
/// error stops it, after only verified bytes were written.
fn copy_verified(mut reader: impl Read, path: Option<&Path>, out: &mut dyn Write) -> Result<()> {
    match path {
        Some(path) if path.as_os_str() != "-" => {
            let mut file = OutputFile::create(path)?;
            io::copy(&mut reader, &mut file.file).context("decoding")?;
            file.finish()
        }
        _ => {
            io::copy(&mut reader, out).context("decoding")?;
            Ok(())
        }
    }
}
