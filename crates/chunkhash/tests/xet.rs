//! The Xet hashes (`chunkhash::xet`) and `Cdc::chunk_and_hash` against
//! independent references: xet-core's own reference of xorb and file
//! hashes (`tests/data/xet_aggregated_hashes.txt`, with its provenance), a
//! level-by-level tree written here from the specification's words, the
//! official `blake3` crate for every keyed hash, and the `hf-xet` wheel's
//! `hash_files` (Hugging Face's own client) on files of every size class.
#![cfg(feature = "cdc")]

mod common;

use std::path::PathBuf;
use std::process::Command;

use chunkhash::blake3::{self as b3, Batch};
use chunkhash::cdc::{Cdc, Normalization};
use chunkhash::xet::{self, Hash};
use vectors::{test_seed, TestRng};

/// One case of xet-core's reference: leaves, xorb hash, (salt, file hash).
struct Case {
    nodes: Vec<(Hash, u64)>,
    xorb: Hash,
    salted: Vec<(Hash, Hash)>,
}

fn reference_cases() -> Vec<Case> {
    let text = include_str!("data/xet_aggregated_hashes.txt");
    let mut cases: Vec<Case> = Vec::new();
    let hash = |hex: &str| Hash::from_hex(hex).unwrap_or_else(|e| panic!("{hex}: {e}"));
    for line in text.lines().filter(|l| !l.starts_with('#') && !l.is_empty()) {
        let words: Vec<&str> = line.split(' ').collect();
        match words[..] {
            ["case"] => cases.push(Case { nodes: Vec::new(), xorb: Hash::default(), salted: Vec::new() }),
            ["node", h, size] => cases.last_mut().unwrap().nodes.push((hash(h), size.parse().unwrap())),
            ["xorb", h] => cases.last_mut().unwrap().xorb = hash(h),
            ["salted", salt, h] => cases.last_mut().unwrap().salted.push((hash(salt), hash(h))),
            _ => panic!("bad line in xet_aggregated_hashes.txt: {line}"),
        }
    }
    cases
}

#[test]
fn xorb_and_file_hashes_equal_xet_cores_reference() {
    let cases = reference_cases();
    assert_eq!(cases.len(), 18);
    for (i, case) in cases.iter().enumerate() {
        assert_eq!(xet::xorb_hash(&case.nodes), case.xorb, "case {i}");
        let mut tree = xet::MerkleTree::new();
        for &(hash, size) in &case.nodes {
            tree.push(hash, size);
        }
        assert_eq!(tree.root(), case.xorb, "case {i}");
        for &(salt, file_hash) in &case.salted {
            // A salted file hash re-hashes the root under the salt; the
            // all-zero salt is the plain file hash (all zeros when empty).
            if salt == Hash::default() {
                assert_eq!(tree.file_hash(), file_hash, "case {i}");
            }
            if !case.nodes.is_empty() {
                let salted = blake3::keyed_hash(salt.as_bytes(), tree.root().as_bytes());
                assert_eq!(Hash::from_bytes(*salted.as_bytes()), file_hash, "case {i} salt {salt}");
            }
        }
    }
}

/// The tree as the specification describes it, one whole level at a time
/// (the shape of xet-core's batch computation; the library builds it
/// leaf by leaf), each node's text formatted with `format!`.
fn reference_root(leaves: &[(Hash, u64)]) -> Hash {
    let key: [u8; 32] = xet::INTERNAL_NODE_KEY;
    let mut level = leaves.to_vec();
    if level.is_empty() {
        return Hash::default();
    }
    while level.len() > 1 {
        let mut next = Vec::new();
        let mut start = 0;
        while start < level.len() {
            let rest = &level[start..];
            // A group: up to and including the first node from the third
            // on whose hash (its last 8 bytes as a little-endian u64) is 0
            // modulo 4, else 9 nodes, else what is left.
            let mut end = rest.len().min(9);
            for (i, (hash, _)) in rest.iter().enumerate().take(end).skip(2) {
                let last = u64::from_le_bytes(hash.as_bytes()[24..].try_into().unwrap());
                if last % 4 == 0 {
                    end = i + 1;
                    break;
                }
            }
            let text: String = rest[..end].iter().map(|(h, s)| format!("{h} : {s}\n")).collect();
            let size = rest[..end].iter().map(|(_, s)| s).sum();
            next.push((Hash::from_bytes(*blake3::keyed_hash(&key, text.as_bytes()).as_bytes()), size));
            start += end;
        }
        level = next;
    }
    level[0].0
}

