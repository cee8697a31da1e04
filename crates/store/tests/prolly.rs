//! The prolly map: against a `BTreeMap` oracle over random edit sequences,
//! history independence, diff, proofs (and tampered proofs), corrupted
//! nodes, bad input.

mod common;

use chunkhash::Algorithm;
use chunkhash_store::prolly::{Change, Edit, ProllyMap, Proof, MAX_KEY_LEN, MAX_VALUE_LEN, MIN_NODE_BYTES};
use chunkhash_store::{Address, CreateOptions, Error, Hashing, OpenOptions, Store};
use common::*;
use std::collections::BTreeMap;
use std::fs;
use std::ops::Bound;
use std::path::Path;
use vectors::{test_seed, TestRng};

type Oracle = BTreeMap<Vec<u8>, Vec<u8>>;

fn create_map(dir: &Path, algorithm: Algorithm, hashing: Hashing) -> ProllyMap {
    let create = CreateOptions { address: algorithm, ..CreateOptions::default() };
    ProllyMap::new(Store::create(dir, create, options()).unwrap(), hashing)
}

fn new_map(test: &str) -> ProllyMap {
    create_map(&test_dir(test).join("store"), Algorithm::Blake3_160, Hashing::Batch)
}

/// A key from a universe of `universe` keys of varied lengths, so that
/// random edits hit existing keys.
fn key(rng: &mut TestRng, universe: usize) -> Vec<u8> {
    let n = rng.range(0..=universe - 1);
    let mut key = format!("k{n:07}").into_bytes();
    key.extend(std::iter::repeat_n(b'~', n % 13));
    key
}

fn value(rng: &mut TestRng) -> Vec<u8> {
    let len = match rng.range(0..=99) {
        0 => rng.range(0..=20_000), // now and then larger than a node
        1..=9 => 0,
        _ => rng.range(1..=120),
    };
    rng.bytes(len)
}

/// Random edits, applied to the oracle too.
fn random_edits(rng: &mut TestRng, oracle: &mut Oracle, count: usize, universe: usize) -> Vec<Edit> {
    (0..count)
        .map(|_| {
            let key = key(rng, universe);
            if rng.range(0..=3) == 0 {
                oracle.remove(&key);
                Edit::delete(key)
            } else {
                let value = value(rng);
                oracle.insert(key.clone(), value.clone());
                Edit::put(key, value)
            }
        })
        .collect()
}

fn all(map: &mut ProllyMap, root: &Address) -> Vec<(Vec<u8>, Vec<u8>)> {
    map.range(root, ..).unwrap().collect::<Result<_, _>>().unwrap()
}

fn from_scratch(map: &mut ProllyMap, entries: &Oracle) -> Address {
    let edits: Vec<Edit> = entries.iter().map(|(k, v)| Edit::put(k.clone(), v.clone())).collect();
    map.apply(&map.empty_root(), &edits).unwrap()
}

#[test]
fn the_map_matches_a_btreemap_over_random_edit_sequences() {
    let mut rng = TestRng::new(test_seed("prolly oracle", 0x9011_0001));
    let mut map = new_map("prolly-oracle");
    let mut oracle = Oracle::new();
    let mut root = map.empty_root();
    let mut versions: Vec<(Address, Oracle)> = vec![(root, oracle.clone())];
    for commit in 0..40 {
        let count = [1, 10, 200, 2000][commit % 4];
        let edits = random_edits(&mut rng, &mut oracle, count, 12_000);
        root = map.apply(&root, &edits).unwrap();
        let expected: Vec<(Vec<u8>, Vec<u8>)> = oracle.clone().into_iter().collect();
        assert_eq!(all(&mut map, &root), expected, "commit {commit}");
        for _ in 0..50 {
            let key = key(&mut rng, 13_000);
            assert_eq!(map.get(&root, &key).unwrap(), oracle.get(&key).cloned(), "commit {commit}");
        }
        let (a, b) = (key(&mut rng, 13_000), key(&mut rng, 13_000));
        let (low, high) = if a <= b { (a, b) } else { (b, a) };
        let got: Vec<_> = map
            .range(&root, (Bound::Excluded(&low[..]), Bound::Included(&high[..])))
            .unwrap()
            .map(Result::unwrap)
            .collect();
        let want: Vec<_> = oracle
            .range::<Vec<u8>, _>((Bound::Excluded(&low), Bound::Included(&high)))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        assert_eq!(got, want, "range ({low:?}, {high:?}] at commit {commit}");
        if commit % 8 == 7 {
            versions.push((root, oracle.clone()));
        }
        // History independence along the way: the same root as a build from scratch.
        assert_eq!(root, from_scratch(&mut map, &oracle), "commit {commit}");
    }
    let shape = map.shape(&root).unwrap();
    assert!(shape.height >= 3, "the test should reach three levels: {shape:?}");
    assert_eq!(shape.entries, oracle.len() as u64);
    // Copy on write: every older version still reads as it was, also
    // through a map that has nothing cached.
    let store = map.into_store();
    drop(store);
    let reopened = Store::open(&test_dir_path("prolly-oracle").join("store"), OpenOptions::default()).unwrap();
    let mut map = ProllyMap::new(reopened, Hashing::Batch);
    for (root, entries) in &versions {
        assert_eq!(all(&mut map, root), entries.clone().into_iter().collect::<Vec<_>>());
    }
    assert!(map.stats().nodes_read > 0);
}

