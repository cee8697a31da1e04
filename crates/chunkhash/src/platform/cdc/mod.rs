//! Gear-scan kernel dispatch for `crate::cdc`: which kernel looks for the
//! next position whose Gear hash matches a mask, decided once per process
//! and cached, and one `match` per operation.
//!
//! The kernels find the first *windowed* match: the Gear hash at a position
//! is a function of the last 64 bytes alone (bit `k` of the last `k + 1`),
//! so a kernel given the bytes before its range can compute any position's
//! hash without the chunk's history, in as many strips side by side as it
//! has lanes. The chunker's rules (the minimum skip, the normalized masks,
//! the maximum, the hash restarting at each chunk) stay in `crate::cdc`,
//! which hands a kernel only ranges where the windowed hash is the one it
//! tests. Files: `portable.rs` (the scalar scan; the oracle and the fallback
//! of every kernel for what its blocks leave), `strips.rs` (the block walk
//! the SIMD kernels share), `avx2.rs`, `avx512.rs`, `neon.rs` and
//! `simd128.rs`.

#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
mod avx2;
#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
mod avx512;
#[cfg(all(target_arch = "aarch64", target_endian = "little"))]
mod neon;
mod portable;
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
mod simd128;
#[cfg(any(
    target_arch = "x86",
    target_arch = "x86_64",
    all(target_arch = "aarch64", target_endian = "little"),
    all(target_arch = "wasm32", target_feature = "simd128")
))]
mod strips;

use arrayvec::ArrayString;
use core::fmt;
use core::sync::atomic::{AtomicU8, Ordering::Relaxed};

/// The instruction sets the chunkers' Gear scan runs on. [`CdcKernel::detect`]
/// picks the default; tests and benchmarks force others with
/// [`Cdc::with_kernel`](crate::cdc::Cdc::with_kernel) or the
/// `CHUNKHASH_CDC_KERNEL` environment variable. Every kernel finds the same
/// cut points.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum CdcKernel {
    /// Plain Rust, two bytes a step; runs everywhere.
    Portable,
    /// x86 AVX2: eight strips of a block in the lanes of two registers;
    /// detected at run time.
    Avx2,
    /// x86 AVX-512F: the same in the lanes of one register; detected at
    /// run time.
    Avx512,
    /// aarch64 NEON: the eight strips in four registers; part of every
    /// little-endian aarch64 target. Runs only when forced: not yet
    /// measured on aarch64 hardware (see [`CdcKernel::default_supported`]).
    Neon,
    /// wasm32 SIMD128: the eight strips in four registers; a build-time
    /// choice (`-C target-feature=+simd128`). Runs only when forced: it
    /// measured slower than the portable scan under Node.
    Simd128,
}

const ALL: [CdcKernel; 5] =
    [CdcKernel::Portable, CdcKernel::Avx2, CdcKernel::Avx512, CdcKernel::Neon, CdcKernel::Simd128];

#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
mod x86 {
    // AVX2 also needs the AVX register state the OS must save, which
    // `cpufeatures` checks for "avx".
    cpufeatures::new!(avx2_kernel, "avx", "avx2");

    // The AVX-512 kernel also runs AVX2 instructions (its tail goes through
    // the AVX2 entries); CPUID does not promise AVX2 with AVX-512F (a VM may
    // mask it), so both are asked for.
    cpufeatures::new!(avx512_kernel, "avx512f", "avx2");

    pub(super) fn avx2() -> bool {
        avx2_kernel::get()
    }

    pub(super) fn avx512() -> bool {
        avx512_kernel::get()
    }
}

