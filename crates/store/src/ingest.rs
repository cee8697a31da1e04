//! `put`: walk the inputs, cut files into content-defined chunks, address
//! the chunks in batches (chunks of many files, and of one file, in one
//! call), store each new chunk once, then the trees and the snapshot root.

use crate::address::{Address, AddressHasher, Hashing};
use crate::error::{Error, Result};
use crate::object::{self, Content, Entry, Node, Snapshot, Tree, INLINE_ADDRESSES, LIST_FANOUT};
use crate::restore::{MAX_SNAPSHOT_ENTRIES, MAX_TREE_DEPTH};
use crate::sizes::ChunkSizes;
use crate::store::{Commit, Store};
use fastcdc::v2020::{self, Normalization};
use std::ffi::OsStr;
use std::fs::{self, File, Metadata};
use std::io::{self, Read};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::{DirEntryExt, MetadataExt, OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant, SystemTime};

/// Bytes read ahead before the waiting chunks are hashed together: enough
/// for 128 chunks of the default average, or thousands of small files.
const BATCH_BYTES: usize = 8 << 20;

/// How `put` runs.
#[derive(Default)]
pub struct PutOptions<'a> {
    /// How BLAKE3 addresses are computed (the bytes are the same in every
    /// mode).
    pub hashing: Hashing,
    /// Called with the number of input bytes read since the last call.
    pub progress: Option<&'a mut dyn FnMut(u64)>,
    /// Testing only: called after each file is read and before it is
    /// checked for changes, so a test can change it at that moment.
    #[doc(hidden)]
    pub after_read: Option<&'a mut dyn FnMut(&Path)>,
}

impl std::fmt::Debug for PutOptions<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PutOptions").field("hashing", &self.hashing).finish_non_exhaustive()
    }
}

/// What `put` did.
#[derive(Clone, Debug)]
pub struct PutReport {
    /// The new snapshot.
    pub snapshot: Address,
    /// Regular files stored.
    pub files: u64,
    /// Directories stored.
    pub dirs: u64,
    /// Symbolic links stored.
    pub symlinks: u64,
    /// Bytes of the files.
    pub bytes: u64,
    /// Sizes of the chunks the files were cut into (stored or not).
    pub chunk_sizes: ChunkSizes,
    /// Chunks that were new to the store.
    pub new_chunks: u64,
    /// Bytes of those chunks.
    pub new_bytes: u64,
    /// Metadata objects (trees, chunk lists, the root) that were new.
    pub new_objects: u64,
    /// Time spent computing addresses.
    pub hash_time: Duration,
    /// Time of the whole put, commit included.
    pub elapsed: Duration,
    /// Inputs left out, with why: special files found in directories, and
    /// files that were no longer the regular file the walk found when
    /// opened (swapped for a symbolic link, a FIFO, a device or another
    /// file).
    pub skipped: Vec<String>,
}

enum Kind {
    /// A regular file, with the device and inode the walk found.
    File {
        dev: u64,
        ino: u64,
    },
    Dir,
    Symlink(Vec<u8>),
    /// A file left out after the walk (in `PutReport::skipped`).
    Skipped,
}

/// One input found by the walk.
struct Item {
    name: Vec<u8>,
    path: PathBuf,
    kind: Kind,
    mode: u32,
    size: u64,
    /// Children (directories), in name order.
    children: Vec<usize>,
    chunks: Vec<Address>,
    /// The tree's address, once stored (directories).
    tree: Option<Address>,
}

impl Store {
    /// Stores the files, directories and symbolic links at `inputs` as a new
    /// snapshot. Each input becomes an entry of the snapshot's top tree,
    /// named by its last component. Nothing is visible until the snapshot
    /// is durable; on error no snapshot is written.
    pub fn put(&mut self, inputs: &[PathBuf], options: PutOptions<'_>) -> Result<PutReport> {
        let start = Instant::now();
        let time = SystemTime::now().duration_since(SystemTime::UNIX_EPOCH).map_or(0, |d| d.as_secs());
        let mut commit = self.begin()?;
        let mut ingest = Ingest::new(self, options);
        let result = ingest.run(self, &mut commit, inputs, time);
        match result {
            Ok(snapshot) => {
                self.finish(commit, &snapshot)?;
                let mut report = ingest.report;
                report.snapshot = snapshot;
                report.hash_time = ingest.hasher.spent;
                report.elapsed = start.elapsed();
                Ok(report)
            }
            Err(error) => {
                self.abandon(commit);
                Err(error)
            }
        }
    }
}

