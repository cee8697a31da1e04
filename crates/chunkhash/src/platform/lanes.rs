//! The lane skeleton shared by every SIMD kernel: many independent
//! compression chains, one per vector lane, each with its own input, block
//! count, counter and flags.
//!
//! It holds no intrinsics. Each instruction-set file implements
//! [`LaneVector`] for its vector types and instantiates [`hash_lanes`] inside a
//! `#[target_feature]` function; everything here is `#[inline(always)]`, so it
//! compiles with that file's instructions.
//!
//! Jobs of different lengths share one call: every lane runs every step, one
//! block per step. At the step of a lane's last block, its block length and
//! end flags are blended in (`LaneParams::block_params`). A lane whose job
//! ends before the others' has its chaining value copied out at that step,
//! then keeps compressing a padded block whose results are never read: no
//! mask freezes its value. This is what lets a ragged last chunk, a parent
//! node and a full chunk share one call.

use super::job::LaneJob;
use super::spec::{CvBytes, CvWords, BLOCK_LEN, CHUNK_BLOCKS, CHUNK_LEN, IV, MAX_LANES, MSG_SCHEDULE, OUT_LEN};
use core::mem::MaybeUninit;

/// A vector of `LANES` 32-bit words and the operations BLAKE3 needs.
///
/// # Safety
///
/// Every method may use instructions the CPU may lack: those of the
/// `#[target_feature]` set that the implementing type names in its
/// documentation ("`Self`'s instructions" below), and no others. Callers of
/// every method must run with that set enabled.
pub(super) unsafe trait LaneVector: Copy {
    const LANES: usize;
    /// A per-lane boolean: a vector, or an AVX-512 mask register.
    type Mask: Copy;

    /// `word` in every lane.
    ///
    /// # Safety
    ///
    /// The caller runs with `Self`'s instructions enabled.
    unsafe fn splat(word: u32) -> Self;

    /// The first `LANES` words of `words`.
    ///
    /// # Safety
    ///
    /// The caller runs with `Self`'s instructions enabled.
    unsafe fn from_words(words: &[u32; MAX_LANES]) -> Self;

    /// Wrapping `a + b` in each lane.
    ///
    /// # Safety
    ///
    /// The caller runs with `Self`'s instructions enabled.
    unsafe fn add(a: Self, b: Self) -> Self;

    /// `a ^ b`.
    ///
    /// # Safety
    ///
    /// The caller runs with `Self`'s instructions enabled.
    unsafe fn xor(a: Self, b: Self) -> Self;

    /// `a | b`.
    ///
    /// # Safety
    ///
    /// The caller runs with `Self`'s instructions enabled.
    unsafe fn or(a: Self, b: Self) -> Self;

    /// Each word rotated right by 16 bits (the first of G's rotations).
    ///
    /// # Safety
    ///
    /// The caller runs with `Self`'s instructions enabled.
    unsafe fn rot16(a: Self) -> Self;

    /// Each word rotated right by 12 bits.
    ///
    /// # Safety
    ///
    /// The caller runs with `Self`'s instructions enabled.
    unsafe fn rot12(a: Self) -> Self;

    /// Each word rotated right by 8 bits.
    ///
    /// # Safety
    ///
    /// The caller runs with `Self`'s instructions enabled.
    unsafe fn rot8(a: Self) -> Self;

    /// Each word rotated right by 7 bits.
    ///
    /// # Safety
    ///
    /// The caller runs with `Self`'s instructions enabled.
    unsafe fn rot7(a: Self) -> Self;

    /// Writes the words of every lane to `words` (the first `LANES`).
    ///
    /// # Safety
    ///
    /// The caller runs with `Self`'s instructions enabled.
    unsafe fn store_words(self, words: &mut [u32; MAX_LANES]);

    /// Lanes where `a == b`.
    ///
    /// # Safety
    ///
    /// The caller runs with `Self`'s instructions enabled.
    unsafe fn eq(a: Self, b: Self) -> Self::Mask;

