//! What the registry costs on a small input: for every algorithm, a
//! 64-byte input hashed by the chosen implementation called directly,
//! through `chunkhash::digest` with the algorithm known only at run time
//! (hidden from the optimiser, as when it comes from a config file or a
//! trailer), and through the trailer path (`trailer::seal`,
//! `trailer::verify`), against the direct call plus the trailer's mask
//! computed inline from its documented layout. Interleaved rounds, one
//! process; paired medians and the fastest round of each row.
//!
//! ```sh
//! cargo run --release -p chunkhash-bench --bin registry_tax -- --rounds 31
//! ```
//!
//! Options: `--rounds N` (default 21), `--slice-ms MS` (default 5),
//! `--sizes BYTES` (default 64; the first size). Timing on a shared machine is noisy, so
//! `--count ALGORITHM ROW N` instead runs one row N times and exits: under
//! `valgrind --tool=callgrind`, the difference of the instruction counts of
//! two values of N is the row's instructions per call, which no neighbour
//! disturbs (`scripts/registry_tax_instructions.sh` runs every row).

use chunkhash::{digest, trailer, Algorithm};
use chunkhash_bench::{median_ratio, random_input, run_interleaved, Case, Options, Timing};
use std::hint::black_box;
use std::process::ExitCode;
use std::time::Duration;

/// The two direct rows of `algorithm`, each a closure that calls the chosen
/// implementation itself (no dispatch): its natural result kept alive, and
/// its result as bytes (integers big-endian, as the registry stores them)
/// with the trailer's mask applied, as a trailer would hold it.
macro_rules! direct_cases {
    ($algorithm:expr, $input:expr, $size:expr, $context:expr, $($variant:ident => |$d:ident| $call:expr, |$r:ident| $bytes:expr;)*) => {
        match $algorithm {
            $(Algorithm::$variant => {
                let (input, id) = ($input, Algorithm::$variant.id());
                let check = |$d: &[u8]| { let $r = $call; $bytes.to_vec() };
                (
                    Case::new("direct", $size, move || {
                        let $d = black_box(input);
                        black_box($call);
                    }),
                    Case::new("direct + mask", $size, move || {
                        let $d = black_box(input);
                        let $r = $call;
                        let bytes: &[u8] = &$bytes;
                        let mut out = [0u8; 65];
                        out[0] = id;
                        out[1..1 + bytes.len()].copy_from_slice(bytes);
                        mask(&mut out[1..1 + bytes.len()], black_box($context), id);
                        black_box(out);
                    }),
                    check(input),
                )
            })*
            _ => unreachable!("an algorithm this benchmark does not know"),
        }
    };
}

/// The direct cases, and the direct result for the equality check.
fn direct<'a>(algorithm: Algorithm, input: &'a [u8], size: usize, context: u64) -> (Case<'a>, Case<'a>, Vec<u8>) {
    use sha2::Digest as _;
    direct_cases! { algorithm, input, size, context,
        Blake3 => |d| chunkhash::blake3::hash(d), |r| r.as_bytes()[..];
        Blake3_160 => |d| chunkhash::blake3::address(d), |r| r.as_bytes()[..];
        Xxh3_64 => |d| chunkhash::xxh3::hash64(d), |r| r.to_be_bytes();
        Xxh3_128 => |d| chunkhash::xxh3::hash128(d), |r| r.to_be_bytes();
        Xxh64 => |d| chunkhash::xxh64::hash(d), |r| r.to_be_bytes();
        Xxh32 => |d| twox_hash::XxHash32::oneshot(0, d), |r| r.to_be_bytes();
        Crc32c => |d| chunkhash::crc::crc32c(d), |r| r.to_be_bytes();
        Blake2b512 => |d| blake2b_simd::blake2b(d), |r| r.as_bytes()[..];
        Blake2b256 => |d| blake2b_simd::Params::new().hash_length(32).hash(d), |r| r.as_bytes()[..];
        Sha256 => |d| sha2::Sha256::digest(d), |r| r[..];
        Sha512 => |d| sha2::Sha512::digest(d), |r| r[..];
        Sha512_160 => |d| sha2::Sha512::digest(d), |r| r[..20];
        Crc32 => |d| chunkhash::crc::crc32(d), |r| r.to_be_bytes();
        Crc64Nvme => |d| chunkhash::crc::crc64_nvme(d), |r| r.to_be_bytes();
        Md5 => |d| md5::Md5::digest(d), |r| r[..];
        Sha1 => |d| sha1::Sha1::digest(d), |r| r[..];
    }
}

