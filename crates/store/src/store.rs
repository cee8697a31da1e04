//! A store: opening and creating one, recovery after an interrupted writer,
//! verified reads, and the commit that makes a snapshot visible.

use crate::address::{check_address_algorithm, Address, AddressHasher, Hashing};
use crate::error::{Error, Result};
use crate::index::{self, Index, INDEX};
use crate::location::{Directory, Location, ObjectSums, WriterLock};
use crate::manifest::{ChunkerSettings, Manifest, FORMAT_VERSION};
use crate::object::{Content, Snapshot, Tree};
use crate::pack::{self, PackId, PackWriter, RecordRef, OPEN_PACK, PACKS};
use chunkhash::Algorithm;
use std::collections::HashSet;
use std::io;
use std::path::{Path, PathBuf};

/// The manifest's name.
pub(crate) const MANIFEST: &str = "manifest";
/// The folder of snapshot pointers.
pub(crate) const SNAPSHOTS: &str = "snapshots";
/// Dropped index entries `reindex` names one by one before "and N more".
const DROPPED_NAMED: usize = 8;
/// A pack is sealed once it holds this many bytes.
pub const DEFAULT_PACK_TARGET: u64 = 32 << 20;

/// How a new store is made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CreateOptions {
    /// The address algorithm: BLAKE3-160 by default; BLAKE3, SHA-512/160,
    /// SHA-256 and BLAKE2b-256 may be chosen.
    pub address: Algorithm,
    /// The trailer of every record: CRC32C by default, any algorithm of the
    /// registry.
    pub trailer: Algorithm,
    /// The chunker.
    pub chunker: ChunkerSettings,
}

impl Default for CreateOptions {
    fn default() -> Self {
        CreateOptions { address: Algorithm::Blake3_160, trailer: Algorithm::Crc32c, chunker: ChunkerSettings::DEFAULT }
    }
}

/// How a store is opened.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OpenOptions {
    /// The address algorithm the caller expects, if any: another one is an
    /// [`Error::UnexpectedAlgorithm`].
    pub expect: Option<Algorithm>,
    /// Take the writer lock (needed by `put` and `reindex`). Without it
    /// the store is only read: nothing is written, no lock is taken, and
    /// what an interrupted or running writer left is read, not repaired.
    pub write: bool,
    /// Make every commit durable with fsync (default). Without it a crash
    /// of the process still leaves a sound store, a power cut may not.
    pub fsync: bool,
    /// Seal packs at this size.
    pub pack_target: u64,
}

impl Default for OpenOptions {
    fn default() -> Self {
        OpenOptions { expect: None, write: false, fsync: true, pack_target: DEFAULT_PACK_TARGET }
    }
}

/// An open store.
#[derive(Debug)]
pub struct Store {
    pub(crate) location: Box<dyn Location>,
    pub(crate) manifest: Manifest,
    pub(crate) index: Index,
    lock: Option<WriterLock>,
    /// A reader's view: the snapshots listed when it opened, before it read
    /// the index (so the index covers each of them). `None` for a writer,
    /// which lists the folder each time.
    view: Option<Vec<Address>>,
    /// Index files that could not be read, with the reason: their packs
    /// were scanned instead, and `verify` reports them.
    pub(crate) damaged_index_files: Vec<(String, String)>,
    pub(crate) options: OpenOptions,
    notes: Vec<String>,
}

fn io_error(location: &dyn Location, action: &'static str, name: &str) -> impl FnOnce(io::Error) -> Error {
    let path = PathBuf::from(location.describe(name));
    move |source| Error::io(action, path, source)
}

impl Store {
    /// Creates a store in `dir` (a new or empty directory) and opens it
    /// for writing.
    pub fn create(dir: &Path, create: CreateOptions, open: OpenOptions) -> Result<Store> {
        check_create(&create)?;
        match std::fs::read_dir(dir) {
            Ok(mut entries) => {
                if entries.next().is_some() {
                    return Err(Error::AlreadyExists(dir.to_path_buf()));
                }
            }
            Err(error) if error.kind() == io::ErrorKind::NotFound => {}
            Err(error) => return Err(Error::io("reading", dir, error)),
        }
        for folder in [PACKS, INDEX, SNAPSHOTS] {
            let path = dir.join(folder);
            std::fs::create_dir_all(&path).map_err(|e| Error::io("creating", &path, e))?;
        }
        // The manifest last: a directory without one is not a store yet.
        Store::create_location(Box::new(Directory::new(dir)), create, open)
    }

