//! Many independent messages at once, across SIMD lanes.
//!
//! BLAKE3's own parallelism is the chunks of one message, so a message of a
//! few KiB leaves most lanes idle. Here every chunk and every parent node of
//! many messages becomes an independent lane job:
//!
//! - A message with more chunks than the platform has lanes already fills
//!   them with its own tree: it is hashed alone.
//! - A message of one chunk is its own root. These go to a bucket per block
//!   count, and a bucket is hashed as soon as it fills the lanes.
//! - The others are pooled in windows of at most `WINDOW_CHUNKS` chunks. A
//!   window's chunk jobs, whatever message they belong to, are ordered by
//!   their number of blocks, so each kernel call runs lanes of equal or
//!   nearly equal length and few lanes run idle steps. The messages then go up their
//!   trees one level at a time, the parents of every message of the window
//!   side by side; a message's last parent is its root.
//!
//! Buckets and windows are bounded, so the batch needs no heap: about 30 KiB
//! of stack.

use super::hash::{Address, Hash};
use super::join::SerialJoin;
use super::tree::Mode;
use crate::platform::backend::{Backend, BackendError};
use crate::platform::job::LaneJob;
use crate::platform::spec::{CvBytes, CHUNK_BLOCKS, CHUNK_LEN, KEY_LEN, MAX_LANES, OUT_LEN, ROOT};
use crate::platform::Platform;

/// Chunks pooled per window: enough for eight full kernel calls of 16 lanes.
const WINDOW_CHUNKS: usize = 128;

/// Chunks of a message of `len` bytes (an empty message is one chunk).
fn chunk_count(len: usize) -> usize {
    len.div_ceil(CHUNK_LEN).max(1)
}

/// The chunks of a message; an empty message is one empty chunk.
fn chunks_of(input: &[u8]) -> impl Iterator<Item = &[u8]> {
    let empty: Option<&[u8]> = input.is_empty().then_some(input);
    input.chunks(CHUNK_LEN).chain(empty)
}

/// Kinds of chunk job a window sorts by: block count (the job lengths) and
/// root flag.
const KINDS: usize = 2 * CHUNK_BLOCKS;

/// A job's kind: longest first, and roots after non-roots of one length.
fn kind(job: &LaneJob<'_>) -> usize {
    2 * (CHUNK_BLOCKS - job.block_count()) + usize::from(job.end_flags() & ROOT != 0)
}

/// A batch configuration: the mode (plain, keyed or key derivation) and the
/// backend, set once and used for any number of calls.
///
/// ```
/// use chunkhash::blake3::{self, Backend, Batch};
///
/// let batch = Batch::new_keyed(&[1; 32]).with_backend(Backend::Portable).unwrap();
/// let mut out = [blake3::Hash::from([0; 32]); 2];
/// batch.hash_many(&[b"a", b"b"], &mut out);
/// assert_eq!(out[1], blake3::keyed_hash(&[1; 32], b"b"));
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Batch {
    mode: Mode,
}

impl Batch {
    /// Plain hashes, on the detected backend.
    pub fn new() -> Batch {
        Batch { mode: Mode::plain(Platform::detect()) }
    }

    /// Keyed hashes.
    pub fn new_keyed(key: &[u8; KEY_LEN]) -> Batch {
        Batch { mode: Mode::keyed(Platform::detect(), key) }
    }

    /// Key derivation under one context.
    pub fn new_derive_key(context: &str) -> Batch {
        Batch { mode: Mode::derive_key(Platform::detect(), context) }
    }

    /// The same mode on another backend; an error if this CPU cannot run it.
    pub fn with_backend(self, backend: Backend) -> Result<Batch, BackendError> {
        Ok(Batch { mode: self.mode.with_platform(Platform::new(backend)?) })
    }

    /// The backend the batch runs on.
    pub fn backend(&self) -> Backend {
        self.mode.backend()
    }

    /// `out[i]` receives the hash of `inputs[i]`.
    ///
    /// # Panics
    ///
    /// If `out` and `inputs` differ in length.
    pub fn hash_many(&self, inputs: &[&[u8]], out: &mut [Hash]) {
        assert_eq!(inputs.len(), out.len(), "hash_many: one output per input");
        self.hash_each(inputs, |i, hash| out[i] = Hash::from(*hash));
    }

    /// `hash_many` into a new `Vec`.
    #[cfg(feature = "alloc")]
    pub fn hash_many_vec(&self, inputs: &[&[u8]]) -> alloc::vec::Vec<Hash> {
        let mut out = alloc::vec![Hash::from([0; OUT_LEN]); inputs.len()];
        self.hash_many(inputs, &mut out);
        out
    }

    /// `out[i]` receives the first 20 bytes of the hash of `inputs[i]`.
    ///
    /// # Panics
    ///
    /// If `out` and `inputs` differ in length.
    pub fn address_many(&self, inputs: &[&[u8]], out: &mut [Address]) {
        assert_eq!(inputs.len(), out.len(), "address_many: one output per input");
        self.hash_each(inputs, |i, hash| out[i] = Hash::from(*hash).address());
    }

