//! Chunking and content addresses in one pass: the chunks found are hashed
//! while their bytes are still in cache.

use arrayvec::ArrayVec;

use super::{Cdc, Chunk, Chunker};
use crate::blake3::{Batch, BatchOutput, Hash, Hasher, KEY_LEN};

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
    pub fn chunk_and_hash<T: BatchOutput + Copy>(&self, data: &[u8], batch: &Batch, on_chunk: impl FnMut(Chunk, T)) {
        self.chunk_and_hash_from(data, 0, data.len(), batch, on_chunk);
    }

    /// [`Cdc::chunk_and_hash`] over the chunks of `data[start..]` (`start`
    /// taken for a cut; offsets stay those of `data`), up to the first
    /// chunk that ends at or past `stop`.
    fn chunk_and_hash_from<T: BatchOutput + Copy>(
        &self,
        data: &[u8],
        start: usize,
        stop: usize,
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
        for chunk in self.chunks(&data[start..]) {
            let chunk = Chunk { offset: chunk.offset + start as u64, length: chunk.length };
            found.push(chunk);
            group_bytes += chunk.length;
            let last = chunk.offset as usize + chunk.length >= stop;
            if found.is_full() || group_bytes >= GROUP_BYTES || last {
                hash_group(&mut found);
                group_bytes = 0;
            }
            if last {
                break;
            }
        }
    }

    /// [`Cdc::chunk_and_hash`] on all threads of the current rayon pool,
    /// returning every chunk with its address, in order: the same chunks
    /// and addresses. The input is cut into segments of a few MiB, each
    /// chunked and hashed on its own from its first byte (as if a cut were
    /// there); then, segment by segment, the chunks of the whole input are
    /// followed from the last one found before the segment, chunked one at
    /// a time, until one starts where one of the segment's starts, from
    /// which on the two agree (a cut depends only on the bytes from the
    /// cut before). That takes a chunk or two per segment on most data.
    #[cfg(feature = "parallel")]
    pub fn chunk_and_hash_parallel<T: BatchOutput + Copy + Send>(
        &self,
        data: &[u8],
        batch: &Batch,
    ) -> alloc::vec::Vec<(Chunk, T)> {
        // Large enough that the chunks redone per segment are a small share.
        let segment = (8 << 20).max(16 * self.max_size);
        self.chunk_and_hash_segments(data, batch, segment)
    }

    /// [`Cdc::chunk_and_hash_parallel`] with segments of `segment` bytes.
    #[cfg(feature = "parallel")]
    fn chunk_and_hash_segments<T: BatchOutput + Copy + Send>(
        &self,
        data: &[u8],
        batch: &Batch,
        segment: usize,
    ) -> alloc::vec::Vec<(Chunk, T)> {
        use alloc::vec::Vec;
        use rayon::prelude::*;

        let segment = segment.max(1);
        let starts: Vec<usize> = (0..data.len()).step_by(segment).collect();
        let guesses: Vec<Vec<(Chunk, T)>> = starts
            .par_iter()
            .map(|&start| {
                let mut chunks = Vec::new();
                let stop = start.saturating_add(segment).min(data.len());
                self.chunk_and_hash_from(data, start, stop, batch, |chunk, address| chunks.push((chunk, address)));
                chunks
            })
            .collect();
        let mut out: Vec<(Chunk, T)> = Vec::with_capacity(guesses.iter().map(Vec::len).sum());
        for (guess, start) in guesses.iter().zip(starts) {
            let end = out.last().map_or(0, |(c, _)| c.offset + c.length as u64);
            let stop = start.saturating_add(segment).min(data.len()) as u64;
            let from = join_segment(
                guess,
                |(c, _)| c.offset,
                end,
                stop,
                |at| {
                    // Not yet on the segment's chunks: the next chunk, alone.
                    let at = at as usize;
                    self.chunk_and_hash_from(data, at, at + 1, batch, |chunk, address| out.push((chunk, address)));
                    out.last().map_or(0, |(c, _)| c.length)
                },
            );
            out.extend_from_slice(&guess[from..]);
        }
        out
    }
}

