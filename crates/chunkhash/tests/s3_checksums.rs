//! S3's checksums (`chunkhash::s3_checksums`): base64 against RFC 4648's vectors, the
//! multipart forms against composites built here from the registry's
//! digests and against independent CRCs (crc-fast) and xxHash (twox-hash),
//! and the same values whatever the update sizes (serial or two threads).
//! Python's tests compare the same values with hashlib, awscrt and xxhash.
#![cfg(feature = "s3")]

use chunkhash::s3_checksums::{
    base64, multipart_sums_at, MultipartChecksum, S3Checksum, S3Hasher, ZeroPartSize, PARALLEL_MIN, PARTS_SIDE_BY_SIDE,
    PART_WINDOW,
};
use chunkhash::{digest, Algorithm};
use std::num::NonZeroU64;
use vectors::TestRng;

#[test]
fn base64_rfc4648_vectors() {
    let cases = [
        ("", ""),
        ("f", "Zg=="),
        ("fo", "Zm8="),
        ("foo", "Zm9v"),
        ("foob", "Zm9vYg=="),
        ("fooba", "Zm9vYmE="),
        ("foobar", "Zm9vYmFy"),
    ];
    for (input, output) in cases {
        assert_eq!(base64(input.as_bytes()), output, "{input:?}");
    }
    assert_eq!(base64(&[0xff, 0xfe, 0xfd]), "//79");
}

#[test]
fn names_fields_and_headers() {
    let names: Vec<&str> = S3Checksum::ALL.iter().map(|k| k.name()).collect();
    assert_eq!(
        names,
        ["CRC32", "CRC32C", "CRC64NVME", "SHA1", "SHA256", "SHA512", "MD5", "XXHASH64", "XXHASH3", "XXHASH128"]
    );
    assert_eq!(S3Checksum::Crc64Nvme.field(), "ChecksumCRC64NVME");
    assert_eq!(S3Checksum::Xxhash128.header(), "x-amz-checksum-xxhash128");
    for kind in S3Checksum::ALL {
        assert_eq!(S3Checksum::from_name(kind.name()), Some(kind));
        assert_eq!(S3Checksum::from_name(&kind.field()), Some(kind));
        assert_eq!(S3Checksum::from_name(&kind.header()), Some(kind));
        assert_eq!(S3Checksum::from_name(&kind.name().to_lowercase()), Some(kind));
    }
    assert_eq!(S3Checksum::from_name("sha384"), None);
    assert_eq!(S3Checksum::from_name(""), None);
}

#[test]
fn zero_part_size_is_an_error() {
    assert_eq!(S3Hasher::with_part_size(&S3Checksum::ALL, 0).unwrap_err(), ZeroPartSize);
}

/// Single-part values: base64 of the registry digest; ETag the quoted hex MD5.
/// Known answers: S3's documented CRC64NVME of nothing is `AAAAAAAAAAA=`.
#[test]
fn single_part_values() {
    let data = vectors::input_pattern(100_000);
    let mut hasher = S3Hasher::new(&S3Checksum::ALL);
    hasher.update(&data);
    let sums = hasher.finalize();
    assert_eq!((sums.parts(), sums.len()), (0, 100_000));
    for kind in S3Checksum::ALL {
        assert_eq!(sums.get(kind), Some(base64(digest(kind.algorithm(), &data).as_bytes()).as_str()), "{kind}");
    }
    assert_eq!(sums.etag(), format!("\"{}\"", digest(Algorithm::Md5, &data).to_hex()));
    assert_eq!(sums.values().count(), 10);
    let empty = S3Hasher::new(&S3Checksum::ALL).finalize();
    assert_eq!(empty.get(S3Checksum::Crc64Nvme), Some("AAAAAAAAAAA="));
    assert_eq!(empty.get(S3Checksum::Crc32), Some("AAAAAA=="));
    assert_eq!(empty.etag(), "\"d41d8cd98f00b204e9800998ecf8427e\"");
}

/// Only the kinds asked for; the ETag always.
#[test]
fn a_subset_of_kinds() {
    let mut hasher = S3Hasher::new(&[S3Checksum::Sha256, S3Checksum::Crc32c, S3Checksum::Sha256]);
    hasher.update(b"abc");
    let sums = hasher.finalize();
    let kinds: Vec<S3Checksum> = sums.values().map(|(k, _)| k).collect();
    assert_eq!(kinds, [S3Checksum::Crc32c, S3Checksum::Sha256]);
    assert_eq!(sums.get(S3Checksum::Md5), None);
    assert_eq!(sums.etag(), "\"900150983cd24fb0d6963f7d28e17f72\"");
    assert_eq!(sums.get(S3Checksum::Sha256), Some("ungWv48Bz+pBQUDeXa4iI7ADYaOWF3qctBD/YfIAFa0="));
}

