//! Bao verified streaming: outboards, combined encodings and slices of a
//! message, and the verifying decoder that hands out only bytes proven to
//! belong to a root hash; see the `chunkhash::blake3::bao` docs for the
//! formats (`bao`'s, and `bao-tree`'s chunk groups and post-order).

use crate::chunkhash_status::*;
use crate::{guard, object_ref, CStrArg, Input, OutParam, Output, Result};
use chunkhash::blake3::bao::{self, BaoError, Mode, Order, Tree};
use chunkhash::blake3::Hash;
use core::ffi::c_char;
use core::ops::Range;

// Literals, which cbindgen writes to the header; a test checks them
// against the library's.
/// Bytes of the length header that starts `bao`'s outboards, encodings and
/// slices (the message's length, little-endian).
pub const CHUNKHASH_BAO_HEADER_LEN: usize = 8;
/// The largest chunk group log: groups of 2^16 chunks (64 MiB).
pub const CHUNKHASH_BAO_MAX_GROUP_LOG: u32 = 16;
/// Parent nodes before their subtrees: `bao`'s outboard order.
pub const CHUNKHASH_BAO_ORDER_PRE: u32 = 0;
/// Parent nodes after their subtrees: `bao-tree`'s post-order outboard.
pub const CHUNKHASH_BAO_ORDER_POST: u32 = 1;

/// The tree one message's Bao data shares: its mode (plain hash, keyed
/// hash or key derivation) and its chunk group size (2^`group_log` chunks
/// of 1024 bytes; 0 is `bao`'s format). Made by `chunkhash_bao_tree_new`
/// (or `_new_keyed`, `_new_derive_key`), released by
/// `chunkhash_bao_tree_free`. Never changed after it is made, so any number
/// of threads may use one at the same time.
#[derive(Debug)]
pub struct chunkhash_bao_tree {
    tree: Tree,
}

impl From<BaoError> for crate::chunkhash_status {
    fn from(error: BaoError) -> Self {
        match error {
            BaoError::Mismatch { .. } => CHUNKHASH_BAO_MISMATCH,
            BaoError::OutboardLength { .. } => CHUNKHASH_BAO_OUTBOARD_LENGTH,
            BaoError::EncodingLength { .. } => CHUNKHASH_BAO_ENCODING_LENGTH,
            BaoError::GroupLog { .. } => CHUNKHASH_BAO_INVALID_GROUP_LOG,
            BaoError::Truncated { .. } => CHUNKHASH_BAO_TRUNCATED,
            BaoError::Extended { .. } => CHUNKHASH_BAO_TRAILING_BYTES,
            // ItemLength and Failed come from feeding a decoder by hand,
            // which this binding never does; the enum is non-exhaustive.
            _ => CHUNKHASH_PANIC,
        }
    }
}

/// Stores a new tree in `*tree`.
///
/// # Safety
///
/// `tree` must be NULL (an error) or writable.
unsafe fn new_tree(
    tree: *mut *mut chunkhash_bao_tree,
    group_log: u32,
    mode: impl FnOnce() -> Result<Mode>,
) -> Result<()> {
    // SAFETY: the caller promised `tree` is writable.
    let out = unsafe { OutParam::new(tree) }?;
    let mode = mode()?;
    let group_log = u8::try_from(group_log).map_err(|_| CHUNKHASH_BAO_INVALID_GROUP_LOG)?;
    out.set(crate::new_object(chunkhash_bao_tree { tree: Tree::new(mode, group_log)? }));
    Ok(())
}

/// Makes the tree of the plain hash (`chunkhash_blake3_hash` is its root
/// hash: the format of `bao` and `bao-tree`) with groups of 2^`group_log`
/// chunks, and stores it in `*tree`. Release it with
/// `chunkhash_bao_tree_free`.
///
/// Returns `CHUNKHASH_NULL_POINTER` or `CHUNKHASH_BAO_INVALID_GROUP_LOG`
/// (above `CHUNKHASH_BAO_MAX_GROUP_LOG`).
///
/// # Safety
///
/// `tree` must be writable.
#[no_mangle]
pub unsafe extern "C" fn chunkhash_bao_tree_new(
    group_log: u32,
    tree: *mut *mut chunkhash_bao_tree,
) -> crate::chunkhash_status {
    // SAFETY: the caller promised `tree` is writable.
    guard(|| unsafe { new_tree(tree, group_log, || Ok(Mode::hash())) })
}

/// Makes the tree of the keyed hash under a 32-byte key (its root hash is
/// `chunkhash_blake3_keyed_hash`; nodes can be neither checked nor forged
/// without the key) and stores it in `*tree`.
///
/// Returns `CHUNKHASH_NULL_POINTER`, `CHUNKHASH_INVALID_LENGTH` (`key_len`
/// not `CHUNKHASH_BLAKE3_KEY_LEN`) or `CHUNKHASH_BAO_INVALID_GROUP_LOG`.
///
/// # Safety
///
/// `key` must be readable for `key_len` bytes and `tree` writable.
#[no_mangle]
pub unsafe extern "C" fn chunkhash_bao_tree_new_keyed(
    key: *const u8,
    key_len: usize,
    group_log: u32,
    tree: *mut *mut chunkhash_bao_tree,
) -> crate::chunkhash_status {
    guard(|| {
        // SAFETY: the caller promised `key` is readable for `key_len` bytes.
        let key = unsafe { crate::blake3::key(key, key_len) }?;
        // SAFETY: the caller promised `tree` is writable.
        unsafe { new_tree(tree, group_log, || Ok(Mode::keyed(&key))) }
    })
}

/// Makes the tree of key derivation under `context` (the message is the key
/// material; the root hash is `chunkhash_blake3_derive_key`) and stores it
/// in `*tree`.
///
/// Returns `CHUNKHASH_NULL_POINTER`, `CHUNKHASH_INVALID_UTF8` or
/// `CHUNKHASH_BAO_INVALID_GROUP_LOG`.
///
/// # Safety
///
/// `context` must be a NUL-terminated string and `tree` writable.
#[no_mangle]
pub unsafe extern "C" fn chunkhash_bao_tree_new_derive_key(
    context: *const c_char,
    group_log: u32,
    tree: *mut *mut chunkhash_bao_tree,
) -> crate::chunkhash_status {
    guard(|| {
        // SAFETY: the caller promised a NUL-terminated string.
        let context = unsafe { CStrArg::new(context) }?;
        // SAFETY: the caller promised `tree` is writable.
        unsafe { new_tree(tree, group_log, || Ok(Mode::derive_key(context.to_str()?))) }
    })
}

