//! Outboards of a message whose length is not known until it ends (a pipe,
//! a network stream): post-order nodes appended as subtrees complete, then,
//! for `bao`'s pre-order, reordered from a seekable copy of them (a
//! fraction of the message: 6.25% for 1 KiB groups) instead of a copy of
//! the whole message.
//!
//! Post-order puts a parent after its subtrees, so a writer can append each
//! node once both children are hashed, the way BLAKE3's incremental hasher
//! merges its stack; the tree's right edge is closed at the end.

use super::encoder::{refuse_after_failure, Steps, FLUSH, STEP};
use super::{left_groups, Geometry, Order, Tree, Writer, PARENT_LEN};
use crate::blake3::join::SerialJoin;
use crate::blake3::{Hash, Hasher};
use crate::platform::spec::{CvBytes, CHUNK_LEN, OUT_LEN};
use alloc::vec::Vec;
use arrayvec::ArrayVec;
use std::io::{self, Read, Seek, SeekFrom, Write};

/// Writes the post-order parent nodes of a message given in pieces, of a
/// length known only at the end (`bao-tree`'s post-order outboard data,
/// [`Outboard::nodes`](super::Outboard::nodes) of [`Order::Post`]: no
/// header), in bounded memory.
///
/// ```
/// use chunkhash::blake3::bao::{self, Order, PostOrderEncoder};
///
/// let data = vec![7u8; 100_000];
/// let tree = bao::Tree::bao();
/// let mut encoder = PostOrderEncoder::new(tree, Vec::new());
/// for piece in data.chunks(4096) {
///     encoder.update(piece)?;
/// }
/// let (root, len, nodes) = encoder.finish()?;
/// let outboard = tree.outboard(&data, Order::Post);
/// assert_eq!((root, len, &nodes[..]), (outboard.root(), 100_000, outboard.nodes()));
///
/// // bao's pre-order from them.
/// let mut pre = Vec::new();
/// bao::post_to_pre_order(&tree, len, std::io::Cursor::new(nodes), &mut pre)?;
/// assert_eq!(pre, tree.outboard(&data, Order::Pre).nodes());
/// # Ok::<(), std::io::Error>(())
/// ```
#[derive(Debug)]
pub struct PostOrderEncoder<W: Write> {
    tree: Tree,
    out: W,
    buf: Vec<u8>,
    /// Bytes of the message given so far, and hashed so far.
    fed: u64,
    done: u64,
    /// Groups of up to [`STEP`] bytes: input not yet hashed.
    steps: Steps,
    /// Larger groups: the current group's hasher.
    group: Option<Hasher>,
    /// Complete subtrees waiting for their right siblings: chaining value
    /// and groups (a power of two), largest first.
    stack: ArrayVec<(CvBytes, u64), 64>,
    /// The newest step's top (one chaining value, or its node's two
    /// children) and groups, until more input shows it is not the root.
    last: Option<(ArrayVec<CvBytes, 2>, u64)>,
    /// A write failed: nothing more is taken (see [`refuse_after_failure`]).
    failed: bool,
}

impl<W: Write> PostOrderEncoder<W> {
    /// An encoder writing nodes to `out`.
    pub fn new(tree: Tree, out: W) -> PostOrderEncoder<W> {
        PostOrderEncoder {
            tree,
            out,
            buf: Vec::new(),
            fed: 0,
            done: 0,
            steps: Steps::default(),
            group: None,
            stack: ArrayVec::new(),
            last: None,
            failed: false,
        }
    }

    /// Adds the next bytes of the message.
    pub fn update(&mut self, input: &[u8]) -> io::Result<()> {
        refuse_after_failure(self.failed)?;
        self.fed += input.len() as u64;
        let result = if self.tree.group_len() > STEP {
            self.update_groups(input)
        } else {
            let mut steps = core::mem::take(&mut self.steps);
            let result = steps.feed(input, false, |step| self.write_step(step));
            self.steps = steps;
            result
        };
        self.failed = result.is_err();
        result
    }

