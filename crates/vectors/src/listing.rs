//! A directory tree's listing, for tests that show a command wrote nothing.

use std::fs;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

/// Every file under `dir`: path, size, modification time (seconds and
/// nanoseconds), inode; sorted. Equal listings before and after a reader
/// show that it wrote nothing.
pub fn listing(dir: &Path) -> Vec<(PathBuf, u64, i64, i64, u64)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in fs::read_dir(&dir).unwrap() {
            let entry = entry.unwrap();
            let metadata = fs::symlink_metadata(entry.path()).unwrap();
            if metadata.is_dir() {
                stack.push(entry.path());
            }
            out.push((entry.path(), metadata.len(), metadata.mtime(), metadata.mtime_nsec(), metadata.ino()));
        }
    }
    out.sort();
    out
}
