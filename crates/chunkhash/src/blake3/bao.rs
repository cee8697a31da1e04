//! Verified streaming: the Bao formats (outboards, the combined encoding,
//! slices) and a decoder that hands out bytes only once they are proven to
//! belong to a root hash.
//!
//! Written from the Bao specification (`docs/spec.md` of the `bao`
//! repository) and the formats `bao-tree` documents. A tree over a message
//! is the BLAKE3 tree itself; its parent nodes (64 bytes: the left child's
//! chaining value, then the right child's) are what a reader needs besides
//! the data to check any part of it against the root hash, the hash
//! [`blake3::hash`](super::hash) gives.
//!
//! - **Chunk groups.** With `group_log` k, the leaves of the stored tree are
//!   groups of 2^k chunks (1 KiB each); the nodes below a group are not
//!   stored and a reader checks a group whole. k = 0 is the `bao` crate's
//!   format (an outboard costs 6.25% of the data); k = 4 (16 KiB groups)
//!   costs 0.4%. `bao-tree` calls k the `BlockSize`; both crates give
//!   byte-for-byte the same nodes for the same k.
//! - **Pre-order** (a parent, its left subtree, its right subtree: `bao`'s
//!   order, which a reader can follow without seeking) or **post-order** (a
//!   parent after its subtrees: `bao-tree`'s second order, which a writer
//!   can append while hashing).
//! - **The combined encoding** interleaves the parents (pre-order) with the
//!   groups. `bao`'s outboard and combined encoding start with the
//!   message's length as 8 little-endian bytes; [`Outboard::nodes`] is
//!   `bao-tree`'s outboard data, which has no header.
//! - **A slice** is the combined encoding reduced to the groups that
//!   overlap a set of byte ranges and the parents above them, with the
//!   header. `bao-tree` sends the same bytes after the header (it takes the
//!   length out of band). As the spec says, a range of no bytes counts as
//!   one byte, and a range at or past the end covers the last group, which
//!   proves the length.
//! - **Modes.** [`Mode::hash`] is the format of both crates.
//!   [`Mode::keyed`] builds the same tree with every node hashed under the
//!   key (the tree of [`keyed_hash`](super::keyed_hash), as `bao-tree`'s
//!   `keyed_*` functions): its root is the keyed hash, and neither the
//!   nodes nor the data can be checked, or forged, without the key.
//!   [`Mode::derive_key`] is the tree of the key material of
//!   [`derive_key`](super::derive_key). Mixing modes gives errors, never
//!   wrong bytes.
//!
//! Outboards are made by the same SIMD kernels as [`hash`](super::hash):
//! many chunks side by side, then each level of parents in one call.
//! [`Encoder`] writes the same bytes from a message given in pieces, in
//! bounded memory.
//!
//! ```
//! use chunkhash::blake3::{self, bao};
//!
//! let data = vec![7u8; 100_000];
//! let tree = bao::Tree::new(bao::Mode::hash(), 4)?; // 16 KiB groups
//! let outboard = tree.outboard(&data, bao::Order::Pre);
//! assert_eq!(outboard.root(), blake3::hash(&data));
//!
//! // Bytes 40_000..41_000, with what proves them.
//! let ranges = [40_000..41_000];
//! let slice = tree.slice(&data, &outboard, &ranges)?;
//! let mut reader = bao::SliceReader::new(&slice[..], tree, outboard.root(), &ranges);
//! let mut out = Vec::new();
//! std::io::Read::read_to_end(&mut reader, &mut out)?;
//! assert_eq!(out, &data[40_000..41_000]);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use super::hash::Hash;
#[cfg(feature = "alloc")]
use super::join::Join;
use super::join::SerialJoin;
use super::subtree;
use super::tree;
use crate::platform::job::LaneJob;
use crate::platform::spec::{CvBytes, CHUNK_LEN, KEY_LEN, OUT_LEN};
use arrayvec::ArrayVec;
use core::fmt;
use core::ops::Range;

#[cfg(feature = "alloc")]
use alloc::vec::Vec;

#[cfg(feature = "std")]
mod encoder;
#[cfg(feature = "std")]
pub use encoder::{Encoder, Format};
#[cfg(feature = "std")]
mod post_order;
#[cfg(feature = "std")]
pub use post_order::{post_to_pre_order, PostOrderEncoder};

/// Bytes of a parent node: two chaining values.
pub const PARENT_LEN: usize = 2 * OUT_LEN;

/// Bytes of the length header of `bao`'s formats (little-endian).
pub const HEADER_LEN: usize = 8;

/// The ranges of a whole message: a combined encoding is its slice for them.
// A static, not a const: a decoder borrows it for as long as it lives.
#[allow(clippy::single_range_in_vec_init)] // a list of one range, as meant
pub static WHOLE: [Range<u64>; 1] = [0..u64::MAX];

/// The largest `group_log`: groups of 2^16 chunks (64 MiB), `bao-tree`'s
/// largest `BlockSize`.
pub const MAX_GROUP_LOG: u8 = 16;

/// Chunks hashed side by side before their groups are reduced (groups of
/// fewer chunks share one kernel call, as in `hash`).
#[cfg(feature = "alloc")]
const BATCH_CHUNKS: usize = 128;

/// Which BLAKE3 tree: the plain hash (the formats of `bao` and `bao-tree`),
/// the keyed hash, or key derivation.
#[derive(Clone, Copy, Debug)]
pub struct Mode {
    tree: tree::Mode,
}

impl Mode {
    /// The plain hash: the tree of [`blake3::hash`](super::hash).
    pub fn hash() -> Mode {
        Mode::from(subtree::Mode::hash())
    }

    /// The keyed hash: every node under `key`; the root is
    /// [`keyed_hash`](super::keyed_hash).
    pub fn keyed(key: &[u8; KEY_LEN]) -> Mode {
        Mode::from(subtree::Mode::keyed(key))
    }

    /// Key derivation: the tree of the key material; the root is
    /// [`derive_key`](super::derive_key) of `context`.
    pub fn derive_key(context: &str) -> Mode {
        Mode::from(subtree::Mode::derive_key(context))
    }
}

/// A subtree mode (and its backend) as a Bao mode.
impl From<subtree::Mode> for Mode {
    fn from(mode: subtree::Mode) -> Mode {
        Mode { tree: mode.tree_mode() }
    }
}

/// Parent nodes in the order a format stores them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Order {
    /// A parent before its left and right subtrees: `bao`'s order.
    Pre,
    /// A parent after its subtrees: `bao-tree`'s post-order outboard.
    Post,
}

/// The shape every format of one message shares: the mode and the chunk
/// group size (2^`group_log` chunks).
#[derive(Clone, Copy, Debug)]
pub struct Tree {
    mode: Mode,
    group_log: u8,
}

/// A message's outboard: its root hash, its length and its parent nodes.
#[cfg(feature = "alloc")]
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outboard {
    root: Hash,
    len: u64,
    order: Order,
    /// `bao`'s file: the length header, then the nodes.
    bytes: Vec<u8>,
}

#[cfg(feature = "alloc")]
impl Outboard {
    /// An outboard from stored parts, such as a file written earlier; an
    /// error if `nodes` is not as long as the tree of `len` bytes needs.
    /// Whether the nodes are right shows when data is checked against them.
    pub fn from_parts(tree: &Tree, root: Hash, len: u64, order: Order, nodes: Vec<u8>) -> Result<Outboard, BaoError> {
        let expected = Geometry::new(len, tree.group_log).parents() * PARENT_LEN as u64;
        if nodes.len() as u64 != expected {
            return Err(BaoError::OutboardLength { len, expected, actual: nodes.len() as u64 });
        }
        let mut bytes = Vec::with_capacity(HEADER_LEN + nodes.len());
        bytes.extend_from_slice(&len.to_le_bytes());
        bytes.extend_from_slice(&nodes);
        Ok(Outboard { root, len, order, bytes })
    }

