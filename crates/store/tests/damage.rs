//! Bad input and damage: flipped bits and truncations in packs, missing
//! packs, garbage manifests, unknown snapshots, files changing while read,
//! a second writer, torn records, and the index rebuilt from packs.

mod common;

use chunkhash::Algorithm;
use chunkhash_store::{CreateOptions, Error, OpenOptions, PutOptions, Store};
use common::*;
use std::fs;
use std::io::Write;
use std::num::NonZeroUsize;
use std::path::{Path, PathBuf};
use vectors::{test_seed, TestRng};

/// A store holding one snapshot of a random tree; returns the store's
/// directory, the data and the snapshot.
fn stored_tree(test: &str, seed: u64) -> (PathBuf, PathBuf, chunkhash_store::Address) {
    let mut rng = TestRng::new(test_seed(test, seed));
    let dir = test_dir(test);
    let data = dir.join("data");
    let mut pool = Vec::new();
    random_tree(&mut rng, &data, 2, 30_000, &mut pool);
    fs::write(data.join("big"), rng.bytes(200_000)).unwrap();
    let mut store = create(&dir.join("store"), SMALL_CHUNKS);
    let snapshot = put(&mut store, std::slice::from_ref(&data)).snapshot;
    (dir, data, snapshot)
}

fn packs(store: &Path) -> Vec<PathBuf> {
    let mut packs: Vec<PathBuf> = fs::read_dir(store.join("packs")).unwrap().map(|e| e.unwrap().path()).collect();
    packs.sort();
    packs
}

/// Every regular file `get` left under `out` has exactly the bytes of the
/// same file under `data`: nothing damaged was returned as data.
fn assert_nothing_corrupt_restored(data: &Path, out: &Path) {
    let Ok(entries) = fs::read_dir(out) else { return };
    for entry in entries {
        let entry = entry.unwrap();
        let (restored, original) = (entry.path(), data.join(entry.file_name()));
        let kind = entry.file_type().unwrap();
        if kind.is_dir() {
            assert_nothing_corrupt_restored(&original, &restored);
        } else if kind.is_file() {
            assert!(fs::read(&original).unwrap() == fs::read(&restored).unwrap(), "{} differs", restored.display());
        }
    }
}

fn reopen(store: &Path) -> Store {
    Store::open(store, OpenOptions::default()).unwrap()
}

#[test]
fn bit_flips_anywhere_in_a_pack_are_found_by_verify_and_get() {
    let (dir, data, snapshot) = stored_tree("bit_flips", 0x5eed_0101);
    let store_dir = dir.join("store");
    let mut rng = TestRng::new(0x5eed_0102);
    let packs = packs(&store_dir);
    assert!(packs.len() > 2, "{} packs", packs.len());
    for round in 0..24 {
        let pack = &packs[rng.range(0..=packs.len() - 1)];
        let original = fs::read(pack).unwrap();
        let offset = rng.range(0..=original.len() - 1);
        let mut damaged = original.clone();
        damaged[offset] ^= 1 << rng.range(0..=7);
        fs::write(pack, &damaged).unwrap();

        let store = reopen(&store_dir);
        let report = store.verify(None).unwrap();
        assert!(!report.damage.is_empty(), "round {round}: flip at {offset} of {} not found", pack.display());
        let named = report.damage.iter().any(|d| d.what.contains(&*pack.file_name().unwrap().to_string_lossy()));
        assert!(named, "round {round}: {:?}", report.damage);
        // A flipped data chunk is named with its files.
        if let Some(damage) = report.damage.iter().find(|d| d.address.is_some() && !d.files.is_empty()) {
            assert!(damage.files.iter().all(|f| f.contains(':')), "{damage:?}");
        }
        let out = dir.join(format!("out-{round}"));
        match store.get(&snapshot, &out, None) {
            // Only a flip outside every record (the pack header) leaves every
            // chunk readable; then the tree must be exactly right.
            Ok(_) => {
                assert!(offset < 16, "round {round}: flip at {offset} not caught by get");
                assert_same_tree(&data, &out.join("data"));
            }
            Err(error) => {
                assert!(error.is_damage(), "round {round}: {error}");
                assert_nothing_corrupt_restored(&data, &out.join("data"));
            }
        }
        fs::write(pack, &original).unwrap();
    }
    assert!(reopen(&store_dir).verify(None).unwrap().damage.is_empty());
}