/// Releases a tree; NULL does nothing.
///
/// # Safety
///
/// `tree` must be NULL or come from a `chunkhash_bao_tree_new` function and
/// not be freed already.
#[no_mangle]
pub unsafe extern "C" fn chunkhash_bao_tree_free(tree: *mut chunkhash_bao_tree) {
    // SAFETY: the caller promised `tree` came from `new_object` and is freed once.
    unsafe { crate::free_object(tree) }
}

fn order(order: u32) -> Result<Order> {
    match order {
        CHUNKHASH_BAO_ORDER_PRE => Ok(Order::Pre),
        CHUNKHASH_BAO_ORDER_POST => Ok(Order::Post),
        _ => Err(CHUNKHASH_BAO_UNKNOWN_ORDER),
    }
}

/// The byte range `start .. start + count`, capped at 2^64 - 1.
#[allow(clippy::single_range_in_vec_init)] // a list of one range, as meant
fn range(start: u64, count: u64) -> [Range<u64>; 1] {
    [start..start.saturating_add(count)]
}

/// `CHUNKHASH_INVALID_LENGTH` unless `len` fits a `size_t` buffer.
fn buffer_len(len: u64) -> Result<usize> {
    usize::try_from(len).ok().filter(|len| *len <= isize::MAX as usize).ok_or(CHUNKHASH_INVALID_LENGTH)
}

/// Stores in `*size` the bytes of the outboard of a `len`-byte message that
/// `chunkhash_bao_outboard` writes: the 8-byte length header and 64 bytes
/// per parent node (`bao-tree`'s outboard is the part after the header).
/// The order does not change the size.
///
/// Returns `CHUNKHASH_NULL_POINTER`.
///
/// # Safety
///
/// `tree` must come from a `chunkhash_bao_tree_new` function and not be
/// freed; `size` must be writable.
#[no_mangle]
pub unsafe extern "C" fn chunkhash_bao_outboard_size(
    tree: *const chunkhash_bao_tree,
    len: u64,
    size: *mut u64,
) -> crate::chunkhash_status {
    guard(|| {
        // SAFETY: the caller promised a live tree.
        let tree = unsafe { object_ref(tree) }?;
        // SAFETY: the caller promised `size` is writable.
        let size = unsafe { OutParam::new(size) }?;
        // At most 2^64 / 16 bytes of nodes: no overflow.
        size.set(bao::HEADER_LEN as u64 + tree.tree.outboard_len(len));
        Ok(())
    })
}

/// Stores in `*size` the bytes of the combined encoding of a `len`-byte
/// message (`chunkhash_bao_encode`): the header, the message and its
/// parent nodes, or `UINT64_MAX` if that passes 2^64.
///
/// Returns `CHUNKHASH_NULL_POINTER`.
///
/// # Safety
///
/// `tree` must come from a `chunkhash_bao_tree_new` function and not be
/// freed; `size` must be writable.
#[no_mangle]
pub unsafe extern "C" fn chunkhash_bao_encoded_size(
    tree: *const chunkhash_bao_tree,
    len: u64,
    size: *mut u64,
) -> crate::chunkhash_status {
    guard(|| {
        // SAFETY: the caller promised a live tree.
        let tree = unsafe { object_ref(tree) }?;
        // SAFETY: the caller promised `size` is writable.
        let size = unsafe { OutParam::new(size) }?;
        size.set((bao::HEADER_LEN as u64 + tree.tree.outboard_len(len)).saturating_add(len));
        Ok(())
    })
}

/// Stores in `*size` the bytes of the slice of a `len`-byte message for the
/// byte range `start .. start + count` (`chunkhash_bao_slice`): the header,
/// the groups that meet the range and the parents above them. As in `bao`,
/// a range of no bytes counts as one byte, and a range at or past the end
/// covers the last group (which proves the length).
///
/// Returns `CHUNKHASH_NULL_POINTER`.
///
/// # Safety
///
/// `tree` must come from a `chunkhash_bao_tree_new` function and not be
/// freed; `size` must be writable.
#[no_mangle]
pub unsafe extern "C" fn chunkhash_bao_slice_size(
    tree: *const chunkhash_bao_tree,
    len: u64,
    start: u64,
    count: u64,
    size: *mut u64,
) -> crate::chunkhash_status {
    guard(|| {
        // SAFETY: the caller promised a live tree.
        let tree = unsafe { object_ref(tree) }?;
        // SAFETY: the caller promised `size` is writable.
        let size = unsafe { OutParam::new(size) }?;
        size.set(tree.tree.slice_len(len, &range(start, count)));
        Ok(())
    })
}

/// The body of `chunkhash_bao_outboard` and `_encode`: checks the
/// arguments in the documented order, then writes the root hash and the
/// bytes `make` returns, `size` of them for the input's length.
///
/// # Safety
///
/// As `chunkhash_bao_outboard`.
#[allow(clippy::too_many_arguments)] // the C arguments, one to one
unsafe fn root_and_bytes(
    tree: *const chunkhash_bao_tree,
    data: *const u8,
    len: usize,
    order: u32,
    root: *mut u8,
    root_len: usize,
    out: *mut u8,
    out_len: usize,
    size: impl FnOnce(&Tree, u64) -> u64,
    make: impl FnOnce(&Tree, &[u8], Order) -> (Hash, Vec<u8>),
) -> Result<()> {
    // SAFETY: the caller promised a live tree.
    let tree = unsafe { object_ref(tree) }?;
    // SAFETY: the caller promised `data` is readable for `len` bytes.
    let data = unsafe { Input::new(data, len) }?;
    // SAFETY: the caller promised `root` is writable for `root_len` bytes.
    let root = unsafe { Output::new(root, root_len) }?;
    // SAFETY: the caller promised `out` is writable for `out_len` bytes.
    let out = unsafe { Output::new(out, out_len) }?;
    let order = self::order(order)?;
    root.require(crate::CHUNKHASH_BLAKE3_OUT_LEN)?;
    out.require(buffer_len(size(&tree.tree, len as u64))?)?;
    let (hash, bytes) = make(&tree.tree, data.bytes(), order);
    root.write(hash.as_bytes());
    out.write(&bytes);
    Ok(())
}

