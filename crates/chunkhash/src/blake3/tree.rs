//! The BLAKE3 tree (spec section 2.1): chunks are the leaves, each parent
//! node hashes its two children's chaining values, and the last compression
//! is the root. This file decides which compressions can run side by side and
//! hands them to the platform's lanes; it holds no unsafe code.
//!
//! Shape: a tree of `n` chunks is a complete left subtree of the largest power
//! of two below `n` chunks, and a right subtree of the rest. Equivalently,
//! pairing the nodes of each level from the left, and carrying an odd last node
//! up unchanged, builds the same tree; that is what lets a level be hashed as
//! independent lane jobs.

use crate::platform::{
    cv_bytes, padded_block, CvBytes, CvWords, LaneJob, Platform, BLOCK_LEN, CHUNK_END, CHUNK_LEN, CHUNK_START,
    MAX_LANES, OUT_LEN, PARENT, ROOT,
};

/// What every compression of one message shares: the key words, the domain
/// flags (keyed, derive-key) and the kernels to run.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Tree {
    pub(crate) key: CvWords,
    pub(crate) flags: u8,
    pub(crate) platform: Platform,
}

/// The last compression of a message, not yet run: as a chaining value when
/// the node turns out not to be the root, with `ROOT` for the hash and for
/// each block of extended output.
#[derive(Clone, Debug)]
pub(crate) struct Output {
    input_cv: CvWords,
    block: [u8; BLOCK_LEN],
    block_len: u8,
    counter: u64,
    flags: u8,
    platform: Platform,
}

impl Output {
    pub(crate) fn root_hash(&self) -> CvBytes {
        debug_assert_eq!(self.counter, 0, "only the first chunk or a parent can be the root");
        let mut cv = self.input_cv;
        self.platform.compress_in_place(&mut cv, &self.block, self.block_len, 0, self.flags | ROOT);
        cv_bytes(&cv)
    }

    /// Block `index` of the extended output (64 bytes each).
    pub(crate) fn root_output_block(&self, index: u64) -> [u8; BLOCK_LEN] {
        self.platform.compress_xof(&self.input_cv, &self.block, self.block_len, index, self.flags | ROOT)
    }
}

/// Whether `Join` may run the two halves of a tree on two threads.
pub(crate) trait Join {
    /// Inputs shorter than this stay on one thread: splitting costs more than it saves.
    const MIN_PARALLEL_LEN: usize;
    fn join<A, B, RA, RB>(a: A, b: B) -> (RA, RB)
    where
        A: FnOnce() -> RA + Send,
        B: FnOnce() -> RB + Send,
        RA: Send,
        RB: Send;
}

/// Runs both halves on the calling thread.
pub(crate) enum SerialJoin {}

impl Join for SerialJoin {
    const MIN_PARALLEL_LEN: usize = usize::MAX;
    #[inline]
    fn join<A, B, RA, RB>(a: A, b: B) -> (RA, RB)
    where
        A: FnOnce() -> RA + Send,
        B: FnOnce() -> RB + Send,
        RA: Send,
        RB: Send,
    {
        (a(), b())
    }
}

/// Runs the halves of large subtrees on rayon's thread pool.
#[cfg(feature = "parallel")]
pub(crate) enum RayonJoin {}

#[cfg(feature = "parallel")]
impl Join for RayonJoin {
    // Below 128 KiB a half is hashed in about 10 us on one core; the
    // hand-off to another thread is not worth it there.
    const MIN_PARALLEL_LEN: usize = 128 * 1024;
    fn join<A, B, RA, RB>(a: A, b: B) -> (RA, RB)
    where
        A: FnOnce() -> RA + Send,
        B: FnOnce() -> RB + Send,
        RA: Send,
        RB: Send,
    {
        rayon::join(a, b)
    }
}

