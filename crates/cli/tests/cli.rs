//! Runs the built `chunkhash` binary, each test in its own directory.
//!
//! - sum: digests against the library, every read path (stdin, read, mmap,
//!   batch, threads), byte-identical output to sha256sum/sha512sum/b2sum.
//! - names: escaping as coreutils does it, round trips through check.
//! - check: files of every tool, failures, exit codes, malformed lines.
//! - modes: --keyed, --derive-key, -l, --raw, and their bad inputs.
//! - bench: JSON fields, --compare, --plot, bad --sizes and bad JSON.
//! - xxhsum: formats written by an independent xxHash (Python `xxhash`).

use chunkhash::blake3;
use chunkhash::hex::encode as hex;
use chunkhash::Algorithm;
use std::fs;
use std::io::Read;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};
mod common;

use common::*;

// ---------------------------------------------------------------- sum

/// Sizes on the edges of every read path: empty, chunk edges, the batch
/// limit (64 KiB), the mmap threshold (4 MiB, mapped with -j 2), and a file
/// mapped in two pieces (16 MiB each).
const SIZES: [usize; 10] = [0, 1, 1023, 1024, 1025, 64 * 1024 - 1, 64 * 1024, (4 << 20) - 1, 4 << 20, (16 << 20) + 7];

#[test]
fn sum_matches_the_library_on_every_read_path() {
    let dir = Dir::new("sum_matches_the_library_on_every_read_path");
    let mut names = Vec::new();
    let mut expected = String::new();
    for (i, &size) in SIZES.iter().enumerate() {
        let name = format!("f{size}");
        let data = pattern(size, i as u8);
        dir.write(&name, &data);
        expected += &format!("{}  {name}\n", blake3::hash(&data));
        names.push(name);
    }
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    for extra in [&["-j", "1"][..], &["-j", "2"], &["--no-mmap"], &["-j", "2", "--no-mmap"], &[]] {
        let args: Vec<&str> = ["sum"].iter().chain(extra).chain(&names).copied().collect();
        assert_eq!(ok(dir.run(&args, b"")), expected, "{extra:?}");
    }
    // Stdin, with no argument and with `-`.
    let data = pattern(100_000, 9);
    let line = format!("{}  -\n", blake3::hash(&data));
    assert_eq!(ok(dir.run(&["sum"], &data)), line);
    assert_eq!(ok(dir.run(&["sum", "-"], &data)), line);
}

#[test]
fn every_algorithm_matches_the_registry() {
    let dir = Dir::new("every_algorithm_matches_the_registry");
    let data = pattern(2 << 20, 3);
    dir.write("big", &data);
    dir.write("small", b"hello\n");
    for &algorithm in Algorithm::all() {
        let name = algorithm.name();
        let out = ok(dir.run(&["sum", "-a", name, "small", "big"], b""));
        let prefix = if algorithm == Algorithm::Xxh3_64 { "XXH3_" } else { "" };
        let expected = format!(
            "{prefix}{}  small\n{prefix}{}  big\n",
            chunkhash::digest(algorithm, b"hello\n").to_hex(),
            chunkhash::digest(algorithm, &data).to_hex()
        );
        assert_eq!(out, expected, "{name}");
        let tagged = ok(dir.run(&["sum", "--tag", "-a", name, "small"], b""));
        let digest = chunkhash::digest(algorithm, b"hello\n").to_hex();
        assert_eq!(tagged, format!("{} (small) = {digest}\n", algorithm.bsd_tag()), "{name}");
    }
}

/// `-a crc32` is zlib's CRC-32 (S3's `CRC32`), `-a crc64nvme` S3's
/// `CRC64NVME`, tagged with S3's names; `-a cksum` and `-a crc` would name
/// the POSIX `cksum` CRC, a different CRC, and are refused.
#[test]
fn crc32_and_crc64nvme_by_their_short_names() {
    let dir = Dir::new("crc32_and_crc64nvme_by_their_short_names");
    dir.write("check", b"123456789");
    for (name, tag, hex) in [("crc32", "CRC32", "cbf43926"), ("crc64nvme", "CRC64NVME", "ae8b14860a799888")] {
        assert_eq!(ok(dir.run(&["sum", "-a", name, "check"], b"")), format!("{hex}  check\n"));
        let tagged = ok(dir.run(&["sum", "--tag", "-a", name, "check"], b""));
        assert_eq!(tagged, format!("{tag} (check) = {hex}\n"));
        dir.write("sums", tagged.as_bytes());
        assert_eq!(ok(dir.run(&["check", "sums"], b"")), "check: OK\n", "{name}");
    }
    for bad in ["cksum", "crc"] {
        let output = dir.run(&["sum", "-a", bad, "check"], b"");
        assert_eq!(code(&output), 2, "{bad}");
        assert!(stderr(&output).contains(&format!("unknown algorithm \"{bad}\"")), "{}", stderr(&output));
    }
}

/// coreutils on this machine: sha256sum, sha512sum, b2sum (and b2sum -l 256).
const COREUTILS: [(&str, &[&str], &str, &[&str]); 4] = [
    ("sha256sum", &[], "sha256", &[]),
    ("sha512sum", &[], "sha512", &[]),
    ("b2sum", &[], "blake2b", &[]),
    ("b2sum", &["-l", "256"], "blake2b", &["-l", "32"]),
];

