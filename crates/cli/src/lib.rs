//! The pure parts of the `chunkhash` command, as a library: how a line of a
//! check file is read ([`check_line`]) and what it needs, how an input is
//! hashed ([`method`]), how digests and names are written and read back
//! ([`format`]), and file-name escaping ([`escape`]). None of them does I/O
//! beyond writing to a given writer, so tests and fuzz targets
//! (`fuzz/fuzz_targets/check_line.rs`) call them directly. The binary
//! (`src/main.rs`) holds everything else.

#![deny(unsafe_code)]

pub mod check_line;
pub mod escape;
pub mod format;
pub mod method;
