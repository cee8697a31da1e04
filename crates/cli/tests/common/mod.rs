//! What every CLI test file shares: a directory per test, running the
//! built binary and other programs, and finding the peer tools.

#![allow(dead_code)] // Each test file uses its own part of this.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use vectors::TestRng;

/// A fresh directory for one test under cargo's per-target temp dir.
pub struct Dir {
    pub path: PathBuf,
}

impl Dir {
    pub fn new(test: &str) -> Dir {
        let path = Path::new(env!("CARGO_TARGET_TMPDIR")).join("cli-tests").join(test);
        let _ = fs::remove_dir_all(&path);
        fs::create_dir_all(&path).unwrap();
        Dir { path }
    }

    pub fn write(&self, name: impl AsRef<Path>, bytes: &[u8]) -> PathBuf {
        let path = self.path.join(name);
        fs::write(&path, bytes).unwrap();
        path
    }

    pub fn read(&self, name: &str) -> Vec<u8> {
        fs::read(self.path.join(name)).unwrap()
    }

    pub fn command(&self, program: &str, args: &[&str]) -> Command {
        let mut command = Command::new(program);
        command.args(args).current_dir(&self.path).env_remove("CHUNKHASH_BACKEND");
        // Peers' messages untranslated ("FAILED", not "FEHLSCHLAG" under
        // LANGUAGE=de): the tests compare them with chunkhash's.
        command.env("LC_ALL", "C");
        command
    }

    /// Runs chunkhash with `args` and `stdin`.
    pub fn run(&self, args: &[&str], stdin: &[u8]) -> Output {
        run_with_stdin(self.command(env!("CARGO_BIN_EXE_chunkhash"), args), stdin)
    }

    /// Runs another program (coreutils), which must succeed.
    pub fn tool(&self, program: &str, args: &[&str]) -> Vec<u8> {
        let output = run_with_stdin(self.command(program, args), b"");
        assert!(output.status.success(), "{program} {args:?}: {}", String::from_utf8_lossy(&output.stderr));
        output.stdout
    }
}

pub fn run_with_stdin(mut command: Command, stdin: &[u8]) -> Output {
    let mut child = command.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    let mut child_stdin = child.stdin.take().unwrap();
    let input = stdin.to_vec();
    let writer = std::thread::spawn(move || {
        // The command may exit without reading (a usage error): ignore EPIPE.
        let _ = child_stdin.write_all(&input);
    });
    let output = child.wait_with_output().unwrap();
    writer.join().unwrap();
    output
}

pub fn code(output: &Output) -> i32 {
    output.status.code().expect("exited, not killed")
}

pub fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).unwrap()
}

pub fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// Asserts a successful run with nothing on stderr; returns stdout.
pub fn ok(output: Output) -> String {
    assert_eq!(code(&output), 0, "stderr: {}", stderr(&output));
    assert_eq!(stderr(&output), "", "a successful run prints nothing on stderr (no progress bar off a terminal)");
    stdout(&output)
}

/// Deterministic bytes.
pub fn pattern(len: usize, seed: u8) -> Vec<u8> {
    (0..len).map(|i| (i as u32).wrapping_mul(2_654_435_761).to_le_bytes()[3] ^ seed).collect()
}

/// A peer tool to compare with. `make test` installs the peers and names
/// each in an environment variable (`CHUNKHASH_PEER_B3SUM`, ...): then the
/// tool must be there and run, or the test fails. Without the variable (a
/// plain `cargo test`), the tool is looked for under `target/peers/bin` and
/// on the PATH, and when absent the comparison is skipped with a note.
pub fn peer(tool: &str, variable: &str) -> Option<PathBuf> {
    if let Some(path) = std::env::var_os(variable) {
        let path = PathBuf::from(path);
        assert!(path.is_file(), "{variable}={} is missing: `make peers` installs {tool}", path.display());
        return Some(path);
    }
    let target = Path::new(env!("CARGO_TARGET_TMPDIR")).parent().expect("target/tmp has a parent");
    let in_target = target.join("peers").join("bin").join(tool);
    let on_path = std::env::var_os("PATH")
        .into_iter()
        .flat_map(|paths| std::env::split_paths(&paths).collect::<Vec<_>>())
        .map(|dir| dir.join(tool));
    let found = std::iter::once(in_target).chain(on_path).find(|path| path.is_file());
    if found.is_none() {
        eprintln!("note: {tool} not found and {variable} unset: its comparison is skipped (`make test` runs it)");
    }
    found
}

/// The b3sum built from crates.io by `make peers`.
pub fn b3sum() -> Option<PathBuf> {
    peer("b3sum", "CHUNKHASH_PEER_B3SUM")
}

/// xxhsum from Debian's `xxhash` package (0.8.1 on Debian 12).
pub fn xxhsum() -> Option<PathBuf> {
    peer("xxhsum", "CHUNKHASH_PEER_XXHSUM")
}

/// The openssl command, for its `dgst` lines.
pub fn openssl() -> Option<PathBuf> {
    peer("openssl", "CHUNKHASH_PEER_OPENSSL")
}

impl Dir {
    /// Runs a peer (or any program) with `args` and `stdin`, whatever its
    /// exit status.
    pub fn run_peer(&self, program: impl AsRef<std::ffi::OsStr>, args: &[&str], stdin: &[u8]) -> Output {
        let mut command = Command::new(program);
        command.args(args).current_dir(&self.path).env("LC_ALL", "C");
        run_with_stdin(command, stdin)
    }
}

/// Random files under `root`: `files` of up to `max` bytes, in two folders.
pub fn write_files(rng: &mut TestRng, root: &Path, files: usize, max: usize) {
    for i in 0..files {
        let dir = root.join(if i % 2 == 0 { "even" } else { "odd" });
        fs::create_dir_all(&dir).unwrap();
        let len = rng.range(0..=max);
        fs::write(dir.join(format!("file {i}")), rng.bytes(len)).unwrap();
    }
}

/// Whether two trees are equal (`diff -r`, links compared as links).
pub fn same_tree(a: &Path, b: &Path) -> bool {
    let diff = Command::new("diff").arg("-r").arg("--no-dereference").arg(a).arg(b).output().unwrap();
    diff.status.success()
}

/// Whether process `pid` is stopped (state `T` in /proc/PID/stat), as the
/// store's pause hook (`CHUNKHASH_STORE_PAUSE_AT`) leaves a writer.
pub fn is_stopped(pid: u32) -> bool {
    let stat = fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    stat.rsplit(')').next().is_some_and(|rest| rest.trim_start().starts_with('T'))
}
