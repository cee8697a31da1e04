//! One line of a check file, parsed: a pure function of the line's bytes
//! (and of the untagged form the file settled on), with no I/O and no other
//! state, so that it can be tested, and fuzzed, on its own.
//!
//! The forms, as the peers write them:
//!
//! - `HEX  NAME` and `HEX *NAME` (coreutils, b3sum, xxhsum, b2sum), and
//!   `HEX NAME` (BSD `md5 -r`); one file uses one of the untagged forms, as
//!   coreutils requires: once a file's first untagged line has shown which,
//!   `HEX  NAME` in a one-space file names ` NAME`, and a one-space line in
//!   a two-space file is improperly formatted;
//! - `XXH3_HEX  NAME`, xxhsum's (0.8.2+) untagged XXH3-64;
//! - `TAG (NAME) = HEX` (`--tag`), and OpenSSL's `TAG(NAME)= HEX`;
//! - any of them after a backslash, when NAME is escaped (`\\`, `\n`, `\r`).
//!
//! Blank lines and lines starting with `#` are skipped.

use crate::escape;
use crate::format::{self, TagMeaning, Unsupported};
use crate::method::{self, Algorithm, LengthError, Method};
use std::fmt;

/// The two untagged forms.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Spacing {
    /// `HEX  NAME` or `HEX *NAME`: coreutils' form.
    Two,
    /// `HEX NAME`: BSD's `md5 -r` form.
    One,
}

/// What a line says about its algorithm.
#[derive(Clone, Debug)]
pub enum Named {
    /// A tag names the method; `reversed` for xxhsum's `_LE` tags, whose hex
    /// is the canonical digest's bytes in reverse order.
    Tag { method: Method, reversed: bool },
    /// xxhsum's `XXH3_` prefix: this algorithm, in either byte order (xxhsum
    /// 0.8.2+ writes the prefix with `--little-endian` too).
    Prefix(Algorithm),
    /// Nothing: an untagged line, which only its digest length narrows.
    Nothing,
}

/// A checksum line.
#[derive(Clone, Debug)]
pub struct ParsedLine {
    /// The file name, unescaped; never empty, never holding NUL.
    pub name: Vec<u8>,
    /// The digest as the hex reads, never empty.
    pub digest: Vec<u8>,
    /// What the line says about its algorithm.
    pub named: Named,
    /// The untagged form the line was read in; `None` for tagged lines.
    pub spacing: Option<Spacing>,
}

/// A line of a check file.
#[derive(Clone, Debug)]
pub enum Line {
    /// A checksum to verify.
    Checksum(ParsedLine),
    /// Blank, or a `#` comment.
    Blank,
}

/// Why a line is not a checksum line chunkhash can check.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum LineError {
    /// Occurs when a line is neither `HEX  NAME` nor `TAG (NAME) = HEX`.
    NotAChecksumLine,
    /// Occurs when an untagged digest has no blank after it.
    NoBlank,
    /// Occurs when a tagged line's hex is empty or not hex.
    BadHex,
    /// Occurs when a tag names no algorithm known to chunkhash or its peers.
    UnknownTag(String),
    /// Occurs when a tag names an algorithm whose digest has another length.
    WrongLength {
        /// The algorithm, as messages name it.
        algorithm: String,
        /// The digest's bytes.
        len: usize,
        /// The lengths the algorithm gives, in words.
        lengths: String,
    },
    /// Occurs when a tag names an algorithm chunkhash does not compute.
    Unsupported(&'static Unsupported),
    /// Occurs when an escaped name has a backslash sequence other than
    /// `\\`, `\n` and `\r`, or ends in a lone backslash.
    BadEscape,
    /// Occurs when the name is empty.
    NoName,
    /// Occurs when the name holds a NUL byte.
    NulInName,
    /// Occurs when a `HEX NAME` line follows `HEX  NAME` lines.
    MixedSpacing,
}

