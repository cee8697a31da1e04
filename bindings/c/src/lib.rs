//! libchunkhash: the C API of chunkhash.
//!
//! This crate converts C arguments to Rust types and Rust errors to status
//! codes; it holds no hashing logic. The header `include/chunkhash.h` is
//! generated from these sources by cbindgen, with the algorithm id
//! constants written from the registry table (`header-gen/`, run by
//! `make -C bindings/c header`), and committed; `make test` regenerates it
//! and fails if it differs.
//!
//! Conventions (those of rustls-ffi), which every function here follows:
//!
//! - Symbols are `chunkhash_<type>_<verb>`; objects are opaque, made by
//!   `_new` and released by `_free` (`_free(NULL)` does nothing).
//! - Every fallible function returns a [`chunkhash_status`]: `CHUNKHASH_OK`
//!   (0) or a named negative code. Outputs come last, a buffer followed by
//!   its length; on failure nothing is written to any output.
//! - Every pointer is checked for NULL. A `(pointer, length)` pair with
//!   length 0 is an empty buffer whatever the pointer, NULL included.
//! - No panic crosses the boundary: each entry point runs under
//!   `catch_unwind` and a panic (a bug) becomes `CHUNKHASH_PANIC`.
//!
//! All `unsafe` of the binding is here, at the edge: turning C pointers into
//! Rust references after the checks above. Each block says why it is sound.

#![allow(non_camel_case_types)] // C names: chunkhash_status, chunkhash_blake3, ...

mod algorithm;
mod bao;
mod blake3;
#[cfg(test)]
mod c_test_vectors;
mod cdc;
mod crc;
mod s3;
mod subtree;
mod trailer;

use core::ffi::{c_char, CStr};
use core::marker::PhantomData;
use core::ptr::NonNull;
use std::panic::{catch_unwind, AssertUnwindSafe};

pub use algorithm::*;
pub use bao::*;
pub use blake3::*;
pub use cdc::*;
pub use crc::*;
pub use s3::*;
pub use subtree::*;
pub use trailer::*;

