//! XXH3-64 and XXH3-128, written here from the xxHash specification
//! (`doc/xxhash_spec.md` of the xxHash repository), with the long-input
//! loop on the best SIMD kernel of this machine, chosen at run time up to
//! AVX-512.
//!
//! ```
//! use chunkhash::xxh3::{self, Secret, Xxh3};
//!
//! assert_eq!(xxh3::hash64(b""), 0x2D06_8005_38D3_94C2);
//! let mut hasher = xxh3::Hasher128::with_seed(7);
//! hasher.update(b"chunk ").update(b"bytes");
//! assert_eq!(hasher.finalize(), xxh3::hash128_with_seed(b"chunk bytes", 7));
//!
//! // A custom secret must have at least 136 bytes.
//! assert!(Secret::new(&[0; 100]).is_err());
//! let secret = [0x5a; 136];
//! let keyed = Xxh3::with_secret(Secret::new(&secret).unwrap());
//! assert_eq!(keyed.hash64(b"x"), xxh3::hash64_with_secret(b"x", Secret::new(&secret).unwrap()));
//! ```
//!
//! Outputs are integers, as in the spec; their canonical bytes (what
//! xxhsum prints, and what the registry's [`Digest`](crate::Digest) holds)
//! are big-endian: `to_be_bytes()`. XXH3-128 is `high << 64 | low`.
//!
//! A seed or a secret keys the hash, not both. With a seed, inputs of up to
//! 240 bytes mix it into the default secret's words and longer inputs use
//! a secret derived from it; seed 0 is the default. With a custom secret
//! the seed is 0.
//!
//! Inputs of up to 240 bytes take scalar code tuned for latency (same on
//! every machine). Longer inputs run the accumulate-and-scramble loop on a
//! [`Kernel`]: AVX-512, AVX2 or SSE2 on x86 (detected once per process),
//! NEON on aarch64, SIMD128 on wasm32 builds that enable it, or portable
//! Rust. `CHUNKHASH_XXH3_KERNEL=portable|sse2|avx2|avx512` forces one for a
//! process; [`Xxh3::with_kernel`] for one hasher.

mod short;
mod spec;
mod streaming;

use crate::platform::xxh3::{Accumulators, Checked, Detect, SECRET_MIN_LEN as MIN_LEN};
use core::fmt;
use short::SHORT_MAX;
use spec::{avalanche, multiply_fold, read64, DEFAULT_SECRET_LEN, INITIAL_ACCUMULATORS, PRIME64_1, PRIME64_2};

pub use crate::platform::xxh3::{Kernel, KernelError};
pub use streaming::{Hasher128, Hasher64};

/// The shortest custom secret the spec allows, in bytes.
pub const SECRET_MIN_LEN: usize = MIN_LEN;

/// The spec's default secret (192 bytes): what seed 0 uses.
pub const DEFAULT_SECRET: [u8; DEFAULT_SECRET_LEN] = spec::DEFAULT_SECRET;

/// A custom secret: at least [`SECRET_MIN_LEN`] bytes, checked once here so
/// hashing cannot fail. The spec asks for bytes that look random (for
/// example the output of a good hash); this is not checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Secret<'a>(&'a [u8]);

impl<'a> Secret<'a> {
    /// `bytes` as a secret, or an error if it has fewer than 136 bytes.
    pub fn new(bytes: &'a [u8]) -> Result<Self, SecretError> {
        if bytes.len() >= SECRET_MIN_LEN {
            Ok(Secret(bytes))
        } else {
            Err(SecretError { len: bytes.len() })
        }
    }

    /// The secret's bytes.
    pub fn as_bytes(&self) -> &'a [u8] {
        self.0
    }
}

/// A custom secret was shorter than [`SECRET_MIN_LEN`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SecretError {
    len: usize,
}

impl fmt::Display for SecretError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "xxh3 secret of {} bytes is too short, expected at least {SECRET_MIN_LEN}", self.len)
    }
}

#[cfg(feature = "std")]
impl std::error::Error for SecretError {}

/// What keys a hash: seed 0 and the default secret, a non-zero seed, or a
/// custom secret (with seed 0). The default has a variant of its own so
/// that one comparison finds it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Key<'a> {
    Default,
    Seed(u64),
    Secret(&'a [u8]),
}

/// An XXH3 configuration: the seed or secret, and the kernel for long
/// inputs. The free functions ([`hash64`], [`hash128_with_seed`], ...) are
/// shorthands for the common cases with the detected kernel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Xxh3<'a> {
    key: Key<'a>,
    kernel: Checked,
}

