//! The backends BLAKE3 can run on, which of them this machine supports, and
//! the `CHUNKHASH_BACKEND` override.
//!
//! On x86 support is detected at run time. A backend is supported when the
//! CPU has every feature of every kernel its dispatch arms reach (the AVX-512
//! arms also call AVX2 and SSE4.1 code). NEON and SIMD128 are build-time
//! choices: NEON is part of every little-endian aarch64 target, and wasm has
//! no run-time detection, so SIMD128 is there when the build enables it.
//!
//! Adding a backend takes a variant, its name and lane count here, its
//! support rule (from the detectors below), and its arms in `Platform`'s
//! matches.

use arrayvec::ArrayString;
use core::fmt;

/// The SIMD instruction sets BLAKE3 can run on. [`Backend::detect`] picks the
/// best one this machine supports; the others can be forced for testing and
/// benchmarking, for example with [`Hasher::new_with_backend`](crate::blake3::Hasher::new_with_backend).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Backend {
    /// Plain Rust, one compression at a time; runs everywhere.
    Portable,
    /// x86 SSE4.1: 4 lanes; detected at run time.
    Sse41,
    /// x86 AVX2: 8 lanes; detected at run time.
    Avx2,
    /// x86_64 AVX2 (and BMI2), the kernels written in assembly: 8 lanes;
    /// detected at run time. The best where AVX-512 is missing.
    Avx2Asm,
    /// x86 AVX-512F + AVX-512VL: 16 lanes; detected at run time.
    Avx512,
    /// x86_64 AVX-512F + AVX-512VL (and BMI2), the kernels written in
    /// assembly: 16 lanes (32 for runs of whole chunks); detected at run
    /// time. The best where supported.
    Avx512Asm,
    /// aarch64 NEON: 4 lanes; a build-time choice, part of every
    /// little-endian aarch64 target.
    Neon,
    /// wasm32 SIMD128: 4 lanes; a build-time choice (`-C target-feature=+simd128`).
    Wasm32Simd,
}

const ALL_BACKENDS: [Backend; 8] = [
    Backend::Portable,
    Backend::Sse41,
    Backend::Avx2,
    Backend::Avx2Asm,
    Backend::Avx512,
    Backend::Avx512Asm,
    Backend::Neon,
    Backend::Wasm32Simd,
];

/// One cached detector per x86 kernel file: the features its
/// `#[target_feature]` attributes enable, with the older ones its
/// instructions come from (SSE4.1 code uses SSSE3's byte shuffle, and AVX2
/// code needs the AVX register state the OS must save).
#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
mod x86 {
    cpufeatures::new!(sse41_kernels, "sse2", "ssse3", "sse4.1");
    cpufeatures::new!(avx2_kernels, "avx", "avx2");
    // VL gives the 128- and 256-bit forms of the rotate instructions that the
    // narrow kernels and the single-block compression use.
    cpufeatures::new!(avx512_kernels, "avx512f", "avx512vl");

    /// `sse41.rs`.
    pub(super) fn sse41() -> bool {
        sse41_kernels::get()
    }

    /// `avx2.rs`, and the SSE4.1 single-block and 4-lane kernels it falls back to.
    pub(super) fn avx2() -> bool {
        avx2_kernels::get() && sse41()
    }

    /// `avx512.rs`, whose 8- and 4-lane kernels run AVX2 and SSE4.1 code.
    pub(super) fn avx512() -> bool {
        avx512_kernels::get() && avx2()
    }

    // Byte-masked loads, for the small-message kernel's partial blocks.
    cpufeatures::new!(avx512bw, "avx512bw");

    /// `avx512.rs`'s small-message kernel with masked loads.
    pub(super) fn avx512_byte_masks() -> bool {
        avx512bw::get() && avx512()
    }

    // The assembly shifts by a register count (`shlx`).
    #[cfg(all(target_arch = "x86_64", not(miri)))]
    cpufeatures::new!(bmi2, "bmi2");

    /// `avx2_asm.rs`, whose dispatch also reaches `avx2.rs` and `sse41.rs`.
    #[cfg(all(target_arch = "x86_64", not(miri)))]
    pub(super) fn avx2_asm() -> bool {
        bmi2::get() && avx2()
    }

    /// `avx512_asm.rs`, whose dispatch also reaches `avx512.rs`.
    #[cfg(all(target_arch = "x86_64", not(miri)))]
    pub(super) fn avx512_asm() -> bool {
        bmi2::get() && avx512()
    }
}

