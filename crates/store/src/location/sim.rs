//! A simulated file system for the crash tests: what a power cut may lose.
//!
//! [`SimFs`] keeps files and directories in memory and logs every step that
//! changes them (a creation, a write, a truncation, an fsync of a file or of
//! a directory, a rename, a hard link, a removal). [`SimFs::crash`] replays
//! the first N steps of the log and then cuts the power, choosing by a seed
//! what is lost, within what POSIX file systems allow:
//!
//! - bytes written to a file since its last fsync may be lost or cut short:
//!   the file keeps its synced bytes plus the first k of its later writes
//!   (and truncations), in order, the last of them cut at any byte;
//! - the entries of a directory (creations, renames, links, removals) since
//!   its last fsync may be undone: a prefix of them is kept, or (one time in
//!   four, stricter than a journaling file system) any subset of them;
//! - a rename within a directory is atomic: the new name points at the file,
//!   or the old names are as they were;
//! - what was fsynced survives: a file's bytes after an fsync of the file, a
//!   directory's entries after an fsync of the directory.
//!
//! A file none of whose names survive is gone. The writer lock is a flag in
//! memory (a power cut releases it). This is what ALICE (OSDI '14) calls an
//! abstract persistence model; the ext4 and XFS defaults lose less.

use super::fs::{Fs, FsFile, FsHandle};
use super::WriterLock;
use std::collections::hash_map::DefaultHasher;
use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::fmt;
use std::hash::{Hash, Hasher};
use std::io::{self, IoSlice, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard};

/// A simulated file system; clones share it. See the module docs.
#[derive(Clone, Default)]
pub struct SimFs {
    inner: Arc<Mutex<Inner>>,
}

#[derive(Default)]
struct Inner {
    /// The state the log starts from.
    base: State,
    state: State,
    log: Vec<Op>,
    locked: HashSet<PathBuf>,
}

type Ino = u64;

#[derive(Clone, Default)]
struct State {
    dirs: BTreeMap<PathBuf, Dir>,
    inodes: BTreeMap<Ino, Inode>,
    next_ino: Ino,
}

#[derive(Clone, Default)]
struct Dir {
    entries: BTreeMap<String, Ino>,
    durable: BTreeMap<String, Ino>,
    pending: Vec<DirOp>,
}

#[derive(Clone, Debug)]
enum DirOp {
    Set(String, Ino),
    Remove(String),
    Rename(String, String, Ino),
}

#[derive(Clone, Default)]
struct Inode {
    data: Vec<u8>,
    durable: Vec<u8>,
    pending: Vec<DataOp>,
}

#[derive(Clone)]
enum DataOp {
    Write(u64, Arc<[u8]>),
    Truncate(u64),
}

/// One logged step.
#[derive(Clone)]
enum Op {
    Create(PathBuf),
    Write(Ino, u64, Arc<[u8]>),
    Truncate(Ino, u64),
    SyncFile(Ino),
    SyncDir(PathBuf),
    Rename(PathBuf, PathBuf),
    Link(PathBuf, PathBuf),
    Unlink(PathBuf),
}

impl fmt::Debug for Op {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Op::Create(path) => write!(f, "create {}", path.display()),
            Op::Write(ino, offset, bytes) => write!(f, "write of {} bytes at {offset} to file #{ino}", bytes.len()),
            Op::Truncate(ino, len) => write!(f, "truncation of file #{ino} to {len} bytes"),
            Op::SyncFile(ino) => write!(f, "fsync of file #{ino}"),
            Op::SyncDir(path) => write!(f, "fsync of directory {}", path.display()),
            Op::Rename(from, to) => write!(f, "rename {} to {}", from.display(), to.display()),
            Op::Link(from, to) => write!(f, "link {} to {}", from.display(), to.display()),
            Op::Unlink(path) => write!(f, "unlink {}", path.display()),
        }
    }
}

fn not_found(path: &Path) -> io::Error {
    io::Error::new(io::ErrorKind::NotFound, format!("{}: no such file (simulated)", path.display()))
}

/// The path without `.` components and trailing slashes, the key of the maps.
fn normal(path: &Path) -> PathBuf {
    path.components().filter(|c| !matches!(c, std::path::Component::CurDir)).collect()
}

fn split(path: &Path) -> io::Result<(PathBuf, String)> {
    let path = normal(path);
    let name = path.file_name().and_then(|n| n.to_str()).ok_or_else(|| not_found(&path))?.to_string();
    Ok((path.parent().map(Path::to_path_buf).unwrap_or_default(), name))
}