/// The multipart forms, built here part by part: the CRCs of the whole
/// object (crc-fast), the others the kind's hash of the concatenated part
/// digests plus `-N`, the ETag the MD5 of the part MD5s plus `-N`.
fn expected_multipart(data: &[u8], part_size: usize) -> (Vec<(S3Checksum, String)>, String) {
    let parts: Vec<&[u8]> = if data.is_empty() { vec![&[][..]] } else { data.chunks(part_size).collect() };
    let n = parts.len();
    let mut values = Vec::new();
    for kind in S3Checksum::ALL {
        let value = match kind {
            S3Checksum::Crc32 => {
                base64(&(crc_fast::checksum(crc_fast::CrcAlgorithm::Crc32IsoHdlc, data) as u32).to_be_bytes())
            }
            S3Checksum::Crc32c => {
                base64(&(crc_fast::checksum(crc_fast::CrcAlgorithm::Crc32Iscsi, data) as u32).to_be_bytes())
            }
            S3Checksum::Crc64Nvme => base64(&crc_fast::checksum(crc_fast::CrcAlgorithm::Crc64Nvme, data).to_be_bytes()),
            _ => {
                let concatenated: Vec<u8> = parts.iter().flat_map(|part| part_digest(kind, part)).collect();
                format!("{}-{n}", base64(&part_digest(kind, &concatenated)))
            }
        };
        values.push((kind, value));
    }
    let md5s: Vec<u8> = parts.iter().flat_map(|part| part_digest(S3Checksum::Md5, part)).collect();
    (values, format!("\"{}-{n}\"", chunkhash::hex::encode(&part_digest(S3Checksum::Md5, &md5s))))
}

/// xxHash from twox-hash (independent of chunkhash's XXH3); the others from the registry.
fn part_digest(kind: S3Checksum, data: &[u8]) -> Vec<u8> {
    match kind {
        S3Checksum::Xxhash64 => twox_hash::XxHash64::oneshot(0, data).to_be_bytes().to_vec(),
        S3Checksum::Xxhash3 => twox_hash::XxHash3_64::oneshot(data).to_be_bytes().to_vec(),
        S3Checksum::Xxhash128 => twox_hash::XxHash3_128::oneshot(data).to_be_bytes().to_vec(),
        _ => digest(kind.algorithm(), data).as_bytes().to_vec(),
    }
}

#[test]
fn multipart_forms_at_random_lengths_part_sizes_and_splits() {
    let seed = vectors::test_seed("multipart_forms_at_random_lengths_part_sizes_and_splits", 22);
    let mut rng = TestRng::new(seed);
    let mut cases = vec![(0, 5), (5, 5), (10, 5), (11, 5), (3 * PARALLEL_MIN + 17, PARALLEL_MIN)];
    for _ in 0..30 {
        let len = rng.range(0..=3 * PARALLEL_MIN);
        cases.push((len, rng.range(1..=len.max(1) + 100)));
    }
    for (len, part_size) in cases {
        let data: Vec<u8> = (0..len).map(|_| rng.range(0..=255) as u8).collect();
        let (values, etag) = expected_multipart(&data, part_size);
        let mut hasher = S3Hasher::with_part_size(&S3Checksum::ALL, part_size as u64).unwrap();
        // Random update sizes: some below PARALLEL_MIN (one thread), some above (two).
        let mut rest = &data[..];
        while !rest.is_empty() {
            let take = rest.len().min(if rng.range(0..=1) == 0 {
                rng.range(1..=5000)
            } else {
                rng.range(PARALLEL_MIN..=2 * PARALLEL_MIN)
            });
            hasher.update(&rest[..take]);
            rest = &rest[take..];
        }
        let sums = hasher.finalize();
        let what = format!("{len} bytes in parts of {part_size}");
        assert_eq!(sums.values().map(|(k, v)| (k, v.to_string())).collect::<Vec<_>>(), values, "{what}");
        assert_eq!(sums.etag(), etag, "{what}");
        assert_eq!(sums.parts(), len.div_ceil(part_size).max(1) as u64, "{what}");
    }
}

/// One update of a large buffer (two threads) equals byte-sized updates (one).
#[test]
fn two_threads_equal_one() {
    let data = vectors::input_pattern(2 * PARALLEL_MIN + 3);
    let mut one = S3Hasher::with_part_size(&S3Checksum::ALL, 100_000).unwrap();
    for piece in data.chunks(PARALLEL_MIN - 1) {
        one.update(piece);
    }
    let mut two = S3Hasher::with_part_size(&S3Checksum::ALL, 100_000).unwrap();
    two.update(&data);
    assert_eq!(one.finalize(), two.finalize());
}

