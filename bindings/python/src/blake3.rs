//! The `blake3` class: BLAKE3 with its keyed and key-derivation modes and
//! extended output (`digest(length, seek=)`), the interface of blake3-py:
//! a drop-in for its `blake3` class (`max_threads` and `AUTO` included), as
//! blake3-py's own test suite checks (`make test-blake3-py`).

use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use chunkhash::blake3::{Hasher, KEY_LEN, OUT_LEN};
use chunkhash::Algorithm;
use pyo3::exceptions::{PyOverflowError, PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyInt, PyString};

use crate::buffer::{type_name, Bytes};
use crate::gil::{self, lock, with_lock};
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
    threads: Threads,
}

/// `max_threads`: which threads `update` and `update_mmap` hash on. The
/// hashing is the crate's (`update` or `update_parallel`); only the pool
/// is chosen here.
#[derive(Clone)]
enum Threads {
    /// 1, the default: the calling thread.
    One,
    /// `blake3.AUTO`: rayon's global pool, one thread per core.
    Auto,
    /// A count above 1: a pool of that many threads, this object's own
    /// (its copies share it), as blake3-py builds one per object.
    Pool(Arc<rayon::ThreadPool>),
}

/// `blake3.AUTO`, blake3-py's value: as many threads as cores.
const AUTO: i64 = -1;

impl Threads {
    /// `max_threads`, an int as blake3-py takes it (PyO3 refuses any other
    /// type with `TypeError`, and ints past 64 bits with `OverflowError`).
    fn parse(max_threads: i64) -> PyResult<Threads> {
        match max_threads {
            AUTO => Ok(Threads::Auto),
            1 => Ok(Threads::One),
            count if count > 1 => {
                let pool = rayon::ThreadPoolBuilder::new()
                    .num_threads(usize::try_from(count).unwrap_or(usize::MAX))
                    .build()
                    .map_err(|error| {
                        PyRuntimeError::new_err(format!("cannot start a pool of {count} threads: {error}"))
                    })?;
                Ok(Threads::Pool(Arc::new(pool)))
            }
            _ => Err(PyValueError::new_err(format!(
                "max_threads must be at least 1, or blake3.AUTO (-1), got {max_threads}"
            ))),
        }
    }

    /// Adds `input` on these threads. The caller holds the state's lock on
    /// its own thread, never on a pool thread: a pool thread waiting for the
    /// lock could be the one the holder waits for (blake3-py issue 120).
    fn update(&self, state: &mut Hasher, input: &[u8]) {
        match self {
            Threads::One => {
                state.update(input);
            }
            Threads::Auto => {
                state.update_parallel(input);
            }
            Threads::Pool(pool) => {
                pool.install(|| state.update_parallel(input));
            }
        }
    }
}

impl Blake3 {
    pub(crate) fn create(py: Python<'_>, mode: Mode<'_>, data: Option<&Bound<'_, PyAny>>) -> PyResult<Blake3> {
        Blake3::with_threads(py, mode, Threads::One, data)
    }

    fn with_threads(
        py: Python<'_>,
        mode: Mode<'_>,
        threads: Threads,
        data: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Blake3> {
        let hasher = Blake3 { state: Mutex::new(Box::new(mode.hasher())), threads };
        if let Some(data) = data {
            hasher.add(py, data)?;
        }
        Ok(hasher)
    }

    /// `update`'s work: the GIL released from BLAKE3's threshold, the state
    /// locked (see `gil::with_lock`).
    fn add(&self, py: Python<'_>, data: &Bound<'_, PyAny>) -> PyResult<()> {
        let bytes = Bytes::read_byte_items(data)?;
        let input = bytes.as_slice();
        let release = input.len() >= gil::threshold(Algorithm::Blake3);
        with_lock(py, &self.state, release, |state| self.threads.update(state, input));
        Ok(())
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
    /// `max_threads=blake3.AUTO`: as many threads as cores.
    #[classattr]
    const AUTO: i64 = AUTO;

    #[new]
    #[pyo3(signature = (data = None, /, *, key = None, derive_key_context = None, max_threads = 1, usedforsecurity = true))]
    fn py_new(
        py: Python<'_>,
        data: Option<&Bound<'_, PyAny>>,
        key: Option<&Bound<'_, PyAny>>,
        derive_key_context: Option<&Bound<'_, PyAny>>,
        max_threads: i64,
        usedforsecurity: bool,
    ) -> PyResult<Blake3> {
        let _ = usedforsecurity; // Accepted for hashlib compatibility; BLAKE3 is always for security.
        let mode = Mode::parse(key, derive_key_context)?;
        Blake3::with_threads(py, mode, Threads::parse(max_threads)?, data)
    }

    /// Adds the bytes of any C-contiguous buffer of bytes (`BufferError` for
    /// wider items, as blake3-py). Returns the object, as blake3-py does.
    #[pyo3(signature = (data, /))]
    fn update<'py>(slf: &Bound<'py, Self>, data: &Bound<'py, PyAny>) -> PyResult<Bound<'py, Self>> {
        slf.get().add(slf.py(), data)?;
        Ok(slf.clone())
    }

    /// Adds the contents of the file at `path`, memory-mapped, with the GIL
    /// released, on `max_threads` threads. The file must not shrink meanwhile
    /// (SIGBUS, as with any mmap). Returns the object, as blake3-py does.
    fn update_mmap<'py>(slf: &Bound<'py, Self>, path: PathBuf) -> PyResult<Bound<'py, Self>> {
        let this = slf.get();
        slf.py().detach(|| {
            let mut state = lock(&this.state);
            crate::mmap::with_file(&path, |input| this.threads.update(&mut state, input))
        })?;
        Ok(slf.clone())
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
            Some(length) => output_len(length, 1)?,
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
        if let Some(length) = length {
            output_len(length, 2)?;
        }
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
        Blake3 {
            state: Mutex::new(with_lock(py, &self.state, false, |state| state.clone())),
            threads: self.threads.clone(),
        }
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

/// The `length` argument of `digest` (`per_byte` 1) or `hexdigest` (2):
/// its output must fit one Python object (`sys.maxsize` bytes or
/// characters), or `OverflowError`, as blake3-py raises.
fn output_len(length: &Bound<'_, PyAny>, per_byte: u64) -> PyResult<usize> {
    let limit = isize::MAX as u64 / per_byte;
    if length.is_instance_of::<PyInt>() && length.gt(limit)? {
        return Err(PyOverflowError::new_err(format!(
            "length {length} is too large: the output would exceed sys.maxsize"
        )));
    }
    // At most `limit` now, which fits a `usize`.
    Ok(non_negative(length, "length")? as usize)
}

/// An int argument in 0..2^64, with a message naming it otherwise.
pub(crate) fn non_negative(value: &Bound<'_, PyAny>, what: &str) -> PyResult<u64> {
    if !value.is_instance_of::<PyInt>() {
        return Err(PyTypeError::new_err(format!("{what} must be an int, not '{}'", type_name(value))));
    }
    value
        .extract::<u64>()
        .map_err(|_| PyValueError::new_err(format!("{what} must be between 0 and 2**64 - 1, got {value}")))
}
