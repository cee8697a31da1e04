//! BLAKE3, written from the specification
//! (<https://github.com/BLAKE3-team/BLAKE3-specs/blob/master/blake3.pdf>).
//!
//! ```
//! use chunkhash::blake3;
//!
//! let hash = blake3::hash(b"chunk bytes");
//! let mut hasher = blake3::Hasher::new();
//! hasher.update(b"chunk ").update(b"bytes");
//! assert_eq!(hasher.finalize(), hash);
//!
//! // The 20-byte content address of Dolt-style chunk stores.
//! assert_eq!(blake3::address(b"chunk bytes"), hash.address());
//! ```
//!
//! The kernels (portable, SSE4.1, AVX2, AVX-512, NEON, SIMD128) are chosen at
//! run time, see [`Backend`]; every one gives the same bytes.

mod batch;
mod hasher;
mod tree;

use core::fmt;
use core::str::FromStr;

pub use crate::hex::{HexError, HexString};
pub use crate::platform::{Backend, BackendError, BLOCK_LEN, CHUNK_LEN, KEY_LEN, OUT_LEN};
pub use hasher::{Hasher, OutputReader};

use crate::platform::{cv_words, Platform, DERIVE_KEY_CONTEXT, DERIVE_KEY_MATERIAL, IV, KEYED_HASH};
use tree::{SerialJoin, Tree};

/// Bytes in an [`Address`].
pub const ADDRESS_LEN: usize = 20;

/// A 32-byte BLAKE3 hash. `==` runs in constant time, so comparing a
/// received hash against an expected one does not leak where they differ.
#[derive(Clone, Copy)]
pub struct Hash([u8; OUT_LEN]);

impl Hash {
    /// The hash as bytes.
    pub const fn as_bytes(&self) -> &[u8; OUT_LEN] {
        &self.0
    }

    /// Wraps bytes; the same as `Hash::from`.
    pub const fn from_bytes(bytes: [u8; OUT_LEN]) -> Self {
        Hash(bytes)
    }

    /// Lowercase hex, 64 characters.
    pub fn to_hex(&self) -> HexString<{ 2 * OUT_LEN }> {
        HexString::encode(&self.0)
    }

    /// Parses 64 hex characters (either case).
    pub fn from_hex(hex: impl AsRef<str>) -> Result<Hash, HexError> {
        crate::hex::decode(hex.as_ref()).map(Hash)
    }

    /// The first 20 bytes: the chunk address of Dolt-style chunk stores.
    pub fn address(&self) -> Address {
        let mut address = [0u8; ADDRESS_LEN];
        address.copy_from_slice(&self.0[..ADDRESS_LEN]);
        Address(address)
    }
}

impl From<[u8; OUT_LEN]> for Hash {
    fn from(bytes: [u8; OUT_LEN]) -> Self {
        Hash(bytes)
    }
}

impl From<Hash> for [u8; OUT_LEN] {
    fn from(hash: Hash) -> Self {
        hash.0
    }
}

impl PartialEq for Hash {
    fn eq(&self, other: &Hash) -> bool {
        crate::hex::constant_time_eq(&self.0, &other.0)
    }
}

impl PartialEq<[u8; OUT_LEN]> for Hash {
    fn eq(&self, other: &[u8; OUT_LEN]) -> bool {
        crate::hex::constant_time_eq(&self.0, other)
    }
}

impl PartialEq<[u8]> for Hash {
    fn eq(&self, other: &[u8]) -> bool {
        <&[u8; OUT_LEN]>::try_from(other).is_ok_and(|other| crate::hex::constant_time_eq(&self.0, other))
    }
}

impl Eq for Hash {}

// Written out, not derived: equality is hand-written (constant time), and
// the two must agree, which they do because both look at exactly the bytes.
impl core::hash::Hash for Hash {
    fn hash<H: core::hash::Hasher>(&self, state: &mut H) {
        self.0.hash(state);
    }
}

impl fmt::Display for Hash {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_hex())
    }
}

impl fmt::Debug for Hash {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Hash({})", self.to_hex())
    }
}

impl FromStr for Hash {
    type Err = HexError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Hash::from_hex(s)
    }
}

/// A 20-byte content address: the first 20 bytes of the BLAKE3 hash, as
/// Dolt-style chunk stores name their chunks. `==` runs in constant time.
#[derive(Clone, Copy)]
pub struct Address([u8; ADDRESS_LEN]);

