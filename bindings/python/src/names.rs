//! Algorithm names as Python spells them (hashlib style: lowercase, `_`),
//! the per-algorithm facts hashlib objects expose, and name parsing.

use chunkhash::Algorithm;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyString;

/// Each algorithm's Python name, one line each. hashlib's spelling where
/// hashlib has the algorithm (`sha256`, `blake2b` for BLAKE2b-512),
/// python-xxhash's for xxHash (`xxh3_64`, `xxh3_128`), and otherwise the
/// registry's name lowercased with `_` (`blake3_160`, `blake2b_256`,
/// `sha512_160`). Every one of them also parses with the registry's own
/// `FromStr`, which reads `_` as `-` and ignores case.
macro_rules! python_names {
    ($($algorithm:ident => $name:literal,)*) => {
        /// The Python name of `algorithm`.
        pub(crate) fn python_name(algorithm: Algorithm) -> &'static str {
            match algorithm {
                $(Algorithm::$algorithm => $name,)*
                // An algorithm added to the registry after this table: its
                // registry name, until it gets a line above (a test checks
                // that every name is an identifier).
                _ => algorithm.name(),
            }
        }

        /// The algorithm with exactly this Python name: the common case,
        /// checked before the registry's case-folding parser.
        #[inline]
        fn from_python_name(name: &str) -> Option<Algorithm> {
            match name {
                $($name => Some(Algorithm::$algorithm),)*
                _ => None,
            }
        }
    };
}

python_names! {
    Blake3 => "blake3",
    Blake3_160 => "blake3_160",
    Xxh3_64 => "xxh3_64",
    Xxh3_128 => "xxh3_128",
    Xxh64 => "xxh64",
    Xxh32 => "xxh32",
    Crc32c => "crc32c",
    Blake2b512 => "blake2b",
    Blake2b256 => "blake2b_256",
    Sha256 => "sha256",
    Sha512 => "sha512",
    Sha512_160 => "sha512_160",
    Crc32 => "crc32",
    Crc64Nvme => "crc64nvme",
    Md5 => "md5",
    Sha1 => "sha1",
}

/// hashlib's `block_size`: bytes the algorithm consumes per step. From the
/// specifications: BLAKE3 and SHA-256 compress 64-byte blocks, BLAKE2b and
/// SHA-512 128-byte blocks; XXH3 reads 64-byte stripes, XXH64 32 bytes and
/// XXH32 16 bytes per round (python-xxhash reports the same); the CRCs are
/// defined byte by byte. The truncations keep their full algorithm's.
pub(crate) fn block_size(algorithm: Algorithm) -> usize {
    match algorithm {
        Algorithm::Xxh64 => 32,
        Algorithm::Xxh32 => 16,
        Algorithm::Crc32c | Algorithm::Crc32 | Algorithm::Crc64Nvme => 1,
        Algorithm::Blake2b512 | Algorithm::Blake2b256 | Algorithm::Sha512 | Algorithm::Sha512_160 => 128,
        _ => 64,
    }
}

/// Whether digests are integers (the CRCs and the xxHash family: the
/// registry's non-cryptographic algorithms), written big-endian in
/// `digest()` and given as `int` by `intdigest()`.
pub(crate) fn is_integer(algorithm: Algorithm) -> bool {
    !algorithm.is_cryptographic()
}

/// Every algorithm this build can compute, in registry id order.
pub(crate) fn available() -> impl Iterator<Item = Algorithm> {
    Algorithm::all().iter().copied().filter(|algorithm| algorithm.is_available())
}

/// Parses a Python argument naming an algorithm: a Python name, or any name
/// the registry accepts (`"SHA-256"`, `"XXH3"`, `"b3"`, ignoring case).
#[inline]
pub(crate) fn parse(name: &Bound<'_, PyAny>) -> PyResult<Algorithm> {
    let Ok(name) = name.cast::<PyString>() else {
        return Err(PyTypeError::new_err(format!(
            "algorithm name must be a str, not '{}'",
            crate::buffer::type_name(name)
        )));
    };
    parse_str(name.to_str()?)
}

#[inline]
pub(crate) fn parse_str(name: &str) -> PyResult<Algorithm> {
    let algorithm = match from_python_name(name) {
        Some(algorithm) => algorithm,
        None => name.parse::<Algorithm>().map_err(|_| unknown(name))?,
    };
    if !algorithm.is_available() {
        return Err(PyValueError::new_err(format!("{} is not in this build of chunkhash", python_name(algorithm))));
    }
    Ok(algorithm)
}

#[cold]
fn unknown(name: &str) -> PyErr {
    let valid: Vec<&str> = available().map(python_name).collect();
    PyValueError::new_err(format!(
        "unsupported hash type '{name}'; expected one of {} (registry names such as 'SHA-256' or 'XXH3' work too, ignoring case)",
        valid.join(", ")
    ))
}
