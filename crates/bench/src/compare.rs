//! A run compared with a saved one: each row's change of median time, and
//! whether it is more than the noise of the two measurements.

use crate::run::{Row, Run};
use crate::size::format_size;
use std::io::{self, Write};

/// A row's time may grow by this much before any noise is considered.
pub const MIN_CHANGE: f64 = 0.05;
/// How many times the summed noise of two runs a change must exceed.
pub const NOISE_FACTOR: f64 = 2.0;

/// The regression threshold for a pair of rows: relative growth of the
/// median time beyond which the change is more than the measured noise.
pub fn threshold(base: &Row, new: &Row) -> f64 {
    noise_limit(base.noise, new.noise)
}

/// The noise rule over two measurements' noises (each the interquartile
/// range of its rounds over their median): a relative change of the median
/// time beyond this is more than noise. `threshold` for `chunkhash bench`
/// rows; `bench_compare` for every benchmark it runs.
pub fn noise_limit(base_noise: f64, new_noise: f64) -> f64 {
    MIN_CHANGE.max(NOISE_FACTOR * (base_noise + new_noise))
}

/// The verdict of a relative change of time against its noise limit.
pub fn verdict(change: f64, limit: f64) -> &'static str {
    if change > limit {
        "REGRESSION"
    } else if change < -limit {
        "faster"
    } else {
        "ok"
    }
}

/// Prints each row's change against `base`; returns how many regressed.
pub fn compare(out: &mut impl Write, base: &Run, new: &Run) -> io::Result<usize> {
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
        let verdict = verdict(change, limit);
        if change > limit {
            regressions += 1;
        }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::run::tests::{row, run_of};

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
}
