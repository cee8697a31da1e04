//! The hashes of Hugging Face's Xet storage: chunk, xorb, file and term
//! verification hashes, equal to those `hf_xet` (the `hf-xet` wheel) and
//! xet-core compute.
//!
//! As the Xet specification's "Hashing" page defines them (xet-core's
//! `spec/hashing.md`, now <https://huggingface.co/docs/xet/hashing>), all
//! keyed BLAKE3 with 32-byte outputs:
//!
//! - a **chunk hash** is the keyed hash of a chunk's bytes under
//!   [`DATA_KEY`] ([`chunk_hash`]), the chunks cut by
//!   [`Cdc::xet`](crate::cdc::Cdc::xet);
//! - a **xorb hash** is the root of a Merkle tree over a xorb's chunk
//!   hashes and sizes ([`MerkleTree`], [`xorb_hash`]): each level cuts the
//!   list of nodes into groups of 2 to 9 (a group ends after a node whose
//!   hash is 0 modulo 4, from its third node on, or at its ninth), and a
//!   group's parent is the keyed hash under [`INTERNAL_NODE_KEY`] of one
//!   line `"{hash} : {size}\n"` per node, its size the sum of theirs, until
//!   one node is left;
//! - a **file hash** is the keyed hash of that root (over all the file's
//!   chunks) under the all-zero key, and all zeros for an empty file
//!   ([`file_hash`], [`FileHasher`]);
//! - a **term verification hash** is the keyed hash under
//!   [`VERIFICATION_KEY`] of a range of chunk hashes, concatenated
//!   ([`term_verification_hash`]).
//!
//! Hashes print in Xet's string form (the one `hf_xet.hash_files` returns
//! and the Hub shows): each 8-byte group of the hash as a little-endian
//! `u64` in hex, so each group's bytes come out reversed.
//!
//! ```
//! use chunkhash::xet;
//!
//! let data = vec![7u8; 300_000];
//! let hash = xet::file_hash(&data);
//!
//! let mut hasher = xet::FileHasher::new();
//! for piece in data.chunks(10_000) {
//!     hasher.update(piece);
//! }
//! assert_eq!(hasher.finalize(), hash);
//! assert_eq!(xet::file_hash(b"").to_string(), "0".repeat(64));
//! ```

use core::fmt;

use arrayvec::ArrayVec;

use crate::blake3::{self, Batch};
use crate::cdc::{Cdc, Chunker};
use crate::hex::{HexError, HexString};

/// The key of chunk hashes (the specification's `DATA_KEY`).
pub const DATA_KEY: [u8; 32] = [
    102, 151, 245, 119, 91, 149, 80, 222, 49, 53, 203, 172, 165, 151, 24, 28, 157, 228, 33, 16, 155, 235, 43, 88, 180,
    208, 176, 75, 147, 173, 242, 41,
];

/// The key of the Merkle tree's inner nodes (`INTERNAL_NODE_KEY`).
pub const INTERNAL_NODE_KEY: [u8; 32] = [
    1, 126, 197, 199, 165, 71, 41, 150, 253, 148, 102, 102, 180, 138, 2, 230, 93, 221, 83, 111, 55, 199, 109, 210, 248,
    99, 82, 230, 74, 83, 113, 63,
];

/// The key of term verification hashes (`VERIFICATION_KEY`).
pub const VERIFICATION_KEY: [u8; 32] = [
    127, 24, 87, 214, 206, 86, 237, 102, 18, 127, 249, 19, 231, 165, 195, 243, 164, 205, 38, 213, 181, 219, 73, 230,
    65, 36, 152, 127, 40, 251, 148, 195,
];

/// The key a file hash re-hashes the tree's root with.
const FILE_KEY: [u8; 32] = [0; 32];

/// A Xet hash: 32 bytes, printed in Xet's string form.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct Hash([u8; 32]);

impl Hash {
    /// Wraps the raw bytes (as BLAKE3 returns them).
    pub const fn from_bytes(bytes: [u8; 32]) -> Hash {
        Hash(bytes)
    }

    /// The raw bytes.
    pub const fn as_bytes(&self) -> &[u8; 32] {
        &self.0
    }

