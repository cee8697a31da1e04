//! The objects that describe snapshots: trees (directories), chunk lists
//! (long files) and snapshot roots. Each has one deterministic encoding,
//! given in the crate docs, and is stored by address like a chunk, so a
//! snapshot's root address commits to every byte of every file (a Merkle
//! tree). Decoding checks everything and never panics.

use crate::address::Address;
use crate::roots::GROUP_LOG;
use chunkhash::blake3::{Hash, OUT_LEN};

const TREE_TAG: u8 = b'T';
const LIST_TAG: u8 = b'L';
const SNAPSHOT_TAG: u8 = b'S';
const OBJECT_VERSION: u8 = 1;

/// Tree entry kinds of a regular file: without a recorded BLAKE3 root (the
/// only kind before roots were recorded), and with one.
const FILE: u8 = 0;
const FILE_WITH_ROOT: u8 = 3;

/// A file entry lists at most this many addresses itself; longer lists go
/// to chunk-list objects.
pub(crate) const INLINE_ADDRESSES: usize = 64;
/// Addresses per chunk-list object: 80 KiB of 20-byte addresses, a 256 MiB
/// file at the default chunk size.
pub(crate) const LIST_FANOUT: usize = 4096;
/// Levels of chunk lists: 4096^8 chunks is far beyond any file.
const MAX_LEVEL: u8 = 8;

/// What a file's bytes are: at level 0 the chunk addresses in order, at
/// level n the addresses of chunk lists of level n - 1.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Content {
    /// 0 for chunks.
    pub level: u8,
    /// The addresses.
    pub addresses: Vec<Address>,
}

/// A file's BLAKE3 root (the hash `b3sum` prints) and its Bao outboard
/// (`bao-tree`'s post-order outboard for chunk groups of 2^`group_log`
/// chunks, no header), stored in pieces like a file's chunks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileRoot {
    /// The root hash.
    pub root: Hash,
    /// Chunks per group, as a power of two.
    pub group_log: u8,
    /// The outboard's pieces.
    pub outboard: Content,
}

/// One entry of a tree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Node {
    /// A regular file.
    File {
        /// Permission bits.
        mode: u32,
        /// Bytes.
        size: u64,
        /// Its chunks.
        content: Content,
        /// Its BLAKE3 root and Bao outboard, when `put` recorded them.
        root: Option<FileRoot>,
    },
    /// A directory.
    Dir {
        /// Permission bits.
        mode: u32,
        /// Its tree's address.
        tree: Address,
    },
    /// A symbolic link, stored as the link itself.
    Symlink {
        /// The target, as bytes.
        target: Vec<u8>,
    },
}

/// A named entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The name: any bytes but `/` and NUL, not empty, `.` or `..`.
    pub name: Vec<u8>,
    /// What it is.
    pub node: Node,
}

/// A directory: entries sorted by name, names unique.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tree {
    /// The entries.
    pub entries: Vec<Entry>,
}

/// A snapshot's root object.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Snapshot {
    /// Seconds since the Unix epoch when `put` started.
    pub time: u64,
    /// The tree holding the inputs of `put`.
    pub tree: Address,
    /// Files in the snapshot.
    pub files: u64,
    /// Bytes of those files.
    pub bytes: u64,
}

/// Whether `name` may name a tree entry (restored safely under a directory).
pub fn is_valid_name(name: &[u8]) -> bool {
    !name.is_empty() && name != b"." && name != b".." && !name.contains(&b'/') && !name.contains(&0)
}

pub(crate) fn put_varint(out: &mut Vec<u8>, mut value: u64) {
    while value >= 0x80 {
        out.push(value as u8 | 0x80);
        value >>= 7;
    }
    out.push(value as u8);
}

/// Reads objects, failing with a message on anything unexpected.
pub(crate) struct Reader<'a> {
    pub(crate) bytes: &'a [u8],
    pub(crate) address_len: usize,
}

