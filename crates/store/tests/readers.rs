//! Readers never write and never see false damage (issue 30): a reader
//! opened before a put sees the store as it was when it opened, and a
//! reader of a store an interrupted writer left behind repairs nothing and
//! still reaches everything. (Readers beside a real writer process are in
//! the CLI's tests/store.rs.)

mod common;

use chunkhash_store::{OpenOptions, Store};
use common::*;
use std::fs;
use std::path::PathBuf;
use vectors::listing::listing;
use vectors::{test_seed, TestRng};

/// A reader opened, then a put seals packs, writes its index file and its
/// snapshot: the reader's `verify` checks what it opened (its snapshots,
/// its packs) and reports the new packs as a note, not as damage.
#[test]
fn a_reader_verifies_the_store_as_it_opened_it() {
    let mut rng = TestRng::new(test_seed("reader_view", 0x5eed_7001));
    let dir = test_dir("reader_view");
    let store_dir = dir.join("store");
    let mut writer = create(&store_dir, SMALL_CHUNKS);
    let mut pool = Vec::new();
    random_tree(&mut rng, &dir.join("v1"), 2, 30_000, &mut pool);
    let first = put(&mut writer, &[dir.join("v1")]).snapshot;

    let reader = Store::open(&store_dir, OpenOptions::default()).unwrap();
    random_tree(&mut rng, &dir.join("v2"), 2, 60_000, &mut pool);
    fs::write(dir.join("v2/big"), rng.bytes(300_000)).unwrap();
    let second = put(&mut writer, &[dir.join("v2")]).snapshot;
    assert!(writer.snapshots().unwrap().contains(&second));

    assert_eq!(reader.snapshots().unwrap(), vec![first]);
    let report = reader.verify(None).unwrap();
    assert!(report.damage.is_empty(), "{:?}", report.damage);
    assert!(report.notes.iter().any(|n| n.contains("after the store was opened")), "{:?}", report.notes);
    reader.get(&first, &dir.join("out"), None).unwrap();
    assert_same_tree(&dir.join("v1"), &dir.join("out/v1"));
    // Opened again, it sees the second snapshot.
    let again = Store::open(&store_dir, OpenOptions::default()).unwrap();
    assert_eq!(again.snapshots().unwrap().len(), 2);
    assert!(again.verify(None).unwrap().damage.is_empty());
}

/// What an interrupted writer leaves (a torn open pack, a pack sealed but
/// not indexed, a temporary file) with no writer holding the lock: a
/// reader changes nothing (no recovery, no lock file), ignores the open
/// pack, scans the unindexed pack in memory, and reaches every snapshot.
#[test]
fn a_reader_of_an_interrupted_put_writes_nothing_and_reaches_everything() {
    let mut rng = TestRng::new(test_seed("reader_interrupted", 0x5eed_7002));
    let dir = test_dir("reader_interrupted");
    let store_dir = dir.join("store");
    let mut writer = create(&store_dir, SMALL_CHUNKS);
    let mut pool = Vec::new();
    random_tree(&mut rng, &dir.join("v1"), 2, 30_000, &mut pool);
    let first = put(&mut writer, &[dir.join("v1")]).snapshot;
    let index_before: Vec<PathBuf> =
        fs::read_dir(store_dir.join("index")).unwrap().map(|e| e.unwrap().path()).collect();
    random_tree(&mut rng, &dir.join("v2"), 2, 30_000, &mut pool);
    let second = put(&mut writer, &[dir.join("v2")]).snapshot;
    let saved = writer.index().to_sorted_vec();
    drop(writer);
    // The second put's index file gone (its packs sealed, not indexed), a
    // torn open pack and a temporary file beside them; no lock file.
    for file in fs::read_dir(store_dir.join("index")).unwrap() {
        let path = file.unwrap().path();
        if !index_before.contains(&path) {
            fs::remove_file(path).unwrap();
        }
    }
    let pack = fs::read_dir(store_dir.join("packs")).unwrap().next().unwrap().unwrap().path();
    let bytes = fs::read(&pack).unwrap();
    fs::write(store_dir.join("packs/open.pack"), &bytes[..bytes.len() / 2]).unwrap();
    fs::write(store_dir.join("index/.x.idx.tmp-1"), b"half").unwrap();
    let _ = fs::remove_file(store_dir.join("lock"));

    let before = listing(&store_dir);
    let reader = Store::open(&store_dir, OpenOptions::default()).unwrap();
    assert_eq!(reader.index().to_sorted_vec(), saved);
    assert!(reader.notes().iter().any(|n| n.contains("in memory")), "{:?}", reader.notes());
    assert_eq!(reader.snapshots().unwrap().len(), 2);
    let report = reader.verify(None).unwrap();
    assert!(report.damage.is_empty(), "{:?}", report.damage);
    for (i, (snapshot, data)) in [(first, "v1"), (second, "v2")].into_iter().enumerate() {
        let out = dir.join(format!("out-{i}"));
        reader.get(&snapshot, &out, None).unwrap();
        assert_same_tree(&dir.join(data), &out.join(data));
    }
    reader.stats().unwrap();
    reader.ls(&second).unwrap();
    drop(reader);
    assert_eq!(listing(&store_dir), before, "a reader changed the store");

    // The next writer repairs it all.
    let writer = Store::open(&store_dir, OpenOptions { write: true, ..options() }).unwrap();
    assert!(!store_dir.join("packs/open.pack").exists());
    assert!(!store_dir.join("index/.x.idx.tmp-1").exists());
    drop(writer);
    let reader = Store::open(&store_dir, OpenOptions::default()).unwrap();
    assert!(reader.notes().is_empty(), "{:?}", reader.notes());
    assert!(reader.verify(None).unwrap().damage.is_empty());
}
