//! BLAKE3 subtrees: one message hashed in ranges (on many threads,
//! processes or machines) and merged into the one standard hash; see the
//! `chunkhash::blake3::subtree` docs for the tree rules and what misuse
//! breaks.

use crate::chunkhash_status::*;
use crate::{guard, object_ref, CStrArg, Input, OutParam, Output, Result};
use chunkhash::blake3::subtree::{self, Mode, Subtree, SubtreeError};
use core::ffi::c_char;

/// A subtree of a BLAKE3 message: the range `offset .. offset + len` of the
/// message and its chaining value `cv` (its non-root hash). Made by
/// `chunkhash_blake3_subtree_hash` or `chunkhash_blake3_subtree_merge`; a
/// plain value that may be copied, stored or sent to another process. The
/// merge functions check every subtree they are given: a span that no
/// subtree can have returns an error, never a wrong hash.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct chunkhash_blake3_subtree {
    /// The chaining value.
    pub cv: [u8; 32],
    /// The byte offset in the message where the subtree starts: a multiple
    /// of 1024 (the chunk length).
    pub offset: u64,
    /// The subtree's length in bytes, at least 1 and at most
    /// `chunkhash_blake3_subtree_max_len` of `offset`.
    pub len: u64,
}

/// The mode one message's subtrees and merges share (plain hash, keyed hash
/// or key derivation): made by `chunkhash_blake3_subtree_mode_new` (or
/// `_new_keyed`, `_new_derive_key`), released by
/// `chunkhash_blake3_subtree_mode_free`. Never changed after it is made, so
/// any number of threads may use one at the same time.
#[derive(Debug)]
pub struct chunkhash_blake3_subtree_mode {
    mode: Mode,
}

impl From<SubtreeError> for crate::chunkhash_status {
    fn from(error: SubtreeError) -> Self {
        match error {
            SubtreeError::UnalignedOffset { .. } => CHUNKHASH_UNALIGNED_OFFSET,
            SubtreeError::Empty { .. } => CHUNKHASH_EMPTY_SUBTREE,
            SubtreeError::TooLong { .. } => CHUNKHASH_SUBTREE_TOO_LONG,
            SubtreeError::NotSiblings { .. } => CHUNKHASH_NOT_SIBLINGS,
            SubtreeError::RootNotAtStart { .. } => CHUNKHASH_ROOT_NOT_AT_START,
            SubtreeError::NoChildren { .. } => CHUNKHASH_NO_CHILDREN,
            // The enum is non-exhaustive; a future error is still an error.
            _ => CHUNKHASH_PANIC,
        }
    }
}

/// Stores a new mode in `*mode`.
///
/// # Safety
///
/// `mode` must be NULL (an error) or writable.
unsafe fn new_mode(mode: *mut *mut chunkhash_blake3_subtree_mode, make: impl FnOnce() -> Result<Mode>) -> Result<()> {
    // SAFETY: the caller promised `mode` is writable.
    let out = unsafe { OutParam::new(mode) }?;
    let mode = make()?;
    out.set(crate::new_object(chunkhash_blake3_subtree_mode { mode }));
    Ok(())
}

/// Makes the subtree mode of the plain hash (`chunkhash_blake3_hash`) and
/// stores it in `*mode`. Release it with `chunkhash_blake3_subtree_mode_free`.
///
/// Returns `CHUNKHASH_NULL_POINTER`.
///
/// # Safety
///
/// `mode` must be writable.
#[no_mangle]
pub unsafe extern "C" fn chunkhash_blake3_subtree_mode_new(
    mode: *mut *mut chunkhash_blake3_subtree_mode,
) -> crate::chunkhash_status {
    // SAFETY: the caller promised `mode` is writable.
    guard(|| unsafe { new_mode(mode, || Ok(Mode::hash())) })
}

/// Makes the subtree mode of the keyed hash under a 32-byte key
/// (`chunkhash_blake3_keyed_hash`) and stores it in `*mode`.
///
/// Returns `CHUNKHASH_NULL_POINTER`, or `CHUNKHASH_INVALID_LENGTH` when
/// `key_len` is not `CHUNKHASH_BLAKE3_KEY_LEN`.
///
/// # Safety
///
/// `key` must be readable for `key_len` bytes and `mode` writable.
#[no_mangle]
pub unsafe extern "C" fn chunkhash_blake3_subtree_mode_new_keyed(
    key: *const u8,
    key_len: usize,
    mode: *mut *mut chunkhash_blake3_subtree_mode,
) -> crate::chunkhash_status {
    guard(|| {
        // SAFETY: the caller promised `key` is readable for `key_len` bytes.
        let key = unsafe { crate::blake3::key(key, key_len) }?;
        // SAFETY: the caller promised `mode` is writable.
        unsafe { new_mode(mode, || Ok(Mode::keyed(&key))) }
    })
}