#[test]
fn merkle_tree_equals_the_level_by_level_tree() {
    let seed = test_seed("merkle_tree_equals_the_level_by_level_tree", 32);
    let mut rng = TestRng::new(seed);
    let mut counts: Vec<usize> = (0..=100).collect();
    counts.extend([242, 243, 729, 730, 2000]);
    for count in counts {
        // Every fourth hash or so ends a group; some runs end none (a
        // group closes at nine), from low-entropy leaves.
        let leaves: Vec<(Hash, u64)> = (0..count)
            .map(|i| {
                let mut bytes = [0u8; 32];
                rng.fill(&mut bytes);
                if count % 7 == 3 && i % 13 != 0 {
                    bytes[24] |= 1;
                }
                (Hash::from_bytes(bytes), rng.range(0..=200_000) as u64)
            })
            .collect();
        assert_eq!(xet::xorb_hash(&leaves), reference_root(&leaves), "{count} leaves");
    }
}

#[test]
fn chunk_and_term_hashes_are_keyed_blake3() {
    let mut rng = TestRng::new(test_seed("chunk_and_term_hashes_are_keyed_blake3", 7));
    let data = rng.bytes(70_000);
    for len in [0, 1, 1024, 1025, 8192, 65_536, 70_000] {
        let expected = blake3::keyed_hash(&xet::DATA_KEY, &data[..len]);
        assert_eq!(xet::chunk_hash(&data[..len]).as_bytes(), expected.as_bytes(), "{len}");
    }
    let hashes: Vec<Hash> = data.chunks(1000).map(xet::chunk_hash).collect();
    for range in [0..0, 0..1, 3..17, 0..hashes.len()] {
        let concatenated: Vec<u8> = hashes[range.clone()].iter().flat_map(|h| *h.as_bytes()).collect();
        let expected = blake3::keyed_hash(&xet::VERIFICATION_KEY, &concatenated);
        assert_eq!(xet::term_verification_hash(&hashes[range.clone()]).as_bytes(), expected.as_bytes(), "{range:?}");
    }
}

/// The file hash from its definition: Xet's chunks, their keyed hashes,
/// the tree written above, the root re-hashed under the zero key.
fn reference_file_hash(data: &[u8]) -> Hash {
    let leaves: Vec<(Hash, u64)> = Cdc::xet()
        .chunks(data)
        .map(|c| {
            let bytes = &data[c.offset as usize..][..c.length];
            (Hash::from_bytes(*blake3::keyed_hash(&xet::DATA_KEY, bytes).as_bytes()), c.length as u64)
        })
        .collect();
    if leaves.is_empty() {
        return Hash::default();
    }
    Hash::from_bytes(*blake3::keyed_hash(&[0; 32], reference_root(&leaves).as_bytes()).as_bytes())
}

#[test]
fn file_hash_one_shot_and_streamed() {
    let mut rng = TestRng::new(test_seed("file_hash_one_shot_and_streamed", 11));
    let random = rng.bytes(3 << 20);
    let zeros = vec![0u8; 1 << 20];
    for (name, data) in [("random", &random[..]), ("zeros", &zeros[..])] {
        for len in [0, 1, 8191, 8192, 8193, 131_072, 131_073, 1 << 20, data.len()] {
            let data = &data[..len];
            let expected = reference_file_hash(data);
            assert_eq!(xet::file_hash(data), expected, "{name} {len}");
            for pieces in [&[1usize, 4095, 70_000][..], &[65_536], &[1 << 20]] {
                let mut hasher = xet::FileHasher::new();
                common::feed_in_pieces(data, pieces, |piece| {
                    hasher.update(piece);
                });
                assert_eq!(hasher.finalize(), expected, "{name} {len} in pieces {pieces:?}");
            }
        }
    }
}

/// Inputs of several segments (8 MiB each): random (chunks resynchronise
/// a chunk or two into each segment), text, and zeros (cut at the
/// maximum, so segments start on a cut).
#[cfg(feature = "parallel")]
#[test]
fn file_hash_parallel_equals_one_thread() {
    let mut rng = TestRng::new(test_seed("file_hash_parallel_equals_one_thread", 5));
    let random = rng.bytes(20 << 20);
    let text: Vec<u8> = b"a line of text that repeats, ".iter().copied().cycle().take(17 << 20).collect();
    let zeros = vec![0u8; (17 << 20) + 3];
    for data in [&random[..], &text[..], &zeros[..], &random[..100]] {
        assert_eq!(xet::file_hash_parallel(data), xet::file_hash(data), "{} bytes", data.len());
    }
}

