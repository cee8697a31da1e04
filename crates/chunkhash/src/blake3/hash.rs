//! [`Hash`](struct@Hash) and [`Address`]: BLAKE3 output as a value. Both wrap one private
//! type, `OutputBytes`, which holds everything they share: constant-time
//! equality, hashing, hex in and out, and formatting.

use crate::hex::{HexError, HexString};
use crate::platform::spec::OUT_LEN;
use core::fmt;
use core::str::FromStr;

/// Bytes in an [`Address`].
pub const ADDRESS_LEN: usize = 20;

/// `N` bytes of BLAKE3 output (`N` at most [`OUT_LEN`]).
#[derive(Clone, Copy)]
struct OutputBytes<const N: usize>([u8; N]);

impl<const N: usize> OutputBytes<N> {
    fn from_hex(hex: &str) -> Result<Self, HexError> {
        crate::hex::decode(hex).map(OutputBytes)
    }
}

impl<const N: usize> PartialEq for OutputBytes<N> {
    fn eq(&self, other: &Self) -> bool {
        crate::hex::constant_time_eq(&self.0, &other.0)
    }
}

impl<const N: usize> Eq for OutputBytes<N> {}

// Written out, not derived: equality is hand-written (constant time), and
// the two must agree, which they do because both look at exactly the bytes.
impl<const N: usize> core::hash::Hash for OutputBytes<N> {
    fn hash<H: core::hash::Hasher>(&self, state: &mut H) {
        self.0.hash(state);
    }
}

/// Lowercase hex.
impl<const N: usize> fmt::Display for OutputBytes<N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        crate::hex::write(f, &self.0)
    }
}

/// The hex digits, unquoted, so that the derived `Debug` of a wrapper reads
/// `Hash(d74981ef...)`.
impl<const N: usize> fmt::Debug for OutputBytes<N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// A 32-byte BLAKE3 hash. `==` runs in constant time, so comparing a
/// received hash against an expected one does not leak where they differ.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Hash(OutputBytes<OUT_LEN>);

/// A 20-byte content address: the first 20 bytes of the BLAKE3 hash, as
/// Dolt-style chunk stores name their chunks. `==` runs in constant time.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Address(OutputBytes<ADDRESS_LEN>);

impl Hash {
    /// The hash as bytes.
    pub const fn as_bytes(&self) -> &[u8; OUT_LEN] {
        &self.0 .0
    }

    /// Wraps bytes; the same as `Hash::from`.
    pub const fn from_bytes(bytes: [u8; OUT_LEN]) -> Self {
        Hash(OutputBytes(bytes))
    }

    /// Lowercase hex, 64 characters.
    pub fn to_hex(&self) -> HexString<{ 2 * OUT_LEN }> {
        HexString::encode(self.as_bytes())
    }

    /// Parses 64 hex characters (either case).
    pub fn from_hex(hex: impl AsRef<str>) -> Result<Hash, HexError> {
        OutputBytes::from_hex(hex.as_ref()).map(Hash)
    }

    /// The first 20 bytes: the chunk address of Dolt-style chunk stores.
    pub fn address(&self) -> Address {
        let mut address = [0u8; ADDRESS_LEN];
        address.copy_from_slice(&self.as_bytes()[..ADDRESS_LEN]);
        Address::from(address)
    }
}

impl Address {
    /// The address as bytes.
    pub const fn as_bytes(&self) -> &[u8; ADDRESS_LEN] {
        &self.0 .0
    }

    /// Lowercase hex, 40 characters.
    pub fn to_hex(&self) -> HexString<{ 2 * ADDRESS_LEN }> {
        HexString::encode(self.as_bytes())
    }

    /// Parses 40 hex characters (either case).
    pub fn from_hex(hex: impl AsRef<str>) -> Result<Address, HexError> {
        OutputBytes::from_hex(hex.as_ref()).map(Address)
    }
}

impl PartialEq<[u8; OUT_LEN]> for Hash {
    fn eq(&self, other: &[u8; OUT_LEN]) -> bool {
        self.0 == OutputBytes(*other)
    }
}

impl PartialEq<[u8]> for Hash {
    fn eq(&self, other: &[u8]) -> bool {
        <&[u8; OUT_LEN]>::try_from(other).is_ok_and(|other| self == other)
    }
}

impl From<[u8; OUT_LEN]> for Hash {
    #[inline]
    fn from(bytes: [u8; OUT_LEN]) -> Self {
        Hash(OutputBytes(bytes))
    }
}

impl From<[u8; ADDRESS_LEN]> for Address {
    #[inline]
    fn from(bytes: [u8; ADDRESS_LEN]) -> Self {
        Address(OutputBytes(bytes))
    }
}

impl From<Hash> for [u8; OUT_LEN] {
    #[inline]
    fn from(hash: Hash) -> Self {
        hash.0 .0
    }
}

impl From<Address> for [u8; ADDRESS_LEN] {
    #[inline]
    fn from(address: Address) -> Self {
        address.0 .0
    }
}

impl fmt::Display for Hash {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0, f)
    }
}

impl fmt::Display for Address {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0, f)
    }
}

impl FromStr for Hash {
    type Err = HexError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Hash::from_hex(s)
    }
}

impl FromStr for Address {
    type Err = HexError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Address::from_hex(s)
    }
}
