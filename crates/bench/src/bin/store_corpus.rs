//! Writes the corpus `chunkhash store bench` ingests to a directory and
//! leaves it there, so other tools (borg, restic) can be timed on the very
//! same files: `crates/bench/scripts/store_vs_borg.py` uses it.
//!
//! ```sh
//! cargo run --release -p chunkhash-bench --bin store_corpus -- DIR [--size 512MiB] [--seed 16] [--small-files N]
//! ```
//!
//! DIR must not exist yet. `--size` is the bytes of large files (default
//! 512 MiB), `--small-files` defaults to `store bench`'s 100,000 per GiB of
//! `--size`, `--seed` to `store bench`'s 16. Prints the corpus's counts.

use chunkhash_bench::parse_size;
use chunkhash_bench::store::corpus;
use std::path::PathBuf;
use std::process::ExitCode;

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("store_corpus: {message}");
            ExitCode::from(2)
        }
    }
}

fn run() -> Result<(), String> {
    let mut args = std::env::args().skip(1);
    let (mut dir, mut size, mut seed, mut small) = (None, 512u64 << 20, 16u64, None);
    while let Some(arg) = args.next() {
        let mut value = |name: &str| args.next().ok_or_else(|| format!("{name} needs a value"));
        match arg.as_str() {
            "--size" => size = parse_size(&value("--size")?).map_err(|e| format!("--size: {e}"))? as u64,
            "--seed" => seed = value("--seed")?.parse().map_err(|_| "--seed: not a whole number")?,
            "--small-files" => {
                small = Some(value("--small-files")?.parse().map_err(|_| "--small-files: not a whole number")?)
            }
            other if other.starts_with('-') => return Err(format!("unknown option {other}")),
            other if dir.is_none() => dir = Some(PathBuf::from(other)),
            other => return Err(format!("one directory only, got {other:?} too")),
        }
    }
    let dir = dir.ok_or("usage: store_corpus DIR [--size SIZE] [--seed N] [--small-files N]")?;
    if dir.exists() {
        return Err(format!("{} exists already", dir.display()));
    }
    if size < 1024 {
        return Err("--size: at least 1 KiB".into());
    }
    let small = small.unwrap_or_else(|| corpus::small_files_for(size));
    let written = corpus::generate(&dir, size, small, seed).map_err(|e| e.to_string())?;
    println!(
        "{}: {} bytes, {} large files ({} bytes), {} small files ({} bytes), {} bytes repeated, seed {seed}",
        dir.display(),
        written.bytes(),
        written.files,
        written.large_bytes,
        written.small_files,
        written.small_bytes,
        written.repeated_bytes
    );
    Ok(())
}
