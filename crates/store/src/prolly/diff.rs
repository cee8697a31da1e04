//! `diff`: the entries that differ between two versions, found by walking
//! both trees side by side and skipping every subtree they share.
//!
//! Each side is a stack of what is left to compare, in key order: subtrees
//! not yet opened and entries. When both sides next hold the same subtree
//! (equal addresses), both skip it: everything after it is also after it on
//! both sides. Otherwise the side whose next item is the higher subtree
//! opens it (both, at equal levels), until two entries meet. Because the
//! tree's shape depends only on its entries, the parts of two versions
//! that hold the same entries are cut into the same nodes, so the walk
//! opens only the nodes on the paths to the changes.

use super::node::Node;
use super::ProllyMap;
use crate::address::Address;
use crate::error::Result;
use std::cmp::Ordering;
use std::sync::Arc;

/// An entry that differs between two versions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Change {
    /// The key.
    pub key: Vec<u8>,
    /// Its value in the old version (`None`: absent there).
    pub old: Option<Vec<u8>>,
    /// Its value in the new version (`None`: deleted).
    pub new: Option<Vec<u8>>,
}

/// What a side has left to compare.
enum Item {
    /// A subtree not yet opened, and its level.
    Tree(Address, u8),
    /// Entry `.1` of a leaf.
    Entry(Arc<Node>, usize),
}

fn tree_level(item: Option<&Item>) -> Option<u8> {
    match item {
        Some(Item::Tree(_, level)) => Some(*level),
        _ => None,
    }
}

fn entry(node: &Node, i: usize) -> (Vec<u8>, Vec<u8>) {
    (node.key(i).to_vec(), node.value(i).to_vec())
}

impl ProllyMap {
    /// The entries that differ between versions `old` and `new`, in key
    /// order, reading only the nodes on the paths to them.
    pub fn diff(&mut self, old: &Address, new: &Address) -> Result<Vec<Change>> {
        let mut changes = Vec::new();
        let mut sides = [
            vec![Item::Tree(*old, self.load(old, None)?.level())],
            vec![Item::Tree(*new, self.load(new, None)?.level())],
        ];
        loop {
            let [a, b] = &mut sides;
            let levels = (tree_level(a.last()), tree_level(b.last()));
            if let (Some(Item::Tree(x, _)), Some(Item::Tree(y, _))) = (a.last(), b.last()) {
                if x == y {
                    a.pop();
                    b.pop();
                    continue;
                }
            }
            match levels {
                (None, None) => {}
                (Some(la), Some(lb)) => {
                    if la >= lb {
                        self.open(a)?;
                    }
                    if lb >= la {
                        self.open(b)?;
                    }
                    continue;
                }
                (Some(_), None) => {
                    self.open(a)?;
                    continue;
                }
                (None, Some(_)) => {
                    self.open(b)?;
                    continue;
                }
            }
            let order = match (a.last(), b.last()) {
                (None, None) => break,
                (Some(_), None) => Ordering::Less,
                (None, Some(_)) => Ordering::Greater,
                (Some(Item::Entry(x, i)), Some(Item::Entry(y, j))) => x.key(*i).cmp(y.key(*j)),
                // Subtrees were opened above.
                _ => unreachable!("only entries are compared"),
            };
            let take = |side: &mut Vec<Item>| match side.pop() {
                Some(Item::Entry(node, i)) => Some(entry(&node, i)),
                _ => None,
            };
            match order {
                Ordering::Less => {
                    if let Some((key, value)) = take(a) {
                        changes.push(Change { key, old: Some(value), new: None });
                    }
                }
                Ordering::Greater => {
                    if let Some((key, value)) = take(b) {
                        changes.push(Change { key, old: None, new: Some(value) });
                    }
                }
                Ordering::Equal => {
                    if let (Some((key, old)), Some((_, new))) = (take(a), take(b)) {
                        if old != new {
                            changes.push(Change { key, old: Some(old), new: Some(new) });
                        }
                    }
                }
            }
        }
        Ok(changes)
    }

    /// Replaces the subtree on top of `side` by its children or entries.
    fn open(&mut self, side: &mut Vec<Item>) -> Result<()> {
        let Some(Item::Tree(address, level)) = side.pop() else { return Ok(()) };
        let node = self.load(&address, Some(level))?;
        for i in (0..node.len()).rev() {
            side.push(if level == 0 { Item::Entry(node.clone(), i) } else { Item::Tree(node.child(i), level - 1) });
        }
        Ok(())
    }
}
