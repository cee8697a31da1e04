//! Every kernel against the portable one, below the public API: counters
//! across the 32-bit carry (no real message reaches them), every job count
//! up to one past two full kernel calls, ragged and uniform job mixes, and
//! every flag. Seeded; the seed is printed.

use super::backend::Backend;
use super::job::LaneJob;
use super::spec::{
    CvWords, BLOCK_LEN, CHUNK_END, CHUNK_LEN, CHUNK_START, DERIVE_KEY_MATERIAL, IV, KEYED_HASH, MAX_LANES, OUT_LEN,
    PARENT, ROOT,
};
use super::Platform;
use std::vec::Vec;

const COUNTERS: [u64; 8] = [0, 1, 0x7FFF_FFFF, 0x8000_0000, 0xFFFF_FFFE, 0xFFFF_FFFF, 0x1_0000_0000, u64::MAX];

fn supported() -> Vec<Platform> {
    let platforms: Vec<Platform> = Backend::all().iter().filter_map(|b| Platform::new(*b).ok()).collect();
    std::println!("kernels under test: {:?}", platforms.iter().map(|p| p.backend()).collect::<Vec<_>>());
    platforms
}

fn portable() -> Platform {
    Platform::new(Backend::Portable).unwrap()
}

#[test]
fn single_block_compression_matches_portable() {
    let mut rng = vectors::TestRng::new(vectors::test_seed("single_block_compression_matches_portable", 11));
    for platform in supported() {
        for &counter in &COUNTERS {
            for len in [0u8, 1, 31, 32, 63, 64] {
                let mut block = [0u8; BLOCK_LEN];
                rng.fill(&mut block[..len as usize]);
                let cv: CvWords = core::array::from_fn(|_| rng.next_u64() as u32);
                let flags = rng.next_u64() as u8 & 0x7F;
                let mut expected = cv;
                portable().compress_in_place(&mut expected, &block, len, counter, flags);
                let mut got = cv;
                platform.compress_in_place(&mut got, &block, len, counter, flags);
                assert_eq!(got, expected, "{:?} counter {counter:#x} len {len}", platform.backend());
                assert_eq!(
                    platform.compress_xof(&cv, &block, len, counter, flags),
                    portable().compress_xof(&cv, &block, len, counter, flags),
                    "xof {:?} counter {counter:#x} len {len}",
                    platform.backend()
                );
            }
        }
        let blocks: Vec<[u8; BLOCK_LEN]> = (0..15).map(|_| core::array::from_fn(|_| rng.next_u64() as u8)).collect();
        for count in 0..=15 {
            let mut expected = IV;
            portable().compress_blocks(&mut expected, &blocks[..count], 7, KEYED_HASH, CHUNK_START);
            let mut got = IV;
            platform.compress_blocks(&mut got, &blocks[..count], 7, KEYED_HASH, CHUNK_START);
            assert_eq!(got, expected, "compress_blocks {:?}, {count} blocks", platform.backend());
        }
    }
}

fn chunk(input: &[u8], counter: u64, flags: u8, root: bool) -> LaneJob<'_> {
    LaneJob::new(input, counter, flags, CHUNK_START, CHUNK_END | if root { ROOT } else { 0 })
}

/// One random job: a chunk of an edge or random length, or a parent, with
/// the flags the tree gives them (a root when `rng` says so).
fn random_job<'a>(rng: &mut vectors::TestRng, data: &'a [u8], uniform: bool) -> LaneJob<'a> {
    const EDGES: [usize; 12] = [0, 1, 63, 64, 65, 127, 128, 511, 960, 1023, 1024, 1000];
    let counter = COUNTERS[rng.range(0..=COUNTERS.len() - 1)].wrapping_add(rng.range(0..=3) as u64);
    if uniform {
        return chunk(&data[..CHUNK_LEN], counter, KEYED_HASH, false);
    }
    let start = rng.range(0..=data.len() - CHUNK_LEN);
    match rng.range(0..=3) {
        0 => {
            let root = if rng.range(0..=1) == 1 { ROOT } else { 0 };
            LaneJob::new(&data[start..start + BLOCK_LEN], 0, DERIVE_KEY_MATERIAL | PARENT, 0, root)
        }
        1 => chunk(&data[start..start + rng.range(0..=CHUNK_LEN)], counter, 0, rng.range(0..=1) == 1),
        _ => chunk(&data[start..start + EDGES[rng.range(0..=EDGES.len() - 1)]], counter, 0, false),
    }
}

