//! The `blake3` class: BLAKE3 with its keyed and key-derivation modes and
//! extended output (`digest(length, seek=)`), the interface of blake3-py.

use std::path::PathBuf;
use std::sync::Mutex;

use chunkhash::blake3::{Hasher, KEY_LEN, OUT_LEN};
use chunkhash::Algorithm;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyInt, PyString};

use crate::buffer::type_name;
use crate::gil::{self, with_lock};
use crate::hasher::Mode;

/// A running BLAKE3 hash: `blake3(data=b"", *, key=None,
/// derive_key_context=None)`.
#[pyclass(frozen, module = "chunkhash", name = "blake3")]
pub(crate) struct Blake3 {
    // Boxed: the hasher is 2.8 KiB, which the Python object would otherwise
    // hold inline, so every object creation would zero and copy it; boxed,
    // it is built once on the heap (blake3(data).digest() at 64 B: 7775 ->
    // 3953 instructions, callgrind).
    state: Mutex<Box<Hasher>>,
}

impl Blake3 {
    pub(crate) fn create(py: Python<'_>, mode: Mode<'_>, data: Option<&Bound<'_, PyAny>>) -> PyResult<Blake3> {
        let hasher = Blake3 { state: Mutex::new(Box::new(mode.hasher())) };
        if let Some(data) = data {
            hasher.update(py, data)?;
        }
        Ok(hasher)
    }
}

#[pymethods]
impl Blake3 {
    /// "blake3".
    #[classattr]
    #[allow(non_upper_case_globals)] // Python's attribute names.
    const name: &'static str = "blake3";
    /// Bytes in the default digest, 32.
    #[classattr]
    #[allow(non_upper_case_globals)] // Python's attribute names.
    const digest_size: usize = OUT_LEN;
    /// Bytes in a compression block, 64.
    #[classattr]
    #[allow(non_upper_case_globals)] // Python's attribute names.
    const block_size: usize = 64;
    /// Bytes in a key, 32.
    #[classattr]
    #[allow(non_upper_case_globals)] // Python's attribute names.
    const key_size: usize = KEY_LEN;

    #[new]
    #[pyo3(signature = (data = None, /, *, key = None, derive_key_context = None, usedforsecurity = true))]
    fn py_new(
        py: Python<'_>,
        data: Option<&Bound<'_, PyAny>>,
        key: Option<&Bound<'_, PyAny>>,
        derive_key_context: Option<&Bound<'_, PyAny>>,
        usedforsecurity: bool,
    ) -> PyResult<Blake3> {
        let _ = usedforsecurity; // Accepted for hashlib compatibility; BLAKE3 is always for security.
        Blake3::create(py, Mode::parse(key, derive_key_context)?, data)
    }

    /// Adds the bytes of any C-contiguous buffer. Returns None.
    #[pyo3(signature = (data, /))]
    fn update(&self, py: Python<'_>, data: &Bound<'_, PyAny>) -> PyResult<()> {
        crate::hasher::update(py, &self.state, Algorithm::Blake3, data)
    }

    /// Adds the contents of the file at `path`, memory-mapped, with the GIL
    /// released. The file must not shrink meanwhile (SIGBUS, as with any mmap).
    fn update_mmap(&self, py: Python<'_>, path: PathBuf) -> PyResult<()> {
        crate::hasher::update_mmap(py, &self.state, &path)
    }

    /// `length` bytes of output (32 by default: the hash), starting at byte
    /// `seek` of BLAKE3's extended output.
    #[pyo3(signature = (length = None, *, seek = None))]
    fn digest<'py>(
        &self,
        py: Python<'py>,
        length: Option<&Bound<'py, PyAny>>,
        seek: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let length = match length {
            None => OUT_LEN,
            Some(length) => usize::try_from(non_negative(length, "length")?)
                .map_err(|_| PyValueError::new_err("length is too large"))?,
        };
        let seek = match seek {
            None => 0,
            Some(seek) => non_negative(seek, "seek")?,
        };
        if length == OUT_LEN && seek == 0 {
            let hash = with_lock(py, &self.state, false, |state| state.finalize());
            return Ok(PyBytes::new(py, hash.as_bytes()));
        }
        let mut reader = with_lock(py, &self.state, false, |state| state.finalize_xof());
        reader.set_position(seek);
        PyBytes::new_with(py, length, |out| {
            if length >= gil::threshold(Algorithm::Blake3) {
                py.detach(|| reader.fill(out));
            } else {
                reader.fill(out);
            }
            Ok(())
        })
    }

    /// `digest()` as lowercase hex.
    #[pyo3(signature = (length = None, *, seek = None))]
    fn hexdigest<'py>(
        &self,
        py: Python<'py>,
        length: Option<&Bound<'py, PyAny>>,
        seek: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyString>> {
        let digest = self.digest(py, length, seek)?;
        let mut hex = String::with_capacity(2 * digest.as_bytes().len());
        for byte in digest.as_bytes() {
            hex.push(char::from(HEX[usize::from(byte >> 4)]));
            hex.push(char::from(HEX[usize::from(byte & 15)]));
        }
        Ok(PyString::new(py, &hex))
    }

    /// An independent copy of the current state (mode included).
    fn copy(&self, py: Python<'_>) -> Blake3 {
        Blake3 { state: Mutex::new(with_lock(py, &self.state, false, |state| state.clone())) }
    }

    /// Forgets all input, keeping the mode (key or context).
    fn reset(&self, py: Python<'_>) {
        with_lock(py, &self.state, false, |state| {
            state.reset();
        });
    }

    fn __repr__(&self) -> &'static str {
        "<chunkhash.blake3>"
    }
}

impl std::fmt::Debug for Blake3 {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Blake3").finish_non_exhaustive()
    }
}

const HEX: &[u8; 16] = b"0123456789abcdef";

/// An int argument in 0..2^64, with a message naming it otherwise.
pub(crate) fn non_negative(value: &Bound<'_, PyAny>, what: &str) -> PyResult<u64> {
    if !value.is_instance_of::<PyInt>() {
        return Err(PyTypeError::new_err(format!("{what} must be an int, not '{}'", type_name(value))));
    }
    value
        .extract::<u64>()
        .map_err(|_| PyValueError::new_err(format!("{what} must be between 0 and 2**64 - 1, got {value}")))
}
