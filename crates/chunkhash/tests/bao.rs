//! `blake3::bao` against the `bao` crate's test vectors and, byte for byte,
//! against the `bao` (1 KiB groups, pre-order, header) and `bao-tree` (chunk
//! groups, both orders, range sets) crates: outboards, encodings and slices
//! made by each side are read by the other. Random cases use a fixed,
//! printed seed; lengths sit on every chunk, group and tree boundary.

// Slices take a list of ranges; a list of one range is the common case here.
#![allow(clippy::single_range_in_vec_init)]

use bao_tree::io::outboard::{PostOrderMemOutboard, PreOrderMemOutboard};
use bao_tree::{BaoTree, BlockSize, ChunkNum, ChunkRanges};
use chunkhash::blake3::{self, bao};
use std::io::{Cursor, Read};
use std::ops::Range;
use vectors::{bao_input, bao_vectors, test_seed, TestRng, TestScale};

const KEY: [u8; 32] = *b"whats the Elvish word for friend";

fn tree(group_log: u8) -> bao::Tree {
    bao::Tree::new(bao::Mode::hash(), group_log).unwrap()
}

/// The verified bytes a slice gives, or the error.
fn read_slice(slice: &[u8], tree: bao::Tree, root: blake3::Hash, ranges: &[Range<u64>]) -> std::io::Result<Vec<u8>> {
    let mut out = Vec::new();
    bao::SliceReader::new(slice, tree, root, ranges).read_to_end(&mut out)?;
    Ok(out)
}

/// What a slice for one range must give: the range capped at the end.
fn expected(input: &[u8], range: &Range<u64>) -> Vec<u8> {
    let len = input.len() as u64;
    input[range.start.min(len) as usize..range.end.min(len) as usize].to_vec()
}

fn flip(bytes: &[u8], index: usize, mask: u8) -> Vec<u8> {
    let mut out = bytes.to_vec();
    out[index] ^= mask;
    out
}

fn hex_hash(bytes: &[u8]) -> String {
    blake3::hash(bytes).to_hex().to_string()
}

/// Lengths around every chunk, group and tree boundary for groups of
/// 2^`group_log` chunks, up to `max_groups` groups, and a few random ones;
/// none past `max_len`.
fn boundary_lengths(group_log: u8, max_groups: u64, max_len: u64, rng: &mut TestRng) -> Vec<u64> {
    let group = 1024u64 << group_log;
    let mut lengths = vec![0, 1, 1023, 1024, 1025];
    for groups in [1, 2, 3, 4, 5, 7, 8, 9, 11, 13, 16, 17, 31, 32, 33].into_iter().filter(|&g| g <= max_groups) {
        lengths.extend([groups * group - 1, groups * group, groups * group + 1]);
        // A chunk boundary inside the last group.
        if group_log > 0 {
            lengths.push((groups - 1) * group + 1024 + 1);
        }
    }
    // Around the blocks of 128 chunks that outboards are hashed in (a
    // block's groups side by side, then the tree above the blocks), beyond
    // `max_groups`: their nodes are written from two places.
    let block = (128 >> group_log).max(1) * group;
    for blocks in [1, 2, 3] {
        lengths.extend([blocks * block - 1, blocks * block, blocks * block + 1, blocks * block + 1025]);
    }
    for _ in 0..4 {
        lengths.push(rng.next_u64() % (max_groups * group + 1).min(max_len.saturating_add(1)));
    }
    lengths.retain(|&len| len <= max_len);
    lengths.sort_unstable();
    lengths.dedup();
    lengths
}

/// Random byte ranges of a message of `len` bytes, some empty, some past
/// the end.
fn random_range(rng: &mut TestRng, len: u64) -> Range<u64> {
    let start = rng.next_u64() % (len + 2);
    let count = match rng.next_u64() % 4 {
        0 => 0,
        1 => rng.next_u64() % 3000,
        _ => rng.next_u64() % (len + 2),
    };
    start..start + count
}

