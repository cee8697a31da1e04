//! SHA-256 multi-buffer kernel dispatch: which kernel runs, decided once
//! per process and cached (`CHUNKHASH_SHA256_KERNEL` forces one), and one
//! `match` per operation, with a `SAFETY` line per arm.
//!
//! The kernels beside this file: `sha256_portable.rs` (plain Rust, the
//! constants), `sha256_shani.rs` (two messages interleaved on the SHA
//! extensions), `sha256_avx2.rs` (8 lanes), `sha256_avx512.rs` (16
//! lanes) and, on wasm32, `mb_simd128.rs` (4 lanes; reached through the
//! SIMD128 side module where the crate is built without SIMD128). How messages are spread over them is safe code in
//! `crate::multi_buffer::sha256`.

#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
use super::mb_simd128;
use super::sha256_portable::{self, BLOCK_LEN};
#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
use super::{sha256_avx2, sha256_avx512, sha256_shani};

/// The SHA-256 multi-buffer kernels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kernel {
    /// Plain Rust, one message at a time; runs everywhere.
    Portable,
    /// x86 SHA extensions (with SSE4.1): four messages interleaved.
    ShaNi,
    /// x86 AVX2: eight lanes.
    Avx2,
    /// x86 AVX-512F + AVX-512BW: sixteen lanes.
    Avx512,
    /// wasm32 SIMD128: four lanes; a build-time choice, or the npm
    /// package's SIMD128 side module once linked.
    Simd128,
}

pub(crate) const ALL_KERNELS: [Kernel; 5] =
    [Kernel::Portable, Kernel::ShaNi, Kernel::Avx2, Kernel::Avx512, Kernel::Simd128];

/// One cached detector per x86 kernel file: the features its
/// `#[target_feature]` attributes enable.
#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
mod x86 {
    cpufeatures::new!(shani_kernel, "sha", "sse2", "ssse3", "sse4.1");
    cpufeatures::new!(avx2_kernel, "avx", "avx2");
    cpufeatures::new!(avx512_kernel, "avx512f", "avx512bw");

    pub(super) fn shani() -> bool {
        shani_kernel::get()
    }

    pub(super) fn avx2() -> bool {
        avx2_kernel::get()
    }

    /// The AVX-512 kernel's dispatch also runs the AVX2 one.
    pub(super) fn avx512() -> bool {
        avx512_kernel::get() && avx2()
    }
}

impl Kernel {
    /// The lowercase name `CHUNKHASH_SHA256_KERNEL` takes.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Kernel::Portable => "portable",
            Kernel::ShaNi => "shani",
            Kernel::Avx2 => "avx2",
            Kernel::Avx512 => "avx512",
            Kernel::Simd128 => "simd128",
        }
    }

    /// Whether this CPU (and this build) runs the kernel; under Miri only
    /// the portable one.
    pub(crate) fn is_supported(self) -> bool {
        if cfg!(miri) {
            return self == Kernel::Portable;
        }
        match self {
            Kernel::Portable => true,
            #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
            Kernel::ShaNi => x86::shani(),
            #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
            Kernel::Avx2 => x86::avx2(),
            #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
            Kernel::Avx512 => x86::avx512(),
            #[cfg(not(any(target_arch = "x86", target_arch = "x86_64")))]
            Kernel::ShaNi | Kernel::Avx2 | Kernel::Avx512 => false,
            Kernel::Simd128 => super::backend::simd128_kernels(),
        }
    }

    /// `self` as a [`Checked`] kernel, when this machine runs it.
    pub(crate) fn checked(self) -> Option<Checked> {
        self.is_supported().then_some(Checked(self))
    }

    /// The kernel named `name` (ignoring case).
    pub(crate) fn from_name(name: &str) -> Option<Kernel> {
        ALL_KERNELS.iter().copied().find(|kernel| kernel.name().eq_ignore_ascii_case(name.trim()))
    }
}

/// A [`Kernel`] known to run on this machine: only [`Kernel::checked`] and
/// [`Checked::detect`] make one, and both check support, so the kernel
/// calls below are sound.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Checked(Kernel);

