//! The `cdc` module against independent implementations: the `fastcdc`
//! crate's v2020 chunker (one-shot and `StreamCDC`) for FastCDC, and for
//! Xet both a chunker built on the `gearhash` crate's own scan (the rules
//! of xet-core's chunker, in `vectors::cdc`) and the worked examples of
//! xet-core's chunker tests. Inputs: seeded random bytes, zeros, short
//! repeated patterns, text-like words; every length around min/avg/max;
//! streams split at every offset around each cut and at random.
#![cfg(feature = "cdc")]

use chunkhash::cdc::{Cdc, CdcKernel, Chunk, Chunker, Normalization, XET_MAX_SIZE, XET_MIN_SIZE};
use fastcdc::v2020;

const LEVELS: [(Normalization, v2020::Normalization); 4] = [
    (Normalization::Level0, v2020::Normalization::Level0),
    (Normalization::Level1, v2020::Normalization::Level1),
    (Normalization::Level2, v2020::Normalization::Level2),
    (Normalization::Level3, v2020::Normalization::Level3),
];

/// min/avg/max: the store's default and the two benchmark sets,
/// the smallest sizes the crate takes, min = avg = max's neighbours, a
/// minimum above the average, and sizes that are not powers of two.
const SIZES: [(usize, usize, usize); 9] = [
    (16 * 1024, 64 * 1024, 256 * 1024),
    (2 * 1024, 8 * 1024, 64 * 1024),
    (64, 256, 1024),
    (1024, 1024, 1024),
    (256, 1022, 1024),
    (4096, 16384, 65534),
    (8192, 4096, 65536),
    (6000, 7000, 9002),
    (64, 362, 2048), // 2^8.5 = 362.04: the mask rounds down
];

/// SplitMix64 (Steele, Lea and Flood, 2014): a seeded, printed source of
/// test bytes with no dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn bytes(&mut self, n: usize) -> Vec<u8> {
        let mut out = Vec::with_capacity(n + 8);
        while out.len() < n {
            out.extend_from_slice(&self.next().to_le_bytes());
        }
        out.truncate(n);
        out
    }
}

/// Words of a small vocabulary with spaces and newlines: low entropy, the
/// byte histogram of text.
fn text(rng: &mut Rng, n: usize) -> Vec<u8> {
    const WORDS: [&str; 16] = [
        "the", "chunk", "of", "data", "store", "and", "hash", "is", "a", "boundary", "content", "defined", "to",
        "rolling", "gear", "in",
    ];
    let mut out = Vec::with_capacity(n + 16);
    while out.len() < n {
        out.extend_from_slice(WORDS[rng.below(WORDS.len())].as_bytes());
        out.push(if rng.below(12) == 0 { b'\n' } else { b' ' });
    }
    out.truncate(n);
    out
}

/// The inputs every configuration is tried on, named for failure messages.
fn inputs(seed: u64, n: usize) -> Vec<(String, Vec<u8>)> {
    let mut rng = Rng(seed);
    vec![
        (format!("random seed {seed}"), rng.bytes(n)),
        ("zeros".into(), vec![0; n]),
        ("abc repeated".into(), b"abc".iter().cycle().take(n).copied().collect()),
        ("13-byte pattern repeated".into(), b"0123456789ab\n".iter().cycle().take(n).copied().collect()),
        (format!("text seed {seed}"), text(&mut rng, n)),
    ]
}

fn reference_fastcdc(data: &[u8], min: usize, avg: usize, max: usize, level: v2020::Normalization) -> Vec<Chunk> {
    v2020::FastCDC::with_level(data, min, avg, max, level)
        .map(|c| Chunk { offset: c.offset as u64, length: c.length })
        .collect()
}

/// Feeds `data` to a [`Chunker`] cut at `splits` (increasing offsets).
fn streamed(cdc: Cdc, data: &[u8], splits: &[usize]) -> Vec<Chunk> {
    let mut chunker = Chunker::new(cdc);
    let mut out = Vec::new();
    let mut from = 0;
    for &to in splits.iter().chain([&data.len()]) {
        chunker.update(&data[from..to], |c| out.push(c));
        from = to;
    }
    assert_eq!(chunker.position(), data.len() as u64);
    out.extend(chunker.finish());
    out
}