    /// Closes the tree's right edge; the root hash, the message's length
    /// and the output.
    pub fn finish(mut self) -> io::Result<(Hash, u64, W)> {
        refuse_after_failure(self.failed)?;
        let mode = self.tree.mode.tree;
        let right = if self.tree.group_len() > STEP {
            match self.group.take() {
                None => None,
                Some(hasher) if self.stack.is_empty() => return self.end(hasher.finalize()),
                Some(hasher) => Some(hasher.finalize_non_root()),
            }
        } else {
            if self.stack.is_empty() && self.last.is_none() && self.steps.buf.len() <= self.tree.group_len() {
                // One group: the root itself, no parents.
                let root = self.tree.root(&self.steps.buf);
                return self.end(root);
            }
            let step = core::mem::take(&mut self.steps.buf);
            if !step.is_empty() {
                self.write_step(&step)?;
            }
            match self.last.take() {
                Some((top, _)) if self.stack.is_empty() => {
                    let root = Hash::from(mode.parent_output(&top[0], &top[1]).root_hash());
                    return self.end(root);
                }
                Some((top, _)) => Some(top_cv(&self.tree, &top)),
                None => None,
            }
        };
        let Some(mut right) = right else {
            let root = self.tree.root(&[]);
            return self.end(root);
        };
        while let Some((left, _)) = self.stack.pop() {
            self.node(&left, &right)?;
            if self.stack.is_empty() {
                let root = Hash::from(mode.parent_output(&left, &right).root_hash());
                return self.end(root);
            }
            right = mode.parent_cv(&left, &right);
        }
        unreachable!("a message of more than one group has a stack")
    }

    fn end(mut self, root: Hash) -> io::Result<(Hash, u64, W)> {
        self.out.write_all(&self.buf)?;
        self.out.flush()?;
        Ok((root, self.fed, self.out))
    }

    /// Hashes the groups of `bytes`, the step from byte `self.done` on,
    /// after the step before it, now known not to be the root, joins the
    /// stack.
    fn write_step(&mut self, bytes: &[u8]) -> io::Result<()> {
        if let Some((top, groups)) = self.last.take() {
            let cv = top_cv(&self.tree, &top);
            self.push(cv, groups)?;
        }
        let group_len = self.tree.group_len();
        let count = bytes.len().div_ceil(group_len);
        let offset = self.done;
        self.done += bytes.len() as u64;
        // The message so far: the step is a whole subtree or its right edge
        // whatever follows.
        let geometry = Geometry::new(self.done, self.tree.group_log);
        let writer = Writer { tree: &self.tree, geometry, input: bytes, offset, order: Order::Post };
        let start = self.buf.len();
        self.buf.resize(start + (count - 1) * PARENT_LEN, 0);
        let first = offset / group_len as u64;
        let cv = writer.subtree::<SerialJoin>(first, count as u64, false, &mut self.buf[start..]);
        // Its top: its value, or (post-order puts it last) its node's two
        // children, whose parent is the root if nothing follows.
        let top = match self.buf.len() - start {
            0 => [cv].into_iter().collect(),
            _ => {
                let node = &self.buf[self.buf.len() - PARENT_LEN..];
                node.chunks_exact(OUT_LEN).map(|cv| cv.try_into().expect("32 bytes")).collect()
            }
        };
        self.last = Some((top, count as u64));
        self.flush_if_full()
    }

    /// Groups larger than a step, each hashed as it comes.
    fn update_groups(&mut self, mut input: &[u8]) -> io::Result<()> {
        let group_len = self.tree.group_len() as u64;
        while !input.is_empty() {
            let hasher = match self.group.take() {
                Some(hasher) if hasher.count() == group_len => {
                    // More input: the full group is not the last.
                    self.push(hasher.finalize_non_root(), 1)?;
                    self.group.insert(Hasher::at_chunk(self.tree.mode.tree, self.done / CHUNK_LEN as u64))
                }
                Some(hasher) => self.group.insert(hasher),
                None => self.group.insert(Hasher::at_chunk(self.tree.mode.tree, 0)),
            };
            let take = ((group_len - hasher.count()) as usize).min(input.len());
            hasher.update(&input[..take]);
            self.done += take as u64;
            input = &input[take..];
        }
        Ok(())
    }

