//! Subtrees of the BLAKE3 tree: one message hashed in pieces, on many
//! threads, processes or machines, and merged into the one standard hash.
//!
//! A worker hashes a range of the input that starts at a chunk boundary to
//! a [`Subtree`]: its chaining value (the non-root hash of the range's
//! subtree) with its offset and length. Two neighbouring subtrees merge into
//! their parent with [`Mode::merge`], and the last two into the root with
//! [`Mode::merge_root`] (the 32-byte hash) or [`Mode::merge_root_xof`]
//! (extended output). [`left_len`] says where the tree splits a range in
//! two, and [`max_subtree_len`] how long a subtree an offset allows.
//!
//! ```
//! use chunkhash::blake3::{self, subtree};
//!
//! let input = vec![7u8; 100_000];
//! let mode = subtree::Mode::hash();
//! // Where the root splits the input; each half could be hashed elsewhere.
//! let split = subtree::left_len(input.len() as u64)? as usize;
//! let left = mode.subtree(&input[..split], 0)?;
//! let right = mode.subtree(&input[split..], split as u64)?;
//! assert_eq!(mode.merge_root(&left, &right)?, blake3::hash(&input));
//! # Ok::<(), subtree::SubtreeError>(())
//! ```
//!
//! The same tree as the official `blake3` crate's `hazmat` module, under our
//! own names, with the tree's shape checked: a subtree carries its span, so
//! a merge of two values that are not the two children of one node is an
//! error, not a wrong hash.
//!
//! # Misuse, and what breaks
//!
//! BLAKE3 gives a chunk a counter (its index in the message) and marks
//! every node as a chunk, a parent or the root. A chaining value is right
//! only for the one place in the one tree it was computed for, and nothing
//! in its 32 bytes says which place that was. So:
//!
//! - **An offset that is not a multiple of [`CHUNK_LEN`]** would hash bytes
//!   that belong to two chunks as one: garbage. Refused with
//!   [`SubtreeError::UnalignedOffset`].
//! - **A subtree too long for its offset**: the subtree that starts at chunk
//!   `c > 0` holds at most the largest power of two of chunks dividing `c`
//!   ([`max_subtree_len`]); past that, the standard tree merges some of its
//!   chunks with chunks to the left of the offset, so no merge of the
//!   range's value can give the standard hash. Refused with
//!   [`SubtreeError::TooLong`]; an empty range with [`SubtreeError::Empty`].
//! - **Two values that are not siblings**: a parent's left child is a
//!   complete power-of-two number of chunks ([`left_len`] of their total),
//!   its right child the rest, right after it. Anything else hashes a node
//!   that is not in the tree. [`Mode::merge`] checks the spans and returns
//!   [`SubtreeError::NotSiblings`] (or `TooLong` when the parent would not
//!   fit its offset).
//! - **A root merged twice, or too early**: the root carries the `ROOT`
//!   flag, and a root hash is not a chaining value: merging it again, or
//!   merging the root of only the first part of a message, gives a value
//!   no standard hasher produces. The types keep a root (a
//!   [`Hash`](struct@Hash) or an [`OutputReader`]) from being merged again,
//!   and [`Mode::merge_root`] refuses a left subtree that does not start at
//!   offset 0 ([`SubtreeError::RootNotAtStart`]). What cannot be checked is
//!   that the two subtrees cover the whole message: only the caller knows
//!   its length.
//! - **A message of one chunk or less** (at most 1024 bytes) has no parent
//!   node: its root is its only chunk, finalized with the `ROOT` flag, which
//!   its chaining value cannot be turned into. Hash it whole with
//!   [`Mode::hash`] (or [`blake3::hash`](super::hash)); there is nothing to
//!   merge (a second subtree would start at offset 1024 and make the
//!   message longer).
//! - **Values from different modes or keys** merge without error into
//!   garbage: a chaining value does not say which key made it. Use one
//!   [`Mode`] for the whole tree.
//!
//! Whatever the checks, compare a new use of this module against
//! [`blake3::hash`](super::hash) of the same input in its tests.

use super::hash::Hash;
use super::hasher::{Hasher, OutputReader};
use super::join::{Join, SerialJoin};
use super::tree;
use crate::platform::backend::{Backend, BackendError};
use crate::platform::spec::{CHUNK_LEN, KEY_LEN, OUT_LEN};
use crate::platform::Platform;
use core::fmt;

/// The non-root hash of a subtree: what its parent node hashes.
pub type ChainingValue = [u8; OUT_LEN];