/// File names that need care: spaces, a leading space, unicode, and the
/// three escaped bytes (backslash, newline, carriage return).
const ODD_NAMES: [&str; 7] = ["plain", "with space", " lead", "ünï", "back\\slash", "new\nline", "car\rriage"];

fn odd_files(dir: &Dir) -> Vec<&'static str> {
    for (i, name) in ODD_NAMES.iter().enumerate() {
        dir.write(name, &pattern(1000 * i + 17, i as u8));
    }
    dir.write("big", &pattern((1 << 20) + 5, 77));
    let mut names = ODD_NAMES.to_vec();
    names.push("big");
    names
}

#[test]
fn output_is_byte_identical_to_coreutils() {
    let dir = Dir::new("output_is_byte_identical_to_coreutils");
    let names = odd_files(&dir);
    for (tool, tool_args, algorithm, our_args) in COREUTILS {
        for tag in [false, true] {
            let mut theirs: Vec<&str> = tool_args.to_vec();
            let mut ours: Vec<&str> = vec!["sum", "-a", algorithm];
            ours.extend(our_args);
            if tag {
                theirs.push("--tag");
                ours.push("--tag");
            }
            theirs.extend(&names);
            ours.extend(&names);
            let expected = dir.tool(tool, &theirs);
            let output = dir.run(&ours, b"");
            assert_eq!(code(&output), 0, "{}", stderr(&output));
            assert_eq!(
                String::from_utf8_lossy(&output.stdout),
                String::from_utf8_lossy(&expected),
                "{tool} {tool_args:?} tag={tag}"
            );
        }
    }
}

#[test]
fn check_accepts_coreutils_files() {
    let dir = Dir::new("check_accepts_coreutils_files");
    let names = odd_files(&dir);
    for (i, (tool, tool_args, _, _)) in COREUTILS.iter().enumerate() {
        for tag in [false, true] {
            let mut args = tool_args.to_vec();
            if tag {
                args.push("--tag");
            }
            args.extend(&names);
            let sums = dir.tool(tool, &args);
            let file = format!("sums{i}{tag}");
            dir.write(&file, &sums);
            let expected = dir.tool(tool, &[&["-c"][..], tool_args, &[&file]].concat());
            // Result lines escape names holding a backslash or a carriage
            // return too, as b3sum and xxhsum 0.8.2+ do (coreutils 9.1 only
            // those holding a newline): README, "Choices where the tools disagree".
            let expected = String::from_utf8_lossy(&expected)
                .replace("back\\slash: OK", "\\back\\\\slash: OK")
                .replace("car\rriage: OK", "\\car\\rriage: OK");
            // No -a: the algorithm comes from the tag or the digest length.
            let out = dir.run(&["check", &file], b"");
            assert_eq!(code(&out), 0, "{tool} {args:?}: {}", stderr(&out));
            assert_eq!(String::from_utf8_lossy(&out.stdout), expected, "{tool} tag={tag}");
            assert_eq!(stdout(&out).matches(": OK\n").count(), names.len());
        }
    }
    // Our own output is accepted by coreutils.
    let ours = ok(dir.run(&[&["sum", "-a", "sha256"][..], &names].concat(), b""));
    dir.write("ours.sha256", ours.as_bytes());
    let theirs = String::from_utf8(dir.tool("sha256sum", &["-c", "ours.sha256"])).unwrap();
    assert_eq!(theirs.matches(": OK\n").count(), names.len());
}

/// Names that are not UTF-8 are written as raw bytes, as coreutils does
/// (b3sum would print U+FFFD), and check finds the files again.
#[cfg(unix)]
#[test]
fn non_utf8_names_are_written_raw() {
    use std::os::unix::ffi::OsStrExt;
    let dir = Dir::new("non_utf8_names_are_written_raw");
    let name = std::ffi::OsStr::from_bytes(b"caf\xe9\xff");
    dir.write(name, b"bytes");
    let mut ours = dir.command(env!("CARGO_BIN_EXE_chunkhash"), &["sum", "-a", "sha256"]);
    let ours = ours.arg(name).output().unwrap();
    let mut theirs = dir.command("sha256sum", &[]);
    let theirs = theirs.arg(name).output().unwrap();
    assert_eq!(code(&ours), 0);
    assert_eq!(ours.stdout, theirs.stdout);
    assert!(ours.stdout.ends_with(b"  caf\xe9\xff\n"));
    dir.write("sums", &ours.stdout);
    let checked = dir.run(&["check", "sums"], b"");
    assert_eq!(code(&checked), 0, "{}", stderr(&checked));
    assert_eq!(checked.stdout, b"caf\xe9\xff: OK\n");
}

#[test]
fn escaped_names_round_trip_in_both_forms() {
    let dir = Dir::new("escaped_names_round_trip_in_both_forms");
    let names = odd_files(&dir);
    let out = ok(dir.run(&[&["sum"][..], &names].concat(), b""));
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), names.len(), "newlines in names are escaped, one line each");
    assert!(lines[4].starts_with('\\') && lines[4].ends_with("  back\\\\slash"), "{}", lines[4]);
    assert!(lines[5].starts_with('\\') && lines[5].ends_with("  new\\nline"), "{}", lines[5]);
    assert!(lines[6].starts_with('\\') && lines[6].ends_with("  car\\rriage"), "{}", lines[6]);
    assert!(!lines[1].starts_with('\\') && lines[1].ends_with("  with space"));
    for (form, args) in [("sums.plain", &["sum"][..]), ("sums.tag", &["sum", "--tag"])] {
        let sums = ok(dir.run(&[args, &names].concat(), b""));
        dir.write(form, sums.as_bytes());
        let checked = ok(dir.run(&["check", form], b""));
        // Result lines escape names holding a backslash, newline or carriage
        // return, as b3sum and xxhsum 0.8.2+ do.
        assert!(checked.contains("\\new\\nline: OK\n"), "{checked}");
        assert!(checked.contains("\\back\\\\slash: OK\n"), "{checked}");
        assert!(checked.contains("\\car\\rriage: OK\n"), "{checked}");
        assert_eq!(checked.matches(": OK\n").count(), names.len());
    }
}

