//! `chunkhash bao` against the `bao` crate's output bytes (the formats the
//! `bao` command writes: combined encodings, outboards, slices), the
//! decoders' output, exit codes and errors, and the chunk-group options
//! against the library.

mod common;

use chunkhash::blake3::{self, bao};
use common::*;
use std::io::{Cursor, Read};
use vectors::{test_seed, TestRng};

fn bao_slice(encoded: &[u8], start: u64, count: u64) -> Vec<u8> {
    let mut slice = Vec::new();
    ::bao::encode::SliceExtractor::new(Cursor::new(encoded), start, count).read_to_end(&mut slice).unwrap();
    slice
}

/// The `bao` crate's combined encoding and outboard of `input`, and its
/// hash in hex.
fn bao_outputs(input: &[u8]) -> (Vec<u8>, Vec<u8>, String) {
    let (encoded, hash) = ::bao::encode::encode(input);
    let (outboard, _) = ::bao::encode::outboard(input);
    (encoded, outboard, hash.to_hex().to_string())
}

#[test]
fn bao_subcommands_write_the_bao_crates_bytes() {
    let dir = Dir::new("bao_subcommands_write_the_bao_crates_bytes");
    let mut rng = TestRng::new(test_seed("bao_subcommands_write_the_bao_crates_bytes", 40));
    // 2 MiB + 5: `hash` reads in 1 MiB pieces.
    for len in [0usize, 1, 1024, 1025, 3 * 1024 + 7, 70_000, (2 << 20) + 5] {
        let input = rng.bytes(len);
        let (encoded, outboard, hex) = bao_outputs(&input);
        dir.write("in", &input);
        assert_eq!(ok(dir.run(&["bao", "hash", "in"], b"")), format!("{hex}\n"));
        assert_eq!(ok(dir.run(&["bao", "hash"], &input)), format!("{hex}\n"));
        // encode to a file and to stdout, the outboard to a file.
        ok(dir.run(&["bao", "encode", "in", "enc"], b""));
        assert!(dir.read("enc") == encoded, "encode, len {len}");
        assert!(dir.run(&["bao", "encode", "-"], &input).stdout == encoded);
        ok(dir.run(&["bao", "encode", "in", "--outboard", "obao"], b""));
        assert!(dir.read("obao") == outboard, "outboard, len {len}");
        // decode: whole, a range, with the outboard.
        assert!(dir.run(&["bao", "decode", &hex, "enc"], b"").stdout == input);
        assert!(dir.run(&["bao", "decode", &hex], &encoded).stdout == input);
        let (start, count) = (len as u64 / 3, 2000u64);
        let part = &input[(start as usize).min(len)..((start + count) as usize).min(len)];
        let (s, c) = (start.to_string(), count.to_string());
        assert!(dir.run(&["bao", "decode", &hex, "enc", "--start", &s, "--count", &c], b"").stdout == part);
        assert!(dir.run(&["bao", "decode", &hex, "in", "--outboard", "obao"], b"").stdout == input);
        // slice from the encoding and from the outboard; decode-slice of bao's.
        let slice = bao_slice(&encoded, start, count);
        assert!(dir.run(&["bao", "slice", &s, &c, "enc"], b"").stdout == slice, "slice, len {len}");
        assert!(dir.run(&["bao", "slice", &s, &c, "in", "--outboard", "obao"], b"").stdout == slice);
        dir.write("slice", &slice);
        assert!(dir.run(&["bao", "decode-slice", &hex, &s, &c, "slice"], b"").stdout == part);
        assert!(dir.run(&["bao", "decode-slice", &hex, &s, &c], &slice).stdout == part);
    }
}

#[test]
fn bao_decoding_damage_exits_1_after_only_verified_bytes() {
    let dir = Dir::new("bao_decoding_damage_exits_1_after_only_verified_bytes");
    let input = vectors::bao_input(50_000);
    let (mut encoded, hash) = ::bao::encode::encode(&input);
    let hex = hash.to_hex().to_string();
    // Damage in the last chunk: the chunks before it come out, then the error.
    let last = encoded.len() - 10;
    encoded[last] ^= 1;
    dir.write("enc", &encoded);
    let output = dir.run(&["bao", "decode", &hex, "enc"], b"");
    assert_eq!(code(&output), 1);
    assert!(stderr(&output).starts_with("chunkhash: bao: "), "{}", stderr(&output));
    assert!(stderr(&output).contains("does not verify"), "{}", stderr(&output));
    assert!(!output.stdout.is_empty() && input.starts_with(&output.stdout));
    // Truncated, another hash, a missing file: exit 1; bad arguments: exit 2.
    assert_eq!(code(&dir.run(&["bao", "decode", &hex], &encoded[..100])), 1);
    assert_eq!(code(&dir.run(&["bao", "decode", &blake3::hash(b"x").to_hex(), "enc"], b"")), 1);
    assert_eq!(code(&dir.run(&["bao", "decode", &hex, "missing"], b"")), 1);
    assert_eq!(code(&dir.run(&["bao", "decode", "nothex", "enc"], b"")), 2);
    assert_eq!(code(&dir.run(&["bao", "--group-size", "3000", "hash"], b"")), 2);
    assert_eq!(code(&dir.run(&["bao", "encode", "enc", "out", "--outboard", "ob"], b"")), 1);
}