#[test]
fn bao_vectors_hash_encode_outboard_and_slice() {
    let vectors = bao_vectors();
    for case in vectors["hash"].as_array().unwrap() {
        let input = bao_input(case["input_len"].as_u64().unwrap() as usize);
        assert_eq!(bao::Tree::bao().root(&input).to_hex().as_str(), case["bao_hash"].as_str().unwrap());
    }
    for case in vectors["encode"].as_array().unwrap() {
        let input = bao_input(case["input_len"].as_u64().unwrap() as usize);
        let (root, encoded) = bao::Tree::bao().encode(&input);
        assert_eq!(root.to_hex().as_str(), case["bao_hash"].as_str().unwrap());
        assert_eq!(encoded.len() as u64, case["output_len"].as_u64().unwrap());
        assert_eq!(hex_hash(&encoded), case["encoded_blake3"].as_str().unwrap());
        let all = [0..u64::MAX];
        assert_eq!(read_slice(&encoded, bao::Tree::bao(), root, &all).unwrap(), input);
        for point in case["corruptions"].as_array().unwrap() {
            let bad = flip(&encoded, point.as_u64().unwrap() as usize, 1);
            assert!(read_slice(&bad, bao::Tree::bao(), root, &all).is_err(), "corruption at {point}");
        }
    }
    for case in vectors["outboard"].as_array().unwrap() {
        let input = bao_input(case["input_len"].as_u64().unwrap() as usize);
        let outboard = bao::Tree::bao().outboard(&input, bao::Order::Pre);
        assert_eq!(outboard.root().to_hex().as_str(), case["bao_hash"].as_str().unwrap());
        let bytes = outboard.bao_bytes();
        assert_eq!(bytes.len() as u64, case["output_len"].as_u64().unwrap());
        assert_eq!(hex_hash(bytes), case["encoded_blake3"].as_str().unwrap());
        // Damage to the outboard or the input shows when a whole slice is read.
        let all = [0..u64::MAX];
        for point in case["outboard_corruptions"].as_array().unwrap() {
            let point = point.as_u64().unwrap() as usize;
            let bad = flip(bytes, point, 1);
            let len = u64::from_le_bytes(bad[..8].try_into().unwrap());
            let parsed =
                bao::Outboard::from_parts(&bao::Tree::bao(), outboard.root(), len, bao::Order::Pre, bad[8..].to_vec());
            let rejected = match parsed {
                Err(_) => true,
                Ok(parsed) => match bao::Tree::bao().slice(&input, &parsed, &all) {
                    Err(_) => true,
                    Ok(slice) => read_slice(&slice, bao::Tree::bao(), outboard.root(), &all).is_err(),
                },
            };
            assert!(rejected, "outboard corruption at {point}");
        }
        for point in case["input_corruptions"].as_array().unwrap() {
            let bad_input = flip(&input, point.as_u64().unwrap() as usize, 1);
            let slice = bao::Tree::bao().slice(&bad_input, &outboard, &all).unwrap();
            assert!(
                read_slice(&slice, bao::Tree::bao(), outboard.root(), &all).is_err(),
                "input corruption at {point}"
            );
        }
    }
    for case in vectors["slice"].as_array().unwrap() {
        let input = bao_input(case["input_len"].as_u64().unwrap() as usize);
        let outboard = bao::Tree::bao().outboard(&input, bao::Order::Pre);
        for slice_case in case["slices"].as_array().unwrap() {
            let start = slice_case["start"].as_u64().unwrap();
            let range = [start..start + slice_case["len"].as_u64().unwrap()];
            let slice = bao::Tree::bao().slice(&input, &outboard, &range).unwrap();
            assert_eq!(bao::Tree::bao().slice_len(input.len() as u64, &range), slice.len() as u64);
            assert_eq!(slice.len() as u64, slice_case["output_len"].as_u64().unwrap(), "{range:?}");
            assert_eq!(hex_hash(&slice), slice_case["output_blake3"].as_str().unwrap());
            assert_eq!(
                read_slice(&slice, bao::Tree::bao(), outboard.root(), &range).unwrap(),
                expected(&input, &range[0])
            );
            for point in slice_case["corruptions"].as_array().unwrap() {
                let bad = flip(&slice, point.as_u64().unwrap() as usize, 1);
                assert!(read_slice(&bad, bao::Tree::bao(), outboard.root(), &range).is_err(), "{range:?} at {point}");
            }
        }
    }
}

