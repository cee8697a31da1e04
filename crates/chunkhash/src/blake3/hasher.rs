//! The incremental hasher and the extended-output reader.
//!
//! The hasher keeps the bytes of the newest chunk unhashed (the "tail"): until
//! more input arrives, it may be the last chunk, or even the root. Whole chunks
//! that are certainly not last are hashed as soon as `update` sees them,
//! side by side in lanes, and their subtrees are merged on a stack of chaining
//! values. When an update leaves lanes idle, the tail is hashed in one of them
//! as if it were the last chunk; `finalize` then uses that value instead of
//! hashing the tail alone, so a message given in one `update` costs the same as
//! the one-shot `hash`.

use super::hash::Hash;
use super::join::{Join, SerialJoin};
use super::tree::{alignment, largest_power_of_two_at_most, Mode, Output, Subtree, MAX_SUBTREES};
use crate::platform::backend::{Backend, BackendError};
use crate::platform::job::LaneJob;
use crate::platform::spec::{CvBytes, BLOCK_LEN, CHUNK_LEN, KEY_LEN, MAX_LANES, OUT_LEN};
use crate::platform::Platform;
use arrayvec::ArrayVec;
use core::fmt;

/// Enough for 2^64 bytes: a stack entry per set bit of a chunk count below 2^54.
const MAX_DEPTH: usize = 54;

/// An incremental BLAKE3 hasher, for input that arrives in pieces.
///
/// ```
/// use chunkhash::blake3::{self, Hasher};
///
/// let mut hasher = Hasher::new();
/// hasher.update(b"abc").update(b"def");
/// assert_eq!(hasher.finalize(), blake3::hash(b"abcdef"));
///
/// // Extended output: as many bytes as needed, from any position.
/// let mut output = [0u8; 100];
/// hasher.finalize_xof().fill(&mut output);
/// assert_eq!(&output[..32], blake3::hash(b"abcdef").as_bytes());
/// ```
#[derive(Clone)]
pub struct Hasher {
    mode: Mode,
    /// Chaining values of complete subtrees, largest first; one per set bit
    /// of `chunks_done - first_chunk`.
    stack: ArrayVec<CvBytes, MAX_DEPTH>,
    /// The index of the first chunk of the input: 0 for a whole message, more
    /// for a subtree that starts further on (`subtree::SubtreeHasher`).
    first_chunk: u64,
    /// The index of the chunk after those represented by `stack`.
    chunks_done: u64,
    /// The unhashed bytes of chunk number `chunks_done`.
    tail: ArrayVec<u8, CHUNK_LEN>,
    /// The tail's chaining value as a final, non-root chunk, computed early in
    /// an idle lane; cleared whenever the tail changes.
    tail_cv: Option<CvBytes>,
}

impl Hasher {
    fn with_mode(mode: Mode) -> Hasher {
        Self::at_chunk(mode, 0)
    }

    /// A hasher whose input starts at chunk `first_chunk` of a message: its
    /// chunks get their counters from there, and its tree is the subtree
    /// that starts there. Only [`Hasher::finalize_non_root`] is valid unless
    /// `first_chunk` is 0.
    pub(crate) fn at_chunk(mode: Mode, first_chunk: u64) -> Hasher {
        Hasher {
            mode,
            stack: ArrayVec::new(),
            first_chunk,
            chunks_done: first_chunk,
            tail: ArrayVec::new(),
            tail_cv: None,
        }
    }

    /// A hasher for the default hash.
    pub fn new() -> Hasher {
        Self::with_mode(Mode::plain(Platform::detect()))
    }

    /// A hasher for the keyed hash.
    pub fn new_keyed(key: &[u8; KEY_LEN]) -> Hasher {
        Self::with_mode(Mode::keyed(Platform::detect(), key))
    }

    /// A hasher for key derivation; see [`derive_key`](super::derive_key).
    pub fn new_derive_key(context: &str) -> Hasher {
        Self::with_mode(Mode::derive_key(Platform::detect(), context))
    }

    /// A hasher for the default hash that runs on `backend`; an error if this
    /// CPU cannot run it.
    pub fn new_with_backend(backend: Backend) -> Result<Hasher, BackendError> {
        Ok(Self::with_mode(Mode::plain(Platform::new(backend)?)))
    }

    /// A keyed hasher that runs on `backend`.
    pub fn new_keyed_with_backend(backend: Backend, key: &[u8; KEY_LEN]) -> Result<Hasher, BackendError> {
        Ok(Self::with_mode(Mode::keyed(Platform::new(backend)?, key)))
    }

    /// A key-derivation hasher that runs on `backend`.
    pub fn new_derive_key_with_backend(backend: Backend, context: &str) -> Result<Hasher, BackendError> {
        Ok(Self::with_mode(Mode::derive_key(Platform::new(backend)?, context)))
    }

