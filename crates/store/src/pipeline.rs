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
//!
//! A file longer than an arena (with more than one thread, and without
//! roots, which are made in one pass over the file) is cut in segments
//! that any worker may take ([`Split`]): the worker that opened it
//! publishes it and takes its segments in order, and the others take its
//! next segments before they claim new files when an arena is at hand
//! (without one they claim new files rather than wait), so one large file
//! is cut and addressed on every core. Each segment is cut from its first byte as
//! if a cut were there, reading one maximum chunk past its end for its
//! last chunk; the writer joins each segment to the file's chunks before
//! it (`chunkhash::cdc::join_segment`, the join of the CLI's parallel
//! chunker), cutting and addressing alone the few chunks between where the
//! file's chunks reach and where they meet the segment's. So the chunks,
//! and the store, are those of one thread. A worker other than the owner
//! claims a segment only with an arena in hand (it may wait for one
//! before, never after), so the writer, waiting for that segment, never
//! waits on a worker that waits for the writer. A worker that finds every
//! file claimed waits for segments while any other still reads a group.

use crate::address::{Address, AddressHasher, Hashing};
use crate::error::{Error, Result};
use crate::roots::{OutboardBuilder, PIECE_LEN};
use chunkhash::blake3::Hash;
use chunkhash::cdc::join_segment;
use chunkhash::Algorithm;
use fastcdc::v2020::{self, Normalization};
use std::collections::HashMap;
use std::fs::{self, File, Metadata};
use std::io::{self, Read};
use std::os::unix::fs::{FileExt, MetadataExt, OpenOptionsExt, PermissionsExt};
use std::panic::{self, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

/// A worker stops claiming the next file for its group once it has read
/// an arena's length over this (1 MiB of 8 MiB arenas): enough for
/// hundreds of small files per batch call, little enough that large files
/// spread over the workers.
const GROUP_PER_ARENA: u64 = 8;

/// The most files a worker claims at once (small ones: [`Worker::block_len`]).
const MAX_BLOCK: usize = 256;

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
    /// Set on a segment of a split file: its chunks are joined to the
    /// file's by the writer.
    segment: Option<Segment>,
}

/// Where a segment of a split file lies: its arena holds the file's bytes
/// from `start` on (`len` of them), its chunks were cut from `start` up to
/// the first that ends at or past `stop`.
#[derive(Clone, Copy)]
struct Segment {
    item: usize,
    start: u64,
    stop: u64,
    len: usize,
}

/// A large file cut in segments, which any worker may take.
struct Split {
    /// The group it ends, and where its segments go in the group's parts.
    group: usize,
    first_seq: usize,
    /// Its position in the inputs.
    position: usize,
    item: usize,
    file: File,
    /// What the file was when opened.
    before: Metadata,
    size: u64,
    mode: u32,
    /// Bytes of each segment but the last.
    segment: u64,
    /// The next segment to take.
    next: AtomicU64,
}

impl Split {
    fn segments(&self) -> u64 {
        self.size.div_ceil(self.segment)
    }

    /// Takes the next segment, if one is left.
    fn claim(&self) -> Option<u64> {
        let k = self.next.fetch_add(1, Ordering::AcqRel);
        (k < self.segments()).then_some(k)
    }

    fn exhausted(&self) -> bool {
        self.next.load(Ordering::Acquire) >= self.segments()
    }
}

/// The split files whose segments are not all taken, and how many workers
/// read a group (and may yet split a file).
struct Splits {
    list: Mutex<Vec<Arc<Split>>>,
    /// Signalled when a file is split and when a worker ends a group.
    changed: Condvar,
    reading: AtomicUsize,
}

