//! # chunkhash
//!
//! A hashing engine for storage systems: the layer that turns chunks into
//! content addresses and guards blocks with checksums.
//!
//! ```
//! use chunkhash::blake3;
//!
//! let hash = blake3::hash(b"hello world");
//! assert_eq!(
//!     hash.to_hex().as_str(),
//!     "d74981efa70a0c880b8d8c1985d075dbcbf679b99a5f9914e5aaf96b831a9e24"
//! );
//! println!("chunk address {}", hash.address());
//! ```
//!
//! ## Checksum registry
//!
//! [`Algorithm`] names every checksum a storage system may record, by a
//! stable numeric id: RocksDB-style tables store the id and must reject ids
//! they do not know ([`Algorithm::from_id`]), btrfs-style tools let a user
//! pick by name (`"sha256".parse()`), Dolt-style stores use a 20-byte
//! address. [`digest()`] and [`StreamingHasher`] compute any of them into an
//! inline [`Digest`]; [`digest_many`] and [`digest_offsets`] many messages in
//! one call (SHA-256 through multi-buffer kernels of its own); [`trailer`]
//! seals blocks with self-describing trailers.
//!
//! ```
//! use chunkhash::{digest, Algorithm, StreamingHasher};
//!
//! let algorithm: Algorithm = "XXH128".parse().unwrap();
//! assert_eq!(algorithm, Algorithm::Xxh3_128);
//! assert_eq!((algorithm.id(), algorithm.digest_len()), (4, 16));
//!
//! let mut hasher = StreamingHasher::new(algorithm);
//! hasher.update(b"chunk ").update(b"bytes");
//! assert_eq!(hasher.finalize(), digest(algorithm, b"chunk bytes"));
//! assert_eq!(digest(Algorithm::Crc32c, b"123456789").to_hex(), "e3069283");
//! ```
//!
//! The ids are an on-disk contract: an id never changes meaning, a new
//! algorithm gets a new id, and 0 is reserved (a zeroed trailer never names
//! an algorithm). `vectors/golden.json` pins this table and every
//! algorithm's output; a test fails if either changes.
//!
//! The table below is one declarative table in the source (`src/registry.rs`):
//! a row per algorithm gives its id, names, length, flags, cargo feature and
//! the wrapper that computes it, and everything else (the enum, parsing,
//! dispatch, the C library's constants) is made from it. Adding an
//! algorithm is a row, its wrapper module and its golden vectors.
//! [`Algorithm::implementation`] says which code computes an algorithm on
//! this machine (`"chunkhash avx512"`, `"sha2 shani"`, `"vpclmul"`, ...).
//!
//! | id | name | bytes | cryptographic | [`bsd_tag`](Algorithm::bsd_tag) | computed by (cargo feature) |
//! | ---: | --- | ---: | --- | --- | --- |
//! | 0 | reserved | | | | |
//! | 1 | BLAKE3 | 32 | yes | `BLAKE3` | chunkhash's [`blake3`] (always) |
//! | 2 | BLAKE3-160 | 20 | yes, 80-bit collisions | `BLAKE3-160` | first 20 bytes of BLAKE3, the chunk address (always) |
//! | 3 | XXH3-64 | 8 | no | `XXH3` | chunkhash's [`xxh3`] (`xxhash`) |
//! | 4 | XXH3-128 | 16 | no | `XXH128` | chunkhash's [`xxh3`] (`xxhash`) |
//! | 5 | XXH64 | 8 | no | `XXH64` | chunkhash (`xxhash`) |
//! | 6 | XXH32 | 4 | no | `XXH32` | twox-hash (`xxhash`) |
//! | 7 | CRC32C | 4 | no | `CRC32C` | chunkhash's [`crc`] kernels (`crc`) |
//! | 8 | BLAKE2b-512 | 64 | yes | `BLAKE2b` | blake2b_simd (`blake2`) |
//! | 9 | BLAKE2b-256 | 32 | yes | `BLAKE2b-256` | blake2b_simd (`blake2`) |
//! | 10 | SHA-256 | 32 | yes | `SHA256` | sha2 (`sha2`) |
//! | 11 | SHA-512 | 64 | yes | `SHA512` | sha2 (`sha2`) |
//! | 12 | SHA-512/160 | 20 | yes, 80-bit collisions | `SHA512-160` | first 20 bytes of SHA-512, the legacy Dolt (noms) address (`sha2`) |
//! | 13 | CRC-32 | 4 | no | `CRC32` | chunkhash's [`crc`] kernels (`crc`): zlib's, gzip's and S3's CRC32 (ISO-HDLC) |
//! | 14 | CRC-64/NVME | 8 | no | `CRC64NVME` | chunkhash's [`crc`] kernels (`crc`): S3's full-object CRC64NVME |
//! | 15 | MD5 | 16 | broken: compatibility only | `MD5` | md-5 (`compat`): S3 ETags, md5sum files |
//! | 16 | SHA-1 | 20 | broken: compatibility only | `SHA1` | sha1 (`compat`): S3's SHA1, sha1sum files |
//!
//! Names parse ignoring case, with the spellings of b3sum, xxhsum (`-H`
//! names and `--tag` tags), coreutils, btrfs and S3; see [`Algorithm`]'s
//! `FromStr`. Integer checksums (the CRCs and the xxHash family) are laid
//! out big-endian in a [`Digest`], the order xxhsum, zlib's `%08x` and
//! CRC32C references print. [`crc_combine`] gives the CRC of A||B from the
//! CRCs of A and B (S3's multipart full-object checksums).
//!
//! ## Cargo features
//!
//! - `std` (default): `std::io` traits, `std::error::Error`, and the
//!   `CHUNKHASH_BACKEND`, `CHUNKHASH_XXH3_KERNEL`,
//!   `CHUNKHASH_SHA256_KERNEL` and `CHUNKHASH_CDC_KERNEL` environment
//!   overrides;
//!   run-time SIMD selection in the BLAKE2b crate. Without it the crate is
//!   `no_std` (BLAKE3 and XXH3 still pick their kernels at run time).
//! - `alloc` (implied by `std`): `Vec`-returning conveniences.
//! - `parallel`: `blake3::Hasher::update_parallel`, multi-threaded with rayon.
//! - `compat` (default): MD5 and SHA-1, for compatibility only (S3 ETags
//!   and checksums, md5sum and sha1sum files): both are broken against
//!   collisions, never use them in new designs (`src/md5_sha1.rs` says why
//!   these crates).
//! - `s3`: the `s3_checksums` module, every checksum S3 records for an object
//!   (ten kinds and the ETag, single-part and multipart) in one pass on two
//!   threads; turns on `std` and every family it needs.
//! - `digest`: RustCrypto's `digest` traits (0.11) for [`blake3::Hasher`]
//!   (`Digest`, `ExtendableOutput`, `Mac` for the keyed hash) and for
//!   SHA-2 and BLAKE2b types, so `hmac`, `hkdf` and `Digest`-generic code
//!   take them; see the `traits` module.
//! - `xxhash`, `crc`, `blake2`, `sha2` (all default): the registry's
//!   families, each computed by the fastest well-kept code measured, picked
//!   at run time for the CPU it runs on (table below). With one off, its
//!   [`Algorithm`] variants and ids remain (they are a contract),
//!   [`Algorithm::is_available`] is false, and [`try_digest`],
//!   [`StreamingHasher::try_new`] and [`trailer::try_seal`] return
//!   [`UnavailableAlgorithm`] ([`trailer::verify`] returns
//!   [`TrailerError::Unavailable`](trailer::TrailerError::Unavailable)); the
//!   infallible forms panic, which cannot happen with default features. All
//!   four work without `std`. `crc` also gives the [`crc`] module and
//!   [`crc_combine`]; with `std` its kernel can be forced with
//!   `CHUNKHASH_CRC_BACKEND` (`portable`, `sse42`, `pclmul`, `vpclmul`,
//!   `aarch64`).
//!
//! **The lean build.** The defaults are fast at run time, not to compile.
//! A crate that needs only BLAKE3 (and the 20-byte addresses) builds the
//! core alone, about as fast as a crate depending only on the official
//! `blake3` (figures and the command that measures it: BENCHMARKS.md,
//! "Build time"):
//!
//! ```toml
//! chunkhash = { version = "0.1", default-features = false, features = ["std"] }
//! ```
//!
//! and adds only the families it uses (`features = ["std", "crc"]` for the
//! CRCs).
//!
//! ## Dependencies, and why each crate
//!
//! XXH3 (64 and 128) is chunkhash's own ([`xxh3`], written from the xxHash
//! specification, no dependency): its long-input loop runs on AVX-512,
//! AVX2 or SSE2 picked at run time, NEON or SIMD128. It is measured against
//! the reference C library (`xxh3_vs_c` in `crates/bench`), and it replaced
//! `twox-hash`, which stops at AVX2 and ran XXH3 slower than the C library.
//! XXH64 is chunkhash's own too ([`xxh64`]): scalar, but twox-hash's
//! one-shot call ran at 0.75-0.89x the C library at 16 B. XXH32 stays on
//! `twox-hash` (scalar, equal to `xxhash-rust` within noise, nothing for
//! kernels to win).
//!
//! The BLAKE3 core needs two small `no_std` crates: `arrayvec`, for the
//! fixed-capacity stack of chaining values and the buffered chunk inside
//! [`blake3::Hasher`] (no heap), and `cpufeatures` (x86 only), for cached
//! run-time CPU feature detection. `rayon` comes in only with the `parallel`
//! feature. No build script, no C compiler.
//!
//! The CRCs are chunkhash's own (`src/crc.rs` over `src/platform/crc/`,
//! no dependency). The other algorithms come from maintained crates, each
//! chosen among candidates by measurement (`checksum_candidates`,
//! `crc_kernels` and `scripts/build_times.sh` in `crates/bench`; the figures
//! and commands are in BENCHMARKS.md, "Checksum crates" and "CRC kernels").
//!
//! | family | crate chosen | measured against | why |
//! | --- | --- | --- | --- |
//! | XXH32 (XXH3, XXH64: chunkhash's own, above) | `twox-hash` 2.1 | `xxhash-rust` 0.8 | equal speed; when it also served XXH3, twox-hash picked AVX2 at run time and xxhash-rust only at compile time |
//! | CRC32C, CRC-32, CRC-64/NVME | chunkhash's own kernels (`crc`) | `crc-fast` 1.10, `crc32c` 0.6 | as fast as crc-fast or faster, a fraction of its build, and CRC-32 and CRC-64/NVME with the same code |
//! | BLAKE2b-512, BLAKE2b-256 | `blake2b_simd` 1.0 | `blake2` 0.11 | lighter (no `digest` stack), never slower |
//! | SHA-256, SHA-512 | `sha2` 0.11 | `hmac-sha256` + `hmac-sha512` 1.1, `sha2` 0.10 | the fastest by default (SHA-NI picked at run time); its build cost is the price, the lean build avoids it |
//!
//! Through the registry ([`digest()`] with an algorithm known only at run
//! time) a small input pays for the dispatch and the inline [`Digest`]: a
//! few dozen instructions, which matter only for the checksums that take a
//! few nanoseconds. Where every nanosecond of a small checksum counts, call
//! [`crc::crc32c`], [`xxh3::hash64`] and their siblings directly.
//! BENCHMARKS.md, "Checksum crates and the registry tax", has the figures.
//!
//! Each wrapper module's source (`src/xxhash.rs`, `src/crc.rs`,
//! `src/blake2b.rs`, `src/sha2.rs`) gives the full reasoning.
//!
//! **Build time.** The default build favours run-time speed: with every
//! family on, `sha2` and BLAKE2b are most of its build time. The lean build
//! above compiles none of them.

