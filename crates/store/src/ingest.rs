//! `put`: walk the inputs, cut files into content-defined chunks, address
//! the chunks in batches (chunks of many files, and of one file, in one
//! call), store each new chunk once, then the trees and the snapshot root.

use crate::address::{Address, AddressHasher, Hashing};
use crate::error::{Error, Result};
use crate::object::{self, Content, Entry, FileRoot, Node, Snapshot, Tree, INLINE_ADDRESSES, LIST_FANOUT};
use crate::pipeline::{self, FileEnd, Part};
use crate::restore::{MAX_SNAPSHOT_ENTRIES, MAX_TREE_DEPTH};
use crate::roots::{GROUP_LOG, PIECE_LEN};
use crate::sizes::ChunkSizes;
use crate::store::{Commit, Store};
use chunkhash::blake3::Hash;
use std::ffi::OsStr;
use std::fs;
use std::io;
use std::num::NonZeroUsize;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::{DirEntryExt, MetadataExt};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant, SystemTime};

/// Bytes read ahead before the waiting chunks are hashed together: enough
/// for 128 chunks of the default average, or thousands of small files.
/// Each reading thread has a few such arenas (`pipeline`).
const BATCH_BYTES: usize = 8 << 20;

/// How `put` runs.
#[derive(Default)]
pub struct PutOptions<'a> {
    /// How BLAKE3 addresses are computed (the bytes are the same in every
    /// mode).
    pub hashing: Hashing,
    /// Called with the number of input bytes read, chunked and addressed
    /// since the last call (on the calling thread).
    pub progress: Option<&'a mut dyn FnMut(u64)>,
    /// Threads that read, chunk and address files (default: one per core,
    /// `std::thread::available_parallelism`); 1 does everything on the
    /// calling thread. Packs are always written by the calling thread, in
    /// file order, so the store's files are the same for every count.
    pub threads: Option<NonZeroUsize>,
    /// The snapshot's time in seconds since 1970 (default: now). With it
    /// fixed, a put of the same files into the same store is reproducible
    /// byte for byte.
    pub time: Option<u64>,
    /// Record each file's BLAKE3 root (the hash `b3sum` prints) and its Bao
    /// outboard (chunk groups of 16 KiB, [`GROUP_LOG`](crate::GROUP_LOG)),
    /// which `ls` shows and ranged reads ([`Store::read_range`]) verify
    /// against. Computed as the file is read (no second read); it costs one
    /// more BLAKE3 pass over the bytes, on the reading threads, and 0.4% of
    /// the data in outboards.
    pub roots: bool,
    /// Testing only: called after each file is read and before it is
    /// checked for changes, so a test can change it at that moment (on the
    /// thread that read it).
    #[doc(hidden)]
    pub after_read: Option<&'a (dyn Fn(&Path) + Sync)>,
    /// Testing only: bytes of each read-ahead arena (default 8 MiB; at
    /// least 4 maximum chunks), so a test's small files span several.
    #[doc(hidden)]
    pub arena_bytes: Option<usize>,
}