impl CdcKernel {
    /// Every kernel, supported here or not: portable, the x86 ones
    /// narrowest first, NEON, SIMD128.
    pub fn all() -> &'static [CdcKernel] {
        &ALL
    }

    /// The lowercase name `CHUNKHASH_CDC_KERNEL` uses.
    pub fn name(self) -> &'static str {
        match self {
            CdcKernel::Portable => "portable",
            CdcKernel::Avx2 => "avx2",
            CdcKernel::Avx512 => "avx512",
            CdcKernel::Neon => "neon",
            CdcKernel::Simd128 => "simd128",
        }
    }

    /// Whether this CPU (and this build) can run the kernel. Under Miri only
    /// the portable one: Miri runs no SIMD intrinsics.
    pub fn is_supported(self) -> bool {
        if cfg!(miri) {
            return self == CdcKernel::Portable;
        }
        match self {
            CdcKernel::Portable => true,
            #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
            CdcKernel::Avx2 => x86::avx2(),
            #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
            CdcKernel::Avx512 => x86::avx512(),
            CdcKernel::Neon => cfg!(all(target_arch = "aarch64", target_endian = "little")),
            CdcKernel::Simd128 => cfg!(all(target_arch = "wasm32", target_feature = "simd128")),
            #[allow(unreachable_patterns)] // Reached on other architectures.
            _ => false,
        }
    }

    /// The kernel used when none is forced: with `std`,
    /// `CHUNKHASH_CDC_KERNEL` when it names a supported kernel, else
    /// [`CdcKernel::default_supported`]. Decided once per process and
    /// cached; a bad value is reported once on stderr and ignored.
    #[inline]
    pub fn detect() -> CdcKernel {
        match DETECTED.load(Relaxed) {
            0 => Self::detect_once(),
            n => ALL[n as usize - 1],
        }
    }

    /// The kernel chosen without an override: the fastest this machine
    /// supports, as measured (crates/bench, `cdc_vs_fastcdc`; under Node,
    /// the `cdc_kernel_speed` example).
    pub fn default_supported() -> CdcKernel {
        *ALL.iter().rev().find(|kernel| kernel.detectable() && kernel.is_supported()).unwrap_or(&CdcKernel::Portable)
    }

    /// Whether detection may pick the kernel. Not NEON: tested under
    /// qemu-user only, where speed means nothing, so the portable scan
    /// stays on aarch64 until the kernel is measured on hardware. Not
    /// SIMD128: it measured slower than the portable scan under Node
    /// (V8 on x86-64: two 64-bit lanes a register do not pay for the
    /// table lookups moved into them; BENCHMARKS.md). Both run when forced.
    fn detectable(self) -> bool {
        !matches!(self, CdcKernel::Neon | CdcKernel::Simd128)
    }

    #[cold]
    fn detect_once() -> CdcKernel {
        #[cfg(feature = "std")]
        let kernel = CdcKernel::from_env()
            .unwrap_or_else(|error| {
                // A silently ignored override would let a forced-kernel test
                // run pass on the wrong kernel.
                std::eprintln!("chunkhash: CHUNKHASH_CDC_KERNEL: {error}; using detection instead");
                None
            })
            .unwrap_or_else(CdcKernel::default_supported);
        #[cfg(not(feature = "std"))]
        let kernel = CdcKernel::default_supported();
        let index = ALL.iter().position(|k| *k == kernel).expect("every kernel is in ALL");
        DETECTED.store(index as u8 + 1, Relaxed);
        kernel
    }

    /// Reads `CHUNKHASH_CDC_KERNEL`: `Ok(None)` when unset or empty,
    /// `Ok(Some(kernel))` for a supported kernel, an error otherwise.
    #[cfg(feature = "std")]
    pub fn from_env() -> Result<Option<CdcKernel>, CdcKernelError> {
        match std::env::var("CHUNKHASH_CDC_KERNEL") {
            Err(std::env::VarError::NotPresent) => Ok(None),
            Err(std::env::VarError::NotUnicode(value)) => Err(CdcKernelError::unknown(&value.to_string_lossy())),
            Ok(value) if value.trim().is_empty() => Ok(None),
            Ok(value) => value.trim().parse::<CdcKernel>().and_then(CdcKernel::checked).map(|k| Some(k.0)),
        }
    }

    /// `self` as a [`CdcPlatform`], when this machine supports it.
    pub(crate) fn checked(self) -> Result<CdcPlatform, CdcKernelError> {
        if self.is_supported() {
            Ok(CdcPlatform(self))
        } else {
            Err(CdcKernelError(ErrorKind::Unsupported(self)))
        }
    }
}

/// The detected kernel, cached: 0 is "not yet", otherwise the index into
/// `ALL` plus one.
static DETECTED: AtomicU8 = AtomicU8::new(0);

impl fmt::Display for CdcKernel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl core::str::FromStr for CdcKernel {
    type Err = CdcKernelError;

    /// Parses a kernel name as [`CdcKernel::name`] spells it, ignoring case.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        ALL.iter().copied().find(|k| k.name().eq_ignore_ascii_case(s)).ok_or_else(|| CdcKernelError::unknown(s))
    }
}

/// A chunker kernel was asked for that does not exist or that this CPU (or
/// build) cannot run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CdcKernelError(ErrorKind);

