//! Many messages in one call, for every algorithm of the registry:
//! [`digest_many`] and [`digest_offsets`].
//!
//! The algorithm is dispatched once per call. BLAKE3 runs through its
//! batch (`blake3::Batch`: chunks and messages across SIMD lanes), SHA-256
//! through multi-buffer kernels (`sha256.rs`: independent messages in SIMD
//! lanes, or two interleaved on the SHA extensions), and every other
//! algorithm through a tight loop over its one-shot function.
//!
//! A multi-buffer function has one shape, `fn(&[&[u8]], &mut [[u8; N]])`:
//! `out[i]` receives the digest of `messages[i]`. MD5, SHA-1 and SHA-512
//! have theirs in `md5.rs`, `sha1.rs` and `sha512.rs` (independent messages
//! across AVX-512 or AVX2 lanes; `crate::platform::multi_buffer` decides and
//! holds every kernel). The functions at the end force a kernel, for tests
//! and benchmarks; [`Md5Streams`], [`Sha1Streams`], [`Sha256Streams`] and
//! [`Sha512Streams`] take several messages in pieces (the parts of a
//! multipart upload read side by side).

#[cfg(feature = "compat")]
pub(crate) mod md5;
#[cfg(feature = "compat")]
pub(crate) mod sha1;
#[cfg(feature = "sha2")]
pub(crate) mod sha256;
#[cfg(feature = "sha2")]
pub(crate) mod sha512;

#[cfg(test)]
mod tests;

#[cfg(any(feature = "sha2", feature = "compat"))]
pub use crate::platform::multi_buffer::{MbKernel, MbKernelError};

use crate::algorithm::{Algorithm, UnavailableAlgorithm};
use crate::blake3::batch::{Column, Messages};
use crate::blake3::{Batch, Offset, OffsetsError};
use crate::digest::{unavailable, Digest};
use crate::registry::{hash_each, Sink};

/// `out[i]` receives the digest of `messages[i]` under `algorithm`: the
/// same digests as [`digest`](crate::digest()) of each, in one call.
///
/// ```
/// use chunkhash::{digest, digest_many, Algorithm};
///
/// let messages: [&[u8]; 3] = [b"a", b"bc", b""];
/// let mut out = [digest(Algorithm::Sha256, b""); 3];
/// digest_many(Algorithm::Sha256, &messages, &mut out);
/// assert_eq!(out[1], digest(Algorithm::Sha256, b"bc"));
/// ```
///
/// # Panics
///
/// If `out` and `messages` differ in length, or the algorithm's cargo
/// feature is off (see [`try_digest_many`]).
pub fn digest_many(algorithm: Algorithm, messages: &[&[u8]], out: &mut [Digest]) {
    try_digest_many(algorithm, messages, out).unwrap_or_else(|_| unavailable(algorithm));
}

/// [`digest_many`], or an error if this build lacks the algorithm's cargo
/// feature (nothing is written then).
///
/// # Panics
///
/// If `out` and `messages` differ in length.
pub fn try_digest_many(
    algorithm: Algorithm,
    messages: &[&[u8]],
    out: &mut [Digest],
) -> Result<(), UnavailableAlgorithm> {
    assert_eq!(messages.len(), out.len(), "digest_many: one output per message");
    each(algorithm, &messages, out)
}

