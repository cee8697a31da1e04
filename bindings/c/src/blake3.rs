//! BLAKE3: one-shot (plain, keyed, key derivation, any output length), the
//! streaming hasher, and the batch calls.

use crate::chunkhash_status::*;
use crate::{guard, object, object_ref, CStrArg, Input, OutParam, Output, Result};
use chunkhash::blake3::{self, Batch, Hasher};
use core::ffi::c_char;

/// Bytes in a BLAKE3 hash (the default output length).
pub const CHUNKHASH_BLAKE3_OUT_LEN: usize = 32;
/// Bytes in a BLAKE3 key (keyed mode).
pub const CHUNKHASH_BLAKE3_KEY_LEN: usize = 32;
/// Bytes in a chunk address: the first 20 bytes of the BLAKE3 hash.
pub const CHUNKHASH_ADDRESS_LEN: usize = 20;

/// Checks a key argument: a pointer and `key_len`, which must be
/// `CHUNKHASH_BLAKE3_KEY_LEN`.
///
/// # Safety
///
/// A non-NULL `key` must be readable for `key_len` bytes.
pub(crate) unsafe fn key(key: *const u8, key_len: usize) -> Result<[u8; CHUNKHASH_BLAKE3_KEY_LEN]> {
    if key.is_null() {
        return Err(CHUNKHASH_NULL_POINTER);
    }
    // SAFETY: the caller promised `key` is readable for `key_len` bytes.
    let key = unsafe { Input::new(key, key_len) }?;
    key.bytes().try_into().map_err(|_| CHUNKHASH_INVALID_LENGTH)
}

/// Writes `out.len` bytes of the extended output of `hasher`, from byte
/// `position` on.
fn fill_xof(hasher: &Hasher, position: u64, mut out: Output) {
    let mut reader = hasher.finalize_xof();
    reader.set_position(position);
    let len = out.len;
    reader.fill(out.slice(len));
}

/// The one-shot calls: the hash in one call when the default length or less
/// is asked for, else a hasher and its extended output.
fn one_shot(data: Input<'_>, out: Output, hash: impl FnOnce(&[u8]) -> [u8; 32], hasher: impl FnOnce() -> Hasher) {
    if out.len <= CHUNKHASH_BLAKE3_OUT_LEN {
        // Extended output is a stream whose first 32 bytes are the hash, so
        // a shorter output is a prefix of the hash.
        let hash = hash(data.bytes());
        let len = out.len;
        out.write(&hash[..len]);
    } else {
        let mut hasher = hasher();
        hasher.update(data.bytes());
        fill_xof(&hasher, 0, out);
    }
}

/// Writes the BLAKE3 hash of `data` to `out`, `out_len` bytes of output:
/// `CHUNKHASH_BLAKE3_OUT_LEN` (32) for the standard hash, fewer for a
/// prefix of it (20 is the chunk address), more for extended output (the
/// first 32 bytes are the hash). `out_len` may be 0. `out` may overlap
/// `data`.
///
/// Returns `CHUNKHASH_NULL_POINTER` or `CHUNKHASH_INVALID_LENGTH`.
///
/// # Safety
///
/// `data` must be readable for `len` bytes and `out` writable for `out_len`
/// bytes (either may be NULL when its length is 0).
#[no_mangle]
pub unsafe extern "C" fn chunkhash_blake3_hash(
    data: *const u8,
    len: usize,
    out: *mut u8,
    out_len: usize,
) -> crate::chunkhash_status {
    guard(|| {
        // SAFETY: the caller promised `data` is readable for `len` bytes.
        let data = unsafe { Input::new(data, len) }?;
        // SAFETY: the caller promised `out` is writable for `out_len` bytes.
        let out = unsafe { Output::new(out, out_len) }?;
        one_shot(data, out, |data| *blake3::hash(data).as_bytes(), Hasher::new);
        Ok(())
    })
}