struct Ingest<'a> {
    hasher: AddressHasher,
    min: usize,
    avg: usize,
    max: usize,
    masks: (u64, u64),
    /// Read-ahead: file bytes waiting to be chunked and hashed.
    arena: Vec<u8>,
    filled: usize,
    /// Chunks cut but not hashed yet: (item, start in the arena, length).
    pending: Vec<(usize, usize, usize)>,
    addresses: Vec<Address>,
    progress: Option<&'a mut dyn FnMut(u64)>,
    after_read: Option<&'a mut dyn FnMut(&Path)>,
    report: PutReport,
}

fn io_error<'p>(action: &'static str, path: &'p Path) -> impl FnOnce(io::Error) -> Error + 'p {
    move |source| Error::io(action, path, source)
}

impl<'a> Ingest<'a> {
    fn new(store: &Store, options: PutOptions<'a>) -> Ingest<'a> {
        let chunker = store.manifest().chunker;
        let (min, avg, max) = (chunker.min as usize, chunker.avg as usize, chunker.max as usize);
        Ingest {
            hasher: store.hasher(options.hashing),
            min,
            avg,
            max,
            masks: v2020::select_masks(avg, Normalization::Level1),
            // Room for a carried partial chunk plus a batch.
            arena: vec![0u8; BATCH_BYTES.max(4 * max)],
            filled: 0,
            pending: Vec::new(),
            addresses: Vec::new(),
            progress: options.progress,
            after_read: options.after_read,
            report: PutReport {
                snapshot: Address::PLACEHOLDER,
                files: 0,
                dirs: 0,
                symlinks: 0,
                bytes: 0,
                chunk_sizes: ChunkSizes::default(),
                new_chunks: 0,
                new_bytes: 0,
                new_objects: 0,
                hash_time: Duration::ZERO,
                elapsed: Duration::ZERO,
                skipped: Vec::new(),
            },
        }
    }

    fn run(&mut self, store: &Store, commit: &mut Commit, inputs: &[PathBuf], time: u64) -> Result<Address> {
        let (mut items, top) = self.walk(inputs)?;
        for index in 0..items.len() {
            if matches!(items[index].kind, Kind::File { .. }) {
                self.read_file(store, commit, &mut items, index)?;
            }
        }
        self.flush(store, commit, &mut items)?;
        // Children come after their parent in the walk, so going backwards
        // stores every tree before the tree that names it.
        for index in (0..items.len()).rev() {
            if matches!(items[index].kind, Kind::Dir) {
                let children = std::mem::take(&mut items[index].children);
                let tree = self.tree(store, commit, &mut items, &children)?;
                items[index].tree = Some(tree);
            }
        }
        let tree = self.tree(store, commit, &mut items, &top)?;
        let snapshot = Snapshot { time, tree, files: self.report.files, bytes: self.report.bytes };
        self.object(store, commit, &snapshot.encode())
    }

    /// Lists every input, depth first, each directory's entries in name
    /// order. Returns the items and the top-level ones, in name order.
    fn walk(&mut self, inputs: &[PathBuf]) -> Result<(Vec<Item>, Vec<usize>)> {
        let mut items = Vec::new();
        let mut top: Vec<usize> = Vec::new();
        for input in inputs {
            let name = top_name(input)?;
            if top.iter().any(|&other| items_name(&items, other) == name.as_slice()) {
                return Err(Error::BadInput {
                    path: input.clone(),
                    reason: format!("another input is also named {:?}", String::from_utf8_lossy(&name)),
                });
            }
            let metadata = fs::symlink_metadata(input).map_err(io_error("reading", input))?;
            let kind = if metadata.is_dir() {
                Kind::Dir
            } else if metadata.is_file() {
                Kind::File { dev: metadata.dev(), ino: metadata.ino() }
            } else if metadata.file_type().is_symlink() {
                Kind::Symlink(
                    fs::read_link(input).map_err(io_error("reading the link", input))?.as_os_str().as_bytes().to_vec(),
                )
            } else {
                return Err(Error::BadInput {
                    path: input.clone(),
                    reason: "not a regular file, directory or symbolic link".into(),
                });
            };
            let index = self.add_item(&mut items, name, input.clone(), kind, metadata.mode() & 0o7777, 1)?;
            top.push(index);
        }
        top.sort_by(|&a, &b| items_name(&items, a).cmp(items_name(&items, b)));
        Ok((items, top))
    }

    /// Adds an item, and everything under it when it is a directory, whose
    /// tree would be `depth` levels below the snapshot's top tree. A tree
    /// deeper than `get` follows, or more entries than a snapshot may hold,
    /// is refused here rather than stored and found unrestorable.
    fn add_item(
        &mut self,
        items: &mut Vec<Item>,
        name: Vec<u8>,
        path: PathBuf,
        kind: Kind,
        mode: u32,
        depth: usize,
    ) -> Result<usize> {
        let index = items.len();
        if index as u64 >= MAX_SNAPSHOT_ENTRIES {
            return Err(Error::BadInput {
                path,
                reason: format!("more than {MAX_SNAPSHOT_ENTRIES} entries, the most a snapshot holds"),
            });
        }
        let is_dir = matches!(kind, Kind::Dir);
        match &kind {
            Kind::File { .. } => self.report.files += 1,
            Kind::Dir => self.report.dirs += 1,
            Kind::Symlink(_) => self.report.symlinks += 1,
            Kind::Skipped => {}
        }
        items.push(Item { name, path, kind, mode, size: 0, children: Vec::new(), chunks: Vec::new(), tree: None });
        if is_dir {
            if depth > MAX_TREE_DEPTH {
                return Err(Error::BadInput {
                    path: items[index].path.clone(),
                    reason: format!("directories nest deeper than {MAX_TREE_DEPTH} levels, the most a snapshot holds"),
                });
            }
            self.add_children(items, index, depth)?;
        }
        Ok(index)
    }

    fn add_children(&mut self, items: &mut Vec<Item>, index: usize, depth: usize) -> Result<()> {
        let dir = items[index].path.clone();
        // A file's device and inode, to check that what `read_file` opens is
        // the file walked: the directory's device and the inode number the
        // listing gives (no lstat per file: one per file cost 6% of an
        // ingest of small files; `open_walked` says when the two differ).
        let dir_dev = fs::symlink_metadata(&dir).map_err(io_error("reading", &dir))?.dev();
        let mut entries = Vec::new();
        for entry in fs::read_dir(&dir).map_err(io_error("reading the directory", &dir))? {
            let entry = entry.map_err(io_error("reading the directory", &dir))?;
            let file_type = entry.file_type().map_err(io_error("reading", &entry.path()))?;
            let identity = if file_type.is_file() { Some((dir_dev, entry.ino())) } else { None };
            entries.push((entry.file_name(), file_type, identity));
        }
        entries.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
        for (name, file_type, identity) in entries {
            let path = dir.join(&name);
            let (kind, mode) = if file_type.is_dir() {
                let metadata = fs::symlink_metadata(&path).map_err(io_error("reading", &path))?;
                (Kind::Dir, metadata.mode() & 0o7777)
            } else if let Some((dev, ino)) = identity {
                // The mode comes from the open file, when it is read.
                (Kind::File { dev, ino }, 0)
            } else if file_type.is_symlink() {
                let target = fs::read_link(&path).map_err(io_error("reading the link", &path))?;
                (Kind::Symlink(target.as_os_str().as_bytes().to_vec()), 0o777)
            } else {
                self.report
                    .skipped
                    .push(format!("{}: skipped: not a regular file, directory or symbolic link", path.display()));
                continue;
            };
            let child = self.add_item(items, name.as_bytes().to_vec(), path, kind, mode, depth + 1)?;
            items[index].children.push(child);
        }
        Ok(())
    }

    /// Reads one file into the arena, cutting chunks as it goes; hashes and
    /// stores the waiting chunks whenever the arena is full. A file that is
    /// no longer the one walked is left out, with a message in `skipped`.
    fn read_file(&mut self, store: &Store, commit: &mut Commit, items: &mut [Item], index: usize) -> Result<()> {
        let path = items[index].path.clone();
        let Kind::File { dev, ino } = items[index].kind else {
            return Ok(());
        };
        let (mut file, before) = match open_walked(&path, dev, ino)? {
            Ok(opened) => opened,
            Err(reason) => {
                self.report.skipped.push(format!("{}: skipped: {reason}", path.display()));
                self.report.files -= 1;
                items[index].kind = Kind::Skipped;
                return Ok(());
            }
        };
        items[index].mode = before.permissions().mode() & 0o7777;
        let size = before.len();
        let mut read = 0u64;
        let mut unchunked = self.filled;
        loop {
            if self.filled == self.arena.len() {
                self.flush(store, commit, items)?;
                self.arena.copy_within(unchunked..self.filled, 0);
                self.filled -= unchunked;
                unchunked = 0;
            }
            let end = read >= size || {
                let want = (self.arena.len() - self.filled).min((size - read).min(usize::MAX as u64) as usize);
                let n = read_some(&mut file, &mut self.arena[self.filled..self.filled + want])
                    .map_err(io_error("reading", &path))?;
                self.filled += n;
                read += n as u64;
                if let Some(progress) = &mut self.progress {
                    progress(n as u64);
                }
                n == 0
            };
            while unchunked < self.filled {
                let (_, len) = v2020::cut(
                    &self.arena[unchunked..self.filled],
                    self.min,
                    self.avg,
                    self.max,
                    self.masks.0,
                    self.masks.1,
                    self.masks.0 << 1,
                    self.masks.1 << 1,
                );
                // A chunk reaching the end of what was read may be cut short
                // by it: wait for more bytes unless the file has ended.
                if unchunked + len == self.filled && !end {
                    break;
                }
                self.pending.push((index, unchunked, len));
                unchunked += len;
            }
            if end {
                break;
            }
        }
        if let Some(hook) = &mut self.after_read {
            hook(&path);
        }
        let after = file.metadata().map_err(io_error("reading", &path))?;
        let changed = if read != size {
            Some(format!("{size} bytes when opened, {read} read"))
        } else if after.len() != size {
            Some(format!("{size} bytes when opened, {} after reading", after.len()))
        } else if after.modified().ok() != before.modified().ok() {
            Some("modified while being read".to_string())
        } else {
            None
        };
        if let Some(reason) = changed {
            return Err(Error::FileChanged { path, reason });
        }
        items[index].size = size;
        self.report.bytes += size;
        Ok(())
    }

    /// Hashes every waiting chunk in one call and stores the new ones.
    fn flush(&mut self, store: &Store, commit: &mut Commit, items: &mut [Item]) -> Result<()> {
        let slices: Vec<&[u8]> = self.pending.iter().map(|&(_, start, len)| &self.arena[start..start + len]).collect();
        self.addresses.clear();
        self.hasher.addresses(&slices, &mut self.addresses);
        let mut records = Vec::with_capacity(slices.len());
        for ((&(item, _, len), address), bytes) in self.pending.iter().zip(&self.addresses).zip(&slices) {
            items[item].chunks.push(*address);
            self.report.chunk_sizes.add(len as u64);
            records.push((*address, *bytes));
        }
        let (new_chunks, new_bytes) = store.add_all(commit, &records)?;
        self.report.new_chunks += new_chunks;
        self.report.new_bytes += new_bytes;
        self.pending.clear();
        // The carried partial chunk of the file being read stays where it is.
        Ok(())
    }

    /// Stores a metadata object; returns its address.
    fn object(&mut self, store: &Store, commit: &mut Commit, bytes: &[u8]) -> Result<Address> {
        let address = self.hasher.address(bytes);
        if store.add(commit, &address, bytes)? {
            self.report.new_objects += 1;
        }
        Ok(address)
    }

    /// Stores the tree of `children`; returns its address.
    fn tree(&mut self, store: &Store, commit: &mut Commit, items: &mut [Item], children: &[usize]) -> Result<Address> {
        let mut tree = Tree::default();
        for &child in children {
            let item = &mut items[child];
            let node = match &item.kind {
                Kind::Skipped => continue,
                Kind::File { .. } => {
                    let chunks = std::mem::take(&mut item.chunks);
                    let (mode, size) = (item.mode, item.size);
                    Node::File { mode, size, content: self.content(store, commit, chunks)? }
                }
                Kind::Dir => Node::Dir { mode: item.mode, tree: item.tree.unwrap_or(Address::PLACEHOLDER) },
                Kind::Symlink(target) => Node::Symlink { target: target.clone() },
            };
            tree.entries.push(Entry { name: items[child].name.clone(), node });
        }
        self.object(store, commit, &tree.encode())
    }

    /// A file's content: its chunk addresses, inline when few, else in
    /// chunk-list objects of up to `LIST_FANOUT` addresses, level by level.
    fn content(&mut self, store: &Store, commit: &mut Commit, chunks: Vec<Address>) -> Result<Content> {
        let mut content = Content { level: 0, addresses: chunks };
        while content.addresses.len() > INLINE_ADDRESSES {
            let mut lists = Vec::with_capacity(content.addresses.len().div_ceil(LIST_FANOUT));
            for part in content.addresses.chunks(LIST_FANOUT) {
                let list = Content { level: content.level, addresses: part.to_vec() };
                lists.push(self.object(store, commit, &list.encode_list())?);
            }
            content = Content { level: content.level + 1, addresses: lists };
        }
        Ok(content)
    }
}

fn items_name(items: &[Item], index: usize) -> &[u8] {
    &items[index].name
}

/// The name an input gets in the snapshot's top tree.
fn top_name(input: &Path) -> Result<Vec<u8>> {
    let name = match input.file_name() {
        Some(name) => name.to_os_string(),
        None => {
            let absolute = fs::canonicalize(input).map_err(io_error("reading", input))?;
            absolute.file_name().map(OsStr::to_os_string).ok_or_else(|| Error::BadInput {
                path: input.to_path_buf(),
                reason: "the root directory has no name to store it under; give its entries instead".into(),
            })?
        }
    };
    let name = name.as_bytes().to_vec();
    if !object::is_valid_name(&name) {
        return Err(Error::BadInput { path: input.to_path_buf(), reason: "cannot be stored under that name".into() });
    }
    Ok(name)
}

/// Opens a file the walk found as the regular file of device `dev` and
/// inode `ino`, without following a symbolic link (`O_NOFOLLOW`) or
/// waiting for a FIFO's writer (`O_NONBLOCK`, which regular files ignore;
/// `O_NOCTTY`, so a terminal never becomes the process's), then checks what
/// it opened. The inner `Err` says why the file is not what was walked: it
/// was swapped after the walk, and is skipped rather than failing the put,
/// as special files found by the walk are.
fn open_walked(path: &Path, dev: u64, ino: u64) -> Result<std::result::Result<(File, Metadata), String>> {
    let opened =
        fs::OpenOptions::new().read(true).custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK | libc::O_NOCTTY).open(path);
    let file = match opened {
        Ok(file) => file,
        // O_NOFOLLOW refuses a symbolic link with ELOOP; a socket cannot be
        // opened (ENXIO).
        Err(error) if error.raw_os_error() == Some(libc::ELOOP) => {
            return Ok(Err("replaced by a symbolic link after the walk; not followed".into()));
        }
        Err(error) if error.raw_os_error() == Some(libc::ENXIO) => {
            return Ok(Err("replaced by a socket or device after the walk".into()));
        }
        Err(error) => return Err(Error::io("opening", path, error)),
    };
    let metadata = file.metadata().map_err(io_error("reading", path))?;
    if !metadata.is_file() {
        return Ok(Err("replaced by a FIFO, socket or device after the walk; not read".into()));
    }
    if (metadata.dev(), metadata.ino()) != (dev, ino) && !is_mount_point(path, &metadata, dev) {
        return Ok(Err("replaced by another file after the walk".into()));
    }
    Ok(Ok((file, metadata)))
}

/// Whether `opened` is the file another file system puts at `path` (a
/// bind-mounted file, or an overlay's lower layer): the walk's identity
/// of a file inside a directory is the directory's device and the inode
/// number of the listing, which are not the file's there. Then the path,
/// looked up again, must name the very file opened, on a device other
/// than its directory's.
fn is_mount_point(path: &Path, opened: &Metadata, dir_dev: u64) -> bool {
    fs::symlink_metadata(path).is_ok_and(|now| {
        now.is_file() && (now.dev(), now.ino()) == (opened.dev(), opened.ino()) && now.dev() != dir_dev
    })
}

/// One `read`, retried when interrupted.
fn read_some(file: &mut File, buf: &mut [u8]) -> io::Result<usize> {
    loop {
        match file.read(buf) {
            Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
            other => return other,
        }
    }
}
