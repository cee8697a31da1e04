//! `get --range`: a byte range of one file, read and verified on its own.
//! Only the chunks covering the chunk groups the range needs are read
//! (ranged reads of packs, on disk or on S3), with the outboard pieces
//! holding the parent nodes above them; the bytes reach the caller only
//! once the Bao decoder has verified them against the file's recorded
//! BLAKE3 root.

use crate::address::Address;
use crate::error::{Error, Result};
use crate::object::{Content, FileRoot, Node};
use crate::pack;
use crate::roots::{self, SliceItem, GROUP_LOG, NODE_LEN, PIECE_LEN};
use crate::store::Store;
use chunkhash::blake3::bao;
use std::collections::HashMap;
use std::io::{self, Read, Write};
use std::ops::Range;

/// What a ranged read wrote.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RangeReport {
    /// The file's size.
    pub size: u64,
    /// The bytes written: the range, its end capped at the file's size.
    pub range: Range<u64>,
}

impl Store {
    /// Writes bytes `range` of the file at `path` (`/`-separated, inside
    /// `snapshot`) to `out`, each verified against the file's BLAKE3 root
    /// before it is written. The end is capped at the file's size; a range
    /// that starts past the end, or ends before it starts, is refused, and
    /// an empty one writes nothing. It reads the snapshot's trees along the
    /// path, the file's chunk lists, and then only the chunks and outboard
    /// pieces the range's chunk groups need.
    ///
    /// Errors: no such file, or a file stored without a root
    /// ([`PutOptions::roots`](crate::PutOptions::roots)) is
    /// [`Error::BadRange`]; damage (a record that fails its check, bytes
    /// that do not verify against the root) is [`Error::Corrupt`], after
    /// the verified bytes before it have been written.
    pub fn read_range(
        &self,
        snapshot: &Address,
        path: &[u8],
        range: Range<u64>,
        out: &mut dyn Write,
    ) -> Result<RangeReport> {
        let shown = String::from_utf8_lossy(path).into_owned();
        let refuse = |reason: String| Err(Error::BadRange { path: shown.clone(), reason });
        if range.start > range.end {
            return refuse(format!("the range {}..{} ends before it starts", range.start, range.end));
        }
        let (size, content, root) = match self.find(snapshot, path)? {
            Some(Node::File { size, content, root: Some(root), .. }) => (size, content, root),
            Some(Node::File { .. }) => {
                return refuse("stored without a BLAKE3 root (put without --roots); get it whole".into());
            }
            Some(_) => return refuse(format!("not a regular file in snapshot {snapshot}")),
            None => return refuse(format!("no such file in snapshot {snapshot}")),
        };
        if range.start > size {
            return refuse(format!("the range {}..{} starts past the end ({size} bytes)", range.start, range.end));
        }
        let range = range.start..range.end.min(size);
        if range.is_empty() {
            return Ok(RangeReport { size, range });
        }
        let what = format!("bytes {}..{} of {shown} in snapshot {snapshot}", range.start, range.end);
        let stream = SliceStream {
            store: self,
            chunks: self.chunk_map(&content, size, &shown)?,
            pieces: self.pieces(&root, size, &shown)?,
            items: roots::slice_plan(size, &range),
            next: 0,
            header: Some(size),
            item: Vec::new(),
            at: 0,
            piece_cache: HashMap::new(),
            chunk_cache: None,
        };
        let tree = bao::Tree::new(bao::Mode::hash(), GROUP_LOG).expect("the store's group size is valid");
        let ranges = [range.clone()];
        let mut reader = bao::SliceReader::new(stream, tree, root.root, &ranges);
        let mut buf = vec![0u8; 256 * 1024];
        loop {
            let n = match reader.read(&mut buf) {
                Ok(0) => break,
                Ok(n) => n,
                Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
                Err(error) => return Err(verify_error(error, &what, &root)),
            };
            out.write_all(&buf[..n]).map_err(|e| Error::io("writing", "the output", e))?;
        }
        out.flush().map_err(|e| Error::io("writing", "the output", e))?;
        Ok(RangeReport { size, range })
    }

    /// The node at `path` in `snapshot`, reading only the trees along it.
    fn find(&self, snapshot: &Address, path: &[u8]) -> Result<Option<Node>> {
        self.check_pointer(snapshot)?;
        let mut tree = self.snapshot(snapshot)?.tree;
        let mut names = path.split(|&b| b == b'/').filter(|name| !name.is_empty()).peekable();
        while let Some(name) = names.next() {
            let entries = self.read_tree(&tree)?.entries;
            let Ok(found) = entries.binary_search_by(|entry| entry.name.as_slice().cmp(name)) else {
                return Ok(None);
            };
            let node = entries.into_iter().nth(found).expect("found").node;
            match node {
                Node::Dir { tree: child, .. } if names.peek().is_some() => tree = child,
                node if names.peek().is_none() => return Ok(Some(node)),
                _ => return Ok(None),
            }
        }
        Ok(None)
    }

