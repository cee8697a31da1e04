//! Content addresses, and the hashing that makes them: one chunk per call or
//! many chunks per call (BLAKE3's batch API, or `digest_many`'s
//! multi-buffer kernels for the other algorithms).

use crate::error::{Error, Result};
use chunkhash::blake3::{self, Backend, Batch};
use chunkhash::{Algorithm, Digest};
use std::fmt;
use std::str::FromStr;
use std::time::{Duration, Instant};

/// The longest address: 32 bytes (BLAKE3, SHA-256, BLAKE2b-256).
pub const MAX_ADDRESS_LEN: usize = 32;

/// The address algorithms a store can be created with, default first.
/// Each is a cryptographic hash, so equal addresses mean equal chunks.
pub const ADDRESS_ALGORITHMS: [Algorithm; 5] =
    [Algorithm::Blake3_160, Algorithm::Blake3, Algorithm::Sha512_160, Algorithm::Sha256, Algorithm::Blake2b256];

/// Checks that `algorithm` may address chunks.
pub fn check_address_algorithm(algorithm: Algorithm) -> Result<()> {
    if ADDRESS_ALGORITHMS.contains(&algorithm) {
        Ok(())
    } else {
        Err(Error::UnsupportedAlgorithm {
            algorithm,
            reason: "addresses are BLAKE3-160 (default), BLAKE3, SHA-512/160, SHA-256 or BLAKE2b-256",
        })
    }
}

/// The address of a chunk or object: the first bytes of its hash under the
/// store's address algorithm (20 or 32 bytes). Ordered by its bytes.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Address {
    bytes: [u8; MAX_ADDRESS_LEN],
    len: u8,
}

impl Address {
    /// Stands where an address is not known yet; never stored.
    pub(crate) const PLACEHOLDER: Address = Address { bytes: [0; MAX_ADDRESS_LEN], len: 1 };

    /// An address holding `bytes` (1 to 32 of them), or `None`.
    pub fn from_slice(bytes: &[u8]) -> Option<Address> {
        if bytes.is_empty() || bytes.len() > MAX_ADDRESS_LEN {
            return None;
        }
        let mut address = Address { bytes: [0; MAX_ADDRESS_LEN], len: bytes.len() as u8 };
        address.bytes[..bytes.len()].copy_from_slice(bytes);
        Some(address)
    }

    /// The address bytes.
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes[..self.len as usize]
    }

    /// Lowercase hex.
    pub fn to_hex(&self) -> String {
        use fmt::Write;
        let mut hex = String::with_capacity(2 * self.len as usize);
        for byte in self.as_bytes() {
            let _ = write!(hex, "{byte:02x}");
        }
        hex
    }

    /// Parses hex of any address length.
    pub fn from_hex(hex: &str) -> Result<Address> {
        let bad = || Error::BadAddress(format!("{hex:?} is not an address (20 or 32 bytes in hex)"));
        // Hex digits only: `from_str_radix` alone also takes a sign ("+f"),
        // which made "+f" and "0f" the same address (found by the
        // store_names fuzz target).
        if !hex.len().is_multiple_of(2)
            || hex.len() > 2 * MAX_ADDRESS_LEN
            || !hex.bytes().all(|b| b.is_ascii_hexdigit())
        {
            return Err(bad());
        }
        let bytes: Option<Vec<u8>> =
            (0..hex.len()).step_by(2).map(|i| u8::from_str_radix(&hex[i..i + 2], 16).ok()).collect();
        bytes.as_deref().and_then(Address::from_slice).ok_or_else(bad)
    }
}

impl fmt::Display for Address {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_hex())
    }
}

impl fmt::Debug for Address {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Address({})", self.to_hex())
    }
}

impl FromStr for Address {
    type Err = Error;
    fn from_str(s: &str) -> Result<Address> {
        Address::from_hex(s)
    }
}

/// How addresses are computed. The bytes never depend on it, only the
/// speed. For SHA-256 and SHA-512/160, `Batch` goes through
/// [`chunkhash::digest_many`] (SHA-256's multi-buffer kernels; SHA-512's
/// once they land there) and the other modes hash one chunk per call.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Hashing {
    /// Every chunk waiting in a batch (chunks of many files, and of one
    /// file) in one call of the batch API, across SIMD lanes.
    #[default]
    Batch,
    /// One call per chunk, as stores usually hash, on the detected kernel.
    PerChunk,
    /// The portable kernel, forced: what SIMD adds. It has one lane, so it
    /// hashes one chunk at a time even through the batch API.
    Portable,
}

impl Hashing {
    /// Every mode, in the order `store bench` reports them.
    pub const ALL: [Hashing; 3] = [Hashing::Portable, Hashing::PerChunk, Hashing::Batch];

    /// The lowercase name: `batch`, `per-chunk`, `portable`.
    pub fn name(self) -> &'static str {
        match self {
            Hashing::Batch => "batch",
            Hashing::PerChunk => "per-chunk",
            Hashing::Portable => "portable",
        }
    }
}

