//! The store's error type: one variant per way things go wrong, each saying
//! what and where.

use crate::address::Address;
use chunkhash::Algorithm;
use std::fmt;
use std::io;
use std::path::PathBuf;

/// What went wrong. Messages are lowercase, name the file, object or value
/// involved, and have no trailing period.
#[derive(Debug)]
#[non_exhaustive]
pub enum Error {
    /// Occurs when reading or writing a file fails for a reason of the
    /// operating system (permissions, a full disk, a vanished file).
    Io {
        /// What was being done: "reading", "writing", ...
        action: &'static str,
        /// The file or object involved.
        path: PathBuf,
        /// The system's error.
        source: io::Error,
    },
    /// Occurs when a directory has no manifest: it is not a store, or
    /// `init` never finished.
    NotAStore(PathBuf),
    /// Occurs when `init` is given a directory that already holds a store
    /// or other files.
    AlreadyExists(PathBuf),
    /// Occurs when the manifest cannot be read as one: garbage, a wrong
    /// checksum, a missing or unknown field.
    BadManifest {
        /// The manifest file.
        path: PathBuf,
        /// What is wrong with it.
        reason: String,
    },
    /// Occurs when the manifest names a format version this build does not
    /// know (a store written by a newer chunkhash).
    UnknownFormatVersion {
        /// The version in the manifest.
        found: u64,
        /// The version this build reads and writes.
        supported: u32,
    },
    /// Occurs when the caller expected one address algorithm and the store
    /// uses another.
    UnexpectedAlgorithm {
        /// What the caller asked for.
        expected: Algorithm,
        /// What the manifest says.
        found: Algorithm,
    },
    /// Occurs when an algorithm cannot serve the purpose asked of it (an
    /// address must be a cryptographic hash the store offers).
    UnsupportedAlgorithm {
        /// The algorithm.
        algorithm: Algorithm,
        /// Why not.
        reason: &'static str,
    },
    /// Occurs when chunker settings are out of range or out of order.
    BadSettings(String),
    /// Occurs when another process holds the writer lock.
    Locked {
        /// The lock file.
        path: PathBuf,
        /// What the lock file says about its holder.
        holder: String,
    },
    /// Occurs when no snapshot has the given address (or prefix).
    SnapshotNotFound(String),
    /// Occurs when a snapshot prefix matches several snapshots.
    AmbiguousSnapshot(String),
    /// Occurs when a text is not a valid address for this store.
    BadAddress(String),
    /// Occurs when an address is not in the index: a chunk a snapshot
    /// needs is missing from the store.
    MissingObject(Address),
    /// Occurs when stored bytes fail a check: a trailer, an address, a
    /// record's structure, an object's encoding, a pack that is gone.
    Corrupt {
        /// What was being read: "chunk ADDRESS in packs/NAME at offset N", ...
        what: String,
        /// What is wrong with it.
        reason: String,
    },
    /// Occurs when a file changed while `put` read it; the snapshot is not
    /// written.
    FileChanged {
        /// The file.
        path: PathBuf,
        /// What changed.
        reason: String,
    },
    /// Occurs when an input of `put` cannot be stored (two inputs with the
    /// same name, a name that is too long, a special file given by name).
    BadInput {
        /// The input.
        path: PathBuf,
        /// Why.
        reason: String,
    },
    /// Occurs when a ranged read cannot be served: no such file in the
    /// snapshot, a file stored without a BLAKE3 root, a range that starts
    /// past the file's end or ends before it starts.
    BadRange {
        /// The path inside the snapshot.
        path: String,
        /// Why.
        reason: String,
    },
    /// Occurs when `get` is given a destination that already exists and is
    /// not an empty directory.
    DestinationExists(PathBuf),
    /// Occurs when a map edit cannot be stored: a key or value longer than
    /// a map holds.
    BadMapInput(String),
}

