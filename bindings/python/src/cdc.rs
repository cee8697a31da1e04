//! `chunkhash.chunk` and `chunkhash.xet.hash_files`' native half: content-
//! defined chunks with their addresses (`chunkhash::cdc`) and Xet file
//! hashes (`chunkhash::xet`), computed without the GIL.

use std::path::PathBuf;

use chunkhash::blake3::{self, Batch};
use chunkhash::cdc::{Cdc, Chunk, Normalization};
use chunkhash::xet;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::arrow::{Column, DigestArray, Values};
use crate::buffer::Bytes;

/// Inputs of this size and more are chunked and hashed on all cores
/// (rayon's global pool), in segments, as the CLI does (crates/cli/src/chunk.rs):
/// the same chunks and addresses as one thread.
const PARALLEL_MIN: usize = 16 << 20;

/// What `chunk` gives each chunk as its address.
#[derive(Clone, Copy)]
enum Address {
    /// BLAKE3, 32 bytes.
    Blake3,
    /// BLAKE3's first 20 bytes.
    Blake3_160,
    /// Xet's chunk hash (keyed BLAKE3), its 32 raw bytes.
    Xet,
}

impl Address {
    fn parse(name: &str) -> PyResult<Address> {
        match name {
            "blake3" => Ok(Address::Blake3),
            "blake3-160" | "blake3_160" => Ok(Address::Blake3_160),
            "xet" => Ok(Address::Xet),
            _ => Err(PyValueError::new_err(format!(
                "unknown chunk address {name:?} (known: \"blake3\", \"blake3-160\", \"xet\")"
            ))),
        }
    }

    fn width(self) -> usize {
        match self {
            Address::Blake3 | Address::Xet => blake3::OUT_LEN,
            Address::Blake3_160 => 20,
        }
    }

    fn batch(self) -> Batch {
        match self {
            Address::Xet => xet::chunk_batch(),
            Address::Blake3 | Address::Blake3_160 => Batch::new(),
        }
    }
}

/// `_chunk(source, is_path, fastcdc, address)`: the chunks of a file
/// (`is_path`) or a buffer, cut by FastCDC 2020 with `fastcdc = (min, avg,
/// max)` (normalization level 1, as the `fastcdc` crate's default) or by
/// Xet's chunker (`None`), as three Arrow arrays: offsets and lengths
/// (`uint64`) and addresses (`fixed_size_binary[32]` or `[20]`).
#[pyfunction]
pub(crate) fn _chunk(
    py: Python<'_>,
    source: &Bound<'_, PyAny>,
    is_path: bool,
    fastcdc: Option<(usize, usize, usize)>,
    address: &str,
) -> PyResult<(DigestArray, DigestArray, DigestArray)> {
    let cdc = match fastcdc {
        None => Cdc::xet(),
        Some((min, avg, max)) => Cdc::fastcdc(min, avg, max, Normalization::Level1)
            .map_err(|e| PyValueError::new_err(format!("fastcdc: {e}")))?,
    };
    let address = Address::parse(address)?;
    let columns = if is_path {
        let path: PathBuf = source.extract()?;
        py.detach(|| crate::mmap::with_whole_file(&path, |data| chunk_columns(cdc, address, data)))?
    } else {
        let bytes = Bytes::read(source)?;
        let data = bytes.as_slice();
        py.detach(|| chunk_columns(cdc, address, data))
    };
    let [offsets, lengths, addresses] = columns.map(DigestArray::from_column);
    Ok((offsets, lengths, addresses))
}

/// The three columns of `data`'s chunks. Runs without the GIL.
fn chunk_columns(cdc: Cdc, address: Address, data: &[u8]) -> [Column; 3] {
    let width = address.width();
    let batch = address.batch();
    let (mut offsets, mut lengths, mut addresses) = (Vec::new(), Vec::new(), Vec::new());
    let mut push = |chunk: Chunk, hash: blake3::Hash| {
        offsets.push(chunk.offset);
        lengths.push(chunk.length as u64);
        addresses.extend_from_slice(&hash.as_bytes()[..width]);
    };
    if data.len() >= PARALLEL_MIN {
        cdc.chunk_and_hash_parallel(data, &batch).into_iter().for_each(|(chunk, hash)| push(chunk, hash));
    } else {
        cdc.chunk_and_hash(data, &batch, push);
    }
    let len = offsets.len();
    [
        Column::new("L", len, Values::U64(offsets)),
        Column::new("L", len, Values::U64(lengths)),
        Column::new(&format!("w:{width}"), len, Values::Bytes { data: addresses, width }),
    ]
}

/// `_xet_hash_files(paths)`: each file's Xet hash in Xet's string form and
/// its size, in order; the first unreadable file raises `OSError`.
#[pyfunction]
pub(crate) fn _xet_hash_files(py: Python<'_>, paths: Vec<PathBuf>) -> PyResult<Vec<(String, u64)>> {
    py.detach(|| {
        paths
            .iter()
            .map(|path| {
                crate::mmap::with_whole_file(path, |data| {
                    let hash =
                        if data.len() >= PARALLEL_MIN { xet::file_hash_parallel(data) } else { xet::file_hash(data) };
                    (hash.to_hex().to_string(), data.len() as u64)
                })
            })
            .collect()
    })
}
