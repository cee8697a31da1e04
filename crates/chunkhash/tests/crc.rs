//! The CRC functions of `chunkhash::crc`: the one-shot functions against
//! the registry, `crc_combine` against the CRC of the concatenation (and
//! against crc-fast's combine) over random splits, its errors, and the
//! `CHUNKHASH_CRC_BACKEND` override. The kernels themselves are tested one
//! by one in `src/platform/crc/tests.rs`.

#![cfg(feature = "crc")]

use chunkhash::crc::{self, CrcBackend, CrcKernels};
use chunkhash::{crc_combine, digest, Algorithm, CrcCombineError, StreamingHasher};
use vectors::TestRng;

const CRCS: [Algorithm; 3] = [Algorithm::Crc32c, Algorithm::Crc32, Algorithm::Crc64Nvme];

/// The CRC of `data` as an integer, through the registry.
fn registry_crc(algorithm: Algorithm, data: &[u8]) -> u64 {
    digest(algorithm, data).as_bytes().iter().fold(0, |value, &byte| value << 8 | u64::from(byte))
}

/// The same, from the functions of `chunkhash::crc`.
fn crc_of(algorithm: Algorithm, data: &[u8]) -> u64 {
    match algorithm {
        Algorithm::Crc32c => crc::crc32c(data).into(),
        Algorithm::Crc32 => crc::crc32(data).into(),
        Algorithm::Crc64Nvme => crc::crc64_nvme(data),
        _ => unreachable!(),
    }
}

fn crc_fast_algorithm(algorithm: Algorithm) -> crc_fast::CrcAlgorithm {
    match algorithm {
        Algorithm::Crc32c => crc_fast::CrcAlgorithm::Crc32Iscsi,
        Algorithm::Crc32 => crc_fast::CrcAlgorithm::Crc32IsoHdlc,
        Algorithm::Crc64Nvme => crc_fast::CrcAlgorithm::Crc64Nvme,
        _ => unreachable!(),
    }
}

#[test]
fn functions_equal_the_registry_and_crc_fast() {
    let mut rng = TestRng::new(vectors::test_seed("functions_equal_the_registry_and_crc_fast", 41));
    for _ in 0..200 {
        let len = rng.range(0..=70_000);
        let data = rng.bytes(len);
        for algorithm in CRCS {
            let value = crc_of(algorithm, &data);
            assert_eq!(value, registry_crc(algorithm, &data), "{algorithm}, {len} bytes");
            assert_eq!(value, crc_fast::checksum(crc_fast_algorithm(algorithm), &data), "{algorithm}, {len} bytes");
        }
    }
}

/// crc(A||B) from crc(A), crc(B) and |B|, over random splits, lengths from
/// 0 to 1 MiB, and against crc-fast's own combine.
#[test]
fn combine_equals_the_crc_of_the_concatenation() {
    let mut rng = TestRng::new(vectors::test_seed("combine_equals_the_crc_of_the_concatenation", 42));
    let data = rng.bytes(1 << 20);
    for round in 0..300 {
        let len = if round < 20 { round } else { rng.range(0..=data.len()) };
        let whole = &data[..len];
        let split = rng.range(0..=len);
        let (a, b) = whole.split_at(split);
        for algorithm in CRCS {
            let (crc_a, crc_b) = (crc_of(algorithm, a), crc_of(algorithm, b));
            let combined = crc_combine(algorithm, crc_a, crc_b, b.len() as u64).unwrap();
            let what = format!("{algorithm}, {len} bytes split at {split}");
            assert_eq!(combined, crc_of(algorithm, whole), "{what}");
            let theirs = crc_fast::checksum_combine(crc_fast_algorithm(algorithm), crc_a, crc_b, b.len() as u64);
            assert_eq!(combined, theirs, "{what}: crc-fast's combine");
        }
    }
}

/// Parts of a multipart upload, combined left to right, as S3 does.
#[test]
fn combine_chains_over_many_parts() {
    let mut rng = TestRng::new(vectors::test_seed("combine_chains_over_many_parts", 43));
    let data = rng.bytes(300_000);
    for algorithm in CRCS {
        let mut parts = data.as_slice();
        let mut combined = crc_of(algorithm, &[]);
        while !parts.is_empty() {
            let (part, rest) = parts.split_at(rng.range(1..=parts.len().min(40_000)));
            combined = crc_combine(algorithm, combined, crc_of(algorithm, part), part.len() as u64).unwrap();
            parts = rest;
        }
        assert_eq!(combined, crc_of(algorithm, &data), "{algorithm}");
    }
}

