//! Generates `bindings/c/include/chunkhash.h` from `bindings/c/src` with
//! cbindgen and `bindings/c/cbindgen.toml`, and the algorithm id constants
//! (`CHUNKHASH_ALGORITHM_*`, `CHUNKHASH_MAX_DIGEST_LEN`) from the registry
//! table, `chunkhash::Algorithm`: a new row of the table is a new constant
//! at the next `make -C bindings/c header`, and the drift check fails until
//! the header is regenerated.
//!
//! `chunkhash-header-gen DIR` writes the header to stdout, where DIR is
//! `bindings/c`; the Makefile writes it to the committed file or diffs it.

use chunkhash::Algorithm;
use std::fmt::Write as _;
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
    let builder = cbindgen::Builder::new().with_config(config).with_src(dir.join("src/lib.rs"));
    let bindings = match builder.with_after_include(algorithm_constants()).generate() {
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

/// The `#define`s of the registry's ids, documented as cbindgen documents
/// the constants it finds in the sources.
fn algorithm_constants() -> String {
    let mut text = String::new();
    let mut define = |doc: &str, name: &str, value: usize| {
        let _ = write!(text, "\n/**\n * {doc}\n */\n#define {name} {value}\n");
    };
    for &algorithm in Algorithm::all() {
        let kind = if algorithm.is_cryptographic() { "cryptographic" } else { "a checksum, not cryptographic" };
        let doc = format!("{}: {}-byte digests, {kind}.", algorithm.name(), algorithm.digest_len());
        define(&doc, &constant_name(algorithm.name()), usize::from(algorithm.id()));
    }
    let doc =
        "The largest digest of any algorithm, in bytes: a buffer of this size\n * holds any `chunkhash_digest` output.";
    define(doc, "CHUNKHASH_MAX_DIGEST_LEN", chunkhash::MAX_DIGEST_LEN);
    // cbindgen ends the block with a newline of its own.
    text.pop();
    text
}

/// The C name of an algorithm's id constant, from its canonical name:
/// uppercase; a `-` after a part with no digit is dropped (`SHA-256` is
/// `SHA256`, as C code and coreutils spell it), any other `-` or `/`
/// becomes `_` (`BLAKE3_160`, `BLAKE2B_512`, `SHA512_160`, and for names
/// the registry may add, `CRC64_NVME`, `SHA1`).
fn constant_name(name: &str) -> String {
    let mut out = String::from("CHUNKHASH_ALGORITHM_");
    let mut part_has_digit = false;
    for c in name.chars() {
        match c {
            '-' | '/' if !part_has_digit => {}
            '-' | '/' => {
                out.push('_');
                part_has_digit = false;
            }
            c => {
                assert!(c.is_ascii_alphanumeric(), "algorithm name {name:?}: no C identifier for {c:?}");
                part_has_digit |= c.is_ascii_digit();
                out.push(c.to_ascii_uppercase());
            }
        }
    }
    out
}