    /// Xet's string form: 64 lowercase hex digits, each 8-byte group of
    /// the bytes reversed (a little-endian `u64` printed in hex).
    pub fn to_hex(&self) -> HexString<64> {
        HexString::encode(&swap_groups(self.0))
    }

    /// Parses Xet's string form (64 hex digits, either case).
    pub fn from_hex(hex: impl AsRef<str>) -> Result<Hash, HexError> {
        let mut bytes = [0; 32];
        crate::hex::decode_into(hex.as_ref(), &mut bytes)?;
        Ok(Hash(swap_groups(bytes)))
    }

    /// The tree's cut rule reads the last 8 bytes as a little-endian `u64`
    /// (xet-core's `hash % 4`): its low bits are those of byte 24.
    fn is_group_end(&self) -> bool {
        self.0[24].is_multiple_of(4)
    }
}

/// Reverses the bytes of each 8-byte group (its own inverse).
fn swap_groups(mut bytes: [u8; 32]) -> [u8; 32] {
    for group in bytes.chunks_exact_mut(8) {
        group.reverse();
    }
    bytes
}

impl From<[u8; 32]> for Hash {
    fn from(bytes: [u8; 32]) -> Hash {
        Hash(bytes)
    }
}

impl From<blake3::Hash> for Hash {
    fn from(hash: blake3::Hash) -> Hash {
        Hash(*hash.as_bytes())
    }
}

impl fmt::Display for Hash {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_hex())
    }
}

impl fmt::Debug for Hash {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "xet::Hash({})", self.to_hex())
    }
}

/// The chunk hash of a chunk's bytes.
pub fn chunk_hash(chunk: &[u8]) -> Hash {
    blake3::keyed_hash(&DATA_KEY, chunk).into()
}

/// A batch hasher of chunk hashes (keyed BLAKE3 under [`DATA_KEY`]), for
/// [`Cdc::chunk_and_hash`].
pub fn chunk_batch() -> Batch {
    Batch::new_keyed(&DATA_KEY)
}

/// The term verification hash of a range of a xorb's chunk hashes.
pub fn term_verification_hash(chunk_hashes: &[Hash]) -> Hash {
    let mut hasher = blake3::Hasher::new_keyed(&VERIFICATION_KEY);
    for hash in chunk_hashes {
        hasher.update(hash.as_bytes());
    }
    hasher.finalize().into()
}

/// The xorb hash of chunks given as (chunk hash, size) pairs, in order:
/// the root of their [`MerkleTree`] (all zeros for none).
pub fn xorb_hash(chunks: &[(Hash, u64)]) -> Hash {
    let mut tree = MerkleTree::new();
    for &(hash, size) in chunks {
        tree.push(hash, size);
    }
    tree.root()
}

/// The file hash of a whole file's bytes.
pub fn file_hash(data: &[u8]) -> Hash {
    let mut tree = MerkleTree::new();
    Cdc::xet().chunk_and_hash(data, &chunk_batch(), |chunk, hash: blake3::Hash| {
        tree.push(hash.into(), chunk.length as u64);
    });
    tree.file_hash()
}

/// [`file_hash`] on all threads of the current rayon pool (the same hash):
/// chunks found and hashed in segments side by side, see
/// [`Cdc::chunk_and_hash_parallel`].
#[cfg(feature = "parallel")]
pub fn file_hash_parallel(data: &[u8]) -> Hash {
    let mut tree = MerkleTree::new();
    for (chunk, hash) in Cdc::xet().chunk_and_hash_parallel::<blake3::Hash>(data, &chunk_batch()) {
        tree.push(hash.into(), chunk.length as u64);
    }
    tree.file_hash()
}

/// Most groups a level of the tree holds at once: a group closes at its
/// ninth node.
const MAX_GROUP: usize = 9;

/// Levels a tree can have. Every group but a level's last has at least
/// three nodes, so a level of `n > 1` nodes has at most `n / 3 + 1`
/// parents; from `n < 2^64` that reaches one node in under 44 levels.
const MAX_LEVELS: usize = 44;

/// One node: a hash and the bytes under it.
type Node = (Hash, u64);

