//! Bao verified streaming for `chunkhash.bao` (the Rust
//! `chunkhash::blake3::bao`): outboards, combined encodings and slices, and
//! `_BaoVerifier`, the decoder behind `chunkhash.bao.SliceReader`. The
//! argument checks and the reading of streams are in `python/chunkhash/bao.py`;
//! the work is here, without the GIL for large inputs.

// Slices of one range each, as `bao`'s.
#![allow(clippy::single_range_in_vec_init)]

use core::ops::Range;
use std::path::PathBuf;
use std::sync::Mutex;

use chunkhash::blake3::bao::{self, Decoder, Order, Tree, Verified};
use chunkhash::blake3::Hash;
use chunkhash::Algorithm;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use crate::buffer::Bytes;
use crate::gil;
use crate::hasher::Mode;

pyo3::create_exception!(
    chunkhash,
    BaoError,
    PyValueError,
    "A Bao slice, encoding or outboard that cannot give verified bytes: it does not \
     verify against the root hash, ends early, or does not fit its length."
);

fn bao_error(error: bao::BaoError) -> PyErr {
    BaoError::new_err(error.to_string())
}

/// The tree of `group_log` in the mode of `key` / `derive_key_context`.
fn tree(
    group_log: u8,
    key: Option<&Bound<'_, PyAny>>,
    derive_key_context: Option<&Bound<'_, PyAny>>,
) -> PyResult<Tree> {
    let mode = Mode::parse(key, derive_key_context)?.subtree();
    Tree::new(mode.into(), group_log).map_err(|error| PyValueError::new_err(error.to_string()))
}

fn order(post_order: bool) -> Order {
    if post_order {
        Order::Post
    } else {
        Order::Pre
    }
}

/// Runs `work` on the bytes of `source`: a file (`is_path`, memory-mapped
/// or read, always without the GIL) or a buffer (without the GIL from
/// BLAKE3's threshold).
fn with_input<T: Send>(
    py: Python<'_>,
    source: &Bound<'_, PyAny>,
    is_path: bool,
    work: impl FnOnce(&[u8]) -> T + Send,
) -> PyResult<T> {
    if is_path {
        let path: PathBuf = source.extract()?;
        return py.detach(|| crate::mmap::with_whole_file(&path, work));
    }
    let bytes = Bytes::read(source)?;
    let input = bytes.as_slice();
    Ok(if input.len() >= gil::threshold(Algorithm::Blake3) { py.detach(|| work(input)) } else { work(input) })
}

/// `_bao_outboard(source, is_path, group_log, post_order, key,
/// derive_key_context)`: `(root, outboard)`, the outboard with `bao`'s
/// 8-byte length header.
#[pyfunction]
#[pyo3(signature = (source, is_path, group_log, post_order, key, derive_key_context))]
pub(crate) fn _bao_outboard<'py>(
    py: Python<'py>,
    source: &Bound<'py, PyAny>,
    is_path: bool,
    group_log: u8,
    post_order: bool,
    key: Option<&Bound<'py, PyAny>>,
    derive_key_context: Option<&Bound<'py, PyAny>>,
) -> PyResult<(Bound<'py, PyBytes>, Bound<'py, PyBytes>)> {
    let tree = tree(group_log, key, derive_key_context)?;
    let outboard = with_input(py, source, is_path, |input| tree.outboard(input, order(post_order)))?;
    Ok((PyBytes::new(py, outboard.root().as_bytes()), PyBytes::new(py, outboard.bao_bytes())))
}

/// `_bao_encode(source, is_path, group_log, key, derive_key_context)`:
/// `(root, encoding)`.
#[pyfunction]
#[pyo3(signature = (source, is_path, group_log, key, derive_key_context))]
pub(crate) fn _bao_encode<'py>(
    py: Python<'py>,
    source: &Bound<'py, PyAny>,
    is_path: bool,
    group_log: u8,
    key: Option<&Bound<'py, PyAny>>,
    derive_key_context: Option<&Bound<'py, PyAny>>,
) -> PyResult<(Bound<'py, PyBytes>, Bound<'py, PyBytes>)> {
    let tree = tree(group_log, key, derive_key_context)?;
    let (root, encoding) = with_input(py, source, is_path, |input| tree.encode(input))?;
    Ok((PyBytes::new(py, root.as_bytes()), PyBytes::new(py, &encoding)))
}

/// `_bao_slice(source, is_path, outboard, start, end, group_log,
/// post_order)`: the slice of the input for `start..end` from its outboard
/// (with the header). The mode does not matter: slicing copies nodes.
#[pyfunction]
#[pyo3(signature = (source, is_path, outboard, start, end, group_log, post_order))]
#[allow(clippy::too_many_arguments)] // the Python wrapper's arguments, one to one
pub(crate) fn _bao_slice<'py>(
    py: Python<'py>,
    source: &Bound<'py, PyAny>,
    is_path: bool,
    outboard: &Bound<'py, PyAny>,
    start: u64,
    end: u64,
    group_log: u8,
    post_order: bool,
) -> PyResult<Bound<'py, PyBytes>> {
    let tree = tree(group_log, None, None)?;
    let outboard = Bytes::read(outboard)?;
    let outboard = outboard.as_slice();
    let Some((header, nodes)) = outboard.split_at_checked(bao::HEADER_LEN) else {
        return Err(BaoError::new_err(format!(
            "an outboard starts with an 8-byte length header; this one is {} bytes",
            outboard.len()
        )));
    };
    let len = u64::from_le_bytes(header.try_into().expect("8 bytes"));
    // Slicing copies nodes and never reads the root: any value does.
    let parsed = bao::Outboard::from_parts(&tree, Hash::from([0; 32]), len, order(post_order), nodes.to_vec())
        .map_err(bao_error)?;
    let ranges = [start..end];
    let slice = with_input(py, source, is_path, |input| tree.slice(input, &parsed, &ranges))?.map_err(bao_error)?;
    Ok(PyBytes::new(py, &slice))
}

