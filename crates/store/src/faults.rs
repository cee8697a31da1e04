//! Deterministic crash injection, for the crash tests only.
//!
//! With `CHUNKHASH_STORE_CRASH_AT=N` in the environment, the N-th write step
//! of the process (a write of bytes, an fsync, a rename, a truncation or a
//! removal; counted from 1) aborts the process, as `kill -9` would at that
//! moment: a write is first cut in half, as a torn write. With the variable
//! unset (always, outside tests) a step costs one relaxed atomic add.
//!
//! `CHUNKHASH_STORE_PAUSE_AT=N` stops the process at the N-th step instead
//! (see `is_crash_step`), for the tests of readers beside a writer.
//!
//! What this cannot show is a power cut: the page cache survives an abort,
//! so writes the kernel acknowledged are all there afterwards. The fsyncs
//! are what make the same hold across a power cut; `tests/crash.rs` checks
//! them on a simulated file system (`location::sim`) that loses what was
//! not synced.

use std::io::{self, Write};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;

/// The environment variable that arms the crash.
pub(crate) const CRASH_ENV: &str = "CHUNKHASH_STORE_CRASH_AT";

static STEPS: AtomicU64 = AtomicU64::new(0);

fn crash_at() -> Option<u64> {
    static LIMIT: OnceLock<Option<u64>> = OnceLock::new();
    *LIMIT.get_or_init(|| std::env::var(CRASH_ENV).ok().and_then(|value| value.parse().ok()))
}

/// Write steps taken so far by this process.
pub(crate) fn steps() -> u64 {
    STEPS.load(Ordering::Relaxed)
}

/// The environment variable that pauses the process at a write step.
pub(crate) const PAUSE_ENV: &str = "CHUNKHASH_STORE_PAUSE_AT";

fn pause_at() -> Option<u64> {
    static LIMIT: OnceLock<Option<u64>> = OnceLock::new();
    *LIMIT.get_or_init(|| std::env::var(PAUSE_ENV).ok().and_then(|value| value.parse().ok()))
}

/// Counts a step; true when it is the one to crash at. With
/// `CHUNKHASH_STORE_PAUSE_AT=N` the N-th step first stops the process
/// (SIGSTOP, sent by `kill`, so no unsafe code) until a SIGCONT: a test can
/// then look at the store exactly as a running writer leaves it there.
fn is_crash_step() -> bool {
    let step = STEPS.fetch_add(1, Ordering::Relaxed) + 1;
    if pause_at() == Some(step) {
        let _ = std::process::Command::new("kill").args(["-STOP", &std::process::id().to_string()]).status();
    }
    crash_at() == Some(step)
}

fn crash(what: &str) -> ! {
    let _ = writeln!(io::stderr(), "chunkhash: crash injected at write step {} ({what})", steps());
    std::process::abort()
}

/// A step with no bytes (fsync, rename, truncation, removal), before it runs.
pub(crate) fn step(what: &str) {
    if is_crash_step() {
        crash(what);
    }
}

/// `file.write_all(bytes)` as a step.
pub(crate) fn write_all<W: Write + ?Sized>(file: &mut W, bytes: &[u8]) -> io::Result<()> {
    if is_crash_step() {
        let _ = file.write_all(&bytes[..bytes.len() / 2]);
        crash("torn write");
    }
    file.write_all(bytes)
}
