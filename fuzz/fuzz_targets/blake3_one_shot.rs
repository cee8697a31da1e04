//! BLAKE3 of any input, in every mode and on every backend this CPU runs,
//! against the official `blake3` crate: the 32-byte hash, the address, and
//! extended output read from any position.

#![no_main]

use arbitrary::Arbitrary;
use chunkhash::blake3::{self, Hasher};
use chunkhash_fuzz::backends;
use libfuzzer_sys::fuzz_target;

#[derive(Arbitrary, Debug)]
enum Mode<'a> {
    Hash,
    Keyed([u8; 32]),
    DeriveKey(&'a str),
}

#[derive(Arbitrary, Debug)]
struct Case<'a> {
    mode: Mode<'a>,
    xof_position: u64,
    xof_len: u16,
    input: &'a [u8],
}

fuzz_target!(|case: Case<'_>| {
    let Case { mode, xof_position, xof_len, input } = case;
    let mut official = match mode {
        Mode::Hash => ::blake3::Hasher::new(),
        Mode::Keyed(key) => ::blake3::Hasher::new_keyed(&key),
        Mode::DeriveKey(context) => ::blake3::Hasher::new_derive_key(context),
    };
    official.update(input);
    let expected = *official.finalize().as_bytes();
    // Output is 2^64 bytes long; positions stay clear of its end.
    let xof_position = xof_position.min(u64::MAX - 2048);
    let mut expected_xof = vec![0u8; xof_len as usize % 1100];
    let mut official_reader = official.finalize_xof();
    official_reader.set_position(xof_position);
    official_reader.fill(&mut expected_xof);
    match mode {
        Mode::Hash => {
            assert_eq!(*blake3::hash(input).as_bytes(), expected);
            assert_eq!(blake3::address(input).as_bytes()[..], expected[..20]);
        }
        Mode::Keyed(key) => assert_eq!(*blake3::keyed_hash(&key, input).as_bytes(), expected),
        Mode::DeriveKey(context) => assert_eq!(blake3::derive_key(context, input), expected),
    }
    for &backend in backends() {
        if let Mode::Hash = mode {
            assert_eq!(*blake3::hash_with_backend(backend, input).unwrap().as_bytes(), expected, "{backend}");
        }
        let mut hasher = match mode {
            Mode::Hash => Hasher::new_with_backend(backend),
            Mode::Keyed(key) => Hasher::new_keyed_with_backend(backend, &key),
            Mode::DeriveKey(context) => Hasher::new_derive_key_with_backend(backend, context),
        }
        .unwrap();
        hasher.update(input);
        assert_eq!(*hasher.finalize().as_bytes(), expected, "{backend}");
        let mut reader = hasher.finalize_xof();
        reader.set_position(xof_position);
        let mut xof = vec![0u8; expected_xof.len()];
        reader.fill(&mut xof);
        assert_eq!(xof, expected_xof, "{backend}, {} bytes at {xof_position}", xof.len());
        assert_eq!(reader.position(), xof_position + xof.len() as u64);
    }
});
