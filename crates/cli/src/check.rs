//! `chunkhash check` (and `sum -c`): reads checksum lines written by
//! chunkhash, b3sum, xxhsum and coreutils, re-hashes each listed file and
//! reports it as coreutils does.

use crate::escape;
use crate::format;
use crate::input::{self, Progress};
use crate::method::{self, Algorithm, LengthError, Method};
use crate::settings::CheckSettings;
use crate::status::Printer;
use anyhow::Result;
use std::collections::HashMap;
use std::fs::File;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::path::Path;

/// One checksum line, parsed.
#[derive(Debug)]
pub struct Entry {
    /// The file name, unescaped.
    pub name: Vec<u8>,
    /// The expected digest, in the byte order the tools print by default.
    pub expected: Vec<u8>,
    /// The methods that may have produced the digest: one for a tagged
    /// line or a forced algorithm, all of that length otherwise.
    pub methods: Vec<Method>,
    /// The line named its algorithm (a tag, `XXH3_`, or `-a`).
    pub explicit: bool,
}

/// What a line of a check file is.
#[derive(Debug)]
pub enum Line {
    /// A checksum to verify.
    Entry(Entry),
    /// Blank or a `#` comment.
    Skip,
    /// Not a checksum line; the reason.
    Malformed(String),
}

/// Parses one line (without or with its `\n`). `forced` is `-a`.
pub fn parse_line(line: &[u8], forced: Option<Algorithm>) -> Line {
    let mut line = line.strip_suffix(b"\n").unwrap_or(line);
    // Check files written on Windows end lines with CRLF; a name really
    // ending in CR is written escaped (`\r`), so this CR is the line end.
    line = line.strip_suffix(b"\r").unwrap_or(line);
    while let [b' ' | b'\t', rest @ ..] = line {
        line = rest;
    }
    if line.is_empty() || line[0] == b'#' {
        return Line::Skip;
    }
    let escaped = line[0] == b'\\';
    if escaped {
        line = &line[1..];
    }
    let token_end = line.iter().position(|&b| b == b' ' || b == b'\t').unwrap_or(line.len());
    let token = &line[..token_end];
    let parsed = match gnu_digest(token) {
        Some((hex, prefix)) => parse_gnu(hex, prefix, &line[token_end..], forced),
        None => parse_bsd(line, forced),
    };
    let (name, expected, methods, explicit) = match parsed {
        Ok(parsed) => parsed,
        Err(reason) => return Line::Malformed(reason),
    };
    let name = if escaped {
        match escape::unescape(name) {
            Some(name) => name,
            None => return Line::Malformed("unknown backslash escape in the file name".into()),
        }
    } else {
        name.to_vec()
    };
    if name.is_empty() {
        return Line::Malformed("no file name".into());
    }
    if name.contains(&0) {
        return Line::Malformed("NUL byte in the file name".into());
    }
    Line::Entry(Entry { name, expected, methods, explicit })
}

type Parsed<'a> = (&'a [u8], Vec<u8>, Vec<Method>, bool);

