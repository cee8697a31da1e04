#![doc = include_str!("../README.md")]
#![deny(unsafe_code)]
#![warn(missing_docs, unreachable_pub)]

mod address;
mod error;
mod faults;
#[doc(hidden)]
pub mod fuzzing;
mod index;
mod ingest;
pub mod location;
mod manifest;
pub mod object;
mod pack;
mod pipeline;
pub mod prolly;
mod ranged;
mod restore;
mod roots;
mod sizes;
mod store;
mod verify;

pub use address::{check_address_algorithm, Address, Hashing, ADDRESS_ALGORITHMS, MAX_ADDRESS_LEN};
pub use error::{io_message, Error, Result};
pub use index::{Index, Location as RecordLocation};
pub use ingest::{PutOptions, PutReport};
pub use manifest::{ChunkerSettings, Manifest, FORMAT_VERSION};
pub use ranged::RangeReport;
pub use restore::{listed_path, GetOptions, Listed, RestoreReport, MAX_SNAPSHOT_ENTRIES, MAX_TREE_DEPTH};
pub use roots::GROUP_LOG;
pub use sizes::{parse_size, ChunkSizes};
pub use store::{CreateOptions, OpenOptions, Store, DEFAULT_PACK_TARGET};
pub use verify::{Damage, Stats, VerifyReport};
