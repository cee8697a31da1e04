//! The Arrow C Data Interface and C Stream Interface structs, written from
//! the specification (<https://arrow.apache.org/docs/format/CDataInterface.html>,
//! `CStreamInterface.html`), and the PyCapsule names of the Arrow PyCapsule
//! Interface (`PyCapsuleInterface.html`).
//!
//! Eight plain `repr(C)` structs and two callbacks did not justify a crate:
//! `arrow-rs` (`arrow-array` + `arrow-data` + `arrow-schema`) adds tens of
//! seconds of clean build for the same definitions, and the small crates
//! that wrap them (`arrow-ffi`-style) are not widely used. Everything unsafe
//! about Arrow is in this file and `import.rs`/`export.rs` beside it.

use core::ffi::{c_char, c_int, c_void};

/// `ARROW_FLAG_NULLABLE`: the field may hold nulls.
pub(crate) const FLAG_NULLABLE: i64 = 2;

/// `struct ArrowSchema`.
#[repr(C)]
#[derive(Debug)]
pub(crate) struct ArrowSchema {
    pub(crate) format: *const c_char,
    pub(crate) name: *const c_char,
    pub(crate) metadata: *const c_char,
    pub(crate) flags: i64,
    pub(crate) n_children: i64,
    pub(crate) children: *mut *mut ArrowSchema,
    pub(crate) dictionary: *mut ArrowSchema,
    pub(crate) release: Option<unsafe extern "C" fn(*mut ArrowSchema)>,
    pub(crate) private_data: *mut c_void,
}

/// `struct ArrowArray`.
#[repr(C)]
#[derive(Debug)]
pub(crate) struct ArrowArray {
    pub(crate) length: i64,
    pub(crate) null_count: i64,
    pub(crate) offset: i64,
    pub(crate) n_buffers: i64,
    pub(crate) n_children: i64,
    pub(crate) buffers: *mut *const c_void,
    pub(crate) children: *mut *mut ArrowArray,
    pub(crate) dictionary: *mut ArrowArray,
    pub(crate) release: Option<unsafe extern "C" fn(*mut ArrowArray)>,
    pub(crate) private_data: *mut c_void,
}

/// `struct ArrowArrayStream`.
#[repr(C)]
#[derive(Debug)]
pub(crate) struct ArrowArrayStream {
    pub(crate) get_schema: Option<unsafe extern "C" fn(*mut ArrowArrayStream, *mut ArrowSchema) -> c_int>,
    pub(crate) get_next: Option<unsafe extern "C" fn(*mut ArrowArrayStream, *mut ArrowArray) -> c_int>,
    pub(crate) get_last_error: Option<unsafe extern "C" fn(*mut ArrowArrayStream) -> *const c_char>,
    pub(crate) release: Option<unsafe extern "C" fn(*mut ArrowArrayStream)>,
    pub(crate) private_data: *mut c_void,
}

impl ArrowSchema {
    /// A released (empty) schema, for a producer to fill in.
    pub(crate) const fn empty() -> ArrowSchema {
        ArrowSchema {
            format: core::ptr::null(),
            name: core::ptr::null(),
            metadata: core::ptr::null(),
            flags: 0,
            n_children: 0,
            children: core::ptr::null_mut(),
            dictionary: core::ptr::null_mut(),
            release: None,
            private_data: core::ptr::null_mut(),
        }
    }
}

impl ArrowArray {
    /// A released (empty) array, for a producer to fill in.
    pub(crate) const fn empty() -> ArrowArray {
        ArrowArray {
            length: 0,
            null_count: 0,
            offset: 0,
            n_buffers: 0,
            n_children: 0,
            buffers: core::ptr::null_mut(),
            children: core::ptr::null_mut(),
            dictionary: core::ptr::null_mut(),
            release: None,
            private_data: core::ptr::null_mut(),
        }
    }
}

/// Capsule names of the PyCapsule Interface.
pub(crate) const SCHEMA_CAPSULE: &core::ffi::CStr = c"arrow_schema";
pub(crate) const ARRAY_CAPSULE: &core::ffi::CStr = c"arrow_array";
pub(crate) const STREAM_CAPSULE: &core::ffi::CStr = c"arrow_array_stream";