/// Whether the CPU has AVX-512BW beside AVX-512F + VL: the small-message
/// kernel then reads partial last blocks with byte-masked loads.
#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
pub(crate) fn avx512_byte_masks() -> bool {
    x86::avx512_byte_masks()
}

/// Whether the SIMD128 kernels (BLAKE3's and XXH3's) can run: the build
/// enables SIMD128, or they were linked in from a module of their own
/// (`simd128_module.rs`).
pub(crate) fn simd128_kernels() -> bool {
    #[cfg(all(target_arch = "wasm32", not(target_feature = "simd128"), feature = "wasm-simd128-module"))]
    if super::simd128_module::linked() {
        return true;
    }
    cfg!(all(target_arch = "wasm32", target_feature = "simd128"))
}

impl Backend {
    /// Every backend this crate knows, supported here or not, narrowest first.
    pub fn all() -> &'static [Backend] {
        &ALL_BACKENDS
    }

    /// The lowercase name used by `CHUNKHASH_BACKEND`, the CLI and the bindings.
    pub fn name(self) -> &'static str {
        match self {
            Backend::Portable => "portable",
            Backend::Sse41 => "sse41",
            Backend::Avx2 => "avx2",
            Backend::Avx2Asm => "avx2asm",
            Backend::Avx512 => "avx512",
            Backend::Avx512Asm => "avx512asm",
            Backend::Neon => "neon",
            Backend::Wasm32Simd => "wasm32simd",
        }
    }

    /// How many chains one kernel call hashes side by side.
    pub fn lanes(self) -> usize {
        match self {
            Backend::Portable => 1,
            Backend::Sse41 | Backend::Neon | Backend::Wasm32Simd => 4,
            Backend::Avx2 | Backend::Avx2Asm => 8,
            Backend::Avx512 | Backend::Avx512Asm => 16,
        }
    }

    /// Whether this CPU (and this build) can run the backend.
    pub fn is_supported(self) -> bool {
        match self {
            Backend::Portable => true,
            #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
            Backend::Sse41 => x86::sse41(),
            #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
            Backend::Avx2 => x86::avx2(),
            #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
            Backend::Avx512 => x86::avx512(),
            #[cfg(not(any(target_arch = "x86", target_arch = "x86_64")))]
            Backend::Sse41 | Backend::Avx2 | Backend::Avx512 => false,
            // Assembly: neither 32-bit x86 nor something Miri can run.
            #[cfg(all(target_arch = "x86_64", not(miri)))]
            Backend::Avx2Asm => x86::avx2_asm(),
            #[cfg(all(target_arch = "x86_64", not(miri)))]
            Backend::Avx512Asm => x86::avx512_asm(),
            #[cfg(not(all(target_arch = "x86_64", not(miri))))]
            Backend::Avx2Asm | Backend::Avx512Asm => false,
            Backend::Neon => cfg!(all(target_arch = "aarch64", target_endian = "little")),
            Backend::Wasm32Simd => simd128_kernels(),
        }
    }

    /// The best backend this CPU supports, ignoring `CHUNKHASH_BACKEND`.
    pub fn best_supported() -> Backend {
        *ALL_BACKENDS.iter().rev().find(|backend| backend.is_supported()).unwrap_or(&Backend::Portable)
    }

    /// The backend used when none is forced: with the `std` feature,
    /// `CHUNKHASH_BACKEND` when it is set to a supported backend; else
    /// [`Backend::best_supported`]. Decided once per process and cached. An
    /// unknown or unsupported value is reported once on stderr and detection
    /// is used instead; call `Backend::from_env` (`std`) to treat it as an
    /// error.
    #[inline]
    pub fn detect() -> Backend {
        use core::sync::atomic::Ordering::Relaxed;
        match DETECTED.load(Relaxed) {
            0 => Self::detect_once(),
            n => ALL_BACKENDS[n as usize - 1],
        }
    }

    #[cold]
    fn detect_once() -> Backend {
        #[cfg(feature = "std")]
        let backend = match Backend::from_env() {
            Ok(Some(backend)) => backend,
            Ok(None) => Backend::best_supported(),
            Err(error) => {
                // A library should not print, but a silently ignored override
                // would let a forced-backend test run pass on the wrong kernel.
                std::eprintln!("chunkhash: CHUNKHASH_BACKEND: {error}; using detection instead");
                Backend::best_supported()
            }
        };
        #[cfg(not(feature = "std"))]
        let backend = Backend::best_supported();
        let index = ALL_BACKENDS.iter().position(|b| *b == backend).expect("every backend is in ALL_BACKENDS");
        DETECTED.store(index as u8 + 1, core::sync::atomic::Ordering::Relaxed);
        backend
    }

    /// Reads `CHUNKHASH_BACKEND`: `Ok(None)` when unset or empty,
    /// `Ok(Some(backend))` for a supported backend, an error otherwise.
    #[cfg(feature = "std")]
    pub fn from_env() -> Result<Option<Backend>, BackendError> {
        match std::env::var("CHUNKHASH_BACKEND") {
            Err(std::env::VarError::NotPresent) => Ok(None),
            Err(std::env::VarError::NotUnicode(value)) => Err(BackendError::unknown(&value.to_string_lossy())),
            Ok(value) if value.trim().is_empty() => Ok(None),
            Ok(value) => {
                let backend: Backend = value.trim().parse()?;
                if backend.is_supported() {
                    Ok(Some(backend))
                } else {
                    Err(BackendError::unsupported(backend))
                }
            }
        }
    }
}

