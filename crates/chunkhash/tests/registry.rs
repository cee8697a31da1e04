//! The checksum registry: the golden vectors (vectors/golden.json), the id
//! contract, names, digests, streaming, and the errors bad input gets.

mod common;

use chunkhash::{digest, try_digest, Algorithm, Digest, StreamingHasher};
use std::collections::HashSet;
use std::io::Write;
use vectors::{golden, input_pattern, GoldenMode, TestRng};

fn by_name(name: &str) -> Algorithm {
    let algorithm: Algorithm = name.parse().unwrap_or_else(|e| panic!("golden name {name:?}: {e}"));
    assert_eq!(algorithm.name(), name, "golden files use canonical names");
    algorithm
}

/// The id contract: the table in golden.json (written independently in
/// vectors/tools/check_golden.py) must equal the enum, row for row. If this
/// fails, an id, a name or a length changed: that breaks data on disk.
#[test]
fn golden_algorithm_table_is_the_id_contract() {
    let table: Vec<(u8, String, usize)> =
        golden().algorithms.into_iter().map(|a| (a.id, a.name, a.digest_len)).collect();
    let ours: Vec<(u8, String, usize)> =
        Algorithm::all().iter().map(|a| (a.id(), a.name().to_owned(), a.digest_len())).collect();
    assert_eq!(ours, table);
    assert_eq!(Algorithm::all().len(), 16);
}

/// Every algorithm at every golden length, one shot, streamed in pieces,
/// and through `io::Write`. Skips (and says so) algorithms this build lacks.
#[test]
fn golden_digests_every_algorithm() {
    let golden = golden();
    let mut checked = HashSet::new();
    let mut rng = TestRng::new(vectors::test_seed("golden_digests_every_algorithm", 5));
    for case in golden.digests.iter().filter(|d| d.mode == GoldenMode::Hash) {
        let algorithm = by_name(&case.algorithm);
        if !algorithm.is_available() {
            println!("note: {algorithm} not in this build, skipped");
            continue;
        }
        let input = input_pattern(case.input_len);
        let what = format!("{algorithm} of {} bytes", case.input_len);
        let one_shot = digest(algorithm, &input);
        assert_eq!(one_shot.as_bytes(), &case.digest[..], "{what}");
        assert_eq!(one_shot.algorithm(), algorithm);

        let mut hasher = StreamingHasher::new(algorithm);
        let pieces = [rng.range(1..=100), rng.range(1..=5000), 1, 64];
        common::feed_in_pieces(&input, &pieces, |piece| {
            hasher.update(piece);
        });
        assert_eq!(hasher.finalize(), one_shot, "{what}, streamed in pieces {pieces:?}");

        let mut writer = StreamingHasher::new(algorithm);
        writer.write_all(&input).unwrap();
        writer.flush().unwrap();
        assert_eq!(writer.finalize(), one_shot, "{what}, io::Write");
        checked.insert((algorithm, case.input_len));
    }
    // Schema: every available algorithm at every length, nothing missing.
    let lengths = [0, 1, 3, 64, 1000, 1024, 4096, 16384, 100000];
    for &algorithm in Algorithm::all().iter().filter(|a| a.is_available()) {
        for length in lengths {
            assert!(checked.contains(&(algorithm, length)), "golden.json lacks {algorithm} at {length} bytes");
        }
    }
}

#[test]
fn golden_blake3_keyed_and_derive_key() {
    let golden = golden();
    let mut modes = HashSet::new();
    for case in golden.digests.iter().filter(|d| d.mode != GoldenMode::Hash) {
        assert_eq!(case.algorithm, "BLAKE3");
        let input = input_pattern(case.input_len);
        let ours: [u8; 32] = match case.mode {
            GoldenMode::KeyedHash => chunkhash::blake3::keyed_hash(&golden.key, &input).into(),
            GoldenMode::DeriveKey => chunkhash::blake3::derive_key(&golden.context_string, &input),
            GoldenMode::Hash => unreachable!(),
        };
        assert_eq!(ours[..], case.digest[..], "{:?} of {} bytes", case.mode, case.input_len);
        modes.insert((case.mode, case.input_len));
    }
    assert_eq!(modes.len(), 2 * 9, "keyed and derive-key at all nine lengths");
}

