//! The BLAKE3 tree (spec section 2.1) and the rules of its nodes: chunks are
//! the leaves, each parent node hashes its two children's chaining values,
//! and the last compression is the root. This file gives every node its
//! flags, decides which compressions can run side by side and hands them to
//! the platform as lane jobs; it holds no unsafe code.
//!
//! Shape: a tree of `n` chunks is a complete left subtree of the largest power
//! of two below `n` chunks, and a right subtree of the rest. Equivalently,
//! pairing the nodes of each level from the left, and carrying an odd last node
//! up unchanged, builds the same tree; that is what lets a level be hashed as
//! independent lane jobs.

use super::join::{Join, SerialJoin};
use crate::platform::backend::Backend;
use crate::platform::job::LaneJob;
use crate::platform::spec::{
    cv_bytes, cv_words, padded_block, CvBytes, CvWords, BLOCK_LEN, CHUNK_END, CHUNK_LEN, CHUNK_START,
    DERIVE_KEY_CONTEXT, DERIVE_KEY_MATERIAL, IV, KEYED_HASH, KEY_LEN, MAX_LANES, OUT_LEN, PARENT, ROOT,
};
use crate::platform::Platform;

/// A BLAKE3 mode (plain hash, keyed hash or key derivation) on one platform:
/// what every compression of one message shares, the key words, the domain
/// flags and the kernels to run.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Mode {
    key: CvWords,
    flags: u8,
    platform: Platform,
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

/// Chunks hashed into one buffer of values before the levels above them are
/// reduced, each level in one call (4 KiB of values on the stack): a
/// 16-lane kernel then runs 64 parents as four steps of one call, whose
/// loads overlap the rounds, instead of four calls.
const WIDE_CHUNKS: usize = 128;

/// A complete subtree of a message: its bytes and the index of its first chunk.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Subtree<'a> {
    pub(crate) input: &'a [u8],
    pub(crate) first_chunk: u64,
}

/// Subtrees hashed in one fork-join at most. Aligned power-of-two subtrees
/// in a row double in size up to an alignment, then halve, so one update
/// of a whole message up to 2^64 bytes covers at most 2^64 / 2^10 chunks
/// in 54 of them; a longer row (an update starting mid-way) takes two.
pub(crate) const MAX_SUBTREES: usize = 64;

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

impl Mode {
    /// The default hash.
    pub(crate) fn plain(platform: Platform) -> Mode {
        Mode { key: IV, flags: 0, platform }
    }

    /// The keyed hash.
    pub(crate) fn keyed(platform: Platform, key: &[u8; KEY_LEN]) -> Mode {
        Mode { key: cv_words(key), flags: KEYED_HASH, platform }
    }

    /// Key derivation: hashes the context string into the key of the
    /// key-material tree.
    pub(crate) fn derive_key(platform: Platform, context: &str) -> Mode {
        Self::derive_key_material(platform, &Self::context_key(platform, context))
    }

    /// The hash of a key-derivation context: the key of the key-material tree.
    pub(crate) fn context_key(platform: Platform, context: &str) -> [u8; KEY_LEN] {
        Mode { key: IV, flags: DERIVE_KEY_CONTEXT, platform }.hash::<SerialJoin>(context.as_bytes())
    }

    /// The key-material tree of key derivation under a hashed context.
    pub(crate) fn derive_key_material(platform: Platform, context_key: &[u8; KEY_LEN]) -> Mode {
        Mode { key: cv_words(context_key), flags: DERIVE_KEY_MATERIAL, platform }
    }

    /// The same mode on another platform.
    pub(crate) fn with_platform(self, platform: Platform) -> Mode {
        Mode { platform, ..self }
    }

    pub(crate) fn backend(&self) -> Backend {
        self.platform.backend()
    }

    /// Chains one kernel call hashes side by side.
    pub(crate) fn lanes(&self) -> usize {
        self.platform.backend().lanes()
    }

    /// Chunks hashed side by side at the bottom of the recursion: the
    /// platform's lane count, and at least two so every level pairs up.
    pub(crate) fn leaf_chunks(&self) -> usize {
        self.lanes().max(2)
    }

