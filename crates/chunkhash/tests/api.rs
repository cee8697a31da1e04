//! The public types: hex, addresses, comparisons, io traits, backends, and
//! the errors that bad input gets.

use chunkhash::blake3::{self, Address, Backend, Hash, Hasher};
use std::io::{Read, Seek, SeekFrom, Write};

#[test]
fn hash_hex_round_trip_and_display() {
    let hash = blake3::hash(b"hello world");
    let hex = "d74981efa70a0c880b8d8c1985d075dbcbf679b99a5f9914e5aaf96b831a9e24";
    assert_eq!(hash.to_hex().as_str(), hex);
    assert_eq!(hash.to_string(), hex);
    assert_eq!(Hash::from_hex(hex).unwrap(), hash);
    assert_eq!(Hash::from_hex(hex.to_uppercase()).unwrap(), hash);
    assert_eq!(hex.parse::<Hash>().unwrap(), hash);
    let bytes: [u8; 32] = hash.into();
    assert_eq!(Hash::from(bytes), hash);
    assert_eq!(format!("{hash:?}"), format!("Hash({hex})"));
}

#[test]
fn address_is_the_first_20_bytes() {
    let hash = blake3::hash(b"chunk");
    let address = blake3::address(b"chunk");
    assert_eq!(address, hash.address());
    assert_eq!(address.as_bytes()[..], hash.as_bytes()[..20]);
    assert_eq!(address.to_hex().as_str(), &hash.to_hex()[..40]);
    assert_eq!(address.to_string().parse::<Address>().unwrap(), address);
    assert_eq!(Address::from_hex(&hash.to_hex()[..40]).unwrap(), address);
}

#[test]
fn bad_hex_is_an_error_not_a_panic() {
    let good = blake3::hash(b"x").to_hex();
    // Wrong lengths.
    for bad in ["", "0", &good[..63], &format!("{good}0"), &good[..40]] {
        let error = Hash::from_hex(bad).unwrap_err();
        assert!(error.to_string().starts_with("expected 64 hex characters"), "{bad:?}: {error}");
    }
    assert!(Address::from_hex(&good[..]).is_err());
    // Non-hex characters at the start, middle and end, and non-ASCII.
    for (index, replacement) in [(0, "g"), (31, "-"), (63, " "), (10, "é")] {
        let mut bad = good.to_string();
        bad.replace_range(index..index + 1, replacement);
        if replacement.len() > 1 {
            bad.pop(); // keep 64 bytes so the character check is reached
        }
        let error = bad.parse::<Hash>().unwrap_err();
        assert!(error.to_string().contains("invalid hex character"), "{bad:?}: {error}");
        assert!(error.to_string().contains(&format!("at index {index}")), "{bad:?}: {error}");
    }
}

#[test]
fn equality_compares_every_byte() {
    let hash = blake3::hash(b"abc");
    let bytes = *hash.as_bytes();
    assert_eq!(hash, bytes);
    assert!(hash == bytes[..]);
    assert!(hash != bytes[..31]);
    for i in 0..32 {
        let mut other = bytes;
        other[i] ^= 1;
        assert_ne!(hash, Hash::from(other), "byte {i}");
    }
}

#[test]
fn io_write_read_and_seek() {
    let mut hasher = Hasher::new();
    hasher.write_all(b"hello ").unwrap();
    write!(hasher, "world").unwrap();
    hasher.flush().unwrap();
    assert_eq!(hasher.finalize(), blake3::hash(b"hello world"));

    let mut reader = hasher.finalize_xof();
    let mut first = [0u8; 100];
    reader.read_exact(&mut first).unwrap();
    assert_eq!(first[..32], blake3::hash(b"hello world").as_bytes()[..]);
    assert_eq!(reader.seek(SeekFrom::Current(-70)).unwrap(), 30);
    let mut again = [0u8; 70];
    reader.read_exact(&mut again).unwrap();
    assert_eq!(again[..], first[30..]);
    assert_eq!(reader.seek(SeekFrom::Start(5)).unwrap(), 5);
    // Errors, not panics: before the start, and from an end the stream does not have.
    assert!(reader.seek(SeekFrom::Current(-6)).is_err());
    assert!(reader.seek(SeekFrom::End(0)).is_err());
    assert_eq!(reader.position(), 5, "a failed seek does not move");
}

#[test]
fn reading_past_the_end_of_the_output_wraps() {
    let mut reader = Hasher::new().finalize_xof();
    let mut start = [0u8; 10];
    reader.fill(&mut start);
    reader.set_position(u64::MAX - 4);
    let mut across = [0u8; 10];
    reader.fill(&mut across);
    assert_eq!(across[5..], start[..5]);
    assert_eq!(reader.position(), 5);
}

#[test]
fn backend_names_and_errors() {
    for &backend in Backend::all() {
        assert_eq!(backend.name().parse::<Backend>().unwrap(), backend);
        assert_eq!(backend.name().to_uppercase().parse::<Backend>().unwrap(), backend);
    }
    let error = "avx1024".parse::<Backend>().unwrap_err();
    assert!(error.to_string().contains("unknown backend \"avx1024\""), "{error}");
    assert!(Backend::Portable.is_supported());
    assert!(Backend::detect().is_supported());
    // A backend this machine lacks is refused, never run.
    let missing = if cfg!(target_arch = "x86_64") { Backend::Neon } else { Backend::Avx512 };
    let error = Hasher::new_with_backend(missing).unwrap_err();
    assert_eq!(error.unsupported_backend(), Some(missing));
    assert!(blake3::hash_with_backend(missing, b"x").is_err());
}

/// `.ci/run` runs the suite once per backend through `CHUNKHASH_BACKEND`; this
/// proves the override took effect instead of being ignored.
#[test]
fn environment_override_is_honoured() {
    match Backend::from_env() {
        Ok(Some(forced)) => {
            println!("CHUNKHASH_BACKEND forces {forced}");
            assert_eq!(Backend::detect(), forced);
            assert_eq!(Hasher::new().backend(), forced);
        }
        Ok(None) => assert_eq!(Backend::detect(), Backend::best_supported()),
        Err(error) => panic!("CHUNKHASH_BACKEND is set to something this machine cannot run: {error}"),
    }
}
