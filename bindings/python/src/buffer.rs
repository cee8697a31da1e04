//! Python objects read as bytes: `bytes` directly, anything else through the
//! buffer protocol, which must give one C-contiguous block.
//!
//! Neither PyO3's `PyBuffer` nor pyo3-ffi's `Py_buffer` is compiled for the
//! stable ABI before 3.11, so `ffi` below declares the struct and the three
//! functions used here, as CPython's `Include/pybuffer.h` defines them. They
//! joined the stable ABI in 3.11 unchanged since 3.3: an abi3 wheel built for
//! 3.10 finds them in the interpreter on Linux and macOS. (On Windows, 3.10's
//! `python3.dll` does not export them; a Windows wheel would need 3.11 as
//! its floor. PyPy names them differently and takes no abi3 wheels anyway.)

use core::ffi::c_int;

use pyo3::exceptions::{PyBufferError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString};

#[allow(non_camel_case_types, non_snake_case, non_upper_case_globals)]
mod ffi {
    use core::ffi::{c_char, c_int, c_void};
    use pyo3::ffi::{PyObject, Py_ssize_t};

    /// `Py_buffer`, the stable-ABI layout.
    #[repr(C)]
    pub(super) struct Py_buffer {
        pub(super) buf: *mut c_void,
        pub(super) obj: *mut PyObject,
        pub(super) len: Py_ssize_t,
        pub(super) itemsize: Py_ssize_t,
        pub(super) readonly: c_int,
        pub(super) ndim: c_int,
        pub(super) format: *mut c_char,
        pub(super) shape: *mut Py_ssize_t,
        pub(super) strides: *mut Py_ssize_t,
        pub(super) suboffsets: *mut Py_ssize_t,
        pub(super) internal: *mut c_void,
    }

    impl Py_buffer {
        pub(super) const fn new() -> Py_buffer {
            Py_buffer {
                buf: core::ptr::null_mut(),
                obj: core::ptr::null_mut(),
                len: 0,
                itemsize: 0,
                readonly: 0,
                ndim: 0,
                format: core::ptr::null_mut(),
                shape: core::ptr::null_mut(),
                strides: core::ptr::null_mut(),
                suboffsets: core::ptr::null_mut(),
                internal: core::ptr::null_mut(),
            }
        }
    }

    pub(super) const PyBUF_WRITABLE: c_int = 0x0001;
    pub(super) const PyBUF_ND: c_int = 0x0008;
    pub(super) const PyBUF_STRIDES: c_int = 0x0010 | PyBUF_ND;

    extern "C" {
        pub(super) fn PyObject_GetBuffer(obj: *mut PyObject, view: *mut Py_buffer, flags: c_int) -> c_int;
        pub(super) fn PyBuffer_Release(view: *mut Py_buffer);
        pub(super) fn PyBuffer_IsContiguous(view: *const Py_buffer, order: c_char) -> c_int;
    }
}

/// hashlib's message for `str` input, word for word.
pub(crate) const STR_MESSAGE: &str = "Strings must be encoded before hashing";

/// The bytes of one Python object, held readable for as long as this lives:
/// the object itself is kept alive, and a buffer export (which stops a
/// `bytearray` from resizing, for example) is released on drop.
pub(crate) struct Bytes<'py> {
    // Kept for the lifetime of `ptr`; never read.
    _owner: Bound<'py, PyAny>,
    ptr: *const u8,
    len: usize,
    // Boxed so the struct the exporter filled in never moves before release.
    view: Option<Box<ffi::Py_buffer>>,
}