impl<'a> Reader<'a> {
    pub(crate) fn take(&mut self, n: usize) -> Result<&'a [u8], String> {
        if n > self.bytes.len() {
            return Err(format!("ends early: {n} bytes wanted, {} left", self.bytes.len()));
        }
        let (taken, rest) = self.bytes.split_at(n);
        self.bytes = rest;
        Ok(taken)
    }

    pub(crate) fn byte(&mut self) -> Result<u8, String> {
        Ok(self.take(1)?[0])
    }

    pub(crate) fn varint(&mut self) -> Result<u64, String> {
        let mut value = 0u64;
        for shift in (0..64).step_by(7) {
            let byte = self.byte()?;
            // The tenth byte holds bit 63 alone: more would be shifted out,
            // and the value read would not be the one encoded (found by the
            // store_objects fuzz target).
            if shift == 63 && byte > 1 {
                return Err("a number is longer than 64 bits".into());
            }
            value |= u64::from(byte & 0x7f) << shift;
            if byte & 0x80 == 0 {
                if shift > 0 && byte == 0 {
                    return Err("a number is not in its shortest form".into());
                }
                return Ok(value);
            }
        }
        Err("a number is longer than 64 bits".into())
    }

    fn address(&mut self) -> Result<Address, String> {
        Address::from_slice(self.take(self.address_len)?).ok_or_else(|| "empty address".into())
    }

    /// A count of items of at least `item_len` bytes each, checked against
    /// the bytes left so that no damaged count allocates much.
    fn count(&mut self, item_len: usize) -> Result<usize, String> {
        let count = self.varint()?;
        if count.saturating_mul(item_len.max(1) as u64) > self.bytes.len() as u64 {
            return Err(format!("claims {count} items, more than its bytes can hold"));
        }
        Ok(count as usize)
    }

    fn addresses(&mut self) -> Result<Vec<Address>, String> {
        let count = self.count(self.address_len)?;
        (0..count).map(|_| self.address()).collect()
    }

    fn header(&mut self, tag: u8, kind: &str) -> Result<(), String> {
        let found = self.byte()?;
        if found != tag {
            return Err(format!("not a {kind} object (tag {found:#04x})"));
        }
        let version = self.byte()?;
        if version != OBJECT_VERSION {
            return Err(format!("{kind} object of unknown version {version}"));
        }
        Ok(())
    }

    pub(crate) fn end(&self) -> Result<(), String> {
        if self.bytes.is_empty() {
            Ok(())
        } else {
            Err(format!("{} bytes after the end of the object", self.bytes.len()))
        }
    }

    fn mode(&mut self) -> Result<u32, String> {
        u32::try_from(self.varint()?).map_err(|_| "a file mode is larger than 32 bits".to_string())
    }
}

fn put_content(out: &mut Vec<u8>, level: u8, addresses: &[Address]) {
    out.push(level);
    put_varint(out, addresses.len() as u64);
    for address in addresses {
        out.extend_from_slice(address.as_bytes());
    }
}

fn read_root(reader: &mut Reader<'_>) -> Result<FileRoot, String> {
    let root = Hash::from(<[u8; OUT_LEN]>::try_from(reader.take(OUT_LEN)?).expect("took 32 bytes"));
    let group_log = reader.byte()?;
    if group_log != GROUP_LOG {
        return Err(format!(
            "a file root with chunk groups of 2^{group_log} chunks; this build reads 2^{GROUP_LOG} only"
        ));
    }
    Ok(FileRoot { root, group_log, outboard: read_content(reader)? })
}

fn read_content(reader: &mut Reader<'_>) -> Result<Content, String> {
    let level = reader.byte()?;
    if level > MAX_LEVEL {
        return Err(format!("chunk list level {level} is beyond {MAX_LEVEL}"));
    }
    Ok(Content { level, addresses: reader.addresses()? })
}

