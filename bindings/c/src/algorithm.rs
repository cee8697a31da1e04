//! The checksum registry: algorithm ids and names, one-shot digests, and a
//! streaming hasher for any algorithm.

use crate::blake3::{with_slices, STACK_INPUTS};
use crate::chunkhash_status::*;
use crate::{guard, object, object_ref, CStrArg, Input, OutParam, Output, Result};
use chunkhash::{Algorithm, StreamingHasher};
use core::ffi::c_char;
use std::ffi::CString;
use std::sync::OnceLock;

// The id constants (`CHUNKHASH_ALGORITHM_*`, `CHUNKHASH_MAX_DIGEST_LEN`) are
// written into the header from the registry table by header-gen; C code is
// their only user.

/// The algorithm with this id, or `CHUNKHASH_UNKNOWN_ALGORITHM`.
pub(crate) fn known(id: u32) -> Result<Algorithm> {
    u8::try_from(id).ok().and_then(|id| Algorithm::from_id(id).ok()).ok_or(CHUNKHASH_UNKNOWN_ALGORITHM)
}

/// The NUL-terminated forms of an algorithm's names, made once.
struct Names {
    algorithm: Algorithm,
    name: CString,
    bsd_tag: CString,
}

fn names(algorithm: Algorithm) -> &'static Names {
    static NAMES: OnceLock<Vec<Names>> = OnceLock::new();
    let all = NAMES.get_or_init(|| {
        let c = |s: &str| CString::new(s).expect("algorithm names have no NUL byte");
        Algorithm::all()
            .iter()
            .map(|&algorithm| Names { algorithm, name: c(algorithm.name()), bsd_tag: c(algorithm.bsd_tag()) })
            .collect()
    });
    all.iter().find(|names| names.algorithm == algorithm).expect("every algorithm is in Algorithm::all()")
}

/// Looks up an algorithm by name and stores its id in `*id`.
///
/// `name` is a NUL-terminated string: a canonical name (`"BLAKE3"`,
/// `"XXH3-64"`, `"SHA-256"`, ...) or an alias (`"b3"`, `"xxh3"`, `"xxh128"`,
/// `"crc32c"`, `"sha256"`, `"blake2b"`, ...), ignoring case and reading `_`
/// as `-`: the spellings of b3sum, xxhsum, coreutils and btrfs. Surrounding
/// whitespace is not ignored.
///
/// Returns `CHUNKHASH_NULL_POINTER`, `CHUNKHASH_INVALID_UTF8`, or
/// `CHUNKHASH_UNKNOWN_ALGORITHM` for a name that is no algorithm's.
///
/// # Safety
///
/// `name` must be a NUL-terminated string and `id` writable.
#[no_mangle]
pub unsafe extern "C" fn chunkhash_algorithm_from_name(name: *const c_char, id: *mut u32) -> crate::chunkhash_status {
    guard(|| {
        // SAFETY: the caller promised a NUL-terminated string.
        let name = unsafe { CStrArg::new(name) }?;
        // SAFETY: the caller promised `id` is writable.
        let id = unsafe { OutParam::new(id) }?;
        let algorithm: Algorithm = name.to_str()?.parse().map_err(|_| CHUNKHASH_UNKNOWN_ALGORITHM)?;
        id.set(u32::from(algorithm.id()));
        Ok(())
    })
}

/// Stores in `*name` the canonical name of the algorithm `id`, as the
/// registry table spells it (`"BLAKE3"`, `"XXH3-64"`, `"CRC32C"`,
/// `"SHA-512/160"`, ...). The string is static: never free it.
///
/// Returns `CHUNKHASH_NULL_POINTER` or `CHUNKHASH_UNKNOWN_ALGORITHM`.
///
/// # Safety
///
/// `name` must be writable.
#[no_mangle]
pub unsafe extern "C" fn chunkhash_algorithm_name(id: u32, name: *mut *const c_char) -> crate::chunkhash_status {
    guard(|| {
        // SAFETY: the caller promised `name` is writable.
        let name = unsafe { OutParam::new(name) }?;
        name.set(names(known(id)?).name.as_ptr());
        Ok(())
    })
}

