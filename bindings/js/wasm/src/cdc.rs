//! The content-defined chunking exports (`chunkhash::cdc`): a chunker fed
//! the input in pieces, which addresses each chunk as it completes, and
//! Xet's file hash over Xet's chunks.
//!
//! One chunking runs at a time (`chunk()` in JavaScript is one synchronous
//! call): [`chunkhash_cdc_begin`] starts it, [`chunkhash_cdc_update`] takes
//! each staged piece, [`chunkhash_cdc_finish`] ends it. Each call writes the
//! chunks it completed to the output area as records of [`RECORD_LEN`]
//! bytes: the offset (8 bytes, little-endian), the length (4) and the
//! address (32; a BLAKE3-160 address is its first 20, then zeros).

use chunkhash::blake3::{self, Hash};
use chunkhash::cdc::{Cdc, Chunk, HashingChunker, Normalization};
use chunkhash::xet;

use crate::state::{output_area, staged, State};
use crate::{run, Error};

/// Bytes of one chunk record in the output area.
pub const RECORD_LEN: usize = 8 + 4 + blake3::OUT_LEN;

const ADDRESS_BLAKE3: u32 = 0;
const ADDRESS_BLAKE3_160: u32 = 1;
const ADDRESS_XET: u32 = 2;

/// The chunking in progress: the library's [`HashingChunker`] (each byte
/// scanned once, chunks hashed in batches), and what the records need.
pub(crate) struct Job {
    chunker: HashingChunker,
    truncate: bool,
    /// Xet's Merkle tree of the chunks, when the chunker and the addresses
    /// are Xet's. Kept here because the file hash is built from the chunk
    /// list as it streams out, and `HashingChunker` (used for any chunker
    /// and address) does not keep one.
    tree: Option<xet::MerkleTree>,
    /// Chunks completed by the current call, as records.
    done: Vec<u8>,
}

impl Job {
    /// Records a completed chunk (and adds it to Xet's tree).
    fn complete(&mut self, chunk: Chunk, hash: Hash) {
        let Job { truncate, tree, done, .. } = self;
        record(done, *truncate, tree.as_mut(), chunk, hash);
    }

    fn update(&mut self, input: &[u8]) {
        let Job { chunker, truncate, tree, done } = self;
        let mut tree = tree.as_mut();
        chunker.update(input, |chunk, hash| record(done, *truncate, tree.as_deref_mut(), chunk, hash));
    }
}

/// Appends `chunk`'s record to `done`; pushes it to `tree` if there is one.
fn record(done: &mut Vec<u8>, truncate: bool, tree: Option<&mut xet::MerkleTree>, chunk: Chunk, hash: Hash) {
    if let Some(tree) = tree {
        tree.push(xet::Hash::from(hash), chunk.length as u64);
    }
    let mut address = *hash.as_bytes();
    if truncate {
        address[blake3::ADDRESS_LEN..].fill(0);
    }
    done.extend_from_slice(&chunk.offset.to_le_bytes());
    // Chunks are at most 16 MiB (FastCDC's largest maximum).
    done.extend_from_slice(&(chunk.length as u32).to_le_bytes());
    done.extend_from_slice(&address);
}

/// Starts a chunking: Xet's chunker (`fastcdc` 0) or FastCDC 2020 with
/// sizes `min`, `avg`, `max` (normalization level 1, the `fastcdc` crate's
/// default), addresses BLAKE3 (0), BLAKE3-160 (1) or Xet chunk hashes (2).
/// Returns 0; a chunking in progress is dropped.
#[unsafe(no_mangle)] // SAFETY: no other symbol of this module has this name.
pub extern "C" fn chunkhash_cdc_begin(fastcdc: u32, min: usize, avg: usize, max: usize, address: u32) -> i32 {
    run(|state| {
        state.cdc = None;
        let cdc = if fastcdc == 0 {
            Cdc::xet()
        } else {
            Cdc::fastcdc(min, avg, max, Normalization::Level1)
                .map_err(|error| Error::invalid_argument(format!("fastcdc: {error}")))?
        };
        let (key, truncate) = match address {
            ADDRESS_BLAKE3 => (None, false),
            ADDRESS_BLAKE3_160 => (None, true),
            ADDRESS_XET => (Some(&xet::DATA_KEY), false),
            _ => return Err(Error::invalid_argument(format!("unknown chunk address {address}"))),
        };
        let tree = (fastcdc == 0 && address == ADDRESS_XET).then(xet::MerkleTree::new);
        state.cdc = Some(Job { chunker: HashingChunker::new(cdc, key), truncate, tree, done: Vec::new() });
        Ok(0)
    })
}

/// Feeds the `len` staged bytes, the input's next piece; writes the chunks
/// it completed to the output area and returns how many.
#[unsafe(no_mangle)] // SAFETY: no other symbol of this module has this name.
pub extern "C" fn chunkhash_cdc_update(len: usize) -> i32 {
    run(|state| {
        let State { staging, output, cdc, .. } = state;
        let job = cdc.as_mut().ok_or_else(no_job)?;
        job.update(staged(staging, 0, len)?);
        let records = job.done.len() / RECORD_LEN;
        write_done(job, output)?;
        crate::len_i32(records)
    })
}

