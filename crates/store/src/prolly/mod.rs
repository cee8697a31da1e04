//! A prolly tree: a persistent sorted map from bytes to bytes, stored as
//! nodes in the chunk store, whose shape depends only on its entries.
//!
//! Leaves hold the entries in key order; each node above holds, for each
//! child, the child's last key and its address. Where a node ends is
//! decided by a hash of each key against a Weibull rule (see
//! [`MIN_NODE_BYTES`], [`TARGET_NODE_BYTES`], [`MAX_ENTRY_BYTES`] and the
//! crate docs), so equal maps have equal roots whatever the order of the
//! edits that built them (history independence), and two versions of a map
//! share every subtree their edits did not reach.
//!
//! [`ProllyMap::apply`] makes one commit: it rebuilds the changed region of
//! each level from the leaves up, hashes the nodes of each level together
//! (BLAKE3's batch API: one call for all the nodes of a level, since a
//! parent needs its children's addresses), and stores them as records of
//! the chunk store. Old roots stay readable (copy on write). Reads check
//! every node they take from the store: trailer, stored address, hash, and
//! the node's encoding.
//!
//! ```
//! use chunkhash_store::prolly::{Edit, ProllyMap};
//! use chunkhash_store::{CreateOptions, Hashing, OpenOptions, Store};
//! # let dir = std::env::temp_dir().join(format!("chunkhash-prolly-doc-{}", std::process::id()));
//! # let _ = std::fs::remove_dir_all(&dir);
//! let store = Store::create(&dir, CreateOptions::default(), OpenOptions::default())?;
//! let mut map = ProllyMap::new(store, Hashing::Batch);
//! let v1 = map.apply(&map.empty_root(), &[Edit::put("apple", "red"), Edit::put("kiwi", "green")])?;
//! let v2 = map.apply(&v1, &[Edit::delete("apple")])?;
//! assert_eq!(map.get(&v1, b"apple")?, Some(b"red".to_vec()));
//! assert_eq!(map.get(&v2, b"apple")?, None);
//! assert_eq!(map.diff(&v1, &v2)?.len(), 1);
//!
//! let proof = map.prove(&v2, b"kiwi")?;
//! assert_eq!(ProllyMap::verify(&v2, b"kiwi", &proof), Ok(Some(b"green".to_vec())));
//! # std::fs::remove_dir_all(&dir).unwrap();
//! # Ok::<(), chunkhash_store::Error>(())
//! ```

mod apply;
mod boundary;
mod diff;
pub(crate) mod node;
mod nodes;
pub(crate) mod proof;

pub use boundary::{MAX_ENTRY_BYTES, MIN_NODE_BYTES, TARGET_NODE_BYTES};
pub use diff::Change;
pub use node::{MAX_KEY_LEN, MAX_VALUE_LEN};
pub use proof::{Proof, ProofError};

use crate::address::{Address, AddressHasher, Hashing};
use crate::error::Result;
use crate::sizes::ChunkSizes;
use crate::store::Store;
use node::Node;
use nodes::{Nodes, Path};
use std::ops::{Bound, RangeBounds};
use std::sync::Arc;
use std::time::Duration;

/// The default bound on the cache of decoded nodes: 512 MiB.
pub const DEFAULT_CACHE_BYTES: usize = 512 << 20;

/// One change of a commit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Edit {
    /// Sets `key` to `value`.
    Put {
        /// The key.
        key: Vec<u8>,
        /// The value.
        value: Vec<u8>,
    },
    /// Removes `key` (nothing happens if it is absent).
    Delete {
        /// The key.
        key: Vec<u8>,
    },
}

impl Edit {
    /// A put.
    pub fn put(key: impl Into<Vec<u8>>, value: impl Into<Vec<u8>>) -> Edit {
        Edit::Put { key: key.into(), value: value.into() }
    }

    /// A delete.
    pub fn delete(key: impl Into<Vec<u8>>) -> Edit {
        Edit::Delete { key: key.into() }
    }

