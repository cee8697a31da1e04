//! Multi-buffer kernel dispatch (issue 34): which kernel hashes many
//! independent messages side by side, decided once per process and
//! cached, and one `match` per algorithm.
//!
//! The files beside this one: `mb_spec.rs` (the constants of RFC 1321 and
//! FIPS 180-4, a leaf), `mb_lanes.rs` (the lane scheduler and padding,
//! safe code every kernel shares), `mb_x86.rs` (loads and transposes), and
//! one kernel per algorithm and instruction set: `md5_avx512.rs`,
//! `md5_avx2.rs`, `sha1_avx512.rs`, `sha1_avx2.rs`, `sha512_avx512.rs`,
//! `sha512_avx2.rs`, and `mb_simd128.rs` on wasm32 (MD5, SHA-1 and
//! SHA-256 in four lanes; the npm package's scalar main module reaches it
//! through the SIMD128 side module, `simd128_module.rs`). The portable
//! kernel is a loop over the wrapped crates (`md-5`, `sha1`, `sha2`), one
//! message at a time.

#[cfg(all(feature = "compat", feature = "alloc", any(target_arch = "x86", target_arch = "x86_64")))]
use super::mb_lanes::{finish_streams, update_streams, Stream};
// On wasm32 the lanes run where SIMD128 does (built in, or the side
// module); a plain scalar build leaves these unused.
#[cfg(any(target_arch = "x86", target_arch = "x86_64", target_arch = "wasm32"))]
#[cfg_attr(target_arch = "wasm32", allow(unused_imports))]
use super::mb_lanes::{hash_in_lanes, Padding};
#[cfg(all(feature = "compat", target_arch = "wasm32", target_feature = "simd128"))]
use super::mb_simd128;
#[cfg(all(feature = "compat", any(target_arch = "x86", target_arch = "x86_64", target_arch = "wasm32")))]
#[cfg_attr(target_arch = "wasm32", allow(unused_imports))]
use super::mb_spec::{MD5_BLOCK_LEN, MD5_IV, SHA1_BLOCK_LEN, SHA1_IV};
#[cfg(all(
    feature = "compat",
    target_arch = "wasm32",
    not(target_feature = "simd128"),
    feature = "wasm-simd128-module"
))]
use super::simd128_module;
#[cfg(all(feature = "sha2", any(target_arch = "x86", target_arch = "x86_64")))]
use super::{
    mb_spec::{SHA512_BLOCK_LEN, SHA512_IV},
    sha512_avx2, sha512_avx512,
};
#[cfg(all(feature = "compat", any(target_arch = "x86", target_arch = "x86_64")))]
use super::{md5_avx2, md5_avx512, sha1_avx2, sha1_avx512};
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
}

