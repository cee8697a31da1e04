//! What the assembly lane kernels read: every lane's parameters laid out as
//! vectors (one 32-bit word per lane), its block pointers, and scratch space.
//!
//! The kernels in `avx512_asm.rs` and `avx2_asm.rs` take one [`LaneParams`]
//! and run every step of a call in assembly; this file builds it from lane
//! jobs in safe code. A lane's block at step `s` is `base + 64 * s` while
//! `s < whole` and `pad` from then on: its zero-padded last block, or a
//! block of the idle chunk once its job is done. Every pointer therefore
//! names 64 readable bytes at every step the kernel can reach, which is the
//! invariant the kernels' loads rely on.

use super::job::LaneJob;
use super::spec::{CvWords, BLOCK_LEN, CHUNK_LEN, IV, MAX_LANES};
use core::mem::MaybeUninit;

/// What lanes without a job read, and where a job's lane reads after its
/// last block: a whole chunk, so any step offset stays inside it.
static IDLE_CHUNK: [u8; CHUNK_LEN] = [0; CHUNK_LEN];

/// A lane that never ends: `last_block` no step reaches.
const NEVER: u32 = u32::MAX;

/// The parameters of one kernel call. Field offsets are part of the
/// kernels' contract (`core::mem::offset_of!` in their operands).
#[repr(C, align(64))]
pub(super) struct LaneParams {
    pub(super) counter_low: [u32; MAX_LANES],
    pub(super) counter_high: [u32; MAX_LANES],
    /// Flags of every block.
    pub(super) flags: [u32; MAX_LANES],
    /// Flags of a lane's first block (`flags | start_flags`).
    pub(super) first_flags: [u32; MAX_LANES],
    /// Added on a lane's last block; includes the start flags when that is
    /// also its first.
    pub(super) end_flags: [u32; MAX_LANES],
    /// The step of a lane's last block (`NEVER` for an idle lane).
    pub(super) last_block: [u32; MAX_LANES],
    /// Bytes in a lane's last block.
    pub(super) last_len: [u32; MAX_LANES],
    /// The key words in 0..8, the first four IV words in 8..12.
    pub(super) key_iv: [u32; MAX_LANES],
    pub(super) base: [*const u8; MAX_LANES],
    pub(super) whole: [u64; MAX_LANES],
    pub(super) pad: [*const u8; MAX_LANES],
    /// Steps of the call: the most blocks of any job.
    pub(super) steps: u64,
    /// Where the values go at the end: 32 bytes per lane.
    pub(super) out: *mut u8,
}

/// Zero-padded last blocks of the lanes whose last block is partial.
pub(super) type PaddedBlocks = MaybeUninit<[[u8; BLOCK_LEN]; MAX_LANES]>;

impl LaneParams {
    fn idle(key: &CvWords, flags: u8, first_flags: u8, end_flags: u8, out: *mut u8) -> LaneParams {
        let mut key_iv = [0u32; MAX_LANES];
        key_iv[..8].copy_from_slice(key);
        key_iv[8..12].copy_from_slice(&IV[..4]);
        let idle = IDLE_CHUNK.as_ptr();
        LaneParams {
            counter_low: [0; MAX_LANES],
            counter_high: [0; MAX_LANES],
            flags: [flags as u32; MAX_LANES],
            first_flags: [first_flags as u32; MAX_LANES],
            end_flags: [end_flags as u32; MAX_LANES],
            last_block: [NEVER; MAX_LANES],
            last_len: [BLOCK_LEN as u32; MAX_LANES],
            key_iv,
            base: [idle; MAX_LANES],
            whole: [(CHUNK_LEN / BLOCK_LEN) as u64; MAX_LANES],
            pad: [idle; MAX_LANES],
            steps: 0,
            out,
        }
    }