/// Stores in `*tag` the tag of BSD-style (`--tag`) checksum lines for the
/// algorithm `id`, `TAG (FILE) = HEX`, as the usual tool prints it
/// (`"SHA256"`, `"BLAKE2b"`, `"XXH3"`, `"XXH128"`, ...). The string is
/// static: never free it.
///
/// Returns `CHUNKHASH_NULL_POINTER` or `CHUNKHASH_UNKNOWN_ALGORITHM`.
///
/// # Safety
///
/// `tag` must be writable.
#[no_mangle]
pub unsafe extern "C" fn chunkhash_algorithm_bsd_tag(id: u32, tag: *mut *const c_char) -> crate::chunkhash_status {
    guard(|| {
        // SAFETY: the caller promised `tag` is writable.
        let tag = unsafe { OutParam::new(tag) }?;
        tag.set(names(known(id)?).bsd_tag.as_ptr());
        Ok(())
    })
}

/// Stores in `*len` the digest length of the algorithm `id` in bytes: 4,
/// 8, 16, 20, 32 or 64 (at most `CHUNKHASH_MAX_DIGEST_LEN`).
///
/// Returns `CHUNKHASH_NULL_POINTER` or `CHUNKHASH_UNKNOWN_ALGORITHM`.
///
/// # Safety
///
/// `len` must be writable.
#[no_mangle]
pub unsafe extern "C" fn chunkhash_algorithm_digest_len(id: u32, len: *mut usize) -> crate::chunkhash_status {
    guard(|| {
        // SAFETY: the caller promised `len` is writable.
        let len = unsafe { OutParam::new(len) }?;
        len.set(known(id)?.digest_len());
        Ok(())
    })
}

/// Stores in `*cryptographic` whether the algorithm `id` is a cryptographic
/// hash (collision and preimage resistant: BLAKE3, BLAKE2b, SHA-2, and
/// their 160-bit truncations with 80-bit collision resistance), as opposed
/// to a checksum that only catches accidents (CRC32C, the xxHash family).
///
/// Returns `CHUNKHASH_NULL_POINTER` or `CHUNKHASH_UNKNOWN_ALGORITHM`.
///
/// # Safety
///
/// `cryptographic` must be writable.
#[no_mangle]
pub unsafe extern "C" fn chunkhash_algorithm_is_cryptographic(
    id: u32,
    cryptographic: *mut bool,
) -> crate::chunkhash_status {
    guard(|| {
        // SAFETY: the caller promised `cryptographic` is writable.
        let cryptographic = unsafe { OutParam::new(cryptographic) }?;
        cryptographic.set(known(id)?.is_cryptographic());
        Ok(())
    })
}

/// Stores in `*available` whether this build of the library computes the
/// algorithm `id`: true for every algorithm in the default build.
///
/// Returns `CHUNKHASH_NULL_POINTER` or `CHUNKHASH_UNKNOWN_ALGORITHM`.
///
/// # Safety
///
/// `available` must be writable.
#[no_mangle]
pub unsafe extern "C" fn chunkhash_algorithm_is_available(id: u32, available: *mut bool) -> crate::chunkhash_status {
    guard(|| {
        // SAFETY: the caller promised `available` is writable.
        let available = unsafe { OutParam::new(available) }?;
        available.set(known(id)?.is_available());
        Ok(())
    })
}

/// Computes the digest of `data` with the algorithm `id` and writes it to
/// the front of `out`: exactly `chunkhash_algorithm_digest_len(id)` bytes
/// (the rest of `out` is untouched). Integer checksums (CRC32C, the xxHash
/// family) are written big-endian, as xxhsum and CRC32C references print
/// them. `out` may overlap `data`.
///
/// Returns `CHUNKHASH_NULL_POINTER`, `CHUNKHASH_INVALID_LENGTH`,
/// `CHUNKHASH_UNKNOWN_ALGORITHM`, `CHUNKHASH_UNAVAILABLE_ALGORITHM`, or
/// `CHUNKHASH_BUFFER_TOO_SMALL` when `out_len` is less than the digest
/// length.
///
/// # Safety
///
/// `data` must be readable for `len` bytes and `out` writable for `out_len`
/// bytes (either may be NULL when its length is 0).
#[no_mangle]
pub unsafe extern "C" fn chunkhash_digest(
    id: u32,
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
        let algorithm = known(id)?;
        if !algorithm.is_available() {
            return Err(CHUNKHASH_UNAVAILABLE_ALGORITHM);
        }
        out.require(algorithm.digest_len())?;
        let digest = chunkhash::try_digest(algorithm, data.bytes()).map_err(|_| CHUNKHASH_UNAVAILABLE_ALGORITHM)?;
        out.write(digest.as_bytes());
        Ok(())
    })
}