#[test]
fn chunk_and_hash_equals_chunking_then_hashing() {
    let mut rng = TestRng::new(test_seed("chunk_and_hash_equals_chunking_then_hashing", 3));
    let random = rng.bytes(2 << 20);
    let text: Vec<u8> = b"the quick brown fox jumps over the lazy dog ".iter().copied().cycle().take(1 << 20).collect();
    let key = [9u8; 32];
    let cdcs = [
        Cdc::xet(),
        Cdc::fastcdc(16 * 1024, 64 * 1024, 256 * 1024, Normalization::Level1).unwrap(),
        Cdc::fastcdc(2 * 1024, 8 * 1024, 64 * 1024, Normalization::Level1).unwrap(),
        Cdc::fastcdc(64, 256, 1024, Normalization::Level2).unwrap(),
    ];
    for cdc in cdcs {
        for data in [&random[..], &text[..], &random[..1000], &[]] {
            let chunks: Vec<_> = cdc.chunks(data).collect();
            let bytes = |c: &chunkhash::cdc::Chunk| &data[c.offset as usize..][..c.length];

            let mut plain = Vec::new();
            cdc.chunk_and_hash(data, &Batch::new(), |c, h: b3::Hash| plain.push((c, h)));
            let expected: Vec<_> =
                chunks.iter().map(|c| (*c, b3::Hash::from(*blake3::hash(bytes(c)).as_bytes()))).collect();
            assert_eq!(plain, expected, "{cdc:?} plain, {} bytes", data.len());

            let mut keyed = Vec::new();
            cdc.chunk_and_hash(data, &Batch::new_keyed(&key), |c, h: [u8; 32]| keyed.push((c, h)));
            let expected: Vec<_> =
                chunks.iter().map(|c| (*c, *blake3::keyed_hash(&key, bytes(c)).as_bytes())).collect();
            assert_eq!(keyed, expected, "{cdc:?} keyed, {} bytes", data.len());

            let mut addresses = Vec::new();
            cdc.chunk_and_hash(data, &Batch::new(), |c, a: b3::Address| addresses.push((c, a)));
            let expected: Vec<_> =
                chunks.iter().map(|c| (*c, b3::Hash::from(*blake3::hash(bytes(c)).as_bytes()).address())).collect();
            assert_eq!(addresses, expected, "{cdc:?} BLAKE3-160, {} bytes", data.len());
        }
    }
}

/// Where `make test` installs the `hf-xet` wheel.
fn pydeps() -> PathBuf {
    vectors::pydeps(env!("CARGO_TARGET_TMPDIR"))
}

/// Our file hashes equal `hf_xet.hash_files` (the `hf-xet` wheel, Hugging
/// Face's client) on files of every size class: empty, one byte, around
/// the minimum, target and maximum chunk sizes, several MiB of random
/// bytes, and low-entropy files (zeros, repeated text) that cut at the
/// maximum or at repeating places. Not on wasm32-wasip1, which cannot
/// start a process (the reference cases above run there).
#[test]
#[cfg_attr(target_family = "wasm", ignore = "spawns python3: WASI has no processes")]
fn file_hashes_equal_hf_xet() {
    let seed = test_seed("file_hashes_equal_hf_xet", 2026);
    let mut rng = TestRng::new(seed);
    let random = rng.bytes(6 << 20);
    let text: Vec<u8> =
        b"Xet cuts files with a Gear hash; this line repeats.\n".iter().copied().cycle().take(3 << 20).collect();
    let mut files: Vec<(String, Vec<u8>)> = Vec::new();
    for len in [0, 1, 100, 8191, 8192, 8193, 65_535, 65_536, 65_537, 131_071, 131_072, 131_073, 1 << 20, 6 << 20] {
        files.push((format!("random-{len}"), random[..len].to_vec()));
    }
    for len in [1, 8192, 131_072, 131_073, 3 << 20] {
        files.push((format!("zeros-{len}"), vec![0; len]));
        files.push((format!("text-{len}"), text[..len].to_vec()));
    }
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("xet-file-hashes");
    std::fs::create_dir_all(&dir).unwrap();
    for (name, data) in &files {
        std::fs::write(dir.join(name), data).unwrap();
    }
    let script = "import sys, hf_xet\n\
                  for info in hf_xet.hash_files(sys.argv[1:]):\n    print(info.hash, info.file_size)\n";
    let output = Command::new("python3")
        .arg("-c")
        .arg(script)
        .args(files.iter().map(|(name, _)| name))
        .current_dir(&dir)
        .env("PYTHONPATH", pydeps())
        .output()
        .expect("python3 is needed for the hf_xet comparison");
    assert!(
        output.status.success(),
        "the hf-xet wheel is missing: `make pydeps` installs it into {} ({})",
        pydeps().display(),
        String::from_utf8_lossy(&output.stderr)
    );
    let stdout = String::from_utf8(output.stdout).unwrap();
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), files.len(), "{stdout}");
    for ((name, data), line) in files.iter().zip(lines) {
        let ours = format!("{} {}", xet::file_hash(data), data.len());
        assert_eq!(ours, line, "{name}");
    }
}
