//! Seeded pseudo-random bytes and numbers for benchmark inputs: BLAKE3's
//! extended output keyed by the seed. The same seed gives the same stream on
//! every machine, and the benchmarks need no generator of their own (nor
//! the test-vector crate's, which the shipped command must not link). Not
//! for cryptography: the seed is public.

use chunkhash::blake3::{Hasher, OutputReader};

/// The key-derivation context every stream is derived under; changing it
/// changes every benchmark input.
const CONTEXT: &str = "chunkhash-bench random input";

/// A seeded stream of pseudo-random bytes, read from the front.
#[derive(Clone, Debug)]
pub struct SeededRng {
    output: OutputReader,
}

impl SeededRng {
    /// The stream of `seed`.
    pub fn new(seed: u64) -> SeededRng {
        let mut hasher = Hasher::new_derive_key(CONTEXT);
        hasher.update(&seed.to_le_bytes());
        SeededRng { output: hasher.finalize_xof() }
    }

    /// The next 64 bits.
    pub fn next_u64(&mut self) -> u64 {
        let mut bytes = [0u8; 8];
        self.output.fill(&mut bytes);
        u64::from_le_bytes(bytes)
    }

    /// A value in `0..bound` (`bound` > 0). The modulo's bias is below
    /// `bound / 2^64`, far under anything a benchmark input can show.
    pub fn below(&mut self, bound: u64) -> u64 {
        self.next_u64() % bound
    }

    /// True with a chance of `percent` in 100.
    pub fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }

    /// A size in `low..=high` whose logarithm is uniform: as many sizes
    /// between 1 KiB and 2 KiB as between 32 MiB and 64 MiB.
    pub fn log_uniform(&mut self, low: u64, high: u64) -> u64 {
        let unit = (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
        let (low_ln, high_ln) = ((low as f64).ln(), (high as f64).ln());
        ((low_ln + unit * (high_ln - low_ln)).exp() as u64).clamp(low, high)
    }

    /// Fills `buf` with the next bytes.
    pub fn fill(&mut self, buf: &mut [u8]) {
        self.output.fill(buf);
    }

    /// The next `len` bytes.
    pub fn bytes(&mut self, len: usize) -> Vec<u8> {
        let mut bytes = vec![0u8; len];
        self.fill(&mut bytes);
        bytes
    }
}

/// `len` pseudo-random bytes from a fixed seed, so runs hash the same bytes.
/// None of the timed algorithms runs faster or slower on particular bytes.
pub fn random_input(len: usize, seed: u64) -> Vec<u8> {
    SeededRng::new(seed).bytes(len)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn random_inputs_depend_on_the_seed_only() {
        assert_eq!(random_input(100, 7), random_input(100, 7));
        assert_ne!(random_input(100, 7), random_input(100, 8));
        assert_eq!(random_input(100, 7)[..40], random_input(40, 7));
        assert_eq!(random_input(0, 7), Vec::<u8>::new());
    }

    #[test]
    fn numbers_stay_in_range_and_spread_out() {
        let mut rng = SeededRng::new(3);
        let sizes: Vec<u64> = (0..2000).map(|_| rng.log_uniform(1 << 10, 64 << 20)).collect();
        assert!(sizes.iter().all(|size| (1 << 10..=64 << 20).contains(size)));
        // Log-uniform over 16 doublings: about 1/16 of the sizes in each.
        let first_doubling = sizes.iter().filter(|&&size| size < 2 << 10).count();
        assert!((60..200).contains(&first_doubling), "{first_doubling}");
        let hits = (0..10_000).filter(|_| rng.chance(30)).count();
        assert!((2700..3300).contains(&hits), "{hits}");
        assert!((0..1000).all(|_| rng.below(7) < 7));
    }
}