/// Bytes in the left subtree of a tree over `len > CHUNK_LEN` bytes: the
/// largest power-of-two number of chunks that leaves at least one byte for
/// the right subtree.
pub(crate) fn left_subtree_len(len: usize) -> usize {
    debug_assert!(len > CHUNK_LEN);
    let full_chunks = (len - 1) / CHUNK_LEN;
    (1usize << full_chunks.ilog2()) * CHUNK_LEN
}

/// The largest power-of-two subtree that can start at chunk `chunk`: the
/// number of chunks it is aligned to (any, at the start of the message).
pub(crate) fn alignment(chunk: u64) -> u64 {
    if chunk == 0 {
        u64::MAX
    } else {
        1 << chunk.trailing_zeros()
    }
}

/// The largest power of two not above `n` (`n > 0`).
pub(crate) fn largest_power_of_two_at_most(n: u64) -> u64 {
    1 << n.ilog2()
}

impl Tree {
    /// Chunks hashed side by side at the bottom of the recursion: the
    /// platform's lane count, and at least two so every level pairs up.
    pub(crate) fn leaf_chunks(&self) -> usize {
        self.platform.backend().lanes().max(2)
    }

    /// The root output of a message of at most one chunk: every block but the
    /// last compressed, the last kept for `Output`.
    pub(crate) fn chunk_output(&self, input: &[u8], chunk_index: u64) -> Output {
        debug_assert!(input.len() <= CHUNK_LEN);
        let blocks = input.len().div_ceil(BLOCK_LEN).max(1);
        let mut cv = self.key;
        let (whole_blocks, _) = input.as_chunks::<BLOCK_LEN>();
        self.platform.compress_blocks(&mut cv, &whole_blocks[..blocks - 1], chunk_index, self.flags, CHUNK_START);
        let (block, block_len) = padded_block(input, blocks - 1);
        let start = if blocks == 1 { CHUNK_START } else { 0 };
        Output {
            input_cv: cv,
            block,
            block_len,
            counter: chunk_index,
            flags: self.flags | start | CHUNK_END,
            platform: self.platform,
        }
    }

    pub(crate) fn parent_output(&self, left: &CvBytes, right: &CvBytes) -> Output {
        let mut block = [0u8; BLOCK_LEN];
        block[..32].copy_from_slice(left);
        block[32..].copy_from_slice(right);
        Output {
            input_cv: self.key,
            block,
            block_len: BLOCK_LEN as u8,
            counter: 0,
            flags: self.flags | PARENT,
            platform: self.platform,
        }
    }

    /// The chaining value of a non-root parent node.
    pub(crate) fn parent_cv(&self, left: &CvBytes, right: &CvBytes) -> CvBytes {
        let mut out = [[0u8; 32]; 1];
        let block = [*left, *right];
        let job = LaneJob::parent(block.as_flattened(), self.flags, false);
        self.platform.hash_lanes(&self.key, &[job], &mut out);
        out[0]
    }