#![no_std]
#![deny(unsafe_code)]
// The crate docs link the CRC and XXH3 functions, which a build without the
// `crc` or `xxh3` feature does not have; such a build's docs keep the text
// without links.
#![cfg_attr(not(all(feature = "crc", feature = "xxh3")), allow(rustdoc::broken_intra_doc_links))]
#![warn(missing_docs, unreachable_pub)]

#[cfg(feature = "alloc")]
extern crate alloc;
#[cfg(any(feature = "std", test))]
extern crate std;

mod algorithm;
pub mod blake3;
#[cfg(feature = "cdc")]
pub mod cdc;
mod digest;
pub mod hex;
#[doc(hidden)]
pub mod multi_buffer;
#[allow(unsafe_code)]
mod platform;
mod registry;
#[cfg(feature = "s3")]
pub mod s3_checksums;
pub mod trailer;
#[cfg(feature = "digest")]
pub mod traits;
mod wrapper;
// Without `xxh3` (a lean BLAKE3-only build), its kernels are not compiled:
// a fifth of a clean dev build.
#[cfg(feature = "cdc")]
pub mod xet;
#[cfg(feature = "xxh3")]
pub mod xxh3;

#[cfg(feature = "blake2")]
mod blake2b;
#[cfg(feature = "crc")]
pub mod crc;
#[cfg(feature = "compat")]
mod md5_sha1;
#[cfg(feature = "sha2")]
mod sha2;
#[cfg(feature = "xxhash")]
pub mod xxh64;
#[cfg(feature = "xxhash")]
mod xxhash;