/// The directory `test_dir` made, without emptying it.
fn test_dir_path(test: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join("store-tests").join(test)
}

#[test]
fn equal_entries_give_equal_roots_whatever_the_history() {
    let seed = test_seed("prolly history", 0x9011_0002);
    let mut rng = TestRng::new(seed);
    let dir = test_dir("prolly-history");
    let mut maps: Vec<ProllyMap> = Hashing::ALL
        .iter()
        .enumerate()
        .map(|(i, &hashing)| create_map(&dir.join(format!("store-{i}")), Algorithm::Blake3_160, hashing))
        .collect();
    for round in 0..3 {
        let mut entries = Oracle::new();
        let extra = random_edits(&mut rng, &mut entries, 6000, 50_000);
        drop(extra);
        let reference = from_scratch(&mut maps[0], &entries);
        assert_ne!(reference, maps[0].empty_root());
        for map in &mut maps {
            // Random order, random commit sizes, with keys put, deleted and
            // put back on the way, and keys that end deleted.
            let mut order: Vec<(&Vec<u8>, &Vec<u8>)> = entries.iter().collect();
            for i in (1..order.len()).rev() {
                order.swap(i, rng.range(0..=i));
            }
            let mut root = map.empty_root();
            let mut rest = &order[..];
            while !rest.is_empty() {
                let take = rng.range(1..=rest.len().min(1500));
                let mut edits: Vec<Edit> = Vec::new();
                for (k, v) in &rest[..take] {
                    if rng.range(0..=9) == 0 {
                        edits.push(Edit::put((*k).clone(), b"first".to_vec()));
                        edits.push(Edit::delete((*k).clone()));
                    }
                    edits.push(Edit::put((*k).clone(), (*v).clone()));
                    if rng.range(0..=19) == 0 {
                        edits.push(Edit::put(
                            format!("{}-gone", String::from_utf8_lossy(k)).into_bytes(),
                            b"x".to_vec(),
                        ));
                    }
                }
                root = map.apply(&root, &edits).unwrap();
                rest = &rest[take..];
            }
            let gone: Vec<Edit> = all(map, &root)
                .into_iter()
                .filter(|(k, _)| !entries.contains_key(k))
                .map(|(k, _)| Edit::delete(k))
                .collect();
            root = map.apply(&root, &gone).unwrap();
            assert_eq!(root, reference, "round {round} (seed {seed})");
        }
    }
}

