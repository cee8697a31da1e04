//! Recorded BLAKE3 roots and verified ranged reads (`get --range`, issue
//! 33 item 5): roots equal `blake3::hash`, every range gives the file's
//! bytes, damage inside a range fails it and damage outside does not, and
//! a ranged read of a large file fetches only what the range needs.

mod common;

use chunkhash::blake3;
use chunkhash_store::location::{Counting, Directory};
use chunkhash_store::object::{Content, Node};
use chunkhash_store::{Address, CreateOptions, Error, PutOptions, Store, GROUP_LOG};
use common::{options, test_dir, SMALL_CHUNKS};
use std::fs;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;
use vectors::{test_seed, TestRng};

const GROUP: u64 = 1024 << GROUP_LOG;

fn put_roots(store: &mut Store, inputs: &[PathBuf]) -> Address {
    store.put(inputs, PutOptions { roots: true, ..PutOptions::default() }).unwrap().snapshot
}

fn read(store: &Store, snapshot: &Address, path: &str, range: Range<u64>) -> Result<Vec<u8>, Error> {
    let mut out = Vec::new();
    let report = store.read_range(snapshot, path.as_bytes(), range, &mut out)?;
    assert_eq!(out.len() as u64, report.range.end - report.range.start);
    Ok(out)
}

/// Files of edge lengths (empty, around a group, many groups) in small
/// chunks, so groups and chunks cross each other everywhere.
fn stored_files(test: &str, seed: u64) -> (PathBuf, Store, Address, Vec<(String, Vec<u8>)>) {
    let dir = test_dir(test);
    let mut rng = TestRng::new(test_seed(test, seed));
    fs::create_dir_all(dir.join("data/sub")).unwrap();
    let mut files = Vec::new();
    for len in [0, 1, GROUP - 1, GROUP, GROUP + 1, 5 * GROUP + 77, 70 * GROUP + 3] {
        let name = format!("data/sub/f{len}");
        let bytes = rng.bytes(len as usize);
        fs::write(dir.join(&name), &bytes).unwrap();
        files.push((name, bytes));
    }
    let mut store = common::create(&dir.join("store"), SMALL_CHUNKS);
    let snapshot = put_roots(&mut store, &[dir.join("data")]);
    (dir, store, snapshot, files)
}

#[test]
fn roots_are_blake3_hashes_and_every_range_reads_back() {
    let (_, store, snapshot, files) = stored_files("ranged_roundtrip", 0x5eed_3301);
    let listed = store.ls(&snapshot).unwrap();
    for (name, bytes) in &files {
        let entry = listed.iter().find(|entry| entry.path == name.as_bytes()).unwrap();
        let Node::File { root: Some(root), .. } = &entry.node else { panic!("{entry:?}") };
        assert_eq!(root.root, blake3::hash(bytes), "{name}");
        let len = bytes.len() as u64;
        let mut ranges = vec![0..len, 0..1, len.saturating_sub(1)..len, 0..u64::MAX, len..len, 3..3, len..len + 10];
        for edge in [GROUP - 1, GROUP, GROUP + 1, 2 * GROUP, 64 * GROUP] {
            ranges.extend([edge - 1..edge + 1, edge..edge + 3 * GROUP, 0..edge, edge..len + 5]);
        }
        for range in ranges {
            if range.start > len {
                continue;
            }
            let out = read(&store, &snapshot, name, range.clone()).unwrap_or_else(|e| panic!("{name} {range:?}: {e}"));
            let end = range.end.min(len) as usize;
            assert_eq!(out, &bytes[range.start as usize..end], "{name} {range:?}");
        }
    }
}