/// Writes the keyed BLAKE3 hash (a MAC or PRF) of `data` under a 32-byte
/// key to `out`, `out_len` bytes of output as in `chunkhash_blake3_hash`.
/// `out` may overlap `data`.
///
/// Returns `CHUNKHASH_NULL_POINTER`, or `CHUNKHASH_INVALID_LENGTH` when
/// `key_len` is not `CHUNKHASH_BLAKE3_KEY_LEN`.
///
/// # Safety
///
/// `key` must be readable for `key_len` bytes, `data` for `len` bytes (NULL
/// when `len` is 0 is fine), and `out` writable for `out_len` bytes.
#[no_mangle]
pub unsafe extern "C" fn chunkhash_blake3_keyed_hash(
    key: *const u8,
    key_len: usize,
    data: *const u8,
    len: usize,
    out: *mut u8,
    out_len: usize,
) -> crate::chunkhash_status {
    guard(|| {
        // SAFETY: the caller promised `key` is readable for `key_len` bytes.
        let key = unsafe { self::key(key, key_len) }?;
        // SAFETY: the caller promised `data` is readable for `len` bytes.
        let data = unsafe { Input::new(data, len) }?;
        // SAFETY: the caller promised `out` is writable for `out_len` bytes.
        let out = unsafe { Output::new(out, out_len) }?;
        one_shot(data, out, |data| *blake3::keyed_hash(&key, data).as_bytes(), || Hasher::new_keyed(&key));
        Ok(())
    })
}

/// Derives key material from `key_material` under `context` and writes
/// `out_len` bytes of it to `out` (32 is the standard derived key; more is
/// extended output). `context` is a NUL-terminated UTF-8 string, hardcoded
/// and globally unique, naming the application and purpose, such as
/// `"example.com 2026-11-22 block trailer key"`; it is not a secret. `out`
/// may overlap `key_material`.
///
/// Returns `CHUNKHASH_NULL_POINTER`, `CHUNKHASH_INVALID_LENGTH`, or
/// `CHUNKHASH_INVALID_UTF8` for a context that is not UTF-8.
///
/// # Safety
///
/// `context` must be a NUL-terminated string, `key_material` readable for
/// `len` bytes (NULL when `len` is 0 is fine), and `out` writable for
/// `out_len` bytes.
#[no_mangle]
pub unsafe extern "C" fn chunkhash_blake3_derive_key(
    context: *const c_char,
    key_material: *const u8,
    len: usize,
    out: *mut u8,
    out_len: usize,
) -> crate::chunkhash_status {
    guard(|| {
        // SAFETY: the caller promised a NUL-terminated string.
        let context = unsafe { CStrArg::new(context) }?;
        // SAFETY: the caller promised `key_material` is readable for `len` bytes.
        let data = unsafe { Input::new(key_material, len) }?;
        // SAFETY: the caller promised `out` is writable for `out_len` bytes.
        let out = unsafe { Output::new(out, out_len) }?;
        let context = context.to_str()?;
        one_shot(data, out, |data| blake3::derive_key(context, data), || Hasher::new_derive_key(context));
        Ok(())
    })
}

/// A streaming BLAKE3 hasher (plain, keyed or key derivation): made by
/// `chunkhash_blake3_new` (or `_new_keyed`, `_new_derive_key`), fed by
/// `chunkhash_blake3_update`, read by `chunkhash_blake3_finalize` or
/// `chunkhash_blake3_finalize_xof`, released by `chunkhash_blake3_free`.
/// Not safe to use from two threads at once; may be moved between threads.
#[derive(Debug)]
pub struct chunkhash_blake3 {
    hasher: Hasher,
}

/// Stores a new hasher in `*hasher`.
///
/// # Safety
///
/// `hasher` must be NULL (an error) or writable.
unsafe fn new_hasher(hasher: *mut *mut chunkhash_blake3, make: impl FnOnce() -> Result<Hasher>) -> Result<()> {
    // SAFETY: the caller promised `hasher` is writable.
    let out = unsafe { OutParam::new(hasher) }?;
    let hasher = make()?;
    out.set(crate::new_object(chunkhash_blake3 { hasher }));
    Ok(())
}

