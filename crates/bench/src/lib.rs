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
//! - `size`: byte sizes as tables print them (`--sizes` reads them with
//!   `chunkhash_store::parse_size`, re-exported here).
//! - [`run`]: [`run::Plan`], [`run::measure`], [`run::Run`] and its table.
//! - [`json`], [`compare`], [`plot`]: a run saved, compared, drawn.
//! - [`recorded`]: series read back from the recorded outputs in `runs/`,
//!   which `plot_recorded` draws for BENCHMARKS.md.
//! - [`store`]: [`store::Plan`], [`store::measure`], [`store::Run`], the
//!   corpus and the JSON of `chunkhash store bench`.
//! - [`two_builds`]: two builds of the command run alternately on the same
//!   benchmarks, one table of baseline, new and change (`make
//!   bench-compare`, the `bench_compare` program).
//! - [`prolly`]: the prolly map's workloads of `chunkhash store bench-kv`
//!   (sysbench inserts, key updates, proofs; SQLite beside them with the
//!   `sqlite` feature).
//! - [`official`] (`peers`): chunkhash's BLAKE3 against the official crate,
//!   the program behind `blake3_vs_official` and `blake3_vs_official_avx2`.

pub mod call_shapes;
mod harness;
mod rng;
mod size;

#[cfg(feature = "c-xxhash")]
pub mod c_xxhash;
pub mod compare;
pub mod json;
#[cfg(feature = "peers")]
pub mod official;
pub mod plot;
pub mod prolly;
pub mod recorded;
pub mod run;
pub mod store;
pub mod two_builds;

pub use chunkhash_store::parse_size;
pub use harness::{
    consume, core_ghz, core_ghz_on, median, median_paired_ratio, median_ratio, run_interleaved,
    run_interleaved_best_of, run_interleaved_on, spin_cycles, spread, thread_cpu_seconds, Case, Clock, Timing,
};
pub use rng::{random_input, SeededRng};
pub use size::format_size;

/// The options the benchmark programs share: `--rounds N`, `--slice-ms MS`
/// per case and round, `--sizes 64,4K,1M`, and `--only NAME` (lowercase;
/// rows whose name contains it). Each program gives its defaults and the
/// options it takes.
#[derive(Clone, Debug)]
pub struct Options {
    /// Interleaved rounds.
    pub rounds: usize,
    /// Time per case and round.
    pub slice: std::time::Duration,
    /// Input sizes in bytes.
    pub sizes: Vec<usize>,
    /// Filter on names, lowercase; empty for all.
    pub only: String,
}

impl Options {
    /// Parses `args` (without the program name) over `defaults`, accepting
    /// only the options named in `accepted` (such as `["--rounds", "--only"]`).
    pub fn parse(
        args: impl IntoIterator<Item = String>,
        defaults: Options,
        accepted: &[&str],
    ) -> Result<Options, String> {
        let mut options = defaults;
        let mut args = args.into_iter();
        while let Some(arg) = args.next() {
            if !accepted.contains(&arg.as_str()) {
                return Err(format!("unknown argument {arg:?} (expected {})", accepted.join(", ")));
            }
            let value = args.next().ok_or_else(|| format!("{arg} needs a value"))?;
            match arg.as_str() {
                "--rounds" => options.rounds = value.parse().map_err(|e| format!("--rounds: {e}"))?,
                "--slice-ms" => {
                    let ms: u64 = value.parse().map_err(|e| format!("--slice-ms: {e}"))?;
                    options.slice = std::time::Duration::from_millis(ms);
                }
                "--sizes" => options.sizes = value.split(',').map(parse_size).collect::<Result<_, _>>()?,
                "--only" => options.only = value.to_ascii_lowercase(),
                _ => return Err(format!("unknown argument {arg:?}")),
            }
        }
        if options.rounds == 0 || options.slice.is_zero() || options.sizes.is_empty() {
            return Err("--rounds, --slice-ms and --sizes must be at least 1".into());
        }
        Ok(options)
    }
}
