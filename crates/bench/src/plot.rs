//! A [`Run`] drawn as SVG: MB/s against input size, one line per algorithm
//! and mode (`chunkhash bench --plot`).

use crate::run::Run;
use crate::size::format_size;
use std::fmt;
use std::path::Path;

/// Why the plot could not be drawn (plotters' message, or no rows).
#[derive(Debug)]
pub struct PlotError(String);

impl fmt::Display for PlotError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for PlotError {}

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

/// One line of a plot: its label and its (input size in bytes, value) points.
pub type Series = (String, Vec<(f64, f64)>);

/// Draws MB/s against input size, one line per algorithm and mode, both
/// axes logarithmic, the legend beside the chart.
pub fn plot(run: &Run, path: &Path) -> Result<(), PlotError> {
    if run.rows.is_empty() {
        return Err(PlotError("no rows to plot".into()));
    }
    let mut series: Vec<Series> = Vec::new();
    for row in &run.rows {
        let label = match row.mode.as_str() {
            "single" => row.algorithm.clone(),
            "threads" => format!("{} ({} threads)", row.algorithm, row.threads),
            other => format!("{} ({other})", row.algorithm),
        };
        let point = (row.size as f64, row.mb_per_s);
        match series.iter_mut().find(|(name, _)| *name == label) {
            Some((_, points)) => points.push(point),
            None => series.push((label, vec![point])),
        }
    }
    let title = format!("chunkhash {} bench: throughput by input size", run.version);
    plot_series(&title, "MB/s (10^6 bytes per second)", series, path)
}

/// Draws each series' values against input size, both axes logarithmic,
/// the legend beside the chart: `chunkhash bench --plot`, and the plots of
/// recorded runs (`plot_recorded`, from [`crate::recorded`]).
pub fn plot_series(title: &str, y_desc: &str, series: Vec<Series>, path: &Path) -> Result<(), PlotError> {
    use plotters::prelude::*;
    let error = |e: &dyn fmt::Display| PlotError(e.to_string());

    if series.iter().all(|(_, points)| points.is_empty()) {
        return Err(PlotError("no rows to plot".into()));
    }
    let series: Vec<Series> = series
        .into_iter()
        .map(|(label, points)| (label, points.into_iter().map(|(x, y)| (x, y.max(1e-3))).collect()))
        .collect();
    let mut sizes: Vec<f64> = series.iter().flat_map(|(_, points)| points.iter().map(|p| p.0)).collect();
    sizes.sort_by(f64::total_cmp);
    sizes.dedup();
    let speeds = series.iter().flat_map(|(_, points)| points.iter().map(|p| p.1));
    let (y_min, y_max) = speeds.fold((f64::MAX, 0.0f64), |(lo, hi), v| (lo.min(v), hi.max(v)));
    let (x_min, x_max) = (sizes[0], sizes[sizes.len() - 1]);

    let root = SVGBackend::new(path, (1000, 600)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| error(&e))?;
    let (left, right) = root.split_horizontally(780);
    let mut chart = ChartBuilder::on(&left)
        .caption(title, ("sans-serif", 22))
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
        .y_desc(y_desc)
        .x_label_formatter(&|bytes| format_size(bytes.round() as usize))
        .y_label_formatter(&|v| if *v >= 10.0 { format!("{v:.0}") } else { format!("{v:.1}") })
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
    use crate::run::tests::{row, run_of};

    #[test]
    fn plots_every_series_and_refuses_an_empty_run() {
        let path = std::env::temp_dir().join(format!("chunkhash-bench-plot-{}.svg", std::process::id()));
        let mut small = row(50.0, 0.0);
        small.size = 64;
        let mut other = row(10.0, 0.0);
        other.algorithm = "XXH3-64".into();
        plot(&run_of(vec![small, row(100.0, 0.0), other]), &path).unwrap();
        let svg = std::fs::read_to_string(&path).unwrap();
        std::fs::remove_file(&path).unwrap();
        assert!(svg.starts_with("<svg") && svg.contains("BLAKE3") && svg.contains("XXH3-64"), "{svg}");
        assert_eq!(plot(&run_of(Vec::new()), &path).unwrap_err().to_string(), "no rows to plot");
    }
}