const ALL: [MbKernel; 4] = [MbKernel::Portable, MbKernel::Simd128, MbKernel::Avx2, MbKernel::Avx512];

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
            #[allow(unreachable_patterns)] // Reached on other architectures.
            _ => false,
        }
    }

    /// The widest kernel this machine supports, ignoring `CHUNKHASH_MB_KERNEL`.
    pub fn best_supported() -> MbKernel {
        *ALL.iter().rev().find(|kernel| kernel.is_supported()).unwrap_or(&MbKernel::Portable)
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
        assert_eq!(messages.len(), out.len(), "one digest per message");
        match self.0 {
            #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
            MbKernel::Avx512 => md5_in_lanes(messages, out, |state, blocks, count| {
                // SAFETY: the kernel is supported: the CPU has AVX-512F.
                unsafe { md5_avx512::compress(state, blocks, count) }
            }),
            #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
            MbKernel::Avx2 => md5_in_lanes(messages, out, |state, blocks, count| {
                // SAFETY: the kernel is supported: the CPU has AVX2.
                unsafe { md5_avx2::compress(state, blocks, count) }
            }),
            #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
            MbKernel::Simd128 => md5_in_lanes(messages, out, mb_simd128::md5_compress),
            #[cfg(all(target_arch = "wasm32", not(target_feature = "simd128"), feature = "wasm-simd128-module"))]
            MbKernel::Simd128 => md5_in_lanes(messages, out, |state, blocks, count| {
                // SAFETY: the kernel is supported: the side module is linked.
                unsafe { simd128_module::md5_compress(state, blocks, count) }
            }),
            _ => {
                use ::md5::Digest as _;
                for (message, digest) in messages.iter().zip(out) {
                    *digest = ::md5::Md5::digest(message).into();
                }
            }
        }
    }

    /// The SHA-512 of each message into the same place of `out`.
    ///
    /// # Panics
    ///
    /// If `out` and `messages` differ in length.
    #[cfg(feature = "sha2")]
    pub(crate) fn sha512_many(self, messages: &[&[u8]], out: &mut [[u8; 64]]) {
        assert_eq!(messages.len(), out.len(), "one digest per message");
        match self.0 {
            #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
            MbKernel::Avx512 => sha512_in_lanes(messages, out, |state, blocks, count| {
                // SAFETY: the kernel is supported: the CPU has AVX-512F and BW.
                unsafe { sha512_avx512::compress(state, blocks, count) }
            }),
            #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
            MbKernel::Avx2 => sha512_in_lanes(messages, out, |state, blocks, count| {
                // SAFETY: the kernel is supported: the CPU has AVX2.
                unsafe { sha512_avx2::compress(state, blocks, count) }
            }),
            _ => {
                use ::sha2::Digest as _;
                for (message, digest) in messages.iter().zip(out) {
                    *digest = ::sha2::Sha512::digest(message).into();
                }
            }
        }
    }

    /// The SHA-1 of each message into the same place of `out`.
    ///
    /// # Panics
    ///
    /// If `out` and `messages` differ in length.
    #[cfg(feature = "compat")]
    pub(crate) fn sha1_many(self, messages: &[&[u8]], out: &mut [[u8; 20]]) {
        assert_eq!(messages.len(), out.len(), "one digest per message");
        match self.0 {
            #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
            MbKernel::Avx512 => sha1_in_lanes(messages, out, |state, blocks, count| {
                // SAFETY: the kernel is supported: the CPU has AVX-512F and BW.
                unsafe { sha1_avx512::compress(state, blocks, count) }
            }),
            #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
            MbKernel::Avx2 => sha1_in_lanes(messages, out, |state, blocks, count| {
                // SAFETY: the kernel is supported: the CPU has AVX2.
                unsafe { sha1_avx2::compress(state, blocks, count) }
            }),
            #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
            MbKernel::Simd128 => sha1_in_lanes(messages, out, mb_simd128::sha1_compress),
            #[cfg(all(target_arch = "wasm32", not(target_feature = "simd128"), feature = "wasm-simd128-module"))]
            MbKernel::Simd128 => sha1_in_lanes(messages, out, |state, blocks, count| {
                // SAFETY: the kernel is supported: the side module is linked.
                unsafe { simd128_module::sha1_compress(state, blocks, count) }
            }),
            _ => {
                use ::sha1::Digest as _;
                for (message, digest) in messages.iter().zip(out) {
                    *digest = ::sha1::Sha1::digest(message).into();
                }
            }
        }
    }
}

/// Several MD5 messages fed in pieces (the parts of a multipart upload,
/// read side by side), their whole blocks hashed in lanes as pieces come.
#[cfg(all(feature = "compat", feature = "alloc"))]
#[derive(Clone, Debug)]
pub(crate) struct Md5Streams {
    platform: MbPlatform,
    /// The streams' states, with a SIMD kernel.
    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    lanes: alloc::vec::Vec<Stream<u32, 4>>,
    /// The streams' hashers, with the portable kernel.
    portable: alloc::vec::Vec<::md5::Md5>,
}

#[cfg(all(feature = "compat", feature = "alloc"))]
impl Md5Streams {
    /// `count` empty messages, hashed on `platform`.
    pub(crate) fn new(platform: MbPlatform, count: usize) -> Md5Streams {
        use alloc::vec;
        #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
        if platform.0 != MbKernel::Portable {
            return Md5Streams { platform, lanes: vec![Stream::new(MD5_IV); count], portable: vec![] };
        }
        Md5Streams {
            platform,
            #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
            lanes: vec![],
            portable: vec![::md5::Md5::default(); count],
        }
    }

    /// How many messages.
    pub(crate) fn count(&self) -> usize {
        #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
        if self.platform.0 != MbKernel::Portable {
            return self.lanes.len();
        }
        self.portable.len()
    }

    /// Appends `pieces[i]` to message `i`.
    ///
    /// # Panics
    ///
    /// If `pieces` does not have one piece per message.
    pub(crate) fn update(&mut self, pieces: &[&[u8]]) {
        use ::md5::Digest as _;
        assert_eq!(self.count(), pieces.len(), "one piece per stream");
        match self.platform.0 {
            #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
            MbKernel::Avx512 => update_streams::<u32, 16, 4>(&mut self.lanes, pieces, MD5_BLOCK_LEN, |s, b, c| {
                // SAFETY: the kernel is supported: the CPU has AVX-512F and BW.
                unsafe { md5_avx512::compress(s, b, c) }
            }),
            #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
            MbKernel::Avx2 => update_streams::<u32, 8, 4>(&mut self.lanes, pieces, MD5_BLOCK_LEN, |s, b, c| {
                // SAFETY: the kernel is supported: the CPU has AVX2.
                unsafe { md5_avx2::compress(s, b, c) }
            }),
            _ => {
                for (hasher, piece) in self.portable.iter_mut().zip(pieces) {
                    hasher.update(piece);
                }
            }
        }
    }

