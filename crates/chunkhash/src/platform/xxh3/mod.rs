//! XXH3 kernel dispatch: which long-input kernel runs, decided once per
//! process and cached, and one `match` per operation.
//!
//! The files beside this one: `stripes.rs` (the stripe and block walk all
//! kernels share, a leaf), and one kernel per instruction set:
//! `portable.rs`, `sse2.rs`, `avx2.rs`, `avx512.rs` (x86, detected at run
//! time), `neon.rs` (aarch64) and `simd128.rs` (wasm32 with `simd128`),
//! which are build-time choices. The algorithm around the kernels (short
//! inputs, finalisation, streaming, seeds and secrets) is safe code in
//! `crate::xxh3`.

mod portable;
mod stripes;

#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
mod avx2;
#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
mod avx512;
#[cfg(all(target_arch = "aarch64", target_endian = "little"))]
mod neon;
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
mod simd128;
#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
mod sse2;

use arrayvec::ArrayString;
use core::fmt;

pub(crate) use stripes::{Accumulators, SECRET_MIN_LEN, STRIPE_LEN};

/// The instruction sets XXH3's long-input loop (more than 240 bytes) can
/// run on. [`Kernel::detect`] picks the best this machine supports; tests
/// and benchmarks force others with
/// [`Xxh3::with_kernel`](crate::xxh3::Xxh3::with_kernel) or the
/// `CHUNKHASH_XXH3_KERNEL` environment variable. Inputs of up to 240 bytes
/// take the same scalar code on every kernel.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Kernel {
    /// Plain Rust, one 64-bit lane at a time; runs everywhere.
    Portable,
    /// x86 SSE2, four 128-bit registers; part of every x86-64 CPU.
    Sse2,
    /// x86 AVX2, two 256-bit registers; detected at run time.
    Avx2,
    /// x86 AVX-512F, one 512-bit register; detected at run time.
    Avx512,
    /// aarch64 NEON; part of every little-endian aarch64 target.
    Neon,
    /// wasm32 SIMD128; a build-time choice (`-C target-feature=+simd128`).
    Simd128,
}

const ALL_KERNELS: [Kernel; 6] =
    [Kernel::Portable, Kernel::Sse2, Kernel::Avx2, Kernel::Avx512, Kernel::Neon, Kernel::Simd128];

/// One cached detector per x86 kernel file: the features its
/// `#[target_feature]` attributes enable (AVX2 also needs the AVX register
/// state the OS must save, which `cpufeatures` checks for "avx").
#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
mod x86 {
    cpufeatures::new!(sse2_kernel, "sse2");
    cpufeatures::new!(avx2_kernel, "avx", "avx2");
    cpufeatures::new!(avx512_kernel, "avx512f");

    pub(super) fn sse2() -> bool {
        sse2_kernel::get()
    }

    pub(super) fn avx2() -> bool {
        avx2_kernel::get()
    }

    pub(super) fn avx512() -> bool {
        avx512_kernel::get()
    }
}

impl Kernel {
    /// Every kernel this crate knows, supported here or not, narrowest first.
    pub fn all() -> &'static [Kernel] {
        &ALL_KERNELS
    }

    /// The lowercase name `CHUNKHASH_XXH3_KERNEL` and `Algorithm::implementation` use.
    pub fn name(self) -> &'static str {
        match self {
            Kernel::Portable => "portable",
            Kernel::Sse2 => "sse2",
            Kernel::Avx2 => "avx2",
            Kernel::Avx512 => "avx512",
            Kernel::Neon => "neon",
            Kernel::Simd128 => "simd128",
        }
    }

    /// Whether this CPU (and this build) can run the kernel. Under Miri only
    /// the portable one: Miri runs no SIMD intrinsics.
    pub fn is_supported(self) -> bool {
        if cfg!(miri) {
            return self == Kernel::Portable;
        }
        match self {
            Kernel::Portable => true,
            #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
            Kernel::Sse2 => x86::sse2(),
            #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
            Kernel::Avx2 => x86::avx2(),
            #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
            Kernel::Avx512 => x86::avx512(),
            #[cfg(not(any(target_arch = "x86", target_arch = "x86_64")))]
            Kernel::Sse2 | Kernel::Avx2 | Kernel::Avx512 => false,
            Kernel::Neon => cfg!(all(target_arch = "aarch64", target_endian = "little")),
            Kernel::Simd128 => super::backend::simd128_kernels(),
        }
    }

    /// The best kernel this machine supports, ignoring `CHUNKHASH_XXH3_KERNEL`.
    pub fn best_supported() -> Kernel {
        *ALL_KERNELS.iter().rev().find(|kernel| kernel.is_supported()).unwrap_or(&Kernel::Portable)
    }

    /// The kernel used when none is forced: with the `std` feature,
    /// `CHUNKHASH_XXH3_KERNEL` when it names a supported kernel, else
    /// [`Kernel::best_supported`]. Decided once per process and cached; an
    /// unknown or unsupported value is reported once on stderr and ignored
    /// (`Kernel::from_env` treats it as an error).
    #[inline]
    pub fn detect() -> Kernel {
        match DETECTED.load(core::sync::atomic::Ordering::Relaxed) {
            0 => Self::detect_once(),
            n => ALL_KERNELS[n as usize - 1],
        }
    }

    #[cold]
    fn detect_once() -> Kernel {
        #[cfg(feature = "std")]
        let kernel = Kernel::from_env()
            .unwrap_or_else(|error| {
                // A silently ignored override would let a forced-kernel test
                // run pass on the wrong kernel.
                std::eprintln!("chunkhash: CHUNKHASH_XXH3_KERNEL: {error}; using detection instead");
                None
            })
            .unwrap_or_else(Kernel::best_supported);
        #[cfg(not(feature = "std"))]
        let kernel = Kernel::best_supported();
        let index = ALL_KERNELS.iter().position(|k| *k == kernel).expect("every kernel is in ALL_KERNELS");
        DETECTED.store(index as u8 + 1, core::sync::atomic::Ordering::Relaxed);
        kernel
    }

    /// Reads `CHUNKHASH_XXH3_KERNEL`: `Ok(None)` when unset or empty,
    /// `Ok(Some(kernel))` for a supported kernel, an error otherwise.
    #[cfg(feature = "std")]
    pub fn from_env() -> Result<Option<Kernel>, KernelError> {
        match std::env::var("CHUNKHASH_XXH3_KERNEL") {
            Err(std::env::VarError::NotPresent) => Ok(None),
            Err(std::env::VarError::NotUnicode(value)) => Err(KernelError::unknown(&value.to_string_lossy())),
            Ok(value) if value.trim().is_empty() => Ok(None),
            Ok(value) => value.trim().parse::<Kernel>().and_then(Kernel::checked).map(|k| Some(k.0)),
        }
    }

    /// `self` as a [`Checked`] kernel, when this machine supports it.
    pub(crate) fn checked(self) -> Result<Checked, KernelError> {
        if self.is_supported() {
            Ok(Checked(self))
        } else {
            Err(KernelError(KernelErrorKind::Unsupported(self)))
        }
    }
}