#[test]
fn bao_group_size_and_post_order_match_the_library() {
    let dir = Dir::new("bao_group_size_and_post_order_match_the_library");
    let input = vectors::bao_input(200_000);
    dir.write("in", &input);
    let tree = bao::Tree::new(bao::Mode::hash(), 4).unwrap();
    for (order, flag) in [(bao::Order::Pre, None), (bao::Order::Post, Some("--post-order"))] {
        let mut args = vec!["bao", "--group-size", "16KiB", "encode", "in", "--outboard", "ob"];
        args.extend(flag);
        ok(dir.run(&args, b""));
        assert!(dir.read("ob") == tree.outboard(&input, order).bao_bytes());
        let hex = blake3::hash(&input).to_hex().to_string();
        let mut args = vec![
            "bao",
            "--group-size",
            "16KiB",
            "decode",
            &hex,
            "in",
            "--outboard",
            "ob",
            "--start",
            "100000",
            "--count",
            "5",
        ];
        args.extend(flag);
        assert!(dir.run(&args, b"").stdout == input[100_000..100_005]);
    }
    let (_, encoded) = tree.encode(&input);
    assert!(dir.run(&["bao", "--group-size", "16K", "encode", "in"], b"").stdout == encoded);
}

#[test]
fn bao_encode_through_temporary_files_and_outboards_that_do_not_fit() {
    let dir = Dir::new("bao_encode_through_temporary_files_and_outboards_that_do_not_fit");
    let input = vectors::bao_input(300_000);
    dir.write("in", &input);
    let (encoded, hash) = ::bao::encode::encode(&input);
    let (outboard, _) = ::bao::encode::outboard(&input);
    // Standard input (an outboard through post-order nodes, the encoding
    // through a copy of the input) and standard output (written whole
    // from a temporary file), in both orders and two group sizes.
    ok(dir.run(&["bao", "encode", "-", "enc"], &input));
    assert!(dir.read("enc") == encoded);
    assert!(dir.run(&["bao", "encode", "in", "--outboard", "-"], b"").stdout == outboard);
    assert!(dir.run(&["bao", "encode", "-", "--outboard=-"], &input).stdout == outboard);
    for group_log in [0, 4] {
        let tree = bao::Tree::new(bao::Mode::hash(), group_log).unwrap();
        let size = format!("{}", 1024 << group_log);
        for order in [bao::Order::Pre, bao::Order::Post] {
            let mut args = vec!["bao", "--group-size", &size, "encode", "-", "--outboard", "ob"];
            if order == bao::Order::Post {
                args.push("--post-order");
            }
            ok(dir.run(&args, &input));
            assert!(dir.read("ob") == tree.outboard(&input, order).bao_bytes(), "{args:?}");
            std::fs::remove_file(dir.path.join("ob")).unwrap();
        }
    }
    // OUTPUT (or the outboard) naming INPUT: an error, INPUT untouched.
    for args in [&["bao", "encode", "in", "./in"][..], &["bao", "encode", "in", "--outboard", "in"]] {
        let output = dir.run(args, b"");
        assert_eq!(code(&output), 1, "{args:?}");
        assert!(stderr(&output).contains("the input and the output are the same file"), "{}", stderr(&output));
        assert!(dir.read("in") == input);
    }
    let mut names: Vec<_> = std::fs::read_dir(&dir.path).unwrap().map(|e| e.unwrap().file_name()).collect();
    names.sort();
    assert_eq!(names, ["enc", "in"], "no temporary file is left");

    // Decoding with a pre-order outboard streams INPUT (here standard input
    // too) beside it; any length that does not fit is an error.
    dir.write("obao", &outboard);
    let hex = hash.to_hex().to_string();
    assert!(dir.run(&["bao", "decode", &hex, "--outboard", "obao"], &input).stdout == input);
    let fails = |args: &[&str], stdin: &[u8], message: &str| {
        let output = dir.run(args, stdin);
        assert_eq!(code(&output), 1, "{args:?}");
        assert!(stderr(&output).contains(message), "{args:?}: {}", stderr(&output));
    };
    let decode = ["bao", "decode", &hex, "--outboard", "obao"];
    fails(&decode, &input[..1000], "standard input: shorter than the outboard's 300000 bytes");
    fails(&decode, &[&input[..], b"x"].concat(), "standard input: longer than the outboard's 300000 bytes");
    dir.write("short", &input[..1000]);
    fails(
        &["bao", "decode", &hex, "short", "--outboard", "obao"],
        b"",
        "the outboard is of 300000 bytes, the input of 1000",
    );
    dir.write("cut", &outboard[..outboard.len() - 1]);
    fails(&["bao", "decode", &hex, "in", "--outboard", "cut"], b"", "cut: shorter than a 300000-byte input needs");
    dir.write("long", &[&outboard[..], &[0]].concat());
    fails(&["bao", "decode", &hex, "in", "--outboard", "long"], b"", "long: longer than a 300000-byte input needs");

    // Decoding into INPUT or the outboard: an error, both untouched.
    dir.write("enc", &encoded);
    let same = "the input and the output are the same file";
    fails(&["bao", "decode", &hex, "in", "./in", "--outboard", "obao"], b"", same);
    fails(&["bao", "decode", &hex, "in", "obao", "--outboard", "obao"], b"", same);
    fails(&["bao", "decode", &hex, "enc", "./enc"], b"", same);
    let slice = bao_slice(&encoded, 1000, 2000);
    dir.write("slice", &slice);
    fails(&["bao", "decode-slice", &hex, "1000", "2000", "slice", "slice"], b"", same);
    assert!(dir.read("in") == input && dir.read("obao") == outboard && dir.read("enc") == encoded);
    assert!(dir.read("slice") == slice);
}

