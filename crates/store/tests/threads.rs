//! `put` on several threads: the store's files (packs, index files,
//! snapshot pointers) are byte for byte those of a put on one thread,
//! files longer than an arena included, which several threads cut in
//! segments joined to the chunks of one thread.

mod common;

use chunkhash_store::{OpenOptions, PutOptions, PutReport, Store};
use common::*;
use std::collections::BTreeMap;
use std::fs;
use std::io::Write;
use std::num::NonZeroUsize;
use std::path::{Path, PathBuf};
use vectors::{test_seed, TestRng};

/// Small arenas (the default is 8 MiB), so files of a few hundred KiB
/// span several and groups of small files end often: many parts, handed
/// over by several workers, to be put back in order.
const ARENA: usize = 64 << 10;

/// Every file under `dir` (relative path, bytes), symbolic links and
/// directories aside; the writer lock holds the same pid in one process.
fn files_of(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    fn walk(root: &Path, dir: &Path, out: &mut BTreeMap<PathBuf, Vec<u8>>) {
        for entry in fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(root, &path, out);
            } else {
                out.insert(path.strip_prefix(root).unwrap().to_path_buf(), fs::read(&path).unwrap());
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(dir, dir, &mut out);
    out
}

/// Puts of each list of inputs in turn (the later ones deduplicating
/// against the earlier) into a fresh store with `threads` threads; the
/// store's files and the reports.
fn put_rounds(dir: &Path, inputs: &[Vec<PathBuf>], threads: usize) -> (BTreeMap<PathBuf, Vec<u8>>, Vec<PutReport>) {
    let store_dir = dir.join(format!("store-{threads}"));
    let mut store = create(&store_dir, SMALL_CHUNKS);
    let mut reports = Vec::new();
    for (round, inputs) in inputs.iter().enumerate() {
        let options = PutOptions {
            threads: NonZeroUsize::new(threads),
            time: Some(1_700_000_000 + round as u64),
            arena_bytes: Some(ARENA),
            // The second put records files' roots and outboards: their
            // pieces too are stored in file order, whatever the threads.
            roots: round == 1,
            ..PutOptions::default()
        };
        reports.push(store.put(inputs, options).unwrap());
    }
    drop(store);
    (files_of(&store_dir), reports)
}

#[test]
fn puts_on_1_2_3_4_and_8_threads_write_the_same_store() {
    let seed = test_seed("puts_on_several_threads", 0x5eed_7001);
    let mut rng = TestRng::new(seed);
    let dir = test_dir("puts_on_several_threads");
    let data = dir.join("data");
    let mut pool = Vec::new();
    // Random trees (small files, repeats, links, odd names), hundreds of
    // small files (groups of many files), files larger than an arena, and
    // repeats of them (dedup across groups and workers).
    random_tree(&mut rng, &data.join("tree"), 3, 40_000, &mut pool);
    fs::create_dir_all(data.join("small")).unwrap();
    for i in 0..400 {
        let len = rng.range(0..=3000);
        fs::write(data.join(format!("small/{i:03}")), rng.bytes(len)).unwrap();
    }
    // Files longer than an arena are cut in segments on several threads
    // (not in the second put, which records roots): random ones, where
    // the segments' chunks meet the file's after a chunk or two; zeros,
    // cut only at the maximum, where they meet at once (segments are
    // multiples of it); and a short random block repeated, where the
    // chunks of a segment may never meet the file's, so the writer cuts
    // the whole segment again.
    fs::create_dir_all(data.join("large")).unwrap();
    for i in 0..6 {
        let len = rng.range(ARENA..=5 * ARENA);
        let bytes = rng.bytes(len);
        fs::write(data.join(format!("large/{i}")), &bytes).unwrap();
        fs::write(data.join(format!("small/{i}-copy")), &bytes).unwrap();
    }
    fs::write(data.join("large/zeros"), vec![0; 9 * ARENA + 77]).unwrap();
    let block_len = rng.range(300..=3000);
    let block = rng.bytes(block_len);
    fs::write(data.join("large/repeats"), block.repeat(6 * ARENA / block.len())).unwrap();
    let second = dir.join("second");
    random_tree(&mut rng, &second.join("tree"), 2, 200_000, &mut pool);
    // One large file alone: more threads than files.
    let third = dir.join("third");
    fs::create_dir_all(&third).unwrap();
    let len = rng.range(8 * ARENA..=12 * ARENA);
    fs::write(third.join("alone"), rng.bytes(len)).unwrap();
    let inputs = [
        vec![data.join("tree"), data.join("small"), data.join("large")],
        vec![second.join("tree")],
        vec![third.join("alone")],
    ];

    let (expected, reports) = put_rounds(&dir, &inputs, 1);
    assert!(expected.keys().filter(|name| name.starts_with("packs")).count() > 3, "several packs: {expected:?}");
    for threads in [2, 4, 3, 8] {
        let (files, other) = put_rounds(&dir, &inputs, threads);
        assert_eq!(other[0].threads, threads);
        for (one, many) in reports.iter().zip(&other) {
            assert_eq!(
                (one.snapshot, one.files, one.bytes, one.new_chunks, one.new_bytes, one.new_objects),
                (many.snapshot, many.files, many.bytes, many.new_chunks, many.new_bytes, many.new_objects),
                "{threads} threads, seed {seed:#x}"
            );
            assert_eq!(one.skipped, many.skipped);
        }
        let names = |files: &BTreeMap<PathBuf, Vec<u8>>| files.keys().cloned().collect::<Vec<_>>();
        assert_eq!(names(&files), names(&expected), "{threads} threads, seed {seed:#x}");
        for (name, bytes) in &expected {
            assert!(files[name] == *bytes, "{}: differs with {threads} threads, seed {seed:#x}", name.display());
        }
    }

    // And what was stored restores.
    let store = Store::open(&dir.join("store-4"), OpenOptions::default()).unwrap();
    assert!(store.verify(None).unwrap().damage.is_empty());
    for (report, inputs) in reports.iter().zip(&inputs) {
        let out = dir.join(format!("out-{}", report.snapshot.to_hex()));
        store.get(&report.snapshot, &out, None).unwrap();
        for input in inputs {
            assert_same_tree(input, &out.join(input.file_name().unwrap()));
        }
    }
}

/// A pack target smaller than a pack's header (0 and 16 bytes: accepted by
/// `--pack-target`) still puts: one record per pack, then sealed. Such a
/// target once took no record and sealed empty packs forever.
#[test]
fn a_pack_target_under_the_header_puts_one_record_per_pack() {
    let dir = test_dir("a_pack_target_under_the_header");
    let data = dir.join("data");
    fs::create_dir_all(&data).unwrap();
    let mut rng = TestRng::new(test_seed("a_pack_target_under_the_header", 0x5eed_7002));
    for i in 0..3 {
        let len = rng.range(0..=4000);
        fs::write(data.join(format!("f{i}")), rng.bytes(len)).unwrap();
    }
    for target in [0, 16] {
        let store_dir = dir.join(format!("store-{target}"));
        let open = OpenOptions { pack_target: target, ..options() };
        let mut store = Store::create(
            &store_dir,
            chunkhash_store::CreateOptions { chunker: SMALL_CHUNKS, ..Default::default() },
            open,
        )
        .unwrap();
        let report = store
            .put(std::slice::from_ref(&data), PutOptions { threads: NonZeroUsize::new(2), ..PutOptions::default() })
            .unwrap();
        let restored = dir.join(format!("restored-{target}"));
        store.get(&report.snapshot, &restored, None).unwrap();
        assert_same_tree(&data, &restored.join("data"));
        let verified = store.verify(None).unwrap();
        assert!(verified.damage.is_empty(), "target {target}: {:?}", verified.damage);
        assert!(verified.records > 1, "target {target}: {verified:?}");
        assert_eq!(verified.packs, verified.records, "target {target}: one record per pack");
    }
}

/// A reading thread that panics while the writer waits for its group, and
/// the other thread fills its arenas with later groups: the put ends with
/// the panic instead of waiting forever.
#[test]
fn a_reading_thread_that_panics_ends_the_put() {
    let dir = test_dir("a_reading_thread_that_panics");
    let data = dir.join("data");
    fs::create_dir_all(&data).unwrap();
    let mut rng = TestRng::new(test_seed("a_reading_thread_that_panics", 0x5eed_7003));
    // Enough bytes after the first file for the other thread to use all of
    // its arenas (4 of ARENA bytes).
    for i in 0..64 {
        let len = rng.range(ARENA / 2..=ARENA);
        fs::write(data.join(format!("f{i:03}")), rng.bytes(len)).unwrap();
    }
    let mut store = create(&dir.join("store"), SMALL_CHUNKS);
    let hook = |path: &Path| {
        if path.ends_with("f000") {
            panic!("the test's hook, reading {}", path.display());
        }
    };
    let options = PutOptions {
        threads: NonZeroUsize::new(2),
        arena_bytes: Some(ARENA),
        after_read: Some(&hook),
        ..PutOptions::default()
    };
    let put =
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| store.put(std::slice::from_ref(&data), options)));
    assert!(put.is_err(), "the put returned instead of raising the reading thread's panic");
}

