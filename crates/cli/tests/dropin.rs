//! `chunkhash` as a drop-in for the real tools, compared with them where
//! `make test` installs them (coreutils, b3sum, xxhsum, openssl; see
//! `common::peer`): no false FAILED for any line a peer writes, xxhsum's
//! stdin, OpenSSL and one-space lines, the peers' option habits, names and
//! escapes, exit statuses, first-try help, and the README's claims.

mod common;

use common::*;
use std::path::Path;

/// Three small files, each test's listed files.
const FILES: [&str; 3] = ["f1", "f2", "f3"];

fn three_files(dir: &Dir) {
    for (i, name) in FILES.iter().enumerate() {
        dir.write(name, &pattern(1000 + 517 * i, i as u8));
    }
}

/// Runs a peer that must succeed; its stdout.
fn peer_ok(dir: &Dir, program: &Path, args: &[&str], stdin: &[u8]) -> Vec<u8> {
    let output = dir.run_peer(program, args, stdin);
    assert!(output.status.success(), "{} {args:?}: {}", program.display(), stderr(&output));
    output.stdout
}

/// The result lines of a check run (xxhsum also prints its summary on stdout).
fn results(output: &std::process::Output) -> String {
    stdout(output)
        .lines()
        .filter(|line| line.ends_with(": OK") || line.ends_with(": FAILED"))
        .map(|l| format!("{l}\n"))
        .collect()
}

fn with_files<'a>(args: &[&'a str]) -> Vec<&'a str> {
    [args, &FILES[..]].concat()
}

/// A check file a peer wrote: what wrote it, its bytes, and how the peer
/// checks it (program and arguments) where it can.
struct PeerFile {
    label: String,
    sums: Vec<u8>,
    checked_by: Option<(std::path::PathBuf, Vec<String>)>,
}

/// Check files as the peers write them: every BLAKE2b length b2sum gives,
/// BLAKE3 of several lengths (b3sum -l), xxhsum --little-endian, and
/// chunkhash's own `-l`; untagged and tagged.
fn peer_check_files(dir: &Dir) -> Vec<PeerFile> {
    let mut files = Vec::new();
    let coreutils = |name: &str| Path::new(name).to_path_buf();
    for bits in (8..=512).step_by(8) {
        let bits = bits.to_string();
        let sums = dir.tool("b2sum", &with_files(&["-l", &bits]));
        let check = Some((coreutils("b2sum"), vec!["-l".to_string(), bits.clone(), "-c".into()]));
        files.push(PeerFile { label: format!("b2sum -l {bits}"), sums, checked_by: check });
        if ["8", "128", "384"].contains(&bits.as_str()) {
            let tagged = dir.tool("b2sum", &with_files(&["--tag", "-l", &bits]));
            files.push(PeerFile { label: format!("b2sum --tag -l {bits}"), sums: tagged, checked_by: None });
        }
    }
    for len in ["1", "4", "8", "16", "20", "32", "33", "64", "100"] {
        let own = dir.run(&with_files(&["sum", "-l", len]), b"").stdout;
        files.push(PeerFile { label: format!("chunkhash sum -l {len}"), sums: own, checked_by: None });
        if let Some(b3sum) = b3sum() {
            let sums = peer_ok(dir, &b3sum, &with_files(&["-l", len]), b"");
            // b3sum checks only its default length.
            let check = (len == "32").then(|| (b3sum.clone(), vec!["-c".to_string()]));
            files.push(PeerFile { label: format!("b3sum -l {len}"), sums, checked_by: check });
        }
    }
    if let Some(xxhsum) = xxhsum() {
        for h in ["-H0", "-H1", "-H2", "-H3"] {
            let sums = peer_ok(dir, &xxhsum, &with_files(&[h, "--little-endian"]), b"");
            let check = Some((xxhsum.clone(), vec!["--little-endian".to_string(), "-c".into()]));
            files.push(PeerFile { label: format!("xxhsum {h} --little-endian"), sums, checked_by: check });
            let tagged = peer_ok(dir, &xxhsum, &with_files(&[h, "--tag", "--little-endian"]), b"");
            let label = format!("xxhsum {h} --tag --little-endian");
            files.push(PeerFile { label, sums: tagged, checked_by: None });
        }
    }
    files
}