/// Makes a BLAKE3 hasher for the plain hash and stores it in `*hasher`.
/// Release it with `chunkhash_blake3_free`.
///
/// Returns `CHUNKHASH_NULL_POINTER`.
///
/// # Safety
///
/// `hasher` must be writable.
#[no_mangle]
pub unsafe extern "C" fn chunkhash_blake3_new(hasher: *mut *mut chunkhash_blake3) -> crate::chunkhash_status {
    // SAFETY: the caller promised `hasher` is writable.
    guard(|| unsafe { new_hasher(hasher, || Ok(Hasher::new())) })
}

/// Makes a BLAKE3 hasher for the keyed hash under a 32-byte key and stores
/// it in `*hasher`. Release it with `chunkhash_blake3_free`.
///
/// Returns `CHUNKHASH_NULL_POINTER`, or `CHUNKHASH_INVALID_LENGTH` when
/// `key_len` is not `CHUNKHASH_BLAKE3_KEY_LEN`.
///
/// # Safety
///
/// `key` must be readable for `key_len` bytes and `hasher` writable.
#[no_mangle]
pub unsafe extern "C" fn chunkhash_blake3_new_keyed(
    key: *const u8,
    key_len: usize,
    hasher: *mut *mut chunkhash_blake3,
) -> crate::chunkhash_status {
    guard(|| {
        // SAFETY: the caller promised `key` is readable for `key_len` bytes.
        let key = unsafe { self::key(key, key_len) }?;
        // SAFETY: the caller promised `hasher` is writable.
        unsafe { new_hasher(hasher, || Ok(Hasher::new_keyed(&key))) }
    })
}

/// Makes a BLAKE3 hasher for key derivation under `context` (see
/// `chunkhash_blake3_derive_key`); its input is the key material. Stores
/// it in `*hasher`; release it with `chunkhash_blake3_free`.
///
/// Returns `CHUNKHASH_NULL_POINTER` or `CHUNKHASH_INVALID_UTF8`.
///
/// # Safety
///
/// `context` must be a NUL-terminated string and `hasher` writable.
#[no_mangle]
pub unsafe extern "C" fn chunkhash_blake3_new_derive_key(
    context: *const c_char,
    hasher: *mut *mut chunkhash_blake3,
) -> crate::chunkhash_status {
    guard(|| {
        // SAFETY: the caller promised a NUL-terminated string.
        let context = unsafe { CStrArg::new(context) }?;
        // SAFETY: the caller promised `hasher` is writable.
        unsafe { new_hasher(hasher, || Ok(Hasher::new_derive_key(context.to_str()?))) }
    })
}

/// Adds `data` to the hasher's input.
///
/// Returns `CHUNKHASH_NULL_POINTER` or `CHUNKHASH_INVALID_LENGTH`.
///
/// # Safety
///
/// `hasher` must come from a `chunkhash_blake3_new` function and not be
/// freed; `data` must be readable for `len` bytes (NULL when `len` is 0 is
/// fine).
#[no_mangle]
pub unsafe extern "C" fn chunkhash_blake3_update(
    hasher: *mut chunkhash_blake3,
    data: *const u8,
    len: usize,
) -> crate::chunkhash_status {
    guard(|| {
        // SAFETY: the caller promised a live hasher.
        let hasher = unsafe { object(hasher) }?;
        // SAFETY: the caller promised `data` is readable for `len` bytes.
        let data = unsafe { Input::new(data, len) }?;
        hasher.hasher.update(data.bytes());
        Ok(())
    })
}