#[derive(Clone, Debug, PartialEq, Eq)]
enum ErrorKind {
    /// The first characters of the bad name, inline so the error needs no heap.
    Unknown(ArrayString<24>),
    Unsupported(CdcKernel),
}

impl CdcKernelError {
    fn unknown(name: &str) -> Self {
        let mut start = ArrayString::new();
        for character in name.chars() {
            if start.try_push(character).is_err() {
                break;
            }
        }
        CdcKernelError(ErrorKind::Unknown(start))
    }
}

impl fmt::Display for CdcKernelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.0 {
            ErrorKind::Unknown(name) => {
                write!(f, "unknown chunker kernel {:?}, expected one of ", name.as_str())?;
                for (i, kernel) in ALL.iter().enumerate() {
                    write!(f, "{}{kernel}", if i == 0 { "" } else { ", " })?;
                }
                Ok(())
            }
            ErrorKind::Unsupported(kernel) => {
                write!(f, "chunker kernel {kernel} is not supported by this CPU or build")
            }
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for CdcKernelError {}

/// The bytes before a range that a kernel reads: the Gear window less the
/// position itself.
pub(crate) const LOOKBEHIND: usize = 63;

/// A [`CdcKernel`] known to run on this machine: only [`CdcKernel::checked`]
/// and [`CdcPlatform::detect`] make one, and both check support, so the
/// kernel calls below are sound; each arm's `SAFETY` line relies on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct CdcPlatform(CdcKernel);

impl CdcPlatform {
    /// The kernel of [`CdcKernel::detect`], which only returns supported ones.
    #[inline]
    pub(crate) fn detect() -> CdcPlatform {
        CdcPlatform(CdcKernel::detect())
    }

    pub(crate) fn kernel(self) -> CdcKernel {
        self.0
    }

    /// Whether [`CdcPlatform::find`] beats the portable scan for `mask`,
    /// as measured (crates/bench, `cdc_vs_fastcdc`, on Zen 4): the SIMD
    /// kernels' blocks of 8 KiB pay for masks of 15 bits and more (FastCDC
    /// from an average of 32 KiB on, Xet), and lost 8-20% to the portable
    /// scan at FastCDC 2/8/64 KiB (masks of 12 and 14 bits), where a block
    /// often runs far past the match.
    #[inline]
    pub(crate) fn lanes_pay(self, mask: u64) -> bool {
        match self.0 {
            CdcKernel::Avx2 | CdcKernel::Avx512 => mask.count_ones() >= 15,
            // Never detected (see `CdcKernel::detectable`): the x86
            // kernels' rule, so that forcing them tests them where those
            // are tested.
            CdcKernel::Neon | CdcKernel::Simd128 => mask.count_ones() >= 15,
            _ => false,
        }
    }

    /// The first index `i` in `from..bytes.len()` whose windowed Gear hash
    /// (of `bytes[i - 63..=i]`, by `table`) has no bit of `mask` set.
    /// `shifted` is `table` with each entry shifted left by one.
    ///
    /// # Panics
    ///
    /// If `from` is below [`LOOKBEHIND`] (with a non-empty range).
    #[inline]
    pub(crate) fn find(
        self,
        table: &[u64; 256],
        shifted: &[u64; 256],
        bytes: &[u8],
        from: usize,
        mask: u64,
    ) -> Option<usize> {
        if from >= bytes.len() {
            return None;
        }
        assert!(from >= LOOKBEHIND, "a kernel needs the 63 bytes before its range");
        match self.0 {
            #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
            // SAFETY: the kernel is supported: the CPU has AVX2.
            CdcKernel::Avx2 => unsafe { avx2::find(table, shifted, bytes, from, mask) },
            #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
            // SAFETY: the kernel is supported: the CPU has AVX-512F and AVX2 (the detector asks for both).
            CdcKernel::Avx512 => unsafe { avx512::find(table, shifted, bytes, from, mask) },
            #[cfg(all(target_arch = "aarch64", target_endian = "little"))]
            // SAFETY: NEON is part of every little-endian aarch64 target.
            CdcKernel::Neon => unsafe { neon::find(table, shifted, bytes, from, mask) },
            #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
            // Safe to call on wasm (a missing feature traps, never misbehaves);
            // the build enables SIMD128.
            CdcKernel::Simd128 => simd128::find(table, shifted, bytes, from, mask),
            _ => portable::find(table, shifted, bytes, from, mask),
        }
    }
}

#[cfg(test)]
mod tests;
