//! Multi-buffer kernel dispatch (issue 34): which kernel hashes many
//! independent messages side by side, decided once per process and
//! cached, and one `match` per algorithm.
//!
//! The files beside this one: `mb_spec.rs` (the constants of RFC 1321 and
//! FIPS 180-4, a leaf), `mb_lanes.rs` (the lane scheduler and padding,
//! safe code every kernel shares), `mb_x86.rs` (loads and transposes), and
//! one kernel per algorithm and instruction set: `md5_avx512.rs`,
//! `md5_avx2.rs`, `sha1_avx512.rs`, `sha1_avx2.rs`, `sha512_avx512.rs`,
//! `sha512_avx2.rs`, `mb_simd128.rs` on wasm32 (MD5, SHA-1 and
//! SHA-256 in four lanes; the npm package's scalar main module reaches it
//! through the SIMD128 side module, `simd128_module.rs`), and `mb_neon.rs`
//! on aarch64 (MD5 and SHA-1 in four lanes, run only when forced). The portable
//! kernel is the wrapped crates' block
//! compression (`md-5`, `sha1`, `sha2`) as a kernel of one lane. Each
//! algorithm is a `LaneKernel` (its one `match` over the kernels), which
//! the batch (`hash_many`) and the streams fed in pieces (`Streams`) share.

#[cfg(feature = "alloc")]
use super::mb_lanes::Streams;
use super::mb_lanes::{hash_many, one_lane, LaneKernel, Padding, WithLanes};
#[cfg(all(feature = "compat", target_arch = "aarch64", target_endian = "little"))]
use super::mb_neon;
#[cfg(all(feature = "compat", target_arch = "wasm32", target_feature = "simd128"))]
use super::mb_simd128;
#[cfg(feature = "compat")]
use super::mb_spec::{MD5_BLOCK_LEN, MD5_IV, SHA1_BLOCK_LEN, SHA1_IV};
#[cfg(feature = "sha2")]
use super::mb_spec::{SHA512_BLOCK_LEN, SHA512_IV};
#[cfg(all(
    feature = "compat",
    target_arch = "wasm32",
    not(target_feature = "simd128"),
    feature = "wasm-simd128-module"
))]
use super::simd128_module;
#[cfg(all(feature = "compat", any(target_arch = "x86", target_arch = "x86_64")))]
use super::{md5_avx2, md5_avx512, sha1_avx2, sha1_avx512};
#[cfg(all(feature = "sha2", any(target_arch = "x86", target_arch = "x86_64")))]
use super::{sha512_avx2, sha512_avx512};
use arrayvec::ArrayString;
use core::fmt;
use core::sync::atomic::{AtomicU8, Ordering::Relaxed};

/// The instruction sets the multi-buffer kernels run on. Undocumented and
/// unstable, for tests and benchmarks only: [`MbKernel::detect`] picks the
/// best this machine supports (or `CHUNKHASH_MB_KERNEL`'s).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum MbKernel {
    /// One message at a time through the wrapped crate; runs everywhere.
    Portable,
    /// x86 AVX2: 8 lanes of 32-bit words, 4 of 64-bit; detected at run time.
    Avx2,
    /// x86 AVX-512F and BW: 16 lanes of 32-bit words, 8 of 64-bit;
    /// detected at run time.
    Avx512,
    /// wasm32 SIMD128: 4 lanes of 32-bit words (MD5 and SHA-1; SHA-512
    /// stays portable); a build-time choice, or the npm package's SIMD128
    /// side module once linked.
    Simd128,
    /// aarch64 NEON: 4 lanes of 32-bit words (MD5 and SHA-1; SHA-512
    /// stays portable). Every little-endian aarch64 target has it, but
    /// detection does not pick it: tested under qemu-user only, where
    /// speed means nothing, it runs when forced (`CHUNKHASH_MB_KERNEL=neon`)
    /// until measured on aarch64 hardware.
    Neon,
}

const ALL: [MbKernel; 5] = [MbKernel::Portable, MbKernel::Neon, MbKernel::Simd128, MbKernel::Avx2, MbKernel::Avx512];

/// One cached detector per x86 level, with every feature its kernels'
/// `#[target_feature]` attributes enable (AVX2 also needs the AVX register
/// state the OS must save, which `cpufeatures` checks for "avx").
#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
mod x86 {
    cpufeatures::new!(avx2_kernels, "avx", "avx2");
    cpufeatures::new!(avx512_kernels, "avx512f", "avx512bw");

    pub(super) fn avx2() -> bool {
        avx2_kernels::get()
    }

    pub(super) fn avx512() -> bool {
        avx512_kernels::get()
    }
}

