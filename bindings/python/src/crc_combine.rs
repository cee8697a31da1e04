//! `crc_combine(name, crc_a, crc_b, length_b)`: the CRC of A || B from the
//! CRCs of A and B and the length of B, so the parts of an object hashed by
//! many workers give the full object's CRC (S3's full-object checksums).
//! Only converts arguments: the arithmetic is `chunkhash::crc_combine`.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::names;

/// `crc_combine(name, crc_a, crc_b, length_b, /)`: the CRC of A || B, for
/// `crc32c`, `crc32` or `crc64nvme`, from `crc_a` and `crc_b` (the integers
/// `intdigest()` gives) and `length_b`, the length of B in bytes. ValueError
/// for another algorithm or a CRC wider than the algorithm's.
#[pyfunction]
#[pyo3(signature = (name, crc_a, crc_b, length_b, /))]
pub(crate) fn crc_combine(name: &Bound<'_, PyAny>, crc_a: u64, crc_b: u64, length_b: u64) -> PyResult<u64> {
    let algorithm = names::parse(name)?;
    chunkhash::crc_combine(algorithm, crc_a, crc_b, length_b).map_err(|error| PyValueError::new_err(error.to_string()))
}