/// The mode every subtree and merge of one message shares: plain hash,
/// keyed hash or key derivation, and the backend that runs it.
#[derive(Clone, Copy, Debug)]
pub struct Mode {
    tree: tree::Mode,
}

/// The key of key derivation's second tree: the hash of the context string.
/// [`Mode::derive_key_from_context_key`] takes it, so that many workers need
/// not each hash the context.
pub fn context_key(context: &str) -> [u8; KEY_LEN] {
    tree::Mode::context_key(Platform::detect(), context)
}

impl Mode {
    /// The default hash, [`blake3::hash`](super::hash).
    pub fn hash() -> Mode {
        Mode { tree: tree::Mode::plain(Platform::detect()) }
    }

    /// The keyed hash, [`blake3::keyed_hash`](super::keyed_hash).
    pub fn keyed(key: &[u8; KEY_LEN]) -> Mode {
        Mode { tree: tree::Mode::keyed(Platform::detect(), key) }
    }

    /// Key derivation, [`blake3::derive_key`](super::derive_key): the
    /// subtrees are of the key material.
    pub fn derive_key(context: &str) -> Mode {
        Mode { tree: tree::Mode::derive_key(Platform::detect(), context) }
    }

    /// Key derivation from a [`context_key`] computed once.
    pub fn derive_key_from_context_key(context_key: &[u8; KEY_LEN]) -> Mode {
        Mode { tree: tree::Mode::derive_key_material(Platform::detect(), context_key) }
    }

    /// The same mode on a chosen backend; an error if this CPU cannot run it.
    pub fn with_backend(self, backend: Backend) -> Result<Mode, BackendError> {
        Ok(Mode { tree: self.tree.with_platform(Platform::new(backend)?) })
    }

    /// The backend this mode runs on.
    pub fn backend(&self) -> Backend {
        self.tree.backend()
    }

    /// The tree's mode, for the other tree tools of this module's parent.
    pub(super) fn tree_mode(&self) -> tree::Mode {
        self.tree
    }

    /// The subtree of `input`, which starts at byte `offset` of the message,
    /// hashed at full speed (all SIMD lanes, like [`hash`](super::hash)).
    ///
    /// Errors: `offset` not a multiple of [`CHUNK_LEN`], `input` empty or
    /// longer than [`max_subtree_len`] of `offset`.
    pub fn subtree(&self, input: &[u8], offset: u64) -> Result<Subtree, SubtreeError> {
        self.subtree_with::<SerialJoin>(input, offset)
    }

    /// [`subtree`](Mode::subtree) on all cores (rayon's global pool); the
    /// same result, worth it from about 128 KiB.
    #[cfg(feature = "parallel")]
    pub fn subtree_parallel(&self, input: &[u8], offset: u64) -> Result<Subtree, SubtreeError> {
        self.subtree_with::<super::join::RayonJoin>(input, offset)
    }

    fn subtree_with<J: Join>(&self, input: &[u8], offset: u64) -> Result<Subtree, SubtreeError> {
        let span = Span::new(offset, input.len() as u64)?;
        let cv = self.tree.subtree_cv::<J>(input, span.first_chunk());
        Ok(Subtree { cv, span })
    }

    /// An incremental hasher of the subtree that starts at byte `offset`,
    /// for a range that arrives in pieces; an error if `offset` is not a
    /// multiple of [`CHUNK_LEN`].
    pub fn hasher(&self, offset: u64) -> Result<SubtreeHasher, SubtreeError> {
        let max_len = max_len_at(offset)?;
        Ok(SubtreeHasher { hasher: Hasher::at_chunk(self.tree, offset / CHUNK_LEN as u64), offset, max_len })
    }

    /// The parent of two sibling subtrees, not the root: its span covers
    /// both. An error if they are not the left and right child of one node
    /// of the tree (see the [module docs](self)).
    pub fn merge(&self, left: &Subtree, right: &Subtree) -> Result<Subtree, SubtreeError> {
        let span = parent_span(left, right)?;
        Ok(Subtree { cv: self.tree.parent_cv(&left.cv, &right.cv), span })
    }

    /// The hash of a message of more than one chunk from the two children
    /// of its root: `left` starts at offset 0, `right` ends the message.
    /// An error if they are not siblings or `left` does not start at 0.
    pub fn merge_root(&self, left: &Subtree, right: &Subtree) -> Result<Hash, SubtreeError> {
        Ok(Hash::from(self.root_output(left, right)?.root_hash()))
    }

    /// [`merge_root`](Mode::merge_root) as extended output: a reader whose
    /// first 32 bytes are the hash.
    pub fn merge_root_xof(&self, left: &Subtree, right: &Subtree) -> Result<OutputReader, SubtreeError> {
        Ok(OutputReader::new(self.root_output(left, right)?))
    }

