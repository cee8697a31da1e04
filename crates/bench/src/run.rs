//! The run of `chunkhash bench`: what to measure ([`Plan`]), measuring it
//! with the harness, and the result ([`Run`] of [`Row`]s) printed as a table
//! in the shape of db_bench's checksum benchmark and the btrfs 4 KiB
//! cycles-per-block table.
//!
//! Rows run interleaved: each round runs every row once, so load from a
//! neighbour hits all rows alike, and each row reports the median over
//! rounds.

use crate::harness::{consume, core_ghz, run_interleaved, Case, Timing};
use crate::rng::random_input;
use crate::size::format_size;
use chunkhash::{blake3, Algorithm};
use std::io::{self, Write};
use std::time::Duration;

/// Seed of the benchmark input (fixed, so runs hash the same bytes).
const INPUT_SEED: u64 = 0x6368_756e_6b68_6173;
/// Batch rows hash about this many bytes per call...
const BATCH_TARGET_BYTES: usize = 256 * 1024;
/// ...in at least this many and at most this many inputs...
const BATCH_MIN_INPUTS: usize = 4;
const BATCH_MAX_INPUTS: usize = 256;
/// ...and never hold more than this in memory.
const BATCH_MAX_BYTES: usize = 64 << 20;

/// What to measure.
#[derive(Clone, Debug, PartialEq)]
pub struct Plan {
    /// Algorithms, in order.
    pub algorithms: Vec<Algorithm>,
    /// Timed rounds.
    pub rounds: usize,
    /// Input sizes in bytes.
    pub sizes: Vec<usize>,
    /// Milliseconds per row per round.
    pub slice_ms: u64,
    /// Add BLAKE3 rows hashing many inputs per call (the batch API).
    pub batch: bool,
    /// Add BLAKE3 rows hashing each input on this many threads (when > 1).
    pub threads: usize,
}

/// One measured row.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// Algorithm name.
    pub algorithm: String,
    /// Bytes per input.
    pub size: usize,
    /// `single`, `batch` or `threads`.
    pub mode: String,
    /// Threads used for one input.
    pub threads: usize,
    /// Inputs per call (1 unless batch).
    pub batch_inputs: usize,
    /// Median nanoseconds per input.
    pub ns_per_op: f64,
    /// Median throughput, 10^6 bytes per second.
    pub mb_per_s: f64,
    /// Cycles per byte at the measured core clock.
    pub cycles_per_byte: f64,
    /// Interquartile range of the rounds over their median.
    pub noise: f64,
    /// The code the row ran on ([`Algorithm::implementation`]).
    pub backend: String,
    /// Nanoseconds per input, one per round.
    pub rounds_ns: Vec<f64>,
}

/// A whole run: what `--json` writes and `--compare` reads.
#[derive(Clone, Debug, PartialEq)]
pub struct Run {
    /// chunkhash version.
    pub version: String,
    /// BLAKE3 backend detected.
    pub backend: String,
    /// Core clock measured at start.
    pub core_ghz: f64,
    /// `--threads`.
    pub threads: usize,
    /// Timed rounds.
    pub rounds: usize,
    /// Milliseconds per row per round.
    pub slice_ms: u64,
    /// The rows.
    pub rows: Vec<Row>,
}

/// Measures every row of `plan`: one row per algorithm and size (the
/// one-shot digest), plus BLAKE3 rows on `plan.threads` threads and through
/// the batch API when asked. With threads, the rounds run inside a rayon
/// pool of that size, so the threads rows' joins start on its threads with
/// no hop into the pool per call; the pool is the only thing that can fail.
pub fn measure(plan: &Plan) -> Result<Run, rayon::ThreadPoolBuildError> {
    let largest = plan.sizes.iter().copied().max().unwrap_or(0);
    let input = random_input(largest, INPUT_SEED);
    let batch_inputs: Vec<(usize, Vec<u8>)> = if plan.batch {
        plan.sizes
            .iter()
            .map(|&size| {
                let count = batch_count(size);
                (count, random_input(count * size, INPUT_SEED ^ size as u64))
            })
            .collect()
    } else {
        Vec::new()
    };
    let ghz = core_ghz();
    let (plans, timings) = if plan.threads > 1 {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(plan.threads).build()?;
        pool.install(|| time_rows(plan, &input, &batch_inputs))
    } else {
        time_rows(plan, &input, &batch_inputs)
    };
    let rows = plans.iter().zip(&timings).map(|(row, timing)| row_from(row, timing, ghz)).collect();
    Ok(Run {
        version: env!("CARGO_PKG_VERSION").to_string(),
        backend: blake3::Backend::detect().name().to_string(),
        core_ghz: ghz,
        threads: plan.threads,
        rounds: plan.rounds,
        slice_ms: plan.slice_ms,
        rows,
    })
}

