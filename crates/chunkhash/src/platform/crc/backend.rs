//! The kernels the CRCs can run on, which of them this machine supports,
//! and the `CHUNKHASH_CRC_BACKEND` override.
//!
//! On x86-64 support is detected at run time (cached `cpufeatures`
//! detectors). On aarch64 the CRC and AES (PMULL) extensions are detected
//! at run time with `std`, and taken from the build's target features
//! without it. Elsewhere only the portable kernel exists.

use arrayvec::ArrayString;
use core::fmt;
use core::sync::atomic::{AtomicU8, Ordering::Relaxed};

/// The instruction sets the CRC kernels use. [`CrcBackend::detect`] picks the
/// best one this machine supports; the others can be forced for testing and
/// benchmarking ([`CrcKernels::new`](crate::crc::CrcKernels::new), or
/// `CHUNKHASH_CRC_BACKEND`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum CrcBackend {
    /// Slicing-by-16 tables; runs everywhere.
    Portable,
    /// x86-64 SSE4.2: CRC-32C with the `crc32` instruction, three streams
    /// side by side; CRC-32 and CRC-64/NVME on the portable tables (the
    /// instruction computes only CRC-32C).
    Sse42,
    /// x86-64 PCLMULQDQ (with SSE4.2): all three CRCs by folding 128-bit
    /// lanes with carry-less multiplication.
    Pclmul,
    /// x86-64 AVX-512 VPCLMULQDQ: folding 512 bits at a time from 256 bytes,
    /// the PCLMULQDQ kernel below that.
    Vpclmul,
    /// aarch64 with the CRC and AES (PMULL) extensions: CRC instructions and
    /// PMULL folding.
    Aarch64,
}

const ALL: [CrcBackend; 5] =
    [CrcBackend::Portable, CrcBackend::Sse42, CrcBackend::Pclmul, CrcBackend::Vpclmul, CrcBackend::Aarch64];

/// One cached detector per x86 kernel file, with every feature its
/// `#[target_feature]` attributes and the kernels it calls enable.
#[cfg(target_arch = "x86_64")]
mod x86 {
    cpufeatures::new!(sse42_kernel, "sse4.2");
    cpufeatures::new!(pclmul_kernels, "sse4.2", "pclmulqdq");
    cpufeatures::new!(vpclmul_kernels, "sse4.2", "pclmulqdq", "avx512f", "vpclmulqdq");

    pub(super) fn sse42() -> bool {
        sse42_kernel::get()
    }

    pub(super) fn pclmul() -> bool {
        pclmul_kernels::get()
    }

    pub(super) fn vpclmul() -> bool {
        vpclmul_kernels::get()
    }
}

/// The CRC and AES extensions, asked at run time with `std`.
#[cfg(target_arch = "aarch64")]
fn aarch64_crc_pmull() -> bool {
    #[cfg(feature = "std")]
    let has = std::arch::is_aarch64_feature_detected!("crc") && std::arch::is_aarch64_feature_detected!("aes");
    #[cfg(not(feature = "std"))]
    let has = cfg!(all(target_feature = "crc", target_feature = "aes"));
    has
}

