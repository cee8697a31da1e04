//! A file's BLAKE3 root (the hash `b3sum` prints) and its Bao outboard,
//! made while `put` reads the file (no second read), and the plan of a
//! verified ranged read: which outboard nodes and chunk groups a range
//! needs, in the order of a Bao slice.
//!
//! The outboard is `bao-tree`'s post-order outboard (a parent after its
//! subtrees), because a writer can append it while hashing: each parent is
//! known once its right subtree is, so nothing is held back but the stack
//! of complete subtrees (as in BLAKE3's own incremental hasher). It is kept
//! in pieces of [`PIECE_LEN`] bytes, each a record of the store, so a
//! ranged read fetches the few pieces holding the nodes it needs, not the
//! whole outboard.

use chunkhash::blake3::subtree::{self, Subtree};
use chunkhash::blake3::{Hash, CHUNK_LEN, OUT_LEN};
use std::ops::Range;

/// Chunk groups of 2^4 chunks (16 KiB). An outboard then costs 64 bytes
/// per 16 KiB (0.4% of the data, against 6.25% for `bao`'s 1 KiB groups),
/// a group fills the widest SIMD kernel (16 lanes) on its own, and a
/// ranged read fetches at most 16 KiB beyond each end of its range: less
/// than a store chunk (64 KiB on average), which a ranged read fetches
/// anyway.
pub const GROUP_LOG: u8 = 4;

/// Bytes of a chunk group.
pub(crate) const GROUP_LEN: usize = CHUNK_LEN << GROUP_LOG;

/// Bytes of a parent node: two chaining values.
pub(crate) const NODE_LEN: usize = 2 * OUT_LEN;

/// Outboard bytes per stored piece: 64 nodes. The subtree of 64 groups
/// (1 MiB) below any node has its nodes side by side in post-order, so a
/// range's own nodes share few pieces; the path above it costs one piece
/// (4 KiB) per level at most.
pub(crate) const PIECE_LEN: usize = 64 * NODE_LEN;

/// Builds a file's root and post-order outboard from its bytes as they
/// are read, in pieces of any size.
pub(crate) struct OutboardBuilder {
    mode: subtree::Mode,
    /// The last group read: hashed only once more bytes follow, since the
    /// root of a file of one group is that group's root hash, not a
    /// chaining value.
    group: Vec<u8>,
    /// Where `group` starts in the file.
    offset: u64,
    /// Complete subtrees not yet merged, largest first.
    stack: Vec<Subtree>,
    /// The outboard so far.
    nodes: Vec<u8>,
}

impl OutboardBuilder {
    pub(crate) fn new() -> OutboardBuilder {
        OutboardBuilder {
            mode: subtree::Mode::hash(),
            group: Vec::with_capacity(GROUP_LEN),
            offset: 0,
            stack: Vec::new(),
            nodes: Vec::new(),
        }
    }

    /// Adds the file's next bytes.
    pub(crate) fn update(&mut self, mut input: &[u8]) {
        while !input.is_empty() {
            if self.group.len() == GROUP_LEN {
                // More follows, so the held group is not the file's last.
                let group = std::mem::take(&mut self.group);
                self.push_group(&group);
                self.group = group;
                self.group.clear();
            }
            if self.group.is_empty() && input.len() > GROUP_LEN {
                // Whole groups straight from the input, no copy; the last
                // one is held back.
                let (whole, rest) = input.split_at(GROUP_LEN);
                self.push_group(whole);
                input = rest;
                continue;
            }
            let take = (GROUP_LEN - self.group.len()).min(input.len());
            self.group.extend_from_slice(&input[..take]);
            input = &input[take..];
        }
    }