/// The result of every fallible call: `CHUNKHASH_OK` (0) on success, or a
/// negative code saying what was wrong. On failure nothing was written to
/// any output argument. When several things are wrong, the code names the
/// first found: pointers and lengths are checked first, argument by
/// argument from left to right; then the algorithm id, the UTF-8 of
/// strings, and last the size of the output buffer (trailer contents are
/// checked as `chunkhash_trailer_verify` says).
#[repr(i32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum chunkhash_status {
    /// Success.
    CHUNKHASH_OK = 0,
    /// A pointer argument was NULL where an object is required, or a buffer
    /// pointer was NULL with a non-zero length. (NULL with length 0 is an
    /// empty buffer, which is accepted.)
    CHUNKHASH_NULL_POINTER = -1,
    /// A length is out of range: larger than `PTRDIFF_MAX` (no C object is
    /// that large: often a negative number converted to `size_t`), or a
    /// key length other than `CHUNKHASH_BLAKE3_KEY_LEN`.
    CHUNKHASH_INVALID_LENGTH = -2,
    /// An algorithm id (or name) that names no algorithm: 0 (reserved), an
    /// id not assigned yet, or a trailer whose byte 0 is such an id.
    CHUNKHASH_UNKNOWN_ALGORITHM = -3,
    /// A known algorithm that this build of the library does not include
    /// (its cargo feature was off). Never returned by the default build.
    CHUNKHASH_UNAVAILABLE_ALGORITHM = -4,
    /// A string argument (an algorithm name, a key-derivation context) is
    /// not valid UTF-8.
    CHUNKHASH_INVALID_UTF8 = -5,
    /// The output buffer is shorter than the output; nothing was written.
    CHUNKHASH_BUFFER_TOO_SMALL = -6,
    /// A trailer is shorter than its algorithm's layout (or empty).
    CHUNKHASH_TRAILER_TRUNCATED = -7,
    /// A trailer is longer than its algorithm's layout.
    CHUNKHASH_TRAILER_TOO_LONG = -8,
    /// A trailer does not match its block and context: the block, the
    /// trailer or the context differs from what was sealed.
    CHUNKHASH_CHECKSUM_MISMATCH = -9,
    /// A bug in chunkhash: a Rust panic was caught at the boundary. Please
    /// report it. The process is in a sound state; the objects passed to the
    /// call should be freed, not used again.
    CHUNKHASH_PANIC = -10,
    /// `chunkhash_crc_combine` was given an algorithm that is not a CRC.
    CHUNKHASH_NOT_A_CRC = -11,
    /// `chunkhash_crc_combine` was given a CRC value with more bits than the
    /// algorithm's (above `UINT32_MAX` for a 32-bit CRC).
    CHUNKHASH_INVALID_CRC = -12,
    /// A BLAKE3 subtree offset that is not a multiple of the chunk length
    /// (1024): subtrees start at chunk boundaries.
    CHUNKHASH_UNALIGNED_OFFSET = -13,
    /// A BLAKE3 subtree of no bytes.
    CHUNKHASH_EMPTY_SUBTREE = -14,
    /// A BLAKE3 subtree longer than its offset allows
    /// (`chunkhash_blake3_subtree_max_len`), or past 2^64 bytes.
    CHUNKHASH_SUBTREE_TOO_LONG = -15,
    /// Two BLAKE3 subtrees merged that are not the two children of one
    /// node of the tree.
    CHUNKHASH_NOT_SIBLINGS = -16,
    /// A BLAKE3 root merge whose left subtree does not start at offset 0.
    CHUNKHASH_ROOT_NOT_AT_START = -17,
    /// `chunkhash_blake3_subtree_left_len` of 1024 bytes or less: a single
    /// chunk has no children.
    CHUNKHASH_NO_CHILDREN = -18,
    /// `chunkhash_cdc_new_fastcdc` was given chunk sizes FastCDC does not
    /// take (out of range, odd, or the minimum or average above the maximum).
    CHUNKHASH_INVALID_CHUNK_SIZES = -19,
    /// A chunk address kind that is no `CHUNKHASH_CDC_ADDRESS_*` constant.
    CHUNKHASH_UNKNOWN_ADDRESS = -20,
    /// A Bao chunk group log above `CHUNKHASH_BAO_MAX_GROUP_LOG` (16).
    CHUNKHASH_BAO_INVALID_GROUP_LOG = -21,
    /// A Bao node order that is no `CHUNKHASH_BAO_ORDER_*` constant.
    CHUNKHASH_BAO_UNKNOWN_ORDER = -22,
    /// A Bao outboard that does not fit its message: shorter than its
    /// header, a header other than the message's length, or not
    /// `chunkhash_bao_outboard_size` bytes.
    CHUNKHASH_BAO_OUTBOARD_LENGTH = -23,
    /// A Bao combined encoding whose size does not fit its header.
    CHUNKHASH_BAO_ENCODING_LENGTH = -24,
    /// A Bao slice or encoding that does not verify: a parent node or chunk
    /// group does not hash to what the root hash proves (damage, or another
    /// root, range, message, mode or group size).
    CHUNKHASH_BAO_MISMATCH = -25,
    /// A Bao slice or encoding that ends before its last verified byte.
    CHUNKHASH_BAO_TRUNCATED = -26,
    /// A Bao slice or encoding followed by more bytes than its slice has.
    CHUNKHASH_BAO_TRAILING_BYTES = -27,
}

use chunkhash_status::*;

