//! `chunkhash sum`: one line per input, in argument order.

use crate::format;
use crate::input::{self, Progress};
use crate::settings::SumSettings;
use crate::status::Printer;
use anyhow::Result;
use rayon::prelude::*;
use std::fs::{self, Metadata};
use std::io;
use std::path::{Path, PathBuf};

/// Regular files below this size go through the batch path (read whole,
/// hashed many per call) when the method allows it: any algorithm's plain
/// hash at its own length ([`Method::is_registry_digest`](crate::method::Method::is_registry_digest)).
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

/// An input as named, with what one look at it said: its kind and size for
/// the progress total, the batch path and reading. `None` for stdin, and
/// for a path that cannot be looked at (opening it says why).
struct Input<'a> {
    path: &'a Path,
    metadata: Option<Metadata>,
}

impl<'a> Input<'a> {
    fn look(path: &'a Path) -> Input<'a> {
        let metadata = if path.as_os_str() == "-" { None } else { fs::metadata(path).ok() };
        Input { path, metadata }
    }

    /// The size of a regular file small enough for the batch path.
    fn small_file_len(&self) -> Option<u64> {
        self.metadata.as_ref().filter(|m| m.is_file() && m.len() < SMALL_FILE).map(Metadata::len)
    }
}

/// Runs `sum`.
pub fn run(settings: &SumSettings, printer: &mut Printer) -> Result<()> {
    let inputs: Vec<Input> = settings.inputs.iter().map(|path| Input::look(path)).collect();
    let mut progress = Progress::new(known_total(&inputs));
    printer.progress = Some(progress.bar());
    let batchable = settings.method.is_registry_digest() && settings.format != format::Format::Raw;
    let mut batch = Batch::default();
    for input in &inputs {
        if let Some(len) = input.small_file_len().filter(|_| batchable) {
            let data = input::read_small(input.path, len);
            batch.bytes += data.as_ref().map_or(0, Vec::len);
            batch.items.push((input.path.to_path_buf(), data));
            if batch.items.len() >= BATCH_FILES || batch.bytes >= BATCH_BYTES {
                flush_batch(&mut batch, settings, printer, &mut progress)?;
            }
            continue;
        }
        flush_batch(&mut batch, settings, printer, &mut progress)?;
        hash_one(input, settings, printer, &mut progress)?;
    }
    flush_batch(&mut batch, settings, printer, &mut progress)?;
    progress.finish();
    printer.progress = None;
    printer.flush()?;
    Ok(())
}

/// The sum of the sizes of the regular files named, when all are known.
fn known_total(inputs: &[Input]) -> Option<u64> {
    let mut total = 0u64;
    for input in inputs {
        if input.path.as_os_str() == "-" {
            return None;
        }
        total += input.metadata.as_ref().filter(|m| m.is_file()).map_or(0, Metadata::len);
    }
    Some(total)
}

#[derive(Default)]
struct Batch {
    items: Vec<(PathBuf, io::Result<Vec<u8>>)>,
    bytes: usize,
}

/// Hashes the batch's inputs with the library's batch call, which puts small
/// inputs side by side in SIMD lanes (BLAKE3's batch, the multi-buffer
/// kernels of SHA-256 and the others), and writes their lines in order.
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
    let algorithm = settings.method.algorithm;
    let mut hashes = vec![chunkhash::digest(algorithm, b""); inputs.len()];
    if settings.io.parallel() && inputs.len() > BATCH_PER_TASK {
        inputs
            .par_chunks(BATCH_PER_TASK)
            .zip(hashes.par_chunks_mut(BATCH_PER_TASK))
            .for_each(|(inputs, out)| chunkhash::digest_many(algorithm, inputs, out));
    } else {
        chunkhash::digest_many(algorithm, &inputs, &mut hashes);
    }
    let mut hashes = hashes.iter();
    for (path, data) in batch.items.drain(..) {
        match data {
            Ok(data) => {
                let hash = hashes.next().expect("one hash per readable input");
                progress.add(data.len() as u64);
                let name = format::line_name(&path, &settings.method, settings.raw_names);
                format::write_line(printer.out(), settings.format, &settings.method, &name, hash.as_bytes())?;
            }
            Err(error) => printer.file_error(&error_name(&path, settings), &error)?,
        }
    }
    batch.bytes = 0;
    Ok(())
}

fn hash_one(input: &Input, settings: &SumSettings, printer: &mut Printer, progress: &mut Progress) -> Result<()> {
    let methods = std::slice::from_ref(&settings.method);
    match input::hash_input(input.path, input.metadata.as_ref(), methods, settings.io, progress) {
        Ok(digests) => {
            let name = format::line_name(input.path, &settings.method, settings.raw_names);
            format::write_line(printer.out(), settings.format, &settings.method, &name, &digests[0])?;
        }
        Err(error) => printer.file_error(&error_name(input.path, settings), &error)?,
    }
    Ok(())
}

/// An input's name in a message: as its line would show it.
fn error_name(path: &Path, settings: &SumSettings) -> Vec<u8> {
    format::shown_name(&format::line_name(path, &settings.method, settings.raw_names))
}
