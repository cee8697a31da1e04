//! chunkhash's XXH3 against the reference C xxHash, in one process,
//! interleaved (feature `c-xxhash`; `make bench-xxh3` installs Debian's
//! libxxhash-dev and runs this):
//!
//! - the detected kernel (AVX-512 on the project machine) against the C
//!   library's run-time dispatcher (`XXH3_64bits_dispatch`, what xxhsum
//!   runs) and against xxHash's header compiled with AVX-512 forced;
//! - chunkhash forced to AVX2 against the header compiled with AVX2 forced.
//!
//! At 16 B, 64 B, 240 B, 4 KiB, 64 KiB and 1 MiB, for XXH3-64 and XXH3-128.
//! Each size's cases run in the same rounds (each case's turn the fastest of
//! several sub-slices, `run_interleaved_best_of`: the machine is shared);
//! the table gives median GB/s
//! and the median of the per-round time ratios (C time / chunkhash time:
//! above 1 means chunkhash is faster). Every implementation is checked
//! against the others before anything is timed.
//!
//! Then, at 16, 64 and 240 B, the call-site shapes of issue 34 for both
//! libraries (the C is never inlined, so its shapes differ by the call
//! only): a tight loop calling `hash64` directly, an out-of-line function
//! called in a loop, a closure called through `&mut dyn FnMut` (how a hash
//! table's hasher or a callback runs), and `chunkhash::digest`, in ns per
//! call (each case runs the shape over a batch of calls).
//!
//! `--count IMPL:SHAPE:BITS:SIZE N` runs one shape N times and nothing else,
//! for exact instruction counts under callgrind (the machine is shared, so
//! wall-clock figures are noisy; instruction counts are not):
//!
//! ```sh
//! valgrind --tool=callgrind --toggle-collect='*shape_*' \
//!     target/release/xxh3_vs_c --count chunkhash:dyn:64:16 100000
//! ```
//!
//! ```sh
//! make bench-xxh3
//! cargo run --release -p chunkhash-bench --features c-xxhash --bin xxh3_vs_c -- --rounds 31
//! # Options: --rounds N (31), --slice-ms MS per case and round (10),
//! # --tries N sub-slices, the fastest kept (5), --sizes 16,64,4KiB,
//! # --shapes-only (the call-site table alone)
//! ```

use chunkhash::xxh3::{self, Kernel, Xxh3};
use chunkhash_bench::c_xxhash::{self, forced};
use chunkhash_bench::call_shapes::{shape_dyn, shape_loop};
use chunkhash_bench::{format_size, median_ratio, parse_size, random_input, run_interleaved_best_of, Case, Timing};
use std::hint::black_box;
use std::process::ExitCode;
use std::time::Duration;

const SIZES: [usize; 6] = [16, 64, 240, 4096, 64 * 1024, 1 << 20];

/// One implementation: its label and its hash as a 128-bit value (XXH3-64
/// widened), which is what is timed and compared.
type Hash = Box<dyn Fn(&[u8]) -> u128>;

struct Peer {
    label: &'static str,
    hash: Hash,
}

fn peer(label: &'static str, hash: impl Fn(&[u8]) -> u128 + 'static) -> Peer {
    Peer { label, hash: Box::new(hash) }
}

/// The columns of one algorithm, in table order; pairs compared are
/// (0, 1), (0, 2) and (3, 4).
fn peers(wide: bool) -> Vec<Peer> {
    let avx2 = Xxh3::new().with_kernel(Kernel::Avx2).expect("the CPU has AVX2");
    if wide {
        vec![
            peer("chunkhash", xxh3::hash128),
            peer("C dispatch", c_xxhash::xxh3_128),
            peer("C avx512", forced::avx512_xxh3_128),
            peer("chunkhash avx2", move |d| avx2.hash128(d)),
            peer("C avx2", forced::avx2_xxh3_128),
        ]
    } else {
        vec![
            peer("chunkhash", |d| u128::from(xxh3::hash64(d))),
            peer("C dispatch", |d| u128::from(c_xxhash::xxh3_64(d))),
            peer("C avx512", |d| u128::from(forced::avx512_xxh3_64(d))),
            peer("chunkhash avx2", move |d| u128::from(avx2.hash64(d))),
            peer("C avx2", |d| u128::from(forced::avx2_xxh3_64(d))),
        ]
    }
}

fn cross_check(peers: &[Peer]) -> Result<(), String> {
    let mut lengths: Vec<usize> = (0..=600).collect();
    lengths.extend([1023, 1024, 1025, 4096, 65536, 100_000, 1 << 20]);
    for &len in &lengths {
        let input = random_input(len, 0xC0FFEE ^ len as u64);
        let reference = (peers[0].hash)(&input);
        for other in &peers[1..] {
            if (other.hash)(&input) != reference {
                return Err(format!("{} disagrees with {} at length {len}", other.label, peers[0].label));
            }
        }
    }
    Ok(())
}