impl Splits {
    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<Arc<Split>>> {
        self.list.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

/// Counts a worker as reading a group while it lives (until a panic, too).
struct Reading<'a>(&'a Splits);

impl<'a> Reading<'a> {
    fn new(splits: &'a Splits) -> Reading<'a> {
        splits.reading.fetch_add(1, Ordering::AcqRel);
        Reading(splits)
    }
}

impl Drop for Reading<'_> {
    fn drop(&mut self) {
        self.0.reading.fetch_sub(1, Ordering::AcqRel);
        // Under the lock, so a worker between its check and its wait
        // cannot miss it.
        let _list = self.0.lock();
        self.0.changed.notify_all();
    }
}

/// A sequence number no part has: the message of a worker that panicked,
/// which ends the put wherever its group's parts are.
const PANICKED: usize = usize::MAX;

/// Cuts content-defined chunks with the store's FastCDC settings.
struct Cutter {
    min: usize,
    avg: usize,
    max: usize,
    masks: (u64, u64),
}

impl Cutter {
    fn new(settings: &Settings<'_>) -> Cutter {
        let masks = v2020::select_masks(settings.avg, Normalization::Level1);
        Cutter { min: settings.min, avg: settings.avg, max: settings.max, masks }
    }

    /// The length of the chunk starting `bytes`, which hold the rest of
    /// the file or at least a maximum chunk.
    fn cut(&self, bytes: &[u8]) -> usize {
        let (_, len) = v2020::cut(
            bytes,
            self.min,
            self.avg,
            self.max,
            self.masks.0,
            self.masks.1,
            self.masks.0 << 1,
            self.masks.1 << 1,
        );
        len
    }

