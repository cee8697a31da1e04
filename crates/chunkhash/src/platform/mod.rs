//! Kernel dispatch: the one place that decides which instruction set runs.
//!
//! Every `core::arch` intrinsic and every `unsafe` kernel call of the crate
//! lives in this folder, one file per instruction set. The rest of the crate
//! talks to a [`Platform`], a [`Backend`] whose support has been checked, so
//! safe code can never reach an instruction the CPU lacks. This file holds
//! `Platform` and one `match` per operation, nothing else.
//!
//! The other files, each with one job; none imports from this one:
//!
//! - `spec.rs`: BLAKE3's constants and word conversions (a leaf).
//! - `job.rs`: `LaneJob`, one chain of compressions, at most one chunk long.
//! - `backend.rs`: `Backend`, CPU detection and `CHUNKHASH_BACKEND`.
//! - `lanes.rs`: the lane skeleton every SIMD kernel instantiates.
//! - `portable.rs`, `sse41.rs`, `avx2.rs`, `avx512.rs`, `neon.rs`,
//!   `simd128.rs`: the kernels.
//! - `avx512_asm.rs`, `avx2_asm.rs`: kernels in assembly; `asm_lanes.rs`
//!   lays out what they read.
//! - `simd128_module.rs`: the SIMD128 kernels as a wasm module of their
//!   own, exported or imported (the `wasm-simd128-module` feature).
//! - `sha256.rs`: SHA-256 multi-buffer kernel dispatch, over
//!   `sha256_portable.rs`, `sha256_shani.rs`, `sha256_avx2.rs` and
//!   `sha256_avx512.rs`.
//! - `cdc/`: the Gear-scan kernels of the content-defined chunkers.
//! - `multi_buffer.rs`: the multi-buffer kernels' dispatch (MD5, SHA-1,
//!   SHA-512: many messages across SIMD lanes), with `mb_*.rs` and
//!   `md5_*.rs`, `sha1_*.rs`, `sha512_*.rs` beside it; `mb_simd128.rs`
//!   has the wasm32 SIMD128 forms of SHA-256, MD5 and SHA-1, `mb_neon.rs`
//!   the aarch64 NEON forms of MD5 and SHA-1 (run only when forced).

pub(crate) mod backend;
#[cfg(feature = "cdc")]
pub(crate) mod cdc;
#[cfg(feature = "crc")]
pub(crate) mod crc;
pub(crate) mod job;
#[cfg(feature = "sha2")]
pub(crate) mod sha256;
#[cfg(all(feature = "sha2", any(target_arch = "x86", target_arch = "x86_64")))]
mod sha256_avx2;
#[cfg(all(feature = "sha2", any(target_arch = "x86", target_arch = "x86_64")))]
mod sha256_avx512;
#[cfg(feature = "sha2")]
pub(crate) mod sha256_portable;
#[cfg(all(feature = "sha2", any(target_arch = "x86", target_arch = "x86_64")))]
mod sha256_shani;
pub(crate) mod spec;
#[cfg(feature = "xxh3")]
pub(crate) mod xxh3;

#[cfg(any(
    target_arch = "x86",
    target_arch = "x86_64",
    all(target_arch = "aarch64", target_endian = "little"),
    all(target_arch = "wasm32", target_feature = "simd128")
))]
mod lanes;
mod portable;

#[cfg(all(target_arch = "x86_64", not(miri)))]
mod asm_lanes;
#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
mod avx2;
#[cfg(all(target_arch = "x86_64", not(miri)))]
mod avx2_asm;
#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
mod avx512;
#[cfg(all(target_arch = "x86_64", not(miri)))]
mod avx512_asm;
#[cfg(all(target_arch = "aarch64", target_endian = "little"))]
mod neon;
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
mod simd128;
#[cfg(all(target_arch = "wasm32", feature = "wasm-simd128-module"))]
pub(crate) mod simd128_module;
#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
mod sse41;