/// Every status, for the message table and the tests.
const STATUSES: [chunkhash_status; 28] = [
    CHUNKHASH_OK,
    CHUNKHASH_NULL_POINTER,
    CHUNKHASH_INVALID_LENGTH,
    CHUNKHASH_UNKNOWN_ALGORITHM,
    CHUNKHASH_UNAVAILABLE_ALGORITHM,
    CHUNKHASH_INVALID_UTF8,
    CHUNKHASH_BUFFER_TOO_SMALL,
    CHUNKHASH_TRAILER_TRUNCATED,
    CHUNKHASH_TRAILER_TOO_LONG,
    CHUNKHASH_CHECKSUM_MISMATCH,
    CHUNKHASH_PANIC,
    CHUNKHASH_NOT_A_CRC,
    CHUNKHASH_INVALID_CRC,
    CHUNKHASH_UNALIGNED_OFFSET,
    CHUNKHASH_EMPTY_SUBTREE,
    CHUNKHASH_SUBTREE_TOO_LONG,
    CHUNKHASH_NOT_SIBLINGS,
    CHUNKHASH_ROOT_NOT_AT_START,
    CHUNKHASH_NO_CHILDREN,
    CHUNKHASH_INVALID_CHUNK_SIZES,
    CHUNKHASH_UNKNOWN_ADDRESS,
    CHUNKHASH_BAO_INVALID_GROUP_LOG,
    CHUNKHASH_BAO_UNKNOWN_ORDER,
    CHUNKHASH_BAO_OUTBOARD_LENGTH,
    CHUNKHASH_BAO_ENCODING_LENGTH,
    CHUNKHASH_BAO_MISMATCH,
    CHUNKHASH_BAO_TRUNCATED,
    CHUNKHASH_BAO_TRAILING_BYTES,
];

impl chunkhash_status {
    fn message(self) -> &'static CStr {
        match self {
            CHUNKHASH_OK => c"success",
            CHUNKHASH_NULL_POINTER => c"null pointer",
            CHUNKHASH_INVALID_LENGTH => c"invalid length",
            CHUNKHASH_UNKNOWN_ALGORITHM => c"unknown algorithm",
            CHUNKHASH_UNAVAILABLE_ALGORITHM => c"algorithm not included in this build",
            CHUNKHASH_INVALID_UTF8 => c"invalid UTF-8",
            CHUNKHASH_BUFFER_TOO_SMALL => c"output buffer too small",
            CHUNKHASH_TRAILER_TRUNCATED => c"trailer truncated",
            CHUNKHASH_TRAILER_TOO_LONG => c"trailer too long",
            CHUNKHASH_CHECKSUM_MISMATCH => c"checksum mismatch",
            CHUNKHASH_PANIC => c"internal error (a bug in chunkhash)",
            CHUNKHASH_NOT_A_CRC => c"algorithm is not a CRC",
            CHUNKHASH_INVALID_CRC => c"CRC value wider than the algorithm",
            CHUNKHASH_UNALIGNED_OFFSET => c"subtree offset not a multiple of 1024",
            CHUNKHASH_EMPTY_SUBTREE => c"empty subtree",
            CHUNKHASH_SUBTREE_TOO_LONG => c"subtree too long for its offset",
            CHUNKHASH_NOT_SIBLINGS => c"subtrees are not siblings",
            CHUNKHASH_ROOT_NOT_AT_START => c"root merge not at offset 0",
            CHUNKHASH_NO_CHILDREN => c"a single chunk has no children",
            CHUNKHASH_INVALID_CHUNK_SIZES => c"invalid chunk sizes",
            CHUNKHASH_UNKNOWN_ADDRESS => c"unknown chunk address kind",
            CHUNKHASH_BAO_INVALID_GROUP_LOG => c"bao chunk group log above 16",
            CHUNKHASH_BAO_UNKNOWN_ORDER => c"unknown bao node order",
            CHUNKHASH_BAO_OUTBOARD_LENGTH => c"bao outboard does not fit the message",
            CHUNKHASH_BAO_ENCODING_LENGTH => c"bao encoding does not fit its header",
            CHUNKHASH_BAO_MISMATCH => c"bao slice does not verify",
            CHUNKHASH_BAO_TRUNCATED => c"bao slice truncated",
            CHUNKHASH_BAO_TRAILING_BYTES => c"bao slice followed by trailing bytes",
        }
    }
}

/// A short, lowercase, static description of a status code, for logs; for
/// a value that is not a status, `"unknown status"`. Never NULL; the string
/// lives as long as the program.
#[no_mangle]
pub extern "C" fn chunkhash_status_message(status: i32) -> *const c_char {
    // A plain int, not the enum: an out-of-range enum value is undefined
    // behaviour in Rust, and C may pass any int.
    STATUSES.iter().find(|s| **s as i32 == status).map_or(c"unknown status", |s| s.message()).as_ptr()
}

