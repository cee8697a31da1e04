//! Content-defined chunking: FastCDC 2020 and Xet's chunker.
//!
//! A content-defined chunker cuts a stream where a rolling hash of the last
//! bytes matches a mask, so an insertion moves only the cuts near it and
//! the chunks after it deduplicate again. Two chunkers, each with cut points
//! identical to the implementation its users already have on disk:
//!
//! - [`Cdc::fastcdc`]: FastCDC with normalized chunking (Xia et al., "FastCDC:
//!   a Fast and Efficient Content-Defined Chunking Approach for Data
//!   Deduplication", USENIX ATC '16; and the 2020 journal version, IEEE TPDS,
//!   which adds the two-bytes-a-step "rolling two bytes" scan), cutting
//!   exactly where the `fastcdc` crate's `v2020` module does (its `FastCDC`
//!   iterator, `StreamCDC`, and `cut` with `select_masks`), for every
//!   normalization level and every min/avg/max it documents.
//! - [`Cdc::xet`]: the chunker of Hugging Face's Xet storage (as xet-core's
//!   `xet_data/src/deduplication/chunking.rs` and its tests define it): a Gear hash with the
//!   `gearhash` crate's table, a 64 KiB target (mask: the top 16 bits),
//!   chunks of 8 KiB to 128 KiB, and hashing that starts 65 bytes before the
//!   minimum (the "cut-point skip"), so every tested hash has seen 64 bytes.
//!
//! Both run one-shot over a buffer ([`Cdc::chunks`], an iterator) or over a
//! stream fed in pieces of any size ([`Chunker`]): the same cut points either
//! way, in constant memory (a chunker keeps a position and a hash, never the
//! bytes), and no allocation at all. The scan for a match runs on a
//! [`CdcKernel`] (portable, or AVX2 or AVX-512 lanes where they measured
//! faster; NEON and SIMD128 lanes when forced), each cutting at the same
//! places; the rules above stay in this module.
//!
//! ```
//! use chunkhash::cdc::{Cdc, Chunker, Normalization};
//!
//! let data: Vec<u8> = (0..1_000_000u32).map(|i| (i.wrapping_mul(2654435761) >> 13) as u8).collect();
//! let cdc = Cdc::fastcdc(16 * 1024, 64 * 1024, 256 * 1024, Normalization::Level1).unwrap();
//! let one_shot: Vec<_> = cdc.chunks(&data).collect();
//!
//! let mut chunker = Chunker::new(cdc);
//! let mut streamed = Vec::new();
//! for piece in data.chunks(1000) {
//!     chunker.update(piece, |chunk| streamed.push(chunk));
//! }
//! streamed.extend(chunker.finish());
//! assert_eq!(one_shot, streamed);
//! assert_eq!(one_shot.iter().map(|c| c.length).sum::<usize>(), data.len());
//! ```

mod address;
pub(crate) mod scan;
pub(crate) mod tables;

pub use address::{join_segment, HashingChunker};

use core::fmt;

use crate::platform::cdc::CdcPlatform;
pub use crate::platform::cdc::{CdcKernel, CdcKernelError};
use scan::{roll, scan};
use tables::{GEAR_FASTCDC, GEAR_FASTCDC_SHIFTED, GEAR_XET, GEAR_XET_SHIFTED, MASKS, MASKS_FIRST_BITS};

/// Smallest minimum chunk size [`Cdc::fastcdc`] takes (the `fastcdc` crate's
/// `MINIMUM_MIN`).
pub const FASTCDC_MIN_SIZE_MIN: usize = 64;
/// Largest minimum chunk size [`Cdc::fastcdc`] takes (`MINIMUM_MAX`).
pub const FASTCDC_MIN_SIZE_MAX: usize = 1_048_576;
/// Smallest average chunk size [`Cdc::fastcdc`] takes (`AVERAGE_MIN`).
pub const FASTCDC_AVG_SIZE_MIN: usize = 256;
/// Largest average chunk size [`Cdc::fastcdc`] takes (`AVERAGE_MAX`).
pub const FASTCDC_AVG_SIZE_MAX: usize = 4_194_304;
/// Smallest maximum chunk size [`Cdc::fastcdc`] takes (`MAXIMUM_MIN`).
pub const FASTCDC_MAX_SIZE_MIN: usize = 1024;
/// Largest maximum chunk size [`Cdc::fastcdc`] takes (`MAXIMUM_MAX`).
pub const FASTCDC_MAX_SIZE_MAX: usize = 16_777_216;

