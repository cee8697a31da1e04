//! The RustCrypto `digest` crate's traits (0.11), so generic code written
//! for RustCrypto hashes takes chunkhash's: `Digest`-generic functions,
//! HMAC (`hmac::SimpleHmac`) and HKDF (`hkdf::SimpleHkdf`).
//!
//! ```
//! use chunkhash::blake3;
//! use hmac::digest::Digest; // RustCrypto's `digest` (here as `hmac` re-exports it)
//!
//! fn fingerprint<D: Digest>(data: &[u8]) -> Vec<u8> {
//!     D::digest(data).to_vec()
//! }
//! assert_eq!(fingerprint::<blake3::Hasher>(b"abc"), blake3::hash(b"abc").as_bytes());
//! ```
//!
//! What each hasher gets, and why:
//!
//! - BLAKE3's [`Hasher`]: `Digest` (through `Update`,
//!   `FixedOutput`, `Default` and `HashMarker`), `Reset` and
//!   `FixedOutputReset`, `ExtendableOutput` with
//!   [`OutputReader`] as the `XofReader`,
//!   `BlockSizeUser` (64 bytes, BLAKE3's block: HMAC pads keys to it), and
//!   `KeyInit` with a 32-byte key, which makes the keyed hash a `Mac`.
//!   `Reset` keeps the mode: a keyed hasher stays keyed.
//! - [`Sha256`], [`Sha512`] (feature `sha2`) and [`Blake2b512`],
//!   [`Blake2b256`] (feature `blake2`): the registry's SHA-2 and BLAKE2b
//!   as `Digest` types with their block sizes (64, 128, 128 and 128 bytes),
//!   so HMAC over them is the standard HMAC. They compute what the
//!   registry computes ([`digest()`](crate::digest()) with the same
//!   algorithm), with the crate it wraps.
//! - Not the truncated addresses (BLAKE3-160, SHA-512/160: no standard
//!   construction uses them), not MD5 and SHA-1 (compatibility only, and
//!   RustCrypto's own `md-5` and `sha1` already implement these traits for
//!   whoever must), and not the checksums (XXH3, XXH64, XXH32, the CRCs):
//!   `HashMarker` promises a cryptographic hash, and a `Digest` without it
//!   would only invite HMAC over a CRC.
//!
//! `hmac::Hmac` and `hkdf::Hkdf` (as opposed to `SimpleHmac` and
//! `SimpleHkdf`, which take any `Digest`) want a hash's block-level core
//! (`digest`'s `EagerHash`). BLAKE3's [`Hasher`] offers [`Blake3Core`]: the
//! whole hasher fed whole 64-byte blocks (BLAKE3 has no Merkle-Damgard
//! compression function to expose, and needs none: its hasher takes input
//! cut anywhere). The official `blake3` crate offers no core; its tests use
//! `SimpleHmac`. The SHA-2 and BLAKE2b types here offer none either: for
//! `Hmac` over SHA-2, RustCrypto's own `sha2` types are the ones to use.

use crate::blake3::{Hasher, OutputReader, KEY_LEN, OUT_LEN};
use ::rustcrypto_digest::block_api::{Block, Buffer, BufferKindUser, CoreProxy, Eager, FixedOutputCore, UpdateCore};
use ::rustcrypto_digest::common::{BlockSizeUser, KeySizeUser};
#[cfg(any(feature = "sha2", feature = "blake2"))]
use ::rustcrypto_digest::consts::U128;
use ::rustcrypto_digest::consts::{U32, U64};
use ::rustcrypto_digest::{
    ExtendableOutput, ExtendableOutputReset, FixedOutput, FixedOutputReset, HashMarker, Key, KeyInit, MacMarker,
    Output, OutputSizeUser, Reset, Update, XofReader,
};

// The type-level sizes must say what the constants say.
const _: () = assert!(OUT_LEN == 32 && KEY_LEN == 32 && crate::blake3::BLOCK_LEN == 64);

impl HashMarker for Hasher {}

impl Update for Hasher {
    fn update(&mut self, data: &[u8]) {
        Hasher::update(self, data);
    }
}

impl Reset for Hasher {
    fn reset(&mut self) {
        Hasher::reset(self);
    }
}

impl OutputSizeUser for Hasher {
    type OutputSize = U32;
}

impl BlockSizeUser for Hasher {
    type BlockSize = U64;
}

impl FixedOutput for Hasher {
    fn finalize_into(self, out: &mut Output<Self>) {
        out.copy_from_slice(Hasher::finalize(&self).as_bytes());
    }
}

impl FixedOutputReset for Hasher {
    fn finalize_into_reset(&mut self, out: &mut Output<Self>) {
        out.copy_from_slice(Hasher::finalize(self).as_bytes());
        Hasher::reset(self);
    }
}

impl ExtendableOutput for Hasher {
    type Reader = OutputReader;

    fn finalize_xof(self) -> OutputReader {
        Hasher::finalize_xof(&self)
    }
}

