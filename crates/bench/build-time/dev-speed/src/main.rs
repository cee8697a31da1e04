//! `dev-speed [MIB] [ROUNDS]`: hashes one MIB-MiB buffer (default 64) with
//! each implementation in turn, ROUNDS times (default 5), and prints each
//! one's median throughput and its ratio to the reference. Build it with
//! `cargo build` (the dev profile) to measure what a build script gets.
//! Every implementation's hash is first checked against the official crate's
//! at lengths around the chunk and tree boundaries.
//!
//! `dev-speed one NAME KIB` hashes KIB KiB once with one implementation, for
//! counting instructions: `valgrind --tool=callgrind
//! --toggle-collect='*with_NAME*' dev-speed one NAME KIB`.

use std::time::Instant;

type HashFn = fn(&[u8]) -> [u8; 32];

fn with_chunkhash(data: &[u8]) -> [u8; 32] {
    *chunkhash::blake3::hash(data).as_bytes()
}

fn with_blake3(data: &[u8]) -> [u8; 32] {
    *blake3::hash(data).as_bytes()
}

fn with_reference(data: &[u8]) -> [u8; 32] {
    blake3_reference::hash(data)
}

const IMPLEMENTATIONS: [(&str, HashFn); 3] =
    [("chunkhash", with_chunkhash), ("blake3", with_blake3), ("reference", with_reference)];

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

const SEED: u64 = 0x9E37_79B9_7F4A_7C15;

/// A fixed, non-repeating pattern (xorshift from `SEED`).
fn pattern(len: usize) -> Vec<u8> {
    let mut x = SEED;
    (0..len)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x as u8
        })
        .collect()
}

fn main() {
    let mut args = std::env::args().skip(1).peekable();
    if args.peek().map(String::as_str) == Some("one") {
        let name = args.nth(1).expect("usage: dev-speed one NAME KIB");
        let kib: usize = args.next().expect("usage: dev-speed one NAME KIB").parse().expect("KIB: a number");
        let (_, f) = IMPLEMENTATIONS.iter().find(|(n, _)| *n == name).expect("NAME: chunkhash, blake3 or reference");
        let data = pattern(kib << 10);
        println!("{name} {kib} KiB {:02x?}", &std::hint::black_box(f(&data))[..8]);
        return;
    }
    let mib: usize = args.next().map_or(64, |a| a.parse().expect("MIB: a number"));
    let rounds: usize = args.next().map_or(5, |a| a.parse().expect("ROUNDS: a number"));
    let seed = SEED;
    let data = pattern(mib << 20);

    for len in [0, 1, 64, 65, 1023, 1024, 1025, 2048, 3072, 3073, 8193, 65536, 100_001, data.len()] {
        let want = with_blake3(&data[..len]);
        for (name, f) in IMPLEMENTATIONS {
            assert_eq!(f(&data[..len]), want, "{name} differs from blake3 at length {len}");
        }
    }

    let mut gbps = vec![Vec::new(); IMPLEMENTATIONS.len()];
    for _ in 0..rounds {
        for (i, (_, f)) in IMPLEMENTATIONS.iter().enumerate() {
            let start = Instant::now();
            std::hint::black_box(f(std::hint::black_box(&data)));
            gbps[i].push(data.len() as f64 / start.elapsed().as_secs_f64() / 1e9);
        }
    }
    let reference = median(gbps[2].clone());
    println!(
        "# {mib} MiB, {rounds} interleaved rounds, seed {seed:#x}, chunkhash backend {}",
        chunkhash::Backend::detect()
    );
    println!("# implementation, median GB/s, per round, vs reference");
    for (i, (name, _)) in IMPLEMENTATIONS.iter().enumerate() {
        let listed: Vec<String> = gbps[i].iter().map(|g| format!("{g:.3}")).collect();
        let m = median(gbps[i].clone());
        println!("{name} {m:.3} [{}] {:.1}x", listed.join(" "), m / reference);
    }
}