/// The command line: rounds, slice, tries, sizes, and whether only the
/// call-site table runs.
type Args = (usize, Duration, usize, Vec<usize>, bool);

fn parse_args() -> Result<Args, String> {
    let (mut rounds, mut slice_ms, mut tries, mut sizes) = (31usize, 10u64, 5usize, SIZES.to_vec());
    let mut shapes_only = false;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = || args.next().ok_or_else(|| format!("{arg} needs a value"));
        match arg.as_str() {
            "--rounds" => rounds = value()?.parse().map_err(|e| format!("--rounds: {e}"))?,
            "--slice-ms" => slice_ms = value()?.parse().map_err(|e| format!("--slice-ms: {e}"))?,
            "--tries" => tries = value()?.parse().map_err(|e| format!("--tries: {e}"))?,
            "--sizes" => sizes = value()?.split(',').map(parse_size).collect::<Result<_, _>>()?,
            "--shapes-only" => shapes_only = true,
            _ => {
                return Err(format!(
                "unknown argument {arg:?} (expected --rounds, --slice-ms, --tries, --sizes, --shapes-only or --count)"
            ))
            }
        }
    }
    if rounds == 0 || slice_ms == 0 || tries == 0 {
        return Err("--rounds, --slice-ms and --tries must be at least 1".into());
    }
    Ok((rounds, Duration::from_millis(slice_ms), tries, sizes, shapes_only))
}

