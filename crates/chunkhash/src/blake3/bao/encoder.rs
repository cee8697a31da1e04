//! Writing the combined encoding or an outboard of a message that arrives
//! in pieces, in bounded memory, into a seekable output.
//!
//! [`Tree::encode`] and [`Tree::outboard`] need the whole message in
//! memory. The [`Encoder`] takes the message's length up front instead:
//! from it the pre-order layout is known, so every group goes straight to
//! its place and each parent node gets a 64-byte hole where pre-order puts
//! it (before its subtree), filled in once both children are hashed. The
//! `bao` crate's encoder writes post-order and reorders the whole output
//! at the end; knowing the length saves that second pass. Post-order
//! nodes are only appended.
//!
//! Memory: one step of input (1 MiB, or a group's hasher for larger
//! groups), its encoding, and one frame per tree level above it.
//! A step's nodes are made by [`Tree::outboard`]'s writer (many chunks side
//! by side, then each level of parents in one kernel call); only the
//! parents above a step (one per MiB) are hashed one at a time.

use super::{left_groups, Geometry, Order, Tree, Writer, PARENT_LEN};
use crate::blake3::join::SerialJoin;
use crate::blake3::{Hash, Hasher};
use crate::platform::spec::{CvBytes, CHUNK_LEN, OUT_LEN};
use alloc::vec::Vec;
use arrayvec::ArrayVec;
use std::io::{self, Seek, SeekFrom, Write};

/// Input hashed and written per step (whole groups of up to this size, a
/// multiple of the writer's batch of chunks): large enough that the parents above
/// the steps cost nothing, small enough to stay in cache.
pub(super) const STEP: usize = 1 << 20;

/// Output bytes gathered before a write (both streaming encoders): the
/// holes of the parents above a step are mostly filled before their bytes
/// leave.
pub(super) const FLUSH: usize = 1 << 20;

/// Levels of frames at most: a tree of 2^64 bytes in 1 KiB groups.
const MAX_FRAMES: usize = 64;

/// What an [`Encoder`] writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// The combined encoding ([`Tree::encode`]'s bytes): the length
    /// header, then parents and groups in pre-order.
    Combined,
    /// `bao`'s outboard file ([`Outboard::bao_bytes`](super::Outboard::bao_bytes)):
    /// the length header, then the parent nodes in this order.
    Outboard(Order),
}

/// Writes the combined encoding or the outboard of a message of a known
/// length, given in pieces, to a seekable output, in bounded memory: the
/// same bytes as [`Tree::encode`] and [`Tree::outboard`].
///
/// ```
/// use chunkhash::blake3::bao::{self, Encoder, Format};
/// use std::io::Cursor;
///
/// let data = vec![7u8; 100_000];
/// let tree = bao::Tree::bao();
/// let mut encoder = Encoder::new(tree, data.len() as u64, Format::Combined, Cursor::new(Vec::new()))?;
/// for piece in data.chunks(4096) {
///     encoder.update(piece)?;
/// }
/// let (root, out) = encoder.finish()?;
/// assert_eq!((root, out.into_inner()), tree.encode(&data));
/// # Ok::<(), std::io::Error>(())
/// ```
#[derive(Debug)]
pub struct Encoder<W: Write + Seek> {
    tree: Tree,
    format: Format,
    geometry: Geometry,
    out: PatchWriter<W>,
    /// Bytes of the message given so far.
    fed: u64,
    /// Bytes of the message hashed and written so far.
    done: u64,
    /// Groups of up to [`STEP`] bytes: the input not yet hashed.
    steps: Steps,
    /// Larger groups: the current group's hasher.
    group: Option<Hasher>,
    /// The open subtrees above the next group, the root first.
    frames: ArrayVec<Frame, MAX_FRAMES>,
    /// A write failed: what was written is incomplete, and the step that
    /// failed may be half written, so nothing more is taken.
    failed: bool,
    root: Option<Hash>,
}

/// An open subtree: its groups, its left child's chaining value once
/// known, and where its node goes in pre-order.
#[derive(Clone, Copy, Debug)]
struct Frame {
    first: u64,
    count: u64,
    left: Option<CvBytes>,
    slot: u64,
}

