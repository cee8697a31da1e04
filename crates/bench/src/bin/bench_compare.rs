//! `bench_compare`: runs the same benchmarks with two builds of `chunkhash`,
//! alternately, and prints one table of baseline, new and change (`make
//! bench-compare BASE=<ref>` builds the two and calls this).
//!
//! ```text
//! bench_compare --base BIN --new BIN [--passes N] [--dir DIR]
//!     -- bench -a blake3 --sizes 64,1M [-- store bench --size 64M ...]
//! ```
//!
//! Each `--`-separated group is a `chunkhash` command line that takes
//! `--json FILE`. Every pass runs each command with both builds, one right
//! after the other, the base first in odd passes and the new build first in
//! even ones, so load that drifts over the session touches both alike.
//! The JSON files stay in `--dir` (default `target/bench-compare`).

use chunkhash_bench::two_builds::{Build, Comparison};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};

struct Args {
    base: PathBuf,
    new: PathBuf,
    passes: usize,
    dir: PathBuf,
    commands: Vec<Vec<String>>,
}

const USAGE: &str = "usage: bench_compare --base BIN --new BIN [--passes N] [--dir DIR] -- COMMAND... [-- COMMAND...]";

fn parse(mut args: impl Iterator<Item = String>) -> Result<Args, String> {
    let (mut base, mut new, mut passes, mut dir) = (None, None, 3, PathBuf::from("target/bench-compare"));
    loop {
        let arg = args.next().ok_or("no command given")?;
        if arg == "--" {
            break;
        }
        let value = args.next().ok_or_else(|| format!("{arg} needs a value"))?;
        match arg.as_str() {
            "--base" => base = Some(PathBuf::from(value)),
            "--new" => new = Some(PathBuf::from(value)),
            "--passes" => {
                passes = value.parse().ok().filter(|&n| n >= 1).ok_or_else(|| format!("bad --passes {value:?}"))?
            }
            "--dir" => dir = PathBuf::from(value),
            _ => return Err(format!("unknown argument {arg:?}")),
        }
    }
    let mut commands = vec![Vec::new()];
    for arg in args {
        if arg == "--" {
            commands.push(Vec::new());
        } else if let Some(command) = commands.last_mut() {
            command.push(arg);
        }
    }
    if commands.iter().any(Vec::is_empty) {
        return Err("an empty command between --".into());
    }
    Ok(Args { base: base.ok_or("--base is required")?, new: new.ok_or("--new is required")?, passes, dir, commands })
}

/// Runs `binary command... --json FILE` and reads the file.
fn run_once(binary: &Path, command: &[String], json: &Path) -> Result<serde_json::Value, String> {
    // The table and progress lines are not needed (the JSON has the rows);
    // standard error is shown if the run fails.
    let output = Command::new(binary)
        .args(command)
        .arg("--json")
        .arg(json)
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("{}: {e}", binary.display()))?;
    if !output.status.success() {
        return Err(format!(
            "{} {} failed ({}):\n{}",
            binary.display(),
            command.join(" "),
            output.status,
            String::from_utf8_lossy(&output.stderr)
        ));
    }
    let text = std::fs::read_to_string(json).map_err(|e| format!("{}: {e}", json.display()))?;
    serde_json::from_str(&text).map_err(|e| format!("{}: {e}", json.display()))
}

fn run(args: &Args) -> Result<usize, String> {
    std::fs::create_dir_all(&args.dir).map_err(|e| format!("{}: {e}", args.dir.display()))?;
    let mut comparison = Comparison::new();
    for pass in 1..=args.passes {
        for (index, command) in args.commands.iter().enumerate() {
            let order = if pass % 2 == 1 { [Build::Base, Build::New] } else { [Build::New, Build::Base] };
            for build in order {
                let (binary, label) = match build {
                    Build::Base => (&args.base, "base"),
                    Build::New => (&args.new, "new"),
                };
                eprintln!("pass {pass}/{}: {label}: chunkhash {}", args.passes, command.join(" "));
                let json = args.dir.join(format!("{label}-{index}-{pass}.json"));
                comparison.add(build, &run_once(binary, command, &json)?)?;
            }
        }
    }
    comparison.print(&mut std::io::stdout().lock()).map_err(|e| format!("writing the table: {e}"))
}

fn main() -> ExitCode {
    let args = match parse(std::env::args().skip(1)) {
        Ok(args) => args,
        Err(message) => {
            eprintln!("bench_compare: {message}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    match run(&args) {
        // Regressions are reported in the table; the comparison itself worked.
        Ok(_) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("bench_compare: {message}");
            ExitCode::FAILURE
        }
    }
}
