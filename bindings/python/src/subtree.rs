//! BLAKE3 subtrees: one message hashed in ranges by many workers and merged
//! into the one standard hash (`chunkhash::blake3::subtree`).

use chunkhash::blake3::subtree::{self, Subtree, SubtreeError};
use chunkhash::blake3::OUT_LEN;
use chunkhash::Algorithm;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyTuple};

use crate::blake3::non_negative;
use crate::buffer::Bytes;
use crate::gil;
use crate::hasher::Mode;

fn value_error(error: SubtreeError) -> PyErr {
    PyValueError::new_err(error.to_string())
}

/// A range of a BLAKE3 message and its chaining value (non-root hash):
/// `Blake3Subtree(cv, offset, length)`. Made by `blake3_subtree` and
/// `blake3_merge`; immutable, comparable, hashable and picklable, so a
/// worker can send it to the process that merges.
#[pyclass(frozen, eq, hash, module = "chunkhash", name = "Blake3Subtree")]
#[derive(PartialEq, Hash)]
pub(crate) struct Blake3Subtree {
    subtree: Subtree,
}

#[pymethods]
impl Blake3Subtree {
    /// Checks the span: `offset` a multiple of 1024, `length` from 1 to
    /// `blake3_max_subtree_len(offset)`; `cv` 32 bytes. ValueError otherwise.
    #[new]
    fn py_new(cv: &Bound<'_, PyAny>, offset: &Bound<'_, PyAny>, length: &Bound<'_, PyAny>) -> PyResult<Self> {
        let bytes = Bytes::read(cv)?;
        let cv: [u8; OUT_LEN] = bytes.as_slice().try_into().map_err(|_| {
            PyValueError::new_err(format!("cv must be {OUT_LEN} bytes, got {}", bytes.as_slice().len()))
        })?;
        let offset = non_negative(offset, "offset")?;
        let length = non_negative(length, "length")?;
        Ok(Blake3Subtree { subtree: Subtree::from_parts(cv, offset, length).map_err(value_error)? })
    }

    /// The chaining value, 32 bytes.
    #[getter]
    fn cv<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, self.subtree.chaining_value())
    }

    /// The byte offset in the message where the subtree starts.
    #[getter]
    fn offset(&self) -> u64 {
        self.subtree.offset()
    }

    /// The subtree's length in bytes.
    #[getter]
    fn length(&self) -> u64 {
        self.subtree.len()
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>)> {
        let py = slf.py();
        let this = slf.get();
        let args = (this.cv(py), this.offset(), this.length()).into_pyobject(py)?;
        Ok((slf.get_type().into_any(), args))
    }

    fn __repr__(&self) -> String {
        let hex: String = self.subtree.chaining_value().iter().map(|byte| format!("{byte:02x}")).collect();
        format!("Blake3Subtree(cv=bytes.fromhex('{hex}'), offset={}, length={})", self.offset(), self.length())
    }
}

/// `blake3_subtree(data, offset=0, *, key=None, derive_key_context=None)`:
/// the subtree of `data`, the bytes at `offset` of a message, hashed at full
/// speed (the GIL released for large inputs).
#[pyfunction]
#[pyo3(signature = (data, /, offset = 0, *, key = None, derive_key_context = None))]
fn blake3_subtree(
    py: Python<'_>,
    data: &Bound<'_, PyAny>,
    offset: u64,
    key: Option<&Bound<'_, PyAny>>,
    derive_key_context: Option<&Bound<'_, PyAny>>,
) -> PyResult<Blake3Subtree> {
    let mode = Mode::parse(key, derive_key_context)?.subtree();
    let bytes = Bytes::read(data)?;
    let input = bytes.as_slice();
    let subtree = if input.len() >= gil::threshold(Algorithm::Blake3) {
        py.detach(|| mode.subtree(input, offset))
    } else {
        mode.subtree(input, offset)
    };
    Ok(Blake3Subtree { subtree: subtree.map_err(value_error)? })
}

/// `blake3_merge(left, right, *, key=None, derive_key_context=None)`: the
/// parent of two sibling subtrees (not the root). ValueError if they are
/// not the two children of one node of the tree.
#[pyfunction]
#[pyo3(signature = (left, right, /, *, key = None, derive_key_context = None))]
fn blake3_merge(
    left: &Blake3Subtree,
    right: &Blake3Subtree,
    key: Option<&Bound<'_, PyAny>>,
    derive_key_context: Option<&Bound<'_, PyAny>>,
) -> PyResult<Blake3Subtree> {
    let mode = Mode::parse(key, derive_key_context)?.subtree();
    Ok(Blake3Subtree { subtree: mode.merge(&left.subtree, &right.subtree).map_err(value_error)? })
}

/// `blake3_merge_root(left, right, *, key=None, derive_key_context=None,
/// length=32, seek=0)`: the hash of the message whose root has these two
/// children, `length` bytes of output from byte `seek`, as
/// `blake3.digest(length, seek=seek)`.
#[pyfunction]
#[pyo3(signature = (left, right, /, *, key = None, derive_key_context = None, length = None, seek = None))]
fn blake3_merge_root<'py>(
    py: Python<'py>,
    left: &Blake3Subtree,
    right: &Blake3Subtree,
    key: Option<&Bound<'py, PyAny>>,
    derive_key_context: Option<&Bound<'py, PyAny>>,
    length: Option<&Bound<'py, PyAny>>,
    seek: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyBytes>> {
    let mode = Mode::parse(key, derive_key_context)?.subtree();
    let length = match length {
        None => OUT_LEN,
        Some(length) => usize::try_from(non_negative(length, "length")?)
            .map_err(|_| PyValueError::new_err("length is too large"))?,
    };
    let seek = seek.map(|seek| non_negative(seek, "seek")).transpose()?.unwrap_or(0);
    let mut reader = mode.merge_root_xof(&left.subtree, &right.subtree).map_err(value_error)?;
    reader.set_position(seek);
    PyBytes::new_with(py, length, |out| {
        reader.fill(out);
        Ok(())
    })
}

/// `blake3_left_len(length)`: how many bytes of a subtree (or message) of
/// `length` bytes belong to its left child. ValueError for 1024 or less.
#[pyfunction]
fn blake3_left_len(length: &Bound<'_, PyAny>) -> PyResult<u64> {
    subtree::left_len(non_negative(length, "length")?).map_err(value_error)
}

/// `blake3_max_subtree_len(offset)`: the most bytes a subtree at `offset`
/// may hold; None at offset 0. ValueError unless `offset` is a multiple of 1024.
#[pyfunction]
fn blake3_max_subtree_len(offset: &Bound<'_, PyAny>) -> PyResult<Option<u64>> {
    subtree::max_subtree_len(non_negative(offset, "offset")?).map_err(value_error)
}

pub(crate) fn add_to(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_class::<Blake3Subtree>()?;
    module.add_function(wrap_pyfunction!(blake3_subtree, module)?)?;
    module.add_function(wrap_pyfunction!(blake3_merge, module)?)?;
    module.add_function(wrap_pyfunction!(blake3_merge_root, module)?)?;
    module.add_function(wrap_pyfunction!(blake3_left_len, module)?)?;
    module.add_function(wrap_pyfunction!(blake3_max_subtree_len, module)?)?;
    Ok(())
}
