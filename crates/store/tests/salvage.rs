//! Salvage (issue 30): damage to a record, an index file or the open pack
//! costs the damaged records only. `reindex` resynchronises after a bad
//! record and keeps every sound one reachable; readers reach everything
//! through a damaged or missing index file; and readers never write.

mod common;

use chunkhash_store::object::Node;
use chunkhash_store::{Address, CreateOptions, OpenOptions, Store};
use common::*;
use std::collections::{BTreeMap, HashSet};
use std::fs;
use std::path::{Path, PathBuf};
use vectors::listing::listing;
use vectors::{test_seed, TestRng};

/// One pack, as a put with the default pack size makes it.
fn one_pack_options() -> OpenOptions {
    OpenOptions { fsync: false, ..OpenOptions::default() }
}

fn the_pack(store: &Path) -> PathBuf {
    let packs: Vec<PathBuf> = fs::read_dir(store.join("packs")).unwrap().map(|e| e.unwrap().path()).collect();
    assert_eq!(packs.len(), 1, "{packs:?}");
    packs[0].clone()
}

type Entry = (Address, [u8; 20], u64, u32);

/// The entries of `saved` whose records do not overlap `damaged` bytes.
fn untouched(saved: &[Entry], damaged: std::ops::Range<u64>) -> Vec<Entry> {
    saved.iter().filter(|e| e.2 + u64::from(e.3) <= damaged.start || e.2 >= damaged.end).copied().collect()
}

/// The file names of a snapshot's top directory `dir`, with their chunks.
fn files_and_chunks(store: &Store, snapshot: &Address) -> BTreeMap<String, Vec<Address>> {
    let mut files = BTreeMap::new();
    for listed in store.ls(snapshot).unwrap() {
        if let Node::File { content, .. } = &listed.node {
            assert_eq!(content.level, 0, "small files list their chunks themselves");
            files.insert(String::from_utf8(listed.path.clone()).unwrap(), content.addresses.clone());
        }
    }
    files
}

/// Issue 30's reproduction: 40 files of 100 KB in one pack, one byte of one
/// file's record flipped, `reindex`, `get`: 39 files restore byte for byte
/// and the damaged one is named (before the salvaging scan: 0 of 40, every
/// record after the damaged one was dropped from the index).
#[test]
fn reindex_after_one_flipped_byte_keeps_every_other_record() {
    let seed = test_seed("salvage_40_files", 0x5a1_0001);
    println!("seed {seed:#x}");
    let mut rng = TestRng::new(seed);
    let dir = test_dir("salvage_40_files");
    let data = dir.join("data");
    fs::create_dir_all(&data).unwrap();
    for i in 0..40 {
        fs::write(data.join(format!("file-{i:02}")), rng.bytes(100_000)).unwrap();
    }
    let store_dir = dir.join("store");
    let mut store = Store::create(&store_dir, CreateOptions::default(), one_pack_options()).unwrap();
    let snapshot = put(&mut store, std::slice::from_ref(&data)).snapshot;
    let saved = store.index().to_sorted_vec();
    let files = files_and_chunks(&store, &snapshot);
    drop(store);
    let pack = the_pack(&store_dir);

    // One byte inside the payload of one chunk of one file, in the middle of the pack.
    let victim = "data/file-17";
    let chunk = files[victim][0];
    let entry = *saved.iter().find(|e| e.0 == chunk).unwrap();
    assert!(saved.iter().filter(|e| e.2 > entry.2).count() > 20, "the damaged record is not in the middle");
    let mut bytes = fs::read(&pack).unwrap();
    let flip = entry.2 as usize + entry.3 as usize / 2;
    bytes[flip] ^= 0x04;
    fs::write(&pack, &bytes).unwrap();

    let (store, problems) = Store::reindex(&store_dir, one_pack_options()).unwrap();
    // The damaged stretch, and the index entry of the chunk it held, dropped.
    assert_eq!(problems.len(), 2, "{problems:?}");
    assert!(problems[0].contains(&format!("bytes {}..{}", entry.2, entry.2 + u64::from(entry.3))), "{problems:?}");
    assert!(problems[1].contains(&format!("dropped the index entry of {chunk}")), "{problems:?}");
    let after = store.index().to_sorted_vec();
    let reachable = saved.iter().filter(|e| after.contains(e)).count();
    println!("salvage: {reachable} of {} records reachable after reindex (1 damaged)", saved.len());
    assert_eq!(after, untouched(&saved, entry.2..entry.2 + u64::from(entry.3)));
    assert_eq!(reachable, saved.len() - 1);
    drop(store);

    let reader = Store::open(&store_dir, OpenOptions::default()).unwrap();
    let out = dir.join("out");
    let error = reader.get(&snapshot, &out, None).unwrap_err();
    assert!(error.is_damage() && error.to_string().contains(victim), "{error}");
    let mut restored = 0;
    for name in files.keys() {
        let path = out.join(name);
        if name == victim {
            assert!(!path.exists(), "a damaged file was left behind");
        } else {
            assert!(fs::read(&path).unwrap() == fs::read(dir.join(name)).unwrap(), "{name} differs");
            restored += 1;
        }
    }
    println!("restored {restored} of {} files", files.len());
    assert_eq!(restored, 39);
    // verify: the damaged stretch and the chunk it held, nothing else.
    let damage = reader.verify(None).unwrap().damage;
    assert!(
        damage.iter().all(|d| d.what.contains(&*chunk.to_hex()) || d.reason.contains("no sound record")),
        "{damage:?}"
    );
    assert!(damage.iter().any(|d| d.files.iter().any(|f| f.ends_with(victim))), "{damage:?}");
}