/// Issue item 1: b2sum -l, b3sum -l, chunkhash's own -l and xxhsum's
/// little-endian lines all check; a changed file among them is FAILED (the
/// other lines fix the algorithm), and as the peers say it; a lone untagged
/// line that matches nothing is "cannot determine the algorithm", never
/// FAILED.
#[test]
fn lines_of_any_length_a_peer_writes_check_without_a_false_failed() {
    let dir = Dir::new("lines_of_any_length_a_peer_writes_check_without_a_false_failed");
    three_files(&dir);
    let files = peer_check_files(&dir);
    assert!(files.len() >= 64 + 3 + 9, "every b2sum length, and chunkhash's own");
    let all_ok = "f1: OK\nf2: OK\nf3: OK\n";
    for (i, PeerFile { label, sums, .. }) in files.iter().enumerate() {
        dir.write(format!("sums{i}"), sums);
        assert_eq!(ok(dir.run(&["check", &format!("sums{i}")], b"")), all_ok, "{label}");
    }
    dir.write("f1", b"changed");
    for (i, PeerFile { label, sums, checked_by }) in files.iter().enumerate() {
        let file = format!("sums{i}");
        let output = dir.run(&["check", &file], b"");
        assert_eq!((code(&output), stdout(&output).as_str()), (1, "f1: FAILED\nf2: OK\nf3: OK\n"), "{label}");
        if let Some((program, args)) = checked_by {
            let args: Vec<&str> = args.iter().map(String::as_str).chain([file.as_str()]).collect();
            let theirs = dir.run_peer(program, &args, b"");
            assert_eq!((code(&theirs), results(&theirs)), (1, stdout(&output)), "{label}: as the peer says it");
        }
        // The changed file's line alone: untagged, nothing can tell its
        // algorithm; tagged, the tag does.
        let first = sums.split(|&b| b == b'\n').next().unwrap();
        dir.write("alone", &[first, b"\n"].concat());
        let alone = dir.run(&["check", "alone"], b"");
        assert_eq!(code(&alone), 1, "{label}");
        let named = first.windows(4).any(|w| w == b") = ") || first.starts_with(b"XXH3_");
        if named {
            assert_eq!(stdout(&alone), "f1: FAILED\n", "{label}");
        } else {
            assert_eq!(stdout(&alone), "", "{label}: never FAILED");
            let message = stderr(&alone);
            assert!(message.contains("alone: 1: f1: cannot determine the algorithm (use -a)"), "{label}: {message}");
            assert!(message.contains("no properly formatted checksum lines found"), "{label}: {message}");
        }
    }
}

/// BLAKE2b of every length b2sum gives, written byte for byte as b2sum
/// writes it (-l counts bytes in chunkhash: -l 48 is b2sum's -l 384).
#[test]
fn blake2b_of_every_length_as_b2sum_writes_it() {
    let dir = Dir::new("blake2b_of_every_length_as_b2sum_writes_it");
    three_files(&dir);
    for bytes in 1..=64usize {
        let (bits, len) = ((8 * bytes).to_string(), bytes.to_string());
        for tag in [&[][..], &["--tag"]] {
            let theirs = dir.tool("b2sum", &with_files(&[tag, &["-l", &bits]].concat()));
            let ours = ok(dir.run(&with_files(&[&["sum", "-a", "blake2b", "-l", &len][..], tag].concat()), b""));
            assert_eq!(ours.as_bytes(), theirs, "-l {len} {tag:?}");
        }
    }
}

/// md5sum and sha1sum files, tagged and untagged, are checked (MD5 and
/// SHA-1 for compatibility), and `sum -a md5`/`-a sha1` writes what the
/// tools write; a changed file is FAILED.
#[test]
fn md5sum_and_sha1sum_files_are_checked() {
    let dir = Dir::new("md5sum_and_sha1sum_files_are_checked");
    three_files(&dir);
    for (tool, algorithm) in [("md5sum", "md5"), ("sha1sum", "sha1")] {
        for tag in [&[][..], &["--tag"]] {
            let theirs = dir.tool(tool, &with_files(tag));
            let ours = ok(dir.run(&with_files(&[&["sum", "-a", algorithm][..], tag].concat()), b""));
            assert_eq!(ours.as_bytes(), theirs, "{tool} {tag:?}");
            dir.write("sums", &theirs);
            let output = dir.run(&["check", "sums"], b"");
            assert_eq!(code(&output), 0, "{tool} {tag:?}: {}", stderr(&output));
            assert_eq!(stdout(&output).matches(": OK\n").count(), 3, "{tool} {tag:?}");
            dir.write(FILES[1], b"changed");
            let output = dir.run(&["check", "sums"], b"");
            assert_eq!(code(&output), 1, "{tool} {tag:?}");
            assert!(stdout(&output).contains(&format!("{}: FAILED", FILES[1])), "{tool} {tag:?}: {}", stdout(&output));
            three_files(&dir);
        }
    }
}