#[test]
fn lane_kernels_match_portable_on_every_job_count() {
    let mut rng = vectors::TestRng::new(vectors::test_seed("lane_kernels_match_portable_on_every_job_count", 12));
    let data = rng.bytes(8 * CHUNK_LEN);
    let key: CvWords = core::array::from_fn(|_| rng.next_u64() as u32);
    for platform in supported() {
        for count in 1..=2 * MAX_LANES + 1 {
            for round in 0..12 {
                // Every fourth set is uniform whole chunks (the fast path).
                let uniform = round % 4 == 0;
                let jobs: Vec<LaneJob<'_>> = (0..count).map(|_| random_job(&mut rng, &data, uniform)).collect();
                let mut expected = std::vec![[0u8; OUT_LEN]; count];
                portable().hash_jobs(&key, &jobs, &mut expected);
                let mut got = std::vec![[0u8; OUT_LEN]; count];
                platform.hash_jobs(&key, &jobs, &mut got);
                assert_eq!(got, expected, "{:?}, {count} jobs, round {round}", platform.backend());
            }
        }
    }
}

/// `hash_chunks` (runs of chunks, which the assembly kernels take 8, 16 or
/// 32 at a time without job lists) against portable: every chunk count up
/// to one past two 32-chunk calls, whole or with a ragged last chunk, from
/// counters across the 32-bit carry.
#[test]
fn chunk_runs_match_portable_on_every_count() {
    let mut rng = vectors::TestRng::new(vectors::test_seed("chunk_runs_match_portable_on_every_count", 13));
    let data = rng.bytes(65 * CHUNK_LEN);
    let key: CvWords = core::array::from_fn(|_| rng.next_u64() as u32);
    for platform in supported() {
        for count in 1..=65 {
            for &last in &[CHUNK_LEN, 1, 700] {
                let input = &data[..(count - 1) * CHUNK_LEN + last];
                let counter = COUNTERS[rng.range(0..=COUNTERS.len() - 1)].wrapping_sub(rng.range(0..=40) as u64);
                let flags = [KEYED_HASH, CHUNK_START, CHUNK_END];
                let mut expected = std::vec![[0u8; OUT_LEN]; count];
                assert_eq!(portable().hash_chunks(&key, input, counter, flags, &mut expected), count);
                let mut got = std::vec![[0u8; OUT_LEN]; count];
                assert_eq!(platform.hash_chunks(&key, input, counter, flags, &mut got), count);
                assert_eq!(
                    got,
                    expected,
                    "{:?}, {count} chunks, last {last}, counter {counter:#x}",
                    platform.backend()
                );
            }
        }
    }
}

/// `hash_blocks` (a tree level's parents, which the assembly kernels run
/// as consecutive steps of one call) against portable, for every count up
/// to one past four 16-lane steps.
#[test]
fn independent_blocks_match_portable_on_every_count() {
    let mut rng = vectors::TestRng::new(vectors::test_seed("independent_blocks_match_portable_on_every_count", 14));
    let data = rng.bytes(65 * BLOCK_LEN);
    let key: CvWords = core::array::from_fn(|_| rng.next_u64() as u32);
    for platform in supported() {
        for count in 1..=65 {
            let blocks = &data[..count * BLOCK_LEN];
            let flags = DERIVE_KEY_MATERIAL | PARENT;
            let mut expected = std::vec![[0u8; OUT_LEN]; count];
            portable().hash_blocks(&key, flags, blocks, &mut expected);
            let mut got = std::vec![[0u8; OUT_LEN]; count];
            platform.hash_blocks(&key, flags, blocks, &mut got);
            assert_eq!(got, expected, "{:?}, {count} blocks", platform.backend());
        }
    }
}