    /// The key it changes.
    pub fn key(&self) -> &[u8] {
        match self {
            Edit::Put { key, .. } | Edit::Delete { key } => key,
        }
    }
}

/// What a map did so far, for benchmarks and tests.
#[derive(Clone, Debug, Default)]
pub struct MapStats {
    /// Commits made by [`ProllyMap::apply`].
    pub commits: u64,
    /// Nodes the commits emitted (new to the map's history or not).
    pub nodes_emitted: u64,
    /// Nodes the commits stored, each new to the store.
    pub nodes_stored: u64,
    /// Bytes of those nodes.
    pub bytes_stored: u64,
    /// Sizes of the emitted nodes.
    pub node_sizes: ChunkSizes,
    /// Time spent in `apply`, all of it.
    pub apply_time: Duration,
    /// Time spent computing the addresses of emitted nodes.
    pub hash_time: Duration,
    /// Time spent writing the commits' records to the store and making them
    /// durable.
    pub store_time: Duration,
    /// Nodes taken, from the cache or the store.
    pub node_visits: u64,
    /// Nodes read from the store (not found in the cache).
    pub nodes_read: u64,
    /// Time spent reading them.
    pub read_time: Duration,
    /// The part of it spent hashing them to check their addresses.
    pub verify_time: Duration,
}

/// The shape of one version of a map.
#[derive(Clone, Debug, Default)]
pub struct Shape {
    /// Entries.
    pub entries: u64,
    /// Levels (1: the root is a leaf).
    pub height: u32,
    /// Sizes of the leaves.
    pub leaves: ChunkSizes,
    /// Sizes of the nodes above the leaves.
    pub inner: ChunkSizes,
}

/// A prolly map over a store: any number of versions (roots) of one map,
/// or of several, sharing their nodes.
#[derive(Debug)]
pub struct ProllyMap {
    nodes: Nodes,
    hasher: AddressHasher,
    stats: MapStats,
    /// The bytes of the nodes each level of each commit made, when kept.
    recorded: Option<Vec<Vec<Vec<u8>>>>,
}

impl ProllyMap {
    /// A map over `store` (opened for writing, to [`apply`](Self::apply)),
    /// addressing nodes with the store's algorithm; BLAKE3 nodes are hashed
    /// as `hashing` says: [`Hashing::Batch`] hashes the nodes of a level in
    /// one call, [`Hashing::PerChunk`] one node per call as each is made,
    /// [`Hashing::Portable`] one node per call on the portable kernel.
    pub fn new(store: Store, hashing: Hashing) -> ProllyMap {
        let hasher = AddressHasher::new(store.algorithm(), hashing);
        let nodes = Nodes::new(store, nodes::hasher_like(&hasher), DEFAULT_CACHE_BYTES);
        ProllyMap { nodes, hasher, stats: MapStats::default(), recorded: None }
    }

    /// Bounds the cache of decoded nodes (emptied when full) to `bytes`.
    pub fn with_cache_bytes(mut self, bytes: usize) -> ProllyMap {
        self.nodes.set_cache_limit(bytes);
        self
    }

    /// Undocumented and unstable, for benchmarks only: keeps (or stops
    /// keeping) the bytes of the nodes each level of each commit makes, so
    /// that their hashing can be replayed alone.
    #[doc(hidden)]
    pub fn record_levels(&mut self, on: bool) {
        self.recorded = on.then(Vec::new);
    }

    /// Undocumented and unstable, for benchmarks only: the levels kept
    /// since [`record_levels`](Self::record_levels), each the nodes one
    /// level of one commit made.
    #[doc(hidden)]
    pub fn take_recorded_levels(&mut self) -> Vec<Vec<Vec<u8>>> {
        self.recorded.as_mut().map(std::mem::take).unwrap_or_default()
    }