/// The detected kernel, cached: 0 is "not yet", otherwise the index into
/// `ALL_KERNELS` plus one.
static DETECTED: core::sync::atomic::AtomicU8 = core::sync::atomic::AtomicU8::new(0);

/// Whether `CHUNKHASH_SHA256_KERNEL` forced the detected kernel (then no
/// batch picks another).
static FORCED: core::sync::atomic::AtomicBool = core::sync::atomic::AtomicBool::new(false);

/// Mean message length below which a batch goes to the AVX-512 lanes
/// rather than the SHA-NI streams, where the CPU has both. Measured here
/// (AMD EPYC, Zen 4, `sha256_many_vs_sha2`, against a loop over `sha2`):
/// 64 B, lanes 1.36-1.42x and streams 1.21-1.27x; 128 B, 1.44x and 1.28x;
/// 256 B, 1.46x and 1.47x; 512 B, 1.47x and 1.60x; 1 KiB, 1.49-1.51x and
/// 1.77-1.80x. The
/// streams pay more per message (padding, layout changes, a call per
/// run of blocks), which a short message does not amortise.
const LANES_BELOW: usize = 256;

impl Checked {
    /// The kernel used when none is forced: with `std`,
    /// `CHUNKHASH_SHA256_KERNEL` when it names a kernel this machine runs,
    /// else the first this machine runs of SHA-NI, AVX-512, AVX2, portable.
    #[inline]
    pub(crate) fn detect() -> Checked {
        match DETECTED.load(core::sync::atomic::Ordering::Relaxed) {
            0 => Self::detect_once(),
            n => Checked(ALL_KERNELS[n as usize - 1]),
        }
    }

    #[cold]
    fn detect_once() -> Checked {
        // SHA-NI first: with four messages interleaved it beat the AVX-512
        // lanes from 256-byte messages up on this project's machine (AMD
        // EPYC, Zen 4: `sha256_many_vs_sha2` in crates/bench); shorter
        // messages still go to the lanes (`for_mean_len`), and the lanes
        // run wherever the CPU lacks SHA-NI.
        let best = || {
            *[Kernel::ShaNi, Kernel::Avx512, Kernel::Avx2, Kernel::Simd128]
                .iter()
                .find(|k| k.is_supported())
                .unwrap_or(&Kernel::Portable)
        };
        #[cfg(feature = "std")]
        let kernel = match std::env::var("CHUNKHASH_SHA256_KERNEL") {
            Ok(name) if !name.trim().is_empty() => match Kernel::from_name(&name) {
                Some(kernel) if kernel.is_supported() => {
                    FORCED.store(true, core::sync::atomic::Ordering::Relaxed);
                    kernel
                }
                // A silently ignored override would let a forced-kernel test
                // run pass on the wrong kernel.
                _ => {
                    std::eprintln!(
                        "chunkhash: CHUNKHASH_SHA256_KERNEL: {name:?} is not portable, shani, avx2, avx512 or \
                         simd128 supported here; using detection instead"
                    );
                    best()
                }
            },
            _ => best(),
        };
        #[cfg(not(feature = "std"))]
        let kernel = best();
        let index = ALL_KERNELS.iter().position(|k| *k == kernel).expect("every kernel is in ALL_KERNELS");
        DETECTED.store(index as u8 + 1, core::sync::atomic::Ordering::Relaxed);
        Checked(kernel)
    }

    /// The kernel for a batch whose messages have `mean_len` bytes on
    /// average: the AVX-512 lanes for short messages where detection chose
    /// SHA-NI and the CPU has AVX-512 too (see `LANES_BELOW`), else `self`.
    pub(crate) fn for_mean_len(self, mean_len: usize) -> Checked {
        let forced = FORCED.load(core::sync::atomic::Ordering::Relaxed);
        if self.0 == Kernel::ShaNi && !forced && mean_len < LANES_BELOW && Kernel::Avx512.is_supported() {
            Checked(Kernel::Avx512)
        } else {
            self
        }
    }

