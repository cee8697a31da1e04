//! Round trips: random trees in and out of stores of every address
//! algorithm, hashing modes, dedup across files and snapshots, huge files.

mod common;

use chunkhash_store::object::Node;
use chunkhash_store::{ChunkerSettings, Hashing, OpenOptions, PutOptions, Store, ADDRESS_ALGORITHMS};
use common::*;
use std::fs;
use std::path::PathBuf;
use vectors::{test_seed, TestRng};

#[test]
fn random_trees_round_trip_with_every_address_algorithm() {
    let mut rng = TestRng::new(test_seed("random_trees_round_trip", 0x5eed_0001));
    let dir = test_dir("random_trees_round_trip");
    for (round, algorithm) in ADDRESS_ALGORITHMS.iter().enumerate() {
        let case = dir.join(format!("{round}"));
        let data = case.join("data");
        let mut pool = Vec::new();
        random_tree(&mut rng, &data.join("tree"), 3, 40_000, &mut pool);
        fs::write(data.join("lone file"), rng.bytes(5000)).unwrap();
        std::os::unix::fs::symlink("tree", data.join("link to tree")).unwrap();
        let inputs: Vec<PathBuf> = ["tree", "lone file", "link to tree"].iter().map(|n| data.join(n)).collect();

        let options =
            chunkhash_store::CreateOptions { address: *algorithm, chunker: SMALL_CHUNKS, ..Default::default() };
        let mut store = Store::create(&case.join("store"), options, common::options()).unwrap();
        let report = put(&mut store, &inputs);
        assert_eq!(report.symlinks as usize, count_links(&data), "{algorithm}");
        drop(store);

        let reader =
            Store::open(&case.join("store"), OpenOptions { expect: Some(*algorithm), ..OpenOptions::default() })
                .unwrap();
        let verified = reader.verify(None).unwrap();
        assert!(verified.damage.is_empty(), "{algorithm}: {:?}", verified.damage);
        assert_eq!(verified.records, reader.index().len() as u64);
        reader.get(&report.snapshot, &case.join("out"), None).unwrap();
        for input in &inputs {
            assert_same_tree(input, &case.join("out").join(input.file_name().unwrap()));
        }
        let listed = reader.ls(&report.snapshot).unwrap();
        assert_eq!(listed.len() as u64, report.files + report.dirs + report.symlinks, "{algorithm}");
        assert_eq!(report.snapshot.as_bytes().len(), algorithm.digest_len());
    }
}

fn count_links(dir: &std::path::Path) -> usize {
    fs::read_dir(dir)
        .unwrap()
        .map(|entry| {
            let entry = entry.unwrap();
            let kind = entry.file_type().unwrap();
            if kind.is_symlink() {
                1
            } else if kind.is_dir() {
                count_links(&entry.path())
            } else {
                0
            }
        })
        .sum()
}

#[test]
fn every_hashing_mode_stores_the_same_bytes() {
    let mut rng = TestRng::new(test_seed("every_hashing_mode", 0x5eed_0002));
    let dir = test_dir("every_hashing_mode");
    let mut pool = Vec::new();
    random_tree(&mut rng, &dir.join("data"), 2, 20_000, &mut pool);
    let mut trees = Vec::new();
    let mut indexes = Vec::new();
    for hashing in Hashing::ALL {
        let mut store = create(&dir.join(hashing.name()), SMALL_CHUNKS);
        // One snapshot time for every mode: the snapshot object holds it, in
        // seconds, and a put crossing a second would otherwise differ.
        let options = PutOptions { hashing, time: Some(1_700_000_000), ..PutOptions::default() };
        let report = store.put(&[dir.join("data")], options).unwrap();
        trees.push(store.snapshot(&report.snapshot).unwrap().tree);
        indexes.push(store.index().to_sorted_vec().into_iter().map(|entry| entry.0).collect::<Vec<_>>());
    }
    assert!(trees.windows(2).all(|pair| pair[0] == pair[1]), "{trees:?}");
    for (hashing, index) in Hashing::ALL.iter().zip(&indexes) {
        assert_eq!(index, &indexes[0], "{} stored other objects than {}", hashing.name(), Hashing::ALL[0].name());
    }
}