/// Computes the digests of many independent messages in one call, with the
/// algorithm `id`: `out + digest_len * i` receives the digest of `inputs[i]`
/// (of `lens[i]` bytes), for i from 0 to `n - 1`, where `digest_len` is
/// `chunkhash_algorithm_digest_len(id)`, laid out as `chunkhash_digest`
/// writes it. The algorithm is chosen once per call: BLAKE3 runs its
/// messages across SIMD lanes (as `chunkhash_blake3_hash_many`), SHA-256
/// through multi-buffer kernels, every other algorithm through a tight
/// loop. `inputs[i]` may be NULL when `lens[i]` is 0; with `n` 0, every
/// pointer may be NULL.
///
/// Returns `CHUNKHASH_NULL_POINTER`, `CHUNKHASH_INVALID_LENGTH`,
/// `CHUNKHASH_UNKNOWN_ALGORITHM`, `CHUNKHASH_UNAVAILABLE_ALGORITHM`, or
/// `CHUNKHASH_BUFFER_TOO_SMALL` when `out_len` is less than
/// `digest_len * n`.
///
/// # Safety
///
/// `inputs` and `lens` must be readable for `n` elements, each `inputs[i]`
/// for `lens[i]` bytes, and `out` writable for `out_len` bytes; `out` must
/// not overlap any input.
#[no_mangle]
pub unsafe extern "C" fn chunkhash_digest_many(
    id: u32,
    inputs: *const *const u8,
    lens: *const usize,
    n: usize,
    out: *mut u8,
    out_len: usize,
) -> crate::chunkhash_status {
    guard(|| {
        let digests_into_out = |slices: &[&[u8]]| {
            // SAFETY: the caller promised `out` is writable for `out_len` bytes.
            let mut out = unsafe { Output::new(out, out_len) }?;
            let algorithm = known(id)?;
            if !algorithm.is_available() {
                return Err(CHUNKHASH_UNAVAILABLE_ALGORITHM);
            }
            let width = algorithm.digest_len();
            let needed = n.checked_mul(width).ok_or(CHUNKHASH_BUFFER_TOO_SMALL)?;
            out.require(needed)?;
            // The digests a group at a time on the stack, so a call of any
            // size allocates nothing here; a group still fills every lane.
            let mut digests = [chunkhash::digest(algorithm, b""); STACK_INPUTS];
            for (group, out) in slices.chunks(STACK_INPUTS).zip(out.slice(needed).chunks_mut(STACK_INPUTS * width)) {
                let digests = &mut digests[..group.len()];
                chunkhash::try_digest_many(algorithm, group, digests).map_err(|_| CHUNKHASH_UNAVAILABLE_ALGORITHM)?;
                for (out, digest) in out.chunks_exact_mut(width).zip(digests.iter()) {
                    out.copy_from_slice(digest.as_bytes());
                }
            }
            Ok(())
        };
        // SAFETY: the caller promised the arrays and inputs are readable.
        unsafe { with_slices(inputs, lens, n, digests_into_out) }
    })
}

/// A streaming hasher for any algorithm of the registry: made by
/// `chunkhash_hasher_new`, fed by `chunkhash_hasher_update`, read by
/// `chunkhash_hasher_finalize`, released by `chunkhash_hasher_free`. Not
/// safe to use from two threads at once; may be moved between threads.
#[derive(Debug)]
pub struct chunkhash_hasher {
    inner: StreamingHasher,
}

