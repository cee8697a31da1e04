//! The Arrow C Data Interface and C Stream Interface structs, written from
//! the specification (<https://arrow.apache.org/docs/format/CDataInterface.html>,
//! `CStreamInterface.html`), and the PyCapsule names of the Arrow PyCapsule
//! Interface (`PyCapsuleInterface.html`).
//!
//! Three `repr(C)` structs did not justify a dependency: arrow-rs's FFI
//! (`arrow-array`, `arrow-data`, `arrow-schema` 60.1 with `ffi`) pulls in 38
//! crates, 55 s of CPU for a clean release build on the project machine,
//! to define the same structs and copy nothing more than this binding does.
//! The unsafe code that reads and writes them is in `import.rs` and
//! `export.rs` beside this file.

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