#[test]
fn truncated_packs_are_found_by_verify_and_get() {
    let (dir, data, snapshot) = stored_tree("truncations", 0x5eed_0201);
    let store_dir = dir.join("store");
    let mut rng = TestRng::new(0x5eed_0202);
    let packs = packs(&store_dir);
    for round in 0..12 {
        let pack = &packs[rng.range(0..=packs.len() - 1)];
        let original = fs::read(pack).unwrap();
        let cut = rng.range(0..=original.len() - 1);
        fs::write(pack, &original[..cut]).unwrap();
        let store = reopen(&store_dir);
        let report = store.verify(None).unwrap();
        assert!(
            report.damage.iter().any(|d| d.reason.contains("truncated") || d.reason.contains("header")),
            "round {round}: cut at {cut}: {:?}",
            report.damage
        );
        let out = dir.join(format!("out-{round}"));
        let error = store.get(&snapshot, &out, None).unwrap_err();
        assert!(error.is_damage(), "{error}");
        assert_nothing_corrupt_restored(&data, &out.join("data"));
        fs::write(pack, &original).unwrap();
    }
}

#[test]
fn a_missing_pack_names_its_chunks_and_files() {
    let (dir, _, snapshot) = stored_tree("missing_pack", 0x5eed_0301);
    let store_dir = dir.join("store");
    // A pack of file chunks: not the one holding the snapshot's root, or
    // no file could be named.
    let entries = reopen(&store_dir).index().to_sorted_vec();
    let root_pack = entries.iter().find(|entry| entry.0 == snapshot).unwrap().1;
    let hex = |id: &[u8]| id.iter().map(|b| format!("{b:02x}")).collect::<String>();
    let pack = packs(&store_dir).into_iter().find(|p| !p.ends_with(format!("{}.pack", hex(&root_pack)))).unwrap();
    fs::remove_file(&pack).unwrap();
    let store = reopen(&store_dir);
    let report = store.verify(None).unwrap();
    assert!(report.damage.iter().all(|d| d.reason.contains("missing") || d.reason.contains("not in the store")));
    assert!(report.damage.iter().any(|d| !d.files.is_empty()), "{:?}", report.damage);
    let error = store.get(&snapshot, &dir.join("out"), None).unwrap_err();
    assert!(error.to_string().contains("missing"), "{error}");
}

#[test]
fn bad_manifests_and_wrong_algorithms_are_typed_errors() {
    let dir = test_dir("bad_manifests");
    let store_dir = dir.join("store");
    drop(create(&store_dir, SMALL_CHUNKS));
    let manifest = store_dir.join("manifest");
    let good = fs::read_to_string(&manifest).unwrap();

    let expect_sha = OpenOptions { expect: Some(Algorithm::Sha256), ..OpenOptions::default() };
    let error = Store::open(&store_dir, expect_sha).unwrap_err();
    assert!(matches!(error, Error::UnexpectedAlgorithm { expected: Algorithm::Sha256, found: Algorithm::Blake3_160 }));
    assert!(error.to_string().contains("BLAKE3-160"), "{error}");

    fs::write(&manifest, good.replace("format-version: 1", "format-version: 2")).unwrap();
    let error = Store::open(&store_dir, OpenOptions::default()).unwrap_err();
    assert!(matches!(error, Error::UnknownFormatVersion { found: 2, .. }), "{error}");

    for garbage in [&b"\x00\x01garbage"[..], b"", &good.as_bytes()[..50]] {
        fs::write(&manifest, garbage).unwrap();
        let error = Store::open(&store_dir, OpenOptions::default()).unwrap_err();
        assert!(matches!(error, Error::BadManifest { .. }), "{error}");
        assert!(error.to_string().contains("manifest"), "{error}");
    }
    fs::remove_file(&manifest).unwrap();
    assert!(matches!(Store::open(&store_dir, OpenOptions::default()), Err(Error::NotAStore(_))));

    // Creation refuses non-empty directories and non-address algorithms.
    fs::write(&manifest, good).unwrap();
    let error = Store::create(&store_dir, CreateOptions::default(), options()).unwrap_err();
    assert!(matches!(error, Error::AlreadyExists(_)), "{error}");
    let crc = CreateOptions { address: Algorithm::Crc32c, ..CreateOptions::default() };
    assert!(matches!(Store::create(&dir.join("new"), crc, options()), Err(Error::UnsupportedAlgorithm { .. })));
}