    /// Bytes of a split file's segments: the arena's length less a
    /// maximum chunk (read past a segment's end for its last chunk), a
    /// multiple of the maximum chunk, so the segments of data cut only at
    /// the maximum (zeros) start on the file's cuts.
    fn segment_len(&self, arena_len: usize) -> u64 {
        ((arena_len - self.max) / self.max * self.max) as u64
    }
}

/// Reads, cuts and addresses every input, calling `write` with each part in
/// input order on the calling thread. The first error in input order is
/// returned (an error of `write` as soon as it happens); parts after it are
/// not written.
pub(crate) fn run(settings: &Settings<'_>, inputs: &[Input], write: &mut dyn FnMut(&Part) -> Result<()>) -> Result<()> {
    // More threads than files still help: a large file is split.
    let threads = settings.threads.max(1);
    if threads == 1 || inputs.is_empty() {
        return inline(settings, inputs, write);
    }
    let cursor = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let splits = Splits { list: Mutex::new(Vec::new()), changed: Condvar::new(), reading: AtomicUsize::new(0) };
    let (parts, received) = mpsc::channel();
    let mut returns = Vec::with_capacity(threads);
    std::thread::scope(|scope| {
        for worker in 0..threads {
            let (give_back, returned) = mpsc::channel();
            returns.push(give_back);
            let mut sink = Channel { worker, parts: parts.clone(), returned, allocated: 0, group: 0, seq: 0 };
            let (cursor, stop, splits) = (&cursor, &stop, &splits);
            scope.spawn(move || {
                let mut reader = Worker::new(settings, inputs, Some(splits));
                let claim = |position: usize| {
                    position < inputs.len()
                        && !stop.load(Ordering::Relaxed)
                        && cursor.compare_exchange(position, position + 1, Ordering::AcqRel, Ordering::Acquire).is_ok()
                };
                // Whether the worker ended with nothing left to do.
                let body = panic::catch_unwind(AssertUnwindSafe(|| {
                    while !stop.load(Ordering::Relaxed) {
                        // A split file's segments first: the writer waits
                        // for them before any later file.
                        match reader.help(&mut sink) {
                            Some(true) => continue,
                            Some(false) => return false,
                            None => {}
                        }
                        let reading = Reading::new(splits);
                        let block = reader.block_len();
                        let first = cursor.fetch_add(block, Ordering::AcqRel);
                        if first >= inputs.len() {
                            // Every file is claimed; the ones other workers
                            // split are not all read yet.
                            drop(reading);
                            return reader.drain(&mut sink, stop);
                        }
                        reader.working = Some(first);
                        let reserved = first.saturating_add(block).min(inputs.len());
                        let going_on = reader.group(first, reserved, &claim, &mut sink);
                        drop(reading);
                        if !going_on {
                            return false;
                        }
                    }
                    false
                }));
                // A failed group stops everyone from starting new ones (a
                // worker that ran out of work stops no one: the others may
                // still be reading split files).
                if !matches!(body, Ok(true)) {
                    stop.store(true, Ordering::Relaxed);
                    // Wakes the workers waiting for segments.
                    let _list = splits.lock();
                    splits.changed.notify_all();
                }
                if let Err(payload) = body {
                    // The writer may be waiting for this group while the
                    // other workers wait for arenas it holds: an error in
                    // the group's place ends the put (and frees them); the
                    // scope raises the panic when the threads are joined.
                    if let Some(group) = reader.working.filter(|group| *group < inputs.len()) {
                        let source = io::Error::other("a reading thread panicked");
                        let error = Err(Error::io("reading", &inputs[group].path, source));
                        let _ = sink.parts.send((worker, group, PANICKED, error));
                    }
                    panic::resume_unwind(payload);
                }
            });
        }
        drop(parts);
        let result = write_in_order(settings, received, returns, inputs, write);
        // On an error the receivers are gone: workers see their sends and
        // waits fail, and end.
        stop.store(true, Ordering::Relaxed);
        {
            let _list = splits.lock();
            splits.changed.notify_all();
        }
        result
    })
}

/// Everything on the calling thread: one worker whose parts are written as
/// they are made.
fn inline(settings: &Settings<'_>, inputs: &[Input], write: &mut dyn FnMut(&Part) -> Result<()>) -> Result<()> {
    let mut sink = Inline { write, spare: None, error: None, next: 0 };
    let mut reader = Worker::new(settings, inputs, None);
    let mut next = 0;
    while next < inputs.len() {
        if !reader.group(next, next + 1, &|position| position < inputs.len(), &mut sink) {
            break;
        }
        next = sink.next;
    }
    match sink.error {
        Some(error) => Err(error),
        None => Ok(()),
    }
}

/// A worker's message: its number, the group and the part's place in the
/// group's parts, and the part.
type Message = (usize, usize, usize, Result<Part>);

/// The writer's side: takes each group's parts in input order (parts that
/// come early wait in `waiting`), joins split files' segments, writes the
/// parts, gives the arenas back.
fn write_in_order(
    settings: &Settings<'_>,
    received: Receiver<Message>,
    returns: Vec<Sender<Vec<u8>>>,
    inputs: &[Input],
    write: &mut dyn FnMut(&Part) -> Result<()>,
) -> Result<()> {
    let mut waiting: HashMap<(usize, usize), (usize, Result<Part>)> = HashMap::new();
    let (mut next, mut seq) = (0, 0);
    let mut joiner = Joiner::new(settings);
    while next < inputs.len() {
        let (worker, result) = match waiting.remove(&(next, seq)) {
            Some(message) => message,
            None => {
                if let Some((_, panicked)) = waiting.remove(&(next, PANICKED)) {
                    // Always an error (the panic is raised when the
                    // threads are joined).
                    panicked?;
                }
                match received.recv() {
                    Ok((worker, group, place, result)) => {
                        waiting.insert((group, place), (worker, result));
                        continue;
                    }
                    // Every worker ended before the inputs did: one
                    // panicked (the panic is raised when the threads are
                    // joined).
                    Err(_) => {
                        let source = io::Error::other("a reading thread stopped");
                        return Err(Error::io("reading", &inputs[next].path, source));
                    }
                }
            }
        };
        let mut part = result?;
        if let Some(segment) = part.segment {
            joiner.join(&mut part, &segment);
        }
        write(&part)?;
        match part.group_end {
            Some(end) => (next, seq) = (end, 0),
            None => seq += 1,
        }
        // A group of skipped files alone read into no arena. A worker that
        // has ended no longer takes arenas back.
        if !part.arena.is_empty() {
            let _ = returns[worker].send(part.arena);
        }
    }
    Ok(())
}

/// The writer's join of a split file's segments.
struct Joiner {
    cutter: Cutter,
    hasher: AddressHasher,
    /// Where the chunks of the file being joined end so far.
    end: u64,
}

impl Joiner {
    fn new(settings: &Settings<'_>) -> Joiner {
        Joiner {
            cutter: Cutter::new(settings),
            hasher: AddressHasher::new(settings.algorithm, settings.hashing),
            end: 0,
        }
    }