impl LineError {
    fn wrong_length(algorithm: Algorithm, len: usize) -> LineError {
        let name = if method::is_blake2b(algorithm) { "BLAKE2b" } else { algorithm.name() };
        LineError::WrongLength { algorithm: name.to_string(), len, lengths: method::lengths_text(algorithm) }
    }

    /// Whether the line is a peer's, well formed, in an algorithm chunkhash
    /// lacks: worth a message even without `--warn`.
    pub fn is_unsupported(&self) -> bool {
        matches!(self, LineError::Unsupported(_))
    }
}

impl fmt::Display for LineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LineError::NotAChecksumLine => f.write_str("neither `HEX  NAME` nor `TAG (NAME) = HEX`"),
            LineError::NoBlank => f.write_str("no blank between digest and file name"),
            LineError::BadHex => f.write_str("bad hex digest"),
            LineError::UnknownTag(message) => f.write_str(message),
            LineError::WrongLength { algorithm, len, lengths } => {
                write!(f, "a {len}-byte digest cannot be {algorithm} ({lengths})")
            }
            LineError::Unsupported(unsupported) => {
                write!(f, "{} is not supported by chunkhash (`{} -c` checks it)", unsupported.name, unsupported.tool)
            }
            LineError::BadEscape => f.write_str("unknown backslash escape in the file name"),
            LineError::NoName => f.write_str("no file name"),
            LineError::NulInName => f.write_str("NUL byte in the file name"),
            LineError::MixedSpacing => {
                f.write_str("one space after the digest, in a file whose untagged lines have two")
            }
        }
    }
}

impl std::error::Error for LineError {}

/// Parses one line (without or with its `\n`). `spacing` is the untagged
/// form the file's first untagged line used, if there was one.
pub fn parse_line(line: &[u8], spacing: Option<Spacing>) -> Result<Line, LineError> {
    let mut line = line.strip_suffix(b"\n").unwrap_or(line);
    // Check files written on Windows end lines with CRLF; a name really
    // ending in CR is written escaped (`\r`), so this CR is the line end.
    line = line.strip_suffix(b"\r").unwrap_or(line);
    while let [b' ' | b'\t', rest @ ..] = line {
        line = rest;
    }
    if line.is_empty() || line[0] == b'#' {
        return Ok(Line::Blank);
    }
    let escaped = line[0] == b'\\';
    if escaped {
        line = &line[1..];
    }
    let token_end = line.iter().position(|&b| b == b' ' || b == b'\t').unwrap_or(line.len());
    let (name, digest, named, spacing) = match untagged_digest(&line[..token_end]) {
        Some((digest, named)) => {
            let (name, spacing) = untagged_name(&line[token_end..], spacing)?;
            (name, digest, named, Some(spacing))
        }
        None => {
            let (name, digest, named) = tagged(line)?;
            (name, digest, named, None)
        }
    };
    let name = if escaped { escape::unescape(name).ok_or(LineError::BadEscape)? } else { name.to_vec() };
    if name.is_empty() {
        return Err(LineError::NoName);
    }
    if name.contains(&0) {
        return Err(LineError::NulInName);
    }
    Ok(Line::Checksum(ParsedLine { name, digest, named, spacing }))
}

/// The digest of an untagged line's first token (hex, after xxhsum's
/// `XXH3_` prefix if any), or `None` when the token is not one.
fn untagged_digest(token: &[u8]) -> Option<(Vec<u8>, Named)> {
    let (hex, named) = match format::split_hex_prefix(token) {
        Some((algorithm, _, hex)) => (hex, Named::Prefix(algorithm)),
        None => (token, Named::Nothing),
    };
    let digest = decode_hex(hex).filter(|digest| !digest.is_empty())?;
    Some((digest, named))
}

