//! `put`'s reading side on every core: threads read files, cut them into
//! content-defined chunks and address the chunks, and hand the results to
//! the calling thread in file order, which alone writes packs. The records
//! a store gets are the chunks in file order, deduplicated by first
//! appearance, whichever thread cut them and however files were grouped,
//! so the packs, the index and the snapshot are the same for every thread
//! count; and every durable write stays on one thread, in the order the
//! crash tests check.
//!
//! Std threads rather than rayon: the store depends on no thread pool, the
//! work is a queue of file groups with a writer consuming them in order,
//! and a scoped thread per worker (`std::thread::scope`) borrows the inputs
//! without `Arc`s.
//!
//! How the work is cut: a worker claims the next file from a shared cursor
//! and keeps claiming the files after it (one compare-and-swap each) until
//! its group holds an eighth of an arena (`GROUP_PER_ARENA`), so small files are addressed many to a
//! batch call (SIMD lanes across files) and large ones start groups of
//! their own. A large file is read in arenas of `arena_len` bytes; each
//! full arena goes to the writer as one [`Part`]. A worker owns
//! `BUFFERS_PER_WORKER` arenas: one that runs ahead of the writer waits for
//! one back, which bounds memory, and the worker holding the group the
//! writer waits for only ever waits for arenas the writer is consuming, so
//! the pipeline cannot deadlock.

use crate::address::{Address, AddressHasher, Hashing};
use crate::error::{Error, Result};
use crate::roots::{OutboardBuilder, PIECE_LEN};
use chunkhash::blake3::Hash;
use chunkhash::Algorithm;
use fastcdc::v2020::{self, Normalization};
use std::collections::{HashMap, VecDeque};
use std::fs::{self, File, Metadata};
use std::io::{self, Read};
use std::os::unix::fs::{MetadataExt, OpenOptionsExt, PermissionsExt};
use std::panic::{self, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};
use std::time::{Duration, Instant};

/// A worker stops claiming the next file for its group once it has read
/// an arena's length over this (1 MiB of 8 MiB arenas): enough for
/// hundreds of small files per batch call, little enough that large files
/// spread over the workers.
const GROUP_PER_ARENA: u64 = 8;

/// Arenas each worker may have at once (reading one, the others waiting
/// to be written).
const BUFFERS_PER_WORKER: usize = 4;

/// A regular file the walk found, to read.
pub(crate) struct Input {
    /// Its item in the caller's walk.
    pub(crate) item: usize,
    pub(crate) path: PathBuf,
    /// The device and inode the walk found.
    pub(crate) dev: u64,
    pub(crate) ino: u64,
}

/// How the files are read, cut and addressed.
pub(crate) struct Settings<'s> {
    pub(crate) min: usize,
    pub(crate) avg: usize,
    pub(crate) max: usize,
    pub(crate) algorithm: Algorithm,
    pub(crate) hashing: Hashing,
    /// Bytes of one arena: a batch of chunks, and room for a carried
    /// partial chunk.
    pub(crate) arena_len: usize,
    /// Threads reading, cutting and hashing; 1 does it all on the
    /// calling thread.
    pub(crate) threads: usize,
    /// Whether each file's BLAKE3 root and Bao outboard are computed.
    pub(crate) roots: bool,
    /// Testing only: called after each file is read.
    pub(crate) after_read: Option<&'s (dyn Fn(&Path) + Sync)>,
}

/// One chunk of a [`Part`]: of which item, where in the part's arena.
pub(crate) struct Chunk {
    pub(crate) item: usize,
    pub(crate) start: usize,
    pub(crate) len: usize,
}

/// How a file ended.
pub(crate) enum FileEnd {
    /// Read whole and unchanged: its permission bits and size, and its
    /// root when asked for.
    Read { item: usize, mode: u32, size: u64, root: Option<FileRoot> },
    /// Not the file the walk found any more; left out, for this reason.
    Skipped { item: usize, reason: String },
}

/// A file's BLAKE3 root and its outboard, cut into pieces to store, with
/// their addresses.
pub(crate) struct FileRoot {
    pub(crate) root: Hash,
    pub(crate) outboard: Vec<u8>,
    pub(crate) pieces: Vec<Address>,
}

