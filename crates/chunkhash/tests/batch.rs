//! Batch hashing against one-at-a-time hashing and the official crate:
//! random batches of 0..=300 messages, lengths weighted to block and chunk
//! edges, a huge message among tiny ones, the empty batch, every mode and
//! every backend this CPU supports. Seeded random bytes. Under qemu-user,
//! WASI and Miri, fewer rounds and the lengths of `vectors::lengths_up_to`
//! (`TestScale`).

mod common;

use chunkhash::blake3::{self, Address, Batch, Hash};
use common::supported_backends;
use vectors::{lengths_up_to, test_seed, TestRng, TestScale};

const EDGE_LENS: [usize; 10] = [0, 1, 63, 64, 65, 1023, 1024, 1025, 2048, 4096];
const KEY: &[u8; 32] = b"chunkhash batch test key 32 byte";
const CONTEXT: &str = "chunkhash 2026-11-22 batch tests";

fn random_batch<'a>(rng: &mut TestRng, data: &'a [u8], max_count: usize) -> Vec<&'a [u8]> {
    let count = rng.range(0..=max_count);
    // Under Miri, messages of at most two chunks and a byte.
    let max_len = TestScale::pick(10 * 1024, 10 * 1024, 1100);
    (0..count)
        .map(|_| {
            let len = match rng.range(0..=2) {
                0 => EDGE_LENS[rng.range(0..=EDGE_LENS.len() - 1)],
                1 => rng.range(0..=10 * 1024),
                _ => rng.range(0..=1100),
            }
            .min(max_len);
            let start = rng.range(0..=data.len() - len);
            &data[start..start + len]
        })
        .collect()
}

#[test]
fn random_batches_match_the_official_crate_on_every_backend() {
    let mut rng = TestRng::new(test_seed("random_batches_match_the_official_crate_on_every_backend", 31));
    let data = rng.bytes(64 * 1024);
    let backends = supported_backends();
    for round in 0..TestScale::pick(40, 8, 1) {
        let inputs = random_batch(&mut rng, &data, TestScale::pick(300, 300, 6));
        let expected: Vec<[u8; 32]> = inputs.iter().map(|input| *::blake3::hash(input).as_bytes()).collect();
        for &backend in &backends {
            let batch = Batch::new().with_backend(backend).unwrap();
            let mut out = vec![Hash::from([0; 32]); inputs.len()];
            batch.hash_many(&inputs, &mut out);
            for (i, (got, expected)) in out.iter().zip(&expected).enumerate() {
                assert_eq!(got, expected, "round {round}, {backend}, message {i} of {} bytes", inputs[i].len());
            }
        }
    }
}

