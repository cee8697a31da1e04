//! Each chunker kernel this build runs against the portable one, for
//! targets where `crates/bench` does not build (wasm32-wasip1 under Node:
//! its peers and its store need threads and files). FastCDC 2020 at
//! 16/64/256 KiB and 2/8/64 KiB (normalization level 1) and Xet's chunker,
//! on random and text-like data; interleaved rounds in one process, each
//! row timed for about 100 ms a round, and the ratio reported is the median
//! of the per-round ratios to the portable kernel. Before timing, every
//! kernel's cut points are checked equal to the portable kernel's.
//!
//! ```sh
//! RUSTFLAGS='-C target-feature=+simd128' cargo build --release -p chunkhash \
//!     --example cdc_kernel_speed --target wasm32-wasip1 --target-dir target/cross-simd128
//! node scripts/wasi-run.mjs target/cross-simd128/wasm32-wasip1/release/examples/cdc_kernel_speed.wasm [MiB] [rounds]
//! ```
//!
//! Wall-clock time (WASI has no thread CPU clock): on a shared machine,
//! compare the ratios, not the MB/s.

use chunkhash::cdc::{Cdc, CdcKernel, Normalization};
use std::hint::black_box;
use std::time::{Duration, Instant};

/// Seeded bytes: the same inputs on every run.
fn random_input(len: usize, seed: u64) -> Vec<u8> {
    vectors::TestRng::new(seed).bytes(len)
}

/// Words, spaces and newlines: text's byte histogram and low entropy.
fn text_input(len: usize, seed: u64) -> Vec<u8> {
    const WORDS: [&[u8]; 12] = [
        b"the ",
        b"chunk ",
        b"of ",
        b"data\n",
        b"store ",
        b"hash ",
        b"gear ",
        b"a ",
        b"window ",
        b"content ",
        b"defined ",
        b"rolling ",
    ];
    let picks = random_input(len / 2 + 16, seed);
    let mut out = Vec::with_capacity(len + 16);
    for pick in picks {
        if out.len() >= len {
            break;
        }
        out.extend_from_slice(WORDS[pick as usize % WORDS.len()]);
    }
    out.truncate(len);
    out
}

/// Calls of `cdc.chunks(data)` for about `budget`; bytes per second.
fn throughput(cdc: Cdc, data: &[u8], budget: Duration) -> f64 {
    let start = Instant::now();
    let mut runs = 0u32;
    while runs == 0 || start.elapsed() < budget {
        black_box(cdc.chunks(black_box(data)).count());
        runs += 1;
    }
    f64::from(runs) * data.len() as f64 / start.elapsed().as_secs_f64()
}

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

fn main() {
    let mut args = std::env::args().skip(1);
    let mib: usize = args.next().map_or(16, |a| a.parse().expect("MiB: a number"));
    let rounds: usize = args.next().map_or(11, |a| a.parse().expect("rounds: a number"));
    let kernels: Vec<CdcKernel> = CdcKernel::all().iter().copied().filter(|k| k.is_supported()).collect();
    println!("# {mib} MiB, {rounds} rounds, kernels {kernels:?}, detected {}", CdcKernel::detect());
    let fastcdc = |min: usize, avg: usize, max: usize| {
        Cdc::fastcdc(min << 10, avg << 10, max << 10, Normalization::Level1).expect("valid sizes")
    };
    let configurations = [
        ("fastcdc 16/64/256 KiB", fastcdc(16, 64, 256)),
        ("fastcdc 2/8/64 KiB", fastcdc(2, 8, 64)),
        ("xet", Cdc::xet()),
    ];
    let inputs = [("random", random_input(mib << 20, 1)), ("text", text_input(mib << 20, 2))];
    for (config_name, cdc) in configurations {
        for (input_name, data) in &inputs {
            let on = |kernel: CdcKernel| cdc.with_kernel(kernel).expect("a supported kernel");
            let expected: Vec<_> = on(CdcKernel::Portable).chunks(data).collect();
            for &kernel in &kernels {
                assert!(on(kernel).chunks(data).eq(expected.iter().copied()), "{kernel}: other cut points");
            }
            let mut speeds = vec![Vec::new(); kernels.len()];
            let mut ratios = vec![Vec::new(); kernels.len()];
            for _ in 0..rounds {
                let round: Vec<f64> =
                    kernels.iter().map(|&k| throughput(on(k), data, Duration::from_millis(100))).collect();
                for (i, speed) in round.iter().enumerate() {
                    speeds[i].push(*speed);
                    ratios[i].push(speed / round[0]);
                }
            }
            for (i, kernel) in kernels.iter().enumerate() {
                println!(
                    "{config_name:22} {input_name:6} {kernel:8} {:8.0} MB/s  {:.3}x portable ({} chunks)",
                    median(speeds[i].clone()) / 1e6,
                    median(ratios[i].clone()),
                    expected.len()
                );
            }
        }
    }
}
