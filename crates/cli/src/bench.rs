//! `chunkhash bench`: ns/op, MB/s and cycles/byte per algorithm and input
//! size, in the shape of db_bench's checksum benchmark and the btrfs 4 KiB
//! cycles-per-block table; `--compare` against a saved run, `--plot` as SVG.
//!
//! Rows run interleaved (the `chunkhash-bench` harness): each round runs
//! every row once, so load from a neighbour hits all rows alike, and each
//! row reports the median over rounds. The JSON fields and the noise rule
//! are documented in `flags.rs` (`bench --help`) and the README.

use crate::algo::Algorithm;
use crate::settings::BenchSettings;
use crate::status::Printer;
use anyhow::{anyhow, bail, Context, Result};
use chunkhash::blake3;
use chunkhash_bench::{consume, core_ghz, format_size, random_input, run_interleaved, Case, Timing};
use serde_json::{json, Value};
use std::io::Write;
use std::path::Path;
use std::time::Duration;

/// A row's time may grow by this much before any noise is considered.
pub const MIN_CHANGE: f64 = 0.05;
/// How many times the summed noise of two runs a change must exceed.
pub const NOISE_FACTOR: f64 = 2.0;

/// Seed of the benchmark input (fixed, so runs hash the same bytes).
const INPUT_SEED: u64 = 0x6368_756e_6b68_6173;
/// Batch rows hash about this many bytes per call...
const BATCH_TARGET_BYTES: usize = 256 * 1024;
/// ...in at least this many and at most this many inputs...
const BATCH_MIN_INPUTS: usize = 4;
const BATCH_MAX_INPUTS: usize = 256;
/// ...and never hold more than this in memory.
const BATCH_MAX_BYTES: usize = 64 << 20;

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
    /// The backend the row ran on.
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

/// Runs `bench`.
pub fn run(settings: &BenchSettings, printer: &mut Printer) -> Result<()> {
    let mut current = match &settings.current {
        Some(path) => load(path)?,
        None => measure(settings)?,
    };
    if settings.inject_slowdown != 1.0 {
        inject_slowdown(&mut current, settings.inject_slowdown);
    }
    print_table(printer.out(), &current)?;
    if let Some(path) = &settings.json {
        let text = serde_json::to_string_pretty(&to_json(&current)).context("encoding JSON")?;
        std::fs::write(path, text + "\n").with_context(|| format!("{}: writing JSON", path.display()))?;
    }
    if let Some(path) = &settings.plot {
        plot(&current, path).with_context(|| format!("{}: drawing the plot", path.display()))?;
    }
    if let Some(path) = &settings.compare {
        let base = load(path)?;
        let regressions = compare(printer.out(), &base, &current)?;
        if regressions > 0 {
            printer.status.regression = true;
        }
    }
    Ok(())
}

/// The one-shot digest the single rows time.
fn one_shot(algorithm: Algorithm, input: &[u8]) {
    match algorithm {
        Algorithm::Blake3 => consume(blake3::hash(input)),
        _ => consume(chunkhash::digest(algorithm, input)),
    }
}