    /// The parameters of `jobs` (at most `lanes`, at least one), whose
    /// values go to `out` (room for `lanes` values). A lane whose last
    /// block is partial gets it copied, zero-padded, into `padded`, which
    /// must outlive the kernel call.
    #[inline(always)]
    pub(super) fn new(
        key: &CvWords,
        jobs: &[LaneJob<'_>],
        lanes: usize,
        out: *mut u8,
        padded: &mut PaddedBlocks,
    ) -> LaneParams {
        assert!(!jobs.is_empty() && jobs.len() <= lanes && lanes <= MAX_LANES);
        let first = &jobs[0];
        let start_too = if first.block_count() == 1 { first.start_flags() } else { 0 };
        let mut params = LaneParams::idle(
            key,
            first.flags(),
            first.flags() | first.start_flags(),
            first.end_flags() | start_too,
            out,
        );
        let len = first.input().len();
        if len > 0
            && len.is_multiple_of(BLOCK_LEN)
            && jobs.iter().all(|job| {
                job.input().len() == len
                    && job.flags() == first.flags()
                    && job.start_flags() == first.start_flags()
                    && job.end_flags() == first.end_flags()
            })
        {
            // Uniform jobs (every chunk of a tree but the last): only the
            // counters and the inputs differ.
            let blocks = len / BLOCK_LEN;
            for (lane, job) in jobs.iter().enumerate() {
                params.counter_low[lane] = job.counter() as u32;
                params.counter_high[lane] = (job.counter() >> 32) as u32;
                params.base[lane] = job.input().as_ptr();
                params.whole[lane] = blocks as u64;
                params.last_block[lane] = blocks as u32 - 1;
            }
            params.steps = blocks as u64;
            return params;
        }
        let padded = padded.as_mut_ptr().cast::<[u8; BLOCK_LEN]>();
        let mut steps = 0;
        for (lane, job) in jobs.iter().enumerate() {
            let blocks = job.block_count();
            let whole = job.input().len() / BLOCK_LEN;
            params.counter_low[lane] = job.counter() as u32;
            params.counter_high[lane] = (job.counter() >> 32) as u32;
            params.flags[lane] = job.flags() as u32;
            params.first_flags[lane] = (job.flags() | job.start_flags()) as u32;
            let start_too = if blocks == 1 { job.start_flags() } else { 0 };
            params.end_flags[lane] = (job.end_flags() | start_too) as u32;
            params.last_block[lane] = blocks as u32 - 1;
            params.base[lane] = job.input().as_ptr();
            params.whole[lane] = whole as u64;
            if whole < blocks {
                let rest = &job.input()[whole * BLOCK_LEN..];
                let mut block = [0u8; BLOCK_LEN];
                block[..rest.len()].copy_from_slice(rest);
                // `padded` has MAX_LANES slots and `lane < lanes <= MAX_LANES`.
                let slot = padded.wrapping_add(lane);
                // SAFETY: `slot` is inside `padded`, a live exclusive borrow,
                // and aligned for `[u8; 64]` (alignment 1).
                unsafe { slot.write(block) };
                params.pad[lane] = slot.cast_const().cast();
                params.last_len[lane] = rest.len() as u32;
            }
            steps = steps.max(blocks);
        }
        params.steps = steps as u64;
        params
    }

    /// The parameters of `lanes` whole chunks (8 or 16), consecutive in
    /// `input` and in their counters from `first_counter`, with `[flags,
    /// start_flags, end_flags]` as in `Platform::hash_chunks`.
    #[inline(always)]
    pub(super) fn chunks(
        key: &CvWords,
        input: &[u8],
        first_counter: u64,
        chunk_flags: [u8; 3],
        lanes: usize,
        out: *mut u8,
    ) -> LaneParams {
        assert!(lanes <= MAX_LANES && input.len() == lanes * CHUNK_LEN);
        let [flags, start_flags, end_flags] = chunk_flags;
        let mut params = LaneParams::idle(key, flags, flags | start_flags, end_flags, out);
        const BLOCKS: usize = CHUNK_LEN / BLOCK_LEN;
        for lane in 0..lanes {
            let counter = first_counter.wrapping_add(lane as u64);
            params.counter_low[lane] = counter as u32;
            params.counter_high[lane] = (counter >> 32) as u32;
            params.base[lane] = input[lane * CHUNK_LEN..].as_ptr();
            params.last_block[lane] = BLOCKS as u32 - 1;
        }
        params.steps = BLOCKS as u64;
        params
    }
}

/// Three consecutive chunks whose third is at most `short_len` bytes, as
/// the two whole chunks and the third: the row kernels then hash the two
/// in one row set and the third alone, which costs less than the
/// interleaved two-set form for three chains when the third has few
/// blocks (measured in BENCHMARKS.md). `None` for any other input.
pub(super) fn short_third_chunk(input: &[u8], short_len: usize) -> Option<(&[u8], &[u8])> {
    let third = input.len().checked_sub(2 * CHUNK_LEN)?;
    (1..=short_len).contains(&third).then(|| input.split_at(2 * CHUNK_LEN))
}

/// The parameters of a row-form kernel call: up to four chains, each
/// compressed as four row vectors (spec section 2.2's state matrix, one
/// 128-bit lane per chain). Every field is a 64-bit word: the kernels build
/// their vectors from them with 8-byte loads, which take their data
/// straight from these 8-byte stores; a wider load of values written
/// narrower would wait for the stores to reach the cache (measured: about
/// 40 cycles a call).
#[repr(C, align(64))]
pub(super) struct RowParams {
    /// A chain's counter: the first half of its fourth state row.
    pub(super) counter: [u64; ROW_CHAINS],
    /// Block length (low 32 bits) and flags (high) of a chain's first
    /// block, middle blocks and last block: the second half of the row.
    pub(super) first: [u64; ROW_CHAINS],
    pub(super) middle: [u64; ROW_CHAINS],
    pub(super) last: [u64; ROW_CHAINS],
    /// The step of a chain's last block (`NEVER` for an idle chain).
    pub(super) last_block: [u64; ROW_CHAINS],
    pub(super) key: *const CvWords,
    pub(super) base: [*const u8; ROW_CHAINS],
    pub(super) whole: [u64; ROW_CHAINS],
    pub(super) pad: [*const u8; ROW_CHAINS],
    pub(super) steps: u64,
}

/// Chains of one row-form call.
pub(super) const ROW_CHAINS: usize = 4;

/// Where a row-form kernel leaves each chain's value, as it writes it:
/// `[pair][half]` holds words `4 * half .. 4 * half + 4` of chains
/// `2 * pair` (first 16 bytes) and `2 * pair + 1`.
pub(super) type RowOutputs = [[[u32; 8]; 2]; 2];

/// A row kernel's memory: each pair of chains' fourth state rows for a
/// first, middle and last block and its last step in every word, as the
/// kernel's prologue builds them, and the chains' values.
#[repr(C, align(64))]
pub(super) struct RowScratch {
    pub(super) rows: [[[u32; 8]; 4]; 2],
    pub(super) out: RowOutputs,
}

/// A block's length and flags as the row kernels take them.
#[inline(always)]
pub(super) fn len_flags(block_len: u32, flags: u8) -> u64 {
    block_len as u64 | (flags as u64) << 32
}

impl RowParams {
    fn idle(key: &CvWords) -> RowParams {
        let idle = IDLE_CHUNK.as_ptr();
        RowParams {
            counter: [0; ROW_CHAINS],
            first: [0; ROW_CHAINS],
            middle: [0; ROW_CHAINS],
            last: [0; ROW_CHAINS],
            last_block: [NEVER as u64; ROW_CHAINS],
            key,
            base: [idle; ROW_CHAINS],
            whole: [(CHUNK_LEN / BLOCK_LEN) as u64; ROW_CHAINS],
            pad: [idle; ROW_CHAINS],
            steps: 0,
        }
    }