/// The library version, `MAJOR.MINOR.PATCH` (the version of the chunkhash
/// crates it was built from). Never NULL; the string lives as long as the
/// program.
#[no_mangle]
pub extern "C" fn chunkhash_version() -> *const c_char {
    const VERSION: &CStr = match CStr::from_bytes_with_nul(concat!(env!("CARGO_PKG_VERSION"), "\0").as_bytes()) {
        Ok(version) => version,
        Err(_) => panic!("the package version has no NUL byte"),
    };
    VERSION.as_ptr()
}

/// The name of the BLAKE3 backend this process uses: `"avx512asm"`,
/// `"avx512"`, `"avx2asm"`, `"avx2"`, `"sse41"`, `"neon"`, `"wasm32simd"` or
/// `"portable"`. Chosen once per
/// process, from the CPU, or from the `CHUNKHASH_BACKEND` environment
/// variable when it names a supported backend. Never NULL; the string lives
/// as long as the program.
#[no_mangle]
pub extern "C" fn chunkhash_backend_name() -> *const c_char {
    static NAME: std::sync::OnceLock<std::ffi::CString> = std::sync::OnceLock::new();
    let name = catch_unwind(|| {
        NAME.get_or_init(|| {
            std::ffi::CString::new(chunkhash::blake3::Backend::detect().name()).expect("backend names have no NUL")
        })
        .as_c_str()
    });
    name.unwrap_or(c"unknown").as_ptr()
}

/// What an entry point returns inside [`guard`].
pub(crate) type Result<T> = core::result::Result<T, chunkhash_status>;

/// Runs the body of an entry point: its error or `CHUNKHASH_OK`, and
/// `CHUNKHASH_PANIC` if it panicked (a panic must not unwind into C).
pub(crate) fn guard(body: impl FnOnce() -> Result<()>) -> chunkhash_status {
    // AssertUnwindSafe: after a panic the call returns CHUNKHASH_PANIC and
    // its objects are documented as not to be used again, so no broken
    // invariant is observed.
    match catch_unwind(AssertUnwindSafe(body)) {
        Ok(Ok(())) => CHUNKHASH_OK,
        Ok(Err(status)) => status,
        Err(_) => CHUNKHASH_PANIC,
    }
}

/// A checked input buffer: a C `(pointer, length)` pair, readable for the
/// lifetime `'a` (the call).
#[derive(Clone, Copy)]
pub(crate) struct Input<'a> {
    ptr: *const u8,
    len: usize,
    call: PhantomData<&'a [u8]>,
}

impl<'a> Input<'a> {
    /// Checks a `(pointer, length)` pair: length 0 is empty whatever the
    /// pointer; otherwise the pointer must be non-NULL and the length at
    /// most `isize::MAX` (what `slice::from_raw_parts` requires).
    ///
    /// # Safety
    ///
    /// If `len > 0` and `ptr` is not NULL, `ptr` must be valid for reads of
    /// `len` bytes, not written to, for the lifetime `'a`.
    pub(crate) unsafe fn new(ptr: *const u8, len: usize) -> Result<Input<'a>> {
        if len == 0 {
            return Ok(Input { ptr: NonNull::dangling().as_ptr(), len: 0, call: PhantomData });
        }
        if ptr.is_null() {
            return Err(CHUNKHASH_NULL_POINTER);
        }
        if len > isize::MAX as usize {
            return Err(CHUNKHASH_INVALID_LENGTH);
        }
        Ok(Input { ptr, len, call: PhantomData })
    }

    /// The bytes. One-shot calls use them in one expression and let the
    /// slice go before they write their output, which may be the same
    /// memory.
    pub(crate) fn bytes(self) -> &'a [u8] {
        // SAFETY: `new` checked the pointer (dangling and aligned for an
        // empty slice) and the length, and its caller promised the memory
        // is readable and unchanged for `'a`.
        unsafe { core::slice::from_raw_parts(self.ptr, self.len) }
    }
}

/// A checked output buffer: a C `(pointer, capacity)` pair.
pub(crate) struct Output {
    ptr: *mut u8,
    len: usize,
}

