//! Undocumented and unstable, for fuzzing only (the targets in `fuzz/`):
//! each function hands arbitrary bytes to the decoders of one of the
//! store's formats. A decoder must refuse bad input with an error, never
//! panic, hang or allocate more than its input can hold; where it accepts
//! input of a canonical format, encoding what it decoded must give the
//! input back, and these functions assert that. Not part of the API: names
//! and behaviour change without notice.

use crate::address::{Address, AddressHasher, Hashing, ADDRESS_ALGORITHMS};
use crate::index::{self, Index};
use crate::manifest::Manifest;
use crate::object::{put_varint, Content, Snapshot, Tree};
use crate::pack::{self, PackId, RecordRef, PACK_HEADER_LEN, RECORD_MAGIC};
use crate::prolly::node::Node;
use crate::prolly::proof;
use crate::prolly::{ProllyMap, Proof};
use chunkhash::trailer;
use chunkhash::Algorithm;
use std::path::Path;

/// The two address lengths of the store's algorithms.
const ADDRESS_LENS: [usize; 2] = [20, 32];

/// Tree, chunk-list and snapshot-root objects, with either address length.
pub fn objects(data: &[u8]) {
    for len in ADDRESS_LENS {
        if let Ok(tree) = Tree::decode(data, len) {
            assert_eq!(tree.encode(), data, "a tree re-encodes to other bytes");
        }
        if let Ok(list) = Content::decode_list(data, len) {
            assert_eq!(list.encode_list(), data, "a chunk list re-encodes to other bytes");
        }
        if let Ok(root) = Snapshot::decode(data, len) {
            assert_eq!(root.encode(), data, "a snapshot root re-encodes to other bytes");
        }
    }
}

/// A pack header, and one record read from pack offset 16 (the first
/// record's place), both exactly and as the start of more bytes. A record
/// accepted is sealed again from its parts and must equal the input.
pub fn pack_record(data: &[u8]) {
    for algorithm in ADDRESS_ALGORITHMS {
        let _ = pack::check_header(data, algorithm, Algorithm::Crc32c);
    }
    for len in ADDRESS_LENS {
        record_round_trip(data, len);
        if let Ok((total, _, _)) = pack::parse_record_at(data, 0, len) {
            assert!(total <= data.len());
        }
        // With its trailer made right, so a mutation of the rest reaches
        // the checks past the trailer's.
        if let Some(resealed) = resealed_record(data, len) {
            record_round_trip(&resealed, len);
        }
    }
}

/// A record accepted at offset 16 is sealed again from its parts and must
/// equal the input.
fn record_round_trip(data: &[u8], address_len: usize) {
    if let Ok((address, payload)) = pack::parse_record(data, PACK_HEADER_LEN as u64, address_len) {
        let mut again = vec![RECORD_MAGIC];
        again.extend_from_slice(&(payload.len() as u32).to_le_bytes());
        again.extend_from_slice(address.as_bytes());
        again.extend_from_slice(payload);
        let trailer_algorithm = Algorithm::from_id(data[again.len()]).expect("the trailer's id was checked");
        let seal = trailer::seal(&again, trailer_algorithm, PACK_HEADER_LEN as u64);
        again.extend_from_slice(seal.as_bytes());
        assert_eq!(again, data, "a record re-seals to other bytes");
    }
}

/// `data` read as a record of `address_len`-byte addresses at offset 16,
/// its trailer sealed again over the bytes before it (when its length and
/// trailer id allow it).
fn resealed_record(data: &[u8], address_len: usize) -> Option<Vec<u8>> {
    let payload_len = u32::from_le_bytes(data.get(1..5)?.try_into().ok()?) as usize;
    let body = pack::RECORD_HEADER_LEN + address_len + payload_len;
    let algorithm = Algorithm::from_id(*data.get(body)?).ok()?;
    let mut resealed = data[..body].to_vec();
    resealed.extend_from_slice(trailer::seal(&resealed, algorithm, PACK_HEADER_LEN as u64).as_bytes());
    Some(resealed)
}

