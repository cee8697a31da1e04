//! Arrow arrays in: any object with `__arrow_c_array__` or
//! `__arrow_c_stream__` (pyarrow arrays and chunked arrays, polars Series,
//! nanoarrow, arro3, ...) holding binary or string values. Nothing is
//! copied: the rows are slices of the producer's buffers, which stay alive
//! (unreleased) until the hashing is done.

use core::ffi::{c_void, CStr};

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::ffi as pyffi;
use pyo3::prelude::*;
use pyo3::types::PyCapsule;

use super::ffi::{ArrowArray, ArrowArrayStream, ArrowSchema, ARRAY_CAPSULE, SCHEMA_CAPSULE, STREAM_CAPSULE};
use crate::buffer::type_name;

/// How a binary column stores its values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Layout {
    /// `binary` (`z`) and `string` (`u`): int32 offsets into one data buffer.
    Offsets32,
    /// `large_binary` (`Z`) and `large_string` (`U`): int64 offsets.
    Offsets64,
    /// `binary_view` (`vz`) and `string_view` (`vu`): 16-byte views, short
    /// values inline, long ones in variadic data buffers.
    Views,
}

const ACCEPTED: &str = "binary, large_binary, string, large_string, binary_view or string_view";

impl Layout {
    fn from_format(format: &CStr) -> Option<Layout> {
        match format.to_bytes() {
            b"z" | b"u" => Some(Layout::Offsets32),
            b"Z" | b"U" => Some(Layout::Offsets64),
            b"vz" | b"vu" => Some(Layout::Views),
            _ => None,
        }
    }
}

/// An array taken over from its producer; released on drop.
pub(crate) struct OwnedArray(ArrowArray);

impl Drop for OwnedArray {
    fn drop(&mut self) {
        if let Some(release) = self.0.release {
            // SAFETY: the array was moved to us (the producer's copy was
            // marked released), so this is its one release call.
            unsafe { release(&mut self.0) };
        }
    }
}

/// A schema taken over from a stream; released on drop.
struct OwnedSchema(ArrowSchema);

impl Drop for OwnedSchema {
    fn drop(&mut self) {
        if let Some(release) = self.0.release {
            // SAFETY: filled in for us by `get_schema`; released once, here.
            unsafe { release(&mut self.0) };
        }
    }
}

/// A stream taken over from its capsule; released on drop.
struct OwnedStream(ArrowArrayStream);

impl Drop for OwnedStream {
    fn drop(&mut self) {
        if let Some(release) = self.0.release {
            // SAFETY: moved out of the capsule (whose copy was marked
            // released); released once, here.
            unsafe { release(&mut self.0) };
        }
    }
}

/// The arrays of one column, all of one layout.
pub(crate) struct Imported {
    pub(crate) layout: Layout,
    pub(crate) arrays: Vec<OwnedArray>,
}