/// `multipart_sums_at` reading `data` through a `read_at` that checks each
/// read stays inside the object.
fn side_by_side(kinds: &[S3Checksum], data: &[u8], part_size: usize) -> chunkhash::s3_checksums::S3Sums {
    let read_at = |offset: u64, buffer: &mut [u8]| -> Result<(), String> {
        let start = usize::try_from(offset).unwrap();
        let piece = data.get(start..start + buffer.len()).ok_or_else(|| format!("read past the end at {offset}"))?;
        buffer.copy_from_slice(piece);
        Ok(())
    };
    let part_size = NonZeroU64::new(part_size as u64).unwrap();
    multipart_sums_at(kinds, part_size, data.len() as u64, read_at).unwrap()
}

/// Parts hashed side by side (MD5, SHA-1, SHA-256 and SHA-512 in lanes,
/// by `multipart_sums_at` and by `MultipartChecksum::of`) give what the
/// object hashed in order gives and what `expected_multipart` builds part
/// by part: the empty object, one part, a last short part, part counts
/// around the group of `PARTS_SIDE_BY_SIDE`, parts longer than a window,
/// and groups big enough for two threads. The kernels are the detected
/// ones, or `CHUNKHASH_MB_KERNEL`'s and `CHUNKHASH_SHA256_KERNEL`'s (the
/// test matrix runs each).
#[test]
fn parts_side_by_side_equal_parts_in_order() {
    let seed = vectors::test_seed("parts_side_by_side_equal_parts_in_order", 34);
    let mut rng = TestRng::new(seed);
    let lanes = PARTS_SIDE_BY_SIDE;
    let mut cases = vec![
        (0, 1),
        (0, 5),
        (1, 5),
        (5, 5),
        (11, 5),
        (lanes * 5, 5),
        (lanes * 5 + 1, 5),
        (2 * lanes * 64 - 3, 64),
        (2 * PART_WINDOW + 7, PART_WINDOW + 3),
        (PART_WINDOW + 1, 3 * PART_WINDOW),
        // 17 parts of 64 KiB: a first group of 16 whose steps (1 MiB) run on two threads.
        ((lanes + 1) * 65536, 65536),
    ];
    for _ in 0..24 {
        let len = rng.range(0..=3 * PARALLEL_MIN);
        // Mostly many parts (part sizes up to len / 4), sometimes few.
        let part_size =
            if rng.range(0..=3) == 0 { rng.range(1..=len.max(1) + 100) } else { rng.range(1..=len / 4 + 1) };
        cases.push((len, part_size));
    }
    for (len, part_size) in cases {
        let data: Vec<u8> = (0..len).map(|_| rng.range(0..=255) as u8).collect();
        let what = format!("{len} bytes in parts of {part_size} (seed {seed})");
        let (values, etag) = expected_multipart(&data, part_size);
        let sums = side_by_side(&S3Checksum::ALL, &data, part_size);
        assert_eq!(sums.values().map(|(k, v)| (k, v.to_string())).collect::<Vec<_>>(), values, "{what}");
        assert_eq!(sums.etag(), etag, "{what}");
        assert_eq!((sums.parts(), sums.len()), (len.div_ceil(part_size).max(1) as u64, len as u64), "{what}");
        let mut in_order = S3Hasher::with_part_size(&S3Checksum::ALL, part_size as u64).unwrap();
        in_order.update(&data);
        assert_eq!(sums, in_order.finalize(), "{what}");
        for kind in S3Checksum::ALL {
            let mut fed = MultipartChecksum::new(kind, part_size as u64).unwrap().keeping_part_digests();
            fed.update(&data);
            assert_eq!(
                MultipartChecksum::of(kind, part_size as u64, &data).unwrap(),
                fed.finish(),
                "{what}, {kind} of"
            );
        }
        // Without the MD5 kind the ETag still comes, from the same lanes.
        let kinds = [S3Checksum::Sha256, S3Checksum::Crc64Nvme];
        let mut in_order = S3Hasher::with_part_size(&kinds, part_size as u64).unwrap();
        in_order.update(&data);
        assert_eq!(side_by_side(&kinds, &data, part_size), in_order.finalize(), "{what}, two kinds");
    }
}

/// A failed read is returned as it came, and nothing after it is read.
#[test]
fn parts_side_by_side_return_the_read_error() {
    let mut reads = 0;
    let read_at = |offset: u64, _: &mut [u8]| {
        reads += 1;
        if offset >= 10 {
            Err(offset)
        } else {
            Ok(())
        }
    };
    let result = multipart_sums_at(&S3Checksum::ALL, NonZeroU64::new(10).unwrap(), 35, read_at);
    assert_eq!(result.unwrap_err(), 10);
    assert_eq!(reads, 2);
}