/// Writes the hash of all input so far, `CHUNKHASH_BLAKE3_OUT_LEN` (32)
/// bytes, to the front of `out`. The hasher is unchanged: more input may
/// follow.
///
/// Returns `CHUNKHASH_NULL_POINTER`, `CHUNKHASH_INVALID_LENGTH` or
/// `CHUNKHASH_BUFFER_TOO_SMALL` when `out_len` is less than 32.
///
/// # Safety
///
/// `hasher` must come from a `chunkhash_blake3_new` function and not be
/// freed; `out` must be writable for `out_len` bytes.
#[no_mangle]
pub unsafe extern "C" fn chunkhash_blake3_finalize(
    hasher: *const chunkhash_blake3,
    out: *mut u8,
    out_len: usize,
) -> crate::chunkhash_status {
    guard(|| {
        // SAFETY: the caller promised a live hasher.
        let hasher = unsafe { object_ref(hasher) }?;
        // SAFETY: the caller promised `out` is writable for `out_len` bytes.
        let out = unsafe { Output::new(out, out_len) }?;
        out.require(CHUNKHASH_BLAKE3_OUT_LEN)?;
        out.write(hasher.hasher.finalize().as_bytes());
        Ok(())
    })
}

/// Fills `out` with `out_len` bytes of the extended output of all input so
/// far, starting at byte `position` of the output stream (0 for the start,
/// whose first 32 bytes are the hash). The stream is 2^64 bytes long and
/// wraps around past its end. The hasher is unchanged.
///
/// Returns `CHUNKHASH_NULL_POINTER` or `CHUNKHASH_INVALID_LENGTH`.
///
/// # Safety
///
/// `hasher` must come from a `chunkhash_blake3_new` function and not be
/// freed; `out` must be writable for `out_len` bytes (NULL when `out_len`
/// is 0 is fine).
#[no_mangle]
pub unsafe extern "C" fn chunkhash_blake3_finalize_xof(
    hasher: *const chunkhash_blake3,
    position: u64,
    out: *mut u8,
    out_len: usize,
) -> crate::chunkhash_status {
    guard(|| {
        // SAFETY: the caller promised a live hasher.
        let hasher = unsafe { object_ref(hasher) }?;
        // SAFETY: the caller promised `out` is writable for `out_len` bytes.
        let out = unsafe { Output::new(out, out_len) }?;
        fill_xof(&hasher.hasher, position, out);
        Ok(())
    })
}

/// Forgets all input: the hasher is as new, in the same mode (and with the
/// same key or context).
///
/// Returns `CHUNKHASH_NULL_POINTER`.
///
/// # Safety
///
/// `hasher` must come from a `chunkhash_blake3_new` function and not be
/// freed.
#[no_mangle]
pub unsafe extern "C" fn chunkhash_blake3_reset(hasher: *mut chunkhash_blake3) -> crate::chunkhash_status {
    guard(|| {
        // SAFETY: the caller promised a live hasher.
        unsafe { object(hasher) }?.hasher.reset();
        Ok(())
    })
}

/// Releases a hasher. NULL does nothing. Freeing a hasher twice, or using
/// it after this call, is a bug in the caller (undefined behaviour, as with
/// `free`).
///
/// # Safety
///
/// `hasher` must be NULL or come from a `chunkhash_blake3_new` function and
/// not be freed already.
#[no_mangle]
pub unsafe extern "C" fn chunkhash_blake3_free(hasher: *mut chunkhash_blake3) {
    // SAFETY: the caller promised a live hasher or NULL.
    unsafe { crate::free_object(hasher) }
}

/// Batches up to this many inputs build their slices on the stack (1 KiB);
/// larger ones in one `Vec` (16 bytes per input, one allocation per call).
pub(crate) const STACK_INPUTS: usize = 64;