    /// Creates a store at any [`Location`] (one without a manifest) and
    /// opens it for writing. The manifest is written only if none is there
    /// (a conditional write), so of two racing creators one gets
    /// `Error::AlreadyExists`.
    pub fn create_location(location: Box<dyn Location>, create: CreateOptions, open: OpenOptions) -> Result<Store> {
        check_create(&create)?;
        let manifest = Manifest {
            format_version: FORMAT_VERSION,
            address: create.address,
            trailer: create.trailer,
            chunker: create.chunker,
        };
        match location.write_new(MANIFEST, manifest.encode().as_bytes(), true) {
            Err(error) if error.kind() == io::ErrorKind::AlreadyExists => {
                return Err(Error::AlreadyExists(PathBuf::from(location.describe(""))));
            }
            result => result.map_err(io_error(&*location, "writing", MANIFEST))?,
        }
        Store::open_location(location, OpenOptions { write: true, ..open })
    }

    /// Opens the store in `dir`.
    pub fn open(dir: &Path, options: OpenOptions) -> Result<Store> {
        Store::open_location(Box::new(Directory::new(dir)), options)
    }

    /// Opens a store at any [`Location`].
    ///
    /// A writer (`options.write`) takes the lock and repairs what an
    /// interrupted writer left (see `recover`). A reader never writes and
    /// takes no lock: it lists the snapshots, then reads the index, then
    /// scans in memory the packs no index file lists (sealed by a running
    /// or interrupted writer), so it sees every snapshot it listed whole
    /// whatever a writer does meanwhile. A pack still being filled is not
    /// in `packs/` under a pack name, so readers never see it.
    pub fn open_location(location: Box<dyn Location>, options: OpenOptions) -> Result<Store> {
        let mut store = Store::open_unindexed(location, options)?;
        if options.write {
            store.load_index()?;
            store.recover(true)?;
        } else {
            store.view = Some(store.list_snapshots()?);
            store.load_index()?;
            for (id, records) in
                store.scan_orphans(&[], "in memory (no index file lists it yet; the next put indexes it)")?
            {
                store.index.add(id, &records);
            }
        }
        Ok(store)
    }

    /// Reads the manifest and takes the lock, without reading the index.
    fn open_unindexed(location: Box<dyn Location>, options: OpenOptions) -> Result<Store> {
        let manifest_path = PathBuf::from(location.describe(MANIFEST));
        let bytes = match location.read(MANIFEST) {
            Ok(bytes) => bytes,
            Err(error) if error.kind() == io::ErrorKind::NotFound => {
                return Err(Error::NotAStore(PathBuf::from(location.describe(""))));
            }
            Err(error) => return Err(Error::io("reading", manifest_path, error)),
        };
        let manifest = Manifest::parse(&bytes, &manifest_path)?;
        if let Some(expected) = options.expect {
            if expected != manifest.address {
                return Err(Error::UnexpectedAlgorithm { expected, found: manifest.address });
            }
        }
        let mut store = Store {
            location,
            manifest,
            index: Index::default(),
            lock: None,
            view: None,
            damaged_index_files: Vec::new(),
            options,
            notes: Vec::new(),
        };
        if options.write {
            store.lock = Some(store.take_lock()?.map_err(|holder| Error::Locked {
                path: PathBuf::from(store.location.describe(crate::location::LOCK_FILE)),
                holder,
            })?);
        }
        Ok(store)
    }

    fn take_lock(&self) -> Result<Result<WriterLock, String>> {
        let name = crate::location::LOCK_FILE;
        self.location.try_lock().map_err(io_error(&*self.location, "locking", name))
    }

    /// The manifest.
    pub fn manifest(&self) -> &Manifest {
        &self.manifest
    }

    /// The address algorithm.
    pub fn algorithm(&self) -> Algorithm {
        self.manifest.address
    }

    /// The index.
    pub fn index(&self) -> &Index {
        &self.index
    }

    /// What opening the store found and repaired (a torn record cut off, a
    /// pack indexed after an interrupted put), one message each.
    pub fn notes(&self) -> &[String] {
        &self.notes
    }

    pub(crate) fn note(&mut self, note: String) {
        self.notes.push(note);
    }