/// The trailer's mask XORed in, from the layout documented in
/// `chunkhash::trailer` (SplitMix64 words, little-endian).
fn mask(checksum: &mut [u8], context: u64, id: u8) {
    const GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut state = context ^ u64::from(id).wrapping_mul(GAMMA);
    for chunk in checksum.chunks_mut(8) {
        state = state.wrapping_add(GAMMA);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        for (byte, m) in chunk.iter_mut().zip((z ^ (z >> 31)).to_le_bytes()) {
            *byte ^= m;
        }
    }
}

/// The five rows of one algorithm, in the table's order.
fn cases<'a>(algorithm: Algorithm, input: &'a [u8], trailer_bytes: &'a [u8], context: u64) -> Vec<Case<'a>> {
    let size = input.len();
    let (direct_case, masked_case, _) = direct(algorithm, input, size, context);
    vec![
        direct_case,
        Case::new("digest", size, move || {
            black_box(digest(black_box(algorithm), black_box(input)));
        }),
        Case::new("seal", size, move || {
            black_box(trailer::seal(black_box(input), black_box(algorithm), black_box(context)));
        }),
        masked_case,
        Case::new("verify", size, move || {
            black_box(trailer::verify(black_box(input), black_box(trailer_bytes), black_box(context))).ok();
        }),
    ]
}

/// `--count ALGORITHM ROW N`.
fn count(args: &[String], input: &[u8], context: u64) -> Result<(), String> {
    let [algorithm, row, n] = args else { return Err("--count takes ALGORITHM ROW N".into()) };
    let algorithm: Algorithm = algorithm.parse().map_err(|e| format!("{e}"))?;
    let n: u64 = n.parse().map_err(|e| format!("--count N: {e}"))?;
    let sealed = trailer::seal(input, algorithm, context);
    let mut cases = cases(algorithm, input, sealed.as_bytes(), context);
    let case = cases.iter_mut().find(|c| c.name == *row).ok_or_else(|| format!("no row {row:?}"))?;
    for _ in 0..n {
        (case.run)();
    }
    Ok(())
}

fn best(timing: &Timing) -> f64 {
    timing.rounds_ns.iter().copied().fold(f64::INFINITY, f64::min)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("--count") {
        return match count(&args[1..], &random_input(64, 64), 0x0123_4567_89AB_CDEF) {
            Ok(()) => ExitCode::SUCCESS,
            Err(message) => {
                eprintln!("registry_tax: {message}");
                ExitCode::from(2)
            }
        };
    }
    let defaults = Options { rounds: 21, slice: Duration::from_millis(5), sizes: vec![64], only: String::new() };
    let Options { rounds, slice, sizes, .. } =
        match Options::parse(args, defaults, &["--rounds", "--slice-ms", "--sizes"]) {
            Ok(options) => options,
            Err(message) => {
                eprintln!("registry_tax: {message}");
                return ExitCode::from(2);
            }
        };
    let size = sizes[0];
    let input = random_input(size, 64);
    let context = 0x0123_4567_89AB_CDEFu64;
    // The direct rows must give what the registry gives, or the comparison
    // is meaningless.
    for &algorithm in Algorithm::all() {
        if direct(algorithm, &input, size, context).2 != digest(algorithm, &input).as_bytes() {
            eprintln!("registry_tax: the direct call of {algorithm} disagrees with the registry");
            return ExitCode::FAILURE;
        }
    }
    println!(
        "# registry tax at {size} B: {rounds} rounds x {} ms per case; ratios to the direct call",
        slice.as_millis()
    );
    println!("# (paired median / fastest round); at most 1.10 is the target for digest");
    println!();
    println!(
        "| algorithm | direct ns (median / best) | digest | seal | direct + mask | seal vs direct + mask | verify |"
    );
    println!("| --- | ---: | ---: | ---: | ---: | ---: | ---: |");
    for &algorithm in Algorithm::all() {
        let sealed = trailer::seal(&input, algorithm, context);
        let (input, trailer_bytes) = (&input, sealed.as_bytes());
        let mut cases = cases(algorithm, input, trailer_bytes, context);
        let t = run_interleaved(&mut cases, rounds, slice);
        let ratio = |a: &Timing, b: &Timing| format!("{:.2} / {:.2}", median_ratio(a, b), best(a) / best(b));
        println!(
            "| {algorithm} | {:.1} / {:.1} | {} | {} | {} | {} | {} |",
            t[0].median_ns(),
            best(&t[0]),
            ratio(&t[1], &t[0]),
            ratio(&t[2], &t[0]),
            ratio(&t[3], &t[0]),
            ratio(&t[2], &t[3]),
            ratio(&t[4], &t[3]),
        );
    }
    ExitCode::SUCCESS
}