/// Many small files, hashed side by side through the batch path
/// (`digest_many`: SHA-256's multi-buffer lanes, MD5, SHA-1, SHA-512 and
/// BLAKE2b), give coreutils' lines in argument order: random lengths on and
/// around the block edges (0 to 4160 bytes), more files than one batch
/// holds, a big file (the streaming path) among them, on one thread and two.
#[test]
fn many_small_files_as_coreutils_hashes_them() {
    let dir = Dir::new("many_small_files_as_coreutils_hashes_them");
    let mut rng = vectors::TestRng::new(vectors::test_seed("many_small_files_as_coreutils_hashes_them", 34));
    let mut names = Vec::new();
    for i in 0..300 {
        let len = if i < 8 { [0, 1, 55, 56, 64, 119, 128, 4160][i] } else { rng.range(0..=4160) };
        let name = format!("s{i:03}");
        dir.write(&name, &rng.bytes(len));
        names.push(name);
        if i == 150 {
            dir.write("mid-big", &rng.bytes(70_000));
            names.push("mid-big".into());
        }
    }
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    for (tool, algorithm) in
        [("sha256sum", "sha256"), ("md5sum", "md5"), ("sha1sum", "sha1"), ("sha512sum", "sha512"), ("b2sum", "blake2b")]
    {
        let theirs = String::from_utf8(dir.tool(tool, &names)).unwrap();
        for threads in ["1", "2"] {
            let ours = ok(dir.run(&[&["sum", "-j", threads, "-a", algorithm][..], &names].concat(), b""));
            assert_eq!(ours, theirs, "{tool} -j {threads}");
        }
    }
}

/// cksum's algorithms chunkhash lacks are reported as unsupported, never
/// FAILED, whatever the files hold.
#[test]
fn sha384_and_sm3_files_are_unsupported_not_failed() {
    let dir = Dir::new("sha384_and_sm3_files_are_unsupported_not_failed");
    three_files(&dir);
    for (tool, args, says) in [
        ("cksum", &["-a", "sha384"][..], "SHA-384 is not supported"),
        ("cksum", &["-a", "sm3"], "SM3 is not supported"),
        ("sha384sum", &[], "such as SHA-384 (`sha384sum -c` checks it; chunkhash does not support it)"),
    ] {
        let sums = dir.tool(tool, &with_files(args));
        dir.write("sums", &sums);
        let output = dir.run(&["check", "sums"], b"");
        assert_eq!((code(&output), stdout(&output).as_str()), (1, ""), "{tool} {args:?}");
        assert_eq!(stderr(&output).matches(says).count(), 3, "{tool} {args:?}: {}", stderr(&output));
        assert!(!stderr(&output).contains("FAILED"), "{}", stderr(&output));
    }
}

