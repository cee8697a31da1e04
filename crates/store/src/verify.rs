//! `verify`: every record of every pack read and checked (structure,
//! trailer, stored address, hash of the payload), every snapshot walked,
//! and each damaged or missing chunk named with the files it belongs to.
//! Also `stats`.

use crate::address::{Address, Hashing};
use crate::error::{Error, Result};
use crate::index::Location;
use crate::object::{Content, Node};
use crate::pack::{self, PACK_HEADER_LEN};
use crate::restore::MAX_TREE_DEPTH;
use crate::sizes::ChunkSizes;
use crate::store::Store;
use chunkhash::trailer::trailer_len;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::io;

/// Files named per damaged chunk before "and N more".
const FILES_NAMED: usize = 8;

/// One problem `verify` found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Damage {
    /// What is damaged: "chunk ADDRESS in PACK at offset N", a pack, a snapshot.
    pub what: String,
    /// How.
    pub reason: String,
    /// The damaged record's address, when it is one.
    pub address: Option<Address>,
    /// The files (`SNAPSHOT:path`) that hold the chunk, when known.
    pub files: Vec<String>,
}

/// What `verify` found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct VerifyReport {
    /// Packs read.
    pub packs: u64,
    /// Records checked.
    pub records: u64,
    /// Bytes read.
    pub bytes: u64,
    /// Snapshots walked.
    pub snapshots: u64,
    /// Every problem; empty when the store is sound.
    pub damage: Vec<Damage>,
    /// Things worth knowing that are not damage.
    pub notes: Vec<String>,
}

/// What `stats` reports.
#[derive(Clone, Debug, Default)]
pub struct Stats {
    /// Snapshots.
    pub snapshots: u64,
    /// Packs.
    pub packs: u64,
    /// Bytes of the packs on disk.
    pub pack_bytes: u64,
    /// Records: chunks and metadata objects, each stored once.
    pub records: u64,
    /// Bytes of their payloads.
    pub payload_bytes: u64,
    /// Bytes of all files of all snapshots, as if each were stored whole.
    pub logical_bytes: u64,
    /// Payload sizes of the records.
    pub sizes: ChunkSizes,
}

impl Stats {
    /// Logical bytes over stored payload bytes: 2.0 means each stored byte
    /// serves two bytes of files.
    pub fn dedup_ratio(&self) -> f64 {
        if self.payload_bytes == 0 {
            1.0
        } else {
            self.logical_bytes as f64 / self.payload_bytes as f64
        }
    }
}

impl Store {
    /// Checks every record and every snapshot. Damage is reported in the
    /// result, not as an error; errors are for what stops the check itself
    /// (an unreadable directory).
    pub fn verify(&self, mut progress: Option<&mut dyn FnMut(u64)>) -> Result<VerifyReport> {
        let mut report = VerifyReport::default();
        let mut damaged: HashMap<Address, usize> = HashMap::new();
        self.verify_packs(&mut report, &mut damaged, &mut progress)?;
        // Which files hold which chunks: every snapshot walked.
        let mut owners: HashMap<Address, Vec<String>> = HashMap::new();
        for snapshot in self.snapshots()? {
            report.snapshots += 1;
            let label = snapshot.to_hex()[..12].to_string();
            let mut walk = Walk { store: self, owners: &mut owners, report: &mut report, label, seen: HashSet::new() };
            walk.snapshot(&snapshot);
        }
        for (address, &at) in &damaged {
            if let Some(files) = owners.get(address) {
                report.damage[at].files = files.clone();
            }
        }
        for damage in &mut report.damage {
            if damage.files.len() > FILES_NAMED {
                let more = damage.files.len() - FILES_NAMED;
                damage.files.truncate(FILES_NAMED);
                damage.files.push(format!("and {more} more"));
            }
        }
        Ok(report)
    }

