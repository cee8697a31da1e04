//! Two builds of the command compared on the same benchmarks (`make
//! bench-compare`, the `bench_compare` program): the `--json` runs of each
//! build, taken alternately over several passes, gathered per row, and one
//! table of baseline, new and change with the noise rule of
//! [`compare`](crate::compare).
//!
//! The three benchmark tools' JSON rows are read alike: a row is named by
//! its fields and brings its samples (`rounds_ns` of `chunkhash bench`,
//! `runs_s` of `store bench` and `store bench-kv`). A build's samples of a
//! row over all passes are pooled, so the noise (interquartile range over
//! median) includes the drift between processes, not only within one.

use crate::compare::{noise_limit, verdict};
use crate::harness::{median, spread};
use crate::size::format_size;
use serde_json::Value;
use std::io::{self, Write};

/// Which build a run came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Build {
    /// The base ref's build.
    Base,
    /// The working tree's build.
    New,
}

/// One benchmark row's samples from both builds.
#[derive(Clone, Debug)]
struct Line {
    name: String,
    unit: &'static str,
    base: Vec<f64>,
    new: Vec<f64>,
}

/// The rows gathered so far, in the order first seen.
#[derive(Clone, Debug, Default)]
pub struct Comparison {
    lines: Vec<Line>,
}

impl Comparison {
    /// An empty comparison.
    pub fn new() -> Comparison {
        Comparison::default()
    }

    /// Adds the rows of one `--json` run of `build`.
    pub fn add(&mut self, build: Build, run: &Value) -> Result<(), String> {
        for (name, unit, samples) in rows_of(run)? {
            let index = match self.lines.iter().position(|line| line.name == name) {
                Some(index) => index,
                None => {
                    self.lines.push(Line { name, unit, base: Vec::new(), new: Vec::new() });
                    self.lines.len() - 1
                }
            };
            let line = &mut self.lines[index];
            match build {
                Build::Base => line.base.extend(samples),
                Build::New => line.new.extend(samples),
            }
        }
        Ok(())
    }

    /// Prints one table (benchmark, baseline, new, change, noise limit,
    /// verdict); returns how many rows regressed beyond the noise.
    pub fn print(&self, out: &mut impl Write) -> io::Result<usize> {
        let width = self.lines.iter().map(|line| line.name.len()).max().unwrap_or(9).max(9);
        writeln!(
            out,
            "{:<width$} {:>14} {:>14} {:>8} {:>7}  verdict",
            "benchmark", "baseline", "new", "change", "noise"
        )?;
        let mut regressions = 0;
        for line in &self.lines {
            if line.base.is_empty() || line.new.is_empty() {
                let only = if line.base.is_empty() { "new build only" } else { "base build only" };
                writeln!(out, "{:<width$} {only}", line.name)?;
                continue;
            }
            let (base, new) = (median(&line.base), median(&line.new));
            let change = new / base - 1.0;
            let limit = noise_limit(spread(&line.base), spread(&line.new));
            if change > limit {
                regressions += 1;
            }
            writeln!(
                out,
                "{:<width$} {:>14} {:>14} {:>+7.1}% {:>6.1}%  {}",
                line.name,
                format_value(base, line.unit),
                format_value(new, line.unit),
                100.0 * change,
                100.0 * limit,
                verdict(change, limit)
            )?;
        }
        writeln!(
            out,
            "{regressions} of {} rows regressed beyond the noise (change of the median time; marked beyond \
             max({:.0}%, {} x (noise + noise)), noise = interquartile range / median of a build's samples)",
            self.lines.len(),
            100.0 * crate::compare::MIN_CHANGE,
            crate::compare::NOISE_FACTOR
        )?;
        Ok(regressions)
    }
}

fn format_value(value: f64, unit: &str) -> String {
    match unit {
        "ns/op" if value >= 1e6 => format!("{:.2} ms/op", value / 1e6),
        "ns/op" if value >= 1e4 => format!("{:.1} us/op", value / 1e3),
        "ns/op" => format!("{value:.1} ns/op"),
        "s" if value < 1.0 => format!("{:.2} ms", value * 1e3),
        _ => format!("{value:.3} {unit}"),
    }
}

