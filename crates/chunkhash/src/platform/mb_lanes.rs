//! The lane scheduler every multi-buffer kernel shares (safe code): which
//! message each SIMD lane hashes, how far, and its padded last blocks.
//!
//! Each lane runs one message at a time. A kernel call takes the same
//! number of blocks from every lane: the fewest any busy lane has left in
//! its current stretch (the message's whole blocks, then its padded tail).
//! A lane that finishes its message hands over its digest and takes the
//! next message of the batch, so messages of mixed lengths share lanes
//! without waiting for the longest of a group. Once the batch runs out,
//! idle lanes read a busy lane's blocks and their results are dropped:
//! the kernel always computes every lane.

/// How a hash lays out its last block: MD5 and SHA-1 take 64-byte blocks
/// and a 64-bit length, SHA-512 128-byte blocks and a 128-bit length; MD5
/// writes the length little-endian, SHA big-endian (RFC 1321 section 3.2,
/// FIPS 180-4 section 5.1).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Padding {
    pub(crate) block_len: usize,
    pub(crate) length_bytes: usize,
    pub(crate) big_endian: bool,
}

/// The longest padded tail: two SHA-512 blocks.
const MAX_TAIL_LEN: usize = 256;

/// Writes `message`'s last partial block, the `0x80` byte, zeros and the
/// message's length in bits into `tail`; returns the tail's length, one
/// block or two (when the length field does not fit after the message).
fn pad(padding: Padding, message: &[u8], tail: &mut [u8; MAX_TAIL_LEN]) -> usize {
    let Padding { block_len, length_bytes, big_endian } = padding;
    let rest = message.len() % block_len;
    let len = if rest + 1 + length_bytes <= block_len { block_len } else { 2 * block_len };
    tail[..len].fill(0);
    tail[..rest].copy_from_slice(&message[message.len() - rest..]);
    tail[rest] = 0x80;
    // In u128: SHA-512's field is 128 bits; MD5 and SHA-1 keep the low 64
    // (the length modulo 2^64, as both specify).
    let bits = (message.len() as u128).wrapping_mul(8);
    let field = &mut tail[len - length_bytes..len];
    if big_endian {
        field.copy_from_slice(&bits.to_be_bytes()[16 - length_bytes..]);
    } else {
        field.copy_from_slice(&bits.to_le_bytes()[..length_bytes]);
    }
    len
}

/// Where a lane is: which message, and how far into its current stretch.
#[derive(Clone, Copy, Debug)]
struct Job {
    message: usize,
    /// Bytes of the current stretch already compressed.
    offset: usize,
    /// Whether the current stretch is the padded tail (else the message's
    /// whole blocks).
    in_tail: bool,
    tail_len: usize,
}

/// Hashes every message of `messages` in `L` lanes of `S` state words of
/// type `W`, calling `compress(state, blocks, count)` for `count` blocks of
/// every lane (`state[word][lane]`; each `blocks[lane]` holds at least
/// `count` blocks) and `finish(index, words)` with each message's final
/// state, in the order messages finish.
pub(crate) fn hash_in_lanes<W: Copy, const L: usize, const S: usize>(
    messages: &[&[u8]],
    padding: Padding,
    iv: [W; S],
    mut compress: impl FnMut(&mut [[W; L]; S], &[&[u8]; L], usize),
    mut finish: impl FnMut(usize, [W; S]),
) {
    let block_len = padding.block_len;
    let whole_blocks = |message: &[u8]| message.len() - message.len() % block_len;
    let mut state = [[iv[0]; L]; S];
    let mut tails = [[0u8; MAX_TAIL_LEN]; L];
    let mut jobs: [Option<Job>; L] = [None; L];
    let mut next = 0;
    // Gives `lane` the next message, if any is left.
    let mut start = |lane: usize, state: &mut [[W; L]; S], tails: &mut [[u8; MAX_TAIL_LEN]; L]| {
        let &message = messages.get(next)?;
        let tail_len = pad(padding, message, &mut tails[lane]);
        for (row, &word) in state.iter_mut().zip(&iv) {
            row[lane] = word;
        }
        let job = Job { message: next, offset: 0, in_tail: whole_blocks(message) == 0, tail_len };
        next += 1;
        Some(job)
    };
    for (lane, job) in jobs.iter_mut().enumerate() {
        *job = start(lane, &mut state, &mut tails);
    }
    loop {
        let mut blocks: [&[u8]; L] = [&[]; L];
        let mut count = usize::MAX;
        let mut busy = None;
        for (lane, job) in jobs.iter().enumerate() {
            let Some(job) = job else { continue };
            let stretch = if job.in_tail {
                &tails[lane][job.offset..job.tail_len]
            } else {
                let message = messages[job.message];
                &message[job.offset..whole_blocks(message)]
            };
            // Never empty: a stretch that ends is left at once (below).
            debug_assert!(stretch.len() >= block_len && stretch.len() % block_len == 0);
            count = count.min(stretch.len() / block_len);
            blocks[lane] = stretch;
            busy = Some(lane);
        }
        let Some(busy) = busy else { break };
        for (lane, job) in jobs.iter().enumerate() {
            if job.is_none() {
                blocks[lane] = blocks[busy];
            }
        }
        compress(&mut state, &blocks, count);
        for (lane, slot) in jobs.iter_mut().enumerate() {
            let Some(job) = slot else { continue };
            job.offset += count * block_len;
            if !job.in_tail && job.offset == whole_blocks(messages[job.message]) {
                *job = Job { offset: 0, in_tail: true, ..*job };
            } else if job.in_tail && job.offset == job.tail_len {
                finish(job.message, core::array::from_fn(|word| state[word][lane]));
                *slot = start(lane, &mut state, &mut tails);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn padding_fills_one_block_or_two() {
        let md5 = Padding { block_len: 64, length_bytes: 8, big_endian: false };
        let sha512 = Padding { block_len: 128, length_bytes: 16, big_endian: true };
        let mut tail = [0xaa; MAX_TAIL_LEN];
        // 55 bytes leave room for 0x80 and 8 length bytes; 56 do not.
        assert_eq!(pad(md5, &[1; 55], &mut tail), 64);
        assert_eq!((tail[54], tail[55], &tail[56..64]), (1, 0x80, &(55u64 * 8).to_le_bytes()[..]));
        assert_eq!(pad(md5, &[1; 56], &mut tail), 128);
        assert_eq!((tail[56], &tail[57..120], &tail[120..128]), (0x80, &[0; 63][..], &(56u64 * 8).to_le_bytes()[..]));
        assert_eq!(pad(sha512, &[2; 239], &mut tail), 128);
        assert_eq!((tail[110], tail[111], &tail[112..128]), (2, 0x80, &(239u128 * 8).to_be_bytes()[..]));
        assert_eq!(pad(sha512, &[2; 240], &mut tail), 256);
        assert_eq!(&tail[240..256], &(240u128 * 8).to_be_bytes()[..]);
    }
}