/// Xet's smallest chunk: the target over 8 (xet-core's
/// `MINIMUM_CHUNK_DIVISOR`), except the last chunk of a stream.
pub const XET_MIN_SIZE: usize = XET_TARGET_SIZE / 8;
/// Xet's target chunk size (xet-core's `TARGET_CHUNK_SIZE`).
pub const XET_TARGET_SIZE: usize = 64 * 1024;
/// Xet's largest chunk: the target times 2 (`MAXIMUM_CHUNK_MULTIPLIER`).
pub const XET_MAX_SIZE: usize = XET_TARGET_SIZE * 2;
/// Xet's cut mask: the target's low bits moved to the top of the hash,
/// where every one of the last 64 bytes counts.
const XET_MASK: u64 = ((XET_TARGET_SIZE - 1) as u64) << ((XET_TARGET_SIZE - 1) as u64).leading_zeros();
/// How many bytes the Gear hash remembers.
const GEAR_WINDOW: usize = 64;

/// How strongly FastCDC pulls chunk sizes towards the average (section 3.3
/// of the ATC '16 paper): below the average a cut needs `level` more mask
/// bits, above it `level` fewer. Level 1 is the `fastcdc` crate's default
/// and the store's choice.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Normalization {
    /// No normalization: one mask throughout.
    Level0,
    /// One bit each way.
    Level1,
    /// Two bits each way.
    Level2,
    /// Three bits each way.
    Level3,
}

impl Normalization {
    fn bits(self) -> u32 {
        match self {
            Normalization::Level0 => 0,
            Normalization::Level1 => 1,
            Normalization::Level2 => 2,
            Normalization::Level3 => 3,
        }
    }
}

/// A content-defined chunking configuration, checked when made: FastCDC
/// with given sizes, or Xet's. Cheap to copy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cdc {
    table: &'static [u64; 256],
    /// `table`, each entry shifted left by one.
    shifted: &'static [u64; 256],
    /// Chunk-relative position of the first byte hashed.
    hash_from: usize,
    /// Position of the first byte after which the hash is tested.
    test_from: usize,
    /// Positions below this one test `mask_strict`, the others `mask_loose`.
    switch_at: usize,
    /// Positions from this one on are not tested.
    test_end: usize,
    mask_strict: u64,
    mask_loose: u64,
    /// What a match at position `i` makes the chunk's length, minus `i`:
    /// FastCDC ends the chunk before the byte that matched (as the
    /// `fastcdc` crate does), Xet after it.
    cut_after: usize,
    min_size: usize,
    avg_size: usize,
    max_size: usize,
    /// The Gear-scan kernel; `None`: [`CdcKernel::detect`]'s.
    kernel: Option<CdcPlatform>,
}

/// One chunk: where it starts in the input and how long it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Chunk {
    /// Offset of the chunk's first byte from the start of the input.
    pub offset: u64,
    /// Length in bytes, at least one.
    pub length: usize,
}