    /// Payload bytes of the record at `address`, by the index.
    fn payload_len(&self, address: &Address) -> Result<u64> {
        let location = self.index.get(address).ok_or(Error::MissingObject(*address))?;
        let overhead = pack::RECORD_HEADER_LEN
            + self.manifest.address.digest_len()
            + chunkhash::trailer::trailer_len(self.manifest.trailer);
        u64::from(location.len)
            .checked_sub(overhead as u64)
            .ok_or_else(|| Error::corrupt(format!("the index entry of {address}"), "shorter than a record"))
    }

    /// Where each chunk of a file starts, and its address; an error unless
    /// the chunks hold `size` bytes.
    fn chunk_map(&self, content: &Content, size: u64, path: &str) -> Result<Vec<(u64, Address)>> {
        let mut chunks = Vec::new();
        let mut offset = 0u64;
        let corrupt =
            |what: String| Error::corrupt(format!("file {path}"), format!("{what}, its entry says {size} bytes"));
        self.visit_chunks(content, &mut |_| false, &mut |addresses| {
            for address in addresses {
                // Chunks are never empty: a list longer than the file is damage.
                if chunks.len() as u64 >= size {
                    return Err(corrupt(format!("its chunk lists name more than {size} chunks")));
                }
                chunks.push((offset, *address));
                offset += self.payload_len(address)?;
            }
            Ok(())
        })?;
        if offset != size {
            return Err(corrupt(format!("its chunks hold {offset} bytes")));
        }
        Ok(chunks)
    }

    /// The addresses of a file's outboard pieces; an error unless there are
    /// as many as its size needs.
    fn pieces(&self, root: &FileRoot, size: u64, path: &str) -> Result<Vec<Address>> {
        let expected = roots::outboard_len(size).div_ceil(PIECE_LEN as u64);
        let mut pieces = Vec::new();
        let what = || format!("the Bao outboard of {path}");
        self.visit_chunks(&root.outboard, &mut |_| false, &mut |addresses| {
            if pieces.len() as u64 + addresses.len() as u64 > expected {
                return Err(Error::corrupt(what(), format!("more than the {expected} pieces of {size} bytes")));
            }
            pieces.extend_from_slice(addresses);
            Ok(())
        })?;
        if pieces.len() as u64 != expected {
            return Err(Error::corrupt(what(), format!("{} pieces, {size} bytes need {expected}", pieces.len())));
        }
        Ok(pieces)
    }

    /// A record's payload: its trailer and the address it holds checked;
    /// its bytes are verified by the Bao decoder.
    fn record(&self, address: &Address) -> Result<Vec<u8>> {
        let location = self.index.get(address).ok_or(Error::MissingObject(*address))?;
        self.read_record(&self.index.pack(location.pack), location.offset, location.len, address)
    }
}

/// A read error as the store's: the store's own errors come back as they
/// were, a failed verification names the bytes and the root.
fn verify_error(error: io::Error, what: &str, root: &FileRoot) -> Error {
    if error.get_ref().is_some_and(|inner| inner.is::<Error>()) {
        return *error.into_inner().expect("checked").downcast::<Error>().expect("checked");
    }
    let reason = match error.get_ref().and_then(|inner| inner.downcast_ref::<bao::BaoError>()) {
        Some(bao) => format!("does not verify against the file's BLAKE3 root {}: {bao}", root.root),
        None => format!("cannot be verified against the file's BLAKE3 root {}: {error}", root.root),
    };
    Error::corrupt(what, reason)
}

/// The Bao slice of one range, made item by item from the store: the
/// length header, then parent nodes (from the outboard's pieces) and chunk
/// groups (from the file's chunks) in the order the plan gives.
struct SliceStream<'s> {
    store: &'s Store,
    /// Each chunk's offset in the file and address, in order.
    chunks: Vec<(u64, Address)>,
    pieces: Vec<Address>,
    items: Vec<SliceItem>,
    next: usize,
    /// The file's size, until the header is given.
    header: Option<u64>,
    /// The current item's bytes, given from `at` on.
    item: Vec<u8>,
    at: usize,
    piece_cache: HashMap<u64, Vec<u8>>,
    /// The last chunk read (a chunk may hold parts of two groups).
    chunk_cache: Option<(usize, Vec<u8>)>,
}

