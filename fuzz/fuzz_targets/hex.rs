//! `chunkhash::hex` and the `from_hex` constructors on any string: decoding
//! agrees with a plain reading of the hex, round-trips through `encode`,
//! and every error message says something true about the input.

#![no_main]

use chunkhash::blake3::{Address, Hash};
use chunkhash::{hex, Algorithm, Digest};
use libfuzzer_sys::fuzz_target;

/// The bytes `text` spells, read one pair of hex digits at a time; `None`
/// when it is not hex of even length.
fn plain_decode(text: &str) -> Option<Vec<u8>> {
    if text.len() % 2 != 0 || !text.bytes().all(|c| c.is_ascii_hexdigit()) {
        return None;
    }
    (0..text.len()).step_by(2).map(|i| u8::from_str_radix(&text[i..i + 2], 16).ok()).collect()
}

/// An error message names a true fact: a length that differs from the one
/// expected, or a character at its (character) index that is not hex.
fn check_message(text: &str, message: &str) {
    if let Some(rest) = message.strip_prefix("expected ") {
        let numbers: Vec<usize> = rest.split(|c: char| !c.is_ascii_digit()).filter_map(|n| n.parse().ok()).collect();
        assert!(numbers.len() == 2 || numbers.len() == 1, "{message}");
        if numbers.len() == 2 {
            assert_ne!(numbers[0], numbers[1], "length error with equal lengths for {text:?}: {message}");
        }
        assert_eq!(*numbers.last().unwrap(), if message.contains("even") { text.len() } else { text.chars().count() });
    } else {
        let (_, index) = message.rsplit_once(" at index ").unwrap_or_else(|| panic!("{message}"));
        let index: usize = index.parse().unwrap();
        let character = text.chars().nth(index).unwrap_or_else(|| panic!("{text:?}: {message}"));
        assert!(!character.is_ascii_hexdigit(), "{text:?}: {message}");
        assert!(message.contains(&format!("{character:?}")), "{text:?}: {message}");
    }
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let expected = plain_decode(text);
    match hex::decode_vec(text) {
        Ok(bytes) => {
            assert_eq!(Some(&bytes), expected.as_ref(), "{text:?}");
            assert_eq!(hex::encode(&bytes), text.to_ascii_lowercase());
        }
        Err(error) => {
            assert_eq!(expected, None, "{text:?} rejected: {error}");
            check_message(text, &error.to_string());
        }
    }
    // Fixed lengths: the right one, and one off either way.
    let half = text.len() / 2;
    for len in [half.saturating_sub(1), half, half + 1] {
        let mut out = vec![0u8; len];
        match hex::decode_into(text, &mut out) {
            Ok(()) => assert_eq!(Some(&out), expected.as_ref().filter(|e| e.len() == len), "{text:?}"),
            Err(error) => {
                assert!(expected.as_ref().is_none_or(|e| e.len() != len), "{text:?} into {len}: {error}");
                check_message(text, &error.to_string());
            }
        }
    }
    let fixed = |len: usize| expected.as_ref().filter(|e| e.len() == len);
    match Hash::from_hex(text) {
        Ok(hash) => assert_eq!(Some(&hash.as_bytes().to_vec()), fixed(32)),
        Err(error) => check_message(text, &error.to_string()),
    }
    match Address::from_hex(text) {
        Ok(address) => assert_eq!(Some(&address.as_bytes().to_vec()), fixed(20)),
        Err(error) => check_message(text, &error.to_string()),
    }
    for &algorithm in Algorithm::all() {
        match Digest::from_hex(algorithm, text) {
            Ok(digest) => {
                assert_eq!(Some(&digest.as_bytes().to_vec()), fixed(algorithm.digest_len()));
                assert_eq!(digest.to_hex().as_str(), text.to_ascii_lowercase());
            }
            Err(error) => check_message(text, &error.to_string()),
        }
    }
});
