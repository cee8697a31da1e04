//! Many independent messages at once, across SIMD lanes.
//!
//! BLAKE3's own parallelism is the chunks of one message, so a message of a
//! few KiB leaves most lanes idle. Here every chunk and every parent node of
//! many messages becomes an independent lane job:
//!
//! - A message with more chunks than the platform has lanes already fills
//!   them with its own tree: it is hashed alone.
//! - A message of one chunk is its own root, and goes to the small-message
//!   kernel, which takes messages of one block count and reads nothing per
//!   message but its pointer and length. A run of as many messages with one
//!   block count as there are lanes (a column of keys of one size) goes to
//!   it as it stands; other messages go to a bucket per block count, hashed
//!   as soon as it fills the lanes (a column of strings of mixed lengths).
//! - The others are pooled in windows of at most `WINDOW_CHUNKS` chunks. A
//!   window's chunk jobs, whatever message they belong to, are ordered by
//!   their number of blocks, so each kernel call runs lanes of equal or
//!   nearly equal length and few lanes run idle steps. The messages then go up their
//!   trees one level at a time, the parents of every message of the window
//!   side by side; a message's last parent is its root.
//!
//! Messages come from a slice of slices or from an Arrow-style column (one
//! value buffer and offsets, [`Batch::hash_offsets`]). Buckets and windows
//! are bounded, so the batch needs no heap: about 30 KiB of stack.

use super::hash::{Address, Hash, ADDRESS_LEN};
use super::join::SerialJoin;
use super::tree::Mode;
use crate::platform::backend::{Backend, BackendError};
use crate::platform::job::{has_blocks, LaneJob};
use crate::platform::spec::{CvBytes, BLOCK_LEN, CHUNK_BLOCKS, CHUNK_LEN, KEY_LEN, MAX_LANES, OUT_LEN, ROOT};
use crate::platform::Platform;
use core::fmt;

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
        self.hash_each(&inputs, |i, hash| out[i] = Hash::from(*hash));
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
        self.hash_each(&inputs, |i, hash| out[i] = Hash::from(*hash).address());
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
        self.hash_each(&inputs, |i, hash| out[i] = *hash);
    }

    /// Hashes the values of an Arrow-style column: value `i` is
    /// `values[offsets[i]..offsets[i + 1]]`, and `out[i]` receives its
    /// output. The offsets are `i32` or `i64`, as in Arrow's binary and
    /// large binary layouts (the first need not be 0, as in a sliced
    /// array). The output is the hash ([`Hash`](struct@Hash), `[u8; 32]`, the derived
    /// key in a key-derivation batch) or its first 20 bytes ([`Address`],
    /// `[u8; 20]`). Nothing is allocated and no list of slices is built.
    ///
    /// ```
    /// use chunkhash::blake3::{self, Batch};
    ///
    /// let values = b"abcde";
    /// let mut out = [blake3::Hash::from([0; 32]); 2];
    /// Batch::new().hash_offsets(values, &[0i32, 2, 5], &mut out).unwrap();
    /// assert_eq!(out[1], blake3::hash(b"cde"));
    /// assert!(Batch::new().hash_offsets(values, &[0i64, 3, 2], &mut out).is_err());
    /// ```
    ///
    /// # Errors
    ///
    /// [`OffsetsError`] when `offsets` does not hold `out.len() + 1`
    /// entries (or none for no values), or an offset is negative, below the
    /// one before it, or past the end of `values`. Nothing is hashed then.
    pub fn hash_offsets<O: Offset, T: BatchOutput>(
        &self,
        values: &[u8],
        offsets: &[O],
        out: &mut [T],
    ) -> Result<(), OffsetsError> {
        let column = Column::new(values, offsets, out.len())?;
        self.hash_each(&column, |i, hash| out[i] = T::output(hash));
        Ok(())
    }
}

impl Batch {
    /// Hashes `inputs` in the batch's mode, calling `emit(i, output)` for
    /// each (in no set order): for the crate's own callers that hand each
    /// output on rather than store it (`cdc`'s `chunk_and_hash`).
    #[inline]
    pub(crate) fn hash_slices_with<T: BatchOutput>(&self, inputs: &[&[u8]], mut emit: impl FnMut(usize, T)) {
        self.hash_each(&inputs, |i, hash| emit(i, T::output(hash)));
    }
}

