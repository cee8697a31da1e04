//! Output formats: `HEX  NAME` lines with their prefixes, `TAG (NAME) = HEX`
//! lines with their tags, raw digests, and how file names are shown; both
//! ways, writing them (`sum`) and reading the tags and prefixes back
//! (`check`).

use crate::escape;
use crate::method::{self, Algorithm, Method};
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
/// BLAKE3 output length (the hex length tells it); BLAKE2b of another length
/// than the registry's two is `BLAKE2b-BITS`, as b2sum writes it.
pub fn tag(method: &Method) -> Cow<'static, str> {
    if method::is_blake2b(method.algorithm) && method.out_len != method.algorithm.digest_len() {
        Cow::Owned(method.name())
    } else {
        Cow::Borrowed(method.algorithm.bsd_tag())
    }
}

/// An algorithm the peers write and chunkhash does not compute: its tags
/// (coreutils, cksum and OpenSSL spellings), digest length, and the tool
/// that checks it.
#[derive(Debug, PartialEq, Eq)]
pub struct Unsupported {
    /// The usual name.
    pub name: &'static str,
    /// Tags that name it, matched ignoring case.
    pub tags: &'static [&'static str],
    /// Digest bytes.
    pub len: usize,
    /// What checks such a file instead.
    pub tool: &'static str,
}

/// The algorithms of coreutils' `*sum` tools, `cksum -a` and OpenSSL that
/// the registry lacks.
pub const UNSUPPORTED: [Unsupported; 3] = [
    Unsupported { name: "SHA-224", tags: &["SHA224", "SHA2-224"], len: 28, tool: "sha224sum" },
    Unsupported { name: "SHA-384", tags: &["SHA384", "SHA2-384"], len: 48, tool: "sha384sum" },
    Unsupported { name: "SM3", tags: &["SM3"], len: 32, tool: "cksum -a sm3" },
];

/// What the tag of a `TAG (NAME) = HEX` line names.
#[derive(Debug, PartialEq, Eq)]
pub enum TagMeaning {
    /// An algorithm chunkhash computes; `len` when the tag fixes a length
    /// the algorithm's own does not (`BLAKE2b-128`); `little_endian` for
    /// xxhsum's `_LE` tags, whose hex is the canonical bytes reversed.
    Known { algorithm: Algorithm, len: Option<usize>, little_endian: bool },
    /// A peer's algorithm that chunkhash lacks.
    Unsupported(&'static Unsupported),
}

/// Reads a tag: as the tools print them, ignoring case (`BLAKE2b-128` and
/// OpenSSL's `BLAKE2b512` with any bit length, `XXH64_LE`), then as any name
/// the algorithm parser knows (`SHA2-256`, OpenSSL 3's spelling).
pub fn read_tag(tag: &str) -> Result<TagMeaning, String> {
    let (base, little_endian) = match tag.strip_suffix("_LE") {
        Some(base) if base.starts_with("XXH") => (base, true),
        _ => (tag, false),
    };
    if let Some(len) = blake2b_tag_len(base) {
        return Ok(TagMeaning::Known { algorithm: Algorithm::Blake2b512, len: Some(len), little_endian: false });
    }
    let known = Algorithm::all()
        .iter()
        .copied()
        .find(|a| a.bsd_tag().eq_ignore_ascii_case(base))
        .or_else(|| base.parse::<Algorithm>().ok());
    if let Some(algorithm) = known {
        return Ok(TagMeaning::Known { algorithm, len: None, little_endian });
    }
    if let Some(unsupported) = UNSUPPORTED.iter().find(|u| u.tags.iter().any(|t| t.eq_ignore_ascii_case(tag))) {
        return Ok(TagMeaning::Unsupported(unsupported));
    }
    Err(format!("unknown algorithm tag {tag:?}"))
}

/// The bytes of a `BLAKE2b-BITS` tag (b2sum `-l BITS`; OpenSSL 1.1 writes
/// `BLAKE2b512`): a multiple of 8 from 8 to 512.
fn blake2b_tag_len(tag: &str) -> Option<usize> {
    let head = tag.get(..7).filter(|head| head.eq_ignore_ascii_case("BLAKE2b"))?;
    let bits = tag[head.len()..].strip_prefix('-').unwrap_or(&tag[head.len()..]);
    let bits: usize = bits.parse().ok().filter(|_| bits.bytes().all(|b| b.is_ascii_digit()))?;
    (bits.is_multiple_of(8) && (8..=8 * method::BLAKE2B_MAX_LENGTH).contains(&bits)).then_some(bits / 8)
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

/// A path's bytes as a `sum` line shows them (escaped there). Stdin is `-`,
/// or `stdin` for an xxHash algorithm, as xxhsum names it. In BLAKE3 lines,
/// bytes that are not UTF-8 become U+FFFD, as b3sum writes them, unless
/// `raw_names` (coreutils and xxhsum write the bytes).
pub fn line_name<'a>(path: &'a Path, method: &Method, raw_names: bool) -> Cow<'a, [u8]> {
    if path.as_os_str() == "-" && method::is_xxhash(method.algorithm) {
        return Cow::Borrowed(XXHSUM_STDIN.as_bytes());
    }
    let bytes = escape::path_bytes(path);
    if method.algorithm != Algorithm::Blake3 || raw_names {
        return bytes;
    }
    match String::from_utf8_lossy(&bytes) {
        Cow::Borrowed(_) => bytes,
        Cow::Owned(text) => Cow::Owned(text.into_bytes()),
    }
}