// The multi-buffer kernels (MD5, SHA-1, SHA-512 across SIMD lanes): their
// own dispatch in `multi_buffer.rs`; the lane scheduler (`mb_lanes.rs`)
// also runs SHA-256's kernels for streams fed in pieces.
#[cfg(any(
    all(feature = "compat", target_arch = "aarch64", target_endian = "little"),
    all(any(feature = "compat", feature = "sha2"), target_arch = "wasm32", target_feature = "simd128")
))]
mod mb_four_lanes;
#[cfg(any(feature = "compat", feature = "sha2"))]
pub(crate) mod mb_lanes;
#[cfg(all(feature = "compat", target_arch = "aarch64", target_endian = "little"))]
mod mb_neon;
#[cfg(all(any(feature = "compat", feature = "sha2"), target_arch = "wasm32", target_feature = "simd128"))]
mod mb_simd128;
#[cfg(any(feature = "compat", feature = "sha2"))]
mod mb_spec;
#[cfg(all(any(feature = "compat", feature = "sha2"), any(target_arch = "x86", target_arch = "x86_64")))]
mod mb_x86;
#[cfg(all(feature = "compat", any(target_arch = "x86", target_arch = "x86_64")))]
mod md5_avx2;
#[cfg(all(feature = "compat", any(target_arch = "x86", target_arch = "x86_64")))]
mod md5_avx512;
#[cfg(any(feature = "compat", feature = "sha2"))]
pub(crate) mod multi_buffer;
#[cfg(all(feature = "compat", any(target_arch = "x86", target_arch = "x86_64")))]
mod sha1_avx2;
#[cfg(all(feature = "compat", any(target_arch = "x86", target_arch = "x86_64")))]
mod sha1_avx512;
#[cfg(all(feature = "sha2", any(target_arch = "x86", target_arch = "x86_64")))]
mod sha512_avx2;
#[cfg(all(feature = "sha2", any(target_arch = "x86", target_arch = "x86_64")))]
mod sha512_avx512;

#[cfg(test)]
mod tests;

use backend::{Backend, BackendError};
use job::LaneJob;
use spec::{CvBytes, CvWords, BLOCK_LEN, CHUNK_LEN, MAX_LANES};

/// Asks for blocks 1-4 of every chunk of `input`, for the row kernels,
/// which take a block of each chain a step and ask for the block four
/// steps on themselves: without these, a call on input not in the caches
/// waits for its first blocks from memory one step after another
/// (measured, input flushed before each call: avx2asm 4 KiB 4066-5498 ns
/// against the official crate's 1773-1838).
#[cfg(all(target_arch = "x86_64", not(miri)))]
#[inline(always)]
fn prefetch_first_blocks(input: &[u8]) {
    for chunk in input.chunks(spec::CHUNK_LEN) {
        for block in 1..=4 {
            let address = chunk.as_ptr().wrapping_add(block * spec::BLOCK_LEN);
            // SAFETY: as in `prefetch`: SSE, a hint that never faults,
            // whatever the address.
            unsafe { core::arch::x86_64::_mm_prefetch::<{ core::arch::x86_64::_MM_HINT_T0 }>(address.cast()) };
        }
    }
}

/// Whether [`prefetch`] does anything here: callers skip working out what
/// to prefetch where it does not (in WebAssembly, finding a column's
/// message ahead cost a batch of 64-byte messages about 4 ns each).
pub(crate) const PREFETCHES: bool = cfg!(all(target_arch = "x86_64", not(miri)));

/// Asks for the first and last cache lines of `bytes` to be loaded: a
/// hint for data read a little later, never dereferenced (a no-op off
/// x86-64).
#[inline(always)]
pub(crate) fn prefetch(bytes: &[u8]) {
    #[cfg(all(target_arch = "x86_64", not(miri)))]
    {
        use core::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        let last = bytes.as_ptr().wrapping_add(bytes.len().saturating_sub(1));
        // SAFETY: `_mm_prefetch` is SSE, part of every x86-64 CPU; a
        // prefetch is a hint that never faults and changes nothing the
        // program can observe, whatever the address.
        unsafe {
            _mm_prefetch::<_MM_HINT_T0>(bytes.as_ptr().cast());
            _mm_prefetch::<_MM_HINT_T0>(last.cast());
        }
    }
    #[cfg(not(all(target_arch = "x86_64", not(miri))))]
    let _ = bytes;
}

