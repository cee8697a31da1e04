//! `hash_array`: an Arrow column of binary or string values in, a column of
//! digests out, through the Arrow PyCapsule Interface, so pyarrow, polars
//! and the rest work without the package depending on any of them.

mod export;
mod ffi;
mod import;

use std::ffi::CString;
use std::sync::Arc;

use chunkhash::Algorithm;
use pyo3::exceptions::{PyIndexError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyBytes;

pub(crate) use self::export::{Column, Values};
use self::import::{Offsets, Rows};
use crate::batch::{digests_in_groups, hash_into};
use crate::hasher::Mode;
use crate::names;

/// Hashes every value of an Arrow binary or string column. Returns a
/// `DigestArray` of `FixedSizeBinary(digest_size)`, or of `UInt64`/`UInt32`
/// for the 64- and 32-bit integer checksums; null values give null digests.
#[pyfunction]
#[pyo3(signature = (array, name = None, *, key = None, derive_key_context = None))]
pub(crate) fn hash_array(
    py: Python<'_>,
    array: &Bound<'_, PyAny>,
    name: Option<&Bound<'_, PyAny>>,
    key: Option<&Bound<'_, PyAny>>,
    derive_key_context: Option<&Bound<'_, PyAny>>,
) -> PyResult<DigestArray> {
    let (algorithm, mode) = crate::hasher::algorithm_and_mode(name, key, derive_key_context)?;
    let imported = import::import(array)?;
    let chunks = imported.arrays.iter().map(|array| Rows::new(array, imported.layout)).collect::<PyResult<Vec<_>>>()?;
    let column = py
        .detach(|| digest_column(algorithm, mode, &chunks))
        .map_err(|message| PyValueError::new_err(format!("malformed Arrow array: {message}")))?;
    // `chunks` borrow the imported arrays, released (with the GIL held, as
    // some producers need) when `imported` drops.
    drop(chunks);
    drop(imported);
    Ok(DigestArray { column: Arc::new(column) })
}

/// Rows hashed per batch call: the slice list stays small (1 MiB) however
/// long the column, and a block's inputs are still in cache when hashed.
const BLOCK_ROWS: usize = 64 * 1024;

/// Hashes the rows of every chunk into one column. Runs without the GIL.
fn digest_column(algorithm: Algorithm, mode: Mode<'_>, chunks: &[Rows<'_>]) -> Result<Column, &'static str> {
    let len: usize = chunks.iter().map(Rows::len).sum();
    let width = algorithm.digest_len();
    let mut data = vec![0u8; len * width];
    let mut inputs: Vec<&[u8]> = Vec::with_capacity(len.min(BLOCK_ROWS));
    let mut hashed = 0;
    let mut validity: Option<Vec<u8>> = None;
    let mut null_count = 0;
    for chunk in chunks {
        // Over offsets: the whole array in batch calls, straight from its
        // buffers; null rows are hashed too, and zeroed below.
        if let (Some(offsets), true) = (chunk.offsets(), inputs.is_empty()) {
            let out = &mut data[hashed * width..(hashed + chunk.len()) * width];
            if hash_offsets(algorithm, mode, &offsets, out)? {
                mark_nulls(chunk, hashed, len, &mut validity, &mut null_count);
                hashed += chunk.len();
                continue;
            }
        }
        for row in 0..chunk.len() {
            if chunk.is_valid(row) {
                inputs.push(chunk.row(row)?);
            } else {
                // Arrow leaves a null row's value undefined: hash nothing and
                // zero the digest below.
                let bitmap = validity.get_or_insert_with(|| vec![0xff; len.div_ceil(8)]);
                let at = hashed + inputs.len();
                bitmap[at / 8] &= !(1 << (at % 8));
                null_count += 1;
                inputs.push(&[]);
            }
            if inputs.len() == BLOCK_ROWS {
                hash_into(algorithm, mode, &inputs, &mut data[hashed * width..(hashed + BLOCK_ROWS) * width]);
                hashed += BLOCK_ROWS;
                inputs.clear();
            }
        }
    }
    hash_into(algorithm, mode, &inputs, &mut data[hashed * width..]);
    if let Some(bitmap) = &validity {
        for (row, digest) in data.chunks_exact_mut(width).enumerate() {
            if bitmap[row / 8] >> (row % 8) & 1 == 0 {
                digest.fill(0);
            }
        }
    }
    let (format, values) = match (names::is_integer(algorithm), width) {
        (true, 8) => (
            "L".to_owned(),
            Values::U64(data.chunks_exact(8).map(|d| u64::from_be_bytes(d.try_into().unwrap_or_default())).collect()),
        ),
        (true, 4) => (
            "I".to_owned(),
            Values::U32(data.chunks_exact(4).map(|d| u32::from_be_bytes(d.try_into().unwrap_or_default())).collect()),
        ),
        _ => (format!("w:{width}"), Values::Bytes { data, width }),
    };
    let format = CString::new(format).unwrap_or_default();
    Ok(Column { format, len, null_count, validity, values })
}

