//! Arrow arrays out: the digest column, exported any number of times
//! through `__arrow_c_array__` and `__arrow_c_stream__`. Each export holds
//! a reference to the column, so its buffers live until the last consumer
//! releases them, whatever happens to the Python object.

use core::ffi::{c_char, c_int, c_void, CStr};
use std::ffi::CString;
use std::sync::Arc;

use pyo3::ffi as pyffi;
use pyo3::prelude::*;

use super::ffi::{
    ArrowArray, ArrowArrayStream, ArrowSchema, ARRAY_CAPSULE, FLAG_NULLABLE, SCHEMA_CAPSULE, STREAM_CAPSULE,
};

/// A finished digest column: owned buffers, never changed after creation.
#[derive(Debug)]
pub(crate) struct Column {
    /// The Arrow format: `w:N` (fixed-size binary), `L` (uint64), `I` (uint32).
    pub(crate) format: CString,
    pub(crate) len: usize,
    pub(crate) null_count: usize,
    /// One bit per row, 1 = valid; `None` when no row is null.
    pub(crate) validity: Option<Vec<u8>>,
    pub(crate) values: Values,
}

impl Column {
    /// A column without nulls.
    pub(crate) fn new(format: &str, len: usize, values: Values) -> Column {
        // Formats are the few literals above, which hold no NUL.
        let format = CString::new(format).unwrap_or_default();
        Column { format, len, null_count: 0, validity: None, values }
    }
}

#[derive(Debug)]
pub(crate) enum Values {
    /// Fixed-size digests, `width` bytes each, back to back.
    Bytes {
        data: Vec<u8>,
        width: usize,
    },
    U64(Vec<u64>),
    U32(Vec<u32>),
}

impl Values {
    fn as_ptr(&self) -> *const c_void {
        match self {
            Values::Bytes { data, .. } => data.as_ptr().cast(),
            Values::U64(values) => values.as_ptr().cast(),
            Values::U32(values) => values.as_ptr().cast(),
        }
    }
}

/// What an exported array's `private_data` owns.
struct ArrayPrivate {
    _column: Arc<Column>,
    buffers: [*const c_void; 2],
}

fn export_array(column: &Arc<Column>) -> ArrowArray {
    let validity = column.validity.as_ref().map_or(core::ptr::null(), |bitmap| bitmap.as_ptr().cast());
    let private =
        Box::into_raw(Box::new(ArrayPrivate { _column: column.clone(), buffers: [validity, column.values.as_ptr()] }));
    ArrowArray {
        length: column.len as i64,
        null_count: column.null_count as i64,
        offset: 0,
        n_buffers: 2,
        n_children: 0,
        // SAFETY: `private` was just made by `Box::into_raw`; the buffer list
        // lives in it, so moving the ArrowArray struct leaves it in place.
        buffers: unsafe { (*private).buffers.as_mut_ptr() },
        children: core::ptr::null_mut(),
        dictionary: core::ptr::null_mut(),
        release: Some(release_array),
        private_data: private.cast(),
    }
}

/// # Safety
///
/// `array` must be an array made by `export_array`, not yet released (the
/// consumer calls this once, as the C Data Interface requires).
unsafe extern "C" fn release_array(array: *mut ArrowArray) {
    // SAFETY: the caller's contract: a live exported array.
    let array = unsafe { &mut *array };
    if !array.private_data.is_null() {
        // SAFETY: `private_data` came from `Box::into_raw` in `export_array`
        // and is freed once: `release` is cleared below.
        drop(unsafe { Box::from_raw(array.private_data.cast::<ArrayPrivate>()) });
    }
    array.private_data = core::ptr::null_mut();
    array.release = None;
}

fn export_schema(column: &Column) -> ArrowSchema {
    let format = column.format.clone().into_raw();
    ArrowSchema {
        format,
        name: c"".as_ptr(),
        metadata: core::ptr::null(),
        flags: FLAG_NULLABLE,
        n_children: 0,
        children: core::ptr::null_mut(),
        dictionary: core::ptr::null_mut(),
        release: Some(release_schema),
        private_data: core::ptr::null_mut(),
    }
}

/// # Safety
///
/// `schema` must be a schema made by `export_schema`, not yet released.
unsafe extern "C" fn release_schema(schema: *mut ArrowSchema) {
    // SAFETY: the caller's contract: a live exported schema.
    let schema = unsafe { &mut *schema };
    if !schema.format.is_null() {
        // SAFETY: `format` came from `CString::into_raw` in `export_schema`
        // and is freed once: `release` is cleared below.
        drop(unsafe { CString::from_raw(schema.format.cast_mut()) });
    }
    schema.format = core::ptr::null();
    schema.release = None;
}

/// The `(schema, array)` capsule pair of `__arrow_c_array__`.
pub(crate) fn array_capsules<'py>(
    py: Python<'py>,
    column: &Arc<Column>,
) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyAny>)> {
    let schema = capsule(py, export_schema(column))?;
    let array = capsule(py, export_array(column))?;
    Ok((schema, array))
}