    /// The backend this hasher runs on.
    pub fn backend(&self) -> Backend {
        self.mode.backend()
    }

    /// Forgets all input, keeping the mode (key, context) and backend.
    pub fn reset(&mut self) -> &mut Self {
        self.stack.clear();
        self.chunks_done = self.first_chunk;
        self.tail.clear();
        self.tail_cv = None;
        self
    }

    /// Bytes of input so far.
    pub fn count(&self) -> u64 {
        (self.chunks_done - self.first_chunk) * CHUNK_LEN as u64 + self.tail.len() as u64
    }

    /// Adds input.
    pub fn update(&mut self, input: &[u8]) -> &mut Self {
        self.update_with::<SerialJoin>(input)
    }

    /// Adds input, hashing large inputs on all cores (rayon's global pool).
    /// Gives the same result as [`update`](Hasher::update); worth it from
    /// about 128 KiB.
    #[cfg(feature = "parallel")]
    pub fn update_parallel(&mut self, input: &[u8]) -> &mut Self {
        self.update_with::<super::join::RayonJoin>(input)
    }

    fn update_with<J: Join>(&mut self, mut input: &[u8]) -> &mut Self {
        if input.is_empty() {
            return self;
        }
        // An empty tail before more than a chunk of input (a new hasher, or
        // one that stopped on a chunk boundary) stays empty: `absorb` then
        // starts on the largest aligned subtrees of `input` at once, instead
        // of a chunk in the tail and subtrees doubling from there.
        let straight_to_subtrees = self.tail.is_empty() && input.len() > CHUNK_LEN;
        if !self.tail.is_full() && !straight_to_subtrees {
            let take = self.tail.remaining_capacity().min(input.len());
            self.tail.try_extend_from_slice(&input[..take]).expect("`take` fits the tail's remaining capacity");
            self.tail_cv = None;
            input = &input[take..];
            if input.is_empty() {
                return self;
            }
        }
        // The tail is a whole chunk (or empty) and more input follows, so it
        // is not last.
        self.absorb::<J>(input);
        self
    }

    /// Hashes the tail, full or empty, and every chunk of `input` but the
    /// last, which becomes the new tail. `input` is not empty.
    fn absorb<J: Join>(&mut self, input: &[u8]) {
        let whole_chunks = (input.len() - 1) / CHUNK_LEN;
        let (mut body, new_tail) = input.split_at(whole_chunks * CHUNK_LEN);

        // A copy of the full tail, which the new tail will overwrite, when it
        // was not hashed early.
        let full_tail: [u8; CHUNK_LEN];
        let mut run = Run::new(self.chunks_done);
        match self.tail_cv.take() {
            Some(cv) => {
                self.push_subtree(cv, 1);
                run.first_chunk = self.chunks_done;
            }
            None if self.tail.is_empty() => {}
            None => {
                full_tail = self.tail.as_slice().try_into().expect("`absorb` runs only with a full or empty tail");
                // The full tail leads the first run.
                run.jobs[0] = self.mode.chunk_job(&full_tail, self.chunks_done, false);
                run.len = 1;
            }
        }
        let lanes = self.mode.lanes();
        while !body.is_empty() {
            let next_chunk = run.first_chunk + run.len as u64;
            if run.len == 0 {
                // Aligned subtrees larger than the lanes are hashed whole, with
                // their parents in lanes too: every such subtree in a row in
                // one fork-join, so that two threads share all of them and
                // meet once, not once per subtree.
                let mut subtrees = ArrayVec::<Subtree<'_>, MAX_SUBTREES>::new();
                let mut chunk = next_chunk;
                while !subtrees.is_full() {
                    let available = (body.len() / CHUNK_LEN) as u64;
                    let size = largest_power_of_two_at_most(available.max(1)).min(alignment(chunk - self.first_chunk));
                    if available == 0 || size < 2 * self.mode.leaf_chunks() as u64 {
                        break;
                    }
                    let (input, rest) = body.split_at(size as usize * CHUNK_LEN);
                    subtrees.push(Subtree { input, first_chunk: chunk });
                    chunk += size;
                    body = rest;
                }
                if !subtrees.is_empty() {
                    let mut cvs = [[0u8; OUT_LEN]; MAX_SUBTREES];
                    self.mode.subtree_cv_each::<J>(&subtrees, &mut cvs);
                    for (subtree, cv) in subtrees.iter().zip(&cvs) {
                        self.push_subtree(*cv, (subtree.input.len() / CHUNK_LEN) as u64);
                    }
                    run.first_chunk = self.chunks_done;
                    continue;
                }
            }
            let (chunk, rest) = body.split_at(CHUNK_LEN);
            run.jobs[run.len] = self.mode.chunk_job(chunk, next_chunk, false);
            run.len += 1;
            body = rest;
            if run.len == lanes.max(2) {
                self.flush_run(&run.jobs[..run.len], None);
                run = Run::new(self.chunks_done);
            }
        }
        // Lanes left idle in the last call hash the new tail early.
        let new_tail_index = run.first_chunk + run.len as u64;
        let mut tail_cv = None;
        if run.len > 0 {
            let speculate = run.len < lanes;
            if speculate {
                run.jobs[run.len] = self.mode.chunk_job(new_tail, new_tail_index, false);
            }
            let count = run.len + usize::from(speculate);
            let mut extra = [0u8; OUT_LEN];
            self.flush_run(&run.jobs[..count], speculate.then_some(&mut extra));
            tail_cv = speculate.then_some(extra);
        }
        self.tail.clear();
        self.tail.try_extend_from_slice(new_tail).expect("the new tail is at most one chunk");
        self.tail_cv = tail_cv;
        debug_assert_eq!(self.chunks_done, new_tail_index);
    }