    /// `if_true` in the lanes of `mask`, `if_false` elsewhere.
    ///
    /// # Safety
    ///
    /// The caller runs with `Self`'s instructions enabled.
    unsafe fn blend(mask: Self::Mask, if_true: Self, if_false: Self) -> Self;

    /// Loads the 64-byte block at `offset` bytes past each of the first
    /// `LANES` pointers and transposes: word `i` of the result holds word `i`
    /// of every lane's block.
    ///
    /// # Safety
    ///
    /// The caller runs with `Self`'s instructions enabled, and each of the
    /// first `LANES` pointers plus `offset` is valid for 64 bytes of reads.
    unsafe fn load_blocks(blocks: &[*const u8; MAX_LANES], offset: usize) -> [Self; 16];

    /// Hints that the cache line at `address` will be read soon. Any address
    /// may be given: it is never dereferenced.
    ///
    /// # Safety
    ///
    /// The caller runs with `Self`'s instructions enabled.
    #[inline(always)]
    unsafe fn prefetch(address: *const u8) {
        let _ = address;
    }

    /// Transposes back: `out[lane]` receives the 32 bytes of that lane's
    /// chaining value, for the first `LANES` lanes.
    ///
    /// # Safety
    ///
    /// The caller runs with `Self`'s instructions enabled.
    ///
    /// # Panics
    ///
    /// If `out` holds fewer than `LANES` values.
    unsafe fn store_cvs(cv: &[Self; 8], out: &mut [CvBytes]);
}

/// G on four columns or diagonals at once (spec section 2.2). The message
/// word is added before `b`, which is the last value of the previous step to
/// be ready: one add less on the critical path.
///
/// # Safety
///
/// The caller runs with `V`'s instructions enabled.
#[inline(always)]
unsafe fn g4<V: LaneVector>(v: &mut [V; 16], index: [[usize; 4]; 4], mx: [V; 4], my: [V; 4]) {
    // SAFETY: `LaneVector`'s contract, `V`'s instructions enabled, is this
    // function's own.
    unsafe {
        let [a, b, c, d] = index;
        for j in 0..4 {
            v[a[j]] = V::add(V::add(v[a[j]], mx[j]), v[b[j]]);
        }
        for j in 0..4 {
            v[d[j]] = V::rot16(V::xor(v[d[j]], v[a[j]]));
        }
        for j in 0..4 {
            v[c[j]] = V::add(v[c[j]], v[d[j]]);
        }
        for j in 0..4 {
            v[b[j]] = V::rot12(V::xor(v[b[j]], v[c[j]]));
        }
        for j in 0..4 {
            v[a[j]] = V::add(V::add(v[a[j]], my[j]), v[b[j]]);
        }
        for j in 0..4 {
            v[d[j]] = V::rot8(V::xor(v[d[j]], v[a[j]]));
        }
        for j in 0..4 {
            v[c[j]] = V::add(v[c[j]], v[d[j]]);
        }
        for j in 0..4 {
            v[b[j]] = V::rot7(V::xor(v[b[j]], v[c[j]]));
        }
    }
}

const COLUMNS: [[usize; 4]; 4] = [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11], [12, 13, 14, 15]];
const DIAGONALS: [[usize; 4]; 4] = [[0, 1, 2, 3], [5, 6, 7, 4], [10, 11, 8, 9], [15, 12, 13, 14]];

/// Round `R`; a const parameter so every message index is a constant and
/// the seven rounds unroll into straight-line code.
///
/// # Safety
///
/// The caller runs with `V`'s instructions enabled.
#[inline(always)]
unsafe fn round<V: LaneVector, const R: usize>(v: &mut [V; 16], m: &[V; 16]) {
    let s = &MSG_SCHEDULE[R];
    // SAFETY: `g4` needs `V`'s instructions enabled, as this function does.
    unsafe {
        g4(v, COLUMNS, [m[s[0]], m[s[2]], m[s[4]], m[s[6]]], [m[s[1]], m[s[3]], m[s[5]], m[s[7]]]);
        g4(v, DIAGONALS, [m[s[8]], m[s[10]], m[s[12]], m[s[14]]], [m[s[9]], m[s[11]], m[s[13]], m[s[15]]]);
    }
}

