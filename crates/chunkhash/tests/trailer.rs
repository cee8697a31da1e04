//! Block trailers: the golden trailers, the layout, and every way a block or
//! trailer can be damaged or misplaced.

use chunkhash::trailer::{seal, trailer_len, try_seal, verify, TrailerError, MAX_TRAILER_LEN};
use chunkhash::{digest, Algorithm};
use std::collections::HashSet;
use vectors::{golden, input_pattern, TestRng};

fn available() -> impl Iterator<Item = Algorithm> {
    Algorithm::all().iter().copied().filter(|a| a.is_available())
}

#[test]
fn golden_trailers() {
    let mut checked = 0;
    for case in golden().trailers {
        let algorithm: Algorithm = case.algorithm.parse().unwrap();
        if !algorithm.is_available() {
            continue;
        }
        let block = input_pattern(case.input_len);
        let sealed = seal(&block, algorithm, case.context);
        let what = format!("{algorithm}, {} bytes, context {}", case.input_len, case.context);
        assert_eq!(sealed.as_bytes(), &case.trailer[..], "{what}");
        assert_eq!(verify(&block, &case.trailer, case.context), Ok(algorithm), "{what}");
        checked += 1;
    }
    let expected = available().count() * 3 * 4;
    assert_eq!(checked, expected, "three block lengths and four contexts per algorithm");
}

#[test]
fn layout_is_id_then_checksum() {
    for algorithm in available() {
        let block = b"layout";
        let sealed = seal(block, algorithm, 0);
        assert_eq!(sealed.len(), 1 + algorithm.digest_len());
        assert_eq!(sealed.len(), trailer_len(algorithm));
        assert_eq!(sealed.as_bytes().len(), sealed.len());
        assert_eq!(sealed.as_ref(), sealed.as_bytes());
        assert_eq!(sealed.as_bytes()[0], algorithm.id());
        assert_eq!(sealed.algorithm(), algorithm);
        assert!(sealed.len() <= MAX_TRAILER_LEN);
        // The mask depends on the context only: XORing two trailers of
        // different blocks under one context gives the XOR of the digests.
        let other = seal(b"other", algorithm, 0);
        let xor_trailers: Vec<u8> =
            sealed.as_bytes()[1..].iter().zip(&other.as_bytes()[1..]).map(|(a, b)| a ^ b).collect();
        let (d1, d2) = (digest(algorithm, block), digest(algorithm, b"other"));
        let xor_digests: Vec<u8> = d1.as_bytes().iter().zip(d2.as_bytes()).map(|(a, b)| a ^ b).collect();
        assert_eq!(xor_trailers, xor_digests, "{algorithm}");
        assert!(format!("{sealed:?}").starts_with(&format!("Trailer({algorithm}, {:02x}", algorithm.id())));
    }
    assert_eq!(MAX_TRAILER_LEN, 65);
    assert_eq!(trailer_len(Algorithm::Crc32c), 5);
}

#[test]
fn every_truncation_is_reported_as_such() {
    let block = input_pattern(300);
    for algorithm in available() {
        let sealed = seal(&block, algorithm, 7);
        let bytes = sealed.as_bytes();
        assert_eq!(verify(&block, &[], 7), Err(TrailerError::Truncated { algorithm: None, expected: 1, found: 0 }));
        for cut in 1..bytes.len() {
            assert_eq!(
                verify(&block, &bytes[..cut], 7),
                Err(TrailerError::Truncated { algorithm: Some(algorithm), expected: bytes.len(), found: cut }),
                "{algorithm} cut to {cut}"
            );
        }
    }
}

#[test]
fn oversized_trailers_are_rejected() {
    let block = input_pattern(300);
    for algorithm in available() {
        let sealed = seal(&block, algorithm, 7);
        for extra in [1usize, 2, 64, 1000] {
            let mut long = sealed.as_bytes().to_vec();
            long.resize(long.len() + extra, 0);
            assert_eq!(
                verify(&block, &long, 7),
                Err(TrailerError::TooLong { algorithm, expected: sealed.len(), found: sealed.len() + extra }),
                "{algorithm} + {extra}"
            );
        }
        // The block and trailer handed over together, as if the caller forgot to split.
        let mut record = block.clone();
        record.extend_from_slice(sealed.as_bytes());
        assert!(verify(&block, &record, 7).is_err());
    }
}

