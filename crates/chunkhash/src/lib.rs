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
//! inline [`Digest`]; [`trailer`] seals blocks with self-describing trailers.
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
//! | 5 | XXH64 | 8 | no | `XXH64` | twox-hash (`xxhash`) |
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
//!   `CHUNKHASH_BACKEND` and `CHUNKHASH_XXH3_KERNEL` environment overrides;
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
//! `blake3` (BENCHMARKS.md, "Build time"):
//!
//! ```toml
//! chunkhash = { version = "0.1", default-features = false, features = ["std"] }
//! ```
//!
//! and adds only the families it uses (`features = ["std", "crc"]` for the
//! CRCs: their kernels cost about 2 s more CPU than the core alone).
//!
//! ## Dependencies, and why each crate
//!
//! XXH3 (64 and 128) is chunkhash's own too ([`xxh3`], written from the
//! xxHash specification, no dependency): its long-input loop runs on
//! AVX-512, AVX2 or SSE2 picked at run time, NEON or SIMD128. Against the
//! reference C library (Debian's libxxhash 0.8.1 with its run-time
//! dispatcher, AVX-512 here; `xxh3_vs_c` in `crates/bench`, BENCHMARKS.md
//! "XXH3 against the reference C library": C time / chunkhash time, medians
//! of 31 interleaved rounds, range over 3 runs, loaded 2-core Zen 4):
//!
//! | size | XXH3-64 | XXH3-128 | XXH3-64, both AVX2 | XXH3-128, both AVX2 |
//! | ---: | ---: | ---: | ---: | ---: |
//! | 16 B | 1.15-1.25x | 0.97-1.19x | 1.19-1.21x | 0.96-1.06x |
//! | 64 B | 1.02-1.03x | 1.07-1.09x | 1.03-1.07x | 1.06-1.08x |
//! | 240 B | 1.14-1.16x | 1.20x | 1.11-1.18x | 1.14x |
//! | 4 KiB | 1.44-1.45x | 1.38-1.41x | 1.22-1.24x | 1.16-1.19x |
//! | 64 KiB | 1.38-1.40x | 1.37-1.38x | 1.16-1.17x | 1.16-1.17x |
//! | 1 MiB | 1.31-1.35x (74 GB/s) | 1.31-1.35x | 1.10-1.12x | 1.12-1.13x |
//!
//! (At 16 B the harness cannot resolve a few percent on that machine: the
//! same code measured 0.99-1.21x depending on its place in a round.) It
//! replaced `twox-hash`, which stops at AVX2 and ran XXH3 at 0.65-0.81x the
//! C library's speed. XXH64 and XXH32 stay on `twox-hash` (scalar
//! algorithms, equal to `xxhash-rust` within noise, nothing for kernels to
//! win).
//!
//! The BLAKE3 core needs two small `no_std` crates: `arrayvec`, for the
//! fixed-capacity stack of chaining values and the buffered chunk inside
//! [`blake3::Hasher`] (no heap), and `cpufeatures` (x86 only), for cached
//! run-time CPU feature detection. `rayon` comes in only with the `parallel`
//! feature. No build script, no C compiler.
//!
//! The CRCs are chunkhash's own (`src/crc.rs` over `src/platform/crc/`,
//! no dependency). The other algorithms come from maintained crates, each
//! chosen among candidates by measurement on the project machine (2-core AMD
//! EPYC, Zen 4, AVX-512; `checksum_candidates`, `crc_kernels` and
//! `scripts/build_times.sh` in `crates/bench`, all figures and commands in
//! BENCHMARKS.md, "Checksum crates" and "CRC kernels"). Speeds are medians
//! of interleaved rounds on a default (`x86-64`) build; build times are
//! clean release builds of the crate alone.
//!
//! | family | crate chosen | measured against | speed, default build | clean build alone (CPU) | why |
//! | --- | --- | --- | --- | --- | --- |
//! | XXH64, XXH32 (XXH3: chunkhash's own, above) | `twox-hash` 2.1 | `xxhash-rust` 0.8 | XXH64, XXH32 equal | 0.68 s vs 0.44 s | when it also served XXH3, twox-hash picked AVX2 at run time and xxhash-rust only at compile time (XXH3 1.8-1.9x faster from 4 KiB) |
//! | CRC32C, CRC-32, CRC-64/NVME | chunkhash's own kernels (`crc`) | `crc-fast` 1.10, `crc32c` 0.6 | CRC32C (fastest rounds, loaded machine): 1.09x crc-fast at 64 B called directly, 1.20x at 4 KiB, 1.01-1.09x at 64 KiB, 0.99-1.12x at 1 MiB (58-66 GB/s); 2.1-2.8x crc32c 0.6 from 4 KiB; CRC-32 and CRC-64/NVME 1.00-1.08x crc-fast from 4 KiB | about 2 s (the kernels) vs 4.4 s (crc-fast), 0.71 s (crc32c, CRC32C only) | as fast as crc-fast or faster, a third of its build, and CRC-32 and CRC-64/NVME with the same code |
//! | BLAKE2b-512, BLAKE2b-256 | `blake2b_simd` 1.0 | `blake2` 0.11 | within 10% (0.7-1.2 GB/s); 1.27x faster with `target-cpu=native` | 2.1 s vs 3.1 s | lighter (no `digest` stack), never slower |
//! | SHA-256, SHA-512 | `sha2` 0.11 | `hmac-sha256` + `hmac-sha512` 1.1, `sha2` 0.10 | sha2 (SHA-NI, picked at run time) 5.8x faster for SHA-256 (1.28 vs 0.22 GB/s at 1 MiB), 1.1x for SHA-512 | 3.9 s vs 0.43 s | the fastest by default; its build cost is the price, the lean build avoids it |
//!
//! Through the registry ([`digest()`] with an algorithm known only at run
//! time) a 64-byte input costs 26 to 62 instructions more than calling the
//! chosen code directly (callgrind; the dispatch and the 65-byte
//! [`Digest`]): within 10% in time for BLAKE3, BLAKE2b-256, SHA-2 and
//! CRC-64/NVME (0.85-1.11x), but 1.05-1.61x for the 6-14 ns checksums
//! (XXH3-64 through twox-hash, 6.2 ns direct, 1.61x; CRC32C 8 ns direct,
//! 1.05-1.13x) and 1.14x for BLAKE2b-512; chunkhash's own XXH3-64, which
//! replaced twox-hash since, costs 47 instructions more through the
//! registry than its 76 direct. From 4 KiB the difference is within noise.
//! Where every nanosecond of a small checksum counts, call [`crc::crc32c`],
//! [`xxh3::hash64`] and their siblings directly. BENCHMARKS.md, "Registry
//! tax", has the figures and what was tried.
//!
//! Each wrapper module's source (`src/xxhash.rs`, `src/crc.rs`,
//! `src/blake2b.rs`, `src/sha2.rs`) gives the full reasoning.
//!
//! **Build time.** The default build favours run-time speed: with every
//! family on, `sha2` and BLAKE2b are most of its build time, and it takes
//! 3.8x the wall time of a crate depending only on the official `blake3`
//! (14.7 s of CPU against 3.4 s, loaded machine). The lean build above
//! (`default-features = false, features = ["std"]`) compiles none of them:
//! 4.3-4.6 s of CPU, 1.02x `blake3`'s wall time on a quiet machine and
//! 1.21x on a loaded one (`scripts/build_times.sh`, BENCHMARKS.md "Build
//! time").