impl FromStr for Hashing {
    type Err = String;
    fn from_str(s: &str) -> Result<Hashing, String> {
        Hashing::ALL
            .into_iter()
            .find(|mode| mode.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| format!("unknown hashing mode {s:?} (batch, per-chunk or portable)"))
    }
}

/// Computes addresses and counts the time spent doing so.
#[derive(Debug)]
pub(crate) struct AddressHasher {
    algorithm: Algorithm,
    hashing: Hashing,
    batch: Batch,
    hashes: Vec<blake3::Hash>,
    /// `digest_many`'s output, kept between calls.
    digests: Vec<Digest>,
    /// Time spent inside hash calls.
    pub(crate) spent: Duration,
}

fn is_blake3(algorithm: Algorithm) -> bool {
    matches!(algorithm, Algorithm::Blake3 | Algorithm::Blake3_160)
}

impl AddressHasher {
    pub(crate) fn new(algorithm: Algorithm, hashing: Hashing) -> AddressHasher {
        let batch = match hashing {
            // The portable kernel runs everywhere; `with_backend` cannot fail for it.
            Hashing::Portable => Batch::new().with_backend(Backend::Portable).unwrap_or_default(),
            _ => Batch::new(),
        };
        AddressHasher { algorithm, hashing, batch, hashes: Vec::new(), digests: Vec::new(), spent: Duration::ZERO }
    }

    pub(crate) fn algorithm(&self) -> Algorithm {
        self.algorithm
    }

    pub(crate) fn hashing(&self) -> Hashing {
        self.hashing
    }

    /// The address of one input.
    pub(crate) fn address(&mut self, input: &[u8]) -> Address {
        let mut out = Vec::with_capacity(1);
        self.addresses(&[input], &mut out);
        out[0]
    }

    /// Appends the address of each input to `out`, in order.
    pub(crate) fn addresses(&mut self, inputs: &[&[u8]], out: &mut Vec<Address>) {
        let start = Instant::now();
        let len = self.algorithm.digest_len();
        if is_blake3(self.algorithm) {
            match self.hashing {
                // The portable kernel has one lane, so through the batch API
                // it still hashes one chunk at a time, without per-call setup.
                Hashing::Batch | Hashing::Portable => {
                    self.hashes.clear();
                    self.hashes.resize(inputs.len(), blake3::Hash::from_bytes([0; blake3::OUT_LEN]));
                    self.batch.hash_many(inputs, &mut self.hashes);
                    out.extend(self.hashes.iter().map(|hash| truncate(hash.as_bytes(), len)));
                }
                Hashing::PerChunk => {
                    out.extend(inputs.iter().map(|input| truncate(blake3::hash(input).as_bytes(), len)))
                }
            }
        } else if self.hashing == Hashing::Batch {
            // Independent chunks are what multi-buffer kernels are for.
            self.digests.clear();
            self.digests.resize(inputs.len(), chunkhash::digest(self.algorithm, b""));
            chunkhash::digest_many(self.algorithm, inputs, &mut self.digests);
            out.extend(self.digests.iter().map(|digest| truncate(digest.as_bytes(), len)));
        } else {
            out.extend(inputs.iter().map(|input| truncate(chunkhash::digest(self.algorithm, input).as_bytes(), len)));
        }
        self.spent += start.elapsed();
    }
}

fn truncate(bytes: &[u8], len: usize) -> Address {
    // Lengths come from the registry (20 or 32 bytes), within MAX_ADDRESS_LEN.
    Address::from_slice(&bytes[..len]).unwrap_or(Address::PLACEHOLDER)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_with_a_sign_is_not_an_address() {
        // The store_names fuzz target's find: "+1" read as 0x01.
        assert!(Address::from_hex("6b4a+1d0da61d0f6b1").is_err());
        assert!(Address::from_hex(&format!("+f{}", "00".repeat(19))).is_err());
        assert_eq!(Address::from_hex("6B4a01").unwrap().to_hex(), "6b4a01");
    }

    #[test]
    fn every_mode_gives_the_registry_address() {
        let inputs: Vec<Vec<u8>> = [0usize, 1, 1023, 1024, 1025, 5000, 70_000].iter().map(|&n| vec![7u8; n]).collect();
        let slices: Vec<&[u8]> = inputs.iter().map(Vec::as_slice).collect();
        for algorithm in ADDRESS_ALGORITHMS {
            for hashing in Hashing::ALL {
                let mut out = Vec::new();
                AddressHasher::new(algorithm, hashing).addresses(&slices, &mut out);
                for (input, address) in inputs.iter().zip(&out) {
                    assert_eq!(
                        address.as_bytes(),
                        chunkhash::digest(algorithm, input).as_bytes(),
                        "{algorithm} {hashing:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn hex_round_trips_and_bad_hex_is_refused() {
        let address = Address::from_slice(&[0xab; 20]).unwrap();
        assert_eq!(Address::from_hex(&address.to_hex()).unwrap(), address);
        for bad in ["", "abc", "zz", &"ab".repeat(33), "é1"] {
            assert!(Address::from_hex(bad).is_err(), "{bad:?}");
        }
    }
}