/// A whole pack scanned (structure, trailers, addresses), damage and all:
/// the sound records it reports follow each other in order without
/// overlapping, each parses again where it was found and hashes to its
/// address, when no damage is reported they cover the pack from the
/// header to its end, and the search after damage kept to its budget.
pub fn pack_scan(data: &[u8]) {
    for algorithm in [Algorithm::Blake3_160, Algorithm::Sha256] {
        let mut hasher = AddressHasher::new(algorithm, Hashing::Batch);
        let scan = pack::scan(data, &mut hasher, Algorithm::Crc32c);
        assert!(scan.resync_checked <= pack::resync_budget(data.len()), "the resync search overran its budget");
        let mut at = PACK_HEADER_LEN as u64;
        let mut contiguous = true;
        for record in &scan.records {
            assert!(record.offset >= at, "sound records overlap or go backwards");
            contiguous &= record.offset == at;
            let end = (record.offset + u64::from(record.len)) as usize;
            let (address, payload) =
                pack::parse_record(&data[record.offset as usize..end], record.offset, algorithm.digest_len())
                    .expect("a sound record parses again");
            assert_eq!(address, record.address);
            assert_eq!(hasher.address(payload), address);
            at = end as u64;
        }
        if scan.damaged.is_empty() && data.len() >= PACK_HEADER_LEN {
            assert!(contiguous && at == data.len() as u64, "no damage reported, yet bytes belong to no record");
        }
    }
}

/// An index file. One accepted is encoded again from the index it gave,
/// and that file must give the same index (index files need not be
/// canonical: entries of an address already indexed are ignored).
pub fn index_file(data: &[u8]) {
    // Also with the trailer made right, so a mutation of the rest reaches
    // the checks past the trailer's.
    let resealed = Algorithm::from_id(*data.get(9).unwrap_or(&0)).ok().and_then(|algorithm| {
        let body = data.len().checked_sub(trailer::trailer_len(algorithm))?;
        let mut resealed = data[..body].to_vec();
        resealed.extend_from_slice(trailer::seal(&resealed, algorithm, 0).as_bytes());
        Some(resealed)
    });
    index_file_as_is(data);
    if let Some(resealed) = resealed {
        index_file_as_is(&resealed);
    }
}

fn index_file_as_is(data: &[u8]) {
    for algorithm in [Algorithm::Blake3_160, Algorithm::Sha256] {
        let mut decoded = Index::default();
        if decoded.merge_file(data, algorithm).is_err() {
            continue;
        }
        let trailer_algorithm = Algorithm::from_id(data[9]).expect("the trailer's id was checked");
        let mut packs: Vec<(PackId, Vec<RecordRef>)> = decoded.packs().iter().map(|id| (*id, Vec::new())).collect();
        for (address, location) in decoded.iter() {
            let record = RecordRef { address: *address, offset: location.offset, len: location.len };
            packs[location.pack as usize].1.push(record);
        }
        let (_, bytes) = index::encode_file(&packs, algorithm, trailer_algorithm);
        let mut again = Index::default();
        again.merge_file(&bytes, algorithm).expect("an encoded index file decodes");
        assert_eq!(again.to_sorted_vec(), decoded.to_sorted_vec(), "an index file re-encodes to another index");
    }
}

/// A manifest. One accepted is encoded again and must parse to the same.
pub fn manifest(data: &[u8]) {
    let path = Path::new("manifest");
    if let Ok(manifest) = Manifest::parse(data, path) {
        let again = Manifest::parse(manifest.encode().as_bytes(), path).expect("an encoded manifest parses");
        assert_eq!(again, manifest, "a manifest re-encodes to another");
    }
}

/// The names the store lists and parses: snapshot pointers (the address
/// in hex, and the file's contents, that address and a newline), pack and
/// index file names. A name accepted is the canonical one, up to case.
pub fn names(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let name = text.strip_suffix('\n').unwrap_or(text);
    if let Ok(address) = Address::from_hex(name) {
        assert!(address.to_hex().eq_ignore_ascii_case(name), "address {name:?} reads as {address}");
        assert_eq!(Address::from_hex(&address.to_hex()).ok(), Some(address));
    }
    if let Some(id) = pack::parse_pack_file(name) {
        assert_eq!(
            pack::pack_file(&id).strip_prefix("packs/").map(str::to_ascii_lowercase),
            Some(name.to_ascii_lowercase())
        );
    }
    if index::is_index_file(name) {
        assert!(name.len() == 44 && name.ends_with(".idx"), "{name:?}");
    }
}

