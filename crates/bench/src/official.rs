//! chunkhash's BLAKE3 against the official `blake3` crate (with its C and
//! assembly kernels), in one process, interleaved, medians over rounds: the
//! program behind `blake3_vs_official` and `blake3_vs_official_avx2`.
//!
//! The ratio column is the median over rounds of official time / chunkhash
//! time: above 1.00, chunkhash is faster; `best` is the ratio of the two
//! fastest rounds. `--slice-ms` sets the time per case and round of the
//! one-thread message sections (20 ms). With `--cpu-time` the one-thread
//! sections time the thread's CPU time instead of wall time, which leaves
//! out the time other processes hold the core on a loaded machine (the
//! parallel section always times wall time).

use crate::{
    consume, core_ghz_on, format_size, median_ratio, random_input, run_interleaved, run_interleaved_on, spin_cycles,
    Case, Clock, Timing,
};
use chunkhash::blake3 as ours;
use std::time::Duration;

struct Options {
    sections: Vec<String>,
    rounds: usize,
    clock: Clock,
    /// Time per case and round in the one-thread sections (`--slice-ms`).
    slice: Duration,
}

fn parse_options() -> Result<Options, String> {
    let mut options =
        Options { sections: Vec::new(), rounds: 15, clock: Clock::Wall, slice: Duration::from_millis(20) };
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--rounds" => {
                let value = args.next().ok_or("--rounds needs a number")?;
                options.rounds = value.parse().map_err(|_| format!("invalid --rounds {value:?}"))?;
            }
            "--cpu-time" => options.clock = Clock::ThreadCpu,
            "--slice-ms" => {
                let value = args.next().ok_or("--slice-ms needs a number")?;
                let ms: u64 = value.parse().map_err(|_| format!("invalid --slice-ms {value:?}"))?;
                options.slice = Duration::from_millis(ms.max(1));
            }
            "single" | "parallel" | "ragged" | "batch" | "small" | "contention" | "cold" => options.sections.push(arg),
            other => return Err(format!("unknown argument {other:?}")),
        }
    }
    if options.sections.is_empty() {
        options.sections = vec!["single".into(), "ragged".into(), "batch".into(), "small".into(), "parallel".into()];
    }
    Ok(options)
}

fn print_pair_header(what: &str) {
    println!("\n{what}");
    println!(
        "{:>9} | {:>11} {:>9} {:>6} | {:>11} {:>9} {:>6} | {:>6} {:>6}",
        "size", "ours ns/op", "MB/s", "cpb", "official", "MB/s", "cpb", "ratio", "best"
    );
}

fn print_pair(label: &str, ours: &Timing, official: &Timing, ghz: f64) {
    println!(
        "{:>9} | {:>11.1} {:>9.0} {:>6.3} | {:>11.1} {:>9.0} {:>6.3} | {:>6.2} {:>6.2}",
        label,
        ours.median_ns(),
        ours.mb_per_s(),
        ours.cycles_per_byte(ghz),
        official.median_ns(),
        official.mb_per_s(),
        official.cycles_per_byte(ghz),
        median_ratio(official, ours),
        best_ratio(official, ours),
    );
}

/// The ratio of the fastest rounds, `numerator`'s over `denominator`'s: on
/// a loaded machine, what each does when least disturbed.
fn best_ratio(numerator: &Timing, denominator: &Timing) -> f64 {
    let best = |timing: &Timing| timing.rounds_ns.iter().copied().fold(f64::INFINITY, f64::min);
    best(numerator) / best(denominator)
}

/// One-shot hash of one message per size, single thread.
fn single(sizes: &[usize], options: &Options, ghz: f64, title: &str) {
    let inputs: Vec<Vec<u8>> = sizes.iter().map(|&size| random_input(size, size as u64)).collect();
    let mut cases = Vec::new();
    for input in &inputs {
        cases.push(Case::new("ours", input.len(), move || consume(ours::hash(input))));
        cases.push(Case::new("official", input.len(), move || consume(blake3::hash(input))));
    }
    let timings = run_interleaved_on(options.clock, &mut cases, options.rounds, options.slice);
    print_pair_header(title);
    for pair in timings.chunks(2) {
        print_pair(&format_size(pair[0].bytes), &pair[0], &pair[1], ghz);
    }
}

