//! hashlib-style objects: `Hasher` for every registry algorithm, `blake3`
//! with BLAKE3's modes and extended output, the per-algorithm constructors
//! and `new()`.
//!
//! Both classes are frozen (no `&mut self`, so PyO3 adds no borrow flag) and
//! keep their state behind a `Mutex`: one object may be shared by threads,
//! with or without the GIL, and updates from several threads serialise.

use std::path::PathBuf;
use std::sync::Mutex;

use chunkhash::blake3::KEY_LEN;
use chunkhash::{Algorithm, StreamingHasher};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString};

use crate::buffer::{type_name, Bytes};
use crate::gil::{self, lock, with_lock};
use crate::names::{self, python_name};

/// A running hash for any registry algorithm, as hashlib's objects are:
/// `update()`, then `digest()`, `hexdigest()` or (for integer checksums)
/// `intdigest()`, any number of times.
#[pyclass(frozen, module = "chunkhash", name = "Hasher")]
pub(crate) struct Hasher {
    algorithm: Algorithm,
    state: Mutex<StreamingHasher>,
}

impl Hasher {
    pub(crate) fn create(py: Python<'_>, algorithm: Algorithm, data: Option<&Bound<'_, PyAny>>) -> PyResult<Hasher> {
        let hasher = Hasher { algorithm, state: Mutex::new(StreamingHasher::new(algorithm)) };
        if let Some(data) = data {
            hasher.update(py, data)?;
        }
        Ok(hasher)
    }
}

#[pymethods]
impl Hasher {
    /// `Hasher(name, data=b"")`: the same as `chunkhash.new(name, data)` for
    /// algorithms without options.
    #[new]
    #[pyo3(signature = (name, data = None, /))]
    fn py_new(py: Python<'_>, name: &Bound<'_, PyAny>, data: Option<&Bound<'_, PyAny>>) -> PyResult<Hasher> {
        Hasher::create(py, names::parse(name)?, data)
    }

    /// The algorithm's name, as `chunkhash.algorithms_available` lists it.
    #[getter]
    fn name(&self) -> &'static str {
        python_name(self.algorithm)
    }

    /// Bytes in a digest.
    #[getter]
    fn digest_size(&self) -> usize {
        self.algorithm.digest_len()
    }

    /// Bytes the algorithm consumes per step.
    #[getter]
    fn block_size(&self) -> usize {
        names::block_size(self.algorithm)
    }

    /// Adds the bytes of any C-contiguous buffer. Returns None, as hashlib's
    /// `update` does.
    #[pyo3(signature = (data, /))]
    fn update(&self, py: Python<'_>, data: &Bound<'_, PyAny>) -> PyResult<()> {
        update(py, &self.state, self.algorithm, data)
    }

    /// Adds the contents of the file at `path`, memory-mapped, with the GIL
    /// released. The file must not shrink meanwhile (a mapped page that is
    /// gone ends the process with SIGBUS, as with any mmap).
    fn update_mmap(&self, py: Python<'_>, path: PathBuf) -> PyResult<()> {
        update_mmap(py, &self.state, &path)
    }

    /// The digest of everything added so far; the object stays usable.
    fn digest<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        let digest = with_lock(py, &self.state, false, |state| state.finalize());
        PyBytes::new(py, digest.as_bytes())
    }

    /// `digest()` as lowercase hex.
    fn hexdigest<'py>(&self, py: Python<'py>) -> Bound<'py, PyString> {
        let digest = with_lock(py, &self.state, false, |state| state.finalize());
        PyString::new(py, &digest.to_hex())
    }

    /// The digest as an int, for the integer checksums (CRC32C and the xxHash
    /// family), as python-xxhash's `intdigest()`; `digest()` is its big-endian
    /// bytes.
    fn intdigest(&self, py: Python<'_>) -> PyResult<u128> {
        if !names::is_integer(self.algorithm) {
            return Err(PyTypeError::new_err(format!(
                "intdigest() is for integer checksums (the CRCs and the xxh family); {} digests are bytes",
                python_name(self.algorithm)
            )));
        }
        let digest = with_lock(py, &self.state, false, |state| state.finalize());
        Ok(digest.as_bytes().iter().fold(0u128, |value, &byte| value << 8 | u128::from(byte)))
    }

    /// An independent copy of the current state.
    fn copy(&self, py: Python<'_>) -> Hasher {
        Hasher {
            algorithm: self.algorithm,
            state: Mutex::new(with_lock(py, &self.state, false, |state| state.clone())),
        }
    }

    /// Forgets all input.
    fn reset(&self, py: Python<'_>) {
        with_lock(py, &self.state, false, |state| {
            state.reset();
        });
    }

    fn __repr__(&self) -> String {
        format!("<chunkhash.Hasher {}>", python_name(self.algorithm))
    }
}

impl std::fmt::Debug for Hasher {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Hasher").field("algorithm", &self.algorithm).finish_non_exhaustive()
    }
}