/// Makes the subtree mode of key derivation under `context`
/// (`chunkhash_blake3_derive_key`; the message is the key material) and
/// stores it in `*mode`.
///
/// Returns `CHUNKHASH_NULL_POINTER` or `CHUNKHASH_INVALID_UTF8`.
///
/// # Safety
///
/// `context` must be a NUL-terminated string and `mode` writable.
#[no_mangle]
pub unsafe extern "C" fn chunkhash_blake3_subtree_mode_new_derive_key(
    context: *const c_char,
    mode: *mut *mut chunkhash_blake3_subtree_mode,
) -> crate::chunkhash_status {
    guard(|| {
        // SAFETY: the caller promised a NUL-terminated string.
        let context = unsafe { CStrArg::new(context) }?;
        // SAFETY: the caller promised `mode` is writable.
        unsafe { new_mode(mode, || Ok(Mode::derive_key(context.to_str()?))) }
    })
}

/// Releases a mode; NULL does nothing.
///
/// # Safety
///
/// `mode` must be NULL or come from a `chunkhash_blake3_subtree_mode_new`
/// function and not be freed already.
#[no_mangle]
pub unsafe extern "C" fn chunkhash_blake3_subtree_mode_free(mode: *mut chunkhash_blake3_subtree_mode) {
    // SAFETY: the caller promised `mode` came from `new_object` and is freed once.
    unsafe { crate::free_object(mode) }
}

/// Reads and checks a subtree argument.
///
/// # Safety
///
/// A non-NULL `subtree` must be readable for one `chunkhash_blake3_subtree`.
unsafe fn read_subtree(subtree: *const chunkhash_blake3_subtree) -> Result<Subtree> {
    if subtree.is_null() {
        return Err(CHUNKHASH_NULL_POINTER);
    }
    // SAFETY: not NULL, and the caller promised it is readable; unaligned, to
    // be lenient with packed C structs; a plain-data struct, any bytes valid.
    let value = unsafe { subtree.read_unaligned() };
    Ok(Subtree::from_parts(value.cv, value.offset, value.len)?)
}

fn to_c(subtree: &Subtree) -> chunkhash_blake3_subtree {
    chunkhash_blake3_subtree { cv: *subtree.chaining_value(), offset: subtree.offset(), len: subtree.len() }
}

/// Hashes `data`, the bytes at `offset` of a message, as one subtree, at
/// full speed, and stores it in `*out`.
///
/// Returns `CHUNKHASH_NULL_POINTER`, `CHUNKHASH_INVALID_LENGTH`,
/// `CHUNKHASH_UNALIGNED_OFFSET` (`offset` not a multiple of 1024),
/// `CHUNKHASH_EMPTY_SUBTREE` (`len` 0) or `CHUNKHASH_SUBTREE_TOO_LONG`
/// (`len` past `chunkhash_blake3_subtree_max_len` of `offset`).
///
/// # Safety
///
/// `mode` must come from a `chunkhash_blake3_subtree_mode_new` function and
/// not be freed; `data` must be readable for `len` bytes and `out` writable.
#[no_mangle]
pub unsafe extern "C" fn chunkhash_blake3_subtree_hash(
    mode: *const chunkhash_blake3_subtree_mode,
    data: *const u8,
    len: usize,
    offset: u64,
    out: *mut chunkhash_blake3_subtree,
) -> crate::chunkhash_status {
    guard(|| {
        // SAFETY: the caller promised a live mode.
        let mode = unsafe { object_ref(mode) }?;
        // SAFETY: the caller promised `data` is readable for `len` bytes.
        let data = unsafe { Input::new(data, len) }?;
        // SAFETY: the caller promised `out` is writable.
        let out = unsafe { OutParam::new(out) }?;
        out.set(to_c(&mode.mode.subtree(data.bytes(), offset)?));
        Ok(())
    })
}

