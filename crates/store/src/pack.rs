//! The pack format: a header, then records, each sealed by a registry
//! trailer whose context is the record's offset. The layout is in the crate
//! docs.

use crate::address::{Address, AddressHasher, MAX_ADDRESS_LEN};
use crate::faults;
use crate::location::fs::{Fs, FsFile};
use crate::location::upload::{ObjectSums, PartSums, UploadChecksum};
use chunkhash::trailer::{self, trailer_len, MAX_TRAILER_LEN};
use chunkhash::{blake3, Algorithm, StreamingHasher};
use std::io;
use std::path::{Path, PathBuf};

/// Bytes 0..8 of a pack: "CHPACK", a zero, the pack format version.
pub(crate) const PACK_MAGIC: [u8; 8] = *b"CHPACK\x00\x01";
/// The header: magic, address algorithm id, trailer algorithm id, six zeros.
pub(crate) const PACK_HEADER_LEN: usize = 16;
/// Byte 0 of every record.
pub(crate) const RECORD_MAGIC: u8 = 0xC5;
/// Magic byte and the little-endian u32 payload length.
pub(crate) const RECORD_HEADER_LEN: usize = 5;
/// Bytes of a pack name (BLAKE3-160 of the pack's table of contents).
pub(crate) const PACK_ID_LEN: usize = 20;
/// The folder of packs.
pub(crate) const PACKS: &str = "packs";
/// The pack being filled, in the staging directory.
pub(crate) const OPEN_PACK: &str = "open.pack";

/// A pack's name: BLAKE3-160 of its table of contents.
pub(crate) type PackId = [u8; PACK_ID_LEN];

/// `packs/HEX.pack`.
pub(crate) fn pack_file(id: &PackId) -> String {
    format!("{PACKS}/{}.pack", crate::address::Address::from_slice(id).map(|a| a.to_hex()).unwrap_or_default())
}

/// The id in a listed pack file name (`HEX.pack`), or `None` for any other file.
pub(crate) fn parse_pack_file(name: &str) -> Option<PackId> {
    let hex = name.strip_suffix(".pack")?;
    if hex.len() != 2 * PACK_ID_LEN {
        return None;
    }
    Address::from_hex(hex).ok()?.as_bytes().try_into().ok()
}

pub(crate) fn pack_header(address: Algorithm, trailer: Algorithm) -> [u8; PACK_HEADER_LEN] {
    let mut header = [0u8; PACK_HEADER_LEN];
    header[..8].copy_from_slice(&PACK_MAGIC);
    header[8] = address.id();
    header[9] = trailer.id();
    header
}

/// Checks a pack's header against the store's algorithms.
pub(crate) fn check_header(bytes: &[u8], address: Algorithm, trailer: Algorithm) -> Result<(), String> {
    if bytes.len() < PACK_HEADER_LEN {
        return Err(format!("{} bytes, shorter than a pack header", bytes.len()));
    }
    if bytes[..8] != PACK_MAGIC {
        return Err("no pack header (damaged, or not a pack)".into());
    }
    if bytes[8] != address.id() {
        return Err(format!("header names address algorithm id {}, the store uses {}", bytes[8], address));
    }
    if bytes[9] != trailer.id() {
        return Err(format!("header names trailer algorithm id {}, the store uses {}", bytes[9], trailer));
    }
    if bytes[10..PACK_HEADER_LEN].iter().any(|&b| b != 0) {
        return Err("the header's reserved bytes are not zero".into());
    }
    Ok(())
}

/// Feeds a record's non-payload bytes (header, address, trailer) to the
/// table-of-contents hash. The payload is covered by the address.
fn hash_toc(toc: &mut blake3::Hasher, record: &[u8], address_len: usize, payload_len: usize) {
    let body = RECORD_HEADER_LEN + address_len;
    toc.update(&record[..body]);
    toc.update(&record[body + payload_len..]);
}

fn toc_id(toc: &blake3::Hasher) -> PackId {
    *toc.finalize().address().as_bytes()
}

/// One record of a pack.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct RecordRef {
    pub(crate) address: Address,
    pub(crate) offset: u64,
    pub(crate) len: u32,
}

