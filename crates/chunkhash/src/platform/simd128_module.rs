//! The SIMD128 kernels as a WebAssembly module of their own, for a package
//! that ships one scalar module with every algorithm and a small SIMD128
//! module beside it (the `wasm-simd128-module` feature; the npm package in
//! `bindings/js` is the user). WebAssembly has no run-time feature
//! detection and an engine without SIMD128 rejects a whole module that has
//! one SIMD instruction, so the kernels cannot live in the main module.
//!
//! The same file is both sides of the boundary:
//!
//! - built with `simd128` (the side module): `extern "C"` exports that wrap
//!   this folder's BLAKE3 lane kernels (`simd128.rs`), the XXH3 kernel
//!   (`xxh3/simd128.rs`) and the multi-buffer kernels of SHA-256, MD5 and
//!   SHA-1 (`mb_simd128.rs`, with the `sha2` and `compat` features; a
//!   crossing per call of four lanes, which does hundreds of instructions
//!   a block). Runs of chunks, tree levels of parents and groups
//!   of small messages cross once, through `Platform` on the SIMD128
//!   backend: a crossing per four lanes cost BLAKE3 a few percent at 1 MiB;
//! - built without it (the main module): the matching imports, from the
//!   wasm module `chunkhash_simd128`, and [`link`], after which
//!   `Backend::Wasm32Simd` and `Kernel::Simd128` count as supported and the
//!   dispatch in `mod.rs` and `xxh3/mod.rs` calls the imports.
//!
//! Across the boundary go only integers and pointers into the one memory
//! both modules share, in the `#[repr(C)]` layouts below: two builds of a
//! Rust struct need not lay it out alike. Where SIMD128 is missing, the
//! loader gives the main module stubs for the imports, never called
//! because `link` is never called. Where the side module's data and stack
//! live in the shared memory is the build's business (`--global-base`;
//! `bindings/js/scripts/build.mjs` checks it).

use super::job::LaneJob;
use super::spec::{CvBytes, CvWords};
use super::xxh3::{Accumulators, STRIPE_LEN};

/// Lanes of the SIMD128 BLAKE3 kernels.
const LANES: usize = 4;

/// A byte slice as a pointer and a length.
#[repr(C)]
#[derive(Clone, Copy)]
pub(crate) struct RawSlice {
    ptr: *const u8,
    len: usize,
}

impl RawSlice {
    #[cfg_attr(target_feature = "simd128", allow(dead_code))]
    fn new(bytes: &[u8]) -> RawSlice {
        RawSlice { ptr: bytes.as_ptr(), len: bytes.len() }
    }

    /// The slice again.
    ///
    /// # Safety
    ///
    /// Made by [`RawSlice::new`] from a slice that is still borrowed for `'a`.
    #[cfg_attr(not(target_feature = "simd128"), allow(dead_code))]
    unsafe fn get<'a>(self) -> &'a [u8] {
        // SAFETY: the caller's contract: `ptr` and `len` come from a live slice.
        unsafe { core::slice::from_raw_parts(self.ptr, self.len) }
    }
}

/// The blocks of a multi-buffer kernel's four lanes: a [`RawSlice`] each.
#[cfg(feature = "compat")]
pub(crate) type RawLanes = [RawSlice; 4];

/// One 64-byte block of each of a SHA-256 kernel's four lanes.
#[cfg(feature = "sha2")]
pub(crate) type RawBlocks = [*const [u8; 64]; 4];

/// A [`LaneJob`]: its input, counter and `[flags, start_flags, end_flags]`.
#[repr(C)]
#[derive(Clone, Copy)]
pub(crate) struct RawJob {
    input: RawSlice,
    counter: u64,
    flags: [u8; 3],
}

// `pub`: exported from the module, reached from outside Rust only.
#[cfg(target_feature = "simd128")]
#[allow(unreachable_pub)]
mod exports {
    //! The side module's exports: each rebuilds the caller's slices and
    //! jobs, then runs the kernel. The kernels assert what they need (job
    //! counts, lengths, block counts), as when called directly.

    use super::super::backend::Backend;
    use super::super::xxh3::{Checked, Kernel};
    use super::super::{simd128, Platform};
    use super::*;

