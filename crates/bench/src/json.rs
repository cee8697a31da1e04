//! A [`Run`] as JSON: what `chunkhash bench --json` writes and `--compare`
//! and `--current` read. The shape is written out by hand here, next to its
//! documentation (`chunkhash bench --help`), rather than derived.

use crate::run::{Row, Run};
use serde_json::{json, Value};
use std::fmt;
use std::path::{Path, PathBuf};

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

/// The text of a `--json` file: the JSON form, pretty, and a final newline.
pub fn to_string(run: &Run) -> String {
    pretty(&to_json(run))
}

/// A JSON value as the `--json` files hold it: pretty, with a final newline.
pub fn pretty(value: &Value) -> String {
    // A `Value` of strings, numbers and arrays always serialises.
    serde_json::to_string_pretty(value).unwrap_or_default() + "\n"
}

/// A run saved as JSON that could not be read; says which file and why.
#[derive(Debug)]
pub struct LoadError {
    path: PathBuf,
    kind: LoadErrorKind,
}

#[derive(Debug)]
enum LoadErrorKind {
    Read(std::io::Error),
    Json(serde_json::Error),
    Shape(ShapeError),
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let path = self.path.display();
        match self.kind {
            LoadErrorKind::Read(_) => write!(f, "{path}: reading the saved run"),
            LoadErrorKind::Json(_) => write!(f, "{path}: not valid JSON"),
            LoadErrorKind::Shape(_) => write!(f, "{path}: not a chunkhash bench --json run"),
        }
    }
}

impl std::error::Error for LoadError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.kind {
            LoadErrorKind::Read(error) => Some(error),
            LoadErrorKind::Json(error) => Some(error),
            LoadErrorKind::Shape(error) => Some(error),
        }
    }
}

/// JSON that is not a run: the field that is missing or wrong, and in
/// which row (`rows[3]: missing number "ns_per_op"`).
#[derive(Clone, Debug, PartialEq)]
pub struct ShapeError {
    row: Option<usize>,
    message: String,
}

impl ShapeError {
    fn new(message: impl Into<String>) -> ShapeError {
        ShapeError { row: None, message: message.into() }
    }
}

impl fmt::Display for ShapeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.row {
            Some(index) => write!(f, "rows[{index}]: {}", self.message),
            None => f.write_str(&self.message),
        }
    }
}

impl std::error::Error for ShapeError {}

/// Reads a saved run; the error names the file and the field.
pub fn load(path: &Path) -> Result<Run, LoadError> {
    let error = |kind| LoadError { path: path.to_path_buf(), kind };
    let text = std::fs::read_to_string(path).map_err(|e| error(LoadErrorKind::Read(e)))?;
    let value: Value = serde_json::from_str(&text).map_err(|e| error(LoadErrorKind::Json(e)))?;
    from_json(&value).map_err(|e| error(LoadErrorKind::Shape(e)))
}

/// Parses the JSON form of a run.
pub fn from_json(value: &Value) -> Result<Run, ShapeError> {
    let rows = value.get("rows").and_then(Value::as_array).ok_or_else(|| ShapeError::new("missing array \"rows\""))?;
    let rows = rows
        .iter()
        .enumerate()
        .map(|(index, row)| row_from_json(row).map_err(|e| ShapeError { row: Some(index), ..e }))
        .collect::<Result<Vec<Row>, ShapeError>>()?;
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

fn row_from_json(row: &Value) -> Result<Row, ShapeError> {
    let rounds_ns = row
        .get("rounds_ns")
        .and_then(Value::as_array)
        .ok_or_else(|| ShapeError::new("missing array \"rounds_ns\""))?
        .iter()
        .map(|v| {
            v.as_f64()
                .filter(|ns| ns.is_finite() && *ns > 0.0)
                .ok_or_else(|| ShapeError::new("bad number in \"rounds_ns\""))
        })
        .collect::<Result<Vec<f64>, ShapeError>>()?;
    let ns_per_op = number(row, "ns_per_op")?;
    if ns_per_op <= 0.0 {
        return Err(ShapeError::new("\"ns_per_op\" must be positive"));
    }
    let noise = number(row, "noise")?;
    if noise < 0.0 {
        return Err(ShapeError::new("\"noise\" must not be negative"));
    }
    let size = count(row, "size")?;
    if size == 0 {
        return Err(ShapeError::new("\"size\" must be positive"));
    }
    let mode = string(row, "mode")?;
    if !matches!(mode.as_str(), "single" | "batch" | "threads") {
        return Err(ShapeError::new(format!("\"mode\" must be single, batch or threads, not {mode:?}")));
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

fn string(value: &Value, key: &str) -> Result<String, ShapeError> {
    value
        .get(key)
        .and_then(Value::as_str)
        .map(str::to_string)
        .ok_or_else(|| ShapeError::new(format!("missing string {key:?}")))
}

fn number(value: &Value, key: &str) -> Result<f64, ShapeError> {
    value
        .get(key)
        .and_then(Value::as_f64)
        .filter(|n| n.is_finite())
        .ok_or_else(|| ShapeError::new(format!("missing number {key:?}")))
}

fn count(value: &Value, key: &str) -> Result<usize, ShapeError> {
    value
        .get(key)
        .and_then(Value::as_u64)
        .and_then(|n| usize::try_from(n).ok())
        .ok_or_else(|| ShapeError::new(format!("missing whole number {key:?}")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::run::tests::{row, run_of};

    #[test]
    fn json_round_trips_and_bad_json_is_refused() {
        let run = run_of(vec![row(100.0, 0.01)]);
        assert_eq!(from_json(&to_json(&run)).unwrap(), run);
        let mut value = to_json(&run);
        value["rows"][0].as_object_mut().unwrap().remove("ns_per_op");
        let error = from_json(&value).unwrap_err().to_string();
        assert_eq!(error, "rows[0]: missing number \"ns_per_op\"");
        assert!(from_json(&json!({"rows": 3})).is_err());
        assert!(to_string(&run).ends_with("}\n"));
    }

    #[test]
    fn load_errors_name_the_file_and_keep_the_cause() {
        let dir = std::env::temp_dir().join(format!("chunkhash-bench-json-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let chain = |path: &Path| {
            let error = load(path).unwrap_err();
            let cause = std::error::Error::source(&error).map(ToString::to_string).unwrap_or_default();
            format!("{error}: {cause}")
        };
        let absent = dir.join("absent.json");
        assert!(chain(&absent).starts_with(&format!("{}: reading the saved run: ", absent.display())));
        let broken = dir.join("broken.json");
        std::fs::write(&broken, "{ not json").unwrap();
        assert!(chain(&broken).starts_with(&format!("{}: not valid JSON: ", broken.display())));
        let negative = dir.join("negative.json");
        let mut value = to_json(&run_of(vec![row(100.0, 0.0)]));
        value["rows"][0]["ns_per_op"] = json!(-5);
        std::fs::write(&negative, value.to_string()).unwrap();
        assert_eq!(
            chain(&negative),
            format!(
                "{}: not a chunkhash bench --json run: rows[0]: \"ns_per_op\" must be positive",
                negative.display()
            )
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