    /// The MD5 of each message so far into the same place of `out`.
    ///
    /// # Panics
    ///
    /// If `out` does not have one digest per message.
    pub(crate) fn finalize(&self, out: &mut [[u8; 16]]) {
        use ::md5::Digest as _;
        assert_eq!(self.count(), out.len(), "one digest per stream");
        #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
        let padding = Padding { block_len: MD5_BLOCK_LEN, length_bytes: 8, big_endian: false };
        #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
        let finish = |index: usize, words: [u32; 4]| out[index] = le_bytes(words);
        match self.platform.0 {
            #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
            MbKernel::Avx512 => {
                finish_streams::<u32, 16, 4>(
                    &self.lanes,
                    padding,
                    |s, b, c| {
                        // SAFETY: the kernel is supported: the CPU has AVX-512F and BW.
                        unsafe { md5_avx512::compress(s, b, c) }
                    },
                    finish,
                )
            }
            #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
            MbKernel::Avx2 => {
                finish_streams::<u32, 8, 4>(
                    &self.lanes,
                    padding,
                    |s, b, c| {
                        // SAFETY: the kernel is supported: the CPU has AVX2.
                        unsafe { md5_avx2::compress(s, b, c) }
                    },
                    finish,
                )
            }
            _ => {
                for (hasher, digest) in self.portable.iter().zip(out) {
                    *digest = hasher.clone().finalize().into();
                }
            }
        }
    }
}

/// MD5 of `messages` in `L` lanes of `compress`.
#[cfg(all(feature = "compat", any(target_arch = "x86", target_arch = "x86_64", target_arch = "wasm32")))]
#[cfg_attr(target_arch = "wasm32", allow(dead_code))]
fn md5_in_lanes<const L: usize>(
    messages: &[&[u8]],
    out: &mut [[u8; 16]],
    compress: impl FnMut(&mut [[u32; L]; 4], &[&[u8]; L], usize),
) {
    // A 64-bit length in bits, little-endian (RFC 1321 section 3.2).
    let padding = Padding { block_len: MD5_BLOCK_LEN, length_bytes: 8, big_endian: false };
    hash_in_lanes(messages, padding, MD5_IV, compress, |index, words| out[index] = le_bytes(words));
}

/// SHA-1 of `messages` in `L` lanes of `compress`.
#[cfg(all(feature = "compat", any(target_arch = "x86", target_arch = "x86_64", target_arch = "wasm32")))]
#[cfg_attr(target_arch = "wasm32", allow(dead_code))]
fn sha1_in_lanes<const L: usize>(
    messages: &[&[u8]],
    out: &mut [[u8; 20]],
    compress: impl FnMut(&mut [[u32; L]; 5], &[&[u8]; L], usize),
) {
    // A 64-bit length in bits, big-endian (FIPS 180-4 section 5.1.1).
    let padding = Padding { block_len: SHA1_BLOCK_LEN, length_bytes: 8, big_endian: true };
    hash_in_lanes(messages, padding, SHA1_IV, compress, |index, words| {
        for (bytes, word) in out[index].chunks_exact_mut(4).zip(words) {
            bytes.copy_from_slice(&word.to_be_bytes());
        }
    });
}

/// SHA-512 of `messages` in `L` lanes of `compress`.
#[cfg(all(feature = "sha2", any(target_arch = "x86", target_arch = "x86_64")))]
fn sha512_in_lanes<const L: usize>(
    messages: &[&[u8]],
    out: &mut [[u8; 64]],
    compress: impl FnMut(&mut [[u64; L]; 8], &[&[u8]; L], usize),
) {
    // A 128-bit length in bits, big-endian (FIPS 180-4 section 5.1.2).
    let padding = Padding { block_len: SHA512_BLOCK_LEN, length_bytes: 16, big_endian: true };
    hash_in_lanes(messages, padding, SHA512_IV, compress, |index, words| {
        for (bytes, word) in out[index].chunks_exact_mut(8).zip(words) {
            bytes.copy_from_slice(&word.to_be_bytes());
        }
    });
}

/// Words as MD5 writes them: each little-endian.
#[cfg(all(feature = "compat", any(target_arch = "x86", target_arch = "x86_64", target_arch = "wasm32")))]
#[cfg_attr(target_arch = "wasm32", allow(dead_code))]
fn le_bytes<const W: usize, const B: usize>(words: [u32; W]) -> [u8; B] {
    let mut bytes = [0; B];
    for (chunk, word) in bytes.chunks_exact_mut(4).zip(words) {
        chunk.copy_from_slice(&word.to_le_bytes());
    }
    bytes
}
