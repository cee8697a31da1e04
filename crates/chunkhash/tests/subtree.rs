//! The subtree API against the official `blake3` crate's `hazmat` module and
//! against one-shot hashing: random inputs cut into random valid trees
//! (seeded, the seed printed), every node's chaining value compared, in
//! every mode and on every backend this CPU supports; the root as a hash
//! and as extended output; and every misuse as its error.

mod common;

use ::blake3::hazmat::{self, HasherExt};
use chunkhash::blake3::subtree::{self, Mode, Subtree, SubtreeError};
use chunkhash::blake3::{self, Backend, CHUNK_LEN};
use common::{feed_in_pieces, supported_backends};
use vectors::{test_seed, TestRng};

const KEY: &[u8; 32] = b"chunkhash subtree tests key 32 B";
const CONTEXT: &str = "chunkhash 2026-11-22 subtree tests";

/// One mode in both libraries: ours, and the official hasher and merge mode.
struct Both {
    ours: Mode,
    name: &'static str,
}

impl Both {
    fn all(backend: Backend) -> [Both; 3] {
        [
            Both { ours: Mode::hash().with_backend(backend).unwrap(), name: "hash" },
            Both { ours: Mode::keyed(KEY).with_backend(backend).unwrap(), name: "keyed" },
            Both { ours: Mode::derive_key(CONTEXT).with_backend(backend).unwrap(), name: "derive_key" },
        ]
    }

    fn official_hasher(&self) -> ::blake3::Hasher {
        match self.name {
            "hash" => ::blake3::Hasher::new(),
            "keyed" => ::blake3::Hasher::new_keyed(KEY),
            _ => ::blake3::Hasher::new_derive_key(CONTEXT),
        }
    }

    fn official_merge_mode(&self, context_key: &hazmat::ContextKey) -> hazmat::Mode<'static> {
        match self.name {
            "hash" => hazmat::Mode::Hash,
            "keyed" => hazmat::Mode::KeyedHash(KEY),
            // Leaked once per call site: the official Mode borrows its key.
            _ => hazmat::Mode::DeriveKeyMaterial(Box::leak(Box::new(*context_key))),
        }
    }

    /// The official chaining value of `input` at `offset`.
    fn official_cv(&self, input: &[u8], offset: u64) -> [u8; 32] {
        let mut hasher = self.official_hasher();
        hasher.set_input_offset(offset).update(input);
        hasher.finalize_non_root()
    }

    /// The official extended output of the whole message.
    fn official_xof(&self, input: &[u8], len: usize) -> Vec<u8> {
        let mut out = vec![0u8; len];
        self.official_hasher().update(input).finalize_xof().fill(&mut out);
        out
    }
}

/// Hashes `input` (bytes `offset..` of a message) as a random valid tree:
/// either whole, in one call or in random pieces, or split where the tree
/// splits and merged; checks every node against the official crate.
fn random_tree(mode: &Both, official_mode: hazmat::Mode<'_>, rng: &mut TestRng, input: &[u8], offset: u64) -> Subtree {
    let split = input.len() > CHUNK_LEN && rng.range(0..=2) != 0;
    let ours = if split {
        let left_len = subtree::left_len(input.len() as u64).unwrap() as usize;
        let left = random_tree(mode, official_mode, rng, &input[..left_len], offset);
        let right = random_tree(mode, official_mode, rng, &input[left_len..], offset + left_len as u64);
        let parent = mode.ours.merge(&left, &right).unwrap();
        let official = hazmat::merge_subtrees_non_root(left.chaining_value(), right.chaining_value(), official_mode);
        assert_eq!(parent.chaining_value(), &official, "{} merge at {offset}+{}", mode.name, input.len());
        parent
    } else if rng.range(0..=1) == 0 {
        mode.ours.subtree(input, offset).unwrap()
    } else {
        let mut hasher = mode.ours.hasher(offset).unwrap();
        let pieces = [rng.range(1..=3000), rng.range(1..=70_000), rng.range(1..=64)];
        feed_in_pieces(input, &pieces, |piece| {
            hasher.update(piece).unwrap();
        });
        hasher.finalize().unwrap()
    };
    assert_eq!((ours.offset(), ours.len()), (offset, input.len() as u64));
    assert_eq!(
        ours.chaining_value(),
        &mode.official_cv(input, offset),
        "{} subtree at {offset}+{}",
        mode.name,
        input.len()
    );
    ours
}