/// A [`Backend`] that is known to run on this machine. Only [`Platform::new`]
/// and [`Platform::detect`] make one, and both check support, so the kernel
/// calls below are sound: each arm's `SAFETY` line relies on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Platform {
    backend: Backend,
}

impl Platform {
    /// `backend`, when this machine supports it.
    pub(crate) fn new(backend: Backend) -> Result<Platform, BackendError> {
        if backend.is_supported() {
            Ok(Platform { backend })
        } else {
            Err(BackendError::unsupported(backend))
        }
    }

    /// The backend of [`Backend::detect`], which only returns supported ones.
    #[inline]
    pub(crate) fn detect() -> Platform {
        Platform { backend: Backend::detect() }
    }

    pub(crate) fn backend(self) -> Backend {
        self.backend
    }

    /// Compresses one block into `cv` (the chaining-value half of the output).
    #[inline]
    pub(crate) fn compress_in_place(
        self,
        cv: &mut CvWords,
        block: &[u8; BLOCK_LEN],
        block_len: u8,
        counter: u64,
        flags: u8,
    ) {
        match self.backend {
            #[cfg(all(target_arch = "x86_64", not(miri)))]
            // SAFETY: the platform is supported: the CPU has AVX-512F + VL.
            Backend::Avx512Asm => unsafe { avx512_asm::compress_in_place(cv, block, block_len, counter, flags) },
            #[cfg(all(target_arch = "x86_64", not(miri)))]
            // SAFETY: the platform is supported: the CPU has AVX2.
            Backend::Avx2Asm => unsafe { avx2_asm::compress_in_place(cv, block, block_len, counter, flags) },
            #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
            // SAFETY: the platform is supported: the CPU has AVX-512F + VL.
            Backend::Avx512 => unsafe { avx512::compress_in_place(cv, block, block_len, counter, flags) },
            #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
            // SAFETY: the platform is supported: the CPU has SSE4.1.
            Backend::Sse41 | Backend::Avx2 => unsafe { sse41::compress_in_place(cv, block, block_len, counter, flags) },
            _ => portable::compress_in_place(cv, block, block_len, counter, flags),
        }
    }

    /// Compresses whole blocks into `cv` one after another, the first with
    /// `first_flags` added: every block of a chunk but its last.
    #[inline]
    pub(crate) fn compress_blocks(
        self,
        cv: &mut CvWords,
        blocks: &[[u8; BLOCK_LEN]],
        counter: u64,
        flags: u8,
        first_flags: u8,
    ) {
        match self.backend {
            #[cfg(all(target_arch = "x86_64", not(miri)))]
            // SAFETY: the platform is supported: the CPU has AVX-512F + VL.
            Backend::Avx512Asm => unsafe { avx512_asm::compress_blocks(cv, blocks, counter, flags, first_flags) },
            #[cfg(all(target_arch = "x86_64", not(miri)))]
            // SAFETY: the platform is supported: the CPU has AVX2.
            Backend::Avx2Asm => unsafe { avx2_asm::compress_blocks(cv, blocks, counter, flags, first_flags) },
            #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
            // SAFETY: the platform is supported: the CPU has AVX-512F + VL.
            Backend::Avx512 => unsafe { avx512::compress_blocks(cv, blocks, counter, flags, first_flags) },
            _ => {
                let mut block_flags = flags | first_flags;
                for block in blocks {
                    self.compress_in_place(cv, block, BLOCK_LEN as u8, counter, block_flags);
                    block_flags = flags;
                }
            }
        }
    }

