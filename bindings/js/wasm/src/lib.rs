//! The WebAssembly module of the `chunkhash` npm package: the chunkhash
//! library behind a plain `extern "C"` surface, driven by the JavaScript
//! wrapper in `bindings/js/lib/chunkhash.mjs`. It converts arguments and
//! errors and calls the library; it holds no hashing logic.
//!
//! Why not wasm-bindgen: the wrapper needs a dozen functions taking integers,
//! and its one real job, moving bytes in and out of linear memory with as
//! few crossings as possible (one per call, one per batch), is easier to
//! control by hand. Without the generated glue the package has no build
//! tool beyond cargo and no version pairing between a CLI and a crate.
//!
//! # Protocol
//!
//! - Inputs: the wrapper asks for a staging area of at least `n` bytes
//!   ([`chunkhash_staging`], which returns its address; it only grows), writes
//!   the input there, and passes lengths. When a call takes several inputs
//!   (a key and a message, a block and a trailer), they lie one after another
//!   from offset 0 in the order of the parameters; a batch's offsets table
//!   lies where its `table_at` says.
//! - The output area grows only as far as a call's output: the wrapper asks
//!   for its address again only after an output longer than any before.
//! - Outputs go to the output area ([`chunkhash_output`]); it starts at 128
//!   bytes, enough for any digest or trailer, and grows (moves) only for
//!   extended BLAKE3 output and batches longer than it.
//! - Results: a non-negative `i32` (a length, an id or a handle) or one of
//!   the negative codes below; the message of the last error is at
//!   [`chunkhash_message`], [`chunkhash_message_len`] bytes of UTF-8.
//! - BLAKE3 modes: 0 hash, 1 keyed hash (the 32-byte key staged first),
//!   2 key derivation (the UTF-8 context staged first).
//!
//! Nothing here panics on any argument: lengths are checked against the
//! staging area, handles against the table, and allocations use
//! `try_reserve`, so a bad call returns a code and leaves the module usable.

mod bao;
mod cdc;
mod state;

use chunkhash::blake3::{self, Batch, KEY_LEN};
use chunkhash::trailer::{self, TrailerError};
use chunkhash::{Algorithm, StreamingHasher};

use state::{output_area, staged, with_state, Session, State};

/// An id or a name that names no algorithm.
pub const ERROR_UNKNOWN_ALGORITHM: i32 = -1;
/// An algorithm this build lacks (never: the package builds every family).
pub const ERROR_UNAVAILABLE_ALGORITHM: i32 = -2;
/// A length, mode or option that does not fit the call.
pub const ERROR_INVALID_ARGUMENT: i32 = -3;
/// The module could not grow its memory.
pub const ERROR_OUT_OF_MEMORY: i32 = -4;
/// A hasher handle that is not alive (freed, or never made).
pub const ERROR_INVALID_HANDLE: i32 = -5;
/// A trailer that does not match its block and context.
pub const ERROR_TRAILER_MISMATCH: i32 = -10;
/// A trailer shorter than its algorithm's layout, or empty.
pub const ERROR_TRAILER_TRUNCATED: i32 = -11;
/// A trailer longer than its algorithm's layout.
pub const ERROR_TRAILER_TOO_LONG: i32 = -12;
/// A trailer whose first byte names no algorithm.
pub const ERROR_TRAILER_UNKNOWN_ALGORITHM: i32 = -13;

/// Messages per slice of a BLAKE3-160 batch (its buffer: 32 KiB of the
/// main module's 960 KiB stack).
const ADDRESS_SLICE: usize = 1024;

/// Messages per slice of a batch of any other algorithm (its `Digest`s:
/// 17 KiB of stack), enough that the library's lanes rarely idle.
const DIGEST_SLICE: usize = 256;

const MODE_HASH: u32 = 0;
const MODE_KEYED: u32 = 1;
const MODE_DERIVE_KEY: u32 = 2;

/// A failed call: the code returned to JavaScript and the message kept for it.
#[derive(Debug)]
pub(crate) struct Error {
    code: i32,
    message: String,
}

impl Error {
    fn new(code: i32, message: impl ToString) -> Error {
        Error { code, message: message.to_string() }
    }

    pub(crate) fn invalid_argument(message: impl ToString) -> Error {
        Error::new(ERROR_INVALID_ARGUMENT, message)
    }

    pub(crate) fn out_of_memory() -> Error {
        Error::new(ERROR_OUT_OF_MEMORY, "out of WebAssembly memory")
    }

    pub(crate) fn invalid_handle(handle: u32) -> Error {
        Error::new(ERROR_INVALID_HANDLE, format!("hasher handle {handle} is not alive"))
    }
}

/// Runs one export: its value on success, else the error's code, with its
/// message kept for [`chunkhash_message`].
fn run(f: impl FnOnce(&mut State) -> Result<i32, Error>) -> i32 {
    with_state(|state| match f(state) {
        Ok(value) => value,
        Err(error) => {
            state.message = error.message;
            error.code
        }
    })
}

fn algorithm(id: u32) -> Result<Algorithm, Error> {
    u8::try_from(id)
        .ok()
        .and_then(|id| Algorithm::from_id(id).ok())
        .ok_or_else(|| Error::new(ERROR_UNKNOWN_ALGORITHM, format!("unknown algorithm id {id}")))
}