/// Ends the input: writes its last chunk (if any bytes are left) to the
/// output area and returns how many chunks that is (0 or 1). When the
/// chunker and the addresses are Xet's, the record is followed by Xet's
/// file hash in Xet's string form (64 hex digits, as `hf_xet` prints it).
#[unsafe(no_mangle)] // SAFETY: no other symbol of this module has this name.
pub extern "C" fn chunkhash_cdc_finish() -> i32 {
    run(|state| {
        let State { output, cdc, .. } = state;
        let mut job = cdc.take().ok_or_else(no_job)?;
        if let Some((chunk, hash)) = job.chunker.finish() {
            job.complete(chunk, hash);
        }
        let records = job.done.len() / RECORD_LEN;
        if let Some(tree) = &job.tree {
            job.done.extend_from_slice(tree.file_hash().to_hex().as_bytes());
        }
        write_done(&mut job, output)?;
        crate::len_i32(records)
    })
}

fn no_job() -> Error {
    Error::invalid_argument("no chunking in progress (chunkhash_cdc_begin first)")
}

/// Moves the bytes the call produced to the output area.
fn write_done(job: &mut Job, output: &mut Vec<u8>) -> Result<(), Error> {
    output_area(output, job.done.len())?.copy_from_slice(&job.done);
    job.done.clear();
    Ok(())
}

#[cfg(test)]
mod tests {
    //! The chunking exports against the library's one-shot calls, with the
    //! input fed in pieces of several sizes.

    use super::*;
    use crate::state::with_state;
    use crate::tests::{output, stage};
    use vectors::input_pattern;

    /// A chunk as the records give it: offset, length, address.
    type Record = (u64, u32, Vec<u8>);

    /// Whether a chunking is in progress.
    fn in_progress() -> bool {
        with_state(|state| state.cdc.is_some())
    }

    /// Chunks `data` in pieces of `piece` bytes: (offset, length, address)
    /// per chunk, and the file hash when there is one.
    fn chunk(
        data: &[u8],
        piece: usize,
        fastcdc: Option<(usize, usize, usize)>,
        address: u32,
    ) -> (Vec<Record>, Option<String>) {
        let pieces: Vec<&[u8]> = data.chunks(piece).collect();
        chunk_pieces(&pieces, fastcdc, address)
    }

    /// Chunks the input fed as `pieces`, as [`chunk`] does.
    fn chunk_pieces(
        pieces: &[&[u8]],
        fastcdc: Option<(usize, usize, usize)>,
        address: u32,
    ) -> (Vec<Record>, Option<String>) {
        let (min, avg, max) = fastcdc.unwrap_or((0, 0, 0));
        assert_eq!(chunkhash_cdc_begin(u32::from(fastcdc.is_some()), min, avg, max, address), 0);
        let mut records = Vec::new();
        let read = |count: i32, records: &mut Vec<Record>| {
            let bytes = output(count as usize * RECORD_LEN);
            for record in bytes.chunks_exact(RECORD_LEN) {
                let offset = u64::from_le_bytes(record[..8].try_into().unwrap());
                let length = u32::from_le_bytes(record[8..12].try_into().unwrap());
                records.push((offset, length, record[12..].to_vec()));
            }
        };
        for part in pieces {
            stage(&[part]);
            let count = chunkhash_cdc_update(part.len());
            assert!(count >= 0);
            read(count, &mut records);
        }
        let count = chunkhash_cdc_finish();
        assert!(count >= 0);
        read(count, &mut records);
        assert!(!in_progress());
        let file_hash = (fastcdc.is_none() && address == ADDRESS_XET).then(|| {
            let all = output(count as usize * RECORD_LEN + 64);
            String::from_utf8(all[count as usize * RECORD_LEN..].to_vec()).unwrap()
        });
        (records, file_hash)
    }

    /// Data with cut points: a multiplicative hash of the position.
    fn data(len: usize) -> Vec<u8> {
        (0..len as u32).map(|i| (i.wrapping_mul(2654435761) >> 13) as u8).collect()
    }