/// Why [`Cdc::fastcdc`] refused its sizes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CdcError {
    kind: CdcErrorKind,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum CdcErrorKind {
    OutOfRange { what: &'static str, value: usize, low: usize, high: usize },
    Odd { what: &'static str, value: usize },
    AboveMax { what: &'static str, value: usize, max: usize },
}

impl fmt::Display for CdcError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind {
            CdcErrorKind::OutOfRange { what, value, low, high } => {
                write!(f, "{what} chunk size {value} is outside {low}..={high}")
            }
            CdcErrorKind::Odd { what, value } => {
                write!(f, "{what} chunk size {value} is odd (FastCDC scans two bytes a step)")
            }
            CdcErrorKind::AboveMax { what, value, max } => {
                write!(f, "{what} chunk size {value} is above the maximum chunk size {max}")
            }
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for CdcError {}

/// Rounded base-2 logarithm, rounding as `f64::log2(x).round()` does (the
/// `fastcdc` crate picks masks so), without floating point: `x` rounds up
/// from `2^k` when `x > 2^k * sqrt(2)`, that is `x^2 > 2^(2k+1)` (never
/// equal for an integer).
fn round_log2(x: usize) -> u32 {
    let k = x.ilog2();
    let x = x as u128;
    if x * x > 1u128 << (2 * k + 1) {
        k + 1
    } else {
        k
    }
}

impl Cdc {
    /// FastCDC 2020 with normalized chunking, cutting where the `fastcdc`
    /// crate's `v2020` module cuts with the same sizes and level. The sizes
    /// are those the crate documents: `min_size` in 64..=1 MiB, `avg_size`
    /// in 256..=4 MiB, `max_size` in 1 KiB..=16 MiB, all even (the crate's
    /// two-bytes-a-step scan shifts odd ones), and neither `min_size` nor
    /// `avg_size` above `max_size` (where the crate panics or ignores
    /// `max_size`). Chunks are `min_size..=max_size` bytes, except the last
    /// one of an input, which may be shorter.
    pub fn fastcdc(min_size: usize, avg_size: usize, max_size: usize, level: Normalization) -> Result<Cdc, CdcError> {
        let checks = [
            ("minimum", min_size, FASTCDC_MIN_SIZE_MIN, FASTCDC_MIN_SIZE_MAX),
            ("average", avg_size, FASTCDC_AVG_SIZE_MIN, FASTCDC_AVG_SIZE_MAX),
            ("maximum", max_size, FASTCDC_MAX_SIZE_MIN, FASTCDC_MAX_SIZE_MAX),
        ];
        for (what, value, low, high) in checks {
            if !(low..=high).contains(&value) {
                return Err(CdcError { kind: CdcErrorKind::OutOfRange { what, value, low, high } });
            }
            if value % 2 == 1 {
                return Err(CdcError { kind: CdcErrorKind::Odd { what, value } });
            }
        }
        for (what, value) in [("minimum", min_size), ("average", avg_size)] {
            if value > max_size {
                return Err(CdcError { kind: CdcErrorKind::AboveMax { what, value, max: max_size } });
            }
        }
        let bits = round_log2(avg_size);
        let mask = |bits: u32| MASKS[(bits - MASKS_FIRST_BITS) as usize];
        Ok(Cdc {
            table: &GEAR_FASTCDC,
            shifted: &GEAR_FASTCDC_SHIFTED,
            hash_from: min_size,
            test_from: min_size,
            switch_at: avg_size,
            test_end: max_size,
            // The crate tests even positions as `(h << 1) & (mask << 1)`,
            // which is `h & mask` since no mask has bit 63 set.
            mask_strict: mask(bits + level.bits()),
            mask_loose: mask(bits - level.bits()),
            cut_after: 0,
            min_size,
            avg_size,
            max_size,
            kernel: None,
        })
    }

    /// Xet's chunker, cutting where xet-core's `Chunker` (default target)
    /// cuts: chunks of [`XET_MIN_SIZE`]..=[`XET_MAX_SIZE`] bytes, except the
    /// last one of an input, which may be shorter.
    pub const fn xet() -> Cdc {
        Cdc {
            table: &GEAR_XET,
            shifted: &GEAR_XET_SHIFTED,
            // xet-core starts hashing `GEAR_WINDOW + 1` bytes before the
            // minimum; only the last 64 of them count at a tested position.
            hash_from: XET_MIN_SIZE - GEAR_WINDOW - 1,
            // A match after byte `i` makes a chunk of `i + 1` bytes, which
            // must be at least the minimum.
            test_from: XET_MIN_SIZE - 1,
            switch_at: XET_MAX_SIZE,
            test_end: XET_MAX_SIZE,
            mask_strict: XET_MASK,
            mask_loose: XET_MASK,
            cut_after: 1,
            min_size: XET_MIN_SIZE,
            avg_size: XET_TARGET_SIZE,
            max_size: XET_MAX_SIZE,
            kernel: None,
        }
    }

    /// The same configuration on the given Gear-scan kernel instead of the
    /// detected one (for tests and benchmarks: every kernel cuts at the
    /// same places), or an error if this machine cannot run it.
    pub fn with_kernel(self, kernel: CdcKernel) -> Result<Cdc, CdcKernelError> {
        Ok(Cdc { kernel: Some(kernel.checked()?), ..self })
    }

    /// The Gear-scan kernel this configuration runs.
    pub fn kernel(&self) -> CdcKernel {
        self.platform().kernel()
    }

    #[inline]
    fn platform(&self) -> CdcPlatform {
        self.kernel.unwrap_or_else(CdcPlatform::detect)
    }

    /// The smallest chunk (but the last of an input).
    pub fn min_size(&self) -> usize {
        self.min_size
    }

    /// The size the masks aim at.
    pub fn avg_size(&self) -> usize {
        self.avg_size
    }

    /// The largest chunk.
    pub fn max_size(&self) -> usize {
        self.max_size
    }

    /// The chunks of `data`, the whole input, in order.
    pub fn chunks(self, data: &[u8]) -> Chunks<'_> {
        Chunks { cdc: self, data, offset: 0 }
    }

    /// The length of the first chunk of `data`, the rest of an input
    /// (`data.len()` when no cut is found; 0 for empty `data`).
    pub fn cut(&self, data: &[u8]) -> usize {
        let (mut seen, mut hash) = (0, 0);
        self.advance(&mut seen, &mut hash, data).unwrap_or(data.len())
    }

    /// Goes on with a chunk of which `*seen` bytes were already read
    /// (rolled into `*hash`), reading `piece`, its next bytes. Returns the
    /// chunk's length once the bytes read so far decide it (the cut may lie
    /// anywhere in `piece`), else moves `*seen` past `piece`.
    #[inline]
    fn advance(&self, seen: &mut usize, hash: &mut u64, piece: &[u8]) -> Option<usize> {
        let start = *seen;
        let end = start + piece.len();
        let window = |from: usize, to: usize| {
            let (from, to) = (from.max(start), to.min(end));
            (from < to).then(|| (from, &piece[from - start..to - start]))
        };
        if let Some((_, bytes)) = window(self.hash_from, self.test_from) {
            *hash = roll(self.table, *hash, bytes);
        }
        let strict = (self.test_from, self.switch_at.min(self.test_end), self.mask_strict);
        let loose = (self.switch_at.max(self.test_from), self.test_end, self.mask_loose);
        for (from, to, mask) in [strict, loose] {
            if let Some((at, _)) = window(from, to) {
                let (from, to) = (at - start, to.min(end) - start);
                if let Some(i) = self.scan_range(hash, piece, from, to, mask) {
                    return Some(start + i + self.cut_after);
                }
            }
        }
        if end >= self.max_size {
            return Some(self.max_size);
        }
        *seen = end;
        None
    }
}

impl Cdc {
    /// Scans `piece[from..to]` for the first position whose hash, `*hash`
    /// rolled on, has no bit of `mask` set, as [`scan`] does; every byte of
    /// the range is one the chunk hashes.
    #[inline]
    fn scan_range(&self, hash: &mut u64, piece: &[u8], from: usize, to: usize, mask: u64) -> Option<usize> {
        let platform = self.platform();
        if !platform.lanes_pay(mask) {
            return scan(self.table, self.shifted, hash, &piece[from..to], mask).map(|i| from + i);
        }
        // The first positions with the hash carried in: their windows reach
        // back into earlier pieces or bytes the chunk does not hash. From
        // `head` on, every window lies in the range, so the hash tested is
        // the windowed one a kernel computes from the bytes alone.
        let head = to.min(from + GEAR_WINDOW);
        if let Some(i) = scan(self.table, self.shifted, hash, &piece[from..head], mask) {
            return Some(from + i);
        }
        if head == to {
            return None;
        }
        let found = platform.find(self.table, self.shifted, &piece[..to], head, mask);
        if found.is_none() {
            *hash = roll(self.table, 0, &piece[to - GEAR_WINDOW..to]);
        }
        found
    }
}

/// The chunks of one buffer, from [`Cdc::chunks`].
#[derive(Clone, Debug)]
pub struct Chunks<'a> {
    cdc: Cdc,
    data: &'a [u8],
    offset: usize,
}

impl Iterator for Chunks<'_> {
    type Item = Chunk;

    fn next(&mut self) -> Option<Chunk> {
        let rest = &self.data[self.offset..];
        if rest.is_empty() {
            return None;
        }
        let length = self.cdc.cut(rest);
        let chunk = Chunk { offset: self.offset as u64, length };
        self.offset += length;
        Some(chunk)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let rest = self.data.len() - self.offset;
        (rest.div_ceil(self.cdc.max_size), Some(rest.div_ceil(self.cdc.min_size.min(self.cdc.test_from + 1))))
    }
}

/// A streaming chunker: fed an input in pieces of any size, it finds the
/// same chunks as [`Cdc::chunks`] over the whole input, keeping only a
/// position and a hash between pieces.
#[derive(Clone, Debug)]
pub struct Chunker {
    cdc: Cdc,
    /// Offset of the current chunk's first byte.
    start: u64,
    /// How many bytes of the current chunk were read.
    seen: usize,
    hash: u64,
}

impl Chunker {
    /// A chunker at the start of an input.
    pub fn new(cdc: Cdc) -> Chunker {
        Chunker { cdc, start: 0, seen: 0, hash: 0 }
    }

    /// The configuration.
    pub fn cdc(&self) -> Cdc {
        self.cdc
    }

    /// How many bytes were fed since the start of the input.
    pub fn position(&self) -> u64 {
        self.start + self.seen as u64
    }

    /// Reads the next bytes of the input, calling `on_chunk` for each chunk
    /// they complete, in order.
    pub fn update(&mut self, mut input: &[u8], mut on_chunk: impl FnMut(Chunk)) {
        while !input.is_empty() {
            let before = self.seen;
            match self.cdc.advance(&mut self.seen, &mut self.hash, input) {
                Some(length) => {
                    on_chunk(Chunk { offset: self.start, length });
                    input = &input[length - before..];
                    self.start += length as u64;
                    self.seen = 0;
                    self.hash = 0;
                }
                None => break,
            }
        }
    }

    /// Ends the input: returns its last chunk, if bytes are left, and makes
    /// the chunker ready for a new input.
    pub fn finish(&mut self) -> Option<Chunk> {
        let last = (self.seen > 0).then_some(Chunk { offset: self.start, length: self.seen });
        *self = Chunker::new(self.cdc);
        last
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::string::ToString;

    #[test]
    fn round_log2_rounds_like_floating_point() {
        // As the `fastcdc` crate rounds: `(x as f64).log2().round()`.
        // Every size takes minutes under Miri (scripts/test/miri.sh): a stride there.
        let step = if cfg!(miri) { 9973 } else { 1 };
        for x in (FASTCDC_AVG_SIZE_MIN..=FASTCDC_AVG_SIZE_MAX).step_by(step) {
            assert_eq!(round_log2(x), std::primitive::f64::log2(x as f64).round() as u32, "{x}");
        }
        assert_eq!(round_log2(362), 8); // 2^8.5 = 362.04
        assert_eq!(round_log2(363), 9);
    }

    #[test]
    fn xet_mask_is_the_top_16_bits() {
        assert_eq!(XET_MASK, 0xffff_0000_0000_0000);
    }

    #[test]
    fn sizes_are_checked() {
        let l1 = Normalization::Level1;
        assert!(Cdc::fastcdc(64, 256, 1024, l1).is_ok());
        assert!(Cdc::fastcdc(1 << 20, 4 << 20, 16 << 20, l1).is_ok());
        let err = Cdc::fastcdc(62, 256, 1024, l1).unwrap_err();
        assert_eq!(err.to_string(), "minimum chunk size 62 is outside 64..=1048576");
        let err = Cdc::fastcdc(64, 257, 1024, l1).unwrap_err();
        assert_eq!(err.to_string(), "average chunk size 257 is odd (FastCDC scans two bytes a step)");
        let err = Cdc::fastcdc(64, 2048, 1024, l1).unwrap_err();
        assert_eq!(err.to_string(), "average chunk size 2048 is above the maximum chunk size 1024");
        assert!(Cdc::fastcdc(64, 256, 16 << 20 | 2, l1).is_err());
    }
}