/// A prolly map node, with either address length. One accepted is encoded
/// again from its entries and must equal the input; every accessor works
/// on it.
pub fn prolly_node(data: &[u8]) {
    for len in ADDRESS_LENS {
        let Ok(node) = Node::decode(data.to_vec(), len) else { continue };
        let mut again = vec![data[0], data[1], node.level()];
        put_varint(&mut again, node.len() as u64);
        for i in 0..node.len() {
            put_varint(&mut again, node.key(i).len() as u64);
            again.extend_from_slice(node.key(i));
            put_varint(&mut again, node.value(i).len() as u64);
            again.extend_from_slice(node.value(i));
            if node.level() > 0 {
                assert_eq!(node.child(i).as_bytes(), node.value(i));
            }
            assert_eq!(node.search(node.key(i)), Ok(i));
        }
        assert_eq!(again, data, "a map node re-encodes to other bytes");
        let _ = node.ends_by_rule();
        let _ = node.last_key();
    }
}

/// A map proof, parsed, encoded again (it must give the input back), and
/// verified against the root its first node hashes to, so verification
/// runs past the root's check.
pub fn prolly_proof(data: &[u8]) {
    let proof = Proof::from_bytes(data.to_vec());
    let Ok(parsed) = proof::parse(data) else {
        let root = Address::from_slice(&[0; 20]).expect("20 bytes make an address");
        assert!(ProllyMap::verify(&root, b"", &proof).is_err(), "a proof that does not parse verifies");
        return;
    };
    let mut again = vec![data[0], data[1], parsed.algorithm.id()];
    put_varint(&mut again, parsed.key.len() as u64);
    again.extend_from_slice(parsed.key);
    put_varint(&mut again, parsed.nodes.len() as u64);
    for node in &parsed.nodes {
        put_varint(&mut again, node.len() as u64);
        again.extend_from_slice(node);
    }
    assert_eq!(again, data, "a proof re-encodes to other bytes");
    let root = AddressHasher::new(parsed.algorithm, Hashing::PerChunk).address(parsed.nodes[0]);
    let _ = ProllyMap::verify(&root, parsed.key, &proof);
}

/// The committed seeds of the store's fuzz targets (`fuzz/seeds/TARGET/`):
/// small valid encodings, built here from the encoders, so each target
/// starts past its decoder's checks. This test checks every seed is
/// accepted and that the files hold exactly these bytes; with
/// `CHUNKHASH_WRITE_FUZZ_SEEDS=1` it writes them instead.
#[cfg(test)]
mod seeds {
    use super::*;
    use crate::manifest::{ChunkerSettings, FORMAT_VERSION};
    use crate::object::{Entry, FileRoot, Node as TreeNode};
    use std::fs;

    fn address(algorithm: Algorithm, bytes: &[u8]) -> Address {
        AddressHasher::new(algorithm, Hashing::PerChunk).address(bytes)
    }

    fn record(algorithm: Algorithm, payload: &[u8], offset: u64) -> Vec<u8> {
        let mut record = vec![RECORD_MAGIC];
        record.extend_from_slice(&(payload.len() as u32).to_le_bytes());
        record.extend_from_slice(address(algorithm, payload).as_bytes());
        record.extend_from_slice(payload);
        let seal = trailer::seal(&record, Algorithm::Crc32c, offset);
        record.extend_from_slice(seal.as_bytes());
        record
    }

    fn pack_bytes(algorithm: Algorithm, payloads: &[&[u8]]) -> Vec<u8> {
        let mut bytes = pack::pack_header(algorithm, Algorithm::Crc32c).to_vec();
        for payload in payloads {
            let record = record(algorithm, payload, bytes.len() as u64);
            bytes.extend_from_slice(&record);
        }
        bytes
    }