    /// The store.
    pub fn store(&self) -> &Store {
        &self.nodes.store
    }

    /// The store, giving up the map.
    pub fn into_store(self) -> Store {
        self.nodes.store
    }

    /// The root of the empty map (an empty leaf), readable without being
    /// stored.
    pub fn empty_root(&self) -> Address {
        self.nodes.empty
    }

    /// What the map did so far.
    pub fn stats(&self) -> &MapStats {
        &self.stats
    }

    fn load(&mut self, address: &Address, level: Option<u8>) -> Result<Arc<Node>> {
        self.nodes.load(address, level, &mut self.stats)
    }

    /// The value of `key` in the version `root`.
    pub fn get(&mut self, root: &Address, key: &[u8]) -> Result<Option<Vec<u8>>> {
        let mut node = self.load(root, None)?;
        while node.level() > 0 {
            let i = node.lower_bound(key);
            if i == node.len() {
                return Ok(None);
            }
            node = self.load(&node.child(i), Some(node.level() - 1))?;
        }
        Ok(node.search(key).ok().map(|i| node.value(i).to_vec()))
    }

    /// The entries of `root` whose keys are in `range`, in key order.
    pub fn range<'k, R: RangeBounds<&'k [u8]>>(&mut self, root: &Address, range: R) -> Result<Range<'_>> {
        let start: Bound<&[u8]> = range.start_bound().cloned();
        let end = range.end_bound().map(|key| key.to_vec());
        let from: &[u8] = match start {
            Bound::Included(key) | Bound::Excluded(key) => key,
            Bound::Unbounded => &[],
        };
        let root = self.load(root, None)?;
        let mut path = Path::seek(&mut self.nodes, root, 0, from, &mut self.stats)?;
        if let Bound::Excluded(key) = start {
            let i = path.index();
            if i < path.node().len() && path.node().key(i) == key {
                path.set_index(i + 1);
            }
        }
        Ok(Range { map: self, path: Some(path), end })
    }

    /// Every node of `root`, walked: the entry count, the height and the
    /// node sizes.
    pub fn shape(&mut self, root: &Address) -> Result<Shape> {
        let top = self.load(root, None)?;
        let mut shape = Shape { height: u32::from(top.level()) + 1, ..Shape::default() };
        let mut pending = vec![top];
        while let Some(node) = pending.pop() {
            if node.level() == 0 {
                shape.entries += node.len() as u64;
                shape.leaves.add(node.bytes().len() as u64);
                continue;
            }
            shape.inner.add(node.bytes().len() as u64);
            for i in 0..node.len() {
                pending.push(self.load(&node.child(i), Some(node.level() - 1))?);
            }
        }
        Ok(shape)
    }
}

/// The entries of a range, read as they are needed: from
/// [`ProllyMap::range`].
#[derive(Debug)]
pub struct Range<'m> {
    map: &'m mut ProllyMap,
    path: Option<Path>,
    end: Bound<Vec<u8>>,
}

impl Iterator for Range<'_> {
    type Item = Result<(Vec<u8>, Vec<u8>)>;

    fn next(&mut self) -> Option<Self::Item> {
        let path = self.path.as_mut()?;
        loop {
            let i = path.index();
            let node = path.node().clone();
            if i < node.len() {
                let key = node.key(i);
                let within = match &self.end {
                    Bound::Included(end) => key <= end.as_slice(),
                    Bound::Excluded(end) => key < end.as_slice(),
                    Bound::Unbounded => true,
                };
                if !within {
                    self.path = None;
                    return None;
                }
                path.set_index(i + 1);
                return Some(Ok((key.to_vec(), node.value(i).to_vec())));
            }
            match path.next_node(&mut self.map.nodes, &mut self.map.stats) {
                Ok(true) => {}
                Ok(false) => {
                    self.path = None;
                    return None;
                }
                Err(error) => {
                    self.path = None;
                    return Some(Err(error));
                }
            }
        }
    }
}
