//! `chunkhash check` (and `sum -c`): reads checksum lines written by
//! chunkhash, b3sum, xxhsum, coreutils and OpenSSL (parsed in
//! `check_line.rs`), re-hashes each listed file and reports it as coreutils
//! does.
//!
//! A line that names its algorithm (a tag, xxhsum's `XXH3_` prefix, or -a)
//! is checked with it. An untagged line may be any method of its length:
//! the first one of that length that matches fixes the method for the rest
//! of the check file. A line that matches none of them, while no line of its
//! length has matched, is never called FAILED: it waits, and becomes FAILED
//! if a later line of its length fixes the method, or else "cannot determine
//! the algorithm". Results keep the order of the lines, so output after a
//! waiting line is held until it is decided.

use crate::check_line::{self, Line, LineError, Named, ParsedLine, Spacing};
use crate::format;
use crate::input::{self, Progress};
use crate::method::{self, Algorithm, Method};
use crate::settings::CheckSettings;
use crate::status::Printer;
use anyhow::Result;
use std::collections::{HashMap, VecDeque};
use std::fs::File;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::path::Path;

/// A way a digest may have been written: a method, and whether its hex is
/// the digest's bytes in reverse order (xxhsum `--little-endian`).
#[derive(Clone, Debug)]
struct Candidate {
    method: Method,
    reversed: bool,
}

impl Candidate {
    /// The method in the byte orders it may be written in: xxHash in both.
    fn each_order(method: Method) -> Vec<Candidate> {
        let reversed = method::is_xxhash(method.algorithm);
        let mut candidates = vec![Candidate { method: method.clone(), reversed: false }];
        if reversed {
            candidates.push(Candidate { method, reversed: true });
        }
        candidates
    }

    fn matches(&self, digest: &[u8], expected: &[u8]) -> bool {
        if self.reversed {
            let reversed: Vec<u8> = digest.iter().rev().copied().collect();
            chunkhash::hex::constant_time_eq(&reversed, expected)
        } else {
            chunkhash::hex::constant_time_eq(digest, expected)
        }
    }
}

/// What a line came to.
#[derive(Debug)]
enum Outcome {
    Matched,
    Mismatched,
    Unreadable(io::Error),
    /// Missing under --ignore-missing: neither reported nor a failure.
    Missing,
    /// Not a line chunkhash can check. `loud` ones are reported even
    /// without --warn (unsupported and undetermined algorithms).
    Improper {
        reason: String,
        loud: bool,
    },
}

/// A line's place in the output: decided, or waiting for a later line of
/// its digest length to fix the method.
#[derive(Debug)]
enum Slot {
    Done(Outcome),
    Waiting { digest_len: usize },
}

#[derive(Debug)]
struct Entry {
    line_number: u64,
    /// The listed file's name as results show it; empty when the line had none.
    shown: Vec<u8>,
    slot: Slot,
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

/// One check file being checked.
struct CheckFile<'a> {
    settings: &'a CheckSettings,
    /// The check file's name as messages show it.
    name: Vec<u8>,
    from_stdin: bool,
    /// The untagged form the file's first untagged line used.
    spacing: Option<Spacing>,
    /// Untagged lines of a digest length: the candidate that matched first.
    resolved: HashMap<usize, Candidate>,
    /// Lines not yet printed, in order.
    queue: VecDeque<Entry>,
    report: Report,
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
    let name = if from_stdin { b"standard input".to_vec() } else { format::shown_path(file) };
    let reader: Box<dyn Read> = if from_stdin {
        Box::new(io::stdin().lock())
    } else {
        match File::open(file).and_then(|f| if f.metadata()?.is_dir() { Err(input::is_a_directory()) } else { Ok(f) }) {
            Ok(f) => Box::new(f),
            Err(error) => return Ok(printer.file_error(&name, &error)?),
        }
    };
    let mut check = CheckFile {
        settings,
        name,
        from_stdin,
        spacing: None,
        resolved: HashMap::new(),
        queue: VecDeque::new(),
        report: Report::default(),
    };
    let mut reader = BufReader::new(reader);
    let mut line = Vec::new();
    let mut line_number = 0u64;
    loop {
        line.clear();
        match reader.read_until(b'\n', &mut line) {
            Ok(0) => break,
            Ok(_) => {}
            Err(error) => {
                printer.file_error(&check.name, &error)?;
                break;
            }
        }
        line_number += 1;
        match check_line::parse_line(&line, check.spacing) {
            Ok(Line::Blank) => continue,
            Ok(Line::Checksum(parsed)) => {
                check.spacing = check.spacing.or(parsed.spacing);
                check.check_line(parsed, line_number, progress);
            }
            Err(error) => check.push(line_number, Vec::new(), Slot::Done(improper(&error))),
        }
        check.print_decided(printer)?;
    }
    check.finish(printer)
}