#[test]
fn chunks_are_stored_once_across_files_and_snapshots() {
    let mut rng = TestRng::new(test_seed("dedup", 0x5eed_0003));
    let dir = test_dir("dedup");
    let data = dir.join("data");
    fs::create_dir_all(&data).unwrap();
    let original = rng.bytes(300_000);
    fs::write(data.join("a"), &original).unwrap();
    fs::write(data.join("copy of a"), &original).unwrap();
    let mut shifted = rng.bytes(77);
    shifted.extend_from_slice(&original);
    fs::write(data.join("a shifted"), &shifted).unwrap();

    let mut store = create(&dir.join("store"), SMALL_CHUNKS);
    let first = put(&mut store, std::slice::from_ref(&data));
    assert_eq!(first.bytes, 3 * 300_000 + 77);
    // The copy costs nothing; the shifted copy a few chunks around the shift.
    assert!(first.new_bytes < 300_000 + 5_000, "stored {} bytes", first.new_bytes);

    let second = put(&mut store, std::slice::from_ref(&data));
    assert_eq!(second.new_chunks, 0);
    // At most the snapshot root is new (it holds the time).
    assert!(second.new_objects <= 1, "{} new objects", second.new_objects);

    let mut edited = original.clone();
    edited[150_000] ^= 1;
    fs::write(data.join("a"), &edited).unwrap();
    let third = put(&mut store, std::slice::from_ref(&data));
    assert!(third.new_chunks <= 2 && third.new_bytes <= 2048, "{} chunks, {} bytes", third.new_chunks, third.new_bytes);

    let stats = store.stats().unwrap();
    assert!(stats.snapshots >= 2);
    assert!(stats.dedup_ratio() > 5.0, "dedup ratio {}", stats.dedup_ratio());
    assert!(store.verify(None).unwrap().damage.is_empty());
    // Every snapshot still restores as it was put.
    let out = dir.join("out-first");
    store.get(&first.snapshot, &out, None).unwrap();
    assert_eq!(fs::read(out.join("data/a")).unwrap(), original);
    store.get(&third.snapshot, &dir.join("out-third"), None).unwrap();
    assert_same_tree(&data, &dir.join("out-third/data"));
}

#[test]
fn huge_files_cross_read_batches_and_use_chunk_lists() {
    let mut rng = TestRng::new(test_seed("huge_file", 0x5eed_0004));
    let dir = test_dir("huge_file");
    let data = dir.join("data");
    fs::create_dir_all(&data).unwrap();
    // 20 MiB at a 1 KiB average: 20,000 chunks, more than two read-ahead
    // batches and five chunk-list objects.
    fs::write(data.join("huge"), rng.bytes(20 << 20)).unwrap();
    fs::write(data.join("empty"), b"").unwrap();
    let chunker = ChunkerSettings { min: 256, avg: 1024, max: 4096 };
    let mut store = create(&dir.join("store"), chunker);
    let report = put(&mut store, std::slice::from_ref(&data));
    let listed = store.ls(&report.snapshot).unwrap();
    let huge = listed.iter().find(|entry| entry.path == b"data/huge").unwrap();
    let Node::File { content, size, .. } = &huge.node else { panic!("{huge:?}") };
    assert_eq!(*size, 20 << 20);
    assert_eq!(content.level, 1, "{} addresses", content.addresses.len());
    let sizes = &mut report.chunk_sizes.clone();
    assert!(sizes.percentile(0.0) >= 256 || sizes.count() == 1);
    assert!(sizes.percentile(100.0) <= 4096);
    store.get(&report.snapshot, &dir.join("out"), None).unwrap();
    assert_same_tree(&data, &dir.join("out/data"));
}

#[test]
fn snapshots_are_listed_and_found_by_prefix() {
    let dir = test_dir("snapshots_by_prefix");
    fs::create_dir_all(dir.join("data")).unwrap();
    fs::write(dir.join("data/f"), b"one").unwrap();
    let mut store = create(&dir.join("store"), SMALL_CHUNKS);
    let first = put(&mut store, &[dir.join("data/f")]);
    fs::write(dir.join("data/f"), b"two").unwrap();
    let second = put(&mut store, &[dir.join("data/f")]);
    let mut all = store.snapshots().unwrap();
    all.sort();
    let mut expected = vec![first.snapshot, second.snapshot];
    expected.sort();
    assert_eq!(all, expected);
    assert_eq!(store.resolve(&first.snapshot.to_hex()[..12]).unwrap(), first.snapshot);
    assert_eq!(store.resolve(&second.snapshot.to_hex().to_uppercase()).unwrap(), second.snapshot);
}