impl Output {
    /// Checks a `(pointer, capacity)` pair, as [`Input::new`].
    ///
    /// # Safety
    ///
    /// If `len > 0` and `ptr` is not NULL, `ptr` must be valid for writes
    /// of `len` bytes, and no other reference to that memory may be used
    /// while a slice from [`Output::slice`] is alive.
    pub(crate) unsafe fn new(ptr: *mut u8, len: usize) -> Result<Output> {
        if len == 0 {
            return Ok(Output { ptr: NonNull::dangling().as_ptr(), len: 0 });
        }
        if ptr.is_null() {
            return Err(CHUNKHASH_NULL_POINTER);
        }
        if len > isize::MAX as usize {
            return Err(CHUNKHASH_INVALID_LENGTH);
        }
        Ok(Output { ptr, len })
    }

    /// `CHUNKHASH_BUFFER_TOO_SMALL` unless `needed` bytes fit.
    pub(crate) fn require(&self, needed: usize) -> Result<()> {
        if self.len < needed {
            Err(CHUNKHASH_BUFFER_TOO_SMALL)
        } else {
            Ok(())
        }
    }

    /// The first `len` bytes of the buffer, for writing. Panics if they do
    /// not fit (callers check with [`Output::require`] first).
    pub(crate) fn slice(&mut self, len: usize) -> &mut [u8] {
        assert!(len <= self.len, "output of {len} bytes in a buffer of {}", self.len);
        // SAFETY: `new` checked the pointer and capacity, and its caller
        // promised `len <= capacity` bytes are writable; `&mut self` makes
        // this the only slice of the buffer.
        unsafe { core::slice::from_raw_parts_mut(self.ptr, len) }
    }

    /// Copies `bytes` to the front of the buffer.
    pub(crate) fn write(mut self, bytes: &[u8]) {
        self.slice(bytes.len()).copy_from_slice(bytes);
    }
}

/// A checked pointer to one value the caller receives (an id, a length, a
/// new object).
pub(crate) struct OutParam<T>(NonNull<T>);

impl<T> OutParam<T> {
    /// `CHUNKHASH_NULL_POINTER` for NULL.
    ///
    /// # Safety
    ///
    /// A non-NULL `ptr` must be valid for a write of a `T`.
    pub(crate) unsafe fn new(ptr: *mut T) -> Result<OutParam<T>> {
        NonNull::new(ptr).map(OutParam).ok_or(CHUNKHASH_NULL_POINTER)
    }

    /// Stores the value (without reading or dropping what was there).
    pub(crate) fn set(self, value: T) {
        // SAFETY: `new` checked for NULL and its caller promised the pointer
        // is writable. Unaligned, to be lenient with packed C structs.
        unsafe { self.0.as_ptr().write_unaligned(value) }
    }
}

/// A NUL-terminated string argument, checked for NULL; [`CStrArg::to_str`]
/// checks its UTF-8 (later, so that pointer errors come first).
pub(crate) struct CStrArg<'a>(&'a CStr);

impl<'a> CStrArg<'a> {
    /// `CHUNKHASH_NULL_POINTER` for NULL.
    ///
    /// # Safety
    ///
    /// A non-NULL `ptr` must point to a NUL-terminated string that stays
    /// unchanged while the `CStrArg` is used.
    pub(crate) unsafe fn new(ptr: *const c_char) -> Result<CStrArg<'a>> {
        if ptr.is_null() {
            return Err(CHUNKHASH_NULL_POINTER);
        }
        // SAFETY: not NULL, and the caller promised a NUL-terminated string.
        Ok(CStrArg(unsafe { CStr::from_ptr(ptr) }))
    }

    /// The string, or `CHUNKHASH_INVALID_UTF8`.
    pub(crate) fn to_str(&self) -> Result<&'a str> {
        self.0.to_str().map_err(|_| CHUNKHASH_INVALID_UTF8)
    }
}