/// Writes the 32-byte root hash of `data` to `root` and its outboard
/// (`chunkhash_bao_outboard_size` bytes: the length header, then the parent
/// nodes in `order`, `CHUNKHASH_BAO_ORDER_PRE` or `_POST`) to the front of
/// `out`, made by the same SIMD kernels as `chunkhash_blake3_hash`. With the
/// plain tree, groups of one chunk and pre-order, these are the bytes of
/// `bao encode --outboard`.
///
/// Returns `CHUNKHASH_NULL_POINTER`, `CHUNKHASH_INVALID_LENGTH`,
/// `CHUNKHASH_BAO_UNKNOWN_ORDER`, or `CHUNKHASH_BUFFER_TOO_SMALL` (`root_len`
/// below 32, or `out_len` below the outboard's size).
///
/// # Safety
///
/// `tree` must come from a `chunkhash_bao_tree_new` function and not be
/// freed; `data` must be readable for `len` bytes, `root` writable for
/// `root_len` bytes and `out` for `out_len` bytes; none may overlap.
#[no_mangle]
pub unsafe extern "C" fn chunkhash_bao_outboard(
    tree: *const chunkhash_bao_tree,
    data: *const u8,
    len: usize,
    order: u32,
    root: *mut u8,
    root_len: usize,
    out: *mut u8,
    out_len: usize,
) -> crate::chunkhash_status {
    let size = |tree: &Tree, len: u64| bao::HEADER_LEN as u64 + tree.outboard_len(len);
    let make = |tree: &Tree, data: &[u8], order: Order| {
        let outboard = tree.outboard(data, order);
        (outboard.root(), outboard.into_bao_bytes())
    };
    // SAFETY: the caller promised what `root_and_bytes` requires.
    guard(|| unsafe { root_and_bytes(tree, data, len, order, root, root_len, out, out_len, size, make) })
}

/// Writes the 32-byte root hash of `data` to `root` and its combined
/// encoding (`chunkhash_bao_encoded_size` bytes: the length header, then
/// parents and groups in pre-order; `bao encode`'s output for the plain
/// tree and groups of one chunk) to the front of `out`.
///
/// Returns `CHUNKHASH_NULL_POINTER`, `CHUNKHASH_INVALID_LENGTH` or
/// `CHUNKHASH_BUFFER_TOO_SMALL`.
///
/// # Safety
///
/// As `chunkhash_bao_outboard`.
#[no_mangle]
pub unsafe extern "C" fn chunkhash_bao_encode(
    tree: *const chunkhash_bao_tree,
    data: *const u8,
    len: usize,
    root: *mut u8,
    root_len: usize,
    out: *mut u8,
    out_len: usize,
) -> crate::chunkhash_status {
    let size = |tree: &Tree, len: u64| (bao::HEADER_LEN as u64 + tree.outboard_len(len)).saturating_add(len);
    let make = |tree: &Tree, data: &[u8], _: Order| tree.encode(data);
    // SAFETY: the caller promised what `root_and_bytes` requires.
    guard(|| unsafe {
        root_and_bytes(tree, data, len, CHUNKHASH_BAO_ORDER_PRE, root, root_len, out, out_len, size, make)
    })
}

/// Writes `slice` to the front of `out` and its length to `*written`.
fn write_slice(slice: &[u8], out: Output, written: OutParam<usize>) -> Result<()> {
    out.require(slice.len())?;
    out.write(slice);
    written.set(slice.len());
    Ok(())
}

/// Writes the slice of `data` for the byte range `start .. start + count`
/// to the front of `out` and its length (`chunkhash_bao_slice_size`) to
/// `*written`: the header, then in pre-order the groups that meet the range
/// and the parents above them, taken from `outboard` (as
/// `chunkhash_bao_outboard` wrote it, in `order`). For the plain tree and
/// groups of one chunk these are the bytes of `bao slice`. The nodes are
/// copied, not checked: a damaged outboard gives a slice that
/// `chunkhash_bao_decode` rejects.
///
/// Returns `CHUNKHASH_NULL_POINTER`, `CHUNKHASH_INVALID_LENGTH`,
/// `CHUNKHASH_BAO_UNKNOWN_ORDER`, `CHUNKHASH_BAO_OUTBOARD_LENGTH` (an
/// outboard whose header is not `len` or whose size is not
/// `chunkhash_bao_outboard_size`) or `CHUNKHASH_BUFFER_TOO_SMALL`.
///
/// # Safety
///
/// `tree` must come from a `chunkhash_bao_tree_new` function and not be
/// freed; `data` must be readable for `len` bytes and `outboard` for
/// `outboard_len`, `out` writable for `out_len` bytes and `written` for a
/// `size_t`; `out` may not overlap the inputs.
#[no_mangle]
pub unsafe extern "C" fn chunkhash_bao_slice(
    tree: *const chunkhash_bao_tree,
    data: *const u8,
    len: usize,
    outboard: *const u8,
    outboard_len: usize,
    order: u32,
    start: u64,
    count: u64,
    out: *mut u8,
    out_len: usize,
    written: *mut usize,
) -> crate::chunkhash_status {
    guard(|| {
        // SAFETY: the caller promised a live tree.
        let tree = unsafe { object_ref(tree) }?;
        // SAFETY: the caller promised `data` is readable for `len` bytes.
        let data = unsafe { Input::new(data, len) }?;
        // SAFETY: the caller promised `outboard` is readable for `outboard_len` bytes.
        let outboard = unsafe { Input::new(outboard, outboard_len) }?;
        // SAFETY: the caller promised `out` is writable for `out_len` bytes.
        let out = unsafe { Output::new(out, out_len) }?;
        // SAFETY: the caller promised `written` is writable.
        let written = unsafe { OutParam::new(written) }?;
        let order = self::order(order)?;
        let (header, nodes) =
            outboard.bytes().split_at_checked(bao::HEADER_LEN).ok_or(CHUNKHASH_BAO_OUTBOARD_LENGTH)?;
        let header_len = u64::from_le_bytes(header.try_into().expect("8 bytes"));
        // Slicing copies nodes and never reads the root: any value does.
        let parsed = bao::Outboard::from_parts(&tree.tree, Hash::from([0; 32]), header_len, order, nodes.to_vec())?;
        let slice = tree.tree.slice(data.bytes(), &parsed, &range(start, count))?;
        write_slice(&slice, out, written)
    })
}

