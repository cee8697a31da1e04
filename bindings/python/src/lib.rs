//! The native half of the Python package `chunkhash` (`chunkhash._chunkhash`):
//! hashlib-style objects for every algorithm of the registry, one-shot and
//! batch calls, and Arrow arrays in and out. A binding only: every digest is
//! computed by the `chunkhash` crate; this crate converts arguments, errors
//! and threads. The package's pure-Python half and its documentation live in
//! `python/chunkhash/`.
//!
//! Thread safety: the module declares `gil_used = false`, so a free-threaded
//! interpreter keeps running without the GIL when it imports it. Hasher
//! objects are frozen classes whose state sits behind a `Mutex`; every other
//! call touches only its arguments.

mod arrow;
mod bao;
mod batch;
mod bench;
mod blake3;
mod buffer;
mod cdc;
mod crc_combine;
mod gil;
mod hasher;
mod mmap;
mod names;
mod oneshot;
mod s3;
mod subtree;

use chunkhash::Algorithm;
use pyo3::prelude::*;
use pyo3::types::{PyFrozenSet, PyString};

use crate::blake3::Blake3;
use crate::hasher::{Hasher, Mode};

/// `new(name, data=b"", *, key=None, derive_key_context=None)`: a hasher
/// for the algorithm `name`, as `hashlib.new`. `blake3` gives a `blake3`
/// object (which takes the two options), every other name a `Hasher`.
#[pyfunction]
#[pyo3(signature = (name, data = None, /, *, key = None, derive_key_context = None, usedforsecurity = true))]
fn new<'py>(
    py: Python<'py>,
    name: &Bound<'py, PyAny>,
    data: Option<&Bound<'py, PyAny>>,
    key: Option<&Bound<'py, PyAny>>,
    derive_key_context: Option<&Bound<'py, PyAny>>,
    usedforsecurity: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let _ = usedforsecurity; // Accepted for hashlib compatibility.
    let algorithm = names::parse(name)?;
    let mode = Mode::parse(key, derive_key_context)?;
    if algorithm == Algorithm::Blake3 {
        return Ok(Bound::new(py, Blake3::create(py, mode, data)?)?.into_any());
    }
    mode.only_blake3(algorithm)?;
    Ok(Bound::new(py, Hasher::create(py, algorithm, data)?)?.into_any())
}

/// The kernel BLAKE3 runs on in this process (`portable`, `sse41`, `avx2`,
/// `avx2asm`, `avx512`, `avx512asm`, `neon`, `wasm32simd`): what
/// `CHUNKHASH_BACKEND` or the CPU chose.
#[pyfunction]
fn blake3_backend() -> &'static str {
    chunkhash::Backend::detect().name()
}

#[pymodule(gil_used = false)]
fn _chunkhash(module: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = module.py();
    module.add_class::<Hasher>()?;
    module.add_class::<Blake3>()?;
    module.add_class::<arrow::DigestArray>()?;
    subtree::add_to(module)?;
    bao::add_to(module)?;
    module.add_function(wrap_pyfunction!(new, module)?)?;
    names::add_constructors(module)?;
    module.add_function(wrap_pyfunction!(names::_registry, module)?)?;
    oneshot::add_to(module)?;
    module.add_function(wrap_pyfunction!(batch::hash_many, module)?)?;
    module.add_function(wrap_pyfunction!(arrow::hash_array, module)?)?;
    module.add_function(wrap_pyfunction!(blake3_backend, module)?)?;
    module.add_function(wrap_pyfunction!(s3::_s3_checksums, module)?)?;
    module.add_function(wrap_pyfunction!(crc_combine::crc_combine, module)?)?;
    module.add_function(wrap_pyfunction!(cdc::_chunk, module)?)?;
    module.add_function(wrap_pyfunction!(cdc::_xet_hash_files, module)?)?;
    module.add_function(wrap_pyfunction!(gil::_set_gil_threshold, module)?)?;
    module.add_function(wrap_pyfunction!(bench::_rust_hash_many_ns, module)?)?;
    module.add_function(wrap_pyfunction!(bench::_rust_bao_outboard_ns, module)?)?;
    let available: Vec<Bound<'_, PyString>> =
        names::available().map(|algorithm| PyString::new(py, names::python_name(algorithm))).collect();
    module.add("algorithms_available", PyFrozenSet::new(py, &available)?)?;
    module.add("algorithms_guaranteed", PyFrozenSet::new(py, &available)?)?;
    module.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