/// 16 MiB and 256 MiB with all cores: `update_parallel` against
/// `update_rayon`, with the single-thread figures of both beside them.
fn parallel(rounds: usize, ghz: f64) {
    for (size, slice_ms) in [(16usize << 20, 100u64), (256 << 20, 1000)] {
        let input = random_input(size, 16);
        let input = &input;
        let mut cases = vec![
            Case::new("ours update_parallel", input.len(), move || {
                consume(ours::Hasher::new().update_parallel(input).finalize())
            }),
            Case::new("official update_rayon", input.len(), move || {
                consume(blake3::Hasher::new().update_rayon(input).finalize())
            }),
            Case::new("ours one thread", input.len(), move || consume(ours::hash(input))),
            Case::new("official one thread", input.len(), move || consume(blake3::hash(input))),
        ];
        let timings = run_interleaved(&mut cases, rounds, Duration::from_millis(slice_ms));
        print_pair_header(&format!("{}, {} threads (rayon)", format_size(size), rayon_threads()));
        print_pair("parallel", &timings[0], &timings[1], ghz);
        print_pair("1 thread", &timings[2], &timings[3], ghz);
        println!(
            "speed-up over one thread: ours {:.2}x, official {:.2}x",
            median_ratio(&timings[2], &timings[0]),
            median_ratio(&timings[3], &timings[1])
        );
    }
}

/// Many messages: chunkhash's batch call against the official `hash` in a
/// loop and chunkhash's own `hash` in a loop.
fn batch(options: &Options, ghz: f64) {
    let mut rng = vectors::TestRng::new(2026);
    let mut batches: Vec<(String, Vec<Vec<u8>>)> = [(1024, 64), (1024, 256), (256, 1024), (64, 4096), (16, 16384)]
        .into_iter()
        .map(|(count, len)| (format!("{count} x {}", format_size(len)), (0..count).map(|_| rng.bytes(len)).collect()))
        .collect();
    // Lengths uniform in 1..=8192, fixed seed.
    let mixed: Vec<Vec<u8>> = (0..512)
        .map(|_| {
            let len = rng.range(1..=8192);
            rng.bytes(len)
        })
        .collect();
    batches.push(("512 mixed 1..8K".into(), mixed));
    let one_large = random_input(1 << 20, 7);
    let slices: Vec<(String, Vec<&[u8]>, usize)> = batches
        .iter()
        .map(|(name, messages)| {
            let total = messages.iter().map(Vec::len).sum();
            (name.clone(), messages.iter().map(Vec::as_slice).collect(), total)
        })
        .collect();
    let mut cases = Vec::new();
    for (_, inputs, total) in &slices {
        let mut out = vec![ours::Hash::from([0; 32]); inputs.len()];
        cases.push(Case::new("batch", *total, move || {
            ours::hash_many(inputs, &mut out);
            consume(out[0]);
        }));
        cases.push(Case::new("official loop", *total, move || {
            for input in inputs {
                consume(blake3::hash(input));
            }
        }));
        cases.push(Case::new("ours loop", *total, move || {
            for input in inputs {
                consume(ours::hash(input));
            }
        }));
    }
    let one_large = &one_large;
    cases.push(Case::new("one 1 MiB message", one_large.len(), move || consume(ours::hash(one_large))));
    let timings = run_interleaved_on(options.clock, &mut cases, options.rounds, Duration::from_millis(30));
    let large = &timings[timings.len() - 1];
    println!("\nbatches of independent messages, one thread (batch = chunkhash::blake3::hash_many)");
    println!(
        "{:>16} | {:>11} {:>8} {:>6} | {:>11} {:>11} | {:>8} {:>8} | {:>9}",
        "batch", "batch ns", "MB/s", "cpb", "official ns", "ours loop", "x offic.", "x ours", "vs 1 MiB"
    );
    for ((name, _, _), trio) in slices.iter().zip(timings.chunks(3)) {
        let (batch, official, ours_loop) = (&trio[0], &trio[1], &trio[2]);
        println!(
            "{:>16} | {:>11.0} {:>8.0} {:>6.3} | {:>11.0} {:>11.0} | {:>8.2} {:>8.2} | {:>9.2}",
            name,
            batch.median_ns(),
            batch.mb_per_s(),
            batch.cycles_per_byte(ghz),
            official.median_ns(),
            ours_loop.median_ns(),
            median_ratio(official, batch),
            median_ratio(ours_loop, batch),
            batch.cycles_per_byte(ghz) / large.cycles_per_byte(ghz),
        );
    }
    println!("(vs 1 MiB: batch cost per byte over one 1 MiB message's, {:.3} cpb)", large.cycles_per_byte(ghz));
}