    /// One chain of `blocks` blocks over `input` (at most a chunk), with
    /// `counter` and `[flags, start_flags, end_flags]` as a job has them.
    #[inline(always)]
    fn set_chain(&mut self, chain: usize, input: &[u8], counter: u64, chain_flags: [u8; 3], padded: &mut PaddedBlocks) {
        let [flags, start, end] = chain_flags;
        let blocks = input.len().div_ceil(BLOCK_LEN).max(1);
        let whole = input.len() / BLOCK_LEN;
        let last_len = (input.len() - (blocks - 1) * BLOCK_LEN) as u32;
        let (first_len, first_end) = if blocks == 1 { (last_len, end) } else { (BLOCK_LEN as u32, 0) };
        self.counter[chain] = counter;
        self.first[chain] = len_flags(first_len, flags | start | first_end);
        self.middle[chain] = len_flags(BLOCK_LEN as u32, flags);
        self.last[chain] = len_flags(last_len, flags | end | if blocks == 1 { start } else { 0 });
        self.last_block[chain] = blocks as u64 - 1;
        self.base[chain] = input.as_ptr();
        self.whole[chain] = whole as u64;
        if whole < blocks {
            let rest = &input[whole * BLOCK_LEN..];
            let mut block = [0u8; BLOCK_LEN];
            block[..rest.len()].copy_from_slice(rest);
            let slot = padded.as_mut_ptr().cast::<[u8; BLOCK_LEN]>().wrapping_add(chain);
            // SAFETY: `slot` is inside `padded` (`chain < ROW_CHAINS <=
            // MAX_LANES`), a live exclusive borrow, aligned for bytes.
            unsafe { slot.write(block) };
            self.pad[chain] = slot.cast_const().cast();
        }
        self.steps = self.steps.max(blocks as u64);
    }