    fn push_group(&mut self, group: &[u8]) {
        // A group starts at a multiple of its length and is at most that
        // long, which any offset of the tree allows.
        let subtree = self.mode.subtree(group, self.offset).expect("a chunk group is a subtree of the tree");
        self.offset += group.len() as u64;
        // Merges wait for the next group, since the last merge of a file
        // is its root.
        while let [.., left, right] = self.stack[..] {
            if left.len() != right.len() {
                break;
            }
            self.stack.truncate(self.stack.len() - 2);
            let parent = self.merge(&left, &right);
            self.stack.push(parent);
        }
        self.stack.push(subtree);
    }

    fn merge(&mut self, left: &Subtree, right: &Subtree) -> Subtree {
        self.nodes.extend_from_slice(left.chaining_value());
        self.nodes.extend_from_slice(right.chaining_value());
        self.mode.merge(left, right).expect("neighbouring complete subtrees are siblings")
    }

    /// The root hash and the post-order outboard of all bytes added.
    pub(crate) fn finish(mut self) -> (Hash, Vec<u8>) {
        if self.stack.is_empty() {
            // At most one group: no parents, and its root hash is the root.
            return (self.mode.hash_message(&self.group), Vec::new());
        }
        let last = std::mem::take(&mut self.group);
        self.push_group(&last);
        while self.stack.len() > 2 {
            let right = self.stack.pop().expect("more than two");
            let left = self.stack.pop().expect("more than two");
            let parent = self.merge(&left, &right);
            self.stack.push(parent);
        }
        let right = self.stack.pop().expect("two subtrees");
        let left = self.stack.pop().expect("two subtrees");
        self.nodes.extend_from_slice(left.chaining_value());
        self.nodes.extend_from_slice(right.chaining_value());
        let root = self.mode.merge_root(&left, &right).expect("the root's children are siblings");
        (root, self.nodes)
    }
}

/// An item of a Bao slice, in stream order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum SliceItem {
    /// The parent node at this index of the post-order outboard.
    Node(u64),
    /// The group holding these bytes of the file.
    Group(Range<u64>),
}

/// Chunk groups of a file of `size` bytes (the empty file has one, empty).
pub(crate) fn groups(size: u64) -> u64 {
    size.div_ceil(GROUP_LEN as u64).max(1)
}

/// Bytes of the post-order outboard of a file of `size` bytes.
pub(crate) fn outboard_len(size: u64) -> u64 {
    (groups(size) - 1) * NODE_LEN as u64
}

/// The items of the slice of a file of `size` bytes for `range`, which is
/// not empty and within the file: in pre-order (a parent, then the wanted
/// parts of its left and right subtrees), the order a Bao decoder reads.
pub(crate) fn slice_plan(size: u64, range: &Range<u64>) -> Vec<SliceItem> {
    debug_assert!(range.start < range.end && range.end <= size);
    let wanted = range.start / GROUP_LEN as u64..(range.end - 1) / GROUP_LEN as u64 + 1;
    let mut out = Vec::new();
    plan(size, &wanted, 0, groups(size), 0, &mut out);
    out
}