/// A command that fails part way (here its output outgrows the file size
/// limit, as on a full disk; or its input grows while it is read) leaves
/// OUTPUT as it was: absent, or the user's old file untouched, and no
/// temporary file. One that succeeds replaces OUTPUT, keeping its
/// permissions, and writes through a symbolic link.
#[cfg(unix)]
#[test]
fn bao_failures_leave_output_as_it_was() {
    use std::os::unix::fs::{symlink, PermissionsExt};
    let dir = Dir::new("bao_failures_leave_output_as_it_was");
    let input = vectors::bao_input(1_000_000);
    let (encoded, outboard, hex) = bao_outputs(&input);
    dir.write("in", &input);
    dir.write("enc", &encoded);
    dir.write("obao", &outboard);
    dir.write("slice", &bao_slice(&encoded, 0, 1_000_000));
    let runs: [&[&str]; 8] = [
        &["bao", "encode", "in", "OUT"],
        &["bao", "encode", "in", "--outboard", "OUT"],
        &["bao", "encode", "-", "OUT"],
        &["bao", "encode", "-", "--outboard", "OUT"],
        &["bao", "decode", &hex, "enc", "OUT"],
        &["bao", "decode", &hex, "in", "OUT", "--outboard", "obao"],
        &["bao", "slice", "0", "1000000", "enc", "OUT"],
        &["bao", "decode-slice", &hex, "0", "1000000", "slice", "OUT"],
    ];
    let names = || {
        let mut names: Vec<_> = std::fs::read_dir(&dir.path).unwrap().map(|e| e.unwrap().file_name()).collect();
        names.sort();
        names
    };
    let before = names();
    for args in runs {
        for old in [None, Some(&b"the user's file"[..])] {
            let _ = std::fs::remove_file(dir.path.join("OUT"));
            if let Some(old) = old {
                dir.write("OUT", old);
            }
            // Writes past 40 blocks (20 KiB or 40 KiB) fail with EFBIG
            // (SIGXFSZ ignored), as writes to a full disk fail.
            let script = "trap '' XFSZ; ulimit -f 40; exec \"$0\" \"$@\"";
            let mut command = dir.command("sh", &["-c", script, env!("CARGO_BIN_EXE_chunkhash")]);
            command.args(args);
            let output = run_with_stdin(command, &input);
            assert_eq!(code(&output), 1, "{args:?}: {}", stderr(&output));
            match old {
                Some(old) => assert!(dir.read("OUT") == old, "{args:?}: the old OUTPUT changed"),
                None => assert!(!dir.path.join("OUT").exists(), "{args:?}: a partial OUTPUT is left"),
            }
            let mut expected = before.clone();
            if old.is_some() {
                expected.push("OUT".into());
                expected.sort();
            }
            assert_eq!(names(), expected, "{args:?}: no temporary file is left");
        }
    }
    // Linux: /proc files say they have no bytes, then give some.
    #[cfg(target_os = "linux")]
    for args in
        [&["bao", "encode", "/proc/self/status", "OUT"][..], &["bao", "encode", "/proc/self/status", "--outboard=OUT"]]
    {
        let _ = std::fs::remove_file(dir.path.join("OUT"));
        let output = dir.run(args, b"");
        assert!(stderr(&output).contains("grew while it was read"), "{args:?}: {}", stderr(&output));
        assert!(!dir.path.join("OUT").exists(), "{args:?}: a partial OUTPUT is left");
    }
    // Success replaces the file, keeping its mode, and follows a link.
    dir.write("OUT", b"old");
    std::fs::set_permissions(dir.path.join("OUT"), std::fs::Permissions::from_mode(0o640)).unwrap();
    symlink("OUT", dir.path.join("LINK")).unwrap();
    ok(dir.run(&["bao", "encode", "in", "LINK"], b""));
    assert!(dir.read("OUT") == encoded);
    assert!(std::fs::symlink_metadata(dir.path.join("LINK")).unwrap().file_type().is_symlink());
    assert_eq!(std::fs::metadata(dir.path.join("OUT")).unwrap().permissions().mode() & 0o777, 0o640);
}

