//! The batch API's small messages against the official crate: every
//! length 0..=1024 in every lane position (a batch of one length fills
//! the lanes as it stands; one message short of the lanes goes through
//! the buckets), seeded random mixes of 0..=200 bytes (an Arrow string
//! column), every mode, every output form, both offset widths, and each
//! way offsets can be wrong. Every backend this CPU runs, or the one
//! `CHUNKHASH_BACKEND` forces.

mod common;

use chunkhash::blake3::{Address, Batch, Hash, OffsetsError};
use common::supported_backends;
use vectors::{test_seed, TestRng, TestScale};

const KEY: &[u8; 32] = b"chunkhash small batch test key!!";
const CONTEXT: &str = "chunkhash 2026-11-24 small batch tests";

/// The official crate's function for a mode.
type Official = fn(&[u8]) -> [u8; 32];

/// The three modes, each with the official crate's function for it.
fn modes(backend: chunkhash::blake3::Backend) -> [(&'static str, Batch, Official); 3] {
    [
        ("plain", Batch::new().with_backend(backend).unwrap(), |input| *::blake3::hash(input).as_bytes()),
        ("keyed", Batch::new_keyed(KEY).with_backend(backend).unwrap(), |input| {
            *::blake3::keyed_hash(KEY, input).as_bytes()
        }),
        ("derive-key", Batch::new_derive_key(CONTEXT).with_backend(backend).unwrap(), |input| {
            ::blake3::derive_key(CONTEXT, input)
        }),
    ]
}

/// Offsets of `lens` laid end to end from `first`.
fn offsets_of(first: usize, lens: &[usize]) -> Vec<i64> {
    let mut offsets = vec![first as i64];
    for len in lens {
        offsets.push(offsets[offsets.len() - 1] + *len as i64);
    }
    offsets
}

/// Hashes the column `values`/`offsets` in every output form and with both
/// offset widths, and checks each value against `expected`.
fn check_column(batch: &Batch, values: &[u8], offsets: &[i64], expected: &[[u8; 32]], what: &str) {
    let count = offsets.len() - 1;
    let narrow: Vec<i32> = offsets.iter().map(|&offset| offset as i32).collect();
    let mut hashes = vec![Hash::from([0; 32]); count];
    batch.hash_offsets(values, offsets, &mut hashes).unwrap();
    let mut bytes = vec![[0u8; 32]; count];
    batch.hash_offsets(values, &narrow, &mut bytes).unwrap();
    let mut addresses = vec![Address::from([0; 20]); count];
    batch.hash_offsets(values, &narrow, &mut addresses).unwrap();
    let mut address_bytes = vec![[0u8; 20]; count];
    batch.hash_offsets(values, offsets, &mut address_bytes).unwrap();
    for (i, expected) in expected.iter().enumerate() {
        let len = offsets[i + 1] - offsets[i];
        assert_eq!(hashes[i].as_bytes(), expected, "{what}: value {i} of {len} bytes, i64 offsets, Hash");
        assert_eq!(&bytes[i], expected, "{what}: value {i} of {len} bytes, i32 offsets, bytes");
        assert_eq!(addresses[i].as_bytes()[..], expected[..20], "{what}: value {i} of {len} bytes, Address");
        assert_eq!(address_bytes[i][..], expected[..20], "{what}: value {i} of {len} bytes, 20 bytes");
    }
}

#[test]
fn every_length_up_to_a_chunk_in_every_lane_position() {
    let data = TestRng::new(test_seed("every_length_up_to_a_chunk_in_every_lane_position", 41)).bytes(80 * 1024);
    let step = TestScale::pick(1, 7, 61);
    for &backend in &supported_backends() {
        for (mode, batch, official) in modes(backend) {
            for len in (0..=1024).step_by(step).chain([1024]) {
                // Sixteen messages of `len` bytes (different bytes each),
                // then fifteen: a full run of lanes, and a batch one short;
                // then several runs in one kernel call and a remainder.
                for count in [16, 15, 71] {
                    let lens = vec![len; count];
                    let first = len % 7;
                    let offsets = offsets_of(first, &lens);
                    let values = &data[..*offsets.last().unwrap() as usize];
                    let inputs: Vec<&[u8]> =
                        offsets.windows(2).map(|w| &values[w[0] as usize..w[1] as usize]).collect();
                    let expected: Vec<[u8; 32]> = inputs.iter().map(|input| official(input)).collect();
                    let what = format!("{backend}, {mode}, {count} x {len} B");
                    check_column(&batch, values, &offsets, &expected, &what);
                    let mut out = vec![[0u8; 32]; count];
                    batch.hash_many_bytes(&inputs, &mut out);
                    assert_eq!(out, expected, "{what}, hash_many_bytes");
                }
            }
        }
    }
}

#[test]
fn random_columns_of_short_values_match_the_official_crate() {
    let seed = test_seed("random_columns_of_short_values_match_the_official_crate", 42);
    let mut rng = TestRng::new(seed);
    for &backend in &supported_backends() {
        for (mode, batch, official) in modes(backend) {
            for round in 0..TestScale::pick(6, 2, 1) {
                let count = rng.range(0..=TestScale::pick(2000, 300, 40));
                // Mostly 0..=200 bytes, with a few longer values among them.
                let lens: Vec<usize> = (0..count)
                    .map(|_| if rng.range(0..=30) == 0 { rng.range(201..=3000) } else { rng.range(0..=200) })
                    .collect();
                let offsets = offsets_of(rng.range(0..=9), &lens);
                let values = rng.bytes(*offsets.last().unwrap() as usize);
                let expected: Vec<[u8; 32]> =
                    offsets.windows(2).map(|w| official(&values[w[0] as usize..w[1] as usize])).collect();
                let what = format!("{backend}, {mode}, seed {seed}, round {round}, {count} values");
                check_column(&batch, &values, &offsets, &expected, &what);
            }
        }
    }
}

#[test]
fn runs_of_equal_lengths_broken_anywhere_match_the_official_crate() {
    let seed = test_seed("runs_of_equal_lengths_broken_anywhere_match_the_official_crate", 43);
    let mut rng = TestRng::new(seed);
    for &backend in &supported_backends() {
        for (mode, batch, official) in modes(backend) {
            // Runs of 1 to 90 values of one length: runs of lanes that end
            // inside a group, span several kernel calls, or are too short.
            let mut lens = Vec::new();
            while lens.len() < TestScale::pick(3000, 600, 100) {
                let len = rng.range(0..=300);
                let run = rng.range(1..=90);
                lens.extend(core::iter::repeat_n(len, run));
            }
            let offsets = offsets_of(rng.range(0..=9), &lens);
            let values = rng.bytes(*offsets.last().unwrap() as usize);
            let inputs: Vec<&[u8]> = offsets.windows(2).map(|w| &values[w[0] as usize..w[1] as usize]).collect();
            let expected: Vec<[u8; 32]> = inputs.iter().map(|input| official(input)).collect();
            let what = format!("{backend}, {mode}, seed {seed}, {} values", lens.len());
            check_column(&batch, &values, &offsets, &expected, &what);
            let mut out = vec![[0u8; 32]; inputs.len()];
            batch.hash_many_bytes(&inputs, &mut out);
            assert_eq!(out, expected, "{what}, hash_many_bytes");
        }
    }
}

#[test]
fn bad_offsets_are_errors_and_nothing_is_written() {
    let values = [7u8; 10];
    let batch = Batch::new();
    let untouched = Hash::from([9; 32]);
    let cases: [(&[i64], usize, OffsetsError); 6] = [
        (&[0, 1], 2, OffsetsError::Count { offsets: 2, outputs: 2 }),
        (&[], 1, OffsetsError::Count { offsets: 0, outputs: 1 }),
        (&[0, -1, 2], 2, OffsetsError::Negative { index: 1 }),
        (&[0, 5, 4], 2, OffsetsError::Descending { index: 2 }),
        (&[0, 4, 11], 2, OffsetsError::OutOfRange { index: 2, values_len: 10 }),
        (&[11, 12], 1, OffsetsError::OutOfRange { index: 0, values_len: 10 }),
    ];
    for (offsets, outputs, expected) in cases {
        let mut out = vec![untouched; outputs];
        assert_eq!(batch.hash_offsets(&values, offsets, &mut out), Err(expected.clone()), "{offsets:?}");
        assert!(out.iter().all(|hash| *hash == untouched), "{offsets:?}: output written");
        let narrow: Vec<i32> = offsets.iter().map(|&offset| offset as i32).collect();
        assert_eq!(batch.hash_offsets(&values, &narrow, &mut out), Err(expected.clone()), "{offsets:?} as i32");
        assert!(!expected.to_string().is_empty());
    }
    // i32::MIN is negative, not wrapped into range.
    let mut out = [untouched; 1];
    assert_eq!(batch.hash_offsets(&values, &[i32::MIN, 0], &mut out), Err(OffsetsError::Negative { index: 0 }));
    // No values: no offsets, or one.
    let mut none: [Hash; 0] = [];
    batch.hash_offsets(&values, &[] as &[i32], &mut none).unwrap();
    batch.hash_offsets(&values, &[3i64], &mut none).unwrap();
}