    pub(crate) fn describe(&self, name: &str) -> String {
        self.location.describe(name)
    }

    pub(crate) fn hasher(&self, hashing: Hashing) -> AddressHasher {
        AddressHasher::new(self.manifest.address, hashing)
    }

    /// Reads every index file. One that cannot be read is skipped with a
    /// note: the packs it listed are then found unindexed and scanned.
    fn load_index(&mut self) -> Result<()> {
        let (index, damaged) = self.read_index_files()?;
        for (name, reason) in &damaged {
            self.note(format!(
                "{name}: damaged ({reason}); its packs were scanned instead, \
                 `chunkhash store reindex` rebuilds the index from the packs"
            ));
        }
        self.index = index;
        self.damaged_index_files = damaged;
        Ok(())
    }

    /// The union of the index files, and those that could not be read
    /// (described name, reason).
    fn read_index_files(&self) -> Result<(Index, Vec<(String, String)>)> {
        let names = self.location.list(INDEX).map_err(io_error(&*self.location, "listing", INDEX))?;
        let mut index = Index::default();
        let mut damaged = Vec::new();
        for name in names.iter().filter(|name| index::is_index_file(name)) {
            let name = format!("{INDEX}/{name}");
            let bytes = match self.location.read(&name) {
                Ok(bytes) => bytes,
                // Removed by a concurrent reindex, which wrote its
                // replacement first: read the folder again.
                Err(error) if error.kind() == io::ErrorKind::NotFound => return self.read_index_files(),
                Err(error) => return Err(Error::io("reading", self.location.describe(&name), error)),
            };
            if let Err(reason) = index.merge_file(&bytes, self.manifest.address) {
                damaged.push((self.describe(&name), reason));
            }
        }
        Ok((index, damaged))
    }

    /// Repairs what an interrupted writer left, holding the writer lock:
    /// the open pack is cut back to its sound records and sealed, and
    /// (with `index_orphans`) packs missing from the index are scanned and
    /// indexed. Readers never do this; they scan such packs in memory.
    fn recover(&mut self, index_orphans: bool) -> Result<()> {
        let _ = self.location.remove_temporaries();
        let mut recovered: Vec<(PackId, Vec<RecordRef>)> = Vec::new();
        if let Some(sealed) = self.recover_open_pack()? {
            recovered.push(sealed);
        }
        if index_orphans {
            let done: Vec<PackId> = recovered.iter().map(|(id, _)| *id).collect();
            recovered.extend(self.scan_orphans(&done, "of a pack an interrupted put sealed but did not index")?);
        }
        if !recovered.is_empty() {
            self.write_index_file(&recovered)?;
        }
        Ok(())
    }

    /// Scans the packs the index does not know (but those in `skip`), with
    /// a note for each saying how it was `indexed`, and one for each
    /// damaged stretch (its sound records are still returned).
    fn scan_orphans(&mut self, skip: &[PackId], indexed: &str) -> Result<Vec<(PackId, Vec<RecordRef>)>> {
        let mut found = Vec::new();
        let mut hasher = self.hasher(Hashing::Batch);
        for id in self.orphan_packs()? {
            if skip.contains(&id) {
                continue;
            }
            let name = pack::pack_file(&id);
            let bytes = self.location.read(&name).map_err(io_error(&*self.location, "reading", &name))?;
            let scan = pack::scan(&bytes, &mut hasher, self.manifest.trailer);
            for damaged in &scan.damaged {
                self.note(format!(
                    "{}: damaged {damaged}; the sound records around it are indexed",
                    self.describe(&name)
                ));
            }
            self.note(format!("{}: indexed {} records {indexed}", self.describe(&name), scan.records.len()));
            found.push((id, scan.records));
        }
        Ok(found)
    }

    fn open_pack_path(&self) -> PathBuf {
        self.location.staging().join(OPEN_PACK)
    }

    /// Packs in the folder that the index does not know.
    pub(crate) fn orphan_packs(&self) -> Result<Vec<PackId>> {
        let names = self.location.list(PACKS).map_err(io_error(&*self.location, "listing", PACKS))?;
        Ok(names.iter().filter_map(|name| pack::parse_pack_file(name)).filter(|id| !self.index.has_pack(id)).collect())
    }