impl Tree {
    /// The encoding.
    pub fn encode(&self) -> Vec<u8> {
        let mut out = vec![TREE_TAG, OBJECT_VERSION];
        put_varint(&mut out, self.entries.len() as u64);
        for entry in &self.entries {
            put_varint(&mut out, entry.name.len() as u64);
            out.extend_from_slice(&entry.name);
            match &entry.node {
                Node::File { mode, size, content, root } => {
                    out.push(if root.is_some() { FILE_WITH_ROOT } else { FILE });
                    put_varint(&mut out, u64::from(*mode));
                    put_varint(&mut out, *size);
                    put_content(&mut out, content.level, &content.addresses);
                    if let Some(root) = root {
                        out.extend_from_slice(root.root.as_bytes());
                        out.push(root.group_log);
                        put_content(&mut out, root.outboard.level, &root.outboard.addresses);
                    }
                }
                Node::Dir { mode, tree } => {
                    out.push(1);
                    put_varint(&mut out, u64::from(*mode));
                    out.extend_from_slice(tree.as_bytes());
                }
                Node::Symlink { target } => {
                    out.push(2);
                    put_varint(&mut out, target.len() as u64);
                    out.extend_from_slice(target);
                }
            }
        }
        out
    }

    /// Decodes a tree of `address_len`-byte addresses.
    pub fn decode(bytes: &[u8], address_len: usize) -> Result<Tree, String> {
        let mut reader = Reader { bytes, address_len };
        reader.header(TREE_TAG, "tree")?;
        let count = reader.count(3)?;
        let mut entries: Vec<Entry> = Vec::with_capacity(count);
        for _ in 0..count {
            let name_len = reader.count(1)?;
            let name = reader.take(name_len)?.to_vec();
            if !is_valid_name(&name) {
                return Err(format!("entry name {:?} is not a plain file name", String::from_utf8_lossy(&name)));
            }
            if entries.last().is_some_and(|last| last.name >= name) {
                return Err("entries are not sorted by name, or a name repeats".into());
            }
            let node = match reader.byte()? {
                kind @ (FILE | FILE_WITH_ROOT) => {
                    let mode = reader.mode()?;
                    let size = reader.varint()?;
                    let content = read_content(&mut reader)?;
                    let root = if kind == FILE_WITH_ROOT { Some(read_root(&mut reader)?) } else { None };
                    Node::File { mode, size, content, root }
                }
                1 => Node::Dir { mode: reader.mode()?, tree: reader.address()? },
                2 => {
                    let len = reader.count(1)?;
                    Node::Symlink { target: reader.take(len)?.to_vec() }
                }
                kind => return Err(format!("unknown entry kind {kind}")),
            };
            entries.push(Entry { name, node });
        }
        reader.end()?;
        Ok(Tree { entries })
    }
}

impl Content {
    /// The encoding of a chunk-list object holding this content.
    pub fn encode_list(&self) -> Vec<u8> {
        let mut out = vec![LIST_TAG, OBJECT_VERSION];
        put_content(&mut out, self.level, &self.addresses);
        out
    }

    /// Decodes a chunk-list object.
    pub fn decode_list(bytes: &[u8], address_len: usize) -> Result<Content, String> {
        let mut reader = Reader { bytes, address_len };
        reader.header(LIST_TAG, "chunk list")?;
        let content = read_content(&mut reader)?;
        reader.end()?;
        Ok(content)
    }
}

impl Snapshot {
    /// The encoding.
    pub fn encode(&self) -> Vec<u8> {
        let mut out = vec![SNAPSHOT_TAG, OBJECT_VERSION];
        put_varint(&mut out, self.time);
        out.extend_from_slice(self.tree.as_bytes());
        put_varint(&mut out, self.files);
        put_varint(&mut out, self.bytes);
        out
    }