/// Takes the column out of an Arrow-exporting object.
pub(crate) fn import(object: &Bound<'_, PyAny>) -> PyResult<Imported> {
    if object.hasattr("__arrow_c_array__")? {
        let pair = object.call_method0("__arrow_c_array__")?;
        let (schema, array): (Bound<'_, PyAny>, Bound<'_, PyAny>) = pair.extract().map_err(|_| {
            PyTypeError::new_err("__arrow_c_array__ must return a (schema capsule, array capsule) pair")
        })?;
        let schema_ptr = capsule_pointer::<ArrowSchema>(&schema, SCHEMA_CAPSULE)?;
        // SAFETY: a live "arrow_schema" capsule points to a valid ArrowSchema
        // (the interface's contract), and `schema` keeps it alive meanwhile.
        let layout = unsafe { layout_of(&*schema_ptr)? };
        let array_ptr = capsule_pointer::<ArrowArray>(&array, ARRAY_CAPSULE)?;
        // SAFETY: as above, for "arrow_array". Moving it out is what the
        // interface prescribes: copy the struct, then mark the source
        // released so the capsule's destructor leaves it alone.
        let owned = unsafe {
            let owned = OwnedArray(core::ptr::read(array_ptr));
            (*array_ptr).release = None;
            owned
        };
        if owned.0.release.is_none() {
            return Err(PyValueError::new_err("the Arrow array capsule was already consumed"));
        }
        return Ok(Imported { layout, arrays: vec![owned] });
    }
    if object.hasattr("__arrow_c_stream__")? {
        let capsule = object.call_method0("__arrow_c_stream__")?;
        let stream_ptr = capsule_pointer::<ArrowArrayStream>(&capsule, STREAM_CAPSULE)?;
        // SAFETY: a live "arrow_array_stream" capsule points to a valid
        // stream; it is moved out as the interface prescribes (see above).
        let mut stream = unsafe {
            let stream = OwnedStream(core::ptr::read(stream_ptr));
            (*stream_ptr).release = None;
            stream
        };
        if stream.0.release.is_none() {
            return Err(PyValueError::new_err("the Arrow stream capsule was already consumed"));
        }
        let (Some(get_schema), Some(get_next)) = (stream.0.get_schema, stream.0.get_next) else {
            return Err(PyValueError::new_err("the Arrow stream has no get_schema or get_next callback"));
        };
        let mut schema = OwnedSchema(ArrowSchema::empty());
        // SAFETY: the callbacks of a live stream, called as the C Stream
        // Interface specifies, with an empty struct to fill in.
        let status = unsafe { get_schema(&mut stream.0, &mut schema.0) };
        if status != 0 {
            return Err(stream_error(&mut stream, status));
        }
        // SAFETY: `get_schema` succeeded, so `schema` is a valid schema.
        let layout = unsafe { layout_of(&schema.0)? };
        let mut arrays = Vec::new();
        loop {
            let mut array = OwnedArray(ArrowArray::empty());
            // SAFETY: as for `get_schema`.
            let status = unsafe { get_next(&mut stream.0, &mut array.0) };
            if status != 0 {
                return Err(stream_error(&mut stream, status));
            }
            if array.0.release.is_none() {
                break; // The end of the stream.
            }
            arrays.push(array);
        }
        return Ok(Imported { layout, arrays });
    }
    Err(PyTypeError::new_err(format!(
        "hash_array takes an Arrow array ({ACCEPTED}) through the Arrow PyCapsule interface \
         (__arrow_c_array__ or __arrow_c_stream__: pyarrow, polars, nanoarrow, ...), got '{}'",
        type_name(object)
    )))
}

/// The layout a schema describes, or a TypeError naming its format.
///
/// # Safety
///
/// `schema` must be a valid (unreleased) ArrowSchema.
unsafe fn layout_of(schema: &ArrowSchema) -> PyResult<Layout> {
    if schema.format.is_null() {
        return Err(PyValueError::new_err("the Arrow schema has no format string"));
    }
    // SAFETY: a valid schema's format is a NUL-terminated string.
    let format = unsafe { CStr::from_ptr(schema.format) };
    Layout::from_format(format).ok_or_else(|| {
        PyTypeError::new_err(format!(
            "hash_array takes {ACCEPTED} arrays, got Arrow format '{}'",
            format.to_string_lossy()
        ))
    })
}

fn capsule_pointer<T>(capsule: &Bound<'_, PyAny>, name: &CStr) -> PyResult<*mut T> {
    if !capsule.is_instance_of::<PyCapsule>() {
        return Err(PyTypeError::new_err(format!(
            "expected a PyCapsule named '{}', got '{}'",
            name.to_string_lossy(),
            type_name(capsule)
        )));
    }
    // SAFETY: `capsule` is a live capsule; a wrong name returns NULL with an
    // exception set, which is fetched below.
    let pointer = unsafe { pyffi::PyCapsule_GetPointer(capsule.as_ptr(), name.as_ptr()) };
    if pointer.is_null() {
        let error = PyErr::fetch(capsule.py());
        return Err(PyValueError::new_err(format!(
            "expected a PyCapsule named '{}': {}",
            name.to_string_lossy(),
            error
        )));
    }
    Ok(pointer.cast::<T>())
}

