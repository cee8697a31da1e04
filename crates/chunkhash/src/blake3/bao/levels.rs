//! The chaining values of a whole step of the streaming encoders
//! ([`super::Encoder`], [`super::PostOrderEncoder`]), level by level, and
//! the nodes written from them. (`Tree::outboard` writes each block's nodes
//! while in the cache instead; the encoders' steps also carry the groups'
//! bytes of the combined encoding between their nodes.)

use super::{ceil_log2, left_groups, Order, Tree, BATCH_CHUNKS};
use crate::blake3::join::SerialJoin;
use crate::blake3::tree;
use crate::platform::spec::{CvBytes, CHUNK_LEN, OUT_LEN};
use alloc::vec::Vec;

/// Every chaining value of a step's tree from its groups up to its top's
/// two children: level `j` holds one value per 2^j groups, the last one
/// covering what is left (the tree's right edge).
pub(super) struct Levels {
    pub(super) levels: Vec<Vec<CvBytes>>,
    group_len: usize,
}

/// The chaining values of the consecutive groups of `input`, whose first
/// chunk is `first_chunk` (a multiple of the batch and the group), into
/// `out`; none is the root.
pub(super) fn group_cvs(tree: &Tree, input: &[u8], first_chunk: u64, out: &mut [CvBytes]) {
    let mode = &tree.mode.tree;
    let group_len = tree.group_len();
    let group_chunks = 1u64 << tree.group_log;
    if group_len >= BATCH_CHUNKS * CHUNK_LEN {
        // A group fills the kernels' lanes on its own (`hash`'s path).
        for (index, (group, out)) in input.chunks(group_len).zip(out).enumerate() {
            *out = mode.subtree_cv::<SerialJoin>(group, first_chunk + index as u64 * group_chunks);
        }
        return;
    }
    // Many groups' chunks side by side, then each group's levels.
    let mut chunks = [[0u8; OUT_LEN]; BATCH_CHUNKS];
    let mut pairs = [[0u8; OUT_LEN]; BATCH_CHUNKS / 2];
    let batch_groups = BATCH_CHUNKS >> tree.group_log;
    for ((index, batch), out) in input.chunks(BATCH_CHUNKS * CHUNK_LEN).enumerate().zip(out.chunks_mut(batch_groups)) {
        let mut count = mode.hash_chunks(batch, first_chunk + (index * BATCH_CHUNKS) as u64, &mut chunks);
        let (mut level, mut next): (&mut [CvBytes], &mut [CvBytes]) = (&mut chunks, &mut pairs);
        for _ in 0..tree.group_log {
            count = mode.pair_up(&level[..count], next);
            core::mem::swap(&mut level, &mut next);
        }
        out.copy_from_slice(&level[..count]);
    }
}

impl Levels {
    /// The levels above `bottom`, the chaining values of consecutive
    /// groups, each level's pairs hashed in one call.
    pub(super) fn from_bottom(mode: &tree::Mode, bottom: Vec<CvBytes>, group_len: usize) -> Levels {
        let mut levels = Vec::with_capacity(64);
        levels.push(bottom);
        while let Some(level) = levels.last().filter(|level| level.len() > 2) {
            let mut next = alloc::vec![[0u8; OUT_LEN]; level.len().div_ceil(2)];
            mode.pair_up(level, &mut next);
            levels.push(next);
        }
        Levels { levels, group_len }
    }

    /// The chaining value of the subtree of groups `first..first + count`
    /// (complete, or the right edge of the tree).
    fn cv(&self, first: u64, count: u64) -> &CvBytes {
        let level = ceil_log2(count);
        &self.levels[level as usize][(first >> level) as usize]
    }

    /// Writes the parents of groups `first..first + count` in `order`, with
    /// the groups' bytes of `input` in pre-order when given.
    pub(super) fn write(&self, order: Order, first: u64, count: u64, input: Option<&[u8]>, out: &mut Vec<u8>) {
        if count == 1 {
            if let Some(input) = input {
                let start = first as usize * self.group_len;
                out.extend_from_slice(&input[start..(start + self.group_len).min(input.len())]);
            }
            return;
        }
        let left = left_groups(count);
        if order == Order::Pre {
            out.extend_from_slice(self.cv(first, left));
            out.extend_from_slice(self.cv(first + left, count - left));
        }
        self.write(order, first, left, input, out);
        self.write(order, first + left, count - left, input, out);
        if order == Order::Post {
            out.extend_from_slice(self.cv(first, left));
            out.extend_from_slice(self.cv(first + left, count - left));
        }
    }
}