#[test]
fn encodings_outboards_and_slices_match_the_bao_crate() {
    let mut rng = TestRng::new(test_seed("encodings_outboards_and_slices_match_the_bao_crate", 33));
    for len in boundary_lengths(0, 33, u64::MAX, &mut rng) {
        let input = rng.bytes(len as usize);
        let (encoded, root) = ::bao::encode::encode(&input);
        let (outboard_bytes, _) = ::bao::encode::outboard(&input);
        let (our_root, our_encoded) = bao::Tree::bao().encode(&input);
        assert_eq!(our_root.as_bytes(), root.as_bytes(), "len {len}");
        assert!(our_encoded == encoded, "encoding, len {len}");
        let outboard = bao::Tree::bao().outboard(&input, bao::Order::Pre);
        assert!(outboard.bao_bytes() == outboard_bytes, "outboard, len {len}");
        for _ in 0..6 {
            let range = random_range(&mut rng, len);
            let count = range.end - range.start;
            let mut theirs = Vec::new();
            ::bao::encode::SliceExtractor::new_outboard(
                Cursor::new(&input),
                Cursor::new(&outboard_bytes),
                range.start,
                count,
            )
            .read_to_end(&mut theirs)
            .unwrap();
            let ours = bao::Tree::bao().slice(&input, &outboard, std::slice::from_ref(&range)).unwrap();
            assert!(ours == theirs, "slice {range:?} of {len}");
            // The same slice from the combined encoding, as `bao slice` takes it.
            let mut from_encoding = Vec::new();
            ::bao::encode::SliceExtractor::new(Cursor::new(&encoded), range.start, count)
                .read_to_end(&mut from_encoding)
                .unwrap();
            assert!(from_encoding == theirs);
            let ranges = [range.clone()];
            assert!(bao::Tree::bao().slice_encoding(&our_encoded, &ranges).unwrap() == theirs, "{range:?} of {len}");
            // Each side reads the other's slice.
            let mut decoded = Vec::new();
            ::bao::decode::SliceDecoder::new(&ours[..], &root, range.start, count).read_to_end(&mut decoded).unwrap();
            assert_eq!(decoded, expected(&input, &range));
            let ranges = [range.clone()];
            assert_eq!(read_slice(&theirs, bao::Tree::bao(), our_root, &ranges).unwrap(), expected(&input, &range));
        }
    }
}

/// `bao-tree`'s chunk ranges for byte ranges, rounded out to whole groups:
/// for a range that covers part of a group, `bao-tree` sends the nodes
/// inside the group too (computed from the data), where our slices, like
/// the `bao` crate's, send the whole group.
fn chunk_ranges(ranges: &[Range<u64>], len: u64, group_log: u8) -> ChunkRanges {
    let group = 1024u64 << group_log;
    let mut out = ChunkRanges::empty();
    for range in ranges {
        // Ours counts an empty range as one byte and one past the end as
        // the last byte (the spec); give `bao-tree` the same chunks.
        let start = range.start.min(len.saturating_sub(1));
        let end = range.end.max(range.start + 1).min(len).max(start + 1);
        let (first, last) = (start / group, end.div_ceil(group));
        out |= ChunkRanges::from(ChunkNum(first << group_log)..ChunkNum(last << group_log));
    }
    out
}

#[test]
fn outboards_and_slices_match_bao_tree_for_every_group_size() {
    let mut rng = TestRng::new(test_seed("outboards_and_slices_match_bao_tree_for_every_group_size", 34));
    for group_log in 0..=bao::MAX_GROUP_LOG {
        // Many groups where they are small, three (the first parent, the
        // first uneven tree) where each is 128 KiB to 1 MiB, one group
        // boundary from 2 to 8 MiB, and messages of one group up to 2 MiB
        // past that (each 64 MiB case would cost seconds).
        let group = 1024u64 << group_log;
        let (max_groups, max_len) = match group_log {
            0..=6 => (33, u64::MAX),
            7..=10 => (3, u64::MAX),
            11..=13 => (2, group + 1025),
            _ => (1, 2 << 20),
        };
        // Emulated targets (qemu, WebAssembly): messages up to 256 KiB.
        let max_len = max_len.min(TestScale::pick(u64::MAX, 256 << 10, 64 << 10));
        let tree = tree(group_log);
        let block_size = BlockSize::from_chunk_log(group_log);
        for len in boundary_lengths(group_log, max_groups, max_len, &mut rng) {
            let input = rng.bytes(len as usize);
            let pre = tree.outboard(&input, bao::Order::Pre);
            let post = tree.outboard(&input, bao::Order::Post);
            let theirs_pre = PreOrderMemOutboard::create(&input, block_size);
            let theirs_post = PostOrderMemOutboard::create(&input, block_size);
            let (_, encoded) = tree.encode(&input);
            assert_eq!(pre.root().as_bytes(), theirs_pre.root.as_bytes(), "k {group_log} len {len}");
            assert!(pre.nodes() == theirs_pre.data, "pre-order, k {group_log} len {len}");
            assert!(post.nodes() == theirs_post.data, "post-order, k {group_log} len {len}");
            assert_eq!(tree.outboard_len(len), theirs_pre.data.len() as u64);
            if len == 0 {
                continue; // bao-tree sends nothing for an empty blob
            }
            for _ in 0..3 {
                let ranges: Vec<Range<u64>> =
                    (0..1 + rng.next_u64() % 3).map(|_| random_range(&mut rng, len)).collect();
                let chunks = chunk_ranges(&ranges, len, group_log);
                let mut theirs = Vec::new();
                bao_tree::io::sync::encode_ranges(&input[..], &theirs_post, &chunks, &mut theirs).unwrap();
                // The same slice from either of our outboards.
                let ours = tree.slice(&input, &pre, &ranges).unwrap();
                assert_eq!(tree.slice_len(len, &ranges), ours.len() as u64, "slice_len {ranges:?}");
                assert!(tree.slice(&input, &post, &ranges).unwrap() == ours);
                assert!(tree.slice_encoding(&encoded, &ranges).unwrap() == ours);
                assert!(
                    ours[8..] == theirs[..],
                    "k {group_log} len {len} {ranges:?}: ours {} theirs {}",
                    ours.len() - 8,
                    theirs.len()
                );
                // Each side reads the other's stream.
                let mut their_reading = PreOrderMemOutboard {
                    root: theirs_pre.root,
                    tree: BaoTree::new(len, block_size),
                    data: vec![0u8; theirs_pre.data.len()],
                };
                let mut target = vec![0u8; len as usize];
                bao_tree::io::sync::decode_ranges(&ours[8..], &chunks, &mut target, &mut their_reading).unwrap();
                let mut out = Vec::new();
                bao::SliceReader::with_len(&theirs[..], tree, pre.root(), len, &ranges).read_to_end(&mut out).unwrap();
                let mut wanted = Vec::new();
                let group = tree.group_len() as u64;
                // The reader gives, per group, its first to last requested byte.
                for first in (0..len.div_ceil(group)).map(|g| g * group) {
                    let end = (first + group).min(len);
                    let hits: Vec<_> =
                        ranges.iter().map(|r| (r.start.max(first), r.end.min(end))).filter(|(a, b)| a < b).collect();
                    if let (Some(lo), Some(hi)) = (hits.iter().map(|h| h.0).min(), hits.iter().map(|h| h.1).max()) {
                        wanted.extend_from_slice(&input[lo as usize..hi as usize]);
                        assert_eq!(target[lo as usize..hi as usize], input[lo as usize..hi as usize]);
                    }
                }
                assert_eq!(out, wanted, "k {group_log} len {len} {ranges:?}");
            }
        }
    }
}

