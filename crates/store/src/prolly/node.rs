//! A map node's bytes (one encoding, described in the crate docs), their
//! strict decoding, and the builder that encodes entries and ends nodes by
//! the boundary rule.

use super::boundary::{self, MAX_ENTRY_BYTES};
use crate::address::Address;
use crate::object::{put_varint, Reader};

/// Byte 0 of a node.
pub(crate) const NODE_TAG: u8 = b'P';
/// Byte 1 of a node: the node format version.
pub(crate) const NODE_VERSION: u8 = 1;
/// The longest key a map holds.
pub const MAX_KEY_LEN: usize = 2048;
/// The longest value a map holds.
pub const MAX_VALUE_LEN: usize = 1 << 20;
/// The highest level a node may claim. Nodes above the leaves hold at least
/// two children each (but the last of a level), so a tree of 2^63 entries
/// stays below it.
pub(crate) const MAX_LEVEL: u8 = 63;

/// Where an entry is in its node's bytes.
#[derive(Clone, Copy, Debug)]
struct Slot {
    start: u32,
    key: u32,
    key_len: u32,
    value: u32,
    value_len: u32,
}

/// A decoded node: its bytes and where each entry is.
#[derive(Debug)]
pub(crate) struct Node {
    bytes: Vec<u8>,
    level: u8,
    slots: Vec<Slot>,
}

fn varint_len(value: usize) -> usize {
    let bits = usize::BITS - (value | 1).leading_zeros();
    bits.div_ceil(7) as usize
}

/// The bytes of one entry.
fn entry_len(key_len: usize, value_len: usize) -> usize {
    varint_len(key_len) + key_len + varint_len(value_len) + value_len
}

impl Node {
    /// Decodes `bytes`, checking every rule of the encoding: the tag and
    /// version, a level within bounds, lengths in shortest form and within
    /// bounds, keys strictly increasing, a child address of `address_len`
    /// bytes in every entry above the leaves, nothing after the last entry.
    pub(crate) fn decode(bytes: Vec<u8>, address_len: usize) -> Result<Node, String> {
        let mut reader = Reader { bytes: &bytes, address_len };
        let tag = reader.byte()?;
        if tag != NODE_TAG {
            return Err(format!("not a map node (tag {tag:#04x})"));
        }
        let version = reader.byte()?;
        if version != NODE_VERSION {
            return Err(format!("map node of unknown version {version}"));
        }
        let level = reader.byte()?;
        if level > MAX_LEVEL {
            return Err(format!("map node of level {level}, above the highest ({MAX_LEVEL})"));
        }
        let count = reader.varint()?;
        if count.saturating_mul(2) > reader.bytes.len() as u64 {
            return Err(format!("claims {count} entries, more than its bytes can hold"));
        }
        if level > 0 && count == 0 {
            return Err("an inner map node without entries".into());
        }
        let offset = |rest: &[u8]| (bytes.len() - rest.len()) as u32;
        let mut slots = Vec::with_capacity(count as usize);
        let mut previous: Option<&[u8]> = None;
        for i in 0..count {
            let start = offset(reader.bytes);
            let key_len = reader.varint()?;
            if key_len > MAX_KEY_LEN as u64 {
                return Err(format!("entry {i}: a key of {key_len} bytes, longer than {MAX_KEY_LEN}"));
            }
            let key_at = offset(reader.bytes);
            let key = reader.take(key_len as usize)?;
            if previous.is_some_and(|previous| previous >= key) {
                return Err(format!("entry {i}: keys out of order"));
            }
            previous = Some(key);
            let value_len = reader.varint()?;
            if level > 0 && value_len != address_len as u64 {
                return Err(format!("entry {i}: a child address of {value_len} bytes, not {address_len}"));
            }
            if value_len > MAX_VALUE_LEN as u64 {
                return Err(format!("entry {i}: a value of {value_len} bytes, longer than {MAX_VALUE_LEN}"));
            }
            let value_at = offset(reader.bytes);
            reader.take(value_len as usize)?;
            slots.push(Slot {
                start,
                key: key_at,
                key_len: key_len as u32,
                value: value_at,
                value_len: value_len as u32,
            });
        }
        reader.end()?;
        Ok(Node { bytes, level, slots })
    }

    /// The empty leaf: the root of an empty map.
    pub(crate) fn empty() -> Node {
        Node { bytes: vec![NODE_TAG, NODE_VERSION, 0, 0], level: 0, slots: Vec::new() }
    }

    pub(crate) fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    pub(crate) fn level(&self) -> u8 {
        self.level
    }