/// Splits of a stream: at every offset within 2 bytes of each cut and of
/// the points min/avg/max past it (one split at a time), and random pieces.
fn check_splits(cdc: Cdc, data: &[u8], expected: &[Chunk], rng: &mut Rng, what: &str) {
    let mut points = Vec::new();
    for chunk in expected {
        let start = chunk.offset as usize;
        for edge in [0, cdc.min_size(), cdc.avg_size(), cdc.max_size(), chunk.length] {
            for delta in -2isize..=2 {
                let at = (start + edge) as isize + delta;
                if at > 0 && (at as usize) < data.len() {
                    points.push(at as usize);
                }
            }
        }
    }
    points.sort_unstable();
    points.dedup();
    for &at in &points {
        assert_eq!(streamed(cdc, data, &[at]), expected, "{what}: split at {at}");
    }
    for max_piece in [1, 7, 100, 5000, 70_000] {
        if max_piece == 1 && data.len() > 300_000 {
            continue;
        }
        let mut splits = Vec::new();
        let mut at = 0;
        loop {
            at += 1 + rng.below(max_piece);
            if at >= data.len() {
                break;
            }
            splits.push(at);
        }
        assert_eq!(streamed(cdc, data, &splits), expected, "{what}: random pieces up to {max_piece} bytes");
    }
}

#[test]
fn fastcdc_equals_the_fastcdc_crate() {
    let seed = 0x5EED_CDC0;
    println!("seed {seed:#x}");
    let mut rng = Rng(seed);
    let mut total_chunks = 0;
    for (min, avg, max) in SIZES {
        let n = (max * 6).clamp(200_000, 1_600_000);
        for (ours, theirs) in LEVELS {
            let cdc = Cdc::fastcdc(min, avg, max, ours).unwrap();
            for (name, data) in inputs(rng.next(), n) {
                let what = format!("{min}/{avg}/{max} {ours:?} {name}");
                let expected = reference_fastcdc(&data, min, avg, max, theirs);
                let ours: Vec<Chunk> = cdc.chunks(&data).collect();
                assert_eq!(ours, expected, "{what}");
                total_chunks += ours.len();
            }
        }
    }
    // The data must have made cuts of every kind, or the test shows little.
    assert!(total_chunks > 10_000, "{total_chunks} chunks");
}

#[test]
fn fastcdc_lengths_around_min_avg_max() {
    let mut rng = Rng(0x1E46_7850);
    for (min, avg, max) in SIZES {
        let (ours, theirs) = LEVELS[1];
        let cdc = Cdc::fastcdc(min, avg, max, ours).unwrap();
        for (name, data) in inputs(rng.next(), 2 * max + 3) {
            for edge in [0, min, avg, max, max + min, 2 * max] {
                for len in edge.saturating_sub(3)..=(edge + 3).min(data.len()) {
                    let data = &data[..len];
                    let expected = reference_fastcdc(data, min, avg, max, theirs);
                    assert_eq!(cdc.chunks(data).collect::<Vec<_>>(), expected, "{min}/{avg}/{max} {name} length {len}");
                    let first = expected.first().map_or(0, |c| c.length);
                    assert_eq!(cdc.cut(data), first, "cut, {min}/{avg}/{max} {name} length {len}");
                }
            }
        }
    }
}

#[test]
fn fastcdc_streams_equal_the_crate_at_every_split() {
    let seed = 0x5_7EA3;
    println!("seed {seed:#x}");
    let mut rng = Rng(seed);
    for (min, avg, max) in [SIZES[1], SIZES[2], SIZES[6], SIZES[8]] {
        for (ours, theirs) in [LEVELS[1], LEVELS[3]] {
            let cdc = Cdc::fastcdc(min, avg, max, ours).unwrap();
            for (name, data) in inputs(rng.next(), 12 * max) {
                let expected = reference_fastcdc(&data, min, avg, max, theirs);
                check_splits(cdc, &data, &expected, &mut rng, &format!("{min}/{avg}/{max} {ours:?} {name}"));
            }
        }
    }
}

/// A reader handing out `data` in pieces of random sizes, for `StreamCDC`.
struct Pieces<'a> {
    data: &'a [u8],
    rng: Rng,
}

impl std::io::Read for Pieces<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = buf.len().min(self.data.len()).min(1 + self.rng.below(100_000));
        buf[..n].copy_from_slice(&self.data[..n]);
        self.data = &self.data[n..];
        Ok(n)
    }
}

#[test]
fn fastcdc_equals_the_crates_stream_chunker() {
    let mut rng = Rng(0xF00D);
    for (min, avg, max) in [SIZES[0], SIZES[1]] {
        let (ours, theirs) = LEVELS[1];
        let cdc = Cdc::fastcdc(min, avg, max, ours).unwrap();
        for (name, data) in inputs(rng.next(), 3_000_000) {
            let reader = Pieces { data: &data, rng: Rng(rng.next()) };
            let expected: Vec<Chunk> = v2020::StreamCDC::with_level(reader, min, avg, max, theirs)
                .map(|c| {
                    let c = c.unwrap();
                    Chunk { offset: c.offset, length: c.length }
                })
                .collect();
            let mut splits = Vec::new();
            let mut at = 0;
            while at < data.len() {
                splits.push(at);
                at += 1 + rng.below(200_000);
            }
            assert_eq!(streamed(cdc, &data, &splits[1..]), expected, "{min}/{avg}/{max} {name}");
        }
    }
}