impl<W: Write + Seek> Encoder<W> {
    /// An encoder of a message of `len` bytes into `out`, from its current
    /// position on; writes the length header.
    pub fn new(tree: Tree, len: u64, format: Format, out: W) -> io::Result<Encoder<W>> {
        let mut out = PatchWriter::new(out)?;
        out.append(&len.to_le_bytes())?;
        let small = tree.group_len() <= STEP;
        Ok(Encoder {
            tree,
            format,
            geometry: Geometry::new(len, tree.group_log),
            out,
            fed: 0,
            done: 0,
            steps: Steps { buf: if small { Vec::with_capacity(STEP.min(len as usize)) } else { Vec::new() } },
            group: None,
            frames: ArrayVec::new(),
            root: None,
            failed: false,
        })
    }

    /// Adds the next bytes of the message; an error (nothing added) past
    /// the length given to [`new`](Encoder::new), or if writing fails.
    pub fn update(&mut self, input: &[u8]) -> io::Result<()> {
        self.refuse_after_failure()?;
        if self.geometry.len - self.fed < input.len() as u64 {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                std::format!("more input than the {} bytes the encoder was given", self.geometry.len),
            ));
        }
        self.fed += input.len() as u64;
        let result = if self.tree.group_len() > STEP {
            self.update_groups(input)
        } else {
            let mut steps = core::mem::take(&mut self.steps);
            let more = self.fed < self.geometry.len;
            let result = steps.feed(input, more, |step| self.write_step(step));
            self.steps = steps;
            result
        };
        self.failed = result.is_err();
        result
    }

    fn refuse_after_failure(&self) -> io::Result<()> {
        refuse_after_failure(self.failed)
    }

    /// Writes what is left and returns the root hash and the output; an
    /// error if fewer bytes came than the length given.
    pub fn finish(mut self) -> io::Result<(Hash, W)> {
        self.refuse_after_failure()?;
        if self.fed != self.geometry.len {
            return Err(io::Error::new(
                io::ErrorKind::UnexpectedEof,
                std::format!("the input ended after {} of its {} bytes", self.fed, self.geometry.len),
            ));
        }
        if self.tree.group_len() <= STEP {
            // The last step (the empty message's is empty).
            let step = core::mem::take(&mut self.steps.buf);
            self.write_step(&step)?;
        }
        if self.geometry.len == 0 && self.tree.group_len() > STEP {
            self.root = Some(self.tree.root(&[]));
        }
        let root = self.root.expect("every group is written");
        Ok((root, self.out.finish()?))
    }

    fn pre_order(&self) -> bool {
        self.format != Format::Outboard(Order::Post)
    }

    /// Hashes and writes the groups of `bytes`, the step from byte
    /// `self.done` on (whole groups, except at the message's end).
    fn write_step(&mut self, bytes: &[u8]) -> io::Result<()> {
        let data = (self.format == Format::Combined).then_some(bytes);
        let offset = self.done;
        self.done += bytes.len() as u64;
        if self.geometry.groups == 1 {
            // The whole message is one group, the root: no parents.
            self.root = Some(self.tree.root(bytes));
            return data.map_or(Ok(()), |data| self.out.append(data));
        }
        let group_len = self.tree.group_len();
        let first = offset / group_len as u64;
        let count = bytes.len().div_ceil(group_len) as u64;
        self.open(first, count)?;
        // A step that is the whole tree gives the root hash.
        let is_root = self.frames.is_empty();
        let order = if self.pre_order() { Order::Pre } else { Order::Post };
        let writer = Writer { tree: &self.tree, geometry: self.geometry, input: bytes, offset, order };
        let nodes = (count as usize - 1) * PARENT_LEN;
        let cv = match data {
            None => {
                let out = self.out.buffer();
                let start = out.len();
                out.resize(start + nodes, 0);
                writer.subtree::<SerialJoin>(first, count, is_root, &mut out[start..])
            }
            Some(data) => {
                // The nodes (pre-order), then the groups put between them.
                let mut stretch = alloc::vec![0u8; nodes];
                let cv = writer.subtree::<SerialJoin>(first, count, is_root, &mut stretch);
                interleave(&stretch, data, group_len, count, self.out.buffer());
                cv
            }
        };
        self.out.flush_if_full()?;
        match is_root {
            true => {
                self.root = Some(Hash::from(cv));
                Ok(())
            }
            false => self.close(cv),
        }
    }

    /// Groups larger than a step: each hashed as it comes, its bytes
    /// written through.
    fn update_groups(&mut self, mut input: &[u8]) -> io::Result<()> {
        let group_len = self.tree.group_len() as u64;
        while !input.is_empty() {
            let index = self.done / group_len;
            let hasher = match &mut self.group {
                Some(hasher) => hasher,
                None => {
                    if self.geometry.groups > 1 {
                        self.open(index, 1)?;
                    }
                    let first_chunk = self.done / CHUNK_LEN as u64;
                    self.group.insert(Hasher::at_chunk(self.tree.mode.tree, first_chunk))
                }
            };
            let group_end = ((index + 1) * group_len).min(self.geometry.len);
            let take = ((group_end - self.done) as usize).min(input.len());
            hasher.update(&input[..take]);
            if self.format == Format::Combined {
                self.out.append(&input[..take])?;
            }
            self.done += take as u64;
            input = &input[take..];
            if self.done == group_end {
                let hasher = self.group.take().expect("a group is open");
                if self.geometry.groups == 1 {
                    self.root = Some(hasher.finalize());
                } else {
                    self.close(hasher.finalize_non_root())?;
                }
            }
        }
        Ok(())
    }

    /// Opens the subtrees from the next one down to the subtree of groups
    /// `first..first + count`, whose encoding comes next: in pre-order each
    /// gets a hole for its node. Subtrees nest (each is a run of 2^j
    /// groups from a multiple of 2^j, cut at the message's end), so going
    /// down the left children reaches it.
    fn open(&mut self, first: u64, count: u64) -> io::Result<()> {
        let (at, mut size) = match self.frames.last() {
            None => (0, self.geometry.groups),
            Some(top) => {
                let left = left_groups(top.count);
                match top.left {
                    None => (top.first, left),
                    Some(_) => (top.first + left, top.count - left),
                }
            }
        };
        debug_assert_eq!(at, first, "subtrees are written in order");
        while size > count {
            let slot = self.out.position();
            if self.pre_order() {
                self.out.append(&[0; PARENT_LEN])?;
            }
            self.frames.push(Frame { first, count: size, left: None, slot });
            size = left_groups(size);
        }
        debug_assert_eq!(size, count, "a step is a subtree");
        Ok(())
    }

    /// A subtree's chaining value is known: it completes the subtrees
    /// whose right child it ends, writing their nodes.
    fn close(&mut self, mut cv: CvBytes) -> io::Result<()> {
        let (mode, pre_order) = (self.tree.mode.tree, self.pre_order());
        while let Some(frame) = self.frames.last_mut() {
            let Some(left) = frame.left else {
                frame.left = Some(cv);
                return Ok(());
            };
            let mut node = [0u8; PARENT_LEN];
            node[..OUT_LEN].copy_from_slice(&left);
            node[OUT_LEN..].copy_from_slice(&cv);
            if pre_order {
                self.out.patch(frame.slot, &node)?;
            } else {
                self.out.append(&node)?;
            }
            self.frames.pop();
            if self.frames.is_empty() {
                self.root = Some(Hash::from(mode.parent_output(&left, &cv).root_hash()));
                return Ok(());
            }
            cv = mode.parent_cv(&left, &cv);
        }
        Ok(())
    }
}