impl<'py> Bytes<'py> {
    /// Reads `object`: `bytes` without a buffer export, `str` refused as
    /// hashlib refuses it, anything else through the buffer protocol.
    #[inline]
    pub(crate) fn read(object: &Bound<'py, PyAny>) -> PyResult<Bytes<'py>> {
        if let Some((ptr, len)) = exact_bytes(object) {
            return Ok(Bytes { _owner: object.clone(), ptr, len, view: None });
        }
        if let Ok(bytes) = object.cast::<PyBytes>() {
            let slice = bytes.as_bytes();
            return Ok(Bytes { _owner: object.clone(), ptr: slice.as_ptr(), len: slice.len(), view: None });
        }
        if object.is_instance_of::<PyString>() {
            return Err(PyTypeError::new_err(STR_MESSAGE));
        }
        let view = export(object, ffi::PyBUF_STRIDES)?;
        Ok(Bytes { _owner: object.clone(), ptr: view.buf as *const u8, len: view.len as usize, view: Some(view) })
    }

    /// `read`, refusing buffers whose items are wider than a byte
    /// (`array.array("i")`, numpy int32) with `BufferError`, as blake3-py's
    /// `blake3` does: the `blake3` class keeps its behaviour, while the
    /// hashlib-style calls hash any buffer's bytes as hashlib does.
    pub(crate) fn read_byte_items(object: &Bound<'py, PyAny>) -> PyResult<Bytes<'py>> {
        let bytes = Bytes::read(object)?;
        if let Some(view) = &bytes.view {
            if view.itemsize != 1 {
                return Err(PyBufferError::new_err(format!(
                    "blake3 takes buffers of bytes, not of {}-byte items ('{}'); hash memoryview(data).cast('B') for their bytes",
                    view.itemsize,
                    type_name(object)
                )));
            }
        }
        Ok(bytes)
    }

    #[inline]
    pub(crate) fn as_slice(&self) -> &[u8] {
        if self.len == 0 {
            return &[];
        }
        // SAFETY: `ptr` and `len` are a `bytes` object's contents or a
        // C-contiguous buffer export (checked in `export`), both valid for
        // reads while `_owner` lives and the export is held, which is as long
        // as `self`. A bytes object never changes. A mutable exporter cannot
        // resize or free its memory while exported; another thread may still
        // write into it while it is hashed, as with hashlib: that is a race in
        // the caller's program, which can change the digest but not make this
        // read leave the block.
        unsafe { core::slice::from_raw_parts(self.ptr, self.len) }
    }
}

impl Drop for Bytes<'_> {
    fn drop(&mut self) {
        if let Some(view) = self.view.as_mut() {
            // SAFETY: `view` was filled by a successful `PyObject_GetBuffer`
            // and is released exactly once, here, while attached to the
            // interpreter (a `Bytes` holds a `Bound`, which cannot leave it).
            unsafe { ffi::PyBuffer_Release(&mut **view) };
        }
    }
}

/// A writable C-contiguous buffer, for `out=` arguments.
pub(crate) struct BytesMut<'py> {
    _owner: Bound<'py, PyAny>,
    view: Box<ffi::Py_buffer>,
}

impl<'py> BytesMut<'py> {
    pub(crate) fn read(object: &Bound<'py, PyAny>, what: &str) -> PyResult<BytesMut<'py>> {
        match export(object, ffi::PyBUF_STRIDES | ffi::PyBUF_WRITABLE) {
            Ok(view) => Ok(BytesMut { _owner: object.clone(), view }),
            Err(error) => {
                let message = format!(
                    "{what} must be a writable C-contiguous buffer (bytearray, numpy uint8 array, ...), got {}: {}",
                    type_name(object),
                    error.value(object.py())
                );
                let new = PyTypeError::new_err(message);
                new.set_cause(object.py(), Some(error));
                Err(new)
            }
        }
    }

    /// Start and length, for overlap checks against inputs.
    pub(crate) fn range(&self) -> (usize, usize) {
        (self.view.buf as usize, self.view.len as usize)
    }

    pub(crate) fn as_mut_slice(&mut self) -> &mut [u8] {
        if self.view.len == 0 {
            return &mut [];
        }
        // SAFETY: a writable, C-contiguous export (checked in `export`) of
        // `len` bytes, held until drop; `&mut self` makes this the only slice
        // of it made here, and callers check it overlaps no input slice.
        unsafe { core::slice::from_raw_parts_mut(self.view.buf as *mut u8, self.view.len as usize) }
    }
}

impl Drop for BytesMut<'_> {
    fn drop(&mut self) {
        // SAFETY: as in `Bytes::drop`.
        unsafe { ffi::PyBuffer_Release(&mut *self.view) };
    }
}

