//! CRC-32C, CRC-32 (ISO-HDLC) and CRC-64/NVME: chunkhash's own kernels
//! (`platform/crc/`), the registry's wrappers over them, and
//! [`crc_combine`].
//!
//! ```
//! use chunkhash::crc;
//!
//! assert_eq!(crc::crc32c(b"123456789"), 0xE306_9283);
//! assert_eq!(crc::crc32(b"123456789"), 0xCBF4_3926); // zlib's crc32
//! assert_eq!(crc::crc64_nvme(b"123456789"), 0xAE8B_1486_0A79_9888);
//! ```
//!
//! Why our own kernels and not a crate (BENCHMARKS.md, "CRC kernels"): the
//! fastest crate measured, `crc-fast` 1.10, costs 4.4 s of CPU to build
//! (more than all of `blake3`), and the light one, `crc32c` 0.6, runs at
//! half its speed from 4 KiB (three SSE4.2 `crc32` chains, no carry-less
//! multiplication) and computes CRC-32C only. These kernels fold with
//! VPCLMULQDQ or PCLMULQDQ where the CPU has them, picked at run time, run
//! CRC-32C as fast as crc-fast or faster (64 B to 1 MiB, called directly),
//! compute all three CRCs with the same code, and add about 2.4 s of CPU to
//! a clean build (the tables and folding keys are derived from the
//! polynomials by `const fn`s, which costs nothing measurable; compiling the
//! kernels is the cost).
//!
//! The registry stores each CRC big-endian (`digest(Crc32, ..).to_hex()` is
//! what zlib's `crc32` prints as `%08x`); the functions here return the
//! integers.

use crate::algorithm::Algorithm;
use crate::platform::crc::constants::{CrcSpec, CRC32, CRC32C, CRC64_NVME};
use crate::wrapper::Wrapper;
use core::fmt;

pub use crate::platform::crc::{CrcBackend, CrcBackendError, CrcKernels};

/// CRC-32C (Castagnoli) of `data`, on the kernel of [`CrcBackend::detect`].
#[inline]
pub fn crc32c(data: &[u8]) -> u32 {
    CrcKernels::detect().crc32c(data)
}

/// CRC-32 (ISO-HDLC: zlib, gzip, PNG, S3's `CRC32`) of `data`.
#[inline]
pub fn crc32(data: &[u8]) -> u32 {
    CrcKernels::detect().crc32(data)
}

/// CRC-64/NVME (S3's `CRC64NVME`) of `data`.
#[inline]
pub fn crc64_nvme(data: &[u8]) -> u64 {
    CrcKernels::detect().crc64_nvme(data)
}

/// The CRC of A||B from the CRC of A, the CRC of B and the length of B in
/// bytes, for the three CRCs of the registry: how S3 builds a full-object
/// checksum from the parts of a multipart upload, and how workers that
/// checksum parts of one object in parallel put their results together. It
/// costs one multiplication modulo the polynomial per bit set in `len_b`,
/// portable code: 1.7 us a call measured here, whatever the lengths.
///
/// The CRCs are the integers (as [`crc32c`] returns them; a [`Digest`] of a
/// CRC holds them big-endian). `len_b` must be the length of B: a wrong
/// length still returns a value, the CRC of some other message, and no
/// function can tell (every value is the CRC of some message of each
/// length). A part of length 0 leaves `crc_a` as it is.
///
/// # Errors
///
/// [`CrcCombineError::NotACrc`] for an algorithm other than CRC-32C, CRC-32
/// and CRC-64/NVME, and [`CrcCombineError::TooWide`] for a 32-bit CRC given
/// a value above `u32::MAX`.
///
/// ```
/// use chunkhash::{crc, crc_combine, digest, Algorithm};
///
/// let (a, b) = (b"chunk".as_slice(), b"hash".as_slice());
/// let combined = crc_combine(Algorithm::Crc64Nvme, crc::crc64_nvme(a), crc::crc64_nvme(b), b.len() as u64);
/// assert_eq!(combined, Ok(crc::crc64_nvme(b"chunkhash")));
///
/// // From digests: the integer is big-endian.
/// let part = |data: &[u8]| u32::from_be_bytes(digest(Algorithm::Crc32c, data).as_bytes().try_into().unwrap());
/// let combined = crc_combine(Algorithm::Crc32c, part(a).into(), part(b).into(), 4).unwrap();
/// assert_eq!(combined, u64::from(crc::crc32c(b"chunkhash")));
/// ```
///
/// [`Digest`]: crate::Digest
pub fn crc_combine(algorithm: Algorithm, crc_a: u64, crc_b: u64, len_b: u64) -> Result<u64, CrcCombineError> {
    let (spec, powers) = spec(algorithm).ok_or(CrcCombineError::NotACrc(algorithm))?;
    for value in [crc_a, crc_b] {
        if value & !spec.mask() != 0 {
            return Err(CrcCombineError::TooWide { algorithm, value });
        }
    }
    // With initial value and final XOR both all ones, the CRC is linear in
    // this way: crc(A||B) = crc(A) x^(8 |B|) + crc(B) (mod P), in normal
    // form; the integers are reflected.
    let reflect = |value: u64| value.reverse_bits() >> (64 - spec.width);
    Ok(reflect(spec.mul_mod(reflect(crc_a), x_pow_bytes(spec, powers, len_b))) ^ crc_b)
}

