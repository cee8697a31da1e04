//! Output formats: `HEX  NAME` lines with their prefixes, `TAG (NAME) = HEX`
//! lines with their tags, raw digests, and how file names are shown; both
//! ways, writing them (`sum`) and reading the tags and prefixes back
//! (`check`).

use crate::escape;
use crate::method::{Algorithm, Method};
use std::borrow::Cow;
use std::io::{self, Write};
use std::path::Path;

/// The output form of `sum`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// `HEX  NAME`.
    Plain,
    /// `TAG (NAME) = HEX`.
    Tag,
    /// The digest bytes alone.
    Raw,
}

/// Text written before the hex in untagged lines: xxhsum marks XXH3-64 with
/// `XXH3_` so that it is not mistaken for XXH64, which has the same length.
const HEX_PREFIXES: [(Algorithm, &str); 1] = [(Algorithm::Xxh3_64, "XXH3_")];

/// The prefix of an algorithm's untagged lines (most have none).
pub fn hex_prefix(algorithm: Algorithm) -> &'static str {
    HEX_PREFIXES.iter().find(|(owner, _)| *owner == algorithm).map_or("", |(_, prefix)| prefix)
}

/// Splits a known prefix off the first token of an untagged line: the
/// algorithm it names, the prefix, and the rest.
pub fn split_hex_prefix(token: &[u8]) -> Option<(Algorithm, &'static str, &[u8])> {
    HEX_PREFIXES
        .iter()
        .find_map(|&(algorithm, prefix)| Some((algorithm, prefix, token.strip_prefix(prefix.as_bytes())?)))
}

/// The tag of `--tag` lines for a method: the algorithm's, whatever the
/// BLAKE3 output length (the hex length tells it).
pub fn tag(method: &Method) -> &'static str {
    method.algorithm.bsd_tag()
}

/// The algorithm a `TAG (NAME) = HEX` line names, and whether the tag asks
/// for little-endian display (xxhsum's `_LE` tags). Tags are matched as the
/// tools print them, ignoring case, then as any name the algorithm parser
/// knows.
pub fn algorithm_for_tag(tag: &str) -> Result<(Algorithm, bool), String> {
    let (base, little_endian) = match tag.strip_suffix("_LE") {
        Some(base) if base.starts_with("XXH") => (base, true),
        _ => (tag, false),
    };
    let algorithm = Algorithm::all()
        .iter()
        .copied()
        .find(|a| a.bsd_tag().eq_ignore_ascii_case(base))
        .or_else(|| base.parse::<Algorithm>().ok())
        .ok_or_else(|| format!("unknown algorithm tag {tag:?}"))?;
    Ok((algorithm, little_endian))
}

/// Writes one `sum` line: `HEX  NAME`, `TAG (NAME) = HEX` or raw bytes.
pub fn write_line(out: &mut impl Write, format: Format, method: &Method, name: &[u8], digest: &[u8]) -> io::Result<()> {
    if format == Format::Raw {
        return out.write_all(digest);
    }
    let escaped = escape::needs_escape(name);
    let mut line = Vec::with_capacity(name.len() + 2 * digest.len() + 32);
    if escaped {
        line.push(b'\\');
    }
    let hex = chunkhash::hex::encode(digest);
    match format {
        Format::Tag => {
            line.extend_from_slice(tag(method).as_bytes());
            line.extend_from_slice(b" (");
            line.extend_from_slice(&escape::escape(name));
            line.extend_from_slice(b") = ");
            line.extend_from_slice(hex.as_bytes());
        }
        _ => {
            line.extend_from_slice(hex_prefix(method.algorithm).as_bytes());
            line.extend_from_slice(hex.as_bytes());
            line.extend_from_slice(b"  ");
            line.extend_from_slice(&escape::escape(name));
        }
    }
    line.push(b'\n');
    out.write_all(&line)
}

/// A path's bytes as a `sum` line shows them (escaped there); stdin is `-`.
pub fn line_name(path: &Path) -> Cow<'_, [u8]> {
    escape::path_bytes(path)
}

/// A path for messages: lossy UTF-8, escaped like output lines.
pub fn display_name(path: &Path) -> String {
    String::from_utf8_lossy(&escape::escape(&escape::path_bytes(path))).into_owned()
}

/// A name as `check` result lines show it: as coreutils 9.1 does, escaped
/// (with a leading backslash) only when it holds a newline, otherwise raw.
pub fn result_name(name: &[u8]) -> Vec<u8> {
    if name.contains(&b'\n') {
        let mut shown = vec![b'\\'];
        shown.extend_from_slice(&escape::escape(name));
        shown
    } else {
        name.to_vec()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_select_one_algorithm() {
        let algorithm = |tag| algorithm_for_tag(tag).unwrap().0;
        assert_eq!(algorithm("BLAKE2b"), Algorithm::Blake2b512);
        assert_eq!(algorithm("BLAKE2b-256"), Algorithm::Blake2b256);
        assert_eq!(algorithm("SHA256"), Algorithm::Sha256);
        assert_eq!(algorithm("XXH3"), Algorithm::Xxh3_64);
        assert_eq!(algorithm_for_tag("XXH128_LE"), Ok((Algorithm::Xxh3_128, true)));
        assert!(algorithm_for_tag("NOSUCH").unwrap_err().contains("NOSUCH"));
        for &algorithm in Algorithm::all() {
            assert_eq!(algorithm_for_tag(algorithm.bsd_tag()), Ok((algorithm, false)));
            assert_eq!(tag(&Method::plain(algorithm)), algorithm.bsd_tag());
        }
    }

    #[test]
    fn prefixes_round_trip() {
        assert_eq!(hex_prefix(Algorithm::Xxh3_64), "XXH3_");
        assert_eq!(hex_prefix(Algorithm::Xxh64), "");
        assert_eq!(split_hex_prefix(b"XXH3_00ff"), Some((Algorithm::Xxh3_64, "XXH3_", &b"00ff"[..])));
        assert_eq!(split_hex_prefix(b"00ff"), None);
    }

    #[test]
    fn lines_in_each_format() {
        let method = Method::plain(Algorithm::Xxh3_64);
        let line = |format, name: &[u8]| {
            let mut out = Vec::new();
            write_line(&mut out, format, &method, name, &[0xab, 0x01]).unwrap();
            out
        };
        assert_eq!(line(Format::Plain, b"f"), b"XXH3_ab01  f\n");
        assert_eq!(line(Format::Tag, b"f"), b"XXH3 (f) = ab01\n");
        assert_eq!(line(Format::Raw, b"f"), [0xab, 0x01]);
        assert_eq!(line(Format::Plain, b"a\nb"), b"\\XXH3_ab01  a\\nb\n");
    }

    #[test]
    fn result_names_escape_only_newlines() {
        assert_eq!(result_name(b"a\\b"), b"a\\b");
        assert_eq!(result_name(b"x\ny\\"), b"\\x\\ny\\\\");
    }
}
