//! `chunkhash sum`: one line per input, in argument order.

use crate::algo::{self, Method};
use crate::escape;
use crate::input::{self, Progress};
use crate::settings::{Format, SumSettings};
use crate::status::Printer;
use anyhow::Result;
use chunkhash::blake3;
use rayon::prelude::*;
use std::borrow::Cow;
use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// Regular files below this size go through the batch path (read whole,
/// hashed many per call) when the method allows it: the plain BLAKE3 hash.
/// 64 KiB is the read buffer: such a file takes one `read` either way, so
/// holding it whole costs nothing, and a batch call can put several of
/// them side by side in SIMD lanes.
pub const SMALL_FILE: u64 = 64 * 1024;
/// A batch is flushed at this many files...
const BATCH_FILES: usize = 256;
/// ...or this many bytes, whichever comes first.
const BATCH_BYTES: usize = 8 << 20;
/// Inputs per task when a batch is spread over threads.
const BATCH_PER_TASK: usize = 16;

/// Hashes small inputs with the default BLAKE3 hash, many per call: the
/// library's batch API, which puts small inputs side by side in SIMD lanes.
pub fn hash_small_batch(inputs: &[&[u8]], out: &mut [blake3::Hash]) {
    blake3::hash_many(inputs, out);
}

/// Runs `sum`.
pub fn run(settings: &SumSettings, printer: &mut Printer) -> Result<()> {
    let total = known_total(&settings.inputs);
    let mut progress = Progress::new(total);
    printer.progress = Some(progress.bar());
    let batchable = settings.method.is_plain_blake3() && settings.format != Format::Raw;
    let mut batch = Batch::default();
    for path in &settings.inputs {
        if batchable && path.as_os_str() != "-" {
            if let Ok(metadata) = fs::metadata(path) {
                if metadata.is_file() && metadata.len() < SMALL_FILE {
                    let data = fs::read(path);
                    batch.bytes += data.as_ref().map_or(0, Vec::len);
                    batch.items.push((path.clone(), data));
                    if batch.items.len() >= BATCH_FILES || batch.bytes >= BATCH_BYTES {
                        flush_batch(&mut batch, settings, printer, &mut progress)?;
                    }
                    continue;
                }
            }
        }
        flush_batch(&mut batch, settings, printer, &mut progress)?;
        hash_one(path, settings, printer, &mut progress)?;
    }
    flush_batch(&mut batch, settings, printer, &mut progress)?;
    progress.finish();
    printer.progress = None;
    printer.flush()?;
    Ok(())
}

/// The sum of the sizes of the regular files named, when all are known.
fn known_total(inputs: &[PathBuf]) -> Option<u64> {
    let mut total = 0u64;
    for path in inputs {
        if path.as_os_str() == "-" {
            return None;
        }
        total += fs::metadata(path).ok().filter(|m| m.is_file()).map_or(0, |m| m.len());
    }
    Some(total)
}

#[derive(Default)]
struct Batch {
    items: Vec<(PathBuf, io::Result<Vec<u8>>)>,
    bytes: usize,
}

fn flush_batch(
    batch: &mut Batch,
    settings: &SumSettings,
    printer: &mut Printer,
    progress: &mut Progress,
) -> Result<()> {
    if batch.items.is_empty() {
        return Ok(());
    }
    let inputs: Vec<&[u8]> = batch.items.iter().filter_map(|(_, data)| data.as_deref().ok()).collect();
    let mut hashes = vec![blake3::Hash::from_bytes([0; blake3::OUT_LEN]); inputs.len()];
    if settings.io.parallel() && inputs.len() > BATCH_PER_TASK {
        inputs
            .par_chunks(BATCH_PER_TASK)
            .zip(hashes.par_chunks_mut(BATCH_PER_TASK))
            .for_each(|(inputs, out)| hash_small_batch(inputs, out));
    } else {
        hash_small_batch(&inputs, &mut hashes);
    }
    let mut hashes = hashes.iter();
    for (path, data) in batch.items.drain(..) {
        match data {
            Ok(data) => {
                let hash = hashes.next().expect("one hash per readable input");
                progress.add(data.len() as u64);
                write_line(printer.out(), settings, &settings.method, path_name(&path).as_ref(), hash.as_bytes())?;
            }
            Err(error) => printer.file_error(&display_name(&path), &error)?,
        }
    }
    batch.bytes = 0;
    Ok(())
}

fn hash_one(path: &Path, settings: &SumSettings, printer: &mut Printer, progress: &mut Progress) -> Result<()> {
    match input::hash_input(path, std::slice::from_ref(&settings.method), settings.io, progress) {
        Ok(digests) => write_line(printer.out(), settings, &settings.method, path_name(path).as_ref(), &digests[0])?,
        Err(error) => printer.file_error(&display_name(path), &error)?,
    }
    Ok(())
}

/// A path's bytes as the line shows them; stdin is `-`.
fn path_name(path: &Path) -> Cow<'_, [u8]> {
    escape::path_bytes(path)
}

/// A path for error messages: lossy UTF-8, escaped like output lines.
pub fn display_name(path: &Path) -> String {
    String::from_utf8_lossy(&escape::escape(&escape::path_bytes(path))).into_owned()
}

/// Writes one output line: `HEX  NAME`, `TAG (NAME) = HEX` or raw bytes.
pub fn write_line(
    out: &mut impl Write,
    settings: &SumSettings,
    method: &Method,
    name: &[u8],
    digest: &[u8],
) -> io::Result<()> {
    let format = settings.format;
    if format == Format::Raw {
        return out.write_all(digest);
    }
    let escaped = escape::needs_escape(name);
    let mut line = Vec::with_capacity(name.len() + 2 * digest.len() + 32);
    if escaped {
        line.push(b'\\');
    }
    let hex = algo::to_hex(digest);
    match format {
        Format::Tag => {
            line.extend_from_slice(algo::tag_for(method).as_bytes());
            line.extend_from_slice(b" (");
            line.extend_from_slice(&escape::escape(name));
            line.extend_from_slice(b") = ");
            line.extend_from_slice(hex.as_bytes());
        }
        _ => {
            line.extend_from_slice(algo::hex_prefix(method.algorithm).as_bytes());
            line.extend_from_slice(hex.as_bytes());
            line.extend_from_slice(b"  ");
            line.extend_from_slice(&escape::escape(name));
        }
    }
    line.push(b'\n');
    out.write_all(&line)
}