#[test]
fn unknown_snapshots_and_destinations_in_use_are_refused() {
    let (dir, _, snapshot) = stored_tree("unknown_snapshot", 0x5eed_0401);
    let store = reopen(&dir.join("store"));
    assert!(matches!(store.resolve("deadbeef"), Err(Error::SnapshotNotFound(_))));
    assert!(matches!(store.resolve("xyz!"), Err(Error::BadAddress(_))));
    assert!(matches!(store.resolve("ab"), Err(Error::BadAddress(_))));
    let absent = chunkhash_store::Address::from_slice(&[7; 20]).unwrap();
    assert!(store.get(&absent, &dir.join("out"), None).is_err());
    fs::create_dir_all(dir.join("busy")).unwrap();
    fs::write(dir.join("busy/file"), b"x").unwrap();
    assert!(matches!(store.get(&snapshot, &dir.join("busy"), None), Err(Error::DestinationExists(_))));
    assert!(matches!(store.get(&snapshot, &dir.join("busy/file"), None), Err(Error::DestinationExists(_))));
}

#[test]
fn a_file_changing_while_read_fails_the_put_and_loses_nothing() {
    let (dir, data, snapshot) = stored_tree("file_changes", 0x5eed_0501);
    let store_dir = dir.join("store");
    let mut store = Store::open(&store_dir, OpenOptions { write: true, ..options() }).unwrap();
    let target = data.join("big");
    let grow = |path: &Path| {
        if path == target {
            fs::OpenOptions::new().append(true).open(path).unwrap().write_all(b"more").unwrap();
        }
    };
    let error = store
        .put(std::slice::from_ref(&data), PutOptions { after_read: Some(&grow), ..PutOptions::default() })
        .unwrap_err();
    assert!(matches!(&error, Error::FileChanged { path, .. } if *path == target), "{error}");
    assert!(error.to_string().contains("changed while it was read"), "{error}");
    assert_eq!(store.snapshots().unwrap(), vec![snapshot]);
    drop(store);
    let store = reopen(&store_dir);
    assert!(store.verify(None).unwrap().damage.is_empty());
    assert!(store.notes().is_empty(), "{:?}", store.notes());
    store.get(&snapshot, &dir.join("out"), None).unwrap();
}