fn write_at(data: &mut Vec<u8>, offset: u64, bytes: &[u8]) {
    let offset = offset as usize;
    if data.len() < offset + bytes.len() {
        data.resize(offset + bytes.len(), 0);
    }
    data[offset..offset + bytes.len()].copy_from_slice(bytes);
}

fn apply_dir_op(entries: &mut BTreeMap<String, Ino>, op: &DirOp) {
    match op {
        DirOp::Set(name, ino) => {
            entries.insert(name.clone(), *ino);
        }
        DirOp::Remove(name) => {
            entries.remove(name);
        }
        DirOp::Rename(from, to, ino) => {
            if entries.get(from) == Some(ino) {
                entries.remove(from);
            }
            entries.insert(to.clone(), *ino);
        }
    }
}

impl State {
    fn dir_mut(&mut self, path: &Path) -> io::Result<&mut Dir> {
        self.dirs.get_mut(path).ok_or_else(|| not_found(path))
    }

    fn lookup(&self, path: &Path) -> io::Result<Ino> {
        let (dir, name) = split(path)?;
        self.dirs.get(&dir).and_then(|d| d.entries.get(&name)).copied().ok_or_else(|| not_found(path))
    }

    fn inode(&self, path: &Path) -> io::Result<&Inode> {
        let ino = self.lookup(path)?;
        Ok(&self.inodes[&ino])
    }

    fn set_entry(&mut self, path: &Path, ino: Ino) -> io::Result<()> {
        let (dir, name) = split(path)?;
        let dir = self.dir_mut(&dir)?;
        dir.entries.insert(name.clone(), ino);
        dir.pending.push(DirOp::Set(name, ino));
        Ok(())
    }

    fn remove_entry(&mut self, path: &Path) -> io::Result<Ino> {
        let (dir_path, name) = split(path)?;
        let dir = self.dir_mut(&dir_path)?;
        let ino = dir.entries.remove(&name).ok_or_else(|| not_found(path))?;
        dir.pending.push(DirOp::Remove(name));
        Ok(ino)
    }

    fn data_op(&mut self, ino: Ino, op: DataOp) {
        let inode = self.inodes.get_mut(&ino).expect("a file the simulation made");
        match &op {
            DataOp::Write(offset, bytes) => write_at(&mut inode.data, *offset, bytes),
            DataOp::Truncate(len) => inode.data.resize(*len as usize, 0),
        }
        inode.pending.push(op);
    }

    /// Applies one step; returns the file it made or touched.
    fn apply(&mut self, op: &Op) -> io::Result<Ino> {
        match op {
            Op::Create(path) => {
                if let Ok(ino) = self.lookup(path) {
                    // O_TRUNC on the file that is there.
                    self.data_op(ino, DataOp::Truncate(0));
                    return Ok(ino);
                }
                let ino = self.next_ino;
                let (dir, _) = split(path)?;
                self.dir_mut(&dir)?;
                self.next_ino += 1;
                self.inodes.insert(ino, Inode::default());
                self.set_entry(path, ino)?;
                Ok(ino)
            }
            Op::Write(ino, offset, bytes) => {
                self.data_op(*ino, DataOp::Write(*offset, bytes.clone()));
                Ok(*ino)
            }
            Op::Truncate(ino, len) => {
                self.data_op(*ino, DataOp::Truncate(*len));
                Ok(*ino)
            }
            Op::SyncFile(ino) => {
                let inode = self.inodes.get_mut(ino).expect("a file the simulation made");
                inode.durable = inode.data.clone();
                inode.pending.clear();
                Ok(*ino)
            }
            Op::SyncDir(path) => {
                let dir = self.dir_mut(path)?;
                dir.durable = dir.entries.clone();
                dir.pending.clear();
                Ok(0)
            }
            Op::Rename(from, to) => {
                let ino = self.lookup(from)?;
                let (from_dir, from_name) = split(from)?;
                let (to_dir, to_name) = split(to)?;
                self.dir_mut(&to_dir)?;
                if from_dir == to_dir {
                    let dir = self.dir_mut(&from_dir)?;
                    dir.entries.remove(&from_name);
                    dir.entries.insert(to_name.clone(), ino);
                    dir.pending.push(DirOp::Rename(from_name, to_name, ino));
                } else {
                    self.remove_entry(from)?;
                    self.set_entry(to, ino)?;
                }
                Ok(ino)
            }
            Op::Link(from, to) => {
                let ino = self.lookup(from)?;
                if self.lookup(to).is_ok() {
                    return Err(io::Error::new(io::ErrorKind::AlreadyExists, format!("{}: exists", to.display())));
                }
                self.set_entry(to, ino)?;
                Ok(ino)
            }
            Op::Unlink(path) => self.remove_entry(path),
        }
    }