impl MbKernel {
    /// Every kernel, supported here or not, narrowest first.
    pub fn all() -> &'static [MbKernel] {
        &ALL
    }

    /// The lowercase name `CHUNKHASH_MB_KERNEL` uses.
    pub fn name(self) -> &'static str {
        match self {
            MbKernel::Portable => "portable",
            MbKernel::Avx2 => "avx2",
            MbKernel::Avx512 => "avx512",
            MbKernel::Simd128 => "simd128",
            MbKernel::Neon => "neon",
        }
    }

    /// Whether this CPU (and this build) can run the kernel. Under Miri only
    /// the portable one: Miri runs no SIMD intrinsics.
    pub fn is_supported(self) -> bool {
        if cfg!(miri) {
            return self == MbKernel::Portable;
        }
        match self {
            MbKernel::Portable => true,
            #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
            MbKernel::Avx2 => x86::avx2(),
            #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
            MbKernel::Avx512 => x86::avx512(),
            MbKernel::Simd128 => super::backend::simd128_kernels(),
            #[cfg(all(target_arch = "aarch64", target_endian = "little"))]
            MbKernel::Neon => true,
            #[allow(unreachable_patterns)] // Reached on other architectures.
            _ => false,
        }
    }

    /// The widest kernel this machine supports that detection may pick,
    /// ignoring `CHUNKHASH_MB_KERNEL`.
    pub fn best_supported() -> MbKernel {
        *ALL.iter().rev().find(|kernel| kernel.detectable() && kernel.is_supported()).unwrap_or(&MbKernel::Portable)
    }

    /// Whether detection may pick the kernel. Not NEON: tested under
    /// qemu-user only, where speed means nothing, so the portable kernel
    /// stays on aarch64 until NEON is measured on hardware. It runs when
    /// forced.
    fn detectable(self) -> bool {
        self != MbKernel::Neon
    }

    /// The kernel used when none is forced: with `std`,
    /// `CHUNKHASH_MB_KERNEL` when it names a supported kernel, else
    /// [`MbKernel::best_supported`]. Decided once per process and cached;
    /// a bad value is reported once on stderr and ignored.
    #[inline]
    pub fn detect() -> MbKernel {
        match DETECTED.load(Relaxed) {
            0 => Self::detect_once(),
            n => ALL[n as usize - 1],
        }
    }

    #[cold]
    fn detect_once() -> MbKernel {
        #[cfg(feature = "std")]
        let kernel = MbKernel::from_env()
            .unwrap_or_else(|error| {
                // A silently ignored override would let a forced-kernel test
                // run pass on the wrong kernel.
                std::eprintln!("chunkhash: CHUNKHASH_MB_KERNEL: {error}; using detection instead");
                None
            })
            .unwrap_or_else(MbKernel::best_supported);
        #[cfg(not(feature = "std"))]
        let kernel = MbKernel::best_supported();
        let index = ALL.iter().position(|k| *k == kernel).expect("every kernel is in ALL");
        DETECTED.store(index as u8 + 1, Relaxed);
        kernel
    }

    /// Reads `CHUNKHASH_MB_KERNEL`: `Ok(None)` when unset or empty,
    /// `Ok(Some(kernel))` for a supported kernel, an error otherwise.
    #[cfg(feature = "std")]
    pub fn from_env() -> Result<Option<MbKernel>, MbKernelError> {
        match std::env::var("CHUNKHASH_MB_KERNEL") {
            Err(std::env::VarError::NotPresent) => Ok(None),
            Err(std::env::VarError::NotUnicode(value)) => Err(MbKernelError::unknown(&value.to_string_lossy())),
            Ok(value) if value.trim().is_empty() => Ok(None),
            Ok(value) => value.trim().parse::<MbKernel>().and_then(MbKernel::checked).map(|k| Some(k.0)),
        }
    }

    /// `self` as an [`MbPlatform`], when this machine supports it.
    pub(crate) fn checked(self) -> Result<MbPlatform, MbKernelError> {
        if self.is_supported() {
            Ok(MbPlatform(self))
        } else {
            Err(MbKernelError(ErrorKind::Unsupported(self)))
        }
    }
}

/// The detected kernel, cached: 0 is "not yet", otherwise the index into
/// `ALL` plus one.
static DETECTED: AtomicU8 = AtomicU8::new(0);

impl fmt::Display for MbKernel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl core::str::FromStr for MbKernel {
    type Err = MbKernelError;

    /// Parses a kernel name as [`MbKernel::name`] spells it, ignoring case.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        ALL.iter().copied().find(|k| k.name().eq_ignore_ascii_case(s)).ok_or_else(|| MbKernelError::unknown(s))
    }
}

