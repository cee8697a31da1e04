//! The index: address -> (pack, offset, length), held in memory and kept in
//! immutable index files, one per commit, each named by its content.
//! Everything in it can be rebuilt from the packs (`reindex`).

use crate::address::Address;
use crate::pack::{PackId, RecordRef, PACK_ID_LEN};
use chunkhash::trailer::{self, trailer_len};
use chunkhash::{blake3, Algorithm};
use std::collections::HashMap;

/// The folder of index files.
pub(crate) const INDEX: &str = "index";
/// Bytes 0..8 of an index file: "CHINDEX", the index format version.
const INDEX_MAGIC: [u8; 8] = *b"CHINDEX\x01";
/// Magic, two algorithm ids, two zeros, pack count (u32), entry count (u64).
const INDEX_HEADER_LEN: usize = 24;

/// Where a record is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Location {
    /// The pack's number in its index, which numbers its packs in the order
    /// it first indexed them.
    pub pack: u32,
    /// Offset of the record in the pack.
    pub offset: u64,
    /// Bytes of the record (header, address, payload, trailer).
    pub len: u32,
}

/// The in-memory index.
#[derive(Clone, Debug, Default)]
pub struct Index {
    packs: Vec<PackId>,
    pack_numbers: HashMap<PackId, u32>,
    entries: HashMap<Address, Location>,
}

impl Index {
    /// Records indexed.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether nothing is indexed.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Where `address` is.
    pub fn get(&self, address: &Address) -> Option<Location> {
        self.entries.get(address).copied()
    }

    /// Whether `address` is stored.
    pub fn contains(&self, address: &Address) -> bool {
        self.entries.contains_key(address)
    }

    pub(crate) fn pack(&self, number: u32) -> PackId {
        self.packs[number as usize]
    }

    pub(crate) fn packs(&self) -> &[PackId] {
        &self.packs
    }

    pub(crate) fn has_pack(&self, id: &PackId) -> bool {
        self.pack_numbers.contains_key(id)
    }

    pub(crate) fn iter(&self) -> impl Iterator<Item = (&Address, &Location)> {
        self.entries.iter()
    }

    fn pack_number(&mut self, id: PackId) -> u32 {
        if let Some(&number) = self.pack_numbers.get(&id) {
            return number;
        }
        let number = self.packs.len() as u32;
        self.packs.push(id);
        self.pack_numbers.insert(id, number);
        number
    }

    /// Adds records of pack `id`; an address already indexed keeps its place.
    pub(crate) fn add(&mut self, id: PackId, records: &[RecordRef]) {
        let pack = self.pack_number(id);
        for record in records {
            self.entries.entry(record.address).or_insert(Location { pack, offset: record.offset, len: record.len });
        }
    }

    /// Every entry as (address, pack name, offset, length), sorted: two
    /// indexes are equal exactly when these are.
    pub fn to_sorted_vec(&self) -> Vec<(Address, PackId, u64, u32)> {
        let mut all: Vec<_> =
            self.entries.iter().map(|(a, l)| (*a, self.packs[l.pack as usize], l.offset, l.len)).collect();
        all.sort_unstable();
        all
    }

    /// Merges an index file; Err says what is wrong with it.
    pub(crate) fn merge_file(&mut self, bytes: &[u8], address: Algorithm) -> Result<(), String> {
        let address_len = address.digest_len();
        if bytes.len() < INDEX_HEADER_LEN {
            return Err(format!("{} bytes, shorter than an index header", bytes.len()));
        }
        if bytes[..8] != INDEX_MAGIC {
            return Err("no index header (damaged, or not an index file)".into());
        }
        if bytes[8] != address.id() {
            return Err(format!("it indexes addresses of algorithm id {}, the store uses {address}", bytes[8]));
        }
        let trailer_algorithm = Algorithm::from_id(bytes[9]).map_err(|e| e.to_string())?;
        let packs = u32::from_le_bytes(bytes[12..16].try_into().unwrap_or_default()) as usize;
        let entries = u64::from_le_bytes(bytes[16..24].try_into().unwrap_or_default());
        let entry_len = address_len + 16;
        let expected = (packs as u128) * PACK_ID_LEN as u128
            + u128::from(entries) * entry_len as u128
            + (INDEX_HEADER_LEN + trailer_len(trailer_algorithm)) as u128;
        if expected != bytes.len() as u128 {
            return Err(format!("{} bytes, but its header promises {expected}", bytes.len()));
        }
        let body_len = bytes.len() - trailer_len(trailer_algorithm);
        trailer::verify(&bytes[..body_len], &bytes[body_len..], 0).map_err(|e| e.to_string())?;
        let ids_end = INDEX_HEADER_LEN + packs * PACK_ID_LEN;
        let entry_bytes = &bytes[ids_end..body_len];
        // Every entry checked before any is merged: a file is merged whole or not at all.
        for entry in entry_bytes.chunks_exact(entry_len) {
            let pack = u32::from_le_bytes(entry[address_len..address_len + 4].try_into().unwrap_or_default()) as usize;
            if pack >= packs {
                return Err(format!("entry names pack {pack} of {packs}"));
            }
        }
        let numbers: Vec<u32> = bytes[INDEX_HEADER_LEN..ids_end]
            .chunks_exact(PACK_ID_LEN)
            .map(|id| self.pack_number(id.try_into().unwrap_or_default()))
            .collect();
        for entry in entry_bytes.chunks_exact(entry_len) {
            let address = Address::from_slice(&entry[..address_len]).ok_or("empty address")?;
            let pack = u32::from_le_bytes(entry[address_len..address_len + 4].try_into().unwrap_or_default()) as usize;
            let offset = u64::from_le_bytes(entry[address_len + 4..address_len + 12].try_into().unwrap_or_default());
            let len = u32::from_le_bytes(entry[address_len + 12..].try_into().unwrap_or_default());
            self.entries.entry(address).or_insert(Location { pack: numbers[pack], offset, len });
        }
        Ok(())
    }
}