/// The one-shot digest the single rows time.
fn one_shot(algorithm: Algorithm, input: &[u8]) {
    match algorithm {
        Algorithm::Blake3 => consume(blake3::hash(input)),
        _ => consume(chunkhash::digest(algorithm, input)),
    }
}

/// A row before it is measured.
struct RowPlan {
    algorithm: Algorithm,
    size: usize,
    mode: &'static str,
    threads: usize,
    batch_inputs: usize,
}

/// Builds one case per row and times them all, interleaved.
fn time_rows(plan: &Plan, input: &[u8], batch_inputs: &[(usize, Vec<u8>)]) -> (Vec<RowPlan>, Vec<Timing>) {
    let mut rows = Vec::new();
    let mut cases = Vec::new();
    for &algorithm in &plan.algorithms {
        for (index, &size) in plan.sizes.iter().enumerate() {
            let data = &input[..size];
            rows.push(RowPlan { algorithm, size, mode: "single", threads: 1, batch_inputs: 1 });
            cases.push(Case::new(format!("{} {}", algorithm.name(), format_size(size)), size, move || {
                one_shot(algorithm, data)
            }));
            if plan.threads > 1 && algorithm == Algorithm::Blake3 {
                rows.push(RowPlan { algorithm, size, mode: "threads", threads: plan.threads, batch_inputs: 1 });
                cases.push(Case::new(format!("{} {} threads", algorithm.name(), format_size(size)), size, move || {
                    let mut hasher = blake3::Hasher::new();
                    hasher.update_parallel(data);
                    consume(hasher.finalize());
                }));
            }
            if plan.batch && algorithm == Algorithm::Blake3 {
                let (count, buffer) = &batch_inputs[index];
                let inputs: Vec<&[u8]> = buffer.chunks_exact(size).collect();
                let mut out = vec![blake3::Hash::from_bytes([0; blake3::OUT_LEN]); *count];
                rows.push(RowPlan { algorithm, size, mode: "batch", threads: 1, batch_inputs: *count });
                cases.push(Case::new(
                    format!("{} {} batch", algorithm.name(), format_size(size)),
                    size * count,
                    move || {
                        blake3::hash_many(&inputs, &mut out);
                        consume(out[0]);
                    },
                ));
            }
        }
    }
    let timings = run_interleaved(&mut cases, plan.rounds, Duration::from_millis(plan.slice_ms));
    (rows, timings)
}

fn batch_count(size: usize) -> usize {
    let count = (BATCH_TARGET_BYTES / size).clamp(BATCH_MIN_INPUTS, BATCH_MAX_INPUTS);
    count.min(BATCH_MAX_BYTES / size).max(1)
}

fn row_from(row: &RowPlan, timing: &Timing, ghz: f64) -> Row {
    let per_input: Vec<f64> = timing.rounds_ns.iter().map(|ns| ns / row.batch_inputs as f64).collect();
    let timing = Timing { name: timing.name.clone(), bytes: row.size, rounds_ns: per_input };
    Row {
        algorithm: row.algorithm.name().to_string(),
        size: row.size,
        mode: row.mode.to_string(),
        threads: row.threads,
        batch_inputs: row.batch_inputs,
        ns_per_op: timing.median_ns(),
        mb_per_s: timing.mb_per_s(),
        cycles_per_byte: timing.cycles_per_byte(ghz),
        noise: timing.spread(),
        backend: row.algorithm.implementation().unwrap_or("unavailable").to_string(),
        rounds_ns: timing.rounds_ns,
    }
}

