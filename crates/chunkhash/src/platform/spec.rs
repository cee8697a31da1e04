//! BLAKE3's numbers (spec section 2) and the conversions between bytes and
//! words: what every kernel and the tree share. A leaf: it imports nothing
//! from the crate.

/// Bytes in one BLAKE3 block, the unit of one compression.
pub const BLOCK_LEN: usize = 64;
/// Bytes in one BLAKE3 chunk, the leaf of the tree.
pub const CHUNK_LEN: usize = 1024;
/// Bytes in a default-length hash and in a chaining value.
pub const OUT_LEN: usize = 32;
/// Bytes in a key.
pub const KEY_LEN: usize = 32;

/// Blocks in a chunk: the most compressions one chain of the tree runs.
pub(crate) const CHUNK_BLOCKS: usize = CHUNK_LEN / BLOCK_LEN;

/// Widest lane count of any kernel (AVX-512: 16 x 32-bit lanes).
pub(crate) const MAX_LANES: usize = 16;

/// A chaining value as eight little-endian words.
pub(crate) type CvWords = [u32; 8];
/// A chaining value as it is stored and fed to parent nodes.
pub(crate) type CvBytes = [u8; OUT_LEN];

/// The BLAKE3 initialisation vector (the SHA-256 IV; spec section 2.2).
pub(crate) const IV: CvWords =
    [0x6A09E667, 0xBB67AE85, 0x3C6EF372, 0xA54FF53A, 0x510E527F, 0x9B05688C, 0x1F83D9AB, 0x5BE0CD19];

/// Word order of the message for each of the seven rounds: round `r` reads
/// message word `MSG_SCHEDULE[r][i]` where round 0 reads word `i`. Each row is
/// the previous one permuted by the spec's `[2, 6, 3, 10, 7, 0, 4, 13, 1, 11,
/// 12, 5, 9, 14, 15, 8]` (spec section 2.2).
pub(crate) const MSG_SCHEDULE: [[usize; 16]; 7] = {
    const PERMUTATION: [usize; 16] = [2, 6, 3, 10, 7, 0, 4, 13, 1, 11, 12, 5, 9, 14, 15, 8];
    let mut schedule = [[0; 16]; 7];
    let mut i = 0;
    while i < 16 {
        schedule[0][i] = i;
        i += 1;
    }
    let mut round = 1;
    while round < 7 {
        let mut i = 0;
        while i < 16 {
            schedule[round][i] = schedule[round - 1][PERMUTATION[i]];
            i += 1;
        }
        round += 1;
    }
    schedule
};

// Domain flags (spec table 3). Which node gets which is a rule of the tree.
pub(crate) const CHUNK_START: u8 = 1 << 0;
pub(crate) const CHUNK_END: u8 = 1 << 1;
pub(crate) const PARENT: u8 = 1 << 2;
pub(crate) const ROOT: u8 = 1 << 3;
pub(crate) const KEYED_HASH: u8 = 1 << 4;
pub(crate) const DERIVE_KEY_CONTEXT: u8 = 1 << 5;
pub(crate) const DERIVE_KEY_MATERIAL: u8 = 1 << 6;

/// Splits `input` into the block at `index`, zero-padded, and its length.
#[inline]
pub(crate) fn padded_block(input: &[u8], index: usize) -> ([u8; BLOCK_LEN], u8) {
    let start = index * BLOCK_LEN;
    if let Some(whole) = input.get(start..start + BLOCK_LEN) {
        // A fixed-size copy: no call to `memcpy` on the path of small hashes.
        return (whole.try_into().unwrap(), BLOCK_LEN as u8);
    }
    let rest = &input[start.min(input.len())..];
    let mut block = [0u8; BLOCK_LEN];
    block[..rest.len()].copy_from_slice(rest);
    (block, rest.len() as u8)
}

/// Reads a block as sixteen little-endian words.
pub(crate) fn block_words(block: &[u8; BLOCK_LEN]) -> [u32; 16] {
    core::array::from_fn(|i| u32::from_le_bytes(block[4 * i..4 * i + 4].try_into().unwrap()))
}

/// Reads 32 bytes as eight little-endian words.
pub(crate) fn cv_words(bytes: &[u8; OUT_LEN]) -> CvWords {
    core::array::from_fn(|i| u32::from_le_bytes(bytes[4 * i..4 * i + 4].try_into().unwrap()))
}

/// Writes eight words as 32 little-endian bytes.
pub(crate) fn cv_bytes(words: &CvWords) -> CvBytes {
    let mut out = [0u8; OUT_LEN];
    for (chunk, word) in out.chunks_exact_mut(4).zip(words) {
        chunk.copy_from_slice(&word.to_le_bytes());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn message_schedule_is_the_spec_permutation_applied_per_round() {
        // Spec section 2.2: round r reads word PERMUTATION^r(i). The last
        // row was computed separately (Python: s = [s[P[i]] for i in
        // range(16)], six times from the identity).
        assert_eq!(MSG_SCHEDULE[0], core::array::from_fn(|i| i));
        assert_eq!(MSG_SCHEDULE[1], [2, 6, 3, 10, 7, 0, 4, 13, 1, 11, 12, 5, 9, 14, 15, 8]);
        assert_eq!(MSG_SCHEDULE[6], [11, 15, 5, 0, 1, 9, 8, 6, 14, 10, 2, 12, 3, 4, 7, 13]);
    }
}