/// Writes the slice for the byte range `start .. start + count` taken from
/// a combined encoding (`chunkhash_bao_encode`'s output) to the front of
/// `out` and its length to `*written`; the same bytes as
/// `chunkhash_bao_slice`. Copied, not checked.
///
/// Returns `CHUNKHASH_NULL_POINTER`, `CHUNKHASH_INVALID_LENGTH`,
/// `CHUNKHASH_BAO_ENCODING_LENGTH` (an encoding whose size does not fit
/// its header) or `CHUNKHASH_BUFFER_TOO_SMALL`.
///
/// # Safety
///
/// `tree` must come from a `chunkhash_bao_tree_new` function and not be
/// freed; `encoding` must be readable for `encoding_len` bytes, `out`
/// writable for `out_len` bytes and `written` for a `size_t`; `out` may not
/// overlap `encoding`.
#[no_mangle]
pub unsafe extern "C" fn chunkhash_bao_slice_encoding(
    tree: *const chunkhash_bao_tree,
    encoding: *const u8,
    encoding_len: usize,
    start: u64,
    count: u64,
    out: *mut u8,
    out_len: usize,
    written: *mut usize,
) -> crate::chunkhash_status {
    guard(|| {
        // SAFETY: the caller promised a live tree.
        let tree = unsafe { object_ref(tree) }?;
        // SAFETY: the caller promised `encoding` is readable for `encoding_len` bytes.
        let encoding = unsafe { Input::new(encoding, encoding_len) }?;
        // SAFETY: the caller promised `out` is writable for `out_len` bytes.
        let out = unsafe { Output::new(out, out_len) }?;
        // SAFETY: the caller promised `written` is writable.
        let written = unsafe { OutParam::new(written) }?;
        let slice = tree.tree.slice_encoding(encoding.bytes(), &range(start, count))?;
        write_slice(&slice, out, written)
    })
}

/// The verified bytes of a slice (or combined encoding) of one range, the
/// whole stream in memory: all of them, or the first error (a short stream
/// is `CHUNKHASH_BAO_TRUNCATED`, one that goes on `_TRAILING_BYTES`).
fn decode(tree: Tree, root: Hash, stream: &[u8], range: &[Range<u64>; 1]) -> Result<Vec<u8>> {
    let mut verified = Vec::new();
    bao::Decoder::new(tree, root, range)
        .feed_all(stream, |group| verified.extend_from_slice(group.bytes_in(&range[0])))?;
    Ok(verified)
}