/// The length of the record at the start of `bytes`, from its header and
/// its trailer's algorithm id, checking that it fits.
fn record_extent(bytes: &[u8], address_len: usize) -> Result<(usize, usize), String> {
    if bytes.len() < RECORD_HEADER_LEN {
        return Err(format!("{} bytes left, shorter than a record header", bytes.len()));
    }
    if bytes[0] != RECORD_MAGIC {
        return Err(format!("byte {:#04x} where a record starts", bytes[0]));
    }
    let payload_len = u32::from_le_bytes([bytes[1], bytes[2], bytes[3], bytes[4]]) as usize;
    let body = RECORD_HEADER_LEN + address_len + payload_len;
    let Some(&id) = bytes.get(body) else {
        return Err(format!("record of {payload_len} payload bytes runs past the end ({} bytes left)", bytes.len()));
    };
    let algorithm = Algorithm::from_id(id).map_err(|_| format!("trailer names unknown algorithm id {id}"))?;
    let total = body + trailer_len(algorithm);
    if total > bytes.len() {
        return Err(format!("record of {total} bytes runs past the end ({} bytes left)", bytes.len()));
    }
    Ok((total, payload_len))
}

/// Parses the record that `bytes` holds exactly, read from pack offset
/// `offset`: its structure and trailer (not its address, which needs a hash).
pub(crate) fn parse_record(bytes: &[u8], offset: u64, address_len: usize) -> Result<(Address, &[u8]), String> {
    let (total, payload_len) = record_extent(bytes, address_len)?;
    if total != bytes.len() {
        return Err(format!("the record holds {total} bytes, the index says {}", bytes.len()));
    }
    let body = RECORD_HEADER_LEN + address_len;
    trailer::verify(&bytes[..body + payload_len], &bytes[body + payload_len..], offset).map_err(|e| e.to_string())?;
    let address = Address::from_slice(&bytes[RECORD_HEADER_LEN..body]).ok_or("empty address")?;
    Ok((address, &bytes[body..body + payload_len]))
}

/// Checks the record starting at `bytes[offset]` (structure and trailer);
/// returns its length, the address it holds and its payload.
pub(crate) fn parse_record_at(
    bytes: &[u8],
    offset: usize,
    address_len: usize,
) -> Result<(usize, Address, &[u8]), String> {
    let (total, _) = record_extent(&bytes[offset..], address_len)?;
    let (address, payload) = parse_record(&bytes[offset..offset + total], offset as u64, address_len)?;
    Ok((total, address, payload))
}

/// A stretch of a pack that holds no sound record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Damaged {
    /// Where it starts.
    pub(crate) start: u64,
    /// Where the next sound record starts, or the pack's end.
    pub(crate) end: u64,
    /// What is wrong at `start`.
    pub(crate) reason: String,
}

impl std::fmt::Display for Damaged {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "bytes {}..{}: {}", self.start, self.end, self.reason)
    }
}

/// What a scan of a whole pack found.
#[derive(Debug)]
pub(crate) struct Scan {
    /// Every sound record, in order, also those after damage.
    pub(crate) records: Vec<RecordRef>,
    /// Every damaged stretch, in order; empty when the pack is sound.
    pub(crate) damaged: Vec<Damaged>,
    /// The pack's name, from its header and its sound records.
    pub(crate) id: PackId,
    /// Bytes checksummed while searching for records after damage (at
    /// most [`resync_budget`]).
    pub(crate) resync_checked: u64,
}

impl Scan {
    /// Where the sound records before the first damage end.
    pub(crate) fn sound_prefix_end(&self) -> u64 {
        let first_damage = self.damaged.first().map_or(u64::MAX, |damaged| damaged.start);
        self.records
            .iter()
            .map(|record| record.offset + u64::from(record.len))
            .take_while(|&end| end <= first_damage)
            .last()
            .unwrap_or(PACK_HEADER_LEN as u64)
    }
}

