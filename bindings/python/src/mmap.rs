//! Files read through a memory map, for `update_mmap`, `chunk` and
//! `xet.hash_files`.

use std::fs::File;
use std::io::Read;
use std::path::Path;

use pyo3::exceptions::PyOSError;
use pyo3::{PyErr, PyResult};

/// Files below this are read: mapping costs more than copying them.
const MAP_FROM: u64 = 64 * 1024;
/// The read size for files that are not mapped.
const READ_LEN: usize = 64 * 1024;

/// Feeds the file's contents to `consume`: all at once from a read-only
/// memory map for regular files from 64 KiB, in pieces otherwise (small
/// files, pipes, devices, `/proc` files whose size says 0). Runs without the
/// GIL; errors become `OSError` (or its subclass for the errno) naming the path.
pub(crate) fn with_file(path: &Path, mut consume: impl FnMut(&[u8])) -> PyResult<()> {
    let error = |error| os_error(path, error);
    let (mut file, map) = open(path)?;
    if let Some(map) = map {
        consume(&map);
        return Ok(());
    }
    let mut buffer = vec![0u8; READ_LEN];
    loop {
        match file.read(&mut buffer) {
            Ok(0) => return Ok(()),
            Ok(n) => consume(&buffer[..n]),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(error(e)),
        }
    }
}

/// Calls `consume` once with the whole file: memory-mapped as `with_file`
/// maps, or read into memory (small files, pipes, devices). For callers that
/// need every byte at once, as the one-shot chunkers do. Runs without the
/// GIL; errors as `with_file`'s.
pub(crate) fn with_whole_file<T>(path: &Path, consume: impl FnOnce(&[u8]) -> T) -> PyResult<T> {
    let (mut file, map) = open(path)?;
    if let Some(map) = map {
        return Ok(consume(&map));
    }
    let mut contents = Vec::new();
    file.read_to_end(&mut contents).map_err(|error| os_error(path, error))?;
    Ok(consume(&contents))
}

/// Opens `path`, and maps it when it is a regular file of 64 KiB or more.
fn open(path: &Path) -> PyResult<(File, Option<memmap2::Mmap>)> {
    let error = |error| os_error(path, error);
    let file = File::open(path).map_err(error)?;
    let metadata = file.metadata().map_err(error)?;
    if metadata.is_file() && metadata.len() >= MAP_FROM {
        // SAFETY: the map is read-only and private to this call. Another
        // process may still change the file meanwhile: writes only change
        // what is hashed; truncation makes the next read of a lost page raise
        // SIGBUS. `update_mmap`'s documentation says so, as the `blake3`
        // crate's `update_mmap` does for the same contract.
        let map = unsafe { memmap2::Mmap::map(&file) }.map_err(error)?;
        return Ok((file, Some(map)));
    }
    Ok((file, None))
}

/// `OSError` (or its subclass for the errno) naming the path.
fn os_error(path: &Path, error: std::io::Error) -> PyErr {
    match error.raw_os_error() {
        Some(errno) => PyOSError::new_err((errno, error.to_string(), path.display().to_string())),
        None => PyOSError::new_err(format!("{}: {error}", path.display())),
    }
}
