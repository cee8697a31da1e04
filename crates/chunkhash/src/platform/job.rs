//! The unit of work every kernel takes: one compression chain for one SIMD
//! lane. Its input is at most one chunk, which the constructor checks and
//! the private fields keep true, so a kernel may read any of a job's first
//! [`CHUNK_BLOCKS`] blocks' worth of steps without a bounds check of its own.

use super::spec::{padded_block, BLOCK_LEN, CHUNK_BLOCKS, CHUNK_LEN};

/// One independent compression chain for a SIMD lane: a chunk (up to 1024
/// bytes, the last block possibly partial, or empty) or a parent node (64
/// bytes). Every block gets `flags`; the first also gets `start_flags`, the
/// last also `end_flags`. The chain starts from the key words.
///
/// The tree decides the flags (see `blake3/tree.rs`); a job only carries them.
#[derive(Clone, Copy, Debug)]
pub(crate) struct LaneJob<'a> {
    input: &'a [u8],
    counter: u64,
    flags: u8,
    start_flags: u8,
    end_flags: u8,
}

impl<'a> LaneJob<'a> {
    /// Fills unused slots of a job array; never hashed.
    pub(crate) const IDLE: LaneJob<'static> =
        LaneJob { input: &[], counter: 0, flags: 0, start_flags: 0, end_flags: 0 };

    /// A job over `input` with block counter `counter`.
    ///
    /// # Panics
    ///
    /// If `input` is longer than one chunk: the kernels' reads rely on it.
    #[inline(always)]
    pub(crate) fn new(input: &'a [u8], counter: u64, flags: u8, start_flags: u8, end_flags: u8) -> Self {
        assert!(input.len() <= CHUNK_LEN, "a lane job holds at most one chunk");
        LaneJob { input, counter, flags, start_flags, end_flags }
    }

    /// The counter every block of the job is compressed with.
    #[inline(always)]
    pub(crate) fn counter(&self) -> u64 {
        self.counter
    }

    /// Flags added to the last block.
    #[inline(always)]
    pub(crate) fn end_flags(&self) -> u8 {
        self.end_flags
    }

    /// Blocks compressed for this job, 1 to `CHUNK_BLOCKS`: an empty chunk
    /// is still one block.
    #[inline(always)]
    pub(crate) fn block_count(&self) -> usize {
        let blocks = self.input.len().div_ceil(BLOCK_LEN).max(1);
        debug_assert!(blocks <= CHUNK_BLOCKS);
        blocks
    }

    /// Calls `f(block, block_len, flags)` for each block of the job in
    /// order: whole blocks straight from the input, a partial last block
    /// zero-padded.
    #[inline(always)]
    pub(crate) fn for_each_block(&self, mut f: impl FnMut(&[u8; BLOCK_LEN], u8, u8)) {
        let blocks = self.block_count();
        for index in 0..blocks {
            let mut flags = self.flags;
            if index == 0 {
                flags |= self.start_flags;
            }
            if index == blocks - 1 {
                flags |= self.end_flags;
            }
            match self.input.get(index * BLOCK_LEN..(index + 1) * BLOCK_LEN) {
                Some(block) => f(block.try_into().unwrap(), BLOCK_LEN as u8, flags),
                None => {
                    let (block, len) = padded_block(self.input, index);
                    f(&block, len, flags);
                }
            }
        }
    }
}

/// Whether a message of `len` bytes has `blocks` blocks (an empty message
/// has one): what every message of one small-message kernel call shares.
#[inline(always)]
pub(crate) fn has_blocks(len: usize, blocks: usize) -> bool {
    len <= blocks * BLOCK_LEN && (len > (blocks - 1) * BLOCK_LEN || blocks == 1)
}

/// What the lane kernels read. Targets without them (wasm32 without SIMD128,
/// other architectures) go through `for_each_block` only.
#[cfg_attr(
    not(any(
        target_arch = "x86",
        target_arch = "x86_64",
        all(target_arch = "aarch64", target_endian = "little"),
        all(target_arch = "wasm32", target_feature = "simd128")
    )),
    allow(dead_code)
)]
impl<'a> LaneJob<'a> {
    /// The bytes to compress: at most `CHUNK_LEN`.
    #[inline(always)]
    pub(crate) fn input(&self) -> &'a [u8] {
        self.input
    }

    /// Flags of every block.
    #[inline(always)]
    pub(crate) fn flags(&self) -> u8 {
        self.flags
    }

    /// Flags added to the first block.
    #[inline(always)]
    pub(crate) fn start_flags(&self) -> u8 {
        self.start_flags
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[should_panic(expected = "at most one chunk")]
    fn a_job_longer_than_one_chunk_is_refused() {
        let input = [0u8; CHUNK_LEN + 1];
        let _ = LaneJob::new(&input, 0, 0, 0, 0);
    }

    #[test]
    fn block_counts_cover_every_length_of_a_chunk() {
        let input = [0u8; CHUNK_LEN];
        for len in 0..=CHUNK_LEN {
            let job = LaneJob::new(&input[..len], 0, 0, 0, 0);
            let expected = len.max(1).div_ceil(BLOCK_LEN);
            let mut visited = 0;
            job.for_each_block(|_, _, _| visited += 1);
            assert_eq!(job.block_count(), expected, "length {len}");
            assert_eq!(visited, expected, "length {len}");
            assert!(expected <= CHUNK_BLOCKS, "length {len}");
        }
    }
}