    /// The SIMD128 BLAKE3 backend; support is a build-time fact here.
    fn platform() -> Platform {
        match Platform::new(Backend::Wasm32Simd) {
            Ok(platform) => platform,
            Err(_) => unreachable!("this file is built with SIMD128"),
        }
    }

    /// The SIMD128 XXH3 kernel; support is a build-time fact here.
    fn xxh3() -> Checked {
        match Kernel::Simd128.checked() {
            Ok(kernel) => kernel,
            Err(_) => unreachable!("this file is built with SIMD128"),
        }
    }

    /// `Platform::hash_jobs` on up to four jobs.
    ///
    /// # Safety
    ///
    /// `key` points to 8 words, `jobs` to `count` (at most four) jobs made
    /// by `RawJob::new` from live jobs, `out` to `count` writable chaining
    /// values, none of them overlapping `out`.
    #[unsafe(no_mangle)] // SAFETY: the only symbol of this name in the module.
    pub unsafe extern "C" fn chunkhash_simd128_blake3_lanes(
        key: *const CvWords,
        jobs: *const RawJob,
        count: usize,
        out: *mut CvBytes,
    ) {
        assert!(count <= LANES, "at most four lanes");
        // SAFETY: the caller's contract: `count` jobs at `jobs`.
        let raw = unsafe { core::slice::from_raw_parts(jobs, count) };
        let jobs: [LaneJob<'_>; LANES] = core::array::from_fn(|i| match raw.get(i) {
            Some(job) => {
                // SAFETY: the caller's contract: each job's input is live.
                let input = unsafe { job.input.get() };
                LaneJob::new(input, job.counter, job.flags[0], job.flags[1], job.flags[2])
            }
            None => LaneJob::IDLE,
        });
        // SAFETY: the caller's contract: `key` is 8 readable words and
        // `out` is `count` writable values apart from the inputs; this
        // module is built with SIMD128.
        unsafe { simd128::hash_lanes4(&*key, &jobs[..count], core::slice::from_raw_parts_mut(out, count)) }
    }

    /// `Platform::hash_chunks` on the SIMD128 backend: a run of chunks in
    /// one crossing (a 1 MiB input is 256 calls of the 4-lane kernel).
    /// `flags` packs `[flags, start_flags, end_flags]` little-endian.
    ///
    /// # Safety
    ///
    /// `key` points to 8 words, `input` is a live slice, `out` points to
    /// `out_len` writable chaining values apart from the input.
    #[unsafe(no_mangle)] // SAFETY: the only symbol of this name in the module.
    pub unsafe extern "C" fn chunkhash_simd128_blake3_chunks(
        key: *const CvWords,
        input: RawSlice,
        first_counter: u64,
        flags: u32,
        out: *mut CvBytes,
        out_len: usize,
    ) -> usize {
        let [flags, start_flags, end_flags, _] = flags.to_le_bytes();
        // SAFETY: the caller's contract.
        let (key, input, out) = unsafe { (&*key, input.get(), core::slice::from_raw_parts_mut(out, out_len)) };
        platform().hash_chunks(key, input, first_counter, [flags, start_flags, end_flags], out)
    }

    /// `Platform::hash_blocks` on the SIMD128 backend: one tree level's
    /// parent nodes in one crossing.
    ///
    /// # Safety
    ///
    /// As [`chunkhash_simd128_blake3_chunks`], with `blocks` for the input.
    #[unsafe(no_mangle)] // SAFETY: the only symbol of this name in the module.
    pub unsafe extern "C" fn chunkhash_simd128_blake3_blocks(
        key: *const CvWords,
        flags: u32,
        blocks: RawSlice,
        out: *mut CvBytes,
        out_len: usize,
    ) {
        // SAFETY: the caller's contract.
        let (key, blocks, out) = unsafe { (&*key, blocks.get(), core::slice::from_raw_parts_mut(out, out_len)) };
        platform().hash_blocks(key, flags as u8, blocks, out)
    }

    /// `Platform::hash_short_messages` on the SIMD128 backend: `count`
    /// messages of `blocks` blocks; `flags` as in
    /// [`chunkhash_simd128_blake3_chunks`].
    ///
    /// # Safety
    ///
    /// `key` points to 8 words, `inputs` to `count` slices made by
    /// `RawSlice::new` from live slices, `out` to `count` writable chaining
    /// values apart from the inputs.
    #[unsafe(no_mangle)] // SAFETY: the only symbol of this name in the module.
    pub unsafe extern "C" fn chunkhash_simd128_blake3_short(
        key: *const CvWords,
        blocks: usize,
        flags: u32,
        inputs: *const RawSlice,
        count: usize,
        out: *mut CvBytes,
    ) {
        let [flags, start_flags, end_flags, _] = flags.to_le_bytes();
        // SAFETY: the caller's contract: `count` slices at `inputs`, and
        // `count` values at `out`.
        let (key, raw, out) =
            unsafe { (&*key, core::slice::from_raw_parts(inputs, count), core::slice::from_raw_parts_mut(out, count)) };
        // One kernel call's worth at a time: the slices go into an array
        // as small as the kernel's lanes.
        for (raw, out) in raw.chunks(LANES).zip(out.chunks_mut(LANES)) {
            let mut messages: [&[u8]; LANES] = [&[]; LANES];
            for (message, raw) in messages.iter_mut().zip(raw) {
                // SAFETY: the caller's contract: each slice is live.
                *message = unsafe { raw.get() };
            }
            platform().hash_short_messages(key, blocks, [flags, start_flags, end_flags], &messages[..raw.len()], out)
        }
    }

    /// `mb_simd128::sha256_compress`: one block of each of four lanes.
    ///
    /// # Safety
    ///
    /// `state` points to the lanes' 8 x 4 writable words, `blocks` to four
    /// pointers to 64 readable bytes each, none overlapping `state`.
    #[cfg(feature = "sha2")]
    #[unsafe(no_mangle)] // SAFETY: the only symbol of this name in the module.
    pub unsafe extern "C" fn chunkhash_simd128_sha256_compress4(state: *mut [[u32; 4]; 8], blocks: *const RawBlocks) {
        // SAFETY: the caller's contract: four live blocks and the state.
        let (state, blocks) = unsafe { (&mut *state, (*blocks).map(|block| &*block)) };
        super::super::mb_simd128::sha256_compress(state, &blocks);
    }

    /// A kernel of `mb_simd128.rs` with `S` words of state a lane.
    #[cfg(feature = "compat")]
    type LaneKernel<const S: usize> = fn(&mut [[u32; 4]; S], &[&[u8]; 4], usize);

    /// Runs `kernel` on the caller's state and four lanes of `count` blocks.
    ///
    /// # Safety
    ///
    /// `state` points to the lanes' S x 4 writable words, `blocks` to four
    /// slices made by `RawSlice::new` from live slices, none overlapping
    /// `state`. (The kernels assert that each has `count` blocks.)
    #[cfg(feature = "compat")]
    unsafe fn lanes4<const S: usize>(
        state: *mut [[u32; 4]; S],
        blocks: *const RawLanes,
        count: usize,
        kernel: LaneKernel<S>,
    ) {
        // SAFETY: the caller's contract.
        let (state, blocks) = unsafe { (&mut *state, (*blocks).map(|raw| raw.get())) };
        kernel(state, &blocks, count);
    }

    /// `mb_simd128::md5_compress`: `count` blocks of each of four lanes.
    ///
    /// # Safety
    ///
    /// As `lanes4`, with 4 x 4 words of state.
    #[cfg(feature = "compat")]
    #[unsafe(no_mangle)] // SAFETY: the only symbol of this name in the module.
    pub unsafe extern "C" fn chunkhash_simd128_md5_compress4(
        state: *mut [[u32; 4]; 4],
        blocks: *const RawLanes,
        count: usize,
    ) {
        // SAFETY: the caller's contract is `lanes4`'s.
        unsafe { lanes4(state, blocks, count, super::super::mb_simd128::md5_compress) }
    }

    /// `mb_simd128::sha1_compress`: `count` blocks of each of four lanes.
    ///
    /// # Safety
    ///
    /// As `lanes4`, with 5 x 4 words of state.
    #[cfg(feature = "compat")]
    #[unsafe(no_mangle)] // SAFETY: the only symbol of this name in the module.
    pub unsafe extern "C" fn chunkhash_simd128_sha1_compress4(
        state: *mut [[u32; 4]; 5],
        blocks: *const RawLanes,
        count: usize,
    ) {
        // SAFETY: the caller's contract is `lanes4`'s.
        unsafe { lanes4(state, blocks, count, super::super::mb_simd128::sha1_compress) }
    }

    /// `Checked::hash_long` of the SIMD128 XXH3 kernel.
    ///
    /// # Safety
    ///
    /// `acc` points to the 8 accumulators, `input` and `secret` are live
    /// slices; `acc` overlaps neither.
    #[unsafe(no_mangle)] // SAFETY: the only symbol of this name in the module.
    pub unsafe extern "C" fn chunkhash_simd128_xxh3_hash_long(
        acc: *mut Accumulators,
        input: RawSlice,
        secret: RawSlice,
    ) {
        // SAFETY: the caller's contract.
        unsafe { xxh3().hash_long(&mut *acc, input.get(), secret.get()) }
    }

    /// `Checked::consume` of the SIMD128 XXH3 kernel.
    ///
    /// # Safety
    ///
    /// As [`chunkhash_simd128_xxh3_hash_long`].
    #[unsafe(no_mangle)] // SAFETY: the only symbol of this name in the module.
    pub unsafe extern "C" fn chunkhash_simd128_xxh3_consume(
        acc: *mut Accumulators,
        stripes: RawSlice,
        secret: RawSlice,
        done: usize,
    ) -> usize {
        // SAFETY: the caller's contract.
        unsafe { xxh3().consume(&mut *acc, stripes.get(), secret.get(), done) }
    }

    /// `Checked::accumulate_last` of the SIMD128 XXH3 kernel.
    ///
    /// # Safety
    ///
    /// `acc` points to the 8 accumulators, `stripe` to 64 readable bytes,
    /// `secret` is a live slice; `acc` overlaps neither.
    #[unsafe(no_mangle)] // SAFETY: the only symbol of this name in the module.
    pub unsafe extern "C" fn chunkhash_simd128_xxh3_accumulate_last(
        acc: *mut Accumulators,
        stripe: *const [u8; STRIPE_LEN],
        secret: RawSlice,
    ) {
        // SAFETY: the caller's contract.
        unsafe { xxh3().accumulate_last(&mut *acc, &*stripe, secret.get()) }
    }
}