/// An index file for `packs` (each with its records): the bytes and the
/// file's name, `index/HEX.idx`, HEX being BLAKE3-160 of the bytes.
pub(crate) fn encode_file(
    packs: &[(PackId, Vec<RecordRef>)],
    address: Algorithm,
    trailer: Algorithm,
) -> (String, Vec<u8>) {
    let mut entries: Vec<(Address, u32, u64, u32)> = packs
        .iter()
        .enumerate()
        .flat_map(|(number, (_, records))| records.iter().map(move |r| (r.address, number as u32, r.offset, r.len)))
        .collect();
    entries.sort_unstable();
    entries.dedup_by_key(|entry| entry.0);
    let mut out = Vec::with_capacity(INDEX_HEADER_LEN + packs.len() * PACK_ID_LEN + entries.len() * 52);
    out.extend_from_slice(&INDEX_MAGIC);
    out.extend_from_slice(&[address.id(), trailer.id(), 0, 0]);
    out.extend_from_slice(&(packs.len() as u32).to_le_bytes());
    out.extend_from_slice(&(entries.len() as u64).to_le_bytes());
    for (id, _) in packs {
        out.extend_from_slice(id);
    }
    for (address, pack, offset, len) in &entries {
        out.extend_from_slice(address.as_bytes());
        out.extend_from_slice(&pack.to_le_bytes());
        out.extend_from_slice(&offset.to_le_bytes());
        out.extend_from_slice(&len.to_le_bytes());
    }
    let seal = trailer::seal(&out, trailer, 0);
    out.extend_from_slice(seal.as_bytes());
    let name = format!("{INDEX}/{}.idx", blake3::address(&out));
    (name, out)
}

/// Whether a listed name is an index file.
pub(crate) fn is_index_file(name: &str) -> bool {
    name.strip_suffix(".idx")
        .is_some_and(|hex| hex.len() == 2 * PACK_ID_LEN && hex.bytes().all(|b| b.is_ascii_hexdigit()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_round_trip_and_damage_is_refused() {
        let record = |n: u8, offset| RecordRef { address: Address::from_slice(&[n; 20]).unwrap(), offset, len: 100 };
        let packs = vec![([1u8; 20], vec![record(3, 16), record(1, 116)]), ([2u8; 20], vec![record(2, 16)])];
        let (name, bytes) = encode_file(&packs, Algorithm::Blake3_160, Algorithm::Crc32c);
        assert!(is_index_file(name.strip_prefix("index/").unwrap()), "{name}");
        let mut index = Index::default();
        index.merge_file(&bytes, Algorithm::Blake3_160).unwrap();
        let mut expected = Index::default();
        for (id, records) in &packs {
            expected.add(*id, records);
        }
        assert_eq!(index.to_sorted_vec(), expected.to_sorted_vec());
        assert_eq!(index.len(), 3);
        assert!(Index::default().merge_file(&bytes, Algorithm::Sha256).is_err());
        for cut in [0, 10, 30, bytes.len() - 1] {
            assert!(Index::default().merge_file(&bytes[..cut], Algorithm::Blake3_160).is_err(), "cut at {cut}");
        }
        for flip in 0..bytes.len() {
            let mut damaged = bytes.clone();
            damaged[flip] ^= 0x10;
            // Byte 10 and 11 are reserved zeros, not checked by the length rule,
            // but the trailer covers them.
            assert!(Index::default().merge_file(&damaged, Algorithm::Blake3_160).is_err(), "flip at {flip}");
        }
    }
}
