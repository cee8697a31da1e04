//! `Hasher::update_parallel` gives the same bytes as `update` and as the
//! official crate, on every backend, at sizes around the point where it
//! starts to split work between threads.
#![cfg(feature = "parallel")]

mod common;

use chunkhash::blake3::Hasher;
use common::supported_backends;
use vectors::{test_seed, TestRng, TestScale};

#[test]
fn update_parallel_matches_update_and_the_official_crate() {
    let mut rng = TestRng::new(test_seed("update_parallel_matches_update_and_the_official_crate", 21));
    let data = rng.bytes(TestScale::pick(9 << 20, 2 << 20, 300 << 10));
    let mut lens = vec![0, 1, 1024, 1025, 128 << 10, (128 << 10) + 1, 256 << 10, (1 << 20) + 7, 9 << 20];
    lens.retain(|&len| len <= data.len());
    lens.extend((0..TestScale::pick(8, 2, 1)).map(|_| rng.range(0..=data.len())));
    for &backend in &supported_backends() {
        for &len in &lens {
            let input = &data[..len];
            let expected = *::blake3::hash(input).as_bytes();
            let mut parallel = Hasher::new_with_backend(backend).unwrap();
            parallel.update_parallel(input);
            assert_eq!(parallel.finalize(), expected, "len {len}, {backend}");
            // Mixed with serial updates and an unaligned start.
            let split = rng.range(0..=len);
            let mut mixed = Hasher::new_with_backend(backend).unwrap();
            mixed.update(&input[..split]).update_parallel(&input[split..]);
            assert_eq!(mixed.finalize(), expected, "len {len}, split {split}, {backend}");
        }
    }
}
