//! `chunkhash bench`: measures (or loads) a run, prints its table, and
//! writes, draws or compares it as asked. The run itself, its JSON, the
//! comparison and the plot are the `chunkhash-bench` library's; the JSON
//! fields and the noise rule are documented in `flags.rs` (`bench --help`)
//! and the README.

use crate::settings::BenchSettings;
use crate::status::Printer;
use anyhow::{Context, Result};
use chunkhash_bench::{compare, json, plot, run};

/// Runs `bench`.
pub fn run(settings: &BenchSettings, printer: &mut Printer) -> Result<()> {
    let mut current = match &settings.current {
        Some(path) => json::load(path)?,
        None => run::measure(&settings.plan).context("starting the thread pool")?,
    };
    if settings.inject_slowdown != 1.0 {
        current.inject_slowdown(settings.inject_slowdown);
    }
    current.print_table(printer.out())?;
    if let Some(path) = &settings.json {
        std::fs::write(path, json::to_string(&current)).with_context(|| format!("{}: writing JSON", path.display()))?;
    }
    if let Some(path) = &settings.plot {
        plot::plot(&current, path).with_context(|| format!("{}: drawing the plot", path.display()))?;
    }
    if let Some(path) = &settings.compare {
        let base = json::load(path)?;
        let regressions = compare::compare(printer.out(), &base, &current)?;
        if regressions > 0 {
            printer.status.regression = true;
        }
    }
    Ok(())
}
