//! `chunkhash.s3.checksums`' native half: S3's checksums of a file or a
//! buffer (`chunkhash::s3_checksums`), computed without the GIL.

use std::path::PathBuf;

use chunkhash::s3_checksums::{S3Checksum, S3Hasher};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::buffer::Bytes;

/// What `_s3_checksums` returns: the (field, value) pairs, the ETag and the
/// number of parts (0 for a single-part upload).
type Sums = (Vec<(String, String)>, String, u64);

/// `_s3_checksums(source, is_path, part_size, kinds)`: `source` is a path
/// (`is_path`) or a buffer; `kinds` S3's names (None: all ten).
#[pyfunction]
#[pyo3(signature = (source, is_path, part_size = None, kinds = None))]
pub(crate) fn _s3_checksums(
    py: Python<'_>,
    source: &Bound<'_, PyAny>,
    is_path: bool,
    part_size: Option<u64>,
    kinds: Option<Vec<String>>,
) -> PyResult<Sums> {
    let kinds = match kinds {
        None => S3Checksum::ALL.to_vec(),
        Some(names) => names
            .iter()
            .map(|name| {
                S3Checksum::from_name(name).ok_or_else(|| {
                    let known: Vec<&str> = S3Checksum::ALL.iter().map(|k| k.name()).collect();
                    PyValueError::new_err(format!("unknown S3 checksum {name:?} (known: {})", known.join(", ")))
                })
            })
            .collect::<PyResult<_>>()?,
    };
    let mut hasher = match part_size {
        None => S3Hasher::new(&kinds),
        Some(size) => S3Hasher::with_part_size(&kinds, size).map_err(|e| PyValueError::new_err(e.to_string()))?,
    };
    if is_path {
        let path: PathBuf = source.extract()?;
        py.detach(|| {
            crate::mmap::with_file(&path, |input| {
                hasher.update(input);
            })
        })?;
    } else {
        let bytes = Bytes::read(source)?;
        let data = bytes.as_slice();
        py.detach(|| {
            hasher.update(data);
        });
    }
    let sums = hasher.finalize();
    let values = sums.values().map(|(kind, value)| (kind.field(), value.to_string())).collect();
    Ok((values, sums.etag().to_string(), sums.parts()))
}
