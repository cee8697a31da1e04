//! `digest_many` and `digest_offsets`: for every algorithm of the registry,
//! the same digests as `digest` of each message, over batch shapes and
//! random lengths 0..4160 (seeded, the seed printed); the offsets form's
//! errors. The SHA-256 kernels have their own differential tests against
//! the `sha2` crate (in the library, `multi_buffer::sha256`), forced one by
//! one in the test matrix with `CHUNKHASH_SHA256_KERNEL`.

use chunkhash::blake3::OffsetsError;
use chunkhash::{digest, digest_many, digest_offsets, try_digest_many, Algorithm, Digest};

fn check(algorithm: Algorithm, messages: &[&[u8]], shape: &str) {
    let mut out = vec![digest(algorithm, b"placeholder"); messages.len()];
    digest_many(algorithm, messages, &mut out);
    for (i, (message, got)) in messages.iter().zip(&out).enumerate() {
        assert_eq!(*got, digest(algorithm, message), "{algorithm}, {shape}: message {i} of {} bytes", message.len());
    }
    // The same values as a column: one buffer and offsets.
    let values: Vec<u8> = messages.concat();
    let mut offsets = vec![0i64];
    for message in messages {
        offsets.push(offsets.last().unwrap() + message.len() as i64);
    }
    let mut column_out = vec![digest(algorithm, b"placeholder"); messages.len()];
    digest_offsets(algorithm, &values, &offsets, &mut column_out).unwrap();
    assert_eq!(column_out, out, "{algorithm}, {shape}: offsets form");
}

#[test]
fn every_algorithm_matches_digest_on_every_batch_shape() {
    let mut rng = vectors::TestRng::new(vectors::test_seed("digest_many shapes", 3434));
    let mut data = vec![0u8; 8192];
    rng.fill(&mut data);
    let mut piece = |len: usize| {
        let start = rng.range(0..=data.len() - len);
        &data[start..start + len]
    };
    let mut batches: Vec<(&str, Vec<&[u8]>)> = vec![("empty batch", vec![]), ("one message", vec![piece(1000)])];
    for count in [8, 17, 130, 300] {
        let len = piece(1)[0] as usize * 16;
        batches.push(("equal lengths", (0..count).map(|_| piece(len)).collect()));
        // Spread over 0..4160 by a multiplicative hash (in u64: 32-bit targets).
        let lens: Vec<usize> = (0..count).map(|i| (i as u64 * 2654435761 % 4160) as usize).collect();
        batches.push(("mixed lengths", lens.iter().map(|&len| piece(len)).collect()));
        let mut one_long: Vec<&[u8]> = (0..count).map(|i| piece(i % 65)).collect();
        one_long[count / 2] = piece(4159);
        batches.push(("one long among short", one_long));
    }
    for &algorithm in Algorithm::all().iter().filter(|a| a.is_available()) {
        for (shape, messages) in &batches {
            check(algorithm, messages, shape);
        }
    }
}

#[test]
fn offsets_are_checked_before_anything_is_hashed() {
    let placeholder = digest(Algorithm::Sha256, b"");
    let mut out = [placeholder; 2];
    let error = digest_offsets(Algorithm::Sha256, b"abcde", &[0i32, 3, 2], &mut out).unwrap_err();
    assert_eq!(error, OffsetsError::Descending { index: 2 });
    assert_eq!(out, [placeholder; 2], "nothing written");
    let error = digest_offsets(Algorithm::Sha256, b"abcde", &[0i32, 9], &mut out[..1]).unwrap_err();
    assert_eq!(error, OffsetsError::OutOfRange { index: 1, values_len: 5 });
    let error = digest_offsets(Algorithm::Crc32c, b"abcde", &[0i64, 1], &mut out).unwrap_err();
    assert_eq!(error, OffsetsError::Count { offsets: 2, outputs: 2 });
    let error = digest_offsets(Algorithm::Md5, b"abcde", &[-1i32, 1], &mut out[..1]).unwrap_err();
    assert_eq!(error, OffsetsError::Negative { index: 0 });
    // Offsets that need not start at 0 (a sliced column).
    digest_offsets(Algorithm::Sha256, b"abcde", &[1i32, 2, 5], &mut out).unwrap();
    assert_eq!(out, [digest(Algorithm::Sha256, b"b"), digest(Algorithm::Sha256, b"cde")]);
}

#[test]
#[should_panic(expected = "one output per message")]
fn a_short_output_panics() {
    let mut out: [Digest; 1] = [digest(Algorithm::Sha256, b"")];
    let _ = try_digest_many(Algorithm::Sha256, &[b"a", b"b"], &mut out);
}