/// The digests of the values of an Arrow-style column: value `i` is
/// `values[offsets[i]..offsets[i + 1]]`, and `out[i]` receives its digest
/// under `algorithm`. The offsets are `i32` or `i64`, as for
/// [`blake3::Batch::hash_offsets`](crate::blake3::Batch::hash_offsets).
///
/// ```
/// use chunkhash::{digest, digest_offsets, Algorithm};
///
/// let mut out = [digest(Algorithm::Md5, b""); 2];
/// digest_offsets(Algorithm::Md5, b"abcde", &[0i32, 2, 5], &mut out).unwrap();
/// assert_eq!(out[1], digest(Algorithm::Md5, b"cde"));
/// ```
///
/// # Errors
///
/// [`OffsetsError`] when `offsets` does not hold `out.len() + 1` entries
/// (or none for no values), or an offset is negative, below the one
/// before it, or past the end of `values`. Nothing is hashed then.
///
/// # Panics
///
/// If the algorithm's cargo feature is off.
pub fn digest_offsets<O: Offset>(
    algorithm: Algorithm,
    values: &[u8],
    offsets: &[O],
    out: &mut [Digest],
) -> Result<(), OffsetsError> {
    let column = Column::new(values, offsets, out.len())?;
    each(algorithm, &column, out).unwrap_or_else(|_| unavailable(algorithm));
    Ok(())
}

/// Undocumented and unstable, for benchmarks only: `out[i]` receives the
/// SHA-256 of `messages[i]`, computed by the multi-buffer kernel named
/// `kernel` (`portable`, `shani`, `avx2`, `avx512`, `simd128`) whatever
/// `CHUNKHASH_SHA256_KERNEL` says, or by the detected one for `""`; false
/// (and nothing written) if that kernel does not run here. Lets one process
/// time the kernels against each other, interleaved.
#[doc(hidden)]
#[cfg(feature = "sha2")]
pub fn sha256_many_on_kernel(kernel: &str, messages: &[&[u8]], out: &mut [[u8; 32]]) -> bool {
    use crate::platform::sha256::{Checked, Kernel};
    let checked = match kernel {
        "" => Some(Checked::detect()),
        name => Kernel::from_name(name).and_then(Kernel::checked),
    };
    match checked {
        Some(checked) => {
            sha256::sha256_many_with(checked, messages, out);
            true
        }
        None => false,
    }
}

/// Every message of `messages` into `out`, dispatched once.
fn each<'a>(
    algorithm: Algorithm,
    messages: &impl Messages<'a>,
    out: &mut [Digest],
) -> Result<(), UnavailableAlgorithm> {
    match algorithm {
        Algorithm::Blake3 | Algorithm::Blake3_160 => {
            Batch::new().hash_each(messages, |i, hash| out[i] = Digest::from_output(algorithm, hash));
            return Ok(());
        }
        #[cfg(feature = "sha2")]
        Algorithm::Sha256 => return in_groups(algorithm, messages, out, sha256::sha256_many),
        #[cfg(feature = "sha2")]
        Algorithm::Sha512 | Algorithm::Sha512_160 => return in_groups(algorithm, messages, out, sha512::sha512_many),
        #[cfg(feature = "compat")]
        Algorithm::Md5 => return in_groups(algorithm, messages, out, md5::md5_many),
        #[cfg(feature = "compat")]
        Algorithm::Sha1 => return in_groups(algorithm, messages, out, sha1::sha1_many),
        _ => {}
    }
    let mut sink = ToDigests { algorithm, out };
    hash_each(algorithm, messages.count(), |i| messages.message(i), &mut sink).ok_or(UnavailableAlgorithm(algorithm))
}

/// Writes each output into its [`Digest`].
struct ToDigests<'o> {
    algorithm: Algorithm,
    out: &'o mut [Digest],
}

impl Sink for ToDigests<'_> {
    #[inline(always)]
    fn put<const N: usize>(&mut self, index: usize, output: [u8; N]) {
        self.out[index] = Digest::from_output(self.algorithm, &output);
    }
}

/// Messages per call of a multi-buffer function: their slices and outputs
/// sit on the stack (8 KiB for 64-byte digests), and a group is long
/// enough that lanes rarely idle at its end.
#[cfg(any(feature = "sha2", feature = "compat"))]
const GROUP: usize = 128;

