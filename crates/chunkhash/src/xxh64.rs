//! XXH64 (seed 0 and seeded), written here from the xxHash specification
//! (`doc/xxhash_spec.md` of the xxHash repository): a scalar algorithm,
//! four 64-bit accumulators over 32-byte stripes, then the tail in 8-, 4-
//! and 1-byte steps and an avalanche.
//!
//! Written here rather than taken from `twox-hash` (which the registry used
//! until then, and which stays the tests' independent oracle): short inputs
//! are what XXH64 is called on (hash tables, record checksums), and there
//! twox-hash's one-shot call ran at 0.75-0.89x xxHash's C library at 16 B
//! in every call-site shape (`short_checksums`). The one-shot path below
//! is straight-line code per tail length, as the C library's is.
//!
//! ```
//! use chunkhash::xxh64;
//!
//! assert_eq!(xxh64::hash(b""), 0xEF46_DB37_51D8_E999);
//! let mut hasher = xxh64::Hasher::with_seed(7);
//! hasher.update(b"chunk ").update(b"bytes");
//! assert_eq!(hasher.finalize(), xxh64::hash_with_seed(b"chunk bytes", 7));
//! ```
//!
//! The value is an integer; its canonical bytes (what xxhsum prints, and
//! what the registry's [`Digest`](crate::Digest) holds) are big-endian.

const PRIME_1: u64 = 0x9E37_79B1_85EB_CA87;
const PRIME_2: u64 = 0xC2B2_AE3D_27D4_EB4F;
const PRIME_3: u64 = 0x1656_67B1_9E37_79F9;
const PRIME_4: u64 = 0x85EB_CA77_C2B2_AE63;
const PRIME_5: u64 = 0x27D4_EB2F_1656_67C5;

/// Bytes of one stripe: four accumulators of 8 bytes.
const STRIPE: usize = 32;

/// XXH64 of `input` with seed 0.
#[inline]
pub fn hash(input: &[u8]) -> u64 {
    hash_with_seed(input, 0)
}

/// XXH64 of `input` with `seed`.
#[inline]
pub fn hash_with_seed(input: &[u8], seed: u64) -> u64 {
    let (acc, tail) = if input.len() >= STRIPE {
        let mut accumulators = Accumulators::new(seed);
        let (stripes, tail) = input.as_chunks::<STRIPE>();
        accumulators.stripes(stripes);
        (accumulators.converge(), tail)
    } else {
        (seed.wrapping_add(PRIME_5), input)
    };
    finish(acc.wrapping_add(input.len() as u64), tail)
}

#[inline(always)]
fn round(acc: u64, lane: u64) -> u64 {
    acc.wrapping_add(lane.wrapping_mul(PRIME_2)).rotate_left(31).wrapping_mul(PRIME_1)
}

#[inline(always)]
fn merge(acc: u64, value: u64) -> u64 {
    (acc ^ round(0, value)).wrapping_mul(PRIME_1).wrapping_add(PRIME_4)
}

#[inline(always)]
fn read64(bytes: &[u8]) -> u64 {
    let mut word = [0u8; 8];
    word.copy_from_slice(&bytes[..8]);
    u64::from_le_bytes(word)
}

/// The four accumulators of inputs of 32 bytes and more.
#[derive(Clone, Copy)]
struct Accumulators([u64; 4]);

impl Accumulators {
    fn new(seed: u64) -> Accumulators {
        Accumulators([
            seed.wrapping_add(PRIME_1).wrapping_add(PRIME_2),
            seed.wrapping_add(PRIME_2),
            seed,
            seed.wrapping_sub(PRIME_1),
        ])
    }

    #[inline]
    fn stripes(&mut self, stripes: &[[u8; STRIPE]]) {
        let [mut a, mut b, mut c, mut d] = self.0;
        for stripe in stripes {
            a = round(a, read64(&stripe[0..]));
            b = round(b, read64(&stripe[8..]));
            c = round(c, read64(&stripe[16..]));
            d = round(d, read64(&stripe[24..]));
        }
        self.0 = [a, b, c, d];
    }

    fn converge(&self) -> u64 {
        let [a, b, c, d] = self.0;
        let acc = a
            .rotate_left(1)
            .wrapping_add(b.rotate_left(7))
            .wrapping_add(c.rotate_left(12))
            .wrapping_add(d.rotate_left(18));
        merge(merge(merge(merge(acc, a), b), c), d)
    }
}