#[test]
fn keyed_trees_match_bao_tree_and_keyed_hash() {
    let mut rng = TestRng::new(test_seed("keyed_trees_match_bao_tree_and_keyed_hash", 35));
    for group_log in [0, 1, 4] {
        let tree = bao::Tree::new(bao::Mode::keyed(&KEY), group_log).unwrap();
        for len in boundary_lengths(group_log, 9, u64::MAX, &mut rng) {
            let input = rng.bytes(len as usize);
            let ours = tree.outboard(&input, bao::Order::Pre);
            let theirs = PreOrderMemOutboard::create_keyed(&input, BlockSize::from_chunk_log(group_log), &KEY);
            assert_eq!(ours.root(), blake3::keyed_hash(&KEY, &input));
            assert_eq!(ours.root().as_bytes(), theirs.root.as_bytes());
            assert!(ours.nodes() == theirs.data, "k {group_log} len {len}");
            let all = [0..u64::MAX];
            let (root, encoded) = tree.encode(&input);
            assert_eq!(read_slice(&encoded, tree, root, &all).unwrap(), input);
            // The plain tree does not read a keyed encoding.
            if len > 0 {
                assert!(read_slice(&encoded, self::tree(group_log), root, &all).is_err());
            }
        }
    }
    let tree = bao::Tree::new(bao::Mode::derive_key("chunkhash 2026-11-28 bao test"), 2).unwrap();
    let material = rng.bytes(50_000);
    let (root, encoded) = tree.encode(&material);
    assert_eq!(root.as_bytes(), &blake3::derive_key("chunkhash 2026-11-28 bao test", &material));
    assert_eq!(read_slice(&encoded, tree, root, &[0..u64::MAX]).unwrap(), material);
}

#[test]
fn every_bit_flip_is_rejected_or_changes_nothing() {
    // Small inputs: a flip of any bit of a slice's body is an error; a flip
    // in its header may go unseen only where the slice does not prove the
    // length (no final group), and then the bytes read are still right.
    for (group_log, len, range) in [(0u8, 2500u64, 1000..1100u64), (0, 3073, 2000..3073), (1, 5000, 0..1), (0, 0, 0..0)]
    {
        let tree = tree(group_log);
        let input = bao_input(len as usize);
        let outboard = tree.outboard(&input, bao::Order::Pre);
        let ranges = [range.clone()];
        let slice = tree.slice(&input, &outboard, &ranges).unwrap();
        let reaches_end = range.end >= len;
        assert_eq!(read_slice(&slice, tree, outboard.root(), &ranges).unwrap(), expected(&input, &range));
        for index in 0..slice.len() {
            for bit in 0..8 {
                match read_slice(&flip(&slice, index, 1 << bit), tree, outboard.root(), &ranges) {
                    Err(_) => {}
                    Ok(out) => {
                        assert!(index < 8 && !reaches_end, "flip of bit {bit} of byte {index} accepted");
                        assert_eq!(out, expected(&input, &range), "flip of bit {bit} of byte {index}");
                    }
                }
            }
        }
    }
}

