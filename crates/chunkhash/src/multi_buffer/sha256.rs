//! SHA-256 of many messages in one call: messages of any lengths share
//! the kernels' lanes (`platform/sha256.rs` picks the kernel).
//!
//! Each message is its whole 64-byte blocks, read in place, then one or
//! two final blocks padded here (FIPS 180-4, 5.1.1; two whenever the
//! message has them, so a message of up to 119 bytes is one run). The lane kernels
//! (AVX-512, AVX2, wasm32 SIMD128) take one block of each lane per call; a lane whose
//! message ends takes the next message at once, so mixed lengths keep the
//! lanes busy until the batch runs out. Then, when few lanes are left
//! busy, their messages finish one at a time through the SHA extensions,
//! which beat a kernel of mostly idle lanes. The SHA-NI kernel runs two
//! messages side by side, as many blocks per call as both have left in
//! their current run (whole blocks or padded ones). Where the CPU has both,
//! a batch of short messages (under 256 bytes on average) goes to the
//! AVX-512 lanes and the others to SHA-NI, as measured (`platform/sha256.rs`).

use crate::platform::sha256::{Checked, Kernel};
use crate::platform::sha256_portable::{self, BLOCK_LEN, IV};

/// Bytes in a SHA-256 digest.
pub(crate) const OUT_LEN: usize = 32;

type Block = [u8; BLOCK_LEN];

/// `out[i]` receives the SHA-256 of `messages[i]`.
///
/// # Panics
///
/// If `out` and `messages` differ in length.
pub(crate) fn sha256_many(messages: &[&[u8]], out: &mut [[u8; OUT_LEN]]) {
    let total: usize = messages.iter().map(|message| message.len()).sum();
    let kernel = Checked::detect().for_mean_len(total / messages.len().max(1));
    sha256_many_with(kernel, messages, out);
}

/// [`sha256_many`] on a given kernel.
pub(crate) fn sha256_many_with(kernel: Checked, messages: &[&[u8]], out: &mut [[u8; OUT_LEN]]) {
    assert_eq!(messages.len(), out.len(), "sha256_many: one output per message");
    match kernel.kernel() {
        Kernel::Avx512 => lanes::<16>(kernel, messages, out, |state, blocks| kernel.compress16(state, blocks)),
        Kernel::Avx2 => lanes::<8>(kernel, messages, out, |state, blocks| kernel.compress8(state, blocks)),
        Kernel::Simd128 => lanes::<4>(kernel, messages, out, |state, blocks| kernel.compress4(state, blocks)),
        Kernel::ShaNi | Kernel::Portable => streams::<SHANI_STREAMS>(kernel, messages, out),
    }
}

/// Messages side by side on SHA-NI. Measured here (AMD EPYC, Zen 4; 1 KiB
/// and 4 KiB messages; `sha256_many_vs_sha2`): 2 streams 1.68x and 1.80x
/// a loop over `sha2`, 3 streams 1.69x and 1.78x, 4 streams 1.79x and
/// 1.95x, 6 streams 1.79x and 1.88x.
pub(crate) const SHANI_STREAMS: usize = 4;

/// One message being hashed: its whole blocks, its padded final blocks,
/// and how many blocks are done.
struct Job<'a> {
    index: usize,
    whole: &'a [Block],
    padded: [Block; 2],
    padded_blocks: usize,
    done: usize,
}

