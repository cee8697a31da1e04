//! `hash(name, data, /, *, key=None, derive_key_context=None)`: one
//! message, one call, on the shortest path the binding has.
//!
//! This one function is registered by hand as a `METH_FASTCALL` C function
//! instead of through `#[pyfunction]`, and its common call,
//! `hash("blake3", some_bytes)`, takes the name from a table of the
//! interned name strings (a pointer compare) and reads an exact `bytes`
//! without a buffer export. Through `#[pyfunction]` (PyO3's argument
//! extraction, trampoline and thread-state bookkeeping),
//! `hash("xxh3_64", 64 B)` cost about 350 instructions more per call than
//! through this entry point alone (callgrind: 1555 against 1201 per loop
//! iteration); with the common path too it costs 47 more than
//! python-xxhash's `xxh3_64_digest` (BENCHMARKS.md, "Python package").
//! Every other call goes through the same code as the rest of the binding.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::OnceLock;

use chunkhash::{blake3, Algorithm};
use pyo3::exceptions::{PySystemError, PyTypeError};
use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::{PyString, PyTuple};

use crate::buffer::Bytes;
use crate::gil;
use crate::hasher::Mode;
use crate::names;

const DOC: &std::ffi::CStr = c"hash(name, data, /, *, key=None, derive_key_context=None)
--

The digest of `data` under the algorithm `name`, as bytes:
`hash(\"blake3\", data) == blake3(data).digest()`. `key` and
`derive_key_context` select BLAKE3's keyed and key-derivation modes.";

/// The interned string object of every Python name, with its algorithm. A
/// name written as a literal in Python code is the interned object itself,
/// so a pointer compare finds it; the strings are kept alive for the life of
/// the process, so a pointer in the table is never reused by another object.
static NAME_OBJECTS: OnceLock<Vec<(usize, Algorithm)>> = OnceLock::new();

/// Adds `hash` to the module.
pub(crate) fn add_to(module: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = module.py();
    NAME_OBJECTS.get_or_init(|| {
        names::available()
            .map(|algorithm| {
                let name = PyString::intern(py, names::python_name(algorithm)).unbind();
                let pointer = name.as_ptr() as usize;
                std::mem::forget(name); // Kept alive for the process: see NAME_OBJECTS.
                (pointer, algorithm)
            })
            .collect()
    });
    // The definition must outlive the function object: leaked once per import.
    let definition = Box::leak(Box::new(ffi::PyMethodDef {
        ml_name: c"hash".as_ptr(),
        ml_meth: ffi::PyMethodDefPointer { PyCFunctionFastWithKeywords: hash_fastcall },
        ml_flags: ffi::METH_FASTCALL | ffi::METH_KEYWORDS,
        ml_doc: DOC.as_ptr(),
    }));
    let module_name = module.name()?;
    // SAFETY: a static-lifetime method definition, a live module and its
    // name; the result is a new reference or NULL with an exception set.
    let function = unsafe {
        Bound::from_owned_ptr_or_err(py, ffi::PyCFunction_NewEx(definition, module.as_ptr(), module_name.as_ptr()))
    }?;
    module.add("hash", function)
}

/// # Safety
///
/// Called by CPython as a `METH_FASTCALL | METH_KEYWORDS` function: `args`
/// holds `nargs` positional arguments and then one value per name in the
/// `kwnames` tuple (or `kwnames` is NULL), all borrowed for the call, with
/// the calling thread attached to the interpreter.
unsafe extern "C" fn hash_fastcall(
    _module: *mut ffi::PyObject,
    args: *const *mut ffi::PyObject,
    nargs: ffi::Py_ssize_t,
    kwnames: *mut ffi::PyObject,
) -> *mut ffi::PyObject {
    // SAFETY: the contract above.
    if let Some(digest) = unsafe { common_call(args, nargs, kwnames) } {
        return digest;
    }
    // SAFETY: CPython calls us attached (the contract above).
    let py = unsafe { Python::assume_attached() };
    // SAFETY: the contract above, passed on.
    let result = catch_unwind(AssertUnwindSafe(|| unsafe { hash_call(py, args, nargs, kwnames) }));
    match result {
        Ok(Ok(digest)) => digest,
        Ok(Err(error)) => {
            error.restore(py);
            core::ptr::null_mut()
        }
        // Never let a panic cross into C; none is known to be reachable.
        Err(_) => {
            PySystemError::new_err("chunkhash.hash panicked (a bug in chunkhash)").restore(py);
            core::ptr::null_mut()
        }
    }
}

/// The common call, `hash("name", some_bytes)` below the GIL threshold,
/// with nothing that can fail or panic: the name is one of the interned
/// strings (so an available algorithm), the data an exact `bytes`. `None`
/// sends every other call to `hash_call`. Returns the new `bytes` object
/// (or NULL with MemoryError set).
///
/// # Safety
///
/// As for `hash_fastcall`.
#[inline(always)]
unsafe fn common_call(
    args: *const *mut ffi::PyObject,
    nargs: ffi::Py_ssize_t,
    kwnames: *mut ffi::PyObject,
) -> Option<*mut ffi::PyObject> {
    if nargs != 2 || !kwnames.is_null() {
        return None;
    }
    // SAFETY: two positional arguments, borrowed for the call; an exact
    // `bytes` object's size and contents are read as in `hash_call`.
    unsafe {
        let (name, data) = (*args, *args.add(1));
        if ffi::Py_TYPE(data) != &raw mut ffi::PyBytes_Type {
            return None;
        }
        let algorithm = lookup(name)?;
        let len = ffi::Py_SIZE(data) as usize;
        if len >= gil::threshold(algorithm) {
            return None;
        }
        let input: &[u8] =
            if len == 0 { &[] } else { core::slice::from_raw_parts(ffi::PyBytes_AsString(data).cast::<u8>(), len) };
        Some(new_bytes(chunkhash::digest(algorithm, input).as_bytes()))
    }
}

