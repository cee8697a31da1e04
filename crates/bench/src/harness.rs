//! The timing harness: cases run interleaved in rounds, medians, spreads and
//! paired ratios, the core clock and a thread's on-CPU time.

use std::hint::black_box;
use std::time::{Duration, Instant};

/// One thing to time: `run` does one operation on `bytes` bytes of input.
pub struct Case<'a> {
    /// Row label.
    pub name: String,
    /// Bytes one operation hashes (for MB/s and cycles per byte).
    pub bytes: usize,
    /// Performs one operation.
    pub run: Box<dyn FnMut() + 'a>,
}

impl std::fmt::Debug for Case<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Case").field("name", &self.name).field("bytes", &self.bytes).finish()
    }
}

impl<'a> Case<'a> {
    /// A case from a name, a byte count and a closure.
    pub fn new(name: impl Into<String>, bytes: usize, run: impl FnMut() + 'a) -> Self {
        Case { name: name.into(), bytes, run: Box::new(run) }
    }
}

/// Timings of one case over all rounds.
#[derive(Clone, Debug)]
pub struct Timing {
    /// Row label.
    pub name: String,
    /// Bytes per operation.
    pub bytes: usize,
    /// Nanoseconds per operation, one value per round.
    pub rounds_ns: Vec<f64>,
}

impl Timing {
    /// Median nanoseconds per operation.
    pub fn median_ns(&self) -> f64 {
        median(&self.rounds_ns)
    }

    /// Throughput in MB/s (10^6 bytes per second) at the median.
    pub fn mb_per_s(&self) -> f64 {
        self.bytes as f64 / self.median_ns() * 1e3
    }

    /// Cycles per byte at the median, for a core running at `ghz`.
    pub fn cycles_per_byte(&self, ghz: f64) -> f64 {
        self.median_ns() * ghz / self.bytes.max(1) as f64
    }

    /// Relative spread of the rounds: (p75 - p25) / median.
    pub fn spread(&self) -> f64 {
        spread(&self.rounds_ns)
    }
}

/// The median of a non-empty slice.
pub fn median(values: &[f64]) -> f64 {
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    let mid = sorted.len() / 2;
    if !sorted.len().is_multiple_of(2) {
        sorted[mid]
    } else {
        (sorted[mid - 1] + sorted[mid]) / 2.0
    }
}

/// The relative spread of a non-empty slice: (p75 - p25) / median.
pub fn spread(values: &[f64]) -> f64 {
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    let q = |p: f64| sorted[((sorted.len() - 1) as f64 * p).round() as usize];
    (q(0.75) - q(0.25)) / median(values)
}

/// The median over rounds of `numerator[i] / denominator[i]`: a paired ratio
/// of two cases timed in the same rounds.
pub fn median_ratio(numerator: &Timing, denominator: &Timing) -> f64 {
    median_paired_ratio(&numerator.rounds_ns, &denominator.rounds_ns)
}

/// The median of `numerators[i] / denominators[i]` over the pairs both
/// (non-empty) slices have.
pub fn median_paired_ratio(numerators: &[f64], denominators: &[f64]) -> f64 {
    let ratios: Vec<f64> = numerators.iter().zip(denominators).map(|(a, b)| a / b).collect();
    median(&ratios)
}

/// How many operations of `run` take about `target`.
fn calibrate(run: &mut dyn FnMut(), target: Duration) -> u64 {
    let mut iterations = 1u64;
    loop {
        let start = Instant::now();
        for _ in 0..iterations {
            run();
        }
        let elapsed = start.elapsed();
        if elapsed >= target / 4 || iterations >= 1 << 30 {
            let per_op = elapsed.as_secs_f64() / iterations as f64;
            return ((target.as_secs_f64() / per_op.max(1e-10)) as u64).max(1);
        }
        iterations *= 2;
    }
}