/// The detected backend, cached: 0 is "not yet", otherwise the index into
/// `ALL_BACKENDS` plus one.
static DETECTED: core::sync::atomic::AtomicU8 = core::sync::atomic::AtomicU8::new(0);

impl fmt::Display for Backend {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl core::str::FromStr for Backend {
    type Err = BackendError;

    /// Parses a backend name as [`Backend::name`] spells it, ignoring case.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        ALL_BACKENDS
            .iter()
            .copied()
            .find(|backend| backend.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| BackendError::unknown(s))
    }
}

/// A backend was asked for that does not exist or that this CPU cannot run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BackendError(BackendErrorKind);

#[derive(Clone, Debug, PartialEq, Eq)]
enum BackendErrorKind {
    /// The first characters of the bad name, kept inline so the error
    /// needs no heap.
    Unknown(ArrayString<24>),
    Unsupported(Backend),
}

/// The first characters of a bad name that fit in 24 bytes, for an error
/// that needs no heap (this file's and the CRC backends').
pub(crate) fn name_start(name: &str) -> ArrayString<24> {
    let mut start = ArrayString::new();
    for character in name.chars() {
        if start.try_push(character).is_err() {
            break;
        }
    }
    start
}

impl BackendError {
    fn unknown(name: &str) -> Self {
        BackendError(BackendErrorKind::Unknown(name_start(name)))
    }

    pub(crate) fn unsupported(backend: Backend) -> Self {
        BackendError(BackendErrorKind::Unsupported(backend))
    }

    /// The backend that was asked for, when it exists but is not supported.
    pub fn unsupported_backend(&self) -> Option<Backend> {
        match self.0 {
            BackendErrorKind::Unsupported(backend) => Some(backend),
            BackendErrorKind::Unknown(_) => None,
        }
    }
}

impl fmt::Display for BackendError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.0 {
            BackendErrorKind::Unknown(name) => {
                write!(f, "unknown backend {:?}, expected one of ", name.as_str())?;
                for (i, backend) in ALL_BACKENDS.iter().enumerate() {
                    let separator = if i == 0 { "" } else { ", " };
                    write!(f, "{separator}{backend}")?;
                }
                Ok(())
            }
            BackendErrorKind::Unsupported(backend) => {
                write!(f, "backend {backend} is not supported by this CPU or build")
            }
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for BackendError {}

#[cfg(test)]
mod tests {
    use super::*;
    use std::string::ToString;

    #[test]
    fn an_unknown_name_is_quoted_up_to_24_bytes_on_a_character_boundary() {
        let error = "avx1024".parse::<Backend>().unwrap_err();
        assert!(error.to_string().starts_with("unknown backend \"avx1024\", expected one of portable, sse41"));
        assert_eq!(error.unsupported_backend(), None);
        // 23 ASCII bytes and a 2-byte character: the character does not fit.
        let long = "abcdefghijklmnopqrstuvwé and more";
        let message = long.parse::<Backend>().unwrap_err().to_string();
        assert!(message.starts_with("unknown backend \"abcdefghijklmnopqrstuvw\","), "{message}");
    }
}