/// Checks the C arrays of a batch call and every `(inputs[i], lens[i])`
/// pair, as [`Input::new`] does (with `n == 0` the arrays may be NULL), and
/// calls `hash` with them as slices. One pass: the slices are built as the
/// pairs are checked, and `hash` runs only if all of them pass, so nothing
/// is written on failure.
///
/// # Safety
///
/// Non-NULL `inputs` and `lens` must be readable for `n` elements, and each
/// `inputs[i]` for `lens[i]` bytes, unchanged during the call.
pub(crate) unsafe fn with_slices(
    inputs: *const *const u8,
    lens: *const usize,
    n: usize,
    hash: impl FnOnce(&[&[u8]]) -> Result<()>,
) -> Result<()> {
    if n == 0 {
        return hash(&[]);
    }
    if inputs.is_null() || lens.is_null() {
        return Err(CHUNKHASH_NULL_POINTER);
    }
    if n > isize::MAX as usize / size_of::<&[u8]>() {
        return Err(CHUNKHASH_INVALID_LENGTH);
    }
    // SAFETY: both are non-NULL, the caller promised `n` readable elements,
    // and `n` elements of 8 bytes fit `isize::MAX` (so do `n` slices of 16,
    // checked above, for the `Vec`).
    let (ptrs, lens) = unsafe { (core::slice::from_raw_parts(inputs, n), core::slice::from_raw_parts(lens, n)) };
    let mut on_stack: [&[u8]; STACK_INPUTS] = [&[]; STACK_INPUTS];
    let mut on_heap = Vec::new();
    let slices: &mut [&[u8]] = if n <= STACK_INPUTS {
        &mut on_stack[..n]
    } else {
        on_heap.resize(n, &[][..]);
        &mut on_heap
    };
    for ((slice, &ptr), &len) in slices.iter_mut().zip(ptrs).zip(lens) {
        // SAFETY: the caller promised `ptr` is readable for `len` bytes, and
        // unchanged during the call, which the slices do not outlive.
        *slice = unsafe { Input::new(ptr, len) }?.bytes();
    }
    hash(slices)
}

/// The shared body of the batch calls. In order: checks the inputs and the
/// output, makes the `Batch` (which may fail: a bad context), checks that
/// `out` holds `W` bytes per input, then hashes into it.
///
/// # Safety
///
/// As [`with_slices`], and `out` must be writable for `out_len` bytes and
/// not overlap any input.
unsafe fn batch<const W: usize>(
    inputs: *const *const u8,
    lens: *const usize,
    n: usize,
    (out, out_len): (*mut u8, usize),
    config: impl FnOnce() -> Result<Batch>,
    hash: impl FnOnce(&Batch, &[&[u8]], &mut [[u8; W]]),
) -> Result<()> {
    let hash_into_out = |slices: &[&[u8]]| {
        // SAFETY: the caller promised `out` is writable for `out_len` bytes.
        let mut out = unsafe { Output::new(out, out_len) }?;
        let config = config()?;
        let needed = n.checked_mul(W).ok_or(CHUNKHASH_BUFFER_TOO_SMALL)?;
        out.require(needed)?;
        let (out, _) = out.slice(needed).as_chunks_mut::<W>();
        hash(&config, slices, out);
        Ok(())
    };
    // SAFETY: the caller promised the arrays and inputs are readable.
    unsafe { with_slices(inputs, lens, n, hash_into_out) }
}

/// The 32-byte outputs of any batch mode, written straight to `out` as the
/// plain byte arrays C's buffer holds (`Batch::hash_many_bytes`). A Rust
/// test checks every mode against the one-shot calls.
fn raw_outputs(config: &Batch, slices: &[&[u8]], out: &mut [[u8; CHUNKHASH_BLAKE3_OUT_LEN]]) {
    config.hash_many_bytes(slices, out);
}

/// Hashes many independent messages in one call: `out + 32 * i` receives
/// the BLAKE3 hash of `inputs[i]` (of `lens[i]` bytes), for i from 0 to
/// `n - 1`. Messages of any lengths may be mixed; small ones share SIMD
/// lanes, which makes this much faster than `n` calls of
/// `chunkhash_blake3_hash` for messages of a few KiB or less. `inputs[i]`
/// may be NULL when `lens[i]` is 0; with `n` 0, every pointer may be NULL.
///
/// Returns `CHUNKHASH_NULL_POINTER`, `CHUNKHASH_INVALID_LENGTH`, or
/// `CHUNKHASH_BUFFER_TOO_SMALL` when `out_len` is less than `32 * n`.
///
/// # Safety
///
/// `inputs` and `lens` must be readable for `n` elements, each `inputs[i]`
/// for `lens[i]` bytes, and `out` writable for `out_len` bytes; `out` must
/// not overlap any input.
#[no_mangle]
pub unsafe extern "C" fn chunkhash_blake3_hash_many(
    inputs: *const *const u8,
    lens: *const usize,
    n: usize,
    out: *mut u8,
    out_len: usize,
) -> crate::chunkhash_status {
    guard(|| {
        // SAFETY: the caller promised what `batch` requires.
        unsafe { batch(inputs, lens, n, (out, out_len), || Ok(Batch::new()), raw_outputs) }
    })
}