/// Plans the subtree of groups `first..first + count`, whose nodes take
/// the post-order places from `base` on (its own node last).
fn plan(size: u64, wanted: &Range<u64>, first: u64, count: u64, base: u64, out: &mut Vec<SliceItem>) {
    if count == 1 {
        let start = first * GROUP_LEN as u64;
        out.push(SliceItem::Group(start..(start + GROUP_LEN as u64).min(size)));
        return;
    }
    out.push(SliceItem::Node(base + count - 2));
    // The left subtree: the largest power of two of groups below `count`.
    let left = 1 << (count - 1).ilog2();
    if first < wanted.end && wanted.start < first + left {
        plan(size, wanted, first, left, base, out);
    }
    if first + left < wanted.end && wanted.start < first + count {
        plan(size, wanted, first + left, count - left, base + left - 1, out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chunkhash::blake3::{self, bao};

    /// Bytes that differ at every position (a counter hashed), so a group
    /// in the wrong place shows.
    fn data(len: usize) -> Vec<u8> {
        (0..len).map(|i| (i as u32).wrapping_mul(2_654_435_761).to_le_bytes()[3]).collect()
    }

    fn tree() -> bao::Tree {
        bao::Tree::new(bao::Mode::hash(), GROUP_LOG).unwrap()
    }

    #[test]
    fn roots_and_outboards_match_the_bao_module_for_any_pieces() {
        // Lengths around group and tree edges; each fed in pieces of
        // several sizes, so a group spans pieces and pieces span groups.
        let g = GROUP_LEN;
        for len in [0, 1, 1024, g - 1, g, g + 1, 2 * g, 3 * g - 7, 4 * g, 4 * g + 1, 7 * g + 100, 16 * g, 33 * g + 5] {
            let input = data(len);
            let expected = tree().outboard(&input, bao::Order::Post);
            assert_eq!(expected.root(), blake3::hash(&input), "len {len}");
            for piece in [1000, g - 1, g, g + 1, 3 * g + 17, usize::MAX] {
                let mut builder = OutboardBuilder::new();
                for part in input.chunks(piece.min(len.max(1))) {
                    builder.update(part);
                }
                let (root, nodes) = builder.finish();
                assert_eq!(root, expected.root(), "len {len} piece {piece}");
                assert_eq!(nodes, expected.nodes(), "len {len} piece {piece}");
                assert_eq!(nodes.len() as u64, outboard_len(len as u64), "len {len}");
            }
        }
    }

    /// The slice a plan gives, read by the bao module's verifying reader.
    fn read_planned(input: &[u8], range: Range<u64>) -> Vec<u8> {
        let (root, nodes) = {
            let mut builder = OutboardBuilder::new();
            builder.update(input);
            builder.finish()
        };
        let mut slice = (input.len() as u64).to_le_bytes().to_vec();
        for item in slice_plan(input.len() as u64, &range) {
            match item {
                SliceItem::Node(index) => {
                    let at = index as usize * NODE_LEN;
                    slice.extend_from_slice(&nodes[at..at + NODE_LEN]);
                }
                SliceItem::Group(bytes) => slice.extend_from_slice(&input[bytes.start as usize..bytes.end as usize]),
            }
        }
        let ranges = [range];
        let mut reader = bao::SliceReader::new(&slice[..], tree(), root, &ranges);
        let mut out = Vec::new();
        std::io::Read::read_to_end(&mut reader, &mut out).unwrap();
        // The plan is the bao module's own slice, byte for byte.
        let outboard = tree().outboard(input, bao::Order::Pre);
        assert_eq!(slice, tree().slice(input, &outboard, &ranges).unwrap());
        out
    }

    #[test]
    fn planned_slices_are_the_bao_modules_and_verify() {
        let g = GROUP_LEN as u64;
        for len in [1u64, g, g + 1, 5 * g + 3, 64 * g + 9] {
            let input = data(len as usize);
            for range in [0..1, 0..len, len - 1..len, g - 1..g + 1, len / 2..len / 2 + 1, len / 3..len] {
                let range = range.start.min(len - 1)..range.end.min(len);
                let out = read_planned(&input, range.clone());
                assert_eq!(out, &input[range.start as usize..range.end as usize], "len {len} range {range:?}");
            }
        }
    }

    #[test]
    fn a_plan_needs_log_n_nodes_outside_its_range() {
        // 2^20 groups (16 GiB), a range of 64 groups: its 63 own nodes and
        // one per level above.
        let size = (1u64 << 20) * GROUP_LEN as u64;
        let range = 5 * (1 << 30) + 12_345..5 * (1 << 30) + 12_345 + (1 << 20);
        let plan = slice_plan(size, &range);
        let nodes = plan.iter().filter(|item| matches!(item, SliceItem::Node(_))).count();
        let groups = plan.len() - nodes;
        assert_eq!(groups, 65);
        assert!(nodes <= groups + 20, "{nodes} nodes");
    }
}