/// An Arrow offset: `i32` (binary, string) or `i64` (large binary, large
/// string). Sealed: only those two.
pub trait Offset: Copy + sealed::Offset {}

impl Offset for i32 {}
impl Offset for i64 {}

/// What a batch writes per message: [`Hash`](struct@Hash) or `[u8; 32]` (all 32 bytes),
/// [`Address`] or `[u8; 20]` (the first 20). Sealed: only those four.
pub trait BatchOutput: sealed::BatchOutput {}

impl BatchOutput for Hash {}
impl BatchOutput for Address {}
impl BatchOutput for [u8; OUT_LEN] {}
impl BatchOutput for [u8; ADDRESS_LEN] {}

mod sealed {
    use super::{Address, CvBytes, Hash, ADDRESS_LEN, OUT_LEN};

    pub trait Offset {
        /// The offset as an index; `None` when negative or too large.
        fn index(self) -> Option<usize>;

        /// The offset as an index, once `index` has accepted it.
        fn checked_index(self) -> usize;
    }

    macro_rules! offset {
        ($($offset:ty),*) => {$(
            impl Offset for $offset {
                #[inline(always)]
                fn index(self) -> Option<usize> {
                    usize::try_from(self).ok()
                }

                #[inline(always)]
                fn checked_index(self) -> usize {
                    self as usize
                }
            }
        )*};
    }
    offset!(i32, i64);

    pub trait BatchOutput {
        fn output(hash: &CvBytes) -> Self;
    }

    impl BatchOutput for Hash {
        #[inline(always)]
        fn output(hash: &CvBytes) -> Self {
            Hash::from(*hash)
        }
    }

    impl BatchOutput for Address {
        #[inline(always)]
        fn output(hash: &CvBytes) -> Self {
            Address::from(<[u8; ADDRESS_LEN]>::output(hash))
        }
    }

    impl BatchOutput for [u8; OUT_LEN] {
        #[inline(always)]
        fn output(hash: &CvBytes) -> Self {
            *hash
        }
    }

    impl BatchOutput for [u8; ADDRESS_LEN] {
        #[inline(always)]
        fn output(hash: &CvBytes) -> Self {
            let mut address = [0; ADDRESS_LEN];
            address.copy_from_slice(&hash[..ADDRESS_LEN]);
            address
        }
    }
}

/// Why [`Batch::hash_offsets`] refused its offsets.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OffsetsError {
    /// `offsets` must hold one entry more than there are outputs (or none
    /// when there are no outputs).
    Count {
        /// Entries in `offsets`.
        offsets: usize,
        /// Entries in `out`.
        outputs: usize,
    },
    /// An offset is negative.
    Negative {
        /// Its position in `offsets`.
        index: usize,
    },
    /// An offset is below the one before it.
    Descending {
        /// Its position in `offsets`.
        index: usize,
    },
    /// An offset is past the end of the values.
    OutOfRange {
        /// Its position in `offsets`.
        index: usize,
        /// Bytes in `values`.
        values_len: usize,
    },
}

impl fmt::Display for OffsetsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OffsetsError::Count { offsets, outputs } => {
                write!(f, "{offsets} offsets for {outputs} outputs: need one more offset than outputs")
            }
            OffsetsError::Negative { index } => write!(f, "offsets[{index}] is negative"),
            OffsetsError::Descending { index } => write!(f, "offsets[{index}] is below the offset before it"),
            OffsetsError::OutOfRange { index, values_len } => {
                write!(f, "offsets[{index}] is past the end of the values ({values_len} bytes)")
            }
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for OffsetsError {}

/// Where a batch reads its messages: a slice of slices, or a column.
pub(crate) trait Messages<'a> {
    fn count(&self) -> usize;
    fn message(&self, index: usize) -> &'a [u8];

    /// Messages `start..start + len` as slices, when they are stored so
    /// (a run then goes to the kernel without being copied).
    #[inline(always)]
    fn slices(&self, start: usize, len: usize) -> Option<&[&'a [u8]]> {
        let _ = (start, len);
        None
    }
}

impl<'a> Messages<'a> for &[&'a [u8]] {
    #[inline(always)]
    fn count(&self) -> usize {
        self.len()
    }

    #[inline(always)]
    fn message(&self, index: usize) -> &'a [u8] {
        self[index]
    }

    #[inline(always)]
    fn slices(&self, start: usize, len: usize) -> Option<&[&'a [u8]]> {
        self.get(start..start + len)
    }
}