#[test]
fn bad_streams_are_typed_errors() {
    let tree = tree(2);
    let input = bao_input(40_000);
    let (root, encoded) = tree.encode(&input);
    let all = [0..u64::MAX];
    // Truncated anywhere: unexpected end, after handing out only verified bytes.
    for cut in [0, 7, 8, 100, 4096 + 8 + 64 * 3, encoded.len() - 1] {
        let mut reader = bao::SliceReader::new(&encoded[..cut], tree, root, &all);
        let mut out = Vec::new();
        let error = reader.read_to_end(&mut out).unwrap_err();
        assert_eq!(error.kind(), std::io::ErrorKind::UnexpectedEof, "cut at {cut}");
        assert_eq!(out, input[..out.len()]);
    }
    // Damage in the last group: the groups before it come out, then the error.
    let damaged = flip(&encoded, encoded.len() - 10, 1);
    let mut out = Vec::new();
    let error = bao::SliceReader::new(&damaged[..], tree, root, &all).read_to_end(&mut out).unwrap_err();
    assert_eq!(error.kind(), std::io::ErrorKind::InvalidData);
    assert!(!out.is_empty() && out.len() < input.len() && out == input[..out.len()], "{} bytes", out.len());
    // Extended: trailing bytes are never read (the spec's malleability).
    let mut longer = encoded.clone();
    longer.extend_from_slice(b"trailing");
    assert_eq!(read_slice(&longer, tree, root, &all).unwrap(), input);
    // Another root, another group size: a mismatch at the first node.
    let other = blake3::hash(b"other");
    let error = read_slice(&encoded, tree, other, &all).unwrap_err();
    let inner = error.into_inner().unwrap().downcast::<bao::BaoError>().unwrap();
    assert_eq!(*inner, bao::BaoError::Mismatch { position: 8, offset: 0, parent: true });
    assert!(read_slice(&encoded, self::tree(3), root, &all).is_err());
    // A slice read for ranges it was not made for.
    let outboard = tree.outboard(&input, bao::Order::Post);
    let slice = tree.slice(&input, &outboard, &[0..10]).unwrap();
    assert!(read_slice(&slice, tree, root, &[30_000..30_010]).is_err());
    // Past the end: the last group, which proves the length.
    let past = tree.slice(&input, &outboard, &[50_000..60_000]).unwrap();
    assert_eq!(past, tree.slice(&input, &outboard, &[39_999..40_000]).unwrap());
    assert_eq!(read_slice(&past, tree, root, &[50_000..60_000]).unwrap(), b"");
    // The decoder's own errors: a wrong item length, use after failure.
    let mut decoder = bao::Decoder::new(tree, root, &all);
    assert_eq!(decoder.want(), bao::Want::Header);
    assert!(matches!(decoder.feed(&[0; 7]), Err(bao::BaoError::ItemLength { expected: 8, actual: 7, .. })));
    assert_eq!(decoder.feed(&encoded[..8]), Err(bao::BaoError::Failed));
    // An encoding cut short or too long for its header.
    for bad in [&encoded[..5], &encoded[..encoded.len() - 1], &longer[..]] {
        assert!(matches!(tree.slice_encoding(bad, &[0..10]), Err(bao::BaoError::EncodingLength { .. })));
    }
    // An outboard of the wrong length, a group size too large.
    assert!(bao::Outboard::from_parts(&tree, root, 40_000, bao::Order::Pre, vec![0; 64]).is_err());
    assert_eq!(bao::Tree::new(bao::Mode::hash(), 17).unwrap_err(), bao::BaoError::GroupLog { group_log: 17 });
    // A header claiming more than 4 GiB: an error, not an allocation or panic.
    let mut huge = encoded.clone();
    huge[..8].copy_from_slice(&(5u64 << 30).to_le_bytes());
    assert!(read_slice(&huge, tree, root, &all).is_err());
    let mut huge = encoded;
    huge[..8].copy_from_slice(&u64::MAX.to_le_bytes());
    assert!(read_slice(&huge, tree, root, &[u64::MAX - 1..u64::MAX]).is_err());
}