/// `put` after its walk finds `b` swapped by `swap` (called once `a`, the
/// file before it, is read): the put completes without `b`, says `why` in
/// `skipped`, and the snapshot restores `a` alone.
fn put_with_b_swapped(test: &str, why: &str, swap: impl Fn(&Path) + Sync) {
    let dir = test_dir(test);
    let data = dir.join("data");
    fs::create_dir_all(&data).unwrap();
    fs::write(data.join("a"), b"first").unwrap();
    fs::write(data.join("b"), b"second").unwrap();
    fs::write(dir.join("secret"), b"not to be stored").unwrap();
    let mut store = create(&dir.join("store"), SMALL_CHUNKS);
    let a = data.join("a");
    let hook = |path: &Path| {
        if path == a {
            swap(&path.with_file_name("b"));
        }
    };
    // One thread: with more, another could open `b` before `a` is read.
    let one = NonZeroUsize::new(1);
    let report = store
        .put(std::slice::from_ref(&data), PutOptions { after_read: Some(&hook), threads: one, ..PutOptions::default() })
        .unwrap();
    assert_eq!((report.files, report.bytes), (1, 5), "{report:?}");
    let out = dir.join("out");
    store.get(&report.snapshot, &out, None).unwrap();
    let names: Vec<_> = fs::read_dir(out.join("data")).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(names, ["a"]);
    assert!(store.verify(None).unwrap().damage.is_empty());
    assert_eq!(report.skipped.len(), 1, "{:?}", report.skipped);
    assert!(report.skipped[0].ends_with(&format!("b: skipped: {why}")), "{:?}", report.skipped);
}

#[test]
fn a_file_swapped_for_a_symlink_after_the_walk_is_skipped_not_followed() {
    put_with_b_swapped("swapped_symlink", "replaced by a symbolic link after the walk; not followed", |b| {
        fs::remove_file(b).unwrap();
        std::os::unix::fs::symlink("../secret", b).unwrap();
    });
}

#[test]
fn a_file_swapped_for_a_fifo_after_the_walk_is_skipped_without_blocking() {
    // Nothing ever opens the FIFO for writing: a blocking open would hang.
    put_with_b_swapped("swapped_fifo", "replaced by a FIFO, socket or device after the walk; not read", |b| {
        fs::remove_file(b).unwrap();
        // mkfifo(3) in this process, not the mkfifo command: a child process
        // holds copies of this process's open files until it execs, the
        // writer locks of the stores other tests hold among them, so a
        // spawn here could make another test's open find its store locked.
        let path = std::ffi::CString::new(b.as_os_str().as_encoded_bytes()).unwrap();
        // SAFETY: `path` is a NUL-terminated string that lives across the call.
        let status = unsafe { libc::mkfifo(path.as_ptr(), 0o644) };
        assert_eq!(status, 0, "mkfifo failed: {}", std::io::Error::last_os_error());
    });
}

#[test]
fn a_file_swapped_for_another_file_after_the_walk_is_skipped() {
    put_with_b_swapped("swapped_file", "replaced by another file after the walk", |b| {
        let other = b.with_file_name("other");
        fs::write(&other, b"other bytes").unwrap();
        fs::rename(&other, b).unwrap();
    });
}

#[test]
fn trees_deeper_than_get_follows_are_refused_by_put() {
    let dir = test_dir("put_too_deep");
    let data = dir.join("data");
    let mut deepest = data.clone();
    for _ in 0..chunkhash_store::MAX_TREE_DEPTH {
        deepest.push("d");
    }
    fs::create_dir_all(&deepest).unwrap();
    let mut store = create(&dir.join("store"), SMALL_CHUNKS);
    // data and 1024 levels of d below it: the deepest "d" is 1025 levels down.
    let error = store.put(std::slice::from_ref(&data), PutOptions::default()).unwrap_err().to_string();
    assert!(error.contains("directories nest deeper than 1024 levels"), "{error}");
    // One level less is stored and restored.
    let report = put(&mut store, std::slice::from_ref(&data.join("d")));
    store.get(&report.snapshot, &dir.join("out"), None).unwrap();
    assert!(dir.join("out").join(deepest.strip_prefix(&data).unwrap()).is_dir());
}