    /// The state after a power cut now, its losses chosen by `rng`.
    fn crash(&self, rng: &mut SplitMix) -> State {
        let mut out = State { next_ino: self.next_ino, ..State::default() };
        let mut alive = BTreeSet::new();
        for (path, dir) in &self.dirs {
            let mut entries = dir.durable.clone();
            if rng.below(4) == 0 {
                for op in &dir.pending {
                    if rng.below(2) == 0 {
                        apply_dir_op(&mut entries, op);
                    }
                }
            } else {
                let kept = rng.below(dir.pending.len() as u64 + 1) as usize;
                for op in &dir.pending[..kept] {
                    apply_dir_op(&mut entries, op);
                }
            }
            alive.extend(entries.values().copied());
            out.dirs.insert(path.clone(), Dir { durable: entries.clone(), entries, pending: Vec::new() });
        }
        for ino in alive {
            let inode = &self.inodes[&ino];
            let mut data = inode.durable.clone();
            let kept = rng.below(inode.pending.len() as u64 + 1) as usize;
            for (i, op) in inode.pending.iter().enumerate().take(kept + 1) {
                match op {
                    DataOp::Write(offset, bytes) if i == kept => {
                        // The first write not kept whole: cut at any byte.
                        let cut = rng.below(bytes.len() as u64 + 1) as usize;
                        write_at(&mut data, *offset, &bytes[..cut]);
                    }
                    DataOp::Write(offset, bytes) => write_at(&mut data, *offset, bytes),
                    DataOp::Truncate(_) if i == kept => {}
                    DataOp::Truncate(len) => data.resize(*len as usize, 0),
                }
            }
            out.inodes.insert(ino, Inode { durable: data.clone(), data, pending: Vec::new() });
        }
        out
    }

    fn fingerprint(&self) -> u64 {
        let mut hasher = DefaultHasher::new();
        for (path, dir) in &self.dirs {
            path.hash(&mut hasher);
            for (name, ino) in &dir.entries {
                name.hash(&mut hasher);
                self.inodes[ino].data.hash(&mut hasher);
            }
        }
        hasher.finish()
    }
}

/// SplitMix64 (Steele, Lea and Flood, OOPSLA 2014): a seeded choice of
/// what a crash loses, with no dependency.
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (n > 0).
    fn below(&mut self, n: u64) -> u64 {
        ((u128::from(self.next()) * u128::from(n)) >> 64) as u64
    }
}

impl SimFs {
    /// An empty file system (no directories).
    pub fn new() -> SimFs {
        SimFs::default()
    }

    fn lock(&self) -> MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    fn step(&self, op: Op) -> io::Result<Ino> {
        let mut inner = self.lock();
        let ino = inner.state.apply(&op)?;
        inner.log.push(op);
        Ok(ino)
    }

    /// Makes a directory and its parents, durably and outside the log: the
    /// setup before the steps are counted.
    ///
    /// # Panics
    /// After the first step.
    pub fn create_dir_all(&self, path: &Path) {
        let mut inner = self.lock();
        assert!(inner.log.is_empty(), "directories are made before the first step");
        let path = normal(path);
        for dir in path.ancestors() {
            inner.state.dirs.entry(dir.to_path_buf()).or_default();
        }
        inner.base = inner.state.clone();
    }

    /// Steps taken so far.
    pub fn steps(&self) -> usize {
        self.lock().log.len()
    }

    /// What step `n` (from 0) was, for messages.
    pub fn describe_step(&self, n: usize) -> String {
        self.lock().log.get(n).map_or_else(|| "no step".to_string(), |op| format!("{op:?}"))
    }

    /// A new file system: this one's state after its first `steps` steps,
    /// then a power cut, what it loses chosen by `seed`. Its log is empty.
    pub fn crash(&self, steps: usize, seed: u64) -> SimFs {
        let inner = self.lock();
        let mut state = inner.base.clone();
        for op in &inner.log[..steps.min(inner.log.len())] {
            state.apply(op).expect("a logged step replays");
        }
        let state = state.crash(&mut SplitMix(seed));
        SimFs {
            inner: Arc::new(Mutex::new(Inner { base: state.clone(), state, log: Vec::new(), locked: HashSet::new() })),
        }
    }

    /// A hash of every directory entry and the bytes of its file: equal
    /// states have equal fingerprints (to count distinct crash states).
    pub fn fingerprint(&self) -> u64 {
        self.lock().state.fingerprint()
    }
}

impl fmt::Debug for SimFs {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let inner = self.lock();
        f.debug_struct("SimFs").field("dirs", &inner.state.dirs.len()).field("steps", &inner.log.len()).finish()
    }
}

