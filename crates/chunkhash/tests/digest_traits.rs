//! The `digest` feature: chunkhash's hashers through RustCrypto's traits,
//! used by generic code (a `Digest`-generic function, `hmac`, `hkdf`) and
//! checked against the same generic code over independent implementations:
//! the official `blake3` crate (its `traits-preview` feature) and
//! RustCrypto's `sha2` (with `hmac::Hmac`, the block-level HMAC, where ours
//! go through `SimpleHmac`; BLAKE3 goes through both); known answers from RFC 4231 (HMAC-SHA-2), RFC
//! 5869 (HKDF) and CPython's `hmac` over `hashlib.blake2b` for BLAKE2b.
#![cfg(feature = "digest")]

use chunkhash::blake3;
// RustCrypto's `digest` 0.11, as `hmac` re-exports it.
use digest::{Digest, ExtendableOutput, ExtendableOutputReset, FixedOutputReset, KeyInit, Mac, XofReader};
use hkdf::SimpleHkdf;
use hmac::digest;
use hmac::SimpleHmac;
use vectors::{test_seed, TestRng};

/// Lengths at BLAKE3's block (64) and chunk (1024) edges and SHA-512's and
/// BLAKE2b's block (128), where buffering bugs live.
const LENGTHS: [usize; 13] = [0, 1, 63, 64, 65, 127, 128, 129, 1023, 1024, 1025, 4097, 20_000];

/// Any `Digest`, fed in random pieces, and in one call.
fn digest_in_pieces<D: Digest>(data: &[u8], rng: &mut TestRng) -> Vec<u8> {
    let mut hasher = D::new();
    let mut rest = data;
    while !rest.is_empty() {
        let take = rng.range(1..=rest.len());
        hasher.update(&rest[..take]);
        rest = &rest[take..];
    }
    let pieces = hasher.finalize().to_vec();
    assert_eq!(pieces, D::digest(data).to_vec(), "{} bytes: in pieces and in one call differ", data.len());
    pieces
}

#[cfg(any(feature = "sha2", feature = "blake2"))]
fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|byte| format!("{byte:02x}")).collect()
}

#[test]
fn a_digest_generic_function_takes_chunkhash_hashers() {
    let seed = test_seed("a_digest_generic_function_takes_chunkhash_hashers", 31);
    let mut rng = TestRng::new(seed);
    for len in LENGTHS {
        let data = rng.bytes(len);
        assert_eq!(
            digest_in_pieces::<blake3::Hasher>(&data, &mut rng),
            digest_in_pieces::<::blake3::Hasher>(&data, &mut rng),
            "BLAKE3, {len} bytes"
        );
        #[cfg(feature = "sha2")]
        {
            use chunkhash::traits::{Sha256, Sha512};
            assert_eq!(
                digest_in_pieces::<Sha256>(&data, &mut rng),
                digest_in_pieces::<sha2::Sha256>(&data, &mut rng),
                "SHA-256, {len} bytes"
            );
            assert_eq!(
                digest_in_pieces::<Sha512>(&data, &mut rng),
                digest_in_pieces::<sha2::Sha512>(&data, &mut rng),
                "SHA-512, {len} bytes"
            );
        }
        #[cfg(feature = "blake2")]
        {
            // BLAKE2b's adapter against the registry (whose BLAKE2b the
            // golden vectors pin; the HMAC test below has CPython's).
            use chunkhash::traits::{Blake2b256, Blake2b512};
            use chunkhash::Algorithm;
            let registry = |algorithm| chunkhash::digest(algorithm, &data).as_bytes().to_vec();
            assert_eq!(digest_in_pieces::<Blake2b512>(&data, &mut rng), registry(Algorithm::Blake2b512));
            assert_eq!(digest_in_pieces::<Blake2b256>(&data, &mut rng), registry(Algorithm::Blake2b256));
        }
    }
}