/// Random lengths: a third up to 17 chunks (every kernel width), the rest
/// up to 2 MiB, a few past it.
fn random_len(rng: &mut TestRng) -> usize {
    match rng.range(0..=9) {
        0..=2 => rng.range(1..=17 * CHUNK_LEN + 1),
        3..=8 => rng.range(1..=2 << 20),
        _ => rng.range(2 << 20..=5 << 20),
    }
}

#[test]
fn random_trees_match_hazmat_and_one_shot_in_every_mode_and_backend() {
    let mut rng = TestRng::new(test_seed("random_trees_match_hazmat_and_one_shot_in_every_mode_and_backend", 20));
    let data = rng.bytes(5 << 20);
    let context_key = hazmat::hash_derive_key_context(CONTEXT);
    assert_eq!(subtree::context_key(CONTEXT), context_key);
    for backend in supported_backends() {
        for mode in &Both::all(backend) {
            let official_mode = mode.official_merge_mode(&context_key);
            for _ in 0..6 {
                let len = random_len(&mut rng).max(CHUNK_LEN + 1);
                let input = &data[..len];
                let left_len = subtree::left_len(len as u64).unwrap() as usize;
                let left = random_tree(mode, official_mode, &mut rng, &input[..left_len], 0);
                let right = random_tree(mode, official_mode, &mut rng, &input[left_len..], left_len as u64);

                let root = mode.ours.merge_root(&left, &right).unwrap();
                let official_root =
                    hazmat::merge_subtrees_root(left.chaining_value(), right.chaining_value(), official_mode);
                assert_eq!(root.as_bytes(), official_root.as_bytes(), "{} root of {len} on {backend}", mode.name);
                assert_eq!(root, mode.ours.hash_message(input), "{} root of {len} against one-shot", mode.name);

                let xof_len = rng.range(1..=300);
                let expected = mode.official_xof(input, xof_len);
                let mut ours = vec![0u8; xof_len];
                mode.ours.merge_root_xof(&left, &right).unwrap().fill(&mut ours);
                assert_eq!(ours, expected, "{} XOF root of {len}", mode.name);
                mode.ours.hash_message_xof(input).fill(&mut ours);
                assert_eq!(ours, expected, "{} XOF one-shot of {len}", mode.name);
            }
        }
    }
}

#[test]
fn the_modes_are_the_public_hashes() {
    let input = vec![9u8; 5000];
    let (split, len) = (4096, input.len() as u64);
    let parts = |mode: Mode| {
        let left = mode.subtree(&input[..split], 0).unwrap();
        let right = mode.subtree(&input[split..], split as u64).unwrap();
        assert_eq!(right.len(), len - split as u64);
        mode.merge_root(&left, &right).unwrap()
    };
    assert_eq!(parts(Mode::hash()), blake3::hash(&input));
    assert_eq!(parts(Mode::keyed(KEY)), blake3::keyed_hash(KEY, &input));
    assert_eq!(parts(Mode::derive_key(CONTEXT)), blake3::derive_key(CONTEXT, &input));
    let context_key = subtree::context_key(CONTEXT);
    assert_eq!(parts(Mode::derive_key_from_context_key(&context_key)), blake3::derive_key(CONTEXT, &input));
    // Messages of one chunk or less have no subtrees: hashed whole.
    for len in [0, 1, 64, 65, 1024] {
        assert_eq!(Mode::keyed(KEY).hash_message(&input[..len]), blake3::keyed_hash(KEY, &input[..len]), "len {len}");
    }
}

#[test]
fn every_chunk_and_every_aligned_subtree_at_many_offsets() {
    // Each offset's largest subtree, and shorter ones, on a 64-chunk message.
    let mut rng = TestRng::new(test_seed("every_chunk_and_every_aligned_subtree_at_many_offsets", 21));
    let data = rng.bytes(64 * CHUNK_LEN);
    let mode = Both { ours: Mode::hash(), name: "hash" };
    for chunk in 0..64u64 {
        let offset = chunk * CHUNK_LEN as u64;
        let max = subtree::max_subtree_len(offset).unwrap().unwrap_or(data.len() as u64);
        let official_max = hazmat::max_subtree_len(offset);
        assert_eq!(subtree::max_subtree_len(offset).unwrap(), official_max, "max at chunk {chunk}");
        for len in [1, 1024, max / 2 + 1, max - 1, max] {
            let end = (offset + len).min(data.len() as u64);
            if end <= offset {
                continue;
            }
            let input = &data[offset as usize..end as usize];
            let ours = mode.ours.subtree(input, offset).unwrap();
            assert_eq!(ours.chaining_value(), &mode.official_cv(input, offset), "chunk {chunk} len {len}");
        }
    }
}

