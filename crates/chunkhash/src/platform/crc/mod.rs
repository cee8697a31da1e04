//! CRC kernel dispatch: the one place that decides which CRC kernel runs.
//!
//! [`CrcKernels`] is a [`CrcBackend`] whose support has been checked, so
//! the kernel calls below are sound; this file holds it and one `match` per
//! CRC, nothing else. The other files:
//!
//! - `constants.rs`: the CRCs' parameters, and every table and key the
//!   kernels use, derived at compile time (a leaf; on WebAssembly the
//!   slicing tables are built at first use, to keep the module small).
//! - `backend.rs`: `CrcBackend`, CPU detection and `CHUNKHASH_CRC_BACKEND`.
//! - `portable.rs`, `sse42.rs`, `pclmul.rs`, `vpclmul.rs`, `aarch64.rs`:
//!   the kernels, one file per instruction set.
//!
//! Every kernel takes and returns the bare CRC register (reflected, no
//! initial or final XOR), so one-shot and streaming hashing share them.

mod backend;
pub(crate) mod constants;
mod portable;

#[cfg(target_arch = "aarch64")]
mod aarch64;
#[cfg(target_arch = "x86_64")]
mod pclmul;
#[cfg(target_arch = "x86_64")]
mod sse42;
#[cfg(target_arch = "x86_64")]
mod vpclmul;

#[cfg(test)]
mod tests;

pub use backend::{CrcBackend, CrcBackendError};
use constants::{crc32_tables, crc32c_tables, crc64_nvme_tables};
#[allow(unused_imports)] // The folding constants are unused where no kernel folds.
use constants::{CRC32C_FOLD, CRC32_FOLD, CRC64_NVME_FOLD};

/// The CRC kernels of one backend, checked to run on this machine: what the
/// registry's CRC-32C, CRC-32 and CRC-64/NVME call. For tests and
/// benchmarks that pick a kernel; [`digest`](crate::digest()) and the
/// functions of [`crc`](crate::crc) use [`CrcKernels::detect`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CrcKernels {
    backend: CrcBackend,
}

impl CrcKernels {
    /// The kernels of `backend`, when this machine supports it.
    pub fn new(backend: CrcBackend) -> Result<CrcKernels, CrcBackendError> {
        if backend.is_supported() {
            Ok(CrcKernels { backend })
        } else {
            Err(CrcBackendError::unsupported(backend))
        }
    }

    /// The kernels of [`CrcBackend::detect`], which only returns supported ones.
    #[inline]
    pub fn detect() -> CrcKernels {
        CrcKernels { backend: CrcBackend::detect() }
    }

    /// The backend.
    pub fn backend(self) -> CrcBackend {
        self.backend
    }

    /// CRC-32C of `data`.
    pub fn crc32c(self, data: &[u8]) -> u32 {
        !self.update_crc32c(!0, data)
    }

    /// CRC-32 (ISO-HDLC) of `data`.
    pub fn crc32(self, data: &[u8]) -> u32 {
        !self.update_crc32(!0, data)
    }

    /// CRC-64/NVME of `data`.
    pub fn crc64_nvme(self, data: &[u8]) -> u64 {
        !self.update_crc64_nvme(!0, data)
    }

    /// The CRC-32C register after `data`.
    #[inline]
    pub(crate) fn update_crc32c(self, register: u32, data: &[u8]) -> u32 {
        match self.backend {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: the backend is supported: the CPU has AVX-512F, VPCLMULQDQ, PCLMULQDQ, SSE4.2.
            CrcBackend::Vpclmul => unsafe { vpclmul::crc32c(&CRC32C_FOLD, register, data) },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: the backend is supported: the CPU has PCLMULQDQ and SSE4.2.
            CrcBackend::Pclmul => unsafe { pclmul::crc32c(&CRC32C_FOLD, register, data) },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: the backend is supported: the CPU has SSE4.2.
            CrcBackend::Sse42 => unsafe { sse42::crc32c(register, data) },
            #[cfg(target_arch = "aarch64")]
            // SAFETY: the backend is supported: the CPU has the CRC and AES extensions.
            CrcBackend::Aarch64 => unsafe { aarch64::crc32c(&CRC32C_FOLD, register, data) },
            _ => portable::update(crc32c_tables(), u64::from(register), data) as u32,
        }
    }

    /// The CRC-32 register after `data`.
    #[inline]
    pub(crate) fn update_crc32(self, register: u32, data: &[u8]) -> u32 {
        match self.backend {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: the backend is supported: the CPU has AVX-512F, VPCLMULQDQ, PCLMULQDQ, SSE4.1.
            CrcBackend::Vpclmul => unsafe { vpclmul::crc(&CRC32_FOLD, crc32_tables(), register.into(), data) as u32 },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: the backend is supported: the CPU has PCLMULQDQ and SSE4.1.
            CrcBackend::Pclmul => unsafe { pclmul::crc(&CRC32_FOLD, crc32_tables(), register.into(), data) as u32 },
            #[cfg(target_arch = "aarch64")]
            // SAFETY: the backend is supported: the CPU has the CRC and AES extensions.
            CrcBackend::Aarch64 => unsafe { aarch64::crc32(&CRC32_FOLD, register, data) },
            // SSE4.2's instruction computes CRC-32C only.
            _ => portable::update(crc32_tables(), u64::from(register), data) as u32,
        }
    }

    /// The CRC-64/NVME register after `data`.
    #[inline]
    pub(crate) fn update_crc64_nvme(self, register: u64, data: &[u8]) -> u64 {
        match self.backend {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: the backend is supported: the CPU has AVX-512F, VPCLMULQDQ, PCLMULQDQ, SSE4.1.
            CrcBackend::Vpclmul => unsafe { vpclmul::crc(&CRC64_NVME_FOLD, crc64_nvme_tables(), register, data) },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: the backend is supported: the CPU has PCLMULQDQ and SSE4.1.
            CrcBackend::Pclmul => unsafe { pclmul::crc(&CRC64_NVME_FOLD, crc64_nvme_tables(), register, data) },
            #[cfg(target_arch = "aarch64")]
            // SAFETY: the backend is supported: the CPU has the AES extension.
            CrcBackend::Aarch64 => unsafe { aarch64::crc64(&CRC64_NVME_FOLD, crc64_nvme_tables(), register, data) },
            _ => portable::update(crc64_nvme_tables(), register, data),
        }
    }

    /// The name of the code that computes the 32-bit CRC-32 or the 64-bit
    /// CRC-64/NVME here (the backend's, or `portable` where it has no
    /// kernel for them): for reports.
    pub(crate) fn folding_name(self) -> &'static str {
        match self.backend {
            CrcBackend::Sse42 => CrcBackend::Portable.name(),
            backend => backend.name(),
        }
    }
}