/// Small messages in the batch API: 1024 messages of one size, and an
/// Arrow-style column (one value buffer, `i32` offsets) of 1 M values of
/// random length 0..=200, each against a loop over the official `hash`,
/// and per byte against 256 x 1 KiB messages in the same batch call.
fn small(options: &Options, ghz: f64) {
    let mut rng = vectors::TestRng::new(2027);
    let sizes = [16usize, 32, 64, 128, 256];
    let fixed: Vec<(String, Vec<Vec<u8>>)> =
        sizes.iter().map(|&len| (format!("1024 x {len} B"), (0..1024).map(|_| rng.bytes(len)).collect())).collect();
    let kib: Vec<Vec<u8>> = (0..256).map(|_| rng.bytes(1024)).collect();
    let kib: Vec<&[u8]> = kib.iter().map(Vec::as_slice).collect();
    let mut offsets = vec![0i32];
    for _ in 0..1 << 20 {
        offsets.push(offsets[offsets.len() - 1] + rng.range(0..=200) as i32);
    }
    let values = rng.bytes(offsets[offsets.len() - 1] as usize);
    let column: Vec<&[u8]> = offsets.windows(2).map(|w| &values[w[0] as usize..w[1] as usize]).collect();
    let slices: Vec<(String, Vec<&[u8]>)> =
        fixed.iter().map(|(name, messages)| (name.clone(), messages.iter().map(Vec::as_slice).collect())).collect();

    let batch = ours::Batch::new();
    let mut cases = Vec::new();
    for (_, inputs) in &slices {
        let total = inputs.iter().map(|input| input.len()).sum();
        let mut out = vec![ours::Hash::from([0; 32]); inputs.len()];
        cases.push(Case::new("batch", total, move || {
            batch.hash_many(inputs, &mut out);
            consume(out[0]);
        }));
        cases.push(Case::new("official loop", total, move || {
            for input in inputs {
                consume(blake3::hash(input));
            }
        }));
    }
    let (column, values, offsets) = (&column, &values, &offsets);
    let mut column_out = vec![ours::Hash::from([0; 32]); column.len()];
    cases.push(Case::new("column batch", values.len(), move || {
        batch.hash_offsets(values, offsets, &mut column_out).expect("valid offsets");
        consume(column_out[0]);
    }));
    cases.push(Case::new("column official loop", values.len(), move || {
        for input in column {
            consume(blake3::hash(input));
        }
    }));
    let kib = &kib;
    let mut kib_out = vec![ours::Hash::from([0; 32]); kib.len()];
    cases.push(Case::new("256 x 1 KiB batch", 256 * 1024, move || {
        batch.hash_many(kib, &mut kib_out);
        consume(kib_out[0]);
    }));
    let timings = run_interleaved_on(options.clock, &mut cases, options.rounds, Duration::from_millis(30));
    let kib = &timings[timings.len() - 1];
    println!("\nsmall messages in one batch call, one thread (batch = chunkhash::blake3::Batch)");
    println!(
        "{:>22} | {:>11} {:>8} {:>6} | {:>11} {:>8} | {:>8}",
        "batch", "batch ns", "MB/s", "cpb", "official ns", "x offic.", "vs 1 KiB"
    );
    let names = slices.iter().map(|(name, _)| name.as_str()).chain(["1 M x 0..=200 B column"]);
    for (name, pair) in names.zip(timings.chunks(2)) {
        let (batch, official) = (&pair[0], &pair[1]);
        println!(
            "{:>22} | {:>11.0} {:>8.0} {:>6.3} | {:>11.0} {:>8.2} | {:>8.2}",
            name,
            batch.median_ns(),
            batch.mb_per_s(),
            batch.cycles_per_byte(ghz),
            official.median_ns(),
            median_ratio(official, batch),
            median_ratio(batch, kib) * kib.bytes as f64 / batch.bytes as f64,
        );
    }
    println!(
        "(vs 1 KiB: cost per byte over that of 256 x 1 KiB in the same batch API, {:.3} cpb, {:.0} MB/s)",
        kib.cycles_per_byte(ghz),
        kib.mb_per_s()
    );
}