/// A prefix written before the hex (xxhsum's `XXH3_`): the algorithm it
/// names, and its text.
type Prefix = (Algorithm, &'static str);

/// The hex of a `HEX  NAME` line's first token, and the prefix it carried;
/// `None` when the token is not a digest.
fn gnu_digest(token: &[u8]) -> Option<(&[u8], Option<Prefix>)> {
    let (hex, prefix) = match format::split_hex_prefix(token) {
        Some((algorithm, prefix, hex)) => (hex, Some((algorithm, prefix))),
        None => (token, None),
    };
    let is_hex = hex.len() >= 8 && hex.len().is_multiple_of(2) && hex.iter().all(u8::is_ascii_hexdigit);
    is_hex.then_some((hex, prefix))
}

/// Decodes a digest's hex (either case); `None` for anything else.
fn decode_hex(hex: &[u8]) -> Option<Vec<u8>> {
    chunkhash::hex::decode_vec(std::str::from_utf8(hex).ok()?).ok()
}

/// The method for a digest of `len` bytes said to be `algorithm`'s (the
/// length rule of [`Method::with_length`]), or why it cannot be.
fn method_of_length(algorithm: Algorithm, len: usize) -> Result<Method, String> {
    Method::with_length(algorithm, len).map_err(|error| match error {
        LengthError::OutOfRange => format!("a {len}-byte {} digest is out of range", algorithm.name()),
        LengthError::Fixed => {
            format!("a {len}-byte digest cannot be {} ({} bytes)", algorithm.name(), algorithm.digest_len())
        }
    })
}

fn parse_gnu<'a>(
    hex: &[u8],
    prefix: Option<Prefix>,
    rest: &'a [u8],
    forced: Option<Algorithm>,
) -> Result<Parsed<'a>, String> {
    // One blank after the digest, then coreutils' mode marker: ' ' (text)
    // or '*' (binary). Both read the same bytes on Unix.
    let rest = match rest {
        [b' ' | b'\t', b' ' | b'*', name @ ..] => name,
        [b' ' | b'\t', name @ ..] => name,
        _ => return Err("no blank between digest and file name".into()),
    };
    let expected = decode_hex(hex).ok_or("bad hex digest")?;
    let (methods, explicit) = match (forced, prefix) {
        (Some(algorithm), prefix) => {
            if let Some((_, text)) = prefix.filter(|&(named, _)| named != algorithm) {
                return Err(format!("{text} digest, but -a {}", algorithm.name()));
            }
            (vec![method_of_length(algorithm, expected.len())?], true)
        }
        (None, Some((algorithm, _))) => (vec![method_of_length(algorithm, expected.len())?], true),
        (None, None) => {
            let methods = method::candidates_for_len(expected.len());
            if methods.is_empty() {
                return Err(format!("no algorithm has a {}-byte digest", expected.len()));
            }
            (methods, false)
        }
    };
    Ok((rest, expected, methods, explicit))
}

fn parse_bsd(line: &[u8], forced: Option<Algorithm>) -> Result<Parsed<'_>, String> {
    let open = find(line, b" (").ok_or("neither `HEX  NAME` nor `TAG (NAME) = HEX`")?;
    let tag = std::str::from_utf8(&line[..open]).map_err(|_| "tag is not UTF-8")?;
    let after_open = &line[open + 2..];
    let close = rfind(after_open, b") = ").ok_or("no `) = ` after the file name")?;
    let name = &after_open[..close];
    let hex = &after_open[close + 4..];
    let mut expected = decode_hex(hex).filter(|digest| !digest.is_empty()).ok_or("bad hex digest")?;
    let (algorithm, little_endian) = format::algorithm_for_tag(tag)?;
    let method = method_of_length(algorithm, expected.len())?;
    if let Some(algorithm) = forced {
        if method.algorithm != algorithm {
            return Err(format!("tag {tag}, but -a {}", algorithm.name()));
        }
    }
    if little_endian {
        // xxhsum --little-endian prints the canonical bytes reversed.
        expected.reverse();
    }
    Ok((name, expected, vec![method], true))
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|window| window == needle)
}

fn rfind(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).rposition(|window| window == needle)
}

/// Counts for one check file, as coreutils keeps them.
#[derive(Debug, Default)]
struct Report {
    formatted: u64,
    improper: u64,
    matched: u64,
    mismatched: u64,
    unreadable: u64,
}

/// Runs `check`.
pub fn run(settings: &CheckSettings, printer: &mut Printer) -> Result<()> {
    let mut progress = Progress::new(None);
    printer.progress = Some(progress.bar());
    for file in &settings.files {
        check_file(file, settings, printer, &mut progress)?;
    }
    progress.finish();
    printer.progress = None;
    printer.flush()?;
    Ok(())
}

