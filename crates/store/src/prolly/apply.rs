//! `apply`: one commit of puts and deletes, made level by level.
//!
//! At each level the edits (user edits at the leaves; above them, the
//! entries of the children that changed) are merged into the old nodes
//! they fall in, and the merged entries are cut into nodes again by the
//! boundary rule. A node's end depends only on the entries since the
//! previous end, so re-cutting starts at the first old node an edit falls
//! in (the end of the node before it stays an end) and stops as soon as a
//! new node ends where an old node ended with no edit left before the next
//! old node: from there on the old nodes are what a cut from scratch would
//! give. The result is the tree a build from scratch would give, which the
//! history-independence tests check.
//!
//! A level's new nodes are then hashed (in one batch call, or one node per
//! call as each is made), and become the next level's edits: each changed
//! child's entry deleted (by its last key), each new node's entry put.
//! The new root is the first level at or above the old root's that has one
//! node; a root left with a single child gives way to that child, as a
//! build from scratch would have stopped there.

use super::node::{Node, NodeBuilder, MAX_KEY_LEN, MAX_LEVEL, MAX_VALUE_LEN};
use super::nodes::{Nodes, Path};
use super::{Edit, MapStats, ProllyMap};
use crate::address::{Address, Hashing};
use crate::error::{Error, Result};
use chunkhash::Algorithm;
use std::borrow::Cow;
use std::cmp::Ordering;
use std::sync::Arc;
use std::time::Instant;

/// An edit at one level. Above the leaves a value is a child's address, and
/// a delete carries the address it removes, so that a child rebuilt
/// unchanged cancels out.
#[derive(Debug)]
struct LevelEdit<'e> {
    key: Cow<'e, [u8]>,
    value: Option<Cow<'e, [u8]>>,
    removes: Option<Address>,
}

/// Checks, sorts and deduplicates the user's edits (the last edit of a key wins).
fn leaf_edits(edits: &[Edit]) -> Result<Vec<LevelEdit<'_>>> {
    let mut sorted = Vec::with_capacity(edits.len());
    for edit in edits {
        let (key, value) = match edit {
            Edit::Put { key, value } => (key, Some(value)),
            Edit::Delete { key } => (key, None),
        };
        if key.len() > MAX_KEY_LEN {
            return Err(Error::BadMapInput(format!("a key of {} bytes; keys hold at most {MAX_KEY_LEN}", key.len())));
        }
        if let Some(value) = &value {
            if value.len() > MAX_VALUE_LEN {
                return Err(Error::BadMapInput(format!(
                    "a value of {} bytes; values hold at most {MAX_VALUE_LEN}",
                    value.len()
                )));
            }
        }
        sorted.push(LevelEdit { key: Cow::Borrowed(key), value: value.map(|v| Cow::Borrowed(&v[..])), removes: None });
    }
    // Stable: of edits of one key, the last given stays last.
    sorted.sort_by(|a, b| a.key.cmp(&b.key));
    let mut unique: Vec<LevelEdit<'_>> = Vec::with_capacity(sorted.len());
    for edit in sorted {
        match unique.last_mut() {
            Some(last) if last.key == edit.key => *last = edit,
            _ => unique.push(edit),
        }
    }
    Ok(unique)
}

/// The next level's edits: each rebuilt old node's entry removed, each new
/// node's entry put; an entry removed and put back unchanged cancels out.
fn parent_edits(removed: Vec<(Vec<u8>, Address)>, made: &[(Address, Arc<Node>)]) -> Vec<LevelEdit<'static>> {
    let mut edits: Vec<LevelEdit<'static>> = removed
        .into_iter()
        .map(|(key, address)| LevelEdit { key: Cow::Owned(key), value: None, removes: Some(address) })
        .collect();
    for (address, node) in made {
        // Nodes made by the builder hold at least one entry.
        let key = node.last_key().unwrap_or_default().to_vec();
        edits.push(LevelEdit {
            key: Cow::Owned(key),
            value: Some(Cow::Owned(address.as_bytes().to_vec())),
            removes: None,
        });
    }
    // Stable: a key's removal (pushed first) comes before its put.
    edits.sort_by(|a, b| a.key.cmp(&b.key));
    let mut merged: Vec<LevelEdit<'static>> = Vec::with_capacity(edits.len());
    for edit in edits {
        match merged.last_mut() {
            Some(last) if last.key == edit.key => {
                if last.removes.as_ref().map(Address::as_bytes) == edit.value.as_deref() {
                    merged.pop();
                } else {
                    *last = edit;
                }
            }
            _ => merged.push(edit),
        }
    }
    merged
}

