//! `chunkhash store bench-kv` run as a real process: a small run writes its
//! table and JSON, and bad flags are usage errors.
#![cfg(feature = "bench")]

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn test_dir(test: &str) -> PathBuf {
    let path = Path::new(env!("CARGO_TARGET_TMPDIR")).join("bench-kv-cli-tests").join(test);
    let _ = fs::remove_dir_all(&path);
    fs::create_dir_all(&path).unwrap();
    path
}

fn run(dir: &Path, args: &[&str]) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_chunkhash"));
    command.current_dir(dir).args(args).stdin(Stdio::null()).output().unwrap()
}

#[test]
fn a_small_run_prints_its_table_and_writes_json() {
    let dir = test_dir("small");
    let args = [
        "store",
        "bench-kv",
        "--rows",
        "2000",
        "--commit-rows",
        "500",
        "--kv-entries",
        "3000",
        "--kv-updates",
        "200",
        "--proofs",
        "100",
        "--runs",
        "1",
        "--dir",
        ".",
        "--json",
        "run.json",
    ];
    let output = run(&dir, &args);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(0), "{stdout}{}", String::from_utf8_lossy(&output.stderr));
    assert!(stdout.contains("insert-one-commit") && stdout.contains("BLAKE3 batch"), "{stdout}");
    let value: serde_json::Value = serde_json::from_str(&fs::read_to_string(dir.join("run.json")).unwrap()).unwrap();
    assert_eq!(value["tool"], "chunkhash store bench-kv");
    let rows = value["rows"].as_array().unwrap();
    // Four methods on five workloads (SQLite only with --sqlite).
    assert_eq!(rows.len(), 20);
    for row in rows {
        assert!(row["ops_per_s"].as_f64().unwrap() > 0.0, "{row}");
    }
    assert_eq!(rows[0]["vs_sha512_160"].as_f64(), Some(1.0));
    assert_eq!(value["insert_map"]["entries"], 2000);
    assert_eq!(value["proof_bytes"]["count"], 100);
    let left: Vec<_> = fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(left, vec![std::ffi::OsString::from("run.json")]);
}

#[test]
fn bad_flags_are_usage_errors() {
    let dir = test_dir("bad");
    for (flags, message) in [
        (&["--methods", "md5"][..], "unknown method \"md5\""),
        (&["--workloads", "tpcc"][..], "unknown workload \"tpcc\""),
        (&["--rows", "many"][..], "--rows: \"many\" is not a whole number"),
        (&["--runs", "0"][..], "nothing to measure"),
    ] {
        let output = run(&dir, &[&["store", "bench-kv"][..], flags].concat());
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{flags:?}: {stderr}");
        assert!(stderr.contains(message), "{flags:?}: {stderr}");
    }
    if cfg!(not(feature = "sqlite")) {
        let output = run(&dir, &["store", "bench-kv", "--sqlite", "--runs", "1"]);
        assert!(String::from_utf8_lossy(&output.stderr).contains("no SQLite"));
    }
}
