//! `chunkhash bao` on large sparse files (issue 33): encoding and outboard
//! creation in bounded memory (each child's peak RSS, far below the file's
//! size), and a message past 4 GiB (the 8-byte length header, a whole
//! verify, a slice across the 4 GiB boundary) against the official
//! `blake3` crate.
//!
//! Linux only (`wait4`'s `ru_maxrss`, in KiB). A file system without
//! sparse files skips both tests with a message on stderr, and fails them
//! when `CHUNKHASH_REQUIRE_SPARSE` is set. Optimised like every test
//! (`[profile.test]`).

#![cfg(target_os = "linux")]

mod common;

use common::*;
use std::fs::{self, File};
use std::io::{Read, Seek, SeekFrom, Write};
use std::os::unix::fs::MetadataExt;
use std::path::Path;
use std::process::Stdio;
use std::sync::Mutex;

/// One test at a time: two cores, gigabytes each.
static SERIAL: Mutex<()> = Mutex::new(());

const GIB: u64 = 1 << 30;

/// A sparse file of `len` bytes, zero but for `marks`; `None` (with a
/// message, or a failure when sparse files are required) where the file
/// system stores the zeros.
fn sparse(path: &Path, len: u64, marks: &[(u64, &[u8])]) -> Option<()> {
    let mut file = File::create(path).unwrap();
    file.set_len(len).unwrap();
    for (at, bytes) in marks {
        file.seek(SeekFrom::Start(*at)).unwrap();
        file.write_all(bytes).unwrap();
    }
    drop(file);
    let stored = fs::metadata(path).unwrap().blocks() * 512;
    if stored < 64 << 20 {
        return Some(());
    }
    fs::remove_file(path).unwrap();
    let message = format!("{}: the file system stored {stored} bytes of a sparse file", path.display());
    assert!(std::env::var_os("CHUNKHASH_REQUIRE_SPARSE").is_none(), "{message}");
    eprintln!("SKIPPED: {message}; no sparse files here");
    None
}

/// Runs chunkhash with `args` in `dir` (standard input from `stdin`),
/// which must succeed; its peak RSS in bytes.
fn run_measured(dir: &Dir, args: &[&str], stdin: Option<File>) -> u64 {
    #[allow(clippy::zombie_processes)] // reaped by wait4 below, which gives its rusage
    let child = dir
        .command(env!("CARGO_BIN_EXE_chunkhash"), args)
        .stdin(stdin.map_or(Stdio::null(), Stdio::from))
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    let pid = child.id() as libc::pid_t;
    let mut status = 0;
    let mut usage = std::mem::MaybeUninit::<libc::rusage>::zeroed();
    // SAFETY: `status` and `usage` are valid and writable; `pid` is our
    // child, not yet waited for (std's `Child` never waits unless asked).
    let waited = unsafe { libc::wait4(pid, &mut status, 0, usage.as_mut_ptr()) };
    assert_eq!(waited, pid);
    assert!(libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0, "{args:?}: status {status:#x}");
    // SAFETY: wait4 succeeded, so it filled `usage` (zeroed before anyway).
    let usage = unsafe { usage.assume_init() };
    usage.ru_maxrss as u64 * 1024
}

/// Bytes `range` of a sparse file of `len` bytes: zeros and `marks`.
fn expected(len: u64, marks: &[(u64, &[u8])], range: std::ops::Range<u64>) -> Vec<u8> {
    let mut out = vec![0u8; (range.end.min(len) - range.start) as usize];
    for (at, bytes) in marks {
        for (i, byte) in bytes.iter().enumerate() {
            let at = at + i as u64;
            if range.contains(&at) {
                out[(at - range.start) as usize] = *byte;
            }
        }
    }
    out
}

fn size(dir: &Dir, name: &str) -> u64 {
    fs::metadata(dir.path.join(name)).unwrap().len()
}