/// What the rounds are timed with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Clock {
    /// Wall-clock time (`Instant`): what a caller waits.
    Wall,
    /// The calling thread's CPU time (Linux `CLOCK_THREAD_CPUTIME_ID`, to
    /// the nanosecond; wall time elsewhere): leaves out the time other
    /// processes hold the core, for one-thread cases on a loaded machine.
    /// ([`thread_cpu_seconds`] advances only at scheduler ticks, 4 ms here:
    /// too coarse for slices of 20 ms.)
    ThreadCpu,
}

impl Clock {
    fn now_ns(self) -> u128 {
        match self {
            Clock::Wall => wall_ns(),
            Clock::ThreadCpu => thread_cpu_ns(),
        }
    }
}

fn wall_ns() -> u128 {
    static START: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
    START.get_or_init(Instant::now).elapsed().as_nanos()
}

#[cfg(all(target_os = "linux", target_pointer_width = "64"))]
fn thread_cpu_ns() -> u128 {
    #[repr(C)]
    struct Timespec {
        seconds: i64,
        nanoseconds: i64,
    }
    extern "C" {
        fn clock_gettime(clock: i32, time: *mut Timespec) -> i32;
    }
    const CLOCK_THREAD_CPUTIME_ID: i32 = 3;
    let mut time = Timespec { seconds: 0, nanoseconds: 0 };
    // SAFETY: clock_gettime is the C library's (std links it on Linux); it
    // writes one timespec, whose layout on 64-bit Linux is two 64-bit
    // integers, through a pointer to a live local.
    let status = unsafe { clock_gettime(CLOCK_THREAD_CPUTIME_ID, &mut time) };
    assert_eq!(status, 0, "clock_gettime(CLOCK_THREAD_CPUTIME_ID) failed");
    time.seconds as u128 * 1_000_000_000 + time.nanoseconds as u128
}

#[cfg(not(all(target_os = "linux", target_pointer_width = "64")))]
fn thread_cpu_ns() -> u128 {
    wall_ns()
}

