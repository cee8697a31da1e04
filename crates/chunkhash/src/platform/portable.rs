//! Plain-Rust BLAKE3 compression: runs everywhere and is the oracle every
//! SIMD kernel is tested against. Written for reading, straight from the
//! spec (section 2.2): no unsafe, no tricks.

use super::job::LaneJob;
use super::spec::{block_words, cv_bytes, CvBytes, CvWords, BLOCK_LEN, IV, MSG_SCHEDULE};

/// The quarter-round mixing function G.
#[inline(always)]
fn g(state: &mut [u32; 16], a: usize, b: usize, c: usize, d: usize, mx: u32, my: u32) {
    state[a] = state[a].wrapping_add(state[b]).wrapping_add(mx);
    state[d] = (state[d] ^ state[a]).rotate_right(16);
    state[c] = state[c].wrapping_add(state[d]);
    state[b] = (state[b] ^ state[c]).rotate_right(12);
    state[a] = state[a].wrapping_add(state[b]).wrapping_add(my);
    state[d] = (state[d] ^ state[a]).rotate_right(8);
    state[c] = state[c].wrapping_add(state[d]);
    state[b] = (state[b] ^ state[c]).rotate_right(7);
}

/// Round `R`: a const parameter, so every message index is a constant and
/// the seven rounds unroll into straight-line code. As a loop over the
/// schedule, each message word was a table load and a bounds check, and the
/// message stayed in memory: in WebAssembly under Node, BLAKE3 of 1 KiB took
/// 1.6x as long (64 B: 1.1-1.2x).
#[inline(always)]
fn round<const R: usize>(state: &mut [u32; 16], m: &[u32; 16]) {
    let schedule = &MSG_SCHEDULE[R];
    // Columns.
    g(state, 0, 4, 8, 12, m[schedule[0]], m[schedule[1]]);
    g(state, 1, 5, 9, 13, m[schedule[2]], m[schedule[3]]);
    g(state, 2, 6, 10, 14, m[schedule[4]], m[schedule[5]]);
    g(state, 3, 7, 11, 15, m[schedule[6]], m[schedule[7]]);
    // Diagonals.
    g(state, 0, 5, 10, 15, m[schedule[8]], m[schedule[9]]);
    g(state, 1, 6, 11, 12, m[schedule[10]], m[schedule[11]]);
    g(state, 2, 7, 8, 13, m[schedule[12]], m[schedule[13]]);
    g(state, 3, 4, 9, 14, m[schedule[14]], m[schedule[15]]);
}

/// The seven rounds, returning the state before the final feed-forward.
#[inline(always)]
fn compress_rounds(cv: &CvWords, block: &[u8; BLOCK_LEN], block_len: u8, counter: u64, flags: u8) -> [u32; 16] {
    let m = block_words(block);
    let mut state = [
        cv[0],
        cv[1],
        cv[2],
        cv[3],
        cv[4],
        cv[5],
        cv[6],
        cv[7],
        IV[0],
        IV[1],
        IV[2],
        IV[3],
        counter as u32,
        (counter >> 32) as u32,
        block_len as u32,
        flags as u32,
    ];
    round::<0>(&mut state, &m);
    round::<1>(&mut state, &m);
    round::<2>(&mut state, &m);
    round::<3>(&mut state, &m);
    round::<4>(&mut state, &m);
    round::<5>(&mut state, &m);
    round::<6>(&mut state, &m);
    state
}

pub(super) fn compress_in_place(cv: &mut CvWords, block: &[u8; BLOCK_LEN], block_len: u8, counter: u64, flags: u8) {
    let state = compress_rounds(cv, block, block_len, counter, flags);
    for i in 0..8 {
        cv[i] = state[i] ^ state[i + 8];
    }
}

pub(super) fn compress_xof(
    cv: &CvWords,
    block: &[u8; BLOCK_LEN],
    block_len: u8,
    counter: u64,
    flags: u8,
) -> [u8; BLOCK_LEN] {
    let mut state = compress_rounds(cv, block, block_len, counter, flags);
    for i in 0..8 {
        state[i] ^= state[i + 8];
        state[i + 8] ^= cv[i];
    }
    let mut out = [0u8; BLOCK_LEN];
    for (bytes, word) in out.chunks_exact_mut(4).zip(state) {
        bytes.copy_from_slice(&word.to_le_bytes());
    }
    out
}

/// One job as a chain of compressions.
pub(super) fn hash_job(key: &CvWords, job: &LaneJob<'_>) -> CvBytes {
    let mut cv = *key;
    job.for_each_block(|block, len, flags| compress_in_place(&mut cv, block, len, job.counter(), flags));
    cv_bytes(&cv)
}