fn check_file(file: &Path, settings: &CheckSettings, printer: &mut Printer, progress: &mut Progress) -> Result<()> {
    let from_stdin = file.as_os_str() == "-";
    let file_name = if from_stdin { "standard input".to_string() } else { format::display_name(file) };
    let reader: Box<dyn Read> = if from_stdin {
        Box::new(io::stdin().lock())
    } else {
        match File::open(file).and_then(|f| if f.metadata()?.is_dir() { Err(input::is_a_directory()) } else { Ok(f) }) {
            Ok(f) => Box::new(f),
            Err(error) => return Ok(printer.file_error(&file_name, &error)?),
        }
    };
    let mut reader = BufReader::new(reader);
    let mut report = Report::default();
    // Untagged lines of an ambiguous length: the algorithm that matched first.
    let mut resolved: HashMap<usize, Method> = HashMap::new();
    let mut line = Vec::new();
    let mut line_number = 0u64;
    loop {
        line.clear();
        match reader.read_until(b'\n', &mut line) {
            Ok(0) => break,
            Ok(_) => {}
            Err(error) => {
                printer.file_error(&file_name, &error)?;
                break;
            }
        }
        line_number += 1;
        let entry = match parse_line(&line, settings.forced) {
            Line::Skip => continue,
            Line::Malformed(reason) => {
                report.improper += 1;
                if settings.warn {
                    printer.message(format_args!(
                        "{file_name}: {line_number}: improperly formatted checksum line ({reason})"
                    ))?;
                }
                continue;
            }
            Line::Entry(entry) => entry,
        };
        report.formatted += 1;
        check_entry(entry, from_stdin, settings, printer, progress, &mut report, &mut resolved)?;
    }
    if report.formatted == 0 {
        printer.status.malformed = true;
        printer.message(format_args!("{file_name}: no properly formatted checksum lines found"))?;
        return Ok(());
    }
    let plural = |n: u64, one: &'static str, many: &'static str| if n == 1 { one } else { many };
    if !settings.status_only {
        if report.improper > 0 {
            let n = report.improper;
            printer.message(format_args!("WARNING: {n} {} improperly formatted", plural(n, "line is", "lines are")))?;
        }
        if report.unreadable > 0 {
            let n = report.unreadable;
            printer.message(format_args!("WARNING: {n} listed {} could not be read", plural(n, "file", "files")))?;
        }
        if report.mismatched > 0 {
            let n = report.mismatched;
            printer
                .message(format_args!("WARNING: {n} computed {} did NOT match", plural(n, "checksum", "checksums")))?;
        }
    }
    if settings.ignore_missing && report.matched + report.mismatched + report.unreadable == 0 {
        printer.status.failed = true;
        printer.message(format_args!("{file_name}: no file was verified"))?;
    }
    if report.mismatched > 0 || report.unreadable > 0 {
        printer.status.failed = true;
    }
    if settings.strict && report.improper > 0 {
        printer.status.malformed = true;
    }
    Ok(())
}

fn check_entry(
    entry: Entry,
    check_file_is_stdin: bool,
    settings: &CheckSettings,
    printer: &mut Printer,
    progress: &mut Progress,
    report: &mut Report,
    resolved: &mut HashMap<usize, Method>,
) -> Result<()> {
    let shown = format::result_name(&entry.name);
    let ambiguous = !entry.explicit && entry.methods.len() > 1;
    let methods = match resolved.get(&entry.expected.len()) {
        Some(method) if ambiguous => vec![method.clone()],
        _ => entry.methods,
    };
    let result = match escape::bytes_to_path(&entry.name) {
        None => Err(io::Error::new(io::ErrorKind::InvalidData, "file name is not valid UTF-8 on this platform")),
        Some(path) if path.as_os_str() == "-" && check_file_is_stdin => {
            Err(io::Error::other("standard input is the check file; it cannot also be a listed file"))
        }
        Some(path) => input::hash_input(&path, None, &methods, settings.io, progress),
    };
    let digests = match result {
        Ok(digests) => digests,
        Err(error) if settings.ignore_missing && error.kind() == io::ErrorKind::NotFound => return Ok(()),
        Err(error) => {
            report.unreadable += 1;
            printer.file_error(&String::from_utf8_lossy(&escape::escape(&entry.name)), &error)?;
            if !settings.status_only {
                write_result(printer.out(), &shown, b"FAILED open or read")?;
            }
            return Ok(());
        }
    };
    let matched =
        methods.iter().zip(&digests).find(|(_, digest)| chunkhash::hex::constant_time_eq(digest, &entry.expected));
    match matched {
        Some((method, _)) => {
            report.matched += 1;
            if ambiguous {
                resolved.entry(entry.expected.len()).or_insert_with(|| method.clone());
            }
            if !settings.quiet && !settings.status_only {
                write_result(printer.out(), &shown, b"OK")?;
            }
        }
        None => {
            report.mismatched += 1;
            if !settings.status_only {
                write_result(printer.out(), &shown, b"FAILED")?;
            }
        }
    }
    Ok(())
}