    fn verify_packs(
        &self,
        report: &mut VerifyReport,
        damaged: &mut HashMap<Address, usize>,
        progress: &mut Option<&mut dyn FnMut(u64)>,
    ) -> Result<()> {
        // Packs unindexed at open were scanned then (a reader) or indexed
        // (a writer), so one unknown now was sealed since by a running
        // writer: newer than the view this check covers, not damage.
        for id in self.orphan_packs()? {
            let name = self.describe(&pack::pack_file(&id));
            report.notes.push(format!("{name}: sealed by a running writer after the store was opened; not checked"));
        }
        for (name, reason) in &self.damaged_index_files {
            report.damage.push(Damage {
                what: format!("index file {name}"),
                reason: format!("{reason}; `chunkhash store reindex` rebuilds the index from the packs"),
                address: None,
                files: Vec::new(),
            });
        }
        let mut by_pack: BTreeMap<u32, Vec<(Address, Location)>> = BTreeMap::new();
        for (address, location) in self.index.iter() {
            by_pack.entry(location.pack).or_default().push((*address, *location));
        }
        let address_len = self.manifest.address.digest_len();
        let mut hasher = self.hasher(Hashing::Batch);
        // A pack the index knows without a single entry (one whose scan, at
        // open or by an earlier writer, found no sound record) has nothing
        // below to check it by: scanned again here, its damage reported.
        let with_entries: HashSet<pack::PackId> = by_pack.keys().map(|&number| self.index.pack(number)).collect();
        for &id in self.index.packs().iter().filter(|id| !with_entries.contains(*id)) {
            let name = pack::pack_file(&id);
            let described = self.describe(&name);
            let bytes = match self.location.read(&name) {
                Ok(bytes) => bytes,
                // Nothing of it was reachable: nothing is lost.
                Err(error) if error.kind() == io::ErrorKind::NotFound => continue,
                Err(error) => return Err(Error::io("reading", &described, error)),
            };
            report.packs += 1;
            report.bytes += bytes.len() as u64;
            let scan = pack::scan(&bytes, &mut hasher, self.manifest.trailer);
            if scan.damaged.is_empty() {
                report.notes.push(format!("{described}: holds no records"));
            }
            for stretch in scan.damaged {
                report.damage.push(Damage {
                    what: format!("{described} bytes {}..{}", stretch.start, stretch.end),
                    reason: format!("{}; the pack holds no sound record", stretch.reason),
                    address: None,
                    files: Vec::new(),
                });
            }
        }
        for (pack, mut records) in by_pack {
            records.sort_by_key(|(_, location)| location.offset);
            let name = pack::pack_file(&self.index.pack(pack));
            let described = self.describe(&name);
            report.packs += 1;
            let mut damage = |report: &mut VerifyReport, address: Option<Address>, what: String, reason: String| {
                if let Some(address) = address {
                    damaged.insert(address, report.damage.len());
                }
                report.damage.push(Damage { what, reason, address, files: Vec::new() });
            };
            let chunk = |address: &Address, location: &Location| {
                format!("chunk {address} in {described} at offset {}", location.offset)
            };
            let bytes = match self.location.read(&name) {
                Ok(bytes) => bytes,
                Err(error) if error.kind() == io::ErrorKind::NotFound => {
                    for (address, location) in &records {
                        damage(report, Some(*address), chunk(address, location), "the pack is missing".into());
                    }
                    continue;
                }
                // The object store's checksum of the pack differs from the
                // bytes received: every record in it is suspect.
                Err(error) if error.kind() == io::ErrorKind::InvalidData => {
                    damage(report, None, described.clone(), error.to_string());
                    for (address, location) in &records {
                        damage(report, Some(*address), chunk(address, location), "its pack is corrupt".into());
                    }
                    continue;
                }
                Err(error) => return Err(Error::io("reading", &described, error)),
            };
            report.bytes += bytes.len() as u64;
            if let Some(progress) = progress {
                progress(bytes.len() as u64);
            }
            if let Err(reason) = pack::check_header(&bytes, self.manifest.address, self.manifest.trailer) {
                damage(report, None, described.clone(), format!("pack header: {reason}"));
            }
            let mut sound = Vec::with_capacity(records.len());
            let mut covered = PACK_HEADER_LEN as u64;
            for (address, location) in &records {
                report.records += 1;
                let (start, end) = (location.offset, location.offset + u64::from(location.len));
                if start < covered {
                    damage(
                        report,
                        None,
                        format!("{described} bytes {start}..{covered}"),
                        "belong to two records".into(),
                    );
                } else if start > covered && !is_record_chain(&bytes, covered, start, address_len) {
                    damage(
                        report,
                        None,
                        format!("{described} bytes {covered}..{start}"),
                        "belong to no sound record".into(),
                    );
                }
                covered = covered.max(end);
                if end > bytes.len() as u64 {
                    let reason = format!("the record runs past the end of the pack ({} bytes): truncated", bytes.len());
                    damage(report, Some(*address), chunk(address, location), reason);
                    continue;
                }
                match pack::parse_record(&bytes[start as usize..end as usize], start, address_len) {
                    Ok((stored, _)) if stored != *address => {
                        damage(
                            report,
                            Some(*address),
                            chunk(address, location),
                            format!("the record there holds {stored}"),
                        );
                    }
                    Ok((_, payload)) => sound.push((*address, *location, payload)),
                    Err(reason) => damage(report, Some(*address), chunk(address, location), reason),
                }
            }
            let end = bytes.len() as u64;
            if covered < end && !is_record_chain(&bytes, covered, end, address_len) {
                damage(report, None, format!("{described} bytes {covered}..{end}"), "belong to no sound record".into());
            }
            let payloads: Vec<&[u8]> = sound.iter().map(|(_, _, payload)| *payload).collect();
            let mut computed = Vec::with_capacity(payloads.len());
            hasher.addresses(&payloads, &mut computed);
            for ((address, location, _), computed) in sound.iter().zip(&computed) {
                if address != computed {
                    let reason = format!("its bytes hash to {computed}: damaged with a matching trailer");
                    damage(report, Some(*address), chunk(address, location), reason);
                }
            }
        }
        Ok(())
    }