#[cfg(not(target_feature = "simd128"))]
pub use imports::*;

#[cfg(not(target_feature = "simd128"))]
mod imports {
    //! The main module's side: the imports, the switch that turns them on,
    //! and safe-to-reason wrappers that lay out the arguments.

    use super::*;
    use core::sync::atomic::{AtomicBool, Ordering::Relaxed};

    #[link(wasm_import_module = "chunkhash_simd128")]
    unsafe extern "C" {
        fn chunkhash_simd128_blake3_lanes(key: *const CvWords, jobs: *const RawJob, count: usize, out: *mut CvBytes);
        fn chunkhash_simd128_blake3_chunks(
            key: *const CvWords,
            input: RawSlice,
            first_counter: u64,
            flags: u32,
            out: *mut CvBytes,
            out_len: usize,
        ) -> usize;
        fn chunkhash_simd128_blake3_blocks(
            key: *const CvWords,
            flags: u32,
            blocks: RawSlice,
            out: *mut CvBytes,
            out_len: usize,
        );
        fn chunkhash_simd128_blake3_short(
            key: *const CvWords,
            blocks: usize,
            flags: u32,
            inputs: *const RawSlice,
            count: usize,
            out: *mut CvBytes,
        );
        fn chunkhash_simd128_xxh3_hash_long(acc: *mut Accumulators, input: RawSlice, secret: RawSlice);
        #[cfg(feature = "sha2")]
        fn chunkhash_simd128_sha256_compress4(state: *mut [[u32; 4]; 8], blocks: *const RawBlocks);
        #[cfg(feature = "compat")]
        fn chunkhash_simd128_md5_compress4(state: *mut [[u32; 4]; 4], blocks: *const RawLanes, count: usize);
        #[cfg(feature = "compat")]
        fn chunkhash_simd128_sha1_compress4(state: *mut [[u32; 4]; 5], blocks: *const RawLanes, count: usize);
        fn chunkhash_simd128_xxh3_consume(
            acc: *mut Accumulators,
            stripes: RawSlice,
            secret: RawSlice,
            done: usize,
        ) -> usize;
        fn chunkhash_simd128_xxh3_accumulate_last(
            acc: *mut Accumulators,
            stripe: *const [u8; STRIPE_LEN],
            secret: RawSlice,
        );
    }