/// Appends the combined encoding of a subtree of `count` groups from its
/// pre-order `nodes` and its bytes `data`: each parent before its left and
/// right subtrees, each group in its place.
fn interleave(nodes: &[u8], data: &[u8], group_len: usize, count: u64, out: &mut Vec<u8>) {
    if count == 1 {
        out.extend_from_slice(data);
        return;
    }
    let left = left_groups(count);
    let (node, rest) = nodes.split_at(PARENT_LEN);
    out.extend_from_slice(node);
    let (left_nodes, right_nodes) = rest.split_at((left as usize - 1) * PARENT_LEN);
    let (left_data, right_data) = data.split_at(left as usize * group_len);
    interleave(left_nodes, left_data, group_len, left, out);
    interleave(right_nodes, right_data, group_len, count - left, out);
}

/// Input cut into steps of [`STEP`] bytes: each handed out whole once
/// more input shows it is not the last one (which stays in `buf` for the
/// end), straight from the caller's buffer when that holds a whole step.
#[derive(Debug, Default)]
pub(super) struct Steps {
    pub(super) buf: Vec<u8>,
}

impl Steps {
    /// Hands out the whole steps of `input` that are known not to be the
    /// last: more input follows, or `more` says the message goes on.
    pub(super) fn feed(
        &mut self,
        mut input: &[u8],
        more: bool,
        mut step: impl FnMut(&[u8]) -> io::Result<()>,
    ) -> io::Result<()> {
        while !input.is_empty() {
            if self.buf.len() == STEP {
                step(&self.buf)?;
                self.buf.clear();
            }
            if self.buf.is_empty() && (input.len() > STEP || (more && input.len() == STEP)) {
                step(&input[..STEP])?;
                input = &input[STEP..];
                continue;
            }
            let take = (STEP - self.buf.len()).min(input.len());
            self.buf.extend_from_slice(&input[..take]);
            input = &input[take..];
        }
        Ok(())
    }
}