/// Scans a whole pack: structure, trailers, and addresses (hashed in one
/// batch). Damage does not stop it: after a record that fails, it searches
/// forward for the next offset where a sound record starts (its magic
/// byte, a length that fits, the store's trailer id where the trailer
/// must be, a trailer that verifies with that offset as its context, and
/// an address its payload hashes to) and goes on from there. A damaged
/// length is never trusted: the search starts one byte after the record
/// that failed. A damaged pack header is reported and the records are
/// still read with the store's algorithms (records do not depend on it).
///
/// Cost: a sound pack is read once. In a damaged stretch most offsets are
/// refused by their first bytes, without a checksum; an offset that passes
/// them costs a checksum of the record it claims. Those checksums are
/// bounded by a budget of [`resync_budget`] bytes per scan (linear in the
/// pack's length), so a crafted stretch where every offset looks like a
/// record start cannot make the scan quadratic: past the budget, the rest
/// of the pack is reported as damaged ("resync budget exhausted").
pub(crate) fn scan(bytes: &[u8], hasher: &mut AddressHasher, trailer_algorithm: Algorithm) -> Scan {
    let address_len = hasher.algorithm().digest_len();
    let mut damaged = Vec::new();
    let mut records = Vec::new();
    let mut payloads = Vec::new();
    let header_len = PACK_HEADER_LEN.min(bytes.len());
    if let Err(reason) = check_header(bytes, hasher.algorithm(), trailer_algorithm) {
        damaged.push(Damaged { start: 0, end: header_len as u64, reason: format!("pack header: {reason}") });
    }
    let mut resync = Resync { budget: resync_budget(bytes.len()), checked: 0 };
    let mut offset = header_len;
    while offset < bytes.len() {
        match parse_sound_at(bytes, offset, address_len, trailer_algorithm) {
            Ok((total, address, payload)) => {
                records.push(RecordRef { address, offset: offset as u64, len: total as u32 });
                payloads.push(payload);
                offset += total;
            }
            Err(reason) => match resync.next_sound_record(bytes, offset + 1, address_len, trailer_algorithm, hasher) {
                Some(next) => {
                    damaged.push(Damaged { start: offset as u64, end: next as u64, reason });
                    offset = next;
                }
                None => {
                    let reason = format!("{reason}; resync budget exhausted, the rest of the pack is not searched");
                    damaged.push(Damaged { start: offset as u64, end: bytes.len() as u64, reason });
                    offset = bytes.len();
                }
            },
        }
    }
    // Addresses in one batch. A record whose trailer holds but whose payload
    // hashes to another address was replaced whole: its extent is sound (the
    // trailer covers its length), so the records after it are in step.
    let mut addresses = Vec::with_capacity(payloads.len());
    hasher.addresses(&payloads, &mut addresses);
    let mut toc = blake3::Hasher::new();
    toc.update(&bytes[..header_len]);
    let mut sound = Vec::with_capacity(records.len());
    for ((record, payload), computed) in records.into_iter().zip(&payloads).zip(&addresses) {
        let (start, end) = (record.offset, record.offset + u64::from(record.len));
        if record.address != *computed {
            let reason =
                format!("the payload hashes to {computed}, not to the address {} the record claims", record.address);
            damaged.push(Damaged { start, end, reason });
            continue;
        }
        hash_toc(&mut toc, &bytes[start as usize..end as usize], address_len, payload.len());
        sound.push(record);
    }
    damaged.sort_by_key(|damaged| damaged.start);
    Scan { records: sound, damaged, id: toc_id(&toc), resync_checked: resync.checked }
}

/// The bytes a scan of a pack of `pack_len` bytes may checksum while it
/// searches for records after damage: twice the pack, so that a search
/// which checks a few false starts still finds every real record, plus a
/// constant for small packs.
pub(crate) fn resync_budget(pack_len: usize) -> u64 {
    2 * pack_len as u64 + (1 << 20)
}

/// `parse_record_at`, also requiring the store's trailer algorithm.
fn parse_sound_at(
    bytes: &[u8],
    offset: usize,
    address_len: usize,
    trailer_algorithm: Algorithm,
) -> Result<(usize, Address, &[u8]), String> {
    let (total, payload_len) = record_extent(&bytes[offset..], address_len)?;
    let id = bytes[offset + RECORD_HEADER_LEN + address_len + payload_len];
    if id != trailer_algorithm.id() {
        return Err(format!("trailer names algorithm id {id}, the store uses {trailer_algorithm}"));
    }
    let (address, payload) = parse_record(&bytes[offset..offset + total], offset as u64, address_len)?;
    Ok((total, address, payload))
}

