//! Differential tests against the official `blake3` crate (a dev-dependency
//! only): every length up to just past 17 KiB, random lengths up to 4 MiB,
//! random update split points, random extended-output positions, in every
//! mode and on every backend this CPU supports. Inputs are seeded random bytes.
//! Under qemu-user, WASI and Miri, the sweeps take the lengths of
//! `vectors::lengths_up_to` and the random tests fewer rounds (`TestScale`).

mod common;

use chunkhash::blake3::{self, Backend, Hasher};
use common::supported_backends;
use vectors::{lengths_up_to, test_seed, TestRng, TestScale};

const KEY: &[u8; 32] = b"chunkhash differential test key!";
const CONTEXT: &str = "chunkhash 2026-11-22 differential tests";

/// Every length to just past 16 chunks plus one block, which covers every
/// kernel width (16 lanes on AVX-512), ragged last chunks and a second tree level.
const EXHAUSTIVE_MAX_LEN: usize = 17 * 1024 + 65;

fn official(input: &[u8]) -> [u8; 32] {
    *::blake3::hash(input).as_bytes()
}

#[test]
fn every_length_one_shot_and_single_update() {
    let mut rng = TestRng::new(test_seed("every_length_one_shot_and_single_update", 1));
    let data = rng.bytes(EXHAUSTIVE_MAX_LEN);
    let backends = supported_backends();
    for len in lengths_up_to(EXHAUSTIVE_MAX_LEN) {
        let input = &data[..len];
        let expected = official(input);
        for &backend in &backends {
            assert_eq!(blake3::hash_with_backend(backend, input).unwrap(), expected, "hash, len {len}, {backend}");
            let mut hasher = Hasher::new_with_backend(backend).unwrap();
            hasher.update(input);
            assert_eq!(hasher.finalize(), expected, "Hasher, len {len}, {backend}");
        }
    }
}

#[test]
fn every_length_keyed_and_derive_key() {
    let mut rng = TestRng::new(test_seed("every_length_keyed_and_derive_key", 2));
    let data = rng.bytes(4100);
    let backends = supported_backends();
    for len in lengths_up_to(4100) {
        let input = &data[..len];
        let keyed = *::blake3::keyed_hash(KEY, input).as_bytes();
        let derived = ::blake3::derive_key(CONTEXT, input);
        assert_eq!(blake3::keyed_hash(KEY, input), keyed, "keyed, len {len}");
        assert_eq!(blake3::derive_key(CONTEXT, input), derived, "derive_key, len {len}");
        for &backend in &backends {
            let mut hasher = Hasher::new_keyed_with_backend(backend, KEY).unwrap();
            hasher.update(input);
            assert_eq!(hasher.finalize(), keyed, "keyed Hasher, len {len}, {backend}");
            let mut hasher = Hasher::new_derive_key_with_backend(backend, CONTEXT).unwrap();
            hasher.update(input);
            assert_eq!(*hasher.finalize().as_bytes(), derived, "derive_key Hasher, len {len}, {backend}");
        }
    }
}

/// A length drawn towards the interesting places: near chunk and block
/// edges, small, or anywhere up to `max`.
fn random_len(rng: &mut TestRng, max: usize) -> usize {
    match rng.range(0..=3) {
        0 => rng.range(0..=max),
        1 => (rng.range(0..=max / 1024) * 1024).saturating_add_signed(rng.range(0..=2) as isize - 1).min(max),
        2 => rng.range(0..=64 * 1024).min(max),
        _ => (rng.range(0..=max / 64) * 64 + rng.range(0..=1)).min(max),
    }
}

/// Splits `input` at random points, weighted towards small and edge-sized pieces.
fn random_pieces<'a>(rng: &mut TestRng, input: &'a [u8]) -> Vec<&'a [u8]> {
    let mut pieces = Vec::new();
    let mut rest = input;
    while !rest.is_empty() {
        let len = match rng.range(0..=4) {
            0 => rng.range(0..=64),
            1 => rng.range(1023..=1025),
            2 => rng.range(0..=20_000),
            3 => rng.range(0..=rest.len()),
            _ => rng.range(1..=5) * 1024 * rng.range(1..=16),
        }
        .min(rest.len());
        let (piece, tail) = rest.split_at(len);
        pieces.push(piece);
        rest = tail;
    }
    pieces
}

#[test]
fn random_lengths_and_split_points() {
    let mut rng = TestRng::new(test_seed("random_lengths_and_split_points", 3));
    let data = rng.bytes(TestScale::pick(4 << 20, 1 << 20, 4 << 10));
    let backends = supported_backends();
    for case in 0..TestScale::pick(60, 12, 1) {
        let max = if case < 10 { data.len() } else { data.len().min(1 << 20) };
        let len = random_len(&mut rng, max);
        let input = &data[rng.range(0..=data.len() - len)..][..len];
        let expected = official(input);
        for &backend in &backends {
            assert_eq!(blake3::hash_with_backend(backend, input).unwrap(), expected, "len {len}, {backend}");
            let pieces = random_pieces(&mut rng, input);
            let mut hasher = Hasher::new_with_backend(backend).unwrap();
            for piece in &pieces {
                hasher.update(piece);
                // Finalizing midway must not disturb the hasher.
                if rng.range(0..=20) == 0 {
                    hasher.finalize();
                }
            }
            let piece_lens: Vec<usize> = pieces.iter().map(|p| p.len()).collect();
            assert_eq!(hasher.finalize(), expected, "len {len}, {backend}, pieces {piece_lens:?}");
        }
    }
}

#[test]
fn random_extended_output_positions() {
    let mut rng = TestRng::new(test_seed("random_extended_output_positions", 4));
    for case in 0..TestScale::pick(200, 40, 2) {
        let len = random_len(&mut rng, TestScale::pick(20_000, 20_000, 2_000));
        let input = rng.bytes(len);
        let mut official = ::blake3::Hasher::new();
        official.update(&input);
        let mut official_reader = official.finalize_xof();
        let mut ours = Hasher::new();
        ours.update(&input);
        let mut reader = ours.finalize_xof();
        for _ in 0..4 {
            let position = match rng.range(0..=2) {
                0 => rng.range(0..=300) as u64,
                1 => rng.next_u64() >> rng.range(0..=63),
                _ => (rng.next_u64() >> 8) * 64,
            };
            let out_len = rng.range(0..=700);
            let mut expected = vec![0u8; out_len];
            official_reader.set_position(position);
            official_reader.fill(&mut expected);
            let mut got = vec![0u8; out_len];
            reader.set_position(position);
            reader.fill(&mut got);
            assert_eq!(got, expected, "case {case}, len {len}, position {position}, {out_len} bytes");
        }
    }
}

#[test]
fn hashers_on_every_backend_agree_with_detected() {
    // The default constructor uses the detected (or forced) backend.
    let input = TestRng::new(5).bytes(TestScale::pick(100_000, 100_000, 2_000));
    let expected = official(&input);
    assert_eq!(blake3::hash(&input), expected);
    for &backend in Backend::all().iter().filter(|b| b.is_supported()) {
        assert_eq!(Hasher::new_with_backend(backend).unwrap().update(&input).finalize(), expected);
    }
}