/// A multi-buffer kernel was asked for that does not exist or that this
/// CPU (or build) cannot run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MbKernelError(ErrorKind);

#[derive(Clone, Debug, PartialEq, Eq)]
enum ErrorKind {
    /// The first characters of the bad name, inline so the error needs no heap.
    Unknown(ArrayString<24>),
    Unsupported(MbKernel),
}

impl MbKernelError {
    fn unknown(name: &str) -> Self {
        let mut start = ArrayString::new();
        for character in name.chars() {
            if start.try_push(character).is_err() {
                break;
            }
        }
        MbKernelError(ErrorKind::Unknown(start))
    }
}

impl fmt::Display for MbKernelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.0 {
            ErrorKind::Unknown(name) => {
                write!(f, "unknown multi-buffer kernel {:?}, expected one of ", name.as_str())?;
                for (i, kernel) in ALL.iter().enumerate() {
                    write!(f, "{}{kernel}", if i == 0 { "" } else { ", " })?;
                }
                Ok(())
            }
            ErrorKind::Unsupported(kernel) => {
                write!(f, "multi-buffer kernel {kernel} is not supported by this CPU or build")
            }
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for MbKernelError {}

/// An [`MbKernel`] known to run on this machine: only [`MbKernel::checked`]
/// and [`MbPlatform::detect`] make one, and both check support, so the
/// kernel calls below are sound; each arm's `SAFETY` line relies on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct MbPlatform(MbKernel);

impl MbPlatform {
    /// The kernel of [`MbKernel::detect`], which only returns supported ones.
    #[inline]
    pub(crate) fn detect() -> MbPlatform {
        MbPlatform(MbKernel::detect())
    }

    #[cfg(test)]
    pub(crate) fn kernel(self) -> MbKernel {
        self.0
    }

    /// The MD5 of each message into the same place of `out`.
    ///
    /// # Panics
    ///
    /// If `out` and `messages` differ in length.
    #[cfg(feature = "compat")]
    pub(crate) fn md5_many(self, messages: &[&[u8]], out: &mut [[u8; 16]]) {
        hash_many(Md5Lanes(self), messages, out);
    }

    /// The SHA-512 of each message into the same place of `out`.
    ///
    /// # Panics
    ///
    /// If `out` and `messages` differ in length.
    #[cfg(feature = "sha2")]
    pub(crate) fn sha512_many(self, messages: &[&[u8]], out: &mut [[u8; 64]]) {
        hash_many(Sha512Lanes(self), messages, out);
    }

    /// The SHA-1 of each message into the same place of `out`.
    ///
    /// # Panics
    ///
    /// If `out` and `messages` differ in length.
    #[cfg(feature = "compat")]
    pub(crate) fn sha1_many(self, messages: &[&[u8]], out: &mut [[u8; 20]]) {
        hash_many(Sha1Lanes(self), messages, out);
    }
}

/// One algorithm on the multi-buffer kernels, as a [`LaneKernel`]: its
/// AVX-512 and AVX2 kernel files with their lane counts, else the wrapped
/// crate's block compression in one lane (the portable kernel), and on
/// wasm32 the SIMD128 kernel's four lanes where the algorithm has one (on
/// aarch64 the NEON kernel's). The one
/// `match` over the kernels per algorithm; its `SAFETY` lines rely on
/// [`MbPlatform`] holding only supported kernels (the AVX-512 detector
/// checks F and BW, the AVX2 one AVX and AVX2).
macro_rules! lane_kernel {
    (
        cfg($cfg:meta);
        $(#[$doc:meta])*
        $name:ident<$word:ty, $words:literal> {
            iv: $iv:expr,
            padding: $padding:expr,
            avx512: $avx512:ident x $avx512_lanes:literal,
            avx2: $avx2:ident x $avx2_lanes:literal,
            $(simd128: $simd128:ident,)?
            $(neon: $neon:ident,)?
            portable: $portable:path,
            digest: $digest:path $(,)?
        }
    ) => {
        $(#[$doc])*
        #[cfg($cfg)]
        #[derive(Clone, Copy, Debug)]
        pub(crate) struct $name(pub(crate) MbPlatform);

        #[cfg($cfg)]
        impl LaneKernel<$word, $words> for $name {
            const IV: [$word; $words] = $iv;
            const PADDING: Padding = $padding;

            fn run(self, with: impl WithLanes<$word, $words>) {
                match self.0 .0 {
                    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
                    MbKernel::Avx512 => with.lanes::<$avx512_lanes>(|state, blocks, count| {
                        // SAFETY: the kernel is supported: the CPU has AVX-512F and BW.
                        unsafe { $avx512::compress(state, blocks, count) }
                    }),
                    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
                    MbKernel::Avx2 => with.lanes::<$avx2_lanes>(|state, blocks, count| {
                        // SAFETY: the kernel is supported: the CPU has AVX2.
                        unsafe { $avx2::compress(state, blocks, count) }
                    }),
                    $(
                        #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
                        MbKernel::Simd128 => with.lanes::<4>(mb_simd128::$simd128),
                        #[cfg(all(
                            target_arch = "wasm32",
                            not(target_feature = "simd128"),
                            feature = "wasm-simd128-module"
                        ))]
                        MbKernel::Simd128 => with.lanes::<4>(|state, blocks, count| {
                            // SAFETY: the kernel is supported: the side module is linked.
                            unsafe { simd128_module::$simd128(state, blocks, count) }
                        }),
                    )?
                    $(
                        #[cfg(all(target_arch = "aarch64", target_endian = "little"))]
                        MbKernel::Neon => with.lanes::<4>(mb_neon::$neon),
                    )?
                    _ => with.lanes::<1>(one_lane($portable)),
                }
            }

            fn digest(words: [$word; $words], out: &mut [u8]) {
                $digest(&words, out);
            }
        }
    };
}

