//! Benchmarks of chunkhash, as a library: the timing harness for noisy
//! shared machines, the run of `chunkhash bench` (what it measures, its
//! table, its JSON, the comparison with a saved run, the SVG plot) and the
//! run of `chunkhash store bench` (its corpus, table and JSON), which the
//! command calls. The benchmark programs in `src/bin` compare
//! chunkhash with other crates (the `peers` feature).
//!
//! Cases that are compared run in the same process, interleaved: every round
//! runs each case once for about the same time, so a burst of load from a
//! neighbour hits all of them alike. Each case reports the median over
//! rounds, and a comparison reports the median of the per-round ratios,
//! which cancels most of the drift a single pair of medians would keep.
//!
//! - `harness`: [`Case`], [`run_interleaved`] (wall time, or the thread's CPU
//!   time with [`run_interleaved_on`]), [`Timing`], medians, the core clock, a
//!   thread's on-CPU time.
//! - `rng`: [`SeededRng`] and [`random_input`], seeded benchmark inputs.
//! - `size`: byte sizes as tables print them and `--sizes` reads them.
//! - [`run`]: [`run::Plan`], [`run::measure`], [`run::Run`] and its table.
//! - [`json`], [`compare`], [`plot`]: a run saved, compared, drawn.
//! - [`store`]: [`store::Plan`], [`store::measure`], [`store::Run`], the
//!   corpus and the JSON of `chunkhash store bench`.
//! - [`official`] (`peers`): chunkhash's BLAKE3 against the official crate,
//!   the program behind `blake3_vs_official` and `blake3_vs_official_avx2`.

mod harness;
mod rng;
mod size;

pub mod compare;
pub mod json;
#[cfg(feature = "peers")]
pub mod official;
pub mod plot;
pub mod run;
pub mod store;

pub use harness::{
    consume, core_ghz, core_ghz_on, median, median_paired_ratio, median_ratio, run_interleaved, run_interleaved_on,
    spread, thread_cpu_seconds, Case, Clock, Timing,
};
pub use rng::{random_input, SeededRng};
pub use size::{format_size, parse_size};
