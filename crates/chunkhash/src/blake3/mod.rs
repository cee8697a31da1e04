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
//! Every kernel gives the same bytes; see [`Backend`]. On x86 the best of
//! SSE4.1, AVX2 and AVX-512 is chosen at run time, on x86-64 the AVX2 and
//! AVX-512 kernels in assembly; NEON (aarch64) and SIMD128 (wasm32) are
//! build-time choices.
//!
//! Input flows one way: this module's functions, [`Hasher`] and [`Batch`]
//! build the tree (`tree.rs`: every node's flags, which compressions run
//! side by side), which hands lane jobs to the platform's dispatch, which
//! calls one kernel.

pub mod bao;
pub(crate) mod batch;
mod hash;
mod hasher;
mod join;
pub mod subtree;
mod tree;

pub use crate::hex::{HexError, HexString};
pub use crate::platform::backend::{Backend, BackendError};
pub use crate::platform::spec::{BLOCK_LEN, CHUNK_LEN, KEY_LEN, OUT_LEN};
pub use batch::{Batch, BatchOutput, Offset, OffsetsError};
pub use hash::{Address, Hash, ADDRESS_LEN};
pub use hasher::{Hasher, OutputReader};

use crate::platform::Platform;
use join::SerialJoin;
use tree::Mode;

/// The default hash of `input`.
pub fn hash(input: &[u8]) -> Hash {
    Hash::from(Mode::plain(Platform::detect()).hash::<SerialJoin>(input))
}

/// [`hash`](fn@hash) on a chosen backend; an error if this CPU cannot run it.
pub fn hash_with_backend(backend: Backend, input: &[u8]) -> Result<Hash, BackendError> {
    let platform = Platform::new(backend)?;
    Ok(Hash::from(Mode::plain(platform).hash::<SerialJoin>(input)))
}

/// The keyed hash (a MAC or PRF) of `input` under a 32-byte key.
pub fn keyed_hash(key: &[u8; KEY_LEN], input: &[u8]) -> Hash {
    Hash::from(Mode::keyed(Platform::detect(), key).hash::<SerialJoin>(input))
}

/// Derives a 32-byte subkey from key material. `context` should be a
/// hardcoded, globally unique string naming the application and purpose,
/// such as `"chunkhash 2026-11-22 block trailer key"`; it is not a secret.
pub fn derive_key(context: &str, key_material: &[u8]) -> [u8; KEY_LEN] {
    Mode::derive_key(Platform::detect(), context).hash::<SerialJoin>(key_material)
}

/// The 20-byte address of `input`: the first 20 bytes of [`hash`](fn@hash).
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
