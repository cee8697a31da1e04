//! The content-defined chunkers on every Gear-scan kernel this CPU runs,
//! against the portable kernel: a message (up to 128 KiB, cut from the
//! fixed pool, with runs of one byte written over it for low-entropy
//! stretches) chunked one-shot and streamed in pieces of any lengths, for
//! Xet and FastCDC configurations whose masks the SIMD kernels take and
//! some they leave to the portable scan. No panic, and the same chunks.

#![no_main]

use arbitrary::Arbitrary;
use chunkhash::cdc::{Cdc, CdcKernel, Chunk, Chunker, Normalization};
use chunkhash_fuzz::{pieces, pool, POOL_LEN};
use libfuzzer_sys::fuzz_target;

#[derive(Arbitrary, Debug)]
struct Case {
    offset: u32,
    len: u32,
    /// Which configuration of `configurations()` (modulo their count).
    configuration: u8,
    /// Runs of one byte written over the message: (start, length, byte).
    runs: Vec<(u32, u16, u8)>,
    /// Piece lengths for the streamed run, cycled.
    splits: Vec<u16>,
}

fn configurations() -> [Cdc; 6] {
    let fastcdc = |min, avg, max, level| Cdc::fastcdc(min, avg, max, level).expect("valid sizes");
    [
        Cdc::xet(),
        fastcdc(16 << 10, 64 << 10, 256 << 10, Normalization::Level1),
        fastcdc(8 << 10, 32 << 10, 128 << 10, Normalization::Level1),
        fastcdc(4 << 10, 32 << 10, 64 << 10, Normalization::Level0),
        fastcdc(2 << 10, 8 << 10, 64 << 10, Normalization::Level1),
        fastcdc(64, 256, 1024, Normalization::Level2),
    ]
}

fn streamed(cdc: Cdc, pieces: &[&[u8]]) -> Vec<Chunk> {
    let mut chunker = Chunker::new(cdc);
    let mut out = Vec::new();
    for piece in pieces {
        chunker.update(piece, |chunk| out.push(chunk));
    }
    out.extend(chunker.finish());
    out
}

fuzz_target!(|case: Case| {
    let len = case.len as usize % (POOL_LEN + 1);
    let offset = case.offset as usize % (POOL_LEN - len + 1);
    let mut data = pool()[offset..offset + len].to_vec();
    for &(start, run, byte) in case.runs.iter().take(16) {
        let start = start as usize % (len + 1);
        let end = (start + run as usize).min(len);
        data[start..end].fill(byte);
    }
    let configurations = configurations();
    let cdc = configurations[case.configuration as usize % configurations.len()];
    let portable = cdc.with_kernel(CdcKernel::Portable).expect("the portable kernel runs everywhere");
    let expected: Vec<Chunk> = portable.chunks(&data).collect();
    assert_eq!(expected.iter().map(|c| c.length).sum::<usize>(), data.len());
    let pieces = pieces(&data, &case.splits[..case.splits.len().min(64)]);
    for &kernel in CdcKernel::all().iter().filter(|k| k.is_supported()) {
        let cdc = cdc.with_kernel(kernel).expect("a supported kernel");
        assert_eq!(cdc.chunks(&data).collect::<Vec<_>>(), expected, "{kernel}, one-shot");
        assert_eq!(streamed(cdc, &pieces), expected, "{kernel}, streamed");
    }
});