    fn tree(algorithm: Algorithm) -> Tree {
        let chunk = address(algorithm, b"chunk");
        let content = Content { level: 0, addresses: vec![chunk, chunk] };
        Tree {
            entries: vec![
                Entry { name: b"dir".to_vec(), node: TreeNode::Dir { mode: 0o755, tree: chunk } },
                Entry {
                    name: b"file".to_vec(),
                    node: TreeNode::File { mode: 0o4644, size: 10, content: content.clone(), root: None },
                },
                // A file with its BLAKE3 root and outboard (put --roots).
                Entry {
                    name: b"file-with-root".to_vec(),
                    node: TreeNode::File {
                        mode: 0o644,
                        size: 40_000,
                        content: content.clone(),
                        root: Some(FileRoot {
                            root: chunkhash::blake3::hash(b"file"),
                            group_log: crate::GROUP_LOG,
                            outboard: content,
                        }),
                    },
                },
                Entry { name: b"link".to_vec(), node: TreeNode::Symlink { target: b"../file".to_vec() } },
            ],
        }
    }

    /// A map node of `level` over `entries`, as the format gives it.
    fn node(level: u8, entries: &[(&[u8], &[u8])]) -> Vec<u8> {
        let mut bytes = vec![b'P', 1, level];
        put_varint(&mut bytes, entries.len() as u64);
        for (key, value) in entries {
            put_varint(&mut bytes, key.len() as u64);
            bytes.extend_from_slice(key);
            put_varint(&mut bytes, value.len() as u64);
            bytes.extend_from_slice(value);
        }
        bytes
    }

    fn proof_bytes(algorithm: Algorithm, key: &[u8], nodes: &[&[u8]]) -> Vec<u8> {
        let mut bytes = vec![b'p', 1, algorithm.id()];
        put_varint(&mut bytes, key.len() as u64);
        bytes.extend_from_slice(key);
        put_varint(&mut bytes, nodes.len() as u64);
        for node in nodes {
            put_varint(&mut bytes, node.len() as u64);
            bytes.extend_from_slice(node);
        }
        bytes
    }

    /// (target, seed name, bytes, the function that must accept it).
    fn seeds() -> Vec<(&'static str, &'static str, Vec<u8>)> {
        let b160 = Algorithm::Blake3_160;
        let sha256 = Algorithm::Sha256;
        let chunk = address(b160, b"chunk");
        let list = Content { level: 1, addresses: vec![chunk; 3] };
        let root = Snapshot { time: 1_700_000_000, tree: chunk, files: 3, bytes: 1 << 33 };
        let records = |payloads: &[&[u8]]| {
            let mut offset = PACK_HEADER_LEN as u64;
            payloads
                .iter()
                .map(|payload| {
                    let len = record(b160, payload, offset).len() as u32;
                    let reference = RecordRef { address: address(b160, payload), offset, len };
                    offset += u64::from(len);
                    reference
                })
                .collect::<Vec<_>>()
        };
        let (_, index) = index::encode_file(
            &[([1; 20], records(&[b"one", b"two"])), ([2; 20], records(&[b"three"]))],
            b160,
            Algorithm::Crc32c,
        );
        let manifest = |address, chunker| {
            Manifest { format_version: FORMAT_VERSION, address, trailer: Algorithm::Crc32c, chunker }
                .encode()
                .into_bytes()
        };
        let leaf = node(0, &[(b"apple", b"red"), (b"kiwi", b"green"), (b"plum", b"")]);
        let inner = node(1, &[(b"kiwi", address(b160, &leaf).as_bytes()), (b"zebra", chunk.as_bytes())]);
        vec![
            ("store_objects", "tree", tree(b160).encode()),
            ("store_objects", "tree_sha256", tree(sha256).encode()),
            ("store_objects", "list", list.encode_list()),
            ("store_objects", "snapshot", root.encode()),
            ("store_pack_record", "record", record(b160, b"a chunk's bytes", PACK_HEADER_LEN as u64)),
            ("store_pack_record", "record_sha256", record(sha256, b"", PACK_HEADER_LEN as u64)),
            ("store_pack_record", "header", pack::pack_header(b160, Algorithm::Crc32c).to_vec()),
            ("store_pack_scan", "pack", pack_bytes(b160, &[b"one", b"two", &tree(b160).encode()])),
            ("store_pack_scan", "pack_sha256", pack_bytes(sha256, &[b"x"])),
            ("store_index", "index", index),
            ("store_manifest", "default", manifest(b160, ChunkerSettings::DEFAULT)),
            ("store_manifest", "sha256", manifest(sha256, ChunkerSettings { min: 64, avg: 256, max: 1024 })),
            ("store_names", "pointer", format!("{chunk}\n").into_bytes()),
            ("store_names", "pack", format!("{chunk}.pack").into_bytes()),
            ("store_names", "index", format!("{chunk}.idx").into_bytes()),
            ("prolly_node", "leaf", leaf.clone()),
            ("prolly_node", "inner", inner.clone()),
            ("prolly_proof", "present", proof_bytes(b160, b"kiwi", &[&inner, &leaf])),
            ("prolly_proof", "absent", proof_bytes(b160, b"zzz", &[&inner])),
        ]
    }