    /// `out[i]` receives the 32 output bytes for `inputs[i]` in the batch's
    /// mode: the hash of a plain or keyed batch, the derived key of a batch
    /// made with [`Batch::new_derive_key`]. For callers that want plain byte
    /// arrays (the C binding writes them straight into the caller's buffer).
    ///
    /// # Panics
    ///
    /// If `out` and `inputs` differ in length.
    pub fn hash_many_bytes(&self, inputs: &[&[u8]], out: &mut [[u8; OUT_LEN]]) {
        assert_eq!(inputs.len(), out.len(), "hash_many_bytes: one output per input");
        self.hash_each(inputs, |i, hash| out[i] = *hash);
    }
}

impl Default for Batch {
    fn default() -> Self {
        Self::new()
    }
}

impl Batch {
    /// Hashes every input and calls `emit(index, hash)` once per input, in no
    /// particular order.
    fn hash_each(&self, inputs: &[&[u8]], mut emit: impl FnMut(usize, &CvBytes)) {
        let mode = &self.mode;
        let pooled_max = mode.leaf_chunks();
        let mut single_chunks = Buckets::new();
        let mut window = Window::new();
        for (index, input) in inputs.iter().enumerate() {
            let chunks = chunk_count(input.len());
            if chunks == 1 {
                single_chunks.push(mode, index, input, &mut emit);
            } else if chunks > pooled_max {
                emit(index, &mode.hash::<SerialJoin>(input));
            } else {
                if window.chunks + chunks > WINDOW_CHUNKS {
                    window.finish(mode, &mut emit);
                }
                window.push(index, input);
            }
        }
        single_chunks.finish(mode, &mut emit);
        window.finish(mode, &mut emit);
    }
}