/// Merges two sibling subtrees into their parent (not the root) and stores
/// it in `*out`, which may be `left` or `right`.
///
/// Returns `CHUNKHASH_NULL_POINTER`; for a subtree whose span no subtree
/// can have, the errors of `chunkhash_blake3_subtree_hash`;
/// `CHUNKHASH_NOT_SIBLINGS` when `right` does not start where `left` ends
/// or `left` is not `chunkhash_blake3_subtree_left_len` of their total; and
/// `CHUNKHASH_SUBTREE_TOO_LONG` when their parent would not fit its offset.
///
/// # Safety
///
/// `mode` must be a live mode; `left` and `right` readable, `out` writable.
#[no_mangle]
pub unsafe extern "C" fn chunkhash_blake3_subtree_merge(
    mode: *const chunkhash_blake3_subtree_mode,
    left: *const chunkhash_blake3_subtree,
    right: *const chunkhash_blake3_subtree,
    out: *mut chunkhash_blake3_subtree,
) -> crate::chunkhash_status {
    guard(|| {
        // SAFETY: the caller promised a live mode.
        let mode = unsafe { object_ref(mode) }?;
        // SAFETY: the caller promised `left` is readable.
        let left = unsafe { read_subtree(left) }?;
        // SAFETY: the caller promised `right` is readable.
        let right = unsafe { read_subtree(right) }?;
        // SAFETY: the caller promised `out` is writable; `left` and `right`
        // were copied, so it may be either of them.
        let out = unsafe { OutParam::new(out) }?;
        out.set(to_c(&mode.mode.merge(&left, &right)?));
        Ok(())
    })
}

/// Merges the two children of a message's root into its hash: `left` starts
/// at offset 0 and `right` ends the message (which is more than 1024 bytes
/// long: a shorter one has a single chunk and no subtrees, and is hashed
/// whole with `chunkhash_blake3_hash` and friends). Writes `out_len` bytes
/// of output from byte `position` of the output stream: position 0 and
/// `out_len` 32 give the hash, more is extended output.
///
/// Returns the errors of `chunkhash_blake3_subtree_merge`, and
/// `CHUNKHASH_ROOT_NOT_AT_START` when `left` does not start at offset 0.
///
/// # Safety
///
/// `mode` must be a live mode; `left` and `right` readable, `out` writable
/// for `out_len` bytes (NULL when `out_len` is 0 is fine).
#[no_mangle]
pub unsafe extern "C" fn chunkhash_blake3_subtree_merge_root(
    mode: *const chunkhash_blake3_subtree_mode,
    left: *const chunkhash_blake3_subtree,
    right: *const chunkhash_blake3_subtree,
    position: u64,
    out: *mut u8,
    out_len: usize,
) -> crate::chunkhash_status {
    guard(|| {
        // SAFETY: the caller promised a live mode.
        let mode = unsafe { object_ref(mode) }?;
        // SAFETY: the caller promised `left` is readable.
        let left = unsafe { read_subtree(left) }?;
        // SAFETY: the caller promised `right` is readable.
        let right = unsafe { read_subtree(right) }?;
        // SAFETY: the caller promised `out` is writable for `out_len` bytes.
        let mut out = unsafe { Output::new(out, out_len) }?;
        let mut reader = mode.mode.merge_root_xof(&left, &right)?;
        reader.set_position(position);
        reader.fill(out.slice(out_len));
        Ok(())
    })
}

/// Stores in `*out` how many bytes of a subtree (or message) of `len` bytes
/// belong to its left child: the largest power-of-two number of chunks
/// below `len`.
///
/// Returns `CHUNKHASH_NULL_POINTER`, or `CHUNKHASH_NO_CHILDREN` when `len`
/// is 1024 or less (a single chunk has no children).
///
/// # Safety
///
/// `out` must be writable.
#[no_mangle]
pub unsafe extern "C" fn chunkhash_blake3_subtree_left_len(len: u64, out: *mut u64) -> crate::chunkhash_status {
    guard(|| {
        // SAFETY: the caller promised `out` is writable.
        let out = unsafe { OutParam::new(out) }?;
        out.set(subtree::left_len(len)?);
        Ok(())
    })
}

/// Stores in `*out` the most bytes a subtree starting at byte `offset` may
/// hold: the largest power-of-two number of chunks dividing `offset / 1024`
/// (times 1024), and `UINT64_MAX` at offset 0, where a subtree may be the
/// whole message.
///
/// Returns `CHUNKHASH_NULL_POINTER` or `CHUNKHASH_UNALIGNED_OFFSET`.
///
/// # Safety
///
/// `out` must be writable.
#[no_mangle]
pub unsafe extern "C" fn chunkhash_blake3_subtree_max_len(offset: u64, out: *mut u64) -> crate::chunkhash_status {
    guard(|| {
        // SAFETY: the caller promised `out` is writable.
        let out = unsafe { OutParam::new(out) }?;
        out.set(subtree::max_subtree_len(offset)?.unwrap_or(u64::MAX));
        Ok(())
    })
}
