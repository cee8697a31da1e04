//! A store in a local directory: atomic writes by write, fsync, rename,
//! fsync of the directory; the writer lock is an advisory file lock.

use super::{Location, ObjectSums, WriterLock};
use crate::faults;
use std::collections::HashMap;
use std::fs::{self, File, OpenOptions, TryLockError};
use std::io::{self, Read, Write};
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
    handles: Mutex<HashMap<String, Arc<File>>>,
}

impl Directory {
    /// The directory at `root` (not created here).
    pub fn new(root: impl Into<PathBuf>) -> Directory {
        let root = root.into();
        let staging = root.join("packs");
        Directory { root, staging, handles: Mutex::new(HashMap::new()) }
    }

    /// The directory.
    pub fn root(&self) -> &Path {
        &self.root
    }

    fn path(&self, name: &str) -> PathBuf {
        self.root.join(name)
    }

    fn handle(&self, name: &str) -> io::Result<Arc<File>> {
        let mut handles = self.handles.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if let Some(file) = handles.get(name) {
            return Ok(file.clone());
        }
        let file = Arc::new(File::open(self.path(name))?);
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
        let result = (|| {
            let mut file = File::create(&temporary)?;
            faults::write_all(&mut file, bytes)?;
            if fsync {
                faults::step("fsync of a file");
                file.sync_all()?;
            }
            faults::step("rename");
            if replace {
                fs::rename(&temporary, &path)?;
            } else {
                fs::hard_link(&temporary, &path)?;
                fs::remove_file(&temporary)?;
            }
            self.forget_handle(name);
            if fsync {
                sync_dir(dir)?;
            }
            Ok(())
        })();
        if result.is_err() {
            let _ = fs::remove_file(&temporary);
        }
        result
    }

    fn forget_handle(&self, name: &str) {
        self.handles.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).remove(name);
    }
}

/// Makes a rename or creation in `dir` durable.
fn sync_dir(dir: &Path) -> io::Result<()> {
    faults::step("fsync of a directory");
    File::open(dir)?.sync_all()
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
        fs::read(self.path(name))
    }

    fn read_at(&self, name: &str, offset: u64, buf: &mut [u8]) -> io::Result<()> {
        use std::os::unix::fs::FileExt;
        self.handle(name)?.read_exact_at(buf, offset)
    }

    fn len(&self, name: &str) -> io::Result<u64> {
        Ok(fs::metadata(self.path(name))?.len())
    }

    fn list(&self, folder: &str) -> io::Result<Vec<String>> {
        let entries = match fs::read_dir(self.path(folder)) {
            Ok(entries) => entries,
            Err(error) if error.kind() == io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(error) => return Err(error),
        };
        let mut names = Vec::new();
        for entry in entries {
            if let Ok(name) = entry?.file_name().into_string() {
                if !is_temporary(&name) {
                    names.push(name);
                }
            }
        }
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
            File::open(staged)?.sync_all()?;
        }
        faults::step("rename");
        fs::rename(staged, &path)?;
        self.forget_handle(name);
        if fsync {
            sync_dir(parent(&path))?;
            if parent(staged) != parent(&path) {
                sync_dir(parent(staged))?;
            }
        }
        Ok(())
    }

    fn remove(&self, name: &str) -> io::Result<()> {
        self.forget_handle(name);
        faults::step("removal");
        match fs::remove_file(self.path(name)) {
            Err(error) if error.kind() != io::ErrorKind::NotFound => Err(error),
            _ => Ok(()),
        }
    }

    fn remove_temporaries(&self) -> io::Result<()> {
        for folder in ["", "packs", "index", "snapshots"] {
            let Ok(entries) = fs::read_dir(self.root.join(folder)) else { continue };
            for entry in entries.flatten() {
                let name = entry.file_name();
                if name.to_str().is_some_and(|name| is_temporary(name) && name.contains(".tmp-")) {
                    faults::step("removal");
                    fs::remove_file(entry.path())?;
                }
            }
        }
        Ok(())
    }

    fn staging(&self) -> &Path {
        &self.staging
    }

    fn try_lock(&self) -> io::Result<Result<WriterLock, String>> {
        let path = self.path(LOCK_FILE);
        let mut file = OpenOptions::new().read(true).write(true).create(true).truncate(false).open(&path)?;
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