/// Issue item 2: with an xxHash algorithm stdin is `stdin` in `sum` lines,
/// and a `stdin` line in `check` reads standard input, as xxhsum does; the
/// other algorithms keep `-`, as coreutils and b3sum.
#[test]
fn xxhsum_names_stdin_stdin_and_reads_it_back() {
    let dir = Dir::new("xxhsum_names_stdin_stdin_and_reads_it_back");
    let data = pattern(5000, 1);
    for (h, algorithm) in [("-H0", "xxh32"), ("-H1", "xxh64"), ("-H2", "xxh128"), ("-H3", "xxh3")] {
        for tag in [&[][..], &["--tag"]] {
            let ours = ok(dir.run(&[&["sum", "-a", algorithm][..], tag].concat(), &data));
            let expected = if tag.is_empty() { "  stdin\n" } else { " (stdin) = " };
            assert!(ours.contains(expected), "{ours}");
            // xxhsum 0.8.1 writes -H3 lines tagged by default, and does not
            // read the XXH3_ lines of 0.8.2+ (which chunkhash writes).
            let xxhsum = xxhsum().filter(|_| h != "-H3" || !tag.is_empty());
            if let Some(xxhsum) = &xxhsum {
                assert_eq!(ours.as_bytes(), peer_ok(&dir, xxhsum, &[&[h][..], tag].concat(), &data), "{h} {tag:?}");
                assert_eq!(ours.as_bytes(), peer_ok(&dir, xxhsum, &[&[h, "-"][..], tag].concat(), &data));
            }
            dir.write("sums", ours.as_bytes());
            assert_eq!(ok(dir.run(&["check", "sums"], &data)), "stdin: OK\n", "{algorithm} {tag:?}");
            // Other data: FAILED where the line names its algorithm; a lone
            // untagged line cannot tell it (xxhsum, which has only its
            // own algorithms, says FAILED: README "Choices").
            let changed = dir.run(&["check", "sums"], b"other");
            let named = !tag.is_empty() || algorithm == "xxh3";
            let failed = if named { "stdin: FAILED\n" } else { "" };
            assert_eq!((code(&changed), stdout(&changed).as_str()), (1, failed), "{algorithm} {tag:?}");
            if let Some(xxhsum) = &xxhsum {
                assert_eq!(results(&dir.run_peer(xxhsum, &["-c", "sums"], &data)), "stdin: OK\n");
                let theirs = dir.run_peer(xxhsum, &["-c", "sums"], b"other");
                if named {
                    assert_eq!(results(&theirs), failed, "{algorithm} {tag:?}");
                }
            }
            // The check lines on stdin cannot also name stdin's data.
            let piped = dir.run(&["check"], ours.as_bytes());
            assert_eq!(code(&piped), 1);
            assert!(stderr(&piped).contains("standard input is the check file"), "{}", stderr(&piped));
        }
    }
    assert_eq!(ok(dir.run(&["sum", "-a", "sha256"], &data)).as_bytes(), dir.run_peer("sha256sum", &[], &data).stdout);
    if let Some(b3sum) = b3sum() {
        assert_eq!(ok(dir.run(&["sum"], &data)).as_bytes(), peer_ok(&dir, &b3sum, &[], &data));
    }
}

/// Issue item 3: OpenSSL's `TAG(NAME)= HEX`, `openssl dgst -r`, and BSD's
/// one-space `HEX NAME`; one check file keeps one untagged form, as
/// coreutils requires, and the results are coreutils' own.
#[test]
fn openssl_and_one_space_lines() {
    let dir = Dir::new("openssl_and_one_space_lines");
    three_files(&dir);
    let all_ok = "f1: OK\nf2: OK\nf3: OK\n";
    if let Some(openssl) = openssl() {
        for digest in ["-sha256", "-sha512", "-blake2b512"] {
            for extra in [&[][..], &["-r"]] {
                let sums = peer_ok(&dir, &openssl, &with_files(&[&["dgst", digest][..], extra].concat()), b"");
                dir.write("sums", &sums);
                assert_eq!(ok(dir.run(&["check", "sums"], b"")), all_ok, "{digest} {extra:?}");
            }
        }
    }
    // OpenSSL 1.1 spells the tags `SHA256` and `BLAKE2b512`.
    let sha256 = String::from_utf8(dir.tool("sha256sum", &FILES)).unwrap();
    let openssl_1_1: String =
        sha256.lines().map(|line| format!("SHA256({})= {}\n", &line[66..], &line[..64])).collect();
    dir.write("openssl-1.1", openssl_1_1.as_bytes());
    assert_eq!(ok(dir.run(&["check", "openssl-1.1"], b"")), all_ok);
    // One space, and the two forms mixed both ways: as sha256sum -c says.
    let one_space = sha256.replace("  ", " ");
    let (first, rest) = sha256.split_once('\n').unwrap();
    let (first_one, rest_one) = one_space.split_once('\n').unwrap();
    for (label, sums) in [
        ("one space", one_space.clone()),
        ("two, then one", format!("{first}\n{rest_one}")),
        ("one, then two", format!("{first_one}\n{rest}")),
    ] {
        dir.write("sums", sums.as_bytes());
        let ours = dir.run(&["check", "--warn", "sums"], b"");
        let theirs = dir.run_peer("sha256sum", &["-c", "--warn", "sums"], b"");
        assert_eq!((code(&ours), &ours.stdout), (code(&theirs), &theirs.stdout), "{label}: {}", stdout(&theirs));
        let improper = |output| stderr(output).contains("improperly formatted");
        assert_eq!(improper(&ours), improper(&theirs), "{label}: {}", stderr(&ours));
    }
}