    pub(crate) fn len(&self) -> usize {
        self.slots.len()
    }

    pub(crate) fn key(&self, i: usize) -> &[u8] {
        let slot = self.slots[i];
        &self.bytes[slot.key as usize..(slot.key + slot.key_len) as usize]
    }

    pub(crate) fn value(&self, i: usize) -> &[u8] {
        let slot = self.slots[i];
        &self.bytes[slot.value as usize..(slot.value + slot.value_len) as usize]
    }

    /// The encoded entry `i`, as a node holds it.
    fn raw_entry(&self, i: usize) -> &[u8] {
        let slot = self.slots[i];
        &self.bytes[slot.start as usize..(slot.value + slot.value_len) as usize]
    }

    /// The child address of entry `i` of an inner node.
    pub(crate) fn child(&self, i: usize) -> Address {
        // Decoding checked the length (20 or 32 bytes).
        Address::from_slice(self.value(i)).unwrap_or(Address::PLACEHOLDER)
    }

    /// The last key: the key of this node's entry in its parent.
    pub(crate) fn last_key(&self) -> Option<&[u8]> {
        (!self.slots.is_empty()).then(|| self.key(self.slots.len() - 1))
    }

    /// Whether the boundary rule ends the node after its last entry. When it
    /// does not, the node ended because the next entry would not fit, so
    /// its end depends on that entry too.
    pub(crate) fn ends_by_rule(&self) -> bool {
        if self.slots.is_empty() {
            return true;
        }
        let after = self.bytes.len() - self.slots[0].start as usize;
        let before = after - self.raw_entry(self.slots.len() - 1).len();
        boundary::ends_after(self.level, self.key(self.slots.len() - 1), before, after)
    }

    /// The first entry whose key is at least `key` (`len()` if none).
    pub(crate) fn lower_bound(&self, key: &[u8]) -> usize {
        self.slots.partition_point(|slot| &self.bytes[slot.key as usize..(slot.key + slot.key_len) as usize] < key)
    }

    /// Where `key` is, or where it would go.
    pub(crate) fn search(&self, key: &[u8]) -> Result<usize, usize> {
        let at = self.lower_bound(key);
        if at < self.len() && self.key(at) == key {
            Ok(at)
        } else {
            Err(at)
        }
    }
}

/// Encodes entries into nodes of one level, ending each by the boundary
/// rule, and hands each finished node to the caller.
#[derive(Debug)]
pub(crate) struct NodeBuilder {
    level: u8,
    body: Vec<u8>,
    slots: Vec<Slot>,
}

/// Bytes of a node's header before its entry count: tag, version, level.
const HEADER_LEN: usize = 3;

impl NodeBuilder {
    pub(crate) fn new(level: u8) -> NodeBuilder {
        NodeBuilder { level, body: Vec::with_capacity(2 * boundary::TARGET_NODE_BYTES), slots: Vec::new() }
    }

    /// Whether the current node holds no entry: the builder stands at a
    /// boundary, in the state in which every node starts.
    pub(crate) fn at_boundary(&self) -> bool {
        self.slots.is_empty()
    }

    /// Adds an entry whose key is above every key added so far.
    pub(crate) fn push(&mut self, key: &[u8], value: &[u8], emit: &mut dyn FnMut(Node)) {
        self.push_encoded(key, value, None, emit)
    }

    /// Adds entry `i` of `node` (a node of this level), copying its bytes.
    pub(crate) fn push_from(&mut self, node: &Node, i: usize, emit: &mut dyn FnMut(Node)) {
        self.push_encoded(node.key(i), node.value(i), Some(node.raw_entry(i)), emit)
    }

    fn push_encoded(&mut self, key: &[u8], value: &[u8], raw: Option<&[u8]>, emit: &mut dyn FnMut(Node)) {
        let len = entry_len(key.len(), value.len());
        if !self.slots.is_empty() && self.body.len() + len > MAX_ENTRY_BYTES {
            self.finish(emit);
        }
        let before = self.body.len();
        let start = before as u32;
        match raw {
            Some(raw) => self.body.extend_from_slice(raw),
            None => {
                put_varint(&mut self.body, key.len() as u64);
                self.body.extend_from_slice(key);
                put_varint(&mut self.body, value.len() as u64);
                self.body.extend_from_slice(value);
            }
        }
        let after = self.body.len();
        let key_at = start + varint_len(key.len()) as u32;
        self.slots.push(Slot {
            start,
            key: key_at,
            key_len: key.len() as u32,
            value: (after - value.len()) as u32,
            value_len: value.len() as u32,
        });
        if boundary::ends_after(self.level, key, before, after) {
            self.finish(emit);
        }
    }