#[test]
fn empty_input_and_largest_groups() {
    for group_log in [0, bao::MAX_GROUP_LOG] {
        let tree = tree(group_log);
        let (root, encoded) = tree.encode(b"");
        assert_eq!(root, blake3::hash(b""));
        assert_eq!(encoded, 0u64.to_le_bytes());
        assert_eq!(read_slice(&encoded, tree, root, &[0..u64::MAX]).unwrap(), b"");
        // The empty group must verify: any other root fails.
        assert!(read_slice(&encoded, tree, blake3::hash(b"x"), &[0..u64::MAX]).is_err());
    }
    let tree = tree(bao::MAX_GROUP_LOG);
    let input = bao_input(3 << 20);
    let outboard = tree.outboard(&input, bao::Order::Pre);
    assert!(outboard.nodes().is_empty());
    assert_eq!(outboard.root(), blake3::hash(&input));
}

/// The decoder fed item by item, the verified bytes and the error.
fn decode_by_item(
    stream: &[u8],
    tree: bao::Tree,
    root: blake3::Hash,
    ranges: &[Range<u64>],
) -> (Vec<u8>, Option<bao::BaoError>) {
    let mut decoder = bao::Decoder::new(tree, root, ranges);
    let (mut out, mut rest) = (Vec::new(), stream);
    loop {
        let want = decoder.want();
        if want == bao::Want::Done || rest.len() < want.len() {
            return (out, None);
        }
        let (item, tail) = rest.split_at(want.len());
        rest = tail;
        match decoder.feed(item) {
            Ok(Some(group)) => out.extend_from_slice(group.bytes),
            Ok(None) => {}
            Err(error) => return (out, Some(error)),
        }
    }
}

/// The decoder fed the stream in pieces of random lengths through
/// `feed_stream` (many groups per step).
fn decode_by_stream(
    stream: &[u8],
    tree: bao::Tree,
    root: blake3::Hash,
    ranges: &[Range<u64>],
    rng: &mut TestRng,
) -> (Vec<u8>, Option<bao::BaoError>) {
    let mut decoder = bao::Decoder::new(tree, root, ranges);
    let (mut out, mut start, mut end) = (Vec::new(), 0, 0);
    loop {
        let mut sink = |group: bao::Verified| out.extend_from_slice(group.bytes);
        match decoder.feed_stream(&stream[start..end], &mut sink) {
            Ok(used) => start += used,
            Err(error) => return (out, Some(error)),
        }
        if decoder.want() == bao::Want::Done || end == stream.len() && decoder.want().len() > end - start {
            return (out, None);
        }
        end = (end + 1 + rng.next_u64() as usize % 40_000).min(stream.len());
    }
}

#[test]
fn stepwise_and_item_by_item_decoding_agree() {
    // `feed_stream` verifies many groups per step; it must give the same
    // bytes and the same first error, at the same place, as `feed`.
    let mut rng = TestRng::new(test_seed("stepwise_and_item_by_item_decoding_agree", 36));
    for group_log in [0, 1, 2, 4, 7, 8] {
        let tree = tree(group_log);
        for _ in 0..6 {
            let len = rng.next_u64() % (300 << 10);
            let input = rng.bytes(len as usize);
            let outboard = tree.outboard(&input, bao::Order::Pre);
            let ranges: Vec<Range<u64>> = (0..1 + rng.next_u64() % 3).map(|_| random_range(&mut rng, len)).collect();
            let ranges = if rng.next_u64().is_multiple_of(3) { bao::WHOLE.to_vec() } else { ranges };
            let slice = tree.slice(&input, &outboard, &ranges).unwrap();
            let mut streams = vec![slice.clone()];
            for _ in 0..4 {
                let index = rng.next_u64() as usize % slice.len();
                streams.push(flip(&slice, index, 1 << (rng.next_u64() % 8)));
            }
            for stream in &streams {
                let by_item = decode_by_item(stream, tree, outboard.root(), &ranges);
                let by_stream = decode_by_stream(stream, tree, outboard.root(), &ranges, &mut rng);
                assert_eq!(by_item, by_stream, "k {group_log} len {len} {ranges:?}");
            }
            let (out, error) = decode_by_item(&slice, tree, outboard.root(), &ranges);
            assert_eq!(error, None);
            if ranges == bao::WHOLE {
                assert_eq!(out, input);
            }
        }
    }
}

