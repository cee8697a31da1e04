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
//! ## Cargo features
//!
//! - `std` (default): `std::io` traits, `std::error::Error`, and the
//!   `CHUNKHASH_BACKEND` environment override. Without it the crate is `no_std`.
//! - `alloc` (implied by `std`): `Vec`-returning conveniences.
//! - `parallel`: `blake3::Hasher::update_parallel`, multi-threaded with rayon.
//!
//! ## Dependencies
//!
//! The BLAKE3 core needs one crate, `cpufeatures` (x86 only; tiny, `no_std`),
//! for cached run-time CPU feature detection. No build script, no C compiler.

#![no_std]
#![deny(unsafe_code)]
#![warn(missing_docs, unreachable_pub)]

#[cfg(feature = "alloc")]
extern crate alloc;
#[cfg(any(feature = "std", test))]
extern crate std;

pub mod blake3;
mod hex;
#[allow(unsafe_code)]
mod platform;

pub use hex::{HexError, HexString};
pub use platform::{Backend, BackendError};