#[test]
fn bad_ranges_paths_and_files_without_roots_are_refused() {
    let (dir, mut store, snapshot, files) = stored_files("ranged_refused", 0x5eed_3302);
    let (name, bytes) = &files[5];
    let len = bytes.len() as u64;
    let refused = |store: &Store, snapshot: &Address, path: &str, range: Range<u64>, says: &str| {
        let error = read(store, snapshot, path, range.clone()).unwrap_err();
        assert!(matches!(error, Error::BadRange { .. }) && error.to_string().contains(says), "{range:?}: {error}");
    };
    refused(&store, &snapshot, name, len + 1..len + 2, "starts past the end");
    #[allow(clippy::reversed_empty_ranges)] // refused, as meant
    let backwards = 9..3;
    refused(&store, &snapshot, name, backwards, "ends before it starts");
    refused(&store, &snapshot, "data/sub/nothing", 0..1, "no such file");
    refused(&store, &snapshot, "data/sub", 0..1, "not a regular file");
    refused(&store, &snapshot, &format!("{name}/below"), 0..1, "no such file");
    // The same files put without roots: listed without, read whole only.
    let plain = store.put(&[dir.join("data")], PutOptions::default()).unwrap().snapshot;
    for entry in store.ls(&plain).unwrap() {
        assert!(!matches!(entry.node, Node::File { root: Some(_), .. }), "{entry:?}");
    }
    refused(&store, &plain, name, 0..1, "without a BLAKE3 root");
}

/// Where a chunk's record is: its pack file and the record's bytes.
fn record_of(store: &Store, store_dir: &Path, chunk: &Address) -> (PathBuf, Range<u64>) {
    let (_, pack, offset, len) = store.index().to_sorted_vec().into_iter().find(|entry| entry.0 == *chunk).unwrap();
    let hex: String = pack.iter().map(|b| format!("{b:02x}")).collect();
    (store_dir.join(format!("packs/{hex}.pack")), offset..offset + u64::from(len))
}

/// Bytes of a record around its payload: header, BLAKE3-160 address,
/// CRC32C trailer (the default store's).
const RECORD_OVERHEAD: u64 = 5 + 20 + 5;

#[test]
fn damage_inside_a_range_fails_it_and_damage_outside_does_not() {
    let dir = test_dir("ranged_damage");
    let mut rng = TestRng::new(test_seed("ranged_damage", 0x5eed_3303));
    let bytes = rng.bytes(1 << 20);
    fs::write(dir.join("big"), &bytes).unwrap();
    let store_dir = dir.join("store");
    let mut store = Store::create(&store_dir, CreateOptions::default(), options()).unwrap();
    let snapshot = put_roots(&mut store, &[dir.join("big")]);
    let entry = store.ls(&snapshot).unwrap().pop().unwrap();
    let Node::File { content, .. } = entry.node else { panic!() };
    // The default chunks (64 KiB on average): a few, listed in the entry.
    assert_eq!(content.level, 0);
    let mut offset = 0;
    let chunks: Vec<(Address, Range<u64>)> = content
        .addresses
        .iter()
        .map(|address| {
            let len = u64::from(store.index().get(address).unwrap().len) - RECORD_OVERHEAD;
            offset += len;
            (*address, offset - len..offset)
        })
        .collect();
    assert_eq!(offset, bytes.len() as u64);
    let (middle, span) = chunks[chunks.len() / 2].clone();
    let (pack, record) = record_of(&store, &store_dir, &middle);
    let original = fs::read(&pack).unwrap();
    let mut damaged = original.clone();
    damaged[(record.start + record.end) as usize / 2] ^= 0x10;
    fs::write(&pack, &damaged).unwrap();
    let store = Store::open(&store_dir, options()).unwrap();
    // Any range whose groups hold a byte of the chunk fails, loudly.
    for range in [span.start..span.start + 1, span.end - 1..span.end, span.start - 10..span.end + 10] {
        let error = read(&store, &snapshot, "big", range.clone()).unwrap_err();
        assert!(error.is_damage(), "{range:?}: {error}");
        assert!(error.to_string().contains(&middle.to_string()), "{range:?}: {error}");
    }
    // Ranges whose groups hold none of its bytes still read.
    let after = (span.end / GROUP + 1) * GROUP;
    let before = (span.start / GROUP) * GROUP;
    for range in [0..1000, after..after + 3 * GROUP, before - 100..before, bytes.len() as u64 - 5..bytes.len() as u64] {
        let out = read(&store, &snapshot, "big", range.clone()).unwrap_or_else(|e| panic!("{range:?}: {e}"));
        assert_eq!(out, &bytes[range.start as usize..range.end as usize]);
    }
}