#[test]
fn deleting_everything_gives_the_empty_root_and_shrinking_maps_lose_levels() {
    let mut rng = TestRng::new(test_seed("prolly shrink", 0x9011_0003));
    let mut map = new_map("prolly-shrink");
    let mut entries = Oracle::new();
    random_edits(&mut rng, &mut entries, 16_000, 1_000_000);
    let full = from_scratch(&mut map, &entries);
    assert!(map.shape(&full).unwrap().height >= 3);
    let keys: Vec<Vec<u8>> = entries.keys().cloned().collect();
    let mut root = full;
    for chunk in keys.chunks(3000) {
        let deletes: Vec<Edit> = chunk.iter().skip(3).map(|k| Edit::delete(k.clone())).collect();
        root = map.apply(&root, &deletes).unwrap();
        for k in chunk.iter().skip(3) {
            entries.remove(k);
        }
        assert_eq!(root, from_scratch(&mut map, &entries), "after deleting down to {} entries", entries.len());
    }
    let deletes: Vec<Edit> = keys.iter().map(|k| Edit::delete(k.clone())).collect();
    let root = map.apply(&root, &deletes).unwrap();
    assert_eq!(root, map.empty_root());
    assert_eq!(map.apply(&root, &[]).unwrap(), root);
    assert!(all(&mut map, &root).is_empty());
}

#[test]
fn node_sizes_follow_the_boundary_rule() {
    let mut rng = TestRng::new(test_seed("prolly sizes", 0x9011_0004));
    let mut map = new_map("prolly-sizes");
    let mut entries = Oracle::new();
    for i in 0u32..40_000 {
        let len = rng.range(20..=180);
        entries.insert(i.to_be_bytes().to_vec(), rng.bytes(len));
    }
    let root = from_scratch(&mut map, &entries);
    let mut shape = map.shape(&root).unwrap();
    // All but the last leaf hold at least the minimum; none passes 16 KiB.
    let small: u64 = shape.leaves.buckets().iter().filter(|b| b.1 <= MIN_NODE_BYTES as u64).map(|b| b.2).sum();
    assert!(small <= 1, "{small} leaves below the minimum: {}", shape.leaves.summary());
    assert!(shape.leaves.percentile(100.0) <= 16 * 1024, "{}", shape.leaves.summary());
    let mean = shape.leaves.mean();
    assert!((3200.0..4200.0).contains(&mean), "mean leaf {mean}: {}", shape.leaves.summary());
}

#[test]
fn diff_matches_the_oracle_and_skips_shared_subtrees() {
    let mut rng = TestRng::new(test_seed("prolly diff", 0x9011_0005));
    let mut map = new_map("prolly-diff");
    let mut old = Oracle::new();
    random_edits(&mut rng, &mut old, 10_000, 30_000);
    let v1 = from_scratch(&mut map, &old);
    for count in [0, 1, 5, 300, 5000] {
        let mut new = old.clone();
        let edits = random_edits(&mut rng, &mut new, count, 30_000);
        let v2 = map.apply(&v1, &edits).unwrap();
        let mut expected = Vec::new();
        let keys: std::collections::BTreeSet<&Vec<u8>> = old.keys().chain(new.keys()).collect();
        for key in keys {
            let (a, b) = (old.get(key), new.get(key));
            if a != b {
                expected.push(Change { key: key.clone(), old: a.cloned(), new: b.cloned() });
            }
        }
        let visits = map.stats().node_visits;
        let changes = map.diff(&v1, &v2).unwrap();
        let visited = map.stats().node_visits - visits;
        assert_eq!(changes, expected, "{count} edits");
        let reverse: Vec<Change> =
            expected.iter().map(|c| Change { key: c.key.clone(), old: c.new.clone(), new: c.old.clone() }).collect();
        assert_eq!(map.diff(&v2, &v1).unwrap(), reverse);
        if count == 1 {
            let height = map.shape(&v1).unwrap().height as u64;
            // Two paths to the change (and a neighbour the change merged
            // with), not the whole tree.
            assert!(visited <= 6 * height, "{visited} nodes visited for one change in a tree of height {height}");
        }
    }
    assert!(map.diff(&v1, &v1).unwrap().is_empty());
    let empty = map.empty_root();
    assert_eq!(map.diff(&empty, &v1).unwrap().len(), old.len());
}