/// The backend a row of this algorithm runs on: chunkhash's own kernel for
/// BLAKE3, else the crate the registry wraps and the instruction set that
/// crate picks on this CPU (as each crate's dispatch code reads).
fn backend_of(algorithm: Algorithm) -> String {
    #[cfg(target_arch = "x86_64")]
    let (sse42, avx2, sha) = (
        std::arch::is_x86_feature_detected!("sse4.2"),
        std::arch::is_x86_feature_detected!("avx2"),
        std::arch::is_x86_feature_detected!("sha") && std::arch::is_x86_feature_detected!("sse4.1"),
    );
    #[cfg(not(target_arch = "x86_64"))]
    let (sse42, avx2, sha) = (false, false, false);
    match algorithm {
        Algorithm::Blake3 | Algorithm::Blake3_160 => blake3::Backend::detect().name().to_string(),
        Algorithm::Xxh3_64 | Algorithm::Xxh3_128 => format!("twox-hash {}", if avx2 { "avx2" } else { "sse2" }),
        Algorithm::Xxh64 | Algorithm::Xxh32 => "twox-hash scalar".to_string(),
        Algorithm::Crc32c => format!("crc32c {}", if sse42 { "sse4.2" } else { "table" }),
        Algorithm::Blake2b512 | Algorithm::Blake2b256 => {
            format!("blake2b_simd {}", if avx2 { "avx2" } else { "portable" })
        }
        // The command turns on the registry's sha2-hw feature (Cargo.toml).
        Algorithm::Sha256 => format!("sha2 {}", if sha { "shani" } else { "soft" }),
        Algorithm::Sha512 | Algorithm::Sha512_160 => format!("sha2 {}", if avx2 { "avx2" } else { "soft" }),
        _ => "registry".to_string(),
    }
}

struct RowPlan {
    algorithm: Algorithm,
    size: usize,
    mode: &'static str,
    threads: usize,
    batch_inputs: usize,
}