    /// The kernel.
    pub(crate) fn kernel(self) -> Kernel {
        self.0
    }

    /// Whether the SHA extensions run here: then one message alone goes
    /// faster through them than through idle lanes.
    pub(crate) fn has_shani(self) -> bool {
        Kernel::ShaNi.is_supported()
    }

    /// One block in each of sixteen lanes (`state[i][l]`: word `i` of lane
    /// `l`); the portable code for each lane where AVX-512 does not run.
    pub(crate) fn compress16(self, state: &mut [[u32; 16]; 8], blocks: &[&[u8; BLOCK_LEN]; 16]) {
        match self.0 {
            #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
            // SAFETY: the kernel is supported: the CPU has AVX-512F and AVX-512BW.
            Kernel::Avx512 => unsafe { sha256_avx512::compress(state, blocks) },
            _ => portable_lanes(state, blocks),
        }
    }

    /// One block in each of eight lanes, as [`Checked::compress16`].
    pub(crate) fn compress8(self, state: &mut [[u32; 8]; 8], blocks: &[&[u8; BLOCK_LEN]; 8]) {
        match self.0 {
            #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
            // SAFETY: the kernel is supported: the CPU has AVX2 (AVX-512
            // support here includes it).
            Kernel::Avx2 | Kernel::Avx512 => unsafe { sha256_avx2::compress(state, blocks) },
            _ => portable_lanes(state, blocks),
        }
    }

    /// One block in each of four lanes, as [`Checked::compress16`].
    pub(crate) fn compress4(self, state: &mut [[u32; 4]; 8], blocks: &[&[u8; BLOCK_LEN]; 4]) {
        match self.0 {
            #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
            // SIMD128 is a build-time fact here: no unsafe.
            Kernel::Simd128 => mb_simd128::sha256_compress(state, blocks),
            #[cfg(all(target_arch = "wasm32", not(target_feature = "simd128"), feature = "wasm-simd128-module"))]
            // SAFETY: the kernel is supported: the side module is linked.
            Kernel::Simd128 => unsafe { super::simd128_module::sha256_compress(state, blocks) },
            _ => portable_lanes(state, blocks),
        }
    }

    /// `N` runs of blocks of one length, into `state[0]` to `state[N - 1]`
    /// (interleaved on SHA-NI).
    ///
    /// # Panics
    ///
    /// If the runs differ in length.
    pub(crate) fn compress_streams<const N: usize>(self, state: &mut [[u32; 8]; N], blocks: [&[[u8; BLOCK_LEN]]; N]) {
        let len = blocks[0].len();
        assert!(blocks.iter().all(|run| run.len() == len), "runs of blocks of one length");
        match self.0 {
            #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
            // SAFETY: the kernel is supported: the CPU has the SHA
            // extensions and SSE4.1.
            Kernel::ShaNi => unsafe { sha256_shani::compress(state, blocks) },
            _ => {
                for (state, blocks) in state.iter_mut().zip(blocks) {
                    blocks.iter().for_each(|block| sha256_portable::compress(state, block));
                }
            }
        }
    }
}