impl CrcBackend {
    /// Every CRC backend, supported here or not, slowest first.
    pub fn all() -> &'static [CrcBackend] {
        &ALL
    }

    /// The lowercase name used by `CHUNKHASH_CRC_BACKEND` and in reports.
    pub fn name(self) -> &'static str {
        match self {
            CrcBackend::Portable => "portable",
            CrcBackend::Sse42 => "sse42",
            CrcBackend::Pclmul => "pclmul",
            CrcBackend::Vpclmul => "vpclmul",
            CrcBackend::Aarch64 => "aarch64",
        }
    }

    /// Whether this CPU (and this build) can run the backend.
    pub fn is_supported(self) -> bool {
        match self {
            CrcBackend::Portable => true,
            #[cfg(target_arch = "x86_64")]
            CrcBackend::Sse42 => x86::sse42(),
            #[cfg(target_arch = "x86_64")]
            CrcBackend::Pclmul => x86::pclmul(),
            #[cfg(target_arch = "x86_64")]
            CrcBackend::Vpclmul => x86::vpclmul(),
            #[cfg(target_arch = "aarch64")]
            CrcBackend::Aarch64 => aarch64_crc_pmull(),
            #[allow(unreachable_patterns)] // Reached on other architectures.
            _ => false,
        }
    }

    /// The fastest backend this CPU supports, ignoring `CHUNKHASH_CRC_BACKEND`.
    pub fn best_supported() -> CrcBackend {
        *ALL.iter().rev().find(|backend| backend.is_supported()).unwrap_or(&CrcBackend::Portable)
    }

    /// The backend used when none is forced: with `std`,
    /// `CHUNKHASH_CRC_BACKEND` when it names a supported backend; else
    /// [`CrcBackend::best_supported`]. Decided once per process and cached;
    /// a bad value is reported once on stderr and detection used instead
    /// ([`CrcBackend::from_env`] treats it as an error).
    #[inline]
    pub fn detect() -> CrcBackend {
        // A match, not an index into `ALL`: no bounds check on the path of
        // every CRC.
        match DETECTED.load(Relaxed) {
            1 => CrcBackend::Portable,
            2 => CrcBackend::Sse42,
            3 => CrcBackend::Pclmul,
            4 => CrcBackend::Vpclmul,
            5 => CrcBackend::Aarch64,
            _ => Self::detect_once(),
        }
    }

    #[cold]
    fn detect_once() -> CrcBackend {
        #[cfg(feature = "std")]
        let backend = CrcBackend::from_env()
            .unwrap_or_else(|error| {
                // A silently ignored override would let a forced-kernel test
                // run pass on the wrong kernel.
                std::eprintln!("chunkhash: CHUNKHASH_CRC_BACKEND: {error}; using detection instead");
                None
            })
            .unwrap_or_else(CrcBackend::best_supported);
        #[cfg(not(feature = "std"))]
        let backend = CrcBackend::best_supported();
        let index = ALL.iter().position(|b| *b == backend).expect("every backend is in ALL");
        DETECTED.store(index as u8 + 1, Relaxed);
        backend
    }

    /// Reads `CHUNKHASH_CRC_BACKEND`: `Ok(None)` when unset or empty,
    /// `Ok(Some(backend))` for a supported backend, an error otherwise.
    #[cfg(feature = "std")]
    pub fn from_env() -> Result<Option<CrcBackend>, CrcBackendError> {
        let value = match std::env::var("CHUNKHASH_CRC_BACKEND") {
            Err(std::env::VarError::NotPresent) => return Ok(None),
            Err(std::env::VarError::NotUnicode(value)) => {
                return Err(CrcBackendError::unknown(&value.to_string_lossy()))
            }
            Ok(value) if value.trim().is_empty() => return Ok(None),
            Ok(value) => value,
        };
        let backend: CrcBackend = value.trim().parse()?;
        match backend.is_supported() {
            true => Ok(Some(backend)),
            false => Err(CrcBackendError::unsupported(backend)),
        }
    }
}

/// The detected backend, cached: 0 is "not yet", otherwise the index into
/// `ALL` plus one (as `detect` reads it).
static DETECTED: AtomicU8 = AtomicU8::new(0);

impl fmt::Display for CrcBackend {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl core::str::FromStr for CrcBackend {
    type Err = CrcBackendError;

    /// Parses a backend name as [`CrcBackend::name`] spells it, ignoring case.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        ALL.iter().copied().find(|b| b.name().eq_ignore_ascii_case(s)).ok_or_else(|| CrcBackendError::unknown(s))
    }
}

/// A CRC backend was asked for that does not exist or that this CPU cannot
/// run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CrcBackendError(CrcBackendErrorKind);

#[derive(Clone, Debug, PartialEq, Eq)]
enum CrcBackendErrorKind {
    /// The first characters of the bad name (no heap).
    Unknown(ArrayString<24>),
    Unsupported(CrcBackend),
}

impl CrcBackendError {
    fn unknown(name: &str) -> Self {
        CrcBackendError(CrcBackendErrorKind::Unknown(crate::platform::backend::name_start(name)))
    }

    pub(crate) fn unsupported(backend: CrcBackend) -> Self {
        CrcBackendError(CrcBackendErrorKind::Unsupported(backend))
    }

    /// The backend that was asked for, when it exists but is not supported.
    pub fn unsupported_backend(&self) -> Option<CrcBackend> {
        match self.0 {
            CrcBackendErrorKind::Unsupported(backend) => Some(backend),
            CrcBackendErrorKind::Unknown(_) => None,
        }
    }
}

impl fmt::Display for CrcBackendError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.0 {
            CrcBackendErrorKind::Unknown(name) => {
                write!(f, "unknown CRC backend {:?}, expected one of ", name.as_str())?;
                for (i, backend) in ALL.iter().enumerate() {
                    f.write_str(if i == 0 { "" } else { ", " })?;
                    f.write_str(backend.name())?;
                }
                Ok(())
            }
            CrcBackendErrorKind::Unsupported(backend) => {
                write!(f, "CRC backend {backend} is not supported by this CPU or build")
            }
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for CrcBackendError {}
