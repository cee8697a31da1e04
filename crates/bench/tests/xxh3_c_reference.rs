//! chunkhash's XXH3 against the reference C library itself (Debian's
//! libxxhash, feature `c-xxhash`): every length up to 4160 bytes and random
//! lengths up to 1 MiB, with seed 0, random seeds and random custom secrets,
//! on every XXH3 kernel this machine supports. The differential tests in
//! `crates/chunkhash/tests/xxh3.rs` do the same against twox-hash, with
//! streaming; this is the second, independent oracle.

#![cfg(feature = "c-xxhash")]

use chunkhash::xxh3::{Kernel, Secret, Xxh3};
use chunkhash_bench::c_xxhash;
use vectors::{test_seed, TestRng};

fn check(input: &[u8], seed: u64, secret: &[u8], kernels: &[Kernel]) {
    let len = input.len();
    let expected_seeded = (c_xxhash::xxh3_64_with_seed(input, seed), c_xxhash::xxh3_128_with_seed(input, seed));
    let expected_keyed = (c_xxhash::xxh3_64_with_secret(input, secret), c_xxhash::xxh3_128_with_secret(input, secret));
    for &kernel in kernels {
        let seeded = Xxh3::with_seed(seed).with_kernel(kernel).unwrap();
        assert_eq!((seeded.hash64(input), seeded.hash128(input)), expected_seeded, "len {len}, seed {seed}, {kernel}");
        let keyed = Xxh3::with_secret(Secret::new(secret).unwrap()).with_kernel(kernel).unwrap();
        assert_eq!((keyed.hash64(input), keyed.hash128(input)), expected_keyed, "len {len}, secret, {kernel}");
    }
}

#[test]
fn xxh3_matches_the_c_library() {
    let kernels: Vec<Kernel> = Kernel::all().iter().copied().filter(|k| k.is_supported()).collect();
    println!("libxxhash {}, kernels {kernels:?}", c_xxhash::version());
    let mut rng = TestRng::new(test_seed("xxh3_matches_the_c_library", 4160));
    let data = rng.bytes(1 << 20);
    // A default-length secret, and one of 137 bytes (9-stripe blocks, an
    // odd length).
    let secrets = [rng.bytes(192), rng.bytes(137)];
    for len in 0..=4160 {
        let seed = if len % 3 == 0 { 0 } else { rng.next_u64() };
        check(&data[..len], seed, &secrets[len % 2], &kernels);
    }
    for _ in 0..16 {
        let len = rng.range(4161..=1 << 20);
        check(&data[..len], rng.next_u64(), &secrets[len % 2], &kernels);
    }
    // The dispatcher's entry points (what xxhsum runs) at seed 0.
    for len in [0, 17, 129, 241, 1024, 100_000] {
        assert_eq!(c_xxhash::xxh3_64(&data[..len]), chunkhash::xxh3::hash64(&data[..len]), "len {len}");
        assert_eq!(c_xxhash::xxh3_128(&data[..len]), chunkhash::xxh3::hash128(&data[..len]), "len {len}");
    }
}
