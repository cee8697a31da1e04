//! The lane scheduler every multi-buffer kernel shares (safe code): which
//! message each SIMD lane hashes, how far, and its padded last blocks.
//!
//! Each lane runs one job at a time: a starting state and up to two
//! stretches of whole blocks (a message's whole blocks, then its padded
//! tail; or, for a stream fed in pieces, the block completed from the last
//! piece, then the new piece's whole blocks). A kernel call takes the same
//! number of blocks from every lane: the fewest any busy lane has left in
//! its current stretch. A lane that finishes its job hands over its state
//! and takes the next job, so messages of mixed lengths share lanes
//! without waiting for the longest of a group. Once the jobs run out, idle
//! lanes read a busy lane's blocks and their results are dropped: the
//! kernel always computes every lane.

// On wasm32 the streams (`Stream`, `update_streams`, `finish_streams`)
// still go through the wrapped crates: only whole batches use the lanes.
#![cfg_attr(target_arch = "wasm32", allow(dead_code))]

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
pub(crate) const MAX_TAIL_LEN: usize = 256;

/// Writes a message's last partial block (`partial`), the `0x80` byte,
/// zeros and the message's length (`len` bytes) in bits into `tail`;
/// returns the tail's length, one block or two (when the length field does
/// not fit after the message).
fn pad(padding: Padding, len: u128, partial: &[u8], tail: &mut [u8; MAX_TAIL_LEN]) -> usize {
    let Padding { block_len, length_bytes, big_endian } = padding;
    let rest = partial.len();
    debug_assert!(rest < block_len);
    let tail_len = if rest + 1 + length_bytes <= block_len { block_len } else { 2 * block_len };
    tail[..tail_len].fill(0);
    tail[..rest].copy_from_slice(partial);
    tail[rest] = 0x80;
    // In u128: SHA-512's field is 128 bits; MD5 and SHA-1 keep the low 64
    // (the length modulo 2^64, as both specify).
    let bits = len.wrapping_mul(8);
    let field = &mut tail[tail_len - length_bytes..tail_len];
    if big_endian {
        field.copy_from_slice(&bits.to_be_bytes()[16 - length_bytes..]);
    } else {
        field.copy_from_slice(&bits.to_le_bytes()[..length_bytes]);
    }
    tail_len
}

/// Blocks a job reads: borrowed from the caller, or held in the lane's own
/// buffer (the first `n` bytes: a padded tail, a block completed from
/// pieces).
#[derive(Clone, Copy, Debug)]
pub(crate) enum Stretch<'a> {
    Borrowed(&'a [u8]),
    Local(usize),
}

/// One job: `state` to start from and the stretches to compress, in order
/// (each whole blocks, possibly none).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Job<'a, W, const S: usize> {
    pub(crate) id: usize,
    pub(crate) state: [W; S],
    pub(crate) stretches: [Stretch<'a>; 2],
}

/// Where jobs come from and where their final states go.
pub(crate) trait Jobs<'a, W, const S: usize> {
    /// The next job, if any, its local blocks written into `local`.
    fn next(&mut self, local: &mut [u8; MAX_TAIL_LEN]) -> Option<Job<'a, W, S>>;
    /// The state job `id` ended with.
    fn finish(&mut self, id: usize, state: [W; S]);
}

/// A lane's job in progress: which stretch, and how far into it.
#[derive(Clone, Copy, Debug)]
struct Running<'a> {
    id: usize,
    stretches: [Stretch<'a>; 2],
    stretch: usize,
    offset: usize,
}

/// The bytes of `stretch`, whose local blocks are in `local`.
fn stretch_bytes<'s>(stretch: Stretch<'s>, local: &'s [u8; MAX_TAIL_LEN]) -> &'s [u8] {
    match stretch {
        Stretch::Borrowed(bytes) => bytes,
        Stretch::Local(len) => &local[..len],
    }
}

/// Gives `lane` the next job of `jobs` with blocks to compress, its state
/// in the lane's column of `state`; jobs without any blocks finish at once.
fn start<'a, W: Copy, const L: usize, const S: usize>(
    jobs: &mut impl Jobs<'a, W, S>,
    lane: usize,
    state: &mut [[W; L]; S],
    local: &mut [u8; MAX_TAIL_LEN],
) -> Option<Running<'a>> {
    loop {
        let job = jobs.next(local)?;
        let Some(first) = job.stretches.iter().position(|&stretch| !stretch_bytes(stretch, local).is_empty()) else {
            jobs.finish(job.id, job.state);
            continue;
        };
        for (row, &word) in state.iter_mut().zip(&job.state) {
            row[lane] = word;
        }
        return Some(Running { id: job.id, stretches: job.stretches, stretch: first, offset: 0 });
    }
}

