//! `chunkhash s3sum --part-size`'s two ways through a file, in one process:
//! the parts in order (`S3Hasher::with_part_size` fed 4 MiB reads, as
//! s3sum reads a pipe, and read every file before issue 34) against the
//! parts side by side (`multipart_sums_at` with `read_exact_at`, as s3sum
//! reads a regular file now: 16 parts at a time, MD5, SHA-1, SHA-256 and
//! SHA-512 in SIMD lanes or interleaved SHA-NI streams), for
//! all ten kinds and for the ETag alone; and one MD5 stream over the whole
//! file (md5sum's work, through `md-5`) as the single-stream anchor.
//! Interleaved rounds, medians, page cache warm (a warm-up round first);
//! every row's values are checked equal before timing.
//!
//! ```sh
//! cargo run --release -p chunkhash-bench --bin s3_parts_side_by_side -- FILE [--rounds 5] [--part-size 8388608]
//! ```
//!
//! The "x in order" column is the paired median of the in-order time over
//! the row's, for the same kinds (the anchor row: over all ten in order).

use chunkhash::s3_checksums::{multipart_sums_at, S3Checksum, S3Hasher, S3Sums};
use chunkhash::{Algorithm, StreamingHasher};
use chunkhash_bench::{core_ghz, median_paired_ratio, run_interleaved, Case};
use std::fs::File;
use std::hint::black_box;
use std::io::Read;
use std::num::NonZeroU64;
use std::os::unix::fs::FileExt;
use std::process::ExitCode;
use std::time::Duration;

/// s3sum's read size.
const BUFFER: usize = 4 << 20;

/// The file from start to end, `BUFFER` bytes a read, each read to `each`.
fn read_in_order(path: &str, mut each: impl FnMut(&[u8])) {
    let mut file = File::open(path).expect("readable");
    let mut buffer = vec![0u8; BUFFER];
    loop {
        let n = file.read(&mut buffer).expect("readable");
        if n == 0 {
            break;
        }
        each(&buffer[..n]);
    }
}

/// The parts in order, as s3sum reads a pipe.
fn in_order(path: &str, kinds: &[S3Checksum], part_size: u64) -> S3Sums {
    let mut hasher = S3Hasher::with_part_size(kinds, part_size).expect("not 0");
    read_in_order(path, |piece| {
        hasher.update(piece);
    });
    hasher.finalize()
}

/// The parts side by side, as s3sum reads a regular file.
fn side_by_side(path: &str, kinds: &[S3Checksum], part_size: u64) -> S3Sums {
    let file = File::open(path).expect("readable");
    let len = file.metadata().expect("readable").len();
    let part_size = NonZeroU64::new(part_size).expect("not 0");
    multipart_sums_at(kinds, part_size, len, |offset, buffer| file.read_exact_at(buffer, offset)).expect("readable")
}

/// The MD5 of the whole file, one stream (md5sum's work).
fn one_md5(path: &str) -> Vec<u8> {
    let mut hasher = StreamingHasher::new(Algorithm::Md5);
    read_in_order(path, |piece| {
        hasher.update(piece);
    });
    hasher.finalize().as_bytes().to_vec()
}

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let (mut path, mut rounds, mut part_size) = (None, 5, 8u64 << 20);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--rounds" => rounds = args.next().and_then(|v| v.parse().ok()).unwrap_or(0),
            "--part-size" => part_size = args.next().and_then(|v| v.parse().ok()).unwrap_or(0),
            _ => path = Some(arg),
        }
    }
    let Some(path) = path.filter(|_| rounds > 0 && part_size > 0) else {
        eprintln!("usage: s3_parts_side_by_side FILE [--rounds N] [--part-size BYTES]");
        return ExitCode::from(2);
    };
    let len = match std::fs::metadata(&path) {
        Ok(metadata) => metadata.len() as usize,
        Err(error) => {
            eprintln!("s3_parts_side_by_side: {path}: {error}");
            return ExitCode::FAILURE;
        }
    };
    let all = S3Checksum::ALL;
    // No kind asked for: the ETag alone (S3Hasher always computes it).
    let etag: &[S3Checksum] = &[];
    for kinds in [&all[..], etag] {
        if in_order(&path, kinds, part_size) != side_by_side(&path, kinds, part_size) {
            eprintln!("s3_parts_side_by_side: the two ways disagree on {path}");
            return ExitCode::FAILURE;
        }
    }
    let path = path.as_str();
    let mut cases = vec![
        Case::new("all ten + ETag, parts in order", len, move || drop(black_box(in_order(path, &all, part_size)))),
        Case::new("all ten + ETag, parts side by side", len, move || {
            drop(black_box(side_by_side(path, &all, part_size)))
        }),
        Case::new("ETag alone, parts in order", len, move || drop(black_box(in_order(path, etag, part_size)))),
        Case::new("ETag alone, parts side by side", len, move || drop(black_box(side_by_side(path, etag, part_size)))),
        Case::new("one MD5 stream over the file (md-5)", len, move || drop(black_box(one_md5(path)))),
    ];
    let ghz = core_ghz();
    println!(
        "# {path}: {len} bytes, parts of {part_size}; {rounds} rounds interleaved, medians; core clock {ghz:.2} GHz; MD5 kernel {}",
        chunkhash::multi_buffer::MbKernel::detect()
    );
    println!("# values of both ways checked equal (all ten kinds, and the ETag alone) before timing");
    println!();
    println!("| case | s | GB/s | cycles/byte | x in order (paired median) |");
    println!("| --- | ---: | ---: | ---: | ---: |");
    let timings = run_interleaved(&mut cases, rounds, Duration::from_millis(1));
    for (i, timing) in timings.iter().enumerate() {
        // Rows 1 and 3 against the in-order row of their kinds; the anchor against all ten in order.
        let anchor = &timings[match i {
            2 | 3 => 2,
            _ => 0,
        }];
        println!(
            "| {} | {:.2} | {:.2} | {:.2} | {:.2} |",
            timing.name,
            timing.median_ns() / 1e9,
            timing.mb_per_s() / 1000.0,
            timing.cycles_per_byte(ghz),
            median_paired_ratio(&anchor.rounds_ns, &timing.rounds_ns)
        );
    }
    ExitCode::SUCCESS
}