/// What a worker hands to the writer: an arena's chunks, in order, with
/// their addresses, and the files that ended in it (after their last chunk).
pub(crate) struct Part {
    pub(crate) arena: Vec<u8>,
    pub(crate) chunks: Vec<Chunk>,
    pub(crate) addresses: Vec<Address>,
    pub(crate) ends: Vec<FileEnd>,
    /// Input bytes read, cut and addressed for this part.
    pub(crate) read: u64,
    /// Time spent computing its addresses.
    pub(crate) hash_time: Duration,
    /// Time spent computing files' roots and outboards.
    pub(crate) root_time: Duration,
    /// Set on a group's last part: the position of the file after the group.
    group_end: Option<usize>,
}

/// Reads, cuts and addresses every input, calling `write` with each part in
/// input order on the calling thread. The first error in input order is
/// returned (an error of `write` as soon as it happens); parts after it are
/// not written.
pub(crate) fn run(settings: &Settings<'_>, inputs: &[Input], write: &mut dyn FnMut(&Part) -> Result<()>) -> Result<()> {
    let threads = settings.threads.clamp(1, inputs.len().max(1));
    if threads == 1 {
        return inline(settings, inputs, write);
    }
    let cursor = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let (parts, received) = mpsc::channel();
    let mut returns = Vec::with_capacity(threads);
    std::thread::scope(|scope| {
        for worker in 0..threads {
            let (give_back, returned) = mpsc::channel();
            returns.push(give_back);
            let mut sink = Channel { worker, parts: parts.clone(), returned, allocated: 0 };
            let (cursor, stop) = (&cursor, &stop);
            scope.spawn(move || {
                let mut reader = Worker::new(settings, inputs);
                let claim = |position: usize| {
                    position < inputs.len()
                        && !stop.load(Ordering::Relaxed)
                        && cursor.compare_exchange(position, position + 1, Ordering::AcqRel, Ordering::Acquire).is_ok()
                };
                let mut reading = None;
                let body = panic::catch_unwind(AssertUnwindSafe(|| {
                    while !stop.load(Ordering::Relaxed) {
                        let first = cursor.fetch_add(1, Ordering::AcqRel);
                        reading = Some(first);
                        if first >= inputs.len() || !reader.group(first, &claim, &mut sink) {
                            break;
                        }
                    }
                }));
                // A failed group stops everyone from starting new ones.
                stop.store(true, Ordering::Relaxed);
                if let Err(payload) = body {
                    // The writer may be waiting for this group while the
                    // other workers wait for arenas it holds: an error in
                    // the group's place ends the put (and frees them); the
                    // scope raises the panic when the threads are joined.
                    if let Some(group) = reading.filter(|group| *group < inputs.len()) {
                        let source = io::Error::other("a reading thread panicked");
                        let _ =
                            sink.parts.send((worker, group, Err(Error::io("reading", &inputs[group].path, source))));
                    }
                    panic::resume_unwind(payload);
                }
            });
        }
        drop(parts);
        let result = write_in_order(received, returns, inputs, write);
        // On an error the receivers are gone: workers see their sends and
        // waits fail, and end.
        stop.store(true, Ordering::Relaxed);
        result
    })
}

/// Everything on the calling thread: one worker whose parts are written as
/// they are made.
fn inline(settings: &Settings<'_>, inputs: &[Input], write: &mut dyn FnMut(&Part) -> Result<()>) -> Result<()> {
    let mut sink = Inline { write, spare: None, error: None, next: 0 };
    let mut reader = Worker::new(settings, inputs);
    let mut next = 0;
    while next < inputs.len() {
        if !reader.group(next, &|position| position < inputs.len(), &mut sink) {
            break;
        }
        next = sink.next;
    }
    match sink.error {
        Some(error) => Err(error),
        None => Ok(()),
    }
}

/// The writer's side: takes each group's parts in input order (parts of
/// later groups wait in `waiting`), writes them, gives the arenas back.
fn write_in_order(
    received: Receiver<(usize, usize, Result<Part>)>,
    returns: Vec<Sender<Vec<u8>>>,
    inputs: &[Input],
    write: &mut dyn FnMut(&Part) -> Result<()>,
) -> Result<()> {
    let mut waiting: HashMap<usize, VecDeque<(usize, Result<Part>)>> = HashMap::new();
    let mut next = 0;
    while next < inputs.len() {
        let queued = waiting.get_mut(&next).and_then(VecDeque::pop_front);
        let (worker, result) = match queued {
            Some(message) => message,
            None => match received.recv() {
                Ok((worker, group, result)) if group == next => (worker, result),
                Ok((worker, group, result)) => {
                    waiting.entry(group).or_default().push_back((worker, result));
                    continue;
                }
                // Every worker ended before the inputs did: one panicked
                // (the panic is raised when the threads are joined).
                Err(_) => {
                    let source = io::Error::other("a reading thread stopped");
                    return Err(Error::io("reading", &inputs[next].path, source));
                }
            },
        };
        let part = result?;
        write(&part)?;
        if let Some(end) = part.group_end {
            waiting.remove(&next);
            next = end;
        }
        // A group of skipped files alone read into no arena. A worker that
        // has ended no longer takes arenas back.
        if !part.arena.is_empty() {
            let _ = returns[worker].send(part.arena);
        }
    }
    Ok(())
}

