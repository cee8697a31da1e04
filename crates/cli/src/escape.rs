//! File names in checksum lines, escaped the way coreutils 9, b3sum 1.8.7
//! and xxhsum 0.8.2+ do it: a name holding a backslash, a newline or a
//! carriage return is written with `\\`, `\n` and `\r`, and the whole line
//! starts with one backslash so that `--check` knows to unescape. The CLI
//! tests compare with sha256sum 9.1 and b3sum.

use std::borrow::Cow;
use std::path::{Path, PathBuf};

/// The bytes of a path as a checksum line shows them: the raw bytes on Unix
/// (as coreutils prints them), UTF-8 with replacement characters elsewhere.
pub fn path_bytes(path: &Path) -> Cow<'_, [u8]> {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        Cow::Borrowed(path.as_os_str().as_bytes())
    }
    #[cfg(not(unix))]
    {
        match path.to_string_lossy() {
            Cow::Borrowed(text) => Cow::Borrowed(text.as_bytes()),
            Cow::Owned(text) => Cow::Owned(text.into_bytes()),
        }
    }
}

/// The path named by the bytes of a checksum line; `None` when this platform
/// cannot name it (invalid UTF-8 outside Unix).
pub fn bytes_to_path(bytes: &[u8]) -> Option<PathBuf> {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        Some(PathBuf::from(std::ffi::OsStr::from_bytes(bytes)))
    }
    #[cfg(not(unix))]
    {
        std::str::from_utf8(bytes).ok().map(PathBuf::from)
    }
}

/// Whether a name must be escaped in a `sum` line.
pub fn needs_escape(name: &[u8]) -> bool {
    name.iter().any(|&b| matches!(b, b'\\' | b'\n' | b'\r'))
}

/// `\\`, `\n` and `\r` for backslash, newline and carriage return; other
/// bytes unchanged.
pub fn escape(name: &[u8]) -> Cow<'_, [u8]> {
    if !needs_escape(name) {
        return Cow::Borrowed(name);
    }
    let mut out = Vec::with_capacity(name.len() + 8);
    for &b in name {
        match b {
            b'\\' => out.extend_from_slice(b"\\\\"),
            b'\n' => out.extend_from_slice(b"\\n"),
            b'\r' => out.extend_from_slice(b"\\r"),
            _ => out.push(b),
        }
    }
    Cow::Owned(out)
}

/// Undoes [`escape`]. `None` for any other backslash sequence or a trailing
/// lone backslash: such a line is malformed, as in coreutils, xxhsum and b3sum.
pub fn unescape(escaped: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(escaped.len());
    let mut bytes = escaped.iter();
    while let Some(&b) = bytes.next() {
        if b != b'\\' {
            out.push(b);
            continue;
        }
        match bytes.next()? {
            b'\\' => out.push(b'\\'),
            b'n' => out.push(b'\n'),
            b'r' => out.push(b'\r'),
            _ => return None,
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_round_trip() {
        for name in [&b"plain"[..], b"a\\b", b"x\ny", b"c\rd", b"\\\n\r\\", b""] {
            let escaped = escape(name);
            assert_eq!(needs_escape(name), matches!(escaped, Cow::Owned(_)));
            assert_eq!(unescape(&escaped).as_deref(), Some(name));
        }
        assert_eq!(&*escape(b"x\ny\\z\r"), b"x\\ny\\\\z\\r");
    }

    #[test]
    fn unknown_sequences_are_rejected() {
        assert_eq!(unescape(b"a\\tb"), None);
        assert_eq!(unescape(b"trailing\\"), None);
        assert_eq!(unescape(b"a\\\\b").as_deref(), Some(&b"a\\b"[..]));
    }
}