/// The detected kernel, cached: 0 is "not yet", otherwise the index into
/// `ALL_KERNELS` plus one.
static DETECTED: core::sync::atomic::AtomicU8 = core::sync::atomic::AtomicU8::new(0);

impl fmt::Display for Kernel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl core::str::FromStr for Kernel {
    type Err = KernelError;

    /// Parses a kernel name as [`Kernel::name`] spells it, ignoring case.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        ALL_KERNELS.iter().copied().find(|k| k.name().eq_ignore_ascii_case(s)).ok_or_else(|| KernelError::unknown(s))
    }
}

/// An XXH3 kernel was asked for that does not exist or that this CPU (or
/// build) cannot run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KernelError(KernelErrorKind);

#[derive(Clone, Debug, PartialEq, Eq)]
enum KernelErrorKind {
    /// The first characters of the bad name, inline so the error needs no heap.
    Unknown(ArrayString<24>),
    Unsupported(Kernel),
}

impl KernelError {
    fn unknown(name: &str) -> Self {
        let mut start = ArrayString::new();
        for character in name.chars() {
            if start.try_push(character).is_err() {
                break;
            }
        }
        KernelError(KernelErrorKind::Unknown(start))
    }

    /// The kernel that was asked for, when it exists but is not supported.
    pub fn unsupported_kernel(&self) -> Option<Kernel> {
        match self.0 {
            KernelErrorKind::Unsupported(kernel) => Some(kernel),
            KernelErrorKind::Unknown(_) => None,
        }
    }
}

impl fmt::Display for KernelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.0 {
            KernelErrorKind::Unknown(name) => {
                write!(f, "unknown xxh3 kernel {:?}, expected one of ", name.as_str())?;
                for (i, kernel) in ALL_KERNELS.iter().enumerate() {
                    write!(f, "{}{kernel}", if i == 0 { "" } else { ", " })?;
                }
                Ok(())
            }
            KernelErrorKind::Unsupported(kernel) => {
                write!(f, "xxh3 kernel {kernel} is not supported by this CPU or build")
            }
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for KernelError {}

/// The detected kernel, looked up only when a long input needs one: short
/// inputs, the common case, skip even the cached load.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Detect;

impl From<Detect> for Checked {
    #[inline]
    fn from(_: Detect) -> Checked {
        Checked::detect()
    }
}

/// A [`Kernel`] known to run on this machine: only [`Kernel::checked`] and
/// [`Checked::detect`] make one, and both check support, so the kernel calls
/// below are sound; each arm's `SAFETY` line relies on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Checked(Kernel);

impl Checked {
    /// The kernel of [`Kernel::detect`], which only returns supported ones.
    #[inline]
    pub(crate) fn detect() -> Checked {
        Checked(Kernel::detect())
    }

    pub(crate) fn kernel(self) -> Kernel {
        self.0
    }

