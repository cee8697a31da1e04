//! `chunkhash bao` on large sparse files (issue 33): encoding and outboard
//! creation in bounded memory (each child's peak RSS, far below the file's
//! size) giving the library's bytes, and a message past 4 GiB (the 8-byte
//! length header, a whole verify giving the file's bytes, a slice across
//! the 4 GiB boundary) against the official `blake3` and `bao` crates.
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
    run_measured_reading(dir, args, stdin, &mut |stdout| drop(std::io::copy(stdout, &mut std::io::sink())))
}

/// [`run_measured`], with the child's standard output given to `read`
/// while it runs.
fn run_measured_reading(dir: &Dir, args: &[&str], stdin: Option<File>, read: &mut dyn FnMut(&mut dyn Read)) -> u64 {
    #[allow(clippy::zombie_processes)] // reaped by wait4 below, which gives its rusage
    let mut child = dir
        .command(env!("CARGO_BIN_EXE_chunkhash"), args)
        .stdin(stdin.map_or(Stdio::null(), Stdio::from))
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    read(&mut child.stdout.take().unwrap());
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
    overlay(marks, range.start, &mut out);
    out
}

/// Writes the marks that fall in `out`, bytes from `start` on.
fn overlay(marks: &[(u64, &[u8])], start: u64, out: &mut [u8]) {
    for (at, bytes) in marks {
        for (i, byte) in bytes.iter().enumerate() {
            if let Some(place) = (at + i as u64).checked_sub(start).filter(|&place| place < out.len() as u64) {
                out[place as usize] = *byte;
            }
        }
    }
}

/// Reads until `buf` is full or the stream ends; the bytes read.
fn fill(reader: &mut dyn Read, buf: &mut [u8]) -> usize {
    let mut filled = 0;
    while filled < buf.len() {
        match reader.read(&mut buf[filled..]).unwrap() {
            0 => break,
            n => filled += n,
        }
    }
    filled
}

fn size(dir: &Dir, name: &str) -> u64 {
    fs::metadata(dir.path.join(name)).unwrap().len()
}

/// The official crate's BLAKE3 of the file at `path`, in hex.
fn file_hash(path: &Path) -> String {
    let mut hasher = blake3::Hasher::new();
    let mut file = File::open(path).unwrap();
    let mut buf = vec![0u8; 1 << 20];
    loop {
        let n = file.read(&mut buf).unwrap();
        if n == 0 {
            return hasher.finalize().to_hex().to_string();
        }
        hasher.update(&buf[..n]);
    }
}

/// Whether `stream` gives the bytes of the sparse file of `len` bytes with
/// `marks`, compared in pieces as they come (read to its end).
fn is_sparse_file(stream: &mut dyn Read, len: u64, marks: &[(u64, &[u8])]) -> bool {
    let (mut got, mut want) = (vec![0u8; 1 << 20], vec![0u8; 1 << 20]);
    let (mut at, mut same) = (0u64, true);
    loop {
        let n = fill(stream, &mut got);
        if n == 0 {
            return same && at == len;
        }
        want[..n].fill(0);
        overlay(marks, at, &mut want[..n]);
        same &= got[..n] == want[..n];
        at += n as u64;
    }
}

