//! The workloads' data, seeded: rows of the sysbench table and the
//! key-value pairs of the update workload.

use crate::rng::SeededRng;
use chunkhash_store::prolly::Edit;

/// Characters of the `c` column.
pub const C_LEN: usize = 120;
/// Characters of the `pad` column.
pub const PAD_LEN: usize = 60;

/// One row of sysbench's table `sbtest`: `id INTEGER PRIMARY KEY, k INTEGER,
/// c CHAR(120), pad CHAR(60)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    /// The primary key, 1 to the number of rows, inserted in order as
    /// sysbench's `prepare` does.
    pub id: u64,
    /// A random secondary value, 1 to the number of rows.
    pub k: u32,
    /// Groups of 11 random digits, each followed by '-', as sysbench fills it.
    pub c: String,
    /// Likewise, 60 characters.
    pub pad: String,
}

/// `len` characters: groups of 11 random digits, each followed by '-'.
fn digits(rng: &mut SeededRng, len: usize) -> String {
    // A byte modulo 10 favours 0-5 by 1 in 25: immaterial to a digit string.
    let bytes = rng.bytes(len);
    bytes.iter().enumerate().map(|(i, b)| if i % 12 == 11 { '-' } else { char::from(b'0' + b % 10) }).collect()
}

/// `count` rows, ids 1 to `count`.
pub fn sysbench_rows(count: u64, seed: u64) -> Vec<Row> {
    let mut rng = SeededRng::new(seed);
    (1..=count)
        .map(|id| Row {
            id,
            k: 1 + rng.below(count.max(1)) as u32,
            c: digits(&mut rng, C_LEN),
            pad: digits(&mut rng, PAD_LEN),
        })
        .collect()
}

impl Row {
    /// The map key: the id big-endian, so that byte order is id order.
    pub fn key(&self) -> [u8; 8] {
        self.id.to_be_bytes()
    }

    /// The map value: `k` (4 bytes, little-endian), then `c` and `pad`,
    /// each after a one-byte length: 186 bytes.
    pub fn value(&self) -> Vec<u8> {
        let mut value = Vec::with_capacity(6 + C_LEN + PAD_LEN);
        value.extend_from_slice(&self.k.to_le_bytes());
        for text in [&self.c, &self.pad] {
            value.push(text.len() as u8);
            value.extend_from_slice(text.as_bytes());
        }
        value
    }

    /// The put of this row.
    pub fn edit(&self) -> Edit {
        Edit::put(self.key(), self.value())
    }
}

/// Bytes of a key and of a value in the update workload (as SALT's state
/// keys and values: hashes and 32-byte words).
pub const KV_LEN: usize = 32;

/// `count` random keys of [`KV_LEN`] bytes (distinct with overwhelming
/// probability).
pub fn kv_keys(count: u64, seed: u64) -> Vec<[u8; KV_LEN]> {
    let mut rng = SeededRng::new(seed);
    (0..count)
        .map(|_| {
            let mut key = [0u8; KV_LEN];
            rng.fill(&mut key);
            key
        })
        .collect()
}

/// A put of each key with a random value.
pub fn kv_puts(keys: &[[u8; KV_LEN]], seed: u64) -> Vec<Edit> {
    let mut rng = SeededRng::new(seed);
    keys.iter().map(|key| Edit::put(key.to_vec(), rng.bytes(KV_LEN))).collect()
}

/// `count` keys drawn from `keys` (with repeats possible), as `round`
/// draws them: the same for every method of a round.
pub fn kv_sample(keys: &[[u8; KV_LEN]], count: u64, seed: u64) -> Vec<[u8; KV_LEN]> {
    let mut rng = SeededRng::new(seed);
    (0..count).map(|_| keys[rng.below(keys.len() as u64) as usize]).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_are_seeded_and_shaped_as_sysbench_rows() {
        let rows = sysbench_rows(100, 7);
        assert_eq!(rows, sysbench_rows(100, 7));
        assert_ne!(rows, sysbench_rows(100, 8));
        assert_eq!(rows[0].id, 1);
        assert_eq!(rows[99].id, 100);
        assert!(rows.iter().all(|row| (1..=100).contains(&row.k)));
        assert_eq!((rows[5].c.len(), rows[5].pad.len()), (C_LEN, PAD_LEN));
        assert_eq!(&rows[5].c[11..12], "-");
        assert_eq!(rows[5].value().len(), 186);
        assert!(rows[0].key() < rows[1].key());
    }
}
