//! Lowercase hex encoding, strict decoding, and the constant-time
//! comparison of digests: the one copy of each for the whole workspace
//! (library, CLI, C binding, test support).

use core::fmt;

const DIGITS: &[u8; 16] = b"0123456789abcdef";

/// The two lowercase hex digits of a byte.
#[inline]
fn digits(byte: u8) -> [u8; 2] {
    [DIGITS[(byte >> 4) as usize], DIGITS[(byte & 0xf) as usize]]
}

/// Writes `bytes` as lowercase hex into the first `2 * bytes.len()` bytes of
/// `out` and returns them as a string.
///
/// # Panics
///
/// If `out` is shorter than `2 * bytes.len()`.
///
/// ```
/// let mut buf = [0u8; 8];
/// assert_eq!(chunkhash::hex::encode_into(&[0x01, 0xab], &mut buf), "01ab");
/// ```
pub fn encode_into<'a>(bytes: &[u8], out: &'a mut [u8]) -> &'a str {
    let out = &mut out[..2 * bytes.len()];
    for (pair, &byte) in out.chunks_exact_mut(2).zip(bytes) {
        pair.copy_from_slice(&digits(byte));
    }
    // Only ASCII hex digits were written.
    core::str::from_utf8(out).unwrap_or_default()
}

/// `bytes` as a lowercase hex string.
///
/// ```
/// assert_eq!(chunkhash::hex::encode(&[0x00, 0xff, 0x10]), "00ff10");
/// ```
#[cfg(feature = "alloc")]
pub fn encode(bytes: &[u8]) -> alloc::string::String {
    let mut out = alloc::vec![0u8; 2 * bytes.len()];
    encode_into(bytes, &mut out);
    // Only ASCII hex digits were written.
    alloc::string::String::from_utf8(out).unwrap_or_default()
}

/// Writes `bytes` as lowercase hex to a formatter, without a buffer (for
/// `Debug` output of values of any length).
pub(crate) fn write(f: &mut impl fmt::Write, bytes: &[u8]) -> fmt::Result {
    for &byte in bytes {
        let [high, low] = digits(byte);
        f.write_char(high as char)?;
        f.write_char(low as char)?;
    }
    Ok(())
}

/// A hex string of `N` characters held inline, as returned by `to_hex`.
/// Dereferences to `&str`.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct HexString<const N: usize>([u8; N]);

impl<const N: usize> HexString<N> {
    /// Encodes `bytes` (which must be `N / 2` long) as lowercase hex.
    pub(crate) fn encode(bytes: &[u8]) -> Self {
        debug_assert_eq!(bytes.len() * 2, N);
        let mut out = [0u8; N];
        encode_into(bytes, &mut out);
        HexString(out)
    }

    /// The hex digits.
    pub fn as_str(&self) -> &str {
        // Only ASCII hex digits are ever stored.
        core::str::from_utf8(&self.0).unwrap_or_default()
    }
}