/// The step that makes chunking in parallel segments exact. The chunks of
/// the whole input found so far end at `end`; `segment` holds a segment's
/// chunks, in order, cut from the segment's first byte as if a cut were
/// there, up to the first chunk that ends at or past `stop`, the segment's
/// end (`offset` gives a chunk's offset in the input). From `end`, the
/// input's chunks are cut one at a time by `cut_at` (which returns the
/// length of the input's chunk at an offset, and keeps it) while `end` is
/// below `stop` and is not where one of the segment's chunks starts.
/// Returns the index of the segment's first chunk that is also the input's:
/// from it on, all of them are (a cut depends only on the bytes since the
/// cut before), or `segment.len()` when none is reached before `stop` (the
/// next segment goes on from there). On most data one or two chunks are cut
/// alone; on data that never resynchronises, all of the segment's.
///
/// `Cdc::chunk_and_hash_parallel` (feature `parallel`) joins its segments with it, and so does
/// `chunkhash-store`'s `put`, whose threads cut a large file's segments.
pub fn join_segment<G>(
    segment: &[G],
    offset: impl Fn(&G) -> u64,
    mut end: u64,
    stop: u64,
    mut cut_at: impl FnMut(u64) -> usize,
) -> usize {
    loop {
        if let Ok(at) = segment.binary_search_by_key(&end, &offset) {
            return at;
        }
        if end >= stop {
            return segment.len();
        }
        let length = cut_at(end);
        // A chunk has at least one byte; a `cut_at` giving none would loop.
        assert!(length > 0, "join_segment: an empty chunk at {end}");
        end += length as u64;
    }
}

#[cfg(all(test, feature = "parallel"))]
mod tests {
    use super::*;
    use crate::blake3::Hash;
    use crate::cdc::Normalization;
    use alloc::vec::Vec;

    /// Segments of every size around the chunk sizes, down to 1000 bytes,
    /// over data where chunks resynchronise at once (random) and where they
    /// never do (zeros, cut only at the maximum: segments that do not
    /// start on a multiple of it are redone whole).
    #[test]
    fn parallel_equals_one_pass() {
        let mut state = 0x5eed_u64;
        let random: Vec<u8> = (0..600_000)
            .map(|_| {
                state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                (state >> 56) as u8
            })
            .collect();
        let zeros = alloc::vec![0u8; 300_000];
        let fastcdc = Cdc::fastcdc(2048, 8192, 65536, Normalization::Level1).unwrap();
        let batch = Batch::new();
        for cdc in [Cdc::xet(), fastcdc] {
            for data in [&random[..], &zeros[..], &random[..5], &[]] {
                let mut expected: Vec<(Chunk, Hash)> = Vec::new();
                cdc.chunk_and_hash(data, &batch, |c, h| expected.push((c, h)));
                for segment in [1000, 4099, 8191, 8192, 65_536, 131_072, 131_073, 200_000, 1 << 20] {
                    assert_eq!(cdc.chunk_and_hash_segments(data, &batch, segment), expected, "{cdc:?} {segment}");
                }
                assert_eq!(cdc.chunk_and_hash_parallel(data, &batch), expected);
            }
        }
    }
}