/// The compression function on every lane; returns the new chaining values.
///
/// # Safety
///
/// The caller runs with `V`'s instructions enabled.
#[inline(always)]
unsafe fn compress<V: LaneVector>(cv: &[V; 8], m: &[V; 16], counter: [V; 2], block_len: V, flags: V) -> [V; 8] {
    // SAFETY: `round` and `V`'s methods need `V`'s instructions enabled, as
    // this function does.
    unsafe {
        let mut v = [
            cv[0],
            cv[1],
            cv[2],
            cv[3],
            cv[4],
            cv[5],
            cv[6],
            cv[7],
            V::splat(IV[0]),
            V::splat(IV[1]),
            V::splat(IV[2]),
            V::splat(IV[3]),
            counter[0],
            counter[1],
            block_len,
            flags,
        ];
        round::<V, 0>(&mut v, m);
        round::<V, 1>(&mut v, m);
        round::<V, 2>(&mut v, m);
        round::<V, 3>(&mut v, m);
        round::<V, 4>(&mut v, m);
        round::<V, 5>(&mut v, m);
        round::<V, 6>(&mut v, m);
        // A loop, not `array::from_fn`: that one's closure is called from
        // a function without `V`'s instructions, so it may not inline them
        // (measured: a call per vector).
        let mut cv = [v[0]; 8];
        for (i, word) in cv.iter_mut().enumerate() {
            *word = V::xor(v[i], v[i + 8]);
        }
        cv
    }
}

/// What lanes without a job read: never used, only loaded. A whole chunk,
/// so an idle lane can follow the others' block offsets.
static IDLE_CHUNK: [u8; CHUNK_LEN] = [0; CHUNK_LEN];