/// A row of a run: its name, the unit of its samples, the samples.
type RowSamples = (String, &'static str, Vec<f64>);

/// Each row of a run, whichever tool wrote it.
fn rows_of(run: &Value) -> Result<Vec<RowSamples>, String> {
    let tool = run["tool"].as_str().ok_or("not a chunkhash benchmark run (no \"tool\")")?;
    let rows = run["rows"].as_array().ok_or_else(|| format!("{tool}: no \"rows\""))?;
    let text = |row: &Value, field: &str| row[field].as_str().unwrap_or("").to_string();
    rows.iter()
        .map(|row| {
            let (name, unit, samples) = match tool {
                "chunkhash bench" => {
                    let size = row["size"].as_u64().ok_or("a row without \"size\"")? as usize;
                    let mut name = format!("{} {} {}", text(row, "algorithm"), format_size(size), text(row, "mode"));
                    if text(row, "mode") == "threads" {
                        name += &format!(" x{}", row["threads"]);
                    }
                    (name, "ns/op", &row["rounds_ns"])
                }
                "chunkhash store bench" => {
                    let fsync = if row["fsync"].as_bool() == Some(true) { " fsync" } else { "" };
                    (format!("store put {}{fsync}", text(row, "method")), "s", &row["runs_s"])
                }
                // The engine names the method (its algorithm and hashing too).
                "chunkhash store bench-kv" => {
                    (format!("kv {} {}", text(row, "workload"), text(row, "engine")), "s", &row["runs_s"])
                }
                other => return Err(format!("unknown benchmark tool {other:?}")),
            };
            let samples: Option<Vec<f64>> =
                samples.as_array().and_then(|values| values.iter().map(Value::as_f64).collect());
            match samples {
                Some(samples) if !samples.is_empty() => Ok((name, unit, samples)),
                _ => Err(format!("{tool}: row {name:?} has no samples")),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn hash_run(ns: &[f64]) -> Value {
        json!({"tool": "chunkhash bench", "rows": [
            {"algorithm": "BLAKE3", "size": 4096, "mode": "single", "threads": 1, "rounds_ns": ns},
        ]})
    }

    #[test]
    fn passes_are_pooled_and_the_noise_rule_decides() {
        let mut comparison = Comparison::new();
        for _ in 0..3 {
            comparison.add(Build::Base, &hash_run(&[100.0, 101.0, 99.0])).unwrap();
            comparison.add(Build::New, &hash_run(&[120.0, 121.0, 119.0])).unwrap();
        }
        let store = json!({"tool": "chunkhash store bench", "rows": [
            {"method": "blake3-160", "fsync": false, "runs_s": [2.0, 2.1]},
        ]});
        let kv = json!({"tool": "chunkhash store bench-kv", "rows": [
            {"workload": "insert", "engine": "blake3-batch", "runs_s": [0.0012, 0.0013]},
        ]});
        comparison.add(Build::Base, &kv).unwrap();
        comparison.add(Build::New, &kv).unwrap();
        comparison.add(Build::Base, &store).unwrap();
        comparison.add(Build::New, &store).unwrap();
        let mut out = Vec::new();
        assert_eq!(comparison.print(&mut out).unwrap(), 1);
        let text = String::from_utf8(out).unwrap();
        assert!(text.contains("BLAKE3 4 KiB single"), "{text}");
        assert!(text.contains("100.0 ns/op") && text.contains("120.0 ns/op") && text.contains("+20.0%"), "{text}");
        assert!(text.contains("REGRESSION"), "{text}");
        assert!(text.contains("store put blake3-160"), "{text}");
        assert!(text.contains("kv insert blake3-batch") && text.contains("1.25 ms"), "{text}");
        assert!(text.contains("1 of 3 rows regressed"), "{text}");

        // The same change inside wide noise is not a regression.
        let mut noisy = Comparison::new();
        noisy.add(Build::Base, &hash_run(&[60.0, 100.0, 140.0])).unwrap();
        noisy.add(Build::New, &hash_run(&[72.0, 120.0, 168.0])).unwrap();
        assert_eq!(noisy.print(&mut Vec::new()).unwrap(), 0);
    }

    #[test]
    fn bad_runs_are_errors() {
        assert!(Comparison::new().add(Build::Base, &json!({"rows": []})).is_err());
        assert!(Comparison::new().add(Build::Base, &json!({"tool": "other", "rows": [{}]})).is_err());
        let empty = json!({"tool": "chunkhash bench", "rows": [
            {"algorithm": "BLAKE3", "size": 64, "mode": "single", "rounds_ns": []},
        ]});
        assert!(Comparison::new().add(Build::New, &empty).is_err());
    }
}