/// Issue item 4: a repeated option takes its last value; of --status,
/// --warn and --quiet the last wins (compared with sha256sum -c); -q is
/// accepted when hashing (xxhsum); --num-threads 0 is the default and
/// --raw wins over --tag (b3sum).
#[test]
fn options_behave_as_in_the_peers() {
    let dir = Dir::new("options_behave_as_in_the_peers");
    three_files(&dir);
    let run = |args: &[&str]| ok(dir.run(&with_files(args), b""));
    assert_eq!(run(&["sum", "-l", "32", "-l", "64"]), run(&["sum", "-l", "64"]));
    assert_eq!(run(&["sum", "-a", "sha256", "-a", "sha512"]).as_bytes(), dir.tool("sha512sum", &FILES));
    assert_eq!(
        run(&["sum", "--tag", "--tag", "-a", "sha256"]).as_bytes(),
        dir.tool("sha256sum", &with_files(&["--tag"]))
    );
    assert_eq!(run(&["sum", "-q"]), run(&["sum"]));
    assert_eq!(run(&["sum", "--quiet", "-a", "xxh64"]), run(&["sum", "-a", "xxh64"]));
    if let Some(xxhsum) = xxhsum() {
        assert_eq!(run(&["sum", "-q", "-a", "xxh64"]).as_bytes(), peer_ok(&dir, &xxhsum, &with_files(&["-q"]), b""));
    }
    assert_eq!(run(&["sum", "--num-threads", "0"]), run(&["sum"]));
    assert_eq!(run(&["sum", "-j", "0", "-j", "1"]), run(&["sum"]));
    let raw = dir.run(&["sum", "--raw", "--tag", "f1"], b"");
    assert_eq!((code(&raw), &raw.stdout), (0, &dir.run(&["sum", "--raw", "f1"], b"").stdout));
    if let Some(b3sum) = b3sum() {
        assert_eq!(run(&["sum"]).as_bytes(), peer_ok(&dir, &b3sum, &with_files(&["--num-threads", "0"]), b""));
        assert_eq!(raw.stdout, peer_ok(&dir, &b3sum, &["--raw", "--tag", "f1"], b""));
    }
    // A check file with a match, a mismatch and a bad line, under every
    // order of two of --status, --warn and --quiet.
    let sums = String::from_utf8(dir.tool("sha256sum", &FILES)).unwrap();
    dir.write("sums", format!("{sums}garbage\n").as_bytes());
    dir.write("f2", b"changed");
    for options in [
        ["--status", "--warn"],
        ["--warn", "--status"],
        ["--quiet", "--warn"],
        ["--warn", "--quiet"],
        ["--status", "--quiet"],
        ["--quiet", "--status"],
        ["--status", "--status"],
    ] {
        let ours = dir.run(&[&["check"][..], &options, &["sums"]].concat(), b"");
        let theirs = dir.run_peer("sha256sum", &[&["-c"][..], &options, &["sums"]].concat(), b"");
        assert_eq!((code(&ours), &ours.stdout), (code(&theirs), &theirs.stdout), "{options:?}");
        let warned = |output| stderr(output).contains("sums: 4: improperly formatted");
        assert_eq!(warned(&ours), warned(&theirs), "{options:?}: {}", stderr(&ours));
        assert_eq!(stderr(&ours).is_empty(), stderr(&theirs).is_empty(), "{options:?}: {}", stderr(&ours));
    }
}

