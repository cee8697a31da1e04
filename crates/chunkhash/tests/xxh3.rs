//! Differential tests of chunkhash's XXH3 against `twox-hash` (an
//! independent implementation, a dev-dependency only): every length up to
//! 4160 bytes and random lengths up to 1 MiB, with seed 0, random seeds and
//! custom secrets of several lengths, one-shot and streaming with random
//! split points, on every kernel this machine supports, each forced.
//! Inputs, seeds and secrets come from fixed, printed seeds.

mod common;

use chunkhash::xxh3::{self, Kernel, Secret, Xxh3};
use common::feed_in_pieces;
use twox_hash::{XxHash3_128, XxHash3_64};
use vectors::{test_seed, TestRng};

/// Past four default blocks (1024 bytes each) and a stripe: every short
/// path, every position of the last stripe in a block, several scrambles.
const EXHAUSTIVE_MAX_LEN: usize = 4160;

/// The kernels this machine runs; prints the ones it skips, so a run that
/// tested fewer than expected says so.
fn kernels() -> Vec<Kernel> {
    let mut supported = Vec::new();
    for &kernel in Kernel::all() {
        if kernel.is_supported() {
            supported.push(kernel);
        } else {
            println!("note: xxh3 kernel {kernel} not supported here, skipped");
        }
    }
    println!("testing xxh3 kernels {supported:?}, detected {}", Kernel::detect());
    supported
}

/// The ways to key a hash that the tests cover.
#[derive(Clone, Debug)]
enum Key {
    Seed(u64),
    Secret(Vec<u8>),
}

impl Key {
    /// Seed 0, two random seeds (one with a zero low half, which the 4-8
    /// byte path treats specially), and random secrets of the shortest
    /// allowed length (9-stripe blocks), of a length whose block is not a
    /// power of two, and of the default length.
    fn all(rng: &mut TestRng) -> Vec<Key> {
        vec![
            Key::Seed(0),
            Key::Seed(rng.next_u64()),
            Key::Seed(rng.next_u64() << 32),
            Key::Secret(rng.bytes(xxh3::SECRET_MIN_LEN)),
            Key::Secret(rng.bytes(203)),
            Key::Secret(rng.bytes(192)),
        ]
    }

    fn config(&self, kernel: Kernel) -> Xxh3<'_> {
        let config = match self {
            Key::Seed(seed) => Xxh3::with_seed(*seed),
            Key::Secret(secret) => Xxh3::with_secret(Secret::new(secret).unwrap()),
        };
        config.with_kernel(kernel).unwrap()
    }

    /// The oracle's (XXH3-64, XXH3-128).
    fn expected(&self, input: &[u8]) -> (u64, u128) {
        match self {
            Key::Seed(seed) => {
                (XxHash3_64::oneshot_with_seed(*seed, input), XxHash3_128::oneshot_with_seed(*seed, input))
            }
            Key::Secret(secret) => (
                XxHash3_64::oneshot_with_secret(secret, input).unwrap(),
                XxHash3_128::oneshot_with_secret(secret, input).unwrap(),
            ),
        }
    }

    /// The shorthand functions (detected kernel).
    fn shorthand(&self, input: &[u8]) -> (u64, u128) {
        match self {
            Key::Seed(0) => (xxh3::hash64(input), xxh3::hash128(input)),
            Key::Seed(seed) => (xxh3::hash64_with_seed(input, *seed), xxh3::hash128_with_seed(input, *seed)),
            Key::Secret(secret) => {
                let secret = Secret::new(secret).unwrap();
                (xxh3::hash64_with_secret(input, secret), xxh3::hash128_with_secret(input, secret))
            }
        }
    }
}

/// One-shot and streaming (fed in `pieces`) on `kernel` against `expected`.
fn check(key: &Key, kernel: Kernel, input: &[u8], pieces: &[usize], expected: (u64, u128)) {
    let config = key.config(kernel);
    let len = input.len();
    assert_eq!(config.hash64(input), expected.0, "hash64, len {len}, {kernel}, {key:?}");
    assert_eq!(config.hash128(input), expected.1, "hash128, len {len}, {kernel}, {key:?}");
    let mut hasher64 = config.hasher64();
    let mut hasher128 = config.hasher128();
    feed_in_pieces(input, pieces, |piece| {
        hasher64.update(piece);
        hasher128.update(piece);
    });
    assert_eq!(hasher64.finalize(), expected.0, "Hasher64, len {len}, pieces {pieces:?}, {kernel}, {key:?}");
    assert_eq!(hasher128.finalize(), expected.1, "Hasher128, len {len}, pieces {pieces:?}, {kernel}, {key:?}");
}

/// Random piece lengths: mostly small (buffer edges), some past a block.
fn random_pieces(rng: &mut TestRng, max: usize) -> Vec<usize> {
    (0..rng.range(1..=4))
        .map(|_| if rng.range(0..=3) == 0 { rng.range(1..=max.max(1)) } else { rng.range(1..=300) })
        .collect()
}