impl Default for Xxh3<'static> {
    fn default() -> Self {
        Xxh3::new()
    }
}

impl Xxh3<'static> {
    /// Seed 0, the default secret, the detected kernel.
    pub fn new() -> Self {
        Xxh3::with_seed(0)
    }

    /// A seed, with the default secret.
    pub fn with_seed(seed: u64) -> Self {
        let key = if seed == 0 { Key::Default } else { Key::Seed(seed) };
        Xxh3 { key, kernel: Checked::detect() }
    }
}

impl<'a> Xxh3<'a> {
    /// A custom secret (seed 0).
    pub fn with_secret(secret: Secret<'a>) -> Self {
        Xxh3 { key: Key::Secret(secret.0), kernel: Checked::detect() }
    }

    /// The same configuration on `kernel`, or an error if this machine
    /// cannot run it. For tests and benchmarks; outputs never depend on it.
    pub fn with_kernel(self, kernel: Kernel) -> Result<Self, KernelError> {
        Ok(Xxh3 { kernel: kernel.checked()?, ..self })
    }

    /// The kernel long inputs run on.
    pub fn kernel(&self) -> Kernel {
        self.kernel.kernel()
    }

    /// XXH3-64 of `input`.
    #[inline]
    pub fn hash64(&self, input: &[u8]) -> u64 {
        match self.key {
            // Seed 0 inline, on the path with constant secret words, as
            // `hash64`; the others out of line, so that this stays small
            // where it is inlined.
            Key::Default => keyed64(input, &DEFAULT_SECRET, self.kernel),
            _ => self.hash64_keyed(input),
        }
    }

    #[inline(never)]
    fn hash64_keyed(&self, input: &[u8]) -> u64 {
        match self.key {
            Key::Default => keyed64(input, &DEFAULT_SECRET, self.kernel),
            Key::Seed(seed) => seeded64(input, seed, self.kernel),
            Key::Secret(secret) => keyed64(input, secret, self.kernel),
        }
    }

    /// XXH3-128 of `input`.
    #[inline]
    pub fn hash128(&self, input: &[u8]) -> u128 {
        match self.key {
            Key::Default => default128(input, self.kernel),
            _ => self.hash128_keyed(input),
        }
    }

    #[inline(never)]
    fn hash128_keyed(&self, input: &[u8]) -> u128 {
        match self.key {
            Key::Default => default128(input, self.kernel),
            Key::Seed(seed) => seeded128(input, seed, self.kernel),
            Key::Secret(secret) => keyed128(input, secret, self.kernel),
        }
    }

    /// A streaming XXH3-64 state with this configuration.
    pub fn hasher64(&self) -> Hasher64<'a> {
        Hasher64::from_config(self.key, self.kernel)
    }

    /// A streaming XXH3-128 state with this configuration.
    pub fn hasher128(&self) -> Hasher128<'a> {
        Hasher128::from_config(self.key, self.kernel)
    }
}

/// XXH3-64 of `input` (seed 0, default secret).
#[inline]
pub fn hash64(input: &[u8]) -> u64 {
    keyed64(input, &DEFAULT_SECRET, Detect)
}

/// XXH3-64 of `input` with a seed.
#[inline]
pub fn hash64_with_seed(input: &[u8], seed: u64) -> u64 {
    seeded64(input, seed, Detect)
}

/// XXH3-64 of `input` with a custom secret.
#[inline]
pub fn hash64_with_secret(input: &[u8], secret: Secret<'_>) -> u64 {
    keyed64(input, secret.0, Detect)
}

/// XXH3-128 of `input` (seed 0, default secret).
#[inline]
pub fn hash128(input: &[u8]) -> u128 {
    default128(input, Detect)
}

/// XXH3-128 of `input` with a seed.
#[inline]
pub fn hash128_with_seed(input: &[u8], seed: u64) -> u128 {
    seeded128(input, seed, Detect)
}

/// XXH3-128 of `input` with a custom secret.
#[inline]
pub fn hash128_with_secret(input: &[u8], secret: Secret<'_>) -> u128 {
    keyed128(input, secret.0, Detect)
}

