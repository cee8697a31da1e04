//! The file operations a [`Directory`](super::Directory) store does, behind
//! one small trait: [`RealFs`] (the local file system, `std::fs`) for use,
//! and [`SimFs`](super::sim::SimFs) for the crash tests, which models what a
//! power cut may lose. Every operation on a store's files goes through it,
//! the open pack in the staging folder included, so what the simulation
//! sees is everything the store does.

use std::fmt::Debug;
use std::fs::{self, File, OpenOptions, TryLockError};
use std::io::{self, Read, Write};
use std::path::Path;

use super::WriterLock;

/// A file opened for writing by [`Fs::create`].
pub trait FsFile: Write + Debug + Send + Sync {
    /// Makes the bytes written so far durable (`fsync`).
    fn sync_all(&self) -> io::Result<()>;
}

/// A file opened for reading at offsets by [`Fs::open`].
pub trait FsHandle: Debug + Send + Sync {
    /// `buf.len()` bytes from `offset`; `UnexpectedEof` when the file is shorter.
    fn read_exact_at(&self, buf: &mut [u8], offset: u64) -> io::Result<()>;
}

/// The file operations of a store in a directory. Paths are full paths.
pub trait Fs: Debug + Send + Sync {
    /// Creates (or truncates) a file for writing.
    fn create(&self, path: &Path) -> io::Result<Box<dyn FsFile>>;
    /// Opens a file for reads at offsets.
    fn open(&self, path: &Path) -> io::Result<Box<dyn FsHandle>>;
    /// A whole file.
    fn read(&self, path: &Path) -> io::Result<Vec<u8>>;
    /// A file's length.
    fn len(&self, path: &Path) -> io::Result<u64>;
    /// Whether a file is there.
    fn exists(&self, path: &Path) -> bool {
        self.len(path).is_ok()
    }
    /// The names in a directory, in no particular order (names that are
    /// not UTF-8 left out); `NotFound` when it does not exist.
    fn list(&self, dir: &Path) -> io::Result<Vec<String>>;
    /// Cuts a file to `len` bytes.
    fn truncate(&self, path: &Path, len: u64) -> io::Result<()>;
    /// Makes a file's bytes durable (`fsync` of the file).
    fn sync_file(&self, path: &Path) -> io::Result<()>;
    /// Makes the entries of a directory durable (creations, renames,
    /// links and removals in it).
    fn sync_dir(&self, dir: &Path) -> io::Result<()>;
    /// Renames atomically, replacing `to`.
    fn rename(&self, from: &Path, to: &Path) -> io::Result<()>;
    /// A second name for a file; `AlreadyExists` when `to` exists.
    fn hard_link(&self, from: &Path, to: &Path) -> io::Result<()>;
    /// Removes a name.
    fn remove_file(&self, path: &Path) -> io::Result<()>;
    /// Takes the writer lock at `path` without waiting: `Ok(Err(holder))`
    /// when someone else holds it.
    fn try_lock(&self, path: &Path) -> io::Result<Result<WriterLock, String>>;
}

/// The local file system.
#[derive(Clone, Copy, Debug, Default)]
pub struct RealFs;

impl FsFile for File {
    fn sync_all(&self) -> io::Result<()> {
        File::sync_all(self)
    }
}

impl FsHandle for File {
    fn read_exact_at(&self, buf: &mut [u8], offset: u64) -> io::Result<()> {
        std::os::unix::fs::FileExt::read_exact_at(self, buf, offset)
    }
}

impl Fs for RealFs {
    fn create(&self, path: &Path) -> io::Result<Box<dyn FsFile>> {
        Ok(Box::new(File::create(path)?))
    }

    fn open(&self, path: &Path) -> io::Result<Box<dyn FsHandle>> {
        Ok(Box::new(File::open(path)?))
    }

    fn read(&self, path: &Path) -> io::Result<Vec<u8>> {
        fs::read(path)
    }

    fn len(&self, path: &Path) -> io::Result<u64> {
        Ok(fs::metadata(path)?.len())
    }

    fn exists(&self, path: &Path) -> bool {
        path.exists()
    }

    fn list(&self, dir: &Path) -> io::Result<Vec<String>> {
        let mut names = Vec::new();
        for entry in fs::read_dir(dir)? {
            if let Ok(name) = entry?.file_name().into_string() {
                names.push(name);
            }
        }
        Ok(names)
    }

    fn truncate(&self, path: &Path, len: u64) -> io::Result<()> {
        OpenOptions::new().write(true).open(path)?.set_len(len)
    }

    fn sync_file(&self, path: &Path) -> io::Result<()> {
        File::open(path)?.sync_all()
    }

    fn sync_dir(&self, dir: &Path) -> io::Result<()> {
        File::open(dir)?.sync_all()
    }

    fn rename(&self, from: &Path, to: &Path) -> io::Result<()> {
        fs::rename(from, to)
    }

    fn hard_link(&self, from: &Path, to: &Path) -> io::Result<()> {
        fs::hard_link(from, to)
    }

    fn remove_file(&self, path: &Path) -> io::Result<()> {
        fs::remove_file(path)
    }

    fn try_lock(&self, path: &Path) -> io::Result<Result<WriterLock, String>> {
        let mut file = OpenOptions::new().read(true).write(true).create(true).truncate(false).open(path)?;
        match file.try_lock() {
            Ok(()) => {
                // Who holds it, for the message a second writer gets.
                file.set_len(0)?;
                writeln!(file, "pid {}", std::process::id())?;
                Ok(Ok(Box::new(file)))
            }
            Err(TryLockError::WouldBlock) => {
                let mut holder = String::new();
                let _ = file.read_to_string(&mut holder);
                let holder = holder.trim();
                Ok(Err(if holder.is_empty() { "holder unknown".to_string() } else { format!("held by {holder}") }))
            }
            Err(TryLockError::Error(error)) => Err(error),
        }
    }
}