/// x^(8 `bytes`) mod P: the product of the powers x^(8 2^k) for the bits of
/// `bytes`, one multiplication per bit set.
fn x_pow_bytes(spec: CrcSpec, powers: &[u64; 64], bytes: u64) -> u64 {
    let mut result = 1;
    for (k, &power) in powers.iter().enumerate() {
        if (bytes >> k) & 1 == 1 {
            result = spec.mul_mod(result, power);
        }
    }
    result
}

/// x^(8 2^k) mod P for k from 0 to 63, by squaring, at compile time.
const fn powers_of_x(spec: CrcSpec) -> [u64; 64] {
    let mut powers = [0u64; 64];
    powers[0] = spec.x_pow(8);
    let mut k = 1;
    while k < 64 {
        powers[k] = spec.mul_mod(powers[k - 1], powers[k - 1]);
        k += 1;
    }
    powers
}

static CRC32C_POWERS: [u64; 64] = powers_of_x(CRC32C);
static CRC32_POWERS: [u64; 64] = powers_of_x(CRC32);
static CRC64_NVME_POWERS: [u64; 64] = powers_of_x(CRC64_NVME);

fn spec(algorithm: Algorithm) -> Option<(CrcSpec, &'static [u64; 64])> {
    match algorithm {
        Algorithm::Crc32c => Some((CRC32C, &CRC32C_POWERS)),
        Algorithm::Crc32 => Some((CRC32, &CRC32_POWERS)),
        Algorithm::Crc64Nvme => Some((CRC64_NVME, &CRC64_NVME_POWERS)),
        _ => None,
    }
}

/// Why [`crc_combine`] could not combine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum CrcCombineError {
    /// Occurs when the algorithm is not one of the three CRCs.
    NotACrc(Algorithm),
    /// Occurs when a CRC value has more bits than the algorithm's width
    /// (above `u32::MAX` for CRC-32C and CRC-32).
    TooWide {
        /// The CRC asked for.
        algorithm: Algorithm,
        /// The value given.
        value: u64,
    },
}

impl fmt::Display for CrcCombineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            CrcCombineError::NotACrc(algorithm) => {
                write!(f, "{algorithm} is not a CRC: crc_combine takes CRC-32C, CRC-32 or CRC-64/NVME")
            }
            CrcCombineError::TooWide { algorithm, value } => {
                write!(f, "{value:#x} is not a {algorithm} value: it has more than 32 bits")
            }
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for CrcCombineError {}

/// The registry's streaming states: the CRC register (before the final XOR).
macro_rules! crc_wrapper {
    ($(#[$doc:meta])* $name:ident($register:ty): $len:literal, $update:ident, $implementation:expr) => {
        $(#[$doc])*
        #[derive(Clone)]
        pub(crate) struct $name($register);

        impl Wrapper<$len> for $name {
            #[inline]
            fn hash(input: &[u8]) -> [u8; $len] {
                (!CrcKernels::detect().$update(!0, input)).to_be_bytes()
            }

            fn new() -> Self {
                $name(!0)
            }

            fn update(&mut self, input: &[u8]) {
                self.0 = CrcKernels::detect().$update(self.0, input);
            }

            fn finalize(&self) -> [u8; $len] {
                (!self.0).to_be_bytes()
            }

            fn implementation() -> &'static str {
                $implementation(CrcKernels::detect())
            }
        }
    };
}

crc_wrapper! {
    /// CRC-32C.
    Crc32c(u32): 4, update_crc32c, |kernels: CrcKernels| kernels.backend().name()
}
crc_wrapper! {
    /// CRC-32 (ISO-HDLC).
    Crc32(u32): 4, update_crc32, CrcKernels::folding_name
}
crc_wrapper! {
    /// CRC-64/NVME.
    Crc64Nvme(u64): 8, update_crc64_nvme, CrcKernels::folding_name
}
