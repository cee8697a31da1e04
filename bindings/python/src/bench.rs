//! Undocumented and unstable, for `python -m chunkhash.bench` only: the
//! Rust side of the batch comparison, timed in the same process and run as
//! the Python side, so both see the same machine state.

use std::time::Instant;

use chunkhash::blake3::{Batch, OUT_LEN};
use pyo3::prelude::*;

use crate::buffer::Messages;

/// Nanoseconds per call of `Batch::hash_many_bytes` over `messages` (read
/// once, outside the timing), averaged over `repeat` calls, GIL released.
#[pyfunction]
pub(crate) fn _rust_hash_many_ns(py: Python<'_>, messages: &Bound<'_, PyAny>, repeat: usize) -> PyResult<f64> {
    let inputs = Messages::read(messages)?;
    let slices = inputs.slices();
    let mut out = vec![[0u8; OUT_LEN]; slices.len()];
    let repeat = repeat.max(1);
    Ok(py.detach(|| {
        let batch = Batch::new();
        let start = Instant::now();
        for _ in 0..repeat {
            batch.hash_many_bytes(std::hint::black_box(slices), &mut out);
            std::hint::black_box(&out);
        }
        start.elapsed().as_nanos() as f64 / repeat as f64
    }))
}

/// Nanoseconds per call of `Tree::outboard` (plain tree, groups of
/// 2^`group_log` chunks, pre-order) over `data` (read once, outside the
/// timing), averaged over `repeat` calls, GIL released: what
/// `chunkhash.bao.outboard` wraps.
#[pyfunction]
pub(crate) fn _rust_bao_outboard_ns(
    py: Python<'_>,
    data: &Bound<'_, PyAny>,
    group_log: u8,
    repeat: usize,
) -> PyResult<f64> {
    use chunkhash::blake3::bao::{Mode, Order, Tree};
    let bytes = crate::buffer::Bytes::read(data)?;
    let input = bytes.as_slice();
    let tree =
        Tree::new(Mode::hash(), group_log).map_err(|e| pyo3::exceptions::PyValueError::new_err(e.to_string()))?;
    let repeat = repeat.max(1);
    Ok(py.detach(|| {
        let start = Instant::now();
        for _ in 0..repeat {
            std::hint::black_box(tree.outboard(std::hint::black_box(input), Order::Pre));
        }
        start.elapsed().as_nanos() as f64 / repeat as f64
    }))
}
