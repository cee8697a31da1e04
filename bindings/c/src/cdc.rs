//! `chunkhash_cdc_*`: a streaming content-defined chunker (FastCDC 2020 or
//! Xet's, `chunkhash::cdc`) that addresses each chunk as it completes.
//!
//! The chunker keeps no bytes: `chunkhash::cdc::HashingChunker` scans each
//! fed byte once and hashes the chunks inside a piece in batches (a chunk
//! spanning pieces through a streaming hasher), so memory stays constant
//! whatever the chunk sizes. Finished chunks wait in a queue until
//! `chunkhash_cdc_next` takes them.

use std::collections::VecDeque;

use crate::chunkhash_status::*;
use crate::{guard, object, OutParam, Result};
use chunkhash::blake3::Hash;
use chunkhash::cdc::{Cdc, Chunk, HashingChunker, Normalization};
use chunkhash::xet;

/// Chunk addresses: BLAKE3 of the chunk's bytes, 32 bytes.
pub const CHUNKHASH_CDC_ADDRESS_BLAKE3: u32 = 1;
/// Chunk addresses: the first 20 bytes of BLAKE3 (BLAKE3-160); the other
/// 12 bytes of `chunkhash_cdc_chunk.address` are zero.
pub const CHUNKHASH_CDC_ADDRESS_BLAKE3_160: u32 = 2;
/// Chunk addresses: Xet's chunk hash (keyed BLAKE3 under Xet's data key),
/// 32 raw bytes; Xet's string form prints each 8-byte group reversed.
pub const CHUNKHASH_CDC_ADDRESS_XET: u32 = 3;

/// One chunk: where it starts in the input, its length, its address.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct chunkhash_cdc_chunk {
    /// Offset of the chunk's first byte from the start of the input.
    pub offset: u64,
    /// Length in bytes, at least 1.
    pub length: u64,
    /// The address (see `CHUNKHASH_CDC_ADDRESS_*`).
    pub address: [u8; 32],
}

/// A streaming chunker, made by `chunkhash_cdc_new_fastcdc` or
/// `chunkhash_cdc_new_xet`, fed by `chunkhash_cdc_update`, ended by
/// `chunkhash_cdc_finish`, read by `chunkhash_cdc_next`, released by
/// `chunkhash_cdc_free`. Not safe to use from two threads at once; may be
/// moved between threads.
#[derive(Debug)]
pub struct chunkhash_cdc {
    chunker: HashingChunker,
    truncate: bool,
    ready: VecDeque<chunkhash_cdc_chunk>,
}

impl chunkhash_cdc {
    fn new(cdc: Cdc, address: u32) -> Result<chunkhash_cdc> {
        let (key, truncate) = match address {
            CHUNKHASH_CDC_ADDRESS_BLAKE3 => (None, false),
            CHUNKHASH_CDC_ADDRESS_BLAKE3_160 => (None, true),
            CHUNKHASH_CDC_ADDRESS_XET => (Some(&xet::DATA_KEY), false),
            _ => return Err(CHUNKHASH_UNKNOWN_ADDRESS),
        };
        Ok(chunkhash_cdc { chunker: HashingChunker::new(cdc, key), truncate, ready: VecDeque::new() })
    }

    /// Queues a finished chunk.
    fn complete(ready: &mut VecDeque<chunkhash_cdc_chunk>, truncate: bool, chunk: Chunk, hash: Hash) {
        let mut address = *hash.as_bytes();
        if truncate {
            address[20..].fill(0);
        }
        ready.push_back(chunkhash_cdc_chunk { offset: chunk.offset, length: chunk.length as u64, address });
    }

    fn update(&mut self, input: &[u8]) {
        let (ready, truncate) = (&mut self.ready, self.truncate);
        self.chunker.update(input, |chunk, hash| Self::complete(ready, truncate, chunk, hash));
    }

    fn finish(&mut self) {
        if let Some((chunk, hash)) = self.chunker.finish() {
            Self::complete(&mut self.ready, self.truncate, chunk, hash);
        }
    }
}

/// Stores a new chunker in `*cdc`.
///
/// # Safety
///
/// A non-NULL `cdc` must be writable.
unsafe fn new_cdc(cdc: *mut *mut chunkhash_cdc, make: impl FnOnce() -> Result<chunkhash_cdc>) -> Result<()> {
    // SAFETY: the caller promised `cdc` is writable.
    let out = unsafe { OutParam::new(cdc) }?;
    out.set(crate::new_object(make()?));
    Ok(())
}