    /// Ends the current node, if it holds any entry.
    pub(crate) fn finish(&mut self, emit: &mut dyn FnMut(Node)) {
        if self.slots.is_empty() {
            return;
        }
        let mut bytes = Vec::with_capacity(HEADER_LEN + 3 + self.body.len());
        bytes.extend_from_slice(&[NODE_TAG, NODE_VERSION, self.level]);
        put_varint(&mut bytes, self.slots.len() as u64);
        let shift = bytes.len() as u32;
        bytes.extend_from_slice(&self.body);
        let slots = self
            .slots
            .drain(..)
            .map(|slot| Slot { start: slot.start + shift, key: slot.key + shift, value: slot.value + shift, ..slot })
            .collect();
        self.body.clear();
        emit(Node { bytes, level: self.level, slots });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn build(level: u8, entries: &[(&[u8], &[u8])]) -> Vec<Node> {
        let mut nodes = Vec::new();
        let mut builder = NodeBuilder::new(level);
        for (key, value) in entries {
            builder.push(key, value, &mut |node| nodes.push(node));
        }
        builder.finish(&mut |node| nodes.push(node));
        nodes
    }

    #[test]
    fn the_encoding_is_as_documented() {
        let nodes = build(0, &[(b"a", b"xy"), (b"b", b"")]);
        assert_eq!(nodes.len(), 1);
        assert_eq!(nodes[0].bytes(), b"P\x01\x00\x02\x01a\x02xy\x01b\x00");
        assert_eq!(Node::empty().bytes(), b"P\x01\x00\x00");
        let inner = build(1, &[(b"k", &[9u8; 20])]);
        let mut expected = b"P\x01\x01\x01\x01k\x14".to_vec();
        expected.extend_from_slice(&[9u8; 20]);
        assert_eq!(inner[0].bytes(), expected);
    }

    #[test]
    fn built_nodes_decode_to_themselves() {
        let keys: Vec<Vec<u8>> = (0u32..3000).map(|i| format!("key{i:06}").into_bytes()).collect();
        let entries: Vec<(&[u8], &[u8])> = keys.iter().map(|k| (k.as_slice(), k.as_slice())).collect();
        let nodes = build(0, &entries);
        assert!(nodes.len() > 3, "{} nodes", nodes.len());
        let mut all = Vec::new();
        for node in &nodes {
            let decoded = Node::decode(node.bytes().to_vec(), 20).unwrap();
            assert_eq!(decoded.len(), node.len());
            for i in 0..node.len() {
                assert_eq!((decoded.key(i), decoded.value(i)), (node.key(i), node.value(i)));
                all.push(node.key(i).to_vec());
            }
        }
        assert_eq!(all, keys);
    }

    #[test]
    fn malformed_nodes_are_refused_without_panic() {
        let good = build(0, &[(b"a", b"1"), (b"b", b"2")]).remove(0).bytes().to_vec();
        let bad: Vec<(Vec<u8>, &str)> = vec![
            (b"Q\x01\x00\x00".to_vec(), "not a map node"),
            (b"P\x02\x00\x00".to_vec(), "unknown version"),
            (b"P\x01\x40\x00".to_vec(), "above the highest"),
            (b"P\x01\x01\x00".to_vec(), "without entries"),
            (b"P\x01\x00\x02\x01b\x011\x01a\x012".to_vec(), "out of order"),
            (b"P\x01\x00\x02\x01a\x011\x01a\x012".to_vec(), "out of order"),
            (b"P\x01\x01\x01\x01a\x03xyz".to_vec(), "child address of 3 bytes"),
            (b"P\x01\x00\x01\x81\x00".to_vec(), "shortest form"),
            (b"P\x01\x00\xff\x7f".to_vec(), "more than its bytes"),
            ([good.clone(), vec![0]].concat(), "after the end"),
        ];
        for (bytes, reason) in bad {
            let error = Node::decode(bytes.clone(), 20).unwrap_err();
            assert!(error.contains(reason), "{bytes:?}: {error}");
        }
        for cut in 0..good.len() {
            assert!(Node::decode(good[..cut].to_vec(), 20).is_err(), "cut at {cut}");
        }
    }

    #[test]
    fn large_entries_get_a_node_of_their_own() {
        let big = vec![1u8; MAX_ENTRY_BYTES];
        let nodes = build(0, &[(b"a", b"1"), (b"b", &big), (b"c", b"3")]);
        let counts: Vec<usize> = nodes.iter().map(Node::len).collect();
        assert_eq!(counts, [1, 1, 1]);
    }
}