/// Lengths beyond any buffer: a part of 2^40 zero bytes, its CRC built by
/// doubling (combining a part with itself), combined after A in one step
/// equals two steps of 2^39, and crc-fast's combine.
#[test]
fn combine_handles_any_length() {
    let zeros = vec![0u8; 1 << 20];
    for algorithm in CRCS {
        let mut zero_crcs = vec![(1u64 << 20, crc_of(algorithm, &zeros))];
        while zero_crcs.last().unwrap().0 < 1 << 40 {
            let (len, value) = *zero_crcs.last().unwrap();
            zero_crcs.push((2 * len, crc_combine(algorithm, value, value, len).unwrap()));
        }
        let [.., (half_len, half), (len, whole)] = zero_crcs[..] else { unreachable!() };
        let crc_a = crc_of(algorithm, b"first part");
        let one_step = crc_combine(algorithm, crc_a, whole, len).unwrap();
        let first = crc_combine(algorithm, crc_a, half, half_len).unwrap();
        assert_eq!(crc_combine(algorithm, first, half, half_len).unwrap(), one_step, "{algorithm}");
        let theirs = crc_fast::checksum_combine(crc_fast_algorithm(algorithm), crc_a, whole, len);
        assert_eq!(one_step, theirs, "{algorithm}: crc-fast's combine");
        // A part of length 0 changes nothing.
        assert_eq!(crc_combine(algorithm, 0x1234, crc_of(algorithm, &[]), 0).unwrap(), 0x1234, "{algorithm}");
    }
}

/// A wrong length cannot be detected: combine still returns a value (the
/// CRC of some other message), as documented.
#[test]
fn combine_with_a_wrong_length_returns_a_value() {
    let (a, b) = (b"chunk".as_slice(), b"hash".as_slice());
    for algorithm in CRCS {
        let (crc_a, crc_b) = (crc_of(algorithm, a), crc_of(algorithm, b));
        assert_eq!(crc_combine(algorithm, crc_a, crc_b, 4).unwrap(), crc_of(algorithm, b"chunkhash"));
        for wrong_len in [0, 3, 5, u64::MAX] {
            let wrong = crc_combine(algorithm, crc_a, crc_b, wrong_len).unwrap();
            assert_ne!(wrong, crc_of(algorithm, b"chunkhash"), "{algorithm}, length {wrong_len}");
        }
    }
}

#[test]
fn combine_errors_name_the_problem() {
    let error = crc_combine(Algorithm::Sha256, 0, 0, 1).unwrap_err();
    assert_eq!(error, CrcCombineError::NotACrc(Algorithm::Sha256));
    assert_eq!(error.to_string(), "SHA-256 is not a CRC: crc_combine takes CRC-32C, CRC-32 or CRC-64/NVME");
    for algorithm in [Algorithm::Crc32c, Algorithm::Crc32] {
        let error = crc_combine(algorithm, 1 << 32, 0, 1).unwrap_err();
        assert_eq!(error, CrcCombineError::TooWide { algorithm, value: 1 << 32 });
        assert_eq!(error.to_string(), format!("0x100000000 is not a {algorithm} value: it has more than 32 bits"));
        assert!(crc_combine(algorithm, 0, u64::MAX, 1).is_err());
        assert!(crc_combine(algorithm, u64::from(u32::MAX), u64::from(u32::MAX), 1).is_ok());
    }
    assert!(crc_combine(Algorithm::Crc64Nvme, u64::MAX, u64::MAX, u64::MAX).is_ok());
    for algorithm in Algorithm::all().iter().filter(|a| !CRCS.contains(a)) {
        assert_eq!(crc_combine(*algorithm, 0, 0, 0), Err(CrcCombineError::NotACrc(*algorithm)));
    }
}

/// Streaming in pieces equals one shot, through the registry, on the kernel
/// detected (or forced with CHUNKHASH_CRC_BACKEND).
#[test]
fn streaming_in_pieces_equals_one_shot() {
    let mut rng = TestRng::new(vectors::test_seed("crc streaming_in_pieces_equals_one_shot", 44));
    for _ in 0..50 {
        let len = rng.range(0..=100_000);
        let data = rng.bytes(len);
        for algorithm in CRCS {
            let mut hasher = StreamingHasher::new(algorithm);
            let mut rest = data.as_slice();
            while !rest.is_empty() {
                let (piece, tail) = rest.split_at(rng.range(0..=rest.len().min(9000)));
                hasher.update(piece);
                rest = tail;
            }
            assert_eq!(hasher.finalize(), digest(algorithm, &data), "{algorithm}, {len} bytes");
        }
    }
}

/// `CHUNKHASH_CRC_BACKEND`, when set (`make test-crc-backends` sets it to
/// each backend in turn), decides the kernel; the kernel used is printed.
#[test]
fn the_crc_backend_override_is_obeyed() {
    let detected = CrcBackend::detect();
    println!("CRC backend: {detected} (best supported {})", CrcBackend::best_supported());
    assert_eq!(CrcKernels::detect().backend(), detected);
    match CrcBackend::from_env() {
        Ok(Some(forced)) => assert_eq!(detected, forced),
        Ok(None) => assert_eq!(detected, CrcBackend::best_supported()),
        Err(error) => panic!("CHUNKHASH_CRC_BACKEND: {error}"),
    }
    assert_eq!(Algorithm::Crc32c.implementation(), Some(detected.name()));
}
