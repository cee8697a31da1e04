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
//! Arguments: message length in bytes, message count, rounds.

use chunkhash::blake3::{Batch, Hash};

fn main() {
    let args: Vec<usize> = std::env::args()
        .skip(1)
        .map(|arg| arg.parse().unwrap_or_else(|_| usage(&format!("not a number: {arg:?}"))))
        .collect();
    let [len, count, rounds] = args[..] else { usage("three arguments") };
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

fn usage(problem: &str) -> ! {
    eprintln!("batch_instructions: {problem}; usage: batch_instructions LEN COUNT ROUNDS");
    std::process::exit(2);
}