/// [`Encoder::update`] as `std::io::Write` (for `std::io::copy`); `flush`
/// writes the gathered bytes out.
impl<W: Write + Seek> Write for Encoder<W> {
    fn write(&mut self, input: &[u8]) -> io::Result<usize> {
        self.update(input)?;
        Ok(input.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }
}

/// An output written in order but for parent nodes filled in later: the
/// last bytes wait in a buffer, where most holes are filled; a hole whose
/// bytes have left is written with a seek there and back.
#[derive(Debug)]
struct PatchWriter<W> {
    inner: W,
    /// Where `inner` was at the start.
    base: u64,
    /// Bytes given to `inner` so far; `buf` comes after them.
    written: u64,
    buf: Vec<u8>,
}

impl<W: Write + Seek> PatchWriter<W> {
    fn new(mut inner: W) -> io::Result<Self> {
        let base = inner.stream_position()?;
        Ok(PatchWriter { inner, base, written: 0, buf: Vec::with_capacity(FLUSH + STEP + STEP / 16) })
    }

    /// Bytes of output so far.
    fn position(&self) -> u64 {
        self.written + self.buf.len() as u64
    }

    fn append(&mut self, bytes: &[u8]) -> io::Result<()> {
        self.buf.extend_from_slice(bytes);
        self.flush_if_full()
    }

    /// The buffer, to append to in place.
    fn buffer(&mut self) -> &mut Vec<u8> {
        &mut self.buf
    }

    fn flush_if_full(&mut self) -> io::Result<()> {
        if self.buf.len() >= FLUSH {
            self.flush()?;
        }
        Ok(())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.write_all(&self.buf)?;
        self.written += self.buf.len() as u64;
        self.buf.clear();
        Ok(())
    }

    /// Writes `node` at byte `at` of the output, a hole appended earlier.
    fn patch(&mut self, at: u64, node: &[u8; PARENT_LEN]) -> io::Result<()> {
        if at >= self.written {
            let start = (at - self.written) as usize;
            self.buf[start..start + PARENT_LEN].copy_from_slice(node);
            return Ok(());
        }
        self.inner.seek(SeekFrom::Start(self.base + at))?;
        self.inner.write_all(node)?;
        self.inner.seek(SeekFrom::Start(self.base + self.written))?;
        Ok(())
    }

    fn finish(mut self) -> io::Result<W> {
        self.flush()?;
        self.inner.flush()?;
        Ok(self.inner)
    }
}

/// After a failed write an encoder's output is incomplete and its state may
/// be half a step ahead of it: every later call is refused.
pub(super) fn refuse_after_failure(failed: bool) -> io::Result<()> {
    match failed {
        true => Err(io::Error::other("an earlier write of this encoding failed")),
        false => Ok(()),
    }
}