/// Xet's Merkle tree over a sequence of (hash, size) leaves, built as they
/// come: each level keeps only its open group (at most 9 nodes), so the
/// tree takes constant memory (about 16 KiB, inline) however many leaves.
#[derive(Clone)]
pub struct MerkleTree {
    /// The open group of each level, bottom first.
    open: [ArrayVec<Node, MAX_GROUP>; MAX_LEVELS],
    /// Nodes each level received so far.
    received: [u64; MAX_LEVELS],
}

impl Default for MerkleTree {
    fn default() -> MerkleTree {
        MerkleTree::new()
    }
}

impl fmt::Debug for MerkleTree {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("MerkleTree").field("leaves", &self.received[0]).finish_non_exhaustive()
    }
}

impl MerkleTree {
    /// An empty tree.
    pub fn new() -> MerkleTree {
        MerkleTree { open: core::array::from_fn(|_| ArrayVec::new()), received: [0; MAX_LEVELS] }
    }

    /// How many leaves were pushed.
    pub fn len(&self) -> u64 {
        self.received[0]
    }

    /// Whether no leaf was pushed.
    pub fn is_empty(&self) -> bool {
        self.received[0] == 0
    }

    /// Adds the next leaf: a chunk's hash and size.
    pub fn push(&mut self, hash: Hash, size: u64) {
        let mut node = (hash, size);
        for level in 0..MAX_LEVELS {
            let open = &mut self.open[level];
            open.push(node);
            self.received[level] += 1;
            let closes = (open.len() >= 3 && node.0.is_group_end()) || open.is_full();
            if !closes {
                return;
            }
            node = parent(open);
            open.clear();
        }
        unreachable!("a Xet tree of fewer than 2^64 leaves has fewer than {MAX_LEVELS} levels");
    }

    /// The root: the xorb hash of the leaves, all zeros for none.
    pub fn root(&self) -> Hash {
        if self.is_empty() {
            return Hash::default();
        }
        // Every open group is the last group of its level: each closes
        // with the parent carried up from below (at most one node more),
        // and the first level to have held a single node is the root's.
        let mut carried: Option<Node> = None;
        for level in 0..MAX_LEVELS {
            // At most 8 open nodes (a ninth closes the group) and one carried.
            let mut group: ArrayVec<Node, MAX_GROUP> = self.open[level].iter().copied().collect();
            group.extend(carried);
            if self.received[level] + u64::from(carried.is_some()) == 1 {
                return group[0].0;
            }
            carried = (!group.is_empty()).then(|| parent(&group));
        }
        unreachable!("a Xet tree of fewer than 2^64 leaves has fewer than {MAX_LEVELS} levels");
    }

    /// The file hash of the leaves: the root re-hashed under the all-zero
    /// key, all zeros for none.
    pub fn file_hash(&self) -> Hash {
        if self.is_empty() {
            return Hash::default();
        }
        blake3::keyed_hash(&FILE_KEY, self.root().as_bytes()).into()
    }
}

/// The parent of a group: the keyed hash of one `"{hash} : {size}\n"`
/// line per node, over the sum of their sizes.
fn parent(group: &[Node]) -> Node {
    // 64 hex digits, " : ", at most 20 decimal digits and "\n" a line.
    let mut text = [0u8; MAX_GROUP * 88];
    let mut len = 0;
    let mut total = 0u64;
    for (hash, size) in group {
        let mut put = |bytes: &[u8]| {
            text[len..len + bytes.len()].copy_from_slice(bytes);
            len += bytes.len();
        };
        put(hash.to_hex().as_bytes());
        put(b" : ");
        let mut digits = [0u8; 20];
        put(decimal(*size, &mut digits));
        put(b"\n");
        total = total.wrapping_add(*size);
    }
    (blake3::keyed_hash(&INTERNAL_NODE_KEY, &text[..len]).into(), total)
}

/// `value` in decimal, written at the end of `buf`.
fn decimal(mut value: u64, buf: &mut [u8; 20]) -> &[u8] {
    let mut at = buf.len();
    loop {
        at -= 1;
        buf[at] = b'0' + (value % 10) as u8;
        value /= 10;
        if value == 0 {
            return &buf[at..];
        }
    }
}