#[test]
fn every_length_every_kernel_and_key() {
    let mut rng = TestRng::new(test_seed("every_length_every_kernel_and_key", 24));
    let data = rng.bytes(EXHAUSTIVE_MAX_LEN);
    let keys = Key::all(&mut rng);
    let kernels = kernels();
    for len in 0..=EXHAUSTIVE_MAX_LEN {
        let input = &data[..len];
        for key in &keys {
            let expected = key.expected(input);
            assert_eq!(key.shorthand(input), expected, "shorthand, len {len}, {key:?}");
            for &kernel in &kernels {
                let pieces = random_pieces(&mut rng, len);
                check(key, kernel, input, &pieces, expected);
            }
        }
    }
}

#[test]
fn random_lengths_to_one_mebibyte() {
    let mut rng = TestRng::new(test_seed("random_lengths_to_one_mebibyte", 2024));
    let data = rng.bytes(1 << 20);
    let keys = Key::all(&mut rng);
    let kernels = kernels();
    // Block edges of the default secret and of the 136-byte one (576-byte
    // blocks), the largest length, then random lengths.
    let mut lengths = vec![1 << 20, (1 << 20) - 1, 64 * 1024, 64 * 1024 + 1, 576 * 7, 576 * 7 + 1, 1024 * 9 + 64];
    lengths.extend((0..24).map(|_| rng.range(241..=1 << 20)));
    for len in lengths {
        let input = &data[..len];
        for key in &keys {
            let expected = key.expected(input);
            for &kernel in &kernels {
                let pieces = random_pieces(&mut rng, len);
                check(key, kernel, input, &pieces, expected);
            }
        }
    }
}

#[test]
fn streaming_byte_by_byte_and_in_stripe_sized_pieces() {
    let mut rng = TestRng::new(test_seed("streaming_byte_by_byte_and_in_stripe_sized_pieces", 7));
    let data = rng.bytes(2600);
    let key = Key::Seed(rng.next_u64());
    for &kernel in &kernels() {
        for len in [0, 1, 240, 241, 255, 256, 257, 319, 320, 321, 1023, 1024, 1025, 2048, 2049, 2600] {
            let input = &data[..len];
            for pieces in [&[1][..], &[64], &[256], &[255, 1], &[63, 65, 128]] {
                check(&key, kernel, input, pieces, key.expected(input));
            }
        }
    }
}

#[test]
fn reset_and_finalize_leave_a_hasher_reusable() {
    let mut hasher = xxh3::Hasher128::with_seed(99);
    hasher.update(&[7; 3000]);
    let first = hasher.finalize();
    assert_eq!(hasher.finalize(), first, "finalize does not change the state");
    hasher.update(b"more");
    assert_ne!(hasher.finalize(), first);
    hasher.reset();
    hasher.update(b"abc");
    assert_eq!(hasher.finalize(), xxh3::hash128_with_seed(b"abc", 99), "reset keeps the seed");
}

#[test]
fn known_answers_from_xxhsum() {
    // `xxhsum -H3` and `xxhsum -H2` (xxHash 0.8.1, Debian) of an empty file
    // and of the three bytes "abc".
    assert_eq!(xxh3::hash64(b""), 0x2d06800538d394c2);
    assert_eq!(xxh3::hash128(b""), 0x99aa06d3014798d86001c324468d497f);
    assert_eq!(xxh3::hash64(b"abc"), 0x78af5f94892f3950);
    assert_eq!(xxh3::hash128(b"abc"), 0x06b05ab6733a618578af5f94892f3950);
}

#[test]
fn a_short_secret_is_an_error() {
    let error = Secret::new(&[0; 135]).unwrap_err();
    assert_eq!(error.to_string(), "xxh3 secret of 135 bytes is too short, expected at least 136");
    assert!(Secret::new(&[0; 136]).is_ok());
}

#[test]
fn kernel_names_parse_and_unsupported_kernels_are_errors() {
    for &kernel in Kernel::all() {
        assert_eq!(kernel.name().parse::<Kernel>().unwrap(), kernel);
        assert_eq!(kernel.name().to_uppercase().parse::<Kernel>().unwrap(), kernel);
    }
    let error = "avx1024".parse::<Kernel>().unwrap_err();
    assert!(
        error.to_string().starts_with("unknown xxh3 kernel \"avx1024\", expected one of portable, sse2"),
        "{error}"
    );
    assert_eq!(error.unsupported_kernel(), None);
    let missing = if cfg!(target_arch = "aarch64") { Kernel::Avx2 } else { Kernel::Neon };
    let error = Xxh3::new().with_kernel(missing).unwrap_err();
    assert_eq!(error.unsupported_kernel(), Some(missing));
    assert_eq!(error.to_string(), format!("xxh3 kernel {missing} is not supported by this CPU or build"));
    assert!(Kernel::detect().is_supported());
}
