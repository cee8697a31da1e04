//! The READMEs say what is true. Every repository path they name exists
//! (links, and inline code that names a path of the repository; the Layout
//! table's entries under the directory of their row), and the command's
//! README session, run with the built binary, prints what it shows. The
//! READMEs' Rust examples run as doctests of the crates that include them
//! (`crates/chunkhash/src/lib.rs`, `crates/store/src/lib.rs`).
//!
//! It lives here, beside the binary's other tests, because the session needs
//! `CARGO_BIN_EXE_chunkhash`; `make test` runs it in `test-rust`.

mod common;

use common::Dir;
use std::fs;
use std::path::{Path, PathBuf};

/// The pages a user reads, from the repository root.
const PAGES: &[&str] = &[
    "README.md",
    "BENCHMARKS.md",
    "CONTRIBUTING.md",
    "crates/chunkhash/README.md",
    "crates/cli/README.md",
    "crates/store/README.md",
    "bindings/c/README.md",
    "bindings/python/README.md",
    "bindings/js/README.md",
    "bindings/java/README.md",
    "vectors/README.md",
];

/// Where a path in inline code must start to be taken for a repository
/// path (from the root); other code spans are commands, names or paths
/// relative to something else.
const ROOTS: &[&str] = &["crates/", "bindings/", "vectors/", "fuzz/", "scripts/", "examples/", ".ci/"];

/// Paths that a build makes, named in the pages but never committed.
const BUILT: &[&str] = &["bindings/js/dist", "/target/", "node_modules"];

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().unwrap()
}

/// A problem found in one page: the page, the path named, and why.
#[derive(Debug, PartialEq)]
struct Missing {
    page: String,
    named: String,
}

/// The page's text outside fenced code blocks, line by line.
fn prose(text: &str) -> impl Iterator<Item = &str> {
    let mut fenced = false;
    text.lines().filter(move |line| {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            return false;
        }
        !fenced
    })
}

/// The inline code spans of a line.
fn code_spans(line: &str) -> Vec<&str> {
    line.split('`').skip(1).step_by(2).collect()
}

/// The link targets of a line (`[text](target)`, `![alt](target)`).
fn link_targets(line: &str) -> Vec<&str> {
    line.match_indices("](").filter_map(|(at, _)| line[at + 2..].split_once(')').map(|(target, _)| target)).collect()
}

/// Whether a code span names a repository path from the root.
fn looks_like_repo_path(span: &str) -> bool {
    ROOTS.iter().any(|root| span.starts_with(root))
        && !span.contains(|c: char| c.is_whitespace() || "*<>{}$=,|()".contains(c))
        && !span.contains("...")
        && !BUILT.iter().any(|built| span.contains(built))
}

/// Every path `page` (its text `text`, at `page` under `root`) names that
/// does not exist: links (relative to the page, anchors and URLs left
/// out), inline code naming a repository path, and the Layout table's
/// names under the directory of their row.
fn missing_paths(root: &Path, page: &str, text: &str) -> Vec<Missing> {
    let dir = Path::new(page).parent().unwrap_or(Path::new(""));
    let mut missing = Vec::new();
    let mut report = |named: &str| missing.push(Missing { page: page.into(), named: named.into() });
    let mut in_layout = false;
    for line in prose(text) {
        if line.starts_with('#') {
            in_layout = line.trim_start_matches('#').trim() == "Layout";
        }
        for target in link_targets(line) {
            let target = target.split_whitespace().next().unwrap_or("");
            let path = target.split('#').next().unwrap();
            if path.is_empty() || path.contains("://") || path.starts_with("mailto:") {
                continue;
            }
            if !root.join(dir).join(path).exists() {
                report(target);
            }
        }
        let layout_row = in_layout && line.starts_with("| `");
        for span in code_spans(line).into_iter().filter(|_| !layout_row) {
            // From the root, or from the page's own folder (`scripts/build.mjs`
            // in bindings/js/README.md).
            let path = span.trim_end_matches('/');
            if looks_like_repo_path(span) && !root.join(path).exists() && !root.join(dir).join(path).exists() {
                report(span);
            }
        }
        if layout_row {
            // A row names files under its folder, at any depth, or from the
            // root (`vectors/`); what a build makes is left out (`dist/`).
            let cells: Vec<&str> = line.split('|').collect();
            let folder = cells[1].trim().trim_matches('`').trim_end_matches('/');
            for span in cells[2..].iter().flat_map(|cell| code_spans(cell)) {
                let name = span.trim_end_matches('/');
                let built = BUILT.iter().any(|built| format!("{folder}/{span}").contains(built));
                if names_a_file(span) && !built && !exists_under(&root.join(folder), name) && !root.join(name).exists()
                {
                    report(&format!("{span} (under {})", cells[1].trim()));
                }
            }
        }
    }
    missing
}