#[test]
fn many_small_files_keep_their_order() {
    let dir = Dir::new("many_small_files_keep_their_order");
    let mut args = vec!["sum".to_string(), "-j".into(), "2".into()];
    let mut expected = String::new();
    for i in 0..600 {
        let name = format!("s{i:03}");
        let data = pattern(i * 37 % 5000, i as u8);
        dir.write(&name, &data);
        expected += &format!("{}  {name}\n", blake3::hash(&data));
        args.push(name);
        if i == 300 {
            // A missing file and a big one in the middle of the batch.
            args.push("missing".into());
            dir.write("mid-big", &pattern(70_000, 1));
            args.push("mid-big".into());
            expected += &format!("{}  mid-big\n", blake3::hash(&pattern(70_000, 1)));
        }
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let output = dir.run(&args, b"");
    assert_eq!(code(&output), 1);
    assert_eq!(stdout(&output), expected);
    assert_eq!(stderr(&output), "chunkhash: missing: No such file or directory\n");
}

#[test]
fn missing_files_and_directories_are_reported_and_skipped() {
    let dir = Dir::new("missing_files_and_directories_are_reported_and_skipped");
    dir.write("a", b"a");
    fs::create_dir(dir.path.join("sub")).unwrap();
    let output = dir.run(&["sum", "missing", "sub", "a"], b"");
    assert_eq!(code(&output), 1);
    assert_eq!(stdout(&output), format!("{}  a\n", blake3::hash(b"a")));
    assert_eq!(stderr(&output), "chunkhash: missing: No such file or directory\nchunkhash: sub: Is a directory\n");
}

#[test]
fn unknown_algorithms_list_the_valid_ones() {
    let dir = Dir::new("unknown_algorithms_list_the_valid_ones");
    for args in [&["sum", "-a", "md4"][..], &["check", "-a", "md4"], &["bench", "-a", "blake3,md4"]] {
        let output = dir.run(args, b"");
        assert_eq!(code(&output), 2, "{args:?}");
        let message = stderr(&output);
        assert!(message.contains("unknown algorithm \"md4\""), "{message}");
        for algorithm in Algorithm::all() {
            assert!(message.contains(&algorithm.name().to_ascii_lowercase()), "{message}");
        }
        assert_eq!(stdout(&output), "");
    }
}

#[test]
fn usage_errors_exit_2() {
    let dir = Dir::new("usage_errors_exit_2");
    dir.write("a", b"a");
    for args in [
        &[][..],
        &["sum", "--no-such-flag"],
        &["sum", "--status", "a"],
        &["sum", "-j", "many", "a"],
        &["sum", "-j", "-1", "a"],
        &["sum", "--derive-key", "ctx", "-a", "sha256", "a"],
        &["frobnicate"],
    ] {
        let output = dir.run(args, b"");
        assert_eq!(code(&output), 2, "{args:?}: {}", stderr(&output));
        assert!(!stderr(&output).is_empty(), "{args:?} says why");
    }
}

#[test]
fn version_names_the_simd_backends() {
    let dir = Dir::new("version_names_the_simd_backends");
    let out = ok(dir.run(&["--version"], b""));
    assert!(out.starts_with(&format!("chunkhash {}\n", env!("CARGO_PKG_VERSION"))), "{out}");
    assert!(out.contains("simd(compile): portable"), "{out}");
    assert!(out.contains(&format!("simd(runtime): {}", blake3::Backend::detect().name())), "{out}");
}

#[test]
fn a_closed_pipe_ends_quietly() {
    let dir = Dir::new("a_closed_pipe_ends_quietly");
    dir.write("a", b"a");
    // 32 MiB of hex: far more than a pipe buffer, so the write must fail.
    let mut child = dir
        .command(env!("CARGO_BIN_EXE_chunkhash"), &["sum", "-l", "16777216", "a"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let mut first = [0u8; 16];
    stdout.read_exact(&mut first).unwrap();
    drop(stdout);
    let output = child.wait_with_output().unwrap();
    assert_eq!(code(&output), 0);
    assert_eq!(stderr(&output), "");
    assert_eq!(&first, &hex(&blake3::hash(b"a").as_bytes()[..8]).as_bytes()[..16]);
}

#[test]
fn progress_bar_only_on_a_terminal() {
    let dir = Dir::new("progress_bar_only_on_a_terminal");
    // Sparse: 257 MiB of zeros, over the 256 MiB that shows a bar at once.
    fs::File::create(dir.path.join("zeros")).unwrap().set_len(257 << 20).unwrap();
    // Off a terminal: nothing on stderr.
    let out = ok(dir.run(&["sum", "zeros"], b""));
    assert!(out.ends_with("  zeros\n"));
    // On a terminal (util-linux `script` gives the command a pty): a bar.
    let command = format!("'{}' sum zeros > /dev/null", env!("CARGO_BIN_EXE_chunkhash"));
    let output = dir.command("script", &["-qec", &command, "/dev/null"]).output().expect("util-linux script");
    let screen = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{screen}");
    assert!(screen.contains("/257.00 MiB ["), "no progress bar on the terminal: {screen:?}");
}

// ---------------------------------------------------------------- check

#[test]
fn a_changed_file_fails_with_exit_1() {
    let dir = Dir::new("a_changed_file_fails_with_exit_1");
    dir.write("keep", b"same");
    dir.write("change", b"before");
    dir.write("gone", b"here");
    let sums = ok(dir.run(&["sum", "keep", "change", "gone"], b""));
    dir.write("sums", sums.as_bytes());
    assert_eq!(ok(dir.run(&["check", "sums"], b"")), "keep: OK\nchange: OK\ngone: OK\n");
    dir.write("change", b"after");
    fs::remove_file(dir.path.join("gone")).unwrap();
    let output = dir.run(&["check", "sums"], b"");
    assert_eq!(code(&output), 1);
    assert_eq!(stdout(&output), "keep: OK\nchange: FAILED\ngone: FAILED open or read\n");
    assert_eq!(
        stderr(&output),
        "chunkhash: gone: No such file or directory\n\
         chunkhash: WARNING: 1 listed file could not be read\n\
         chunkhash: WARNING: 1 computed checksum did NOT match\n"
    );
    // The same through sum -c, and the output options.
    assert_eq!(stdout(&dir.run(&["sum", "-c", "sums"], b"")), stdout(&output));
    let quiet = dir.run(&["check", "--quiet", "sums"], b"");
    assert_eq!((code(&quiet), stdout(&quiet)), (1, "change: FAILED\ngone: FAILED open or read\n".to_string()));
    let status = dir.run(&["check", "--status", "sums"], b"");
    assert_eq!((code(&status), stdout(&status)), (1, String::new()));
    assert_eq!(stderr(&status), "chunkhash: gone: No such file or directory\n");
    let ignore = dir.run(&["check", "--ignore-missing", "sums"], b"");
    assert_eq!((code(&ignore), stdout(&ignore)), (1, "keep: OK\nchange: FAILED\n".to_string()));
    // Check lines from stdin.
    let piped = dir.run(&["check"], sums.as_bytes());
    assert_eq!(stdout(&piped), stdout(&output));
}

#[test]
fn malformed_check_lines() {
    let dir = Dir::new("malformed_check_lines");
    dir.write("a", b"a");
    let good = ok(dir.run(&["sum", "a"], b""));
    let mixed = format!("# a comment\n\n{good}garbage\nBLAKE3 (a) = zz\nSHA384 (a) = {}\n", "0".repeat(96));
    dir.write("mixed", mixed.as_bytes());
    // Without --strict: a warning, and the good line decides. A SHA-384 line is
    // a peer's, in an algorithm chunkhash lacks: said even without --warn.
    let output = dir.run(&["check", "mixed"], b"");
    assert_eq!((code(&output), stdout(&output)), (0, "a: OK\n".to_string()));
    assert_eq!(
        stderr(&output),
        "chunkhash: mixed: 6: SHA-384 is not supported by chunkhash (`sha384sum -c` checks it)\n\
         chunkhash: WARNING: 3 lines are improperly formatted\n"
    );
    // --strict: exit 1, as coreutils. --warn: one message per line, naming file and line.
    let output = dir.run(&["check", "--strict", "--warn", "mixed"], b"");
    assert_eq!(code(&output), 1);
    let messages = stderr(&output);
    assert!(messages.contains("chunkhash: mixed: 4: improperly formatted checksum line"), "{messages}");
    assert!(messages.contains("mixed: 5: improperly formatted checksum line (bad hex digest)"), "{messages}");
    assert!(messages.contains("mixed: 6: SHA-384 is not supported"), "{messages}");
    // A file with no checksum line at all: exit 1, as coreutils, b3sum and xxhsum.
    dir.write("junk", b"junk\nmore junk\n");
    let output = dir.run(&["check", "junk"], b"");
    assert_eq!(code(&output), 1);
    assert_eq!(stderr(&output), "chunkhash: junk: no properly formatted checksum lines found\n");
    // Bad escapes, a forced algorithm that does not fit, an unreadable check file.
    let hash = blake3::hash(b"a").to_hex();
    for (name, line) in [
        ("escape", format!("\\{hash}  a\\tb\n")),
        ("forced", format!("{hash}  a\n")),
        ("lengthless", "0123456789abcdef01  a\n".to_string()),
    ] {
        dir.write(name, line.as_bytes());
        let forced = match name {
            "forced" => "xxh64",
            "escape" => "blake3",
            // 9 bytes may be BLAKE3 or BLAKE2b-72, and the file matches
            // neither: the algorithm cannot be determined.
            _ => "",
        };
        let args = if forced.is_empty() { vec!["check", name] } else { vec!["check", "-a", forced, name] };
        let output = dir.run(&args, b"");
        assert_eq!(code(&output), 1, "{name}: {}", stderr(&output));
        assert!(stderr(&output).ends_with("no properly formatted checksum lines found\n"), "{}", stderr(&output));
    }
    let output = dir.run(&["check", "nonexistent"], b"");
    assert_eq!(code(&output), 1);
    assert_eq!(stderr(&output), "chunkhash: nonexistent: No such file or directory\n");
    let output = dir.run(&["check", "."], b"");
    assert_eq!((code(&output), stderr(&output)), (1, "chunkhash: .: Is a directory\n".to_string()));
}

#[test]
fn ambiguous_lengths_are_resolved_by_the_first_match() {
    let dir = Dir::new("ambiguous_lengths_are_resolved_by_the_first_match");
    dir.write("a", b"one");
    dir.write("b", b"two");
    // 32-byte digests without a tag: BLAKE3, BLAKE2b-256 and SHA-256 all fit.
    for algorithm in ["blake3", "blake2b-256", "sha256"] {
        let sums = ok(dir.run(&["sum", "-a", algorithm, "a", "b"], b""));
        dir.write("sums", sums.as_bytes());
        assert_eq!(ok(dir.run(&["check", "sums"], b"")), "a: OK\nb: OK\n", "{algorithm}");
        // Forcing another algorithm of the same length fails the lines.
        let other = if algorithm == "sha256" { "blake3" } else { "sha256" };
        let forced = dir.run(&["check", "-a", other, "sums"], b"");
        assert_eq!((code(&forced), stdout(&forced)), (1, "a: FAILED\nb: FAILED\n".to_string()), "{algorithm}");
    }
    // Once the first line resolved SHA-256, a BLAKE3 line of the same length
    // in the same file is checked as SHA-256, and fails.
    let sha = ok(dir.run(&["sum", "-a", "sha256", "a"], b""));
    let b3 = ok(dir.run(&["sum", "b"], b""));
    dir.write("mixed", format!("{sha}{b3}").as_bytes());
    let output = dir.run(&["check", "mixed"], b"");
    assert_eq!((code(&output), stdout(&output)), (1, "a: OK\nb: FAILED\n".to_string()));
}

// ---------------------------------------------------------------- modes

#[test]
fn keyed_mode_reads_exactly_32_key_bytes() {
    let dir = Dir::new("keyed_mode_reads_exactly_32_key_bytes");
    dir.write("a", b"message");
    let key = [0x42u8; 32];
    let out = ok(dir.run(&["sum", "--keyed", "a"], &key));
    assert_eq!(out, format!("{}  a\n", blake3::keyed_hash(&key, b"message")));
    for (key, message) in [
        (&[1u8; 31][..], "expected 32 key bytes on standard input, found 31"),
        (&[], "found 0"),
        (&[1u8; 33], "read more than 32 key bytes"),
    ] {
        let output = dir.run(&["sum", "--keyed", "a"], key);
        assert_eq!(code(&output), 2);
        assert!(stderr(&output).contains(message), "{}", stderr(&output));
        assert_eq!(stdout(&output), "");
    }
    // Stdin holds the key, so it cannot also be an input.
    for args in [&["sum", "--keyed"][..], &["sum", "--keyed", "-"], &["sum", "--keyed", "a", "-"]] {
        let output = dir.run(args, &key);
        assert_eq!(code(&output), 2, "{args:?}");
        assert!(stderr(&output).contains("standard input"), "{}", stderr(&output));
    }
}

#[test]
fn derive_key_length_and_raw() {
    let dir = Dir::new("derive_key_length_and_raw");
    dir.write("a", b"material");
    let out = ok(dir.run(&["sum", "--derive-key", "chunkhash test context", "a"], b""));
    assert_eq!(out, format!("{}  a\n", hex(&blake3::derive_key("chunkhash test context", b"material"))));
    let mut long = [0u8; 100];
    let mut hasher = blake3::Hasher::new();
    hasher.update(b"material");
    hasher.finalize_xof().fill(&mut long);
    assert_eq!(ok(dir.run(&["sum", "-l", "100", "a"], b"")), format!("{}  a\n", hex(&long)));
    assert_eq!(ok(dir.run(&["sum", "--tag", "-l", "100", "a"], b"")), format!("BLAKE3 (a) = {}\n", hex(&long)));
    // A tagged BLAKE3 line of any length checks.
    dir.write("long", format!("BLAKE3 (a) = {}\n", hex(&long)).as_bytes());
    assert_eq!(ok(dir.run(&["check", "long"], b"")), "a: OK\n");
    // -l counts bytes; BLAKE2b takes 32 or 64, the others their own length.
    assert_eq!(
        ok(dir.run(&["sum", "-a", "blake2b", "-l", "32", "a"], b"")),
        format!("{}  a\n", chunkhash::digest(Algorithm::Blake2b256, b"material").to_hex())
    );
    assert_eq!(ok(dir.run(&["sum", "-a", "sha256", "-l", "32", "a"], b"")).len(), 64 + 3 + 1);
    for length in ["0", "abc", "-3", "16777217", "99999999999999999999"] {
        let output = dir.run(&["sum", "-l", length, "a"], b"");
        assert_eq!(code(&output), 2, "-l {length}");
        assert!(stderr(&output).contains("-l/--length"), "{}", stderr(&output));
    }
    for (algorithm, length) in [("sha256", "64"), ("blake2b", "256"), ("xxh64", "4")] {
        let output = dir.run(&["sum", "-a", algorithm, "-l", length, "a"], b"");
        assert_eq!(code(&output), 2, "{algorithm} -l {length}");
        assert!(stderr(&output).contains("-l counts bytes"), "{}", stderr(&output));
    }
    // --raw: the bytes alone, one input only.
    let raw = dir.run(&["sum", "--raw", "a"], b"");
    assert_eq!(raw.stdout, blake3::hash(b"material").as_bytes());
    let raw = dir.run(&["sum", "--raw", "-a", "xxh64", "a"], b"");
    assert_eq!(raw.stdout, chunkhash::digest(Algorithm::Xxh64, b"material").as_bytes());
    let output = dir.run(&["sum", "--raw", "a", "a"], b"");
    assert_eq!((code(&output), stdout(&output)), (2, String::new()));
}

// ---------------------------------------------------------------- bench

/// A tiny benchmark: two sizes, three rounds of 1 ms.
const TINY: [&str; 8] = ["bench", "-a", "blake3,xxh3", "--sizes", "64,4K", "--rounds", "3", "--slice-ms"];

fn tiny_bench(dir: &Dir, extra: &[&str]) -> Output {
    dir.run(&[&TINY[..], &["1"], extra].concat(), b"")
}

#[test]
fn bench_json_has_the_documented_fields() {
    let dir = Dir::new("bench_json_has_the_documented_fields");
    let out = ok(tiny_bench(&dir, &["--batch", "--threads", "2", "--json", "run.json", "--plot", "run.svg"]));
    for header in ["algorithm", "size", "ns/op", "MB/s", "cycles/B", "backend"] {
        assert!(out.lines().nth(1).unwrap().contains(header), "{out}");
    }
    let run: serde_json::Value = serde_json::from_slice(&dir.read("run.json")).unwrap();
    for field in ["tool", "version", "backend", "core_ghz", "threads", "rounds", "slice_ms", "rows"] {
        assert!(run.get(field).is_some(), "missing {field}");
    }
    assert_eq!(run["rounds"], 3);
    let rows = run["rows"].as_array().unwrap();
    // BLAKE3: single, threads, batch; XXH3: single; at two sizes.
    assert_eq!(rows.len(), 2 * 4);
    for row in rows {
        for field in ["algorithm", "size", "mode", "threads", "batch_inputs", "backend"] {
            assert!(row.get(field).is_some(), "missing {field} in {row}");
        }
        for field in ["ns_per_op", "mb_per_s", "cycles_per_byte"] {
            assert!(row[field].as_f64().unwrap() > 0.0, "{field} in {row}");
        }
        assert!(row["noise"].as_f64().unwrap() >= 0.0);
        assert_eq!(row["rounds_ns"].as_array().unwrap().len(), 3);
        let mb = row["size"].as_f64().unwrap() / row["ns_per_op"].as_f64().unwrap() * 1e3;
        assert!((row["mb_per_s"].as_f64().unwrap() / mb - 1.0).abs() < 1e-9, "MB/s is 10^6 bytes per second");
    }
    let modes: Vec<&str> = rows.iter().map(|row| row["mode"].as_str().unwrap()).collect();
    assert_eq!(modes.iter().filter(|m| **m == "batch").count(), 2);
    assert_eq!(modes.iter().filter(|m| **m == "threads").count(), 2);
    let svg = String::from_utf8(dir.read("run.svg")).unwrap();
    assert!(svg.starts_with("<svg") && svg.contains("BLAKE3") && svg.contains("XXH3-64"), "{}", &svg[..200]);
}

#[test]
fn compare_flags_an_injected_slowdown_and_only_that() {
    let dir = Dir::new("compare_flags_an_injected_slowdown_and_only_that");
    ok(tiny_bench(&dir, &["--json", "base.json"]));
    // Measured again, 1000x slower: beyond any noise a 1 ms slice can have.
    let output = tiny_bench(&dir, &["--compare", "base.json", "--inject-slowdown", "1000"]);
    assert_eq!(code(&output), 3, "{}", stderr(&output));
    assert_eq!(stdout(&output).matches("REGRESSION").count(), 4, "{}", stdout(&output));
    // The saved run against itself: no change at all, nothing flagged.
    let same = dir.run(&["bench", "--current", "base.json", "--compare", "base.json"], b"");
    assert_eq!(code(&same), 0);
    assert!(!stdout(&same).contains("REGRESSION"));
    assert!(stdout(&same).contains("0 of 4 compared rows regressed"), "{}", stdout(&same));
    // A baseline edited to claim a 10x faster run: every row regresses.
    // Both files state a small noise, so the verdicts cannot depend on how
    // noisy the 1 ms measurement above happened to be.
    let mut base: serde_json::Value = serde_json::from_slice(&dir.read("base.json")).unwrap();
    for row in base["rows"].as_array_mut().unwrap() {
        row["noise"] = serde_json::json!(0.01);
    }
    dir.write("steady.json", base.to_string().as_bytes());
    for row in base["rows"].as_array_mut().unwrap() {
        let ns = row["ns_per_op"].as_f64().unwrap();
        row["ns_per_op"] = serde_json::json!(ns / 10.0);
    }
    dir.write("fast.json", base.to_string().as_bytes());
    let output = dir.run(&["bench", "--current", "steady.json", "--compare", "fast.json"], b"");
    assert_eq!(code(&output), 3);
    assert!(stdout(&output).contains("4 of 4 compared rows regressed"), "{}", stdout(&output));
    assert_eq!(stdout(&output).matches("REGRESSION").count(), 4);
    // And the other way round they got faster, which is no failure.
    let output = dir.run(&["bench", "--current", "fast.json", "--compare", "steady.json"], b"");
    assert_eq!(code(&output), 0);
    assert_eq!(stdout(&output).matches("faster").count(), 4);
}

#[test]
fn bad_bench_input_is_refused() {
    let dir = Dir::new("bad_bench_input_is_refused");
    for sizes in ["", "0", "64,,4K", "4 parsecs", "1G", "-1"] {
        let output = dir.run(&["bench", "--sizes", sizes], b"");
        assert_eq!(code(&output), 2, "--sizes {sizes:?}");
        assert!(stderr(&output).contains("--sizes"), "{}", stderr(&output));
    }
    for (flag, value) in [("--rounds", "0"), ("--slice-ms", "x"), ("--threads", "0")] {
        let output = dir.run(&["bench", flag, value], b"");
        assert_eq!(code(&output), 2, "{flag} {value}");
    }
    dir.write("not.json", b"{ not json");
    dir.write("wrong.json", br#"{"rows": [{"algorithm": "BLAKE3"}]}"#);
    dir.write(
        "negative.json",
        br#"{"version":"0","backend":"x","core_ghz":1,"threads":1,"rounds":1,"slice_ms":1,
        "rows":[{"algorithm":"BLAKE3","size":64,"mode":"single","threads":1,"batch_inputs":1,"ns_per_op":-5,
        "mb_per_s":1,"cycles_per_byte":1,"noise":0,"backend":"x","rounds_ns":[1]}]}"#,
    );
    for (file, message) in [
        ("not.json", "not valid JSON"),
        ("wrong.json", "missing"),
        ("negative.json", "must be positive"),
        ("absent.json", "reading"),
    ] {
        let output = dir.run(
            &["bench", "-a", "blake3", "--sizes", "64", "--rounds", "1", "--slice-ms", "1", "--compare", file],
            b"",
        );
        assert_eq!(code(&output), 2, "{file}");
        assert!(stderr(&output).contains(file) && stderr(&output).contains(message), "{}", stderr(&output));
    }
}

// ---------------------------------------------------------------- xxhsum

/// Where `make test` installs the Python `xxhash` package.
fn pydeps() -> PathBuf {
    vectors::pydeps(env!("CARGO_TARGET_TMPDIR"))
}

/// Writes check files in every xxhsum form (-H0 to -H3, GNU and --tag,
/// big- and little-endian tags) with an independent implementation, then
/// checks them, and compares our `sum` lines with the GNU ones.
#[test]
fn xxhsum_formats_from_an_independent_implementation() {
    let dir = Dir::new("xxhsum_formats_from_an_independent_implementation");
    let names = ["x1", "with space", "back\\slash", "two\nlines"];
    for (i, name) in names.iter().enumerate() {
        dir.write(name, &pattern(i * 3000 + 1, i as u8));
    }
    let script = r#"
import sys, xxhash
def esc(name):
    needs = any(c in name for c in '\\\n\r')
    out = name.replace('\\', '\\\\').replace('\n', '\\n').replace('\r', '\\r')
    return needs, out
algos = [('H0', 'XXH32', xxhash.xxh32, ''), ('H1', 'XXH64', xxhash.xxh64, ''),
         ('H2', 'XXH128', xxhash.xxh3_128, ''), ('H3', 'XXH3', xxhash.xxh3_64, 'XXH3_')]
for h, tag, fn, prefix in algos:
    gnu, bsd, le = [], [], []
    for name in sys.argv[1:]:
        digest = fn(open(name, 'rb').read()).digest()
        needs, shown = esc(name)
        lead = '\\' if needs else ''
        gnu.append(f'{lead}{prefix}{digest.hex()}  {shown}\n')
        bsd.append(f'{lead}{tag} ({shown}) = {digest.hex()}\n')
        le.append(f'{lead}{tag}_LE ({shown}) = {digest[::-1].hex()}\n')
    for kind, lines in (('gnu', gnu), ('bsd', bsd), ('le', le)):
        open(f'{h}.{kind}', 'w').write(''.join(lines))
"#;
    let python = Command::new("python3")
        .arg("-c")
        .arg(script)
        .args(names)
        .current_dir(&dir.path)
        .env("PYTHONPATH", pydeps())
        .output()
        .expect("python3 is needed for the xxhsum compatibility test");
    assert!(
        python.status.success(),
        "the Python xxhash package is missing: `make test` installs it into {} ({})",
        pydeps().display(),
        String::from_utf8_lossy(&python.stderr)
    );
    for (h, algorithm) in [("H0", "xxh32"), ("H1", "xxh64"), ("H2", "xxh128"), ("H3", "xxh3")] {
        for kind in ["gnu", "bsd", "le"] {
            let file = format!("{h}.{kind}");
            let out = ok(dir.run(&["check", &file], b""));
            assert_eq!(out.matches(": OK\n").count(), names.len(), "{file}: {out}");
        }
        let ours = ok(dir.run(&[&["sum", "-a", algorithm][..], &names].concat(), b""));
        assert_eq!(ours.as_bytes(), dir.read(&format!("{h}.gnu")), "{h}");
        let tagged = ok(dir.run(&[&["sum", "--tag", "-a", algorithm][..], &names].concat(), b""));
        assert_eq!(tagged.as_bytes(), dir.read(&format!("{h}.bsd")), "{h}");
    }
}

/// `s3sum`: the values of `chunkhash::s3_checksums` (compared there with composites
/// built part by part, and in the Python tests with hashlib, awscrt and
/// xxhash), printed as lines and as JSON; bad flags and files are errors.
#[test]
fn s3sum_lines_json_and_errors() {
    let dir = Dir::new("s3sum_lines_json_and_errors");
    dir.write("abc", b"abc");
    let lines = ok(dir.run(&["s3sum", "abc"], b""));
    assert_eq!(lines.lines().count(), 11, "{lines}");
    assert!(lines.contains("SHA256 (abc) = ungWv48Bz+pBQUDeXa4iI7ADYaOWF3qctBD/YfIAFa0=\n"), "{lines}");
    assert!(lines.contains("CRC32 (abc) = NSRBwg==\n"), "{lines}");
    assert!(lines.ends_with("ETag (abc) = \"900150983cd24fb0d6963f7d28e17f72\"\n"), "{lines}");
    // Standard input is a file like any other.
    assert_eq!(ok(dir.run(&["s3sum", "-"], b"abc")), lines.replace("(abc)", "(-)"));

    let json = ok(dir.run(&["s3sum", "--json", "--part-size", "2", "--algorithms", "crc32,sha256,etag", "abc"], b""));
    let value: serde_json::Value = serde_json::from_str(json.trim()).unwrap();
    assert_eq!(value["file"], "abc");
    assert_eq!(
        (value["size"].as_u64(), value["part_size"].as_u64(), value["parts"].as_u64()),
        (Some(3), Some(2), Some(2))
    );
    // Full-object CRC: the CRC of the whole file, as without parts.
    assert_eq!(value["checksums"]["ChecksumCRC32"], "NSRBwg==");
    assert!(value["checksums"]["ChecksumSHA256"].as_str().unwrap().ends_with("-2"));
    assert_eq!(value["checksums"].as_object().unwrap().len(), 2);
    assert!(value["ETag"].as_str().unwrap().ends_with("-2\""));

    for (args, says) in [
        (&["s3sum", "--algorithms", "crc32,sha384", "abc"][..], "unknown S3 checksum \"sha384\""),
        (&["s3sum", "--part-size", "0", "abc"], "the part size must be at least 1 byte"),
        (&["s3sum", "--part-size", "8 parsecs", "abc"], "--part-size"),
    ] {
        let output = dir.run(args, b"");
        assert_eq!((code(&output), stdout(&output).as_str()), (2, ""), "{args:?}");
        assert!(stderr(&output).contains(says), "{args:?}: {}", stderr(&output));
    }
    let output = dir.run(&["s3sum", "missing", "abc"], b"");
    assert_eq!(code(&output), 1);
    assert!(stderr(&output).contains("missing: No such file or directory"), "{}", stderr(&output));
    assert_eq!(stdout(&output), lines);
}

/// `s3sum --part-size` on a procfs file (its size says 0 bytes) reads its
/// bytes, as the same bytes piped give (review: it printed the empty
/// object's values).
#[test]
#[cfg(target_os = "linux")]
fn s3sum_parts_of_a_file_that_says_it_is_empty() {
    let dir = Dir::new("s3sum_parts_of_a_file_that_says_it_is_empty");
    let path = "/proc/version";
    let bytes = std::fs::read(path).unwrap();
    assert!(!bytes.is_empty() && std::fs::metadata(path).unwrap().len() == 0);
    let args = ["s3sum", "--json", "--part-size", "8MiB", path];
    let file: serde_json::Value = serde_json::from_str(ok(dir.run(&args, b"")).trim()).unwrap();
    let piped: serde_json::Value =
        serde_json::from_str(ok(dir.run(&["s3sum", "--json", "--part-size", "8MiB", "-"], &bytes)).trim()).unwrap();
    assert_eq!(file["size"], bytes.len(), "{file}");
    for key in ["checksums", "ETag", "parts"] {
        assert_eq!(file[key], piped[key], "{key}");
    }
}

/// `s3sum` on a file of several read buffers, whole and in parts, and on
/// the same bytes piped, equals `chunkhash::s3_checksums` fed them in one call (whose values the
/// library's and the Python tests compare with independent references).
#[test]
fn s3sum_equals_the_library() {
    use chunkhash::s3_checksums::{S3Checksum, S3Hasher};
    let dir = Dir::new("s3sum_equals_the_library");
    let data = vectors::input_pattern(9 << 20 | 12345);
    dir.write("big", &data);
    for part_size in [None, Some(5u64 << 20), Some(1 << 20)] {
        let mut args = vec!["s3sum", "--json", "big"];
        let size_text = part_size.map(|size| size.to_string());
        if let Some(text) = &size_text {
            args.extend(["--part-size", text]);
        }
        let json: serde_json::Value = serde_json::from_str(ok(dir.run(&args, b"")).trim()).unwrap();
        let mut hasher = match part_size {
            None => S3Hasher::new(&S3Checksum::ALL),
            Some(size) => S3Hasher::with_part_size(&S3Checksum::ALL, size).unwrap(),
        };
        hasher.update(&data);
        let sums = hasher.finalize();
        for (kind, value) in sums.values() {
            assert_eq!(json["checksums"][kind.field()], value, "{kind} {part_size:?}");
        }
        assert_eq!(json["ETag"], sums.etag());
        assert_eq!(json["parts"], sums.parts());
        // A file's parts are read side by side, a pipe's in order: the same values.
        args[2] = "-";
        let piped: serde_json::Value = serde_json::from_str(ok(dir.run(&args, &data)).trim()).unwrap();
        for key in ["checksums", "ETag", "parts", "size"] {
            assert_eq!(piped[key], json[key], "{key} {part_size:?}");
        }
    }
}