// The READMEs' Rust examples, run as doctests (they need the default
// families and `alloc`): the repository's front page and this crate's page.
#[cfg(all(doctest, feature = "alloc", feature = "xxhash", feature = "crc"))]
#[doc = include_str!("../../../README.md")]
struct ReadmeDoctests;

#[cfg(all(doctest, feature = "alloc", feature = "xxhash", feature = "crc"))]
#[doc = include_str!("../README.md")]
struct CrateReadmeDoctests;

pub use algorithm::{Algorithm, ParseAlgorithmError, UnavailableAlgorithm, UnknownAlgorithm, MAX_DIGEST_LEN};
#[cfg(feature = "crc")]
pub use crc::{crc_combine, CrcCombineError};
pub use digest::{digest, try_digest, Digest, DigestHex, StreamingHasher};
pub use hex::{HexError, HexString};
#[cfg(feature = "sha2")]
#[doc(hidden)]
pub use multi_buffer::sha256_many_on_kernel;
pub use multi_buffer::{digest_many, digest_offsets, try_digest_many};
pub use platform::backend::{Backend, BackendError};
/// wasm32 without SIMD128, with the `wasm-simd128-module` feature: turns on
/// the SIMD128 kernels imported from the companion module (the same crate
/// built with SIMD128). See the feature's notes in Cargo.toml.
#[cfg(all(target_arch = "wasm32", not(target_feature = "simd128"), feature = "wasm-simd128-module"))]
pub use platform::simd128_module::link as link_simd128_module;