    static LINKED: AtomicBool = AtomicBool::new(false);

    /// Messages per crossing of the small-message kernel: the main module
    /// passes their slices in an array on its stack, which it fills anew for
    /// each call (the batch API calls with four at a time, so a large array
    /// would cost more to fill than it saves in crossings).
    const SHORT_GROUP: usize = 16;

    /// Whether [`link`] was called: the SIMD128 kernels can run.
    #[inline]
    pub(crate) fn linked() -> bool {
        LINKED.load(Relaxed)
    }

    /// Turns on the SIMD128 module's kernels: from now on BLAKE3 and XXH3
    /// detect `wasm32simd` and `simd128` and call the imports. Call it
    /// before the first hash: the detected kernels are cached.
    ///
    /// # Safety
    ///
    /// The module's `chunkhash_simd128` imports are the exports of the
    /// SIMD128 build of this file (same source), instantiated on this
    /// module's memory, with its data and stack linked into memory that
    /// this module's own layout leaves unused (its stack, data and heap
    /// never reach there).
    pub unsafe fn link() {
        LINKED.store(true, Relaxed);
    }

    impl RawJob {
        fn new(job: &LaneJob<'_>) -> RawJob {
            RawJob {
                input: RawSlice::new(job.input()),
                counter: job.counter(),
                flags: [job.flags(), job.start_flags(), job.end_flags()],
            }
        }
    }

