//! When a call lets other Python threads run (releases the GIL, or on a
//! free-threaded build detaches from the interpreter), and the per-object
//! locking that makes that safe.
//!
//! Releasing and retaking the GIL costs about 590 instructions when no
//! other thread wants it (callgrind: `hash("xxh3_64", 4 KiB)` 1946 against
//! 2533 instructions per call), about 50 ns; with another thread waiting,
//! that thread runs first, which is the point. Each threshold is the size
//! that takes about 1 to 2 us to hash at the algorithm's speed on the
//! project machine (BENCHMARKS.md, "Checksum crates" and "BLAKE3"), so the
//! release costs a few percent at most: BLAKE3 2 KiB (hashlib's and
//! blake3-py's value too), XXH3 64 KiB, XXH64 and CRC32C 32 KiB, XXH32
//! 8 KiB, BLAKE2b 1 KiB, SHA-2, MD5 and SHA-1 512 B. `python -m chunkhash.bench gil` shows
//! the cost at each size. Batch calls, mmap and Arrow columns always
//! release it.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard, TryLockError};

use chunkhash::Algorithm;
use pyo3::prelude::*;

/// Bytes from which an update of `algorithm` releases the GIL.
#[inline]
pub(crate) fn threshold(algorithm: Algorithm) -> usize {
    match OVERRIDE.load(Ordering::Relaxed) {
        0 => default_threshold(algorithm),
        bytes => bytes,
    }
}

/// About 1 to 2 us of hashing at each algorithm's speed (see above).
fn default_threshold(algorithm: Algorithm) -> usize {
    match algorithm {
        Algorithm::Xxh3_64 | Algorithm::Xxh3_128 => 64 * 1024,
        Algorithm::Xxh64 | Algorithm::Crc32c => 32 * 1024,
        Algorithm::Xxh32 => 8 * 1024,
        Algorithm::Sha256 | Algorithm::Sha512 | Algorithm::Sha512_160 | Algorithm::Md5 | Algorithm::Sha1 => 512,
        Algorithm::Blake2b512 | Algorithm::Blake2b256 => 1024,
        _ => 2048,
    }
}

/// 0, or a threshold set for every algorithm by the benchmark.
static OVERRIDE: AtomicUsize = AtomicUsize::new(0);

/// Undocumented and unstable, for the benchmark only: sets one threshold for
/// every algorithm (0 restores the defaults) and returns the previous one.
#[pyfunction]
pub(crate) fn _set_gil_threshold(bytes: usize) -> usize {
    OVERRIDE.swap(bytes, Ordering::Relaxed)
}

/// Runs `f` on the state behind `mutex`. With `release` the GIL is released
/// for the whole call, lock included. Without it the GIL is kept, unless
/// another thread holds the lock: then the wait happens with the GIL
/// released, so the holder (which may need the GIL to finish) never
/// deadlocks against us. hashlib's objects take their lock the same way.
pub(crate) fn with_lock<S: Send, T: Send>(
    py: Python<'_>,
    mutex: &Mutex<S>,
    release: bool,
    f: impl FnOnce(&mut S) -> T + Send,
) -> T {
    if release {
        return py.detach(|| f(&mut lock(mutex)));
    }
    match mutex.try_lock() {
        Ok(mut state) => f(&mut state),
        Err(TryLockError::Poisoned(poisoned)) => f(&mut poisoned.into_inner()),
        Err(TryLockError::WouldBlock) => py.detach(|| f(&mut lock(mutex))),
    }
}

/// The lock, also after a panic in another holder. No hashing call is
/// known to panic; if one did, the state it left is used rather than
/// turning every later call on the object into a second error.
pub(crate) fn lock<S>(mutex: &Mutex<S>) -> MutexGuard<'_, S> {
    mutex.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}