/// Encoding (combined, both outboard orders, larger groups, standard
/// input) keeps each child's peak RSS far below the 256 MiB input (an
/// eighth: 32 MiB; about 11 MiB measured); the old in-memory encoder needed
/// more than the input (twice it for the combined encoding).
#[test]
fn bao_encode_runs_in_bounded_memory() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let dir = Dir::new("bao_encode_runs_in_bounded_memory");
    let len = GIB / 4;
    let marks: [(u64, &[u8]); 2] = [(0, b"start"), (len - 3, b"end")];
    if sparse(&dir.path.join("big"), len, &marks).is_none() {
        return;
    }
    let limit = len / 8;
    let nodes = (len / 1024 - 1) * 64;
    let runs: [(&[&str], &str, u64); 4] = [
        (&["bao", "encode", "big", "big.bao"], "big.bao", 8 + len + nodes),
        (&["bao", "encode", "big", "--outboard", "big.obao"], "big.obao", 8 + nodes),
        (&["bao", "--post-order", "encode", "big", "--outboard=big.post"], "big.post", 8 + nodes),
        (&["bao", "--group-size", "4MiB", "encode", "big", "big.4m"], "big.4m", 8 + len + (len / (4 << 20) - 1) * 64),
    ];
    for (args, output, output_len) in runs {
        let peak = run_measured(&dir, args, None);
        assert_eq!(size(&dir, output), output_len, "{args:?}");
        assert!(peak < limit, "{args:?}: peak RSS {peak} bytes, not below {limit} for a {len}-byte input");
        fs::remove_file(dir.path.join(output)).unwrap();
    }
    // Standard input: its outboard through post-order nodes, its combined
    // encoding through a copy of it.
    for (args, output, output_len) in [
        (&["bao", "encode", "-", "--outboard", "stdin.obao"][..], "stdin.obao", 8 + nodes),
        (&["bao", "encode", "-", "stdin.bao"], "stdin.bao", 8 + len + nodes),
    ] {
        let stdin = File::open(dir.path.join("big")).unwrap();
        let peak = run_measured(&dir, args, Some(stdin));
        assert_eq!(size(&dir, output), output_len);
        assert!(peak < limit, "{args:?}: peak RSS {peak} bytes, not below {limit}");
        fs::remove_file(dir.path.join(output)).unwrap();
    }
    let left: Vec<_> = fs::read_dir(&dir.path).unwrap().map(|entry| entry.unwrap().file_name()).collect();
    assert_eq!(left, ["big"], "no temporary file is left");
    fs::remove_dir_all(&dir.path).unwrap();
}

/// A message of 4 GiB + 1025 bytes: the hash, the outboard's length
/// header, a whole verify (in bounded memory) and a slice across the 4 GiB
/// boundary.
#[test]
fn bao_streams_past_4_gib() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let dir = Dir::new("bao_streams_past_4_gib");
    let len = 4 * GIB + 1025;
    let marks: [(u64, &[u8]); 3] = [(100, b"near the start"), (4 * GIB - 7, b"across 4 GiB"), (len - 4, b"end.")];
    if sparse(&dir.path.join("big"), len, &marks).is_none() {
        return;
    }
    // chunkhash's hash in a child while the official blake3 hashes here.
    let hash_child =
        dir.command(env!("CARGO_BIN_EXE_chunkhash"), &["bao", "hash", "big"]).stdout(Stdio::piped()).spawn().unwrap();
    let mut hasher = blake3::Hasher::new();
    let mut file = File::open(dir.path.join("big")).unwrap();
    let mut buf = vec![0u8; 1 << 20];
    loop {
        let n = file.read(&mut buf).unwrap();
        if n == 0 {
            break;
        }
        hasher.update(&buf[..n]);
    }
    let hex = hasher.finalize().to_hex().to_string();
    assert_eq!(ok(hash_child.wait_with_output().unwrap()), format!("{hex}\n"));

    ok(dir.run(&["bao", "encode", "big", "--outboard", "big.obao"], b""));
    let mut header = [0u8; 8];
    File::open(dir.path.join("big.obao")).unwrap().read_exact(&mut header).unwrap();
    assert_eq!(u64::from_le_bytes(header), len);
    assert_eq!(size(&dir, "big.obao"), 8 + (len.div_ceil(1024) - 1) * 64);

    // The whole message verifies, streamed from the input and the outboard.
    let peak = run_measured(&dir, &["bao", "decode", &hex, "big", "/dev/null", "--outboard", "big.obao"], None);
    assert!(peak < GIB / 8, "a whole decode: peak RSS {peak} bytes");

    let (start, count) = (4 * GIB - 1500, 3000u64);
    let (s, c) = (start.to_string(), count.to_string());
    ok(dir.run(&["bao", "slice", &s, &c, "big", "slice", "--outboard", "big.obao"], b""));
    let decoded = dir.run(&["bao", "decode-slice", &hex, &s, &c, "slice"], b"");
    assert!(decoded.status.success(), "{}", stderr(&decoded));
    assert!(decoded.stdout == expected(len, &marks, start..start + count));
    fs::remove_dir_all(&dir.path).unwrap();
}