    /// The root hash.
    pub fn root(&self) -> Hash {
        self.root
    }

    /// The message's length in bytes.
    #[allow(clippy::len_without_is_empty)] // the message's length, not the outboard's
    pub fn len(&self) -> u64 {
        self.len
    }

    /// The order of the nodes.
    pub fn order(&self) -> Order {
        self.order
    }

    /// The parent nodes, 64 bytes each, without a header: `bao-tree`'s
    /// outboard data.
    pub fn nodes(&self) -> &[u8] {
        &self.bytes[HEADER_LEN..]
    }

    /// `bao`'s outboard file: the length header, then the nodes.
    pub fn bao_bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// [`bao_bytes`](Outboard::bao_bytes), without a copy.
    pub fn into_bao_bytes(self) -> Vec<u8> {
        self.bytes
    }

    fn node(&self, index: u64) -> [u8; PARENT_LEN] {
        let start = index as usize * PARENT_LEN;
        self.nodes()[start..start + PARENT_LEN].try_into().expect("a parent node is 64 bytes")
    }
}

/// Groups and parents of one message: the arithmetic every format shares.
#[derive(Clone, Copy, Debug)]
struct Geometry {
    len: u64,
    group_log: u8,
    groups: u64,
}

impl Geometry {
    fn new(len: u64, group_log: u8) -> Geometry {
        let group_len = (CHUNK_LEN as u64) << group_log;
        // Even the empty message has one (empty) group.
        let groups = (len / group_len + u64::from(!len.is_multiple_of(group_len))).max(1);
        Geometry { len, group_log, groups }
    }

    fn group_len(&self) -> u64 {
        (CHUNK_LEN as u64) << self.group_log
    }

    fn parents(&self) -> u64 {
        self.groups - 1
    }

    /// Bytes of the combined encoding of groups `first..first + count`
    /// (parents and groups, no header); saturates past 2^64.
    #[cfg(feature = "alloc")]
    fn encoded_len(&self, first: u64, count: u64) -> u64 {
        let bytes = self.bytes(first, count);
        ((count - 1) * PARENT_LEN as u64).saturating_add(bytes.end - bytes.start)
    }

    /// The bytes of groups `first..first + count`, capped at the message's end.
    fn bytes(&self, first: u64, count: u64) -> Range<u64> {
        // `first` is a group of the message, so `start` is at most its
        // length; the end may pass 2^64 for the last group of a huge one.
        let start = first * self.group_len();
        start..start.saturating_add(count.saturating_mul(self.group_len())).min(self.len)
    }

    /// Groups whose bytes meet `range`, with the spec's rules: a range of no
    /// bytes counts as one byte, and one at or past the end covers the last
    /// group (which proves the length).
    fn groups_of(&self, range: &Range<u64>) -> Range<u64> {
        let first = (range.start >> (self.group_log + 10)).min(self.groups - 1);
        let end = range.end.max(range.start.saturating_add(1));
        let last = ((end - 1) >> (self.group_log + 10)).min(self.groups - 1).max(first);
        first..last + 1
    }

    /// Parents of the complete subtrees left of group `first`, that is
    /// before its subtrees' in post-order (in pre-order, without the
    /// ancestors).
    #[cfg(feature = "alloc")]
    fn parents_left_of(first: u64) -> u64 {
        first - u64::from(first.count_ones())
    }

    /// Parents above the subtree of groups `first..first + count`, which
    /// must be one of the tree's.
    #[cfg(feature = "alloc")]
    fn depth(&self, first: u64, count: u64) -> u64 {
        let (mut at, mut len, mut depth) = (0, self.groups, 0);
        while len > count {
            let left = left_groups(len);
            if first < at + left {
                len = left;
            } else {
                at += left;
                len -= left;
            }
            depth += 1;
        }
        depth
    }

    /// Where the nodes of the subtree of groups `first..first + count`
    /// start among the outboard's (counted in nodes).
    #[cfg(feature = "alloc")]
    fn stretch_start(&self, order: Order, first: u64, count: u64) -> u64 {
        match order {
            Order::Pre => Geometry::parents_left_of(first) + self.depth(first, count),
            Order::Post => Geometry::parents_left_of(first),
        }
    }

    /// The place of the parent node of the subtree of groups `first..first
    /// + count` (more than one) among the outboard's nodes.
    #[cfg(feature = "alloc")]
    fn node_place(&self, order: Order, first: u64, count: u64) -> u64 {
        match order {
            Order::Pre => self.stretch_start(order, first, count),
            Order::Post => Geometry::parents_left_of(first) + count - 2,
        }
    }

    fn wanted(&self, ranges: &[Range<u64>], first: u64, count: u64) -> bool {
        ranges.iter().any(|range| {
            let groups = self.groups_of(range);
            groups.start < first + count && first < groups.end
        })
    }
}

/// Groups in the left subtree of a subtree of `count > 1` groups: the
/// largest power of two below `count`, as in the BLAKE3 tree.
fn left_groups(count: u64) -> u64 {
    1 << (count - 1).ilog2()
}

/// The smallest `j` with `2^j >= count`.
#[cfg(feature = "alloc")]
fn ceil_log2(count: u64) -> u32 {
    if count <= 1 {
        0
    } else {
        (count - 1).ilog2() + 1
    }
}

impl Tree {
    /// A tree of groups of 2^`group_log` chunks; an error past
    /// [`MAX_GROUP_LOG`].
    pub fn new(mode: Mode, group_log: u8) -> Result<Tree, BaoError> {
        if group_log > MAX_GROUP_LOG {
            return Err(BaoError::GroupLog { group_log });
        }
        Ok(Tree { mode, group_log })
    }

    /// `bao`'s tree: plain hash, groups of one chunk.
    pub fn bao() -> Tree {
        Tree { mode: Mode::hash(), group_log: 0 }
    }

    /// Chunks per group, as a power of two.
    pub fn group_log(&self) -> u8 {
        self.group_log
    }

    /// Bytes per group.
    pub fn group_len(&self) -> usize {
        CHUNK_LEN << self.group_log
    }

    /// The length of the outboard's nodes for a message of `len` bytes
    /// (without `bao`'s header).
    pub fn outboard_len(&self, len: u64) -> u64 {
        Geometry::new(len, self.group_log).parents() * PARENT_LEN as u64
    }

    /// The root hash of `input` in this tree's mode.
    pub fn root(&self, input: &[u8]) -> Hash {
        Hash::from(self.mode.tree.hash::<SerialJoin>(input))
    }

    /// The outboard of `input`: its parent nodes in `order`, made at
    /// hashing speed.
    #[cfg(feature = "alloc")]
    pub fn outboard(&self, input: &[u8], order: Order) -> Outboard {
        self.outboard_with(input, order, false)
    }

    #[cfg(feature = "alloc")]
    fn outboard_with(&self, input: &[u8], order: Order, parallel: bool) -> Outboard {
        let mut builder =
            self.outboard_builder(input.len() as u64, order).expect("an outboard of a slice in memory fits");
        builder.take(input, parallel).expect("a whole message is one piece");
        builder.finish().expect("a whole message is one piece")
    }