/// Whether a Layout table's code span names a file or folder (`lanes.rs`,
/// `platform/`), not a function, type or command.
fn names_a_file(span: &str) -> bool {
    const EXTENSIONS: &[&str] = &[".rs", ".py", ".pyi", ".mjs", ".sh", ".c", ".h", ".json", ".toml", ".java", ".md"];
    !span.contains(|c: char| c.is_whitespace() || "()<>*".contains(c))
        && (span.ends_with('/') || EXTENSIONS.iter().any(|extension| span.ends_with(extension)) || span == "Makefile")
}

/// Whether a path ending in `name` (one or more components) exists under
/// `base`, at any depth (build output left out).
fn exists_under(base: &Path, name: &str) -> bool {
    if base.join(name).exists() {
        return true;
    }
    let Ok(entries) = fs::read_dir(base) else { return false };
    entries.flatten().any(|entry| {
        let skip = ["target", "node_modules", ".git"].iter().any(|s| entry.file_name() == *s);
        !skip && entry.path().is_dir() && exists_under(&entry.path(), name)
    })
}

#[test]
fn every_path_the_readmes_name_exists() {
    let root = repo();
    let mut missing = Vec::new();
    for page in PAGES {
        let text = fs::read_to_string(root.join(page)).unwrap_or_else(|e| panic!("{page}: {e}"));
        missing.extend(missing_paths(&root, page, &text));
    }
    assert!(missing.is_empty(), "paths named in the READMEs that do not exist: {missing:#?}");
}

