//! The CLI's check-file line parser on any bytes: it never panics, what it
//! accepts holds a name and a digest, and a line it reads, written back the
//! way `chunkhash sum` writes lines, reads back the same.

#![no_main]

use chunkhash_cli::check_line::{parse_line, Line, Named, Spacing};
use chunkhash_cli::format::{self, Format};
use chunkhash_cli::method::{Algorithm, Method};
use libfuzzer_sys::fuzz_target;

fn reparse(line: &[u8], spacing: Option<Spacing>) -> chunkhash_cli::check_line::ParsedLine {
    match parse_line(line, spacing) {
        Ok(Line::Checksum(parsed)) => parsed,
        other => panic!("{:?} written back parsed as {other:?}", String::from_utf8_lossy(line)),
    }
}

fuzz_target!(|input: (u8, &[u8])| {
    let (choice, line) = input;
    let spacing = [None, Some(Spacing::One), Some(Spacing::Two)][choice as usize % 3];
    let parsed = match parse_line(line, spacing) {
        Ok(Line::Checksum(parsed)) => parsed,
        Ok(Line::Blank) => return,
        Err(error) => {
            assert!(!error.to_string().is_empty());
            return;
        }
    };
    assert!(!parsed.name.is_empty() && !parsed.name.contains(&0) && !parsed.digest.is_empty());
    assert_eq!(parsed.spacing.is_some(), !matches!(parsed.named, Named::Tag { .. }));
    let mut written = Vec::new();
    match &parsed.named {
        Named::Tag { method, reversed: false } => {
            format::write_line(&mut written, Format::Tag, method, &parsed.name, &parsed.digest).unwrap();
            let again = reparse(&written, None);
            match again.named {
                Named::Tag { method: ref again_method, reversed: false } => {
                    assert_eq!(again_method.name(), method.name());
                    assert_eq!(again_method.out_len, method.out_len);
                }
                ref other => panic!("{:?} read back as {other:?}", String::from_utf8_lossy(&written)),
            }
            assert_eq!((&again.name, &again.digest), (&parsed.name, &parsed.digest));
        }
        // xxhsum's little-endian tags are read, never written.
        Named::Tag { reversed: true, .. } => {}
        Named::Prefix(_) | Named::Nothing => {
            let algorithm = match parsed.named {
                Named::Prefix(algorithm) => algorithm,
                _ => Algorithm::Blake3,
            };
            format::write_line(&mut written, Format::Plain, &Method::plain(algorithm), &parsed.name, &parsed.digest)
                .unwrap();
            // `sum` writes two spaces: read in a file of that form, or as a
            // file's first line.
            for spacing in [None, Some(Spacing::Two)] {
                let again = reparse(&written, spacing);
                assert_eq!((&again.name, &again.digest), (&parsed.name, &parsed.digest));
                assert_eq!(again.spacing, Some(Spacing::Two));
                assert_eq!(matches!(again.named, Named::Prefix(_)), matches!(parsed.named, Named::Prefix(_)));
            }
        }
    }
});