fn measure(settings: &BenchSettings) -> Result<Run> {
    let largest = settings.sizes.iter().copied().max().unwrap_or(0);
    let input = random_input(largest, INPUT_SEED);
    let batch_inputs: Vec<(usize, Vec<u8>)> = if settings.batch {
        settings
            .sizes
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
    let (plans, timings) = if settings.threads > 1 {
        // The rounds run inside the pool, so the threads rows' joins start
        // on its threads with no hop into the pool per call.
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(settings.threads)
            .build()
            .context("starting the thread pool")?;
        pool.install(|| time_rows(settings, &input, &batch_inputs))
    } else {
        time_rows(settings, &input, &batch_inputs)
    };
    let rows = plans.iter().zip(&timings).map(|(plan, timing)| row_from(plan, timing, ghz)).collect();
    Ok(Run {
        version: env!("CARGO_PKG_VERSION").to_string(),
        backend: blake3::Backend::detect().name().to_string(),
        core_ghz: ghz,
        threads: settings.threads,
        rounds: settings.rounds,
        slice_ms: settings.slice_ms,
        rows,
    })
}

/// Builds one case per row and times them all, interleaved.
fn time_rows(settings: &BenchSettings, input: &[u8], batch_inputs: &[(usize, Vec<u8>)]) -> (Vec<RowPlan>, Vec<Timing>) {
    let mut plans = Vec::new();
    let mut cases = Vec::new();
    for &algorithm in &settings.algorithms {
        for (index, &size) in settings.sizes.iter().enumerate() {
            let data = &input[..size];
            plans.push(RowPlan { algorithm, size, mode: "single", threads: 1, batch_inputs: 1 });
            cases.push(Case::new(format!("{} {}", algorithm.name(), format_size(size)), size, move || {
                one_shot(algorithm, data)
            }));
            if settings.threads > 1 && algorithm == Algorithm::Blake3 {
                plans.push(RowPlan { algorithm, size, mode: "threads", threads: settings.threads, batch_inputs: 1 });
                cases.push(Case::new(format!("{} {} threads", algorithm.name(), format_size(size)), size, move || {
                    let mut hasher = blake3::Hasher::new();
                    hasher.update_parallel(data);
                    consume(hasher.finalize());
                }));
            }
            if settings.batch && algorithm == Algorithm::Blake3 {
                let (count, buffer) = &batch_inputs[index];
                let inputs: Vec<&[u8]> = buffer.chunks_exact(size).collect();
                let mut out = vec![blake3::Hash::from_bytes([0; blake3::OUT_LEN]); *count];
                plans.push(RowPlan { algorithm, size, mode: "batch", threads: 1, batch_inputs: *count });
                cases.push(Case::new(
                    format!("{} {} batch", algorithm.name(), format_size(size)),
                    size * count,
                    move || {
                        crate::sum::hash_small_batch(&inputs, &mut out);
                        consume(out[0]);
                    },
                ));
            }
        }
    }
    let timings = run_interleaved(&mut cases, settings.rounds, Duration::from_millis(settings.slice_ms));
    (plans, timings)
}

fn batch_count(size: usize) -> usize {
    let count = (BATCH_TARGET_BYTES / size).clamp(BATCH_MIN_INPUTS, BATCH_MAX_INPUTS);
    count.min(BATCH_MAX_BYTES / size).max(1)
}

fn row_from(plan: &RowPlan, timing: &Timing, ghz: f64) -> Row {
    let per_input: Vec<f64> = timing.rounds_ns.iter().map(|ns| ns / plan.batch_inputs as f64).collect();
    let timing = Timing { name: timing.name.clone(), bytes: plan.size, rounds_ns: per_input };
    Row {
        algorithm: plan.algorithm.name().to_string(),
        size: plan.size,
        mode: plan.mode.to_string(),
        threads: plan.threads,
        batch_inputs: plan.batch_inputs,
        ns_per_op: timing.median_ns(),
        mb_per_s: timing.mb_per_s(),
        cycles_per_byte: timing.cycles_per_byte(ghz),
        noise: timing.spread(),
        backend: backend_of(plan.algorithm),
        rounds_ns: timing.rounds_ns,
    }
}

/// Multiplies every time by `factor` (the hidden `--inject-slowdown`, so
/// the regression check can be tested without depending on timing luck).
fn inject_slowdown(run: &mut Run, factor: f64) {
    for row in &mut run.rows {
        row.rounds_ns.iter_mut().for_each(|ns| *ns *= factor);
        row.ns_per_op *= factor;
        row.mb_per_s /= factor;
        row.cycles_per_byte *= factor;
    }
}

fn print_table(out: &mut impl Write, run: &Run) -> Result<()> {
    writeln!(
        out,
        "chunkhash {} bench: BLAKE3 backend {}, core clock {:.2} GHz (measured), median of {} rounds x {} ms per row",
        run.version, run.backend, run.core_ghz, run.rounds, run.slice_ms
    )?;
    writeln!(
        out,
        "{:<12} {:>8} {:>10} {:>12} {:>10} {:>10} {:>7}  backend",
        "algorithm", "size", "mode", "ns/op", "MB/s", "cycles/B", "noise"
    )?;
    for row in &run.rows {
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

/// The regression threshold for a pair of rows: relative growth of the
/// median time beyond which the change is more than the measured noise.
pub fn threshold(base: &Row, new: &Row) -> f64 {
    MIN_CHANGE.max(NOISE_FACTOR * (base.noise + new.noise))
}

/// Prints each row's change against `base`; returns how many regressed.
fn compare(out: &mut impl Write, base: &Run, new: &Run) -> Result<usize> {
    writeln!(out)?;
    writeln!(
        out,
        "compared with the saved run (BLAKE3 backend {}, {:.2} GHz): change of median ns/op; beyond max({:.0}%, {} x (noise + noise)) is marked",
        base.backend,
        base.core_ghz,
        100.0 * MIN_CHANGE,
        NOISE_FACTOR
    )?;
    writeln!(
        out,
        "{:<12} {:>8} {:>10} {:>12} {:>12} {:>9} {:>9}  verdict",
        "algorithm", "size", "mode", "base ns/op", "ns/op", "change", "noise"
    )?;
    let mut regressions = 0;
    let mut compared = 0;
    for row in &new.rows {
        let Some(old) = base.rows.iter().find(|old| same_row(old, row)) else {
            writeln!(
                out,
                "{:<12} {:>8} {:>10} {:>12} {:>12.1}  not in the saved run",
                row.algorithm,
                format_size(row.size),
                row.mode,
                "-",
                row.ns_per_op
            )?;
            continue;
        };
        compared += 1;
        let change = row.ns_per_op / old.ns_per_op - 1.0;
        let limit = threshold(old, row);
        let verdict = if change > limit {
            regressions += 1;
            "REGRESSION"
        } else if change < -limit {
            "faster"
        } else {
            "ok"
        };
        writeln!(
            out,
            "{:<12} {:>8} {:>10} {:>12.1} {:>12.1} {:>+8.1}% {:>8.1}%  {}",
            row.algorithm,
            format_size(row.size),
            row.mode,
            old.ns_per_op,
            row.ns_per_op,
            100.0 * change,
            100.0 * limit,
            verdict
        )?;
    }
    writeln!(out, "{regressions} of {compared} compared rows regressed beyond the noise")?;
    Ok(regressions)
}

fn same_row(a: &Row, b: &Row) -> bool {
    a.algorithm.eq_ignore_ascii_case(&b.algorithm) && a.size == b.size && a.mode == b.mode && a.threads == b.threads
}

/// The JSON form of a run.
pub fn to_json(run: &Run) -> Value {
    let rows: Vec<Value> = run
        .rows
        .iter()
        .map(|row| {
            json!({
                "algorithm": row.algorithm,
                "size": row.size,
                "mode": row.mode,
                "threads": row.threads,
                "batch_inputs": row.batch_inputs,
                "ns_per_op": row.ns_per_op,
                "mb_per_s": row.mb_per_s,
                "cycles_per_byte": row.cycles_per_byte,
                "noise": row.noise,
                "backend": row.backend,
                "rounds_ns": row.rounds_ns,
            })
        })
        .collect();
    json!({
        "tool": "chunkhash bench",
        "version": run.version,
        "backend": run.backend,
        "core_ghz": run.core_ghz,
        "threads": run.threads,
        "rounds": run.rounds,
        "slice_ms": run.slice_ms,
        "rows": rows,
    })
}

/// Reads a saved run, naming the file and the field in every error.
pub fn load(path: &Path) -> Result<Run> {
    let text = std::fs::read_to_string(path).with_context(|| format!("{}: reading the saved run", path.display()))?;
    let value: Value = serde_json::from_str(&text).with_context(|| format!("{}: not valid JSON", path.display()))?;
    from_json(&value).with_context(|| format!("{}: not a chunkhash bench --json run", path.display()))
}

/// Parses the JSON form of a run.
pub fn from_json(value: &Value) -> Result<Run> {
    let rows = value.get("rows").and_then(Value::as_array).ok_or_else(|| anyhow!("missing array \"rows\""))?;
    let rows = rows
        .iter()
        .enumerate()
        .map(|(index, row)| row_from_json(row).with_context(|| format!("rows[{index}]")))
        .collect::<Result<Vec<Row>>>()?;
    Ok(Run {
        version: string(value, "version")?,
        backend: string(value, "backend")?,
        core_ghz: number(value, "core_ghz")?,
        threads: count(value, "threads")?,
        rounds: count(value, "rounds")?,
        slice_ms: count(value, "slice_ms")? as u64,
        rows,
    })
}

fn row_from_json(row: &Value) -> Result<Row> {
    let rounds_ns = row
        .get("rounds_ns")
        .and_then(Value::as_array)
        .ok_or_else(|| anyhow!("missing array \"rounds_ns\""))?
        .iter()
        .map(|v| {
            v.as_f64().filter(|ns| ns.is_finite() && *ns > 0.0).ok_or_else(|| anyhow!("bad number in \"rounds_ns\""))
        })
        .collect::<Result<Vec<f64>>>()?;
    let ns_per_op = number(row, "ns_per_op")?;
    if ns_per_op <= 0.0 {
        bail!("\"ns_per_op\" must be positive");
    }
    let noise = number(row, "noise")?;
    if noise < 0.0 {
        bail!("\"noise\" must not be negative");
    }
    let size = count(row, "size")?;
    if size == 0 {
        bail!("\"size\" must be positive");
    }
    let mode = string(row, "mode")?;
    if !matches!(mode.as_str(), "single" | "batch" | "threads") {
        bail!("\"mode\" must be single, batch or threads, not {mode:?}");
    }
    Ok(Row {
        algorithm: string(row, "algorithm")?,
        size,
        mode,
        threads: count(row, "threads")?,
        batch_inputs: count(row, "batch_inputs")?,
        ns_per_op,
        mb_per_s: number(row, "mb_per_s")?,
        cycles_per_byte: number(row, "cycles_per_byte")?,
        noise,
        backend: string(row, "backend")?,
        rounds_ns,
    })
}

fn string(value: &Value, key: &str) -> Result<String> {
    value.get(key).and_then(Value::as_str).map(str::to_string).ok_or_else(|| anyhow!("missing string {key:?}"))
}

fn number(value: &Value, key: &str) -> Result<f64> {
    value.get(key).and_then(Value::as_f64).filter(|n| n.is_finite()).ok_or_else(|| anyhow!("missing number {key:?}"))
}

fn count(value: &Value, key: &str) -> Result<usize> {
    value
        .get(key)
        .and_then(Value::as_u64)
        .and_then(|n| usize::try_from(n).ok())
        .ok_or_else(|| anyhow!("missing whole number {key:?}"))
}

/// Ten well-separated colours (Tableau 10); series past the tenth repeat
/// them with dashed lines.
const COLORS: [(u8, u8, u8); 10] = [
    (31, 119, 180),
    (255, 127, 14),
    (44, 160, 44),
    (214, 39, 40),
    (148, 103, 189),
    (140, 86, 75),
    (227, 119, 194),
    (127, 127, 127),
    (188, 189, 34),
    (23, 190, 207),
];

/// Draws MB/s against input size, one line per algorithm and mode, both
/// axes logarithmic, the legend beside the chart.
fn plot(run: &Run, path: &Path) -> Result<()> {
    use plotters::prelude::*;
    let error = |e: &dyn std::fmt::Display| anyhow!("{e}");

    if run.rows.is_empty() {
        bail!("no rows to plot");
    }
    let mut series: Vec<(String, Vec<(f64, f64)>)> = Vec::new();
    for row in &run.rows {
        let label = match row.mode.as_str() {
            "single" => row.algorithm.clone(),
            "threads" => format!("{} ({} threads)", row.algorithm, row.threads),
            other => format!("{} ({other})", row.algorithm),
        };
        let point = (row.size as f64, row.mb_per_s.max(1e-3));
        match series.iter_mut().find(|(name, _)| *name == label) {
            Some((_, points)) => points.push(point),
            None => series.push((label, vec![point])),
        }
    }
    let mut sizes: Vec<f64> = run.rows.iter().map(|row| row.size as f64).collect();
    sizes.sort_by(f64::total_cmp);
    sizes.dedup();
    let speeds = run.rows.iter().map(|row| row.mb_per_s.max(1e-3));
    let (y_min, y_max) = speeds.fold((f64::MAX, 0.0f64), |(lo, hi), v| (lo.min(v), hi.max(v)));
    let (x_min, x_max) = (sizes[0], sizes[sizes.len() - 1]);

    let root = SVGBackend::new(path, (1000, 600)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| error(&e))?;
    let (left, right) = root.split_horizontally(780);
    let mut chart = ChartBuilder::on(&left)
        .caption(format!("chunkhash {} bench: throughput by input size", run.version), ("sans-serif", 22))
        .margin(16)
        .x_label_area_size(44)
        .y_label_area_size(70)
        .build_cartesian_2d(
            (x_min / 1.5..x_max * 1.5).log_scale().with_key_points(sizes.clone()),
            (y_min / 1.5..y_max * 1.5).log_scale(),
        )
        .map_err(|e| error(&e))?;
    chart
        .configure_mesh()
        .x_desc("input size")
        .y_desc("MB/s (10^6 bytes per second)")
        .x_label_formatter(&|bytes| format_size(bytes.round() as usize))
        .y_label_formatter(&|mb| format!("{mb:.0}"))
        .draw()
        .map_err(|e| error(&e))?;
    for (index, (label, mut points)) in series.into_iter().enumerate() {
        points.sort_by(|a, b| a.0.total_cmp(&b.0));
        let (r, g, b) = COLORS[index % COLORS.len()];
        let style = RGBColor(r, g, b).stroke_width(2);
        let dashed = index >= COLORS.len();
        if dashed {
            chart.draw_series(DashedLineSeries::new(points.clone(), 8, 5, style)).map_err(|e| error(&e))?;
        } else {
            chart.draw_series(LineSeries::new(points.clone(), style)).map_err(|e| error(&e))?;
        }
        chart
            .draw_series(points.into_iter().map(|p| Circle::new(p, 3, RGBColor(r, g, b).filled())))
            .map_err(|e| error(&e))?;
        let y = 60 + 22 * index as i32;
        let key: Vec<(i32, i32)> = if dashed { vec![(10, y), (18, y)] } else { vec![(10, y), (34, y)] };
        right.draw(&PathElement::new(key, style)).map_err(|e| error(&e))?;
        if dashed {
            right.draw(&PathElement::new(vec![(26, y), (34, y)], style)).map_err(|e| error(&e))?;
        }
        right.draw(&Text::new(label, (42, y - 7), ("sans-serif", 14))).map_err(|e| error(&e))?;
    }
    root.present().map_err(|e| error(&e))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(ns: f64, noise: f64) -> Row {
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

    fn run_of(rows: Vec<Row>) -> Run {
        Run { version: "0".into(), backend: "portable".into(), core_ghz: 3.0, threads: 1, rounds: 3, slice_ms: 1, rows }
    }

    #[test]
    fn threshold_is_the_noise_or_five_percent() {
        assert_eq!(threshold(&row(100.0, 0.0), &row(100.0, 0.0)), 0.05);
        assert!((threshold(&row(100.0, 0.1), &row(100.0, 0.05)) - 0.3).abs() < 1e-12);
    }

    #[test]
    fn compare_marks_only_changes_beyond_the_noise() {
        let base = run_of(vec![row(100.0, 0.01)]);
        let mut out = Vec::new();
        assert_eq!(compare(&mut out, &base, &run_of(vec![row(103.0, 0.01)])).unwrap(), 0);
        assert_eq!(compare(&mut out, &base, &run_of(vec![row(110.0, 0.01)])).unwrap(), 1);
        // With 10% noise on each side, +30% is still noise.
        let noisy = run_of(vec![row(100.0, 0.1)]);
        assert_eq!(compare(&mut out, &noisy, &run_of(vec![row(130.0, 0.1)])).unwrap(), 0);
        let text = String::from_utf8(out).unwrap();
        assert!(text.contains("REGRESSION"), "{text}");
    }

    #[test]
    fn json_round_trips_and_bad_json_is_refused() {
        let run = run_of(vec![row(100.0, 0.01)]);
        assert_eq!(from_json(&to_json(&run)).unwrap(), run);
        let mut value = to_json(&run);
        value["rows"][0].as_object_mut().unwrap().remove("ns_per_op");
        let error = format!("{:#}", from_json(&value).unwrap_err());
        assert!(error.contains("rows[0]") && error.contains("ns_per_op"), "{error}");
        assert!(from_json(&json!({"rows": 3})).is_err());
    }

    #[test]
    fn batch_counts_stay_in_bounds() {
        assert_eq!(batch_count(64), BATCH_MAX_INPUTS);
        assert_eq!(batch_count(1 << 20), BATCH_MIN_INPUTS);
        assert_eq!(batch_count(256 << 20), 1);
    }
}