/// `_bao_slice_encoding(encoding, start, end, group_log)`: the slice for
/// `start..end` from a combined encoding.
#[pyfunction]
pub(crate) fn _bao_slice_encoding<'py>(
    py: Python<'py>,
    encoding: &Bound<'py, PyAny>,
    start: u64,
    end: u64,
    group_log: u8,
) -> PyResult<Bound<'py, PyBytes>> {
    let tree = tree(group_log, None, None)?;
    let slice =
        with_input(py, encoding, false, |encoding| tree.slice_encoding(encoding, &[start..end]))?.map_err(bao_error)?;
    Ok(PyBytes::new(py, &slice))
}

/// `_bao_slice_len(len, start, end, group_log)`: the bytes of the slice of
/// a `len`-byte message for `start..end`, header included.
#[pyfunction]
pub(crate) fn _bao_slice_len(len: u64, start: u64, end: u64, group_log: u8) -> PyResult<u64> {
    Ok(tree(group_log, None, None)?.slice_len(len, &[start..end]))
}

struct VerifierState {
    decoder: Decoder<'static>,
    range: Range<u64>,
    /// The error that stopped the decoder after some groups were handed
    /// out: raised at the next call.
    error: Option<bao::BaoError>,
}

/// `_BaoVerifier(root, start, end, group_log, key, derive_key_context)`:
/// checks a slice (or encoding) fed in pieces and hands out the range's
/// bytes once verified. `want()` is the bytes the next item needs (`None`
/// at the end); `feed(data)` takes as many whole items from the front of `data` as
/// it can and returns `(used, verified_bytes)`.
#[pyclass(frozen, module = "chunkhash.bao", name = "_BaoVerifier")]
pub(crate) struct BaoVerifier {
    state: Mutex<VerifierState>,
}

#[pymethods]
impl BaoVerifier {
    #[new]
    #[pyo3(signature = (root, start, end, group_log, key, derive_key_context))]
    fn py_new(
        root: &Bound<'_, PyAny>,
        start: u64,
        end: u64,
        group_log: u8,
        key: Option<&Bound<'_, PyAny>>,
        derive_key_context: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let tree = tree(group_log, key, derive_key_context)?;
        let root = Bytes::read(root)?;
        let root: [u8; 32] = root
            .as_slice()
            .try_into()
            .map_err(|_| PyValueError::new_err(format!("root must be 32 bytes, got {}", root.as_slice().len())))?;
        let decoder = Decoder::for_range(tree, Hash::from(root), start..end);
        Ok(BaoVerifier { state: Mutex::new(VerifierState { decoder, range: start..end, error: None }) })
    }

    /// Bytes of the next item (0 for the empty message's group), `None`
    /// once every requested byte was verified; or the pending error.
    fn want(&self) -> PyResult<Option<usize>> {
        let mut state = gil::lock(&self.state);
        if let Some(error) = state.error.take() {
            return Err(bao_error(error));
        }
        Ok(match state.decoder.want() {
            bao::Want::Done => None,
            want => Some(want.len()),
        })
    }

    /// Stream bytes verified so far.
    fn position(&self) -> u64 {
        gil::lock(&self.state).decoder.position()
    }

    fn feed<'py>(&self, py: Python<'py>, data: &Bound<'py, PyAny>) -> PyResult<(usize, Bound<'py, PyBytes>)> {
        let bytes = Bytes::read(data)?;
        let stream = bytes.as_slice();
        let release = stream.len() >= gil::threshold(Algorithm::Blake3);
        let result = gil::with_lock(py, &self.state, release, |state| {
            if let Some(error) = state.error.take() {
                return Err(error);
            }
            let range = state.range.clone();
            let mut out = Vec::new();
            let mut used = 0;
            loop {
                // The range's part of each verified group.
                let result = state
                    .decoder
                    .feed_stream(&stream[used..], |group: Verified<'_>| out.extend_from_slice(group.bytes_in(&range)));
                match result {
                    Ok(0) => return Ok((used, out)),
                    Ok(n) => used += n,
                    Err(error) if !out.is_empty() => {
                        state.error = Some(error);
                        return Ok((used, out));
                    }
                    Err(error) => return Err(error),
                }
            }
        });
        let (used, out) = result.map_err(bao_error)?;
        Ok((used, PyBytes::new(py, &out)))
    }
}

/// Registers the functions and classes.
pub(crate) fn add_to(module: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = module.py();
    module.add("BaoError", py.get_type::<BaoError>())?;
    module.add_class::<BaoVerifier>()?;
    module.add_function(wrap_pyfunction!(_bao_outboard, module)?)?;
    module.add_function(wrap_pyfunction!(_bao_encode, module)?)?;
    module.add_function(wrap_pyfunction!(_bao_slice, module)?)?;
    module.add_function(wrap_pyfunction!(_bao_slice_encoding, module)?)?;
    module.add_function(wrap_pyfunction!(_bao_slice_len, module)?)?;
    Ok(())
}