    const IDLE: RawJob = RawJob { input: RawSlice { ptr: core::ptr::null(), len: 0 }, counter: 0, flags: [0; 3] };

    /// `simd128::hash_lanes4` in the side module.
    ///
    /// # Safety
    ///
    /// [`linked`] is true.
    pub(crate) unsafe fn hash_lanes4(key: &CvWords, jobs: &[LaneJob<'_>], out: &mut [CvBytes]) {
        assert!(jobs.len() <= LANES && out.len() == jobs.len(), "up to four jobs, one output each");
        let raw: [RawJob; LANES] = core::array::from_fn(|i| jobs.get(i).map_or(IDLE, RawJob::new));
        // SAFETY: linked (the caller's contract), so the import is the
        // kernel, which reads the key, `jobs.len()` jobs whose inputs are
        // borrowed here, and writes as many values to `out`, borrowed
        // mutably (so apart from the inputs).
        unsafe { chunkhash_simd128_blake3_lanes(key, raw.as_ptr(), jobs.len(), out.as_mut_ptr()) }
    }

    /// `Platform::hash_chunks` on SIMD128, in the side module: one crossing.
    ///
    /// # Safety
    ///
    /// [`linked`] is true.
    pub(crate) unsafe fn hash_chunks(
        key: &CvWords,
        input: &[u8],
        first_counter: u64,
        [flags, start_flags, end_flags]: [u8; 3],
        out: &mut [CvBytes],
    ) -> usize {
        let flags = u32::from_le_bytes([flags, start_flags, end_flags, 0]);
        // SAFETY: linked (the caller's contract), so the import is the
        // kernel, which reads the key and the borrowed input, and writes at
        // most `out.len()` values to `out`, borrowed mutably.
        unsafe {
            chunkhash_simd128_blake3_chunks(
                key,
                RawSlice::new(input),
                first_counter,
                flags,
                out.as_mut_ptr(),
                out.len(),
            )
        }
    }

    /// `Platform::hash_blocks` on SIMD128, in the side module: one crossing.
    ///
    /// # Safety
    ///
    /// [`linked`] is true.
    pub(crate) unsafe fn hash_blocks(key: &CvWords, flags: u8, blocks: &[u8], out: &mut [CvBytes]) {
        // SAFETY: as in `hash_chunks`.
        unsafe {
            chunkhash_simd128_blake3_blocks(key, flags.into(), RawSlice::new(blocks), out.as_mut_ptr(), out.len())
        }
    }

    /// `Platform::hash_short_messages` on SIMD128, in the side module: one
    /// crossing per 64 messages.
    ///
    /// # Safety
    ///
    /// [`linked`] is true.
    pub(crate) unsafe fn hash_short_messages(
        key: &CvWords,
        blocks: usize,
        [flags, start_flags, end_flags]: [u8; 3],
        inputs: &[&[u8]],
        out: &mut [CvBytes],
    ) {
        assert!(inputs.len() == out.len(), "one output per message");
        let flags = u32::from_le_bytes([flags, start_flags, end_flags, 0]);
        let mut raw = [RawSlice::new(&[]); SHORT_GROUP];
        for (inputs, out) in inputs.chunks(SHORT_GROUP).zip(out.chunks_mut(SHORT_GROUP)) {
            for (raw, input) in raw.iter_mut().zip(inputs) {
                *raw = RawSlice::new(input);
            }
            // SAFETY: linked (the caller's contract), so the import is the
            // kernel, which reads the key and `inputs.len()` borrowed
            // slices, and writes as many values to `out`, borrowed mutably.
            unsafe { chunkhash_simd128_blake3_short(key, blocks, flags, raw.as_ptr(), inputs.len(), out.as_mut_ptr()) }
        }
    }

    /// The SIMD128 XXH3 kernel's `hash_long` in the side module.
    ///
    /// # Safety
    ///
    /// [`linked`] is true.
    pub(crate) unsafe fn xxh3_hash_long(acc: &mut Accumulators, input: &[u8], secret: &[u8]) {
        // SAFETY: linked (the caller's contract): the import is the kernel,
        // given borrowed slices and the accumulators borrowed mutably.
        unsafe { chunkhash_simd128_xxh3_hash_long(acc, RawSlice::new(input), RawSlice::new(secret)) }
    }

    /// The SIMD128 XXH3 kernel's `consume` in the side module.
    ///
    /// # Safety
    ///
    /// [`linked`] is true.
    pub(crate) unsafe fn xxh3_consume(acc: &mut Accumulators, stripes: &[u8], secret: &[u8], done: usize) -> usize {
        // SAFETY: as in `xxh3_hash_long`.
        unsafe { chunkhash_simd128_xxh3_consume(acc, RawSlice::new(stripes), RawSlice::new(secret), done) }
    }

    /// The SIMD128 XXH3 kernel's `accumulate_last` in the side module.
    ///
    /// # Safety
    ///
    /// [`linked`] is true.
    pub(crate) unsafe fn xxh3_accumulate_last(acc: &mut Accumulators, stripe: &[u8; STRIPE_LEN], secret: &[u8]) {
        // SAFETY: as in `xxh3_hash_long`.
        unsafe { chunkhash_simd128_xxh3_accumulate_last(acc, stripe, RawSlice::new(secret)) }
    }

    /// `mb_simd128::sha256_compress` in the side module.
    ///
    /// # Safety
    ///
    /// [`linked`] is true.
    #[cfg(feature = "sha2")]
    pub(crate) unsafe fn sha256_compress(state: &mut [[u32; 4]; 8], blocks: &[&[u8; 64]; 4]) {
        let raw: RawBlocks = blocks.map(core::ptr::from_ref);
        // SAFETY: linked (the caller's contract): the import is the kernel,
        // given four borrowed blocks and the state borrowed mutably.
        unsafe { chunkhash_simd128_sha256_compress4(state, &raw) }
    }

    /// `mb_simd128::md5_compress` in the side module.
    ///
    /// # Safety
    ///
    /// [`linked`] is true.
    #[cfg(feature = "compat")]
    pub(crate) unsafe fn md5_compress(state: &mut [[u32; 4]; 4], blocks: &[&[u8]; 4], count: usize) {
        // SAFETY: linked (the caller's contract): the import is the kernel,
        // given four borrowed slices and the state borrowed mutably.
        unsafe { chunkhash_simd128_md5_compress4(state, &blocks.map(RawSlice::new), count) }
    }

    /// `mb_simd128::sha1_compress` in the side module.
    ///
    /// # Safety
    ///
    /// [`linked`] is true.
    #[cfg(feature = "compat")]
    pub(crate) unsafe fn sha1_compress(state: &mut [[u32; 4]; 5], blocks: &[&[u8]; 4], count: usize) {
        // SAFETY: as in `md5_compress`.
        unsafe { chunkhash_simd128_sha1_compress4(state, &blocks.map(RawSlice::new), count) }
    }
}