/// The file hash of a file fed in pieces of any size: the same as
/// [`file_hash`] over the whole file, in constant memory.
#[derive(Clone, Debug)]
pub struct FileHasher {
    chunker: Chunker,
    /// The chunk hash of the bytes of the open chunk read so far.
    chunk: blake3::Hasher,
    tree: MerkleTree,
}

impl Default for FileHasher {
    fn default() -> FileHasher {
        FileHasher::new()
    }
}

impl FileHasher {
    /// A hasher at the start of a file.
    pub fn new() -> FileHasher {
        FileHasher {
            chunker: Chunker::new(Cdc::xet()),
            chunk: blake3::Hasher::new_keyed(&DATA_KEY),
            tree: MerkleTree::new(),
        }
    }

    /// Reads the next bytes of the file.
    pub fn update(&mut self, input: &[u8]) -> &mut Self {
        // Where in `input` the open chunk's unread bytes start.
        let mut from = 0;
        let input_start = self.chunker.position();
        let (chunk, tree) = (&mut self.chunk, &mut self.tree);
        self.chunker.update(input, |found| {
            let end = (found.offset + found.length as u64 - input_start) as usize;
            chunk.update(&input[from..end]);
            tree.push(chunk.finalize().into(), found.length as u64);
            chunk.reset();
            from = end;
        });
        self.chunk.update(&input[from..]);
        self
    }

    /// The file hash of the bytes read; the hasher is left as it was.
    pub fn finalize(&self) -> Hash {
        let mut tree = self.tree.clone();
        if let Some(last) = self.chunker.clone().finish() {
            tree.push(self.chunk.finalize().into(), last.length as u64);
        }
        tree.file_hash()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::string::ToString;

    #[test]
    fn string_form_reverses_each_group() {
        let bytes: [u8; 32] = core::array::from_fn(|i| i as u8);
        let hash = Hash::from_bytes(bytes);
        assert_eq!(hash.to_string(), "07060504030201000f0e0d0c0b0a090817161514131211101f1e1d1c1b1a1918");
        assert_eq!(Hash::from_hex(hash.to_hex()).unwrap(), hash);
        assert!(Hash::from_hex("00").is_err());
    }

    #[test]
    fn decimal_writes_every_digit() {
        for value in [0, 7, 10, 64000, 8_589_934_592, u64::MAX] {
            let mut buf = [0; 20];
            assert_eq!(decimal(value, &mut buf), value.to_string().as_bytes());
        }
    }

    /// The specification's example of an inner node's text: four chunks,
    /// their lines in order, each ending in a newline.
    #[test]
    fn parent_text_is_the_specifications_example() {
        let nodes = [
            ("1f6a2b8e9d3c4075a2e8c5fd4f0b763e6f3c1d7a9b2e6487de3f91ab7c6d5401", 10000),
            ("7c94fe2a38bdcf9b4d2a6f7e1e08ac35bc24a7903d6f5a0e7d1c2b93e5f748de", 20000),
            ("cfd18a92e0743bb09e56dbf76ea2c34d99b5a0cf271f8d429b6cd148203df061", 25000),
            ("e38d7c09a21b4cf8d0f92b3a85e6df19f7c20435e0b1c78a9d635f7b8c2e4da1", 64000),
        ];
        let text = "1f6a2b8e9d3c4075a2e8c5fd4f0b763e6f3c1d7a9b2e6487de3f91ab7c6d5401 : 10000\n\
                    7c94fe2a38bdcf9b4d2a6f7e1e08ac35bc24a7903d6f5a0e7d1c2b93e5f748de : 20000\n\
                    cfd18a92e0743bb09e56dbf76ea2c34d99b5a0cf271f8d429b6cd148203df061 : 25000\n\
                    e38d7c09a21b4cf8d0f92b3a85e6df19f7c20435e0b1c78a9d635f7b8c2e4da1 : 64000\n";
        let group: std::vec::Vec<Node> = nodes.iter().map(|&(h, s)| (Hash::from_hex(h).unwrap(), s)).collect();
        let (hash, size) = parent(&group);
        assert_eq!(hash, Hash::from(blake3::keyed_hash(&INTERNAL_NODE_KEY, text.as_bytes())));
        assert_eq!(size, 119_000);
    }
}
