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