    /// An outboard built from the message in pieces, for a caller that
    /// copies the message in piece by piece (a binding, into its own
    /// memory): see [`OutboardBuilder`]. An error
    /// ([`BaoError::OutboardSize`]) if the outboard of `len` bytes is
    /// larger than this target can address.
    #[cfg(feature = "alloc")]
    pub fn outboard_builder(&self, len: u64, order: Order) -> Result<OutboardBuilder, BaoError> {
        let geometry = Geometry::new(len, self.group_log);
        let bytes = geometry.parents() * PARENT_LEN as u64 + HEADER_LEN as u64;
        let too_large = BaoError::OutboardSize { len, bytes };
        let size = usize::try_from(bytes).ok().filter(|&size| size <= isize::MAX as usize).ok_or(too_large)?;
        // An allocation that fails is the same error, not an abort: the
        // bindings (WebAssembly's 4 GiB above all) pass lengths from users.
        let mut bytes = Vec::new();
        bytes.try_reserve_exact(size).map_err(|_| too_large)?;
        bytes.resize(size, 0);
        bytes[..HEADER_LEN].copy_from_slice(&len.to_le_bytes());
        Ok(OutboardBuilder { tree: *self, order, geometry, bytes, stack: ArrayVec::new(), taken: 0, root: None })
    }

    /// [`outboard`](Tree::outboard) on all cores (rayon's global pool):
    /// the same bytes, worth it from a few megabytes.
    #[cfg(feature = "parallel")]
    pub fn outboard_parallel(&self, input: &[u8], order: Order) -> Outboard {
        self.outboard_with(input, order, true)
    }

    /// The combined encoding of `input` (`bao encode`'s output for group
    /// size 0): the length header, then parents and groups in pre-order.
    /// Also the root hash.
    #[cfg(feature = "alloc")]
    pub fn encode(&self, input: &[u8]) -> (Hash, Vec<u8>) {
        // The whole message's slice: the nodes of its outboard with the
        // groups between them, appended to a buffer of the right size (no
        // zeroing of a buffer as long as the message).
        let outboard = self.outboard(input, Order::Pre);
        let geometry = Geometry::new(input.len() as u64, self.group_log);
        let mut out = Vec::with_capacity(HEADER_LEN + geometry.encoded_len(0, geometry.groups) as usize);
        out.extend_from_slice(&geometry.len.to_le_bytes());
        let walk = SliceWalk { geometry, input, outboard: &outboard, ranges: &WHOLE };
        walk.write(0, geometry.groups, 0, &mut out);
        (outboard.root, out)
    }

    /// The slice of `input` for byte `ranges` (in any order, overlapping or
    /// not): the header, then in pre-order the groups that meet a range
    /// and the parents above them, taken from `outboard`. An error if the
    /// outboard is not of this input's length.
    ///
    /// The nodes are copied, not checked: a damaged outboard gives a slice
    /// that readers reject.
    #[cfg(feature = "alloc")]
    pub fn slice(&self, input: &[u8], outboard: &Outboard, ranges: &[Range<u64>]) -> Result<Vec<u8>, BaoError> {
        let geometry = Geometry::new(input.len() as u64, self.group_log);
        if outboard.len != geometry.len || outboard.nodes().len() as u64 != geometry.parents() * PARENT_LEN as u64 {
            return Err(BaoError::OutboardLength {
                len: geometry.len,
                expected: geometry.parents() * PARENT_LEN as u64,
                actual: outboard.nodes().len() as u64,
            });
        }
        let mut out = Vec::new();
        out.extend_from_slice(&geometry.len.to_le_bytes());
        let walk = SliceWalk { geometry, input, outboard, ranges };
        walk.write(0, geometry.groups, 0, &mut out);
        Ok(out)
    }

    /// The length of the slice of a `len`-byte message for byte `ranges`,
    /// header included: what `Tree::slice` returns, known before
    /// it is made (a buffer's size in the C binding); saturates past 2^64.
    pub fn slice_len(&self, len: u64, ranges: &[Range<u64>]) -> u64 {
        let geometry = Geometry::new(len, self.group_log);
        fn walk(geometry: &Geometry, ranges: &[Range<u64>], first: u64, count: u64) -> u64 {
            let inside = |range: &Range<u64>| {
                let groups = geometry.groups_of(range);
                groups.start <= first && first + count <= groups.end
            };
            if count == 1 || ranges.iter().any(inside) {
                // A subtree wholly wanted is its whole encoding: counted at
                // once, so a wide range costs O(log n), not O(groups).
                let bytes = geometry.bytes(first, count);
                return ((count - 1) * PARENT_LEN as u64).saturating_add(bytes.end - bytes.start);
            }
            let left = left_groups(count);
            let mut total = PARENT_LEN as u64;
            if geometry.wanted(ranges, first, left) {
                total = total.saturating_add(walk(geometry, ranges, first, left));
            }
            if geometry.wanted(ranges, first + left, count - left) {
                total = total.saturating_add(walk(geometry, ranges, first + left, count - left));
            }
            total
        }
        walk(&geometry, ranges, 0, geometry.groups).saturating_add(HEADER_LEN as u64)
    }

    /// The slice for byte `ranges` taken from a combined encoding (its
    /// header, nodes and groups, copied, not checked: readers check them).
    /// An error if the encoding's length does not fit its header.
    #[cfg(feature = "alloc")]
    pub fn slice_encoding(&self, encoding: &[u8], ranges: &[Range<u64>]) -> Result<Vec<u8>, BaoError> {
        let header: [u8; HEADER_LEN] = encoding
            .get(..HEADER_LEN)
            .and_then(|header| header.try_into().ok())
            .ok_or(BaoError::EncodingLength { len: None, actual: encoding.len() as u64 })?;
        let geometry = Geometry::new(u64::from_le_bytes(header), self.group_log);
        let expected = geometry.encoded_len(0, geometry.groups).checked_add(HEADER_LEN as u64);
        if expected != Some(encoding.len() as u64) {
            return Err(BaoError::EncodingLength { len: Some(geometry.len), actual: encoding.len() as u64 });
        }
        let mut out = Vec::new();
        out.extend_from_slice(&header);
        write_from_encoding(&geometry, encoding, ranges, 0, geometry.groups, HEADER_LEN, &mut out);
        Ok(out)
    }
}

/// Writes the slice of the subtree of groups `first..first + count`, whose
/// encoding starts at byte `at` of `encoding`.
#[cfg(feature = "alloc")]
fn write_from_encoding(
    geometry: &Geometry,
    encoding: &[u8],
    ranges: &[Range<u64>],
    first: u64,
    count: u64,
    at: usize,
    out: &mut Vec<u8>,
) {
    if count == 1 {
        let bytes = geometry.bytes(first, 1);
        out.extend_from_slice(&encoding[at..at + (bytes.end - bytes.start) as usize]);
        return;
    }
    out.extend_from_slice(&encoding[at..at + PARENT_LEN]);
    let left = left_groups(count);
    let left_at = at + PARENT_LEN;
    if geometry.wanted(ranges, first, left) {
        write_from_encoding(geometry, encoding, ranges, first, left, left_at, out);
    }
    if geometry.wanted(ranges, first + left, count - left) {
        let right_at = left_at + geometry.encoded_len(first, left) as usize;
        write_from_encoding(geometry, encoding, ranges, first + left, count - left, right_at, out);
    }
}

/// The slice extractor's walk over the tree: the nodes of subtrees that
/// meet a range.
#[cfg(feature = "alloc")]
struct SliceWalk<'a> {
    geometry: Geometry,
    input: &'a [u8],
    outboard: &'a Outboard,
    ranges: &'a [Range<u64>],
}

#[cfg(feature = "alloc")]
impl SliceWalk<'_> {
    /// Writes the subtree of groups `first..first + count`, whose parents
    /// take the outboard's places from `place` on (the subtree's own node
    /// first in pre-order, last in post-order).
    fn write(&self, first: u64, count: u64, place: u64, out: &mut Vec<u8>) {
        if count == 1 {
            let bytes = self.geometry.bytes(first, 1);
            out.extend_from_slice(&self.input[bytes.start as usize..bytes.end as usize]);
            return;
        }
        let left = left_groups(count);
        let (own, left_place) = match self.outboard.order {
            Order::Pre => (place, place + 1),
            Order::Post => (place + count - 2, place),
        };
        out.extend_from_slice(&self.outboard.node(own));
        if self.geometry.wanted(self.ranges, first, left) {
            self.write(first, left, left_place, out);
        }
        if self.geometry.wanted(self.ranges, first + left, count - left) {
            self.write(first + left, count - left, left_place + left - 1, out);
        }
    }
}

