//! `chunkhash bao`: the `bao` command's subcommands and arguments (hash,
//! encode, decode, slice, decode-slice) on `chunkhash::blake3::bao`, plus
//! chunk groups (`--group-size`) and post-order outboards (`--post-order`).
//!
//! Hashing streams; decoding a whole encoding or a slice streams too: bytes
//! are written as they verify, in bounded memory. Encoding, outboard-based
//! decoding and slicing map a file input (standard input is read whole)
//! and build the outboard, or the encoding, in memory.

// The bao command slices one range; the library takes lists of ranges.
#![allow(clippy::single_range_in_vec_init)]

use crate::input::{whole_input, WholeInput};
use crate::status::Printer;
use anyhow::{bail, Context, Result};
use chunkhash::blake3::{self, bao};
use clap::{Args, Subcommand};
use std::fs::File;
use std::io::{self, Read, Write};
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
first that does not verify.";

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
            let data = read_all(Some(&input))?;
            match (output, outboard) {
                (None, Some(path)) => write_all(Some(&path), out, tree.outboard(&data, order).bao_bytes())?,
                (output, None) => write_all(output.as_deref(), out, &tree.encode(&data).1)?,
                (Some(_), Some(_)) => bail!("encode takes OUTPUT or --outboard, not both"),
            }
        }
        BaoCommand::Decode { input, output, outboard, start, count, .. } => {
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
                Some(path) => {
                    let slice = slice_with_outboard(&tree, order, root, input.as_deref(), &path, &ranges)?;
                    copy_verified(bao::SliceReader::new(&slice[..], tree, root, &ranges), output.as_deref(), out)?;
                }
            }
        }
        BaoCommand::Slice { start, count, input, output, outboard } => {
            let ranges = [start..start.saturating_add(count)];
            let slice = match outboard {
                None => tree.slice_encoding(&read_all(input.as_deref())?, &ranges)?,
                // The slice only copies nodes; the root is not needed.
                Some(path) => slice_with_outboard(&tree, order, blake3::hash(b""), input.as_deref(), &path, &ranges)?,
            };
            write_all(output.as_deref(), out, &slice)?;
        }
        BaoCommand::DecodeSlice { start, count, input, output, .. } => {
            let ranges = [start..start.saturating_add(count)];
            let reader = bao::SliceReader::new(open(input.as_deref())?, tree, root(), &ranges);
            copy_verified(reader, output.as_deref(), out)?;
        }
    }
    Ok(())
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
        bail!("{}: an outboard starts with an 8-byte length", outboard.display());
    };
    let len = u64::from_le_bytes(*header);
    if len != data.len() as u64 {
        bail!("{}: the outboard is of {len} bytes, the input of {}", outboard.display(), data.len());
    }
    let outboard = bao::Outboard::from_parts(tree, root, len, order, nodes.to_vec())?;
    Ok(tree.slice(&data, &outboard, ranges)?)
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
            std::fs::write(path, bytes).with_context(|| path.display().to_string())?
        }
        _ => out.write_all(bytes)?,
    }
    Ok(())
}

/// Copies verified bytes to OUTPUT (or `out`) as they come; the first
/// error stops it, after only verified bytes were written.
fn copy_verified(mut reader: impl Read, path: Option<&Path>, out: &mut dyn Write) -> Result<()> {
    let result = match path {
        Some(path) if path.as_os_str() != "-" => {
            let mut file = File::create(path).with_context(|| path.display().to_string())?;
            io::copy(&mut reader, &mut file)
        }
        _ => io::copy(&mut reader, out),
    };
    result.context("decoding")?;
    Ok(())
}