/// `many` over `messages` a group at a time, its outputs made digests.
#[cfg(any(feature = "sha2", feature = "compat"))]
fn in_groups<'a, const N: usize>(
    algorithm: Algorithm,
    messages: &impl Messages<'a>,
    out: &mut [Digest],
    many: fn(&[&[u8]], &mut [[u8; N]]),
) -> Result<(), UnavailableAlgorithm> {
    let mut slices: [&[u8]; GROUP] = [&[]; GROUP];
    let mut outputs = [[0u8; N]; GROUP];
    for (group, out) in out.chunks_mut(GROUP).enumerate() {
        let start = group * GROUP;
        let group_slices = match messages.slices(start, out.len()) {
            Some(group_slices) => group_slices,
            None => {
                for (i, slice) in slices[..out.len()].iter_mut().enumerate() {
                    *slice = messages.message(start + i);
                }
                &slices[..out.len()]
            }
        };
        many(group_slices, &mut outputs[..out.len()]);
        for (digest, output) in out.iter_mut().zip(&outputs) {
            *digest = Digest::from_output(algorithm, output);
        }
    }
    Ok(())
}

/// Undocumented and unstable, for tests and benchmarks only: the MD5 of
/// each message into the same place of `out`, on `kernel` (`None`: the one
/// [`MbKernel::detect`] picks).
///
/// # Errors
///
/// When this machine cannot run `kernel`.
///
/// # Panics
///
/// If `out` and `messages` differ in length.
#[cfg(feature = "compat")]
#[doc(hidden)]
pub fn md5_many_on(kernel: Option<MbKernel>, messages: &[&[u8]], out: &mut [[u8; 16]]) -> Result<(), MbKernelError> {
    match kernel {
        None => md5::md5_many(messages, out),
        Some(kernel) => kernel.checked()?.md5_many(messages, out),
    }
    Ok(())
}

/// Undocumented and unstable, for tests and benchmarks only: the SHA-512
/// of each message into the same place of `out`, on `kernel` (`None`: the
/// one [`MbKernel::detect`] picks).
///
/// # Errors
///
/// When this machine cannot run `kernel`.
///
/// # Panics
///
/// If `out` and `messages` differ in length.
#[cfg(feature = "sha2")]
#[doc(hidden)]
pub fn sha512_many_on(kernel: Option<MbKernel>, messages: &[&[u8]], out: &mut [[u8; 64]]) -> Result<(), MbKernelError> {
    match kernel {
        None => sha512::sha512_many(messages, out),
        Some(kernel) => kernel.checked()?.sha512_many(messages, out),
    }
    Ok(())
}

/// Undocumented and unstable, for tests and benchmarks only: the SHA-1 of
/// each message into the same place of `out`, on `kernel` (`None`: the one
/// [`MbKernel::detect`] picks).
///
/// # Errors
///
/// When this machine cannot run `kernel`.
///
/// # Panics
///
/// If `out` and `messages` differ in length.
#[cfg(feature = "compat")]
#[doc(hidden)]
pub fn sha1_many_on(kernel: Option<MbKernel>, messages: &[&[u8]], out: &mut [[u8; 20]]) -> Result<(), MbKernelError> {
    match kernel {
        None => sha1::sha1_many(messages, out),
        Some(kernel) => kernel.checked()?.sha1_many(messages, out),
    }
    Ok(())
}