/// Writes a message's parents straight into a buffer of the right size.
/// Each subtree's nodes are one stretch of the buffer in either order (a
/// parent, then its left and right subtrees; or the subtrees, then the
/// parent), so the recursion hands each half its own stretch, and with
/// `parallel` its own thread. At the bottom, a block of groups of up to
/// `BATCH_CHUNKS` chunks is hashed side by side in the lanes, then level by
/// level, and written from those levels while they are in the cache: no
/// level of the whole tree is ever held.
#[cfg(feature = "alloc")]
struct Writer<'a> {
    tree: &'a Tree,
    geometry: Geometry,
    /// The message's bytes from `offset` on (at least the subtrees written).
    input: &'a [u8],
    offset: u64,
    order: Order,
}

/// The chaining values of one block's tree, level by level as `hash` pairs
/// them up: level `j` holds one value per 2^j groups (the last one covering
/// what is left), up to the two children of the block's top.
#[cfg(feature = "alloc")]
struct BlockLevels {
    cvs: [CvBytes; 2 * BATCH_CHUNKS],
    /// Where level `j` starts in `cvs`.
    starts: [usize; BLOCK_LEVELS],
}

/// Levels of a block of at most `BATCH_CHUNKS` (2^7) groups.
#[cfg(feature = "alloc")]
const BLOCK_LEVELS: usize = 8;

#[cfg(feature = "alloc")]
impl BlockLevels {
    /// The value of the block's groups `first..first + count` (a subtree of
    /// the block).
    fn cv(&self, first: u64, count: u64) -> &CvBytes {
        let level = ceil_log2(count) as usize;
        &self.cvs[self.starts[level] + (first >> level) as usize]
    }
}

#[cfg(feature = "alloc")]
impl Writer<'_> {
    /// Groups of a block: `BATCH_CHUNKS` chunks' worth, at least one.
    fn block_groups(&self) -> u64 {
        (BATCH_CHUNKS >> self.tree.group_log).max(1) as u64
    }

    /// The bytes of groups `first..first + count`.
    fn input_of(&self, first: u64, count: u64) -> &[u8] {
        let bytes = self.geometry.bytes(first, count);
        &self.input[(bytes.start - self.offset) as usize..(bytes.end - self.offset) as usize]
    }

    /// Writes the whole tree into `out` (its stretch) and returns the root
    /// hash.
    fn root(&self, out: &mut [u8], parallel: bool) -> Hash {
        let groups = self.geometry.groups;
        if groups == 1 {
            return self.tree.root(self.input);
        }
        let cv = match parallel {
            #[cfg(feature = "parallel")]
            true => self.subtree::<super::join::RayonJoin>(0, groups, true, out),
            _ => self.subtree::<SerialJoin>(0, groups, true, out),
        };
        Hash::from(cv)
    }

    /// Writes the subtree of groups `first..first + count` (more than one)
    /// into `out`, its stretch, and returns its chaining value (the root
    /// hash for the root).
    fn subtree<J: Join>(&self, first: u64, count: u64, is_root: bool, out: &mut [u8]) -> CvBytes {
        if count <= self.block_groups() {
            return self.block(first, count, is_root, out);
        }
        let left = left_groups(count);
        let (node, rest) = match self.order {
            Order::Pre => out.split_at_mut(PARENT_LEN),
            Order::Post => {
                let (rest, node) = out.split_at_mut(out.len() - PARENT_LEN);
                (node, rest)
            }
        };
        let (left_out, right_out) = rest.split_at_mut((left as usize - 1) * PARENT_LEN);
        let bytes = self.geometry.bytes(first, count);
        let (left_cv, right_cv) = if (bytes.end - bytes.start) as usize >= J::MIN_PARALLEL_LEN {
            J::join(
                || self.subtree::<J>(first, left, false, left_out),
                || self.subtree::<J>(first + left, count - left, false, right_out),
            )
        } else {
            (
                self.subtree::<J>(first, left, false, left_out),
                self.subtree::<J>(first + left, count - left, false, right_out),
            )
        };
        self.parent(&left_cv, &right_cv, is_root, node)
    }

    /// Writes the parent of two values into `node` and returns its value.
    fn parent(&self, left: &CvBytes, right: &CvBytes, is_root: bool, node: &mut [u8]) -> CvBytes {
        node[..OUT_LEN].copy_from_slice(left);
        node[OUT_LEN..].copy_from_slice(right);
        self.parent_value(left, right, is_root)
    }

    fn parent_value(&self, left: &CvBytes, right: &CvBytes, is_root: bool) -> CvBytes {
        let mode = &self.tree.mode.tree;
        if is_root {
            mode.parent_output(left, right).root_hash()
        } else {
            mode.parent_cv(left, right)
        }
    }

    /// A block: groups `first..first + count` (more than one when the
    /// block is the root), at most `block_groups`.
    fn block(&self, first: u64, count: u64, is_root: bool, out: &mut [u8]) -> CvBytes {
        let input = self.input_of(first, count);
        let first_chunk = self.geometry.bytes(first, count).start / CHUNK_LEN as u64;
        let mode = &self.tree.mode.tree;
        if count == 1 {
            return mode.subtree_cv::<SerialJoin>(input, first_chunk);
        }
        // More than one group: the block's chunks fill at most one batch.
        // Its chunks side by side, then each level of parents (inside the
        // groups, not stored, then the nodes') in one call, as `hash` does.
        let mut levels = BlockLevels { cvs: [[0; OUT_LEN]; 2 * BATCH_CHUNKS], starts: [0; BLOCK_LEVELS] };
        let group_log = u32::from(self.tree.group_log);
        let (mut start, mut len) = (0, mode.hash_chunks(input, first_chunk, &mut levels.cvs));
        for level in 0u32.. {
            if let Some(node_level) = level.checked_sub(group_log) {
                levels.starts[node_level as usize] = start;
                if len <= 2 {
                    break;
                }
            }
            let (below, above) = levels.cvs.split_at_mut(start + len);
            let next = mode.pair_up(&below[start..], above);
            start += len;
            len = next;
        }
        if count.is_power_of_two() {
            self.write_complete_block(&levels, count, out);
        } else {
            self.write_block(&levels, 0, count, out, &mut 0);
        }
        self.parent_value(&levels.cvs[start], &levels.cvs[start + 1], is_root)
    }

    /// Writes the nodes of a complete block of `count` groups (a power of
    /// two) into `out`, level by level: each node is the pair of values
    /// below it, and its place has a closed form.
    fn write_complete_block(&self, levels: &BlockLevels, count: u64, out: &mut [u8]) {
        let height = count.trailing_zeros();
        for level in 1..=height {
            let below = &levels.cvs[levels.starts[level as usize - 1]..][..(count >> (level - 1)) as usize];
            for (index, pair) in below.as_chunks::<2>().0.iter().enumerate() {
                // The parents of the complete subtrees left of it, then
                // (pre-order) its ancestors or (post-order) its descendants.
                let left_of = Geometry::parents_left_of((index as u64) << level);
                let place = match self.order {
                    Order::Pre => left_of + u64::from(height - level),
                    Order::Post => left_of + (1 << level) - 2,
                } as usize;
                out[place * PARENT_LEN..][..PARENT_LEN].copy_from_slice(pair.as_flattened());
            }
        }
    }

    /// Writes the nodes of the block's groups `local..local + count` at
    /// `*at` of `out`, in order (the block at the tree's right edge).
    fn write_block(&self, levels: &BlockLevels, local: u64, count: u64, out: &mut [u8], at: &mut usize) {
        if count == 1 {
            return;
        }
        let left = left_groups(count);
        let node = |out: &mut [u8], at: &mut usize| {
            out[*at..*at + OUT_LEN].copy_from_slice(levels.cv(local, left));
            out[*at + OUT_LEN..*at + PARENT_LEN].copy_from_slice(levels.cv(local + left, count - left));
            *at += PARENT_LEN;
        };
        if self.order == Order::Pre {
            node(out, at);
        }
        self.write_block(levels, local, left, out, at);
        self.write_block(levels, local + left, count - left, out, at);
        if self.order == Order::Post {
            node(out, at);
        }
    }
}