    /// Seals the sound records of the open pack an interrupted put left.
    /// A torn tail (the usual case: a crash stops appends) is cut off; damage
    /// before sound records (a power cut may lose unsynced pages anywhere)
    /// is dropped by writing the sound records into a new pack, since a
    /// record's trailer binds it to its offset.
    fn recover_open_pack(&mut self) -> Result<Option<(PackId, Vec<RecordRef>)>> {
        let path = self.open_pack_path();
        let bytes = match self.location.staging_fs().read(&path) {
            Ok(bytes) => bytes,
            Err(error) if error.kind() == io::ErrorKind::NotFound => return Ok(None),
            Err(error) => return Err(Error::io("reading", &path, error)),
        };
        let mut hasher = self.hasher(Hashing::Batch);
        let scan = pack::scan(&bytes, &mut hasher, self.manifest.trailer);
        let problems = scan.damaged.iter().map(ToString::to_string).collect::<Vec<_>>().join("; ");
        if scan.records.is_empty() {
            self.note(format!("{}: removed a pack an interrupted put had just started ({problems})", path.display()));
            self.remove_staged(&path)?;
            return Ok(None);
        }
        let prefix_end = scan.sound_prefix_end();
        let tail_only = scan.records.last().is_some_and(|r| r.offset + u64::from(r.len) == prefix_end);
        if !scan.damaged.is_empty() && !tail_only {
            let sealed = self.rewrite_sound_records(&bytes, &scan.records)?;
            self.note(format!(
                "{}: sealed the {} sound records of an interrupted put into a new pack, dropping damage ({problems})",
                path.display(),
                sealed.1.len()
            ));
            self.remove_staged(&path)?;
            return Ok(Some(sealed));
        }
        if !scan.damaged.is_empty() {
            let cut = bytes.len() as u64 - prefix_end;
            self.note(format!(
                "{}: cut off {cut} bytes of a torn record left by an interrupted put ({problems})",
                path.display()
            ));
            crate::faults::step("truncation");
            self.location.staging_fs().truncate(&path, prefix_end).map_err(|e| Error::io("truncating", &path, e))?;
        }
        self.note(format!("{}: sealed {} records of an interrupted put", path.display(), scan.records.len()));
        self.publish_pack(&path, &scan.id, None)?;
        Ok(Some((scan.id, scan.records)))
    }

    /// Writes `records` (sound records of `bytes`) into a new pack and publishes it.
    fn rewrite_sound_records(&self, bytes: &[u8], records: &[RecordRef]) -> Result<(PackId, Vec<RecordRef>)> {
        let address_len = self.manifest.address.digest_len();
        let mut payloads = Vec::with_capacity(records.len());
        for record in records {
            let (start, end) = (record.offset as usize, record.offset as usize + record.len as usize);
            let (address, payload) = pack::parse_record(&bytes[start..end], record.offset, address_len)
                .map_err(|reason| Error::corrupt(format!("record at offset {start}"), reason))?;
            payloads.push((address, payload));
        }
        let staged = self.location.staging().join(format!(".salvaged.pack.tmp-{}", std::process::id()));
        let mut writer = PackWriter::create(
            self.location.staging_fs(),
            &staged,
            self.manifest.address,
            self.manifest.trailer,
            self.location.upload_checksum(),
            self.pack_write_len(),
        )
        .map_err(|e| Error::io("creating", &staged, e))?;
        writer.append(&payloads).map_err(|e| Error::io("writing", &staged, e))?;
        let finished = writer.finish().map_err(|e| Error::io("writing", &staged, e))?;
        self.publish_pack(&finished.staged, &finished.id, finished.sums)?;
        Ok((finished.id, finished.records))
    }

    /// Moves a finished pack into `packs/` under its name.
    fn publish_pack(&self, staged: &Path, id: &PackId, sums: Option<ObjectSums>) -> Result<()> {
        let name = pack::pack_file(id);
        self.location.publish(staged, &name, sums, self.options.fsync).map_err(io_error(
            &*self.location,
            "publishing",
            &name,
        ))
    }

    /// Writes one index file for `packs` and adds them to the index.
    pub(crate) fn write_index_file(&mut self, packs: &[(PackId, Vec<RecordRef>)]) -> Result<String> {
        self.write_index_file_synced(packs, self.options.fsync)
    }