fn stream_error(stream: &mut OwnedStream, status: i32) -> PyErr {
    let message = match stream.0.get_last_error {
        // SAFETY: the stream's own callback; its result is NULL or a
        // NUL-terminated string valid until the next call on the stream.
        Some(get_last_error) => unsafe {
            let text = get_last_error(&mut stream.0);
            (!text.is_null()).then(|| CStr::from_ptr(text).to_string_lossy().into_owned())
        },
        None => None,
    };
    PyValueError::new_err(format!(
        "the Arrow stream failed (errno {status}): {}",
        message.unwrap_or_else(|| "no message".to_owned())
    ))
}

/// The rows of one array, as slices of its buffers; plain shared slices, so
/// they can be read with the GIL released.
pub(crate) struct Rows<'a> {
    len: usize,
    /// The validity bitmap and the bit of row 0, when the array has nulls.
    validity: Option<(&'a [u8], usize)>,
    values: Values<'a>,
}

/// One array's value buffer and its offsets (`offsets[0]` need not be 0).
pub(crate) enum Offsets<'a> {
    I32 { offsets: &'a [i32], data: &'a [u8] },
    I64 { offsets: &'a [i64], data: &'a [u8] },
}

enum Values<'a> {
    Offsets32 { offsets: &'a [i32], data: &'a [u8] },
    Offsets64 { offsets: &'a [i64], data: &'a [u8] },
    Views { views: &'a [[u8; 16]], buffers: Vec<&'a [u8]> },
}

impl<'a> Rows<'a> {
    /// Reads the buffers of `array`. Everything the rows will index is
    /// checked here or in `row`; a malformed array is a ValueError.
    pub(crate) fn new(array: &'a OwnedArray, layout: Layout) -> PyResult<Rows<'a>> {
        let array = &array.0;
        let bad = |what: &str| PyValueError::new_err(format!("malformed Arrow array: {what}"));
        let len = usize::try_from(array.length).map_err(|_| bad("negative length"))?;
        let offset = usize::try_from(array.offset).map_err(|_| bad("negative offset"))?;
        let end = offset.checked_add(len).filter(|&end| end < isize::MAX as usize / 16).ok_or_else(|| bad("length"))?;
        let n_buffers = usize::try_from(array.n_buffers).map_err(|_| bad("negative buffer count"))?;
        let enough = match layout {
            Layout::Offsets32 | Layout::Offsets64 => n_buffers == 3,
            Layout::Views => n_buffers >= 3,
        };
        if !enough || array.buffers.is_null() {
            return Err(bad(&format!("{n_buffers} buffers")));
        }
        // SAFETY: a valid ArrowArray has `n_buffers` buffer pointers.
        let buffers = unsafe { core::slice::from_raw_parts(array.buffers, n_buffers) };
        if len == 0 {
            let values = Values::Offsets32 { offsets: &[0], data: &[] };
            return Ok(Rows { len, validity: None, values });
        }
        let validity = if buffers[0].is_null() || array.null_count == 0 {
            None
        } else {
            // SAFETY: a validity bitmap holds a bit for every row up to `end`.
            let bitmap = unsafe { core::slice::from_raw_parts(buffers[0].cast::<u8>(), end.div_ceil(8)) };
            Some((bitmap, offset))
        };
        let values = match layout {
            Layout::Offsets32 => {
                // SAFETY: the offsets buffer of a binary array holds
                // `offset + length + 1` int32 values.
                let offsets = unsafe { typed::<i32>(buffers[1], offset, len + 1) }.map_err(bad)?;
                // SAFETY: the data buffer holds the bytes the offsets index,
                // up to the last offset.
                let data = unsafe { data_buffer(buffers[2], offsets[len] as i64) }.map_err(bad)?;
                Values::Offsets32 { offsets, data }
            }
            Layout::Offsets64 => {
                // SAFETY: as above, int64 values.
                let offsets = unsafe { typed::<i64>(buffers[1], offset, len + 1) }.map_err(bad)?;
                // SAFETY: as above.
                let data = unsafe { data_buffer(buffers[2], offsets[len]) }.map_err(bad)?;
                Values::Offsets64 { offsets, data }
            }
            Layout::Views => {
                // SAFETY: the views buffer holds `offset + length` 16-byte views.
                let views = unsafe { typed::<[u8; 16]>(buffers[1], offset, len) }.map_err(bad)?;
                let variadic = n_buffers - 3;
                // SAFETY: the last buffer holds the int64 size of each
                // variadic data buffer.
                let sizes = unsafe { typed::<i64>(buffers[n_buffers - 1], 0, variadic) }.map_err(bad)?;
                let mut data = Vec::with_capacity(variadic);
                for (k, &size) in sizes.iter().enumerate() {
                    // SAFETY: data buffer k holds `sizes[k]` bytes.
                    data.push(unsafe { data_buffer(buffers[2 + k], size) }.map_err(bad)?);
                }
                Values::Views { views, buffers: data }
            }
        };
        Ok(Rows { len, validity, values })
    }

    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    #[inline]
    pub(crate) fn is_valid(&self, row: usize) -> bool {
        match self.validity {
            None => true,
            Some((bitmap, first)) => bitmap[(first + row) / 8] >> ((first + row) % 8) & 1 == 1,
        }
    }

    /// The value buffer and offsets of a binary or large binary array, as
    /// the library's batch takes them (`None` for views).
    pub(crate) fn offsets(&self) -> Option<Offsets<'a>> {
        match self.values {
            Values::Offsets32 { offsets, data } => Some(Offsets::I32 { offsets, data }),
            Values::Offsets64 { offsets, data } => Some(Offsets::I64 { offsets, data }),
            Values::Views { .. } => None,
        }
    }