/// Every lane in turn with the portable compression.
fn portable_lanes<const L: usize>(state: &mut [[u32; L]; 8], blocks: &[&[u8; BLOCK_LEN]; L]) {
    for (lane, block) in blocks.iter().enumerate() {
        let mut words: [u32; 8] = core::array::from_fn(|i| state[i][lane]);
        sha256_portable::compress(&mut words, block);
        for (i, word) in words.into_iter().enumerate() {
            state[i][lane] = word;
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use std::vec::Vec;

    /// The kernels to test: `CHUNKHASH_SHA256_KERNEL`'s when it is set (the
    /// run that forces one checks that one; one this machine cannot run
    /// fails), else every one this machine runs. Printed.
    pub(crate) fn kernels_under_test() -> Vec<Checked> {
        let forced = std::env::var("CHUNKHASH_SHA256_KERNEL").unwrap_or_default();
        let kernels: Vec<Kernel> = if forced.trim().is_empty() {
            ALL_KERNELS.iter().copied().filter(|k| k.is_supported()).collect()
        } else {
            let kernel = Kernel::from_name(&forced).expect("CHUNKHASH_SHA256_KERNEL names no kernel");
            assert!(kernel.is_supported(), "CHUNKHASH_SHA256_KERNEL={forced}, which this machine cannot run");
            std::vec![kernel]
        };
        std::println!("sha256 kernels under test: {kernels:?}");
        kernels.into_iter().map(|k| k.checked().unwrap()).collect()
    }

    /// The per-size choice: where detection would take SHA-NI and the CPU
    /// has AVX-512 too, batches of short messages go to the lanes.
    #[test]
    fn short_batches_go_to_the_lanes_beside_shani() {
        let (Some(shani), Some(avx512)) = (Kernel::ShaNi.checked(), Kernel::Avx512.checked()) else {
            std::println!("needs SHA-NI and AVX-512: the choice is not made here");
            return;
        };
        if std::env::var("CHUNKHASH_SHA256_KERNEL").is_ok_and(|name| !name.trim().is_empty()) {
            std::println!("CHUNKHASH_SHA256_KERNEL forces a kernel: no per-size choice to test");
            return;
        }
        assert_eq!(shani.for_mean_len(0), avx512);
        assert_eq!(shani.for_mean_len(LANES_BELOW - 1), avx512);
        assert_eq!(shani.for_mean_len(LANES_BELOW), shani);
        assert_eq!(avx512.for_mean_len(4096), avx512, "only SHA-NI gives way");
    }

    /// Each kernel's compression against the portable one, on random
    /// blocks and states; seeded, the seed printed.
    #[test]
    fn every_kernel_compresses_as_the_portable_code() {
        let mut rng = vectors::TestRng::new(vectors::test_seed("sha256 kernels", 34));
        let blocks: Vec<[u8; BLOCK_LEN]> = (0..16)
            .map(|_| {
                let mut block = [0; BLOCK_LEN];
                rng.fill(&mut block);
                block
            })
            .collect();
        let state16: [[u32; 16]; 8] = core::array::from_fn(|_| core::array::from_fn(|_| rng.next_u64() as u32));
        let block_refs: [&[u8; BLOCK_LEN]; 16] = core::array::from_fn(|i| &blocks[i]);
        let mut expected16 = state16;
        portable_lanes(&mut expected16, &block_refs);
        for kernel in kernels_under_test() {
            let mut got16 = state16;
            kernel.compress16(&mut got16, &block_refs);
            assert_eq!(got16, expected16, "{kernel:?} 16 lanes");
            let mut state8: [[u32; 8]; 8] = core::array::from_fn(|i| core::array::from_fn(|l| state16[i][l]));
            kernel.compress8(&mut state8, block_refs[..8].try_into().unwrap());
            for (i, row) in state8.iter().enumerate() {
                assert_eq!(row[..], expected16[i][..8], "{kernel:?} 8 lanes, word {i}");
            }
            let mut state4: [[u32; 4]; 8] = core::array::from_fn(|i| core::array::from_fn(|l| state16[i][l]));
            kernel.compress4(&mut state4, block_refs[..4].try_into().unwrap());
            for (i, row) in state4.iter().enumerate() {
                assert_eq!(row[..], expected16[i][..4], "{kernel:?} 4 lanes, word {i}");
            }
            let mut state2: [[u32; 8]; 2] = core::array::from_fn(|l| core::array::from_fn(|i| state16[i][l]));
            let mut expected2 = state2;
            for (state, run) in expected2.iter_mut().zip([&blocks[..5], &blocks[5..10]]) {
                run.iter().for_each(|block| sha256_portable::compress(state, block));
            }
            kernel.compress_streams(&mut state2, [&blocks[..5], &blocks[5..10]]);
            assert_eq!(state2, expected2, "{kernel:?} 2 streams of 5 blocks");
        }
    }
}