/// A file of a [`SimFs`] open for writing.
#[derive(Debug)]
struct SimFile {
    fs: SimFs,
    ino: Ino,
    position: u64,
}

impl Write for SimFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.fs.step(Op::Write(self.ino, self.position, Arc::from(buf)))?;
        self.position += buf.len() as u64;
        Ok(buf.len())
    }

    fn write_vectored(&mut self, bufs: &[IoSlice<'_>]) -> io::Result<usize> {
        self.write(&bufs.iter().flat_map(|buf| buf.iter().copied()).collect::<Vec<u8>>())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

impl FsFile for SimFile {
    fn sync_all(&self) -> io::Result<()> {
        self.fs.step(Op::SyncFile(self.ino)).map(drop)
    }
}

/// A file of a [`SimFs`] open for reading: it keeps reading the same file
/// after a rename or removal, as an open file does.
#[derive(Debug)]
struct SimHandle {
    fs: SimFs,
    ino: Ino,
}

impl FsHandle for SimHandle {
    fn read_exact_at(&self, buf: &mut [u8], offset: u64) -> io::Result<()> {
        let inner = self.fs.lock();
        let data = &inner.state.inodes[&self.ino].data;
        let start = usize::try_from(offset).unwrap_or(usize::MAX);
        match start.checked_add(buf.len()).and_then(|end| data.get(start..end)) {
            Some(bytes) => {
                buf.copy_from_slice(bytes);
                Ok(())
            }
            None => Err(io::Error::new(io::ErrorKind::UnexpectedEof, "failed to fill whole buffer")),
        }
    }
}

/// The writer lock of a [`SimFs`]: a flag, cleared when dropped.
#[derive(Debug)]
struct SimLock {
    fs: SimFs,
    path: PathBuf,
}

impl Drop for SimLock {
    fn drop(&mut self) {
        self.fs.lock().locked.remove(&self.path);
    }
}

impl Fs for SimFs {
    fn create(&self, path: &Path) -> io::Result<Box<dyn FsFile>> {
        let ino = self.step(Op::Create(normal(path)))?;
        Ok(Box::new(SimFile { fs: self.clone(), ino, position: 0 }))
    }

    fn open(&self, path: &Path) -> io::Result<Box<dyn FsHandle>> {
        let ino = self.lock().state.lookup(path)?;
        Ok(Box::new(SimHandle { fs: self.clone(), ino }))
    }

    fn read(&self, path: &Path) -> io::Result<Vec<u8>> {
        Ok(self.lock().state.inode(path)?.data.clone())
    }

    fn len(&self, path: &Path) -> io::Result<u64> {
        Ok(self.lock().state.inode(path)?.data.len() as u64)
    }

    fn list(&self, dir: &Path) -> io::Result<Vec<String>> {
        let inner = self.lock();
        let dir = normal(dir);
        let entries = inner.state.dirs.get(&dir).ok_or_else(|| not_found(&dir))?;
        let mut names: Vec<String> = entries.entries.keys().cloned().collect();
        // Subdirectories are entries too.
        names.extend(
            inner
                .state
                .dirs
                .keys()
                .filter(|d| d.parent() == Some(&dir))
                .filter_map(|d| d.file_name()?.to_str())
                .map(String::from),
        );
        Ok(names)
    }

    fn truncate(&self, path: &Path, len: u64) -> io::Result<()> {
        let ino = self.lock().state.lookup(path)?;
        self.step(Op::Truncate(ino, len)).map(drop)
    }

    fn sync_file(&self, path: &Path) -> io::Result<()> {
        let ino = self.lock().state.lookup(path)?;
        self.step(Op::SyncFile(ino)).map(drop)
    }

    fn sync_dir(&self, dir: &Path) -> io::Result<()> {
        self.step(Op::SyncDir(normal(dir))).map(drop)
    }

    fn rename(&self, from: &Path, to: &Path) -> io::Result<()> {
        self.step(Op::Rename(normal(from), normal(to))).map(drop)
    }

    fn hard_link(&self, from: &Path, to: &Path) -> io::Result<()> {
        self.step(Op::Link(normal(from), normal(to))).map(drop)
    }

    fn remove_file(&self, path: &Path) -> io::Result<()> {
        self.step(Op::Unlink(normal(path))).map(drop)
    }

    fn try_lock(&self, path: &Path) -> io::Result<Result<WriterLock, String>> {
        let path = normal(path);
        if !self.lock().locked.insert(path.clone()) {
            return Ok(Err("held by another simulated writer".to_string()));
        }
        Ok(Ok(Box::new(SimLock { fs: self.clone(), path })))
    }
}