    /// Makes the part's chunks the file's chunks in its segment: the ones
    /// cut alone from where the file's chunks end until they meet the
    /// segment's, then the segment's from there.
    fn join(&mut self, part: &mut Part, segment: &Segment) {
        if segment.start == 0 {
            self.end = 0;
        }
        let bytes = &part.arena[..segment.len];
        let mut alone = Vec::new();
        let (cutter, start) = (&self.cutter, segment.start);
        let from = join_segment(
            &part.chunks,
            |chunk| start + chunk.start as u64,
            self.end,
            segment.stop,
            |at| {
                let at = (at - start) as usize;
                let len = cutter.cut(&bytes[at..]);
                alone.push(Chunk { item: segment.item, start: at, len });
                len
            },
        );
        if from > 0 || !alone.is_empty() {
            let mut addresses = address(&mut self.hasher, bytes, &alone);
            addresses.extend_from_slice(&part.addresses[from..]);
            alone.extend(part.chunks.drain(from..));
            part.chunks = alone;
            part.addresses = addresses;
            part.hash_time += std::mem::take(&mut self.hasher.spent);
        }
        if let Some(last) = part.chunks.last() {
            self.end = start + (last.start + last.len) as u64;
        }
    }
}

/// Where a worker's parts go, and where its arenas come from.
trait Sink {
    /// An arena of `len` bytes to read into; `None` once the put stops.
    fn arena(&mut self, len: usize) -> Option<Vec<u8>>;
    /// An arena if one is at hand without waiting.
    fn spare_arena(&mut self, len: usize) -> Option<Vec<u8>>;
    /// Hands over the next part of the group starting at input `group`, or
    /// the error that ends it; false once the put stops.
    fn send(&mut self, group: usize, part: Result<Part>) -> bool {
        let place = self.next_place(group);
        self.send_at(group, place, part)
    }
    /// Where the next part this sink sends of `group` goes in its parts.
    fn next_place(&self, group: usize) -> usize;
    /// Hands over the part at `place` in the group's parts.
    fn send_at(&mut self, group: usize, place: usize, part: Result<Part>) -> bool;
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

    fn spare_arena(&mut self, len: usize) -> Option<Vec<u8>> {
        self.arena(len)
    }

    fn next_place(&self, _group: usize) -> usize {
        0
    }

    fn send_at(&mut self, _group: usize, _place: usize, part: Result<Part>) -> bool {
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
    parts: Sender<Message>,
    returned: Receiver<Vec<u8>>,
    allocated: usize,
    /// The group this worker sent a part of last, and the place of its
    /// next part there.
    group: usize,
    seq: usize,
}

impl Sink for Channel {
    fn arena(&mut self, len: usize) -> Option<Vec<u8>> {
        if self.allocated < BUFFERS_PER_WORKER {
            self.allocated += 1;
            return Some(vec![0; len]);
        }
        self.returned.recv().ok()
    }

    fn spare_arena(&mut self, len: usize) -> Option<Vec<u8>> {
        if self.allocated < BUFFERS_PER_WORKER {
            self.allocated += 1;
            return Some(vec![0; len]);
        }
        self.returned.try_recv().ok()
    }

    fn next_place(&self, group: usize) -> usize {
        if group == self.group {
            self.seq
        } else {
            0
        }
    }