/// # Safety
///
/// As for `hash_fastcall`.
#[inline(never)]
unsafe fn hash_call(
    py: Python<'_>,
    args: *const *mut ffi::PyObject,
    nargs: ffi::Py_ssize_t,
    kwnames: *mut ffi::PyObject,
) -> PyResult<*mut ffi::PyObject> {
    if nargs != 2 {
        return Err(PyTypeError::new_err(format!(
            "hash() takes 2 positional arguments (name, data) but {nargs} were given"
        )));
    }
    // SAFETY: `args` holds at least the two positional arguments.
    let (name, data) = unsafe { (*args, *args.add(1)) };
    let algorithm = match lookup(name) {
        Some(algorithm) => algorithm,
        // SAFETY: a borrowed argument, alive for the call.
        None => names::parse(&*unsafe { Borrowed::from_ptr(py, name) })?,
    };
    let options = if kwnames.is_null() {
        None
    } else {
        // SAFETY: the contract above, passed on.
        Some(unsafe { keywords(py, args.add(2), kwnames)? })
    };
    let mode = match &options {
        None => Mode::Plain,
        Some((key, derive_key_context)) => {
            let mode = Mode::parse(key.as_ref(), derive_key_context.as_ref())?;
            if algorithm != Algorithm::Blake3 {
                mode.only_blake3(algorithm)?;
            }
            mode
        }
    };

    let borrowed;
    // SAFETY: `data` is a borrowed argument, alive for the call (and so
    // while the GIL is released below); an exact `bytes` never changes, and
    // `PyBytes_AsString`/`PyBytes_Size` give its contents.
    let input: &[u8] = unsafe {
        if ffi::Py_TYPE(data) == &raw mut ffi::PyBytes_Type {
            let len = ffi::PyBytes_Size(data) as usize;
            if len == 0 {
                &[]
            } else {
                core::slice::from_raw_parts(ffi::PyBytes_AsString(data).cast::<u8>(), len)
            }
        } else {
            borrowed = Bytes::read(&Borrowed::from_ptr(py, data))?;
            borrowed.as_slice()
        }
    };
    let release = input.len() >= gil::threshold(algorithm);
    let digest = match mode {
        Mode::Plain => {
            let digest = if release {
                py.detach(|| chunkhash::digest(algorithm, input))
            } else {
                chunkhash::digest(algorithm, input)
            };
            return Ok(new_bytes(digest.as_bytes()));
        }
        Mode::Keyed(key) => {
            let compute = || blake3::keyed_hash(&key, input).into();
            if release {
                py.detach(compute)
            } else {
                compute()
            }
        }
        Mode::DeriveKey(context) => {
            let compute = || blake3::derive_key(context, input);
            if release {
                py.detach(compute)
            } else {
                compute()
            }
        }
    };
    let digest: [u8; blake3::OUT_LEN] = digest;
    Ok(new_bytes(&digest))
}

/// A new `bytes` object, or NULL with MemoryError set (returned as is: the
/// caller hands it straight back to CPython).
#[inline]
fn new_bytes(digest: &[u8]) -> *mut ffi::PyObject {
    // SAFETY: copies `digest.len()` readable bytes; we are attached.
    unsafe { ffi::PyBytes_FromStringAndSize(digest.as_ptr().cast(), digest.len() as ffi::Py_ssize_t) }
}

/// The `key` and `derive_key_context` keyword arguments.
type Options<'py> = (Option<Bound<'py, PyAny>>, Option<Bound<'py, PyAny>>);

/// Reads the keyword arguments.
///
/// # Safety
///
/// `values` holds one borrowed value per name in the tuple `kwnames`.
unsafe fn keywords<'py>(
    py: Python<'py>,
    values: *const *mut ffi::PyObject,
    kwnames: *mut ffi::PyObject,
) -> PyResult<Options<'py>> {
    let (mut key, mut derive_key_context) = (None, None);
    // SAFETY: the contract above.
    let kwnames = unsafe { Borrowed::from_ptr(py, kwnames).to_owned().cast_into_unchecked::<PyTuple>() };
    for (i, keyword) in kwnames.iter().enumerate() {
        // SAFETY: the contract above.
        let value = unsafe { Borrowed::from_ptr(py, *values.add(i)).to_owned() };
        match keyword.cast::<PyString>()?.to_str()? {
            "key" => key = Some(value),
            "derive_key_context" => derive_key_context = Some(value),
            other => return Err(PyTypeError::new_err(format!("hash() got an unexpected keyword argument '{other}'"))),
        }
    }
    Ok((key, derive_key_context))
}

/// The algorithm whose interned name string `name` is, if it is one.
#[inline]
fn lookup(name: *mut ffi::PyObject) -> Option<Algorithm> {
    let table = NAME_OBJECTS.get()?;
    table.iter().find(|(pointer, _)| *pointer == name as usize).map(|(_, algorithm)| *algorithm)
}