fn improper(error: &LineError) -> Outcome {
    Outcome::Improper { reason: error.to_string(), loud: error.is_unsupported() }
}

impl CheckFile<'_> {
    fn push(&mut self, line_number: u64, shown: Vec<u8>, slot: Slot) {
        self.queue.push_back(Entry { line_number, shown, slot });
    }

    /// The candidates for a line, and whether its algorithm is known (a
    /// known algorithm that mismatches is FAILED); or why it cannot be
    /// checked.
    fn candidates(&self, parsed: &ParsedLine) -> Result<(Vec<Candidate>, bool), String> {
        let len = parsed.digest.len();
        let of_length = |algorithm| check_line::method_of_length(algorithm, len).map_err(|e| e.to_string());
        match (&parsed.named, self.settings.forced) {
            (Named::Tag { method, .. }, Some(forced)) if !same_family(method.algorithm, forced) => {
                Err(format!("tag of {}, but -a {}", method.name(), forced.name()))
            }
            (Named::Tag { method, reversed }, _) => {
                Ok((vec![Candidate { method: method.clone(), reversed: *reversed }], true))
            }
            (Named::Prefix(algorithm), Some(forced)) if *algorithm != forced => {
                Err(format!("{} digest (xxhsum's prefix), but -a {}", algorithm.name(), forced.name()))
            }
            (Named::Prefix(algorithm), _) => Ok((Candidate::each_order(of_length(*algorithm)?), true)),
            (Named::Nothing, Some(forced)) => Ok((Candidate::each_order(of_length(forced)?), true)),
            (Named::Nothing, None) => match self.resolved.get(&len) {
                Some(candidate) => Ok((vec![candidate.clone()], true)),
                None => {
                    let methods = method::candidates_for_len(len);
                    Ok((methods.into_iter().flat_map(Candidate::each_order).collect(), false))
                }
            },
        }
    }

    fn check_line(&mut self, parsed: ParsedLine, line_number: u64, progress: &mut Progress) {
        let shown = format::shown_name(&parsed.name);
        let (candidates, known) = match self.candidates(&parsed) {
            Ok(found) => found,
            Err(reason) => return self.push(line_number, shown, Slot::Done(Outcome::Improper { reason, loud: false })),
        };
        // b3sum writes U+FFFD for bytes of a name that are not UTF-8, so such
        // a name may stand for many: b3sum refuses the line, and so does
        // chunkhash when BLAKE3 may have written it.
        let blake3 = candidates.iter().any(|c| c.method.algorithm == Algorithm::Blake3);
        let replacement = "\u{FFFD}".as_bytes();
        if blake3 && parsed.name.windows(replacement.len()).any(|window| window == replacement) {
            let reason = "the name holds U+FFFD, which b3sum writes for bytes that are not UTF-8: \
                          it may stand for many names"
                .to_string();
            return self.push(line_number, shown, Slot::Done(Outcome::Improper { reason, loud: true }));
        }
        let outcome = match self.hash(&parsed, &candidates, progress) {
            Err(error) if self.settings.ignore_missing && error.kind() == io::ErrorKind::NotFound => Outcome::Missing,
            Err(error) => Outcome::Unreadable(error),
            Ok(digests) => {
                match candidates.iter().zip(&digests).find(|(c, digest)| c.matches(digest, &parsed.digest)) {
                    Some((candidate, _)) => {
                        if !known {
                            self.resolve(parsed.digest.len(), candidate.clone());
                        }
                        Outcome::Matched
                    }
                    None if known => Outcome::Mismatched,
                    None => return self.push(line_number, shown, Slot::Waiting { digest_len: parsed.digest.len() }),
                }
            }
        };
        self.push(line_number, shown, Slot::Done(outcome));
    }

    /// Hashes the listed file with each candidate's method in one pass; one
    /// digest per candidate. `-` reads standard input, and so does `stdin`
    /// in a line xxhsum may have written, as xxhsum reads it.
    fn hash(&self, parsed: &ParsedLine, candidates: &[Candidate], progress: &mut Progress) -> io::Result<Vec<Vec<u8>>> {
        let xxhsum_stdin = parsed.name == format::XXHSUM_STDIN.as_bytes()
            && candidates.iter().any(|c| method::is_xxhash(c.method.algorithm));
        let path = if xxhsum_stdin {
            Path::new("-").to_path_buf()
        } else {
            crate::escape::bytes_to_path(&parsed.name).ok_or_else(|| {
                io::Error::new(io::ErrorKind::InvalidData, "file name is not valid UTF-8 on this platform")
            })?
        };
        if path.as_os_str() == "-" && self.from_stdin {
            return Err(io::Error::other("standard input is the check file; it cannot also be a listed file"));
        }
        // Both byte orders of a method share its digest: hash each method once.
        let mut methods: Vec<Method> = Vec::new();
        let index: Vec<usize> = candidates
            .iter()
            .map(|c| match methods.iter().position(|m| same_method(m, &c.method)) {
                Some(i) => i,
                None => {
                    methods.push(c.method.clone());
                    methods.len() - 1
                }
            })
            .collect();
        let digests = input::hash_input(&path, None, &methods, self.settings.io, progress)?;
        Ok(index.into_iter().map(|i| digests[i].clone()).collect())
    }

    /// Fixes the method of untagged lines of a length; the lines of that
    /// length that were waiting matched none of its candidates, this one
    /// included, so they failed.
    fn resolve(&mut self, digest_len: usize, candidate: Candidate) {
        self.resolved.insert(digest_len, candidate);
        for entry in &mut self.queue {
            if matches!(entry.slot, Slot::Waiting { digest_len: len } if len == digest_len) {
                entry.slot = Slot::Done(Outcome::Mismatched);
            }
        }
    }

    /// Prints the decided lines at the front of the queue.
    fn print_decided(&mut self, printer: &mut Printer) -> io::Result<()> {
        while matches!(self.queue.front(), Some(Entry { slot: Slot::Done(_), .. })) {
            let Some(Entry { line_number, shown, slot: Slot::Done(outcome) }) = self.queue.pop_front() else {
                unreachable!("the front was just seen decided");
            };
            self.print(printer, line_number, &shown, outcome)?;
        }
        Ok(())
    }

    fn print(&mut self, printer: &mut Printer, line_number: u64, shown: &[u8], outcome: Outcome) -> io::Result<()> {
        let settings = self.settings;
        let report = &mut self.report;
        match outcome {
            Outcome::Matched => {
                report.formatted += 1;
                report.matched += 1;
                if !settings.quiet && !settings.status_only {
                    write_result(printer.out(), shown, b"OK")?;
                }
            }
            Outcome::Mismatched => {
                report.formatted += 1;
                report.mismatched += 1;
                if !settings.status_only {
                    write_result(printer.out(), shown, b"FAILED")?;
                }
            }
            Outcome::Unreadable(error) => {
                report.formatted += 1;
                report.unreadable += 1;
                printer.file_error(shown, &error)?;
                if !settings.status_only {
                    write_result(printer.out(), shown, b"FAILED open or read")?;
                }
            }
            Outcome::Missing => report.formatted += 1,
            Outcome::Improper { reason, loud } => {
                report.improper += 1;
                if loud && !settings.status_only {
                    let mut name = self.name.clone();
                    name.extend_from_slice(format!(": {line_number}").as_bytes());
                    if !shown.is_empty() {
                        name.extend_from_slice(b": ");
                        name.extend_from_slice(shown);
                    }
                    printer.about(&name, format_args!("{reason}"))?;
                } else if settings.warn {
                    printer.about(
                        &self.name,
                        format_args!("{line_number}: improperly formatted checksum line ({reason})"),
                    )?;
                }
            }
        }
        Ok(())
    }

    /// Decides the lines still waiting (no line of their length matched:
    /// their algorithm cannot be determined), prints them, the summary, and
    /// sets the exit status.
    fn finish(mut self, printer: &mut Printer) -> Result<()> {
        for entry in &mut self.queue {
            if let Slot::Waiting { digest_len } = entry.slot {
                let reason = undetermined(digest_len);
                entry.slot = Slot::Done(Outcome::Improper { reason, loud: true });
            }
        }
        self.print_decided(printer)?;
        let (settings, report, file_name) = (self.settings, &self.report, &self.name);
        if report.formatted == 0 {
            printer.status.failed = true;
            printer.about(file_name, format_args!("no properly formatted checksum lines found"))?;
            return Ok(());
        }
        let plural = |n: u64, one: &'static str, many: &'static str| if n == 1 { one } else { many };
        if !settings.status_only {
            if report.improper > 0 {
                let n = report.improper;
                printer
                    .message(format_args!("WARNING: {n} {} improperly formatted", plural(n, "line is", "lines are")))?;
            }
            if report.unreadable > 0 {
                let n = report.unreadable;
                printer
                    .message(format_args!("WARNING: {n} listed {} could not be read", plural(n, "file", "files")))?;
            }
            if report.mismatched > 0 {
                let n = report.mismatched;
                printer.message(format_args!(
                    "WARNING: {n} computed {} did NOT match",
                    plural(n, "checksum", "checksums")
                ))?;
            }
        }
        if settings.ignore_missing && report.matched + report.mismatched + report.unreadable == 0 {
            printer.status.failed = true;
            printer.about(file_name, format_args!("no file was verified"))?;
        }
        if report.mismatched > 0 || report.unreadable > 0 || (settings.strict && report.improper > 0) {
            printer.status.failed = true;
        }
        Ok(())
    }
}