    /// Compresses one block and returns all 64 output bytes, for extended output.
    #[inline]
    pub(crate) fn compress_xof(
        self,
        cv: &CvWords,
        block: &[u8; BLOCK_LEN],
        block_len: u8,
        counter: u64,
        flags: u8,
    ) -> [u8; BLOCK_LEN] {
        match self.backend {
            #[cfg(all(target_arch = "x86_64", not(miri)))]
            // SAFETY: the platform is supported: the CPU has AVX-512F + VL.
            Backend::Avx512Asm => unsafe { avx512_asm::compress_xof(cv, block, block_len, counter, flags) },
            #[cfg(all(target_arch = "x86_64", not(miri)))]
            // SAFETY: the platform is supported: the CPU has AVX2.
            Backend::Avx2Asm => unsafe { avx2_asm::compress_xof(cv, block, block_len, counter, flags) },
            #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
            // SAFETY: the platform is supported: the CPU has AVX-512F + VL.
            Backend::Avx512 => unsafe { avx512::compress_xof(cv, block, block_len, counter, flags) },
            #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
            // SAFETY: the platform is supported: the CPU has SSE4.1.
            Backend::Sse41 | Backend::Avx2 => unsafe { sse41::compress_xof(cv, block, block_len, counter, flags) },
            _ => portable::compress_xof(cv, block, block_len, counter, flags),
        }
    }