/// A chunker cutting where the `fastcdc` crate's v2020 chunker cuts with
/// normalization level 1 (its default): chunks of `min_size` to `max_size`
/// bytes (the last one of an input may be shorter), aiming at `avg_size`.
/// `address` is a `CHUNKHASH_CDC_ADDRESS_*` constant.
///
/// `CHUNKHASH_NULL_POINTER` if `cdc` is NULL; `CHUNKHASH_INVALID_CHUNK_SIZES`
/// unless `min_size` is in 64..=1 MiB, `avg_size` in 256..=4 MiB, `max_size`
/// in 1 KiB..=16 MiB, all even, and neither `min_size` nor `avg_size` above
/// `max_size`; `CHUNKHASH_UNKNOWN_ADDRESS` for another `address`.
///
/// # Safety
///
/// `cdc` must be NULL (an error) or writable.
#[no_mangle]
pub unsafe extern "C" fn chunkhash_cdc_new_fastcdc(
    min_size: usize,
    avg_size: usize,
    max_size: usize,
    address: u32,
    cdc: *mut *mut chunkhash_cdc,
) -> crate::chunkhash_status {
    guard(|| {
        // SAFETY: the caller promised `cdc` is writable.
        unsafe {
            new_cdc(cdc, || {
                let sizes = Cdc::fastcdc(min_size, avg_size, max_size, Normalization::Level1);
                chunkhash_cdc::new(sizes.map_err(|_| CHUNKHASH_INVALID_CHUNK_SIZES)?, address)
            })
        }
    })
}

/// A chunker cutting where Hugging Face's xet-core cuts: chunks of 8 KiB to
/// 128 KiB (the last one of an input may be shorter), aiming at 64 KiB.
/// With `CHUNKHASH_CDC_ADDRESS_XET` the addresses are Xet's chunk hashes.
///
/// `CHUNKHASH_NULL_POINTER` if `cdc` is NULL; `CHUNKHASH_UNKNOWN_ADDRESS`
/// for an `address` that is no `CHUNKHASH_CDC_ADDRESS_*` constant.
///
/// # Safety
///
/// `cdc` must be NULL (an error) or writable.
#[no_mangle]
pub unsafe extern "C" fn chunkhash_cdc_new_xet(address: u32, cdc: *mut *mut chunkhash_cdc) -> crate::chunkhash_status {
    // SAFETY: the caller promised `cdc` is writable.
    guard(|| unsafe { new_cdc(cdc, || chunkhash_cdc::new(Cdc::xet(), address)) })
}

/// Feeds the next `len` bytes of the input. The chunks they complete are
/// queued for `chunkhash_cdc_next`, in order; take them after each update
/// (the queue grows with the chunks not taken). Pieces may have any size:
/// the chunks are those of the whole input, however it is split.
///
/// # Safety
///
/// `cdc` must be NULL (an error) or a live chunker no other thread uses
/// during the call; `input` readable for `len` bytes (NULL when `len` is 0
/// is fine).
#[no_mangle]
pub unsafe extern "C" fn chunkhash_cdc_update(
    cdc: *mut chunkhash_cdc,
    input: *const u8,
    len: usize,
) -> crate::chunkhash_status {
    guard(|| {
        // SAFETY: the caller promised `input` is readable for `len` bytes.
        let input = unsafe { crate::Input::new(input, len) }?;
        // SAFETY: the caller promised a live chunker used by no other thread.
        let cdc = unsafe { object(cdc) }?;
        cdc.update(input.bytes());
        Ok(())
    })
}

/// Ends the input: its last chunk, if bytes are left, is queued for
/// `chunkhash_cdc_next`. The chunker then starts a new input at offset 0
/// (the chunks still queued stay).
///
/// # Safety
///
/// `cdc` must be NULL (an error) or a live chunker no other thread uses
/// during the call.
#[no_mangle]
pub unsafe extern "C" fn chunkhash_cdc_finish(cdc: *mut chunkhash_cdc) -> crate::chunkhash_status {
    guard(|| {
        // SAFETY: the caller promised a live chunker used by no other thread.
        let cdc = unsafe { object(cdc) }?;
        cdc.finish();
        Ok(())
    })
}

/// Takes the next finished chunk: writes it to `*chunk` and sets `*found`
/// to true, or sets `*found` to false (and leaves `*chunk` alone) when no
/// chunk is waiting.
///
/// # Safety
///
/// `cdc` must be NULL (an error) or a live chunker no other thread uses
/// during the call; `chunk` and `found` NULL (an error) or writable.
#[no_mangle]
pub unsafe extern "C" fn chunkhash_cdc_next(
    cdc: *mut chunkhash_cdc,
    chunk: *mut chunkhash_cdc_chunk,
    found: *mut bool,
) -> crate::chunkhash_status {
    guard(|| {
        // SAFETY: the caller promised a live chunker used by no other thread.
        let cdc = unsafe { object(cdc) }?;
        // SAFETY: the caller promised both are writable when not NULL.
        let (chunk, found) = unsafe { (OutParam::new(chunk)?, OutParam::new(found)?) };
        match cdc.ready.pop_front() {
            Some(next) => {
                chunk.set(next);
                found.set(true);
            }
            None => found.set(false),
        }
        Ok(())
    })
}