    fn send_at(&mut self, group: usize, place: usize, part: Result<Part>) -> bool {
        (self.group, self.seq) = (group, place + 1);
        let failed = part.is_err();
        self.parts.send((self.worker, group, place, part)).is_ok() && !failed
    }
}

/// One reader: its arena, the chunks cut but not yet handed over, its
/// hasher.
struct Worker<'s> {
    settings: &'s Settings<'s>,
    inputs: &'s [Input],
    cutter: Cutter,
    hasher: AddressHasher,
    /// Where large files are published for the other workers; `None` on
    /// one thread.
    splits: Option<&'s Splits>,
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
    /// The group this worker reads a part of, or one of whose split
    /// file's segments (where a panic is reported).
    working: Option<usize>,
    /// A running mean of the sizes of the files this worker read.
    mean_size: u64,
}

/// How reading a file went.
enum FileRead {
    /// The group goes on.
    Done,
    /// The file was split; its last segment ends the group.
    Split,
    /// The put stops.
    Stop,
}

impl<'s> Worker<'s> {
    fn new(settings: &'s Settings<'s>, inputs: &'s [Input], splits: Option<&'s Splits>) -> Worker<'s> {
        Worker {
            settings,
            inputs,
            cutter: Cutter::new(settings),
            hasher: AddressHasher::new(settings.algorithm, settings.hashing),
            splits,
            arena: Vec::new(),
            filled: 0,
            chunks: Vec::new(),
            ends: Vec::new(),
            read: 0,
            group_read: 0,
            root_time: Duration::ZERO,
            working: None,
            mean_size: settings.arena_len as u64,
        }
    }

    /// How many files to claim at once: as many as the recent files'
    /// mean size fits in a group's share of an arena (one for large files,
    /// up to `MAX_BLOCK` for small ones). Claiming small files one at a
    /// time, workers took every other file from each other and ended each
    /// other's groups after a file or two: thousands of parts, each with an
    /// arena and two wake-ups.
    fn block_len(&self) -> usize {
        let share = self.settings.arena_len as u64 / GROUP_PER_ARENA;
        (share / self.mean_size.max(1)).clamp(1, MAX_BLOCK as u64) as usize
    }

    /// Reads the group starting at input `first`: the inputs up to
    /// `reserved` (claimed already), then the ones after them, claimed one
    /// at a time, while the group is small. A split file ends its group;
    /// the reserved inputs after it make another. False once the put
    /// stops.
    fn group(&mut self, first: usize, reserved: usize, claim: &dyn Fn(usize) -> bool, sink: &mut dyn Sink) -> bool {
        let (mut group, mut position) = (first, first);
        self.group_read = 0;
        loop {
            match self.read_file(position, group, sink) {
                Ok(FileRead::Done) => {}
                Ok(FileRead::Split) => {
                    position += 1;
                    if position >= reserved {
                        return true;
                    }
                    (group, self.group_read) = (position, 0);
                    self.working = Some(group);
                    continue;
                }
                Ok(FileRead::Stop) => return false,
                Err(error) => {
                    sink.send(group, Err(error));
                    return false;
                }
            }
            position += 1;
            if position < reserved {
                continue;
            }
            if self.group_read >= self.settings.arena_len as u64 / GROUP_PER_ARENA || !claim(position) {
                break;
            }
        }
        self.hand_over(group, Some(position), None, sink)
    }

    /// Addresses the waiting chunks and hands them over with the arena.
    /// With `carry`, the bytes from there on (a partial chunk of the file
    /// being read) move to the start of a fresh arena; without, the next
    /// read takes a fresh arena. False once the put stops.
    fn hand_over(&mut self, group: usize, group_end: Option<usize>, carry: Option<usize>, sink: &mut dyn Sink) -> bool {
        let next = match carry {
            None => Vec::new(),
            Some(keep) => {
                let Some(mut next) = sink.arena(self.arena.len()) else { return false };
                next[..self.filled - keep].copy_from_slice(&self.arena[keep..self.filled]);
                next
            }
        };
        let addresses = address(&mut self.hasher, &self.arena, &self.chunks);
        let part = Part {
            arena: std::mem::replace(&mut self.arena, next),
            chunks: std::mem::take(&mut self.chunks),
            addresses,
            ends: std::mem::take(&mut self.ends),
            read: std::mem::take(&mut self.read),
            hash_time: std::mem::take(&mut self.hasher.spent),
            root_time: std::mem::take(&mut self.root_time),
            group_end,
            segment: None,
        };
        self.filled -= carry.unwrap_or(self.filled);
        sink.send(group, Ok(part))
    }