    /// Hashes a run of consecutive chunks side by side and pushes them. With
    /// `speculative`, the last job is the tail: its value goes there instead.
    fn flush_run(&mut self, jobs: &[LaneJob<'_>], speculative: Option<&mut CvBytes>) {
        let mut cvs = [[0u8; OUT_LEN]; MAX_LANES];
        self.mode.hash_jobs(jobs, &mut cvs[..jobs.len()]);
        let mut count = jobs.len();
        if let Some(tail_cv) = speculative {
            count -= 1;
            *tail_cv = cvs[count];
        }
        self.push_chunk_cvs(&cvs[..count]);
    }

    /// Pushes consecutive chunk values starting at chunk `chunks_done`:
    /// first merged, in lanes, into the largest aligned subtrees they cover.
    fn push_chunk_cvs(&mut self, cvs: &[CvBytes]) {
        // Split the run into aligned power-of-two pieces, as counted from
        // the start of the input.
        let mut pieces = [(0usize, 0usize); MAX_LANES];
        let mut piece_count = 0;
        let mut index = 0;
        while index < cvs.len() {
            let chunk = self.chunks_done - self.first_chunk + index as u64;
            let size = largest_power_of_two_at_most((cvs.len() - index) as u64).min(alignment(chunk)) as usize;
            pieces[piece_count] = (index, size);
            piece_count += 1;
            index += size;
        }
        // Reduce every piece one level at a time; the parents of all pieces
        // at one level run side by side.
        let mut level = [[0u8; OUT_LEN]; MAX_LANES];
        level[..cvs.len()].copy_from_slice(cvs);
        let mut width = 1;
        while pieces[..piece_count].iter().any(|&(_, size)| size > width) {
            // A piece's values at this level sit side by side from its start,
            // so each pair is already one parent block.
            let mut jobs = [LaneJob::IDLE; MAX_LANES / 2];
            let mut owners = [0usize; MAX_LANES / 2];
            let mut parents = 0;
            for &(start, size) in &pieces[..piece_count] {
                let (pairs, _) = level[start..start + size / width].as_chunks::<2>();
                for (pair, children) in pairs.iter().enumerate() {
                    jobs[parents] = self.mode.parent_job(children, false);
                    owners[parents] = start + pair;
                    parents += 1;
                }
            }
            let mut out = [[0u8; OUT_LEN]; MAX_LANES / 2];
            self.mode.hash_jobs(&jobs[..parents], &mut out[..parents]);
            for (cv, &owner) in out[..parents].iter().zip(&owners) {
                level[owner] = *cv;
            }
            width *= 2;
        }
        for &(start, size) in &pieces[..piece_count] {
            self.push_subtree(level[start], size as u64);
        }
    }

    /// Pushes the value of a complete subtree of `size` chunks that starts at
    /// chunk `chunks_done`, merging siblings. More input always follows, so no
    /// node made here can be the root.
    fn push_subtree(&mut self, cv: CvBytes, size: u64) {
        debug_assert!(size.is_power_of_two() && (self.chunks_done - self.first_chunk).is_multiple_of(size));
        self.stack.push(cv);
        self.chunks_done += size;
        while self.stack.len() > (self.chunks_done - self.first_chunk).count_ones() as usize {
            let right = self.stack.pop().unwrap();
            let left = self.stack.pop().unwrap();
            self.stack.push(self.mode.parent_cv(&left, &right));
        }
    }

    fn root_output(&self) -> Output {
        debug_assert_eq!(self.first_chunk, 0, "only a whole message has a root");
        if self.chunks_done == 0 {
            return self.mode.chunk_output(&self.tail, 0);
        }
        self.mode.parent_output(&self.stack[0], &self.right_edge_cv(&self.stack[1..]))
    }

    /// The chaining value of the tail chunk merged, as the right child, with
    /// every subtree of `stack` from the last: all non-root.
    fn right_edge_cv(&self, stack: &[CvBytes]) -> CvBytes {
        let mut right = match self.tail_cv {
            Some(cv) => cv,
            None => {
                let mut out = [[0u8; OUT_LEN]];
                let job = self.mode.chunk_job(&self.tail, self.chunks_done, false);
                self.mode.hash_jobs(&[job], &mut out);
                out[0]
            }
        };
        for left in stack.iter().rev() {
            right = self.mode.parent_cv(left, &right);
        }
        right
    }

    /// The chaining value of all input so far as a subtree that is not the
    /// root of its message. The input must not be empty.
    pub(crate) fn finalize_non_root(&self) -> CvBytes {
        debug_assert!(self.count() > 0, "an empty subtree has no chaining value");
        self.right_edge_cv(&self.stack)
    }

    /// The hash of all input so far. The hasher is unchanged: more input may follow.
    pub fn finalize(&self) -> Hash {
        Hash::from(self.root_output().root_hash())
    }

    /// A reader of the extended output, as long as needed.
    pub fn finalize_xof(&self) -> OutputReader {
        OutputReader::new(self.root_output())
    }
}

/// Up to one kernel call of consecutive chunks, not yet hashed.
struct Run<'a> {
    jobs: [LaneJob<'a>; MAX_LANES],
    len: usize,
    first_chunk: u64,
}

impl Run<'_> {
    fn new(first_chunk: u64) -> Self {
        Run { jobs: [LaneJob::IDLE; MAX_LANES], len: 0, first_chunk }
    }
}