    /// A complete subtree that is not the last: merges it with the stack
    /// (a binary counter's carries), writing each parent.
    fn push(&mut self, mut cv: CvBytes, mut groups: u64) -> io::Result<()> {
        while let Some(&(left, size)) = self.stack.last().filter(|(_, size)| *size == groups) {
            self.node(&left, &cv)?;
            cv = self.tree.mode.tree.parent_cv(&left, &cv);
            groups += size;
            self.stack.pop();
        }
        self.stack.push((cv, groups));
        Ok(())
    }

    fn node(&mut self, left: &CvBytes, right: &CvBytes) -> io::Result<()> {
        self.buf.extend_from_slice(left);
        self.buf.extend_from_slice(right);
        self.flush_if_full()
    }

    fn flush_if_full(&mut self) -> io::Result<()> {
        if self.buf.len() >= FLUSH {
            self.out.write_all(&self.buf)?;
            self.buf.clear();
        }
        Ok(())
    }
}

/// The chaining value of a step from its top level (not the root).
fn top_cv(tree: &Tree, top: &[CvBytes]) -> CvBytes {
    match top {
        [cv] => *cv,
        [left, right] => tree.mode.tree.parent_cv(left, right),
        _ => unreachable!("levels end at one or two values"),
    }
}

/// Nodes read at once when reordering: a subtree whose nodes fit is
/// reordered in memory.
const BLOCK_NODES: u64 = 1 << 14;

/// Writes the pre-order nodes (`bao`'s outboard without its header) of a
/// `len`-byte message from its post-order nodes in `post` (from its current
/// position), in bounded memory: subtrees of up to 16K nodes are read
/// whole, the few nodes above them one by one.
pub fn post_to_pre_order<R: Read + Seek, W: Write>(tree: &Tree, len: u64, mut post: R, out: W) -> io::Result<W> {
    let groups = super::Geometry::new(len, tree.group_log).groups;
    let base = post.stream_position()?;
    let mut out = io::BufWriter::with_capacity(FLUSH, out);
    let mut block = Vec::new();
    reorder(&mut post, base, 0, groups, &mut out, &mut block)?;
    out.into_inner().map_err(|error| error.into_error())
}

/// The subtree of `count` groups whose post-order nodes start at node
/// `place`.
fn reorder<R: Read + Seek, W: Write>(
    post: &mut R,
    base: u64,
    place: u64,
    count: u64,
    out: &mut W,
    block: &mut Vec<u8>,
) -> io::Result<()> {
    if count == 1 {
        return Ok(());
    }
    if count - 1 <= BLOCK_NODES {
        block.resize((count - 1) as usize * PARENT_LEN, 0);
        post.seek(SeekFrom::Start(base + place * PARENT_LEN as u64))?;
        post.read_exact(block)?;
        return reorder_in_memory(block, 0, count, out);
    }
    let left = left_groups(count);
    let mut node = [0u8; PARENT_LEN];
    post.seek(SeekFrom::Start(base + (place + count - 2) * PARENT_LEN as u64))?;
    post.read_exact(&mut node)?;
    out.write_all(&node)?;
    reorder(post, base, place, left, out, block)?;
    reorder(post, base, place + left - 1, count - left, out, block)
}

fn reorder_in_memory<W: Write>(nodes: &[u8], place: usize, count: u64, out: &mut W) -> io::Result<()> {
    if count == 1 {
        return Ok(());
    }
    let left = left_groups(count);
    let own = (place + count as usize - 2) * PARENT_LEN;
    out.write_all(&nodes[own..own + PARENT_LEN])?;
    reorder_in_memory(nodes, place, left, out)?;
    reorder_in_memory(nodes, place + left as usize - 1, count - left, out)
}