/// Makes a streaming hasher for the algorithm `id` and stores it in
/// `*hasher`. Release it with `chunkhash_hasher_free`.
///
/// Returns `CHUNKHASH_NULL_POINTER`, `CHUNKHASH_UNKNOWN_ALGORITHM` or
/// `CHUNKHASH_UNAVAILABLE_ALGORITHM`.
///
/// # Safety
///
/// `hasher` must be writable.
#[no_mangle]
pub unsafe extern "C" fn chunkhash_hasher_new(id: u32, hasher: *mut *mut chunkhash_hasher) -> crate::chunkhash_status {
    guard(|| {
        // SAFETY: the caller promised `hasher` is writable.
        let hasher = unsafe { OutParam::new(hasher) }?;
        let inner = StreamingHasher::try_new(known(id)?).map_err(|_| CHUNKHASH_UNAVAILABLE_ALGORITHM)?;
        hasher.set(crate::new_object(chunkhash_hasher { inner }));
        Ok(())
    })
}

/// Adds `data` to the hasher's input.
///
/// Returns `CHUNKHASH_NULL_POINTER` or `CHUNKHASH_INVALID_LENGTH`.
///
/// # Safety
///
/// `hasher` must come from `chunkhash_hasher_new` and not be freed; `data`
/// must be readable for `len` bytes (NULL when `len` is 0 is fine).
#[no_mangle]
pub unsafe extern "C" fn chunkhash_hasher_update(
    hasher: *mut chunkhash_hasher,
    data: *const u8,
    len: usize,
) -> crate::chunkhash_status {
    guard(|| {
        // SAFETY: the caller promised a live hasher.
        let hasher = unsafe { object(hasher) }?;
        // SAFETY: the caller promised `data` is readable for `len` bytes.
        let data = unsafe { Input::new(data, len) }?;
        hasher.inner.update(data.bytes());
        Ok(())
    })
}

/// Writes the digest of all input so far to the front of `out`, exactly
/// `chunkhash_algorithm_digest_len` bytes of the hasher's algorithm. The
/// hasher is unchanged: more input may follow.
///
/// Returns `CHUNKHASH_NULL_POINTER`, `CHUNKHASH_INVALID_LENGTH` or
/// `CHUNKHASH_BUFFER_TOO_SMALL`.
///
/// # Safety
///
/// `hasher` must come from `chunkhash_hasher_new` and not be freed; `out`
/// must be writable for `out_len` bytes.
#[no_mangle]
pub unsafe extern "C" fn chunkhash_hasher_finalize(
    hasher: *const chunkhash_hasher,
    out: *mut u8,
    out_len: usize,
) -> crate::chunkhash_status {
    guard(|| {
        // SAFETY: the caller promised a live hasher.
        let hasher = unsafe { object_ref(hasher) }?;
        // SAFETY: the caller promised `out` is writable for `out_len` bytes.
        let out = unsafe { Output::new(out, out_len) }?;
        out.require(hasher.inner.algorithm().digest_len())?;
        out.write(hasher.inner.finalize().as_bytes());
        Ok(())
    })
}

/// Forgets all input: the hasher is as new, for the same algorithm.
///
/// Returns `CHUNKHASH_NULL_POINTER`.
///
/// # Safety
///
/// `hasher` must come from `chunkhash_hasher_new` and not be freed.
#[no_mangle]
pub unsafe extern "C" fn chunkhash_hasher_reset(hasher: *mut chunkhash_hasher) -> crate::chunkhash_status {
    guard(|| {
        // SAFETY: the caller promised a live hasher.
        unsafe { object(hasher) }?.inner.reset();
        Ok(())
    })
}