/// One thread, in rounds of 2 ms per case: the median time of single calls
/// (each call timed alone, so time the thread spends preempted drops out),
/// and before each round the front end's speed: a loop of one taken branch
/// a cycle, which runs at the core clock when the thread has the core to
/// itself and at about half of it when the core's other hardware thread is
/// busy (the machine's other vCPU is not that thread: a VM does not see
/// it). Rounds are split into those two states, and each state's medians
/// printed per size: what the kernels do when they share the core.
fn contention(options: &Options) {
    let sizes = [4096usize, 8192, 16 << 10, 24 << 10, 64 << 10];
    let inputs: Vec<Vec<u8>> = sizes.iter().map(|&size| random_input(size, size as u64)).collect();
    let slice = Duration::from_millis(2);
    // Per round: the loop's speed in GHz, then per size ours and official.
    let mut rounds: Vec<(f64, Vec<[f64; 2]>)> = Vec::with_capacity(options.rounds);
    for _ in 0..options.rounds {
        let clock = (0..5)
            .map(|_| {
                let begin = std::time::Instant::now();
                spin_cycles(200_000);
                200_000.0 / begin.elapsed().as_nanos() as f64
            })
            .fold(0.0, f64::max);
        let times = inputs
            .iter()
            .map(|input| {
                let mut pair = [0.0; 2];
                for (side, median) in pair.iter_mut().enumerate() {
                    let mut calls = Vec::with_capacity(4096);
                    let begin = std::time::Instant::now();
                    while begin.elapsed() < slice {
                        let call = std::time::Instant::now();
                        if side == 0 {
                            consume(ours::hash(input));
                        } else {
                            consume(blake3::hash(input));
                        }
                        calls.push(call.elapsed().as_nanos() as f64);
                    }
                    *median = crate::median(&calls);
                }
                pair
            })
            .collect();
        rounds.push((clock, times));
    }
    let full = rounds.iter().map(|(clock, _)| *clock).fold(0.0, f64::max);
    println!("\ncalls timed one by one, 2 ms per case and round; front-end loop at most {full:.2} GHz");
    println!("{:>9} | {:>28} | {:>28}", "", "core to itself (loop >= 80%)", "core shared (loop < 80%)");
    println!(
        "{:>9} | {:>9} {:>9} {:>8} | {:>9} {:>9} {:>8}",
        "size", "ours ns", "official", "ratio", "ours ns", "official", "ratio"
    );
    let states: [Vec<&Vec<[f64; 2]>>; 2] = [
        rounds.iter().filter(|(clock, _)| *clock >= 0.8 * full).map(|(_, times)| times).collect(),
        rounds.iter().filter(|(clock, _)| *clock < 0.8 * full).map(|(_, times)| times).collect(),
    ];
    for (i, size) in sizes.iter().enumerate() {
        print!("{:>9}", format_size(*size));
        for state in &states {
            if state.is_empty() {
                print!(" | {:>28}", "no rounds");
                continue;
            }
            let ours: Vec<f64> = state.iter().map(|times| times[i][0]).collect();
            let official: Vec<f64> = state.iter().map(|times| times[i][1]).collect();
            let ratios: Vec<f64> = state.iter().map(|times| times[i][1] / times[i][0]).collect();
            print!(
                " | {:>9.0} {:>9.0} {:>8.2}",
                crate::median(&ours),
                crate::median(&official),
                crate::median(&ratios)
            );
        }
        println!();
    }
    println!("rounds: {} with the core to itself, {} shared", states[0].len(), states[1].len());
}

