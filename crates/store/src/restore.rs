//! `get` and `ls`: a snapshot read back, every chunk verified (trailer,
//! stored address, hash of the bytes) before a byte of it is written out.

use crate::address::{Address, Hashing};
use crate::error::{Error, Result};
use crate::object::{Node, Tree};
use crate::store::Store;
use std::ffi::OsStr;
use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};

/// Chunks read and verified together when restoring a file.
const RESTORE_BATCH_BYTES: u64 = 8 << 20;

/// What `get` wrote.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RestoreReport {
    /// Files written.
    pub files: u64,
    /// Directories made.
    pub dirs: u64,
    /// Symbolic links made.
    pub symlinks: u64,
    /// Bytes written.
    pub bytes: u64,
}

/// One entry of a snapshot, as `ls` lists it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Listed {
    /// The path inside the snapshot, `/`-separated (any bytes but `/` and NUL).
    pub path: Vec<u8>,
    /// What is there.
    pub node: Node,
}

impl Store {
    /// Restores `snapshot` into `dest`, a new or empty directory: each
    /// top-level entry of the snapshot becomes an entry of `dest`. A file
    /// with a damaged chunk is removed and the others are still restored;
    /// the damage is then the error, naming each such file. Nothing
    /// unverified is ever written.
    pub fn get(
        &self,
        snapshot: &Address,
        dest: &Path,
        mut progress: Option<&mut dyn FnMut(u64)>,
    ) -> Result<RestoreReport> {
        self.check_pointer(snapshot)?;
        let root = self.snapshot(snapshot)?;
        match fs::read_dir(dest) {
            Ok(mut entries) => {
                if entries.next().is_some() {
                    return Err(Error::DestinationExists(dest.to_path_buf()));
                }
            }
            Err(error) if error.kind() == io::ErrorKind::NotFound => {
                fs::create_dir_all(dest).map_err(|e| Error::io("creating", dest, e))?;
            }
            Err(_) if fs::symlink_metadata(dest).is_ok_and(|m| !m.is_dir()) => {
                return Err(Error::DestinationExists(dest.to_path_buf()));
            }
            Err(error) => return Err(Error::io("reading", dest, error)),
        }
        let mut report = RestoreReport::default();
        let mut damaged = Vec::new();
        self.restore_tree(&root.tree, dest, &mut report, &mut damaged, &mut progress)?;
        match damaged.len() {
            0 => Ok(report),
            1 => Err(damaged.remove(0)),
            n => Err(Error::corrupt(
                format!("{n} files of snapshot {snapshot}"),
                damaged.iter().map(ToString::to_string).collect::<Vec<_>>().join("; "),
            )),
        }
    }

    fn restore_tree(
        &self,
        tree: &Address,
        dir: &Path,
        report: &mut RestoreReport,
        damaged: &mut Vec<Error>,
        progress: &mut Option<&mut dyn FnMut(u64)>,
    ) -> Result<()> {
        let tree = self.read_tree(tree)?;
        for entry in tree.entries {
            let path = dir.join(OsStr::from_bytes(&entry.name));
            match entry.node {
                Node::File { mode, size, content } => {
                    let written = self
                        .chunks_of(&content)
                        .map_err(|error| in_file(error, &path))
                        .and_then(|chunks| self.restore_file(&chunks, size, &path, progress));
                    if let Err(error) = written {
                        let _ = fs::remove_file(&path);
                        // Damage costs this file only; anything else stops the restore.
                        if !error.is_damage() {
                            return Err(error);
                        }
                        damaged.push(error);
                        continue;
                    }
                    set_mode(&path, mode)?;
                    report.files += 1;
                    report.bytes += size;
                }
                Node::Dir { mode, tree } => {
                    fs::create_dir(&path).map_err(|e| Error::io("creating", &path, e))?;
                    match self.restore_tree(&tree, &path, report, damaged, progress) {
                        Err(error) if error.is_damage() => damaged.push(in_file(error, &path)),
                        result => result?,
                    }
                    // After the entries, in case the mode forbids writing.
                    set_mode(&path, mode)?;
                    report.dirs += 1;
                }
                Node::Symlink { target } => {
                    std::os::unix::fs::symlink(OsStr::from_bytes(&target), &path)
                        .map_err(|e| Error::io("creating the link", &path, e))?;
                    report.symlinks += 1;
                }
            }
        }
        Ok(())
    }

    fn restore_file(
        &self,
        chunks: &[Address],
        size: u64,
        path: &Path,
        progress: &mut Option<&mut dyn FnMut(u64)>,
    ) -> Result<()> {
        let mut file: File = OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(0o600)
            .open(path)
            .map_err(|e| Error::io("creating", path, e))?;
        let mut hasher = self.hasher(Hashing::Batch);
        let mut written = 0u64;
        let mut start = 0;
        while start < chunks.len() {
            // Up to RESTORE_BATCH_BYTES of records, by the index's lengths.
            let mut end = start;
            let mut bytes = 0u64;
            while end < chunks.len() && (end == start || bytes < RESTORE_BATCH_BYTES) {
                bytes += self.index.get(&chunks[end]).map_or(0, |location| u64::from(location.len));
                end += 1;
            }
            let payloads =
                self.read_verified(&chunks[start..end], &mut hasher).map_err(|error| in_file(error, path))?;
            for payload in &payloads {
                file.write_all(payload).map_err(|e| Error::io("writing", path, e))?;
                written += payload.len() as u64;
                if let Some(progress) = progress {
                    progress(payload.len() as u64);
                }
            }
            start = end;
        }
        if written != size {
            return Err(Error::corrupt(
                format!("file {}", path.display()),
                format!("its chunks hold {written} bytes, its entry says {size}"),
            ));
        }
        Ok(())
    }

    /// Every entry of `snapshot`, depth first, in name order.
    pub fn ls(&self, snapshot: &Address) -> Result<Vec<Listed>> {
        self.check_pointer(snapshot)?;
        let root = self.snapshot(snapshot)?;
        let mut out = Vec::new();
        self.list_tree(&self.read_tree(&root.tree)?, &[], &mut out)?;
        Ok(out)
    }

    fn list_tree(&self, tree: &Tree, prefix: &[u8], out: &mut Vec<Listed>) -> Result<()> {
        for entry in &tree.entries {
            let mut path = prefix.to_vec();
            if !path.is_empty() {
                path.push(b'/');
            }
            path.extend_from_slice(&entry.name);
            out.push(Listed { path: path.clone(), node: entry.node.clone() });
            if let Node::Dir { tree, .. } = &entry.node {
                self.list_tree(&self.read_tree(tree)?, &path, out)?;
            }
        }
        Ok(())
    }
}

/// Adds the file being restored to a damage report.
fn in_file(error: Error, path: &Path) -> Error {
    match error {
        Error::Corrupt { what, reason } => Error::Corrupt { what: format!("{what} (of {})", path.display()), reason },
        Error::MissingObject(address) => {
            Error::corrupt(format!("chunk {address} (of {})", path.display()), "it is not in the store")
        }
        other => other,
    }
}

fn set_mode(path: &Path, mode: u32) -> Result<()> {
    fs::set_permissions(path, fs::Permissions::from_mode(mode & 0o7777))
        .map_err(|e| Error::io("setting the mode of", path, e))
}

/// A path of a listing as a `PathBuf`.
pub fn listed_path(listed: &Listed) -> PathBuf {
    PathBuf::from(OsStr::from_bytes(&listed.path))
}