fn flip_every_byte_fails(root: &Address, key: &[u8], proof: &Proof) {
    let bytes = proof.as_bytes();
    for i in 0..bytes.len() {
        for mask in [0x01, 0x80] {
            let mut tampered = bytes.to_vec();
            tampered[i] ^= mask;
            let result = ProllyMap::verify(root, key, &Proof::from_bytes(tampered));
            assert!(result.is_err(), "flip {mask:#x} at byte {i} of {} accepted: {result:?}", bytes.len());
        }
    }
    for cut in [0, 1, 3, bytes.len() / 2, bytes.len() - 1] {
        assert!(ProllyMap::verify(root, key, &Proof::from_bytes(bytes[..cut].to_vec())).is_err(), "cut at {cut}");
    }
    assert!(ProllyMap::verify(root, key, &Proof::from_bytes([bytes, &[0]].concat())).is_err());
}

#[test]
fn every_proof_verifies_and_every_tampered_proof_fails() {
    let mut rng = TestRng::new(test_seed("prolly proofs", 0x9011_0006));
    let dir = test_dir("prolly-proofs");
    for algorithm in [Algorithm::Blake3_160, Algorithm::Sha512_160, Algorithm::Sha256] {
        let store_dir = dir.join(algorithm.name());
        let mut map = create_map(&store_dir, algorithm, Hashing::Batch);
        let mut entries = Oracle::new();
        random_edits(&mut rng, &mut entries, 6000, 20_000);
        let root = from_scratch(&mut map, &entries);
        let other = map.apply(&root, &[Edit::put("k0000000", "changed")]).unwrap();
        let mut keys: Vec<Vec<u8>> = entries.keys().step_by(7).cloned().collect();
        keys.extend((0..300).map(|_| key(&mut rng, 25_000)));
        keys.extend([b"".to_vec(), b"a".to_vec(), b"zzz".to_vec(), b"k0005000\xff".to_vec()]);
        for key in &keys {
            let proof = map.prove(&root, key).unwrap();
            assert_eq!(ProllyMap::verify(&root, key, &proof), Ok(entries.get(key).cloned()), "{key:?}");
            let mut wrong_key = key.clone();
            wrong_key.push(0);
            assert!(ProllyMap::verify(&root, &wrong_key, &proof).is_err());
            assert!(ProllyMap::verify(&other, key, &proof).is_err());
            assert_eq!(map.prove(&root, key).unwrap(), proof, "proofs are deterministic");
        }
        // Every byte of a proof of a present key, an absent one, and one
        // above every key, flipped: each fails.
        let present = entries.keys().nth(entries.len() / 2).unwrap().clone();
        for key in [present, b"k0000000~".to_vec(), b"zzz".to_vec()] {
            let proof = map.prove(&root, &key).unwrap();
            flip_every_byte_fails(&root, &key, &proof);
        }
        let empty = map.empty_root();
        let proof = map.prove(&empty, b"any").unwrap();
        assert_eq!(ProllyMap::verify(&empty, b"any", &proof), Ok(None));
        flip_every_byte_fails(&empty, b"any", &proof);
        // The same bytes from another process: a map with nothing cached.
        let proof = map.prove(&root, &keys[3]).unwrap();
        drop(map);
        let mut reopened = ProllyMap::new(Store::open(&store_dir, OpenOptions::default()).unwrap(), Hashing::PerChunk);
        assert_eq!(reopened.prove(&root, &keys[3]).unwrap(), proof);
    }
}

#[test]
fn a_corrupted_node_is_found_by_its_trailer_and_address() {
    let mut rng = TestRng::new(test_seed("prolly damage", 0x9011_0007));
    let dir = test_dir("prolly-damage");
    let store_dir = dir.join("store");
    let mut map = create_map(&store_dir, Algorithm::Blake3_160, Hashing::Batch);
    let mut entries = Oracle::new();
    random_edits(&mut rng, &mut entries, 3000, 10_000);
    let root = from_scratch(&mut map, &entries);
    drop(map);
    let packs: Vec<_> = fs::read_dir(store_dir.join("packs")).unwrap().map(|e| e.unwrap().path()).collect();
    assert!(packs.len() > 1);
    for _ in 0..25 {
        let pack = &packs[rng.range(0..=packs.len() - 1)];
        let pristine = fs::read(pack).unwrap();
        let at = rng.range(16..=pristine.len() - 1);
        let mut damaged = pristine.clone();
        damaged[at] ^= 1 << rng.range(0..=7);
        fs::write(pack, &damaged).unwrap();
        let mut map = ProllyMap::new(Store::open(&store_dir, OpenOptions::default()).unwrap(), Hashing::Batch);
        let read: Result<Vec<_>, Error> = map.range(&root, ..).and_then(|range| range.collect());
        match read {
            Err(error) => assert!(error.is_damage(), "flip at {at}: {error}"),
            Ok(_) => panic!("a flipped bit at offset {at} of {} went unnoticed", pack.display()),
        }
        assert!(!map.store().verify(None).unwrap().damage.is_empty());
        fs::write(pack, &pristine).unwrap();
    }
    let mut map = ProllyMap::new(Store::open(&store_dir, OpenOptions::default()).unwrap(), Hashing::Batch);
    assert_eq!(all(&mut map, &root).len(), entries.len());
}