/// Inputs not in the caches: each call's input flushed from every cache
/// level first (`clflush`), the call timed alone; ours and the official
/// crate in turn, `--rounds` x 200 calls each, medians.
fn cold(options: &Options) {
    let sizes = [2048usize, 4096, 16 << 10, 64 << 10, 1 << 20];
    println!("\ninput flushed from the caches before each call; medians of single calls");
    println!("{:>9} | {:>11} {:>11} | {:>6}", "size", "ours ns", "official", "ratio");
    for size in sizes {
        let input = random_input(size, 5);
        let mut times = [Vec::new(), Vec::new()];
        for _ in 0..options.rounds {
            for (side, times) in times.iter_mut().enumerate() {
                for _ in 0..200 {
                    flush(&input);
                    let call = std::time::Instant::now();
                    if side == 0 {
                        consume(ours::hash(&input));
                    } else {
                        consume(blake3::hash(&input));
                    }
                    times.push(call.elapsed().as_nanos() as f64);
                }
            }
        }
        let (ours_ns, official_ns) = (crate::median(&times[0]), crate::median(&times[1]));
        println!("{:>9} | {:>11.0} {:>11.0} | {:>6.2}", format_size(size), ours_ns, official_ns, official_ns / ours_ns);
    }
}

#[cfg(target_arch = "x86_64")]
fn flush(bytes: &[u8]) {
    for line in bytes.chunks(64) {
        // SAFETY: clflush of an address inside a live slice; SSE2 is in the
        // x86_64 baseline.
        unsafe { core::arch::x86_64::_mm_clflush(line.as_ptr()) };
    }
    // SAFETY: a fence, no memory operands.
    unsafe { core::arch::x86_64::_mm_mfence() };
}

#[cfg(not(target_arch = "x86_64"))]
fn flush(_bytes: &[u8]) {}

fn rayon_threads() -> usize {
    std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1)
}

/// The official crate's kernels, as its dispatcher reports them (`AVX512`,
/// `AVX2`, ...).
pub fn official_kernels() -> String {
    format!("{:?}", blake3::platform::Platform::detect())
}

/// Runs the program: `name` for messages, the sections and `--rounds` from
/// the command line. With `backend`, chunkhash runs on it (unless
/// `CHUNKHASH_BACKEND` names another), so the one-shot `hash` is measured
/// as a dependent crate calls it.
pub fn main(name: &str, backend: Option<ours::Backend>) {
    let options = match parse_options() {
        Ok(options) => options,
        Err(error) => {
            eprintln!("{name}: {error}");
            std::process::exit(2);
        }
    };
    if let (Some(backend), None) = (backend, std::env::var_os("CHUNKHASH_BACKEND")) {
        // Read once, at chunkhash's first hash: before any thread starts.
        std::env::set_var("CHUNKHASH_BACKEND", backend.name());
    }
    let ghz = core_ghz_on(options.clock);
    println!(
        "chunkhash backend {}, official kernels {}, core clock {ghz:.2} GHz (measured), {} rounds, medians{}",
        ours::Backend::detect(),
        official_kernels(),
        options.rounds,
        if options.clock == Clock::ThreadCpu { ", thread CPU time" } else { "" }
    );
    for section in &options.sections {
        match section.as_str() {
            "single" => {
                single(&[64, 256, 1024, 4096, 16 << 10, 64 << 10, 1 << 20], &options, ghz, "one message, one thread")
            }
            "ragged" => single(&[3000, 3800, 4096, 6000], &options, ghz, "messages with a partial last chunk"),
            "parallel" => parallel(options.rounds, ghz),
            "batch" => batch(&options, ghz),
            "small" => small(&options, ghz),
            "contention" => contention(&options),
            "cold" => cold(&options),
            _ => unreachable!("sections are checked when parsed"),
        }
    }
}