fn gbps(timing: &Timing) -> f64 {
    timing.mb_per_s() / 1000.0
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("--count") {
        let [_, spec, calls] = &args[..] else {
            eprintln!("xxh3_vs_c: --count takes IMPL:SHAPE:BITS:SIZE and a number of calls");
            return ExitCode::from(2);
        };
        return match count(spec, calls) {
            Ok(()) => ExitCode::SUCCESS,
            Err(message) => {
                eprintln!("xxh3_vs_c: {message}");
                ExitCode::from(2)
            }
        };
    }
    let (rounds, slice, tries, sizes, shapes_only) = match parse_args() {
        Ok(args) => args,
        Err(message) => {
            eprintln!("xxh3_vs_c: {message}");
            return ExitCode::from(2);
        }
    };
    if !forced::avx2_supported() || !forced::avx512_supported() || Kernel::detect() != Kernel::Avx512 {
        eprintln!("xxh3_vs_c: needs a CPU with AVX2 and AVX-512F, and no CHUNKHASH_XXH3_KERNEL override");
        return ExitCode::from(2);
    }
    println!(
        "libxxhash {}, chunkhash kernel {}, {rounds} rounds of {slice:?} per case, the best of {tries} sub-slices each",
        c_xxhash::version(),
        Kernel::detect()
    );
    for (algorithm, wide) in [("XXH3-64", false), ("XXH3-128", true)] {
        let peers = peers(wide);
        if let Err(message) = cross_check(&peers) {
            eprintln!("xxh3_vs_c: {algorithm}: {message}");
            return ExitCode::FAILURE;
        }
        if shapes_only {
            continue;
        }
        println!("\n{algorithm}: GB/s (median), and C time / chunkhash time (median of per-round ratios)\n");
        println!("| size | chunkhash | C dispatch | ratio | C avx512 | ratio | chunkhash avx2 | C avx2 | ratio |");
        println!("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
        for &size in &sizes {
            let input = random_input(size, size as u64);
            let mut cases: Vec<Case<'_>> = peers
                .iter()
                .map(|peer| {
                    let input = &input;
                    Case::new(peer.label, size, move || {
                        black_box((peer.hash)(black_box(input)));
                    })
                })
                .collect();
            let t = run_interleaved_best_of(&mut cases, rounds, slice, tries);
            println!(
                "| {} | {:.1} | {:.1} | {:.3} | {:.1} | {:.3} | {:.1} | {:.1} | {:.3} |",
                format_size(size),
                gbps(&t[0]),
                gbps(&t[1]),
                median_ratio(&t[1], &t[0]),
                gbps(&t[2]),
                median_ratio(&t[2], &t[0]),
                gbps(&t[3]),
                gbps(&t[4]),
                median_ratio(&t[4], &t[3]),
            );
        }
    }
    shapes_table(rounds, slice, tries);
    ExitCode::SUCCESS
}

/// Calls per timed operation of a call-site shape, so that the harness's
/// own indirect call is a small part of each.
const SHAPE_BATCH: usize = 100;
/// The sizes of the call-site table (issue 34's short-input targets).
const SHAPE_SIZES: [usize; 3] = [16, 64, 240];
/// The call-site shapes, in table order.
const SHAPES: [&str; 4] = ["loop", "out-of-line", "dyn", "digest"];

/// The out-of-line functions: each kept a call away from its caller.
#[inline(never)]
fn chunkhash64(input: &[u8]) -> u64 {
    xxh3::hash64(input)
}

#[inline(never)]
fn chunkhash128(input: &[u8]) -> u128 {
    xxh3::hash128(input)
}

#[inline(never)]
fn c64(input: &[u8]) -> u64 {
    c_xxhash::xxh3_64(input)
}

#[inline(never)]
fn c128(input: &[u8]) -> u128 {
    c_xxhash::xxh3_128(input)
}

/// Runs `shape` of `library` ("chunkhash" or "C"), `calls` times on `input`;
/// false for a combination that does not exist (the C has no `digest`).
fn run_shape(library: &str, shape: &str, wide: bool, input: &[u8], calls: usize) -> bool {
    use chunkhash::{digest, Algorithm};
    match (library, shape, wide) {
        ("chunkhash", "loop", false) => shape_loop(xxh3::hash64, input, calls),
        ("chunkhash", "loop", true) => shape_loop(xxh3::hash128, input, calls),
        ("chunkhash", "out-of-line", false) => shape_loop(chunkhash64, input, calls),
        ("chunkhash", "out-of-line", true) => shape_loop(chunkhash128, input, calls),
        ("chunkhash", "dyn", false) => shape_dyn(&mut |d| xxh3::hash64(d), input, calls),
        ("chunkhash", "dyn", true) => shape_dyn(&mut |d| xxh3::hash128(d), input, calls),
        ("chunkhash", "digest", false) => shape_loop(|d| digest(Algorithm::Xxh3_64, d), input, calls),
        ("chunkhash", "digest", true) => shape_loop(|d| digest(Algorithm::Xxh3_128, d), input, calls),
        ("C", "loop", false) => shape_loop(c_xxhash::xxh3_64, input, calls),
        ("C", "loop", true) => shape_loop(c_xxhash::xxh3_128, input, calls),
        ("C", "out-of-line", false) => shape_loop(c64, input, calls),
        ("C", "out-of-line", true) => shape_loop(c128, input, calls),
        ("C", "dyn", false) => shape_dyn(&mut |d| c_xxhash::xxh3_64(d), input, calls),
        ("C", "dyn", true) => shape_dyn(&mut |d| c_xxhash::xxh3_128(d), input, calls),
        _ => return false,
    }
    true
}

/// `--count IMPL:SHAPE:BITS:SIZE N`: one shape, N calls, for callgrind.
fn count(spec: &str, calls: &str) -> Result<(), String> {
    let parts: Vec<&str> = spec.split(':').collect();
    let [library, shape, bits, size] = parts[..] else {
        return Err(format!("--count {spec:?}: expected IMPL:SHAPE:BITS:SIZE, as chunkhash:dyn:64:16"));
    };
    let wide = match bits {
        "64" => false,
        "128" => true,
        _ => return Err(format!("--count {spec:?}: BITS is 64 or 128")),
    };
    let size = parse_size(size)?;
    let calls: usize = calls.parse().map_err(|e| format!("--count: calls {calls:?}: {e}"))?;
    let input = random_input(size, size as u64);
    if run_shape(library, shape, wide, &input, calls) {
        Ok(())
    } else {
        Err(format!("--count {spec:?}: no such shape (IMPL chunkhash or C; SHAPE {SHAPES:?}; C has no digest)"))
    }
}

/// The call-site table: ns per call of each shape, chunkhash against the C
/// library's same shape (its loop for `digest`).
fn shapes_table(rounds: usize, slice: Duration, tries: usize) {
    for (algorithm, wide) in [("XXH3-64", false), ("XXH3-128", true)] {
        println!("\n{algorithm} by call-site shape: ns per call (median), and C time / chunkhash time\n");
        println!("| size | shape | chunkhash ns | C ns | ratio |");
        println!("| ---: | --- | ---: | ---: | ---: |");
        for size in SHAPE_SIZES {
            let input = random_input(size, size as u64);
            let mut cases = Vec::new();
            for shape in SHAPES {
                for library in ["chunkhash", "C"] {
                    let c_shape = if shape == "digest" { "loop" } else { shape };
                    let shape = if library == "C" { c_shape } else { shape };
                    let input = &input;
                    cases.push(Case::new(format!("{library} {shape}"), size * SHAPE_BATCH, move || {
                        run_shape(library, shape, wide, input, SHAPE_BATCH);
                    }));
                }
            }
            let t = run_interleaved_best_of(&mut cases, rounds, slice, tries);
            for (i, shape) in SHAPES.iter().enumerate() {
                let (ours, c) = (&t[2 * i], &t[2 * i + 1]);
                let per_call = |timing: &Timing| timing.median_ns() / SHAPE_BATCH as f64;
                println!(
                    "| {} | {shape} | {:.2} | {:.2} | {:.3} |",
                    format_size(size),
                    per_call(ours),
                    per_call(c),
                    median_ratio(c, ours)
                );
            }
        }
    }
}
