//! Output, messages and the exit status. Per-file problems are printed as
//! `chunkhash: PATH: message`, remembered, and the run goes on; the exit
//! status is decided once at the end (ripgrep's `messages.rs` habit).

use std::io::{self, Write};
use std::process::ExitCode;

/// What went wrong over the whole run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Status {
    /// A mismatch, a file that could not be read, or a check file with no
    /// properly formatted line: exit 1.
    pub failed: bool,
    /// Bad usage: exit 2.
    pub usage: bool,
    /// `bench --compare` found a regression: exit 3.
    pub regression: bool,
}

/// Exit status for a mismatch, an unreadable file or a check file with no
/// checksum line (as coreutils, b3sum and xxhsum exit).
pub const EXIT_FAILED: u8 = 1;
/// Exit status for bad usage.
pub const EXIT_USAGE: u8 = 2;
/// Exit status of `bench --compare` when a row regressed.
pub const EXIT_REGRESSION: u8 = 3;

impl Status {
    /// The process exit code: bad usage wins over a regression, which wins
    /// over failed files.
    pub fn exit_code(self) -> ExitCode {
        if self.usage {
            ExitCode::from(EXIT_USAGE)
        } else if self.regression {
            ExitCode::from(EXIT_REGRESSION)
        } else if self.failed {
            ExitCode::from(EXIT_FAILED)
        } else {
            ExitCode::SUCCESS
        }
    }
}

/// Buffered stdout, plus messages on stderr that keep their place relative
/// to it (stdout is flushed before each message).
pub struct Printer {
    out: io::BufWriter<io::Stdout>,
    /// Accumulated status.
    pub status: Status,
    /// Hides a progress bar while a message prints.
    pub progress: Option<indicatif::ProgressBar>,
}

impl std::fmt::Debug for Printer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Printer").field("status", &self.status).finish_non_exhaustive()
    }
}

impl Printer {
    /// A printer on this process's stdout.
    pub fn new() -> Printer {
        Printer {
            out: io::BufWriter::with_capacity(64 * 1024, io::stdout()),
            status: Status::default(),
            progress: None,
        }
    }

    /// Stdout. Write errors (a closed pipe) propagate to `main`.
    pub fn out(&mut self) -> &mut impl Write {
        &mut self.out
    }

    /// Flushes stdout.
    pub fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }

    /// Prints `chunkhash: MESSAGE` on stderr.
    pub fn message(&mut self, message: std::fmt::Arguments<'_>) -> io::Result<()> {
        self.about(b"", message)
    }

    /// Prints `chunkhash: NAME: MESSAGE` on stderr, the name's bytes as they
    /// are (shown as stdout shows them: see `format::shown_name`).
    pub fn about(&mut self, name: &[u8], message: std::fmt::Arguments<'_>) -> io::Result<()> {
        self.out.flush()?;
        let mut line = b"chunkhash: ".to_vec();
        if !name.is_empty() {
            line.extend_from_slice(name);
            line.extend_from_slice(b": ");
        }
        line.extend_from_slice(message.to_string().as_bytes());
        line.push(b'\n');
        // Nothing useful is left to do if stderr itself is gone.
        let print = || drop(io::stderr().lock().write_all(&line));
        match &self.progress {
            Some(bar) => bar.suspend(print),
            None => print(),
        }
        Ok(())
    }

    /// A per-file error: printed, and the run will exit 1.
    pub fn file_error(&mut self, name: &[u8], error: &io::Error) -> io::Result<()> {
        self.status.failed = true;
        self.about(name, format_args!("{}", chunkhash_store::io_message(error)))
    }
}

/// Whether an error chain ends in a closed stdout, which is not an error for
/// a command whose output is piped to `head`.
pub fn is_broken_pipe(error: &anyhow::Error) -> bool {
    error.chain().any(|cause| cause.downcast_ref::<io::Error>().is_some_and(|e| e.kind() == io::ErrorKind::BrokenPipe))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exit_codes_by_priority() {
        let code = |status: Status| format!("{:?}", status.exit_code());
        assert_eq!(code(Status::default()), format!("{:?}", ExitCode::SUCCESS));
        let failed = Status { failed: true, ..Status::default() };
        assert_eq!(code(failed), format!("{:?}", ExitCode::from(1)));
        assert_eq!(code(Status { usage: true, ..failed }), format!("{:?}", ExitCode::from(2)));
        assert_eq!(code(Status { regression: true, ..failed }), format!("{:?}", ExitCode::from(3)));
    }
}