    fn root_output(&self, left: &Subtree, right: &Subtree) -> Result<tree::Output, SubtreeError> {
        parent_span(left, right)?;
        if left.span.offset != 0 {
            return Err(SubtreeError::RootNotAtStart { offset: left.span.offset });
        }
        Ok(self.tree.parent_output(&left.cv, &right.cv))
    }

    /// The hash of a whole message in this mode: what a message of one
    /// chunk or less, which has no subtrees to merge, needs.
    pub fn hash_message(&self, input: &[u8]) -> Hash {
        Hash::from(self.tree.hash::<SerialJoin>(input))
    }

    /// [`hash_message`](Mode::hash_message) as extended output.
    pub fn hash_message_xof(&self, input: &[u8]) -> OutputReader {
        OutputReader::new(self.tree.hash_all::<SerialJoin>(input))
    }
}

/// A range of the message and its chaining value: what a worker returns
/// and a merge takes.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Subtree {
    cv: ChainingValue,
    span: Span,
}

impl Subtree {
    /// A subtree from its parts, such as a chaining value received from
    /// another process: an error if the span is not one a subtree can have
    /// (the checks of [`Mode::subtree`]). Whether `cv` is the chaining value
    /// of that span is not checkable.
    pub fn from_parts(cv: ChainingValue, offset: u64, len: u64) -> Result<Subtree, SubtreeError> {
        Ok(Subtree { cv, span: Span::new(offset, len)? })
    }

    /// The chaining value.
    pub fn chaining_value(&self) -> &ChainingValue {
        &self.cv
    }

    /// The byte offset in the message where the subtree starts.
    pub fn offset(&self) -> u64 {
        self.span.offset
    }

    /// The subtree's length in bytes (never 0).
    #[allow(clippy::len_without_is_empty)] // a subtree is never empty
    pub fn len(&self) -> u64 {
        self.span.len
    }
}

/// Where a subtree lies in the message, checked: `offset` on a chunk
/// boundary, `len` from 1 to the offset's maximum, and the end within 2^64.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
struct Span {
    offset: u64,
    len: u64,
}

impl Span {
    fn new(offset: u64, len: u64) -> Result<Span, SubtreeError> {
        let max_len = max_len_at(offset)?;
        if len == 0 {
            return Err(SubtreeError::Empty { offset });
        }
        if len > max_len {
            return Err(SubtreeError::TooLong { offset, len, max_len });
        }
        Ok(Span { offset, len })
    }

    fn first_chunk(&self) -> u64 {
        self.offset / CHUNK_LEN as u64
    }
}

/// The most bytes a subtree at `offset` may hold, counting the end of the
/// 2^64-byte input space; an error for an unaligned offset.
fn max_len_at(offset: u64) -> Result<u64, SubtreeError> {
    let tree_max = max_subtree_len(offset)?.unwrap_or(u64::MAX);
    Ok(tree_max.min(u64::MAX - offset))
}

/// The span of the parent of `left` and `right`, if they are siblings.
fn parent_span(left: &Subtree, right: &Subtree) -> Result<Span, SubtreeError> {
    let (l, r) = (left.span, right.span);
    let not_siblings =
        SubtreeError::NotSiblings { left_offset: l.offset, left_len: l.len, right_offset: r.offset, right_len: r.len };
    // A span's end never overflows (`Span::new`).
    let adjacent = l.offset + l.len == r.offset;
    let total = l.len.checked_add(r.len).ok_or(not_siblings)?;
    if !adjacent || left_len(total) != Ok(l.len) {
        return Err(not_siblings);
    }
    Span::new(l.offset, total)
}

/// How many bytes of a subtree (or message) of `len` bytes belong to its
/// left child: the largest power-of-two number of chunks below `len`. The
/// rest, at least one byte, belongs to the right child.
///
/// An error for `len` of [`CHUNK_LEN`] or less: a single chunk has no
/// children.
pub fn left_len(len: u64) -> Result<u64, SubtreeError> {
    if len <= CHUNK_LEN as u64 {
        return Err(SubtreeError::NoChildren { len });
    }
    Ok(1 << (len - 1).ilog2())
}