    /// The parameters of one to four consecutive chunks of `input` (the
    /// last possibly partial), as `Platform::hash_chunks` takes them.
    #[inline(always)]
    pub(super) fn chunks(
        key: &CvWords,
        input: &[u8],
        first_counter: u64,
        chunk_flags: [u8; 3],
        padded: &mut PaddedBlocks,
    ) -> RowParams {
        assert!(!input.is_empty() && input.len() <= ROW_CHAINS * CHUNK_LEN);
        let mut params = RowParams::idle(key);
        for (chain, chunk) in input.chunks(CHUNK_LEN).enumerate() {
            params.set_chain(chain, chunk, first_counter.wrapping_add(chain as u64), chunk_flags, padded);
        }
        params
    }

    /// The parameters of `jobs` (one to four), from `key`. As
    /// [`LaneParams::new`], a partial last block is copied, zero-padded,
    /// into `padded`; `key` and `padded` must outlive the kernel call.
    #[inline(always)]
    pub(super) fn new(key: &CvWords, jobs: &[LaneJob<'_>], padded: &mut PaddedBlocks) -> RowParams {
        assert!(!jobs.is_empty() && jobs.len() <= ROW_CHAINS);
        let mut params = RowParams::idle(key);
        for (chain, job) in jobs.iter().enumerate() {
            let flags = [job.flags(), job.start_flags(), job.end_flags()];
            params.set_chain(chain, job.input(), job.counter(), flags, padded);
        }
        params
    }
}

/// Chain `chain`'s value from what a row-form kernel wrote.
#[inline(always)]
pub(super) fn row_output(written: &RowOutputs, chain: usize) -> [u8; 32] {
    let (pair, side) = (chain / 2, 4 * (chain % 2));
    let mut out = [0u8; 32];
    for (i, bytes) in out.chunks_exact_mut(4).enumerate() {
        let word = written[pair][i / 4][side + i % 4];
        bytes.copy_from_slice(&word.to_le_bytes());
    }
    out
}

/// The single-block entry points of an assembly file, over its
/// `compress_chain(cv_in, cv_out, blocks, count, counter, [first, rest],
/// xof)` (see `avx512_asm::compress_chain`): the same three wrappers for
/// every instruction set, under that file's `#[target_feature]`.
macro_rules! single_block_entry_points {
    ($features:literal, $cpu:literal) => {
        /// Compresses one block into `cv` (the chaining-value half of the output).
        ///
        /// # Safety
        ///
        #[doc = $cpu]
        #[target_feature(enable = $features)]
        pub(super) unsafe fn compress_in_place(
            cv: &mut CvWords,
            block: &[u8; BLOCK_LEN],
            block_len: u8,
            counter: u64,
            flags: u8,
        ) {
            let row = len_flags(block_len as u32, flags);
            let cv = cv.as_mut_ptr();
            // SAFETY: the CPU features per the caller; `cv` is 32 readable
            // and writable bytes, `block` 64 readable ones.
            unsafe { compress_chain(cv, cv, block.as_ptr(), 1, counter, [row, row], core::ptr::null_mut()) }
        }

        /// All 64 output bytes of one compression, for extended output.
        ///
        /// # Safety
        ///
        #[doc = $cpu]
        #[target_feature(enable = $features)]
        pub(super) unsafe fn compress_xof(
            cv: &CvWords,
            block: &[u8; BLOCK_LEN],
            block_len: u8,
            counter: u64,
            flags: u8,
        ) -> [u8; BLOCK_LEN] {
            let row = len_flags(block_len as u32, flags);
            let mut out = [0u8; BLOCK_LEN];
            let (cv_in, cv_out) = (cv.as_ptr(), core::ptr::null_mut());
            // SAFETY: the CPU features per the caller; `cv` is 32 readable
            // bytes, `block` 64, `out` 64 writable ones (so `cv_out` is not
            // written).
            unsafe { compress_chain(cv_in, cv_out, block.as_ptr(), 1, counter, [row, row], out.as_mut_ptr()) };
            out
        }

        /// Compresses whole blocks into `cv` one after another, the first
        /// with `first_flags` added: every block of a chunk but its last.
        ///
        /// # Safety
        ///
        #[doc = $cpu]
        #[target_feature(enable = $features)]
        pub(super) unsafe fn compress_blocks(
            cv: &mut CvWords,
            blocks: &[[u8; BLOCK_LEN]],
            counter: u64,
            flags: u8,
            first_flags: u8,
        ) {
            if blocks.is_empty() {
                return;
            }
            let rows = [len_flags(BLOCK_LEN as u32, flags | first_flags), len_flags(BLOCK_LEN as u32, flags)];
            let cv = cv.as_mut_ptr();
            // SAFETY: the CPU features per the caller; `cv` is 32 readable
            // and writable bytes, `blocks` 64 readable bytes per block.
            unsafe {
                compress_chain(cv, cv, blocks.as_ptr().cast(), blocks.len(), counter, rows, core::ptr::null_mut())
            }
        }

        /// Hashes one or two independent one-block jobs as
        /// `Platform::hash_blocks` does: one compression, or two side by
        /// side in the row form (`compress_two`).
        ///
        /// # Safety
        ///
        #[doc = $cpu]
        #[target_feature(enable = $features)]
        pub(super) unsafe fn hash_one_or_two_blocks(
            key: &CvWords,
            flags: u8,
            blocks: &[[u8; BLOCK_LEN]],
            out: &mut [CvBytes],
        ) {
            let row = len_flags(BLOCK_LEN as u32, flags);
            match (blocks, out) {
                ([block], [value, ..]) => {
                    let cv_out = value.as_mut_ptr().cast::<u32>();
                    // SAFETY: the CPU features per the caller; `key` is 32
                    // readable bytes, `block` 64, `value` 32 writable ones
                    // (the kernel stores without alignment).
                    unsafe {
                        compress_chain(key.as_ptr(), cv_out, block.as_ptr(), 1, 0, [row, row], core::ptr::null_mut())
                    }
                }
                ([block0, block1], [value0, value1, ..]) => {
                    let (out0, out1) = (value0.as_mut_ptr(), value1.as_mut_ptr());
                    // SAFETY: the CPU features per the caller; `key` is 32
                    // readable bytes, the blocks 64, the values 32 writable
                    // ones.
                    unsafe { compress_two(key.as_ptr(), block0.as_ptr(), block1.as_ptr(), row, out0, out1) }
                }
                _ => panic!("one or two blocks, and a value for each"),
            }
        }
    };
}
pub(super) use single_block_entry_points;

/// The end of a `compress_chain` block (`avx512_asm`, `avx2_asm`): after
/// a block's rounds, on to the next block (rsi, rcx) with the new chaining
/// value in xmm0-1 and the later blocks' length and flags (rax) in r11;
/// after the last, the value to `cv_out` (r10), or all 64 output bytes to
/// `xof` (r9) when it is not null (using `cv_in`, rdi, and xmm12-15).
/// VEX-encoded where it can be, so the same text serves AVX2 and AVX-512.
macro_rules! chain_tail {
    () => {
        r"
            mov r11, rax
            add rsi, 64
            dec rcx
            jz 3f
            vpxor xmm0, xmm0, xmm2
            vpxor xmm1, xmm1, xmm3
            jmp 2b
            3:
            test r9, r9
            jnz 4f
            vpxor xmm0, xmm0, xmm2
            vpxor xmm1, xmm1, xmm3
            vmovdqu [r10], xmm0
            vmovdqu [r10 + 16], xmm1
            jmp 5f
            4:
            vpxor xmm12, xmm0, xmm2
            vpxor xmm13, xmm1, xmm3
            vpxor xmm14, xmm2, [rdi]
            vpxor xmm15, xmm3, [rdi + 16]
            vmovdqu [r9], xmm12
            vmovdqu [r9 + 16], xmm13
            vmovdqu [r9 + 32], xmm14
            vmovdqu [r9 + 48], xmm15
            5:
        "
    };
}
pub(super) use chain_tail;

/// The job entry point of a transposed kernel `$run` of `$lanes` lanes (8
/// or 16) over a `$scratch` with a `[[u8; 32]; $lanes]` field `out`: the
/// same wrapper for every instruction set.
macro_rules! transposed_entry_points {
    ($lanes:literal, $features:literal, $cpu:literal, $run:ident, $scratch:ty, $hash_lanes:ident) => {
        #[doc = concat!("Hashes up to ", $lanes, " jobs side by side.")]
        ///
        /// # Safety
        ///
        #[doc = $cpu]
        #[target_feature(enable = $features)]
        pub(super) unsafe fn $hash_lanes(key: &CvWords, jobs: &[LaneJob<'_>], out: &mut [CvBytes]) {
            assert!(out.len() == jobs.len());
            let mut padded = PaddedBlocks::uninit();
            let mut scratch = MaybeUninit::<$scratch>::uninit();
            let direct = out.len() == $lanes;
            let destination = if direct {
                out.as_mut_ptr().cast::<u8>()
            } else {
                // SAFETY: a field of the scratch memory; no reference is made.
                unsafe { core::ptr::addr_of_mut!((*scratch.as_mut_ptr()).out).cast::<u8>() }
            };
            let params = LaneParams::new(key, jobs, $lanes, destination, &mut padded);
            // SAFETY: the CPU features are the caller's contract; `params`
            // comes from `LaneParams::new` (its pointers' invariant),
            // `padded` outlives the call, and the values go to `out` when it
            // holds all the lanes, else to `scratch`.
            unsafe { $run(&params, &mut scratch) };
            if !direct {
                // SAFETY: the call wrote every lane's value to `scratch.out`.
                let written = unsafe { &*core::ptr::addr_of!((*scratch.as_ptr()).out) };
                out.copy_from_slice(&written[..out.len()]);
            }
        }
    };
}
pub(super) use transposed_entry_points;

/// `asm!` with `nostack` that also declares every vector register changed:
/// for the kernels that use them all (zmm0-31 with AVX-512, ymm0-15 with
/// AVX2), so the long list is written once. The operands given end with a
/// comma.
macro_rules! asm_all_vectors {
    (zmm: $($operands:tt)*) => {
        core::arch::asm!(
            $($operands)*
            out("zmm0") _, out("zmm1") _, out("zmm2") _, out("zmm3") _,
            out("zmm4") _, out("zmm5") _, out("zmm6") _, out("zmm7") _,
            out("zmm8") _, out("zmm9") _, out("zmm10") _, out("zmm11") _,
            out("zmm12") _, out("zmm13") _, out("zmm14") _, out("zmm15") _,
            out("zmm16") _, out("zmm17") _, out("zmm18") _, out("zmm19") _,
            out("zmm20") _, out("zmm21") _, out("zmm22") _, out("zmm23") _,
            out("zmm24") _, out("zmm25") _, out("zmm26") _, out("zmm27") _,
            out("zmm28") _, out("zmm29") _, out("zmm30") _, out("zmm31") _,
            options(nostack),
        )
    };
    (ymm: $($operands:tt)*) => {
        core::arch::asm!(
            $($operands)*
            out("ymm0") _, out("ymm1") _, out("ymm2") _, out("ymm3") _,
            out("ymm4") _, out("ymm5") _, out("ymm6") _, out("ymm7") _,
            out("ymm8") _, out("ymm9") _, out("ymm10") _, out("ymm11") _,
            out("ymm12") _, out("ymm13") _, out("ymm14") _, out("ymm15") _,
            options(nostack),
        )
    };
}
pub(super) use asm_all_vectors;

/// `asm_all_vectors!` for a row-form kernel over a [`RowParams`]: adds the
/// operands its templates name for the parameters' fields (`base` to
/// `steps`), written once for both instruction sets.
macro_rules! row_params_asm {
    ($width:ident: $($operands:tt)*) => {
        $crate::platform::asm_lanes::asm_all_vectors!($width:
            $($operands)*
            base = const core::mem::offset_of!($crate::platform::asm_lanes::RowParams, base),
            whole = const core::mem::offset_of!($crate::platform::asm_lanes::RowParams, whole),
            pad = const core::mem::offset_of!($crate::platform::asm_lanes::RowParams, pad),
            key = const core::mem::offset_of!($crate::platform::asm_lanes::RowParams, key),
            counter = const core::mem::offset_of!($crate::platform::asm_lanes::RowParams, counter),
            first = const core::mem::offset_of!($crate::platform::asm_lanes::RowParams, first),
            middle = const core::mem::offset_of!($crate::platform::asm_lanes::RowParams, middle),
            last = const core::mem::offset_of!($crate::platform::asm_lanes::RowParams, last),
            last_block = const core::mem::offset_of!($crate::platform::asm_lanes::RowParams, last_block),
            steps = const core::mem::offset_of!($crate::platform::asm_lanes::RowParams, steps),
        )
    };
}
pub(super) use row_params_asm;
