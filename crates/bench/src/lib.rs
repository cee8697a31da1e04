//! Benchmarks of chunkhash, as a library: the timing harness for noisy
//! shared machines, and the run of `chunkhash bench` (what it measures,
//! its table, its JSON, the comparison with a saved run, the SVG plot),
//! which the command calls. The benchmark programs in `src/bin` compare
//! chunkhash with other crates (the `peers` feature).
//!
//! Cases that are compared run in the same process, interleaved: every round
//! runs each case once for about the same time, so a burst of load from a
//! neighbour hits all of them alike. Each case reports the median over
//! rounds, and a comparison reports the median of the per-round ratios,
//! which cancels most of the drift a single pair of medians would keep.
//!
//! - `harness`: [`Case`], [`run_interleaved`], [`Timing`], medians, the core
//!   clock, random inputs.
//! - `size`: byte sizes as tables print them and `--sizes` reads them.
//! - [`run`]: [`run::Plan`], [`run::measure`], [`run::Run`] and its table.
//! - [`json`], [`compare`], [`plot`]: a run saved, compared, drawn.

mod harness;
mod size;

#[cfg(feature = "c-xxhash")]
pub mod c_xxhash;
pub mod compare;
pub mod json;
pub mod plot;
pub mod run;

pub use harness::{
    consume, core_ghz, median, median_ratio, random_input, run_interleaved, run_interleaved_best_of, Case, Timing,
};
pub use size::{format_size, parse_size};