/// The outboard built from pieces (as the JavaScript binding copies a
/// message in) is `outboard`'s and `bao-tree`'s, for pieces of one length
/// and pieces of random aligned lengths; bad pieces are errors.
#[test]
fn outboards_from_pieces_match_whole_ones() {
    let mut rng = TestRng::new(test_seed("outboards_from_pieces_match_whole_ones", 38));
    for group_log in [0u8, 1, 4, 8] {
        let tree = tree(group_log);
        let group = 1024u64 << group_log;
        let max_len = TestScale::pick(u64::MAX, 256 << 10, 64 << 10);
        let mut lengths = boundary_lengths(group_log, 9, max_len, &mut rng);
        lengths.extend([rng.next_u64() % (600 << 10), rng.next_u64() % (600 << 10)].map(|len| len.min(max_len)));
        for len in lengths {
            let input = rng.bytes(len as usize);
            let groups = len.div_ceil(group).max(1);
            for order in [bao::Order::Pre, bao::Order::Post] {
                let whole = tree.outboard(&input, order);
                let theirs = match order {
                    bao::Order::Pre => PreOrderMemOutboard::create(&input, BlockSize::from_chunk_log(group_log)).data,
                    bao::Order::Post => PostOrderMemOutboard::create(&input, BlockSize::from_chunk_log(group_log)).data,
                };
                assert!(whole.nodes() == theirs, "k {group_log} len {len} {order:?}");
                // Pieces of one length, then of random aligned lengths.
                for fixed in [Some(1u64 << (rng.next_u64() % 6)), None] {
                    let mut builder = tree.outboard_builder(len, order).unwrap();
                    let mut taken = 0u64;
                    let mut pieces = Vec::new();
                    loop {
                        let lowbit = if taken == 0 { u64::MAX } else { 1 << taken.trailing_zeros() };
                        let want = fixed.unwrap_or_else(|| 1 << (rng.next_u64() % 6)).min(lowbit);
                        let rest = groups - taken;
                        let piece = if want >= rest && rest <= lowbit { rest } else { want.min(rest - 1).max(1) };
                        let piece = if piece < rest { 1 << piece.ilog2() } else { piece };
                        let start = (taken * group).min(len) as usize;
                        let end = ((taken + piece) * group).min(len) as usize;
                        builder.update(&input[start..end]).unwrap_or_else(|e| panic!("k {group_log} len {len}: {e}"));
                        pieces.push(piece);
                        taken += piece;
                        if taken == groups {
                            break;
                        }
                    }
                    assert_eq!(builder.finish().unwrap(), whole, "k {group_log} len {len} {order:?} pieces {pieces:?}");
                }
            }
            if groups >= 4 {
                // Three groups is no subtree; an unfinished outboard; a piece
                // past the end.
                let mut builder = tree.outboard_builder(len, bao::Order::Pre).unwrap();
                let three = builder.update(&input[..3 * group as usize]);
                assert!(matches!(three, Err(bao::BaoError::Piece { offset: 0, .. })), "{three:?}");
                builder.update(&input[..group as usize]).unwrap();
                let early = builder.clone().finish();
                assert!(matches!(early, Err(bao::BaoError::Piece { len: 0, .. })), "{early:?}");
                let past = builder.update(&input);
                assert!(matches!(past, Err(bao::BaoError::Piece { .. })), "{past:?}");
            }
        }
    }
}

/// An empty piece adds nothing, as every hasher's update: before, between
/// and after the pieces of a message, and as the only "piece" of the empty
/// message (whose one group `finish` then takes).
#[test]
fn empty_pieces_are_no_ops() {
    let input = bao_input(5000);
    for order in [bao::Order::Pre, bao::Order::Post] {
        for (tree, len) in [(tree(0), 5000), (tree(2), 5000), (tree(0), 0), (tree(0), 1024)] {
            let data = &input[..len];
            let whole = tree.outboard(data, order);
            let mut builder = tree.outboard_builder(len as u64, order).unwrap();
            builder.update(&[]).unwrap_or_else(|e| panic!("len {len}, first: {e}"));
            let group = tree.group_len();
            let pieces: Vec<&[u8]> = match len > 4 * group {
                true => vec![&data[..4 * group], &data[4 * group..]],
                false => vec![data],
            };
            for piece in pieces {
                builder.update(piece).unwrap();
                builder.update(&[]).unwrap_or_else(|e| panic!("len {len}, after a piece: {e}"));
            }
            assert_eq!(builder.finish().unwrap(), whole, "len {len} {order:?}");
        }
        // The empty message with no update at all.
        let empty = tree(0).outboard_builder(0, order).unwrap().finish().unwrap();
        assert_eq!(empty, tree(0).outboard(&[], order));
    }
}