impl Address {
    /// The address as bytes.
    pub const fn as_bytes(&self) -> &[u8; ADDRESS_LEN] {
        &self.0
    }

    /// Lowercase hex, 40 characters.
    pub fn to_hex(&self) -> HexString<{ 2 * ADDRESS_LEN }> {
        HexString::encode(&self.0)
    }

    /// Parses 40 hex characters (either case).
    pub fn from_hex(hex: impl AsRef<str>) -> Result<Address, HexError> {
        crate::hex::decode(hex.as_ref()).map(Address)
    }
}

impl From<[u8; ADDRESS_LEN]> for Address {
    fn from(bytes: [u8; ADDRESS_LEN]) -> Self {
        Address(bytes)
    }
}

impl From<Address> for [u8; ADDRESS_LEN] {
    fn from(address: Address) -> Self {
        address.0
    }
}

impl PartialEq for Address {
    fn eq(&self, other: &Address) -> bool {
        crate::hex::constant_time_eq(&self.0, &other.0)
    }
}

impl Eq for Address {}

impl core::hash::Hash for Address {
    fn hash<H: core::hash::Hasher>(&self, state: &mut H) {
        self.0.hash(state);
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
    type Err = HexError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Address::from_hex(s)
    }
}

impl Tree {
    fn plain(platform: Platform) -> Tree {
        Tree { key: IV, flags: 0, platform }
    }

    fn keyed(platform: Platform, key: &[u8; KEY_LEN]) -> Tree {
        Tree { key: cv_words(key), flags: KEYED_HASH, platform }
    }

    /// Hashes the context string into the key of the key-material tree.
    fn derive_key(platform: Platform, context: &str) -> Tree {
        let context_tree = Tree { key: IV, flags: DERIVE_KEY_CONTEXT, platform };
        let context_key = context_tree.hash::<SerialJoin>(context.as_bytes());
        Tree { key: cv_words(&context_key), flags: DERIVE_KEY_MATERIAL, platform }
    }
}

/// The default hash of `input`.
pub fn hash(input: &[u8]) -> Hash {
    Hash(Tree::plain(Platform::detect()).hash::<SerialJoin>(input))
}

/// [`hash`] on a chosen backend; an error if this CPU cannot run it.
pub fn hash_with_backend(backend: Backend, input: &[u8]) -> Result<Hash, BackendError> {
    let platform = Platform::new(backend)?;
    Ok(Hash(Tree::plain(platform).hash::<SerialJoin>(input)))
}

/// The keyed hash (a MAC or PRF) of `input` under a 32-byte key.
pub fn keyed_hash(key: &[u8; KEY_LEN], input: &[u8]) -> Hash {
    Hash(Tree::keyed(Platform::detect(), key).hash::<SerialJoin>(input))
}

/// Derives a 32-byte subkey from key material. `context` should be a
/// hardcoded, globally unique string naming the application and purpose,
/// such as `"chunkhash 2026-11-22 block trailer key"`; it is not a secret.
pub fn derive_key(context: &str, key_material: &[u8]) -> [u8; KEY_LEN] {
    Tree::derive_key(Platform::detect(), context).hash::<SerialJoin>(key_material)
}

/// The 20-byte address of `input`: the first 20 bytes of [`hash`].
pub fn address(input: &[u8]) -> Address {
    hash(input).address()
}

/// Hashes many independent messages at once: `out[i]` receives
/// `hash(inputs[i])`. Messages of any lengths may be mixed; small ones share
/// SIMD lanes, large ones use their own tree's lanes.
///
/// ```
/// use chunkhash::blake3;
///
/// let chunks: [&[u8]; 3] = [b"", b"one chunk", &[7u8; 5000]];
/// let mut hashes = [blake3::Hash::from([0; 32]); 3];
/// blake3::hash_many(&chunks, &mut hashes);
/// assert_eq!(hashes[2], blake3::hash(&[7u8; 5000]));
/// ```
///
/// # Panics
///
/// If `out` and `inputs` differ in length.
pub fn hash_many(inputs: &[&[u8]], out: &mut [Hash]) {
    Batch::new().hash_many(inputs, out);
}

/// [`hash_many`] into a new `Vec`.
#[cfg(feature = "alloc")]
pub fn hash_many_vec(inputs: &[&[u8]]) -> alloc::vec::Vec<Hash> {
    Batch::new().hash_many_vec(inputs)
}

