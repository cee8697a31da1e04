//! `chunkhash chunk` (content-defined chunks and their addresses) and
//! `chunkhash xet-hash` (Xet file hashes, as the Hugging Face Hub shows
//! them), both on `chunkhash::cdc` and `chunkhash::xet`.

use crate::input::whole_input;
use crate::status::Printer;
use anyhow::{anyhow, bail, Result};
use chunkhash::blake3::{self, Batch};
use chunkhash::cdc::{Cdc, Chunk, Normalization};
use chunkhash::xet;
use clap::{Args, ValueEnum};
use std::io::Write;
use std::path::PathBuf;

/// `chunkhash chunk`.
#[derive(Debug, Args)]
#[command(after_long_help = CHUNK_HELP)]
pub struct ChunkFlags {
    /// Files to chunk (`-` for standard input)
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,

    /// Xet's chunker, 8/64/128 KiB (the default)
    #[arg(long, conflicts_with = "fastcdc")]
    pub xet: bool,

    /// FastCDC 2020 with these minimum, average and maximum sizes, as the `fastcdc` crate
    /// (normalization level 1): 16K,64K,256K, ...
    #[arg(long, value_name = "MIN,AVG,MAX")]
    pub fastcdc: Option<String>,

    /// Each chunk's address: xet (Xet's chunk hash; the default with --xet), blake3
    /// (the default with --fastcdc) or blake3-160 (its first 20 bytes)
    #[arg(long, value_name = "KIND")]
    pub address: Option<AddressKind>,

    /// One JSON object per chunk: {"file", "offset", "length", "address"}
    #[arg(long)]
    pub json: bool,
}

/// What `chunk` prints as a chunk's address.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum AddressKind {
    /// Xet's chunk hash (keyed BLAKE3 under Xet's data key), in Xet's string form.
    Xet,
    /// BLAKE3, 32 bytes in hex.
    Blake3,
    /// The first 20 bytes of BLAKE3 in hex.
    #[value(name = "blake3-160")]
    Blake3_160,
}

const CHUNK_HELP: &str = "\
Lines are `OFFSET LENGTH ADDRESS  FILE`, one per chunk, in order: the chunk's
first byte from the start of the file, its length in bytes, and its address.
Xet's chunker cuts where Hugging Face's xet-core cuts (chunks of 8 KiB to 128
KiB, except a file's last), and its addresses are the chunk hashes the Hub
stores; --fastcdc cuts where the `fastcdc` crate's v2020 chunker cuts with the
same sizes (MIN 64 to 1M, AVG 256 to 4M, MAX 1K to 16M, all even).

Exit status: 0 if every file was read, 1 if any could not be, 2 for bad usage.";

/// `chunkhash xet-hash`.
#[derive(Debug, Args)]
#[command(after_long_help = XET_HASH_HELP)]
pub struct XetHashFlags {
    /// Files to hash (`-` for standard input)
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,

    /// One JSON object per file: {"file", "size", "xetHash"}
    #[arg(long)]
    pub json: bool,
}

const XET_HASH_HELP: &str = "\
Lines are `HASH  FILE`: the file's Xet hash, the value the Hugging Face Hub
gives as `xetHash` in a repository's file listing and `hf_xet.hash_files` as
`hash` (hex, each 8-byte group printed as a little-endian number, as Xet
writes it). An empty file's hash is all zeros.

Exit status: 0 if every file was read, 1 if any could not be, 2 for bad usage.";

/// Inputs of this size and more are chunked and hashed on all cores
/// (rayon's global pool: `RAYON_NUM_THREADS` bounds it), in segments of 8
/// MiB; smaller ones in one pass on one thread.
const PARALLEL_MIN: usize = 16 << 20;

/// A chunker and the address of its chunks.
struct ChunkSettings {
    cdc: Cdc,
    address: AddressKind,
}

fn chunk_settings(flags: &ChunkFlags) -> Result<ChunkSettings> {
    let Some(sizes) = &flags.fastcdc else {
        return Ok(ChunkSettings { cdc: Cdc::xet(), address: flags.address.unwrap_or(AddressKind::Xet) });
    };
    let sizes: Vec<usize> = sizes
        .split(',')
        .map(|size| chunkhash_store::parse_size(size).map_err(|e| anyhow!("--fastcdc: {e}")))
        .collect::<Result<_>>()?;
    let [min, avg, max] = sizes[..] else {
        bail!("--fastcdc: expected three sizes MIN,AVG,MAX, got {}", sizes.len());
    };
    let cdc = Cdc::fastcdc(min, avg, max, Normalization::Level1).map_err(|e| anyhow!("--fastcdc: {e}"))?;
    Ok(ChunkSettings { cdc, address: flags.address.unwrap_or(AddressKind::Blake3) })
}

pub fn run_chunk(flags: ChunkFlags, printer: &mut Printer) -> Result<()> {
    let settings = chunk_settings(&flags)?;
    let batch = match settings.address {
        AddressKind::Xet => xet::chunk_batch(),
        AddressKind::Blake3 | AddressKind::Blake3_160 => Batch::new(),
    };
    each_input(&flags.files, printer, |data, shown, out| {
        let mut result = Ok(());
        let mut print = |chunk: Chunk, hash: blake3::Hash| {
            if result.is_err() {
                return;
            }
            let address = match settings.address {
                AddressKind::Xet => xet::Hash::from(hash).to_hex().to_string(),
                AddressKind::Blake3 => hash.to_hex().to_string(),
                AddressKind::Blake3_160 => hash.address().to_hex().to_string(),
            };
            result = if flags.json {
                let line = serde_json::json!({
                    "file": shown,
                    "offset": chunk.offset,
                    "length": chunk.length,
                    "address": address,
                });
                writeln!(out, "{line}")
            } else {
                writeln!(out, "{} {} {address}  {shown}", chunk.offset, chunk.length)
            };
        };
        if data.len() >= PARALLEL_MIN {
            settings.cdc.chunk_and_hash_parallel(data, &batch).into_iter().for_each(|(c, h)| print(c, h));
        } else {
            settings.cdc.chunk_and_hash(data, &batch, print);
        }
        result
    })
}

pub fn run_xet_hash(flags: XetHashFlags, printer: &mut Printer) -> Result<()> {
    each_input(&flags.files, printer, |data, shown, out| {
        let hash = if data.len() >= PARALLEL_MIN { xet::file_hash_parallel(data) } else { xet::file_hash(data) };
        if flags.json {
            let line = serde_json::json!({ "file": shown, "size": data.len(), "xetHash": hash.to_hex().as_str() });
            writeln!(out, "{line}")
        } else {
            writeln!(out, "{hash}  {shown}")
        }
    })
}

/// Calls `work` with each input's bytes, its name as shown, and stdout; an
/// input that cannot be read is reported (the run will exit 1) and skipped.
fn each_input(
    files: &[PathBuf],
    printer: &mut Printer,
    mut work: impl FnMut(&[u8], &str, &mut dyn Write) -> std::io::Result<()>,
) -> Result<()> {
    for path in files {
        let name = path.as_os_str().as_encoded_bytes();
        let data = match whole_input(path) {
            Ok(data) => data,
            Err(error) => {
                printer.file_error(name, &error)?;
                continue;
            }
        };
        work(&data, &String::from_utf8_lossy(name), printer.out())?;
    }
    Ok(())
}