#[test]
fn unknown_ids_are_rejected_whatever_the_length() {
    let block = b"block";
    for id in [0u8, 17, 255] {
        for len in [1, 5, 33, 65, 200] {
            let mut bad = vec![0xa5u8; len];
            bad[0] = id;
            assert_eq!(verify(block, &bad, 0), Err(TrailerError::UnknownAlgorithm(id)), "id {id}, {len} bytes");
        }
    }
    // A zeroed trailer (a hole, a wiped sector) and an erased-flash one.
    assert_eq!(verify(block, &[0u8; 33], 0), Err(TrailerError::UnknownAlgorithm(0)));
    assert_eq!(verify(block, &[0xffu8; 33], 0), Err(TrailerError::UnknownAlgorithm(255)));
    assert!((17..=255u8).all(|id| verify(block, &[id; 65], 0) == Err(TrailerError::UnknownAlgorithm(id))));
}

/// Every bit of a 256-byte block, and every bit of every trailer.
#[test]
fn every_flipped_bit_is_detected() {
    let block = input_pattern(256);
    for algorithm in available() {
        let sealed = seal(&block, algorithm, 4096);
        for bit in 0..block.len() * 8 {
            let mut damaged = block.clone();
            damaged[bit / 8] ^= 1 << (bit % 8);
            assert_eq!(
                verify(&damaged, sealed.as_bytes(), 4096),
                Err(TrailerError::Mismatch(algorithm)),
                "{algorithm}: block bit {bit}"
            );
        }
        for bit in 0..sealed.len() * 8 {
            let mut damaged = sealed.as_bytes().to_vec();
            damaged[bit / 8] ^= 1 << (bit % 8);
            let result = verify(&block, &damaged, 4096);
            if bit >= 8 {
                assert_eq!(result, Err(TrailerError::Mismatch(algorithm)), "{algorithm}: trailer bit {bit}");
            } else {
                // A flipped id names no algorithm, one of another length, or
                // another algorithm whose checksum does not match.
                let other = Algorithm::from_id(damaged[0]);
                match result {
                    Err(TrailerError::UnknownAlgorithm(id)) => assert!(other.is_err() && id == damaged[0]),
                    Err(
                        TrailerError::Truncated { algorithm: Some(a), .. } | TrailerError::TooLong { algorithm: a, .. },
                    ) => {
                        assert_ne!(a.digest_len(), algorithm.digest_len())
                    }
                    Err(TrailerError::Mismatch(a) | TrailerError::Unavailable(a)) => {
                        assert_eq!(Ok(a), other);
                        assert_ne!(a, algorithm);
                    }
                    other => panic!("{algorithm}: id bit {bit}: {other:?}"),
                }
            }
        }
    }
}

/// Larger blocks: random bits of a 64 KiB block.
#[test]
fn flipped_bits_in_large_blocks_are_detected() {
    let seed = vectors::test_seed("flipped_bits_in_large_blocks_are_detected", 77);
    let mut rng = TestRng::new(seed);
    let block = rng.bytes(65536);
    for algorithm in available() {
        let sealed = seal(&block, algorithm, 1 << 40);
        let mut damaged = block.clone();
        for _ in 0..30 {
            let bit = rng.range(0..=block.len() * 8 - 1);
            damaged[bit / 8] ^= 1 << (bit % 8);
            assert!(verify(&damaged, sealed.as_bytes(), 1 << 40).is_err(), "{algorithm}: bit {bit}");
            damaged[bit / 8] ^= 1 << (bit % 8);
        }
        // Torn writes: the block cut short, or grown.
        assert!(verify(&block[..block.len() - 1], sealed.as_bytes(), 1 << 40).is_err());
        let mut longer = block.clone();
        longer.push(0);
        assert!(verify(&longer, sealed.as_bytes(), 1 << 40).is_err());
    }
}

#[test]
fn a_trailer_moved_to_another_context_is_detected() {
    let block = input_pattern(4096);
    let context = 7 * 4096u64;
    let elsewhere = [
        0,
        1,
        context - 4096,
        context + 4096,
        context + 1,
        context ^ (1 << 63),
        context + (1 << 32),
        context + (4 << 30),
        u64::MAX,
    ];
    for algorithm in available() {
        let sealed = seal(&block, algorithm, context);
        assert_eq!(verify(&block, sealed.as_bytes(), context), Ok(algorithm));
        for other in elsewhere {
            assert_eq!(
                verify(&block, sealed.as_bytes(), other),
                Err(TrailerError::Mismatch(algorithm)),
                "{algorithm}: sealed at {context}, read at {other}"
            );
        }
    }
}

