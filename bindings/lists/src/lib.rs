//! The algorithm lists of the bindings, written from the registry table
//! (`chunkhash::Algorithm`, `crates/chunkhash/src/registry.rs`) as
//! `bindings/c/header-gen` writes the C header's id constants: the
//! TypeScript declarations' name, id and checksum unions
//! (`bindings/js/lib/chunkhash.d.mts`, which the build copies to
//! `dist/chunkhash.d.ts`) and the Java enum's constants
//! (`bindings/java/.../Algorithm.java`). Each list sits in its file between
//! a `BEGIN` and an `END` marker line; everything else in the file is
//! hand-written.
//!
//! `cargo run -p chunkhash-binding-lists` rewrites the lists;
//! `tests/committed.rs` (in `cargo test --workspace`) fails while a
//! committed list differs from the table, so a new registry row fails
//! `make test` until the bindings are regenerated. Python's names are
//! policy (hashlib's spellings), kept in `bindings/python/src/names.rs` and
//! checked against the registry by `bindings/python/tests/test_registry.py`.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// The facts of one registry row that the bindings list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    pub id: u8,
    pub name: &'static str,
    pub digest_len: usize,
    pub cryptographic: bool,
}

/// Every row of the registry, in id order.
pub fn registry() -> Vec<Row> {
    chunkhash::Algorithm::all()
        .iter()
        .map(|algorithm| Row {
            id: algorithm.id(),
            name: algorithm.name(),
            digest_len: algorithm.digest_len(),
            cryptographic: algorithm.is_cryptographic(),
        })
        .collect()
}

/// A file with a generated list: its path in the repository, and how the
/// list is written from the rows.
#[derive(Debug)]
pub struct Target {
    pub path: &'static str,
    pub render: fn(&[Row]) -> String,
}

/// The generated lists.
pub const TARGETS: &[Target] = &[
    Target { path: "bindings/js/lib/chunkhash.d.mts", render: typescript },
    Target { path: "bindings/java/chunkhash/src/main/java/io/chunkhash/Algorithm.java", render: java },
];

/// The repository's root.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

const BEGIN: &str =
    "BEGIN generated from the registry (crates/chunkhash/src/registry.rs): cargo run -p chunkhash-binding-lists";
const END: &str = "END generated";

/// `text` with the lines between its marker lines replaced by `list`, or
/// an error if the markers are missing.
pub fn replace_list(text: &str, list: &str) -> Result<String, String> {
    let begin = text.find(BEGIN).ok_or_else(|| format!("no line with the marker {BEGIN:?}"))?;
    let start = text[begin..].find('\n').map(|i| begin + i + 1).ok_or("nothing after the BEGIN marker")?;
    let end = text[start..].find(END).map(|i| start + i).ok_or_else(|| format!("no line with the marker {END:?}"))?;
    // The END marker's line starts at its comment, after the indentation.
    let end_line = text[..end].rfind('\n').map_or(0, |i| i + 1);
    Ok(format!("{}{}{}", &text[..start], list, &text[end_line..]))
}

/// The TypeScript unions: names, ids, and the checksums whose integer value
/// is a `number` (4 bytes) or a `bigint` (8 and 16 bytes), as `checksum()`
/// returns them.
pub fn typescript(rows: &[Row]) -> String {
    let mut out = String::new();
    out.push_str("/** The stable registry ids (an on-disk contract): `algorithms()` lists them. */\n");
    let ids: Vec<String> = rows.iter().map(|row| row.id.to_string()).collect();
    let _ = writeln!(out, "export type AlgorithmId = {};", ids.join(" | "));
    out.push('\n');
    out.push_str(
        "/** Canonical names of the registry; aliases (`sha256`, `xxh3`, `b3`, any case, `_` for `-`) are accepted too. */\n",
    );
    out.push_str("export type AlgorithmName =\n");
    for row in rows {
        let _ = writeln!(out, "  | '{}'", row.name);
    }
    out.push_str("  | (string & {});\n\n");
    let checksums = |lengths: &[usize]| -> String {
        let names: Vec<String> = rows
            .iter()
            .filter(|row| !row.cryptographic && lengths.contains(&row.digest_len))
            .map(|row| format!("'{}'", row.name))
            .collect();
        if names.is_empty() {
            "never".to_owned()
        } else {
            names.join(" | ")
        }
    };
    out.push_str("/** The 32-bit checksums, whose integer value is a number. */\n");
    let _ = writeln!(out, "export type Checksum32Name = {};", checksums(&[4]));
    out.push_str("/** The 64- and 128-bit checksums, whose integer value is a bigint. */\n");
    let _ = writeln!(out, "export type Checksum64Name = {};", checksums(&[8, 16]));
    out
}

/// The Java enum's constants: `NAME(id, "canonical name", digest length)`.
pub fn java(rows: &[Row]) -> String {
    let mut out = String::new();
    for (i, row) in rows.iter().enumerate() {
        let kind = if row.cryptographic { "cryptographic" } else { "a checksum, not cryptographic" };
        let _ = writeln!(out, "    /** {}: {}-byte digests, {kind}. */", row.name, row.digest_len);
        let separator = if i + 1 == rows.len() { ';' } else { ',' };
        let _ =
            writeln!(out, "    {}({}, \"{}\", {}){separator}", java_name(row.name), row.id, row.name, row.digest_len);
    }
    out
}

/// The Java constant of a registry name: uppercase, `-` and `/` as `_`
/// (`SHA_256`, `BLAKE2B_512`, `CRC_64_NVME`, `SHA_512_160`).
pub fn java_name(name: &str) -> String {
    name.chars()
        .map(|c| match c {
            '-' | '/' => '_',
            c => {
                assert!(c.is_ascii_alphanumeric(), "algorithm name {name:?}: no Java identifier for {c:?}");
                c.to_ascii_uppercase()
            }
        })
        .collect()
}

/// Each target's committed text and the text it should have, with its path.
pub fn expected(rows: &[Row]) -> Result<Vec<(PathBuf, String, String)>, String> {
    TARGETS
        .iter()
        .map(|target| {
            let path = root().join(target.path);
            let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", target.path))?;
            let new = replace_list(&text, &(target.render)(rows)).map_err(|e| format!("{}: {e}", target.path))?;
            Ok((path, text, new))
        })
        .collect()
}