/// Issue 33: a 1 MiB range of a large file fetches at most the chunks
/// covering its groups, the file's chunk lists (20 bytes a chunk), and
/// O(log n) outboard pieces. 64 MiB of generated bytes keeps the test to
/// a second or two; nothing in the bound depends on the size but the lists
/// and the log.
#[test]
fn a_1_mib_range_of_a_64_mib_file_fetches_only_what_it_needs() {
    let dir = test_dir("ranged_fetched");
    let mut rng = TestRng::new(test_seed("ranged_fetched", 0x5eed_3304));
    let size = 64u64 << 20;
    let bytes = rng.bytes(size as usize);
    fs::write(dir.join("large"), &bytes).unwrap();
    let store_dir = dir.join("store");
    let open = chunkhash_store::OpenOptions { fsync: false, ..chunkhash_store::OpenOptions::default() };
    let mut store = Store::create(&store_dir, CreateOptions::default(), open).unwrap();
    let snapshot = put_roots(&mut store, &[dir.join("large")]);
    drop(store);
    let counting = Counting::new(Box::new(Directory::new(&store_dir)));
    let read_bytes = counting.counter();
    let store = Store::open_location(Box::new(counting), open).unwrap();
    let entry = store.ls(&snapshot).unwrap().pop().unwrap();
    let Node::File { content, root: Some(root), .. } = entry.node else { panic!() };

    let range = 37 * (1 << 20) + 12_345..38 * (1 << 20) + 12_345;
    read_bytes.store(0, Ordering::Relaxed);
    let out = read(&store, &snapshot, "large", range.clone()).unwrap();
    let fetched = read_bytes.load(Ordering::Relaxed);
    assert_eq!(out, &bytes[range.start as usize..range.end as usize]);

    // The chunks covering the range's groups, by the index.
    let groups = range.start / GROUP * GROUP..range.end.div_ceil(GROUP) * GROUP;
    let (mut offset, mut covering, mut chunks) = (0u64, 0u64, 0u64);
    let mut visit = |address: &Address| {
        let len = u64::from(store.index().get(address).unwrap().len);
        let payload = len - RECORD_OVERHEAD;
        if offset < groups.end && groups.start < offset + payload {
            covering += len;
        }
        offset += payload;
        chunks += 1;
    };
    // The content is one level of lists at this size; count through them.
    assert_eq!(content.level, 1, "{content:?}");
    let lists = content.addresses.len() as u64;
    let list_bytes = chunks_through_lists(&store_dir, &store, &content, &mut visit);
    assert_eq!(offset, size);
    let group_count = size / GROUP;
    let levels = u64::from(group_count.ilog2()) + 1;
    let range_pieces = (groups.end - groups.start) / GROUP / 64 + 1;
    let piece_record = 4096 + RECORD_OVERHEAD;
    let outboard_lists =
        if root.outboard.level > 0 { root.outboard.addresses.len() as u64 * (20 * 4096 + 64) } else { 0 };
    // The snapshot pointer, its root object and the top tree: a few hundred bytes.
    let small = 4096;
    let bound = covering + list_bytes + (levels + range_pieces + 1) * piece_record + outboard_lists + small;
    eprintln!(
        "fetched {fetched} bytes for a {} byte range of {size}: covering chunks {covering}, \
         {lists} chunk lists of {chunks} chunks {list_bytes}, bound {bound}",
        range.end - range.start
    );
    assert!(fetched <= bound, "fetched {fetched}, bound {bound}");
    assert!(fetched >= covering + list_bytes, "fetched {fetched}: the count misses reads");
    // Far below the file: the range, a chunk past each end (256 KiB at
    // most), the lists and the nodes.
    assert!(fetched < (1 << 20) + 2 * (256 << 10) + list_bytes + 128 * 1024, "{fetched}");
}

/// Visits a file's chunks through its lists of level 1, read from the
/// packs by hand; returns the bytes of the lists' records.
fn chunks_through_lists(store_dir: &Path, store: &Store, content: &Content, visit: &mut dyn FnMut(&Address)) -> u64 {
    let mut list_bytes = 0;
    for list in &content.addresses {
        let (pack, record) = record_of(store, store_dir, list);
        list_bytes += record.end - record.start;
        let bytes = fs::read(pack).unwrap();
        let payload = &bytes[(record.start + 25) as usize..(record.end - 5) as usize];
        let listed = Content::decode_list(payload, 20).unwrap();
        assert_eq!(listed.level, 0);
        listed.addresses.iter().for_each(&mut *visit);
    }
    list_bytes
}