#[test]
fn left_len_and_max_subtree_len_match_hazmat() {
    let mut rng = TestRng::new(test_seed("left_len_and_max_subtree_len_match_hazmat", 22));
    let mut lens: Vec<u64> = (1025..20_000).collect();
    for k in 11..63 {
        lens.extend([(1 << k) - 1, 1 << k, (1 << k) + 1]);
    }
    lens.extend((0..10_000).map(|_| rng.next_u64() >> rng.range(0..=52)).filter(|&len| len > 1024));
    for len in lens {
        assert_eq!(subtree::left_len(len), Ok(hazmat::left_subtree_len(len)), "left_len({len})");
    }
    assert_eq!(subtree::left_len(u64::MAX), Ok(1 << 63));
    for chunk in (0..5000).chain((0..1000).map(|_| rng.next_u64() >> 11)) {
        let offset = chunk * CHUNK_LEN as u64;
        assert_eq!(subtree::max_subtree_len(offset), Ok(hazmat::max_subtree_len(offset)), "chunk {chunk}");
    }
}

#[cfg(feature = "parallel")]
#[test]
fn parallel_subtrees_equal_serial_ones() {
    let mut rng = TestRng::new(test_seed("parallel_subtrees_equal_serial_ones", 23));
    let data = rng.bytes(4 << 20);
    let mode = Mode::keyed(KEY);
    for (offset, len) in [(0, 4 << 20), (4 << 20, 4 << 20), (1 << 20, 1 << 20), (3 << 20, 300_001)] {
        let input = &data[..len];
        let serial = mode.subtree(input, offset).unwrap();
        assert_eq!(mode.subtree_parallel(input, offset).unwrap(), serial, "{offset}+{len}");
        let mut hasher = mode.hasher(offset).unwrap();
        hasher.update_parallel(&input[..len / 3]).unwrap().update_parallel(&input[len / 3..]).unwrap();
        assert_eq!(hasher.finalize().unwrap(), serial, "hasher {offset}+{len}");
    }
}

#[test]
fn unaligned_offsets_are_refused() {
    let mode = Mode::hash();
    for offset in [1, 512, 1023, 1025, 4097, u64::MAX] {
        let error = SubtreeError::UnalignedOffset { offset };
        assert_eq!(mode.subtree(b"x", offset), Err(error));
        assert_eq!(mode.hasher(offset).unwrap_err(), error);
        assert_eq!(Subtree::from_parts([0; 32], offset, 1), Err(error));
        assert_eq!(subtree::max_subtree_len(offset), Err(error));
    }
    assert!(SubtreeError::UnalignedOffset { offset: 7 }.to_string().contains("not a multiple of the chunk length"));
}

#[test]
fn empty_subtrees_are_refused() {
    let mode = Mode::hash();
    assert_eq!(mode.subtree(b"", 0), Err(SubtreeError::Empty { offset: 0 }));
    assert_eq!(mode.subtree(b"", 2048), Err(SubtreeError::Empty { offset: 2048 }));
    assert_eq!(Subtree::from_parts([0; 32], 1024, 0), Err(SubtreeError::Empty { offset: 1024 }));
    let mut hasher = mode.hasher(3072).unwrap();
    assert_eq!(hasher.finalize(), Err(SubtreeError::Empty { offset: 3072 }));
    hasher.update(b"").unwrap();
    assert_eq!(hasher.finalize(), Err(SubtreeError::Empty { offset: 3072 }));
}