    /// Counts and sizes, from the index and the snapshot roots.
    pub fn stats(&self) -> Result<Stats> {
        let mut stats = Stats { packs: self.index.packs().len() as u64, ..Stats::default() };
        let overhead = crate::pack::RECORD_HEADER_LEN as u64
            + self.manifest.address.digest_len() as u64
            + trailer_len(self.manifest.trailer) as u64;
        for (_, location) in self.index.iter() {
            let payload = u64::from(location.len).saturating_sub(overhead);
            stats.records += 1;
            stats.payload_bytes += payload;
            stats.sizes.add(payload);
        }
        for id in self.index.packs() {
            let name = pack::pack_file(id);
            stats.pack_bytes += self.location.len(&name).unwrap_or(0);
        }
        for snapshot in self.snapshots()? {
            stats.snapshots += 1;
            stats.logical_bytes += self.snapshot(&snapshot)?.bytes;
        }
        Ok(stats)
    }
}

/// Whether `bytes[from..to]` is a chain of records with sound trailers:
/// records the index does not point to, because the same chunk is indexed
/// in another pack (an interrupted put's records, sealed on recovery, may
/// repeat chunks a later put stored again).
fn is_record_chain(bytes: &[u8], from: u64, to: u64, address_len: usize) -> bool {
    let mut at = from as usize;
    while at < to as usize {
        match pack::parse_record_at(&bytes[..to as usize], at, address_len) {
            Ok((len, _, _)) => at += len,
            Err(_) => return false,
        }
    }
    true
}

/// Walks snapshots, noting which files hold which chunks, and what cannot
/// be read.
struct Walk<'a> {
    store: &'a Store,
    owners: &'a mut HashMap<Address, Vec<String>>,
    report: &'a mut VerifyReport,
    label: String,
    /// Trees and chunk lists of this snapshot already walked: a subtree
    /// named many times (copies of a directory, or a crafted snapshot whose
    /// trees each name the next twice) is checked once, at its first path,
    /// so the walk reads each distinct object once.
    seen: HashSet<Address>,
}

impl Walk<'_> {
    fn damage(&mut self, what: String, error: Error) {
        let reason = match error {
            Error::MissingObject(_) => "it is not in the store".to_string(),
            Error::Corrupt { what: inner, reason } => format!("{inner}: {reason}"),
            other => other.to_string(),
        };
        self.report.damage.push(Damage { what, reason, address: None, files: Vec::new() });
    }

    fn snapshot(&mut self, address: &Address) {
        if let Err(error) = self.store.check_pointer(address) {
            self.damage(format!("snapshot {address}"), error);
        }
        match self.store.snapshot(address) {
            Ok(root) => self.tree(&root.tree, "", 0),
            Err(error) => self.damage(format!("snapshot {address}: its root"), error),
        }
    }

    /// Walks the tree at `address`, `depth` directory levels below the top
    /// (recursion bounded by `MAX_TREE_DEPTH`).
    fn tree(&mut self, address: &Address, dir: &str, depth: usize) {
        if depth > MAX_TREE_DEPTH {
            let what = format!("{}:{}", self.label, or_root(dir));
            let reason = format!("directories nest deeper than {MAX_TREE_DEPTH} levels, the limit; not walked further");
            self.report.damage.push(Damage { what, reason, address: None, files: Vec::new() });
            return;
        }
        if !self.seen.insert(*address) {
            return;
        }
        let tree = match self.store.read_tree(address) {
            Ok(tree) => tree,
            Err(error) => {
                let what =
                    format!("{}:{}: the directory's tree (its entries cannot be listed)", self.label, or_root(dir));
                return self.damage(what, error);
            }
        };
        for entry in tree.entries {
            let path = if dir.is_empty() {
                String::from_utf8_lossy(&entry.name).into_owned()
            } else {
                format!("{dir}/{}", String::from_utf8_lossy(&entry.name))
            };
            match entry.node {
                Node::File { content, root, .. } => {
                    self.file(&content, &path);
                    if let Some(root) = root {
                        self.file(&root.outboard, &format!("{path} (its Bao outboard)"));
                    }
                }
                Node::Dir { tree, .. } => self.tree(&tree, &path, depth + 1),
                Node::Symlink { .. } => {}
            }
        }
    }

    fn file(&mut self, content: &Content, path: &str) {
        let file = format!("{}:{path}", self.label);
        let Walk { store, owners, report, seen, .. } = self;
        let result = store.visit_chunks(content, &mut |list| !seen.insert(*list), &mut |chunks| {
            for chunk in chunks {
                if !store.index.contains(chunk) {
                    report.damage.push(Damage {
                        what: format!("chunk {chunk}"),
                        reason: "it is not in the store".into(),
                        address: Some(*chunk),
                        files: vec![file.clone()],
                    });
                    continue;
                }
                let owners = owners.entry(*chunk).or_default();
                if owners.last() != Some(&file) {
                    owners.push(file.clone());
                }
            }
            Ok(())
        });
        if let Err(error) = result {
            self.damage(format!("{file}: its chunk list"), error);
        }
    }
}

fn or_root(dir: &str) -> &str {
    if dir.is_empty() {
        "/"
    } else {
        dir
    }
}
