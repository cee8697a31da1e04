//! Generates `bindings/c/include/chunkhash.h` from `bindings/c/src` with
//! cbindgen and `bindings/c/cbindgen.toml`.
//!
//! `chunkhash-header-gen DIR` writes the header to stdout, where DIR is
//! `bindings/c`; the Makefile writes it to the committed file or diffs it.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

fn main() -> ExitCode {
    let Some(dir) = std::env::args_os().nth(1).map(PathBuf::from) else {
        eprintln!("usage: chunkhash-header-gen BINDINGS_C_DIR");
        return ExitCode::from(2);
    };
    let config = match cbindgen::Config::from_file(dir.join("cbindgen.toml")) {
        Ok(config) => config,
        Err(error) => {
            eprintln!("chunkhash-header-gen: {error}");
            return ExitCode::FAILURE;
        }
    };
    // The crate's sources alone, module by module: no `cargo metadata`, no
    // dependency is parsed.
    let bindings = match cbindgen::Builder::new().with_config(config).with_src(dir.join("src/lib.rs")).generate() {
        Ok(bindings) => bindings,
        Err(error) => {
            eprintln!("chunkhash-header-gen: {error}");
            return ExitCode::FAILURE;
        }
    };
    let mut header = Vec::new();
    bindings.write(&mut header);
    if std::io::stdout().write_all(&header).is_err() {
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}