    /// The bytes of `row`, or a message if its offsets or view point outside
    /// the buffers.
    #[inline]
    pub(crate) fn row(&self, row: usize) -> Result<&'a [u8], &'static str> {
        match &self.values {
            Values::Offsets32 { offsets, data } => {
                let (start, end) = (offsets[row], offsets[row + 1]);
                slice(data, i64::from(start), i64::from(end))
            }
            Values::Offsets64 { offsets, data } => slice(data, offsets[row], offsets[row + 1]),
            Values::Views { views, buffers } => {
                let view: &'a [u8; 16] = &views[row];
                let word = |at: usize| i32::from_ne_bytes([view[at], view[at + 1], view[at + 2], view[at + 3]]);
                let len = word(0);
                if (0..=12).contains(&len) {
                    return Ok(&view[4..4 + len as usize]);
                }
                let buffer = usize::try_from(word(8)).ok().and_then(|k| buffers.get(k)).ok_or("view buffer index")?;
                let start = i64::from(word(12));
                slice(buffer, start, start + i64::from(len))
            }
        }
    }
}

#[inline]
fn slice(data: &[u8], start: i64, end: i64) -> Result<&[u8], &'static str> {
    let (Ok(start), Ok(end)) = (usize::try_from(start), usize::try_from(end)) else {
        return Err("negative offset");
    };
    data.get(start..end).ok_or("offsets out of order or past the data")
}

/// `count` values of `T` from element `first` of a buffer.
///
/// # Safety
///
/// A non-NULL `buffer` must hold at least `first + count` values of `T`,
/// unchanged while the result lives.
unsafe fn typed<'a, T>(buffer: *const c_void, first: usize, count: usize) -> Result<&'a [T], &'static str> {
    if count == 0 {
        return Ok(&[]);
    }
    if buffer.is_null() {
        return Err("missing buffer");
    }
    if !(buffer as usize).is_multiple_of(core::mem::align_of::<T>()) {
        return Err("misaligned buffer");
    }
    // SAFETY: the caller's contract; alignment checked above.
    Ok(unsafe { core::slice::from_raw_parts(buffer.cast::<T>().add(first), count) })
}

/// A data buffer of `len` bytes.
///
/// # Safety
///
/// A non-NULL `buffer` must hold at least `len` bytes, unchanged while the
/// result lives.
unsafe fn data_buffer<'a>(buffer: *const c_void, len: i64) -> Result<&'a [u8], &'static str> {
    let len = usize::try_from(len).map_err(|_| "negative data length")?;
    // SAFETY: the caller's contract (alignment 1).
    unsafe { typed::<u8>(buffer, 0, len) }
}