/// Verifies `stream`, the slice of a message for the byte range
/// `start .. start + count` (as `chunkhash_bao_slice` or `bao slice` made
/// it; a whole combined encoding is the slice for `start` 0 and `count`
/// `UINT64_MAX`) against the message's 32-byte `root` hash, and only if
/// every part of it verifies writes the range's bytes (capped at the
/// message's end, so `count` bytes always fit) to the front of `out` and
/// their number to `*written`. `tree` must be the mode and group size the
/// slice was made with.
///
/// Returns `CHUNKHASH_NULL_POINTER`, `CHUNKHASH_INVALID_LENGTH` (also a
/// `root_len` other than 32), `CHUNKHASH_BAO_MISMATCH` (a node or group that
/// does not verify: damage, another root, range, tree or message),
/// `CHUNKHASH_BAO_TRUNCATED` (the stream ends early),
/// `CHUNKHASH_BAO_TRAILING_BYTES` (bytes after the slice) or
/// `CHUNKHASH_BUFFER_TOO_SMALL`. On any error nothing is written: no
/// unverified byte reaches `out`.
///
/// # Safety
///
/// `tree` must come from a `chunkhash_bao_tree_new` function and not be
/// freed; `root` must be readable for `root_len` bytes and `stream` for
/// `stream_len`, `out` writable for `out_len` bytes and `written` for a
/// `size_t`; `out` may overlap `stream`.
#[no_mangle]
pub unsafe extern "C" fn chunkhash_bao_decode(
    tree: *const chunkhash_bao_tree,
    root: *const u8,
    root_len: usize,
    stream: *const u8,
    stream_len: usize,
    start: u64,
    count: u64,
    out: *mut u8,
    out_len: usize,
    written: *mut usize,
) -> crate::chunkhash_status {
    guard(|| {
        // SAFETY: the caller promised a live tree.
        let tree = unsafe { object_ref(tree) }?;
        // SAFETY: the caller promised `root` is readable for `root_len` bytes.
        let root = unsafe { crate::blake3::key(root, root_len) }?;
        // SAFETY: the caller promised `stream` is readable for `stream_len` bytes.
        let stream = unsafe { Input::new(stream, stream_len) }?;
        // SAFETY: the caller promised `out` is writable for `out_len` bytes.
        let out = unsafe { Output::new(out, out_len) }?;
        // SAFETY: the caller promised `written` is writable.
        let written = unsafe { OutParam::new(written) }?;
        // The stream's slice ends here, before `out` is written.
        let verified = decode(tree.tree, Hash::from(root), stream.bytes(), &range(start, count))?;
        write_slice(&verified, out, written)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use chunkhash::blake3;

    /// The pointer paths at Miri's size (which runs this): a message of two
    /// groups, 1025 bytes, through every call once, at odd addresses.
    #[test]
    fn bao_pointer_paths_at_miri_size() {
        let data = [5u8; 1025];
        let (d, n) = (data.as_ptr(), data.len());
        let mut tree: *mut chunkhash_bao_tree = core::ptr::null_mut();
        let (mut root, mut outboard, mut slice) = ([0u8; 33], [0u8; 8 + 64 + 1], [0u8; 8 + 64 + 1 + 1]);
        let (mut out, mut written) = ([0u8; 2], 0usize);
        // SAFETY: every pointer points into a local of at least the length
        // passed with it, or is NULL; the tree is freed once.
        unsafe {
            assert_eq!(chunkhash_bao_tree_new(0, &mut tree), CHUNKHASH_OK);
            let (r, o) = (root[1..].as_mut_ptr(), outboard[1..].as_mut_ptr());
            assert_eq!(chunkhash_bao_outboard(tree, d, n, 1, r, 32, o, 72), CHUNKHASH_OK);
            assert_eq!(root[1..], *blake3::hash(&data).as_bytes());
            assert_eq!(chunkhash_bao_outboard(tree, core::ptr::null(), n, 1, r, 32, o, 72), CHUNKHASH_NULL_POINTER);
            let ob = &outboard[1..];
            let s = slice[1..].as_mut_ptr();
            let status = chunkhash_bao_slice(tree, d, n, ob.as_ptr(), 72, 1, 1024, 1, s, 73, &mut written);
            assert_eq!((status, written), (CHUNKHASH_OK, 73));
            let (r, s) = (root[1..].as_ptr(), &slice[1..]);
            let status =
                chunkhash_bao_decode(tree, r, 32, s.as_ptr(), 73, 1024, 1, out[1..].as_mut_ptr(), 1, &mut written);
            assert_eq!((status, written, out[1]), (CHUNKHASH_OK, 1, 5));
            let status = chunkhash_bao_decode(tree, r, 32, s.as_ptr(), 72, 1024, 1, out.as_mut_ptr(), 1, &mut written);
            assert_eq!(status, CHUNKHASH_BAO_TRUNCATED);
            chunkhash_bao_tree_free(tree);
        }
    }

    /// Every call with small inputs: a message of three groups of one
    /// chunk, its outboard in both orders, its encoding, a slice from each,
    /// decoded; every error path.
    #[test]
    #[cfg_attr(miri, ignore = "30 s of Miri; bao_pointer_paths_at_miri_size covers the pointers")]
    fn bao_calls_with_small_inputs() {
        let data: Vec<u8> = (0..2500u32).map(|i| i as u8).collect();
        let rust_tree = Tree::bao();
        let rust_outboard = rust_tree.outboard(&data, Order::Pre);
        let mut tree: *mut chunkhash_bao_tree = core::ptr::null_mut();
        let mut root = [0u8; 33];
        let mut outboard = [0u8; 8 + 2 * 64 + 1];
        let mut size = 0u64;
        let mut written = 0usize;
        // SAFETY: every pointer points into a local of at least the length
        // passed with it, or is NULL; the tree is freed once.
        unsafe {
            assert_eq!(chunkhash_bao_tree_new(17, &mut tree), CHUNKHASH_BAO_INVALID_GROUP_LOG);
            assert_eq!(chunkhash_bao_tree_new(256, &mut tree), CHUNKHASH_BAO_INVALID_GROUP_LOG);
            assert_eq!(chunkhash_bao_tree_new(0, core::ptr::null_mut()), CHUNKHASH_NULL_POINTER);
            assert_eq!(chunkhash_bao_tree_new(0, &mut tree), CHUNKHASH_OK);
            assert_eq!(chunkhash_bao_outboard_size(tree, data.len() as u64, &mut size), CHUNKHASH_OK);
            assert_eq!(size, 8 + 2 * 64);
            assert_eq!(chunkhash_bao_outboard_size(core::ptr::null(), 1, &mut size), CHUNKHASH_NULL_POINTER);
            let (d, n) = (data.as_ptr(), data.len());
            // An unaligned root and outboard.
            let status =
                chunkhash_bao_outboard(tree, d, n, 0, root[1..].as_mut_ptr(), 32, outboard[1..].as_mut_ptr(), 136);
            assert_eq!(status, CHUNKHASH_OK);
            assert_eq!(root[1..], *rust_outboard.root().as_bytes());
            assert_eq!(outboard[1..], *rust_outboard.bao_bytes());
            let status = chunkhash_bao_outboard(tree, d, n, 2, root.as_mut_ptr(), 32, outboard.as_mut_ptr(), 136);
            assert_eq!(status, CHUNKHASH_BAO_UNKNOWN_ORDER);
            let status = chunkhash_bao_outboard(tree, d, n, 0, root.as_mut_ptr(), 31, outboard.as_mut_ptr(), 136);
            assert_eq!(status, CHUNKHASH_BUFFER_TOO_SMALL);
            let mut short = [0u8; 135];
            let status = chunkhash_bao_outboard(tree, d, n, 0, root.as_mut_ptr(), 32, short.as_mut_ptr(), 135);
            assert_eq!(status, CHUNKHASH_BUFFER_TOO_SMALL);
            assert_eq!(short, [0u8; 135], "nothing written on failure");
            let status =
                chunkhash_bao_outboard(tree, core::ptr::null(), 1, 0, root.as_mut_ptr(), 32, short.as_mut_ptr(), 135);
            assert_eq!(status, CHUNKHASH_NULL_POINTER);
            let mut post = [0u8; 136];
            let status = chunkhash_bao_outboard(tree, d, n, 1, root.as_mut_ptr(), 32, post.as_mut_ptr(), 136);
            assert_eq!(status, CHUNKHASH_OK);
            assert_eq!(post[..], *rust_tree.outboard(&data, Order::Post).bao_bytes());

            let mut encoding = vec![0u8; 8 + 2 * 64 + data.len()];
            assert_eq!(chunkhash_bao_encoded_size(tree, n as u64, &mut size), CHUNKHASH_OK);
            assert_eq!(size, encoding.len() as u64);
            let status = chunkhash_bao_encode(tree, d, n, root.as_mut_ptr(), 32, encoding.as_mut_ptr(), encoding.len());
            assert_eq!(status, CHUNKHASH_OK);
            assert_eq!(encoding, rust_tree.encode(&data).1);

            // Bytes 1000..1100 meet the first two groups.
            let ranges = range(1000, 100);
            let expected = rust_tree.slice(&data, &rust_outboard, &ranges).unwrap();
            assert_eq!(chunkhash_bao_slice_size(tree, n as u64, 1000, 100, &mut size), CHUNKHASH_OK);
            assert_eq!(size, expected.len() as u64);
            let mut slice = vec![0u8; expected.len()];
            let ob = &outboard[1..];
            let status = chunkhash_bao_slice(
                tree,
                d,
                n,
                ob.as_ptr(),
                ob.len(),
                0,
                1000,
                100,
                slice.as_mut_ptr(),
                slice.len(),
                &mut written,
            );
            assert_eq!(status, CHUNKHASH_OK);
            assert_eq!((slice.as_slice(), written), (expected.as_slice(), expected.len()));
            let status = chunkhash_bao_slice(
                tree,
                d,
                n,
                post.as_ptr(),
                post.len(),
                1,
                1000,
                100,
                slice.as_mut_ptr(),
                slice.len(),
                &mut written,
            );
            assert_eq!(status, CHUNKHASH_OK);
            assert_eq!(slice, expected);
            let status = chunkhash_bao_slice(
                tree,
                d,
                n - 1,
                ob.as_ptr(),
                ob.len(),
                0,
                1000,
                100,
                slice.as_mut_ptr(),
                slice.len(),
                &mut written,
            );
            assert_eq!(status, CHUNKHASH_BAO_OUTBOARD_LENGTH);
            let status = chunkhash_bao_slice(
                tree,
                d,
                n,
                ob.as_ptr(),
                7,
                0,
                1000,
                100,
                slice.as_mut_ptr(),
                slice.len(),
                &mut written,
            );
            assert_eq!(status, CHUNKHASH_BAO_OUTBOARD_LENGTH);
            let status = chunkhash_bao_slice(
                tree,
                d,
                n,
                ob.as_ptr(),
                ob.len(),
                0,
                1000,
                100,
                slice.as_mut_ptr(),
                slice.len() - 1,
                &mut written,
            );
            assert_eq!(status, CHUNKHASH_BUFFER_TOO_SMALL);
            let status = chunkhash_bao_slice_encoding(
                tree,
                encoding.as_ptr(),
                encoding.len(),
                1000,
                100,
                slice.as_mut_ptr(),
                slice.len(),
                &mut written,
            );
            assert_eq!(status, CHUNKHASH_OK);
            assert_eq!(slice, expected);
            let status = chunkhash_bao_slice_encoding(
                tree,
                encoding.as_ptr(),
                encoding.len() - 1,
                1000,
                100,
                slice.as_mut_ptr(),
                slice.len(),
                &mut written,
            );
            assert_eq!(status, CHUNKHASH_BAO_ENCODING_LENGTH);

            // Decoding: the range's bytes, and each error with nothing written.
            let r = root.as_ptr();
            let mut out = [0u8; 100];
            let status = chunkhash_bao_decode(
                tree,
                r,
                32,
                slice.as_ptr(),
                slice.len(),
                1000,
                100,
                out.as_mut_ptr(),
                100,
                &mut written,
            );
            assert_eq!(status, CHUNKHASH_OK);
            assert_eq!((&out[..], written), (&data[1000..1100], 100));
            let mut whole = vec![0u8; n];
            let status = chunkhash_bao_decode(
                tree,
                r,
                32,
                encoding.as_ptr(),
                encoding.len(),
                0,
                u64::MAX,
                whole.as_mut_ptr(),
                n,
                &mut written,
            );
            assert_eq!(status, CHUNKHASH_OK);
            assert_eq!((whole.as_slice(), written), (data.as_slice(), n));
            let mut untouched = [0u8; 100];
            let u = untouched.as_mut_ptr();
            let status = chunkhash_bao_decode(tree, r, 32, slice.as_ptr(), slice.len(), 1000, 100, u, 99, &mut written);
            assert_eq!(status, CHUNKHASH_BUFFER_TOO_SMALL);
            let status =
                chunkhash_bao_decode(tree, r, 32, slice.as_ptr(), slice.len() - 1, 1000, 100, u, 100, &mut written);
            assert_eq!(status, CHUNKHASH_BAO_TRUNCATED);
            let mut longer = slice.clone();
            longer.push(0);
            let status =
                chunkhash_bao_decode(tree, r, 32, longer.as_ptr(), longer.len(), 1000, 100, u, 100, &mut written);
            assert_eq!(status, CHUNKHASH_BAO_TRAILING_BYTES);
            let status =
                chunkhash_bao_decode(tree, r, 31, slice.as_ptr(), slice.len(), 1000, 100, u, 100, &mut written);
            assert_eq!(status, CHUNKHASH_INVALID_LENGTH);
            let other_root = blake3::hash(b"another message");
            let status = chunkhash_bao_decode(
                tree,
                other_root.as_bytes().as_ptr(),
                32,
                slice.as_ptr(),
                slice.len(),
                1000,
                100,
                u,
                100,
                &mut written,
            );
            assert_eq!(status, CHUNKHASH_BAO_MISMATCH);
            // Another range's slice (the third group) does not verify as this one.
            let status =
                chunkhash_bao_decode(tree, r, 32, slice.as_ptr(), slice.len(), 2100, 100, u, 100, &mut written);
            assert_ne!(status, CHUNKHASH_OK);
            let status = chunkhash_bao_decode(
                tree,
                r,
                32,
                slice.as_ptr(),
                slice.len(),
                1000,
                100,
                u,
                100,
                core::ptr::null_mut(),
            );
            assert_eq!(status, CHUNKHASH_NULL_POINTER);
            assert_eq!(untouched, [0u8; 100], "nothing written on failure");
            chunkhash_bao_tree_free(tree);
            chunkhash_bao_tree_free(core::ptr::null_mut());

            // Keyed and derive-key trees: their roots are those hashes.
            let key = [7u8; 32];
            assert_eq!(chunkhash_bao_tree_new_keyed(key.as_ptr(), 31, 1, &mut tree), CHUNKHASH_INVALID_LENGTH);
            assert_eq!(chunkhash_bao_tree_new_keyed(key.as_ptr(), 32, 1, &mut tree), CHUNKHASH_OK);
            let status = chunkhash_bao_outboard(tree, d, n, 0, root.as_mut_ptr(), 32, outboard.as_mut_ptr(), 72);
            assert_eq!(status, CHUNKHASH_OK);
            assert_eq!(root[..32], *blake3::keyed_hash(&key, &data).as_bytes());
            chunkhash_bao_tree_free(tree);
            assert_eq!(chunkhash_bao_tree_new_derive_key(c"ctx".as_ptr(), 0, &mut tree), CHUNKHASH_OK);
            let status = chunkhash_bao_outboard(tree, d, n, 0, root.as_mut_ptr(), 32, outboard.as_mut_ptr(), 136);
            assert_eq!(status, CHUNKHASH_OK);
            assert_eq!(root[..32], blake3::derive_key("ctx", &data));
            chunkhash_bao_tree_free(tree);
        }
    }

    #[test]
    fn constants_match_the_library() {
        assert_eq!(CHUNKHASH_BAO_HEADER_LEN, bao::HEADER_LEN);
        assert_eq!(CHUNKHASH_BAO_MAX_GROUP_LOG, u32::from(bao::MAX_GROUP_LOG));
    }

    /// A plain tree of groups of 2^`group_log` chunks, freed on drop.
    struct TestTree(*mut chunkhash_bao_tree);

    impl TestTree {
        fn new(group_log: u32) -> TestTree {
            let mut tree = core::ptr::null_mut();
            // SAFETY: `tree` is a local.
            assert_eq!(unsafe { chunkhash_bao_tree_new(group_log, &mut tree) }, CHUNKHASH_OK);
            TestTree(tree)
        }

        fn outboard(&self, data: &[u8], order: u32) -> ([u8; 32], Vec<u8>) {
            let mut size = 0;
            let mut root = [0u8; 32];
            // SAFETY: every pointer points into a local of the length given.
            unsafe {
                assert_eq!(chunkhash_bao_outboard_size(self.0, data.len() as u64, &mut size), CHUNKHASH_OK);
                let mut out = vec![0u8; size as usize];
                let status = chunkhash_bao_outboard(
                    self.0,
                    data.as_ptr(),
                    data.len(),
                    order,
                    root.as_mut_ptr(),
                    32,
                    out.as_mut_ptr(),
                    out.len(),
                );
                assert_eq!(status, CHUNKHASH_OK);
                (root, out)
            }
        }

        fn encode(&self, data: &[u8]) -> ([u8; 32], Vec<u8>) {
            let mut size = 0;
            let mut root = [0u8; 32];
            // SAFETY: every pointer points into a local of the length given.
            unsafe {
                assert_eq!(chunkhash_bao_encoded_size(self.0, data.len() as u64, &mut size), CHUNKHASH_OK);
                let mut out = vec![0u8; size as usize];
                let status = chunkhash_bao_encode(
                    self.0,
                    data.as_ptr(),
                    data.len(),
                    root.as_mut_ptr(),
                    32,
                    out.as_mut_ptr(),
                    out.len(),
                );
                assert_eq!(status, CHUNKHASH_OK);
                (root, out)
            }
        }

        fn slice(&self, data: &[u8], outboard: &[u8], order: u32, start: u64, count: u64) -> Vec<u8> {
            let (mut size, mut written) = (0, 0);
            // SAFETY: every pointer points into a local of the length given.
            unsafe {
                assert_eq!(chunkhash_bao_slice_size(self.0, data.len() as u64, start, count, &mut size), CHUNKHASH_OK);
                let mut out = vec![0u8; size as usize];
                let status = chunkhash_bao_slice(
                    self.0,
                    data.as_ptr(),
                    data.len(),
                    outboard.as_ptr(),
                    outboard.len(),
                    order,
                    start,
                    count,
                    out.as_mut_ptr(),
                    out.len(),
                    &mut written,
                );
                assert_eq!(status, CHUNKHASH_OK);
                assert_eq!(written, out.len());
                out
            }
        }

        fn decode(&self, root: &[u8; 32], stream: &[u8], start: u64, count: u64) -> Result<Vec<u8>> {
            let mut out = vec![0u8; stream.len()];
            let mut written = 0;
            // SAFETY: every pointer points into a local of the length given.
            let status = unsafe {
                chunkhash_bao_decode(
                    self.0,
                    root.as_ptr(),
                    32,
                    stream.as_ptr(),
                    stream.len(),
                    start,
                    count,
                    out.as_mut_ptr(),
                    out.len(),
                    &mut written,
                )
            };
            match status {
                CHUNKHASH_OK => {
                    out.truncate(written);
                    Ok(out)
                }
                error => Err(error),
            }
        }
    }

    impl Drop for TestTree {
        fn drop(&mut self) {
            // SAFETY: made by chunkhash_bao_tree_new, freed once.
            unsafe { chunkhash_bao_tree_free(self.0) }
        }
    }

    fn hex_hash(bytes: &[u8]) -> String {
        blake3::hash(bytes).to_hex().as_str().to_owned()
    }

    fn flip(bytes: &[u8], index: usize, mask: u8) -> Vec<u8> {
        let mut bad = bytes.to_vec();
        bad[index] ^= mask;
        bad
    }

    fn expected(data: &[u8], start: u64, count: u64) -> &[u8] {
        let len = data.len() as u64;
        &data[start.min(len) as usize..start.saturating_add(count).min(len) as usize]
    }

    /// The `bao` crate's vectors (vectors/bao) through the C calls: roots,
    /// encodings, outboards and slices byte for byte, and every corruption
    /// the vectors list rejected.
    #[test]
    #[cfg_attr(miri, ignore = "megabytes of hashing; the small test covers the pointer paths")]
    fn bao_vectors_through_the_c_calls() {
        let vectors = vectors::bao_vectors();
        let tree = TestTree::new(0);
        for case in vectors["encode"].as_array().unwrap() {
            let input = vectors::bao_input(case["input_len"].as_u64().unwrap() as usize);
            let (root, encoded) = tree.encode(&input);
            assert_eq!(blake3::Hash::from(root).to_hex().as_str(), case["bao_hash"].as_str().unwrap());
            assert_eq!(hex_hash(&encoded), case["encoded_blake3"].as_str().unwrap());
            assert_eq!(tree.decode(&root, &encoded, 0, u64::MAX).unwrap(), input);
            for point in case["corruptions"].as_array().unwrap() {
                let bad = flip(&encoded, point.as_u64().unwrap() as usize, 1);
                assert!(tree.decode(&root, &bad, 0, u64::MAX).is_err(), "encoding corruption at {point}");
            }
        }
        for case in vectors["outboard"].as_array().unwrap() {
            let input = vectors::bao_input(case["input_len"].as_u64().unwrap() as usize);
            let (root, outboard) = tree.outboard(&input, CHUNKHASH_BAO_ORDER_PRE);
            assert_eq!(blake3::Hash::from(root).to_hex().as_str(), case["bao_hash"].as_str().unwrap());
            assert_eq!(outboard.len() as u64, case["output_len"].as_u64().unwrap());
            assert_eq!(hex_hash(&outboard), case["encoded_blake3"].as_str().unwrap());
            for point in case["input_corruptions"].as_array().unwrap() {
                let bad = flip(&input, point.as_u64().unwrap() as usize, 1);
                let slice = tree.slice(&bad, &outboard, CHUNKHASH_BAO_ORDER_PRE, 0, u64::MAX);
                assert_eq!(tree.decode(&root, &slice, 0, u64::MAX), Err(CHUNKHASH_BAO_MISMATCH), "input at {point}");
            }
        }
        for case in vectors["slice"].as_array().unwrap() {
            let input = vectors::bao_input(case["input_len"].as_u64().unwrap() as usize);
            let (root, outboard) = tree.outboard(&input, CHUNKHASH_BAO_ORDER_PRE);
            for slice_case in case["slices"].as_array().unwrap() {
                let (start, count) = (slice_case["start"].as_u64().unwrap(), slice_case["len"].as_u64().unwrap());
                let slice = tree.slice(&input, &outboard, CHUNKHASH_BAO_ORDER_PRE, start, count);
                assert_eq!(slice.len() as u64, slice_case["output_len"].as_u64().unwrap());
                assert_eq!(hex_hash(&slice), slice_case["output_blake3"].as_str().unwrap());
                assert_eq!(tree.decode(&root, &slice, start, count).unwrap(), expected(&input, start, count));
                for point in slice_case["corruptions"].as_array().unwrap() {
                    let bad = flip(&slice, point.as_u64().unwrap() as usize, 1);
                    assert!(tree.decode(&root, &bad, start, count).is_err(), "slice {start}+{count} at {point}");
                }
            }
        }
    }

    /// Random lengths around group edges for several group sizes (fixed,
    /// printed seed), each call against the Rust API, and every single-bit
    /// flip of a small slice rejected with a typed status.
    #[test]
    #[cfg_attr(miri, ignore = "megabytes of hashing; the small test covers the pointer paths")]
    fn random_messages_match_the_rust_api_and_every_bit_flip_fails() {
        let mut rng = vectors::TestRng::new(vectors::test_seed("c bao random", 33));
        for group_log in [0u32, 1, 2, 4, 7] {
            let tree = TestTree::new(group_log);
            let rust = Tree::new(Mode::hash(), group_log as u8).unwrap();
            let group = 1024u64 << group_log;
            for _ in 0..6 {
                let groups = rng.next_u64() % 9;
                let len = (groups * group).saturating_add(rng.next_u64() % 3).saturating_sub(1)
                    + (rng.next_u64() % 2) * (rng.next_u64() % group);
                let data = rng.bytes(len as usize);
                let (root, pre) = tree.outboard(&data, CHUNKHASH_BAO_ORDER_PRE);
                let (_, post) = tree.outboard(&data, CHUNKHASH_BAO_ORDER_POST);
                assert_eq!(root, *blake3::hash(&data).as_bytes(), "k {group_log} len {len}");
                assert_eq!(pre, rust.outboard(&data, Order::Pre).bao_bytes());
                assert_eq!(post, rust.outboard(&data, Order::Post).bao_bytes());
                let (_, encoded) = tree.encode(&data);
                assert_eq!(encoded, rust.encode(&data).1);
                let start = rng.next_u64() % (len + 2);
                let count = rng.next_u64() % (2 * group + 2);
                let slice = tree.slice(&data, &pre, CHUNKHASH_BAO_ORDER_PRE, start, count);
                assert_eq!(slice, tree.slice(&data, &post, CHUNKHASH_BAO_ORDER_POST, start, count));
                assert_eq!(slice, rust.slice(&data, &rust.outboard(&data, Order::Pre), &range(start, count)).unwrap());
                assert_eq!(tree.decode(&root, &slice, start, count).unwrap(), expected(&data, start, count));
                assert_eq!(tree.decode(&root, &encoded, 0, u64::MAX).unwrap(), data);
            }
        }
        // Every single-bit flip of a slice (header and parents included) of
        // a message of three groups of 1 KiB is a typed error, never bytes,
        // when the slice holds the last group: that group proves the length.
        // A slice of the first groups does not prove the length (as in the
        // Bao spec), so a flip in the header that keeps the tree's shape
        // (2500 bytes read as 2501) still gives the range's true bytes.
        let tree = TestTree::new(0);
        let data = rng.bytes(2500);
        let (root, outboard) = tree.outboard(&data, CHUNKHASH_BAO_ORDER_PRE);
        for (start, must_fail) in [(2100, true), (1000, false)] {
            let slice = tree.slice(&data, &outboard, CHUNKHASH_BAO_ORDER_PRE, start, 100);
            let mut rejected = 0;
            for index in 0..slice.len() {
                for bit in 0..8 {
                    match tree.decode(&root, &flip(&slice, index, 1 << bit), start, 100) {
                        Err(CHUNKHASH_BAO_MISMATCH | CHUNKHASH_BAO_TRUNCATED | CHUNKHASH_BAO_TRAILING_BYTES) => {
                            rejected += 1
                        }
                        Ok(bytes) if !must_fail && index < 8 => assert_eq!(bytes, expected(&data, start, 100)),
                        other => panic!("range {start}: bit {bit} of byte {index}: {other:?}"),
                    }
                }
            }
            assert!(rejected > 8 * (slice.len() - 8), "range {start}: {rejected} flips rejected");
        }
    }

    /// What the C outboard call adds to the Rust one (`Tree::outboard`):
    /// checking the arguments and copying the outboard out. Per byte, at
    /// 1 MiB and 64 MiB, groups of 1 KiB and 16 KiB; medians of interleaved
    /// rounds (each round in another order). A measurement, not a check.
    #[test]
    #[ignore = "a measurement: cargo test --release -p chunkhash-c bao_outboard_overhead -- --ignored --nocapture"]
    fn bao_outboard_overhead() {
        let median = |v: &mut Vec<f64>| {
            v.sort_by(f64::total_cmp);
            v[v.len() / 2]
        };
        println!("backend {}", blake3::Backend::detect().name());
        for (label, size, reps, rounds) in [("1 MiB", 1usize << 20, 20, 101), ("64 MiB", 64 << 20, 1, 41)] {
            let data = vectors::TestRng::new(1).bytes(size);
            for group_log in [0u32, 4] {
                let rust = Tree::new(Mode::hash(), group_log as u8).unwrap();
                let tree = TestTree::new(group_log);
                let mut out = vec![0u8; 8 + rust.outboard_len(size as u64) as usize];
                let mut root = [0u8; 32];
                let mut time = |c: bool| {
                    let start = std::time::Instant::now();
                    for _ in 0..reps {
                        if c {
                            // SAFETY: `data`, `root` and `out` are locals of the lengths given.
                            let status = unsafe {
                                chunkhash_bao_outboard(
                                    tree.0,
                                    data.as_ptr(),
                                    size,
                                    0,
                                    root.as_mut_ptr(),
                                    32,
                                    out.as_mut_ptr(),
                                    out.len(),
                                )
                            };
                            assert_eq!(status, CHUNKHASH_OK);
                        } else {
                            std::hint::black_box(rust.outboard(std::hint::black_box(&data), Order::Pre));
                        }
                    }
                    start.elapsed().as_nanos() as f64 / (reps * size) as f64
                };
                let (mut rust_times, mut c_times, mut ratios) = (Vec::new(), Vec::new(), Vec::new());
                for round in 0..rounds {
                    let (r, c) = if round % 2 == 0 {
                        let r = time(false);
                        (r, time(true))
                    } else {
                        let c = time(true);
                        (time(false), c)
                    };
                    rust_times.push(r);
                    c_times.push(c);
                    ratios.push(c / r);
                }
                // The best rounds too: on a busy machine, the least disturbed.
                let best = |v: &[f64]| v.iter().copied().fold(f64::INFINITY, f64::min);
                let (rust_best, c_best) = (best(&rust_times), best(&c_times));
                println!(
                    "{label}, {} KiB groups: Tree::outboard {:.4} ns/B (best {rust_best:.4}), chunkhash_bao_outboard \
                     {:.4} ns/B (best {c_best:.4}); C / Rust: median of per-round ratios {:.3}, of best rounds {:.3}",
                    1 << group_log,
                    median(&mut rust_times),
                    median(&mut c_times),
                    median(&mut ratios),
                    c_best / rust_best,
                );
            }
        }
    }
}