/// An Arrow-style column whose offsets have been checked: ascending,
/// non-negative and inside `values`.
pub(crate) struct Column<'a, O> {
    values: &'a [u8],
    offsets: &'a [O],
}

impl<'a, O: Offset> Column<'a, O> {
    pub(crate) fn new(values: &'a [u8], offsets: &'a [O], outputs: usize) -> Result<Column<'a, O>, OffsetsError> {
        if offsets.len() != outputs + 1 && !(offsets.is_empty() && outputs == 0) {
            return Err(OffsetsError::Count { offsets: offsets.len(), outputs });
        }
        let mut previous = 0;
        for (index, offset) in offsets.iter().enumerate() {
            let offset = offset.index().ok_or(OffsetsError::Negative { index })?;
            if offset < previous {
                return Err(OffsetsError::Descending { index });
            }
            if offset > values.len() {
                return Err(OffsetsError::OutOfRange { index, values_len: values.len() });
            }
            previous = offset;
        }
        Ok(Column { values, offsets })
    }
}

impl<'a, O: Offset> Messages<'a> for Column<'a, O> {
    #[inline(always)]
    fn count(&self) -> usize {
        self.offsets.len().saturating_sub(1)
    }

    /// Value `index`: the offsets were checked in `Column::new`, so the
    /// conversions are exact and the slice is in range.
    #[inline(always)]
    fn message(&self, index: usize) -> &'a [u8] {
        &self.values[self.offsets[index].checked_index()..self.offsets[index + 1].checked_index()]
    }
}

impl Default for Batch {
    fn default() -> Self {
        Self::new()
    }
}

impl Batch {
    /// Hashes every message and calls `emit(index, hash)` once per message,
    /// in no particular order.
    pub(crate) fn hash_each<'a>(&self, messages: &impl Messages<'a>, mut emit: impl FnMut(usize, &CvBytes)) {
        let mode = &self.mode;
        let lanes = mode.lanes().max(1);
        let pooled_max = mode.leaf_chunks();
        let mut short = ShortMessages::new(lanes);
        let mut window = Window::new();
        let count = messages.count();
        // Messages to go before the next try at a run (see below).
        let mut no_runs_for: usize = 0;
        // Values of a run, before `emit`: zeroed at the first run, not per
        // run, and not at all in a batch without one (2 KiB).
        let mut run_values: Option<[CvBytes; RUN_GROUPS * MAX_LANES]> = None;
        let mut index = 0;
        while index < count {
            let input = messages.message(index);
            let blocks = block_count(input.len());
            if crate::platform::PREFETCHES && index + PREFETCH_AHEAD < count {
                crate::platform::prefetch(messages.message(index + PREFETCH_AHEAD));
            }
            if blocks > CHUNK_BLOCKS {
                if chunk_count(input.len()) > pooled_max {
                    emit(index, &mode.hash::<SerialJoin>(input));
                } else {
                    if window.chunks + chunk_count(input.len()) > WINDOW_CHUNKS {
                        window.finish(mode, &mut emit);
                    }
                    window.push(index, input);
                }
                index += 1;
                continue;
            }
            if no_runs_for > 0 || index + lanes > count {
                no_runs_for = no_runs_for.saturating_sub(1);
                short.push(mode, blocks, index, input, &mut emit);
                index += 1;
                continue;
            }
            // Runs of `lanes` messages with as many blocks as this one (a
            // column of keys of one size) are hashed as they stand, up to
            // `RUN_GROUPS` of them in one kernel call, their values emitted
            // in order: measured 25% faster per 64-byte message than the
            // buckets. Mixed lengths rarely make a run, so after a failed
            // try the next `RUN_PAUSE` messages go to the buckets.
            let most = ((count - index) / lanes).min(RUN_GROUPS) * lanes;
            // Filled only for a column (a slice of slices is read in place).
            let mut column_run: [&[u8]; RUN_GROUPS * MAX_LANES];
            let (run, len) = match messages.slices(index, most) {
                Some(slices) => {
                    let len = slices.iter().position(|next| !has_blocks(next.len(), blocks)).unwrap_or(most);
                    (slices, len)
                }
                None => {
                    column_run = [input; RUN_GROUPS * MAX_LANES];
                    let mut len = 1;
                    while len < most {
                        let next = messages.message(index + len);
                        if !has_blocks(next.len(), blocks) {
                            break;
                        }
                        column_run[len] = next;
                        len += 1;
                    }
                    (&column_run[..], len)
                }
            };
            if len >= lanes {
                let whole = len - len % lanes;
                let values = run_values.get_or_insert([[0; OUT_LEN]; RUN_GROUPS * MAX_LANES]);
                mode.hash_short_messages(blocks, &run[..whole], &mut values[..whole]);
                for (offset, value) in values[..whole].iter().enumerate() {
                    emit(index + offset, value);
                }
                index += whole;
            } else {
                no_runs_for = RUN_PAUSE;
                for (offset, input) in run[..len].iter().enumerate() {
                    short.push(mode, blocks, index + offset, input, &mut emit);
                }
                index += len;
            }
        }
        short.finish(mode, &mut emit);
        window.finish(mode, &mut emit);
    }
}

