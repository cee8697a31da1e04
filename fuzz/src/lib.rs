//! Helpers shared by the fuzz targets: the backends to compare, and a fixed
//! pool of bytes that short fuzz inputs cut long messages from (a message
//! of 60 KiB needs 4 bytes of input to describe, not 60 KiB to mutate).

use chunkhash::blake3::Backend;
use std::sync::OnceLock;

/// Bytes in [`pool`]: room for a message of every length up to 64 KiB (past
/// 64 chunks, three levels of the tree) at any offset up to 64 KiB.
pub const POOL_LEN: usize = 128 * 1024;

/// The backends this machine runs, portable (the oracle among them) first.
pub fn backends() -> &'static [Backend] {
    static BACKENDS: OnceLock<Vec<Backend>> = OnceLock::new();
    BACKENDS.get_or_init(|| Backend::all().iter().copied().filter(|b| b.is_supported()).collect())
}

/// [`POOL_LEN`] fixed pseudo-random bytes (SplitMix64 from a constant seed).
pub fn pool() -> &'static [u8] {
    static POOL: OnceLock<Vec<u8>> = OnceLock::new();
    POOL.get_or_init(|| {
        let mut state = 0x6368_756e_6b68_6173_u64;
        let mut bytes = Vec::with_capacity(POOL_LEN);
        while bytes.len() < POOL_LEN {
            state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            bytes.extend_from_slice(&(z ^ (z >> 31)).to_le_bytes());
        }
        bytes
    })
}

/// A message of `len` bytes (at most 64 KiB) starting `offset` bytes into
/// the pool (wrapped to fit).
pub fn message(offset: u32, len: u16) -> &'static [u8] {
    let len = len as usize;
    let offset = offset as usize % (POOL_LEN - len + 1);
    &pool()[offset..offset + len]
}

/// Splits `input` into pieces of the given lengths, cycling through them;
/// the rest goes in one piece when every length is zero.
pub fn pieces<'a>(input: &'a [u8], lengths: &[u16]) -> Vec<&'a [u8]> {
    let mut pieces = Vec::new();
    let mut rest = input;
    if lengths.iter().all(|&len| len == 0) {
        pieces.extend(lengths.iter().map(|_| &rest[..0]));
        pieces.push(rest);
        return pieces;
    }
    for &len in lengths.iter().cycle() {
        if rest.is_empty() {
            break;
        }
        let (head, tail) = rest.split_at((len as usize).min(rest.len()));
        pieces.push(head);
        rest = tail;
    }
    pieces
}