    /// Chunk `chunk_index` of a message: `CHUNK_START` on its first block,
    /// `CHUNK_END` (and `ROOT` when the chunk is the whole message) on its
    /// last.
    #[inline]
    pub(crate) fn chunk_job<'a>(&self, input: &'a [u8], chunk_index: u64, is_root: bool) -> LaneJob<'a> {
        let root = if is_root { ROOT } else { 0 };
        LaneJob::new(input, chunk_index, self.flags, CHUNK_START, CHUNK_END | root)
    }

    /// A parent node over its two children's chaining values: `PARENT` on
    /// its one block, and `ROOT` when it is the top of the tree.
    #[inline]
    pub(crate) fn parent_job<'a>(&self, children: &'a [CvBytes; 2], is_root: bool) -> LaneJob<'a> {
        let root = if is_root { ROOT } else { 0 };
        LaneJob::new(children.as_flattened(), 0, self.flags | PARENT, 0, root)
    }

    /// Hashes `jobs` side by side from this mode's key: `out[i]` receives
    /// the chaining value of `jobs[i]`.
    #[inline]
    pub(crate) fn hash_jobs(&self, jobs: &[LaneJob<'_>], out: &mut [CvBytes]) {
        self.platform.hash_jobs(&self.key, jobs, out);
    }

    /// Hashes whole messages of at most one chunk that all have `blocks`
    /// blocks: `out[i]` receives the root value of `inputs[i]` (the small
    /// messages of the batch API).
    #[inline]
    pub(crate) fn hash_short_messages(&self, blocks: usize, inputs: &[&[u8]], out: &mut [CvBytes]) {
        let flags = [self.flags, CHUNK_START, CHUNK_END | ROOT];
        self.platform.hash_short_messages(&self.key, blocks, flags, inputs, out);
    }

    /// The hash of a message of at most one block: one compression that is
    /// the whole chunk and the root. The shortcut keeps small hashes free of
    /// the tree's bookkeeping.
    #[inline]
    fn hash_one_block(&self, input: &[u8]) -> CvBytes {
        debug_assert!(input.len() <= BLOCK_LEN);
        let flags = self.flags | CHUNK_START | CHUNK_END | ROOT;
        let mut cv = self.key;
        match <&[u8; BLOCK_LEN]>::try_from(input) {
            Ok(block) => self.platform.compress_in_place(&mut cv, block, BLOCK_LEN as u8, 0, flags),
            Err(_) => {
                let (block, len) = padded_block(input, 0);
                self.platform.compress_in_place(&mut cv, &block, len, 0, flags);
            }
        }
        cv_bytes(&cv)
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
        let children = [*left, *right];
        self.hash_jobs(&[self.parent_job(&children, false)], &mut out);
        out[0]
    }

    /// Hashes the chunks of `input` (the last possibly partial) side by
    /// side; none is the root.
    pub(crate) fn hash_chunks(&self, input: &[u8], first_chunk: u64, out: &mut [CvBytes]) -> usize {
        let chunk_flags = [self.flags, CHUNK_START, CHUNK_END];
        self.platform.hash_chunks(&self.key, input, first_chunk, chunk_flags, out)
    }

    /// Hashes neighbouring pairs of `cvs` into parents, side by side; an odd
    /// last value moves up unchanged. Returns how many values `out` holds.
    pub(crate) fn pair_up(&self, cvs: &[CvBytes], out: &mut [CvBytes]) -> usize {
        let (pairs, odd) = cvs.as_chunks::<2>();
        let parents = pairs.len();
        debug_assert!(out.len() >= parents + odd.len());
        // Each pair of values, side by side, is its parent's block.
        let blocks = pairs.as_flattened().as_flattened();
        self.platform.hash_blocks(&self.key, self.flags | PARENT, blocks, &mut out[..parents]);
        if let [last] = odd {
            out[parents] = *last;
        }
        parents + odd.len()
    }

    /// Hashes a subtree of more than one chunk down to at most
    /// `leaf_chunks()` chaining values, each a complete subtree except the
    /// rightmost ones; pairing them up level by level finishes the tree.
    pub(crate) fn subtree_cvs<J: Join>(&self, input: &[u8], first_chunk: u64, out: &mut [CvBytes; MAX_LANES]) -> usize {
        let leaf = self.leaf_chunks();
        if input.len() <= leaf * CHUNK_LEN {
            return self.hash_chunks(input, first_chunk, out);
        }
        if input.len() <= WIDE_CHUNKS * CHUNK_LEN {
            return self.wide_subtree_cvs(input, first_chunk, out);
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

    /// `subtree_cvs` for at most `WIDE_CHUNKS` chunks: every chunk's value
    /// first, then each level's parents in one call, so that a wide kernel
    /// runs them as consecutive steps instead of a call per sixteen.
    fn wide_subtree_cvs(&self, input: &[u8], first_chunk: u64, out: &mut [CvBytes; MAX_LANES]) -> usize {
        // Buffers as small as the subtree allows: zeroing 6 KiB for sixteen
        // chunks would cost a tenth of an AVX2 kernel call.
        match input.len().div_ceil(CHUNK_LEN) {
            0..=16 => self.wide_subtree_cvs_in::<16, 8>(input, first_chunk, out),
            17..=32 => self.wide_subtree_cvs_in::<32, 16>(input, first_chunk, out),
            33..=64 => self.wide_subtree_cvs_in::<64, 32>(input, first_chunk, out),
            _ => self.wide_subtree_cvs_in::<WIDE_CHUNKS, { WIDE_CHUNKS / 2 }>(input, first_chunk, out),
        }
    }

    /// `wide_subtree_cvs` for at most `N` chunks (`HALF` = `N / 2`).
    fn wide_subtree_cvs_in<const N: usize, const HALF: usize>(
        &self,
        input: &[u8],
        first_chunk: u64,
        out: &mut [CvBytes; MAX_LANES],
    ) -> usize {
        let leaf = self.leaf_chunks();
        let mut below = [[0u8; OUT_LEN]; N];
        let mut above = [[0u8; OUT_LEN]; HALF];
        let mut count = self.hash_chunks(input, first_chunk, &mut below);
        let (mut level, mut next): (&mut [CvBytes], &mut [CvBytes]) = (&mut below, &mut above);
        while count > leaf {
            count = self.pair_up(&level[..count], next);
            core::mem::swap(&mut level, &mut next);
        }
        out[..count].copy_from_slice(&level[..count]);
        count
    }

    /// The single chaining value of a non-empty, non-root subtree whose
    /// first chunk is number `first_chunk` of the message (one chunk, a
    /// complete subtree, or the right edge of a tree).
    pub(crate) fn subtree_cv<J: Join>(&self, input: &[u8], first_chunk: u64) -> CvBytes {
        let mut cvs = [[0u8; 32]; MAX_LANES];
        let mut count = self.subtree_cvs::<J>(input, first_chunk, &mut cvs);
        while count > 1 {
            let level = cvs;
            count = self.pair_up(&level[..count], &mut cvs);
        }
        cvs[0]
    }

    /// The chaining values of consecutive non-root subtrees: `out[i]` of
    /// `subtrees[i]`. With a parallel `J`, all of them in one fork-join
    /// (the first subtree against the rest, which are at most as large
    /// together), so the threads meet once at the end.
    pub(crate) fn subtree_cv_each<J: Join>(&self, subtrees: &[Subtree<'_>], out: &mut [CvBytes]) {
        let Some((first, rest)) = subtrees.split_first() else { return };
        let (first_out, rest_out) = out.split_first_mut().expect("one output per subtree");
        let len: usize = subtrees.iter().map(|subtree| subtree.input.len()).sum();
        if rest.is_empty() {
            *first_out = self.subtree_cv::<J>(first.input, first.first_chunk);
        } else if len >= J::MIN_PARALLEL_LEN {
            let (cv, ()) = J::join(
                || self.subtree_cv::<J>(first.input, first.first_chunk),
                || self.subtree_cv_each::<J>(rest, rest_out),
            );
            *first_out = cv;
        } else {
            *first_out = self.subtree_cv::<J>(first.input, first.first_chunk);
            self.subtree_cv_each::<J>(rest, rest_out);
        }
    }

    /// The default-length hash of a whole message.
    #[inline]
    pub(crate) fn hash<J: Join>(&self, input: &[u8]) -> CvBytes {
        if input.len() <= BLOCK_LEN {
            return self.hash_one_block(input);
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