/// Releases a hasher. NULL does nothing. Freeing a hasher twice, or using
/// it after this call, is a bug in the caller (undefined behaviour, as with
/// `free`).
///
/// # Safety
///
/// `hasher` must be NULL or come from `chunkhash_hasher_new` and not be
/// freed already.
#[no_mangle]
pub unsafe extern "C" fn chunkhash_hasher_free(hasher: *mut chunkhash_hasher) {
    // SAFETY: the caller promised a live hasher or NULL.
    unsafe { crate::free_object(hasher) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use core::ffi::CStr;

    /// The committed header's id constants against the registry: one per
    /// algorithm, in id order, its name the algorithm's (letters and digits,
    /// any case), its value the id. header-gen writes them from the table;
    /// this reads what C code compiles against.
    #[test]
    fn id_constants_match_the_registry() {
        let header = include_str!("../include/chunkhash.h");
        let define = |line: &str| {
            let (name, value) = line.strip_prefix("#define ")?.split_once(' ')?;
            Some((name.to_string(), value.parse::<usize>().ok()?))
        };
        let defines: Vec<(String, usize)> = header.lines().filter_map(define).collect();
        let ids: Vec<(String, usize)> =
            defines.iter().filter(|(name, _)| name.starts_with("CHUNKHASH_ALGORITHM_")).cloned().collect();
        assert_eq!(ids.len(), Algorithm::all().len(), "{ids:?}");
        let letters = |name: &str| name.chars().filter(char::is_ascii_alphanumeric).collect::<String>().to_uppercase();
        for ((name, id), &algorithm) in ids.iter().zip(Algorithm::all()) {
            assert_eq!(letters(&name["CHUNKHASH_ALGORITHM_".len()..]), letters(algorithm.name()), "{name}");
            assert_eq!(*id, usize::from(algorithm.id()), "{name}");
            assert_eq!(known(u32::from(algorithm.id())), Ok(algorithm));
        }
        assert!(defines.contains(&("CHUNKHASH_ALGORITHM_SHA256".to_string(), 10)));
        assert!(defines.contains(&("CHUNKHASH_MAX_DIGEST_LEN".to_string(), chunkhash::MAX_DIGEST_LEN)));
        assert_eq!(known(0), Err(CHUNKHASH_UNKNOWN_ALGORITHM));
        assert_eq!(known(256 + 1), Err(CHUNKHASH_UNKNOWN_ALGORITHM), "ids do not wrap around");
    }

    #[test]
    fn names_are_the_registry_names() {
        for &algorithm in Algorithm::all() {
            let mut name: *const c_char = core::ptr::null();
            // SAFETY: `name` is a local.
            let status = unsafe { chunkhash_algorithm_name(u32::from(algorithm.id()), &mut name) };
            assert_eq!(status, CHUNKHASH_OK);
            // SAFETY: a static NUL-terminated string on success.
            assert_eq!(unsafe { CStr::from_ptr(name) }.to_str(), Ok(algorithm.name()));
        }
    }

    /// Only in builds without every family (`make test` runs one): the ids
    /// of missing algorithms are known but not computable.
    #[cfg(not(all(feature = "xxhash", feature = "crc", feature = "blake2", feature = "sha2")))]
    #[test]
    fn missing_families_are_unavailable() {
        let missing: Vec<Algorithm> = Algorithm::all().iter().copied().filter(|a| !a.is_available()).collect();
        assert!(!missing.is_empty());
        for algorithm in missing {
            let id = u32::from(algorithm.id());
            let mut out = [0xaau8; chunkhash::MAX_DIGEST_LEN];
            // SAFETY: `out` is a local of the length given.
            let status = unsafe { chunkhash_digest(id, b"abc".as_ptr(), 3, out.as_mut_ptr(), out.len()) };
            assert_eq!(status, CHUNKHASH_UNAVAILABLE_ALGORITHM, "{algorithm}");
            assert_eq!(out, [0xaau8; chunkhash::MAX_DIGEST_LEN], "nothing written");
            let mut hasher: *mut chunkhash_hasher = core::ptr::null_mut();
            // SAFETY: `hasher` is a local.
            assert_eq!(unsafe { chunkhash_hasher_new(id, &mut hasher) }, CHUNKHASH_UNAVAILABLE_ALGORITHM);
            assert!(hasher.is_null());
            let mut available = true;
            // SAFETY: `available` is a local.
            assert_eq!(unsafe { chunkhash_algorithm_is_available(id, &mut available) }, CHUNKHASH_OK);
            assert!(!available);
        }
    }
}