/// Asks `object` for a buffer with `flags` and checks that it is one
/// C-contiguous block (any item format: its bytes are hashed, as hashlib does).
fn export(object: &Bound<'_, PyAny>, flags: c_int) -> PyResult<Box<ffi::Py_buffer>> {
    let mut view = Box::new(ffi::Py_buffer::new());
    // SAFETY: `object` is a live object and we are attached; `view` is a
    // writable `Py_buffer` that stays at this address until released.
    if unsafe { ffi::PyObject_GetBuffer(object.as_ptr(), &mut *view, flags) } != 0 {
        // CPython's own message for non-buffers: "a bytes-like object is
        // required, not 'int'".
        return Err(PyErr::fetch(object.py()));
    }
    // SAFETY: `view` was filled by the successful call above.
    let contiguous = unsafe { ffi::PyBuffer_IsContiguous(&*view, b'C' as core::ffi::c_char) } != 0;
    if !contiguous {
        // SAFETY: released once, on this path only; the caller never sees it.
        unsafe { ffi::PyBuffer_Release(&mut *view) };
        return Err(PyValueError::new_err(format!(
            "{} buffer is not C-contiguous; hash a contiguous copy (bytes(x), numpy.ascontiguousarray(x))",
            type_name(object)
        )));
    }
    Ok(view)
}

/// The object's type name, for messages.
pub(crate) fn type_name(object: &Bound<'_, PyAny>) -> String {
    object.get_type().name().map(|name| name.to_string()).unwrap_or_else(|_| "object".to_owned())
}

/// The contents of an exact `bytes` object (not a subclass), found with a
/// pointer compare instead of the type-flag call the stable ABI needs.
#[inline]
fn exact_bytes(object: &Bound<'_, PyAny>) -> Option<(*const u8, usize)> {
    // SAFETY: a live object.
    unsafe { exact_bytes_ptr(object.as_ptr()) }.map(|slice| (slice.as_ptr(), slice.len()))
}

/// `exact_bytes` on a raw pointer. The slice's real lifetime is the
/// object's: callers keep a reference to it for as long as they use it.
///
/// # Safety
///
/// `object` must be a live object and the caller attached.
#[inline(always)]
unsafe fn exact_bytes_ptr(object: *mut pyo3::ffi::PyObject) -> Option<&'static [u8]> {
    // SAFETY: `PyBytes_Type` is CPython's static type object; for an exact
    // bytes object `PyBytes_AsString` and `Py_SIZE` cannot fail, and its
    // contents never change.
    unsafe {
        if pyo3::ffi::Py_TYPE(object) != &raw mut pyo3::ffi::PyBytes_Type {
            return None;
        }
        let len = pyo3::ffi::Py_SIZE(object) as usize;
        if len == 0 {
            return Some(&[]);
        }
        Some(core::slice::from_raw_parts(pyo3::ffi::PyBytes_AsString(object).cast::<u8>(), len))
    }
}

/// Many messages read at once, for the batch calls. An exact `bytes`
/// message (the common case) costs one strong reference; anything else is
/// read as `Bytes`. Everything is held until drop, so the slices stay valid
/// while the GIL is released, whatever other threads do to the sequence.
pub(crate) struct Messages<'py> {
    py: Python<'py>,
    /// Every message's bytes, in order. Their true lifetime is that of
    /// `self` (the objects and exports below keep them alive and unchanged);
    /// `slices()` hands them out only borrowed from `self`.
    slices: Vec<&'static [u8]>,
    /// Strong references to the exact `bytes` messages.
    owned: Vec<*mut pyo3::ffi::PyObject>,
    /// The messages that are not exact `bytes`, with their buffer exports.
    exports: Vec<Bytes<'py>>,
}