/// The capsule of `__arrow_c_stream__`: a stream of one array.
pub(crate) fn stream_capsule<'py>(py: Python<'py>, column: &Arc<Column>) -> PyResult<Bound<'py, PyAny>> {
    let private = Box::new(StreamPrivate { column: column.clone(), done: false });
    let stream = ArrowArrayStream {
        get_schema: Some(stream_get_schema),
        get_next: Some(stream_get_next),
        get_last_error: Some(stream_get_last_error),
        release: Some(stream_release),
        private_data: Box::into_raw(private).cast(),
    };
    capsule(py, stream)
}

struct StreamPrivate {
    column: Arc<Column>,
    done: bool,
}

/// # Safety
///
/// `stream` must be a live stream made by `stream_capsule`; `out` must be
/// writable.
unsafe extern "C" fn stream_get_schema(stream: *mut ArrowArrayStream, out: *mut ArrowSchema) -> c_int {
    // SAFETY: the caller's contract; `private_data` is our StreamPrivate.
    unsafe {
        let private = &*(*stream).private_data.cast::<StreamPrivate>();
        out.write(export_schema(&private.column));
    }
    0
}

/// # Safety
///
/// As for `stream_get_schema`.
unsafe extern "C" fn stream_get_next(stream: *mut ArrowArrayStream, out: *mut ArrowArray) -> c_int {
    // SAFETY: the caller's contract; `private_data` is our StreamPrivate,
    // and the stream is not used by two threads at once (the interface
    // forbids concurrent calls on one stream).
    unsafe {
        let private = &mut *(*stream).private_data.cast::<StreamPrivate>();
        if private.done {
            out.write(ArrowArray::empty()); // Released: the end of the stream.
        } else {
            private.done = true;
            out.write(export_array(&private.column));
        }
    }
    0
}

unsafe extern "C" fn stream_get_last_error(_stream: *mut ArrowArrayStream) -> *const c_char {
    core::ptr::null() // Our callbacks never fail.
}

/// # Safety
///
/// `stream` must be a live stream made by `stream_capsule`, released once.
unsafe extern "C" fn stream_release(stream: *mut ArrowArrayStream) {
    // SAFETY: the caller's contract; `private_data` came from
    // `Box::into_raw` in `stream_capsule` and is freed once.
    unsafe {
        let stream = &mut *stream;
        if !stream.private_data.is_null() {
            drop(Box::from_raw(stream.private_data.cast::<StreamPrivate>()));
        }
        stream.private_data = core::ptr::null_mut();
        stream.release = None;
    }
}

/// A C struct that a capsule can carry, with its name and release call.
trait Exported {
    const NAME: &'static CStr;
    fn release(&mut self);
}

impl Exported for ArrowSchema {
    const NAME: &'static CStr = SCHEMA_CAPSULE;
    fn release(&mut self) {
        if let Some(release) = self.release {
            // SAFETY: a live schema (release set), released once: every
            // release callback clears `release`.
            unsafe { release(self) };
        }
    }
}

impl Exported for ArrowArray {
    const NAME: &'static CStr = ARRAY_CAPSULE;
    fn release(&mut self) {
        if let Some(release) = self.release {
            // SAFETY: as for ArrowSchema.
            unsafe { release(self) };
        }
    }
}

impl Exported for ArrowArrayStream {
    const NAME: &'static CStr = STREAM_CAPSULE;
    fn release(&mut self) {
        if let Some(release) = self.release {
            // SAFETY: as for ArrowSchema.
            unsafe { release(self) };
        }
    }
}

/// Boxes `value` into a capsule named as the PyCapsule Interface says. A
/// consumer that moves the struct out marks it released; otherwise the
/// capsule's destructor releases it.
fn capsule<T: Exported>(py: Python<'_>, value: T) -> PyResult<Bound<'_, PyAny>> {
    let pointer = Box::into_raw(Box::new(value));
    // SAFETY: `pointer` is a live heap struct owned from now on by the
    // capsule, whose destructor frees it; the name is a static C string.
    let capsule = unsafe { pyffi::PyCapsule_New(pointer.cast(), T::NAME.as_ptr(), Some(drop_capsule::<T>)) };
    if capsule.is_null() {
        // SAFETY: the capsule was not made, so `pointer` is still ours.
        let mut value = unsafe { Box::from_raw(pointer) };
        value.release();
        return Err(PyErr::fetch(py));
    }
    // SAFETY: a new reference, checked non-NULL above.
    Ok(unsafe { Bound::from_owned_ptr(py, capsule) })
}

/// # Safety
///
/// Called by CPython once, when a capsule made by `capsule::<T>` dies.
unsafe extern "C" fn drop_capsule<T: Exported>(capsule: *mut pyffi::PyObject) {
    // SAFETY: a capsule made by `capsule::<T>`, so it carries a boxed T
    // under `T::NAME`.
    unsafe {
        let pointer = pyffi::PyCapsule_GetPointer(capsule, T::NAME.as_ptr()).cast::<T>();
        if pointer.is_null() {
            pyffi::PyErr_Clear();
            return;
        }
        let mut value = Box::from_raw(pointer);
        value.release();
    }
}