/// Runs every job of `jobs` in `L` lanes of `S` state words of type `W`,
/// calling `compress(state, blocks, count)` for `count` blocks of every lane
/// (`state[word][lane]`; each `blocks[lane]` holds at least `count` blocks
/// of `block_len` bytes).
pub(crate) fn run_in_lanes<'a, W: Copy + Default, const L: usize, const S: usize>(
    block_len: usize,
    jobs: &mut impl Jobs<'a, W, S>,
    mut compress: impl FnMut(&mut [[W; L]; S], &[&[u8]; L], usize),
) {
    let mut state = [[W::default(); L]; S];
    let mut locals = [[0u8; MAX_TAIL_LEN]; L];
    let mut lanes: [Option<Running<'a>>; L] = [None; L];
    for (lane, running) in lanes.iter_mut().enumerate() {
        *running = start(jobs, lane, &mut state, &mut locals[lane]);
    }
    loop {
        let mut blocks: [&[u8]; L] = [&[]; L];
        let mut count = usize::MAX;
        let mut busy = None;
        for (lane, running) in lanes.iter().enumerate() {
            let Some(running) = running else { continue };
            let stretch = &stretch_bytes(running.stretches[running.stretch], &locals[lane])[running.offset..];
            // Never empty: a stretch that ends is left at once (below).
            debug_assert!(stretch.len() >= block_len && stretch.len().is_multiple_of(block_len));
            count = count.min(stretch.len() / block_len);
            blocks[lane] = stretch;
            busy = Some(lane);
        }
        let Some(busy) = busy else { break };
        for (lane, running) in lanes.iter().enumerate() {
            if running.is_none() {
                blocks[lane] = blocks[busy];
            }
        }
        compress(&mut state, &blocks, count);
        for (lane, slot) in lanes.iter_mut().enumerate() {
            let Some(running) = slot else { continue };
            running.offset += count * block_len;
            let local = &locals[lane];
            if running.offset < stretch_bytes(running.stretches[running.stretch], local).len() {
                continue;
            }
            let rest = (running.stretch + 1..2).find(|&i| !stretch_bytes(running.stretches[i], local).is_empty());
            if let Some(next) = rest {
                *running = Running { stretch: next, offset: 0, ..*running };
            } else {
                jobs.finish(running.id, core::array::from_fn(|word| state[word][lane]));
                *slot = start(jobs, lane, &mut state, &mut locals[lane]);
            }
        }
    }
}

/// The messages of a batch as jobs: each from `iv`, its whole blocks then
/// its padded tail; `finish` gets each final state.
struct Messages<'a, 'm, W, const S: usize, F> {
    messages: &'m [&'a [u8]],
    next: usize,
    padding: Padding,
    iv: [W; S],
    finish: F,
}

impl<'a, W: Copy, const S: usize, F: FnMut(usize, [W; S])> Jobs<'a, W, S> for Messages<'a, '_, W, S, F> {
    fn next(&mut self, local: &mut [u8; MAX_TAIL_LEN]) -> Option<Job<'a, W, S>> {
        let &message = self.messages.get(self.next)?;
        let tail_len = pad(
            self.padding,
            message.len() as u128,
            &message[message.len() - message.len() % self.padding.block_len..],
            local,
        );
        let whole = &message[..message.len() - message.len() % self.padding.block_len];
        self.next += 1;
        Some(Job { id: self.next - 1, state: self.iv, stretches: [Stretch::Borrowed(whole), Stretch::Local(tail_len)] })
    }

    fn finish(&mut self, id: usize, state: [W; S]) {
        (self.finish)(id, state);
    }
}

/// Hashes every message of `messages` in `L` lanes (see [`run_in_lanes`]),
/// calling `finish(index, words)` with each message's final state, in the
/// order messages finish.
pub(crate) fn hash_in_lanes<W: Copy + Default, const L: usize, const S: usize>(
    messages: &[&[u8]],
    padding: Padding,
    iv: [W; S],
    compress: impl FnMut(&mut [[W; L]; S], &[&[u8]; L], usize),
    finish: impl FnMut(usize, [W; S]),
) {
    let mut jobs = Messages { messages, next: 0, padding, iv, finish };
    run_in_lanes(padding.block_len, &mut jobs, compress);
}

#[cfg(all(feature = "compat", feature = "alloc"))]
/// One message fed in pieces: its state after its whole blocks so far, the
/// bytes of a block not yet complete, and its length.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Stream<W, const S: usize> {
    state: [W; S],
    pending: [u8; MAX_TAIL_LEN / 2],
    pending_len: usize,
    len: u128,
}

#[cfg(all(feature = "compat", feature = "alloc"))]
impl<W: Copy, const S: usize> Stream<W, S> {
    pub(crate) fn new(iv: [W; S]) -> Self {
        Stream { state: iv, pending: [0; MAX_TAIL_LEN / 2], pending_len: 0, len: 0 }
    }
}

#[cfg(all(feature = "compat", feature = "alloc"))]
/// The next piece of each stream as jobs: the block the pending bytes and
/// the piece complete, then the piece's whole blocks; what is left of the
/// piece becomes the stream's pending bytes.
struct Pieces<'a, 'm, W, const S: usize> {
    streams: &'m mut [Stream<W, S>],
    pieces: &'m [&'a [u8]],
    next: usize,
    block_len: usize,
}