/// Re-cuts the nodes of `level` of the tree under `root` that `edits` fall
/// in, handing each new node to `emit` and listing each old node replaced
/// (its last key and address) in `removed`.
fn rebuild_level(
    nodes: &mut Nodes,
    stats: &mut MapStats,
    (root, root_address): (&Arc<Node>, &Address),
    level: u8,
    edits: &[LevelEdit<'_>],
    removed: &mut Vec<(Vec<u8>, Address)>,
    emit: &mut dyn FnMut(Node),
) -> Result<()> {
    let mut builder = NodeBuilder::new(level);
    let mut e = 0;
    while e < edits.len() {
        // The builder stands at a boundary: at the start of the old node
        // the next edit falls in, the old and new cuts are in one state.
        let mut path = Path::seek(nodes, root.clone(), level, &edits[e].key, stats)?;
        // A node that ended only because the next entry would not fit
        // (past MAX_ENTRY_BYTES) ends where it does because of that entry,
        // which the edits may change: start one node earlier, unless that
        // node was rebuilt already (the new cuts then ended by the rule).
        let mut previous = path.clone();
        if previous.previous_node(nodes, stats)?
            && !previous.node().ends_by_rule()
            && removed.last().map(|(key, _)| key.as_slice()) != previous.node().last_key()
        {
            path = previous;
        }
        loop {
            let node = path.node().clone();
            let last = !path.has_next_node();
            if let Some(key) = node.last_key() {
                removed.push((key.to_vec(), path.node_address().unwrap_or(*root_address)));
            }
            // Edits up to this node's last key fall in it; the last node
            // takes every edit left.
            let bound = if last { None } else { node.last_key() };
            let mut i = 0;
            loop {
                let edit = edits.get(e).filter(|edit| bound.is_none_or(|bound| edit.key[..] <= *bound));
                let order = match (i < node.len(), edit) {
                    (false, None) => break,
                    (true, None) => Ordering::Less,
                    (false, Some(_)) => Ordering::Greater,
                    (true, Some(edit)) => node.key(i).cmp(&edit.key),
                };
                if order == Ordering::Less {
                    builder.push_from(&node, i, emit);
                    i += 1;
                    continue;
                }
                if let Some(edit) = edit {
                    if let Some(value) = &edit.value {
                        builder.push(&edit.key, value, emit);
                    }
                }
                e += 1;
                if order == Ordering::Equal {
                    i += 1;
                }
            }
            if last {
                builder.finish(emit);
                break;
            }
            if builder.at_boundary() {
                // Resynchronised: the old nodes up to the next edit's stay.
                break;
            }
            path.next_node(nodes, stats)?;
        }
    }
    Ok(())
}

/// Nodes a commit made, with their addresses.
type Made = Vec<(Address, Arc<Node>)>;

fn hashes_in_batches(algorithm: Algorithm, hashing: Hashing) -> bool {
    matches!(algorithm, Algorithm::Blake3 | Algorithm::Blake3_160) && hashing == Hashing::Batch
}

impl ProllyMap {
    /// Applies `edits` (puts and deletes, in any order; the last edit of a
    /// key wins; borrowed, so the caller's buffers are neither copied nor freed) to the version `root`, as one commit, and returns the new
    /// version's root. The new nodes are durable in the store when it
    /// returns (fsynced if the store was opened with fsync); `root` and
    /// every older version stay readable.
    pub fn apply(&mut self, root: &Address, edits: &[Edit]) -> Result<Address> {
        let start = Instant::now();
        let edits = leaf_edits(edits)?;
        let old_root = self.load(root, None)?;
        if edits.is_empty() {
            return Ok(*root);
        }
        let spent = self.hasher.spent;
        let (new_root, made) = self.rebuild(&old_root, root, edits)?;
        self.stats.hash_time += self.hasher.spent - spent;
        let store_start = Instant::now();
        let records: Vec<(Address, &[u8])> = made.iter().map(|(address, node)| (*address, node.bytes())).collect();
        let store = &mut self.nodes.store;
        let mut commit = store.begin()?;
        let added = match store.add_all(&mut commit, &records) {
            Ok(added) => added,
            Err(error) => {
                store.abandon(commit);
                return Err(error);
            }
        };
        store.finish_records(commit)?;
        self.stats.store_time += store_start.elapsed();
        self.stats.commits += 1;
        self.stats.nodes_emitted += made.len() as u64;
        self.stats.nodes_stored += added.0;
        self.stats.bytes_stored += added.1;
        for (_, node) in &made {
            self.stats.node_sizes.add(node.bytes().len() as u64);
        }
        self.stats.apply_time += start.elapsed();
        Ok(new_root)
    }

    /// The levels rebuilt: the new root and the nodes to store.
    fn rebuild(&mut self, old_root: &Arc<Node>, root: &Address, leaf: Vec<LevelEdit<'_>>) -> Result<(Address, Made)> {
        let old_height = old_root.level();
        let mut edits = leaf;
        let batches = hashes_in_batches(self.hasher.algorithm(), self.hasher.hashing());
        let mut made: Made = Vec::new();
        let mut level = 0u8;
        let top = loop {
            let mut built = Vec::new();
            let mut addresses = Vec::new();
            let mut removed = Vec::new();
            {
                let hasher = &mut self.hasher;
                let mut emit = |node: Node| {
                    if !batches {
                        addresses.push(hasher.address(node.bytes()));
                    }
                    built.push(node);
                };
                if level <= old_height {
                    let old = (old_root, root);
                    rebuild_level(&mut self.nodes, &mut self.stats, old, level, &edits, &mut removed, &mut emit)?;
                } else {
                    // Above the old root: a new level, from the puts alone.
                    let mut builder = NodeBuilder::new(level);
                    for edit in &edits {
                        if let Some(value) = &edit.value {
                            builder.push(&edit.key, value, &mut emit);
                        }
                    }
                    builder.finish(&mut emit);
                }
            }
            if batches {
                let inputs: Vec<&[u8]> = built.iter().map(Node::bytes).collect();
                self.hasher.addresses(&inputs, &mut addresses);
            }
            if let Some(recorded) = &mut self.recorded {
                recorded.push(built.iter().map(|node| node.bytes().to_vec()).collect());
            }
            let level_made: Vec<(Address, Arc<Node>)> =
                addresses.into_iter().zip(built.into_iter().map(Arc::new)).collect();
            for (address, node) in &level_made {
                self.nodes.remember(*address, node.clone());
            }
            if level >= old_height && level_made.len() <= 1 {
                made.extend(level_made.iter().cloned());
                break level_made.first().map(|(address, _)| *address);
            }
            edits = parent_edits(removed, &level_made);
            made.extend(level_made);
            if edits.is_empty() {
                // Every rebuilt node came out as it was.
                return Ok((*root, Vec::new()));
            }
            level = level.checked_add(1).filter(|&level| level <= MAX_LEVEL).ok_or_else(|| {
                Error::corrupt(format!("map {root}"), "the tree grows past the highest level a node may have")
            })?;
        };
        let Some(mut top) = top else {
            // Every entry deleted.
            let empty = Arc::new(Node::empty());
            return Ok((self.nodes.empty, vec![(self.nodes.empty, empty)]));
        };
        // A root with one child gives way to the child.
        loop {
            let node = self.load(&top, None)?;
            if node.level() == 0 || node.len() > 1 {
                break;
            }
            self.nodes.forget(&top);
            made.retain(|(address, _)| *address != top);
            top = node.child(0);
        }
        Ok((top, made))
    }
}
