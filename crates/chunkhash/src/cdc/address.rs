//! Chunking and content addresses in one pass: the chunks found are hashed
//! while their bytes are still in cache.

use arrayvec::ArrayVec;

use super::{Cdc, Chunk};
use crate::blake3::{Batch, BatchOutput};

/// Chunks found before they are hashed together: at most this many...
const GROUP_CHUNKS: usize = 16;
/// ... and about this many bytes, which stay in the L2 cache of current
/// cores (half a MiB or more per core) between the chunker's read and the
/// hasher's.
const GROUP_BYTES: usize = 256 * 1024;

impl Cdc {
    /// Cuts `data`, the whole input, into chunks as [`Cdc::chunks`] does,
    /// and hashes each with `batch` while its bytes are in cache, calling
    /// `on_chunk` with each chunk and its address, in order. The address is
    /// the batch's output: a [`blake3::Hash`](crate::blake3::Hash) (BLAKE3,
    /// or keyed BLAKE3 from [`Batch::new_keyed`]), or its first 20 bytes, a
    /// [`blake3::Address`](crate::blake3::Address) (BLAKE3-160).
    ///
    /// ```
    /// use chunkhash::blake3::{self, Batch};
    /// use chunkhash::cdc::Cdc;
    ///
    /// let data: Vec<u8> = (0..500_000u32).map(|i| (i.wrapping_mul(2654435761) >> 13) as u8).collect();
    /// let mut chunks = Vec::new();
    /// Cdc::xet().chunk_and_hash(&data, &Batch::new(), |chunk, address: blake3::Address| {
    ///     chunks.push((chunk, address));
    /// });
    /// for (chunk, address) in chunks {
    ///     let bytes = &data[chunk.offset as usize..][..chunk.length];
    ///     assert_eq!(address, blake3::address(bytes));
    /// }
    /// ```
    pub fn chunk_and_hash<T: BatchOutput + Copy>(
        &self,
        data: &[u8],
        batch: &Batch,
        mut on_chunk: impl FnMut(Chunk, T),
    ) {
        let mut found: ArrayVec<Chunk, GROUP_CHUNKS> = ArrayVec::new();
        let mut group_bytes = 0;
        let mut hash_group = |found: &mut ArrayVec<Chunk, GROUP_CHUNKS>| {
            let slices: ArrayVec<&[u8], GROUP_CHUNKS> =
                found.iter().map(|chunk| &data[chunk.offset as usize..][..chunk.length]).collect();
            let mut outputs: ArrayVec<Option<T>, GROUP_CHUNKS> = found.iter().map(|_| None).collect();
            batch.hash_slices_with(&slices, |i, output: T| outputs[i] = Some(output));
            for (chunk, output) in found.drain(..).zip(outputs) {
                // `hash_slices_with` emits one output per input.
                on_chunk(chunk, output.expect("one output per chunk"));
            }
        };
        for chunk in self.chunks(data) {
            found.push(chunk);
            group_bytes += chunk.length;
            if found.is_full() || group_bytes >= GROUP_BYTES {
                hash_group(&mut found);
                group_bytes = 0;
            }
        }
        if !found.is_empty() {
            hash_group(&mut found);
        }
    }
}