/// `chunkhash_blake3_hash_many` for the keyed hash under one 32-byte key.
///
/// Returns `CHUNKHASH_NULL_POINTER`, `CHUNKHASH_INVALID_LENGTH` (also when
/// `key_len` is not `CHUNKHASH_BLAKE3_KEY_LEN`), or
/// `CHUNKHASH_BUFFER_TOO_SMALL` when `out_len` is less than `32 * n`.
///
/// # Safety
///
/// `key` must be readable for `key_len` bytes, and the rest as for
/// `chunkhash_blake3_hash_many`.
#[no_mangle]
pub unsafe extern "C" fn chunkhash_blake3_keyed_hash_many(
    key: *const u8,
    key_len: usize,
    inputs: *const *const u8,
    lens: *const usize,
    n: usize,
    out: *mut u8,
    out_len: usize,
) -> crate::chunkhash_status {
    guard(|| {
        // SAFETY: the caller promised `key` is readable for `key_len` bytes.
        let key = unsafe { self::key(key, key_len) }?;
        // SAFETY: the caller promised what `batch` requires.
        unsafe { batch(inputs, lens, n, (out, out_len), || Ok(Batch::new_keyed(&key)), raw_outputs) }
    })
}

/// `chunkhash_blake3_derive_key` for many key materials under one context:
/// `out + 32 * i` receives the 32-byte key derived from `inputs[i]`.
///
/// Returns `CHUNKHASH_NULL_POINTER`, `CHUNKHASH_INVALID_LENGTH`,
/// `CHUNKHASH_INVALID_UTF8` for a context that is not UTF-8, or
/// `CHUNKHASH_BUFFER_TOO_SMALL` when `out_len` is less than `32 * n`.
///
/// # Safety
///
/// `context` must be a NUL-terminated string, and the rest as for
/// `chunkhash_blake3_hash_many`.
#[no_mangle]
pub unsafe extern "C" fn chunkhash_blake3_derive_key_many(
    context: *const c_char,
    inputs: *const *const u8,
    lens: *const usize,
    n: usize,
    out: *mut u8,
    out_len: usize,
) -> crate::chunkhash_status {
    guard(|| {
        // SAFETY: the caller promised a NUL-terminated string.
        let context = unsafe { CStrArg::new(context) }?;
        let config = || Ok(Batch::new_derive_key(context.to_str()?));
        // SAFETY: the caller promised what `batch` requires.
        unsafe { batch(inputs, lens, n, (out, out_len), config, raw_outputs) }
    })
}