/// The name after an untagged digest (`rest` starts at the blank after it),
/// under coreutils' rule: with one character after the blank, or one that
/// is neither a space nor `*` (the text or binary mode mark), the line has
/// the one-space form; a file keeps the form of its first untagged line.
fn untagged_name(rest: &[u8], spacing: Option<Spacing>) -> Result<(&[u8], Spacing), LineError> {
    let after = match rest {
        [b' ' | b'\t', after @ ..] => after,
        _ => return Err(LineError::NoBlank),
    };
    let two_spaces = matches!(after, [b' ' | b'*', _, ..]);
    match (spacing, two_spaces) {
        (Some(Spacing::One), _) => Ok((after, Spacing::One)),
        (Some(Spacing::Two), false) => Err(LineError::MixedSpacing),
        (_, true) => Ok((&after[1..], Spacing::Two)),
        (None, false) => Ok((after, Spacing::One)),
    }
}

/// A `TAG (NAME) = HEX` or OpenSSL `TAG(NAME)= HEX` line: its name (split
/// at the last separator, so a name may hold one), digest and method.
fn tagged(line: &[u8]) -> Result<(&[u8], Vec<u8>, Named), LineError> {
    let open = line.iter().position(|&b| b == b'(').ok_or(LineError::NotAChecksumLine)?;
    let (tag, separator): (&[u8], &[u8]) = match line[..open].strip_suffix(b" ") {
        Some(tag) => (tag, b") = "),
        None => (&line[..open], b")= "),
    };
    if tag.is_empty() || tag.iter().any(|&b| b == b' ' || b == b'\t') {
        return Err(LineError::NotAChecksumLine);
    }
    let tag = std::str::from_utf8(tag).map_err(|_| LineError::NotAChecksumLine)?;
    let after_open = &line[open + 1..];
    let close = rfind(after_open, separator).ok_or(LineError::NotAChecksumLine)?;
    let name = &after_open[..close];
    let digest =
        decode_hex(&after_open[close + separator.len()..]).filter(|d| !d.is_empty()).ok_or(LineError::BadHex)?;
    let (algorithm, fixed_len, reversed) = match format::read_tag(tag).map_err(LineError::UnknownTag)? {
        TagMeaning::Unsupported(unsupported) => return Err(LineError::Unsupported(unsupported)),
        TagMeaning::Known { algorithm, len, little_endian } => (algorithm, len, little_endian),
    };
    // A tag without a length stands for its algorithm's own (`BLAKE2b` is
    // BLAKE2b-512), except BLAKE3's, whose hex may be of any length (-l).
    let fixed_len = fixed_len.or((algorithm != Algorithm::Blake3).then(|| algorithm.digest_len()));
    if let Some(fixed_len) = fixed_len.filter(|&len| len != digest.len()) {
        let tagged = method_of_length(algorithm, fixed_len)?;
        let lengths = format!("{fixed_len} bytes only");
        return Err(LineError::WrongLength { algorithm: tagged.name(), len: digest.len(), lengths });
    }
    let method = method_of_length(algorithm, digest.len())?;
    Ok((name, digest, Named::Tag { method, reversed }))
}

/// The method for a digest of `len` bytes said to be `algorithm`'s (the
/// length rule of [`Method::with_length`]), or why it cannot be.
pub fn method_of_length(algorithm: Algorithm, len: usize) -> Result<Method, LineError> {
    // Either way (out of range, or a fixed length) the message names the
    // lengths that work.
    Method::with_length(algorithm, len).map_err(|_: LengthError| LineError::wrong_length(algorithm, len))
}

/// Decodes a digest's hex (either case); `None` for anything else.
fn decode_hex(hex: &[u8]) -> Option<Vec<u8>> {
    chunkhash::hex::decode_vec(std::str::from_utf8(hex).ok()?).ok()
}