/// Releases a chunker (and the chunks not taken); NULL does nothing.
///
/// # Safety
///
/// `cdc` must be NULL or a chunker from a `chunkhash_cdc_new_*` function,
/// not freed yet; it must not be used afterwards.
#[no_mangle]
pub unsafe extern "C" fn chunkhash_cdc_free(cdc: *mut chunkhash_cdc) {
    // SAFETY: the caller promised `cdc` came from a `chunkhash_cdc_new_*`
    // and is freed once. Dropping cannot panic.
    unsafe { crate::free_object(cdc) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chunkhash::blake3::{self, Batch};

    /// Chunks of `data` fed in pieces of `piece` bytes.
    fn streamed(cdc: *mut chunkhash_cdc, data: &[u8], piece: usize) -> Vec<chunkhash_cdc_chunk> {
        let pieces: Vec<&[u8]> = data.chunks(piece).collect();
        streamed_pieces(cdc, &pieces)
    }

    /// Chunks of the input fed as `pieces`.
    fn streamed_pieces(cdc: *mut chunkhash_cdc, pieces: &[&[u8]]) -> Vec<chunkhash_cdc_chunk> {
        let mut out = Vec::new();
        let take = |out: &mut Vec<chunkhash_cdc_chunk>| loop {
            let mut chunk = chunkhash_cdc_chunk { offset: 0, length: 0, address: [0; 32] };
            let mut found = false;
            // SAFETY: a live chunker and locals.
            assert_eq!(unsafe { chunkhash_cdc_next(cdc, &mut chunk, &mut found) }, CHUNKHASH_OK);
            if !found {
                break;
            }
            out.push(chunk);
        };
        for part in pieces {
            // SAFETY: a live chunker and a slice.
            assert_eq!(unsafe { chunkhash_cdc_update(cdc, part.as_ptr(), part.len()) }, CHUNKHASH_OK);
            take(&mut out);
        }
        // SAFETY: a live chunker.
        assert_eq!(unsafe { chunkhash_cdc_finish(cdc) }, CHUNKHASH_OK);
        take(&mut out);
        out
    }

    #[test]
    fn streamed_chunks_equal_chunk_and_hash() {
        // Under Miri (scripts/test/miri.sh) 9 kB in pieces of 13 B, 4 KiB
        // and whole: one Xet chunk past its minimum, tens of FastCDC ones;
        // minutes of interpretation instead of an hour.
        let len = if cfg!(miri) { 9_000 } else { 300_000 };
        let data: Vec<u8> = (0..len).map(|i: u32| (i.wrapping_mul(2654435761) >> 13) as u8).collect();
        let cases = [
            (Cdc::xet(), CHUNKHASH_CDC_ADDRESS_XET, xet::chunk_batch()),
            (
                Cdc::fastcdc(64, 256, 1024, Normalization::Level1).unwrap(),
                CHUNKHASH_CDC_ADDRESS_BLAKE3_160,
                Batch::new(),
            ),
        ];
        for (cdc_config, address, batch) in cases {
            let mut expected = Vec::new();
            cdc_config.chunk_and_hash(&data, &batch, |chunk, hash: blake3::Hash| expected.push((chunk, hash)));
            let cdc = new_chunker(address == CHUNKHASH_CDC_ADDRESS_XET, address);
            let pieces: &[usize] =
                if cfg!(miri) { &[13, 4096, len as usize] } else { &[1, 1000, 65_536, len as usize] };
            for &piece in pieces {
                let got = streamed(cdc, &data, piece);
                assert_eq!(got.len(), expected.len(), "piece {piece}");
                for (g, (chunk, hash)) in got.iter().zip(&expected) {
                    assert_eq!((g.offset, g.length), (chunk.offset, chunk.length as u64));
                    let width = if address == CHUNKHASH_CDC_ADDRESS_BLAKE3_160 { 20 } else { 32 };
                    assert_eq!(g.address[..width], hash.as_bytes()[..width]);
                    assert!(g.address[width..].iter().all(|&b| b == 0));
                }
            }
            // SAFETY: made above, freed once.
            unsafe { chunkhash_cdc_free(cdc) };
        }
    }

    /// A new chunker with `address`: Xet's, or FastCDC of 64 to 1024 bytes.
    fn new_chunker(xet: bool, address: u32) -> *mut chunkhash_cdc {
        let mut cdc = core::ptr::null_mut();
        // SAFETY: `cdc` is a local.
        let status = unsafe {
            if xet {
                chunkhash_cdc_new_xet(address, &mut cdc)
            } else {
                chunkhash_cdc_new_fastcdc(64, 256, 1024, address, &mut cdc)
            }
        };
        assert_eq!(status, CHUNKHASH_OK);
        cdc
    }

    /// Random splits of random inputs (empty pieces, pieces inside one
    /// chunk, pieces of many chunks) give the one-shot `chunk_and_hash`'s
    /// chunks and addresses, for every address kind; the chunker is reused
    /// after each `finish`. Miri-sized under Miri (scripts/test/miri.sh).
    #[test]
    fn random_splits_equal_chunk_and_hash() {
        let seed = vectors::test_seed("random_splits_equal_chunk_and_hash", 35);
        let mut rng = vectors::TestRng::new(seed);
        let (rounds, most_len) = if cfg!(miri) { (2, 3_000) } else { (12, 400_000) };
        let fastcdc = Cdc::fastcdc(64, 256, 1024, Normalization::Level1).unwrap();
        let cases = [
            (Cdc::xet(), CHUNKHASH_CDC_ADDRESS_XET, xet::chunk_batch()),
            (Cdc::xet(), CHUNKHASH_CDC_ADDRESS_BLAKE3, Batch::new()),
            (fastcdc, CHUNKHASH_CDC_ADDRESS_BLAKE3, Batch::new()),
            (fastcdc, CHUNKHASH_CDC_ADDRESS_BLAKE3_160, Batch::new()),
        ];
        for (cdc_config, address, batch) in cases {
            let cdc = new_chunker(cdc_config == Cdc::xet(), address);
            for round in 0..rounds {
                let len = if round == 0 { 0 } else { rng.range(1..=most_len) };
                let data: Vec<u8> = (0..len).map(|_| rng.range(0..=255) as u8).collect();
                let mut expected = Vec::new();
                cdc_config.chunk_and_hash(&data, &batch, |chunk, hash: blake3::Hash| expected.push((chunk, hash)));
                let pieces = rng.pieces(&data);
                let got = streamed_pieces(cdc, &pieces);
                let what = format!("address {address}, {len} bytes in {} pieces, seed {seed}", pieces.len());
                assert_eq!(got.len(), expected.len(), "{what}");
                let width = if address == CHUNKHASH_CDC_ADDRESS_BLAKE3_160 { 20 } else { 32 };
                for (g, (chunk, hash)) in got.iter().zip(&expected) {
                    assert_eq!((g.offset, g.length), (chunk.offset, chunk.length as u64), "{what}");
                    assert_eq!(g.address[..width], hash.as_bytes()[..width], "{what}, chunk at {}", chunk.offset);
                    assert!(g.address[width..].iter().all(|&b| b == 0), "{what}");
                }
            }
            // SAFETY: made above, freed once.
            unsafe { chunkhash_cdc_free(cdc) };
        }
    }

    #[test]
    fn bad_arguments_give_status_codes() {
        let mut cdc = core::ptr::null_mut();
        // SAFETY: locals and NULL.
        unsafe {
            assert_eq!(chunkhash_cdc_new_fastcdc(64, 256, 1023, 1, &mut cdc), CHUNKHASH_INVALID_CHUNK_SIZES);
            assert_eq!(chunkhash_cdc_new_fastcdc(2048, 8192, 1024, 1, &mut cdc), CHUNKHASH_INVALID_CHUNK_SIZES);
            assert_eq!(chunkhash_cdc_new_fastcdc(64, 256, 1024, 0, &mut cdc), CHUNKHASH_UNKNOWN_ADDRESS);
            assert_eq!(chunkhash_cdc_new_xet(4, &mut cdc), CHUNKHASH_UNKNOWN_ADDRESS);
            assert!(cdc.is_null());
            assert_eq!(chunkhash_cdc_new_xet(1, core::ptr::null_mut()), CHUNKHASH_NULL_POINTER);
            assert_eq!(chunkhash_cdc_update(core::ptr::null_mut(), [1u8].as_ptr(), 1), CHUNKHASH_NULL_POINTER);
            assert_eq!(chunkhash_cdc_new_xet(1, &mut cdc), CHUNKHASH_OK);
            assert_eq!(chunkhash_cdc_update(cdc, core::ptr::null(), 1), CHUNKHASH_NULL_POINTER);
            assert_eq!(chunkhash_cdc_update(cdc, core::ptr::null(), 0), CHUNKHASH_OK);
            let mut found = true;
            assert_eq!(chunkhash_cdc_next(cdc, core::ptr::null_mut(), &mut found), CHUNKHASH_NULL_POINTER);
            assert_eq!(chunkhash_cdc_finish(core::ptr::null_mut()), CHUNKHASH_NULL_POINTER);
            chunkhash_cdc_free(cdc);
            chunkhash_cdc_free(core::ptr::null_mut());
        }
    }
}
