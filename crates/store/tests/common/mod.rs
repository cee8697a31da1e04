//! Helpers shared by the store's tests: a directory per test, seeded random
//! trees of files, and a comparison of two trees.
#![allow(dead_code)]

use chunkhash_store::{ChunkerSettings, CreateOptions, OpenOptions, PutOptions, Store};
use std::ffi::OsStr;
use std::fs;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use vectors::TestRng;

/// A fresh directory for one test under cargo's per-target temp dir.
pub fn test_dir(test: &str) -> PathBuf {
    let path = Path::new(env!("CARGO_TARGET_TMPDIR")).join("store-tests").join(test);
    if path.exists() {
        make_writable(&path);
        fs::remove_dir_all(&path).unwrap();
    }
    fs::create_dir_all(&path).unwrap();
    path
}

/// Restored trees may hold read-only directories; removal needs them writable.
fn make_writable(path: &Path) {
    if let Ok(metadata) = fs::symlink_metadata(path) {
        if metadata.is_dir() {
            let _ = fs::set_permissions(path, fs::Permissions::from_mode(0o755));
            for entry in fs::read_dir(path).unwrap().flatten() {
                make_writable(&entry.path());
            }
        }
    }
}

/// Small chunks, so small test files still make many of them.
pub const SMALL_CHUNKS: ChunkerSettings = ChunkerSettings { min: 64, avg: 256, max: 1024 };

/// Small packs, so a test fills several.
pub fn options() -> OpenOptions {
    OpenOptions { pack_target: 64 << 10, fsync: false, ..OpenOptions::default() }
}

pub fn create(dir: &Path, chunker: ChunkerSettings) -> Store {
    Store::create(dir, CreateOptions { chunker, ..CreateOptions::default() }, options()).unwrap()
}

pub fn put(store: &mut Store, inputs: &[PathBuf]) -> chunkhash_store::PutReport {
    store.put(inputs, PutOptions::default()).unwrap()
}

/// Names a file system allows that tools often get wrong.
pub const ODD_NAMES: [&[u8]; 9] = [
    b"with space",
    b"new\nline",
    b"tab\tand\rreturn",
    "\u{fc}n\u{ef}c\u{f6}d\u{e9} \u{1f600}".as_bytes(),
    b"-starts-with-dash",
    b"\xff\xfe not utf-8",
    b".hidden",
    b"back\\slash",
    b"*?[glob]",
];

/// Writes a random tree under `root`: nested directories, files from empty
/// to `max_file` bytes (some repeating others' bytes), odd names, symbolic
/// links (relative, dangling, absolute), assorted modes.
pub fn random_tree(rng: &mut TestRng, root: &Path, depth: usize, max_file: usize, pool: &mut Vec<Vec<u8>>) {
    fs::create_dir_all(root).unwrap();
    let entries = rng.range(0..=6);
    for i in 0..entries {
        let name: Vec<u8> = if rng.range(0..=2) == 0 {
            ODD_NAMES[rng.range(0..=ODD_NAMES.len() - 1)].to_vec()
        } else {
            format!("entry-{i}").into_bytes()
        };
        let path = root.join(OsStr::from_bytes(&name));
        if fs::symlink_metadata(&path).is_ok() {
            continue;
        }
        match rng.range(0..=9) {
            0..=5 => {
                let bytes = match rng.range(0..=5) {
                    0 => Vec::new(),
                    1 if !pool.is_empty() => pool[rng.range(0..=pool.len() - 1)].clone(),
                    2 if !pool.is_empty() => {
                        // Another file's bytes with something in front: the
                        // chunker must find the same boundaries after it.
                        let prefix = rng.range(1..=300);
                        let mut bytes = rng.bytes(prefix);
                        bytes.extend_from_slice(&pool[rng.range(0..=pool.len() - 1)]);
                        bytes
                    }
                    _ => {
                        let len = rng.range(1..=max_file);
                        rng.bytes(len)
                    }
                };
                fs::write(&path, &bytes).unwrap();
                let mode = [0o644, 0o600, 0o755, 0o444][rng.range(0..=3)];
                fs::set_permissions(&path, fs::Permissions::from_mode(mode)).unwrap();
                pool.push(bytes);
            }
            6..=7 if depth > 0 => random_tree(rng, &path, depth - 1, max_file, pool),
            _ => {
                let target: &[u8] = match rng.range(0..=2) {
                    0 => b"entry-0",
                    1 => b"../does/not/exist",
                    _ => b"/etc/hostname",
                };
                std::os::unix::fs::symlink(OsStr::from_bytes(target), &path).unwrap();
            }
        }
    }
}

/// Asserts that two trees hold the same entries: types, bytes, link
/// targets and permission bits.
pub fn assert_same_tree(expected: &Path, actual: &Path) {
    let want = fs::symlink_metadata(expected).unwrap();
    let have = fs::symlink_metadata(actual).unwrap_or_else(|e| panic!("{}: {e}", actual.display()));
    assert_eq!(want.file_type(), have.file_type(), "{}", actual.display());
    if want.file_type().is_symlink() {
        assert_eq!(fs::read_link(expected).unwrap(), fs::read_link(actual).unwrap(), "{}", actual.display());
        return;
    }
    assert_eq!(want.permissions().mode() & 0o7777, have.permissions().mode() & 0o7777, "{}", actual.display());
    if want.is_file() {
        assert!(fs::read(expected).unwrap() == fs::read(actual).unwrap(), "{}: bytes differ", actual.display());
        return;
    }
    let names = |dir: &Path| {
        let mut names: Vec<_> = fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name()).collect();
        names.sort();
        names
    };
    let (want_names, have_names) = (names(expected), names(actual));
    assert_eq!(want_names, have_names, "{}", actual.display());
    for name in want_names {
        assert_same_tree(&expected.join(&name), &actual.join(&name));
    }
}
