//! `hash_many`: many messages in one call, the GIL released once, every
//! algorithm through the library's batch calls (BLAKE3's `Batch`, or
//! `chunkhash::digest_many`: many messages side by side in SIMD lanes).
//! Also the hashing half of `hash_array`.

use chunkhash::blake3::OUT_LEN;
use chunkhash::{Algorithm, Digest};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use crate::buffer::{BytesMut, Messages};
use crate::hasher::Mode;
use crate::names;

/// Digests of every message, concatenated: `n * digest_size` bytes, or
/// written into `out`.
#[pyfunction]
#[pyo3(signature = (messages, name = None, *, key = None, derive_key_context = None, out = None))]
pub(crate) fn hash_many<'py>(
    py: Python<'py>,
    messages: &Bound<'py, PyAny>,
    name: Option<&Bound<'py, PyAny>>,
    key: Option<&Bound<'py, PyAny>>,
    derive_key_context: Option<&Bound<'py, PyAny>>,
    out: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let (algorithm, mode) = crate::hasher::algorithm_and_mode(name, key, derive_key_context)?;
    let inputs = Messages::read(messages)?;
    let slices = inputs.slices();
    let size =
        slices.len().checked_mul(algorithm.digest_len()).ok_or_else(|| PyValueError::new_err("too many messages"))?;
    match out {
        None => {
            let digests = PyBytes::new_with(py, size, |digests| {
                py.detach(|| hash_into(algorithm, mode, slices, digests));
                Ok(())
            })?;
            Ok(digests.into_any())
        }
        Some(out) => {
            let mut target = BytesMut::read(out, "out")?;
            let (start, len) = target.range();
            if len != size {
                return Err(PyValueError::new_err(format!(
                    "out has {len} bytes; {} messages of {} need {size}",
                    slices.len(),
                    names::python_name(algorithm)
                )));
            }
            if let Some(i) = slices.iter().position(|s| overlaps((start, len), (s.as_ptr() as usize, s.len()))) {
                return Err(PyValueError::new_err(format!("out overlaps messages[{i}]")));
            }
            let digests = target.as_mut_slice();
            py.detach(|| hash_into(algorithm, mode, slices, digests));
            Ok(out.clone())
        }
    }
}

fn overlaps((a, a_len): (usize, usize), (b, b_len): (usize, usize)) -> bool {
    a_len > 0 && b_len > 0 && a < b + b_len && b < a + a_len
}

/// Writes the digest of `inputs[i]` at `out[i * digest_len..]`; `out` holds
/// exactly one digest per input. Runs without the GIL.
pub(crate) fn hash_into(algorithm: Algorithm, mode: Mode<'_>, inputs: &[&[u8]], out: &mut [u8]) {
    let len = algorithm.digest_len();
    debug_assert_eq!(out.len(), inputs.len() * len);
    match algorithm {
        Algorithm::Blake3 => {
            let (digests, _) = out.as_chunks_mut::<OUT_LEN>();
            mode.batch().hash_many_bytes(inputs, digests);
        }
        Algorithm::Blake3_160 => {
            // The batch writes 32-byte hashes; a stack buffer of them is
            // truncated into `out` piece by piece, so nothing is allocated.
            const PIECE: usize = 256;
            let mut hashes = [[0u8; OUT_LEN]; PIECE];
            let batch = mode.batch();
            for (inputs, out) in inputs.chunks(PIECE).zip(out.chunks_mut(PIECE * len)) {
                let hashes = &mut hashes[..inputs.len()];
                batch.hash_many_bytes(inputs, hashes);
                for (hash, digest) in hashes.iter().zip(out.chunks_exact_mut(len)) {
                    digest.copy_from_slice(&hash[..len]);
                }
            }
        }
        // Every other algorithm through the library's batch call for any
        // algorithm (SHA-256 in multi-buffer lanes, the rest in a loop
        // dispatched once).
        _ => {
            let infallible = digests_in_groups(algorithm, out, |start, digests| {
                chunkhash::digest_many(algorithm, &inputs[start..start + digests.len()], digests);
                Ok::<(), core::convert::Infallible>(())
            });
            let Ok(()) = infallible;
        }
    }
}

/// Digests per group of [`digests_in_groups`]: 18 KiB of [`Digest`]s on the
/// stack, enough messages that the library's lanes rarely idle.
const GROUP: usize = 256;

/// Fills `out` (`digest_len` bytes per message) a group of messages at a
/// time: `hash(start, digests)` writes the digests of messages `start..`
/// into `digests`, which are then copied into `out`. Nothing is allocated.
pub(crate) fn digests_in_groups<E>(
    algorithm: Algorithm,
    out: &mut [u8],
    mut hash: impl FnMut(usize, &mut [Digest]) -> Result<(), E>,
) -> Result<(), E> {
    let width = algorithm.digest_len();
    let mut digests = [chunkhash::digest(algorithm, b""); GROUP];
    for (group, out) in out.chunks_mut(GROUP * width).enumerate() {
        let digests = &mut digests[..out.len() / width];
        hash(group * GROUP, digests)?;
        for (out, digest) in out.chunks_exact_mut(width).zip(digests.iter()) {
            out.copy_from_slice(digest.as_bytes());
        }
    }
    Ok(())
}