/// The length of the record a resync candidate at `bytes[at]` claims, when
/// it passes the checks that cost no checksum: magic byte, a length that
/// fits, and the store's trailer id where the trailer starts. (Requiring
/// the pack's end or a magic byte right after it would refuse a sound
/// record followed by a damaged one.) No `String` is built:
/// a damaged stretch may hold millions of refused offsets.
fn candidate_len(bytes: &[u8], at: usize, address_len: usize, trailer_algorithm: Algorithm) -> Option<usize> {
    let rest = &bytes[at..];
    if rest.len() < RECORD_HEADER_LEN || rest[0] != RECORD_MAGIC {
        return None;
    }
    let payload_len = u32::from_le_bytes([rest[1], rest[2], rest[3], rest[4]]) as usize;
    let body = RECORD_HEADER_LEN.checked_add(address_len)?.checked_add(payload_len)?;
    if *rest.get(body)? != trailer_algorithm.id() {
        return None;
    }
    let total = body + trailer_len(trailer_algorithm);
    (total <= rest.len()).then_some(total)
}

/// The search for the next sound record after damage, with its budget of
/// checksummed bytes for the whole scan.
struct Resync {
    /// Bytes that may still be checksummed.
    budget: u64,
    /// Bytes checksummed so far (trailers and addresses of candidates).
    checked: u64,
}

impl Resync {
    /// The first offset from `from` where a sound record starts (its address
    /// checked too, since no later record vouches for it), the pack's end
    /// when there is none, or `None` when the budget ran out first.
    fn next_sound_record(
        &mut self,
        bytes: &[u8],
        from: usize,
        address_len: usize,
        trailer_algorithm: Algorithm,
        hasher: &mut AddressHasher,
    ) -> Option<usize> {
        let mut at = from;
        while let Some(found) = bytes.get(at..).and_then(|rest| rest.iter().position(|&b| b == RECORD_MAGIC)) {
            at += found;
            if let Some(total) = candidate_len(bytes, at, address_len, trailer_algorithm) {
                // The trailer's checksum covers the whole record, the address
                // its payload: both charged before they are computed.
                let cost = 2 * total as u64;
                if cost > self.budget {
                    return None;
                }
                self.budget -= cost;
                self.checked += cost;
                if let Ok((_, address, payload)) = parse_sound_at(bytes, at, address_len, trailer_algorithm) {
                    if hasher.address(payload) == address {
                        return Some(at);
                    }
                }
            }
            at += 1;
        }
        Some(bytes.len())
    }
}

/// The pack being filled. Records are framed into a buffer that goes to
/// the file `write_len` bytes at a time (and the rest when the pack is
/// finished): the writes, and so the crash tests' steps, depend only on
/// the records, never on how they were handed over (`put`'s threads hand
/// them over in parts of varying size).
#[derive(Debug)]
pub(crate) struct PackWriter {
    file: Box<dyn FsFile>,
    path: PathBuf,
    /// Bytes of the pack, buffered ones included.
    len: u64,
    buffer: Vec<u8>,
    write_len: usize,
    toc: blake3::Hasher,
    records: Vec<RecordRef>,
    address_len: usize,
    trailer: Algorithm,
    /// The upload checksum of the bytes written, when the location wants it.
    sums: Option<PartSums>,
}

/// A pack that is complete on disk (not yet published).
#[derive(Debug)]
pub(crate) struct Finished {
    pub(crate) staged: PathBuf,
    pub(crate) id: PackId,
    pub(crate) records: Vec<RecordRef>,
    /// The upload checksum of the whole file, when asked for.
    pub(crate) sums: Option<ObjectSums>,
}