fn len_i32(len: usize) -> Result<i32, Error> {
    i32::try_from(len).map_err(|_| Error::invalid_argument(format!("an output of {len} bytes is too long")))
}

/// The BLAKE3 mode and its parameter (key or context), staged at offset 0.
enum Mode<'a> {
    Hash,
    Keyed(&'a [u8; KEY_LEN]),
    DeriveKey(&'a str),
}

impl<'a> Mode<'a> {
    fn parse(mode: u32, param: &'a [u8]) -> Result<Mode<'a>, Error> {
        match mode {
            MODE_HASH if param.is_empty() => Ok(Mode::Hash),
            MODE_KEYED => param
                .try_into()
                .map(Mode::Keyed)
                .map_err(|_| Error::invalid_argument(format!("a BLAKE3 key is {KEY_LEN} bytes, not {}", param.len()))),
            MODE_DERIVE_KEY => core::str::from_utf8(param)
                .map(Mode::DeriveKey)
                .map_err(|_| Error::invalid_argument("the key-derivation context is not UTF-8")),
            _ => Err(Error::invalid_argument(format!("BLAKE3 mode {mode} with {} parameter bytes", param.len()))),
        }
    }

    /// The mode for a registry algorithm: only BLAKE3 has modes.
    fn for_algorithm(algorithm: Algorithm, mode: u32, param: &'a [u8]) -> Result<Mode<'a>, Error> {
        let parsed = Mode::parse(mode, param)?;
        if algorithm != Algorithm::Blake3 && !matches!(parsed, Mode::Hash) {
            return Err(Error::invalid_argument(format!("{algorithm} has no key or key-derivation mode")));
        }
        Ok(parsed)
    }

    fn hasher(&self) -> blake3::Hasher {
        match *self {
            Mode::Hash => blake3::Hasher::new(),
            Mode::Keyed(key) => blake3::Hasher::new_keyed(key),
            Mode::DeriveKey(context) => blake3::Hasher::new_derive_key(context),
        }
    }

    fn batch(&self) -> Batch {
        match *self {
            Mode::Hash => Batch::new(),
            Mode::Keyed(key) => Batch::new_keyed(key),
            Mode::DeriveKey(context) => Batch::new_derive_key(context),
        }
    }
}

/// Turns on the SIMD128 kernels imported from the SIMD128 module. The
/// loader calls it, before any other call, when it instantiated this module
/// with that one's exports (not the stubs it gives where SIMD128 is
/// missing) and checked that its data and stack lie in the gap the build
/// leaves between this module's stack and its data.
#[cfg(target_arch = "wasm32")]
#[unsafe(no_mangle)] // SAFETY: no other symbol of this module has this name.
pub extern "C" fn chunkhash_simd128_link() {
    // SAFETY: `link`'s contract, met by the loader (lib/chunkhash.mjs) as
    // said above; the build (scripts/build.mjs) links the SIMD128 module
    // from the same source, its data and stack inside that gap, and checks
    // both modules' layouts.
    unsafe { chunkhash::link_simd128_module() }
}

/// Makes the staging area at least `len` bytes long and returns its address
/// (null if memory could not grow). The address changes only here.
#[unsafe(no_mangle)] // SAFETY: no other symbol of this module has this name.
pub extern "C" fn chunkhash_staging(len: usize) -> *mut u8 {
    with_state(|state| match state.grow_staging(len) {
        Ok(()) => state.staging.as_mut_ptr(),
        Err(error) => {
            state.message = error.message;
            core::ptr::null_mut()
        }
    })
}

/// The address of the output area; it changes only when a call's output
/// is longer than every output before.
#[unsafe(no_mangle)] // SAFETY: no other symbol of this module has this name.
pub extern "C" fn chunkhash_output() -> *const u8 {
    with_state(|state| state.output.as_ptr())
}

/// The address of the last error's message.
#[unsafe(no_mangle)] // SAFETY: no other symbol of this module has this name.
pub extern "C" fn chunkhash_message() -> *const u8 {
    with_state(|state| state.message.as_ptr())
}

/// The length in bytes of the last error's message.
#[unsafe(no_mangle)] // SAFETY: no other symbol of this module has this name.
pub extern "C" fn chunkhash_message_len() -> usize {
    with_state(|state| state.message.len())
}

/// How many algorithms the registry has; their ids are 1 to this.
#[unsafe(no_mangle)] // SAFETY: no other symbol of this module has this name.
pub extern "C" fn chunkhash_algorithm_count() -> u32 {
    Algorithm::all().len() as u32
}

/// Writes the canonical name of algorithm `id` to the output area and
/// returns `name length | digest length << 8 | cryptographic << 16`.
#[unsafe(no_mangle)] // SAFETY: no other symbol of this module has this name.
pub extern "C" fn chunkhash_algorithm_describe(id: u32) -> i32 {
    run(|state| {
        let algorithm = algorithm(id)?;
        let name = algorithm.name().as_bytes();
        state.output(name.len())?.copy_from_slice(name);
        let cryptographic = i32::from(algorithm.is_cryptographic());
        Ok(name.len() as i32 | (algorithm.digest_len() as i32) << 8 | cryptographic << 16)
    })
}

/// Parses the `name_len` staged bytes as an algorithm name or alias
/// (`Algorithm::from_str`: any case, `_` for `-`) and returns its id. The
/// wrapper words the error itself: the library's message quotes the name
/// with `{:?}`, whose escaping tables would add 3 kB to the module.
#[unsafe(no_mangle)] // SAFETY: no other symbol of this module has this name.
pub extern "C" fn chunkhash_algorithm_parse(name_len: usize) -> i32 {
    run(|state| {
        let name = core::str::from_utf8(state.staged(0, name_len)?)
            .map_err(|_| Error::invalid_argument("the algorithm name is not UTF-8"))?;
        let algorithm: Algorithm = name.parse().map_err(|_| Error::new(ERROR_UNKNOWN_ALGORITHM, ""))?;
        Ok(i32::from(algorithm.id()))
    })
}

/// Writes the name of the BLAKE3 backend this build runs (`wasm32simd` or
/// `portable`) to the output area and returns its length.
#[unsafe(no_mangle)] // SAFETY: no other symbol of this module has this name.
pub extern "C" fn chunkhash_backend() -> i32 {
    run(|state| {
        let name = blake3::Backend::detect().name().as_bytes();
        state.output(name.len())?.copy_from_slice(name);
        Ok(name.len() as i32)
    })
}

/// Writes the name of the multi-buffer kernel `hashMany` runs MD5, SHA-1
/// and SHA-256 on (`simd128`: four messages side by side, or `portable`)
/// to the output area and returns its length.
#[unsafe(no_mangle)] // SAFETY: no other symbol of this module has this name.
pub extern "C" fn chunkhash_multi_buffer_kernel() -> i32 {
    run(|state| {
        // Without SHA-2 and the compatibility family there are no lanes.
        #[cfg(any(feature = "sha2", feature = "compat"))]
        let name = chunkhash::multi_buffer::MbKernel::detect().name().as_bytes();
        #[cfg(not(any(feature = "sha2", feature = "compat")))]
        let name = b"portable";
        state.output(name.len())?.copy_from_slice(name);
        Ok(name.len() as i32)
    })
}

/// Hashes the `len` staged bytes with algorithm `id` into the output area
/// and returns the digest length.
#[unsafe(no_mangle)] // SAFETY: no other symbol of this module has this name.
pub extern "C" fn chunkhash_digest(id: u32, len: usize) -> i32 {
    run(|state| {
        let algorithm = algorithm(id)?;
        let State { staging, output, .. } = state;
        let digest = chunkhash::try_digest(algorithm, staged(staging, 0, len)?)
            .map_err(|error| Error::new(ERROR_UNAVAILABLE_ALGORITHM, error))?;
        output[..digest.len()].copy_from_slice(digest.as_bytes());
        Ok(digest.len() as i32)
    })
}

/// BLAKE3 in `mode` of the `len` bytes staged after the `param_len` bytes of
/// the mode's parameter, `out_len` bytes of output (extended beyond 32).
#[unsafe(no_mangle)] // SAFETY: no other symbol of this module has this name.
pub extern "C" fn chunkhash_blake3(mode: u32, param_len: usize, len: usize, out_len: usize) -> i32 {
    run(|state| {
        let State { staging, output, .. } = state;
        let mode = Mode::parse(mode, staged(staging, 0, param_len)?)?;
        let input = staged(staging, param_len, len)?;
        let out = output_area(output, out_len)?;
        match (&mode, <&mut [u8; blake3::OUT_LEN]>::try_from(&mut *out)) {
            (Mode::Hash, Ok(out)) => *out = blake3::hash(input).into(),
            (Mode::Keyed(key), Ok(out)) => *out = blake3::keyed_hash(key, input).into(),
            (Mode::DeriveKey(context), Ok(out)) => *out = blake3::derive_key(context, input),
            (_, Err(_)) => mode.hasher().update(input).finalize_xof().fill(out),
        }
        len_i32(out_len)
    })
}

/// Hashes `count` messages in one call. Staged: the mode's parameter
/// (`param_len` bytes; BLAKE3 only), then the messages back to back (`len`
/// bytes in all), and at `table_at` their `count + 1` offsets as
/// little-endian `u32`, Arrow's layout: message `i` runs from offset `i` to
/// offset `i + 1`, counted from the first offset (which need not be 0, so a
/// column's offsets are copied as they stand). The wrapper writes the table
/// after the messages, so it copies each message and notes where it ends in
/// one pass. The output area receives `count` digests back to back; returns
/// the digest length.
#[unsafe(no_mangle)] // SAFETY: no other symbol of this module has this name.
pub extern "C" fn chunkhash_hash_many(
    id: u32,
    mode: u32,
    param_len: usize,
    count: usize,
    len: usize,
    table_at: usize,
) -> i32 {
    run(|state| {
        let algorithm = algorithm(id)?;
        let State { staging, output, .. } = state;
        let mode = Mode::for_algorithm(algorithm, mode, staged(staging, 0, param_len)?)?;
        let data = staged(staging, param_len, len)?;
        let table_len = count
            .checked_add(1)
            .and_then(|entries| entries.checked_mul(4))
            .ok_or_else(|| Error::invalid_argument("too many messages"))?;
        let offsets = message_offsets(staged(staging, table_at, table_len)?, len)?;
        let digest_len = algorithm.digest_len();
        let out_len = count.checked_mul(digest_len).ok_or_else(Error::out_of_memory)?;
        let out = output_area(output, out_len)?;
        let offsets_error = |error| Error::invalid_argument(format!("message offsets: {error}"));
        match algorithm {
            Algorithm::Blake3 => {
                mode.batch()
                    .hash_offsets(data, &offsets, out.as_chunks_mut::<{ blake3::OUT_LEN }>().0)
                    .map_err(offsets_error)?;
            }
            Algorithm::Blake3_160 => {
                // The same batch as BLAKE3's, with whole outputs (a second
                // instantiation for 20-byte ones would add 12 kB to the
                // module), a slice of messages at a time through a buffer:
                // the output area must grow only to this call's output,
                // as the wrapper knows where it is by that rule.
                let mut whole = [[0u8; blake3::OUT_LEN]; ADDRESS_SLICE];
                for (slice, out) in out.chunks_mut(ADDRESS_SLICE * digest_len).enumerate() {
                    let first = slice * ADDRESS_SLICE;
                    let whole = &mut whole[..out.len() / digest_len];
                    let offsets = &offsets[first..=first + whole.len()];
                    mode.batch().hash_offsets(data, offsets, whole).map_err(offsets_error)?;
                    for (address, hash) in out.chunks_exact_mut(digest_len).zip(whole.iter()) {
                        address.copy_from_slice(&hash[..digest_len]);
                    }
                }
            }
            _ => {
                // Every other algorithm through the library's batch call
                // for any algorithm (one dispatch per call, SHA-256 in
                // multi-buffer lanes), a slice of digests at a time.
                let mut digests = [chunkhash::try_digest(algorithm, b"")
                    .map_err(|error| Error::new(ERROR_UNAVAILABLE_ALGORITHM, error))?;
                    DIGEST_SLICE];
                for (slice, out) in out.chunks_mut(DIGEST_SLICE * digest_len).enumerate() {
                    let first = slice * DIGEST_SLICE;
                    let digests = &mut digests[..out.len() / digest_len];
                    let offsets = &offsets[first..=first + digests.len()];
                    chunkhash::digest_offsets(algorithm, data, offsets, digests).map_err(offsets_error)?;
                    for (out, digest) in out.chunks_exact_mut(digest_len).zip(digests.iter()) {
                        out.copy_from_slice(digest.as_bytes());
                    }
                }
            }
        }
        Ok(digest_len as i32)
    })
}

/// The staged offsets table of `chunkhash_hash_many`, each offset made
/// relative to the first; they must not decrease and must end at `len`.
fn message_offsets(table: &[u8], len: usize) -> Result<Vec<i32>, Error> {
    let entries = table.as_chunks::<4>().0;
    let first = entries.first().map_or(0, |entry| u32::from_le_bytes(*entry));
    let mut offsets = Vec::new();
    offsets.try_reserve_exact(entries.len()).map_err(|_| Error::out_of_memory())?;
    let mut previous = 0;
    for (i, entry) in entries.iter().enumerate() {
        let offset = u32::from_le_bytes(*entry).wrapping_sub(first) as usize;
        if offset < previous {
            return Err(Error::invalid_argument(format!("message offset {i} is below the one before it")));
        }
        if offset > len {
            return Err(Error::invalid_argument(format!("message lengths add up to more than the {len} bytes staged")));
        }
        previous = offset;
        // At most `len`, the length of a slice of the staging area: below 2^31 in 32-bit memory.
        offsets.push(i32::try_from(offset).map_err(|_| Error::invalid_argument("the messages exceed 2 GiB"))?);
    }
    if previous != len {
        return Err(Error::invalid_argument(format!("{} staged bytes belong to no message", len - previous)));
    }
    Ok(offsets)
}

/// A new hasher for algorithm `id` (BLAKE3 in `mode`, its parameter staged)
/// and its handle.
#[unsafe(no_mangle)] // SAFETY: no other symbol of this module has this name.
pub extern "C" fn chunkhash_hasher_new(id: u32, mode: u32, param_len: usize) -> i32 {
    run(|state| {
        let algorithm = algorithm(id)?;
        let mode = Mode::for_algorithm(algorithm, mode, state.staged(0, param_len)?)?;
        let session = if algorithm == Algorithm::Blake3 {
            Session::Blake3(mode.hasher())
        } else {
            StreamingHasher::try_new(algorithm)
                .map(Session::Registry)
                .map_err(|error| Error::new(ERROR_UNAVAILABLE_ALGORITHM, error))?
        };
        state.sessions.insert(session)
    })
}

/// Adds the `len` staged bytes to a hasher.
#[unsafe(no_mangle)] // SAFETY: no other symbol of this module has this name.
pub extern "C" fn chunkhash_hasher_update(handle: u32, len: usize) -> i32 {
    run(|state| {
        let State { staging, sessions, .. } = state;
        let input = staged(staging, 0, len)?;
        match sessions.get(handle)? {
            Session::Blake3(hasher) => {
                hasher.update(input);
            }
            Session::Registry(hasher) => {
                hasher.update(input);
            }
        }
        Ok(0)
    })
}

/// Writes `out_len` bytes of a hasher's output, from byte position
/// `position_high * 2^32 + position_low`, to the output area (the hasher is
/// unchanged). Only BLAKE3 has extended output; other algorithms take
/// position 0 and their digest length. (Two `u32` halves rather than a
/// `u64`, which JavaScript would have to pass as a BigInt on every digest.)
#[unsafe(no_mangle)] // SAFETY: no other symbol of this module has this name.
pub extern "C" fn chunkhash_hasher_finalize(handle: u32, position_low: u32, position_high: u32, out_len: usize) -> i32 {
    run(|state| {
        let State { output, sessions, .. } = state;
        let position = u64::from(position_high) << 32 | u64::from(position_low);
        match sessions.get(handle)? {
            Session::Blake3(hasher) => {
                let mut reader = hasher.finalize_xof();
                reader.set_position(position);
                reader.fill(output_area(output, out_len)?);
            }
            Session::Registry(hasher) => {
                let digest = hasher.finalize();
                if position != 0 || out_len != digest.len() {
                    return Err(Error::invalid_argument(format!(
                        "{} has no extended output: {} bytes from position 0 only",
                        digest.algorithm(),
                        digest.len()
                    )));
                }
                output_area(output, out_len)?.copy_from_slice(digest.as_bytes());
            }
        }
        len_i32(out_len)
    })
}

/// Forgets a hasher's input, keeping its algorithm and mode.
#[unsafe(no_mangle)] // SAFETY: no other symbol of this module has this name.
pub extern "C" fn chunkhash_hasher_reset(handle: u32) -> i32 {
    run(|state| {
        match state.sessions.get(handle)? {
            Session::Blake3(hasher) => {
                hasher.reset();
            }
            Session::Registry(hasher) => {
                hasher.reset();
            }
        }
        Ok(0)
    })
}

/// A copy of a hasher, with the same input so far, and the copy's handle.
#[unsafe(no_mangle)] // SAFETY: no other symbol of this module has this name.
pub extern "C" fn chunkhash_hasher_clone(handle: u32) -> i32 {
    run(|state| {
        let copy = state.sessions.get(handle)?.clone();
        state.sessions.insert(copy)
    })
}

/// Frees a hasher; its handle may be given to a later hasher.
#[unsafe(no_mangle)] // SAFETY: no other symbol of this module has this name.
pub extern "C" fn chunkhash_hasher_free(handle: u32) -> i32 {
    run(|state| state.sessions.remove(handle).map(|()| 0))
}

/// Hashers alive now: the memory tests check that it stays bounded.
#[unsafe(no_mangle)] // SAFETY: no other symbol of this module has this name.
pub extern "C" fn chunkhash_hasher_count() -> u32 {
    with_state(|state| state.sessions.live() as u32)
}

/// Seals the `len` staged bytes (a block) with algorithm `id` and
/// `context`; writes the trailer to the output area and returns its length.
#[unsafe(no_mangle)] // SAFETY: no other symbol of this module has this name.
pub extern "C" fn chunkhash_trailer_seal(id: u32, context: u64, len: usize) -> i32 {
    run(|state| {
        let algorithm = algorithm(id)?;
        let State { staging, output, .. } = state;
        let sealed = trailer::try_seal(staged(staging, 0, len)?, algorithm, context)
            .map_err(|error| Error::new(ERROR_UNAVAILABLE_ALGORITHM, error))?;
        output_area(output, sealed.len())?.copy_from_slice(sealed.as_bytes());
        Ok(sealed.len() as i32)
    })
}

/// Checks a trailer (staged after its `block_len`-byte block) against the
/// block and `context`; returns the id of the algorithm it names, or a
/// trailer error code with the library's message.
#[unsafe(no_mangle)] // SAFETY: no other symbol of this module has this name.
pub extern "C" fn chunkhash_trailer_verify(context: u64, block_len: usize, trailer_len: usize) -> i32 {
    run(|state| {
        let block = state.staged(0, block_len)?;
        let sealed = state.staged(block_len, trailer_len)?;
        match trailer::verify(block, sealed, context) {
            Ok(algorithm) => Ok(i32::from(algorithm.id())),
            Err(error) => {
                let code = match error {
                    TrailerError::Mismatch(_) => ERROR_TRAILER_MISMATCH,
                    TrailerError::Truncated { .. } => ERROR_TRAILER_TRUNCATED,
                    TrailerError::TooLong { .. } => ERROR_TRAILER_TOO_LONG,
                    TrailerError::UnknownAlgorithm(_) => ERROR_TRAILER_UNKNOWN_ALGORITHM,
                    _ => ERROR_UNAVAILABLE_ALGORITHM,
                };
                Err(Error::new(code, error))
            }
        }
    })
}

#[cfg(test)]
mod tests {
    //! The export surface on the host: each call through its staging and
    //! output areas, and every error path returning its code (no panic).
    //! The JavaScript tests cover the same calls through the wrapper.

    use super::*;
    use vectors::{golden, input_pattern, GoldenMode};

    /// Stages `parts` one after another from offset 0.
    pub(crate) fn stage(parts: &[&[u8]]) {
        let total = parts.iter().map(|p| p.len()).sum();
        assert!(!chunkhash_staging(total).is_null());
        with_state(|state| {
            let mut at = 0;
            for part in parts {
                state.staging[at..at + part.len()].copy_from_slice(part);
                at += part.len();
            }
        });
    }

    pub(crate) fn output(len: usize) -> Vec<u8> {
        with_state(|state| state.output[..len].to_vec())
    }

    fn message() -> String {
        with_state(|state| state.message.clone())
    }

    fn id(name: &str) -> u32 {
        u32::from(name.parse::<Algorithm>().unwrap().id())
    }

    #[test]
    fn every_golden_digest_through_digest_blake3_and_a_hasher() {
        let golden = golden();
        for row in &golden.digests {
            let input = input_pattern(row.input_len);
            let (mode, param): (u32, &[u8]) = match row.mode {
                GoldenMode::Hash => (MODE_HASH, &[]),
                GoldenMode::KeyedHash => (MODE_KEYED, &golden.key),
                GoldenMode::DeriveKey => (MODE_DERIVE_KEY, golden.context_string.as_bytes()),
            };
            let len = row.digest.len();
            if row.mode == GoldenMode::Hash {
                stage(&[&input]);
                assert_eq!(chunkhash_digest(id(&row.algorithm), input.len()), len as i32);
                assert_eq!(output(len), row.digest, "{} of {} bytes", row.algorithm, row.input_len);
            }
            if row.algorithm == "BLAKE3" {
                stage(&[param, &input]);
                assert_eq!(chunkhash_blake3(mode, param.len(), input.len(), len), len as i32);
                assert_eq!(output(len), row.digest);
            }
            stage(&[param]);
            let handle = chunkhash_hasher_new(id(&row.algorithm), mode, param.len());
            assert!(handle > 0, "{}", message());
            let (front, back) = input.split_at(input.len() / 2);
            for half in [front, back] {
                stage(&[half]);
                assert_eq!(chunkhash_hasher_update(handle as u32, half.len()), 0);
            }
            assert_eq!(chunkhash_hasher_finalize(handle as u32, 0, 0, len), len as i32);
            assert_eq!(output(len), row.digest, "{} {:?} hasher", row.algorithm, row.mode);
            assert_eq!(chunkhash_hasher_free(handle as u32), 0);
        }
    }

    #[test]
    fn hash_many_matches_one_at_a_time_for_every_algorithm() {
        let messages: Vec<Vec<u8>> = [0, 1, 64, 65, 1024, 1025, 5000, 3].iter().map(|&n| input_pattern(n)).collect();
        let data = messages.concat();
        // A column's offsets as they stand: the first is not 0.
        let mut offsets = vec![1000u32];
        for message in &messages {
            offsets.push(offsets.last().unwrap() + message.len() as u32);
        }
        let table: Vec<u8> = offsets.iter().flat_map(|offset| offset.to_le_bytes()).collect();
        for algorithm in Algorithm::all() {
            let len = algorithm.digest_len();
            stage(&[&data, &table]);
            let id = u32::from(algorithm.id());
            assert_eq!(chunkhash_hash_many(id, MODE_HASH, 0, messages.len(), data.len(), data.len()), len as i32);
            let many = output(messages.len() * len);
            for (i, message) in messages.iter().enumerate() {
                let one = chunkhash::digest(*algorithm, message);
                assert_eq!(&many[i * len..][..len], one.as_bytes(), "{algorithm} message {i}");
            }
        }
        let key = [7u8; KEY_LEN];
        stage(&[&key, &data, &table]);
        assert_eq!(chunkhash_hash_many(1, MODE_KEYED, KEY_LEN, messages.len(), data.len(), KEY_LEN + data.len()), 32);
        assert_eq!(output(32 * 3)[64..], *blake3::keyed_hash(&key, &messages[2]).as_bytes());
        stage(&[&[0; 4]]);
        assert_eq!(chunkhash_hash_many(1, MODE_HASH, 0, 0, 0, 0), 32, "no messages");
    }

    #[test]
    fn a_batch_grows_the_output_area_only_to_its_output() {
        // The wrapper finds the output area again only after a call whose
        // output is longer than any before: a batch that grew it further
        // (BLAKE3-160 once used 32 bytes a message) left it reading freed
        // memory. Several slices of BLAKE3-160's buffer, and a remainder.
        let messages: Vec<Vec<u8>> = (0..2 * ADDRESS_SLICE + 7).map(|i| input_pattern(i % 200)).collect();
        let data = messages.concat();
        let mut offsets = vec![0u32];
        for message in &messages {
            offsets.push(offsets.last().unwrap() + message.len() as u32);
        }
        let table: Vec<u8> = offsets.iter().flat_map(|offset| offset.to_le_bytes()).collect();
        for name in ["BLAKE3-160", "BLAKE3", "CRC32C", "SHA-256", "MD5"] {
            let algorithm: Algorithm = name.parse().unwrap();
            let len = algorithm.digest_len();
            let before = with_state(|state| state.output.len());
            stage(&[&data, &table]);
            let id = u32::from(algorithm.id());
            assert_eq!(chunkhash_hash_many(id, MODE_HASH, 0, messages.len(), data.len(), data.len()), len as i32);
            let after = with_state(|state| state.output.len());
            assert_eq!(after, before.max(messages.len() * len), "{name}: the output area grew past the output");
            let many = output(messages.len() * len);
            for (i, message) in messages.iter().enumerate() {
                assert_eq!(
                    &many[i * len..][..len],
                    chunkhash::digest(algorithm, message).as_bytes(),
                    "{name} message {i}"
                );
            }
        }
    }

    #[test]
    fn bad_lengths_and_layouts_are_errors() {
        stage(&[b"abc"]);
        let past_end = with_state(|state| state.staging.len()) + 1;
        assert_eq!(chunkhash_digest(1, past_end), ERROR_INVALID_ARGUMENT);
        assert!(message().contains("outside the staging area"), "{}", message());
        assert_eq!(chunkhash_digest(1, usize::MAX), ERROR_INVALID_ARGUMENT);
        assert_eq!(chunkhash_blake3(MODE_HASH, usize::MAX, 1, 32), ERROR_INVALID_ARGUMENT);
        // Offsets that add up to more, or to less, than the data staged, or decrease.
        let table = |offsets: &[u32]| offsets.iter().flat_map(|offset| offset.to_le_bytes()).collect::<Vec<u8>>();
        stage(&[b"abcd", &table(&[7, 12])]);
        assert_eq!(chunkhash_hash_many(1, MODE_HASH, 0, 1, 4, 4), ERROR_INVALID_ARGUMENT);
        assert!(message().contains("add up to more"), "{}", message());
        stage(&[b"abcd", &table(&[7, 10])]);
        assert_eq!(chunkhash_hash_many(1, MODE_HASH, 0, 1, 4, 4), ERROR_INVALID_ARGUMENT);
        assert!(message().contains("belong to no message"), "{}", message());
        stage(&[b"abcd", &table(&[0, 3, 1, 4])]);
        assert_eq!(chunkhash_hash_many(1, MODE_HASH, 0, 3, 4, 4), ERROR_INVALID_ARGUMENT);
        assert!(message().contains("offset 2 is below"), "{}", message());
        stage(&[b"abcd", &table(&[5, 4])]);
        assert_eq!(chunkhash_hash_many(2, MODE_HASH, 0, 1, 4, 4), ERROR_INVALID_ARGUMENT, "below the first");
        let staging_len = with_state(|state| state.staging.len());
        assert_eq!(
            chunkhash_hash_many(1, MODE_HASH, 0, 1, 4, staging_len - 4),
            ERROR_INVALID_ARGUMENT,
            "table past the end"
        );
        assert!(message().contains("outside the staging area"), "{}", message());
        assert_eq!(chunkhash_hash_many(1, MODE_HASH, 0, usize::MAX / 2, 0, 0), ERROR_INVALID_ARGUMENT);
        assert_eq!(chunkhash_hash_many(1, MODE_HASH, 0, usize::MAX, 0, 0), ERROR_INVALID_ARGUMENT);
        assert_eq!(chunkhash_staging(usize::MAX), core::ptr::null_mut());
        assert_eq!(message(), "out of WebAssembly memory");
    }

    #[test]
    fn bad_algorithms_and_modes_are_errors() {
        stage(&[b"x"]);
        // 0 is reserved; the first id past the registry is unknown until an algorithm takes it.
        let unassigned = chunkhash::Algorithm::all().len() as u32 + 1;
        for id in [0, unassigned, 256, u32::MAX] {
            assert_eq!(chunkhash_digest(id, 1), ERROR_UNKNOWN_ALGORITHM, "id {id}");
            assert_eq!(chunkhash_algorithm_describe(id), ERROR_UNKNOWN_ALGORITHM);
            assert_eq!(chunkhash_hasher_new(id, MODE_HASH, 0), ERROR_UNKNOWN_ALGORITHM);
        }
        stage(&[b"sha_256"]);
        assert_eq!(chunkhash_algorithm_parse(7), 10);
        stage(&[b"sha-257"]);
        assert_eq!(chunkhash_algorithm_parse(7), ERROR_UNKNOWN_ALGORITHM);
        stage(&[&[0xff, 0xfe]]);
        assert_eq!(chunkhash_algorithm_parse(2), ERROR_INVALID_ARGUMENT);
        stage(&[&[1; 31]]);
        assert_eq!(chunkhash_blake3(MODE_KEYED, 31, 0, 32), ERROR_INVALID_ARGUMENT);
        assert_eq!(message(), "a BLAKE3 key is 32 bytes, not 31");
        stage(&[&[0xc3]]);
        assert_eq!(chunkhash_blake3(MODE_DERIVE_KEY, 1, 0, 32), ERROR_INVALID_ARGUMENT);
        assert_eq!(chunkhash_blake3(MODE_HASH, 1, 0, 32), ERROR_INVALID_ARGUMENT);
        assert_eq!(chunkhash_blake3(3, 0, 0, 32), ERROR_INVALID_ARGUMENT);
        stage(&[&[1; 32]]);
        assert_eq!(chunkhash_hasher_new(id("SHA-256"), MODE_KEYED, 32), ERROR_INVALID_ARGUMENT);
        assert_eq!(message(), "SHA-256 has no key or key-derivation mode");
        assert_eq!(chunkhash_hash_many(id("BLAKE3-160"), MODE_KEYED, 32, 0, 0, 32), ERROR_INVALID_ARGUMENT);
    }

    #[test]
    fn hasher_handles_are_checked_and_reused() {
        for handle in [0, 1 << 20, u32::MAX] {
            assert_eq!(chunkhash_hasher_update(handle, 0), ERROR_INVALID_HANDLE);
            assert_eq!(chunkhash_hasher_finalize(handle, 0, 0, 32), ERROR_INVALID_HANDLE);
            assert_eq!(chunkhash_hasher_reset(handle), ERROR_INVALID_HANDLE);
            assert_eq!(chunkhash_hasher_clone(handle), ERROR_INVALID_HANDLE);
            assert_eq!(chunkhash_hasher_free(handle), ERROR_INVALID_HANDLE);
        }
        let handle = chunkhash_hasher_new(id("XXH3-64"), MODE_HASH, 0) as u32;
        stage(&[b"abc"]);
        assert_eq!(chunkhash_hasher_update(handle, 3), 0);
        let copy = chunkhash_hasher_clone(handle) as u32;
        assert_ne!(copy, handle);
        assert_eq!(chunkhash_hasher_reset(handle), 0);
        assert_eq!(chunkhash_hasher_finalize(copy, 0, 0, 8), 8);
        assert_eq!(output(8), chunkhash::digest(Algorithm::Xxh3_64, b"abc").as_bytes());
        assert_eq!(chunkhash_hasher_finalize(handle, 0, 0, 8), 8);
        assert_eq!(output(8), chunkhash::digest(Algorithm::Xxh3_64, b"").as_bytes());
        // No extended output but BLAKE3's.
        assert_eq!(chunkhash_hasher_finalize(handle, 1, 0, 8), ERROR_INVALID_ARGUMENT);
        assert_eq!(chunkhash_hasher_finalize(handle, 0, 0, 9), ERROR_INVALID_ARGUMENT);
        assert_eq!(chunkhash_hasher_free(handle), 0);
        assert_eq!(chunkhash_hasher_free(handle), ERROR_INVALID_HANDLE);
        // The freed slot is the next one given out.
        let again = chunkhash_hasher_new(id("CRC32C"), MODE_HASH, 0) as u32;
        assert_eq!(again, handle);
        assert_eq!(chunkhash_hasher_free(again), 0);
        assert_eq!(chunkhash_hasher_free(copy), 0);
    }

    #[test]
    fn blake3_extended_output_from_any_position() {
        let handle = chunkhash_hasher_new(1, MODE_HASH, 0) as u32;
        stage(&[b"abc"]);
        chunkhash_hasher_update(handle, 3);
        let mut expected = [0u8; 100];
        let mut reader = blake3::Hasher::new().update(b"abc").finalize_xof();
        reader.fill(&mut expected);
        assert_eq!(chunkhash_hasher_finalize(handle, 0, 0, 100), 100);
        assert_eq!(output(100), expected);
        assert_eq!(chunkhash_hasher_finalize(handle, 37, 0, 63), 63);
        assert_eq!(output(63), expected[37..]);
        // Position 2^32 + 5: the high half counts.
        reader.set_position((1 << 32) + 5);
        reader.fill(&mut expected[..10]);
        assert_eq!(chunkhash_hasher_finalize(handle, 5, 1, 10), 10);
        assert_eq!(output(10), expected[..10]);
        chunkhash_hasher_free(handle);
    }

    #[test]
    fn trailers_seal_verify_and_every_failure_code() {
        stage(&[b"block"]);
        assert_eq!(chunkhash_trailer_seal(id("CRC32C"), u64::MAX, 5), 5);
        let sealed = output(5);
        stage(&[b"block", &sealed]);
        assert_eq!(chunkhash_trailer_verify(u64::MAX, 5, 5), i32::from(Algorithm::Crc32c.id()));
        assert_eq!(chunkhash_trailer_verify(0, 5, 5), ERROR_TRAILER_MISMATCH);
        assert!(message().contains("CRC32C checksum mismatch"), "{}", message());
        assert_eq!(chunkhash_trailer_verify(u64::MAX, 5, 4), ERROR_TRAILER_TRUNCATED);
        assert_eq!(chunkhash_trailer_verify(u64::MAX, 5, 0), ERROR_TRAILER_TRUNCATED);
        stage(&[b"block", &sealed, b"!"]);
        assert_eq!(chunkhash_trailer_verify(u64::MAX, 5, 6), ERROR_TRAILER_TOO_LONG);
        stage(&[b"block", &[0, 1, 2, 3, 4]]);
        assert_eq!(chunkhash_trailer_verify(u64::MAX, 5, 5), ERROR_TRAILER_UNKNOWN_ALGORITHM);
    }

    #[test]
    fn the_registry_is_described_in_full() {
        assert_eq!(chunkhash_algorithm_count() as usize, Algorithm::all().len());
        for algorithm in Algorithm::all() {
            let packed = chunkhash_algorithm_describe(u32::from(algorithm.id()));
            let name_len = (packed & 0xff) as usize;
            assert_eq!(output(name_len), algorithm.name().as_bytes());
            assert_eq!((packed >> 8 & 0xff) as usize, algorithm.digest_len());
            assert_eq!(packed >> 16 == 1, algorithm.is_cryptographic());
        }
    }
}