#[test]
fn bad_input_is_an_error_not_a_panic() {
    let dir = test_dir("prolly-bad-input");
    let mut map = create_map(&dir.join("store"), Algorithm::Blake3_160, Hashing::Batch);
    let empty = map.empty_root();
    let long_key = Edit::put(vec![b'k'; MAX_KEY_LEN + 1], "v");
    let long_value = Edit::put("k", vec![0u8; MAX_VALUE_LEN + 1]);
    for edit in [long_key, long_value] {
        let error = map.apply(&empty, &[edit]).unwrap_err();
        assert!(matches!(error, Error::BadMapInput(_)), "{error}");
    }
    let root = map.apply(&empty, &[Edit::put(vec![b'k'; MAX_KEY_LEN], vec![1u8; MAX_VALUE_LEN])]).unwrap();
    assert_eq!(map.get(&root, &[b'k'; MAX_KEY_LEN]).unwrap().map(|v| v.len()), Some(MAX_VALUE_LEN));
    // A root the store does not hold; an object that is not a map node.
    let missing = Address::from_slice(&[7u8; 20]).unwrap();
    assert!(matches!(map.get(&missing, b"k"), Err(Error::MissingObject(_))));
    fs::create_dir_all(dir.join("data")).unwrap();
    fs::write(dir.join("data/file"), b"not a map").unwrap();
    let store = map.into_store();
    let mut store = store;
    let snapshot = put(&mut store, &[dir.join("data")]).snapshot;
    let mut map = ProllyMap::new(store, Hashing::Batch);
    let error = map.get(&snapshot, b"k").unwrap_err();
    assert!(error.to_string().contains("not a map node"), "{error}");
    // Proofs of garbage.
    let mut rng = TestRng::new(0x9011_0008);
    for len in [0, 1, 2, 3, 5, 40, 400] {
        for _ in 0..50 {
            let mut bytes = rng.bytes(len);
            if len > 3 {
                bytes[..3].copy_from_slice(&[b'p', 1, Algorithm::Blake3_160.id()]);
            }
            assert!(ProllyMap::verify(&root, b"k", &Proof::from_bytes(bytes)).is_err());
        }
    }
    // Writing through a store opened for reading.
    drop(map);
    let reader = Store::open(&dir.join("store"), OpenOptions::default()).unwrap();
    let mut map = ProllyMap::new(reader, Hashing::Batch);
    assert!(map.apply(&root, &[Edit::put("x", "y")]).is_err());
    assert!(map.get(&root, b"x").unwrap().is_none());
}

#[test]
fn trees_of_twenty_byte_addresses_have_one_shape_whatever_the_algorithm() {
    let mut rng = TestRng::new(test_seed("prolly algorithms", 0x9011_0009));
    let dir = test_dir("prolly-algorithms");
    let mut entries = Oracle::new();
    random_edits(&mut rng, &mut entries, 5000, 1_000_000);
    let mut shapes = Vec::new();
    let mut roots = Vec::new();
    for algorithm in [Algorithm::Blake3_160, Algorithm::Sha512_160] {
        let mut map = create_map(&dir.join(algorithm.name()), algorithm, Hashing::Batch);
        let root = from_scratch(&mut map, &entries);
        let mut shape = map.shape(&root).unwrap();
        shapes.push((shape.height, shape.leaves.count(), shape.inner.count(), shape.leaves.summary()));
        roots.push(root);
    }
    assert_eq!(shapes[0], shapes[1]);
    assert_ne!(roots[0], roots[1]);
}