impl Run {
    /// Multiplies every time by `factor` (the CLI's hidden
    /// `--inject-slowdown`, so the regression check can be tested without
    /// depending on timing luck).
    pub fn inject_slowdown(&mut self, factor: f64) {
        for row in &mut self.rows {
            row.rounds_ns.iter_mut().for_each(|ns| *ns *= factor);
            row.ns_per_op *= factor;
            row.mb_per_s /= factor;
            row.cycles_per_byte *= factor;
        }
    }

    /// Prints the run as a table: a header line, then one line per row.
    pub fn print_table(&self, out: &mut impl Write) -> io::Result<()> {
        writeln!(
            out,
            "chunkhash {} bench: BLAKE3 backend {}, core clock {:.2} GHz (measured), median of {} rounds x {} ms per row",
            self.version, self.backend, self.core_ghz, self.rounds, self.slice_ms
        )?;
        writeln!(
            out,
            "{:<12} {:>8} {:>10} {:>12} {:>10} {:>10} {:>7}  backend",
            "algorithm", "size", "mode", "ns/op", "MB/s", "cycles/B", "noise"
        )?;
        for row in &self.rows {
            let mode = match row.mode.as_str() {
                "threads" => format!("threads:{}", row.threads),
                "batch" => format!("batch:{}", row.batch_inputs),
                other => other.to_string(),
            };
            writeln!(
                out,
                "{:<12} {:>8} {:>10} {:>12.1} {:>10.1} {:>10.2} {:>6.1}%  {}",
                row.algorithm,
                format_size(row.size),
                mode,
                row.ns_per_op,
                row.mb_per_s,
                row.cycles_per_byte,
                100.0 * row.noise,
                row.backend
            )?;
        }
        Ok(())
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A 4 KiB BLAKE3 row taking `ns` per input, with `noise`.
    pub(crate) fn row(ns: f64, noise: f64) -> Row {
        Row {
            algorithm: "BLAKE3".into(),
            size: 4096,
            mode: "single".into(),
            threads: 1,
            batch_inputs: 1,
            ns_per_op: ns,
            mb_per_s: 4096.0 / ns * 1e3,
            cycles_per_byte: ns * 3.0 / 4096.0,
            noise,
            backend: "portable".into(),
            rounds_ns: vec![ns; 3],
        }
    }

    /// A run of `rows` at 3 GHz.
    pub(crate) fn run_of(rows: Vec<Row>) -> Run {
        Run { version: "0".into(), backend: "portable".into(), core_ghz: 3.0, threads: 1, rounds: 3, slice_ms: 1, rows }
    }

    #[test]
    fn batch_counts_stay_in_bounds() {
        assert_eq!(batch_count(64), BATCH_MAX_INPUTS);
        assert_eq!(batch_count(1 << 20), BATCH_MIN_INPUTS);
        assert_eq!(batch_count(256 << 20), 1);
    }

    #[test]
    fn a_tiny_plan_measures_every_row() {
        let plan = Plan {
            algorithms: vec![Algorithm::Blake3, Algorithm::Xxh3_64],
            sizes: vec![64, 4096],
            batch: true,
            threads: 2,
            rounds: 2,
            slice_ms: 1,
        };
        let run = measure(&plan).unwrap();
        let rows: Vec<(&str, usize, &str)> =
            run.rows.iter().map(|row| (row.algorithm.as_str(), row.size, row.mode.as_str())).collect();
        assert_eq!(
            rows,
            [
                ("BLAKE3", 64, "single"),
                ("BLAKE3", 64, "threads"),
                ("BLAKE3", 64, "batch"),
                ("BLAKE3", 4096, "single"),
                ("BLAKE3", 4096, "threads"),
                ("BLAKE3", 4096, "batch"),
                ("XXH3-64", 64, "single"),
                ("XXH3-64", 4096, "single"),
            ]
        );
        assert!(run.rows.iter().all(|row| row.ns_per_op > 0.0 && row.rounds_ns.len() == 2));
        assert_eq!(run.rows[6].backend, Algorithm::Xxh3_64.implementation().unwrap());
        let mut text = Vec::new();
        run.print_table(&mut text).unwrap();
        let text = String::from_utf8(text).unwrap();
        assert_eq!(text.lines().count(), 2 + run.rows.len(), "{text}");
        assert!(text.contains("batch:256") && text.contains("threads:2"), "{text}");
    }
}