/// A file cut in segments on several threads that grows, or whose reading
/// thread panics, while its segments are read: the put fails with
/// `FileChanged` naming it (and stores no snapshot), or raises the panic;
/// neither waits forever.
#[test]
fn a_split_file_that_changes_or_panics_while_read_ends_the_put() {
    let dir = test_dir("a_split_file_that_changes");
    let data = dir.join("data");
    fs::create_dir_all(&data).unwrap();
    let mut rng = TestRng::new(test_seed("a_split_file_that_changes", 0x5eed_7004));
    for name in ["a", "c"] {
        let len = rng.range(0..=3000);
        fs::write(data.join(name), rng.bytes(len)).unwrap();
    }
    let big = data.join("b");
    let big_len = rng.range(10 * ARENA..=12 * ARENA);
    fs::write(&big, rng.bytes(big_len)).unwrap();
    let mut store = create(&dir.join("store"), SMALL_CHUNKS);
    let options = |hook| PutOptions {
        threads: NonZeroUsize::new(2),
        arena_bytes: Some(ARENA),
        after_read: Some(hook),
        ..PutOptions::default()
    };

    let grow = |path: &Path| {
        if path == big {
            fs::OpenOptions::new().append(true).open(path).unwrap().write_all(b"more").unwrap();
        }
    };
    let error = store.put(std::slice::from_ref(&data), options(&grow)).unwrap_err();
    assert!(matches!(&error, chunkhash_store::Error::FileChanged { path, .. } if *path == big), "{error}");
    assert!(store.snapshots().unwrap().is_empty());

    let panic = |path: &Path| {
        if path == big {
            panic!("the test's hook, reading {}", path.display());
        }
    };
    let put = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        store.put(std::slice::from_ref(&data), options(&panic))
    }));
    assert!(put.is_err(), "the put returned instead of raising the reading thread's panic");
}