/// An outboard made from its message in pieces, the same bytes as
/// [`Tree::outboard`]'s, for a caller that cannot lend the whole message at
/// once: a binding copying it into its own memory piece by piece, each
/// piece hashed while it is still in the cache. The message's length is
/// given first ([`Tree::outboard_builder`]); the pieces come in order, and
/// each but the last is a whole subtree: 2^j groups for some `j`, starting
/// at a multiple of its own length (pieces of one such length, the last
/// one shorter, always are).
#[cfg(feature = "alloc")]
#[derive(Clone, Debug)]
pub struct OutboardBuilder {
    tree: Tree,
    order: Order,
    geometry: Geometry,
    /// `bao`'s file: the header, then the nodes, each written once known.
    bytes: Vec<u8>,
    /// The subtrees hashed whose parents are not yet (first group, groups,
    /// value), left to right: the message so far, as the binary digits of
    /// `taken`.
    stack: ArrayVec<(u64, u64, CvBytes), 64>,
    /// Groups taken.
    taken: u64,
    root: Option<Hash>,
}

#[cfg(feature = "alloc")]
impl OutboardBuilder {
    /// Bytes of the message taken so far.
    pub fn position(&self) -> u64 {
        self.taken.saturating_mul(self.geometry.group_len()).min(self.geometry.len)
    }

    /// Hashes the next piece and writes its nodes. An empty piece adds
    /// nothing, as every hasher's update (the empty message's one group is
    /// taken by [`finish`](OutboardBuilder::finish)). An error
    /// ([`BaoError::Piece`], the builder unchanged) for a piece past the
    /// message's end, or one that is not the last and not a whole subtree.
    pub fn update(&mut self, piece: &[u8]) -> Result<(), BaoError> {
        if piece.is_empty() {
            return Ok(());
        }
        self.take(piece, false)
    }

    fn take(&mut self, piece: &[u8], parallel: bool) -> Result<(), BaoError> {
        let geometry = self.geometry;
        let offset = self.position();
        let error = BaoError::Piece { offset, len: piece.len() as u64, message_len: geometry.len };
        let left = geometry.len - offset;
        let last = piece.len() as u64 == left;
        let (first, count) =
            (self.taken, if last { geometry.groups - self.taken } else { piece.len() as u64 / geometry.group_len() });
        // The last piece ends the tree's right edge: within the subtree
        // that `first`'s lowest set bit makes.
        let whole = if last {
            self.root.is_none() && (first == 0 || count <= 1 << first.trailing_zeros())
        } else {
            (piece.len() as u64) < left
                && piece.len() as u64 == count * geometry.group_len()
                && count.is_power_of_two()
                && first.is_multiple_of(count)
        };
        if !whole {
            return Err(error);
        }
        let writer = Writer { tree: &self.tree, geometry, input: piece, offset, order: self.order };
        self.taken += count;
        let nodes = &mut self.bytes[HEADER_LEN..];
        if first == 0 && last {
            self.root = Some(writer.root(nodes, parallel));
            return Ok(());
        }
        let start = geometry.stretch_start(self.order, first, count) as usize * PARENT_LEN;
        let stretch = &mut nodes[start..start + (count as usize - 1) * PARENT_LEN];
        let cv = match parallel {
            #[cfg(feature = "parallel")]
            true => writer.subtree::<super::join::RayonJoin>(first, count, false, stretch),
            _ => writer.subtree::<SerialJoin>(first, count, false, stretch),
        };
        self.stack.push((first, count, cv));
        // Equal neighbours are siblings; the right edge joins up at the end.
        while let [.., (first, count, left), (_, right_count, right)] = self.stack[..] {
            if count != right_count && !last {
                break;
            }
            let is_root = self.stack.len() == 2 && last;
            let at = geometry.node_place(self.order, first, count + right_count) as usize * PARENT_LEN;
            let cv = writer.parent(&left, &right, is_root, &mut nodes[at..at + PARENT_LEN]);
            self.stack.truncate(self.stack.len() - 2);
            self.stack.push((first, count + right_count, cv));
            if is_root {
                self.root = Some(Hash::from(cv));
            }
        }
        Ok(())
    }

    /// The outboard, once the last piece is in; an error
    /// ([`BaoError::Piece`], of no bytes) if the message is not all there.
    pub fn finish(mut self) -> Result<Outboard, BaoError> {
        if self.geometry.len == 0 && self.root.is_none() {
            self.take(&[], false)?;
        }
        let Some(root) = self.root else {
            return Err(BaoError::Piece { offset: self.position(), len: 0, message_len: self.geometry.len });
        };
        Ok(Outboard { root, len: self.geometry.len, order: self.order, bytes: self.bytes })
    }
}

/// What a [`Decoder`] needs next, and how many bytes it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Want {
    /// The 8-byte length header.
    Header,
    /// A parent node of [`PARENT_LEN`] bytes.
    Parent,
    /// The group of the message's bytes `offset..offset + len`.
    Group {
        /// Where the group starts in the message.
        offset: u64,
        /// Its length (the last group may be short, the empty message's
        /// group is empty).
        len: usize,
    },
    /// Nothing: every requested byte was verified.
    Done,
}

impl Want {
    /// Bytes of the item: 0 for `Done` (and for the empty message's group).
    pub fn len(&self) -> usize {
        match *self {
            Want::Header => HEADER_LEN,
            Want::Parent => PARENT_LEN,
            Want::Group { len, .. } => len,
            Want::Done => 0,
        }
    }

    /// Whether the item has no bytes.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// A subtree the decoder will read: its groups and the chaining value it
/// must have.
#[derive(Clone, Copy, Debug)]
struct Pending {
    first: u64,
    count: u64,
    cv: CvBytes,
    is_root: bool,
}

/// Chunks [`Decoder::feed_stream`] hashes in one step: a few calls of the
/// widest kernel (16 lanes), like the wide steps of `hash`.
const VERIFY_CHUNKS: usize = 128;

/// Parents one step of [`Decoder::feed_stream`] verifies at most.
const VERIFY_PARENTS: usize = 128;

/// An item of one [`Decoder::feed_stream`] step: where it lies in the
/// stream, the subtree it must prove, and where its value will be (its
/// first chunk's place among the step's chunks, or its place among the
/// step's parents).
#[derive(Clone, Copy, Debug)]
struct BatchItem {
    at: usize,
    len: usize,
    slot: usize,
    pending: Pending,
    parent: bool,
}

/// Deepest a tree of 2^64 bytes goes (54 levels above 1 KiB groups), with
/// room for the right siblings waiting on the way down.
const MAX_PENDING: usize = 66;

/// Checks a slice or combined encoding item by item against a root hash.
/// No allocation: the caller reads [`want`](Decoder::want)'s bytes and
/// hands them to [`feed`](Decoder::feed), which returns a group only once
/// it is verified. The first item that does not verify is an error, and
/// the decoder stays failed. [`SliceReader`] wraps it for `std::io::Read`.
#[derive(Clone, Debug)]
pub struct Decoder<'r> {
    tree: Tree,
    root: CvBytes,
    ranges: Ranges<'r>,
    geometry: Option<Geometry>,
    pending: ArrayVec<Pending, MAX_PENDING>,
    position: u64,
    failed: bool,
}