/// Runs every case once per round, interleaved, for `rounds` rounds of
/// about `slice` per case, after one warm-up round.
pub fn run_interleaved(cases: &mut [Case<'_>], rounds: usize, slice: Duration) -> Vec<Timing> {
    run_interleaved_best_of_on(Clock::Wall, cases, rounds, slice, 1)
}

/// [`run_interleaved`] timed with `clock`.
pub fn run_interleaved_on(clock: Clock, cases: &mut [Case<'_>], rounds: usize, slice: Duration) -> Vec<Timing> {
    run_interleaved_best_of_on(clock, cases, rounds, slice, 1)
}

/// As [`run_interleaved`], but each case's turn in a round is `tries`
/// sub-slices of `slice / tries`, and the round keeps the fastest. On a
/// machine shared with other work, a sub-slice the scheduler interrupted is
/// slower and dropped, where a single slice would carry the interruption
/// into the round's figure; the median over rounds then rests on clean
/// timings even under heavy load.
pub fn run_interleaved_best_of(cases: &mut [Case<'_>], rounds: usize, slice: Duration, tries: usize) -> Vec<Timing> {
    run_interleaved_best_of_on(Clock::Wall, cases, rounds, slice, tries)
}

/// [`run_interleaved_best_of`] timed with `clock`.
fn run_interleaved_best_of_on(
    clock: Clock,
    cases: &mut [Case<'_>],
    rounds: usize,
    slice: Duration,
    tries: usize,
) -> Vec<Timing> {
    let tries = tries.max(1);
    let iterations: Vec<u64> =
        cases.iter_mut().map(|case| calibrate(&mut *case.run, slice / tries as u32).max(1)).collect();
    let mut timings: Vec<Timing> = cases
        .iter()
        .map(|case| Timing { name: case.name.clone(), bytes: case.bytes, rounds_ns: Vec::with_capacity(rounds) })
        .collect();
    for round in 0..=rounds {
        for ((case, &n), timing) in cases.iter_mut().zip(&iterations).zip(&mut timings) {
            let mut best = f64::INFINITY;
            for _ in 0..tries {
                let start = clock.now_ns();
                for _ in 0..n {
                    (case.run)();
                }
                best = best.min((clock.now_ns() - start) as f64 / n as f64);
            }
            if round > 0 {
                timing.rounds_ns.push(best);
            }
        }
    }
    timings
}

/// Measures the core clock in GHz: a loop whose iterations each wait on the
/// one before through a single-cycle `dec`, so it runs one per cycle. Takes
/// the best of several tries, as the clock ramps up under load.
pub fn core_ghz() -> f64 {
    core_ghz_on(Clock::Wall)
}

/// [`core_ghz`] timed with `clock`.
pub fn core_ghz_on(clock: Clock) -> f64 {
    let mut best = 0.0f64;
    for _ in 0..5 {
        let iterations = 50_000_000u64;
        let start = clock.now_ns();
        spin_cycles(iterations);
        let ghz = iterations as f64 / (clock.now_ns() - start) as f64;
        best = best.max(ghz);
    }
    best
}

/// A loop of `iterations` dependent decrements, one taken branch each: one
/// iteration a cycle while the thread has the core's front end to itself
/// (the core-clock measurement, and the contention probe of
/// `blake3_vs_official`).
#[cfg(target_arch = "x86_64")]
pub fn spin_cycles(iterations: u64) {
    // SAFETY: the loop only decrements a register until it reaches zero; it
    // touches no memory and no other register.
    unsafe {
        core::arch::asm!("2:", "dec {n}", "jnz 2b", n = inout(reg) iterations => _, options(nomem, nostack));
    }
}

/// [`spin_cycles`] without the instruction-level guarantee.
#[cfg(not(target_arch = "x86_64"))]
pub fn spin_cycles(iterations: u64) {
    // Without the instruction-level guarantee this only approximates one
    // iteration per cycle; cycles-per-byte figures are then indicative.
    let mut n = iterations;
    while black_box(n) != 0 {
        n -= 1;
    }
}

/// On-CPU seconds of this thread so far (`/proc/thread-self/schedstat`,
/// Linux; `None` elsewhere). Unlike wall time on a shared machine it leaves
/// out the time spent waiting for a core another process holds; kernel work
/// done for the thread (copying pages) is in it.
pub fn thread_cpu_seconds() -> Option<f64> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let nanoseconds: u64 = text.split_whitespace().next()?.parse().ok()?;
    (nanoseconds > 0).then_some(nanoseconds as f64 / 1e9)
}

/// Keeps a value alive for the optimiser, re-exported for closures.
pub fn consume<T>(value: T) {
    black_box(value);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_clocks_advance() {
        for clock in [Clock::Wall, Clock::ThreadCpu] {
            let start = clock.now_ns();
            spin_cycles(10_000_000);
            assert!(clock.now_ns() > start, "{clock:?}");
        }
    }

    #[test]
    fn medians_and_paired_ratios() {
        assert_eq!(median(&[3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(&[4.0, 1.0, 2.0, 3.0]), 2.5);
        let a = Timing { name: "a".into(), bytes: 10, rounds_ns: vec![10.0, 20.0, 40.0] };
        let b = Timing { name: "b".into(), bytes: 10, rounds_ns: vec![5.0, 10.0, 30.0] };
        assert_eq!(median_ratio(&a, &b), 2.0);
        assert_eq!(a.mb_per_s(), 10.0 / 20.0 * 1e3);
        assert_eq!(median_paired_ratio(&[2.0, 9.0, 4.0], &[1.0, 3.0, 4.0, 7.0]), 2.0);
        assert_eq!(spread(&[1.0, 2.0, 3.0, 4.0, 5.0]), 2.0 / 3.0);
    }
}