/// The block-level view taken apart and put back together mid-message.
#[test]
fn core_proxy_round_trip() {
    use digest::block_api::CoreProxy;
    let mut hasher = blake3::Hasher::new();
    hasher.update(&[5u8; 1000]);
    let (core, buffer) = hasher.decompose();
    let mut hasher = blake3::Hasher::compose(core, buffer);
    hasher.update(&[6u8; 100]);
    let mut expected = vec![5u8; 1000];
    expected.extend([6u8; 100]);
    assert_eq!(blake3::Hasher::finalize(&hasher), blake3::hash(&expected));
}

/// The block size HMAC pads to, and `reset` keeping nothing of the input.
#[test]
fn block_sizes_and_reset() {
    use digest::common::BlockSizeUser;
    assert_eq!(<blake3::Hasher as BlockSizeUser>::block_size(), 64);
    let mut hasher = <blake3::Hasher as Digest>::new();
    Digest::update(&mut hasher, b"forgotten");
    Digest::reset(&mut hasher);
    Digest::update(&mut hasher, b"abc");
    assert_eq!(hasher.finalize_fixed_reset().as_slice(), blake3::hash(b"abc").as_bytes());
    Digest::update(&mut hasher, b"def");
    assert_eq!(Digest::finalize(hasher).as_slice(), blake3::hash(b"def").as_bytes());
    #[cfg(feature = "sha2")]
    {
        assert_eq!(chunkhash::traits::Sha256::block_size(), sha2::Sha256::block_size());
        assert_eq!(chunkhash::traits::Sha512::block_size(), sha2::Sha512::block_size());
        let mut sha = chunkhash::traits::Sha256::new_with_prefix(b"forgotten");
        let _ = sha.finalize_fixed_reset();
        Digest::update(&mut sha, b"abc");
        assert_eq!(sha.finalize().as_slice(), sha2::Sha256::digest(b"abc").as_slice());
    }
    #[cfg(feature = "blake2")]
    {
        assert_eq!(chunkhash::traits::Blake2b512::block_size(), 128);
        assert_eq!(chunkhash::traits::Blake2b256::block_size(), 128);
    }
}

#[test]
fn hmac_over_blake3_matches_the_official_crate() {
    let seed = test_seed("hmac_over_blake3_matches_the_official_crate", 32);
    let mut rng = TestRng::new(seed);
    // Keys shorter than, as long as and longer than a block (hashed first).
    for key_len in [0, 1, 32, 63, 64, 65, 200] {
        let key = rng.bytes(key_len);
        for len in LENGTHS {
            let data = rng.bytes(len);
            let mut ours = SimpleHmac::<blake3::Hasher>::new_from_slice(&key).unwrap();
            let mut official = SimpleHmac::<::blake3::Hasher>::new_from_slice(&key).unwrap();
            let split = len / 2;
            Mac::update(&mut ours, &data[..split]);
            Mac::update(&mut ours, &data[split..]);
            Mac::update(&mut official, &data);
            let tag = ours.finalize().into_bytes();
            assert_eq!(tag, official.finalize().into_bytes(), "key {key_len} bytes, data {len} bytes");
            // hmac::Hmac, over the block-level core (chunkhash::traits::Blake3Core).
            let mut eager = hmac::Hmac::<blake3::Hasher>::new_from_slice(&key).unwrap();
            let split = rng.range(0..=len);
            Mac::update(&mut eager, &data[..split]);
            Mac::update(&mut eager, &data[split..]);
            assert_eq!(eager.finalize().into_bytes(), tag, "Hmac: key {key_len} bytes, data {len} bytes");
        }
    }
}

