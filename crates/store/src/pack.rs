//! The pack format: a header, then records, each sealed by a registry
//! trailer whose context is the record's offset. The layout is in the crate
//! docs.

use crate::address::{Address, AddressHasher};
use crate::faults;
use chunkhash::blake3;
use chunkhash::trailer::{self, trailer_len};
use chunkhash::Algorithm;
use std::fs::File;
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
/// Buffered bytes before a write to the open pack.
const WRITE_BUF: usize = 1 << 20;

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
pub(crate) fn check_header(bytes: &[u8], address: Algorithm) -> Result<(), String> {
    if bytes.len() < PACK_HEADER_LEN {
        return Err(format!("{} bytes, shorter than a pack header", bytes.len()));
    }
    if bytes[..8] != PACK_MAGIC {
        return Err("no pack header (damaged, or not a pack)".into());
    }
    if bytes[8] != address.id() {
        return Err(format!("header names address algorithm id {}, the store uses {}", bytes[8], address));
    }
    Ok(())
}

/// Bytes a record of `payload_len` bytes takes.
pub(crate) fn record_len(address_len: usize, payload_len: usize, trailer: Algorithm) -> usize {
    RECORD_HEADER_LEN + address_len + payload_len + trailer_len(trailer)
}

/// Appends the record of `payload` at pack offset `offset` to `out`.
fn encode_record(out: &mut Vec<u8>, offset: u64, address: &Address, payload: &[u8], trailer: Algorithm) {
    let start = out.len();
    out.push(RECORD_MAGIC);
    out.extend_from_slice(&(payload.len() as u32).to_le_bytes());
    out.extend_from_slice(address.as_bytes());
    out.extend_from_slice(payload);
    let seal = trailer::seal(&out[start..], trailer, offset);
    out.extend_from_slice(seal.as_bytes());
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

/// What a scan of a whole pack found.
#[derive(Debug)]
pub(crate) struct Scan {
    /// The sound records, in order, up to the first unsound one.
    pub(crate) records: Vec<RecordRef>,
    /// Where the sound records end.
    pub(crate) sound_end: u64,
    /// What is wrong at `sound_end`, if the pack does not end there.
    pub(crate) problem: Option<String>,
    /// The pack's name, from the sound records.
    pub(crate) id: PackId,
}

/// Scans a whole pack: structure, trailers, and addresses (hashed in one
/// batch). Err when the header itself is wrong.
pub(crate) fn scan(bytes: &[u8], hasher: &mut AddressHasher) -> Result<Scan, String> {
    let address_len = hasher.algorithm().digest_len();
    check_header(bytes, hasher.algorithm())?;
    let mut toc = blake3::Hasher::new();
    toc.update(&bytes[..PACK_HEADER_LEN]);
    let mut records = Vec::new();
    let mut payloads = Vec::new();
    let mut offset = PACK_HEADER_LEN;
    let mut problem = None;
    while offset < bytes.len() {
        match parse_record_at(bytes, offset, address_len) {
            Ok((total, address, payload)) => {
                records.push(RecordRef { address, offset: offset as u64, len: total as u32 });
                payloads.push(payload);
                offset += total;
            }
            Err(reason) => {
                problem = Some(format!("at offset {offset}: {reason}"));
                break;
            }
        }
    }
    let mut addresses = Vec::with_capacity(payloads.len());
    hasher.addresses(&payloads, &mut addresses);
    let mut sound = records.len();
    if let Some(bad) = records.iter().zip(&addresses).position(|(record, address)| record.address != *address) {
        let record = records[bad];
        problem = Some(format!(
            "at offset {}: the payload hashes to {}, not to the address {} the record claims",
            record.offset, addresses[bad], record.address
        ));
        sound = bad;
    }
    records.truncate(sound);
    for (record, payload) in records.iter().zip(&payloads) {
        let start = record.offset as usize;
        hash_toc(&mut toc, &bytes[start..start + record.len as usize], address_len, payload.len());
    }
    let sound_end = records.last().map_or(PACK_HEADER_LEN as u64, |r| r.offset + u64::from(r.len));
    Ok(Scan { records, sound_end, problem, id: toc_id(&toc) })
}

/// The pack being filled: records appended through a buffer, its table of
/// contents hashed as it grows.
#[derive(Debug)]
pub(crate) struct PackWriter {
    file: File,
    path: PathBuf,
    buf: Vec<u8>,
    flushed: u64,
    toc: blake3::Hasher,
    records: Vec<RecordRef>,
    address_len: usize,
    trailer: Algorithm,
}

/// A pack that is complete on disk (not yet published).
#[derive(Debug)]
pub(crate) struct Finished {
    pub(crate) staged: PathBuf,
    pub(crate) id: PackId,
    pub(crate) records: Vec<RecordRef>,
}

impl PackWriter {
    /// Starts a pack at `path` (replacing any file there).
    pub(crate) fn create(path: &Path, address: Algorithm, trailer: Algorithm) -> io::Result<PackWriter> {
        let file = File::create(path)?;
        let header = pack_header(address, trailer);
        let mut toc = blake3::Hasher::new();
        toc.update(&header);
        let mut buf = Vec::with_capacity(WRITE_BUF + (1 << 16));
        buf.extend_from_slice(&header);
        Ok(PackWriter {
            file,
            path: path.to_path_buf(),
            buf,
            flushed: 0,
            toc,
            records: Vec::new(),
            address_len: address.digest_len(),
            trailer,
        })
    }

    /// Bytes in the pack so far.
    pub(crate) fn len(&self) -> u64 {
        self.flushed + self.buf.len() as u64
    }

    /// Records so far.
    pub(crate) fn record_count(&self) -> usize {
        self.records.len()
    }

    /// Appends a record; returns where it is.
    pub(crate) fn append(&mut self, address: &Address, payload: &[u8]) -> io::Result<RecordRef> {
        let len = record_len(self.address_len, payload.len(), self.trailer);
        if self.buf.len() + len > self.buf.capacity() && !self.buf.is_empty() {
            self.flush()?;
        }
        let start = self.buf.len();
        let offset = self.len();
        encode_record(&mut self.buf, offset, address, payload, self.trailer);
        hash_toc(&mut self.toc, &self.buf[start..], self.address_len, payload.len());
        let record = RecordRef { address: *address, offset, len: len as u32 };
        self.records.push(record);
        if self.buf.len() >= WRITE_BUF {
            self.flush()?;
        }
        Ok(record)
    }

    fn flush(&mut self) -> io::Result<()> {
        faults::write_all(&mut self.file, &self.buf)?;
        self.flushed += self.buf.len() as u64;
        self.buf.clear();
        Ok(())
    }

    /// Writes what is buffered and closes the file.
    pub(crate) fn finish(mut self) -> io::Result<Finished> {
        self.flush()?;
        Ok(Finished { staged: self.path, id: toc_id(&self.toc), records: self.records })
    }
}