/// A group whose bytes are verified: `bytes` are the message's bytes from
/// `offset` on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Verified<'a> {
    /// Where the group starts in the message.
    pub offset: u64,
    /// Its bytes.
    pub bytes: &'a [u8],
}

impl<'a> Verified<'a> {
    /// The group's bytes inside `range` of the message (none for a group
    /// outside it, such as the last group, which a range past the end
    /// reads to prove the length).
    pub fn bytes_in(&self, range: &Range<u64>) -> &'a [u8] {
        let end = self.offset + self.bytes.len() as u64;
        let (from, to) = (range.start.clamp(self.offset, end), range.end.clamp(self.offset, end));
        if from >= to {
            return &[];
        }
        &self.bytes[(from - self.offset) as usize..(to - self.offset) as usize]
    }
}

/// The ranges a decoder serves: borrowed, or one range of its own (for an
/// owner that cannot keep a borrow beside the decoder, as a binding's
/// object).
#[derive(Clone, Debug)]
enum Ranges<'r> {
    Borrowed(&'r [Range<u64>]),
    One([Range<u64>; 1]),
}

impl Ranges<'_> {
    fn as_slice(&self) -> &[Range<u64>] {
        match self {
            Ranges::Borrowed(ranges) => ranges,
            Ranges::One(range) => range,
        }
    }
}

impl Decoder<'static> {
    /// [`Decoder::new`] for the one range `range` (a `bao` slice's), held
    /// by the decoder itself.
    pub fn for_range(tree: Tree, root: Hash, range: Range<u64>) -> Decoder<'static> {
        Decoder::with_ranges(tree, root, Ranges::One([range]))
    }
}

impl<'r> Decoder<'r> {
    /// A decoder of a slice (or combined encoding) for `ranges`, which must
    /// be the ranges the slice was made for (a combined encoding is the
    /// slice for `0..u64::MAX`); the stream starts with the length header.
    pub fn new(tree: Tree, root: Hash, ranges: &'r [Range<u64>]) -> Decoder<'r> {
        Decoder::with_ranges(tree, root, Ranges::Borrowed(ranges))
    }

    fn with_ranges(tree: Tree, root: Hash, ranges: Ranges<'r>) -> Decoder<'r> {
        Decoder {
            tree,
            root: *root.as_bytes(),
            ranges,
            geometry: None,
            pending: ArrayVec::new(),
            position: 0,
            failed: false,
        }
    }

    /// A decoder of a stream without the header (`bao-tree`'s), for a
    /// message whose length the caller knows. A wrong length fails to
    /// verify.
    pub fn with_len(tree: Tree, root: Hash, len: u64, ranges: &'r [Range<u64>]) -> Decoder<'r> {
        let mut decoder = Decoder::new(tree, root, ranges);
        decoder.start(len);
        decoder
    }

    fn start(&mut self, len: u64) {
        let geometry = Geometry::new(len, self.tree.group_log);
        self.geometry = Some(geometry);
        self.pending.push(Pending { first: 0, count: geometry.groups, cv: self.root, is_root: true });
    }

    /// Bytes of the stream consumed so far.
    pub fn position(&self) -> u64 {
        self.position
    }

    /// The next item.
    pub fn want(&self) -> Want {
        let Some(geometry) = self.geometry else { return Want::Header };
        match self.pending.last() {
            None => Want::Done,
            Some(pending) if pending.count > 1 => Want::Parent,
            Some(pending) => {
                let bytes = geometry.bytes(pending.first, 1);
                Want::Group { offset: bytes.start, len: (bytes.end - bytes.start) as usize }
            }
        }
    }

    /// Takes the item [`want`](Decoder::want) asked for: a verified group
    /// comes back, a header or parent gives `None`. Errors: an item of the
    /// wrong length, a node or group that does not match, a call after
    /// `Done` or after an error.
    pub fn feed<'a>(&mut self, item: &'a [u8]) -> Result<Option<Verified<'a>>, BaoError> {
        if self.failed {
            return Err(BaoError::Failed);
        }
        let result = self.take(item);
        self.failed = result.is_err();
        if result.is_ok() {
            self.position += item.len() as u64;
        }
        result
    }

    fn take<'a>(&mut self, item: &'a [u8]) -> Result<Option<Verified<'a>>, BaoError> {
        let want = self.want();
        if want == Want::Done {
            return Err(BaoError::Failed);
        }
        if item.len() != want.len() {
            return Err(BaoError::ItemLength { position: self.position, expected: want.len(), actual: item.len() });
        }
        let Some(geometry) = self.geometry else {
            let len = u64::from_le_bytes(item.try_into().expect("the header is 8 bytes"));
            self.start(len);
            return Ok(None);
        };
        let pending = self.pending.pop().expect("want is not Done");
        let mode = &self.tree.mode.tree;
        if let Want::Group { offset, .. } = want {
            let cv = if pending.is_root {
                mode.hash::<SerialJoin>(item)
            } else {
                mode.subtree_cv::<SerialJoin>(item, offset / CHUNK_LEN as u64)
            };
            self.check(&cv, &pending, false)?;
            return Ok(Some(Verified { offset, bytes: item }));
        }
        let (left_cv, right_cv) = item.split_at(OUT_LEN);
        let left_cv: CvBytes = left_cv.try_into().expect("a chaining value is 32 bytes");
        let right_cv: CvBytes = right_cv.try_into().expect("a chaining value is 32 bytes");
        let cv = if pending.is_root {
            mode.parent_output(&left_cv, &right_cv).root_hash()
        } else {
            mode.parent_cv(&left_cv, &right_cv)
        };
        self.check(&cv, &pending, true)?;
        self.push_children(&geometry, &pending, left_cv, right_cv);
        Ok(None)
    }

    /// Takes as many whole items from the front of `stream` as fit one
    /// step, verifies them together (the chunks of many groups side by
    /// side in the SIMD lanes, then their parents, as [`hash`](super::hash)
    /// does), and hands the verified groups to `out` in message order.
    /// Returns the bytes of `stream` consumed: 0 if it does not hold the
    /// next whole item ([`want`](Decoder::want)), fewer than all when the
    /// rest is for a later step; call again with the rest.
    ///
    /// On an error (the first item, in stream order, that does not verify),
    /// the groups before it have been handed out and none after it, and
    /// the decoder stays failed.
    pub fn feed_stream<'a>(&mut self, stream: &'a [u8], mut out: impl FnMut(Verified<'a>)) -> Result<usize, BaoError> {
        if self.failed {
            return Err(BaoError::Failed);
        }
        let mut used = 0;
        // The header, the root and groups too large to share a step go one
        // at a time (a large group fills the lanes on its own).
        loop {
            let want = self.want();
            if want == Want::Done || stream.len() - used < want.len() {
                return Ok(used);
            }
            let alone = match (want, self.pending.last()) {
                (Want::Header, _) => true,
                (_, Some(pending)) if pending.is_root => true,
                (Want::Group { len, .. }, _) => len.div_ceil(CHUNK_LEN) > VERIFY_CHUNKS,
                _ => false,
            };
            if !alone {
                break;
            }
            if let Some(verified) = self.feed(&stream[used..used + want.len()])? {
                out(verified);
            }
            used += want.len();
        }
        let geometry = self.geometry.expect("past the header");
        let mode = self.tree.mode.tree;
        let group_log = self.tree.group_log;
        // The step's items in stream order, and what they hash.
        let mut items = ArrayVec::<BatchItem, { VERIFY_PARENTS + VERIFY_CHUNKS }>::new();
        let mut children = ArrayVec::<CvBytes, { 2 * VERIFY_PARENTS }>::new();
        let mut jobs = ArrayVec::<LaneJob<'a>, VERIFY_CHUNKS>::new();
        // Chunks, then each group's levels, then parents: all side by side.
        // A group of at least a kernel call's chunks is hashed at once by
        // the kernel `hash` uses for consecutive chunks; smaller ones wait
        // for the step's other groups, to share the lanes as jobs.
        let mut chunk_cvs = [[0u8; OUT_LEN]; VERIFY_CHUNKS];
        let mut chunk_count = 0;
        let whole_groups = 1usize << group_log >= mode.lanes();
        let start = used;
        while let Some(&pending) = self.pending.last() {
            let bytes = geometry.bytes(pending.first, 1);
            let len = if pending.count > 1 { PARENT_LEN } else { (bytes.end - bytes.start) as usize };
            let chunks = len.div_ceil(CHUNK_LEN);
            let full = if pending.count > 1 {
                children.is_full()
            } else {
                // Each group's chunks start at a multiple of the group's
                // chunk count, so the levels pair up group by group.
                pending.is_root || chunks > VERIFY_CHUNKS - chunk_count
            };
            if full || stream.len() - used < len {
                break;
            }
            let item = &stream[used..used + len];
            self.pending.pop();
            if pending.count > 1 {
                let (left_cv, right_cv) = item.split_at(OUT_LEN);
                let left_cv: CvBytes = left_cv.try_into().expect("a chaining value is 32 bytes");
                let right_cv: CvBytes = right_cv.try_into().expect("a chaining value is 32 bytes");
                items.push(BatchItem { at: used, len, slot: children.len() / 2, pending, parent: true });
                children.push(left_cv);
                children.push(right_cv);
                self.push_children(&geometry, &pending, left_cv, right_cv);
            } else {
                items.push(BatchItem { at: used, len, slot: chunk_count, pending, parent: false });
                let first_chunk = bytes.start / CHUNK_LEN as u64;
                if whole_groups {
                    mode.hash_chunks(item, first_chunk, &mut chunk_cvs[chunk_count..]);
                } else {
                    for (index, chunk) in item.chunks(CHUNK_LEN).enumerate() {
                        jobs.push(mode.chunk_job(chunk, first_chunk + index as u64, false));
                    }
                }
                chunk_count += chunks;
            }
            used += len;
        }
        let mut pairs = [[0u8; OUT_LEN]; VERIFY_CHUNKS / 2];
        if !jobs.is_empty() {
            mode.hash_jobs(&jobs, &mut chunk_cvs[..jobs.len()]);
        }
        let (mut level, mut next): (&mut [CvBytes], &mut [CvBytes]) = (&mut chunk_cvs, &mut pairs);
        let mut count = chunk_count;
        for _ in 0..group_log {
            count = mode.pair_up(&level[..count], next);
            core::mem::swap(&mut level, &mut next);
        }
        let mut parent_cvs = [[0u8; OUT_LEN]; VERIFY_PARENTS];
        if !children.is_empty() {
            mode.pair_up(&children, &mut parent_cvs);
        }
        let base = self.position - start as u64;
        for item in &items {
            let cv = if item.parent { &parent_cvs[item.slot] } else { &level[item.slot >> group_log] };
            self.position = base + item.at as u64;
            if let Err(error) = self.check(cv, &item.pending, item.parent) {
                self.failed = true;
                return Err(error);
            }
            if !item.parent {
                let offset = geometry.bytes(item.pending.first, 1).start;
                out(Verified { offset, bytes: &stream[item.at..item.at + item.len] });
            }
        }
        self.position = base + used as u64;
        Ok(used)
    }

    /// Verifies `stream`, the whole rest of a slice or encoding held in
    /// memory, handing the verified groups to `out` in message order (as
    /// [`feed_stream`](Decoder::feed_stream), step after step). Errors: the
    /// first item that does not verify, a stream that ends before every
    /// requested byte is verified ([`BaoError::Truncated`]), or one that goes
    /// on after the slice's end ([`BaoError::Extended`], once every group is
    /// handed out).
    pub fn feed_all<'a>(&mut self, stream: &'a [u8], mut out: impl FnMut(Verified<'a>)) -> Result<(), BaoError> {
        let mut used = 0;
        loop {
            let want = self.want();
            if want == Want::Done {
                break;
            }
            if stream.len() - used < want.len() {
                self.failed = true;
                let end = self.position + (stream.len() - used) as u64;
                return Err(BaoError::Truncated { position: self.position, len: want.len(), end });
            }
            used += self.feed_stream(&stream[used..], &mut out)?;
        }
        if used < stream.len() {
            return Err(BaoError::Extended { position: self.position, extra: (stream.len() - used) as u64 });
        }
        Ok(())
    }

    /// Queues the children of a parent that meet the ranges, left on top.
    fn push_children(&mut self, geometry: &Geometry, pending: &Pending, left_cv: CvBytes, right_cv: CvBytes) {
        let left = left_groups(pending.count);
        let right = Pending { first: pending.first + left, count: pending.count - left, cv: right_cv, is_root: false };
        let left = Pending { first: pending.first, count: left, cv: left_cv, is_root: false };
        // The stack pops the left subtree first; a parent is popped before
        // its children are pushed, so the depth stays within the tree's.
        for child in [right, left] {
            if geometry.wanted(self.ranges.as_slice(), child.first, child.count) {
                self.pending.push(child);
            }
        }
    }

    fn check(&self, cv: &CvBytes, pending: &Pending, parent: bool) -> Result<(), BaoError> {
        if Hash::from(*cv) == Hash::from(pending.cv) {
            return Ok(());
        }
        let geometry = self.geometry.expect("checked after the header");
        Err(BaoError::Mismatch { position: self.position, offset: geometry.bytes(pending.first, 1).start, parent })
    }
}