/// Xet's chunker by the rules of xet-core's chunker, on the
/// `gearhash` crate's own scan and table (in the `vectors` crate, shared
/// with the benchmark).
fn reference_xet(data: &[u8]) -> Vec<Chunk> {
    let mut offset = 0;
    let lengths = vectors::cdc::xet_chunk_lengths_by_gearhash(data);
    lengths
        .into_iter()
        .map(|length| {
            offset += length as u64;
            Chunk { offset: offset - length as u64, length }
        })
        .collect()
}

#[test]
fn xet_equals_gearhash_under_the_spec_rules() {
    let seed = 0x8E7;
    println!("seed {seed:#x}");
    let mut rng = Rng(seed);
    let cdc = Cdc::xet();
    let mut total_chunks = 0;
    for (name, data) in inputs(rng.next(), 8_000_000) {
        let expected = reference_xet(&data);
        assert_eq!(cdc.chunks(&data).collect::<Vec<_>>(), expected, "{name}");
        total_chunks += expected.len();
        check_splits(cdc, &data[..1_500_000], &reference_xet(&data[..1_500_000]), &mut rng, &name);
    }
    assert!(total_chunks > 300, "{total_chunks} chunks");
    // Every length around the minimum and maximum.
    let data = Rng(rng.next()).bytes(2 * XET_MAX_SIZE + 3);
    for edge in [0, XET_MIN_SIZE - 65, XET_MIN_SIZE, XET_MAX_SIZE, XET_MAX_SIZE + XET_MIN_SIZE, 2 * XET_MAX_SIZE] {
        for len in edge.saturating_sub(3)..=(edge + 3).min(data.len()) {
            assert_eq!(cdc.chunks(&data[..len]).collect::<Vec<_>>(), reference_xet(&data[..len]), "length {len}");
        }
    }
}

/// A pattern of 128 bytes that xet-core's tests know to make a cut,
/// followed by `padding` zeros, repeated to 64 KiB: it puts matches just
/// before and after the minimum. From `test_correctness_100kb_hitting_data`
/// in xet-core's `xet_data/src/deduplication/chunking.rs`, as are the
/// expected boundaries below.
fn xet_triggering_data(padding: usize) -> Vec<u8> {
    #[rustfmt::skip]
    let mut data = vec![
        154, 52, 42, 34, 159, 75, 126, 224, 70, 236, 12, 196, 79, 236, 178, 124, 127, 50, 99, 178, 44, 176, 174,
        126, 250, 235, 205, 174, 252, 122, 35, 10, 20, 101, 214, 69, 193, 8, 115, 105, 158, 228, 120, 111, 136,
        162, 198, 251, 211, 183, 253, 252, 164, 147, 63, 16, 186, 162, 117, 23, 170, 36, 205, 187, 174, 76, 210,
        174, 211, 175, 12, 173, 145, 59, 2, 70, 222, 181, 159, 227, 182, 156, 189, 51, 226, 106, 24, 50, 183, 157,
        140, 10, 8, 23, 212, 70, 10, 234, 23, 33, 219, 254, 39, 236, 70, 49, 191, 116, 9, 115, 15, 101, 26, 159,
        165, 220, 15, 170, 56, 125, 92, 163, 94, 235, 38, 40, 49, 81,
    ];
    data.resize(data.len() + padding, 0);
    let n = 65536;
    while data.len() < n {
        let take = (n - data.len()).min(data.len());
        data.extend_from_within(..take);
    }
    data
}

fn ends(chunks: impl IntoIterator<Item = Chunk>) -> Vec<u64> {
    chunks.into_iter().map(|c| c.offset + c.length as u64).collect()
}