/// [`Cdc::chunk_and_hash`] over an input fed in pieces of any size: the
/// same chunks and addresses (BLAKE3, or keyed BLAKE3), in constant memory.
///
/// Each piece is scanned once by a [`Chunker`]; the chunks that begin and
/// end inside it are hashed together by the batch hasher, a group at a
/// time while their bytes are still in cache, as `chunk_and_hash` does.
/// Only a chunk that spans pieces goes through a streaming [`Hasher`]: its
/// head as its piece ends, the rest when the piece with its end comes.
///
/// ```
/// use chunkhash::blake3::{self, Batch};
/// use chunkhash::cdc::{Cdc, HashingChunker};
///
/// let data: Vec<u8> = (0..500_000u32).map(|i| (i.wrapping_mul(2654435761) >> 13) as u8).collect();
/// let mut one_shot = Vec::new();
/// Cdc::xet().chunk_and_hash(&data, &Batch::new(), |chunk, hash: blake3::Hash| one_shot.push((chunk, hash)));
///
/// let mut chunker = HashingChunker::new(Cdc::xet(), None);
/// let mut streamed = Vec::new();
/// for piece in data.chunks(10_000) {
///     chunker.update(piece, |chunk, hash| streamed.push((chunk, hash)));
/// }
/// streamed.extend(chunker.finish());
/// assert_eq!(one_shot, streamed);
/// ```
#[derive(Clone, Debug)]
pub struct HashingChunker {
    chunker: Chunker,
    batch: Batch,
    /// The bytes so far of the chunk the last piece left open.
    open: Hasher,
}

impl HashingChunker {
    /// A new input, cut by `cdc`, its chunks addressed by BLAKE3, keyed
    /// with `key` if given (Xet's chunk hashes: [`xet::DATA_KEY`](crate::xet::DATA_KEY)).
    pub fn new(cdc: Cdc, key: Option<&[u8; KEY_LEN]>) -> HashingChunker {
        let (batch, open) = match key {
            Some(key) => (Batch::new_keyed(key), Hasher::new_keyed(key)),
            None => (Batch::new(), Hasher::new()),
        };
        HashingChunker { chunker: Chunker::new(cdc), batch, open }
    }

    /// Feeds the input's next bytes, calling `on_chunk` with each chunk
    /// they complete and its address, in order.
    pub fn update(&mut self, piece: &[u8], mut on_chunk: impl FnMut(Chunk, Hash)) {
        let HashingChunker { chunker, batch, open } = self;
        let start = chunker.position();
        let mut found: ArrayVec<Chunk, GROUP_CHUNKS> = ArrayVec::new();
        let mut group_bytes = 0;
        // Where in `piece` the next chunk begins.
        let mut done = 0;
        let hash_group = |found: &mut ArrayVec<Chunk, GROUP_CHUNKS>, on_chunk: &mut dyn FnMut(Chunk, Hash)| {
            let slices: ArrayVec<&[u8], GROUP_CHUNKS> =
                found.iter().map(|chunk| &piece[(chunk.offset - start) as usize..][..chunk.length]).collect();
            let mut outputs: ArrayVec<Option<Hash>, GROUP_CHUNKS> = found.iter().map(|_| None).collect();
            batch.hash_slices_with(&slices, |i, output: Hash| outputs[i] = Some(output));
            for (chunk, output) in found.drain(..).zip(outputs) {
                // `hash_slices_with` emits one output per input.
                on_chunk(chunk, output.expect("one output per chunk"));
            }
        };
        chunker.update(piece, |chunk| {
            let end = (chunk.offset + chunk.length as u64 - start) as usize;
            if chunk.offset < start {
                // Begun in an earlier piece: its head is in `open`.
                open.update(&piece[..end]);
                on_chunk(chunk, open.finalize());
                open.reset();
            } else {
                found.push(chunk);
                group_bytes += chunk.length;
                if found.is_full() || group_bytes >= GROUP_BYTES {
                    hash_group(&mut found, &mut on_chunk);
                    group_bytes = 0;
                }
            }
            done = end;
        });
        hash_group(&mut found, &mut on_chunk);
        open.update(&piece[done..]);
    }

    /// Ends the input: its last chunk and address, if bytes are left. The
    /// chunker then starts a new input at offset 0.
    pub fn finish(&mut self) -> Option<(Chunk, Hash)> {
        let last = self.chunker.finish().map(|chunk| (chunk, self.open.finalize()));
        self.open.reset();
        last
    }

    /// Bytes of the current input fed so far.
    pub fn position(&self) -> u64 {
        self.chunker.position()
    }
}