/// Encoding (combined, both outboard orders, larger groups, standard
/// input) keeps each child's peak RSS far below the 256 MiB input (an
/// eighth: 32 MiB; about 11 MiB measured); the old in-memory encoder needed
/// more than the input (twice it for the combined encoding). Each output
/// decodes to the file's bytes, which only the exact bytes do.
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
    // Each output decodes (every node and group verified against the
    // official crate's hash, none left over) to the file's bytes, which
    // only its exact bytes do. Compared in pieces in a child: the peak RSS
    // of a child spawned later starts at this process's peak (vfork, then
    // exec), so nothing here holds the file.
    let hex = file_hash(&dir.path.join("big"));
    let decodes = |args: &[&str]| {
        let mut child = dir.command(env!("CARGO_BIN_EXE_chunkhash"), args).stdout(Stdio::piped()).spawn().unwrap();
        let same = is_sparse_file(&mut child.stdout.take().unwrap(), len, &marks);
        assert!(child.wait().unwrap().success(), "{args:?}");
        same
    };
    let runs: [(&[&str], &str, u64, &[&str]); 4] = [
        (&["bao", "encode", "big", "big.bao"], "big.bao", 8 + len + nodes, &["bao", "decode", &hex, "big.bao"]),
        (
            &["bao", "encode", "big", "--outboard", "big.obao"],
            "big.obao",
            8 + nodes,
            &["bao", "decode", &hex, "big", "--outboard", "big.obao"],
        ),
        (
            &["bao", "--post-order", "encode", "big", "--outboard=big.post"],
            "big.post",
            8 + nodes,
            &["bao", "--post-order", "decode", &hex, "big", "--outboard", "big.post"],
        ),
        (
            &["bao", "--group-size", "4MiB", "encode", "big", "big.4m"],
            "big.4m",
            8 + len + (len / (4 << 20) - 1) * 64,
            &["bao", "--group-size", "4MiB", "decode", &hex, "big.4m"],
        ),
    ];
    for (args, output, output_len, decode) in runs {
        let peak = run_measured(&dir, args, None);
        assert_eq!(size(&dir, output), output_len, "{args:?}");
        assert!(decodes(decode), "{args:?}: does not decode to the file's bytes");
        assert!(peak < limit, "{args:?}: peak RSS {peak} bytes, not below {limit} for a {len}-byte input");
        fs::remove_file(dir.path.join(output)).unwrap();
    }
    // Standard input: its outboard through post-order nodes, its combined
    // encoding through a copy of it.
    let runs: [(&[&str], &str, u64, &[&str]); 2] = [
        (
            &["bao", "encode", "-", "--outboard", "stdin.obao"],
            "stdin.obao",
            8 + nodes,
            &["bao", "decode", &hex, "big", "--outboard", "stdin.obao"],
        ),
        (&["bao", "encode", "-", "stdin.bao"], "stdin.bao", 8 + len + nodes, &["bao", "decode", &hex, "stdin.bao"]),
    ];
    for (args, output, output_len, decode) in runs {
        let stdin = File::open(dir.path.join("big")).unwrap();
        let peak = run_measured(&dir, args, Some(stdin));
        assert_eq!(size(&dir, output), output_len);
        assert!(decodes(decode), "{args:?}: does not decode to the file's bytes");
        assert!(peak < limit, "{args:?}: peak RSS {peak} bytes, not below {limit}");
        fs::remove_file(dir.path.join(output)).unwrap();
    }
    let left: Vec<_> = fs::read_dir(&dir.path).unwrap().map(|entry| entry.unwrap().file_name()).collect();
    assert_eq!(left, ["big"], "no temporary file is left");
    fs::remove_dir_all(&dir.path).unwrap();
}

/// A message of 4 GiB + 1025 bytes: the hash, the outboard's length
/// header, a whole verify (in bounded memory) whose bytes are the file's
/// (so every node of the outboard verified), and a slice across the 4 GiB
/// boundary, the `bao` crate's bytes, decoded to the marks written there.
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
    let hex = file_hash(&dir.path.join("big"));
    assert_eq!(ok(hash_child.wait_with_output().unwrap()), format!("{hex}\n"));

    ok(dir.run(&["bao", "encode", "big", "--outboard", "big.obao"], b""));
    let mut header = [0u8; 8];
    File::open(dir.path.join("big.obao")).unwrap().read_exact(&mut header).unwrap();
    assert_eq!(u64::from_le_bytes(header), len);
    assert_eq!(size(&dir, "big.obao"), 8 + (len.div_ceil(1024) - 1) * 64);

    // The whole message verifies, streamed from the input and the outboard,
    // and the bytes that come out are the file's (compared as they come).
    let mut same = false;
    let mut compare = |stdout: &mut dyn Read| same = is_sparse_file(stdout, len, &marks);
    let peak =
        run_measured_reading(&dir, &["bao", "decode", &hex, "big", "--outboard", "big.obao"], None, &mut compare);
    assert!(same, "a whole decode: not the file's bytes");
    assert!(peak < GIB / 8, "a whole decode: peak RSS {peak} bytes");

    let (start, count) = (4 * GIB - 1500, 3000u64);
    let (s, c) = (start.to_string(), count.to_string());
    ok(dir.run(&["bao", "slice", &s, &c, "big", "slice", "--outboard", "big.obao"], b""));
    let mut theirs = Vec::new();
    let (big, obao) = (File::open(dir.path.join("big")).unwrap(), File::open(dir.path.join("big.obao")).unwrap());
    ::bao::encode::SliceExtractor::new_outboard(big, obao, start, count).read_to_end(&mut theirs).unwrap();
    assert!(dir.read("slice") == theirs, "the slice is not the bao crate's");
    let decoded = dir.run(&["bao", "decode-slice", &hex, &s, &c, "slice"], b"");
    assert!(decoded.status.success(), "{}", stderr(&decoded));
    assert!(decoded.stdout == expected(len, &marks, start..start + count));
    fs::remove_dir_all(&dir.path).unwrap();
}