#[test]
fn the_path_check_finds_made_up_paths() {
    let root = repo();
    let page = "\
# A page
A link [here](no/such/page.md), one [that exists](crates/cli/README.md#install),
[a site](https://example.com), and code: `crates/nope/missing.rs`, `crates/cli/src/sum.rs`,
`chunkhash sum FILE`, `target/release/chunkhash`.
```sh
cat crates/also/missing.rs   # commands in code blocks are not paths
```
## Layout
| path | what |
| --- | --- |
| `crates/cli` | `sum.rs`, `store/`, `nothere.rs`, `blake3::hash` |
";
    let named: Vec<String> = missing_paths(&root, "README.md", page).into_iter().map(|m| m.named).collect();
    assert_eq!(named, ["no/such/page.md", "crates/nope/missing.rs", "nothere.rs (under `crates/cli`)"]);
    // Links are relative to their page.
    let from_a_crate = missing_paths(&root, "crates/cli/README.md", "[up](../../BENCHMARKS.md) [wrong](BENCHMARKS.md)");
    assert_eq!(from_a_crate, [Missing { page: "crates/cli/README.md".into(), named: "BENCHMARKS.md".into() }]);
}

/// One step of a session: a command line and the stdout it shows.
#[derive(Debug)]
struct Step {
    command: String,
    stdout: String,
}

/// The `console` blocks of a page: `$ ` lines, each followed by its output.
fn sessions(text: &str) -> Vec<Vec<Step>> {
    let mut sessions = Vec::new();
    let mut current: Option<Vec<Step>> = None;
    for line in text.lines() {
        match (&mut current, line.trim_start()) {
            (None, "```console") => current = Some(Vec::new()),
            (Some(_), "```") => sessions.push(current.take().unwrap()),
            (Some(steps), line) => match line.strip_prefix("$ ") {
                Some(command) => steps.push(Step { command: command.into(), stdout: String::new() }),
                None => {
                    let step = steps.last_mut().expect("output before the first command of a session");
                    step.stdout.push_str(line);
                    step.stdout.push('\n');
                }
            },
            (None, _) => {}
        }
    }
    sessions
}

/// Runs one step in `dir`: `printf 'TEXT' > FILE` writes a file, and
/// `chunkhash ARGS [> FILE]` runs the built binary, which must succeed.
/// Anything else is a session this test cannot run: an error.
fn run_step(dir: &Dir, step: &Step) -> Result<String, String> {
    let (command, redirect) = match step.command.split_once(" > ") {
        Some((command, file)) => (command.trim(), Some(file.trim())),
        None => (step.command.trim(), None),
    };
    if let Some(quoted) = command.strip_prefix("printf ") {
        let text =
            quoted.strip_prefix('\'').and_then(|q| q.strip_suffix('\'')).filter(|t| !t.contains(['\'', '\\', '%']));
        let (Some(text), Some(file)) = (text, redirect) else {
            return Err(format!("only printf 'TEXT' > FILE is supported: {:?}", step.command));
        };
        dir.write(file, text.as_bytes());
        return Ok(String::new());
    }
    let Some(args) = command.strip_prefix("chunkhash ") else {
        return Err(format!("not a chunkhash command: {:?}", step.command));
    };
    if args.contains(['\'', '"', '|', '<', '$']) {
        return Err(format!("quoting, pipes and variables are not supported: {:?}", step.command));
    }
    let args: Vec<&str> = args.split_whitespace().collect();
    let output = dir.run(&args, b"");
    if !output.status.success() {
        return Err(format!("{:?} failed: {}", step.command, String::from_utf8_lossy(&output.stderr)));
    }
    let stdout = String::from_utf8(output.stdout).map_err(|e| e.to_string())?;
    match redirect {
        Some(file) => {
            dir.write(file, stdout.as_bytes());
            Ok(String::new())
        }
        None => Ok(stdout),
    }
}

#[test]
fn the_command_readme_session_runs() {
    let text = fs::read_to_string(repo().join("crates/cli/README.md")).unwrap();
    let sessions = sessions(&text);
    assert!(!sessions.is_empty(), "crates/cli/README.md has no console session");
    for (index, session) in sessions.iter().enumerate() {
        let dir = Dir::new(&format!("readme_session_{index}"));
        for step in session {
            let stdout = run_step(&dir, step).unwrap_or_else(|e| panic!("session {index}: {e}"));
            assert_eq!(stdout, step.stdout, "session {index}: {:?}", step.command);
        }
    }
}

#[test]
fn a_session_that_lies_fails() {
    let dir = Dir::new("a_session_that_lies_fails");
    let text = "```console\n$ printf 'abc' > a\n$ chunkhash sum -a crc32c a\nffffffff  a\n$ ls\na\n```\n";
    let steps = &sessions(text)[0];
    assert_eq!(steps.len(), 3);
    assert_eq!(run_step(&dir, &steps[0]), Ok(String::new()));
    let printed = run_step(&dir, &steps[1]).unwrap();
    assert_eq!(printed, "364b3fb7  a\n", "CRC-32C of \"abc\"");
    assert_ne!(printed, steps[1].stdout, "a wrong output shown in a README is caught");
    assert!(run_step(&dir, &steps[2]).unwrap_err().contains("not a chunkhash command"));
    let failing = Step { command: "chunkhash sum missing-file".into(), stdout: String::new() };
    assert!(run_step(&dir, &failing).unwrap_err().contains("failed"));
}
