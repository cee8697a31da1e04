//! Reading nodes: verified reads from the store (trailer, stored address,
//! hash of the bytes, then the node's own rules), a cache of decoded nodes,
//! and paths from a root down to a node.

use super::node::Node;
use super::MapStats;
use crate::address::{Address, AddressHasher};
use crate::error::{Error, Result};
use crate::store::Store;
use std::collections::HashMap;
use std::sync::Arc;
use std::time::Instant;

/// The store, the nodes read or written so far, and what reading cost.
#[derive(Debug)]
pub(crate) struct Nodes {
    pub(crate) store: Store,
    cache: HashMap<Address, Arc<Node>>,
    cache_bytes: usize,
    cache_limit: usize,
    /// Hashes what is read, to check it against its address.
    hasher: AddressHasher,
    /// The address of the empty leaf, known without reading it.
    pub(crate) empty: Address,
}

impl Nodes {
    pub(crate) fn new(store: Store, hasher: AddressHasher, cache_limit: usize) -> Nodes {
        let mut empty_hasher = hasher_like(&hasher);
        let empty = empty_hasher.address(Node::empty().bytes());
        Nodes { store, cache: HashMap::new(), cache_bytes: 0, cache_limit, hasher, empty }
    }

    pub(crate) fn set_cache_limit(&mut self, bytes: usize) {
        self.cache_limit = bytes;
        if self.cache_bytes > bytes {
            self.cache.clear();
            self.cache_bytes = 0;
        }
    }

    /// Forgets a node (one that was cached but not stored).
    pub(crate) fn forget(&mut self, address: &Address) {
        if let Some(node) = self.cache.remove(address) {
            self.cache_bytes -= node.bytes().len() + 64;
        }
    }

    pub(crate) fn address_len(&self) -> usize {
        self.store.algorithm().digest_len()
    }

    /// Keeps a node this process wrote (or read) for later reads. When the
    /// cache is full it is emptied: a simple bound that costs one re-read
    /// per node still in use.
    pub(crate) fn remember(&mut self, address: Address, node: Arc<Node>) {
        let size = node.bytes().len() + 64;
        if self.cache_bytes + size > self.cache_limit {
            self.cache.clear();
            self.cache_bytes = 0;
        }
        if self.cache.insert(address, node).is_none() {
            self.cache_bytes += size;
        }
    }

    /// The node at `address`, which its parent (or the caller) expects at
    /// `level` (`None`: any level, as for a root).
    pub(crate) fn load(&mut self, address: &Address, level: Option<u8>, stats: &mut MapStats) -> Result<Arc<Node>> {
        stats.node_visits += 1;
        let node = match self.cache.get(address) {
            Some(node) => node.clone(),
            None if *address == self.empty => Arc::new(Node::empty()),
            None => {
                let start = Instant::now();
                let spent = self.hasher.spent;
                let bytes = self.store.read_verified(&[*address], &mut self.hasher)?.pop().unwrap_or_default();
                stats.verify_time += self.hasher.spent - spent;
                stats.nodes_read += 1;
                stats.read_time += start.elapsed();
                let node = Node::decode(bytes, self.address_len())
                    .map_err(|reason| Error::corrupt(format!("map node {address}"), reason))?;
                let node = Arc::new(node);
                self.remember(*address, node.clone());
                node
            }
        };
        if let Some(level) = level {
            if node.level() != level {
                return Err(Error::corrupt(
                    format!("map node {address}"),
                    format!("a node of level {} where its parent expects level {level}", node.level()),
                ));
            }
        }
        Ok(node)
    }
}

/// A hasher of the same algorithm and mode.
pub(crate) fn hasher_like(hasher: &AddressHasher) -> AddressHasher {
    AddressHasher::new(hasher.algorithm(), hasher.hashing())
}

/// The nodes from a root down to one node, and in each the entry taken.
#[derive(Clone, Debug)]
pub(crate) struct Path {
    /// Root first; in each node but the last, the index of the child taken;
    /// in the last, the current entry.
    steps: Vec<(Arc<Node>, usize)>,
}

impl Path {
    /// The path to the node at `level` whose range holds `key`: at each
    /// inner node the first child whose last key is at least `key`, or the
    /// last child. In that node, the first entry at least `key`.
    pub(crate) fn seek(
        nodes: &mut Nodes,
        root: Arc<Node>,
        level: u8,
        key: &[u8],
        stats: &mut MapStats,
    ) -> Result<Path> {
        let mut steps = Vec::with_capacity(usize::from(root.level()) + 1);
        let mut node = root;
        while node.level() > level {
            let i = node.lower_bound(key).min(node.len() - 1);
            let child = nodes.load(&node.child(i), Some(node.level() - 1), stats)?;
            steps.push((node, i));
            node = child;
        }
        let i = node.lower_bound(key);
        steps.push((node, i));
        Ok(Path { steps })
    }

    /// The node the path leads to.
    pub(crate) fn node(&self) -> &Arc<Node> {
        &self.steps[self.steps.len() - 1].0
    }

    /// The address of the node the path leads to, from its parent; `None`
    /// for the root.
    pub(crate) fn node_address(&self) -> Option<Address> {
        let depth = self.steps.len();
        (depth >= 2).then(|| {
            let (parent, i) = &self.steps[depth - 2];
            parent.child(*i)
        })
    }

    /// The current entry of the last node.
    pub(crate) fn index(&self) -> usize {
        self.steps[self.steps.len() - 1].1
    }

    pub(crate) fn set_index(&mut self, i: usize) {
        let last = self.steps.len() - 1;
        self.steps[last].1 = i;
    }

    /// Whether another node follows at the same level.
    pub(crate) fn has_next_node(&self) -> bool {
        self.steps[..self.steps.len() - 1].iter().any(|(node, i)| i + 1 < node.len())
    }

    /// Moves to the previous node at the same level, at its first entry;
    /// false (and the path unchanged) when this is the first node.
    pub(crate) fn previous_node(&mut self, nodes: &mut Nodes, stats: &mut MapStats) -> Result<bool> {
        let depth = self.steps.len() - 1;
        let Some(up) = (0..depth).rev().find(|&d| self.steps[d].1 > 0) else {
            return Ok(false);
        };
        self.steps[up].1 -= 1;
        for d in up..depth {
            let (node, i) = &self.steps[d];
            let child = nodes.load(&node.child(*i), Some(node.level() - 1), stats)?;
            let i = if d + 1 < depth { child.len() - 1 } else { 0 };
            self.steps[d + 1] = (child, i);
        }
        Ok(true)
    }

    /// Moves to the next node at the same level, at its first entry; false
    /// (and the path unchanged) when this is the last node.
    pub(crate) fn next_node(&mut self, nodes: &mut Nodes, stats: &mut MapStats) -> Result<bool> {
        let depth = self.steps.len() - 1;
        let Some(up) = (0..depth).rev().find(|&d| self.steps[d].1 + 1 < self.steps[d].0.len()) else {
            return Ok(false);
        };
        self.steps[up].1 += 1;
        for d in up..depth {
            let (node, i) = &self.steps[d];
            let child = nodes.load(&node.child(*i), Some(node.level() - 1), stats)?;
            self.steps[d + 1] = (child, 0);
        }
        Ok(true)
    }
}