#[test]
fn one_writer_at_a_time_and_readers_alongside() {
    let (dir, _, snapshot) = stored_tree("one_writer", 0x5eed_0601);
    let store_dir = dir.join("store");
    let writer = Store::open(&store_dir, OpenOptions { write: true, ..options() }).unwrap();
    let error = Store::open(&store_dir, OpenOptions { write: true, ..options() }).unwrap_err();
    assert!(matches!(error, Error::Locked { .. }), "{error}");
    assert!(error.to_string().contains(&format!("pid {}", std::process::id())), "{error}");
    let reader = reopen(&store_dir);
    reader.get(&snapshot, &dir.join("out"), None).unwrap();
    drop(writer);
    drop(Store::open(&store_dir, OpenOptions { write: true, ..options() }).unwrap());
}

#[test]
fn the_index_rebuilt_from_the_packs_equals_the_saved_one() {
    let mut rng = TestRng::new(test_seed("reindex", 0x5eed_0701));
    let dir = test_dir("reindex");
    let mut store = create(&dir.join("store"), SMALL_CHUNKS);
    let mut pool = Vec::new();
    for round in 0..3 {
        random_tree(&mut rng, &dir.join(format!("data{round}")), 2, 30_000, &mut pool);
        put(&mut store, &[dir.join(format!("data{round}"))]);
    }
    let saved = store.index().to_sorted_vec();
    assert!(saved.len() > 100);
    drop(store);
    let index_files = || fs::read_dir(dir.join("store/index")).unwrap().count();
    assert_eq!(index_files(), 3);
    let (store, problems) = Store::reindex(&dir.join("store"), options()).unwrap();
    assert!(problems.is_empty(), "{problems:?}");
    assert_eq!(store.index().to_sorted_vec(), saved);
    assert_eq!(index_files(), 1);
    drop(store);
    assert_eq!(reopen(&dir.join("store")).index().to_sorted_vec(), saved);

    // A damaged index file: readers scan its packs instead, and verify
    // names it with a pointer to reindex, which rebuilds it from the packs
    // alone (more in tests/salvage.rs).
    let index = fs::read_dir(dir.join("store/index")).unwrap().next().unwrap().unwrap().path();
    let mut bytes = fs::read(&index).unwrap();
    bytes[100] ^= 4;
    fs::write(&index, bytes).unwrap();
    let reader = Store::open(&dir.join("store"), OpenOptions::default()).unwrap();
    assert_eq!(reader.index().to_sorted_vec(), saved);
    let damage = reader.verify(None).unwrap().damage;
    assert!(damage.len() == 1 && damage[0].reason.contains("reindex"), "{damage:?}");
    fs::remove_file(&index).unwrap();
    let (store, _) = Store::reindex(&dir.join("store"), options()).unwrap();
    assert_eq!(store.index().to_sorted_vec(), saved);
    assert!(store.verify(None).unwrap().damage.is_empty());
}

#[test]
fn a_torn_record_at_the_end_of_the_open_pack_is_cut_off_on_open() {
    let (dir, data, snapshot) = stored_tree("torn_record", 0x5eed_0801);
    let store_dir = dir.join("store");
    let mut rng = TestRng::new(0x5eed_0802);
    for round in 0..8 {
        // What a crash mid-put leaves: a pack that stops inside a record.
        let packs = packs(&store_dir);
        let pack = fs::read(&packs[rng.range(0..=packs.len() - 1)]).unwrap();
        let cut = rng.range(17..=pack.len() - 1);
        fs::write(store_dir.join("packs/open.pack"), &pack[..cut]).unwrap();
        let store = Store::open(&store_dir, OpenOptions { write: true, ..options() }).unwrap();
        assert!(!store_dir.join("packs/open.pack").exists(), "round {round}");
        let notes = store.notes().join("\n");
        assert!(notes.contains("open.pack"), "round {round}: {notes}");
        drop(store);
        let store = reopen(&store_dir);
        let damage = store.verify(None).unwrap().damage;
        assert!(damage.is_empty(), "round {round}: {damage:?}");
        store.get(&snapshot, &dir.join(format!("out-{round}")), None).unwrap();
        assert_same_tree(&data, &dir.join(format!("out-{round}/data")));
    }
}