/// [`keyed_hash`] of many messages at once; see [`hash_many`].
///
/// # Panics
///
/// If `out` and `inputs` differ in length.
pub fn keyed_hash_many(key: &[u8; KEY_LEN], inputs: &[&[u8]], out: &mut [Hash]) {
    Batch::new_keyed(key).hash_many(inputs, out);
}

/// [`derive_key`] with one context and many key materials; see [`hash_many`].
///
/// # Panics
///
/// If `out` and `key_materials` differ in length.
pub fn derive_key_many(context: &str, key_materials: &[&[u8]], out: &mut [[u8; KEY_LEN]]) {
    Batch::new_derive_key(context).hash_many_bytes(key_materials, out);
}

/// The 20-byte [`address`] of many messages at once; see [`hash_many`].
///
/// # Panics
///
/// If `out` and `inputs` differ in length.
pub fn address_many(inputs: &[&[u8]], out: &mut [Address]) {
    Batch::new().address_many(inputs, out);
}

/// A batch configuration: the mode (plain, keyed or key derivation) and the
/// backend, set once and used for any number of calls.
///
/// ```
/// use chunkhash::blake3::{self, Backend, Batch};
///
/// let batch = Batch::new_keyed(&[1; 32]).with_backend(Backend::Portable).unwrap();
/// let mut out = [blake3::Hash::from([0; 32]); 2];
/// batch.hash_many(&[b"a", b"b"], &mut out);
/// assert_eq!(out[1], blake3::keyed_hash(&[1; 32], b"b"));
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Batch {
    tree: Tree,
}

impl Batch {
    /// Plain hashes, on the detected backend.
    pub fn new() -> Batch {
        Batch { tree: Tree::plain(Platform::detect()) }
    }

    /// Keyed hashes.
    pub fn new_keyed(key: &[u8; KEY_LEN]) -> Batch {
        Batch { tree: Tree::keyed(Platform::detect(), key) }
    }

    /// Key derivation under one context.
    pub fn new_derive_key(context: &str) -> Batch {
        Batch { tree: Tree::derive_key(Platform::detect(), context) }
    }

    /// The same mode on another backend; an error if this CPU cannot run it.
    pub fn with_backend(self, backend: Backend) -> Result<Batch, BackendError> {
        Ok(Batch { tree: Tree { platform: Platform::new(backend)?, ..self.tree } })
    }

    /// The backend the batch runs on.
    pub fn backend(&self) -> Backend {
        self.tree.platform.backend()
    }

    /// `out[i]` receives the hash of `inputs[i]`.
    ///
    /// # Panics
    ///
    /// If `out` and `inputs` differ in length.
    pub fn hash_many(&self, inputs: &[&[u8]], out: &mut [Hash]) {
        assert_eq!(inputs.len(), out.len(), "hash_many: one output per input");
        self.tree.hash_batch(inputs, |i, hash| out[i] = Hash(*hash));
    }

    /// `hash_many` into a new `Vec`.
    #[cfg(feature = "alloc")]
    pub fn hash_many_vec(&self, inputs: &[&[u8]]) -> alloc::vec::Vec<Hash> {
        let mut out = alloc::vec![Hash([0; OUT_LEN]); inputs.len()];
        self.hash_many(inputs, &mut out);
        out
    }

    /// `out[i]` receives the first 20 bytes of the hash of `inputs[i]`.
    ///
    /// # Panics
    ///
    /// If `out` and `inputs` differ in length.
    pub fn address_many(&self, inputs: &[&[u8]], out: &mut [Address]) {
        assert_eq!(inputs.len(), out.len(), "address_many: one output per input");
        self.tree.hash_batch(inputs, |i, hash| out[i] = Hash(*hash).address());
    }

    /// `out[i]` receives the 32 output bytes for `inputs[i]` in the batch's
    /// mode: the hash of a plain or keyed batch, the derived key of a batch
    /// made with [`Batch::new_derive_key`]. For callers that want plain byte
    /// arrays (the C binding writes them straight into the caller's buffer).
    ///
    /// # Panics
    ///
    /// If `out` and `inputs` differ in length.
    pub fn hash_many_bytes(&self, inputs: &[&[u8]], out: &mut [[u8; OUT_LEN]]) {
        assert_eq!(inputs.len(), out.len(), "hash_many_bytes: one output per input");
        self.tree.hash_batch(inputs, |i, hash| out[i] = *hash);
    }
}

impl Default for Batch {
    fn default() -> Self {
        Self::new()
    }
}
