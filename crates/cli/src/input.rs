//! Reading inputs: stdin, files read in blocks, large files memory-mapped,
//! and the progress bar.

use crate::method::{self, Method, MethodHasher};
use crate::settings::IoSettings;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::fs::{File, Metadata};
use std::io::{self, IsTerminal, Read};
use std::path::Path;
use std::time::{Duration, Instant};

/// Files of this size and more are memory-mapped when BLAKE3 hashes them on
/// several threads (unless `--no-mmap`); everything else is read.
///
/// Mapping is what lets `Hasher::update_parallel` see the whole file at
/// once, so it is the way to use every core. It is not free: page faults
/// and TLB misses on fresh pages, where `read` into a 64 KiB buffer stays in
/// cache. Measured on this project's 2-core machine with the SIMD kernels,
/// `sum -j 2`, best of 5-7, mapped vs read (README "Choices"):
///
/// | input                      | second core free | second core busy |
/// | -------------------------- | ---------------- | ---------------- |
/// | 64 MiB as 1 MiB files      | 30 vs 30 ms      | 39 vs 34 ms      |
/// | 64 MiB as 4 MiB files      | 21 vs 27 ms      | 33 vs 27 ms      |
/// | 64 MiB as 16 MiB files     | 20 vs 27 ms      | 32 vs 26 ms      |
/// | one 200 MB file            | 59 vs 83 ms      | 91 vs 73 ms      |
///
/// With a free core mapping wins from 4 MiB and ties at 1 MiB; with a busy
/// one it loses at every size, so the size does not buy safety. On one
/// thread it never gains (82 vs 84 ms, 91 vs 73 ms for the 200 MB file), so
/// one-thread runs and algorithms without threads always read. b3sum maps
/// from 16 KiB.
pub const MMAP_THRESHOLD: u64 = 4 << 20;

/// Read buffer for files that are not mapped and for stdin (b3sum's choice:
/// bigger than `std::io::copy`'s 8 KiB, enough for every SIMD width).
const READ_BUF: usize = 64 * 1024;

/// Mapped files are hashed in pieces of this size so the progress bar moves;
/// each piece is still large enough to keep every thread busy.
const MAPPED_PIECE: usize = 16 << 20;

/// Progress on stderr for long work: only when stderr is a terminal, shown
/// from the start when the known work is at least 256 MiB, otherwise once
/// the work has taken more than a second.
#[derive(Debug)]
pub struct Progress {
    bar: ProgressBar,
    terminal: bool,
    shown: bool,
    start: Instant,
}

/// Work at least this large gets a progress bar from the start.
pub const PROGRESS_EAGER_BYTES: u64 = 256 << 20;
/// Other work gets one once it has run this long.
pub const PROGRESS_DELAY: Duration = Duration::from_secs(1);

impl Progress {
    /// A progress bar for `total` bytes (unknown for stdin), hidden until
    /// the rules above show it.
    pub fn new(total: Option<u64>) -> Progress {
        let bar = ProgressBar::with_draw_target(total, ProgressDrawTarget::hidden());
        let style = match total {
            Some(_) => ProgressStyle::with_template("{bytes}/{total_bytes} [{wide_bar}] {bytes_per_sec}, {eta} left")
                .map(|style| style.progress_chars("=> ")),
            None => ProgressStyle::with_template("{spinner} {bytes} hashed, {bytes_per_sec}"),
        };
        if let Ok(style) = style {
            bar.set_style(style);
        }
        let mut progress = Progress { bar, terminal: io::stderr().is_terminal(), shown: false, start: Instant::now() };
        if total.is_some_and(|total| total >= PROGRESS_EAGER_BYTES) {
            progress.show();
        }
        progress
    }

    /// For work of unknown size: says what the counted bytes are ("hashed"
    /// by default).
    pub fn set_unit(&mut self, what: &str) {
        if let Ok(style) = ProgressStyle::with_template(&format!("{{spinner}} {{bytes}} {what}, {{bytes_per_sec}}")) {
            self.bar.set_style(style);
        }
    }