impl SliceStream<'_> {
    /// Makes the next item's bytes; false at the end.
    fn next_item(&mut self) -> Result<bool> {
        self.item.clear();
        self.at = 0;
        if let Some(size) = self.header.take() {
            self.item.extend_from_slice(&size.to_le_bytes());
            return Ok(true);
        }
        let Some(item) = self.items.get(self.next).cloned() else { return Ok(false) };
        self.next += 1;
        match item {
            SliceItem::Node(index) => {
                let at = index * NODE_LEN as u64;
                let piece = at / PIECE_LEN as u64;
                if !self.piece_cache.contains_key(&piece) {
                    let bytes = self.store.record(&self.pieces[piece as usize])?;
                    self.piece_cache.insert(piece, bytes);
                }
                let bytes = &self.piece_cache[&piece];
                let start = (at % PIECE_LEN as u64) as usize;
                // A short piece gives a short node, which the decoder refuses.
                self.item.extend_from_slice(bytes.get(start..(start + NODE_LEN).min(bytes.len())).unwrap_or_default());
            }
            SliceItem::Group(bytes) => {
                // The chunk holding the group's first byte, then the next ones.
                let mut chunk = self.chunks.partition_point(|(offset, _)| *offset <= bytes.start) - 1;
                let mut position = bytes.start;
                while position < bytes.end && chunk < self.chunks.len() {
                    let (offset, address) = self.chunks[chunk];
                    if self.chunk_cache.as_ref().is_none_or(|(cached, _)| *cached != chunk) {
                        self.chunk_cache = Some((chunk, self.store.record(&address)?));
                    }
                    let payload = &self.chunk_cache.as_ref().expect("just cached").1;
                    let from = position.saturating_sub(offset) as usize;
                    let to = ((bytes.end - offset) as usize).min(payload.len());
                    // A payload shorter than its index entry gives a short
                    // group, which the decoder refuses.
                    self.item.extend_from_slice(payload.get(from..to).unwrap_or_default());
                    position = offset + to as u64;
                    chunk += 1;
                }
            }
        }
        Ok(true)
    }
}

impl Read for SliceStream<'_> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        while self.at == self.item.len() {
            if !self.next_item().map_err(io::Error::other)? {
                return Ok(0);
            }
        }
        let n = out.len().min(self.item.len() - self.at);
        out[..n].copy_from_slice(&self.item[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::PutOptions;
    use crate::object::{Entry, Tree};
    use crate::restore::tests::{add, new_store, snapshot};
    use std::fs;

    fn file(listed: &[crate::Listed], name: &str) -> Node {
        listed.iter().find(|entry| entry.path == name.as_bytes()).unwrap().node.clone()
    }

    /// Store records that all pass their checks, put together wrongly: only
    /// the Bao verification against the root can tell.
    #[test]
    fn sound_records_that_do_not_make_the_file_fail_against_its_root() {
        let (dir, mut store) = new_store("ranged-mixed");
        fs::create_dir_all(dir.join("data")).unwrap();
        // Two files of one length, and a third of the first's chunks in
        // another order (chunks of 64 KiB on average: a few each).
        let a: Vec<u8> = (0..300_000u32).map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8).collect();
        let b: Vec<u8> = a.iter().map(|x| x ^ 0x5a).collect();
        fs::write(dir.join("data/a"), &a).unwrap();
        fs::write(dir.join("data/b"), &b).unwrap();
        let put = store.put(&[dir.join("data")], PutOptions { roots: true, ..PutOptions::default() }).unwrap();
        let listed = store.ls(&put.snapshot).unwrap();
        let (Node::File { content: a_content, root: Some(a_root), .. }, Node::File { root: Some(b_root), .. }) =
            (file(&listed, "data/a"), file(&listed, "data/b"))
        else {
            panic!("{listed:?}")
        };
        assert!(a_content.addresses.len() > 1, "{a_content:?}");
        let mut reversed = a_content.clone();
        reversed.addresses.reverse();
        let entry = |name: &str, content: &Content, root: &FileRoot| Entry {
            name: name.into(),
            node: Node::File { mode: 0o644, size: a.len() as u64, content: content.clone(), root: Some(root.clone()) },
        };
        let mut other_outboard = a_root.clone();
        other_outboard.outboard = b_root.outboard.clone();
        let mut other_root = a_root.clone();
        other_root.root = b_root.root;
        let tree = Tree {
            entries: vec![
                entry("other-outboard", &a_content, &other_outboard),
                entry("other-root", &a_content, &other_root),
                entry("reordered", &reversed, &a_root),
                entry("sound", &a_content, &a_root),
            ],
        };
        let mixed = snapshot(&mut store, 4, 4 * a.len() as u64, |store, commit| add(store, commit, &tree.encode()));
        let read = |name: &str, range: Range<u64>| {
            let mut out = Vec::new();
            store.read_range(&mixed, name.as_bytes(), range, &mut out).map(|_| out)
        };
        assert_eq!(read("sound", 1000..250_000).unwrap(), &a[1000..250_000]);
        for name in ["other-outboard", "other-root", "reordered"] {
            let error = read(name, 1000..250_000).unwrap_err();
            assert!(error.is_damage() && error.to_string().contains("does not verify"), "{name}: {error}");
        }
    }
}