/// A second, Python-free check of the BLAKE3 rows: the official crate.
#[test]
fn golden_blake3_rows_match_the_official_crate() {
    let golden = golden();
    let mut rows = 0;
    for case in &golden.digests {
        let input = input_pattern(case.input_len);
        let official: [u8; 32] = match (case.algorithm.as_str(), case.mode) {
            ("BLAKE3" | "BLAKE3-160", GoldenMode::Hash) => ::blake3::hash(&input).into(),
            ("BLAKE3", GoldenMode::KeyedHash) => ::blake3::keyed_hash(&golden.key, &input).into(),
            ("BLAKE3", GoldenMode::DeriveKey) => ::blake3::derive_key(&golden.context_string, &input),
            _ => continue,
        };
        assert_eq!(
            case.digest[..],
            official[..case.digest.len()],
            "{} {:?} {}",
            case.algorithm,
            case.mode,
            case.input_len
        );
        rows += 1;
    }
    assert_eq!(rows, 4 * 9);
}

#[test]
fn published_check_values_and_truncations() {
    assert_eq!(
        digest(Algorithm::Blake3, b"").to_hex(),
        "af1349b9f5f9a1a6a0404dea36dcc9499bcb25c9adc112b7cc9a93cae41f3262"
    );
    assert_eq!(digest(Algorithm::Blake3_160, b"chunk").as_bytes(), chunkhash::blake3::address(b"chunk").as_bytes());
    if Algorithm::Crc32c.is_available() {
        // The check values of the CRC RevEng catalogue: CRC-32C (RFC 3720
        // polynomial), CRC-32 (ISO-HDLC, zlib's), CRC-64/NVME.
        assert_eq!(digest(Algorithm::Crc32c, b"123456789").to_hex(), "e3069283");
        assert_eq!(digest(Algorithm::Crc32, b"123456789").to_hex(), "cbf43926");
        assert_eq!(digest(Algorithm::Crc64Nvme, b"123456789").to_hex(), "ae8b14860a799888");
    }
    if Algorithm::Sha256.is_available() {
        // FIPS 180-4 example.
        assert_eq!(
            digest(Algorithm::Sha256, b"abc").to_hex(),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        let full = digest(Algorithm::Sha512, b"chunk");
        assert_eq!(digest(Algorithm::Sha512_160, b"chunk").as_bytes(), &full.as_bytes()[..20]);
    }
    if Algorithm::Md5.is_available() {
        // RFC 1321 and FIPS 180-4 (SHA-1) examples.
        assert_eq!(digest(Algorithm::Md5, b"abc").to_hex(), "900150983cd24fb0d6963f7d28e17f72");
        assert_eq!(digest(Algorithm::Md5, b"").to_hex(), "d41d8cd98f00b204e9800998ecf8427e");
        assert_eq!(digest(Algorithm::Sha1, b"abc").to_hex(), "a9993e364706816aba3e25717850c26c9cd0d89d");
    }
    if Algorithm::Xxh64.is_available() {
        // XXH64 of the empty input, seed 0 (xxHash's own sanity value).
        assert_eq!(digest(Algorithm::Xxh64, b"").to_hex(), "ef46db3751d8e999");
    }
    if Algorithm::Blake2b256.is_available() {
        // BLAKE2b-256 sets the output length in the parameter block: not a truncation.
        let long = digest(Algorithm::Blake2b512, b"chunk");
        assert_ne!(digest(Algorithm::Blake2b256, b"chunk").as_bytes(), &long.as_bytes()[..32]);
    }
}

#[test]
fn table_properties() {
    let cryptographic: Vec<&str> = Algorithm::all().iter().filter(|a| a.is_cryptographic()).map(|a| a.name()).collect();
    assert_eq!(
        cryptographic,
        ["BLAKE3", "BLAKE3-160", "BLAKE2b-512", "BLAKE2b-256", "SHA-256", "SHA-512", "SHA-512/160", "MD5", "SHA-1"]
    );
    let lengths: Vec<usize> = Algorithm::all().iter().map(|a| a.digest_len()).collect();
    assert_eq!(lengths, [32, 20, 8, 16, 8, 4, 4, 64, 32, 32, 64, 20, 4, 8, 16, 20]);
    assert_eq!(chunkhash::MAX_DIGEST_LEN, 64);
    for &algorithm in Algorithm::all() {
        assert_eq!(Algorithm::from_id(algorithm.id()), Ok(algorithm));
        assert_eq!(Algorithm::try_from(algorithm.id()), Ok(algorithm));
        assert_eq!(u8::from(algorithm), algorithm.id());
        assert_eq!(algorithm.to_string(), algorithm.name());
        assert_eq!(algorithm.is_available(), try_digest(algorithm, b"x").is_ok(), "{algorithm}");
        assert_eq!(algorithm.cargo_feature().is_none(), matches!(algorithm, Algorithm::Blake3 | Algorithm::Blake3_160));
    }
}

#[test]
fn unknown_ids_are_errors() {
    for id in [0u8, 17, 255] {
        let error = Algorithm::from_id(id).unwrap_err();
        assert_eq!(error.id(), id);
        assert_eq!(error.to_string(), format!("unknown algorithm id {id} (known ids are 1 to 16; 0 is reserved)"));
        assert_eq!(Algorithm::try_from(id), Err(error));
    }
    assert!((17..=255).all(|id| Algorithm::from_id(id).is_err()));
    assert!((1..=16).all(|id| Algorithm::from_id(id).is_ok()));
}

#[test]
fn names_tools_use_parse() {
    use Algorithm::*;
    let cases = [
        (Blake3, &["blake3", "BLAKE3", "b3", "B3"][..]),
        (Blake3_160, &["blake3-160", "BLAKE3_160", "b3-160"]),
        (Xxh3_64, &["xxh3", "XXH3", "xxh3_64", "xxh3-64", "XXH3_64bits"]),
        (Xxh3_128, &["xxh128", "XXH128", "xxh3_128", "XXH3-128", "xxh3_128bits"]),
        (Xxh64, &["xxh64", "XXH64", "xxhash64"]),
        (Xxh32, &["xxh32", "XXH32", "xxhash32"]),
        (Crc32c, &["crc32c", "CRC32C", "crc-32c", "CRC-32/ISCSI"]),
        (Blake2b512, &["blake2b", "BLAKE2b", "blake2b-512", "BLAKE2B_512"]),
        (Blake2b256, &["blake2b-256", "BLAKE2b-256", "blake2b_256"]),
        (Sha256, &["sha256", "SHA256", "sha-256", "SHA-256", "sha2-256", "sha_256"]),
        (Sha512, &["sha512", "SHA512", "sha-512", "sha2_512"]),
        (Sha512_160, &["sha512/160", "SHA-512/160", "sha512-160", "SHA512_160"]),
        (Crc32, &["crc32", "CRC32", "crc-32", "CRC-32/ISO-HDLC", "crc32b"]),
        (Crc64Nvme, &["crc64nvme", "CRC64NVME", "crc-64/nvme", "CRC64-NVME", "crc64_nvme"]),
        (Md5, &["md5", "MD5"]),
        (Sha1, &["sha1", "SHA1", "sha-1", "SHA-1", "sha_1"]),
    ];
    for (algorithm, names) in cases {
        for name in names {
            assert_eq!(name.parse::<Algorithm>(), Ok(algorithm), "{name}");
        }
        assert_eq!(algorithm.name().parse::<Algorithm>(), Ok(algorithm));
        assert_eq!(algorithm.bsd_tag().parse::<Algorithm>(), Ok(algorithm), "bsd tag {}", algorithm.bsd_tag());
    }
    assert_eq!(cases.len(), Algorithm::all().len());
}

#[test]
fn bsd_tags_are_the_tools_spellings() {
    // coreutils sha256sum/sha512sum/b2sum --tag, xxhsum 0.8 --tag (checked on
    // this machine: `b2sum -l 256 --tag` prints `BLAKE2b-256 (-) = ...`).
    let tags: Vec<&str> = Algorithm::all().iter().map(|a| a.bsd_tag()).collect();
    assert_eq!(
        tags,
        [
            "BLAKE3",
            "BLAKE3-160",
            "XXH3",
            "XXH128",
            "XXH64",
            "XXH32",
            "CRC32C",
            "BLAKE2b",
            "BLAKE2b-256",
            "SHA256",
            "SHA512",
            "SHA512-160",
            "CRC32",
            "CRC64NVME",
            "MD5",
            "SHA1"
        ]
    );
}

#[test]
fn unknown_names_are_errors_that_list_the_valid_ones() {
    let long = "x".repeat(100);
    // `crc`, `cksum` and `crc-32/cksum` name the POSIX cksum CRC, which is
    // not CRC-32 (unreflected, with the length appended): never accepted.
    for bad in [
        "",
        "sha3-256",
        "md4",
        "crc",
        "cksum",
        "crc-32/cksum",
        "crc64",
        "blake2",
        "xxhash",
        "BLAKE3-256",
        " sha256",
        "sha256 ",
        "shä256",
        &long,
    ] {
        let error = bad.parse::<Algorithm>().unwrap_err();
        let message = error.to_string();
        assert!(message.starts_with("unknown algorithm \""), "{bad:?}: {message}");
        for algorithm in Algorithm::all() {
            assert!(message.contains(algorithm.name()), "{bad:?}: {message} lacks {algorithm}");
        }
        assert!(message.contains("xxh128") && message.contains("sha256") && message.contains("b3"), "{message}");
        if bad.len() <= 32 {
            assert!(message.contains(&format!("{bad:?}")), "{message}");
        }
    }
    // A long name is cut, and says so.
    let message = long.parse::<Algorithm>().unwrap_err().to_string();
    assert!(message.starts_with(&format!("unknown algorithm \"{}\"...,", "x".repeat(32))), "{message}");
    // Cutting never splits a character.
    let wide = "é".repeat(40);
    let message = wide.parse::<Algorithm>().unwrap_err().to_string();
    assert!(message.starts_with(&format!("unknown algorithm \"{}\"...,", "é".repeat(16))), "{message}");
}

#[test]
fn digest_value_api() {
    let algorithm = Algorithm::Blake3_160;
    let d = digest(algorithm, b"chunk");
    assert_eq!(d.len(), 20);
    assert_eq!(d.as_bytes().len(), 20);
    assert_eq!(d.as_ref(), d.as_bytes());
    let hex = d.to_hex();
    assert_eq!(hex.len(), 40);
    assert_eq!(hex.as_str(), d.to_string());
    assert_eq!(format!("{d:?}"), format!("Digest(BLAKE3-160, {hex})"));
    assert_eq!(Digest::from_hex(algorithm, &*hex), Ok(d));
    assert_eq!(Digest::from_hex(algorithm, hex.to_uppercase()), Ok(d));
    assert!(d == *d.as_bytes());
    assert!(d != d.as_bytes()[..19]);
    // Same bytes under another algorithm of the same length are not equal.
    let other = Digest::from_hex(Algorithm::Sha512_160, &*hex).unwrap();
    assert_ne!(other, d);
    assert_eq!(other.as_bytes(), d.as_bytes());
    // Equal digests hash equally; different ones go to different set entries.
    let set: HashSet<Digest> = [d, d, other].into_iter().collect();
    assert_eq!(set.len(), 2);
    // Every length formats to the right width.
    for &algorithm in Algorithm::all().iter().filter(|a| a.is_available()) {
        let d = digest(algorithm, b"x");
        assert_eq!(d.to_hex().len(), 2 * algorithm.digest_len(), "{algorithm}");
        assert_eq!(Digest::from_hex(algorithm, d.to_hex()), Ok(d));
    }
}

#[test]
fn bad_digest_hex_is_an_error() {
    let hex = digest(Algorithm::Blake3, b"x").to_hex();
    let error = Digest::from_hex(Algorithm::Blake3_160, &*hex).unwrap_err();
    assert_eq!(error.to_string(), "expected 40 hex characters, found 64");
    let error = Digest::from_hex(Algorithm::Blake3, "").unwrap_err();
    assert_eq!(error.to_string(), "expected 64 hex characters, found 0");
    let mut bad = hex.to_string();
    bad.replace_range(10..11, "z");
    let error = Digest::from_hex(Algorithm::Blake3, &bad).unwrap_err();
    assert_eq!(error.to_string(), "invalid hex character 'z' at index 10");
}

/// Random lengths and random split points, every algorithm: streaming equals
/// one-shot, `finalize` does not consume, `reset` and `clone` behave.
#[test]
fn streaming_equals_one_shot_at_random_splits() {
    let seed = vectors::test_seed("streaming_equals_one_shot_at_random_splits", 12);
    let mut rng = TestRng::new(seed);
    for &algorithm in Algorithm::all().iter().filter(|a| a.is_available()) {
        for _ in 0..40 {
            let len = rng.range(0..=5000);
            let input = rng.bytes(len);
            let expected = digest(algorithm, &input);
            let split = rng.range(0..=input.len());
            let mut hasher = StreamingHasher::new(algorithm);
            hasher.update(&input[..split]);
            let partial = hasher.finalize();
            assert_eq!(partial, digest(algorithm, &input[..split]), "{algorithm}: finalize mid-way");
            let snapshot = hasher.clone();
            hasher.update(&input[split..]);
            assert_eq!(hasher.finalize(), expected, "{algorithm}, {} bytes split at {split}", input.len());
            assert_eq!(snapshot.finalize(), partial, "{algorithm}: a clone is independent");
            hasher.reset().update(&input);
            assert_eq!(hasher.finalize(), expected, "{algorithm}: after reset");
            assert_eq!(hasher.algorithm(), algorithm);
        }
    }
    let hasher = StreamingHasher::new(Algorithm::Blake3);
    assert!(format!("{hasher:?}").contains("Blake3"));
}

/// Each wrapper names the code it runs: the crate it adapts and the
/// instruction set that crate picks (chunkhash's own backend for BLAKE3), and
/// nothing for an algorithm this build lacks. Printed, so a test log says
/// which code the golden vectors above ran on.
#[test]
fn each_algorithm_reports_its_implementation() {
    for &algorithm in Algorithm::all() {
        let implementation = algorithm.implementation();
        println!("{algorithm}: {implementation:?}");
        if !algorithm.is_available() {
            assert_eq!(implementation, None, "{algorithm}");
            continue;
        }
        let implementation = implementation.unwrap();
        let expected_crate = match algorithm.cargo_feature() {
            None => {
                assert_eq!(implementation, chunkhash::Backend::detect().name(), "{algorithm}");
                continue;
            }
            // chunkhash's own XXH3 and XXH64; XXH32 from twox-hash.
            Some("xxhash") if matches!(algorithm, Algorithm::Xxh3_64 | Algorithm::Xxh3_128 | Algorithm::Xxh64) => {
                "chunkhash"
            }
            Some("xxhash") => "twox-hash",
            Some("crc") => {
                // chunkhash's own kernels: the CRC backend, or portable where
                // it has no kernel for this CRC (SSE4.2 computes CRC-32C only).
                #[cfg(feature = "crc")]
                {
                    let backend = chunkhash::crc::CrcBackend::detect();
                    let own = match (algorithm, backend.name()) {
                        (Algorithm::Crc32c, name) | (_, name @ ("portable" | "pclmul" | "vpclmul" | "aarch64")) => name,
                        (_, _) => "portable",
                    };
                    assert_eq!(implementation, own, "{algorithm}");
                }
                continue;
            }
            Some("blake2") => "blake2b_simd",
            Some("sha2") => "sha2",
            Some("compat") if algorithm == Algorithm::Md5 => "md-5",
            Some("compat") => "sha1",
            Some(other) => panic!("{algorithm}: a wrapper of feature {other} this test does not know"),
        };
        let (name, instruction_set) = implementation.split_once(' ').unwrap_or((implementation, ""));
        assert_eq!(name, expected_crate, "{algorithm}: {implementation}");
        assert!(!instruction_set.is_empty(), "{algorithm}: {implementation} names no instruction set");
    }
    // A truncation runs the code of the algorithm it truncates.
    assert_eq!(Algorithm::Blake3_160.implementation(), Algorithm::Blake3.implementation());
    assert_eq!(Algorithm::Sha512_160.implementation(), Algorithm::Sha512.implementation());
}

/// Without a family's feature: the variant and id remain, hashing with it is
/// an error from the `try_` forms and a panic with a clear message from the
/// plain ones. `make test` runs this file with default features off too.
#[test]
fn unavailable_algorithms_are_errors() {
    let unavailable: Vec<Algorithm> = Algorithm::all().iter().copied().filter(|a| !a.is_available()).collect();
    println!("unavailable in this build: {unavailable:?}");
    for &algorithm in &unavailable {
        let error = try_digest(algorithm, b"x").unwrap_err();
        assert_eq!(error.algorithm(), algorithm);
        let feature = algorithm.cargo_feature().unwrap();
        assert_eq!(
            error.to_string(),
            format!(
                "{algorithm} (id {}) is not in this build of chunkhash (enable the cargo feature `{feature}`)",
                algorithm.id()
            )
        );
        assert_eq!(StreamingHasher::try_new(algorithm).unwrap_err(), error);
        let panic = std::panic::catch_unwind(|| digest(algorithm, b"x")).unwrap_err();
        assert_eq!(panic.downcast_ref::<String>(), Some(&error.to_string()));
    }
    let all_features = cfg!(all(feature = "xxhash", feature = "crc", feature = "blake2", feature = "sha2"));
    assert_eq!(unavailable.is_empty(), all_features);
}