/// A store of many small records in one pack, and its index.
fn small_record_store(dir: &Path, seed: u64) -> (PathBuf, Vec<Entry>, Address) {
    let mut rng = TestRng::new(seed);
    let data = dir.join("data");
    fs::create_dir_all(&data).unwrap();
    for i in 0..12 {
        fs::write(data.join(format!("file-{i}")), rng.bytes(6_000)).unwrap();
    }
    let store_dir = dir.join("store");
    let create = CreateOptions { chunker: SMALL_CHUNKS, ..CreateOptions::default() };
    let mut store = Store::create(&store_dir, create, one_pack_options()).unwrap();
    let snapshot = put(&mut store, &[data]).snapshot;
    let saved = store.index().to_sorted_vec();
    assert!(saved.len() > 60, "{} records", saved.len());
    (store_dir, saved, snapshot)
}

/// Records sorted by offset.
fn by_offset(saved: &[Entry]) -> Vec<Entry> {
    let mut records = saved.to_vec();
    records.sort_by_key(|e| e.2);
    records
}

#[test]
fn reindex_resynchronises_after_each_kind_of_damage() {
    let seed = test_seed("salvage_kinds", 0x5a1_0002);
    println!("seed {seed:#x}");
    let dir = test_dir("salvage_kinds");
    let (store_dir, saved, _) = small_record_store(&dir, seed);
    let pack = the_pack(&store_dir);
    let original = fs::read(&pack).unwrap();
    let records = by_offset(&saved);
    let (first, last, middle) = (records[0], records[records.len() - 1], records[records.len() / 2]);
    let end = |e: Entry| e.2 + u64::from(e.3);
    let zeros = records[10].2 + 7..records[14].2 + 9;
    // (what, how the bytes change, the stretch whose records are lost)
    type Damage = Box<dyn Fn(&mut Vec<u8>)>;
    let at = |offset: u64| offset as usize;
    let cases: Vec<(&str, Damage, std::ops::Range<u64>)> = vec![
        ("a payload byte of the first record", Box::new(move |b| b[at(first.2) + 30] ^= 1), first.2..end(first)),
        ("the trailer of the last record", Box::new(move |b| b[at(end(last)) - 2] ^= 0x80), last.2..end(last)),
        ("the magic byte of a record", Box::new(move |b| b[at(middle.2)] = 0), middle.2..end(middle)),
        (
            "the length field: one more",
            Box::new(move |b| b[at(middle.2) + 1] = b[at(middle.2) + 1].wrapping_add(1)),
            middle.2..end(middle),
        ),
        (
            "the length field: one less",
            Box::new(move |b| b[at(middle.2) + 1] = b[at(middle.2) + 1].wrapping_sub(1)),
            middle.2..end(middle),
        ),
        ("the length field: huge", Box::new(move |b| b[at(middle.2) + 4] = 0x7f), middle.2..end(middle)),
        (
            "a run of zeros over several records",
            Box::new(move |b| b[at(zeros.start)..at(zeros.end)].fill(0)),
            zeros.clone(),
        ),
        (
            "the pack cut in the middle of a record",
            Box::new(move |b| b.truncate(at(middle.2) + 11)),
            middle.2..u64::MAX,
        ),
        ("the pack header", Box::new(|b| b[3] ^= 0xff), 0..0),
    ];
    for (what, damage, lost) in cases {
        let mut bytes = original.clone();
        damage(&mut bytes);
        fs::write(&pack, &bytes).unwrap();
        let (store, problems) = Store::reindex(&store_dir, one_pack_options()).unwrap();
        assert!(!problems.is_empty(), "{what}: no problem reported");
        let expected = untouched(&saved, lost.clone());
        assert!(expected.len() < saved.len() || lost.is_empty(), "{what}: the case damages no record");
        let after = store.index().to_sorted_vec();
        assert_eq!(after.len(), expected.len(), "{what}: {problems:?}");
        assert_eq!(after, expected, "{what}");
        println!("{what}: {} of {} records kept; {}", after.len(), saved.len(), problems[0]);
        drop(store);
        fs::write(&pack, &original).unwrap();
    }
    let (store, problems) = Store::reindex(&store_dir, one_pack_options()).unwrap();
    assert!(problems.is_empty(), "{problems:?}");
    assert_eq!(store.index().to_sorted_vec(), saved);
}