    fn write_index_file_synced(&mut self, packs: &[(PackId, Vec<RecordRef>)], fsync: bool) -> Result<String> {
        let (name, bytes) = index::encode_file(packs, self.manifest.address, self.manifest.trailer);
        self.location.write(&name, &bytes, fsync).map_err(io_error(&*self.location, "writing", &name))?;
        for (id, records) in packs {
            self.index.add(*id, records);
        }
        Ok(name)
    }

    /// The verified payload of the record at `address`: its trailer, the
    /// address it holds and the hash of its payload all checked.
    pub(crate) fn read_object(&self, address: &Address) -> Result<Vec<u8>> {
        let mut hasher = self.hasher(Hashing::Batch);
        Ok(self.read_verified(&[*address], &mut hasher)?.pop().unwrap_or_default())
    }

    /// Reads and verifies many records, hashing their payloads in one batch.
    pub(crate) fn read_verified(&self, addresses: &[Address], hasher: &mut AddressHasher) -> Result<Vec<Vec<u8>>> {
        let mut records = Vec::with_capacity(addresses.len());
        for address in addresses {
            let location = self.index.get(address).ok_or(Error::MissingObject(*address))?;
            records.push(self.read_record(&self.index.pack(location.pack), location.offset, location.len, address)?);
        }
        let slices: Vec<&[u8]> = records.iter().map(Vec::as_slice).collect();
        let mut computed = Vec::with_capacity(slices.len());
        hasher.addresses(&slices, &mut computed);
        for (address, computed) in addresses.iter().zip(&computed) {
            if address != computed {
                let location = self.index.get(address).unwrap_or(crate::index::Location { pack: 0, offset: 0, len: 0 });
                let name = pack::pack_file(&self.index.pack(location.pack));
                return Err(Error::corrupt(
                    format!("object {address} in {} at offset {}", self.describe(&name), location.offset),
                    format!("its bytes hash to {computed}: damaged with a matching trailer"),
                ));
            }
        }
        Ok(records)
    }

    /// The payload of the record of `len` bytes at `offset` in pack `id`,
    /// its trailer checked and holding `address` (its hash not checked).
    pub(crate) fn read_record(&self, id: &PackId, offset: u64, len: u32, address: &Address) -> Result<Vec<u8>> {
        let address_len = self.manifest.address.digest_len();
        let name = pack::pack_file(id);
        let what = || format!("object {address} in {} at offset {offset}", self.describe(&name));
        let mut bytes = vec![0u8; len as usize];
        match self.location.read_at(&name, offset, &mut bytes) {
            Ok(()) => {}
            Err(error) if error.kind() == io::ErrorKind::NotFound => {
                return Err(Error::corrupt(what(), "the pack is missing"));
            }
            Err(error) if error.kind() == io::ErrorKind::UnexpectedEof => {
                return Err(Error::corrupt(what(), "the pack ends before the record (truncated)"));
            }
            Err(error) => return Err(Error::io("reading", self.describe(&name), error)),
        }
        let (stored, payload) =
            pack::parse_record(&bytes, offset, address_len).map_err(|reason| Error::corrupt(what(), reason))?;
        if stored != *address {
            return Err(Error::corrupt(what(), format!("the record there holds {stored}")));
        }
        let payload = payload.len();
        bytes.drain(..pack::RECORD_HEADER_LEN + address_len);
        bytes.truncate(payload);
        Ok(bytes)
    }

    pub(crate) fn read_tree(&self, address: &Address) -> Result<Tree> {
        let bytes = self.read_object(address)?;
        Tree::decode(&bytes, self.manifest.address.digest_len())
            .map_err(|reason| Error::corrupt(format!("tree {address}"), reason))
    }

    /// Calls `visit` with the chunk addresses of a file in order, a chunk
    /// list at a time, reading the lists as it goes, so a file's whole list
    /// of chunks is never in memory. Lists for which `skip` is true are not
    /// read (`verify` skips those it has checked). Recursion is one level
    /// per list level, at most 8.
    pub(crate) fn visit_chunks(
        &self,
        content: &Content,
        skip: &mut dyn FnMut(&Address) -> bool,
        visit: &mut dyn FnMut(&[Address]) -> Result<()>,
    ) -> Result<()> {
        if content.level == 0 {
            return visit(&content.addresses);
        }
        for list in &content.addresses {
            if skip(list) {
                continue;
            }
            let bytes = self.read_object(list)?;
            let child = Content::decode_list(&bytes, self.manifest.address.digest_len())
                .map_err(|reason| Error::corrupt(format!("chunk list {list}"), reason))?;
            if child.level + 1 != content.level {
                return Err(Error::corrupt(format!("chunk list {list}"), "its level does not fit its place"));
            }
            self.visit_chunks(&child, skip, visit)?;
        }
        Ok(())
    }