/// Where a worker's parts go, and where its arenas come from.
trait Sink {
    /// An arena of `len` bytes to read into; `None` once the put stops.
    fn arena(&mut self, len: usize) -> Option<Vec<u8>>;
    /// Hands over a part of the group starting at input `group`, or the
    /// error that ends it; false once the put stops.
    fn send(&mut self, group: usize, part: Result<Part>) -> bool;
}

/// The calling thread's sink: writes each part at once.
struct Inline<'w> {
    write: &'w mut dyn FnMut(&Part) -> Result<()>,
    spare: Option<Vec<u8>>,
    error: Option<Error>,
    /// Where the last finished group ended.
    next: usize,
}

impl Sink for Inline<'_> {
    fn arena(&mut self, len: usize) -> Option<Vec<u8>> {
        Some(self.spare.take().unwrap_or_else(|| vec![0; len]))
    }

    fn send(&mut self, _group: usize, part: Result<Part>) -> bool {
        let part = match part {
            Ok(part) => part,
            Err(error) => {
                self.error = Some(error);
                return false;
            }
        };
        if let Err(error) = (self.write)(&part) {
            self.error = Some(error);
            return false;
        }
        if let Some(end) = part.group_end {
            self.next = end;
        }
        if !part.arena.is_empty() {
            self.spare = Some(part.arena);
        }
        true
    }
}

/// A worker thread's sink: a channel to the writer and one back.
struct Channel {
    worker: usize,
    parts: Sender<(usize, usize, Result<Part>)>,
    returned: Receiver<Vec<u8>>,
    allocated: usize,
}

impl Sink for Channel {
    fn arena(&mut self, len: usize) -> Option<Vec<u8>> {
        if self.allocated < BUFFERS_PER_WORKER {
            self.allocated += 1;
            return Some(vec![0; len]);
        }
        self.returned.recv().ok()
    }

    fn send(&mut self, group: usize, part: Result<Part>) -> bool {
        let failed = part.is_err();
        self.parts.send((self.worker, group, part)).is_ok() && !failed
    }
}

/// One reader: its arena, the chunks cut but not yet handed over, its
/// hasher.
struct Worker<'s> {
    settings: &'s Settings<'s>,
    inputs: &'s [Input],
    masks: (u64, u64),
    hasher: AddressHasher,
    /// Empty until the first read, and after a group's last part.
    arena: Vec<u8>,
    filled: usize,
    chunks: Vec<Chunk>,
    ends: Vec<FileEnd>,
    /// Bytes read since the last part, and since the group started.
    read: u64,
    group_read: u64,
    /// Time spent on roots since the last part.
    root_time: Duration,
}