#[test]
fn subtrees_too_long_for_their_offset_are_refused() {
    let mode = Mode::hash();
    let data = vec![1u8; 9 * CHUNK_LEN];
    // Chunk 3 starts a subtree of one chunk, chunk 6 one of two.
    let too_long = |offset: u64, len: usize, max_len: u64| SubtreeError::TooLong { offset, len: len as u64, max_len };
    assert_eq!(mode.subtree(&data[..1025], 3072), Err(too_long(3072, 1025, 1024)));
    assert_eq!(mode.subtree(&data[..2049], 6144), Err(too_long(6144, 2049, 2048)));
    assert_eq!(Subtree::from_parts([0; 32], 8192, 8193), Err(too_long(8192, 8193, 8192)));
    // The end of the input space: 2^64 - 1024 starts a one-chunk subtree that must end by 2^64 - 1.
    let last = u64::MAX - 1023;
    assert_eq!(Subtree::from_parts([0; 32], last, 1024), Err(too_long(last, 1024, 1023)));
    assert!(Subtree::from_parts([0; 32], last, 1023).is_ok());

    // The incremental hasher refuses the update that would overflow and keeps what it had.
    let mut hasher = mode.hasher(6144).unwrap();
    hasher.update(&data[..2000]).unwrap();
    assert_eq!(hasher.update(&data[..49]).unwrap_err(), too_long(6144, 2049, 2048));
    assert_eq!(hasher.count(), 2000);
    hasher.update(&data[2000..2048]).unwrap();
    assert_eq!(hasher.finalize().unwrap(), mode.subtree(&data[..2048], 6144).unwrap());
    assert!(too_long(6144, 2049, 2048).to_string().contains("at most 2048 bytes, not 2049"));
}

#[test]
fn merges_of_non_siblings_are_refused() {
    let mode = Mode::hash();
    let data = vec![2u8; 8 * CHUNK_LEN];
    let at =
        |chunk: usize, chunks: usize| mode.subtree(&data[..chunks * CHUNK_LEN], (chunk * CHUNK_LEN) as u64).unwrap();
    let not_siblings = |l: &Subtree, r: &Subtree| SubtreeError::NotSiblings {
        left_offset: l.offset(),
        left_len: l.len(),
        right_offset: r.offset(),
        right_len: r.len(),
    };
    let cases = [
        (at(0, 1), at(2, 1), Some("a gap")),
        (at(0, 2), at(1, 1), Some("an overlap")),
        (at(2, 1), at(1, 1), Some("the wrong order")),
        (at(0, 3), at(3, 1), Some("a left child of three chunks")),
        (at(0, 1), mode.subtree(&data[..10], 1024).unwrap(), None),
        (at(0, 1), at(1, 1), None),
        (at(4, 2), at(6, 2), None),
        (at(0, 2), at(2, 1), None),
        (at(4, 2), at(6, 1), None),
    ];
    for (left, right, wrong) in &cases {
        let result = mode.merge(left, right);
        match wrong {
            None => assert!(result.is_ok(), "{left:?} {right:?}"),
            Some(what) => {
                assert_eq!(result, Err(not_siblings(left, right)), "{what}");
                assert_eq!(mode.merge_root(left, right), Err(not_siblings(left, right)), "{what}, root");
            }
        }
    }
    // A left child that is not whole chunks.
    let ragged = mode.subtree(&data[..1536], 0).unwrap();
    let next = at(2, 1);
    assert_eq!(mode.merge(&ragged, &next), Err(not_siblings(&ragged, &next)));
    // Siblings whose parent does not fit its offset: chunks 1 and 2 are in different subtrees.
    assert_eq!(mode.merge(&at(1, 1), &at(2, 1)), Err(SubtreeError::TooLong { offset: 1024, len: 2048, max_len: 1024 }));
    assert!(not_siblings(&at(0, 1), &at(2, 1)).to_string().contains("not the two children of one tree node"));
}

#[test]
fn a_root_merge_away_from_the_start_is_refused() {
    let mode = Mode::hash();
    let data = vec![3u8; 4 * CHUNK_LEN];
    let left = mode.subtree(&data[..2048], 4096).unwrap();
    let right = mode.subtree(&data[..2048], 6144).unwrap();
    assert!(mode.merge(&left, &right).is_ok());
    assert_eq!(mode.merge_root(&left, &right), Err(SubtreeError::RootNotAtStart { offset: 4096 }));
    assert_eq!(mode.merge_root_xof(&left, &right).unwrap_err(), SubtreeError::RootNotAtStart { offset: 4096 });
}

#[test]
fn left_len_of_a_single_chunk_is_refused() {
    for len in [0, 1, 1023, 1024] {
        assert_eq!(subtree::left_len(len), Err(SubtreeError::NoChildren { len }));
    }
    assert_eq!(subtree::left_len(1025), Ok(1024));
    assert!(SubtreeError::NoChildren { len: 3 }.to_string().contains("one chunk or less"));
}