/// Seeded one-shot hashes: the default secret mixed with the seed up to 240
/// bytes; beyond, the secret derived from the seed (the default one for
/// seed 0, which spares the derivation).
#[inline(always)]
fn seeded64(input: &[u8], seed: u64, kernel: impl Into<Checked>) -> u64 {
    if input.len() <= SHORT_MAX {
        short::hash64(input, short::key(&DEFAULT_SECRET), seed)
    } else if seed == 0 {
        long64(input, &DEFAULT_SECRET, kernel.into())
    } else {
        seeded_long64(input, seed, kernel.into())
    }
}

#[inline(always)]
fn seeded128(input: &[u8], seed: u64, kernel: impl Into<Checked>) -> u128 {
    if input.len() <= SHORT_MAX {
        join(short::hash128(input, short::key(&DEFAULT_SECRET), seed))
    } else if seed == 0 {
        long128(input, &DEFAULT_SECRET, kernel.into())
    } else {
        seeded_long128(input, seed, kernel.into())
    }
}

/// Seed 0 and the default secret for XXH3-128: the short path shaped for
/// it (`short::default_hash128`).
#[inline(always)]
fn default128(input: &[u8], kernel: impl Into<Checked>) -> u128 {
    if input.len() <= SHORT_MAX {
        join(short::default_hash128(input))
    } else {
        long128(input, &DEFAULT_SECRET, kernel.into())
    }
}

#[inline(always)]
fn keyed64(input: &[u8], secret: &[u8], kernel: impl Into<Checked>) -> u64 {
    if input.len() <= SHORT_MAX {
        short::hash64(input, short::key(secret), 0)
    } else {
        long64(input, secret, kernel.into())
    }
}

#[inline(always)]
fn keyed128(input: &[u8], secret: &[u8], kernel: impl Into<Checked>) -> u128 {
    if input.len() <= SHORT_MAX {
        join(short::hash128(input, short::key(secret), 0))
    } else {
        long128(input, secret, kernel.into())
    }
}

/// Kept out of line: the short paths inline into callers, this loop does not.
#[inline(never)]
fn long64(input: &[u8], secret: &[u8], kernel: Checked) -> u64 {
    let mut acc = INITIAL_ACCUMULATORS;
    kernel.hash_long(&mut acc, input, secret);
    merge64(&acc, secret, input.len() as u64)
}

/// Out of line with its derived secret, so that the 192 bytes of stack it
/// needs are not set up on every short-input call (they were, inlined).
#[inline(never)]
fn seeded_long64(input: &[u8], seed: u64, kernel: Checked) -> u64 {
    long64(input, &spec::derive_secret(seed), kernel)
}

#[inline(never)]
fn seeded_long128(input: &[u8], seed: u64, kernel: Checked) -> u128 {
    long128(input, &spec::derive_secret(seed), kernel)
}

#[inline(never)]
fn long128(input: &[u8], secret: &[u8], kernel: Checked) -> u128 {
    let mut acc = INITIAL_ACCUMULATORS;
    kernel.hash_long(&mut acc, input, secret);
    merge128(&acc, secret, input.len() as u64)
}

/// Where the low half's merge reads the secret (spec: `finalMerge(.., 11)`).
const MERGE_LOW_AT: usize = 11;
/// How far before the secret's end the high half's merge reads it (spec:
/// `secretLength - 75`, that is 64 bytes plus 11).
const MERGE_HIGH_FROM_END: usize = 75;

/// The spec's `finalMerge` of the eight accumulators.
fn merge(acc: &Accumulators, secret: &[u8], at: usize, start: u64) -> u64 {
    let mut result = start;
    for pair in 0..4 {
        let low = acc[2 * pair] ^ read64(secret, at + 16 * pair);
        let high = acc[2 * pair + 1] ^ read64(secret, at + 16 * pair + 8);
        result = result.wrapping_add(multiply_fold(low, high));
    }
    avalanche(result)
}

fn merge64(acc: &Accumulators, secret: &[u8], len: u64) -> u64 {
    merge(acc, secret, MERGE_LOW_AT, len.wrapping_mul(PRIME64_1))
}

fn merge128(acc: &Accumulators, secret: &[u8], len: u64) -> u128 {
    let low = merge(acc, secret, MERGE_LOW_AT, len.wrapping_mul(PRIME64_1));
    let high = merge(acc, secret, secret.len() - MERGE_HIGH_FROM_END, !len.wrapping_mul(PRIME64_2));
    join((low, high))
}

#[inline(always)]
fn join((low, high): (u64, u64)) -> u128 {
    u128::from(high) << 64 | u128::from(low)
}