impl<'py> Messages<'py> {
    /// Reads every message of a list, a tuple, or any other iterable.
    pub(crate) fn read(messages: &Bound<'py, PyAny>) -> PyResult<Messages<'py>> {
        use pyo3::ffi::compat::PyList_GetItemRef;
        use pyo3::types::{PyByteArray, PyList, PyMemoryView, PyTuple};
        if messages.is_instance_of::<PyBytes>()
            || messages.is_instance_of::<PyByteArray>()
            || messages.is_instance_of::<PyMemoryView>()
            || messages.is_instance_of::<PyString>()
        {
            return Err(PyTypeError::new_err(format!(
                "messages must be a sequence of messages, not one '{}' (for one message use hash(), or wrap it in a list)",
                type_name(messages)
            )));
        }
        let py = messages.py();
        let mut read = Messages { py, slices: Vec::new(), owned: Vec::new(), exports: Vec::new() };
        if let Ok(list) = messages.cast::<PyList>() {
            read.reserve(list.len());
            // By index, not by iterator: reading an object through the buffer
            // protocol may run Python code that changes the list's length,
            // which then ends in an IndexError here.
            for i in 0..list.len() {
                // SAFETY: a live list; the result is a new reference (on
                // every build, free-threaded included) or NULL with an
                // IndexError set.
                let item = unsafe { PyList_GetItemRef(list.as_ptr(), i as pyo3::ffi::Py_ssize_t) };
                if item.is_null() {
                    return Err(PyErr::fetch(py));
                }
                // SAFETY: `item` is a new reference: kept in `owned` if it
                // is exact bytes, handed to a `Bound` otherwise.
                unsafe {
                    match exact_bytes_ptr(item) {
                        Some(slice) => read.push_bytes(item, slice),
                        None => read.push_other(i, Bound::from_owned_ptr(py, item))?,
                    }
                }
            }
        } else if let Ok(tuple) = messages.cast::<PyTuple>() {
            read.reserve(tuple.len());
            for (i, item) in tuple.iter().enumerate() {
                read.push(i, item)?;
            }
        } else {
            let items = messages.try_iter().map_err(|_| {
                PyTypeError::new_err(format!(
                    "messages must be an iterable of bytes-like objects, not '{}'",
                    type_name(messages)
                ))
            })?;
            for (i, item) in items.enumerate() {
                read.push(i, item?)?;
            }
        }
        Ok(read)
    }

    fn reserve(&mut self, n: usize) {
        self.slices.reserve(n);
        self.owned.reserve(n);
    }

    #[inline]
    fn push(&mut self, index: usize, item: Bound<'py, PyAny>) -> PyResult<()> {
        // SAFETY: a live object.
        match unsafe { exact_bytes_ptr(item.as_ptr()) } {
            Some(slice) => {
                self.push_bytes(item.into_ptr(), slice);
                Ok(())
            }
            None => self.push_other(index, item),
        }
    }

    /// An exact bytes message: its strong reference, handed over, and its
    /// contents.
    #[inline(always)]
    fn push_bytes(&mut self, owner: *mut pyo3::ffi::PyObject, contents: &'static [u8]) {
        self.owned.push(owner);
        self.slices.push(contents);
    }

    /// Any other message, through the buffer protocol.
    #[cold]
    #[inline(never)]
    fn push_other(&mut self, index: usize, item: Bound<'py, PyAny>) -> PyResult<()> {
        let bytes = Bytes::read(&item).map_err(|error| {
            let py = item.py();
            PyErr::from_type(error.get_type(py), format!("messages[{index}]: {}", error.value(py)))
        })?;
        let contents: &'static [u8] = if bytes.len == 0 {
            &[]
        } else {
            // SAFETY: an export held in `exports` (a `Bytes` does not move
            // its block when moved itself) for as long as `self`: see
            // `Bytes::as_slice`; lent out only borrowed from `self`.
            unsafe { core::slice::from_raw_parts(bytes.ptr, bytes.len) }
        };
        self.slices.push(contents);
        self.exports.push(bytes);
        Ok(())
    }

    /// The messages as slices, valid while `self` lives.
    pub(crate) fn slices(&self) -> &[&[u8]] {
        &self.slices
    }
}

impl Drop for Messages<'_> {
    fn drop(&mut self) {
        let _attached = self.py; // Reference counts change only while attached.
        for &owner in &self.owned {
            // SAFETY: a strong reference taken in `push`, released once.
            unsafe { pyo3::ffi::Py_DECREF(owner) };
        }
    }
}