#![no_std]
#![deny(unsafe_code)]
// The crate docs link the CRC functions, which a build without the `crc`
// feature does not have; such a build's docs keep the text without links.
#![cfg_attr(not(feature = "crc"), allow(rustdoc::broken_intra_doc_links))]
#![warn(missing_docs, unreachable_pub)]

#[cfg(feature = "alloc")]
extern crate alloc;
#[cfg(any(feature = "std", test))]
extern crate std;

mod algorithm;
pub mod blake3;
mod digest;
pub mod hex;
#[allow(unsafe_code)]
mod platform;
mod registry;
#[cfg(feature = "s3")]
pub mod s3_checksums;
pub mod trailer;
#[cfg(feature = "digest")]
pub mod traits;
mod wrapper;
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
mod xxhash;

// The README's Rust examples, run as doctests (they need the default
// families and `alloc`).
#[cfg(all(doctest, feature = "alloc", feature = "xxhash", feature = "crc"))]
#[doc = include_str!("../../../README.md")]
struct ReadmeDoctests;

pub use algorithm::{Algorithm, ParseAlgorithmError, UnavailableAlgorithm, UnknownAlgorithm, MAX_DIGEST_LEN};
#[cfg(feature = "crc")]
pub use crc::{crc_combine, CrcCombineError};
pub use digest::{digest, try_digest, Digest, DigestHex, StreamingHasher};
pub use hex::{HexError, HexString};
pub use platform::backend::{Backend, BackendError};
/// wasm32 without SIMD128, with the `wasm-simd128-module` feature: turns on
/// the SIMD128 kernels imported from the companion module (the same crate
/// built with SIMD128). See the feature's notes in Cargo.toml.
#[cfg(all(target_arch = "wasm32", not(target_feature = "simd128"), feature = "wasm-simd128-module"))]
pub use platform::simd128_module::link as link_simd128_module;