    #[test]
    fn the_committed_seeds_are_these_valid_encodings() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/seeds");
        let write = std::env::var_os("CHUNKHASH_WRITE_FUZZ_SEEDS").is_some();
        for (target, name, bytes) in seeds() {
            let accepted = match target {
                "store_objects" => {
                    Tree::decode(&bytes, 20).is_ok()
                        || Tree::decode(&bytes, 32).is_ok()
                        || Content::decode_list(&bytes, 20).is_ok()
                        || Snapshot::decode(&bytes, 20).is_ok()
                }
                "store_pack_record" => {
                    pack::parse_record(&bytes, 16, 20).is_ok()
                        || pack::parse_record(&bytes, 16, 32).is_ok()
                        || pack::check_header(&bytes, Algorithm::Blake3_160, Algorithm::Crc32c).is_ok()
                }
                "store_pack_scan" => [Algorithm::Blake3_160, Algorithm::Sha256].iter().any(|&algorithm| {
                    let scan =
                        pack::scan(&bytes, &mut AddressHasher::new(algorithm, Hashing::Batch), Algorithm::Crc32c);
                    scan.damaged.is_empty() && !scan.records.is_empty()
                }),
                "store_index" => Index::default().merge_file(&bytes, Algorithm::Blake3_160).is_ok(),
                "store_manifest" => Manifest::parse(&bytes, Path::new("m")).is_ok(),
                "store_names" => {
                    let text = std::str::from_utf8(&bytes).unwrap();
                    Address::from_hex(text.trim_end()).is_ok()
                        || pack::parse_pack_file(text).is_some()
                        || index::is_index_file(text)
                }
                "prolly_node" => Node::decode(bytes.clone(), 20).is_ok(),
                "prolly_proof" => {
                    let parsed = proof::parse(&bytes).unwrap();
                    let root = address(parsed.algorithm, parsed.nodes[0]);
                    ProllyMap::verify(&root, parsed.key, &Proof::from_bytes(bytes.clone())).is_ok()
                }
                other => panic!("no target {other}"),
            };
            assert!(accepted, "{target}/{name} is not a valid encoding");
            // And the target itself passes on it.
            match target {
                "store_objects" => objects(&bytes),
                "store_pack_record" => pack_record(&bytes),
                "store_pack_scan" => pack_scan(&bytes),
                "store_index" => index_file(&bytes),
                "store_manifest" => manifest(&bytes),
                "store_names" => names(&bytes),
                "prolly_node" => prolly_node(&bytes),
                _ => prolly_proof(&bytes),
            }
            let path = dir.join(target).join(name);
            if write {
                fs::create_dir_all(path.parent().unwrap()).unwrap();
                fs::write(&path, &bytes).unwrap();
            } else {
                let committed = fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
                assert!(committed == bytes, "{} differs: CHUNKHASH_WRITE_FUZZ_SEEDS=1 writes it again", path.display());
            }
        }
    }
}