impl<const N: usize> core::ops::Deref for HexString<N> {
    type Target = str;
    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl<const N: usize> AsRef<str> for HexString<N> {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

impl<const N: usize> fmt::Display for HexString<N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl<const N: usize> fmt::Debug for HexString<N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl<const N: usize> PartialEq<str> for HexString<N> {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl<const N: usize> PartialEq<&str> for HexString<N> {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

/// A hex string that could not be decoded: wrong length or a non-hex character.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HexError(HexErrorKind);

#[derive(Clone, Debug, PartialEq, Eq)]
enum HexErrorKind {
    Length {
        expected: usize,
        found: usize,
    },
    #[cfg(feature = "alloc")]
    OddLength {
        found: usize,
    },
    Character {
        character: char,
        index: usize,
    },
}

impl fmt::Display for HexError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            HexErrorKind::Length { expected, found } => {
                write!(f, "expected {expected} hex characters, found {found}")
            }
            #[cfg(feature = "alloc")]
            HexErrorKind::OddLength { found } => {
                write!(f, "expected an even number of hex characters, found {found}")
            }
            HexErrorKind::Character { character, index } => {
                write!(f, "invalid hex character {character:?} at index {index}")
            }
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for HexError {}

fn digit_value(c: u8) -> Option<u8> {
    match c {
        b'0'..=b'9' => Some(c - b'0'),
        b'a'..=b'f' => Some(c - b'a' + 10),
        b'A'..=b'F' => Some(c - b'A' + 10),
        _ => None,
    }
}

/// Decodes exactly `2 * N` hex characters (either case) into `N` bytes.
pub(crate) fn decode<const N: usize>(hex: &str) -> Result<[u8; N], HexError> {
    let mut out = [0u8; N];
    decode_into(hex, &mut out)?;
    Ok(out)
}

/// Decodes exactly `2 * out.len()` hex characters (either case) into `out`.
/// On error `out` may be partly written.
///
/// ```
/// let mut out = [0u8; 2];
/// chunkhash::hex::decode_into("01AB", &mut out).unwrap();
/// assert_eq!(out, [0x01, 0xab]);
/// assert!(chunkhash::hex::decode_into("01A", &mut out).is_err());
/// ```
pub fn decode_into(hex: &str, out: &mut [u8]) -> Result<(), HexError> {
    if hex.len() != 2 * out.len() {
        // A non-hex character is the better message, and the only true one
        // when multi-byte characters make the character count right and the
        // byte count wrong ("expected 6 hex characters, found 6").
        if let Some(index) = hex.bytes().position(|c| digit_value(c).is_none()) {
            return Err(bad_character(hex, index));
        }
        return Err(HexError(HexErrorKind::Length { expected: 2 * out.len(), found: hex.len() }));
    }
    decode_pairs(hex, out)
}

/// Decodes hex of any even length (either case) into bytes: what a check
/// line or a vector file holds when the length is not known in advance.
///
/// ```
/// assert_eq!(chunkhash::hex::decode_vec("00ff10").unwrap(), [0x00, 0xff, 0x10]);
/// assert!(chunkhash::hex::decode_vec("abc").is_err());
/// ```
#[cfg(feature = "alloc")]
pub fn decode_vec(hex: &str) -> Result<alloc::vec::Vec<u8>, HexError> {
    if !hex.len().is_multiple_of(2) {
        // A non-hex character is the better message (and the only true one
        // when a multi-byte character makes the byte count odd).
        return Err(match hex.bytes().position(|c| digit_value(c).is_none()) {
            Some(index) => bad_character(hex, index),
            None => HexError(HexErrorKind::OddLength { found: hex.len() }),
        });
    }
    let mut out = alloc::vec![0u8; hex.len() / 2];
    decode_pairs(hex, &mut out)?;
    Ok(out)
}

/// Decodes `2 * out.len()` bytes of `hex` (the caller checked the length).
fn decode_pairs(hex: &str, out: &mut [u8]) -> Result<(), HexError> {
    let bytes = hex.as_bytes();
    for (i, byte) in out.iter_mut().enumerate() {
        let high = digit_value(bytes[2 * i]).ok_or_else(|| bad_character(hex, 2 * i))?;
        let low = digit_value(bytes[2 * i + 1]).ok_or_else(|| bad_character(hex, 2 * i + 1))?;
        *byte = (high << 4) | low;
    }
    Ok(())
}

/// The error for the character of `hex` that starts at or contains byte
/// `index`, reported whole and at its character index.
fn bad_character(hex: &str, index: usize) -> HexError {
    let start = (0..=index).rev().find(|&i| hex.is_char_boundary(i)).unwrap_or(0);
    let character = hex[start..].chars().next().unwrap_or('\u{fffd}');
    HexError(HexErrorKind::Character { character, index: hex[..start].chars().count() })
}

/// Whether two byte strings are equal, in time that depends only on their
/// lengths, so a digest comparison does not leak where the first difference
/// is. Different lengths are unequal at once (a length is no secret).
///
/// ```
/// use chunkhash::hex::constant_time_eq;
///
/// assert!(constant_time_eq(b"digest", b"digest"));
/// assert!(!constant_time_eq(b"digest", b"digesT"));
/// assert!(!constant_time_eq(b"digest", b"dig"));
/// ```
pub fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let mut difference = 0u8;
    for (x, y) in a.iter().zip(b) {
        difference |= x ^ y;
    }
    // The optimiser cannot turn the loop above into an early exit through this.
    core::hint::black_box(difference) == 0
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::string::{String, ToString};

    #[test]
    fn round_trip_and_errors() {
        let hex = HexString::<8>::encode(&[0x01, 0xab, 0xff, 0x00]);
        assert_eq!(hex, "01abff00");
        assert_eq!(decode::<4>("01ABff00"), Ok([0x01, 0xab, 0xff, 0x00]));
        assert_eq!(decode::<4>("01abff0").unwrap_err().to_string(), "expected 8 hex characters, found 7");
        assert_eq!(decode::<4>("01abfg00").unwrap_err().to_string(), "invalid hex character 'g' at index 5");
        // A multi-byte character is reported whole, at its character index.
        assert_eq!(decode::<2>("0é1").unwrap_err().to_string(), "invalid hex character 'é' at index 1");
        assert_eq!(decode::<2>("0éé").unwrap_err().to_string(), "invalid hex character 'é' at index 1");
    }

    /// Found by the `hex` fuzz target: with multi-byte characters the byte
    /// count was wrong while the character count was right, and the
    /// message contradicted itself.
    #[test]
    fn a_wrong_length_with_non_hex_characters_names_the_character() {
        assert_eq!(decode::<3>("0éFé12").unwrap_err().to_string(), "invalid hex character 'é' at index 1");
        assert_eq!(decode::<1>("éé").unwrap_err().to_string(), "invalid hex character 'é' at index 0");
        assert_eq!(decode::<2>("01ab0").unwrap_err().to_string(), "expected 4 hex characters, found 5");
    }

    #[test]
    fn every_byte_encodes_and_decodes_in_both_cases() {
        let all: std::vec::Vec<u8> = (0..=255).collect();
        let hex = encode(&all);
        assert_eq!(&hex[..8], "00010203");
        assert_eq!(&hex[hex.len() - 4..], "feff");
        assert_eq!(decode_vec(&hex).unwrap(), all);
        assert_eq!(decode_vec(&hex.to_uppercase()).unwrap(), all);
        let mut written = String::new();
        write(&mut written, &all).unwrap();
        assert_eq!(written, hex);
        let mut buf = [0xaau8; 10];
        assert_eq!(encode_into(&[0xde, 0xad], &mut buf), "dead");
        assert_eq!(buf[4..], [0xaa; 6], "nothing written past the hex");
        assert_eq!(encode(&[]), "");
        assert_eq!(decode_vec(""), Ok(std::vec::Vec::new()));
    }

    #[test]
    fn variable_length_errors_say_what_was_wrong() {
        assert_eq!(decode_vec("abc").unwrap_err().to_string(), "expected an even number of hex characters, found 3");
        assert_eq!(decode_vec("aé").unwrap_err().to_string(), "invalid hex character 'é' at index 1");
        assert_eq!(decode_vec("é").unwrap_err().to_string(), "invalid hex character 'é' at index 0");
        assert_eq!(decode_vec("0x").unwrap_err().to_string(), "invalid hex character 'x' at index 1");
        assert_eq!(decode_vec("éé").unwrap_err().to_string(), "invalid hex character 'é' at index 0");
    }

    #[test]
    #[should_panic]
    fn encode_into_a_short_buffer_panics() {
        encode_into(&[1, 2, 3], &mut [0u8; 5]);
    }

    #[test]
    fn constant_time_eq_finds_every_difference() {
        let a = [7u8; 32];
        assert!(constant_time_eq(&a, &a));
        for i in 0..32 {
            let mut b = a;
            b[i] ^= 0x80;
            assert!(!constant_time_eq(&a, &b));
        }
        assert!(!constant_time_eq(&a, &a[..31]));
        assert!(constant_time_eq(&[], &[]));
    }
}