    fn show(&mut self) {
        if self.terminal && !self.shown {
            self.bar.set_draw_target(ProgressDrawTarget::stderr());
            self.shown = true;
        }
    }

    /// Counts hashed bytes.
    pub fn add(&mut self, bytes: u64) {
        self.bar.inc(bytes);
        if !self.shown && self.terminal && self.start.elapsed() >= PROGRESS_DELAY {
            self.show();
        }
    }

    /// The bar, for printing messages above it.
    pub fn bar(&self) -> ProgressBar {
        self.bar.clone()
    }

    /// Removes the bar.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

/// An `io::Error` for a directory given where a file is expected.
pub fn is_a_directory() -> io::Error {
    io::Error::new(io::ErrorKind::IsADirectory, "Is a directory")
}

/// Hashes one input (a path, or `-` for stdin) with each of `methods` in a
/// single pass, returning one digest per method. `known` is what a look at
/// the path just before said (`sum` looks at every input once, up front);
/// without it the open file is asked.
pub fn hash_input(
    path: &Path,
    known: Option<&Metadata>,
    methods: &[Method],
    io_settings: IoSettings,
    progress: &mut Progress,
) -> io::Result<Vec<Vec<u8>>> {
    let mut hashers: Vec<MethodHasher> = methods.iter().map(Method::hasher).collect();
    if path.as_os_str() == "-" {
        read_all(io::stdin().lock(), &mut hashers, progress)?;
    } else {
        let file = File::open(path)?;
        let asked;
        let metadata = match known {
            Some(metadata) => metadata,
            None => {
                asked = file.metadata()?;
                &asked
            }
        };
        if metadata.is_dir() {
            return Err(is_a_directory());
        }
        let threaded = io_settings.parallel() && methods.iter().any(|m| method::is_blake3_family(m.algorithm));
        let mapped = if io_settings.mmap && threaded && metadata.is_file() && metadata.len() >= MMAP_THRESHOLD {
            // A mapping must not outrun the file, or its pages past the end
            // fault (SIGBUS): a length from an earlier look may be stale, so
            // the open file is asked again before it is mapped.
            let len = if known.is_some() { file.metadata()?.len() } else { metadata.len() };
            (len >= MMAP_THRESHOLD && usize::try_from(len).is_ok()).then(|| map(&file, len)).transpose()?
        } else {
            None
        };
        match mapped {
            Some(mapping) => {
                let parallel = io_settings.parallel();
                for piece in mapping.chunks(MAPPED_PIECE) {
                    for hasher in &mut hashers {
                        hasher.update(piece, parallel);
                    }
                    progress.add(piece.len() as u64);
                }
            }
            None => read_all(file, &mut hashers, progress)?,
        }
    }
    Ok(hashers.into_iter().map(MethodHasher::finish).collect())
}

/// Reads a whole file of `len` bytes (as a look at it just said) for the
/// batch path; reads on to the end if it has grown since.
pub fn read_small(path: &Path, len: u64) -> io::Result<Vec<u8>> {
    let file = File::open(path)?;
    let mut data = Vec::with_capacity(usize::try_from(len).unwrap_or(0));
    // Through `take`: `File`'s own `read_to_end` asks the file for its size
    // again, which the caller has just done.
    file.take(u64::MAX).read_to_end(&mut data)?;
    Ok(data)
}

/// A whole input in memory: a regular file mapped, anything else (stdin, a
/// pipe, an empty file) read. For commands that need all of a file at
/// once (`chunk`, `xet-hash`: the one-shot chunker hashes each group of
/// chunks while it is in cache).
pub enum WholeInput {
    Mapped(memmap2::Mmap),
    Read(Vec<u8>),
}

impl std::ops::Deref for WholeInput {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        match self {
            WholeInput::Mapped(mapping) => mapping,
            WholeInput::Read(bytes) => bytes,
        }
    }
}