/// A record whose bytes were copied (trailer and all) to where another
/// record was: the scan refuses the copy (its trailer's context is the
/// wrong offset) and finds the original, the damaged record is dropped.
/// (The old-index entry it leaves is the scan's own; the "keep" branch of
/// reindex is reached by the forged-record test below.)
#[test]
fn reindex_keeps_what_the_old_index_reaches_and_drops_what_is_damaged() {
    let dir = test_dir("salvage_old_index");
    let (store_dir, saved, snapshot) = small_record_store(&dir, test_seed("salvage_old_index", 0x5a1_0003));
    let pack = the_pack(&store_dir);
    let records = by_offset(&saved);
    let (a, b) = (records[20], records[30]);
    let mut bytes = fs::read(&pack).unwrap();
    // Record a's bytes written over the start of record b: b is damaged,
    // and a's copy there fails its trailer (the offset is its context).
    let copy = bytes[a.2 as usize..(a.2 + u64::from(a.3)) as usize].to_vec();
    let at = b.2 as usize;
    let n = copy.len().min(b.3 as usize);
    bytes[at..at + n].copy_from_slice(&copy[..n]);
    fs::write(&pack, &bytes).unwrap();
    let (store, problems) = Store::reindex(&store_dir, one_pack_options()).unwrap();
    let after = store.index().to_sorted_vec();
    assert!(after.contains(&a), "a sound record was dropped");
    assert!(!after.iter().any(|e| e.0 == b.0), "a damaged record is still indexed");
    assert!(problems.iter().any(|p| p.contains(&format!("bytes {}..", b.2))), "{problems:?}");
    drop(store);
    // Every file without b's chunk restores.
    let reader = Store::open(&store_dir, OpenOptions::default()).unwrap();
    let files = files_and_chunks(&reader, &snapshot);
    let error = reader.get(&snapshot, &dir.join("out"), None).unwrap_err();
    for (name, chunks) in &files {
        let restored = dir.join("out").join(name);
        if chunks.contains(&b.0) {
            assert!(error.to_string().contains(name.as_str()), "{name}: {error}");
            assert!(!restored.exists());
        } else {
            assert!(fs::read(&restored).unwrap() == fs::read(dir.join(name)).unwrap(), "{name}");
        }
    }
}