    #[test]
    fn pieces_give_the_library_chunks_and_addresses() {
        let input = data(700_000);
        let fastcdc = Cdc::fastcdc(2048, 8192, 65536, Normalization::Level1).unwrap();
        let expected: Vec<_> = fastcdc.chunks(&input).collect();
        assert!(expected.len() > 20);
        for piece in [1000, 65536, 1 << 20] {
            let (records, file_hash) = chunk(&input, piece, Some((2048, 8192, 65536)), ADDRESS_BLAKE3);
            assert!(file_hash.is_none());
            assert_eq!(records.len(), expected.len(), "pieces of {piece}");
            for (record, chunk) in records.iter().zip(&expected) {
                assert_eq!((record.0, record.1 as usize), (chunk.offset, chunk.length));
                let bytes = &input[chunk.offset as usize..][..chunk.length];
                assert_eq!(record.2, blake3::hash(bytes).as_bytes());
            }
        }
        let (records, _) = chunk(&input, 4096, Some((2048, 8192, 65536)), ADDRESS_BLAKE3_160);
        let bytes = &input[..records[0].1 as usize];
        assert_eq!(&records[0].2[..20], blake3::address(bytes).as_bytes());
        assert_eq!(records[0].2[20..], [0; 12]);
        let (records, file_hash) = chunk(&input, 100_000, None, ADDRESS_XET);
        let xet_chunks: Vec<_> = Cdc::xet().chunks(&input).collect();
        assert_eq!(records.len(), xet_chunks.len());
        for (record, chunk) in records.iter().zip(&xet_chunks) {
            let bytes = &input[chunk.offset as usize..][..chunk.length];
            assert_eq!(record.2, xet::chunk_hash(bytes).as_bytes());
        }
        assert_eq!(file_hash.unwrap(), xet::file_hash(&input).to_hex().as_str());
        // Empty input: no chunks, and Xet's hash of nothing.
        let (records, file_hash) = chunk(&[], 10, None, ADDRESS_XET);
        assert!(records.is_empty());
        assert_eq!(file_hash.unwrap(), xet::file_hash(&[]).to_hex().as_str());
        let small = input_pattern(10);
        assert_eq!(chunk(&small, 3, None, ADDRESS_BLAKE3).0.len(), 1);
    }

    /// Random splits of random inputs (empty pieces, pieces inside one
    /// chunk, pieces of many chunks) give the one-shot `chunk_and_hash`'s
    /// chunks and addresses for every chunker and address kind, and Xet's
    /// file hash with Xet's chunker and addresses.
    #[test]
    fn random_splits_equal_chunk_and_hash() {
        let seed = vectors::test_seed("random_splits_equal_chunk_and_hash", 36);
        let mut rng = vectors::TestRng::new(seed);
        let sizes = (64, 256, 1024);
        let fastcdc = Cdc::fastcdc(sizes.0, sizes.1, sizes.2, Normalization::Level1).unwrap();
        let cases = [
            (Cdc::xet(), ADDRESS_XET, xet::chunk_batch()),
            (Cdc::xet(), ADDRESS_BLAKE3_160, blake3::Batch::new()),
            (fastcdc, ADDRESS_BLAKE3, blake3::Batch::new()),
            (fastcdc, ADDRESS_XET, xet::chunk_batch()),
        ];
        for (cdc, address, batch) in cases {
            let xet = cdc == Cdc::xet();
            for round in 0..8 {
                let len = if round == 0 { 0 } else { rng.range(1..=400_000) };
                let data = rng.bytes(len);
                let mut expected = Vec::new();
                cdc.chunk_and_hash(&data, &batch, |chunk, hash: Hash| expected.push((chunk, hash)));
                let pieces = rng.pieces(&data);
                let (records, file_hash) = chunk_pieces(&pieces, (!xet).then_some(sizes), address);
                let what = format!("address {address}, {len} bytes in {} pieces, seed {seed}", pieces.len());
                assert_eq!(records.len(), expected.len(), "{what}");
                let width = if address == ADDRESS_BLAKE3_160 { blake3::ADDRESS_LEN } else { blake3::OUT_LEN };
                for (record, (chunk, hash)) in records.iter().zip(&expected) {
                    assert_eq!((record.0, record.1 as usize), (chunk.offset, chunk.length), "{what}");
                    assert_eq!(record.2[..width], hash.as_bytes()[..width], "{what}, chunk at {}", chunk.offset);
                    assert!(record.2[width..].iter().all(|&b| b == 0), "{what}");
                }
                let expected_file_hash = (xet && address == ADDRESS_XET).then(|| xet::file_hash(&data).to_hex());
                assert_eq!(file_hash.as_deref(), expected_file_hash.as_ref().map(|h| h.as_str()), "{what}");
            }
        }
    }

    #[test]
    fn bad_sizes_addresses_and_order_are_errors() {
        assert_eq!(chunkhash_cdc_begin(1, 2048, 8192, 1000, 0), crate::ERROR_INVALID_ARGUMENT);
        assert!(with_state(|state| state.message.starts_with("fastcdc: ")));
        assert_eq!(chunkhash_cdc_begin(1, 2047, 8192, 65536, 0), crate::ERROR_INVALID_ARGUMENT);
        assert_eq!(chunkhash_cdc_begin(0, 0, 0, 0, 3), crate::ERROR_INVALID_ARGUMENT);
        assert!(!in_progress());
        assert_eq!(chunkhash_cdc_update(0), crate::ERROR_INVALID_ARGUMENT);
        assert_eq!(chunkhash_cdc_finish(), crate::ERROR_INVALID_ARGUMENT);
        assert_eq!(chunkhash_cdc_begin(0, 0, 0, 0, 0), 0);
        assert_eq!(chunkhash_cdc_update(usize::MAX), crate::ERROR_INVALID_ARGUMENT);
        assert_eq!(chunkhash_cdc_finish(), 0);
    }
}