// The padding: MD5 and SHA-1 a 64-bit length in bits, MD5's little-endian
// (RFC 1321 section 3.2), SHA-1's big-endian (FIPS 180-4 section 5.1.1);
// SHA-512 a 128-bit one, big-endian (section 5.1.2).
lane_kernel! { cfg(feature = "compat"); /// MD5 on a multi-buffer kernel.
Md5Lanes<u32, 4> { iv: MD5_IV, padding: Padding { block_len: MD5_BLOCK_LEN, length_bytes: 8, big_endian: false },
avx512: md5_avx512 x 16, avx2: md5_avx2 x 8, simd128: md5_compress, neon: md5_compress, portable: ::md5::block_api::compress, digest: le_bytes } }
lane_kernel! { cfg(feature = "compat"); /// SHA-1 on a multi-buffer kernel.
Sha1Lanes<u32, 5> { iv: SHA1_IV, padding: Padding { block_len: SHA1_BLOCK_LEN, length_bytes: 8, big_endian: true },
avx512: sha1_avx512 x 16, avx2: sha1_avx2 x 8, simd128: sha1_compress, neon: sha1_compress, portable: ::sha1::block_api::compress, digest: be_bytes } }
lane_kernel! { cfg(feature = "sha2"); /// SHA-512 on a multi-buffer kernel.
Sha512Lanes<u64, 8> { iv: SHA512_IV, padding: Padding { block_len: SHA512_BLOCK_LEN, length_bytes: 16, big_endian: true },
avx512: sha512_avx512 x 8, avx2: sha512_avx2 x 4, portable: ::sha2::block_api::compress512, digest: be_bytes } }

/// Words as MD5 writes them: each little-endian, in order.
#[cfg(feature = "compat")]
fn le_bytes(words: &[u32], out: &mut [u8]) {
    for (bytes, word) in out.chunks_exact_mut(4).zip(words) {
        bytes.copy_from_slice(&word.to_le_bytes());
    }
}

/// Several MD5 messages fed in pieces, in lanes.
#[cfg(all(feature = "compat", feature = "alloc"))]
pub(crate) type Md5Streams = Streams<Md5Lanes, u32, 4>;

/// Several SHA-1 messages fed in pieces, in lanes.
#[cfg(all(feature = "compat", feature = "alloc"))]
pub(crate) type Sha1Streams = Streams<Sha1Lanes, u32, 5>;

/// Several SHA-512 messages fed in pieces, in lanes.
#[cfg(all(feature = "sha2", feature = "alloc"))]
pub(crate) type Sha512Streams = Streams<Sha512Lanes, u64, 8>;

/// Words as the SHA family writes them: each big-endian, in order.
pub(crate) fn be_bytes<W: Copy + BigEndian>(words: &[W], out: &mut [u8]) {
    for (bytes, word) in out.chunks_exact_mut(W::LEN).zip(words) {
        word.write_be(bytes);
    }
}

/// A state word's big-endian bytes.
pub(crate) trait BigEndian {
    const LEN: usize;
    fn write_be(self, out: &mut [u8]);
}

impl BigEndian for u32 {
    const LEN: usize = 4;
    fn write_be(self, out: &mut [u8]) {
        out.copy_from_slice(&self.to_be_bytes());
    }
}

impl BigEndian for u64 {
    const LEN: usize = 8;
    fn write_be(self, out: &mut [u8]) {
        out.copy_from_slice(&self.to_be_bytes());
    }
}