/// An outboard this process cannot allocate is an error, not an abort
/// (the bindings pass lengths from their users): 64 PiB of nodes for an
/// exabyte in 1 KiB groups fits in `isize` but in no address space.
#[test]
#[cfg_attr(miri, ignore = "Miri reports a huge allocation instead of failing it")]
fn an_outboard_too_large_to_allocate_is_an_error() {
    let len = 1u64 << 60;
    let built = bao::Tree::bao().outboard_builder(len, bao::Order::Pre);
    match built {
        Err(bao::BaoError::OutboardSize { len: l, bytes }) => {
            assert_eq!(l, len);
            assert!(bytes > 1 << 50, "{bytes}");
        }
        other => panic!("{:?}", other.map(|_| "a builder")),
    }
}

#[cfg(feature = "parallel")]
#[test]
fn parallel_outboards_equal_serial_ones() {
    let mut rng = TestRng::new(test_seed("parallel_outboards_equal_serial_ones", 37));
    for group_log in [0, 3, 4, 7, 8, 11] {
        let tree = tree(group_log);
        // Around the 1 MiB pieces the threads take, and one group.
        // Emulated targets: up to one piece boundary.
        let max_len = TestScale::pick(u64::MAX, (1 << 20) + 1, (1 << 20) + 1);
        let lengths = [0, 1025, (1 << 20) - 1, 1 << 20, (1 << 20) + 1, (3 << 20) + 5000, rng.next_u64() % (5 << 20)];
        for len in lengths.into_iter().filter(|&len| len <= max_len) {
            let input = rng.bytes(len as usize);
            for order in [bao::Order::Pre, bao::Order::Post] {
                assert_eq!(
                    tree.outboard_parallel(&input, order),
                    tree.outboard(&input, order),
                    "k {group_log} len {len}"
                );
            }
        }
    }
}

#[test]
fn feed_all_checks_a_whole_stream_and_bytes_in_cuts_groups_to_the_range() {
    let tree = tree(1);
    let input = bao_input(10_000);
    let outboard = tree.outboard(&input, bao::Order::Pre);
    let range = 3000..3100u64;
    let ranges = [range.clone()];
    let slice = tree.slice(&input, &outboard, &ranges).unwrap();
    let read = |stream: &[u8]| {
        let mut out = Vec::new();
        let result = bao::Decoder::new(tree, outboard.root(), &ranges)
            .feed_all(stream, |group| out.extend_from_slice(group.bytes_in(&range)));
        (result, out)
    };
    let (result, out) = read(&slice);
    assert_eq!(result, Ok(()));
    assert_eq!(out, &input[3000..3100]);
    // Cut short: the error says where; extended: every group first, then the error.
    let (result, out) = read(&slice[..slice.len() - 1]);
    assert_eq!(result, Err(bao::BaoError::Truncated { position: 8 + 3 * 64, len: 2048, end: slice.len() as u64 - 1 }));
    assert!(out.is_empty());
    let longer = [&slice[..], b"!!"].concat();
    let (result, out) = read(&longer);
    assert_eq!(result, Err(bao::BaoError::Extended { position: slice.len() as u64, extra: 2 }));
    assert_eq!(out, &input[3000..3100]);
    assert!(matches!(read(&flip(&slice, slice.len() - 5, 1)).0, Err(bao::BaoError::Mismatch { .. })));
    // A group outside the range, or at its edges.
    let group = bao::Verified { offset: 2048, bytes: &input[2048..4096] };
    assert_eq!(group.bytes_in(&(0..2048)), b"");
    assert_eq!(group.bytes_in(&(4096..5000)), b"");
    assert_eq!(group.bytes_in(&(0..u64::MAX)), &input[2048..4096]);
    assert_eq!(group.bytes_in(&(4000..4000)), b"");
    assert_eq!(group.bytes_in(&(4095..9000)), &input[4095..4096]);
}

/// `slice_len` of a huge message returns at once (it counts a wholly wanted
/// subtree without visiting its groups; the C and Python size calls take a
/// caller's length): the whole of a 1 PiB message is its encoding, and one
/// group of it is the header, 40 parents and the group.
#[test]
fn slice_len_of_a_huge_message_is_closed_form() {
    let tree = bao::Tree::bao();
    let len = 1u64 << 50;
    let parents = (len >> 10) - 1;
    assert_eq!(tree.slice_len(len, &[0..u64::MAX]), 8 + parents * 64 + len);
    assert_eq!(tree.slice_len(len, &[1 << 49..(1 << 49) + 1024]), 8 + 40 * 64 + 1024);
    assert_eq!(tree.slice_len(u64::MAX, &[0..u64::MAX]), u64::MAX);
}
