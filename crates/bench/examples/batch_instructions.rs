//! A driver for instruction counts of the batch API under callgrind: hashes
//! one batch `rounds` times, so that the difference of two runs (say 20
//! rounds and 0) divided by the messages hashed is the cost per message,
//! repeatable on a loaded machine. The backend is the detected one, or
//! `CHUNKHASH_BACKEND` (callgrind runs no AVX-512: use `avx2asm`).
//!
//! ```text
//! cargo build --release -p chunkhash-bench --example batch_instructions
//! CHUNKHASH_BACKEND=avx2asm valgrind --tool=callgrind --callgrind-out-file=/dev/null \
//!     target/release/examples/batch_instructions 64 1024 20
//! ```
//!
//! Arguments: message length in bytes, message count, rounds; or `column`,
//! value count, rounds for a column (`Batch::hash_offsets`, `i32` offsets)
//! of values of pseudo-random length 0..=200.

use chunkhash::blake3::{Batch, Hash};

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().is_some_and(|arg| arg == "column") {
        args.remove(0);
        let [count, rounds] = numbers(&args)[..] else { usage("column needs two numbers") };
        return column(count, rounds);
    }
    let [len, count, rounds] = numbers(&args)[..] else { usage("three numbers") };
    // Any bytes will do: the work does not depend on them.
    let data: Vec<u8> = (0..len * count).map(|i| (i * 131 % 251) as u8).collect();
    let inputs: Vec<&[u8]> = data.chunks(len.max(1)).take(count).collect();
    let mut out = vec![Hash::from([0; 32]); inputs.len()];
    let batch = Batch::new();
    for _ in 0..rounds {
        batch.hash_many(std::hint::black_box(&inputs), &mut out);
        std::hint::black_box(&out);
    }
    let first = out.first().map(|hash| hash.to_hex().to_string()).unwrap_or_default();
    println!("{} x {len} B x {rounds} on {}: first {first}", inputs.len(), batch.backend());
}

/// `count` values of length 0..=200 from a fixed sequence, hashed `rounds` times.
fn column(count: usize, rounds: usize) {
    let mut state = 2027u64;
    let mut offsets = vec![0i32];
    for _ in 0..count {
        state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        offsets.push(offsets[offsets.len() - 1] + ((state >> 33) % 201) as i32);
    }
    let values: Vec<u8> = (0..offsets[count] as usize).map(|i| (i * 131 % 251) as u8).collect();
    let mut out = vec![Hash::from([0; 32]); count];
    let batch = Batch::new();
    for _ in 0..rounds {
        batch.hash_offsets(std::hint::black_box(&values), &offsets, &mut out).expect("valid offsets");
        std::hint::black_box(&out);
    }
    println!("column of {count} x 0..=200 B x {rounds} on {}", batch.backend());
}

fn numbers(args: &[String]) -> Vec<usize> {
    args.iter().map(|arg| arg.parse().unwrap_or_else(|_| usage(&format!("not a number: {arg:?}")))).collect()
}

fn usage(problem: &str) -> ! {
    eprintln!("batch_instructions: {problem}; usage: batch_instructions LEN COUNT ROUNDS");
    std::process::exit(2);
}