#[test]
fn xet_equals_xet_cores_worked_examples() {
    let cdc = Cdc::xet();
    // xet-core's `test_correctness_1mb_random_data`: 1,000,000 bytes of
    // SplitMix64 output from seed 0, little-endian words.
    let data = Rng(0).bytes(1_000_000);
    assert_eq!((data[0], data[127], data[111_111]), (175, 132, 118));
    let expected = [
        84493, 134421, 144853, 243318, 271793, 336457, 467529, 494581, 582000, 596735, 616815, 653164, 678202, 724510,
        815591, 827760, 958832, 991092, 1000000,
    ];
    assert_eq!(ends(cdc.chunks(&data)), expected);
    // `test_correctness_1mb_const_data`: no match, so maximum-size chunks.
    let expected = [131072, 262144, 393216, 524288, 655360, 786432, 917504, 1000000];
    assert_eq!(ends(cdc.chunks(&[59; 1_000_000])), expected);
    // A few rows of `test_correctness_100kb_hitting_data` (padding, boundaries).
    let rows: [(usize, [u64; 8]); 6] = [
        (0, [8256, 16448, 24640, 32832, 41024, 49216, 57408, 65536]),
        (1, [8320, 16576, 24832, 33088, 41344, 49600, 57856, 65536]),
        (2, [8254, 16574, 24894, 33214, 41534, 49854, 58174, 65536]),
        (38, [8198, 16498, 24798, 33098, 41398, 49698, 57998, 65536]),
        (126, [8192, 16574, 24956, 33338, 41720, 50102, 58484, 65536]),
        (127, [8224, 16639, 25054, 33469, 41884, 50299, 58714, 65536]),
    ];
    for (padding, expected) in rows {
        let data = xet_triggering_data(padding);
        assert_eq!(ends(cdc.chunks(&data)), expected, "padding {padding}");
        assert_eq!(ends(streamed(cdc, &data, &[1, 8127, 8191, 8192, 8193, 20000])), expected, "padding {padding}");
    }
}

/// The Gear-scan kernels to force: `CHUNKHASH_CDC_KERNEL`'s alone when set
/// (the kernel matrix of `make test`), else every one this machine runs;
/// printed, so a run that tested only the portable kernel says so.
fn kernels_under_test() -> Vec<CdcKernel> {
    let kernels: Vec<CdcKernel> = match CdcKernel::from_env() {
        Ok(Some(kernel)) => vec![kernel],
        Ok(None) => CdcKernel::all().iter().copied().filter(|k| k.is_supported()).collect(),
        Err(error) => panic!("CHUNKHASH_CDC_KERNEL: {error}"),
    };
    println!("chunker kernels under test: {kernels:?}");
    kernels
}

/// Every kernel, forced, against the crates (the tests above run the
/// detected one): FastCDC at sizes whose masks the SIMD kernels take
/// (15 bits and more) and at 2/8/64 KiB, and Xet; one-shot, every length
/// around min/avg/max, and streams in random pieces.
#[test]
fn every_kernel_cuts_where_the_crates_cut() {
    let seed = 0x0C0D_ECDC;
    println!("seed {seed:#x}");
    let mut rng = Rng(seed);
    for kernel in kernels_under_test() {
        let configurations = [(16 * 1024, 64 * 1024, 256 * 1024), (8 * 1024, 32 * 1024, 128 * 1024), SIZES[1]];
        for (min, avg, max) in configurations {
            let (ours, theirs) = LEVELS[1];
            let cdc = Cdc::fastcdc(min, avg, max, ours).unwrap().with_kernel(kernel).unwrap();
            for (name, data) in inputs(rng.next(), 1_500_000) {
                let what = format!("{kernel} {min}/{avg}/{max} {name}");
                let expected = reference_fastcdc(&data, min, avg, max, theirs);
                assert_eq!(cdc.chunks(&data).collect::<Vec<_>>(), expected, "{what}");
                let mut splits = Vec::new();
                let mut at = 0;
                loop {
                    at += 1 + rng.below(150_000);
                    if at >= data.len() {
                        break;
                    }
                    splits.push(at);
                }
                assert_eq!(streamed(cdc, &data, &splits), expected, "{what}, random pieces");
            }
            let data = Rng(rng.next()).bytes(2 * max + 3);
            for edge in [min, avg, max, max + avg, 2 * max] {
                for len in edge - 3..=(edge + 3).min(data.len()) {
                    let data = &data[..len];
                    let expected = reference_fastcdc(data, min, avg, max, theirs);
                    assert_eq!(
                        cdc.chunks(data).collect::<Vec<_>>(),
                        expected,
                        "{kernel} {min}/{avg}/{max} length {len}"
                    );
                }
            }
        }
        let cdc = Cdc::xet().with_kernel(kernel).unwrap();
        for (name, data) in inputs(rng.next(), 3_000_000) {
            let expected = reference_xet(&data);
            assert_eq!(cdc.chunks(&data).collect::<Vec<_>>(), expected, "{kernel} xet {name}");
            assert_eq!(
                streamed(cdc, &data, &[1, 8127, 8191, 8192, 8193, 20_000, 1_000_000]),
                expected,
                "{kernel} xet {name}"
            );
        }
        let data = xet_triggering_data(3);
        assert_eq!(cdc.chunks(&data).collect::<Vec<_>>(), reference_xet(&data), "{kernel} xet triggering data");
    }
}