/// Messages of one chunk, each its own root: a bucket per block count, each
/// a kernel call being filled. A full bucket is hashed at once, so a batch
/// of small messages costs a few instructions per message beyond the kernel.
struct Buckets<'a> {
    jobs: [[LaneJob<'a>; MAX_LANES]; CHUNK_BLOCKS],
    owners: [[usize; MAX_LANES]; CHUNK_BLOCKS],
    lens: [usize; CHUNK_BLOCKS],
}

impl<'a> Buckets<'a> {
    fn new() -> Self {
        Buckets {
            jobs: [[LaneJob::IDLE; MAX_LANES]; CHUNK_BLOCKS],
            owners: [[0; MAX_LANES]; CHUNK_BLOCKS],
            lens: [0; CHUNK_BLOCKS],
        }
    }

    fn push(&mut self, mode: &Mode, index: usize, input: &'a [u8], emit: &mut impl FnMut(usize, &CvBytes)) {
        let job = mode.chunk_job(input, 0, true);
        let bucket = job.block_count() - 1;
        let len = self.lens[bucket];
        self.jobs[bucket][len] = job;
        self.owners[bucket][len] = index;
        self.lens[bucket] = len + 1;
        if len + 1 == mode.lanes().max(1) {
            self.flush(mode, bucket, emit);
        }
    }

    fn flush(&mut self, mode: &Mode, bucket: usize, emit: &mut impl FnMut(usize, &CvBytes)) {
        let len = self.lens[bucket];
        hash_and_emit(mode, &self.jobs[bucket][..len], &self.owners[bucket][..len], emit);
        self.lens[bucket] = 0;
    }

    /// Hashes what is left, longest first, packing partial buckets together
    /// so that the last calls still fill their lanes.
    fn finish(&mut self, mode: &Mode, emit: &mut impl FnMut(usize, &CvBytes)) {
        let lanes = mode.lanes().max(1);
        let mut jobs = [LaneJob::IDLE; MAX_LANES];
        let mut owners = [0usize; MAX_LANES];
        let mut count = 0;
        for bucket in (0..CHUNK_BLOCKS).rev() {
            for i in 0..self.lens[bucket] {
                jobs[count] = self.jobs[bucket][i];
                owners[count] = self.owners[bucket][i];
                count += 1;
                if count == lanes {
                    hash_and_emit(mode, &jobs[..count], &owners[..count], emit);
                    count = 0;
                }
            }
            self.lens[bucket] = 0;
        }
        if count > 0 {
            hash_and_emit(mode, &jobs[..count], &owners[..count], emit);
        }
    }
}

fn hash_and_emit(mode: &Mode, jobs: &[LaneJob<'_>], owners: &[usize], emit: &mut impl FnMut(usize, &CvBytes)) {
    let mut out = [[0u8; OUT_LEN]; MAX_LANES];
    mode.hash_jobs(jobs, &mut out[..jobs.len()]);
    for (hash, &owner) in out[..jobs.len()].iter().zip(owners) {
        emit(owner, hash);
    }
}

/// Messages pooled for one round of kernel calls.
struct Window<'a> {
    /// Index into the batch and bytes of each message.
    messages: [(usize, &'a [u8]); WINDOW_CHUNKS],
    message_count: usize,
    chunks: usize,
}

impl<'a> Window<'a> {
    fn new() -> Self {
        Window { messages: [(0, &[]); WINDOW_CHUNKS], message_count: 0, chunks: 0 }
    }

    fn push(&mut self, index: usize, input: &'a [u8]) {
        self.messages[self.message_count] = (index, input);
        self.message_count += 1;
        self.chunks += chunk_count(input.len());
    }

    /// Hashes every message of the window and empties it.
    fn finish(&mut self, mode: &Mode, emit: &mut impl FnMut(usize, &CvBytes)) {
        if self.message_count == 0 {
            return;
        }
        let messages = &self.messages[..self.message_count];

        // One job per chunk, in message order; each message's chunk values
        // go to consecutive slots of `values`.
        let mut jobs = [LaneJob::IDLE; WINDOW_CHUNKS];
        let mut first_slot = [0usize; WINDOW_CHUNKS];
        let mut job_count = 0;
        let mut uniform = true;
        for (message, (_, input)) in messages.iter().enumerate() {
            first_slot[message] = job_count;
            let root = input.len() <= CHUNK_LEN;
            for (chunk, bytes) in chunks_of(input).enumerate() {
                jobs[job_count] = mode.chunk_job(bytes, chunk as u64, root);
                uniform &= kind(&jobs[job_count]) == kind(&jobs[0]);
                job_count += 1;
            }
        }
        debug_assert_eq!(job_count, self.chunks);

        // Mixed lengths: order the jobs by block count, longest first (roots
        // after non-roots of the same length, so uniform runs stay
        // together), with a counting sort over the kinds. Each kernel call
        // then runs lanes of equal or nearly equal length.
        let mut slot_of = [0usize; WINDOW_CHUNKS];
        let mut results = [[0u8; OUT_LEN]; WINDOW_CHUNKS];
        if uniform {
            mode.hash_jobs(&jobs[..job_count], &mut results[..job_count]);
            for (position, slot) in slot_of[..job_count].iter_mut().enumerate() {
                *slot = position;
            }
        } else {
            let mut kind_start = [0usize; KINDS + 1];
            for job in &jobs[..job_count] {
                kind_start[kind(job) + 1] += 1;
            }
            for k in 1..kind_start.len() {
                kind_start[k] += kind_start[k - 1];
            }
            let mut sorted = [LaneJob::IDLE; WINDOW_CHUNKS];
            for (slot, job) in jobs[..job_count].iter().enumerate() {
                let position = &mut kind_start[kind(job)];
                sorted[*position] = *job;
                slot_of[*position] = slot;
                *position += 1;
            }
            mode.hash_jobs(&sorted[..job_count], &mut results[..job_count]);
        }
        let mut values = [[0u8; OUT_LEN]; WINDOW_CHUNKS];
        for (result, &slot) in results[..job_count].iter().zip(&slot_of) {
            values[slot] = *result;
        }

        // Up the trees, one level at a time. `nodes[m]` counts message m's
        // values at the current level, packed from `first_slot[m]`.
        let mut nodes = [0usize; WINDOW_CHUNKS];
        for (message, (index, input)) in messages.iter().enumerate() {
            nodes[message] = chunk_count(input.len());
            if nodes[message] == 1 {
                emit(*index, &values[first_slot[message]]);
            }
        }
        loop {
            let mut parents = [LaneJob::IDLE; WINDOW_CHUNKS / 2];
            let mut parent_owner = [0usize; WINDOW_CHUNKS / 2];
            let mut parent_count = 0;
            for (message, &count) in nodes[..messages.len()].iter().enumerate() {
                let start = first_slot[message];
                let (pairs, _) = values[start..start + count].as_chunks::<2>();
                for children in pairs {
                    parents[parent_count] = mode.parent_job(children, count == 2);
                    parent_owner[parent_count] = message;
                    parent_count += 1;
                }
            }
            if parent_count == 0 {
                break;
            }
            let mut parent_values = [[0u8; OUT_LEN]; WINDOW_CHUNKS / 2];
            mode.hash_jobs(&parents[..parent_count], &mut parent_values[..parent_count]);
            // Pack each message's next level: its parents, then an odd last node.
            let mut next = 0;
            for (message, count) in nodes[..messages.len()].iter_mut().enumerate() {
                if *count < 2 {
                    continue;
                }
                let start = first_slot[message];
                let pairs = *count / 2;
                if *count % 2 == 1 {
                    values[start + pairs] = values[start + *count - 1];
                }
                for pair in 0..pairs {
                    debug_assert_eq!(parent_owner[next + pair], message);
                    values[start + pair] = parent_values[next + pair];
                }
                next += pairs;
                *count = pairs + *count % 2;
                if *count == 1 {
                    emit(messages[message].0, &values[start]);
                }
            }
        }
        self.message_count = 0;
        self.chunks = 0;
    }
}