/// How far ahead of the message being scheduled its bytes are asked for.
/// Mixed lengths go to the buckets, which the kernel reads out of order, a
/// few messages from each of many cache lines; the hardware prefetchers
/// follow that badly.
const PREFETCH_AHEAD: usize = 32;

/// Groups of lanes a run of equal block counts may take per kernel call.
const RUN_GROUPS: usize = 4;

/// Messages that go to the buckets after a failed try at a run of equal
/// block counts, before the next try.
const RUN_PAUSE: usize = 64;

/// Blocks of a message of `len` bytes (an empty message is one block).
#[inline(always)]
fn block_count(len: usize) -> usize {
    len.div_ceil(BLOCK_LEN).max(1)
}

/// Messages of one chunk or less, each its own root: a bucket per block
/// count, each a kernel call being filled. A full bucket is hashed at once
/// by the small-message kernel, which takes nothing but each message's
/// pointer and length, so mixed lengths (a column of strings) keep the
/// lanes full without sorting the batch or allocating.
struct ShortMessages<'a> {
    /// Messages per kernel call.
    lanes: usize,
    inputs: [[&'a [u8]; MAX_LANES]; CHUNK_BLOCKS],
    owners: [[usize; MAX_LANES]; CHUNK_BLOCKS],
    lens: [usize; CHUNK_BLOCKS],
    /// The values of a full bucket, before `emit`; zeroed once, not per call
    /// (measured: the `memset` was 1.3% of a column's time).
    values: [CvBytes; MAX_LANES],
}

impl<'a> ShortMessages<'a> {
    fn new(lanes: usize) -> Self {
        ShortMessages {
            lanes,
            inputs: [[&[]; MAX_LANES]; CHUNK_BLOCKS],
            owners: [[0; MAX_LANES]; CHUNK_BLOCKS],
            lens: [0; CHUNK_BLOCKS],
            values: [[0; OUT_LEN]; MAX_LANES],
        }
    }

    #[inline]
    fn push(
        &mut self,
        mode: &Mode,
        blocks: usize,
        index: usize,
        input: &'a [u8],
        emit: &mut impl FnMut(usize, &CvBytes),
    ) {
        let bucket = blocks - 1;
        let len = self.lens[bucket];
        self.inputs[bucket][len] = input;
        self.owners[bucket][len] = index;
        if len + 1 < self.lanes {
            self.lens[bucket] = len + 1;
            return;
        }
        let values = &mut self.values[..len + 1];
        mode.hash_short_messages(blocks, &self.inputs[bucket][..len + 1], values);
        for (value, &owner) in values.iter().zip(&self.owners[bucket]) {
            emit(owner, value);
        }
        self.lens[bucket] = 0;
    }

    /// Hashes what is left as lane jobs, longest first, packing partial
    /// buckets together so that the last calls still fill their lanes.
    fn finish(&mut self, mode: &Mode, emit: &mut impl FnMut(usize, &CvBytes)) {
        let lanes = self.lanes;
        let mut jobs = [LaneJob::IDLE; MAX_LANES];
        let mut owners = [0usize; MAX_LANES];
        let mut count = 0;
        for bucket in (0..CHUNK_BLOCKS).rev() {
            for i in 0..self.lens[bucket] {
                jobs[count] = mode.chunk_job(self.inputs[bucket][i], 0, true);
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