    /// The snapshot root at `address`.
    pub fn snapshot(&self, address: &Address) -> Result<Snapshot> {
        let bytes = self.read_object(address)?;
        Snapshot::decode(&bytes, self.manifest.address.digest_len())
            .map_err(|reason| Error::corrupt(format!("snapshot {address}"), reason))
    }

    /// Every snapshot, by address, sorted by address. A store opened for
    /// reading gives those that existed when it opened (its consistent
    /// view; open it again to see later ones); one opened for writing
    /// lists the folder each time.
    pub fn snapshots(&self) -> Result<Vec<Address>> {
        match &self.view {
            Some(view) => Ok(view.clone()),
            None => self.list_snapshots(),
        }
    }

    fn list_snapshots(&self) -> Result<Vec<Address>> {
        let names = self.location.list(SNAPSHOTS).map_err(io_error(&*self.location, "listing", SNAPSHOTS))?;
        let length = self.manifest.address.digest_len();
        Ok(names
            .iter()
            .filter_map(|name| Address::from_hex(name).ok())
            .filter(|address| address.as_bytes().len() == length)
            .collect())
    }

    /// The snapshot named by `text`: its full address, or a prefix of at
    /// least 4 hex digits that only it has.
    pub fn resolve(&self, text: &str) -> Result<Address> {
        let text = text.trim().to_ascii_lowercase();
        if text.len() < 4 || !text.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(Error::BadAddress(format!(
                "{text:?} is not a snapshot address (hex, the full address or at least its first 4 digits)"
            )));
        }
        let matches: Vec<Address> =
            self.snapshots()?.into_iter().filter(|address| address.to_hex().starts_with(&text)).collect();
        match matches[..] {
            [one] => Ok(one),
            [] => Err(Error::SnapshotNotFound(text)),
            _ => Err(Error::AmbiguousSnapshot(text)),
        }
    }

    /// Reads the pointer file of a snapshot, checking it names itself.
    pub(crate) fn check_pointer(&self, address: &Address) -> Result<()> {
        let name = format!("{SNAPSHOTS}/{address}");
        let bytes = self.location.read(&name).map_err(io_error(&*self.location, "reading", &name))?;
        if bytes != format!("{address}\n").as_bytes() {
            return Err(Error::corrupt(
                format!("snapshot pointer {}", self.describe(&name)),
                "it does not hold its own address",
            ));
        }
        Ok(())
    }
}

/// The options of a new store are usable here.
fn check_create(create: &CreateOptions) -> Result<()> {
    check_address_algorithm(create.address)?;
    if !create.trailer.is_available() {
        return Err(Error::UnsupportedAlgorithm { algorithm: create.trailer, reason: "not in this build" });
    }
    create.chunker.check()
}

impl Store {
    /// Removes a file of the staging directory.
    fn remove_staged(&self, path: &Path) -> Result<()> {
        crate::faults::step("removal");
        match self.location.staging_fs().remove_file(path) {
            Err(error) if error.kind() != io::ErrorKind::NotFound => Err(Error::io("removing", path, error)),
            _ => Ok(()),
        }
    }
}

/// The records one `put` adds, and the pack being filled.
#[derive(Debug)]
pub(crate) struct Commit {
    writer: Option<PackWriter>,
    sealed: Vec<(PackId, Vec<RecordRef>)>,
    added: HashSet<Address>,
}

impl Store {
    pub(crate) fn begin(&self) -> Result<Commit> {
        if self.lock.is_none() {
            return Err(Error::io(
                "writing",
                self.describe(""),
                io::Error::new(io::ErrorKind::PermissionDenied, "the store was opened for reading"),
            ));
        }
        Ok(Commit { writer: None, sealed: Vec::new(), added: HashSet::new() })
    }

    /// Whether `address` is stored, or added by `commit`.
    pub(crate) fn has(&self, commit: &Commit, address: &Address) -> bool {
        self.index.contains(address) || commit.added.contains(address)
    }

    /// Stores `payload` under `address` unless it is there already; true
    /// when it was new.
    pub(crate) fn add(&self, commit: &mut Commit, address: &Address, payload: &[u8]) -> Result<bool> {
        Ok(self.add_all(commit, &[(*address, payload)])?.0 == 1)
    }