/// The tail (fewer than 32 bytes) and the avalanche.
#[inline(always)]
fn finish(mut acc: u64, tail: &[u8]) -> u64 {
    let (words, rest) = tail.as_chunks::<8>();
    for word in words {
        acc ^= round(0, u64::from_le_bytes(*word));
        acc = acc.rotate_left(27).wrapping_mul(PRIME_1).wrapping_add(PRIME_4);
    }
    let rest = if rest.len() >= 4 {
        let (half, rest) = rest.split_at(4);
        let mut word = [0u8; 4];
        word.copy_from_slice(half);
        acc ^= u64::from(u32::from_le_bytes(word)).wrapping_mul(PRIME_1);
        acc = acc.rotate_left(23).wrapping_mul(PRIME_2).wrapping_add(PRIME_3);
        rest
    } else {
        rest
    };
    for byte in rest {
        acc ^= u64::from(*byte).wrapping_mul(PRIME_5);
        acc = acc.rotate_left(11).wrapping_mul(PRIME_1);
    }
    acc ^= acc >> 33;
    acc = acc.wrapping_mul(PRIME_2);
    acc ^= acc >> 29;
    acc = acc.wrapping_mul(PRIME_3);
    acc ^ (acc >> 32)
}

/// Streaming XXH64: input in pieces of any size, the same value as
/// [`hash_with_seed`] of the whole.
#[derive(Clone)]
pub struct Hasher {
    seed: u64,
    accumulators: Accumulators,
    /// Bytes of an unfinished stripe.
    buffer: [u8; STRIPE],
    buffered: usize,
    total: u64,
}

impl Default for Hasher {
    fn default() -> Hasher {
        Hasher::new()
    }
}

impl core::fmt::Debug for Hasher {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        // The state says something of the input: not printed.
        f.debug_struct("xxh64::Hasher").field("seed", &self.seed).finish_non_exhaustive()
    }
}

impl Hasher {
    /// A hasher with seed 0.
    pub fn new() -> Hasher {
        Hasher::with_seed(0)
    }

    /// A hasher with `seed`.
    pub fn with_seed(seed: u64) -> Hasher {
        Hasher { seed, accumulators: Accumulators::new(seed), buffer: [0; STRIPE], buffered: 0, total: 0 }
    }

    /// Adds input.
    pub fn update(&mut self, mut input: &[u8]) -> &mut Self {
        self.total = self.total.wrapping_add(input.len() as u64);
        if self.buffered > 0 {
            let take = (STRIPE - self.buffered).min(input.len());
            self.buffer[self.buffered..self.buffered + take].copy_from_slice(&input[..take]);
            self.buffered += take;
            input = &input[take..];
            if self.buffered < STRIPE {
                return self;
            }
            let stripe = self.buffer;
            self.accumulators.stripes(&[stripe]);
            self.buffered = 0;
        }
        let (stripes, rest) = input.as_chunks::<STRIPE>();
        self.accumulators.stripes(stripes);
        self.buffer[..rest.len()].copy_from_slice(rest);
        self.buffered = rest.len();
        self
    }

    /// XXH64 of all input so far; the hasher is unchanged.
    pub fn finalize(&self) -> u64 {
        let acc =
            if self.total >= STRIPE as u64 { self.accumulators.converge() } else { self.seed.wrapping_add(PRIME_5) };
        finish(acc.wrapping_add(self.total), &self.buffer[..self.buffered])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The spec's and xxhsum's values: XXH64 of the empty input is
    /// `ef46db3751d8e999` (xxHash's README and `xxhsum -H1 /dev/null`).
    #[test]
    fn known_answers() {
        assert_eq!(hash(b""), 0xEF46_DB37_51D8_E999);
        assert_eq!(hash_with_seed(b"", 1), twox_hash::XxHash64::oneshot(1, b""));
    }

    /// Every length to 300 (each tail shape, one and several stripes) and
    /// several seeds against twox-hash, one-shot and in every two-piece
    /// split; seeded input, printed.
    #[test]
    fn differential_against_twox_hash() {
        const SEED: u64 = 0x5eed_0064;
        std::println!("input seed {SEED:#x}");
        let mut state = SEED;
        let input: std::vec::Vec<u8> = (0..300)
            .map(|_| {
                state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                (state >> 56) as u8
            })
            .collect();
        for seed in [0, 1, PRIME_1, u64::MAX] {
            for len in 0..=input.len() {
                let data = &input[..len];
                let expected = twox_hash::XxHash64::oneshot(seed, data);
                assert_eq!(hash_with_seed(data, seed), expected, "seed {seed:#x}, {len} bytes");
                for split in [0, 1, 7, 31, 32, 33, 64].into_iter().filter(|s| *s <= len) {
                    let mut hasher = Hasher::with_seed(seed);
                    hasher.update(&data[..split]);
                    hasher.update(&data[split..]);
                    assert_eq!(hasher.finalize(), expected, "seed {seed:#x}, {len} bytes split at {split}");
                }
            }
        }
    }
}