/// Hashes every value of `offsets` into `out` through a batch call's
/// offsets entry point: no slice list, the values scheduled across SIMD
/// lanes inside the library. BLAKE3 (32 or 20 bytes, any mode) through its
/// `Batch`, every other algorithm through `chunkhash::digest_offsets` a
/// group at a time. Returns whether it did (always, today).
fn hash_offsets(
    algorithm: Algorithm,
    mode: Mode<'_>,
    offsets: &Offsets<'_>,
    out: &mut [u8],
) -> Result<bool, &'static str> {
    const BAD: &str = "offsets out of order or past the data";
    if !matches!(algorithm, Algorithm::Blake3 | Algorithm::Blake3_160) {
        // Offsets are absolute positions in `data`, so a group's values are
        // its window of the offsets, one entry longer than the group.
        let result = match offsets {
            Offsets::I32 { offsets, data } => digests_in_groups(algorithm, out, |start, digests| {
                chunkhash::digest_offsets(algorithm, data, &offsets[start..=start + digests.len()], digests)
            }),
            Offsets::I64 { offsets, data } => digests_in_groups(algorithm, out, |start, digests| {
                chunkhash::digest_offsets(algorithm, data, &offsets[start..=start + digests.len()], digests)
            }),
        };
        return result.map(|()| true).map_err(|_| BAD);
    }
    let batch = mode.batch();
    let result = match (offsets, algorithm) {
        (Offsets::I32 { offsets, data }, Algorithm::Blake3) => {
            batch.hash_offsets(data, offsets, out.as_chunks_mut::<32>().0)
        }
        (Offsets::I64 { offsets, data }, Algorithm::Blake3) => {
            batch.hash_offsets(data, offsets, out.as_chunks_mut::<32>().0)
        }
        (Offsets::I32 { offsets, data }, _) => batch.hash_offsets(data, offsets, out.as_chunks_mut::<20>().0),
        (Offsets::I64 { offsets, data }, _) => batch.hash_offsets(data, offsets, out.as_chunks_mut::<20>().0),
    };
    result.map(|()| true).map_err(|_| BAD)
}

/// Records the null rows of `chunk`, whose first row is row `first` of a
/// column of `len`, in the column's validity bitmap.
fn mark_nulls(chunk: &Rows<'_>, first: usize, len: usize, validity: &mut Option<Vec<u8>>, null_count: &mut usize) {
    for row in 0..chunk.len() {
        if !chunk.is_valid(row) {
            let bitmap = validity.get_or_insert_with(|| vec![0xff; len.div_ceil(8)]);
            let at = first + row;
            bitmap[at / 8] &= !(1 << (at % 8));
            *null_count += 1;
        }
    }
}

/// The result of `hash_array`: an Arrow array of digests. Exports itself
/// through `__arrow_c_array__` and `__arrow_c_stream__`, so
/// `pyarrow.array(digests)` or `polars.Series(digests)` take it without a
/// copy; indexing gives one digest (`bytes`, `int`, or `None` for null).
#[pyclass(frozen, module = "chunkhash", name = "DigestArray", sequence)]
#[derive(Debug)]
pub(crate) struct DigestArray {
    column: Arc<Column>,
}

impl DigestArray {
    /// Wraps a finished column (also of offsets or lengths, for `chunk`).
    pub(crate) fn from_column(column: Column) -> DigestArray {
        DigestArray { column: Arc::new(column) }
    }
}

#[pymethods]
impl DigestArray {
    #[pyo3(signature = (requested_schema = None))]
    fn __arrow_c_array__<'py>(
        &self,
        py: Python<'py>,
        requested_schema: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyAny>)> {
        let _ = requested_schema; // The interface lets a producer keep its own type.
        export::array_capsules(py, &self.column)
    }

    #[pyo3(signature = (requested_schema = None))]
    fn __arrow_c_stream__<'py>(
        &self,
        py: Python<'py>,
        requested_schema: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let _ = requested_schema;
        export::stream_capsule(py, &self.column)
    }

    fn __len__(&self) -> usize {
        self.column.len
    }

    fn __getitem__<'py>(&self, py: Python<'py>, index: isize) -> PyResult<Bound<'py, PyAny>> {
        let len = self.column.len as isize;
        let row = if index < 0 { index + len } else { index };
        if !(0..len).contains(&row) {
            return Err(PyIndexError::new_err("DigestArray index out of range"));
        }
        let row = row as usize;
        if let Some(bitmap) = &self.column.validity {
            if bitmap[row / 8] >> (row % 8) & 1 == 0 {
                return Ok(py.None().into_bound(py));
            }
        }
        Ok(match &self.column.values {
            Values::Bytes { data, width } => PyBytes::new(py, &data[row * width..(row + 1) * width]).into_any(),
            Values::U64(values) => values[row].into_pyobject(py)?.into_any(),
            Values::U32(values) => values[row].into_pyobject(py)?.into_any(),
        })
    }

    /// Rows whose value was null.
    #[getter]
    fn null_count(&self) -> usize {
        self.column.null_count
    }

    /// The Arrow type: `fixed_size_binary[N]`, `uint64` or `uint32`.
    #[getter]
    fn r#type(&self) -> String {
        match &self.column.values {
            Values::Bytes { width, .. } => format!("fixed_size_binary[{width}]"),
            Values::U64(_) => "uint64".to_owned(),
            Values::U32(_) => "uint32".to_owned(),
        }
    }

    fn __repr__(&self) -> String {
        format!("<chunkhash.DigestArray {} x {}, {} null>", self.column.len, self.r#type(), self.column.null_count)
    }
}
