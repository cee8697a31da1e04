//! A store in a local directory: atomic writes by write, fsync, rename,
//! fsync of the directory; the writer lock is an advisory file lock. Every
//! file operation goes through an [`Fs`]: the real file system, or the
//! crash simulation's.

use super::fs::{Fs, FsHandle, RealFs};
use super::{Location, ObjectSums, WriterLock};
use crate::faults;
use std::collections::HashMap;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// Name of the lock file in the store directory.
pub const LOCK_FILE: &str = "lock";

/// Open read handles kept, so reading many records of a pack opens it once.
const CACHED_HANDLES: usize = 64;

/// A store in a directory of the local file system.
#[derive(Debug)]
pub struct Directory {
    root: PathBuf,
    staging: PathBuf,
    fs: Arc<dyn Fs>,
    handles: Mutex<HashMap<String, Arc<dyn FsHandle>>>,
    fault: Option<InjectedFault>,
}

/// A durability mistake put into [`Directory`] on purpose, so the crash
/// simulation can show that it finds one. For tests only.
#[doc(hidden)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InjectedFault {
    /// Publishing a pack skips the fsync of `packs/` after the rename, so
    /// the pack's name may not survive a power cut.
    NoDirSyncAfterPublish,
    /// A whole-file write fsyncs the directory before the file (the two
    /// steps swapped), so a name may survive with its bytes lost.
    DirSyncBeforeFileSync,
}

impl Directory {
    /// The directory at `root` (not created here).
    pub fn new(root: impl Into<PathBuf>) -> Directory {
        Directory::with_fs(root, Arc::new(RealFs))
    }

    /// The directory at `root` of the file system `fs` (the crash tests'
    /// [`SimFs`](super::sim::SimFs), or [`RealFs`] as [`new`](Directory::new) takes).
    pub fn with_fs(root: impl Into<PathBuf>, fs: Arc<dyn Fs>) -> Directory {
        let root = root.into();
        let staging = root.join("packs");
        Directory { root, staging, fs, handles: Mutex::new(HashMap::new()), fault: None }
    }

    /// Testing only: makes one durability mistake, for the crash tests to find.
    #[doc(hidden)]
    pub fn inject_fault(mut self, fault: InjectedFault) -> Directory {
        self.fault = Some(fault);
        self
    }

    /// The directory.
    pub fn root(&self) -> &Path {
        &self.root
    }

    fn path(&self, name: &str) -> PathBuf {
        self.root.join(name)
    }

    fn handle(&self, name: &str) -> io::Result<Arc<dyn FsHandle>> {
        let mut handles = self.handles.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if let Some(file) = handles.get(name) {
            return Ok(file.clone());
        }
        let file: Arc<dyn FsHandle> = Arc::from(self.fs.open(&self.path(name))?);
        if handles.len() >= CACHED_HANDLES {
            handles.clear();
        }
        handles.insert(name.to_string(), file.clone());
        Ok(file)
    }

    /// Write, fsync, then rename (`replace`) or hard-link (which fails when
    /// the name exists) into place.
    fn write_whole(&self, name: &str, bytes: &[u8], fsync: bool, replace: bool) -> io::Result<()> {
        let path = self.path(name);
        let dir = parent(&path);
        let file_name = path.file_name().and_then(|n| n.to_str()).unwrap_or("file");
        let temporary = dir.join(format!(".{file_name}.tmp-{}", std::process::id()));
        let swapped = self.fault == Some(InjectedFault::DirSyncBeforeFileSync);
        let result = (|| {
            let mut file = self.fs.create(&temporary)?;
            faults::write_all(&mut file, bytes)?;
            if fsync && !swapped {
                faults::step("fsync of a file");
                file.sync_all()?;
            }
            faults::step("rename");
            if replace {
                self.fs.rename(&temporary, &path)?;
            } else {
                self.fs.hard_link(&temporary, &path)?;
                self.fs.remove_file(&temporary)?;
            }
            self.forget_handle(name);
            if fsync {
                self.sync_dir(dir)?;
            }
            if fsync && swapped {
                file.sync_all()?;
            }
            Ok(())
        })();
        if result.is_err() {
            let _ = self.fs.remove_file(&temporary);
        }
        result
    }

    /// Makes a rename or creation in `dir` durable.
    fn sync_dir(&self, dir: &Path) -> io::Result<()> {
        faults::step("fsync of a directory");
        self.fs.sync_dir(dir)
    }

    fn forget_handle(&self, name: &str) {
        self.handles.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).remove(name);
    }
}

fn parent(path: &Path) -> &Path {
    path.parent().unwrap_or(Path::new("."))
}

/// Temporary files start with a dot and are never listed.
pub(crate) fn is_temporary(name: &str) -> bool {
    name.starts_with('.')
}

impl Location for Directory {
    fn describe(&self, name: &str) -> String {
        self.path(name).display().to_string()
    }

    fn read(&self, name: &str) -> io::Result<Vec<u8>> {
        self.fs.read(&self.path(name))
    }

    fn read_at(&self, name: &str, offset: u64, buf: &mut [u8]) -> io::Result<()> {
        self.handle(name)?.read_exact_at(buf, offset)
    }

    fn len(&self, name: &str) -> io::Result<u64> {
        self.fs.len(&self.path(name))
    }

    fn list(&self, folder: &str) -> io::Result<Vec<String>> {
        let mut names = match self.fs.list(&self.path(folder)) {
            Ok(names) => names,
            Err(error) if error.kind() == io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(error) => return Err(error),
        };
        names.retain(|name| !is_temporary(name));
        names.sort();
        Ok(names)
    }

    fn write(&self, name: &str, bytes: &[u8], fsync: bool) -> io::Result<()> {
        self.write_whole(name, bytes, fsync, true)
    }

    fn write_new(&self, name: &str, bytes: &[u8], fsync: bool) -> io::Result<()> {
        self.write_whole(name, bytes, fsync, false)
    }

    fn publish(&self, staged: &Path, name: &str, _sums: Option<ObjectSums>, fsync: bool) -> io::Result<()> {
        let path = self.path(name);
        if fsync {
            faults::step("fsync of a file");
            self.fs.sync_file(staged)?;
        }
        faults::step("rename");
        self.fs.rename(staged, &path)?;
        self.forget_handle(name);
        if fsync && self.fault != Some(InjectedFault::NoDirSyncAfterPublish) {
            self.sync_dir(parent(&path))?;
            if parent(staged) != parent(&path) {
                self.sync_dir(parent(staged))?;
            }
        }
        Ok(())
    }

    fn remove(&self, name: &str) -> io::Result<()> {
        self.forget_handle(name);
        faults::step("removal");
        match self.fs.remove_file(&self.path(name)) {
            Err(error) if error.kind() != io::ErrorKind::NotFound => Err(error),
            _ => Ok(()),
        }
    }

    fn remove_temporaries(&self) -> io::Result<()> {
        for folder in ["", "packs", "index", "snapshots"] {
            let dir = self.root.join(folder);
            let Ok(names) = self.fs.list(&dir) else { continue };
            for name in names {
                if is_temporary(&name) && name.contains(".tmp-") {
                    faults::step("removal");
                    self.fs.remove_file(&dir.join(name))?;
                }
            }
        }
        Ok(())
    }

    fn staging(&self) -> &Path {
        &self.staging
    }

    fn try_lock(&self) -> io::Result<Result<WriterLock, String>> {
        self.fs.try_lock(&self.path(LOCK_FILE))
    }

    fn staging_fs(&self) -> &dyn Fs {
        &*self.fs
    }
}