/// The store's result type.
pub type Result<T, E = Error> = std::result::Result<T, E>;

impl Error {
    /// An I/O error on `path` while doing `action`.
    pub(crate) fn io(action: &'static str, path: impl Into<PathBuf>, source: io::Error) -> Error {
        Error::Io { action, path: path.into(), source }
    }

    /// A check that failed on stored bytes.
    pub(crate) fn corrupt(what: impl Into<String>, reason: impl Into<String>) -> Error {
        Error::Corrupt { what: what.into(), reason: reason.into() }
    }

    /// Whether the error says the stored data is damaged or incomplete (as
    /// opposed to a usage problem or an unreadable input). The command line
    /// exits 1 for these, as for a checksum mismatch.
    pub fn is_damage(&self) -> bool {
        matches!(self, Error::Corrupt { .. } | Error::MissingObject(_) | Error::BadManifest { .. })
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Io { action, path, source } => write!(f, "{}: {action}: {}", path.display(), io_message(source)),
            Error::NotAStore(path) => {
                write!(f, "{}: not a chunk store (no manifest; create one with `chunkhash store init`)", path.display())
            }
            Error::AlreadyExists(path) => {
                write!(f, "{}: already exists and is not empty; a store is created in a new or empty directory", path.display())
            }
            Error::BadManifest { path, reason } => write!(f, "{}: not a valid store manifest: {reason}", path.display()),
            Error::UnknownFormatVersion { found, supported } => write!(
                f,
                "store format version {found} is unknown to this chunkhash, which reads version {supported} (a newer chunkhash wrote it)"
            ),
            Error::UnexpectedAlgorithm { expected, found } => {
                write!(f, "the store addresses chunks with {found}, not {expected} as expected")
            }
            Error::UnsupportedAlgorithm { algorithm, reason } => write!(f, "{algorithm} cannot be used here: {reason}"),
            Error::BadSettings(reason) => write!(f, "bad chunker settings: {reason}"),
            Error::Locked { path, holder } => write!(
                f,
                "{}: another writer is using the store ({holder}); one writer at a time, readers need no lock",
                path.display()
            ),
            Error::SnapshotNotFound(name) => write!(f, "no snapshot {name} in the store"),
            Error::AmbiguousSnapshot(name) => write!(f, "{name} matches several snapshots; give more digits"),
            Error::BadAddress(reason) => write!(f, "{reason}"),
            Error::MissingObject(address) => write!(f, "object {address} is not in the store"),
            Error::Corrupt { what, reason } => write!(f, "{what}: {reason}"),
            Error::FileChanged { path, reason } => write!(
                f,
                "{}: changed while it was read ({reason}); the snapshot was not written, run put again",
                path.display()
            ),
            Error::BadInput { path, reason } => write!(f, "{}: {reason}", path.display()),
            Error::BadRange { path, reason } => write!(f, "{path}: {reason}"),
            Error::BadMapInput(reason) => write!(f, "map edit refused: {reason}"),
            Error::DestinationExists(path) => {
                write!(f, "{}: already exists and is not an empty directory; get restores into a new one", path.display())
            }
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Io { source, .. } => Some(source),
            _ => None,
        }
    }
}

/// An I/O error as coreutils words it: "No such file or directory", without
/// Rust's " (os error 2)" suffix. The `chunkhash` command words its own
/// messages with it too, so the store's and the command's read alike.
pub fn io_message(error: &io::Error) -> String {
    let text = error.to_string();
    match text.rfind(" (os error ") {
        Some(end) if error.raw_os_error().is_some() => text[..end].to_string(),
        _ => text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn io_messages_drop_the_os_error_suffix() {
        let error = io::Error::from_raw_os_error(2);
        assert_eq!(io_message(&error), "No such file or directory");
        let custom = io::Error::other("Is a directory (os error 21)");
        assert_eq!(io_message(&custom), "Is a directory (os error 21)");
    }
}