/// A reader of the verified bytes of a slice or combined encoding: the
/// requested ranges' bytes in message order (each byte once, ranges capped
/// at the end), each group handed out only after it is verified. For one
/// range (`bao`'s slices) that is exactly the range; where two ranges meet
/// one group, the bytes between them in that group come too (verified all
/// the same): per group, from its first requested byte to its last. Errors
/// come as `std::io::Error`s of kind `InvalidData` (a [`BaoError`] inside)
/// or `UnexpectedEof` for a short stream.
///
/// It reads the stream in large pieces and verifies many groups per step
/// ([`Decoder::feed_stream`]), but never waits for more bytes than the next
/// item needs.
#[cfg(feature = "std")]
#[derive(Debug)]
pub struct SliceReader<'r, R> {
    inner: R,
    decoder: Decoder<'r>,
    /// Stream bytes read: `buf[consumed..filled]` not yet verified.
    buf: Vec<u8>,
    consumed: usize,
    filled: usize,
    /// Verified bytes not yet handed out, as ranges of `buf`, in order.
    ready: std::collections::VecDeque<Range<usize>>,
    /// The error that stopped the decoder, once `ready` is read.
    error: Option<BaoError>,
}

/// Bytes a [`SliceReader`] asks its stream for at once.
#[cfg(feature = "std")]
const READ_AHEAD: usize = 256 * 1024;

#[cfg(feature = "std")]
impl<'r, R: std::io::Read> SliceReader<'r, R> {
    /// A reader of the slice in `inner` made for `ranges`; [`WHOLE`] reads
    /// a whole combined encoding.
    pub fn new(inner: R, tree: Tree, root: Hash, ranges: &'r [Range<u64>]) -> Self {
        Self::from_decoder(inner, Decoder::new(tree, root, ranges))
    }

    /// A reader of a stream without the length header ([`Decoder::with_len`]).
    pub fn with_len(inner: R, tree: Tree, root: Hash, len: u64, ranges: &'r [Range<u64>]) -> Self {
        Self::from_decoder(inner, Decoder::with_len(tree, root, len, ranges))
    }