    /// Stores every record whose address is new (once, also when it repeats
    /// within `records`), sealing packs as they reach the target size.
    /// Returns how many records were new and their payload bytes.
    pub(crate) fn add_all(&self, commit: &mut Commit, records: &[(Address, &[u8])]) -> Result<(u64, u64)> {
        let mut new = Vec::with_capacity(records.len());
        for (address, payload) in records {
            if self.has(commit, address) {
                continue;
            }
            if u32::try_from(payload.len()).is_err() {
                return Err(Error::BadInput {
                    path: PathBuf::from(address.to_hex()),
                    reason: "an object larger than 4 GiB cannot be stored".into(),
                });
            }
            commit.added.insert(*address);
            new.push((*address, *payload));
        }
        let bytes = new.iter().map(|(_, payload)| payload.len() as u64).sum();
        let path = self.open_pack_path();
        let mut rest = &new[..];
        while !rest.is_empty() {
            let writer = match &mut commit.writer {
                Some(writer) => writer,
                None => commit.writer.insert(
                    PackWriter::create(
                        self.location.staging_fs(),
                        &path,
                        self.manifest.address,
                        self.manifest.trailer,
                        self.location.upload_checksum(),
                        self.pack_write_len(),
                    )
                    .map_err(|e| Error::io("creating", &path, e))?,
                ),
            };
            // Records up to the one that brings the pack to its target: a
            // rule on each record, so the packs do not depend on how the
            // records were split between calls. At least one record per
            // pack, whatever the target (a target under the pack header's
            // length took none and sealed empty packs forever).
            let mut len = writer.len();
            let mut take = 0;
            while take < rest.len() && (take == 0 || len < self.options.pack_target) {
                len += writer.framed_len(rest[take].1.len());
                take += 1;
            }
            writer.append(&rest[..take]).map_err(|e| Error::io("writing", &path, e))?;
            rest = &rest[take..];
            if writer.len() >= self.options.pack_target {
                self.seal(commit)?;
            }
        }
        Ok((new.len() as u64, bytes))
    }

    /// Bytes a pack writer writes at a time: an eighth of a pack, between
    /// 4 KiB and 1 MiB (the crash tests' small packs still take several
    /// writes, each a step where the power may go).
    fn pack_write_len(&self) -> usize {
        (self.options.pack_target / 8).clamp(4 << 10, 1 << 20) as usize
    }

    /// Finishes the open pack and publishes it.
    fn seal(&self, commit: &mut Commit) -> Result<()> {
        let Some(writer) = commit.writer.take() else { return Ok(()) };
        if writer.record_count() == 0 {
            return Ok(());
        }
        let path = self.open_pack_path();
        let finished = writer.finish().map_err(|e| Error::io("writing", &path, e))?;
        self.publish_pack(&finished.staged, &finished.id, finished.sums)?;
        commit.sealed.push((finished.id, finished.records));
        Ok(())
    }

    /// Makes the commit durable and `snapshot` visible: packs, then the
    /// index file, then the snapshot pointer, each written, fsynced and
    /// renamed into place.
    pub(crate) fn finish(&mut self, commit: Commit, snapshot: &Address) -> Result<()> {
        self.finish_records(commit)?;
        let name = format!("{SNAPSHOTS}/{snapshot}");
        // Conditional: a pointer is never replaced. Its name is its content,
        // so one already there (another writer made the same snapshot: same
        // tree, same second) is this one, checked rather than assumed.
        match self.location.write_new(&name, format!("{snapshot}\n").as_bytes(), self.options.fsync) {
            Err(error) if error.kind() == io::ErrorKind::AlreadyExists => self.check_pointer(snapshot),
            result => result.map_err(io_error(&*self.location, "writing", &name)),
        }
    }

    /// Makes the commit's records durable without naming a snapshot: the
    /// open pack sealed and published, then its index file. A map's roots
    /// are kept by its user, as a database keeps its own root.
    pub(crate) fn finish_records(&mut self, mut commit: Commit) -> Result<()> {
        self.seal(&mut commit)?;
        if !commit.sealed.is_empty() {
            self.write_index_file(&commit.sealed)?;
        }
        Ok(())
    }