/// Writes the 20-byte chunk address (the first 20 bytes of the BLAKE3 hash)
/// of each of many messages: `out + 20 * i` receives the address of
/// `inputs[i]`. Otherwise as `chunkhash_blake3_hash_many`.
///
/// Returns `CHUNKHASH_NULL_POINTER`, `CHUNKHASH_INVALID_LENGTH`, or
/// `CHUNKHASH_BUFFER_TOO_SMALL` when `out_len` is less than `20 * n`.
///
/// # Safety
///
/// As for `chunkhash_blake3_hash_many`.
#[no_mangle]
pub unsafe extern "C" fn chunkhash_blake3_address_many(
    inputs: *const *const u8,
    lens: *const usize,
    n: usize,
    out: *mut u8,
    out_len: usize,
) -> crate::chunkhash_status {
    guard(|| {
        let addresses = |config: &Batch, slices: &[&[u8]], out: &mut [[u8; CHUNKHASH_ADDRESS_LEN]]| {
            // The 32-byte outputs, then their first 20 bytes: on the stack
            // for small batches, else in one allocation.
            let mut on_stack = [[0u8; CHUNKHASH_BLAKE3_OUT_LEN]; STACK_INPUTS];
            let mut on_heap = Vec::new();
            let hashes: &mut [[u8; CHUNKHASH_BLAKE3_OUT_LEN]] = if slices.len() <= STACK_INPUTS {
                &mut on_stack[..slices.len()]
            } else {
                on_heap.resize(slices.len(), [0u8; CHUNKHASH_BLAKE3_OUT_LEN]);
                &mut on_heap
            };
            raw_outputs(config, slices, hashes);
            for (out, hash) in out.iter_mut().zip(hashes.iter()) {
                *out = hash[..CHUNKHASH_ADDRESS_LEN].try_into().expect("20 of 32 bytes");
            }
        };
        // SAFETY: the caller promised what `batch` requires.
        unsafe { batch(inputs, lens, n, (out, out_len), || Ok(Batch::new()), addresses) }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use chunkhash::blake3::Hash;

    #[test]
    fn length_constants_match_the_library() {
        assert_eq!(CHUNKHASH_BLAKE3_OUT_LEN, blake3::OUT_LEN);
        assert_eq!(CHUNKHASH_BLAKE3_KEY_LEN, blake3::KEY_LEN);
        assert_eq!(CHUNKHASH_ADDRESS_LEN, blake3::ADDRESS_LEN);
    }

    /// Batches too large for the stack, with lengths from 0 to 2 chunks and
    /// NULL empty inputs, in every mode, agree with the one-shot calls.
    #[test]
    fn large_batches_match_one_shot_hashes() {
        let n = 2 * STACK_INPUTS + 37;
        let data = vectors::input_pattern(2 * 1024 + 1);
        let key = [7u8; 32];
        let context = c"chunkhash-c 2026-11-22 batch test";
        let lens: Vec<usize> = (0..n).map(|i| (i * 7) % data.len()).collect();
        let ptrs: Vec<*const u8> =
            lens.iter().map(|&len| if len == 0 { core::ptr::null() } else { data.as_ptr() }).collect();
        let (p, l) = (ptrs.as_ptr(), lens.as_ptr());
        let mut hashes = vec![0u8; 32 * n];
        let mut keyed = vec![0u8; 32 * n];
        let mut derived = vec![0u8; 32 * n];
        let mut addresses = vec![0u8; 20 * n];
        // SAFETY: every pointer is readable for its length, the outputs are
        // locals of the lengths given, the context is NUL-terminated.
        unsafe {
            assert_eq!(chunkhash_blake3_hash_many(p, l, n, hashes.as_mut_ptr(), 32 * n), CHUNKHASH_OK);
            let status = chunkhash_blake3_keyed_hash_many(key.as_ptr(), 32, p, l, n, keyed.as_mut_ptr(), 32 * n);
            assert_eq!(status, CHUNKHASH_OK);
            let status = chunkhash_blake3_derive_key_many(context.as_ptr(), p, l, n, derived.as_mut_ptr(), 32 * n);
            assert_eq!(status, CHUNKHASH_OK);
            assert_eq!(chunkhash_blake3_address_many(p, l, n, addresses.as_mut_ptr(), 20 * n), CHUNKHASH_OK);
        }
        let context = context.to_str().expect("UTF-8");
        for (i, &len) in lens.iter().enumerate() {
            let (input, at) = (&data[..len], 32 * i..32 * (i + 1));
            let expected = blake3::hash(input);
            assert_eq!(&hashes[at.clone()], expected.as_bytes(), "input {i}, {len} bytes");
            assert_eq!(&keyed[at.clone()], blake3::keyed_hash(&key, input).as_bytes(), "input {i}");
            assert_eq!(&derived[at], &blake3::derive_key(context, input), "input {i}");
            assert_eq!(&addresses[20 * i..20 * (i + 1)], expected.address().as_bytes(), "input {i}");
        }
    }

    /// What the C batch calls add to the Rust ones: checking the C arrays,
    /// building the slices, and for addresses copying 20 of 32 bytes out.
    /// Prints medians of interleaved rounds; a measurement, not a check.
    #[test]
    #[ignore = "a measurement: cargo test -p chunkhash-c batch_overhead -- --ignored --nocapture"]
    fn batch_overhead() {
        const N: usize = 1024;
        const LEN: usize = 64;
        const REPS: usize = 50;
        let data = vectors::input_pattern(N * LEN + 1);
        // Distinct messages: every other one starts a byte further on.
        let inputs: Vec<&[u8]> = (0..N).map(|i| &data[i * LEN + i % 2..][..LEN]).collect();
        let ptrs: Vec<*const u8> = inputs.iter().map(|input| input.as_ptr()).collect();
        let lens: Vec<usize> = inputs.iter().map(|input| input.len()).collect();
        let mut hashes = vec![Hash::from([0; 32]); N];
        let mut addresses = vec![blake3::Address::from_hex("00".repeat(20)).expect("hex"); N];
        let mut c_hashes = vec![0u8; 32 * N];
        let mut c_addresses = vec![0u8; 20 * N];
        let time = |f: &mut dyn FnMut()| {
            let start = std::time::Instant::now();
            for _ in 0..REPS {
                f();
            }
            start.elapsed().as_nanos() as f64 / (REPS * N) as f64
        };
        type Call<'a> = (&'static str, Box<dyn FnMut() + 'a>);
        let mut calls: [Call<'_>; 4] = [
            ("blake3::hash_many", Box::new(|| blake3::hash_many(&inputs, &mut hashes))),
            (
                "chunkhash_blake3_hash_many",
                // SAFETY: every pointer is readable for its length; the output holds 32 * N bytes.
                Box::new(|| unsafe {
                    let status =
                        chunkhash_blake3_hash_many(ptrs.as_ptr(), lens.as_ptr(), N, c_hashes.as_mut_ptr(), 32 * N);
                    assert_eq!(status, CHUNKHASH_OK);
                }),
            ),
            ("blake3::address_many", Box::new(|| blake3::address_many(&inputs, &mut addresses))),
            (
                "chunkhash_blake3_address_many",
                // SAFETY: every pointer is readable for its length; the output holds 20 * N bytes.
                Box::new(|| unsafe {
                    let out = c_addresses.as_mut_ptr();
                    let status = chunkhash_blake3_address_many(ptrs.as_ptr(), lens.as_ptr(), N, out, 20 * N);
                    assert_eq!(status, CHUNKHASH_OK);
                }),
            ),
        ];
        let mut times = vec![Vec::new(); calls.len()];
        for round in 0..101 {
            for k in 0..calls.len() {
                // Each round in another order.
                let k = (k + round) % calls.len();
                times[k].push(time(&mut calls[k].1));
            }
        }
        let medians: Vec<f64> = times
            .iter_mut()
            .map(|v| {
                v.sort_by(f64::total_cmp);
                v[v.len() / 2]
            })
            .collect();
        println!("{N} messages of {LEN} bytes, backend {}:", blake3::Backend::detect().name());
        for pair in [0, 2] {
            let (rust, c) = (medians[pair], medians[pair + 1]);
            let ratio = (c / rust - 1.0) * 100.0;
            println!(
                "  {} {rust:.2} ns/message, {} {c:.2} ns/message ({ratio:+.1}%)",
                calls[pair].0,
                calls[pair + 1].0
            );
        }
        drop(calls);
        for i in 0..N {
            assert_eq!(&c_hashes[32 * i..32 * (i + 1)], hashes[i].as_bytes());
            assert_eq!(&c_addresses[20 * i..20 * (i + 1)], addresses[i].as_bytes());
        }
    }
}