impl PackWriter {
    /// Starts a pack at `path` of `fs` (replacing any file there), written
    /// `write_len` bytes at a time; with `checksum`, also computes that
    /// upload checksum of the file as it writes it.
    pub(crate) fn create(
        fs: &dyn Fs,
        path: &Path,
        address: Algorithm,
        trailer: Algorithm,
        checksum: Option<UploadChecksum>,
        write_len: usize,
    ) -> io::Result<PackWriter> {
        let mut file = fs.create(path)?;
        let header = pack_header(address, trailer);
        faults::write_all(&mut file, &header)?;
        let mut toc = blake3::Hasher::new();
        toc.update(&header);
        let mut sums = checksum.map(PartSums::new);
        if let Some(sums) = &mut sums {
            sums.update(&header);
        }
        Ok(PackWriter {
            file,
            path: path.to_path_buf(),
            len: PACK_HEADER_LEN as u64,
            buffer: Vec::with_capacity(write_len.max(1)),
            write_len: write_len.max(1),
            toc,
            records: Vec::new(),
            address_len: address.digest_len(),
            trailer,
            sums,
        })
    }

    /// Bytes in the pack so far.
    pub(crate) fn len(&self) -> u64 {
        self.len
    }

    /// Records so far.
    pub(crate) fn record_count(&self) -> usize {
        self.records.len()
    }

    /// Bytes a record of `payload_len` bytes takes in the pack.
    pub(crate) fn framed_len(&self, payload_len: usize) -> u64 {
        (RECORD_HEADER_LEN + self.address_len + payload_len + trailer_len(self.trailer)) as u64
    }

    /// Appends records, in order.
    pub(crate) fn append(&mut self, records: &[(Address, &[u8])]) -> io::Result<()> {
        for (address, payload) in records {
            let offset = self.len;
            let head_len = RECORD_HEADER_LEN + self.address_len;
            let mut head = [0; RECORD_HEADER_LEN + MAX_ADDRESS_LEN];
            head[0] = RECORD_MAGIC;
            head[1..5].copy_from_slice(&(payload.len() as u32).to_le_bytes());
            head[5..head_len].copy_from_slice(address.as_bytes());
            let mut sealed = [0; MAX_TRAILER_LEN];
            seal_parts(&head[..head_len], payload, self.trailer, offset, &mut sealed);
            let trailer = &sealed[..trailer_len(self.trailer)];
            self.toc.update(&head[..head_len]);
            self.toc.update(trailer);
            if let Some(sums) = &mut self.sums {
                sums.update(&head[..head_len]).update(payload).update(trailer);
            }
            let len = head_len + payload.len() + trailer.len();
            self.records.push(RecordRef { address: *address, offset, len: len as u32 });
            self.len += len as u64;
            self.buffered(&head[..head_len])?;
            self.buffered(payload)?;
            self.buffered(trailer)?;
        }
        Ok(())
    }

    /// Adds bytes to the buffer, writing it out each time it holds
    /// `write_len` bytes.
    fn buffered(&mut self, mut bytes: &[u8]) -> io::Result<()> {
        while !bytes.is_empty() {
            let take = (self.write_len - self.buffer.len()).min(bytes.len());
            self.buffer.extend_from_slice(&bytes[..take]);
            bytes = &bytes[take..];
            if self.buffer.len() == self.write_len {
                faults::write_all(&mut self.file, &self.buffer)?;
                self.buffer.clear();
            }
        }
        Ok(())
    }

    /// Writes what is buffered and closes the file.
    pub(crate) fn finish(mut self) -> io::Result<Finished> {
        if !self.buffer.is_empty() {
            faults::write_all(&mut self.file, &self.buffer)?;
        }
        let sums = self.sums.map(PartSums::finish);
        Ok(Finished { staged: self.path, id: toc_id(&self.toc), records: self.records, sums })
    }
}