impl ExtendableOutputReset for Hasher {
    fn finalize_xof_reset(&mut self) -> OutputReader {
        let reader = Hasher::finalize_xof(self);
        Hasher::reset(self);
        reader
    }
}

impl XofReader for OutputReader {
    fn read(&mut self, buffer: &mut [u8]) {
        self.fill(buffer);
    }
}

impl KeySizeUser for Hasher {
    type KeySize = U32;
}

/// The keyed hash: [`Hasher::new_keyed`].
impl KeyInit for Hasher {
    fn new(key: &Key<Self>) -> Self {
        Hasher::new_keyed(&(*key).into())
    }
}

impl MacMarker for Hasher {}

/// BLAKE3's [`Hasher`] seen block by block, the core `hmac::Hmac` and
/// `hkdf::Hkdf` build on (`digest`'s `EagerHash`, through `CoreProxy`): it
/// holds a whole hasher and feeds it each 64-byte block, then the buffered
/// rest when finalized. Gives the same bytes as the hasher itself.
#[derive(Clone, Default)]
pub struct Blake3Core(Hasher);

impl core::fmt::Debug for Blake3Core {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_tuple("Blake3Core").field(&self.0).finish()
    }
}

impl HashMarker for Blake3Core {}

impl BlockSizeUser for Blake3Core {
    type BlockSize = U64;
}

impl OutputSizeUser for Blake3Core {
    type OutputSize = U32;
}

impl BufferKindUser for Blake3Core {
    type BufferKind = Eager;
}

impl UpdateCore for Blake3Core {
    fn update_blocks(&mut self, blocks: &[Block<Self>]) {
        for block in blocks {
            self.0.update(block);
        }
    }
}

impl FixedOutputCore for Blake3Core {
    fn finalize_fixed_core(&mut self, buffer: &mut Buffer<Self>, out: &mut Output<Self>) {
        self.0.update(buffer.get_data());
        out.copy_from_slice(self.0.finalize().as_bytes());
    }
}

impl CoreProxy for Hasher {
    type Core = Blake3Core;

    fn compose(core: Blake3Core, buffer: Buffer<Blake3Core>) -> Hasher {
        let mut hasher = core.0;
        hasher.update(buffer.get_data());
        hasher
    }

    fn decompose(self) -> (Blake3Core, Buffer<Blake3Core>) {
        (Blake3Core(self), Buffer::<Blake3Core>::default())
    }
}

/// A `Digest` type over one of the registry's wrappers (`crate::wrapper`).
#[cfg(any(feature = "sha2", feature = "blake2"))]
macro_rules! fixed_hash {
    ($($(#[$meta:meta])* $name:ident($wrapper:ty): $len:literal bytes, $output:ty, block $block:ty, $feature:literal;)+) => {$(
        $(#[$meta])*
        #[cfg(feature = $feature)]
        #[derive(Clone)]
        pub struct $name($wrapper);

        #[cfg(feature = $feature)]
        const _: () = {
            use crate::wrapper::Wrapper;

            impl Default for $name {
                fn default() -> Self {
                    $name(<$wrapper as Wrapper<$len>>::new())
                }
            }

            impl core::fmt::Debug for $name {
                fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                    f.write_str(stringify!($name))
                }
            }

            impl HashMarker for $name {}

            impl Update for $name {
                fn update(&mut self, data: &[u8]) {
                    Wrapper::<$len>::update(&mut self.0, data);
                }
            }

            impl Reset for $name {
                fn reset(&mut self) {
                    Wrapper::<$len>::reset(&mut self.0);
                }
            }

            impl OutputSizeUser for $name {
                type OutputSize = $output;
            }

            impl BlockSizeUser for $name {
                type BlockSize = $block;
            }

            impl FixedOutput for $name {
                fn finalize_into(self, out: &mut Output<Self>) {
                    out.copy_from_slice(&Wrapper::<$len>::finalize(&self.0));
                }
            }

            impl FixedOutputReset for $name {
                fn finalize_into_reset(&mut self, out: &mut Output<Self>) {
                    out.copy_from_slice(&Wrapper::<$len>::finalize(&self.0));
                    Wrapper::<$len>::reset(&mut self.0);
                }
            }
        };
    )+};
}

#[cfg(any(feature = "sha2", feature = "blake2"))]
fixed_hash! {
    /// SHA-256 (the registry's, from RustCrypto's `sha2`), 64-byte blocks.
    Sha256(crate::sha2::Sha256): 32 bytes, U32, block U64, "sha2";
    /// SHA-512 (the registry's, from RustCrypto's `sha2`), 128-byte blocks.
    Sha512(crate::sha2::Sha512): 64 bytes, U64, block U128, "sha2";
    /// BLAKE2b-512, unkeyed (the registry's, from `blake2b_simd`), 128-byte
    /// blocks.
    Blake2b512(crate::blake2b::Blake2b<64>): 64 bytes, U64, block U128, "blake2";
    /// BLAKE2b-256, unkeyed (the registry's, from `blake2b_simd`), 128-byte
    /// blocks.
    Blake2b256(crate::blake2b::Blake2b<32>): 32 bytes, U32, block U128, "blake2";
}