impl Default for Hasher {
    fn default() -> Self {
        Self::new()
    }
}

impl fmt::Debug for Hasher {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Hasher").field("backend", &self.backend()).field("count", &self.count()).finish()
    }
}

#[cfg(feature = "std")]
impl std::io::Write for Hasher {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.update(buf);
        Ok(buf.len())
    }

    fn write_all(&mut self, buf: &[u8]) -> std::io::Result<()> {
        self.update(buf);
        Ok(())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Reads the extended output of a finished hash: a stream of 2^64 bytes
/// whose first 32 are the hash. Reading past its end wraps to its start.
#[derive(Clone)]
pub struct OutputReader {
    output: Output,
    position: u64,
}

impl OutputReader {
    /// A reader of `output`'s extended output from its start.
    pub(crate) fn new(output: Output) -> OutputReader {
        OutputReader { output, position: 0 }
    }

    /// Fills `buf` with output from the current position and moves past it.
    pub fn fill(&mut self, mut buf: &mut [u8]) {
        while !buf.is_empty() {
            let block = self.output.root_output_block(self.position / BLOCK_LEN as u64);
            let offset = (self.position % BLOCK_LEN as u64) as usize;
            let take = (BLOCK_LEN - offset).min(buf.len());
            buf[..take].copy_from_slice(&block[offset..offset + take]);
            buf = &mut buf[take..];
            self.position = self.position.wrapping_add(take as u64);
        }
    }

    /// The byte offset of the next byte `fill` returns.
    pub fn position(&self) -> u64 {
        self.position
    }

    /// Moves to a byte offset.
    pub fn set_position(&mut self, position: u64) {
        self.position = position;
    }
}

impl fmt::Debug for OutputReader {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("OutputReader").field("position", &self.position).finish()
    }
}

#[cfg(feature = "std")]
impl std::io::Read for OutputReader {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        self.fill(buf);
        Ok(buf.len())
    }
}

#[cfg(feature = "std")]
impl std::io::Seek for OutputReader {
    /// Seeks from the start or the current position; the output has no end to
    /// seek from (`SeekFrom::End` is an error), and positions stay in 0..2^64.
    fn seek(&mut self, pos: std::io::SeekFrom) -> std::io::Result<u64> {
        use std::io::{Error, ErrorKind, SeekFrom};
        let target = match pos {
            SeekFrom::Start(offset) => Some(offset),
            SeekFrom::Current(delta) => self.position.checked_add_signed(delta),
            SeekFrom::End(_) => {
                return Err(Error::new(ErrorKind::Unsupported, "BLAKE3 output has no end to seek from"));
            }
        };
        let target = target.ok_or_else(|| Error::new(ErrorKind::InvalidInput, "seek to a position outside 0..2^64"))?;
        self.position = target;
        Ok(target)
    }
}
