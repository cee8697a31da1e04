//! Where a store's files live, behind one small trait: the store never
//! knows whether its bytes are in a directory or in an object store
//! (the `s3` module, feature `s3`).
//!
//! Every file but one is written whole and never changed: packs, index files
//! and snapshot pointers are named by their content, and the manifest is
//! written once. The one exception is the pack being filled, which is
//! appended to in a local staging directory and then published under its
//! content name. This is what lets an object store (S3 and the like, which
//! has no append and no rename) hold a store; see the crate docs.
//!
//! An object store verifies each upload by a checksum the store computes:
//! [`Location::upload_checksum`] names the kind and part size, the pack
//! writer computes it ([`upload::PartSums`]) in the loop that writes and
//! seals the records, and [`Location::publish`] gets the result. How the S3
//! location sends it (single PUT or multipart) and checks it on download is
//! in the `s3` module.

mod counting;
mod directory;
pub mod fs;
#[cfg(feature = "s3")]
pub mod http;
#[cfg(feature = "s3")]
pub mod s3;
pub mod sim;
pub mod upload;

pub use counting::Counting;
#[doc(hidden)]
pub use directory::InjectedFault;
pub use directory::{Directory, LOCK_FILE};
#[cfg(feature = "s3")]
pub use s3::S3;
pub use upload::{ObjectSums, UploadChecksum};

use std::fmt::Debug;
use std::io;
use std::path::Path;

/// A held writer lock; dropping it releases the lock.
pub type WriterLock = Box<dyn Debug + Send + Sync>;

/// A place that holds a store's files, named by `/`-separated relative
/// names such as `packs/NAME.pack`.
pub trait Location: Debug + Send + Sync {
    /// Where it is, for messages: a path or a URL.
    fn describe(&self, name: &str) -> String;

    /// A whole file.
    fn read(&self, name: &str) -> io::Result<Vec<u8>>;

    /// `buf.len()` bytes from `offset`; an `UnexpectedEof` error when the
    /// file is shorter.
    fn read_at(&self, name: &str, offset: u64, buf: &mut [u8]) -> io::Result<()>;

    /// A file's length in bytes.
    fn len(&self, name: &str) -> io::Result<u64>;

    /// The names in `folder`, sorted, without the folder; an empty list when
    /// the folder does not exist.
    fn list(&self, folder: &str) -> io::Result<Vec<String>>;

    /// Writes a whole file atomically: afterwards it is there complete, and
    /// before it is not there at all; with `fsync`, it survives a crash or
    /// power cut once this returns. Replaces a file of the same name.
    fn write(&self, name: &str, bytes: &[u8], fsync: bool) -> io::Result<()>;

    /// Writes a whole file that must not exist yet, as [`write`](Location::write)
    /// does otherwise: an `AlreadyExists` error when it does, and the file
    /// there is left as it was (a conditional PUT on S3, a hard link on
    /// disk). For the manifest and the snapshot pointers.
    fn write_new(&self, name: &str, bytes: &[u8], fsync: bool) -> io::Result<()>;

    /// The upload checksum [`publish`](Location::publish) takes for a
    /// staged pack (an object store's), so the pack writer computes it as
    /// it writes the records; `None` when the location wants none.
    fn upload_checksum(&self) -> Option<UploadChecksum> {
        None
    }

    /// Publishes a file finished in [`staging`](Location::staging) under
    /// `name`, atomically and (with `fsync`) durably; the staged file is
    /// gone afterwards. `sums` is the file's upload checksum when the
    /// writer computed it (see [`upload_checksum`](Location::upload_checksum)).
    fn publish(&self, staged: &Path, name: &str, sums: Option<ObjectSums>, fsync: bool) -> io::Result<()>;

    /// Removes a file; not an error when it is already gone.
    fn remove(&self, name: &str) -> io::Result<()>;

    /// Removes the temporary files of writes a crash interrupted (they are
    /// never listed, so this only frees space). Run by the writer.
    fn remove_temporaries(&self) -> io::Result<()>;

    /// A local directory for the pack being filled, on the same file system
    /// as the files when the location is a directory (so publishing is a
    /// rename).
    fn staging(&self) -> &Path;

    /// The file system the [`staging`](Location::staging) directory is on:
    /// the pack being filled is written, read back, cut and removed there.
    /// The local one unless the location simulates its own.
    fn staging_fs(&self) -> &dyn fs::Fs {
        &fs::RealFs
    }

    /// Takes the writer lock without waiting: `Ok(Err(holder))` when
    /// another process holds it, with what is known of the holder.
    fn try_lock(&self) -> io::Result<Result<WriterLock, String>>;
}