/// The most bytes a subtree starting at byte `offset` may hold: `None` at
/// offset 0 (a subtree there may be the whole message), else the largest
/// power of two of chunks that divides the chunk index `offset / 1024`
/// (1024 bytes at chunk 1, 2048 at chunk 2, 1024 at chunk 3, 4096 at 4).
///
/// An error if `offset` is not a multiple of [`CHUNK_LEN`].
pub fn max_subtree_len(offset: u64) -> Result<Option<u64>, SubtreeError> {
    if !offset.is_multiple_of(CHUNK_LEN as u64) {
        return Err(SubtreeError::UnalignedOffset { offset });
    }
    let chunk = offset / CHUNK_LEN as u64;
    Ok((chunk != 0).then(|| tree::alignment(chunk) * CHUNK_LEN as u64))
}

/// Hashes a subtree that arrives in pieces; made by [`Mode::hasher`].
/// Refuses input past the subtree's maximum length, and gives no root hash
/// (a subtree is merged; see [`Mode::hash_message`] for a whole message).
#[derive(Clone, Debug)]
pub struct SubtreeHasher {
    hasher: Hasher,
    offset: u64,
    max_len: u64,
}

impl SubtreeHasher {
    /// Adds input; an error, with nothing added, if the subtree would grow
    /// past [`max_subtree_len`] of its offset.
    pub fn update(&mut self, input: &[u8]) -> Result<&mut Self, SubtreeError> {
        self.check_room(input.len())?;
        self.hasher.update(input);
        Ok(self)
    }

    /// [`update`](SubtreeHasher::update) on all cores, as
    /// [`Hasher::update_parallel`].
    #[cfg(feature = "parallel")]
    pub fn update_parallel(&mut self, input: &[u8]) -> Result<&mut Self, SubtreeError> {
        self.check_room(input.len())?;
        self.hasher.update_parallel(input);
        Ok(self)
    }

    fn check_room(&self, more: usize) -> Result<(), SubtreeError> {
        let len = self.hasher.count().saturating_add(more as u64);
        if len > self.max_len {
            return Err(SubtreeError::TooLong { offset: self.offset, len, max_len: self.max_len });
        }
        Ok(())
    }

    /// Bytes of input so far.
    pub fn count(&self) -> u64 {
        self.hasher.count()
    }

    /// The subtree of all input so far; an error if there was none. The
    /// hasher is unchanged: more input may follow.
    pub fn finalize(&self) -> Result<Subtree, SubtreeError> {
        let span = Span::new(self.offset, self.count())?;
        Ok(Subtree { cv: self.hasher.finalize_non_root(), span })
    }
}

/// A subtree call that would give a value of no standard BLAKE3 tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum SubtreeError {
    /// The offset is not a multiple of [`CHUNK_LEN`]: a subtree starts at a
    /// chunk boundary.
    UnalignedOffset {
        /// The offset given.
        offset: u64,
    },
    /// A subtree of no bytes.
    Empty {
        /// Where it would start.
        offset: u64,
    },
    /// More bytes than a subtree at `offset` may hold ([`max_subtree_len`]).
    TooLong {
        /// Where the subtree starts.
        offset: u64,
        /// Its length, or the length it would reach.
        len: u64,
        /// The most it may hold.
        max_len: u64,
    },
    /// Two subtrees that are not the left and right child of one node: not
    /// adjacent, or the left one is not [`left_len`] of their total.
    NotSiblings {
        /// The left subtree's offset.
        left_offset: u64,
        /// The left subtree's length.
        left_len: u64,
        /// The right subtree's offset.
        right_offset: u64,
        /// The right subtree's length.
        right_len: u64,
    },
    /// A root merge whose left subtree does not start the message.
    RootNotAtStart {
        /// The left subtree's offset.
        offset: u64,
    },
    /// [`left_len`] of a length of one chunk or less, which has no children.
    NoChildren {
        /// The length given.
        len: u64,
    },
}

impl fmt::Display for SubtreeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            SubtreeError::UnalignedOffset { offset } => {
                write!(f, "subtree offset {offset} is not a multiple of the chunk length {CHUNK_LEN}")
            }
            SubtreeError::Empty { offset } => write!(f, "empty subtree at offset {offset}: a subtree holds at least one byte"),
            SubtreeError::TooLong { offset, len, max_len } => {
                write!(f, "a subtree at offset {offset} holds at most {max_len} bytes, not {len}")
            }
            SubtreeError::NotSiblings { left_offset, left_len, right_offset, right_len } => write!(
                f,
                "subtrees {left_offset}+{left_len} and {right_offset}+{right_len} are not the two children of one tree node"
            ),
            SubtreeError::RootNotAtStart { offset } => {
                write!(f, "a root merge needs the left subtree at offset 0, not {offset}")
            }
            SubtreeError::NoChildren { len } => {
                write!(f, "{len} bytes are one chunk or less: a single chunk has no left and right subtrees")
            }
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for SubtreeError {}
