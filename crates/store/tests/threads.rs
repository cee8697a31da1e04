//! `put` on several threads: the store's files (packs, index files,
//! snapshot pointers) are byte for byte those of a put on one thread.

mod common;

use chunkhash_store::{OpenOptions, PutOptions, PutReport, Store};
use common::*;
use std::collections::BTreeMap;
use std::fs;
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

/// Two puts (the second deduplicating against the first) into a fresh
/// store with `threads` threads; the store's files and the reports.
fn put_twice(dir: &Path, inputs: &[Vec<PathBuf>; 2], threads: usize) -> (BTreeMap<PathBuf, Vec<u8>>, Vec<PutReport>) {
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
    fs::create_dir_all(data.join("large")).unwrap();
    for i in 0..6 {
        let len = rng.range(ARENA..=5 * ARENA);
        let bytes = rng.bytes(len);
        fs::write(data.join(format!("large/{i}")), &bytes).unwrap();
        fs::write(data.join(format!("small/{i}-copy")), &bytes).unwrap();
    }
    let second = dir.join("second");
    random_tree(&mut rng, &second.join("tree"), 2, 200_000, &mut pool);
    let inputs = [vec![data.join("tree"), data.join("small"), data.join("large")], vec![second.join("tree")]];

    let (expected, reports) = put_twice(&dir, &inputs, 1);
    assert!(expected.keys().filter(|name| name.starts_with("packs")).count() > 3, "several packs: {expected:?}");
    for threads in [2, 4, 3, 8] {
        let (files, other) = put_twice(&dir, &inputs, threads);
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
    store.get(&reports[0].snapshot, &dir.join("out"), None).unwrap();
    for input in &inputs[0] {
        assert_same_tree(input, &dir.join("out").join(input.file_name().unwrap()));
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