impl<'s> Worker<'s> {
    fn new(settings: &'s Settings<'s>, inputs: &'s [Input]) -> Worker<'s> {
        Worker {
            settings,
            inputs,
            masks: v2020::select_masks(settings.avg, Normalization::Level1),
            hasher: AddressHasher::new(settings.algorithm, settings.hashing),
            arena: Vec::new(),
            filled: 0,
            chunks: Vec::new(),
            ends: Vec::new(),
            read: 0,
            group_read: 0,
            root_time: Duration::ZERO,
        }
    }

    /// Reads the group starting at input `first`, claiming the inputs after
    /// it while the group is small; false once the put stops.
    fn group(&mut self, first: usize, claim: &dyn Fn(usize) -> bool, sink: &mut dyn Sink) -> bool {
        let mut position = first;
        self.group_read = 0;
        loop {
            match self.read_file(position, first, sink) {
                Ok(true) => {}
                Ok(false) => return false,
                Err(error) => {
                    sink.send(first, Err(error));
                    return false;
                }
            }
            position += 1;
            if self.group_read >= self.settings.arena_len as u64 / GROUP_PER_ARENA || !claim(position) {
                break;
            }
        }
        self.hand_over(first, Some(position), self.filled, sink)
    }

    /// Addresses the waiting chunks and hands them over with the arena;
    /// the bytes from `keep` on (a partial chunk of the file being read)
    /// move to the start of a fresh arena, unless the group has ended
    /// (`group_end`). False once the put stops.
    fn hand_over(&mut self, group: usize, group_end: Option<usize>, keep: usize, sink: &mut dyn Sink) -> bool {
        let next = if group_end.is_some() {
            Vec::new()
        } else {
            let Some(mut next) = sink.arena(self.arena.len()) else { return false };
            next[..self.filled - keep].copy_from_slice(&self.arena[keep..self.filled]);
            next
        };
        let slices: Vec<&[u8]> =
            self.chunks.iter().map(|chunk| &self.arena[chunk.start..chunk.start + chunk.len]).collect();
        let mut addresses = Vec::with_capacity(slices.len());
        self.hasher.addresses(&slices, &mut addresses);
        drop(slices);
        let part = Part {
            arena: std::mem::replace(&mut self.arena, next),
            chunks: std::mem::take(&mut self.chunks),
            addresses,
            ends: std::mem::take(&mut self.ends),
            read: std::mem::take(&mut self.read),
            hash_time: std::mem::take(&mut self.hasher.spent),
            root_time: std::mem::take(&mut self.root_time),
            group_end,
        };
        self.filled -= keep;
        sink.send(group, Ok(part))
    }

    /// Reads one file into the arena, cutting chunks as it goes, handing
    /// each full arena over. A file that is no longer the one walked is
    /// left out, with a reason in its [`FileEnd`]. `Ok(false)` once the put
    /// stops.
    fn read_file(&mut self, position: usize, group: usize, sink: &mut dyn Sink) -> Result<bool> {
        let input = &self.inputs[position];
        let path = &input.path;
        let (mut file, before) = match open_walked(path, input.dev, input.ino)? {
            Ok(opened) => opened,
            Err(reason) => {
                self.ends.push(FileEnd::Skipped { item: input.item, reason });
                return Ok(true);
            }
        };
        if self.arena.is_empty() {
            let Some(arena) = sink.arena(self.settings.arena_len) else { return Ok(false) };
            self.arena = arena;
        }
        let (min, avg, max) = (self.settings.min, self.settings.avg, self.settings.max);
        let size = before.len();
        let mut read = 0u64;
        let mut unchunked = self.filled;
        let mut builder = self.settings.roots.then(OutboardBuilder::new);
        loop {
            if self.filled == self.arena.len() {
                if !self.hand_over(group, None, unchunked, sink) {
                    return Ok(false);
                }
                unchunked = 0;
            }
            let end = read >= size || {
                let want = (self.arena.len() - self.filled).min((size - read).min(usize::MAX as u64) as usize);
                let n = read_some(&mut file, &mut self.arena[self.filled..self.filled + want])
                    .map_err(|e| Error::io("reading", path, e))?;
                if let Some(builder) = &mut builder {
                    let start = Instant::now();
                    builder.update(&self.arena[self.filled..self.filled + n]);
                    self.root_time += start.elapsed();
                }
                self.filled += n;
                read += n as u64;
                self.read += n as u64;
                self.group_read += n as u64;
                n == 0
            };
            while unchunked < self.filled {
                let (_, len) = v2020::cut(
                    &self.arena[unchunked..self.filled],
                    min,
                    avg,
                    max,
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
                self.chunks.push(Chunk { item: input.item, start: unchunked, len });
                unchunked += len;
            }
            if end {
                break;
            }
        }
        if let Some(hook) = self.settings.after_read {
            hook(path);
        }
        let after = file.metadata().map_err(|e| Error::io("reading", path, e))?;
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
            return Err(Error::FileChanged { path: path.clone(), reason });
        }
        let root = builder.map(|builder| {
            let start = Instant::now();
            let (root, outboard) = builder.finish();
            self.root_time += start.elapsed();
            let slices: Vec<&[u8]> = outboard.chunks(PIECE_LEN).collect();
            let mut pieces = Vec::with_capacity(slices.len());
            self.hasher.addresses(&slices, &mut pieces);
            FileRoot { root, outboard, pieces }
        });
        self.ends.push(FileEnd::Read { item: input.item, mode: before.permissions().mode() & 0o7777, size, root });
        Ok(true)
    }
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
    let metadata = file.metadata().map_err(|e| Error::io("reading", path, e))?;
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