/// Why an untagged line that matched none of its candidates, in a file
/// where no line of its length matched, is not called FAILED.
fn undetermined(digest_len: usize) -> String {
    let methods = method::candidates_for_len(digest_len);
    let names: Vec<String> = methods.iter().map(Method::name).collect();
    let orders =
        if methods.iter().any(|m| method::is_xxhash(m.algorithm)) { ", xxHash in both byte orders" } else { "" };
    let mut reason = format!(
        "cannot determine the algorithm (use -a): the file matches none of the {digest_len}-byte digests \
         chunkhash knows ({}{orders}); it changed, or another algorithm wrote the line",
        names.join(", ")
    );
    for unsupported in format::UNSUPPORTED.iter().filter(|u| u.len == digest_len) {
        reason += &format!(
            ", such as {} (`{} -c` checks it; chunkhash does not support it)",
            unsupported.name, unsupported.tool
        );
    }
    reason
}

/// Whether a tag's algorithm and the one -a forces are the same hash: the
/// same algorithm, or both BLAKE2b (whose length the line gives).
fn same_family(a: Algorithm, b: Algorithm) -> bool {
    a == b || (method::is_blake2b(a) && method::is_blake2b(b))
}

fn same_method(a: &Method, b: &Method) -> bool {
    a.algorithm == b.algorithm && a.out_len == b.out_len
}

fn write_result(out: &mut impl Write, name: &[u8], result: &[u8]) -> io::Result<()> {
    out.write_all(name)?;
    out.write_all(b": ")?;
    out.write_all(result)?;
    out.write_all(b"\n")
}
