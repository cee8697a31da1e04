//! Proofs that a key is in a version of a map (with its value) or is not:
//! the nodes on the key's path, root first, which a verifier hashes back
//! to the root address. No store is needed to verify.
//!
//! A proof's bytes, one way only (varint: unsigned LEB128, shortest form):
//!
//! ```text
//! 'p' 0x01 algorithm-id varint(key length) key varint(count) count x (varint(length) node)
//! ```
//!
//! The nodes are the root, then at each level the child whose last key is
//! the first at least the key, down to a leaf; or the root alone when the
//! key is above every key of the map. The proof names its key, so it
//! proves nothing about any other key, and its address algorithm, which
//! must give addresses of the root's length.

use super::node::{Node, MAX_KEY_LEN, MAX_LEVEL};
use super::ProllyMap;
use crate::address::{Address, AddressHasher, Hashing, ADDRESS_ALGORITHMS};
use crate::error::Result;
use crate::object::{put_varint, Reader};
use chunkhash::Algorithm;
use std::fmt;

/// Byte 0 of a proof.
const PROOF_TAG: u8 = b'p';
/// Byte 1 of a proof: the proof format version.
const PROOF_VERSION: u8 = 1;

/// The bytes that prove a key's value, or its absence, in one version of
/// a map: from [`ProllyMap::prove`], checked by [`ProllyMap::verify`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Proof {
    bytes: Vec<u8>,
}

impl Proof {
    /// A proof held in `bytes` (checked only by `verify`).
    pub fn from_bytes(bytes: Vec<u8>) -> Proof {
        Proof { bytes }
    }

    /// The proof's bytes: the same for the same version and key, from any
    /// process.
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes
    }
}

/// Why a proof was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProofError(String);

impl fmt::Display for ProofError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "proof refused: {}", self.0)
    }
}

impl std::error::Error for ProofError {}

fn refuse<T>(reason: impl Into<String>) -> Result<T, ProofError> {
    Err(ProofError(reason.into()))
}

/// The parts of a proof's bytes.
pub(crate) struct Parsed<'a> {
    pub(crate) algorithm: Algorithm,
    pub(crate) key: &'a [u8],
    pub(crate) nodes: Vec<&'a [u8]>,
}

pub(crate) fn parse(bytes: &[u8]) -> Result<Parsed<'_>, String> {
    let mut reader = Reader { bytes, address_len: 0 };
    if reader.byte()? != PROOF_TAG {
        return Err("not a map proof".into());
    }
    let version = reader.byte()?;
    if version != PROOF_VERSION {
        return Err(format!("proof of unknown version {version}"));
    }
    let id = reader.byte()?;
    let algorithm = Algorithm::from_id(id)
        .ok()
        .filter(|algorithm| ADDRESS_ALGORITHMS.contains(algorithm))
        .ok_or_else(|| format!("algorithm id {id} does not address map nodes"))?;
    let key_len = reader.varint()?;
    if key_len > MAX_KEY_LEN as u64 {
        return Err(format!("a key of {key_len} bytes"));
    }
    let key = reader.take(key_len as usize)?;
    let count = reader.varint()?;
    if count == 0 || count > u64::from(MAX_LEVEL) + 1 {
        return Err(format!("{count} nodes"));
    }
    let mut nodes = Vec::with_capacity(count as usize);
    for _ in 0..count {
        let len = reader.varint()?;
        if len > reader.bytes.len() as u64 {
            return Err(format!("a node of {len} bytes, more than are left"));
        }
        nodes.push(reader.take(len as usize)?);
    }
    reader.end()?;
    Ok(Parsed { algorithm, key, nodes })
}

impl ProllyMap {
    /// A proof of `key`'s value, or of its absence, in the version `root`.
    pub fn prove(&mut self, root: &Address, key: &[u8]) -> Result<Proof> {
        let mut bytes = vec![PROOF_TAG, PROOF_VERSION, self.store().algorithm().id()];
        put_varint(&mut bytes, key.len() as u64);
        bytes.extend_from_slice(key);
        let mut path = Vec::new();
        let mut node = self.load(root, None)?;
        loop {
            path.push(node.clone());
            if node.level() == 0 {
                break;
            }
            let i = node.lower_bound(key);
            if i == node.len() {
                // Above every key: the root shows it.
                break;
            }
            node = self.load(&node.child(i), Some(node.level() - 1))?;
        }
        put_varint(&mut bytes, path.len() as u64);
        for node in &path {
            put_varint(&mut bytes, node.bytes().len() as u64);
            bytes.extend_from_slice(node.bytes());
        }
        Ok(Proof { bytes })
    }

    /// Checks `proof` against the version `root` and `key`: `Ok(Some(value))`
    /// proves that `key` holds `value` there, `Ok(None)` that it is absent.
    /// Any change to the proof's bytes, another key or another root is an
    /// error.
    pub fn verify(root: &Address, key: &[u8], proof: &Proof) -> Result<Option<Vec<u8>>, ProofError> {
        let parsed = parse(&proof.bytes).map_err(ProofError)?;
        if parsed.key != key {
            return refuse("it proves another key");
        }
        let address_len = parsed.algorithm.digest_len();
        if address_len != root.as_bytes().len() {
            return refuse(format!(
                "{} addresses are {address_len} bytes, the root has {}",
                parsed.algorithm,
                root.as_bytes().len()
            ));
        }
        let mut hasher = AddressHasher::new(parsed.algorithm, Hashing::PerChunk);
        let mut expected = (*root, None);
        let count = parsed.nodes.len();
        for (n, bytes) in parsed.nodes.into_iter().enumerate() {
            if hasher.address(bytes) != expected.0 {
                return refuse(format!("node {n} does not hash to {}", expected.0));
            }
            let node = Node::decode(bytes.to_vec(), address_len)
                .map_err(|reason| ProofError(format!("node {n}: {reason}")))?;
            if let Some(level) = expected.1.filter(|&level| level != node.level()) {
                return refuse(format!("node {n} is at level {}, where its parent expects {level}", node.level()));
            }
            let last = n + 1 == count;
            if node.level() == 0 {
                if !last {
                    return refuse("nodes follow the leaf");
                }
                return Ok(node.search(key).ok().map(|i| node.value(i).to_vec()));
            }
            let i = node.lower_bound(key);
            if i == node.len() {
                // Only the root can show a key above all of the map's.
                return if n == 0 && last { Ok(None) } else { refuse(format!("the key is above node {n}'s keys")) };
            }
            if last {
                return refuse("the proof ends above the leaves");
            }
            expected = (node.child(i), Some(node.level() - 1));
        }
        refuse("no nodes")
    }
}