/// The other way the scan misses a sound record: a forged record F, sound
/// itself (its trailer checks at its offset, its payload hashes to its
/// address), written over record w and covering the record x after it, its
/// trailer over the start of the record y after x. The scan reads F and
/// never sees x; the old index still points at x, whose bytes are intact:
/// reindex keeps it (the "keep" branch: with it dropping instead, this test
/// fails), and drops w and y, which are damaged.
#[test]
fn reindex_keeps_a_sound_record_that_a_forged_record_hides_from_the_scan() {
    let dir = test_dir("salvage_hidden_record");
    let (store_dir, saved, _) = small_record_store(&dir, test_seed("salvage_hidden_record", 0x5a1_0007));
    let pack = the_pack(&store_dir);
    let records = by_offset(&saved);
    let (w, x, y) = (records[20], records[21], records[22]);
    assert_eq!(w.2 + u64::from(w.3), x.2, "w and x are not adjacent");
    assert_eq!(x.2 + u64::from(x.3), y.2, "x and y are not adjacent");
    let mut bytes = fs::read(&pack).unwrap();
    // F: magic, payload length, address, payload (the rest of w, then x),
    // trailer sealed with F's offset as its context.
    let header = 5 + 20;
    let payload = bytes[(w.2 as usize + header)..y.2 as usize].to_vec();
    let address = chunkhash::digest(chunkhash::Algorithm::Blake3_160, &payload);
    let mut forged = vec![0xC5];
    forged.extend_from_slice(&(payload.len() as u32).to_le_bytes());
    forged.extend_from_slice(address.as_bytes());
    forged.extend_from_slice(&payload);
    let trailer = chunkhash::trailer::seal(&forged, chunkhash::Algorithm::Crc32c, w.2);
    forged.extend_from_slice(trailer.as_bytes());
    assert!(forged.len() < (w.3 + x.3 + y.3) as usize, "F runs past y");
    bytes[w.2 as usize..w.2 as usize + forged.len()].copy_from_slice(&forged);
    fs::write(&pack, &bytes).unwrap();

    let (store, problems) = Store::reindex(&store_dir, one_pack_options()).unwrap();
    let after = store.index().to_sorted_vec();
    assert!(after.iter().any(|e| e.2 == w.2 && e.3 as usize == forged.len()), "the scan did not read F: {problems:?}");
    assert!(after.contains(&x), "x, sound but hidden from the scan by F, was dropped: {problems:?}");
    for damaged in [w, y] {
        assert!(!after.iter().any(|e| e.0 == damaged.0), "a damaged record is still indexed");
        assert!(problems.iter().any(|p| p.contains(&format!("{}", damaged.0))), "{problems:?}");
    }
    // The entries the scan could not vouch for were checked again: x reads.
    assert_eq!(after.iter().filter(|e| e.0 == x.0).count(), 1);
}

/// A damaged index file, and a deleted one: readers reach every chunk by
/// scanning the packs it listed (in memory, writing nothing), `verify`
/// names the damaged file, and `reindex` restores the index exactly.
#[test]
fn a_damaged_or_missing_index_file_loses_nothing() {
    for (label, harm) in [("damaged", true), ("deleted", false)] {
        let mut rng = TestRng::new(test_seed("salvage_index_file", 0x5a1_0004));
        let dir = test_dir(&format!("salvage_index_file_{label}"));
        let store_dir = dir.join("store");
        let mut store = create(&store_dir, SMALL_CHUNKS);
        let mut pool = Vec::new();
        let mut snapshots = Vec::new();
        for round in 0..3 {
            let data = dir.join(format!("data{round}"));
            random_tree(&mut rng, &data, 2, 30_000, &mut pool);
            snapshots.push((put(&mut store, std::slice::from_ref(&data)).snapshot, data));
        }
        let saved = store.index().to_sorted_vec();
        drop(store);
        let index_files = || -> Vec<PathBuf> {
            let mut files: Vec<PathBuf> =
                fs::read_dir(store_dir.join("index")).unwrap().map(|e| e.unwrap().path()).collect();
            files.sort();
            files
        };
        assert_eq!(index_files().len(), 3);
        let restore_all = |round: &str| {
            let reader = Store::open(&store_dir, OpenOptions::default()).unwrap();
            assert_eq!(reader.index().to_sorted_vec(), saved, "{label} {round}: a reader does not reach every record");
            for (i, (snapshot, data)) in snapshots.iter().enumerate() {
                let out = dir.join(format!("out-{round}-{i}"));
                reader.get(snapshot, &out, None).unwrap_or_else(|e| panic!("{label} {round}: {e}"));
                assert_same_tree(data, &out.join(data.file_name().unwrap()));
            }
            reader
        };

        let victim = index_files()[1].clone();
        if harm {
            let mut bytes = fs::read(&victim).unwrap();
            bytes[40] ^= 0x20;
            fs::write(&victim, bytes).unwrap();
        } else {
            fs::remove_file(&victim).unwrap();
        }
        let before = listing(&store_dir);
        let reader = restore_all("before");
        assert!(reader.notes().iter().any(|n| n.contains("in memory")), "{label}: {:?}", reader.notes());
        let report = reader.verify(None).unwrap();
        if harm {
            assert_eq!(report.damage.len(), 1, "{:?}", report.damage);
            assert!(report.damage[0].what.contains(&*victim.to_string_lossy()), "{:?}", report.damage);
            assert!(report.damage[0].reason.contains("reindex"), "{:?}", report.damage);
        } else {
            assert!(report.damage.is_empty(), "{:?}", report.damage);
        }
        drop(reader);
        assert_eq!(listing(&store_dir), before, "{label}: the reader wrote to the store");

        let (store, problems) = Store::reindex(&store_dir, options()).unwrap();
        assert_eq!(problems.len(), usize::from(harm), "{label}: {problems:?}");
        assert_eq!(store.index().to_sorted_vec(), saved, "{label}");
        assert_eq!(index_files().len(), 1);
        assert!(store.verify(None).unwrap().damage.is_empty());
        drop(store);
        let reader = restore_all("after");
        assert!(reader.notes().is_empty(), "{:?}", reader.notes());
    }
}