/// The trailer of the block `head ++ payload`, hashed in two parts so the
/// payload need not be copied next to its header. By the trailer layout
/// (`chunkhash::trailer`: the id, then the checksum XOR a mask made from the
/// context and the id alone), the mask is the trailer of the empty block
/// XOR the checksum of the empty block.
fn seal_parts(head: &[u8], payload: &[u8], algorithm: Algorithm, context: u64, out: &mut [u8; MAX_TRAILER_LEN]) {
    let mut hasher = StreamingHasher::new(algorithm);
    hasher.update(head).update(payload);
    let checksum = hasher.finalize();
    let empty_trailer = trailer::seal(&[], algorithm, context);
    let empty_checksum = chunkhash::digest(algorithm, &[]);
    out[0] = algorithm.id();
    for (i, byte) in checksum.as_bytes().iter().enumerate() {
        out[1 + i] = byte ^ empty_trailer.as_bytes()[1 + i] ^ empty_checksum.as_bytes()[i];
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::address::Hashing;
    use vectors::{test_seed, TestRng};

    /// A pack of `count` records of random payloads, built here as the
    /// writer builds one (header, then records sealed at their offsets).
    fn build_pack(rng: &mut TestRng, count: usize) -> (Vec<u8>, Vec<RecordRef>) {
        let mut hasher = AddressHasher::new(Algorithm::Blake3_160, Hashing::Batch);
        let mut bytes = pack_header(Algorithm::Blake3_160, Algorithm::Crc32c).to_vec();
        let mut records = Vec::new();
        for _ in 0..count {
            let len = rng.range(0..=300);
            let payload = rng.bytes(len);
            let address = hasher.address(&payload);
            let offset = bytes.len() as u64;
            let mut head = vec![RECORD_MAGIC];
            head.extend_from_slice(&(payload.len() as u32).to_le_bytes());
            head.extend_from_slice(address.as_bytes());
            let mut trailer = [0u8; MAX_TRAILER_LEN];
            seal_parts(&head, &payload, Algorithm::Crc32c, offset, &mut trailer);
            bytes.extend_from_slice(&head);
            bytes.extend_from_slice(&payload);
            bytes.extend_from_slice(&trailer[..trailer_len(Algorithm::Crc32c)]);
            records.push(RecordRef { address, offset, len: (bytes.len() as u64 - offset) as u32 });
        }
        (bytes, records)
    }

    fn scan_of(bytes: &[u8]) -> Scan {
        scan(bytes, &mut AddressHasher::new(Algorithm::Blake3_160, Hashing::Batch), Algorithm::Crc32c)
    }

    /// The records of `all` that do not overlap `damaged`.
    fn outside(all: &[RecordRef], damaged: std::ops::Range<u64>) -> Vec<RecordRef> {
        all.iter()
            .filter(|r| r.offset + u64::from(r.len) <= damaged.start || r.offset >= damaged.end)
            .copied()
            .collect()
    }

    #[test]
    fn a_scan_loses_exactly_the_records_that_damage_touches() {
        let seed = test_seed("pack_scan_damage", 0x5ca_0001);
        let mut rng = TestRng::new(seed);
        let (pack, records) = build_pack(&mut rng, 24);
        let sound = scan_of(&pack);
        assert_eq!(sound.records, records);
        assert!(sound.damaged.is_empty());
        // Every single byte changed, one at a time: the header costs nothing,
        // a record's byte costs that record only.
        for at in 0..pack.len() {
            let mut damaged = pack.clone();
            damaged[at] ^= rng.range(1..=255) as u8;
            let found = scan_of(&damaged);
            let lost = if at < PACK_HEADER_LEN { 0..0 } else { at as u64..at as u64 + 1 };
            assert_eq!(found.records, outside(&records, lost), "seed {seed:#x}: byte {at}");
            assert!(!found.damaged.is_empty(), "seed {seed:#x}: byte {at}: no damage reported");
        }
        // Runs of zeros and of random bytes, and cuts.
        for round in 0..400 {
            let mut damaged = pack.clone();
            let start = rng.range(PACK_HEADER_LEN..=pack.len() - 1);
            let end = (start + rng.range(1..=700)).min(pack.len());
            if round % 2 == 0 {
                damaged[start..end].fill(0);
            } else {
                let noise = rng.bytes(end - start);
                damaged[start..end].copy_from_slice(&noise);
            }
            let found = scan_of(&damaged);
            assert_eq!(found.records, outside(&records, start as u64..end as u64), "seed {seed:#x}: {start}..{end}");
            let cut = rng.range(0..=pack.len());
            let found = scan_of(&pack[..cut]);
            let kept: Vec<RecordRef> =
                records.iter().filter(|r| r.offset + u64::from(r.len) <= cut as u64).copied().collect();
            assert_eq!(found.records, kept, "seed {seed:#x}: cut at {cut}");
        }
    }

    /// A pack whose every 8 bytes read as a record start (magic, a length
    /// of about a quarter of the pack, the store's trailer id where that
    /// length puts the trailer): without a budget, each start costs a
    /// checksum of a quarter of the pack.
    fn crafted_pack(len: usize) -> Vec<u8> {
        let id = Algorithm::Crc32c.id();
        let address_len = Algorithm::Blake3_160.digest_len();
        // The trailer id lands on byte 5 of a later 8-byte group.
        let claimed = (len / 4) / 8 * 8 + (5 + 8 - (RECORD_HEADER_LEN + address_len) % 8) % 8;
        let l = (claimed as u32).to_le_bytes();
        assert_eq!(l[3], 0);
        let mut bytes = pack_header(Algorithm::Blake3_160, Algorithm::Crc32c).to_vec();
        while bytes.len() < len {
            bytes.extend_from_slice(&[RECORD_MAGIC, l[0], l[1], l[2], 0, id, id, id]);
        }
        bytes.truncate(len);
        bytes
    }

    /// The bytes a search without a budget would checksum in `bytes`: every
    /// candidate that passes the cheap checks, trailer and address.
    fn unbudgeted_cost(bytes: &[u8]) -> u64 {
        let address_len = Algorithm::Blake3_160.digest_len();
        (PACK_HEADER_LEN..bytes.len())
            .filter_map(|at| candidate_len(bytes, at, address_len, Algorithm::Crc32c))
            .map(|total| 2 * total as u64)
            .sum()
    }

    #[test]
    fn a_crafted_pack_cannot_make_the_scan_quadratic() {
        for mib in [1, 4] {
            let pack = crafted_pack(mib << 20);
            let found = scan_of(&pack);
            let unbudgeted = unbudgeted_cost(&pack);
            println!("crafted {mib} MiB: {} bytes checksummed, {unbudgeted} without a budget", found.resync_checked);
            assert!(unbudgeted > 10 * resync_budget(pack.len()), "the pack does not exercise the budget");
            assert!(found.resync_checked > 0);
            assert!(found.resync_checked <= resync_budget(pack.len()), "{mib} MiB: {}", found.resync_checked);
            assert!(found.records.is_empty());
            let last = found.damaged.last().expect("damage reported");
            assert_eq!(last.end, pack.len() as u64);
            assert!(last.reason.contains("resync budget exhausted"), "{}", last.reason);
        }
    }

    #[test]
    fn a_pack_of_magic_bytes_is_refused_without_checksums() {
        let mut pack = pack_header(Algorithm::Blake3_160, Algorithm::Crc32c).to_vec();
        pack.resize(4 << 20, RECORD_MAGIC);
        let found = scan_of(&pack);
        assert_eq!(found.resync_checked, 0);
        assert!(found.records.is_empty());
        assert_eq!(found.damaged.len(), 1);
        assert_eq!((found.damaged[0].start, found.damaged[0].end), (PACK_HEADER_LEN as u64, pack.len() as u64));
    }

    #[test]
    fn a_sound_record_between_two_damaged_ones_is_found() {
        let seed = test_seed("pack_scan_between", 0x5ca_0002);
        let mut rng = TestRng::new(seed);
        let (pack, records) = build_pack(&mut rng, 8);
        let mut damaged = pack.clone();
        for index in [3, 5] {
            damaged[records[index].offset as usize] ^= 0xFF;
        }
        let found = scan_of(&damaged);
        let kept: Vec<RecordRef> = [0, 1, 2, 4, 6, 7].iter().map(|&i| records[i]).collect();
        assert_eq!(found.records, kept, "seed {seed:#x}");
        assert_eq!(found.damaged.len(), 2, "seed {seed:#x}");
    }

    #[test]
    fn trailers_sealed_in_parts_equal_the_registry_trailers() {
        let block: Vec<u8> = (0..3000u32).map(|i| (i * 7 + i / 251) as u8).collect();
        for &algorithm in Algorithm::all() {
            for split in [0, 1, 25, 1500, 3000] {
                for context in [0, 16, u64::MAX] {
                    let mut out = [0u8; MAX_TRAILER_LEN];
                    seal_parts(&block[..split], &block[split..], algorithm, context, &mut out);
                    let expected = trailer::seal(&block, algorithm, context);
                    assert_eq!(&out[..expected.len()], expected.as_bytes(), "{algorithm} split {split}");
                }
            }
        }
    }
}