fn write_result(out: &mut impl Write, name: &[u8], result: &[u8]) -> io::Result<()> {
    out.write_all(name)?;
    out.write_all(b": ")?;
    out.write_all(result)?;
    out.write_all(b"\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(line: &str, forced: Option<Algorithm>) -> Entry {
        match parse_line(line.as_bytes(), forced) {
            Line::Entry(entry) => entry,
            other => panic!("{line:?} parsed as {other:?}"),
        }
    }

    fn malformed(line: &str) -> String {
        match parse_line(line.as_bytes(), None) {
            Line::Malformed(reason) => reason,
            other => panic!("{line:?} parsed as {other:?}"),
        }
    }

    const HEX32: &str = "d74981efa70a0c880b8d8c1985d075dbcbf679b99a5f9914e5aaf96b831a9e24";

    #[test]
    fn gnu_lines_in_every_spacing() {
        for line in [
            format!("{HEX32}  name\n"),
            format!("{HEX32} *name"),
            format!("{HEX32} name\r\n"),
            format!("  {HEX32}\tname"),
            format!("{}  name", HEX32.to_uppercase()),
        ] {
            let parsed = entry(&line, None);
            assert_eq!(parsed.name, b"name", "{line:?}");
            assert_eq!(chunkhash::hex::encode(&parsed.expected), HEX32);
            assert!(!parsed.explicit);
            assert!(parsed.methods.iter().any(|m| m.algorithm == Algorithm::Blake3));
        }
        assert_eq!(entry(&format!("{HEX32}   lead"), None).name, b" lead");
    }

    #[test]
    fn escaped_names_are_unescaped() {
        let parsed = entry(&format!("\\{HEX32}  x\\ny\\\\z\\r"), None);
        assert_eq!(parsed.name, b"x\ny\\z\r");
        // Without the leading backslash, backslashes are literal.
        assert_eq!(entry(&format!("{HEX32}  a\\nb"), None).name, b"a\\nb");
        assert!(malformed(&format!("\\{HEX32}  a\\tb")).contains("escape"));
    }

    #[test]
    fn tagged_lines() {
        let parsed = entry(&format!("BLAKE3 (a (b) = c) = {HEX32}"), None);
        assert_eq!(parsed.name, b"a (b) = c");
        assert!(parsed.explicit);
        assert_eq!(parsed.methods.len(), 1);
        // BLAKE3 tags take any length: extended output.
        let long = entry(&format!("BLAKE3 (f) = {HEX32}{HEX32}"), None);
        assert_eq!(long.methods[0].out_len, 64);
        let escaped = entry(&format!("\\BLAKE3 (x\\ny) = {HEX32}"), None);
        assert_eq!(escaped.name, b"x\ny");
    }

    #[test]
    fn bad_lines_say_why() {
        assert!(malformed("garbage").contains("neither"));
        assert!(malformed(&format!("NOSUCH (f) = {HEX32}")).contains("NOSUCH"));
        assert!(malformed("BLAKE3 (f) = xyz").contains("hex"));
        assert!(malformed("BLAKE3 (f) = ").contains("hex"));
        assert!(malformed(HEX32).contains("blank"));
        assert!(malformed(&format!("{HEX32}  ")).contains("file name"));
        assert!(malformed("0123456789abcdef01  f").contains("9-byte"));
        assert!(matches!(parse_line(b"# comment", None), Line::Skip));
        assert!(matches!(parse_line(b"   \n", None), Line::Skip));
    }

    #[test]
    fn forced_algorithm_takes_any_blake3_length() {
        let parsed = entry(&format!("{HEX32}{HEX32}  f"), Some(Algorithm::Blake3));
        assert_eq!(parsed.methods.len(), 1);
        assert_eq!(parsed.methods[0].out_len, 64);
        assert!(parsed.explicit);
    }
}
