//! Algorithm names as Python spells them (hashlib style: lowercase, `_`),
//! the per-algorithm facts hashlib objects expose, and name parsing.

use chunkhash::Algorithm;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyString;

/// Each algorithm's Python name and constructor, one line each: the one
/// list of the Python package's names (`__init__.py` re-exports them,
/// `__init__.pyi` types them; `tests/test_registry.py` checks all three
/// against the registry). hashlib's spelling where hashlib has the
/// algorithm (`sha256`, `blake2b` for BLAKE2b-512), python-xxhash's for
/// xxHash (`xxh3_64`, `xxh3_128`), and otherwise the registry's name
/// lowercased with `_` (`blake3_160`, `blake2b_256`, `sha512_160`). Every
/// one of them also parses with the registry's own `FromStr`, which reads
/// `_` as `-` and ignores case. BLAKE3's constructor is the `blake3` class
/// (`blake3.rs`); every other name is a function giving a `Hasher`,
/// `name(data=b"", *, usedforsecurity=True)` like hashlib's.
macro_rules! python_names {
    (class $class_algorithm:ident => $class:ident, $($algorithm:ident => $name:ident,)*) => {
        /// The Python name of `algorithm`, if the table above has it.
        pub(crate) fn listed_name(algorithm: Algorithm) -> Option<&'static str> {
            match algorithm {
                Algorithm::$class_algorithm => Some(stringify!($class)),
                $(Algorithm::$algorithm => Some(stringify!($name)),)*
                #[allow(unreachable_patterns)] // Reached by a row added to the registry after this table.
                _ => None,
            }
        }

        /// The algorithm with exactly this Python name: the common case,
        /// checked before the registry's case-folding parser.
        #[inline]
        fn from_python_name(name: &str) -> Option<Algorithm> {
            match name {
                stringify!($class) => Some(Algorithm::$class_algorithm),
                $(stringify!($name) => Some(Algorithm::$algorithm),)*
                _ => None,
            }
        }

        /// The constructor functions (`$class` is a class of its own).
        mod constructors {
            use chunkhash::Algorithm;
            use pyo3::prelude::*;

            use crate::hasher::Hasher;

            $(
                #[doc = concat!("A `Hasher` for ", stringify!($name), ", fed `data` if given.")]
                #[pyfunction]
                #[pyo3(signature = (data = None, /, *, usedforsecurity = true))]
                pub(super) fn $name(py: Python<'_>, data: Option<&Bound<'_, PyAny>>, usedforsecurity: bool) -> PyResult<Hasher> {
                    let _ = usedforsecurity; // Accepted for hashlib compatibility.
                    Hasher::create(py, Algorithm::$algorithm, data)
                }
            )*
        }

        /// Adds the constructor functions to the module.
        pub(crate) fn add_constructors(module: &Bound<'_, PyModule>) -> PyResult<()> {
            $(module.add_function(wrap_pyfunction!(constructors::$name, module)?)?;)*
            Ok(())
        }
    };
}

python_names! {
    class Blake3 => blake3,
    Blake3_160 => blake3_160,
    Xxh3_64 => xxh3_64,
    Xxh3_128 => xxh3_128,
    Xxh64 => xxh64,
    Xxh32 => xxh32,
    Crc32c => crc32c,
    Blake2b512 => blake2b,
    Blake2b256 => blake2b_256,
    Sha256 => sha256,
    Sha512 => sha512,
    Sha512_160 => sha512_160,
    Crc32 => crc32,
    Crc64Nvme => crc64nvme,
    Md5 => md5,
    Sha1 => sha1,
}

/// The Python name of `algorithm`: the table's, or for a row added to the
/// registry after it, the registry's name (which is no identifier, so
/// `tests/test_registry.py` fails until the row gets its line above).
pub(crate) fn python_name(algorithm: Algorithm) -> &'static str {
    listed_name(algorithm).unwrap_or_else(|| algorithm.name())
}

/// Undocumented, for `tests/test_registry.py`: every row of the registry
/// as `(id, name, digest_len, cryptographic, python_name or None)`, read
/// from the table itself, so the test can check the Python lists against it.
#[pyfunction]
pub(crate) fn _registry() -> Vec<(u8, &'static str, usize, bool, Option<&'static str>)> {
    Algorithm::all()
        .iter()
        .map(|&algorithm| {
            (
                algorithm.id(),
                algorithm.name(),
                algorithm.digest_len(),
                algorithm.is_cryptographic(),
                listed_name(algorithm),
            )
        })
        .collect()
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