    /// Hashes the chunks of `input` (at most `MAX_LANES` of them, the last
    /// possibly partial) side by side; none is the root.
    pub(crate) fn hash_chunks(&self, input: &[u8], first_chunk: u64, out: &mut [CvBytes]) -> usize {
        let count = input.len().div_ceil(CHUNK_LEN);
        debug_assert!((1..=MAX_LANES).contains(&count) && out.len() >= count);
        let mut chunks = input.chunks(CHUNK_LEN);
        let jobs: [LaneJob<'_>; MAX_LANES] = core::array::from_fn(|i| match chunks.next() {
            Some(chunk) => LaneJob::chunk(chunk, first_chunk + i as u64, self.flags, false),
            None => LaneJob::IDLE,
        });
        self.platform.hash_lanes(&self.key, &jobs[..count], &mut out[..count]);
        count
    }

    /// Hashes neighbouring pairs of `cvs` into parents, side by side; an odd
    /// last value moves up unchanged. Returns how many values `out` holds.
    pub(crate) fn pair_up(&self, cvs: &[CvBytes], out: &mut [CvBytes]) -> usize {
        let parents = cvs.len() / 2;
        debug_assert!(parents <= MAX_LANES && out.len() >= parents + cvs.len() % 2);
        let blocks = cvs.as_flattened();
        let mut pairs = blocks.chunks_exact(2 * OUT_LEN);
        let jobs: [LaneJob<'_>; MAX_LANES] = core::array::from_fn(|_| match pairs.next() {
            Some(block) => LaneJob::parent(block, self.flags, false),
            None => LaneJob::IDLE,
        });
        self.platform.hash_lanes(&self.key, &jobs[..parents], &mut out[..parents]);
        if cvs.len() % 2 == 1 {
            out[parents] = cvs[cvs.len() - 1];
        }
        parents + cvs.len() % 2
    }

    /// Hashes a subtree of more than one chunk down to at most
    /// `leaf_chunks()` chaining values, each a complete subtree except the
    /// rightmost ones; pairing them up level by level finishes the tree.
    pub(crate) fn subtree_cvs<J: Join>(&self, input: &[u8], first_chunk: u64, out: &mut [CvBytes; MAX_LANES]) -> usize {
        let leaf = self.leaf_chunks();
        if input.len() <= leaf * CHUNK_LEN {
            return self.hash_chunks(input, first_chunk, out);
        }
        let (left, right) = input.split_at(left_subtree_len(input.len()));
        let right_first_chunk = first_chunk + (left.len() / CHUNK_LEN) as u64;
        let mut children = [[[0u8; 32]; MAX_LANES]; 2];
        let [left_out, right_out] = &mut children;
        let (left_count, right_count) = if input.len() >= J::MIN_PARALLEL_LEN {
            J::join(
                || self.subtree_cvs::<J>(left, first_chunk, left_out),
                || self.subtree_cvs::<J>(right, right_first_chunk, right_out),
            )
        } else {
            (
                self.subtree_cvs::<J>(left, first_chunk, left_out),
                self.subtree_cvs::<J>(right, right_first_chunk, right_out),
            )
        };
        // A left subtree is a power of two of at least `leaf` chunks, so it
        // always returns exactly `leaf` values and no pair straddles the halves.
        debug_assert_eq!(left_count, leaf);
        let all = children.as_flattened_mut();
        all.copy_within(MAX_LANES..MAX_LANES + right_count, left_count);
        self.pair_up(&all[..left_count + right_count], out)
    }

    /// The single chaining value of a complete, non-root subtree of two or
    /// more chunks.
    pub(crate) fn subtree_cv<J: Join>(&self, input: &[u8], first_chunk: u64) -> CvBytes {
        let mut cvs = [[0u8; 32]; MAX_LANES];
        let mut count = self.subtree_cvs::<J>(input, first_chunk, &mut cvs);
        while count > 1 {
            let level = cvs;
            count = self.pair_up(&level[..count], &mut cvs);
        }
        cvs[0]
    }

    /// The default-length hash of a whole message.
    #[inline]
    pub(crate) fn hash<J: Join>(&self, input: &[u8]) -> CvBytes {
        if input.len() <= BLOCK_LEN {
            return self.platform.hash_one_block(&self.key, self.flags, input);
        }
        self.hash_all::<J>(input).root_hash()
    }

    /// The root output of a whole message.
    #[inline]
    pub(crate) fn hash_all<J: Join>(&self, input: &[u8]) -> Output {
        if input.len() <= CHUNK_LEN {
            return self.chunk_output(input, 0);
        }
        self.hash_tree::<J>(input)
    }

    /// The root output of a message of more than one chunk.
    fn hash_tree<J: Join>(&self, input: &[u8]) -> Output {
        let mut cvs = [[0u8; 32]; MAX_LANES];
        let mut count = self.subtree_cvs::<J>(input, 0, &mut cvs);
        while count > 2 {
            let level = cvs;
            count = self.pair_up(&level[..count], &mut cvs);
        }
        self.parent_output(&cvs[0], &cvs[1])
    }
}