    /// Gives up a commit after an error: what it sealed is indexed (sound
    /// data, reused by the next put), the open pack is dropped. No snapshot
    /// becomes visible.
    pub(crate) fn abandon(&mut self, mut commit: Commit) {
        if commit.writer.take().is_some() {
            let _ = self.remove_staged(&self.open_pack_path());
        }
        if !commit.sealed.is_empty() {
            let _ = self.write_index_file(&commit.sealed);
        }
    }

    /// Rebuilds the index from the packs alone: every pack is read and its
    /// records checked, the sound ones indexed (also those after damage);
    /// one new index file replaces all others. Returns the problems found
    /// (damaged stretches of packs, unreadable index files, entries dropped).
    ///
    /// Nothing reachable is lost: an entry of the old index whose address
    /// the scan did not find is kept when its record is sound (checked:
    /// trailer, stored address, hash), dropped and reported otherwise; the
    /// old files are removed only once the new one is written and synced.
    pub fn reindex(dir: &Path, options: OpenOptions) -> Result<(Store, Vec<String>)> {
        Store::reindex_location(Box::new(Directory::new(dir)), options)
    }

    /// [`reindex`](Store::reindex) of a store at any [`Location`] that can
    /// remove files (a directory; the crash tests' simulated one).
    pub fn reindex_location(location: Box<dyn Location>, options: OpenOptions) -> Result<(Store, Vec<String>)> {
        let mut store = Store::open_unindexed(location, OpenOptions { write: true, ..options })?;
        store.recover(false)?;
        let names = store.location.list(PACKS).map_err(io_error(&*store.location, "listing", PACKS))?;
        let mut packs = Vec::new();
        let mut problems = Vec::new();
        let mut hasher = store.hasher(Hashing::Batch);
        for id in names.iter().filter_map(|name| pack::parse_pack_file(name)) {
            let name = pack::pack_file(&id);
            let bytes = store.location.read(&name).map_err(io_error(&*store.location, "reading", &name))?;
            let scan = pack::scan(&bytes, &mut hasher, store.manifest.trailer);
            for damaged in &scan.damaged {
                problems.push(format!("{}: damaged {damaged}", store.describe(&name)));
            }
            packs.push((id, scan.records));
        }
        let old_files = store.location.list(INDEX).map_err(io_error(&*store.location, "listing", INDEX))?;
        let (old, damaged_files) = store.read_index_files()?;
        for (name, reason) in damaged_files {
            problems.push(format!("{name}: damaged ({reason}); replaced by an index built from the packs"));
        }
        // What the old index reaches that the scan did not find.
        let found: HashSet<Address> = packs.iter().flat_map(|(_, records)| records.iter().map(|r| r.address)).collect();
        let mut dropped = Vec::new();
        for (address, id, offset, len) in old.to_sorted_vec() {
            if found.contains(&address) {
                continue;
            }
            let sound =
                store.read_record(&id, offset, len, &address).and_then(|payload| match hasher.address(&payload) {
                    computed if computed == address => Ok(()),
                    computed => {
                        Err(Error::corrupt(format!("object {address}"), format!("its bytes hash to {computed}")))
                    }
                });
            match sound {
                Ok(()) => {
                    let record = RecordRef { address, offset, len };
                    match packs.iter_mut().find(|(pack, _)| *pack == id) {
                        Some((_, records)) => records.push(record),
                        None => packs.push((id, vec![record])),
                    }
                }
                // Only damage drops an entry: an error of the location (too
                // many open files, EIO, a permission) says nothing about the
                // record, and the old index files are deleted next.
                Err(error) if !error.is_damage() => return Err(error),
                Err(error) => dropped.push(format!("dropped the index entry of {address}: {error}")),
            }
        }
        if dropped.len() > DROPPED_NAMED {
            let more = dropped.len() - DROPPED_NAMED;
            dropped.truncate(DROPPED_NAMED);
            dropped.push(format!("and {more} more index entries of damaged or missing records dropped"));
        }
        problems.extend(dropped);
        store.index = Index::default();
        // Synced whatever the options say: the old files go next.
        let new = store.write_index_file_synced(&packs, true)?;
        for name in old_files.iter().filter(|name| index::is_index_file(name)) {
            let name = format!("{INDEX}/{name}");
            if name != new {
                store.location.remove(&name).map_err(io_error(&*store.location, "removing", &name))?;
            }
        }
        Ok((store, problems))
    }
}
