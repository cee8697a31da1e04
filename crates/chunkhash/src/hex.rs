//! Lowercase hex encoding and strict decoding, without allocation.

use core::fmt;

const DIGITS: &[u8; 16] = b"0123456789abcdef";

/// Writes `bytes` as lowercase hex into the first `2 * bytes.len()` bytes of `out`.
pub(crate) fn encode_into(bytes: &[u8], out: &mut [u8]) {
    for (pair, byte) in out.chunks_exact_mut(2).zip(bytes) {
        pair[0] = DIGITS[(byte >> 4) as usize];
        pair[1] = DIGITS[(byte & 0xf) as usize];
    }
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
    Length { expected: usize, found: usize },
    Character { character: char, index: usize },
}

impl fmt::Display for HexError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            HexErrorKind::Length { expected, found } => {
                write!(f, "expected {expected} hex characters, found {found}")
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
pub(crate) fn decode_into(hex: &str, out: &mut [u8]) -> Result<(), HexError> {
    let bytes = hex.as_bytes();
    if bytes.len() != 2 * out.len() {
        // Count characters, not bytes, so the message matches what the user typed.
        let found = hex.chars().count();
        return Err(HexError(HexErrorKind::Length { expected: 2 * out.len(), found }));
    }
    let bad_char = |index: usize| {
        // `index` is a byte offset; report the character that starts there or contains it.
        let start = (0..=index).rev().find(|&i| hex.is_char_boundary(i)).unwrap_or(0);
        let character = hex[start..].chars().next().unwrap_or('\u{fffd}');
        HexError(HexErrorKind::Character { character, index: hex[..start].chars().count() })
    };
    for (i, byte) in out.iter_mut().enumerate() {
        let high = digit_value(bytes[2 * i]).ok_or_else(|| bad_char(2 * i))?;
        let low = digit_value(bytes[2 * i + 1]).ok_or_else(|| bad_char(2 * i + 1))?;
        *byte = (high << 4) | low;
    }
    Ok(())
}

/// Compares two byte arrays in time that depends only on their length, so
/// a digest comparison does not leak where the first difference is.
pub(crate) fn constant_time_eq<const N: usize>(a: &[u8; N], b: &[u8; N]) -> bool {
    constant_time_eq_slices(a, b)
}

/// [`constant_time_eq`] for slices: `false` at once when the lengths differ
/// (a length is no secret), otherwise time that depends only on the length.
pub(crate) fn constant_time_eq_slices(a: &[u8], b: &[u8]) -> bool {
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
    use std::string::ToString;

    #[test]
    fn round_trip_and_errors() {
        let hex = HexString::<8>::encode(&[0x01, 0xab, 0xff, 0x00]);
        assert_eq!(hex, "01abff00");
        assert_eq!(decode::<4>("01ABff00"), Ok([0x01, 0xab, 0xff, 0x00]));
        assert_eq!(decode::<4>("01abff0").unwrap_err().to_string(), "expected 8 hex characters, found 7");
        assert_eq!(decode::<4>("01abfg00").unwrap_err().to_string(), "invalid hex character 'g' at index 5");
        // A multi-byte character is reported whole, at its character index.
        assert_eq!(decode::<2>("0é1").unwrap_err().to_string(), "invalid hex character 'é' at index 1");
        assert_eq!(decode::<2>("0éé").unwrap_err().to_string(), "expected 4 hex characters, found 3");
    }

    #[test]
    fn constant_time_eq_finds_every_difference() {
        let a = [7u8; 32];
        assert!(constant_time_eq(&a, &a));
        for i in 0..32 {
            let mut b = a;
            b[i] ^= 0x80;
            assert!(!constant_time_eq(&a, &b));
            assert!(!constant_time_eq_slices(&a, &b));
        }
        assert!(constant_time_eq_slices(&a, &a));
        assert!(!constant_time_eq_slices(&a, &a[..31]));
        assert!(constant_time_eq_slices(&[], &[]));
    }
}
