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
use std::boxed::Box;
use std::vec::Vec;

const COUNTERS: [u64; 8] = [0, 1, 0x7FFF_FFFF, 0x8000_0000, 0xFFFF_FFFE, 0xFFFF_FFFF, 0x1_0000_0000, u64::MAX];

/// The kernels to test (see `vectors::backends_under_test`: the forced one,
/// or every one this machine runs; a required one that cannot run fails).
fn supported() -> Vec<Platform> {
    let backends = vectors::backends_under_test(Backend::all(), Backend::is_supported);
    backends.into_iter().map(|b| Platform::new(b).unwrap()).collect()
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
    // Under Miri, which checks the portable kernel's memory accesses, one
    // round of a few counts (each count is up to 33 chunks of compressions).
    let counts: Vec<usize> =
        vectors::TestScale::pick((1..=2 * MAX_LANES + 1).collect(), (1..=2 * MAX_LANES + 1).collect(), std::vec![1, 3]);
    for platform in supported() {
        for &count in &counts {
            for round in 0..vectors::TestScale::pick(12, 12, 1) {
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

/// Whether `backend`'s kernels can be tested here; says so when they
/// cannot (and fails when `CHUNKHASH_REQUIRE_BACKENDS` requires them), so a
/// kernel test that does nothing is never mistaken for one that passed.
#[allow(dead_code)]
pub(super) fn kernel_supported(backend: Backend) -> bool {
    let _ = vectors::backends_under_test(Backend::all(), Backend::is_supported);
    if !backend.is_supported() {
        std::println!("backend {backend} not supported here: its transposes and lane loads are not tested");
    }
    backend.is_supported()
}

/// A lane vector's data movement and word operations on their own, against
/// plain Rust: `load_blocks` (unaligned loads of every lane's block and the
/// transpose to one word per vector) at offsets 0 to 128, without touching
/// the pointers of lanes it does not have; `store_cvs` (the transpose back)
/// writing exactly its lanes; `from_words`/`store_words`, `splat`, the
/// rotations, `add`, `xor`, `or`, `eq` and `blend` in every lane.
///
/// # Safety
///
/// The caller runs with `V`'s instructions enabled.
#[cfg(any(
    target_arch = "x86",
    target_arch = "x86_64",
    all(target_arch = "aarch64", target_endian = "little"),
    all(target_arch = "wasm32", target_feature = "simd128")
))]
#[inline(always)]
pub(super) unsafe fn check_lane_vector<V: super::lanes::LaneVector>() {
    use super::spec::CvBytes;
    let lanes = V::LANES;
    let pattern = |lane: usize, i: usize| (lane * 251 + i * 13 + 7) as u8;
    let buffers: Vec<[u8; 3 * BLOCK_LEN]> =
        (0..MAX_LANES).map(|lane| core::array::from_fn(|i| pattern(lane, i))).collect();
    // Lanes the vector does not have get null pointers: reading one faults.
    let mut pointers = [core::ptr::null(); MAX_LANES];
    for (pointer, buffer) in pointers.iter_mut().zip(&buffers).take(lanes) {
        *pointer = buffer.as_ptr();
    }
    const SENTINEL: u32 = 0xDEAD_BEEF;
    for offset in [0, 1, 3, 64, 100, 128] {
        // SAFETY: the caller enables `V`'s instructions; each of the first
        // `LANES` pointers has 192 readable bytes, so `offset + 64` fit.
        let words = unsafe { V::load_blocks(&pointers, offset) };
        for (i, word) in words.iter().enumerate() {
            let mut out = [SENTINEL; MAX_LANES];
            // SAFETY: as above; `out` holds `MAX_LANES` words.
            unsafe { word.store_words(&mut out) };
            for lane in 0..lanes {
                let bytes = &buffers[lane][offset + 4 * i..offset + 4 * i + 4];
                let expected = u32::from_le_bytes(bytes.try_into().unwrap());
                assert_eq!(out[lane], expected, "load_blocks offset {offset}, word {i}, lane {lane} of {lanes}");
            }
            assert!(out[lanes..].iter().all(|&w| w == SENTINEL), "store_words wrote past {lanes} lanes");
        }
    }
    let cv_word = |lane: usize, j: usize| 0x0101_0101u32.wrapping_mul((lane * 8 + j) as u32 + 1) ^ 0x8040_2010;
    // SAFETY: the caller enables `V`'s instructions; `from_words` reads
    // `MAX_LANES` words.
    let cv: [V; 8] = core::array::from_fn(|j| unsafe { V::from_words(&core::array::from_fn(|lane| cv_word(lane, j))) });
    let mut out: Vec<CvBytes> = std::vec![[0xAA; OUT_LEN]; lanes + 1];
    // SAFETY: as above; `out` holds `LANES` values.
    unsafe { V::store_cvs(&cv, &mut out[..lanes]) };
    for (lane, bytes) in out.iter().enumerate().take(lanes) {
        let expected: Vec<u8> = (0..8).flat_map(|j| cv_word(lane, j).to_le_bytes()).collect();
        assert_eq!(bytes[..], expected[..], "store_cvs lane {lane} of {lanes}");
    }
    assert_eq!(out[lanes], [0xAA; OUT_LEN], "store_cvs wrote past {lanes} lanes");

    let mut rng = vectors::TestRng::new(41);
    for _ in 0..8 {
        let a: [u32; MAX_LANES] = core::array::from_fn(|_| rng.next_u64() as u32);
        // Half the lanes equal, for `eq`.
        let b: [u32; MAX_LANES] = core::array::from_fn(|i| if i % 2 == 0 { a[i] } else { rng.next_u64() as u32 });
        let read = |v: V| {
            let mut words = [0u32; MAX_LANES];
            // SAFETY: the caller enables `V`'s instructions.
            unsafe { v.store_words(&mut words) };
            words
        };
        // SAFETY: the caller enables `V`'s instructions; every array holds
        // `MAX_LANES` words.
        unsafe {
            let (va, vb) = (V::from_words(&a), V::from_words(&b));
            let results = [
                ("splat", read(V::splat(a[0])), core::array::from_fn(|_| a[0])),
                ("add", read(V::add(va, vb)), core::array::from_fn(|i| a[i].wrapping_add(b[i]))),
                ("xor", read(V::xor(va, vb)), core::array::from_fn(|i| a[i] ^ b[i])),
                ("or", read(V::or(va, vb)), core::array::from_fn(|i| a[i] | b[i])),
                ("rot16", read(V::rot16(va)), a.map(|w| w.rotate_right(16))),
                ("rot12", read(V::rot12(va)), a.map(|w| w.rotate_right(12))),
                ("rot8", read(V::rot8(va)), a.map(|w| w.rotate_right(8))),
                ("rot7", read(V::rot7(va)), a.map(|w| w.rotate_right(7))),
                (
                    "eq, blend",
                    read(V::blend(V::eq(va, vb), va, V::splat(0))),
                    core::array::from_fn(|i| if i % 2 == 0 { a[i] } else { 0 }),
                ),
            ];
            for (name, got, expected) in results {
                let expected: [u32; MAX_LANES] = expected;
                assert_eq!(got[..lanes], expected[..lanes], "{name}, {lanes} lanes");
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
            // 128/129 and 256/257: either side of where the row kernels
            // hash a short third chunk on its own.
            for &last in &[CHUNK_LEN, 1, 128, 129, 256, 257, 700] {
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

/// A kernel file's test of one lane vector type with [`check_lane_vector`]:
/// a `#[target_feature]` function enabling the type's instructions (the
/// check must be inlined where they are enabled), called when
/// `Backend::$backend` runs here.
#[allow(unused_macros)]
macro_rules! lane_vector_test {
    ($test:ident, $vector:ty, $features:literal, $backend:ident) => {
        #[test]
        fn $test() {
            /// # Safety
            ///
            /// The CPU has the features enabled here.
            #[target_feature(enable = $features)]
            unsafe fn check() {
                // SAFETY: this function enables the vector type's instructions.
                unsafe { super::super::tests::check_lane_vector::<$vector>() }
            }
            if super::super::tests::kernel_supported(super::super::backend::Backend::$backend) {
                // SAFETY: the backend is supported, so the CPU has every
                // feature its kernels enable, these among them.
                unsafe { check() }
            }
        }
    };
}
#[allow(unused_imports)]
pub(super) use lane_vector_test;

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

/// Every small-message kernel against the portable one, called directly:
/// both AVX-512 kernels (masked and padded tails, whichever the dispatch
/// would pick), every block count, every message count up to sixteen and
/// counts of several groups of lanes (one call runs them all), with
/// the messages ending at the end of their buffer (a masked load reading
/// past it would be caught by the slice bounds of a wrong kernel, and by
/// Miri and the sanitizers).
#[test]
fn small_message_kernels_match_portable() {
    // Messages of the longest call: four groups of sixteen and some.
    const MANY: usize = 4 * MAX_LANES + 7;
    let seed = vectors::test_seed("small_message_kernels_match_portable", 12);
    let mut rng = vectors::TestRng::new(seed);
    let flags = [KEYED_HASH, CHUNK_START, CHUNK_END | ROOT];
    let key: CvWords = core::array::from_fn(|_| rng.next_u64() as u32);
    for blocks in 1..=CHUNK_LEN / BLOCK_LEN {
        let buffers: Vec<Vec<u8>> = (0..MANY)
            .map(|_| {
                let low = if blocks == 1 { 0 } else { (blocks - 1) * BLOCK_LEN + 1 };
                let len = rng.range(low..=blocks * BLOCK_LEN);
                rng.bytes(len)
            })
            .collect();
        let inputs: Vec<&[u8]> = buffers.iter().map(Vec::as_slice).collect();
        let inputs = &inputs;
        for count in (1..=MAX_LANES).chain([2 * MAX_LANES, 3 * MAX_LANES + 5, MANY]) {
            let mut expected = [[0u8; OUT_LEN]; MANY];
            portable().hash_short_messages(&key, blocks, flags, &inputs[..count], &mut expected[..count]);
            type Kernel<'a> = Box<dyn Fn(&mut [[u8; OUT_LEN]]) + 'a>;
            let mut kernels: Vec<(&str, Kernel<'_>)> = Vec::new();
            for platform in supported() {
                kernels.push((
                    platform.backend().name(),
                    Box::new(move |out| platform.hash_short_messages(&key, blocks, flags, &inputs[..count], out)),
                ));
            }
            #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
            if Backend::Avx512.is_supported() && count > 8 {
                // SAFETY: the CPU has AVX-512F + VL (checked above).
                kernels.push((
                    "avx512 padded",
                    Box::new(move |out| unsafe {
                        super::avx512::hash_short16(&key, blocks, flags, &inputs[..count], out)
                    }),
                ));
            }
            for (name, kernel) in &kernels {
                let mut got = [[0u8; OUT_LEN]; MANY];
                kernel(&mut got[..count]);
                assert_eq!(got, expected, "{name}, {count} messages of {blocks} blocks, seed {seed}");
            }
        }
    }
}