/// What a power cut may leave of an unsynced open pack (a page lost in the
/// middle, a torn tail): readers ignore it and write nothing; the next
/// writer seals every sound record, those after the hole too, into a clean
/// pack.
#[test]
fn the_open_pack_keeps_its_sound_records_after_a_hole() {
    let dir = test_dir("salvage_open_pack");
    let (store_dir, saved, _) = small_record_store(&dir, test_seed("salvage_open_pack", 0x5a1_0005));
    let pack = the_pack(&store_dir);
    let records = by_offset(&saved);
    let mut bytes = fs::read(&pack).unwrap();
    let (from, to, cut) = (records[10].2 + 3, records[12].2 + 5, records[50].2 + 7);
    bytes[from as usize..to as usize].fill(0);
    bytes.truncate(cut as usize);
    // Only open.pack holds the records now.
    fs::remove_file(&pack).unwrap();
    for file in fs::read_dir(store_dir.join("index")).unwrap() {
        fs::remove_file(file.unwrap().path()).unwrap();
    }
    fs::write(store_dir.join("packs/open.pack"), &bytes).unwrap();

    let before = listing(&store_dir);
    let reader = Store::open(&store_dir, OpenOptions::default()).unwrap();
    assert!(reader.index().is_empty());
    drop(reader);
    assert_eq!(listing(&store_dir), before, "the reader wrote to the store");

    let store = Store::open(&store_dir, OpenOptions { write: true, ..options() }).unwrap();
    assert!(!store_dir.join("packs/open.pack").exists());
    assert!(store.notes().iter().any(|n| n.contains("into a new pack")), "{:?}", store.notes());
    let kept: HashSet<Address> = store.index().to_sorted_vec().iter().map(|e| e.0).collect();
    let expected: HashSet<Address> =
        untouched(&saved, from..to).iter().filter(|e| e.2 + u64::from(e.3) <= cut).map(|e| e.0).collect();
    assert!(expected.len() > 40, "{}", expected.len());
    assert_eq!(kept, expected);
    drop(store);
    // The new pack is clean: what verify finds is only what the snapshot lacks.
    let report = Store::open(&store_dir, OpenOptions::default()).unwrap().verify(None).unwrap();
    assert!(report.records == expected.len() as u64, "{report:?}");
    assert!(!report.damage.is_empty(), "the chunks lost with the hole are not reported");
    assert!(report.damage.iter().all(|d| d.reason.contains("not in the store")), "{:?}", report.damage);
}

/// A pack no index file lists and with no sound record (here: a header and
/// zeros) has nothing in the index to check it by: `verify` reports the
/// damage the scan at open found, instead of passing it with a note.
#[test]
fn verify_reports_an_unindexed_pack_without_sound_records() {
    let dir = test_dir("salvage_orphan_damage");
    let (store_dir, _, _) = small_record_store(&dir, test_seed("salvage_orphan_damage", 0x5a1_0008));
    let header = fs::read(the_pack(&store_dir)).unwrap()[..16].to_vec();
    let mut bytes = header;
    bytes.resize(1016, 0);
    let name = format!("{}.pack", "ab".repeat(20));
    fs::write(store_dir.join("packs").join(&name), &bytes).unwrap();
    // A reader, a writer (which indexes what it scanned), a reader again.
    for write in [false, true, false] {
        let store = Store::open(&store_dir, OpenOptions { write, ..one_pack_options() }).unwrap();
        let report = store.verify(None).unwrap();
        assert!(
            report.damage.iter().any(|d| d.what.contains(&name) && d.what.contains("bytes 16..1016")),
            "write {write}: {report:?}"
        );
        assert!(!report.notes.iter().any(|n| n.contains("sealed by a running writer")), "{:?}", report.notes);
    }
}
