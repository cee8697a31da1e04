//! Many messages hashed in one call across SIMD lanes ("multi-buffer"
//! hashing, issue 34): MD5, SHA-1 and SHA-512 of independent messages side
//! by side, for the formats that cannot change their hash (S3 ETags and
//! checksums of multipart parts, md5sum and sha1sum files, SHA-512/160
//! addresses).
//!
//! Each algorithm's module gives `<algorithm>_many(messages, out)`, which
//! runs the best kernel this machine has (`crate::platform::multi_buffer`
//! decides and holds every kernel). The functions below force a kernel,
//! for tests and benchmarks; [`Md5Streams`] takes several MD5 messages in
//! pieces (the parts of a multipart upload read side by side).

#[cfg(feature = "compat")]
pub(crate) mod md5;
#[cfg(feature = "compat")]
pub(crate) mod sha1;
#[cfg(feature = "sha2")]
pub(crate) mod sha512;

#[cfg(test)]
mod tests;

pub use crate::platform::multi_buffer::{MbKernel, MbKernelError};

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

/// Undocumented and unstable, for tests, benchmarks and the S3 code: several
/// MD5 messages fed in pieces (the parts of a multipart upload read side by
/// side), their whole blocks hashed in SIMD lanes as the pieces come.
#[cfg(all(feature = "compat", feature = "alloc"))]
#[doc(hidden)]
#[derive(Clone, Debug)]
pub struct Md5Streams(crate::platform::multi_buffer::Md5Streams);

#[cfg(all(feature = "compat", feature = "alloc"))]
impl Md5Streams {
    /// `count` empty messages, hashed on `kernel` (`None`: the one
    /// [`MbKernel::detect`] picks).
    ///
    /// # Errors
    ///
    /// When this machine cannot run `kernel`.
    pub fn new_on(kernel: Option<MbKernel>, count: usize) -> Result<Md5Streams, MbKernelError> {
        let platform = match kernel {
            None => crate::platform::multi_buffer::MbPlatform::detect(),
            Some(kernel) => kernel.checked()?,
        };
        Ok(Md5Streams(crate::platform::multi_buffer::Md5Streams::new(platform, count)))
    }

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

    /// The MD5 of each message so far into the same place of `out`; more
    /// pieces may follow.
    ///
    /// # Panics
    ///
    /// If `out` does not have one digest per message.
    pub fn finalize(&self, out: &mut [[u8; 16]]) {
        self.0.finalize(out);
    }
}