fn rfind(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).rposition(|window| window == needle)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn checksum(line: &str, spacing: Option<Spacing>) -> ParsedLine {
        match parse_line(line.as_bytes(), spacing) {
            Ok(Line::Checksum(parsed)) => parsed,
            other => panic!("{line:?} parsed as {other:?}"),
        }
    }

    fn error(line: &str) -> LineError {
        parse_line(line.as_bytes(), None).expect_err(line)
    }

    const HEX32: &str = "d74981efa70a0c880b8d8c1985d075dbcbf679b99a5f9914e5aaf96b831a9e24";

    #[test]
    fn untagged_lines_in_every_spacing() {
        for (line, spacing) in [
            (format!("{HEX32}  name\n"), Spacing::Two),
            (format!("{HEX32} *name"), Spacing::Two),
            (format!("{HEX32} name\r\n"), Spacing::One),
            (format!("  {HEX32}\tname"), Spacing::One),
            (format!("{}  name", HEX32.to_uppercase()), Spacing::Two),
        ] {
            let parsed = checksum(&line, None);
            assert_eq!(parsed.name, b"name", "{line:?}");
            assert_eq!(chunkhash::hex::encode(&parsed.digest), HEX32);
            assert!(matches!(parsed.named, Named::Nothing));
            assert_eq!(parsed.spacing, Some(spacing), "{line:?}");
        }
        assert_eq!(checksum(&format!("{HEX32}   lead"), None).name, b" lead");
        // Short digests (b3sum -l 1) are digests too.
        assert_eq!(checksum("ab  f", None).digest, [0xab]);
    }

    /// coreutils' rule: the first untagged line fixes the form for the file.
    #[test]
    fn one_file_keeps_one_untagged_form() {
        let one = Some(Spacing::One);
        assert_eq!(checksum(&format!("{HEX32}  a"), one).name, b" a");
        assert_eq!(checksum(&format!("{HEX32} *a"), one).name, b"*a");
        assert_eq!(checksum(&format!("{HEX32} a"), one).name, b"a");
        let two = Some(Spacing::Two);
        assert_eq!(checksum(&format!("{HEX32} *a"), two).name, b"a");
        let mixed = parse_line(format!("{HEX32} a").as_bytes(), two).unwrap_err();
        assert_eq!(mixed, LineError::MixedSpacing);
        // One character after the blank is the one-space form.
        assert_eq!(checksum(&format!("{HEX32} *"), None).spacing, Some(Spacing::One));
    }

    #[test]
    fn escaped_names_are_unescaped() {
        assert_eq!(checksum(&format!("\\{HEX32}  x\\ny\\\\z\\r"), None).name, b"x\ny\\z\r");
        // Without the leading backslash, backslashes are literal.
        assert_eq!(checksum(&format!("{HEX32}  a\\nb"), None).name, b"a\\nb");
        assert_eq!(error(&format!("\\{HEX32}  a\\tb")), LineError::BadEscape);
        assert_eq!(error(&format!("\\{HEX32}  a\\")), LineError::BadEscape);
    }

    #[test]
    fn tagged_lines() {
        let parsed = checksum(&format!("BLAKE3 (a (b) = c) = {HEX32}"), None);
        assert_eq!(parsed.name, b"a (b) = c");
        assert!(matches!(parsed.named, Named::Tag { ref method, reversed: false } if method.out_len == 32));
        assert_eq!(parsed.spacing, None);
        // BLAKE3 tags take any length: extended output.
        let long = checksum(&format!("BLAKE3 (f) = {HEX32}{HEX32}"), None);
        assert!(matches!(long.named, Named::Tag { ref method, .. } if method.out_len == 64));
        assert_eq!(checksum(&format!("\\BLAKE3 (x\\ny) = {HEX32}"), None).name, b"x\ny");
        // b2sum -l 128 and xxhsum --little-endian.
        let blake2b = checksum("BLAKE2b-128 (f) = 0123456789abcdef0123456789abcdef", None);
        assert!(matches!(blake2b.named, Named::Tag { ref method, .. } if method.name() == "BLAKE2b-128"));
        let le = checksum("XXH64_LE (f) = 0123456789abcdef", None);
        assert!(matches!(le.named, Named::Tag { ref method, reversed: true } if method.algorithm == Algorithm::Xxh64));
    }

    #[test]
    fn openssl_lines() {
        let parsed = checksum(&format!("SHA2-256(a b)= {HEX32}"), None);
        assert_eq!(parsed.name, b"a b");
        assert!(matches!(parsed.named, Named::Tag { ref method, .. } if method.algorithm == Algorithm::Sha256));
        assert_eq!(checksum(&format!("SHA256(x)= y)= {HEX32}"), None).name, b"x)= y");
        assert!(matches!(error(&format!("SHA256(f) = {HEX32}")), LineError::NotAChecksumLine));
        let md5 = checksum(&format!("MD5(f)= {}", &HEX32[..32]), None);
        assert!(matches!(md5.named, Named::Tag { ref method, .. } if method.algorithm == Algorithm::Md5));
        assert!(matches!(error(&format!("SHA384(f)= {HEX32}{}", &HEX32[..32])), LineError::Unsupported(_)));
    }

    #[test]
    fn xxh3_prefix() {
        let parsed = checksum("XXH3_0123456789abcdef  f", None);
        assert!(matches!(parsed.named, Named::Prefix(Algorithm::Xxh3_64)));
        assert_eq!(parsed.digest, [0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef]);
    }

    /// Lines cut and spliced from real ones, and random bytes: the parser
    /// returns (a line or a reason) and never panics. Fixed seed, printed.
    #[test]
    fn never_panics_on_spliced_lines() {
        let seed = 0x5eed_c4ec_u64;
        println!("seed {seed:#x}");
        let mut state = seed;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let pieces: [&[u8]; 14] = [
            b"\\",
            HEX32.as_bytes(),
            b"  ",
            b" ",
            b"*",
            b"(",
            b") = ",
            b")= ",
            b"BLAKE2b-",
            b"XXH3_",
            b"\\n",
            "\u{FFFD}".as_bytes(),
            b"\xff\0",
            b"SHA256 ",
        ];
        for _ in 0..20_000 {
            let mut line = Vec::new();
            for _ in 0..next() % 8 {
                match next() % 3 {
                    0 => line.push(next() as u8),
                    _ => line.extend_from_slice(pieces[(next() % pieces.len() as u64) as usize]),
                }
            }
            for spacing in [None, Some(Spacing::One), Some(Spacing::Two)] {
                if let Ok(Line::Checksum(parsed)) = parse_line(&line, spacing) {
                    assert!(!parsed.name.is_empty() && !parsed.name.contains(&0) && !parsed.digest.is_empty());
                }
            }
        }
    }

    #[test]
    fn bad_lines_say_why() {
        assert_eq!(error("garbage"), LineError::NotAChecksumLine);
        assert!(error(&format!("NOSUCH (f) = {HEX32}")).to_string().contains("NOSUCH"));
        assert_eq!(error("BLAKE3 (f) = xyz"), LineError::BadHex);
        assert_eq!(error("BLAKE3 (f) = "), LineError::BadHex);
        assert_eq!(error(HEX32), LineError::NoBlank);
        assert_eq!(error(&format!("{HEX32} ")), LineError::NoName);
        // As in coreutils: one character after the blank is a one-space name.
        assert_eq!(checksum(&format!("{HEX32}  "), None).name, b" ");
        assert_eq!(error(&format!("{HEX32}  a\0b")), LineError::NulInName);
        let wrong = error(&format!("SHA256 (f) = {HEX32}{HEX32}")).to_string();
        assert_eq!(wrong, "a 64-byte digest cannot be SHA-256 (32 bytes only)");
        assert!(matches!(error(&format!("BLAKE2b (f) = {HEX32}")), LineError::WrongLength { len: 32, .. }));
        let sha384 = error(&format!("SHA384 (f) = {HEX32}{}", &HEX32[..32]));
        assert!(sha384.is_unsupported() && sha384.to_string().contains("sha384sum -c"), "{sha384}");
        assert!(matches!(parse_line(b"# comment", None), Ok(Line::Blank)));
        assert!(matches!(parse_line(b"   \n", None), Ok(Line::Blank)));
    }
}