impl<'a> Job<'a> {
    fn new(index: usize, message: &'a [u8]) -> Job<'a> {
        let (mut whole, mut rest) = message.as_chunks::<BLOCK_LEN>();
        if rest.len() + 1 + 8 <= BLOCK_LEN && !whole.is_empty() {
            // The last whole block goes to the padded ones too, so that a
            // message of one to two blocks is one run: one kernel call (of
            // which a 64-byte message would otherwise need two).
            whole = &whole[..whole.len() - 1];
            rest = &message[whole.len() * BLOCK_LEN..];
        }
        // The rest, the 1 bit (0x80), zeros, and the length in bits as a
        // 64-bit big-endian integer: one block if that fits, else two.
        let mut bytes = [0u8; 2 * BLOCK_LEN];
        bytes[..rest.len()].copy_from_slice(rest);
        bytes[rest.len()] = 0x80;
        let padded_blocks = if rest.len() + 1 + 8 <= BLOCK_LEN { 1 } else { 2 };
        let bits = (message.len() as u64).wrapping_mul(8);
        bytes[padded_blocks * BLOCK_LEN - 8..padded_blocks * BLOCK_LEN].copy_from_slice(&bits.to_be_bytes());
        let (padded, _) = bytes.as_chunks::<BLOCK_LEN>();
        Job { index, whole, padded: [padded[0], padded[1]], padded_blocks, done: 0 }
    }

    fn blocks(&self) -> usize {
        self.whole.len() + self.padded_blocks
    }

    fn is_finished(&self) -> bool {
        self.done == self.blocks()
    }

    /// The blocks from the next one to the end of its run (the whole
    /// blocks, or the padded ones).
    fn run(&self) -> &[Block] {
        match self.whole.get(self.done..) {
            Some(whole) if !whole.is_empty() => whole,
            _ => &self.padded[self.done - self.whole.len()..self.padded_blocks],
        }
    }

    /// The next block.
    fn block(&self) -> &Block {
        &self.run()[0]
    }
}

/// The digest from a final hash value.
fn digest(state: &[u32; 8]) -> [u8; OUT_LEN] {
    let mut out = [0; OUT_LEN];
    for (bytes, word) in out.chunks_exact_mut(4).zip(state) {
        bytes.copy_from_slice(&word.to_be_bytes());
    }
    out
}

/// The rest of `job` alone, from `state`, into `out`.
fn finish_alone(kernel: Checked, mut state: [u32; 8], job: &mut Job<'_>, out: &mut [[u8; OUT_LEN]]) {
    while !job.is_finished() {
        let run = job.run();
        if kernel.kernel() == Kernel::Portable {
            run.iter().for_each(|block| sha256_portable::compress(&mut state, block));
        } else {
            // The sha2 crate's compression: the SHA extensions where the
            // CPU has them.
            ::sha2::block_api::compress256(&mut state, run);
        }
        job.done += run.len();
    }
    out[job.index] = digest(&state);
}

/// An idle lane's block: its result is never read.
const IDLE: Block = [0; BLOCK_LEN];

/// The lane kernels: `L` messages at a time, one block of each per call.
fn lanes<const L: usize>(
    kernel: Checked,
    messages: &[&[u8]],
    out: &mut [[u8; OUT_LEN]],
    compress: impl Fn(&mut [[u32; L]; 8], &[&Block; L]),
) {
    // Left to a single stream of SHA-NI, from this many busy lanes down:
    // a kernel with half its lanes idle runs no faster per message than it.
    let alone_from = if kernel.has_shani() { L / 2 } else { 0 };
    let mut state = [[0u32; L]; 8];
    let mut lanes: [Option<Job<'_>>; L] = core::array::from_fn(|_| None);
    let mut next = 0;
    loop {
        for (lane, job) in lanes.iter_mut().enumerate() {
            if job.is_none() && next < messages.len() {
                *job = Some(Job::new(next, messages[next]));
                for (row, word) in state.iter_mut().zip(IV) {
                    row[lane] = word;
                }
                next += 1;
            }
        }
        let busy = lanes.iter().flatten().count();
        if busy == 0 {
            return;
        }
        if next == messages.len() && busy <= alone_from {
            for (lane, job) in lanes.iter_mut().enumerate() {
                if let Some(job) = job {
                    finish_alone(kernel, core::array::from_fn(|i| state[i][lane]), job, out);
                }
            }
            return;
        }
        let blocks: [&Block; L] = core::array::from_fn(|lane| lanes[lane].as_ref().map_or(&IDLE, Job::block));
        compress(&mut state, &blocks);
        for (lane, slot) in lanes.iter_mut().enumerate() {
            if let Some(job) = slot {
                job.done += 1;
                if job.is_finished() {
                    out[job.index] = digest(&core::array::from_fn(|i| state[i][lane]));
                    *slot = None;
                }
            }
        }
    }
}

/// `N` messages at a time on the SHA-NI kernel (the portable code runs
/// them one after the other), each call as many blocks as all have left
/// in their current runs; when fewer than `N` are left, two at a time,
/// then the last alone.
fn streams<const N: usize>(kernel: Checked, messages: &[&[u8]], out: &mut [[u8; OUT_LEN]]) {
    let mut state = [[0u32; 8]; N];
    let mut jobs: [Option<Job<'_>>; N] = core::array::from_fn(|_| None);
    let mut next = 0;
    loop {
        for (stream, job) in jobs.iter_mut().enumerate() {
            if job.is_none() && next < messages.len() {
                *job = Some(Job::new(next, messages[next]));
                state[stream] = IV;
                next += 1;
            }
        }
        let mut busy = [0; N];
        let mut count = 0;
        for (stream, job) in jobs.iter().enumerate() {
            if job.is_some() {
                busy[count] = stream;
                count += 1;
            }
        }
        let run_of = |stream: usize| jobs[stream].as_ref().map_or(&[][..], Job::run);
        let run = busy[..count].iter().map(|&stream| run_of(stream).len()).min().unwrap_or(0);
        match count {
            0 => return,
            1 => {
                let job = jobs[busy[0]].as_mut().expect("busy");
                return finish_alone(kernel, state[busy[0]], job, out);
            }
            _ if count == N => {
                let blocks: [&[Block]; N] = core::array::from_fn(|stream| &run_of(stream)[..run]);
                kernel.compress_streams(&mut state, blocks);
            }
            _ => {
                // The batch is running out: two side by side.
                let (a, b) = (busy[0], busy[1]);
                let mut pair = [state[a], state[b]];
                kernel.compress_streams(&mut pair, [&run_of(a)[..run], &run_of(b)[..run]]);
                [state[a], state[b]] = pair;
                count = 2;
            }
        }
        for &stream in &busy[..count] {
            let job = jobs[stream].as_mut().expect("busy");
            job.done += run;
            if job.is_finished() {
                out[job.index] = digest(&state[stream]);
                jobs[stream] = None;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::platform::sha256::tests::kernels_under_test;
    use ::sha2::Digest as _;
    use std::vec::Vec;

    fn reference(message: &[u8]) -> [u8; OUT_LEN] {
        ::sha2::Sha256::digest(message).into()
    }

    /// `messages` through `kernel`, checked against the `sha2` crate.
    fn check(kernel: Checked, messages: &[&[u8]], shape: &str) {
        let mut out = std::vec![[0u8; OUT_LEN]; messages.len()];
        sha256_many_with(kernel, messages, &mut out);
        for (i, (message, digest)) in messages.iter().zip(&out).enumerate() {
            assert_eq!(*digest, reference(message), "{kernel:?}, {shape}: message {i} of {} bytes", message.len());
        }
    }

    /// FIPS 180-4's examples (NIST's "SHA256.pdf" and "SHA2_Additional.pdf"
    /// example values): "abc", the 448-bit message, and a million 'a's,
    /// each alone and inside a batch.
    #[test]
    fn nist_examples() {
        let million = std::vec![b'a'; 1_000_000];
        let examples: [(&[u8], &str); 3] = [
            (b"abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
            (
                b"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
                "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1",
            ),
            (&million, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"),
        ];
        for kernel in kernels_under_test() {
            let mut batch: Vec<&[u8]> = Vec::new();
            for (message, hex) in examples {
                let mut out = [[0u8; OUT_LEN]];
                sha256_many_with(kernel, &[message], &mut out);
                assert_eq!(crate::hex::encode(&out[0]), hex, "{kernel:?} alone");
                batch.extend([message, b"x"]);
            }
            let mut out = std::vec![[0u8; OUT_LEN]; batch.len()];
            sha256_many_with(kernel, &batch, &mut out);
            for (i, (_, hex)) in examples.iter().enumerate() {
                assert_eq!(crate::hex::encode(&out[2 * i]), *hex, "{kernel:?} in a batch");
            }
        }
    }

    /// Random lengths 0..4160 (every padding case: the last block's rest
    /// from 0 to 63 bytes, one or two padded blocks) and the batch shapes
    /// that lane sharing must get right; against the `sha2` crate. Seeded,
    /// the seed printed.
    #[test]
    fn every_kernel_matches_sha2_on_every_batch_shape() {
        let mut rng = vectors::TestRng::new(vectors::test_seed("sha256_many shapes", 3434));
        let mut data = std::vec![0u8; 8192];
        rng.fill(&mut data);
        let piece = |rng: &mut vectors::TestRng, len: usize| {
            let start = rng.range(0..=data.len() - len);
            &data[start..start + len]
        };
        let rounds = vectors::TestScale::pick(8, 2, 1);
        for kernel in kernels_under_test() {
            check(kernel, &[], "empty batch");
            for len in [0, 1, 55, 56, 63, 64, 65, 119, 120, 4159] {
                check(kernel, &[piece(&mut rng, len)], "one message");
            }
            for _ in 0..rounds {
                for count in [2, 3, 7, 8, 9, 15, 16, 17, 33, 100] {
                    let len = rng.range(0..=4159);
                    let equal: Vec<&[u8]> = (0..count).map(|_| piece(&mut rng, len)).collect();
                    check(kernel, &equal, "equal lengths");
                    let mixed: Vec<&[u8]> = (0..count)
                        .map(|_| {
                            let len = rng.range(0..=4159);
                            piece(&mut rng, len)
                        })
                        .collect();
                    check(kernel, &mixed, "mixed lengths");
                    let mut one_long: Vec<&[u8]> = (0..count)
                        .map(|_| {
                            let len = rng.range(0..=64);
                            piece(&mut rng, len)
                        })
                        .collect();
                    one_long[rng.range(0..=count - 1)] = piece(&mut rng, 4159);
                    check(kernel, &one_long, "one long among short");
                }
            }
            // Every length to 4 blocks and a bit, in one batch: each
            // padding case in every lane position.
            let every: Vec<&[u8]> = (0..300).map(|len| piece(&mut rng, len)).collect();
            check(kernel, &every, "lengths 0..300");
        }
    }
}