impl std::fmt::Debug for PutOptions<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PutOptions")
            .field("hashing", &self.hashing)
            .field("threads", &self.threads)
            .field("time", &self.time)
            .field("roots", &self.roots)
            .finish_non_exhaustive()
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
    /// Time spent computing addresses, summed over the threads.
    pub hash_time: Duration,
    /// Time spent computing BLAKE3 roots and outboards, summed over the
    /// threads (zero without [`PutOptions::roots`]).
    pub root_time: Duration,
    /// Threads allowed to read, chunk and address files (fewer run when
    /// there are fewer files).
    pub threads: usize,
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
    /// A file's BLAKE3 root and its outboard's pieces, when recorded.
    root: Option<(Hash, Vec<Address>)>,
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
        let time = options
            .time
            .unwrap_or_else(|| SystemTime::now().duration_since(SystemTime::UNIX_EPOCH).map_or(0, |d| d.as_secs()));
        let mut commit = self.begin()?;
        let mut ingest = Ingest::new(self, options);
        let result = ingest.run(self, &mut commit, inputs, time);
        match result {
            Ok(snapshot) => {
                self.finish(commit, &snapshot)?;
                let mut report = ingest.report;
                report.snapshot = snapshot;
                report.hash_time += ingest.hasher.spent;
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
    /// Addresses the metadata objects (file chunks are addressed by the
    /// reading threads).
    hasher: AddressHasher,
    settings: pipeline::Settings<'a>,
    progress: Option<&'a mut dyn FnMut(u64)>,
    report: PutReport,
}

fn io_error<'p>(action: &'static str, path: &'p Path) -> impl FnOnce(io::Error) -> Error + 'p {
    move |source| Error::io(action, path, source)
}

impl<'a> Ingest<'a> {
    fn new(store: &Store, options: PutOptions<'a>) -> Ingest<'a> {
        let chunker = store.manifest().chunker;
        let threads =
            options.threads.or_else(|| std::thread::available_parallelism().ok()).map_or(1, NonZeroUsize::get);
        let max = chunker.max as usize;
        let settings = pipeline::Settings {
            min: chunker.min as usize,
            avg: chunker.avg as usize,
            max,
            algorithm: store.algorithm(),
            hashing: options.hashing,
            // Room for a carried partial chunk plus a batch.
            arena_len: options.arena_bytes.unwrap_or(BATCH_BYTES).max(4 * max),
            threads,
            roots: options.roots,
            after_read: options.after_read,
        };
        Ingest {
            hasher: store.hasher(options.hashing),
            settings,
            progress: options.progress,
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
                root_time: Duration::ZERO,
                threads,
                elapsed: Duration::ZERO,
                skipped: Vec::new(),
            },
        }
    }

    fn run(&mut self, store: &Store, commit: &mut Commit, inputs: &[PathBuf], time: u64) -> Result<Address> {
        let (mut items, top) = self.walk(inputs)?;
        let files: Vec<pipeline::Input> = items
            .iter()
            .enumerate()
            .filter_map(|(item, found)| match found.kind {
                Kind::File { dev, ino } => Some(pipeline::Input { item, path: found.path.clone(), dev, ino }),
                _ => None,
            })
            .collect();
        let settings = &self.settings;
        let (report, progress) = (&mut self.report, &mut self.progress);
        pipeline::run(settings, &files, &mut |part| write_part(store, commit, &mut items, report, progress, part))?;
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
        items.push(Item {
            name,
            path,
            kind,
            mode,
            size: 0,
            children: Vec::new(),
            chunks: Vec::new(),
            root: None,
            tree: None,
        });
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
                    let recorded = item.root.take();
                    let (mode, size) = (item.mode, item.size);
                    let content = self.content(store, commit, chunks)?;
                    let root = match recorded {
                        None => None,
                        Some((root, pieces)) => {
                            let outboard = self.content(store, commit, pieces)?;
                            Some(FileRoot { root, group_log: GROUP_LOG, outboard })
                        }
                    };
                    Node::File { mode, size, content, root }
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

/// Stores a part's new chunks (the calling thread, in file order), and
/// notes the files that ended in it.
fn write_part(
    store: &Store,
    commit: &mut Commit,
    items: &mut [Item],
    report: &mut PutReport,
    progress: &mut Option<&mut dyn FnMut(u64)>,
    part: &Part,
) -> Result<()> {
    let mut records = Vec::with_capacity(part.chunks.len());
    for (chunk, address) in part.chunks.iter().zip(&part.addresses) {
        items[chunk.item].chunks.push(*address);
        report.chunk_sizes.add(chunk.len as u64);
        records.push((*address, &part.arena[chunk.start..chunk.start + chunk.len]));
    }
    let (new_chunks, new_bytes) = store.add_all(commit, &records)?;
    report.new_chunks += new_chunks;
    report.new_bytes += new_bytes;
    report.hash_time += part.hash_time;
    report.root_time += part.root_time;
    for end in &part.ends {
        match end {
            FileEnd::Read { item, mode, size, root } => {
                items[*item].mode = *mode;
                items[*item].size = *size;
                report.bytes += size;
                if let Some(root) = root {
                    let pieces: Vec<(Address, &[u8])> =
                        root.pieces.iter().copied().zip(root.outboard.chunks(PIECE_LEN)).collect();
                    let (new_pieces, _) = store.add_all(commit, &pieces)?;
                    report.new_objects += new_pieces;
                    items[*item].root = Some((root.root, root.pieces.clone()));
                }
            }
            FileEnd::Skipped { item, reason } => {
                report.skipped.push(format!("{}: skipped: {reason}", items[*item].path.display()));
                report.files -= 1;
                items[*item].kind = Kind::Skipped;
            }
        }
    }
    if let Some(progress) = progress {
        progress(part.read);
    }
    Ok(())
}