/// The streaming form (each undocumented and unstable, for tests,
/// benchmarks and the S3 code): several messages fed in pieces (the parts of
/// a multipart upload read side by side), their whole blocks hashed in SIMD
/// lanes as the pieces come. One type per algorithm, all over one scheduler
/// (`platform/mb_lanes.rs`).
macro_rules! streams {
    ($(#[$cfg:meta])* $name:ident, $inner:ty, $algorithm:literal, $out:literal) => {
        #[doc = concat!("Several ", $algorithm, " messages fed in pieces, hashed side by side (undocumented and unstable).")]
        $(#[$cfg])*
        #[doc(hidden)]
        #[derive(Clone, Debug)]
        pub struct $name($inner);

        $(#[$cfg])*
        impl $name {
            /// How many messages.
            pub fn count(&self) -> usize {
                self.0.count()
            }

            /// Appends `pieces[i]` to message `i` (an empty piece adds nothing).
            ///
            /// # Panics
            ///
            /// If `pieces` does not have one piece per message.
            pub fn update(&mut self, pieces: &[&[u8]]) {
                self.0.update(pieces);
            }

            #[doc = concat!("The ", $algorithm, " of each message so far into the same place of `out`; more")]
            /// pieces may follow.
            ///
            /// # Panics
            ///
            /// If `out` does not have one digest per message.
            pub fn finalize(&self, out: &mut [[u8; $out]]) {
                self.0.finalize(out);
            }
        }
    };
}

/// [`streams!`] for an algorithm of the [`MbKernel`]s, with its `new_on`.
macro_rules! mb_streams {
    (#[$cfg:meta] $name:ident, $inner:ty, $lanes:ident, $algorithm:literal, $out:literal) => {
        streams!(
            #[$cfg]
            $name,
            $inner,
            $algorithm,
            $out
        );

        #[$cfg]
        impl $name {
            /// `count` empty messages, hashed on `kernel` (`None`: the one
            /// [`MbKernel::detect`] picks).
            ///
            /// # Errors
            ///
            /// When this machine cannot run `kernel`.
            pub fn new_on(kernel: Option<MbKernel>, count: usize) -> Result<$name, MbKernelError> {
                let lanes = crate::platform::multi_buffer::$lanes(platform_of(kernel)?);
                Ok($name(crate::platform::mb_lanes::Streams::new(lanes, count)))
            }
        }
    };
}

mb_streams!(
    #[cfg(all(feature = "compat", feature = "alloc"))]
    Md5Streams,
    crate::platform::multi_buffer::Md5Streams,
    Md5Lanes,
    "MD5",
    16
);
mb_streams!(
    #[cfg(all(feature = "compat", feature = "alloc"))]
    Sha1Streams,
    crate::platform::multi_buffer::Sha1Streams,
    Sha1Lanes,
    "SHA-1",
    20
);
streams!(
    #[cfg(all(feature = "sha2", feature = "alloc"))]
    Sha256Streams,
    crate::platform::sha256::Sha256Streams,
    "SHA-256",
    32
);
mb_streams!(
    #[cfg(all(feature = "sha2", feature = "alloc"))]
    Sha512Streams,
    crate::platform::multi_buffer::Sha512Streams,
    Sha512Lanes,
    "SHA-512",
    64
);

/// The kernel `kernel` names, or the detected one for `None`.
#[cfg(all(any(feature = "sha2", feature = "compat"), feature = "alloc"))]
fn platform_of(kernel: Option<MbKernel>) -> Result<crate::platform::multi_buffer::MbPlatform, MbKernelError> {
    match kernel {
        None => Ok(crate::platform::multi_buffer::MbPlatform::detect()),
        Some(kernel) => kernel.checked(),
    }
}

#[cfg(all(feature = "sha2", feature = "alloc"))]
impl Sha256Streams {
    /// `count` empty messages, hashed on the SHA-256 kernel named `kernel`
    /// (`portable`, `shani`, `avx2`, `avx512`, as for
    /// [`sha256_many_on_kernel`]; `""`: the detected one, which
    /// `CHUNKHASH_SHA256_KERNEL` may force). The detected kernel is the
    /// one `digest_many` takes for long messages: the SHA extensions where
    /// the CPU has them.
    ///
    /// `None` when this machine cannot run `kernel` or no kernel has that
    /// name.
    pub fn new_on(kernel: &str, count: usize) -> Option<Sha256Streams> {
        use crate::platform::sha256::{Checked, Kernel, Sha256Lanes};
        let checked = match kernel {
            "" => Checked::detect(),
            name => Kernel::from_name(name).and_then(Kernel::checked)?,
        };
        Some(Sha256Streams(crate::platform::mb_lanes::Streams::new(Sha256Lanes(checked), count)))
    }
}