#[test]
fn keyed_derive_key_and_address_batches() {
    let mut rng = TestRng::new(test_seed("keyed_derive_key_and_address_batches", 32));
    let data = rng.bytes(64 * 1024);
    for &backend in &supported_backends() {
        for _ in 0..TestScale::pick(8, 2, 1) {
            let inputs = random_batch(&mut rng, &data, TestScale::pick(120, 120, 4));
            let mut keyed = vec![Hash::from([0; 32]); inputs.len()];
            Batch::new_keyed(KEY).with_backend(backend).unwrap().hash_many(&inputs, &mut keyed);
            let mut derived = vec![[0u8; 32]; inputs.len()];
            Batch::new_derive_key(CONTEXT).with_backend(backend).unwrap().hash_many_bytes(&inputs, &mut derived);
            let mut addresses = vec![Address::from([0; 20]); inputs.len()];
            Batch::new().with_backend(backend).unwrap().address_many(&inputs, &mut addresses);
            let mut keyed_bytes = vec![[0u8; 32]; inputs.len()];
            Batch::new_keyed(KEY).with_backend(backend).unwrap().hash_many_bytes(&inputs, &mut keyed_bytes);
            for (i, input) in inputs.iter().enumerate() {
                assert_eq!(keyed[i], *::blake3::keyed_hash(KEY, input).as_bytes(), "keyed {i}, {backend}");
                assert_eq!(keyed_bytes[i], *::blake3::keyed_hash(KEY, input).as_bytes(), "keyed bytes {i}, {backend}");
                assert_eq!(derived[i], ::blake3::derive_key(CONTEXT, input), "derive_key {i}, {backend}");
                assert_eq!(addresses[i].as_bytes()[..], ::blake3::hash(input).as_bytes()[..20], "address {i}");
            }
        }
    }
    // The free functions use the detected backend.
    let inputs = random_batch(&mut rng, &data, 50);
    let mut keyed = vec![Hash::from([0; 32]); inputs.len()];
    blake3::keyed_hash_many(KEY, &inputs, &mut keyed);
    let mut derived = vec![[0u8; 32]; inputs.len()];
    blake3::derive_key_many(CONTEXT, &inputs, &mut derived);
    let mut addresses = vec![Address::from([0; 20]); inputs.len()];
    blake3::address_many(&inputs, &mut addresses);
    for (i, input) in inputs.iter().enumerate() {
        assert_eq!(keyed[i], blake3::keyed_hash(KEY, input));
        assert_eq!(derived[i], blake3::derive_key(CONTEXT, input));
        assert_eq!(addresses[i], blake3::address(input));
    }
}

#[test]
fn huge_messages_among_tiny_ones() {
    let mut rng = TestRng::new(test_seed("huge_messages_among_tiny_ones", 33));
    let huge = rng.bytes(TestScale::pick(1 << 20, 1 << 20, 2 << 10) + 123);
    let mid = rng.bytes(TestScale::pick(17 * 1024 + 5, 17 * 1024 + 5, 1029));
    let tiny: Vec<Vec<u8>> = (0..TestScale::pick(200, 200, 8)).map(|i| rng.bytes(i % 70)).collect();
    let mut inputs: Vec<&[u8]> = tiny.iter().map(Vec::as_slice).collect();
    inputs.insert(0, &huge);
    inputs.insert(inputs.len() / 2, &mid);
    inputs.push(&huge);
    for &backend in &supported_backends() {
        let out = Batch::new().with_backend(backend).unwrap().hash_many_vec(&inputs);
        for (i, input) in inputs.iter().enumerate() {
            assert_eq!(out[i], *::blake3::hash(input).as_bytes(), "message {i} ({} bytes), {backend}", input.len());
        }
    }
}

#[test]
fn every_length_up_to_sixteen_chunks_in_one_batch() {
    // All lengths 0..=16 KiB+1 in one batch: every tree shape the pool
    // handles, each against the official crate (an independent reference,
    // not chunkhash's own one-message path).
    let data = TestRng::new(34).bytes(16 * 1024 + 1);
    let inputs: Vec<&[u8]> = lengths_up_to(data.len()).into_iter().map(|len| &data[..len]).collect();
    let expected: Vec<[u8; 32]> = inputs.iter().map(|input| *::blake3::hash(input).as_bytes()).collect();
    for &backend in &supported_backends() {
        let out = Batch::new().with_backend(backend).unwrap().hash_many_vec(&inputs);
        for (i, hash) in out.iter().enumerate() {
            assert_eq!(*hash, expected[i], "len {}, {backend}", inputs[i].len());
        }
    }
}

#[test]
fn empty_batch_and_vec_form() {
    let mut out: [Hash; 0] = [];
    blake3::hash_many(&[], &mut out);
    assert!(blake3::hash_many_vec(&[]).is_empty());
    assert_eq!(blake3::hash_many_vec(&[b"abc"]), vec![blake3::hash(b"abc")]);
}

#[test]
#[should_panic(expected = "one output per input")]
fn mismatched_output_length_panics() {
    let mut out = [Hash::from([0; 32]); 1];
    blake3::hash_many(&[b"a", b"b"], &mut out);
}