/// The name xxhsum gives standard input in its lines, and reads it for.
pub const XXHSUM_STDIN: &str = "stdin";

/// A name as `check` result lines and every message show it: as b3sum and
/// xxhsum 0.8.2+ do, escaped after a backslash when it holds a backslash, a
/// newline or a carriage return, otherwise as it is.
pub fn shown_name(name: &[u8]) -> Vec<u8> {
    if escape::needs_escape(name) {
        let mut shown = vec![b'\\'];
        shown.extend_from_slice(&escape::escape(name));
        shown
    } else {
        name.to_vec()
    }
}

/// A path as messages show it (see [`shown_name`]).
pub fn shown_path(path: &Path) -> Vec<u8> {
    shown_name(&escape::path_bytes(path))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_select_one_algorithm() {
        let known = |algorithm, len, little_endian| Ok(TagMeaning::Known { algorithm, len, little_endian });
        assert_eq!(read_tag("BLAKE2b"), known(Algorithm::Blake2b512, None, false));
        assert_eq!(read_tag("BLAKE2b-256"), known(Algorithm::Blake2b512, Some(32), false));
        assert_eq!(read_tag("BLAKE2b-8"), known(Algorithm::Blake2b512, Some(1), false));
        assert_eq!(read_tag("BLAKE2B-512"), known(Algorithm::Blake2b512, Some(64), false));
        assert_eq!(read_tag("BLAKE2b512"), known(Algorithm::Blake2b512, Some(64), false));
        assert_eq!(read_tag("SHA256"), known(Algorithm::Sha256, None, false));
        assert_eq!(read_tag("SHA2-256"), known(Algorithm::Sha256, None, false));
        assert_eq!(read_tag("XXH3"), known(Algorithm::Xxh3_64, None, false));
        assert_eq!(read_tag("XXH128_LE"), known(Algorithm::Xxh3_128, None, true));
        assert_eq!(read_tag("MD5"), known(Algorithm::Md5, None, false));
        assert_eq!(read_tag("sha1"), known(Algorithm::Sha1, None, false));
        assert_eq!(read_tag("SHA384"), Ok(TagMeaning::Unsupported(&UNSUPPORTED[1])));
        for bad in ["NOSUCH", "BLAKE2b-12", "BLAKE2b-520", "BLAKE2b-0", "BLAKE2b-+8", "SHA256_LE"] {
            assert!(read_tag(bad).unwrap_err().contains(bad), "{bad}");
        }
        for &algorithm in Algorithm::all() {
            let method = Method::plain(algorithm);
            let Ok(TagMeaning::Known { algorithm: read, len, little_endian: false }) = read_tag(&tag(&method)) else {
                panic!("{algorithm}");
            };
            assert_eq!(Method::with_length(read, len.unwrap_or(read.digest_len())).unwrap().algorithm, algorithm);
        }
        let blake2b_128 = Method::with_length(Algorithm::Blake2b512, 16).unwrap();
        assert_eq!(tag(&blake2b_128), "BLAKE2b-128");
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
    fn shown_names_escape_backslash_newline_and_carriage_return() {
        assert_eq!(shown_name(b"plain name"), b"plain name");
        assert_eq!(shown_name(b"a\\b"), b"\\a\\\\b");
        assert_eq!(shown_name(b"c\rd"), b"\\c\\rd");
        assert_eq!(shown_name(b"x\ny\\"), b"\\x\\ny\\\\");
    }

    #[test]
    fn names_in_sum_lines() {
        let blake3 = Method::plain(Algorithm::Blake3);
        let xxh64 = Method::plain(Algorithm::Xxh64);
        assert_eq!(&*line_name(Path::new("-"), &blake3, false), b"-");
        assert_eq!(&*line_name(Path::new("-"), &xxh64, false), b"stdin");
        #[cfg(unix)]
        {
            use std::os::unix::ffi::OsStrExt;
            let path = Path::new(std::ffi::OsStr::from_bytes(b"caf\xe9"));
            assert_eq!(&*line_name(path, &blake3, false), "caf\u{FFFD}".as_bytes());
            assert_eq!(&*line_name(path, &blake3, true), b"caf\xe9");
            assert_eq!(&*line_name(path, &xxh64, false), b"caf\xe9");
        }
    }
}