#[cfg(all(feature = "compat", feature = "alloc"))]
impl<'a, W: Copy, const S: usize> Jobs<'a, W, S> for Pieces<'a, '_, W, S> {
    fn next(&mut self, local: &mut [u8; MAX_TAIL_LEN]) -> Option<Job<'a, W, S>> {
        let block_len = self.block_len;
        loop {
            let id = self.next;
            let (stream, &piece) = (self.streams.get_mut(id)?, self.pieces.get(id)?);
            self.next += 1;
            stream.len += piece.len() as u128;
            let pending = stream.pending_len;
            if pending + piece.len() < block_len {
                stream.pending[pending..pending + piece.len()].copy_from_slice(piece);
                stream.pending_len += piece.len();
                continue;
            }
            // The pending bytes completed into a block (none when no bytes
            // were pending), then the rest of the piece's whole blocks.
            let (first, rest) = if pending == 0 {
                (0, piece)
            } else {
                local[..pending].copy_from_slice(&stream.pending[..pending]);
                local[pending..block_len].copy_from_slice(&piece[..block_len - pending]);
                (block_len, &piece[block_len - pending..])
            };
            let whole = rest.len() - rest.len() % block_len;
            stream.pending[..rest.len() - whole].copy_from_slice(&rest[whole..]);
            stream.pending_len = rest.len() - whole;
            let stretches = [Stretch::Local(first), Stretch::Borrowed(&rest[..whole])];
            return Some(Job { id, state: stream.state, stretches });
        }
    }

    fn finish(&mut self, id: usize, state: [W; S]) {
        self.streams[id].state = state;
    }
}

#[cfg(all(feature = "compat", feature = "alloc"))]
/// Feeds `pieces[i]` to `streams[i]`, the streams' whole blocks in `L`
/// lanes (see [`run_in_lanes`]).
pub(crate) fn update_streams<W: Copy + Default, const L: usize, const S: usize>(
    streams: &mut [Stream<W, S>],
    pieces: &[&[u8]],
    block_len: usize,
    compress: impl FnMut(&mut [[W; L]; S], &[&[u8]; L], usize),
) {
    assert_eq!(streams.len(), pieces.len(), "one piece per stream");
    let mut jobs = Pieces { streams, pieces, next: 0, block_len };
    run_in_lanes(block_len, &mut jobs, compress);
}

#[cfg(all(feature = "compat", feature = "alloc"))]
/// The streams' last blocks as jobs: each one's pending bytes, padded.
struct Tails<'m, W, const S: usize, F> {
    streams: &'m [Stream<W, S>],
    next: usize,
    padding: Padding,
    finish: F,
}

#[cfg(all(feature = "compat", feature = "alloc"))]
impl<'a, W: Copy, const S: usize, F: FnMut(usize, [W; S])> Jobs<'a, W, S> for Tails<'_, W, S, F> {
    fn next(&mut self, local: &mut [u8; MAX_TAIL_LEN]) -> Option<Job<'a, W, S>> {
        let stream = self.streams.get(self.next)?;
        let tail_len = pad(self.padding, stream.len, &stream.pending[..stream.pending_len], local);
        self.next += 1;
        Some(Job { id: self.next - 1, state: stream.state, stretches: [Stretch::Local(tail_len), Stretch::Local(0)] })
    }

    fn finish(&mut self, id: usize, state: [W; S]) {
        (self.finish)(id, state);
    }
}

#[cfg(all(feature = "compat", feature = "alloc"))]
/// Finishes every stream in `L` lanes (see [`run_in_lanes`]), calling
/// `finish(index, words)` with each one's final state.
pub(crate) fn finish_streams<W: Copy + Default, const L: usize, const S: usize>(
    streams: &[Stream<W, S>],
    padding: Padding,
    compress: impl FnMut(&mut [[W; L]; S], &[&[u8]; L], usize),
    finish: impl FnMut(usize, [W; S]),
) {
    let mut jobs = Tails { streams, next: 0, padding, finish };
    run_in_lanes(padding.block_len, &mut jobs, compress);
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
        assert_eq!(pad(md5, 55, &[1; 55], &mut tail), 64);
        assert_eq!((tail[54], tail[55], &tail[56..64]), (1, 0x80, &(55u64 * 8).to_le_bytes()[..]));
        assert_eq!(pad(md5, 56, &[1; 56], &mut tail), 128);
        assert_eq!((tail[56], &tail[57..120], &tail[120..128]), (0x80, &[0; 63][..], &(56u64 * 8).to_le_bytes()[..]));
        assert_eq!(pad(sha512, 239, &[2; 111], &mut tail), 128);
        assert_eq!((tail[110], tail[111], &tail[112..128]), (2, 0x80, &(239u128 * 8).to_be_bytes()[..]));
        assert_eq!(pad(sha512, 240, &[2; 112], &mut tail), 256);
        assert_eq!(&tail[240..256], &(240u128 * 8).to_be_bytes()[..]);
    }
}