/// `--outboard -`: the outboard from standard input, beside an INPUT file;
/// with INPUT standard input too, a clear error.
#[test]
fn bao_outboard_from_standard_input() {
    let dir = Dir::new("bao_outboard_from_standard_input");
    let input = vectors::bao_input(300_000);
    let (encoded, outboard, hex) = bao_outputs(&input);
    dir.write("in", &input);
    let decoded = dir.run(&["bao", "decode", &hex, "in", "--outboard", "-"], &outboard);
    assert!(decoded.status.success(), "{}", stderr(&decoded));
    assert!(decoded.stdout == input);
    let part = dir.run(&["bao", "decode", &hex, "in", "--outboard=-", "--start", "1000", "--count", "2000"], &outboard);
    assert!(part.status.success(), "{}", stderr(&part));
    assert!(part.stdout == input[1000..3000]);
    let slice = dir.run(&["bao", "slice", "1000", "2000", "in", "--outboard", "-"], &outboard);
    assert!(slice.stdout == bao_slice(&encoded, 1000, 2000), "{}", stderr(&slice));
    // Damage in the outboard from standard input is caught.
    let mut bad = outboard.clone();
    bad[100] ^= 1;
    assert_eq!(code(&dir.run(&["bao", "decode", &hex, "in", "--outboard", "-"], &bad)), 1);
    let both = "INPUT and --outboard cannot both be standard input";
    for args in [
        &["bao", "decode", &hex, "--outboard", "-"][..],
        &["bao", "decode", &hex, "-", "--outboard", "-"],
        &["bao", "decode", &hex, "-", "out", "--outboard", "-", "--start", "5", "--count", "5"],
        &["bao", "slice", "0", "10", "--outboard", "-"],
    ] {
        let output = dir.run(args, &outboard);
        assert_eq!(code(&output), 1, "{args:?}");
        assert!(stderr(&output).contains(both), "{args:?}: {}", stderr(&output));
        assert!(output.stdout.is_empty());
    }
    assert!(!dir.path.join("out").exists());
}

/// The combined encoding of standard input to standard output (or a
/// device) takes one copy of the input and an outboard, not a second copy
/// of the whole encoding: it fits where no file may be as large as the
/// encoding (`ulimit -f`, in POSIX's 512-byte blocks).
#[cfg(unix)]
#[test]
fn bao_encode_of_standard_input_to_standard_output_copies_it_once() {
    let dir = Dir::new("bao_encode_of_standard_input_to_standard_output_copies_it_once");
    let input = vectors::bao_input(100 << 10);
    let (encoded, _) = ::bao::encode::encode(&input);
    // Files up to 210 blocks (107520 bytes): the input's copy, not the encoding.
    assert!(input.len() <= 210 * 512 && encoded.len() > 210 * 512);
    let script = "trap '' XFSZ; ulimit -f 210; exec \"$0\" \"$@\"";
    for output in [None, Some("/dev/stdout")] {
        let mut command = dir.command("sh", &["-c", script, env!("CARGO_BIN_EXE_chunkhash"), "bao", "encode", "-"]);
        command.args(output).env("TMPDIR", &dir.path);
        let run = run_with_stdin(command, &input);
        assert!(run.status.success(), "{output:?}: {}", stderr(&run));
        assert!(run.stdout == encoded, "{output:?}");
    }
    assert_eq!(std::fs::read_dir(&dir.path).unwrap().count(), 0, "no temporary file is left");
    let tree = bao::Tree::new(bao::Mode::hash(), 4).unwrap();
    assert!(dir.run(&["bao", "--group-size", "16KiB", "encode", "-"], &input).stdout == tree.encode(&input).1);
}