/// For checksums of 8 bytes or more the mask is a bijection of the context,
/// so one block gets a different trailer in every context: shown here for
/// 20,000 contexts, 4 KiB apart and one apart.
#[test]
fn contexts_never_share_a_trailer_for_wide_checksums() {
    let block = b"the same block everywhere";
    for algorithm in available().filter(|a| a.digest_len() >= 8) {
        let mut seen = HashSet::new();
        for i in 0..10_000u64 {
            assert!(seen.insert(seal(block, algorithm, i * 4096)), "{algorithm}: context {}", i * 4096);
            assert!(seen.insert(seal(block, algorithm, i * 4096 + 1)), "{algorithm}: context {}", i * 4096 + 1);
        }
    }
}

/// Random byte strings never panic, and verify only what `seal` would write.
#[test]
fn random_trailers_never_panic() {
    let seed = vectors::test_seed("random_trailers_never_panic", 2024);
    let mut rng = TestRng::new(seed);
    let block = rng.bytes(100);
    let mut outcomes = [0usize; 6];
    for _ in 0..20_000 {
        let len = rng.range(0..=80);
        let mut bytes = rng.bytes(len);
        if len > 0 && rng.range(0..=1) == 0 {
            bytes[0] = rng.range(1..=12) as u8; // Mostly valid ids, to get past the first check.
        }
        let context = rng.next_u64();
        let index = match verify(&block, &bytes, context) {
            Ok(algorithm) => {
                assert_eq!(seal(&block, algorithm, context).as_bytes(), &bytes[..]);
                0
            }
            Err(TrailerError::UnknownAlgorithm(id)) => {
                assert_eq!(id, bytes[0]);
                1
            }
            Err(TrailerError::Truncated { .. }) => 2,
            Err(TrailerError::TooLong { .. }) => 3,
            Err(TrailerError::Mismatch(_)) => 4,
            Err(TrailerError::Unavailable(algorithm)) => {
                assert!(!algorithm.is_available());
                5
            }
            Err(other) => panic!("unexpected {other:?}"),
        };
        outcomes[index] += 1;
    }
    println!("outcomes (ok, unknown, truncated, too long, mismatch, unavailable): {outcomes:?}");
    assert!(outcomes[1] > 0 && outcomes[2] > 0 && outcomes[3] > 0);
    // Random trailers of the right length for an available algorithm: mismatches.
    assert!(outcomes[4] > 0 || available().count() == 2);
}

#[test]
fn error_messages_name_the_problem() {
    let messages = [
        (
            TrailerError::UnknownAlgorithm(17),
            "trailer names unknown algorithm id 17 (known ids are 1 to 16; 0 is reserved)",
        ),
        (
            TrailerError::Truncated { algorithm: None, expected: 1, found: 0 },
            "trailer is empty: expected at least 1 byte, the algorithm id",
        ),
        (
            TrailerError::Truncated { algorithm: Some(Algorithm::Sha256), expected: 33, found: 20 },
            "truncated SHA-256 trailer: 20 bytes, expected 33",
        ),
        (
            TrailerError::TooLong { algorithm: Algorithm::Crc32c, expected: 5, found: 6 },
            "CRC32C trailer is too long: 6 bytes, expected 5",
        ),
        (
            TrailerError::Mismatch(Algorithm::Xxh3_64),
            "XXH3-64 checksum mismatch: the block, its trailer or the context differs from what was sealed",
        ),
        (
            TrailerError::Unavailable(Algorithm::Blake2b256),
            "trailer uses BLAKE2b-256 (id 9) is not in this build of chunkhash (enable the cargo feature `blake2`)",
        ),
    ];
    for (error, message) in messages {
        assert_eq!(error.to_string(), message);
        let _: &dyn std::error::Error = &error;
    }
}

/// Without a family's feature: sealing is an error, and a trailer naming the
/// algorithm is reported as unavailable, not as a mismatch.
#[test]
fn unavailable_algorithms_in_trailers() {
    for &algorithm in Algorithm::all() {
        let mut bytes = vec![0u8; trailer_len(algorithm)];
        bytes[0] = algorithm.id();
        match verify(b"block", &bytes, 0) {
            Err(TrailerError::Unavailable(a)) => {
                assert_eq!(a, algorithm);
                assert!(!algorithm.is_available());
                assert_eq!(try_seal(b"block", algorithm, 0).unwrap_err().algorithm(), algorithm);
            }
            Err(TrailerError::Mismatch(a)) => {
                assert_eq!(a, algorithm);
                assert!(algorithm.is_available());
                assert!(try_seal(b"block", algorithm, 0).is_ok());
            }
            other => panic!("{algorithm}: {other:?}"),
        }
    }
}