#[cfg(feature = "sha2")]
#[test]
fn hmac_over_sha2_matches_rustcrypto_and_rfc_4231() {
    use chunkhash::traits::{Sha256, Sha512};
    // RFC 4231, test case 2.
    let mut mac = SimpleHmac::<Sha256>::new_from_slice(b"Jefe").unwrap();
    Mac::update(&mut mac, b"what do ya want for nothing?");
    assert_eq!(hex(&mac.finalize().into_bytes()), "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
    let mut mac = SimpleHmac::<Sha512>::new_from_slice(b"Jefe").unwrap();
    Mac::update(&mut mac, b"what do ya want for nothing?");
    assert_eq!(
        hex(&mac.finalize().into_bytes()),
        "164b7a7bfcf819e2e395fbe73b56e0a387bd64222e831fd610270cd7ea2505549758bf75c05a994a6d034f65f8f0e6fdcaeab1a34d4a6b4b636e070a38bce737"
    );

    let seed = test_seed("hmac_over_sha2_matches_rustcrypto_and_rfc_4231", 33);
    let mut rng = TestRng::new(seed);
    for key_len in [0, 20, 64, 65, 128, 129, 300] {
        let key = rng.bytes(key_len);
        for len in LENGTHS {
            let data = rng.bytes(len);
            let ours = SimpleHmac::<Sha256>::new_from_slice(&key).unwrap().chain_update(&data).finalize();
            let theirs = hmac::Hmac::<sha2::Sha256>::new_from_slice(&key).unwrap().chain_update(&data).finalize();
            assert_eq!(ours.into_bytes(), theirs.into_bytes(), "SHA-256, key {key_len}, data {len}");
            let ours = SimpleHmac::<Sha512>::new_from_slice(&key).unwrap().chain_update(&data).finalize();
            let theirs = hmac::Hmac::<sha2::Sha512>::new_from_slice(&key).unwrap().chain_update(&data).finalize();
            assert_eq!(ours.into_bytes(), theirs.into_bytes(), "SHA-512, key {key_len}, data {len}");
        }
    }
}

/// CPython 3's `hmac.new(key, msg, hashlib.blake2b)` (and with
/// `digest_size=32`), whose BLAKE2b is the reference C code and whose
/// HMAC pads to `hashlib.blake2b().block_size`, 128.
#[cfg(feature = "blake2")]
#[test]
fn hmac_over_blake2b_matches_cpython() {
    use chunkhash::traits::{Blake2b256, Blake2b512};
    let message = b"The quick brown fox jumps over the lazy dog";
    let long_key: Vec<u8> = (0..200).collect();
    let cases: [(&[u8], &str, &str); 2] = [
        (
            b"key",
            "92294f92c0dfb9b00ec9ae8bd94d7e7d8a036b885a499f149dfe2fd2199394aaaf6b8894a1730cccb2cd050f9bcf5062a38b51b0dab33207f8ef35ae2c9df51b",
            "bb3e1cd6f38b5df1cb87983ec29d6116587c1b9bf6e5cd167ac7f2bc741d3817",
        ),
        (
            &long_key,
            "7b6d593626fdbf17325c34e2e415d85c4fe0bfa9264d3e6037b146acdd2544b0bec787e5a214533833c0e0f8386f6f3a46a1566cac5917652e8a0ad0b1bd8e99",
            "ead53251c019d19cec5710637c8d32e5b3534d9aebabf2af2e80b23a0e332167",
        ),
    ];
    for (key, expected_512, expected_256) in cases {
        let tag = SimpleHmac::<Blake2b512>::new_from_slice(key).unwrap().chain_update(message).finalize();
        assert_eq!(hex(&tag.into_bytes()), expected_512, "key {} bytes", key.len());
        let tag = SimpleHmac::<Blake2b256>::new_from_slice(key).unwrap().chain_update(message).finalize();
        assert_eq!(hex(&tag.into_bytes()), expected_256, "key {} bytes", key.len());
    }
}

#[test]
fn hkdf_over_blake3_matches_the_official_crate() {
    let seed = test_seed("hkdf_over_blake3_matches_the_official_crate", 34);
    let mut rng = TestRng::new(seed);
    for (salt_len, ikm_len, info_len, out_len) in
        [(0, 0, 0, 1), (16, 32, 10, 32), (64, 100, 0, 100), (200, 7, 50, 1000)]
    {
        let (salt, ikm, info) = (rng.bytes(salt_len), rng.bytes(ikm_len), rng.bytes(info_len));
        let mut ours = vec![0u8; out_len];
        let mut official = vec![0u8; out_len];
        SimpleHkdf::<blake3::Hasher>::new(Some(&salt), &ikm).expand(&info, &mut ours).unwrap();
        SimpleHkdf::<::blake3::Hasher>::new(Some(&salt), &ikm).expand(&info, &mut official).unwrap();
        assert_eq!(ours, official, "salt {salt_len}, ikm {ikm_len}, info {info_len}, {out_len} bytes out");
        let mut eager = vec![0u8; out_len];
        hkdf::Hkdf::<blake3::Hasher>::new(Some(&salt), &ikm).expand(&info, &mut eager).unwrap();
        assert_eq!(eager, official, "Hkdf: salt {salt_len}, ikm {ikm_len}, info {info_len}, {out_len} bytes out");
    }
    // Longer than 255 hash lengths is refused, not truncated.
    let mut too_long = vec![0u8; 255 * 32 + 1];
    assert!(SimpleHkdf::<blake3::Hasher>::new(None, b"ikm").expand(b"", &mut too_long).is_err());
}

#[cfg(feature = "sha2")]
#[test]
fn hkdf_over_sha256_matches_rfc_5869_and_rustcrypto() {
    // RFC 5869, A.1 (test case 1).
    let ikm = [0x0b; 22];
    let salt: Vec<u8> = (0x00..=0x0c).collect();
    let info: Vec<u8> = (0xf0..=0xf9).collect();
    let mut okm = [0u8; 42];
    SimpleHkdf::<chunkhash::traits::Sha256>::new(Some(&salt), &ikm).expand(&info, &mut okm).unwrap();
    assert_eq!(hex(&okm), "3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865");
    let mut theirs = [0u8; 42];
    hkdf::Hkdf::<sha2::Sha256>::new(Some(&salt), &ikm).expand(&info, &mut theirs).unwrap();
    assert_eq!(okm, theirs);
}

/// The extended output through `ExtendableOutput` and `XofReader`, read in
/// pieces, against the official crate's traits.
#[test]
fn extendable_output_matches_the_official_crate() {
    let seed = test_seed("extendable_output_matches_the_official_crate", 35);
    let mut rng = TestRng::new(seed);
    for len in LENGTHS {
        let data = rng.bytes(len);
        let mut ours = blake3::Hasher::new();
        digest::Update::update(&mut ours, &data);
        let mut official = ::blake3::Hasher::new();
        official.update(&data);
        let mut expected = [0u8; 300];
        ExtendableOutput::finalize_xof(official).read(&mut expected);

        let mut reader = ExtendableOutput::finalize_xof(ours.clone());
        let mut got = [0u8; 300];
        let mut filled = 0;
        while filled < got.len() {
            let take = rng.range(1..=got.len() - filled);
            reader.read(&mut got[filled..filled + take]);
            filled += take;
        }
        assert_eq!(got, expected, "{len} bytes");
        // The reset form reads the same, then the hasher starts over.
        let mut again = [0u8; 300];
        ours.finalize_xof_reset().read(&mut again);
        assert_eq!(again, expected);
        assert_eq!(ours.count(), 0);
    }
}

/// The keyed hash as a `Mac` (`KeyInit`): the official crate's keyed
/// hash, tags verified and refused, `reset` keeping the key.
#[test]
fn keyed_hash_is_a_mac() {
    let key = [7u8; 32];
    let mut mac = <blake3::Hasher as KeyInit>::new(&key.into());
    Mac::update(&mut mac, b"message");
    let tag = Mac::finalize_reset(&mut mac);
    assert_eq!(tag.clone().into_bytes().as_slice(), ::blake3::keyed_hash(&key, b"message").as_bytes());
    // After the reset the key is still there.
    Mac::update(&mut mac, b"message");
    assert!(Mac::finalize(mac.clone()) == tag);
    mac.clone().verify_slice(&tag.clone().into_bytes()).unwrap();
    let mut wrong = tag.into_bytes();
    wrong[31] ^= 1;
    assert!(mac.clone().verify_slice(&wrong).is_err());
    assert!(mac.verify_slice(&wrong[..31]).is_err(), "a short tag is refused");
    // Keys of the wrong length are an error, not a panic.
    assert!(<blake3::Hasher as KeyInit>::new_from_slice(&[0u8; 31]).is_err());
}