/// A hasher state that takes input: the registry's and BLAKE3's.
pub(crate) trait Update: Send {
    fn add(&mut self, input: &[u8]);
}

impl Update for StreamingHasher {
    fn add(&mut self, input: &[u8]) {
        self.update(input);
    }
}

impl Update for Box<chunkhash::blake3::Hasher> {
    fn add(&mut self, input: &[u8]) {
        self.update(input);
    }
}

/// `update(data)` of both classes: the GIL released from the algorithm's
/// threshold, the state locked (see `gil::with_lock`).
pub(crate) fn update<S: Update>(
    py: Python<'_>,
    state: &Mutex<S>,
    algorithm: Algorithm,
    data: &Bound<'_, PyAny>,
) -> PyResult<()> {
    let bytes = Bytes::read(data)?;
    let input = bytes.as_slice();
    let release = input.len() >= gil::threshold(algorithm);
    with_lock(py, state, release, |state| state.add(input));
    Ok(())
}

/// `update_mmap(path)` of both classes: the whole file under one lock, the
/// GIL released throughout.
pub(crate) fn update_mmap<S: Update>(py: Python<'_>, state: &Mutex<S>, path: &std::path::Path) -> PyResult<()> {
    py.detach(|| {
        let mut state = lock(state);
        crate::mmap::with_file(path, |input| state.add(input))
    })
}

/// The algorithm a batch call names (BLAKE3 by default) and the BLAKE3
/// mode its options select; options for another algorithm are an error.
pub(crate) fn algorithm_and_mode<'a>(
    name: Option<&Bound<'_, PyAny>>,
    key: Option<&Bound<'_, PyAny>>,
    derive_key_context: Option<&'a Bound<'_, PyAny>>,
) -> PyResult<(Algorithm, Mode<'a>)> {
    let algorithm = match name {
        Some(name) => names::parse(name)?,
        None => Algorithm::Blake3,
    };
    let mode = Mode::parse(key, derive_key_context)?;
    if algorithm != Algorithm::Blake3 {
        mode.only_blake3(algorithm)?;
    }
    Ok((algorithm, mode))
}

/// BLAKE3's three modes, from the `key` and `derive_key_context` arguments
/// that `blake3()`, `new()`, `hash()`, `hash_many()` and `hash_array()` share.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Mode<'a> {
    Plain,
    Keyed([u8; KEY_LEN]),
    DeriveKey(&'a str),
}

impl<'a> Mode<'a> {
    pub(crate) fn parse(
        key: Option<&Bound<'_, PyAny>>,
        derive_key_context: Option<&'a Bound<'_, PyAny>>,
    ) -> PyResult<Mode<'a>> {
        match (key, derive_key_context) {
            (None, None) => Ok(Mode::Plain),
            (Some(_), Some(_)) => Err(PyValueError::new_err("key and derive_key_context cannot be used together")),
            (Some(key), None) => {
                let bytes = Bytes::read(key)?;
                let key: [u8; KEY_LEN] = bytes.as_slice().try_into().map_err(|_| {
                    PyValueError::new_err(format!("key must be {KEY_LEN} bytes, got {}", bytes.as_slice().len()))
                })?;
                Ok(Mode::Keyed(key))
            }
            (None, Some(context)) => {
                let Ok(context) = context.cast::<PyString>() else {
                    return Err(PyTypeError::new_err(format!(
                        "derive_key_context must be a str, not '{}'",
                        type_name(context)
                    )));
                };
                Ok(Mode::DeriveKey(context.to_str()?))
            }
        }
    }

    /// Options given for an algorithm that has none.
    pub(crate) fn only_blake3(self, algorithm: Algorithm) -> PyResult<()> {
        match self {
            Mode::Plain => Ok(()),
            _ => Err(PyValueError::new_err(format!(
                "key and derive_key_context are BLAKE3 options; {} takes neither",
                python_name(algorithm)
            ))),
        }
    }

    pub(crate) fn hasher(self) -> chunkhash::blake3::Hasher {
        match self {
            Mode::Plain => chunkhash::blake3::Hasher::new(),
            Mode::Keyed(key) => chunkhash::blake3::Hasher::new_keyed(&key),
            Mode::DeriveKey(context) => chunkhash::blake3::Hasher::new_derive_key(context),
        }
    }

    pub(crate) fn subtree(self) -> chunkhash::blake3::subtree::Mode {
        use chunkhash::blake3::subtree::Mode as SubtreeMode;
        match self {
            Mode::Plain => SubtreeMode::hash(),
            Mode::Keyed(key) => SubtreeMode::keyed(&key),
            Mode::DeriveKey(context) => SubtreeMode::derive_key(context),
        }
    }

    pub(crate) fn batch(self) -> chunkhash::blake3::Batch {
        match self {
            Mode::Plain => chunkhash::blake3::Batch::new(),
            Mode::Keyed(key) => chunkhash::blake3::Batch::new_keyed(&key),
            Mode::DeriveKey(context) => chunkhash::blake3::Batch::new_derive_key(context),
        }
    }
}