    /// The whole long-input loop of a one-shot hash: every stripe but the
    /// one holding the last byte (scrambling after each full block), then
    /// the last 64 bytes as the final stripe.
    ///
    /// # Panics
    ///
    /// If `input` is shorter than a stripe or `secret` than 136 bytes.
    #[inline]
    pub(crate) fn hash_long(self, acc: &mut Accumulators, input: &[u8], secret: &[u8]) {
        match self.0 {
            #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
            // SAFETY: the kernel is supported: the CPU has AVX-512F.
            Kernel::Avx512 => unsafe { avx512::hash_long(acc, input, secret) },
            #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
            // SAFETY: the kernel is supported: the CPU has AVX2.
            Kernel::Avx2 => unsafe { avx2::hash_long(acc, input, secret) },
            #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
            // SAFETY: the kernel is supported: the CPU has SSE2.
            Kernel::Sse2 => unsafe { sse2::hash_long(acc, input, secret) },
            #[cfg(all(target_arch = "aarch64", target_endian = "little"))]
            // SAFETY: the kernel is supported: NEON is part of the target.
            Kernel::Neon => unsafe { neon::hash_long(acc, input, secret) },
            #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
            // Safe to call: the build enables SIMD128 everywhere.
            Kernel::Simd128 => simd128::hash_long(acc, input, secret),
            #[cfg(all(target_arch = "wasm32", not(target_feature = "simd128"), feature = "wasm-simd128-module"))]
            // SAFETY: the kernel is supported: the SIMD128 module is linked.
            Kernel::Simd128 => unsafe { super::simd128_module::xxh3_hash_long(acc, input, secret) },
            _ => portable::hash_long(acc, input, secret),
        }
    }

    /// Accumulates whole `stripes`, the first being stripe `done` of the
    /// current block, scrambling whenever a block fills; returns the new
    /// position in the block. Only for stripes that more input follows.
    ///
    /// # Panics
    ///
    /// If `stripes` is not whole stripes, `secret` is shorter than 136 bytes,
    /// or `done` is not a position inside a block.
    #[inline]
    pub(crate) fn consume(self, acc: &mut Accumulators, stripes: &[u8], secret: &[u8], done: usize) -> usize {
        match self.0 {
            #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
            // SAFETY: the kernel is supported: the CPU has AVX-512F.
            Kernel::Avx512 => unsafe { avx512::consume(acc, stripes, secret, done) },
            #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
            // SAFETY: the kernel is supported: the CPU has AVX2.
            Kernel::Avx2 => unsafe { avx2::consume(acc, stripes, secret, done) },
            #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
            // SAFETY: the kernel is supported: the CPU has SSE2.
            Kernel::Sse2 => unsafe { sse2::consume(acc, stripes, secret, done) },
            #[cfg(all(target_arch = "aarch64", target_endian = "little"))]
            // SAFETY: the kernel is supported: NEON is part of the target.
            Kernel::Neon => unsafe { neon::consume(acc, stripes, secret, done) },
            #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
            // Safe to call: the build enables SIMD128 everywhere.
            Kernel::Simd128 => simd128::consume(acc, stripes, secret, done),
            #[cfg(all(target_arch = "wasm32", not(target_feature = "simd128"), feature = "wasm-simd128-module"))]
            // SAFETY: the kernel is supported: the SIMD128 module is linked.
            Kernel::Simd128 => unsafe { super::simd128_module::xxh3_consume(acc, stripes, secret, done) },
            _ => portable::consume(acc, stripes, secret, done),
        }
    }

    /// Accumulates the final stripe of an input (the last 64 bytes) with its
    /// own secret window.
    ///
    /// # Panics
    ///
    /// If `secret` is shorter than 136 bytes.
    #[inline]
    pub(crate) fn accumulate_last(self, acc: &mut Accumulators, stripe: &[u8; STRIPE_LEN], secret: &[u8]) {
        assert!(secret.len() >= SECRET_MIN_LEN, "a valid secret");
        match self.0 {
            #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
            // SAFETY: the kernel is supported: the CPU has AVX-512F.
            Kernel::Avx512 => unsafe { avx512::accumulate_last(acc, stripe, secret) },
            #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
            // SAFETY: the kernel is supported: the CPU has AVX2.
            Kernel::Avx2 => unsafe { avx2::accumulate_last(acc, stripe, secret) },
            #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
            // SAFETY: the kernel is supported: the CPU has SSE2.
            Kernel::Sse2 => unsafe { sse2::accumulate_last(acc, stripe, secret) },
            #[cfg(all(target_arch = "aarch64", target_endian = "little"))]
            // SAFETY: the kernel is supported: NEON is part of the target.
            Kernel::Neon => unsafe { neon::accumulate_last(acc, stripe, secret) },
            #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
            // Safe to call: the build enables SIMD128 everywhere.
            Kernel::Simd128 => simd128::accumulate_last(acc, stripe, secret),
            #[cfg(all(target_arch = "wasm32", not(target_feature = "simd128"), feature = "wasm-simd128-module"))]
            // SAFETY: the kernel is supported: the SIMD128 module is linked.
            Kernel::Simd128 => unsafe { super::simd128_module::xxh3_accumulate_last(acc, stripe, secret) },
            _ => portable::accumulate_last(acc, stripe, secret),
        }
    }
}