/// Issue item 5: names as the peers write them. BLAKE3 lines write U+FFFD
/// for bytes that are not UTF-8, as b3sum (--raw-names: the bytes), and a
/// check line holding U+FFFD is refused as b3sum refuses it; backslash,
/// newline and carriage return are escaped as b3sum and coreutils write
/// them, results as b3sum shows them, and messages as results.
#[cfg(unix)]
#[test]
fn names_as_the_peers_write_them() {
    use std::ffi::OsStr;
    use std::os::unix::ffi::OsStrExt;
    let dir = Dir::new("names_as_the_peers_write_them");
    let odd = OsStr::from_bytes(b"caf\xe9");
    dir.write(odd, b"bytes");
    let mut sum = dir.command(env!("CARGO_BIN_EXE_chunkhash"), &["sum"]);
    let ours = sum.arg(odd).output().unwrap();
    assert!(ours.stdout.ends_with("  caf\u{FFFD}\n".as_bytes()), "{}", stdout(&ours));
    let mut raw_names = dir.command(env!("CARGO_BIN_EXE_chunkhash"), &["sum", "--raw-names"]);
    assert!(raw_names.arg(odd).output().unwrap().stdout.ends_with(b"  caf\xe9\n"));
    dir.write("replacement", &ours.stdout);
    let refused = dir.run(&["check", "replacement"], b"");
    assert_eq!((code(&refused), stdout(&refused).as_str()), (1, ""));
    assert!(stderr(&refused).contains("U+FFFD"), "{}", stderr(&refused));
    if let Some(b3sum) = b3sum() {
        let mut theirs = std::process::Command::new(&b3sum);
        let theirs = theirs.arg(odd).current_dir(&dir.path).output().unwrap();
        assert_eq!(ours.stdout, theirs.stdout);
        assert_eq!(code(&dir.run_peer(&b3sum, &["-c", "replacement"], b"")), 1, "b3sum refuses it too");
    }

    let names = ["back\\slash", "new\nline", "car\rriage", "plain"];
    for (i, name) in names.iter().enumerate() {
        dir.write(name, &pattern(100 + i, 7));
    }
    let ours = ok(dir.run(&[&["sum"][..], &names].concat(), b""));
    assert_eq!(ours.lines().count(), names.len());
    let sha = ok(dir.run(&[&["sum", "-a", "sha256"][..], &names].concat(), b""));
    assert_eq!(sha.as_bytes(), dir.tool("sha256sum", &names));
    dir.write("sums", ours.as_bytes());
    let checked = ok(dir.run(&["check", "sums"], b""));
    assert_eq!(checked, "\\back\\\\slash: OK\n\\new\\nline: OK\n\\car\\rriage: OK\nplain: OK\n");
    if let Some(b3sum) = b3sum() {
        assert_eq!(ours.as_bytes(), peer_ok(&dir, &b3sum, &names, b""));
        assert_eq!(checked.as_bytes(), peer_ok(&dir, &b3sum, &["-c", "sums"], b""));
    }
    // Messages show names as results do.
    std::fs::remove_file(dir.path.join("new\nline")).unwrap();
    let missing = dir.run(&["check", "sums"], b"");
    assert!(stdout(&missing).contains("\\new\\nline: FAILED open or read\n"), "{}", stdout(&missing));
    assert!(stderr(&missing).starts_with("chunkhash: \\new\\nline: No such file or directory\n"));
    let missing = dir.run(&["sum", "new\nline"], b"");
    assert_eq!(stderr(&missing), "chunkhash: \\new\\nline: No such file or directory\n");
}

/// Issue item 6: a check file with no properly formatted line exits 1, as
/// coreutils, b3sum and xxhsum do, and so does --strict with a bad line;
/// 2 is for bad usage only.
#[test]
fn exit_statuses_as_the_peers() {
    let dir = Dir::new("exit_statuses_as_the_peers");
    three_files(&dir);
    dir.write("junk", b"junk\nmore junk\n");
    let mut peers: Vec<(std::path::PathBuf, &[&str])> = vec![("sha256sum".into(), &[])];
    peers.extend(b3sum().map(|b3sum| (b3sum, &[][..])));
    peers.extend(xxhsum().map(|xxhsum| (xxhsum, &[][..])));
    let ours = dir.run(&["check", "junk"], b"");
    assert_eq!(code(&ours), 1);
    for (peer, args) in &peers {
        let theirs = dir.run_peer(peer, &[&args[..], &["-c", "junk"]].concat(), b"");
        assert_eq!(code(&theirs), code(&ours), "{}", peer.display());
    }
    let sums = String::from_utf8(dir.tool("sha256sum", &FILES)).unwrap();
    dir.write("strict", format!("{sums}junk\n").as_bytes());
    for strict in [&[][..], &["--strict"]] {
        let ours = dir.run(&[&["check"][..], strict, &["strict"]].concat(), b"");
        let theirs = dir.run_peer("sha256sum", &[&["-c"][..], strict, &["strict"]].concat(), b"");
        assert_eq!((code(&ours), &ours.stdout), (code(&theirs), &theirs.stdout), "{strict:?}");
    }
    for usage in [&["check", "--no-such-flag"][..], &["sum", "-a", "md4", "f1"], &["check", "--strict", "-a", "x"]] {
        assert_eq!(code(&dir.run(usage, b"")), 2, "{usage:?}");
    }
}