    /// Decodes a snapshot root.
    pub fn decode(bytes: &[u8], address_len: usize) -> Result<Snapshot, String> {
        let mut reader = Reader { bytes, address_len };
        reader.header(SNAPSHOT_TAG, "snapshot")?;
        let snapshot = Snapshot {
            time: reader.varint()?,
            tree: reader.address()?,
            files: reader.varint()?,
            bytes: reader.varint()?,
        };
        reader.end()?;
        Ok(snapshot)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn address(n: u8) -> Address {
        Address::from_slice(&[n; 20]).unwrap()
    }

    fn tree() -> Tree {
        let content = Content { level: 0, addresses: vec![address(1), address(2)] };
        Tree {
            entries: vec![
                Entry { name: b"a file".to_vec(), node: Node::File { mode: 0o644, size: 300, content, root: None } },
                Entry {
                    name: b"b file".to_vec(),
                    node: Node::File {
                        mode: 0o600,
                        size: 40_000,
                        content: Content { level: 0, addresses: vec![address(5)] },
                        root: Some(FileRoot {
                            root: Hash::from([7; 32]),
                            group_log: GROUP_LOG,
                            outboard: Content { level: 0, addresses: vec![address(6)] },
                        }),
                    },
                },
                Entry { name: b"dir".to_vec(), node: Node::Dir { mode: 0o755, tree: address(3) } },
                Entry { name: b"link\xff".to_vec(), node: Node::Symlink { target: b"../x".to_vec() } },
            ],
        }
    }

    #[test]
    fn objects_round_trip() {
        assert_eq!(Tree::decode(&tree().encode(), 20).unwrap(), tree());
        let list = Content { level: 1, addresses: vec![address(9); 300] };
        assert_eq!(Content::decode_list(&list.encode_list(), 20).unwrap(), list);
        let snapshot = Snapshot { time: 1_700_000_000, tree: address(4), files: 3, bytes: 1 << 40 };
        assert_eq!(Snapshot::decode(&snapshot.encode(), 20).unwrap(), snapshot);
    }

    #[test]
    fn every_truncation_and_most_flips_are_refused_without_panic() {
        let bytes = tree().encode();
        for cut in 0..bytes.len() {
            assert!(Tree::decode(&bytes[..cut], 20).is_err(), "cut at {cut}");
        }
        // A flipped byte may still decode (inside an address, a name), but
        // never panics; the record's trailer and address catch those.
        for flip in 0..bytes.len() {
            for bit in 0..8 {
                let mut damaged = bytes.clone();
                damaged[flip] ^= 1 << bit;
                let _ = Tree::decode(&damaged, 20);
                let _ = Content::decode_list(&damaged, 20);
                let _ = Snapshot::decode(&damaged, 20);
            }
        }
    }

    #[test]
    fn numbers_past_64_bits_are_refused() {
        // The store_objects fuzz target's find: a tenth varint byte of 0x13
        // lost its high bits and decoded as u64::MAX's neighbour.
        let mut max = Vec::new();
        put_varint(&mut max, u64::MAX);
        assert_eq!(max.len(), 10);
        assert_eq!(Reader { bytes: &max, address_len: 20 }.varint(), Ok(u64::MAX));
        for last in [0x02, 0x13, 0x7f] {
            let mut long = max.clone();
            long[9] = last;
            assert!(Reader { bytes: &long, address_len: 20 }.varint().is_err(), "{last:#x}");
        }
        let snapshot = Snapshot { time: 1, tree: address(4), files: u64::MAX, bytes: 0 };
        let mut bytes = snapshot.encode();
        let at = bytes.len() - 2; // the last byte of `files`, before `bytes`' one byte
        assert_eq!(bytes[at], 1);
        bytes[at] = 0x13;
        assert!(Snapshot::decode(&bytes, 20).is_err());
    }

    #[test]
    fn file_roots_of_another_group_size_are_refused() {
        let mut bytes = tree().encode();
        // The group log follows the root, the 32 bytes of 7.
        let at = bytes.windows(32).position(|w| w == [7; 32]).unwrap() + 32;
        assert_eq!(bytes[at], GROUP_LOG);
        bytes[at] = 0;
        let error = Tree::decode(&bytes, 20).unwrap_err();
        assert!(error.contains("chunk groups of 2^0 chunks"), "{error}");
    }

    #[test]
    fn unsafe_names_are_refused() {
        for name in [&b""[..], b".", b"..", b"a/b", b"a\0"] {
            let mut tree = tree();
            tree.entries[0].name = name.to_vec();
            assert!(Tree::decode(&tree.encode(), 20).is_err(), "{name:?}");
        }
    }
}