    /// Reads one file into the arena, cutting chunks as it goes, handing
    /// each full arena over; or splits it, when large. A file that is no
    /// longer the one walked is left out, with a reason in its [`FileEnd`].
    fn read_file(&mut self, position: usize, group: usize, sink: &mut dyn Sink) -> Result<FileRead> {
        let input = &self.inputs[position];
        let path = &input.path;
        let (mut file, before) = match open_walked(path, input.dev, input.ino)? {
            Ok(opened) => opened,
            Err(reason) => {
                self.ends.push(FileEnd::Skipped { item: input.item, reason });
                return Ok(FileRead::Done);
            }
        };
        let size = before.len();
        self.mean_size = (self.mean_size * 3 + size) / 4;
        if self.splits.is_some() && !self.settings.roots && size > self.settings.arena_len as u64 {
            return Ok(self.split(position, group, file, &before, sink));
        }
        if self.arena.is_empty() {
            let Some(arena) = sink.arena(self.settings.arena_len) else { return Ok(FileRead::Stop) };
            self.arena = arena;
        }
        let mut read = 0u64;
        let mut unchunked = self.filled;
        let mut builder = self.settings.roots.then(OutboardBuilder::new);
        loop {
            if self.filled == self.arena.len() {
                if !self.hand_over(group, None, Some(unchunked), sink) {
                    return Ok(FileRead::Stop);
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
                let len = self.cutter.cut(&self.arena[unchunked..self.filled]);
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
        } else {
            changed(&before, &after)
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
        Ok(FileRead::Done)
    }

    /// Publishes a large file for every worker, after handing over what
    /// the group holds so far, and takes its segments until none is left.
    fn split(&mut self, position: usize, group: usize, file: File, before: &Metadata, sink: &mut dyn Sink) -> FileRead {
        if (self.filled > 0 || !self.ends.is_empty()) && !self.hand_over(group, None, None, sink) {
            return FileRead::Stop;
        }
        let split = Arc::new(Split {
            group,
            first_seq: sink.next_place(group),
            position,
            item: self.inputs[position].item,
            file,
            before: before.clone(),
            size: before.len(),
            mode: before.permissions().mode() & 0o7777,
            segment: self.cutter.segment_len(self.settings.arena_len),
            next: AtomicU64::new(0),
        });
        if let Some(splits) = self.splits {
            splits.lock().push(Arc::clone(&split));
            splits.changed.notify_all();
        }
        while let Some(k) = split.claim() {
            if !self.segment(&split, k, sink) {
                return FileRead::Stop;
            }
        }
        FileRead::Split
    }

    /// Takes the next segment of a split file, if one is left and an
    /// arena is at hand: `Some(false)` once the put stops, `None` when
    /// there was nothing to take.
    fn help(&mut self, sink: &mut dyn Sink) -> Option<bool> {
        let splits = self.splits?;
        let split = {
            let mut list = splits.lock();
            earliest(&mut list)?
        };
        if self.arena.is_empty() {
            self.arena = sink.spare_arena(self.settings.arena_len)?;
        }
        let k = split.claim()?;
        Some(self.segment(&split, k, sink))
    }

    /// Once every file is claimed: takes the segments of the files other
    /// workers split, waiting for them while any worker still reads a
    /// group. Waiting for an arena here is safe: it holds no segment the
    /// writer waits for. True when nothing is left; false once the put
    /// stops.
    fn drain(&mut self, sink: &mut dyn Sink, stop: &AtomicBool) -> bool {
        let Some(splits) = self.splits else { return true };
        loop {
            let split = {
                let mut list = splits.lock();
                loop {
                    if stop.load(Ordering::Relaxed) {
                        return false;
                    }
                    if let Some(split) = earliest(&mut list) {
                        break split;
                    }
                    if splits.reading.load(Ordering::Acquire) == 0 {
                        return true;
                    }
                    list = splits.changed.wait(list).unwrap_or_else(|poisoned| poisoned.into_inner());
                }
            };
            if self.arena.is_empty() {
                let Some(arena) = sink.arena(self.settings.arena_len) else { return false };
                self.arena = arena;
            }
            if let Some(k) = split.claim() {
                if !self.segment(&split, k, sink) {
                    return false;
                }
            }
        }
    }

    /// Reads, cuts and addresses segment `k` of a split file, and hands it
    /// over in its place; false once the put stops.
    fn segment(&mut self, split: &Split, k: u64, sink: &mut dyn Sink) -> bool {
        let place = split.first_seq + k as usize;
        let group = self.working.replace(split.group);
        let going_on = match self.read_segment(split, k, sink) {
            Ok(Some(part)) => sink.send_at(split.group, place, Ok(part)),
            Ok(None) => false,
            Err(error) => {
                sink.send_at(split.group, place, Err(error));
                false
            }
        };
        self.working = group;
        going_on
    }

    fn read_segment(&mut self, split: &Split, k: u64, sink: &mut dyn Sink) -> Result<Option<Part>> {
        let path = &self.inputs[split.position].path;
        let mut arena = std::mem::take(&mut self.arena);
        if arena.is_empty() {
            let Some(fresh) = sink.arena(self.settings.arena_len) else { return Ok(None) };
            arena = fresh;
        }
        let start = k * split.segment;
        let stop = (start + split.segment).min(split.size);
        // One maximum chunk past the end, for the segment's last chunk.
        let len = (split.size - start).min(split.segment + self.settings.max as u64) as usize;
        let mut filled = 0;
        while filled < len {
            let n = match split.file.read_at(&mut arena[filled..len], start + filled as u64) {
                Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
                other => other.map_err(|e| Error::io("reading", path, e))?,
            };
            if n == 0 {
                let reason = format!("{} bytes when opened, {} read", split.size, start + filled as u64);
                return Err(Error::FileChanged { path: path.clone(), reason });
            }
            filled += n;
        }
        let last = stop == split.size;
        if last {
            if let Some(hook) = self.settings.after_read {
                hook(path);
            }
        }
        let after = split.file.metadata().map_err(|e| Error::io("reading", path, e))?;
        if let Some(reason) = changed(&split.before, &after) {
            return Err(Error::FileChanged { path: path.clone(), reason });
        }
        // Cut from the segment's first byte, up to the chunk that ends at
        // or past its end.
        let mut chunks = Vec::new();
        let mut at = 0;
        while at < len && ((start + at as u64) < stop) {
            let chunk = self.cutter.cut(&arena[at..len]);
            chunks.push(Chunk { item: split.item, start: at, len: chunk });
            at += chunk;
        }
        let addresses = address(&mut self.hasher, &arena, &chunks);
        let ends = if last {
            vec![FileEnd::Read { item: split.item, mode: split.mode, size: split.size, root: None }]
        } else {
            Vec::new()
        };
        Ok(Some(Part {
            arena,
            chunks,
            addresses,
            ends,
            read: stop - start,
            hash_time: std::mem::take(&mut self.hasher.spent),
            root_time: Duration::ZERO,
            group_end: last.then_some(split.position + 1),
            segment: Some(Segment { item: split.item, start, stop, len }),
        }))
    }
}

/// Drops the split files whose segments are all taken; the earliest of the
/// others (the writer needs its segments first).
fn earliest(list: &mut Vec<Arc<Split>>) -> Option<Arc<Split>> {
    list.retain(|split| !split.exhausted());
    list.iter().min_by_key(|split| split.group).cloned()
}

/// The addresses of `chunks` of `arena`.
fn address(hasher: &mut AddressHasher, arena: &[u8], chunks: &[Chunk]) -> Vec<Address> {
    let slices: Vec<&[u8]> = chunks.iter().map(|chunk| &arena[chunk.start..chunk.start + chunk.len]).collect();
    let mut addresses = Vec::with_capacity(slices.len());
    hasher.addresses(&slices, &mut addresses);
    addresses
}

/// Why a file read whole differs from the one opened, if it does.
fn changed(before: &Metadata, after: &Metadata) -> Option<String> {
    if after.len() != before.len() {
        Some(format!("{} bytes when opened, {} after reading", before.len(), after.len()))
    } else if after.modified().ok() != before.modified().ok() {
        Some("modified while being read".to_string())
    } else {
        None
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