    fn from_decoder(inner: R, decoder: Decoder<'r>) -> Self {
        SliceReader { inner, decoder, buf: Vec::new(), consumed: 0, filled: 0, ready: Default::default(), error: None }
    }

    /// The stream it reads (bytes read ahead past the slice's end are lost).
    pub fn into_inner(self) -> R {
        self.inner
    }

    /// Reads and verifies until some requested bytes are ready; false at
    /// the end.
    fn advance(&mut self) -> std::io::Result<bool> {
        while self.ready.is_empty() {
            if let Some(error) = self.error.take() {
                return Err(std::io::Error::new(std::io::ErrorKind::InvalidData, error));
            }
            let want = self.decoder.want();
            if want == Want::Done {
                return Ok(false);
            }
            if self.filled - self.consumed < want.len() {
                // Read until the next item is whole, in pieces of up to
                // READ_AHEAD, so that one step verifies many items. The
                // unread rest moves to the front only here, when less than
                // an item is left.
                self.buf.copy_within(self.consumed..self.filled, 0);
                self.filled -= self.consumed;
                self.consumed = 0;
                if self.buf.len() < want.len().max(READ_AHEAD) {
                    self.buf.resize(want.len().max(READ_AHEAD), 0);
                }
                while self.filled < want.len() {
                    match self.inner.read(&mut self.buf[self.filled..]) {
                        Ok(0) => return Err(std::io::ErrorKind::UnexpectedEof.into()),
                        Ok(n) => self.filled += n,
                        Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                        Err(e) => return Err(e),
                    }
                }
            }
            let ranges = self.decoder.ranges.clone();
            let (decoder, ready, buf) = (&mut self.decoder, &mut self.ready, &self.buf);
            let result = decoder.feed_stream(&buf[self.consumed..self.filled], |Verified { offset, bytes }| {
                // The wanted part of the group: from its first requested
                // byte to its last.
                let end = offset + bytes.len() as u64;
                let (mut lo, mut hi) = (end, offset);
                for range in ranges.as_slice() {
                    let (start, stop) = (range.start.max(offset), range.end.min(end));
                    if start < stop {
                        lo = lo.min(start);
                        hi = hi.max(stop);
                    }
                }
                if lo < hi {
                    let at = bytes.as_ptr() as usize - buf.as_ptr() as usize;
                    ready.push_back(at + (lo - offset) as usize..at + (hi - offset) as usize);
                }
            });
            match result {
                Ok(used) => self.consumed += used,
                // The groups verified before the failing item are handed
                // out first; the error comes at the next read.
                Err(error) if !self.ready.is_empty() => self.error = Some(error),
                Err(error) => return Err(std::io::Error::new(std::io::ErrorKind::InvalidData, error)),
            }
        }
        Ok(true)
    }
}

#[cfg(feature = "std")]
impl<R: std::io::Read> std::io::Read for SliceReader<'_, R> {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        if self.ready.is_empty() && !self.advance()? {
            return Ok(0);
        }
        let range = self.ready.front_mut().expect("advance made bytes ready");
        let n = out.len().min(range.len());
        out[..n].copy_from_slice(&self.buf[range.start..range.start + n]);
        range.start += n;
        if range.start == range.end {
            self.ready.pop_front();
        }
        Ok(n)
    }
}

/// A Bao call that cannot give verified bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum BaoError {
    /// A parent node or group does not hash to the value its parent (or
    /// the root hash) holds: damage, another message, another root, another
    /// mode or group size, or a wrong length header.
    Mismatch {
        /// Where the item starts in the stream.
        position: u64,
        /// Where the subtree it covers starts in the message.
        offset: u64,
        /// A parent node (else a group).
        parent: bool,
    },
    /// An item of the wrong length was fed to the decoder.
    ItemLength {
        /// Where the item starts in the stream.
        position: u64,
        /// The length the decoder wanted.
        expected: usize,
        /// The length given.
        actual: usize,
    },
    /// An outboard whose node bytes do not fit the message's length.
    OutboardLength {
        /// The message's length.
        len: u64,
        /// Node bytes its tree has.
        expected: u64,
        /// Node bytes given.
        actual: u64,
    },
    /// A combined encoding whose length does not fit its header.
    EncodingLength {
        /// The message's length in the header (`None`: no whole header).
        len: Option<u64>,
        /// The encoding's length.
        actual: u64,
    },
    /// A group size past [`MAX_GROUP_LOG`].
    GroupLog {
        /// The group size's log (of chunks) given.
        group_log: u8,
    },
    /// The decoder was used after an error or after the end.
    Failed,
    /// A stream, given whole to [`Decoder::feed_all`], that ends inside an
    /// item.
    Truncated {
        /// Where the item starts in the stream.
        position: u64,
        /// The item's length.
        len: usize,
        /// Where the stream ends.
        end: u64,
    },
    /// A stream, given whole to [`Decoder::feed_all`], that goes on after
    /// the slice's end.
    Extended {
        /// Where the slice ends in the stream.
        position: u64,
        /// Bytes after it.
        extra: u64,
    },
    /// An outboard larger than the target can address (a message of
    /// more than 2^35 bytes with 1 KiB groups on a 32-bit target), or
    /// than the memory it can allocate.
    OutboardSize {
        /// The message's length.
        len: u64,
        /// The outboard's bytes, header included.
        bytes: u64,
    },
    /// A piece given to an [`OutboardBuilder`] that runs past the
    /// message's length, or is not its last and not a whole subtree; or
    /// (`len` 0) the builder finished before the message's end.
    Piece {
        /// Where the piece starts in the message.
        offset: u64,
        /// Its length.
        len: u64,
        /// The message's length given to the builder.
        message_len: u64,
    },
}

impl fmt::Display for BaoError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            BaoError::Mismatch { position, offset, parent } => {
                let what = if parent { "parent node" } else { "chunk group" };
                write!(f, "the {what} at byte {position} of the stream (message offset {offset}) does not verify")
            }
            BaoError::ItemLength { position, expected, actual } => {
                write!(f, "item at byte {position} of the stream is {actual} bytes, the decoder wants {expected}")
            }
            BaoError::OutboardLength { len, expected, actual } => {
                write!(f, "an outboard of a {len}-byte message has {expected} bytes of nodes, not {actual}")
            }
            BaoError::EncodingLength { len: None, actual } => {
                write!(f, "an encoding of {actual} bytes is shorter than its 8-byte header")
            }
            BaoError::EncodingLength { len: Some(len), actual } => {
                write!(f, "an encoding of {actual} bytes does not fit the length {len} in its header")
            }
            BaoError::GroupLog { group_log } => {
                write!(f, "chunk group log {group_log} is past the largest, {MAX_GROUP_LOG}")
            }
            BaoError::Failed => write!(f, "the decoder has already failed or finished"),
            BaoError::Truncated { position, len, end } => {
                write!(f, "the stream ends at byte {end}, inside an item of {len} bytes that starts at byte {position}")
            }
            BaoError::Extended { position, extra } => {
                write!(f, "{extra} bytes follow the end of the slice at byte {position}")
            }
            BaoError::OutboardSize { len, bytes } => {
                write!(f, "the {bytes}-byte outboard of a {len}-byte message is too large for this target's memory")
            }
            BaoError::Piece { offset, len: 0, message_len } if offset < message_len => {
                write!(f, "the pieces end at byte {offset} of a {message_len}-byte message")
            }
            BaoError::Piece { offset, len, message_len } => write!(
                f,
                "a piece of {len} bytes at byte {offset} of a {message_len}-byte message runs past its end \
                 or is not the last piece and not a whole subtree (2^j groups starting at a multiple of its length)"
            ),
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for BaoError {}