    /// Hashes consecutive chunk-long chains: chunk `i` of `input` (the last
    /// possibly partial) from counter `first_counter + i`, every block with
    /// `flags`, its first also with `start_flags`, its last with
    /// `end_flags`. `out[i]` receives its chaining value; returns the
    /// number of chunks. Runs of whole chunks go to the widest kernel in
    /// one call, which needs no job list.
    ///
    /// # Panics
    ///
    /// If `input` is empty or `out` too short.
    pub(crate) fn hash_chunks(
        self,
        key: &CvWords,
        input: &[u8],
        first_counter: u64,
        [flags, start_flags, end_flags]: [u8; 3],
        out: &mut [CvBytes],
    ) -> usize {
        #[cfg(all(target_arch = "wasm32", not(target_feature = "simd128"), feature = "wasm-simd128-module"))]
        if self.backend == Backend::Wasm32Simd {
            // SAFETY: the platform is supported: the SIMD128 module is linked.
            return unsafe {
                simd128_module::hash_chunks(key, input, first_counter, [flags, start_flags, end_flags], out)
            };
        }
        let count = input.len().div_ceil(CHUNK_LEN);
        assert!(count > 0 && out.len() >= count, "one output per chunk");
        let mut done = 0;
        #[cfg(all(target_arch = "x86_64", not(miri)))]
        if self.backend == Backend::Avx512Asm && count <= 4 {
            let chunk_flags = [flags, start_flags, end_flags];
            // SAFETY: the platform is supported: the CPU has AVX-512F + VL.
            return unsafe { avx512_asm::hash_chunk_rows(key, input, first_counter, chunk_flags, out) };
        } else if self.backend == Backend::Avx512Asm {
            let chunk_flags = [flags, start_flags, end_flags];
            // SAFETY: the platform is supported: the CPU has AVX-512F + VL and BMI2.
            done = unsafe { avx512_asm::hash_whole_chunks(key, input, first_counter, chunk_flags, out) };
        } else if self.backend == Backend::Avx2Asm && count <= 4 {
            let chunk_flags = [flags, start_flags, end_flags];
            // SAFETY: the platform is supported: the CPU has AVX2.
            return unsafe { avx2_asm::hash_chunk_rows(key, input, first_counter, chunk_flags, out) };
        } else if self.backend == Backend::Avx2Asm {
            let chunk_flags = [flags, start_flags, end_flags];
            // SAFETY: the platform is supported: the CPU has AVX2 and BMI2.
            done = unsafe { avx2_asm::hash_whole_chunks(key, input, first_counter, chunk_flags, out) };
        }
        let mut chunks = input[done * CHUNK_LEN..].chunks(CHUNK_LEN);
        while done < count {
            let take = (count - done).min(self.backend.lanes());
            let jobs: [LaneJob<'_>; MAX_LANES] = core::array::from_fn(|i| match (i < take).then(|| chunks.next()) {
                Some(Some(chunk)) => {
                    LaneJob::new(chunk, first_counter.wrapping_add((done + i) as u64), flags, start_flags, end_flags)
                }
                _ => LaneJob::IDLE,
            });
            self.hash_jobs(key, &jobs[..take], &mut out[done..done + take]);
            done += take;
        }
        count
    }

    /// Hashes independent one-block jobs: `out[i]` receives the chaining
    /// value of the 64-byte block `i` of `blocks` (counter 0, `flags`): the
    /// parent nodes of one tree level. A kernel with many lanes runs them
    /// as consecutive steps of one call.
    ///
    /// # Panics
    ///
    /// If `blocks` is not whole blocks or `out` is too short.
    pub(crate) fn hash_blocks(self, key: &CvWords, flags: u8, blocks: &[u8], out: &mut [CvBytes]) {
        #[cfg(all(target_arch = "wasm32", not(target_feature = "simd128"), feature = "wasm-simd128-module"))]
        if self.backend == Backend::Wasm32Simd {
            // SAFETY: the platform is supported: the SIMD128 module is linked.
            return unsafe { simd128_module::hash_blocks(key, flags, blocks, out) };
        }
        let (blocks, rest) = blocks.as_chunks::<BLOCK_LEN>();
        assert!(rest.is_empty() && out.len() >= blocks.len(), "one output per whole block");
        #[cfg(all(target_arch = "x86_64", not(miri)))]
        match (self.backend, blocks.len()) {
            // SAFETY: the platform is supported: the CPU has AVX-512F + VL.
            (Backend::Avx512Asm, _) => return unsafe { avx512_asm::hash_parent_blocks(key, flags, blocks, out) },
            // SAFETY: the platform is supported: the CPU has AVX2.
            (Backend::Avx2Asm, _) => return unsafe { avx2_asm::hash_parent_blocks(key, flags, blocks, out) },
            _ => {}
        }
        let lanes = self.backend.lanes();
        for (group, out) in blocks.chunks(lanes).zip(out.chunks_mut(lanes)) {
            let jobs: [LaneJob<'_>; MAX_LANES] = core::array::from_fn(|i| match group.get(i) {
                Some(block) => LaneJob::new(block, 0, flags, 0, 0),
                None => LaneJob::IDLE,
            });
            self.hash_jobs(key, &jobs[..group.len()], &mut out[..group.len()]);
        }
    }

    /// Hashes whole messages of one chunk or less that all have `blocks`
    /// blocks, each its own root: `out[i]` receives the chaining value of
    /// `inputs[i]` (counter 0, `[flags, start_flags, end_flags]` as in
    /// [`Platform::hash_chunks`]). The small-message path of the batch API:
    /// per message, the kernels read a pointer and a length, nothing else.
    /// The assembly backends run their instruction set's intrinsics kernel.
    /// Any number of messages: whole groups of lanes go to one kernel call,
    /// which loops over them.
    ///
    /// # Panics
    ///
    /// If `out` and `inputs` differ in length, or an input has another
    /// number of blocks than `blocks` (1 to `CHUNK_BLOCKS`).
    pub(crate) fn hash_short_messages(
        self,
        key: &CvWords,
        blocks: usize,
        flags: [u8; 3],
        mut inputs: &[&[u8]],
        mut out: &mut [CvBytes],
    ) {
        assert!(inputs.len() == out.len(), "one output per message");
        #[cfg(all(target_arch = "wasm32", not(target_feature = "simd128"), feature = "wasm-simd128-module"))]
        if self.backend == Backend::Wasm32Simd {
            // SAFETY: the platform is supported: the SIMD128 module is linked.
            return unsafe { simd128_module::hash_short_messages(key, blocks, flags, inputs, out) };
        }
        while !inputs.is_empty() {
            // Whole groups of lanes in one kernel call, then the rest in the
            // narrowest kernel that holds it.
            let lanes = self.backend.lanes().max(1);
            let take = if inputs.len() >= lanes { inputs.len() - inputs.len() % lanes } else { inputs.len() };
            let (now, later) = inputs.split_at(take);
            let (now_out, later_out) = out.split_at_mut(take);
            // The kernels assert the lengths and the block counts.
            match (self.backend, take) {
                #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
                // SAFETY: the platform is supported: the CPU has AVX-512F +
                // VL, and it has AVX-512BW.
                (Backend::Avx512 | Backend::Avx512Asm, 9..) if backend::avx512_byte_masks() => unsafe {
                    avx512::hash_short16_masked(key, blocks, flags, now, now_out)
                },
                #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
                // SAFETY: the platform is supported: the CPU has AVX-512F + VL.
                (Backend::Avx512 | Backend::Avx512Asm, 9..) => unsafe {
                    avx512::hash_short16(key, blocks, flags, now, now_out)
                },
                #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
                // SAFETY: the platform is supported: AVX-512 support includes AVX2.
                (Backend::Avx512 | Backend::Avx512Asm, 5..) => unsafe {
                    avx512::hash_short8(key, blocks, flags, now, now_out)
                },
                #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
                // SAFETY: the platform is supported: the CPU has AVX2.
                (Backend::Avx2 | Backend::Avx2Asm, 5..) => unsafe {
                    avx2::hash_short8(key, blocks, flags, now, now_out)
                },
                #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
                // SAFETY: the platform is supported: every x86 backend but
                // the portable one includes SSE4.1.
                (Backend::Sse41 | Backend::Avx2 | Backend::Avx2Asm | Backend::Avx512 | Backend::Avx512Asm, _) => unsafe {
                    sse41::hash_short4(key, blocks, flags, now, now_out)
                },
                #[cfg(all(target_arch = "aarch64", target_endian = "little"))]
                // SAFETY: the platform is supported: NEON is part of the target.
                (Backend::Neon, _) => unsafe { neon::hash_short4(key, blocks, flags, now, now_out) },
                #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
                // SAFETY: the platform is supported: the build enables SIMD128.
                (Backend::Wasm32Simd, _) => unsafe { simd128::hash_short4(key, blocks, flags, now, now_out) },
                _ => {
                    let [flags, start_flags, end_flags] = flags;
                    for (input, cv) in now.iter().zip(now_out) {
                        assert!(job::has_blocks(input.len(), blocks), "one block count per call");
                        *cv = portable::hash_job(key, &LaneJob::new(input, 0, flags, start_flags, end_flags));
                    }
                }
            }
            inputs = later;
            out = later_out;
        }
    }

    /// Hashes independent chains side by side: `out[i]` receives the chaining
    /// value of `jobs[i]`, started from `key`. Jobs are taken in order, as many
    /// per kernel call as its lanes hold; a call with few jobs goes to a
    /// narrower kernel, and a lone job to a chain of row compressions.
    ///
    /// # Panics
    ///
    /// If `out` and `jobs` differ in length.
    pub(crate) fn hash_jobs(self, key: &CvWords, mut jobs: &[LaneJob<'_>], mut out: &mut [CvBytes]) {
        assert!(jobs.len() == out.len(), "one output per job");
        while !jobs.is_empty() {
            let take = jobs.len().min(self.backend.lanes()).max(1);
            let (now, later) = jobs.split_at(take);
            let (now_out, later_out) = out.split_at_mut(take);
            // The lane kernels assert that `now` fits their lanes and that
            // `now_out` has one value per job.
            match (self.backend, take) {
                #[cfg(all(target_arch = "x86_64", not(miri)))]
                // SAFETY: the platform is supported: the CPU has AVX-512F + VL and BMI2.
                (Backend::Avx512Asm, 9..) => unsafe { avx512_asm::hash_lanes16(key, now, now_out) },
                #[cfg(all(target_arch = "x86_64", not(miri)))]
                // SAFETY: the platform is supported: the CPU has AVX-512F + VL and BMI2.
                (Backend::Avx512Asm, 5..=8) => unsafe { avx512_asm::hash_lanes8(key, now, now_out) },
                #[cfg(all(target_arch = "x86_64", not(miri)))]
                // SAFETY: the platform is supported: the CPU has AVX-512F + VL.
                (Backend::Avx512Asm, _) => unsafe { avx512_asm::hash_rows(key, now, now_out) },
                #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
                // SAFETY: the platform is supported: the CPU has AVX-512F + VL.
                (Backend::Avx512, 9..) => unsafe { avx512::hash_lanes16(key, now, now_out) },
                #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
                // SAFETY: the platform is supported: AVX-512 support includes AVX2.
                (Backend::Avx512, 5..=8) => unsafe { avx512::hash_lanes8(key, now, now_out) },
                #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
                // SAFETY: the platform is supported: AVX-512 support includes SSE4.1.
                (Backend::Avx512, 2..=4) => unsafe { avx512::hash_lanes4(key, now, now_out) },
                #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
                // SAFETY: the platform is supported: the CPU has AVX-512F + VL.
                (Backend::Avx512, _) => now_out[0] = unsafe { avx512::hash_job(key, &now[0]) },
                #[cfg(all(target_arch = "x86_64", not(miri)))]
                // SAFETY: the platform is supported: the CPU has AVX2 and BMI2.
                (Backend::Avx2Asm, 5..) => unsafe { avx2_asm::hash_lanes8(key, now, now_out) },
                #[cfg(all(target_arch = "x86_64", not(miri)))]
                // SAFETY: the platform is supported: the CPU has AVX2.
                (Backend::Avx2Asm, 3..=4) => unsafe { avx2_asm::hash_rows4(key, now, now_out) },
                #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
                // SAFETY: the platform is supported: the CPU has AVX2.
                (Backend::Avx2, 5..) => unsafe { avx2::hash_lanes8(key, now, now_out) },
                #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
                // SAFETY: the platform is supported: SSE4.1 (and AVX2) support includes SSE4.1.
                (Backend::Avx2 | Backend::Sse41, 2..) => unsafe { sse41::hash_lanes4(key, now, now_out) },
                #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
                // SAFETY: the platform is supported: SSE4.1 (and AVX2) support includes SSE4.1.
                (Backend::Avx2 | Backend::Sse41, _) => now_out[0] = unsafe { sse41::hash_job(key, &now[0]) },
                #[cfg(all(target_arch = "x86_64", not(miri)))]
                // SAFETY: the platform is supported: the CPU has AVX2.
                (Backend::Avx2Asm, 1..=2) => unsafe { avx2_asm::hash_rows2(key, now, now_out) },
                #[cfg(all(target_arch = "aarch64", target_endian = "little"))]
                // SAFETY: the platform is supported: NEON is part of the target.
                (Backend::Neon, 2..) => unsafe { neon::hash_lanes4(key, now, now_out) },
                #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
                // SAFETY: the platform is supported: the build enables SIMD128.
                (Backend::Wasm32Simd, 2..) => unsafe { simd128::hash_lanes4(key, now, now_out) },
                #[cfg(all(target_arch = "wasm32", not(target_feature = "simd128"), feature = "wasm-simd128-module"))]
                // SAFETY: the platform is supported: the SIMD128 module is linked.
                (Backend::Wasm32Simd, 2..) => unsafe { simd128_module::hash_lanes4(key, now, now_out) },
                // Portable, and a lone job on NEON or SIMD128.
                _ => {
                    for (job, cv) in now.iter().zip(now_out) {
                        *cv = portable::hash_job(key, job);
                    }
                }
            }
            jobs = later;
            out = later_out;
        }
    }
}