/// Issue item 7: `chunkhash FILE` is `chunkhash sum FILE`; an unknown word
/// says how to hash; -l errors name the lengths that work; a conflict's
/// usage line does not make -a look required.
#[test]
fn first_try_help() {
    let dir = Dir::new("first_try_help");
    three_files(&dir);
    assert_eq!(ok(dir.run(&FILES, b"")), ok(dir.run(&with_files(&["sum"]), b"")));
    assert_eq!(ok(dir.run(&with_files(&["-a", "sha256"]), b"")).as_bytes(), dir.tool("sha256sum", &FILES));
    let sums = ok(dir.run(&FILES, b""));
    dir.write("sums", sums.as_bytes());
    assert_eq!(ok(dir.run(&["-c", "sums"], b"")), "f1: OK\nf2: OK\nf3: OK\n");
    let typo = dir.run(&["frobnicate"], b"");
    assert_eq!(code(&typo), 2);
    assert!(stderr(&typo).contains("to hash files: chunkhash sum FILE"), "{}", stderr(&typo));
    for (args, says) in [
        (&["sum", "-a", "blake2b", "-l", "65", "f1"][..], "BLAKE2b gives 1 to 64 bytes"),
        (&["sum", "-a", "sha256", "-l", "48", "f1"], "SHA-256 gives 32 bytes only"),
        (&["sum", "-a", "xxh64", "-l", "0", "f1"], "BLAKE2b 1 to 64"),
    ] {
        let output = dir.run(args, b"");
        assert_eq!(code(&output), 2, "{args:?}");
        assert!(stderr(&output).contains(says), "{args:?}: {}", stderr(&output));
    }
    for conflict in
        [&["sum", "-a", "sha256", "-c", "--tag", "f1"][..], &["sum", "-a", "sha256", "--keyed", "--derive-key", "x"]]
    {
        let output = dir.run(conflict, b"");
        assert_eq!(code(&output), 2, "{conflict:?}");
        let usage = stderr(&output).lines().find(|line| line.starts_with("Usage:")).unwrap().to_string();
        assert_eq!(usage, "Usage: chunkhash sum [OPTIONS] [FILE]...", "{}", stderr(&output));
    }
}

/// Issue item 8: what the command's README says of the peers is what they do.
#[test]
fn the_readme_says_what_the_peers_do() {
    let readme = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md")).unwrap();
    assert!(!readme.contains("b3sum escapes the first two"));
    assert!(readme.contains("b3sum 1.8.7 escapes all three"), "the escape claim");
    assert!(readme.contains("b3sum exits 1"), "the --keyed claim");
    assert!(readme.contains("xxhsum 0.8.2+") && readme.contains("Debian 12 ships 0.8.1"), "the xxhsum version");
    let dir = Dir::new("the_readme_says_what_the_peers_do");
    dir.write("car\rriage", b"x");
    dir.write("a", b"x");
    if let Some(b3sum) = b3sum() {
        let escaped = peer_ok(&dir, &b3sum, &["car\rriage"], b"");
        assert!(escaped.starts_with(b"\\") && escaped.ends_with(b"  car\\rriage\n"));
        assert_eq!(code(&dir.run_peer(&b3sum, &["--keyed", "a"], &[0u8; 31])), 1);
    }
    if let Some(xxhsum) = xxhsum() {
        // chunkhash writes xxhsum 0.8.2+'s lines; 0.8.1 writes -H3 tagged.
        let version = dir.run_peer(&xxhsum, &["-V"], b"");
        let version = format!("{}{}", stdout(&version), stderr(&version));
        let theirs = peer_ok(&dir, &xxhsum, &["-H3", "a"], b"");
        let ours = ok(dir.run(&["sum", "-a", "xxh3", "a"], b""));
        if version.contains(" 0.8.1 ") {
            assert!(theirs.starts_with(b"XXH3 (a) = ") && ours.starts_with("XXH3_"), "{ours}");
        } else {
            assert_eq!(ours.as_bytes(), theirs, "{version}");
        }
    }
}