/// Reads or maps the whole input at `path` (`-`: standard input).
pub fn whole_input(path: &Path) -> io::Result<WholeInput> {
    let mut bytes = Vec::new();
    if path.as_os_str() == "-" {
        io::stdin().lock().read_to_end(&mut bytes)?;
        return Ok(WholeInput::Read(bytes));
    }
    let mut file = File::open(path)?;
    let metadata = file.metadata()?;
    if metadata.is_dir() {
        return Err(is_a_directory());
    }
    if metadata.is_file() && metadata.len() > 0 && usize::try_from(metadata.len()).is_ok() {
        return map(&file, metadata.len()).map(WholeInput::Mapped);
    }
    file.read_to_end(&mut bytes)?;
    Ok(WholeInput::Read(bytes))
}

fn read_all(mut reader: impl Read, hashers: &mut [MethodHasher], progress: &mut Progress) -> io::Result<()> {
    let mut buf = vec![0u8; READ_BUF];
    loop {
        match reader.read(&mut buf) {
            Ok(0) => return Ok(()),
            Ok(n) => {
                for hasher in hashers.iter_mut() {
                    hasher.update(&buf[..n], false);
                }
                progress.add(n as u64);
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
}

/// Maps `len` bytes of `file` read-only.
#[allow(unsafe_code)]
fn map(file: &File, len: u64) -> io::Result<memmap2::Mmap> {
    let len = usize::try_from(len).map_err(io::Error::other)?;
    // SAFETY: the mapping is read-only and lives only while this input is
    // hashed; nothing in this process writes to the file or to the mapping.
    // The one hazard is another process changing the file meanwhile, which
    // no process-local rule can exclude: a concurrent write makes the digest
    // cover a mix of old and new bytes (as a racing `read` would), and a
    // truncation below `len` makes the pages past the new end fault with
    // SIGBUS and end the process. b3sum and ripgrep accept the same caveat
    // for the speed; `--no-mmap` avoids it. The length is fixed from the
    // metadata read just before, so the map never covers more than the file
    // had then.
    unsafe { memmap2::MmapOptions::new().len(len).map(file) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::method::Algorithm;

    fn temp_file(name: &str, bytes: &[u8]) -> std::path::PathBuf {
        let path = std::env::temp_dir().join(format!("chunkhash-cli-input-{}-{name}", std::process::id()));
        std::fs::write(&path, bytes).unwrap();
        path
    }

    /// `sum` looks at each file once, before any is hashed; a file that
    /// shrank since must be neither mapped past its end nor misread.
    #[test]
    fn a_stale_look_is_not_trusted_for_mapping() {
        let path = temp_file("shrunk", &vec![7u8; MMAP_THRESHOLD as usize + 1]);
        let stale = std::fs::metadata(&path).unwrap();
        std::fs::write(&path, b"now small").unwrap();
        let io = IoSettings { mmap: true, threads: 2 };
        let methods = [Method::plain(Algorithm::Blake3)];
        let digests = hash_input(&path, Some(&stale), &methods, io, &mut Progress::new(None)).unwrap();
        std::fs::remove_file(&path).unwrap();
        assert_eq!(digests, [chunkhash::blake3::hash(b"now small").as_bytes().to_vec()]);
    }

    #[test]
    fn small_files_are_read_to_their_end() {
        let path = temp_file("grown", b"0123456789");
        assert_eq!(read_small(&path, 4).unwrap(), b"0123456789", "grown since the look");
        assert_eq!(read_small(&path, 100).unwrap(), b"0123456789", "shrunk since the look");
        std::fs::remove_file(&path).unwrap();
        assert_eq!(read_small(&path, 10).unwrap_err().kind(), io::ErrorKind::NotFound);
    }
}
