//! `chunkhash`: print, check and benchmark checksums, compatible with b3sum,
//! xxhsum and the coreutils `*sum` tools, and keep files in a
//! content-addressed chunk store.
//!
//! Layout (ripgrep's split): `flags` holds the raw command line, `settings`
//! checks it; `sum`, `check`, `bench`, `store`, `s3sum`, `chunk` (also
//! `xet-hash`) and `bao` are the subcommands (the
//! bench runs themselves are the `chunkhash-bench` library's, the store is
//! `chunkhash-store`); `input` reads files (memory-mapped when large) and
//! draws the progress bar; `status` prints messages and decides the exit
//! code. The pure parts are this package's library (`src/lib.rs`), so that
//! fuzz targets can call them: `check_line` parses one line of a check file,
//! `method` is how an input is hashed (algorithm, BLAKE3 mode and length),
//! `format` is how digests and names are written and read back (hex, tags,
//! prefixes), `escape` is file-name escaping.

#![deny(unsafe_code)]

mod bao;
#[cfg(feature = "bench")]
mod bench;
mod check;
mod chunk;
mod flags;
mod input;
mod s3sum;
mod settings;
mod status;
mod store;
mod sum;

// The pure parts live in the library (src/lib.rs), so fuzz targets can
// reach them; imported here so `crate::method` and the like still resolve.
use chunkhash_cli::{check_line, escape, format, method};

use anyhow::{Context, Result};
use chunkhash::blake3::Backend;
use clap::CommandFactory;
use settings::Task;
use status::Printer;
use std::io::{self, Write};
use std::process::ExitCode;

fn main() -> ExitCode {
    let flags = flags::parse();
    let mut printer = Printer::new();
    let result = run(flags, &mut printer).and_then(|()| printer.flush().context("writing to standard output"));
    match result {
        Ok(()) => printer.status.exit_code(),
        // `chunkhash sum * | head`: the reader left, nothing more to say.
        Err(error) if status::is_broken_pipe(&error) => ExitCode::SUCCESS,
        Err(error) => {
            let _ = printer.flush();
            let _ = writeln!(io::stderr(), "chunkhash: {error:#}");
            ExitCode::from(status::EXIT_USAGE)
        }
    }
}

fn run(flags: flags::Flags, printer: &mut Printer) -> Result<()> {
    // The stdin lock (for a --keyed key) must be released before any input
    // is read from stdin on a pool thread.
    let task = Task::from_flags(flags, &mut io::stdin().lock())?;
    match task {
        Task::Version => {
            printer.out().write_all(version_text().as_bytes())?;
        }
        Task::Help => {
            let help = flags::Flags::command().render_help().to_string();
            let _ = write!(io::stderr(), "{help}");
            printer.status.usage = true;
        }
        Task::Sum(settings) => in_pool(settings.io.threads, || sum::run(&settings, printer))?,
        Task::Check(settings) => in_pool(settings.io.threads, || check::run(&settings, printer))?,
        #[cfg(feature = "bench")]
        Task::Bench(settings) => bench::run(&settings, printer)?,
        Task::Store(flags) => store::run(*flags, printer)?,
        Task::S3sum(flags) => s3sum::run(flags, printer)?,
        Task::Chunk(flags) => chunk::run_chunk(flags, printer)?,
        Task::XetHash(flags) => chunk::run_xet_hash(flags, printer)?,
        Task::Bao(flags) => bao::run(flags, printer)?,
    }
    Ok(())
}

/// Runs `work` in a rayon pool of `threads` threads, so that `-j` bounds
/// both BLAKE3's multi-threaded hashing and the batch path.
fn in_pool(threads: usize, work: impl FnOnce() -> Result<()> + Send) -> Result<()> {
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().context("starting the thread pool")?;
    pool.install(work)
}

/// The backends this build has kernels for.
fn compiled_backends() -> Vec<Backend> {
    let x86 = cfg!(any(target_arch = "x86", target_arch = "x86_64"));
    Backend::all()
        .iter()
        .copied()
        .filter(|backend| match backend.name() {
            "portable" => true,
            "sse41" | "avx2" | "avx512" => x86,
            "avx2asm" | "avx512asm" => cfg!(target_arch = "x86_64"),
            "neon" => cfg!(target_arch = "aarch64"),
            "wasm32simd" => cfg!(all(target_arch = "wasm32", target_feature = "simd128")),
            _ => false,
        })
        .collect()
}

/// `--version`: the version, the SIMD backends compiled in, and the one in
/// use (ripgrep's `simd(compile)` / `simd(runtime)` lines).
fn version_text() -> String {
    let names = |backends: &[Backend]| backends.iter().map(|b| b.name()).collect::<Vec<_>>().join(", ");
    let supported: Vec<Backend> = Backend::all().iter().copied().filter(|b| b.is_supported()).collect();
    let forced = match Backend::from_env() {
        Ok(Some(_)) => " (forced by CHUNKHASH_BACKEND)",
        _ => "",
    };
    format!(
        "chunkhash {}\nsimd(compile): {}\nsimd(runtime): {}{forced}; this CPU supports {}\n",
        env!("CARGO_PKG_VERSION"),
        names(&compiled_backends()),
        Backend::detect().name(),
        names(&supported),
    )
}