/// A reference to an object made by a `_new` function.
///
/// # Safety
///
/// A non-NULL `ptr` must come from the matching `_new` function, not be
/// freed yet, and not be used by another thread during the call.
pub(crate) unsafe fn object<'a, T>(ptr: *mut T) -> Result<&'a mut T> {
    // SAFETY: the caller promised a live object that nothing else uses now.
    unsafe { ptr.as_mut() }.ok_or(CHUNKHASH_NULL_POINTER)
}

/// A shared reference to an object made by a `_new` function.
///
/// # Safety
///
/// As [`object`], except that other threads may read it at the same time.
pub(crate) unsafe fn object_ref<'a, T>(ptr: *const T) -> Result<&'a T> {
    // SAFETY: the caller promised a live object that nothing changes now.
    unsafe { ptr.as_ref() }.ok_or(CHUNKHASH_NULL_POINTER)
}

/// A new object for C, released with [`free_object`].
pub(crate) fn new_object<T>(value: T) -> *mut T {
    Box::into_raw(Box::new(value))
}

/// Releases an object made by [`new_object`]; NULL does nothing.
///
/// # Safety
///
/// A non-NULL `ptr` must come from [`new_object`] with the same `T` and not
/// be freed already.
pub(crate) unsafe fn free_object<T>(ptr: *mut T) {
    if !ptr.is_null() {
        // SAFETY: the caller promised `ptr` came from `Box::into_raw` in
        // `new_object` and is freed only once.
        drop(unsafe { Box::from_raw(ptr) });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The pointer helpers and the calls built on them, with small inputs
    /// (sized for Miri, which runs this): NULL with and without a length,
    /// outputs shorter and longer than the hash, a hasher's life from new to free, unaligned out
    /// parameters, batches with NULL empty inputs, a trailer sealed into an
    /// unaligned buffer and verified. Every pointer points into a local.
    #[test]
    fn pointer_paths_with_small_inputs() {
        let data = *b"chunkhash pointer paths: a short input, 43 b";
        let mut out = [0u8; 33];
        let expected = *chunkhash::blake3::hash(&data).as_bytes();
        // SAFETY: every pointer below points into a local of at least the
        // length passed with it, or is NULL; hashers are freed once.
        unsafe {
            assert_eq!(chunkhash_blake3_hash(data.as_ptr(), data.len(), out.as_mut_ptr(), 32), CHUNKHASH_OK);
            assert_eq!(out[..32], expected);
            // Unaligned output, NULL input of length 0, NULL input with a length.
            assert_eq!(chunkhash_blake3_hash(core::ptr::null(), 0, out[1..].as_mut_ptr(), 32), CHUNKHASH_OK);
            assert_eq!(out[1..], *chunkhash::blake3::hash(b"").as_bytes());
            assert_eq!(chunkhash_blake3_hash(core::ptr::null(), 1, out.as_mut_ptr(), 32), CHUNKHASH_NULL_POINTER);
            assert_eq!(chunkhash_blake3_hash(data.as_ptr(), 1, core::ptr::null_mut(), 32), CHUNKHASH_NULL_POINTER);
            // Shorter and longer outputs are a prefix of the hash and extended output.
            assert_eq!(chunkhash_blake3_hash(data.as_ptr(), data.len(), out.as_mut_ptr(), 20), CHUNKHASH_OK);
            assert_eq!(out[..20], expected[..20]);
            assert_eq!(chunkhash_blake3_hash(data.as_ptr(), data.len(), out.as_mut_ptr(), 33), CHUNKHASH_OK);
            assert_eq!(out[..32], expected);
            assert_eq!(
                chunkhash_blake3_hash(data.as_ptr(), usize::MAX, out.as_mut_ptr(), 32),
                CHUNKHASH_INVALID_LENGTH
            );

            let mut hasher: *mut chunkhash_blake3 = core::ptr::null_mut();
            assert_eq!(chunkhash_blake3_new(&mut hasher), CHUNKHASH_OK);
            assert_eq!(chunkhash_blake3_update(hasher, data.as_ptr(), 10), CHUNKHASH_OK);
            assert_eq!(chunkhash_blake3_update(hasher, core::ptr::null(), 0), CHUNKHASH_OK);
            assert_eq!(chunkhash_blake3_update(hasher, data[10..].as_ptr(), data.len() - 10), CHUNKHASH_OK);
            assert_eq!(chunkhash_blake3_finalize(hasher, out.as_mut_ptr(), 32), CHUNKHASH_OK);
            assert_eq!(out[..32], expected);
            let mut xof = [0u8; 70];
            assert_eq!(chunkhash_blake3_finalize_xof(hasher, 0, xof[1..].as_mut_ptr(), 69), CHUNKHASH_OK);
            assert_eq!(xof[1..33], expected);
            assert_eq!(chunkhash_blake3_reset(hasher), CHUNKHASH_OK);
            assert_eq!(chunkhash_blake3_update(core::ptr::null_mut(), data.as_ptr(), 1), CHUNKHASH_NULL_POINTER);
            chunkhash_blake3_free(hasher);
            chunkhash_blake3_free(core::ptr::null_mut());
            assert_eq!(chunkhash_blake3_new(core::ptr::null_mut()), CHUNKHASH_NULL_POINTER);

            // Out parameters at odd addresses.
            let mut id_bytes = [0u8; 5];
            let id = id_bytes[1..].as_mut_ptr().cast::<u32>();
            assert_eq!(chunkhash_algorithm_from_name(c"xxh3".as_ptr(), id), CHUNKHASH_OK);
            assert_eq!(id.read_unaligned(), chunkhash::Algorithm::Xxh3_64.id() as u32);
            let not_utf8 = [0xffu8, 0];
            assert_eq!(chunkhash_algorithm_from_name(not_utf8.as_ptr().cast(), id), CHUNKHASH_INVALID_UTF8);
            assert_eq!(chunkhash_algorithm_from_name(core::ptr::null(), id), CHUNKHASH_NULL_POINTER);
            let mut name: *const c_char = core::ptr::null();
            assert_eq!(chunkhash_algorithm_name(id.read_unaligned(), &mut name), CHUNKHASH_OK);
            assert_eq!(CStr::from_ptr(name).to_str(), Ok("XXH3-64"));

            // BLAKE3-160: in every build (the C tests also run without the
            // registry's optional families).
            let blake3_160 = chunkhash::Algorithm::Blake3_160.id() as u32;
            let mut registry: *mut chunkhash_hasher = core::ptr::null_mut();
            assert_eq!(chunkhash_hasher_new(blake3_160, &mut registry), CHUNKHASH_OK);
            assert_eq!(chunkhash_hasher_update(registry, data.as_ptr(), data.len()), CHUNKHASH_OK);
            assert_eq!(chunkhash_hasher_finalize(registry, out[3..].as_mut_ptr(), 20), CHUNKHASH_OK);
            let mut one_shot = [0u8; 20];
            assert_eq!(
                chunkhash_digest(blake3_160, data.as_ptr(), data.len(), one_shot.as_mut_ptr(), 20),
                CHUNKHASH_OK
            );
            assert_eq!(out[3..23], one_shot);
            assert_eq!(one_shot, expected[..20]);
            assert_eq!(chunkhash_hasher_reset(registry), CHUNKHASH_OK);
            chunkhash_hasher_free(registry);

            // A batch of three, the middle one empty and NULL.
            let ptrs = [data.as_ptr(), core::ptr::null(), data[5..].as_ptr()];
            let lens = [data.len(), 0, 7];
            let mut hashes = [0u8; 3 * 32 + 1];
            let status = chunkhash_blake3_hash_many(ptrs.as_ptr(), lens.as_ptr(), 3, hashes[1..].as_mut_ptr(), 96);
            assert_eq!(status, CHUNKHASH_OK);
            assert_eq!(hashes[1..33], expected);
            assert_eq!(hashes[33..65], *chunkhash::blake3::hash(b"").as_bytes());
            assert_eq!(hashes[65..], *chunkhash::blake3::hash(&data[5..12]).as_bytes());
            let mut short = [0u8; 95];
            let status = chunkhash_blake3_hash_many(ptrs.as_ptr(), lens.as_ptr(), 3, short.as_mut_ptr(), 95);
            assert_eq!(status, CHUNKHASH_BUFFER_TOO_SMALL);
            let bad_lens = [data.len(), 1, 7];
            let status = chunkhash_blake3_hash_many(ptrs.as_ptr(), bad_lens.as_ptr(), 3, hashes.as_mut_ptr(), 96);
            assert_eq!(status, CHUNKHASH_NULL_POINTER);
            let mut addresses = [0u8; 60];
            let status = chunkhash_blake3_address_many(ptrs.as_ptr(), lens.as_ptr(), 3, addresses.as_mut_ptr(), 60);
            assert_eq!(status, CHUNKHASH_OK);
            assert_eq!(addresses[..20], expected[..20]);

            let mut trailer = [0u8; 22];
            let status =
                chunkhash_trailer_seal(data.as_ptr(), data.len(), blake3_160, 7, trailer[1..].as_mut_ptr(), 21);
            assert_eq!(status, CHUNKHASH_OK);
            let mut verified = [0u8; 5];
            let verified_id = verified[1..].as_mut_ptr().cast::<u32>();
            let status = chunkhash_trailer_verify(data.as_ptr(), data.len(), trailer[1..].as_ptr(), 21, 7, verified_id);
            assert_eq!(status, CHUNKHASH_OK);
            assert_eq!(verified_id.read_unaligned(), blake3_160);
            let status = chunkhash_trailer_verify(data.as_ptr(), data.len(), trailer[1..].as_ptr(), 20, 7, verified_id);
            assert_eq!(status, CHUNKHASH_TRAILER_TRUNCATED);
            let status = chunkhash_trailer_verify(data.as_ptr(), 1, trailer[1..].as_ptr(), 21, 7, verified_id);
            assert_eq!(status, CHUNKHASH_CHECKSUM_MISMATCH);
        }
        // CRC combine into an unaligned out parameter: CRC-32C of the input
        // from its two halves.
        #[cfg(feature = "crc")]
        // SAFETY: the out parameter points into a local of 8 bytes.
        unsafe {
            let crc32c = chunkhash::Algorithm::Crc32c.id() as u32;
            let (a, b) = data.split_at(20);
            let crc = |part: &[u8]| {
                u64::from(u32::from_be_bytes(
                    *chunkhash::digest(chunkhash::Algorithm::Crc32c, part).as_bytes().first_chunk().unwrap(),
                ))
            };
            let mut combined_bytes = [0u8; 9];
            let combined = combined_bytes[1..].as_mut_ptr().cast::<u64>();
            let status = crc::chunkhash_crc_combine(crc32c, crc(a), crc(b), b.len() as u64, combined);
            assert_eq!(status, CHUNKHASH_OK);
            assert_eq!(combined.read_unaligned(), crc(&data));
        }
    }

    #[test]
    fn a_panic_becomes_chunkhash_panic() {
        assert_eq!(guard(|| panic!("test panic, expected")), CHUNKHASH_PANIC);
        assert_eq!(guard(|| Ok(())), CHUNKHASH_OK);
        assert_eq!(guard(|| Err(CHUNKHASH_CHECKSUM_MISMATCH)), CHUNKHASH_CHECKSUM_MISMATCH);
    }

    #[test]
    fn every_status_has_a_distinct_message() {
        let mut messages: Vec<&CStr> = STATUSES.iter().map(|s| s.message()).collect();
        assert_eq!(STATUSES[0] as i32, 0);
        for (i, status) in STATUSES.iter().enumerate().skip(1) {
            assert_eq!(*status as i32, -(i as i32), "codes are 0, -1, -2, ... in order");
        }
        messages.sort();
        messages.dedup();
        assert_eq!(messages.len(), STATUSES.len());
        // SAFETY: chunkhash_status_message returns a static NUL-terminated string.
        let unknown = unsafe { CStr::from_ptr(chunkhash_status_message(1)) };
        assert_eq!(unknown, c"unknown status");
    }

    #[test]
    fn version_is_the_package_version() {
        // SAFETY: a static NUL-terminated string.
        let version = unsafe { CStr::from_ptr(chunkhash_version()) };
        assert_eq!(version.to_str(), Ok(env!("CARGO_PKG_VERSION")));
    }
}