/// Whether the jobs differ only in their counters: the same number of whole
/// blocks and the same flags. Every chunk of a tree but the last, and every
/// parent node, qualify; their setup is a few stores per lane.
#[inline(always)]
fn uniform(jobs: &[LaneJob<'_>]) -> bool {
    let first = &jobs[0];
    let len = first.input().len();
    len > 0
        && len.is_multiple_of(BLOCK_LEN)
        && jobs.iter().all(|job| {
            job.input().len() == len
                && job.flags() == first.flags()
                && job.start_flags() == first.start_flags()
                && job.end_flags() == first.end_flags()
        })
}

/// What differs between lanes, one word per lane.
struct LaneParams {
    last_block: [u32; MAX_LANES],
    last_len: [u32; MAX_LANES],
    counter_low: [u32; MAX_LANES],
    counter_high: [u32; MAX_LANES],
    flags: [u32; MAX_LANES],
    start_flags: [u32; MAX_LANES],
    end_flags: [u32; MAX_LANES],
}

impl LaneParams {
    /// The block length and flags of block `step` in every lane.
    ///
    /// # Safety
    ///
    /// The caller runs with `V`'s instructions enabled.
    #[inline(always)]
    unsafe fn block_params<V: LaneVector>(&self, step: usize) -> (V, V) {
        // SAFETY: `V`'s methods need `V`'s instructions enabled, as this
        // function does; `from_words` reads arrays of `MAX_LANES` words.
        unsafe {
            let is_last = V::eq(V::splat(step as u32), V::from_words(&self.last_block));
            let block_len = V::blend(is_last, V::from_words(&self.last_len), V::splat(BLOCK_LEN as u32));
            let mut flags =
                V::or(V::from_words(&self.flags), V::blend(is_last, V::from_words(&self.end_flags), V::splat(0)));
            if step == 0 {
                flags = V::or(flags, V::from_words(&self.start_flags));
            }
            (block_len, flags)
        }
    }
}

/// Hashes `jobs` (at most `V::LANES`) side by side: `out[i]` receives the
/// chaining value of `jobs[i]`, started from `key`.
///
/// One loop runs every step, with one copy of the compression: the code of
/// all kernels together is most of the crate's build time (measured: three
/// copies per vector type took 8.3 s of CPU to build, one takes about
/// half). A lane whose job ends before the others' is copied out at the
/// step it ends and then runs idle; masking it instead would keep its
/// finished value in registers through every later compression.
///
/// # Safety
///
/// The caller runs with `V`'s instructions enabled.
///
/// # Panics
///
/// If `jobs` is empty or longer than `V::LANES`, or `out` differs from it
/// in length.
#[inline(always)]
pub(super) unsafe fn hash_lanes<V: LaneVector>(key: &CvWords, jobs: &[LaneJob<'_>], out: &mut [CvBytes]) {
    assert!(!jobs.is_empty() && jobs.len() <= V::LANES && out.len() == jobs.len());
    // Per lane: where its input starts, and how many whole blocks it holds;
    // its last block zero-padded when that block is partial (or the job
    // empty). Idle lanes read the idle chunk, all of whose blocks are whole.
    let mut input = [IDLE_CHUNK.as_ptr(); MAX_LANES];
    let mut full_blocks = [CHUNK_BLOCKS; MAX_LANES];
    let mut padded = [[0u8; BLOCK_LEN]; MAX_LANES];
    let first = jobs[0];
    let first_blocks = first.block_count() as u32;
    let mut lanes = LaneParams {
        // Idle lanes take the first job's flags, so uniform jobs stay uniform.
        last_block: [first_blocks - 1; MAX_LANES],
        last_len: [BLOCK_LEN as u32; MAX_LANES],
        counter_low: [0; MAX_LANES],
        counter_high: [0; MAX_LANES],
        flags: [first.flags() as u32; MAX_LANES],
        start_flags: [first.start_flags() as u32; MAX_LANES],
        end_flags: [first.end_flags() as u32; MAX_LANES],
    };
    // Bit `lane` of `ends[step]`: that lane's job has its last block at `step`.
    let mut ends = [0u32; CHUNK_BLOCKS];
    // Steps run (the most blocks of any job), and steps at which every lane
    // reads straight from its input (the fewest whole blocks of any job).
    let steps;
    let direct_steps;
    if uniform(jobs) {
        for (lane, job) in jobs.iter().enumerate() {
            input[lane] = job.input().as_ptr();
            full_blocks[lane] = first_blocks as usize;
            lanes.counter_low[lane] = job.counter() as u32;
            lanes.counter_high[lane] = (job.counter() >> 32) as u32;
        }
        steps = first_blocks as usize;
        direct_steps = steps;
        ends[steps - 1] = (1 << jobs.len()) - 1;
    } else {
        let mut longest = 0;
        let mut fewest_whole = CHUNK_BLOCKS;
        for (lane, job) in jobs.iter().enumerate() {
            let job_input = job.input();
            let blocks = job.block_count();
            let whole = job_input.len() / BLOCK_LEN;
            if whole < blocks {
                let rest = &job_input[whole * BLOCK_LEN..];
                padded[lane][..rest.len()].copy_from_slice(rest);
            }
            input[lane] = job_input.as_ptr();
            full_blocks[lane] = whole;
            lanes.last_block[lane] = blocks as u32 - 1;
            lanes.last_len[lane] = (job_input.len() - (blocks - 1) * BLOCK_LEN) as u32;
            lanes.counter_low[lane] = job.counter() as u32;
            lanes.counter_high[lane] = (job.counter() >> 32) as u32;
            lanes.flags[lane] = job.flags() as u32;
            lanes.start_flags[lane] = job.start_flags() as u32;
            lanes.end_flags[lane] = job.end_flags() as u32;
            ends[blocks - 1] |= 1 << lane;
            longest = longest.max(blocks);
            fewest_whole = fewest_whole.min(whole);
        }
        steps = longest;
        direct_steps = fewest_whole;
    }

    // SAFETY: the calls to `V`'s methods need `V`'s instructions, which the
    // caller enables. The block reads are sound in five steps:
    // 1. Every job's input is at most `CHUNK_LEN` bytes: `LaneJob::new`
    //    refuses longer ones and its fields are private. So each job has 1 to
    //    `CHUNK_BLOCKS` blocks, and `steps`, the most of any, is at most
    //    `CHUNK_BLOCKS`.
    // 2. A job's lane points at its input, which holds `full_blocks[lane]`
    //    whole blocks (uniform jobs: `steps` each). An idle lane points at
    //    `IDLE_CHUNK`, which holds `CHUNK_BLOCKS` whole blocks, and has
    //    `full_blocks[lane] == CHUNK_BLOCKS`.
    // 3. A lane reads from its input pointer at `step` only when `step` is
    //    below its whole blocks: `step < full_blocks[lane]` directly, or
    //    `step < direct_steps`, which is at most every lane's
    //    `full_blocks` (the fewest whole blocks of any job, or uniform jobs'
    //    `steps`, at most `CHUNK_BLOCKS` by step 1). So `input[lane] +
    //    step * BLOCK_LEN` and the 64 bytes after it lie inside one
    //    allocation, borrowed for the whole call.
    // 4. Every other read is of `padded[lane]`, a local 64-byte array.
    // 5. So each of the first `V::LANES` pointers in `blocks` is valid for 64
    //    bytes of reads at offset 0, as `load_blocks` requires; prefetches
    //    use `wrapping_add` and never dereference their address.
    unsafe {
        let counter = [V::from_words(&lanes.counter_low), V::from_words(&lanes.counter_high)];
        let mut cv: [V; 8] = core::array::from_fn(|i| V::splat(key[i]));
        for (step, &ending) in ends[..steps].iter().enumerate() {
            let mut blocks = [IDLE_CHUNK.as_ptr(); MAX_LANES];
            for lane in 0..V::LANES {
                blocks[lane] = if step < direct_steps || step < full_blocks[lane] {
                    input[lane].add(step * BLOCK_LEN)
                } else {
                    padded[lane].as_ptr()
                };
            }
            let m = V::load_blocks(&blocks, 0);
            prefetch_ahead::<V>(&input, step);
            let (block_len, flags) = lanes.block_params::<V>(step);
            cv = compress(&cv, &m, counter, block_len, flags);
            if ending != 0 && step + 1 < steps {
                // Some jobs end here, before the others: keep their values.
                let mut words = [[0u32; MAX_LANES]; 8];
                for (vector, words) in cv.iter().zip(&mut words) {
                    vector.store_words(words);
                }
                for (lane, value) in out.iter_mut().enumerate() {
                    if ending & (1 << lane) != 0 {
                        for (i, bytes) in value.chunks_exact_mut(4).enumerate() {
                            bytes.copy_from_slice(&words[i][lane].to_le_bytes());
                        }
                    }
                }
            }
        }
        // Every lane ends at the last step only when there are `V::LANES`
        // jobs, so `out` holds the `V::LANES` values `store_cvs` writes.
        let last = ends[steps - 1];
        if last.count_ones() as usize == V::LANES {
            V::store_cvs(&cv, out);
        } else {
            let mut ended = [[0u8; OUT_LEN]; MAX_LANES];
            V::store_cvs(&cv, &mut ended);
            for (lane, value) in out.iter_mut().enumerate() {
                if last & (1 << lane) != 0 {
                    *value = ended[lane];
                }
            }
        }
    }
}

/// Asks for every lane's block four steps ahead. The lanes' inputs are
/// streams a kilobyte or more apart, more than the hardware prefetchers
/// follow well. Measured on Zen 4 with two builds run alternately (ratio to
/// the official crate, with prefetch / without): one message of 1 MiB
/// 0.80-0.82 / 0.72-0.79, of 16 MiB 0.82-0.84 / 0.65-0.75; no change at
/// 1 KiB and 4 KiB. Addresses past a lane's input are fine: a prefetch is
/// never dereferenced.
///
/// # Safety
///
/// The caller runs with `V`'s instructions enabled.
#[inline(always)]
unsafe fn prefetch_ahead<V: LaneVector>(input: &[*const u8; MAX_LANES], step: usize) {
    for &lane_input in &input[..V::LANES] {
        // SAFETY: `V::prefetch` needs `V`'s instructions, which the caller
        // enables, and takes any address.
        unsafe { V::prefetch(lane_input.wrapping_add((step + 4) * BLOCK_LEN)) };
    }
}

/// How the small-message kernel reads a message's partial last block.
///
/// # Safety
///
/// `load_tails` may use the instructions the implementor's documentation
/// names, which its callers enable.
pub(super) unsafe trait TailLoads<V: LaneVector> {
    /// Whether `load_tails` reads partial blocks where they are, masked;
    /// else the kernel pads them on the stack and uses `V::load_blocks`.
    const MASKED: bool;

    /// Loads and transposes as `V::load_blocks` does, but reads only the
    /// first `lens[lane]` bytes at each of the first `V::LANES` pointers
    /// (at most 64), and zeroes the rest of its block.
    ///
    /// # Safety
    ///
    /// The caller runs with the implementor's instructions enabled; each
    /// pointer is valid for `lens[lane]` bytes of reads. Never called when
    /// `MASKED` is false.
    unsafe fn load_tails(tails: &[*const u8; MAX_LANES], lens: &[u32; MAX_LANES]) -> [V; 16];
}

/// Partial last blocks padded on the stack: every instruction set.
pub(super) struct PaddedTails;

// SAFETY: `load_tails` is never called (`MASKED` is false) and uses nothing.
unsafe impl<V: LaneVector> TailLoads<V> for PaddedTails {
    const MASKED: bool = false;

    unsafe fn load_tails(_: &[*const u8; MAX_LANES], _: &[u32; MAX_LANES]) -> [V; 16] {
        unreachable!("padded tails are loaded as whole blocks")
    }
}

/// Hashes whole messages of one chunk or less, each its own root, that all
/// have `blocks` blocks: `out[i]` receives the chaining value of
/// `inputs[i]` (counter 0, every block with `flags`, the first also with
/// `start_flags`, the last with `end_flags`).
///
/// The small-message kernel: with one block count per call, the flags and
/// the counter are the same in every lane, so the only per-lane work is a
/// message's pointer and the length of its last block. Every block but the
/// last is read straight from the input; a partial last block is read in
/// place (`T::MASKED`) or copied, zero-padded, to the stack. Any number of
/// messages, `V::LANES` at a time: one call per run of a column saves the
/// dispatch and the set-up per group, and lets the next group's loads start
/// while the last one's rounds finish.
///
/// # Safety
///
/// The caller runs with `V`'s instructions enabled.
///
/// # Panics
///
/// If `inputs` is empty, `out` differs from it in length, `blocks` is not
/// in `1..=CHUNK_BLOCKS`, or an input has another number of blocks.
#[inline(always)]
pub(super) unsafe fn hash_short_messages<V: LaneVector, T: TailLoads<V>>(
    key: &CvWords,
    blocks: usize,
    flags: [u8; 3],
    inputs: &[&[u8]],
    out: &mut [CvBytes],
) {
    assert!(!inputs.is_empty() && out.len() == inputs.len());
    assert!((1..=CHUNK_BLOCKS).contains(&blocks));
    for (group, group_out) in inputs.chunks(V::LANES).zip(out.chunks_mut(V::LANES)) {
        // SAFETY: `V`'s instructions are enabled by the caller; `blocks` is
        // in range and each group holds 1 to `V::LANES` messages with an
        // output each.
        unsafe { hash_short_group::<V, T>(key, blocks, flags, group, group_out) }
    }
}

/// One group of [`hash_short_messages`]: at most `V::LANES` messages.
///
/// # Safety
///
/// The caller runs with `V`'s instructions enabled; `blocks` is in
/// `1..=CHUNK_BLOCKS`, `inputs` holds 1 to `V::LANES` messages and `out`
/// as many values.
///
/// # Panics
///
/// If an input has another number of blocks than `blocks`.
#[inline(always)]
unsafe fn hash_short_group<V: LaneVector, T: TailLoads<V>>(
    key: &CvWords,
    blocks: usize,
    [flags, start_flags, end_flags]: [u8; 3],
    inputs: &[&[u8]],
    out: &mut [CvBytes],
) {
    debug_assert!(!inputs.is_empty() && inputs.len() <= V::LANES && out.len() == inputs.len());
    let last = blocks - 1;
    // Idle lanes read the idle chunk, whose blocks are all whole.
    let mut input = [IDLE_CHUNK.as_ptr(); MAX_LANES];
    let mut tail_len = [BLOCK_LEN as u32; MAX_LANES];
    // Where each lane's last block is read when some are partial.
    let mut tail = [IDLE_CHUNK.as_ptr(); MAX_LANES];
    // Lanes with a partial last block pad it here, each in a window of 128
    // bytes; the others write nothing (zeroing every window cost more than
    // hashing a message of one block).
    let mut padded = MaybeUninit::<[[u8; 2 * BLOCK_LEN]; MAX_LANES]>::uninit();
    // Per lane a pointer and the length of the last block, the checks
    // gathered without a branch per lane: one check instead of
    // `has_blocks` and a slice's bounds check. (With `T::MASKED` the loop
    // has no branch at all.)
    let mut valid = true;
    let mut whole_tails = true;
    for (lane, message) in inputs.iter().enumerate() {
        let rest_len = message.len().wrapping_sub(last * BLOCK_LEN);
        valid &= rest_len.wrapping_sub(1) < BLOCK_LEN || (blocks == 1 && rest_len == 0);
        whole_tails &= rest_len == BLOCK_LEN;
        input[lane] = message.as_ptr();
        tail_len[lane] = rest_len as u32;
        tail[lane] = if rest_len == BLOCK_LEN || T::MASKED {
            message.as_ptr().wrapping_add(last * BLOCK_LEN)
        } else {
            // A message of another block count panics in these slices or
            // at the check after the loop.
            let mut window = [0u8; 2 * BLOCK_LEN];
            let start = if blocks > 1 {
                // The message's last 64 bytes, then zeros: the padded block
                // starts `64 - rest_len` bytes in. Copies of fixed size:
                // with random lengths, a copy's branches on its size were
                // mispredicted.
                window[..BLOCK_LEN].copy_from_slice(&message[message.len() - BLOCK_LEN..]);
                BLOCK_LEN - rest_len
            } else {
                window[..rest_len].copy_from_slice(message);
                0
            };
            let slot = padded.as_mut_ptr().cast::<[u8; 2 * BLOCK_LEN]>().wrapping_add(lane);
            // SAFETY: `slot` is inside `padded` (`lane < V::LANES <=
            // MAX_LANES`), a local not otherwise borrowed, and aligned for
            // bytes.
            unsafe { slot.write(window) };
            slot.cast::<u8>().cast_const().wrapping_add(start)
        };
    }
    assert!(valid, "one block count per call");
    // SAFETY: the calls to `V`'s methods need `V`'s instructions, which the
    // caller enables, and `T`'s, which the caller enables when `T::MASKED`
    // (else `load_tails` is never called). Reads: before the last step,
    // each lane reads block `step < last` at `input[lane]`, a message of
    // `blocks` blocks (checked above), whose first `last` blocks are
    // whole, or the idle chunk, whose `CHUNK_BLOCKS >= blocks` blocks are
    // whole. At the last step, when every lane's last block is whole
    // (`whole_tails`), each reads block `last` at `input[lane]` as well;
    // otherwise 64 bytes at `tail[lane]`: a whole last block inside its
    // message, its padded block in `padded` (`start <= 64` bytes into a
    // 128-byte window written above, live until the end of the function),
    // or the idle chunk's first block. With `T::MASKED`, a lane reads the
    // first `tail_len[lane]` bytes at `tail[lane]`: the rest of its
    // message, or the idle chunk's first 64 bytes.
    unsafe {
        // Masked loads cost more than plain ones: a call whose last blocks
        // are all whole (a column of 64-byte keys) runs a copy of the steps
        // without them (measured: 18.0 against 15.9 us per 1024 messages).
        let lanes = Lanes { input: &input, tail: &tail, tail_len: &tail_len, whole_tails };
        if T::MASKED && !whole_tails {
            short_steps::<V, T, true>(key, blocks, [flags, start_flags, end_flags], lanes, out);
        } else {
            short_steps::<V, T, false>(key, blocks, [flags, start_flags, end_flags], lanes, out);
        }
    }
}

/// What `short_steps` reads per lane: each message's first block, its last
/// block (whole, padded or in place) and the bytes in it.
struct Lanes<'a> {
    input: &'a [*const u8; MAX_LANES],
    /// Where the last blocks are read unless `whole_tails`.
    tail: &'a [*const u8; MAX_LANES],
    tail_len: &'a [u32; MAX_LANES],
    /// Every `tail_len` is 64: the last blocks are read at `input` too.
    whole_tails: bool,
}

/// The compressions of [`hash_short_messages`], once its lanes are laid
/// out; with `MASKED`, the last block through `T::load_tails`.
///
/// # Safety
///
/// As `hash_short_group`'s block reads: `lanes.input[lane]` valid for
/// `64 * (blocks - 1)` bytes of reads (`64 * blocks` when
/// `lanes.whole_tails`), else `lanes.tail[lane]` for 64 (or with `MASKED`,
/// for `lanes.tail_len[lane]`), and `V`'s (and with `MASKED`, `T`'s)
/// instructions enabled.
#[inline(always)]
unsafe fn short_steps<V: LaneVector, T: TailLoads<V>, const MASKED: bool>(
    key: &CvWords,
    blocks: usize,
    [flags, start_flags, end_flags]: [u8; 3],
    lanes: Lanes<'_>,
    out: &mut [CvBytes],
) {
    let last = blocks - 1;
    // SAFETY: this function's contract.
    unsafe {
        let zero = V::splat(0);
        let mut cv = [zero; 8];
        for (word, &key_word) in cv.iter_mut().zip(key) {
            *word = V::splat(key_word);
        }
        for step in 0..blocks {
            let mut block_flags = flags;
            if step == 0 {
                block_flags |= start_flags;
            }
            let (m, block_len) = if step == last {
                block_flags |= end_flags;
                let m = if MASKED {
                    T::load_tails(lanes.tail, lanes.tail_len)
                } else if lanes.whole_tails {
                    V::load_blocks(lanes.input, last * BLOCK_LEN)
                } else {
                    V::load_blocks(lanes.tail, 0)
                };
                // A vector load of the lengths just stored one by one waits
                // for the stores; whole blocks need none.
                let block_len =
                    if lanes.whole_tails { V::splat(BLOCK_LEN as u32) } else { V::from_words(lanes.tail_len) };
                (m, block_len)
            } else {
                (V::load_blocks(lanes.input, step * BLOCK_LEN), V::splat(BLOCK_LEN as u32))
            };
            cv = compress(&cv, &m, [zero, zero], block_len, V::splat(block_flags as u32));
        }
        if out.len() == V::LANES {
            V::store_cvs(&cv, out);
        } else {
            let mut all = [[0u8; OUT_LEN]; MAX_LANES];
            V::store_cvs(&cv, &mut all);
            out.copy_from_slice(&all[..out.len()]);
        }
    }
}
