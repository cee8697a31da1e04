//! chunkhash's multi-buffer kernels (many messages across SIMD lanes)
//! against a loop over the one-message crates they must beat: MD5 on 16
//! parts of 8 MiB (an S3 multipart upload's part checksums) against a loop
//! over `md-5`, and the same fed in 1 MiB pieces, every part's next piece
//! in turn (chunkhash's MD5, SHA-1, SHA-256 and SHA-512 streams against
//! one `md-5`, `sha1` or `sha2` hasher per part);
//! SHA-512 on batches of 1024 x 64 B, 256 x 1 KiB and
//! 64 x 4 KiB against a loop over `sha2`; SHA-1 on 256 x 1 KiB and 16 x
//! 8 MiB against a loop over `sha1` (SHA-NI where the CPU has it). Each kernel forced by name, and
//! the detected one.
//! Interleaved rounds, medians, one process; before timing every row is
//! checked equal to the loop.
//!
//! ```sh
//! cargo run --release -p chunkhash-bench --bin multi_buffer_vs_loop -- --rounds 9
//! ```
//!
//! Options: `--rounds N` (default 9), `--slice-ms MS` (default 400),
//! `--only NAME` (the batches whose label contains it: `md5`, `sha-512`, `sha-1`, `streams`). The
//! "x loop" column is the paired median of the loop's time over the row's:
//! above 1.00 the row is faster.

use chunkhash::multi_buffer::{self, MbKernel, MbKernelError};
use chunkhash_bench::{core_ghz, format_size, median_ratio, random_input, run_interleaved, Case, Options};
use std::hint::black_box;
use std::process::ExitCode;
use std::time::Duration;

/// A batch hasher: every message's digest, concatenated.
type Hash<'a> = Box<dyn Fn(&[&[u8]]) -> Vec<u8> + 'a>;

/// One benchmark: a batch shape and the implementations to time on it,
/// the loop over the one-message crate first.
struct Batch<'a> {
    label: String,
    count: usize,
    len: usize,
    rows: Vec<(String, Hash<'a>)>,
}

/// chunkhash's multi-buffer call on a kernel (`None`: the detected one).
type ManyOn<const N: usize> = fn(Option<MbKernel>, &[&[u8]], &mut [[u8; N]]) -> Result<(), MbKernelError>;

/// The rows of one algorithm: the loop over `one` (labelled `anchor`),
/// then chunkhash on the detected kernel and on each SIMD kernel forced.
fn rows<'a, const N: usize>(anchor: &str, one: fn(&[u8]) -> [u8; N], many_on: ManyOn<N>) -> Vec<(String, Hash<'a>)> {
    let mut rows: Vec<(String, Hash<'a>)> =
        vec![(format!("loop over {anchor}"), Box::new(move |messages| messages.iter().flat_map(|m| one(m)).collect()))];
    let on = |kernel: Option<MbKernel>| -> Hash<'a> {
        Box::new(move |messages| {
            let mut out = vec![[0; N]; messages.len()];
            many_on(kernel, messages, &mut out).expect("a supported kernel");
            out.concat()
        })
    };
    rows.push((format!("chunkhash detected ({})", MbKernel::detect()), on(None)));
    for &kernel in MbKernel::all().iter().filter(|k| k.is_supported() && **k != MbKernel::Portable) {
        rows.push((format!("chunkhash {kernel}"), on(Some(kernel))));
    }
    rows
}

fn md5_rows<'a>() -> Vec<(String, Hash<'a>)> {
    use md5::Digest as _;
    rows("md-5", |m| md5::Md5::digest(m).into(), multi_buffer::md5_many_on)
}

/// The piece size of the streaming rows: a read-ahead buffer's worth.
const PIECE_LEN: usize = 1 << 20;

/// How many pieces the longest message takes.
fn rounds(messages: &[&[u8]]) -> usize {
    messages.iter().map(|m| m.len().div_ceil(PIECE_LEN)).max().unwrap_or(0)
}

/// Piece `round` of `message` (empty past its end).
fn piece(message: &[u8], round: usize) -> &[u8] {
    let start = (round * PIECE_LEN).min(message.len());
    &message[start..(start + PIECE_LEN).min(message.len())]
}

/// chunkhash's streams of one algorithm (`multi_buffer::Md5Streams`, ...).
trait Streams {
    fn update(&mut self, pieces: &[&[u8]]);
    /// Every message's digest, concatenated.
    fn digests(&self) -> Vec<u8>;
}

macro_rules! streams {
    ($name:ident, $out:literal) => {
        impl Streams for multi_buffer::$name {
            fn update(&mut self, pieces: &[&[u8]]) {
                multi_buffer::$name::update(self, pieces);
            }

            fn digests(&self) -> Vec<u8> {
                let mut out = vec![[0; $out]; self.count()];
                self.finalize(&mut out);
                out.concat()
            }
        }
    };
}

streams!(Md5Streams, 16);
streams!(Sha1Streams, 20);
streams!(Sha256Streams, 32);
streams!(Sha512Streams, 64);

/// Makes `count` streams on one kernel.
type MakeStreams<'a, S> = Box<dyn Fn(usize) -> S + 'a>;

/// Messages fed in `PIECE_LEN` pieces, every message's next piece in turn
/// (as parts read side by side): one `H` hasher per message (labelled
/// `anchor`), against chunkhash's streams on each of `kernels`.
fn stream_rows<'a, H: sha2::Digest + Clone, S: Streams + 'a>(
    anchor: &str,
    kernels: Vec<(String, MakeStreams<'a, S>)>,
) -> Vec<(String, Hash<'a>)> {
    let mut rows: Vec<(String, Hash<'a>)> = vec![(
        format!("loop over {anchor} hashers"),
        Box::new(move |messages| {
            let mut hashers = vec![H::new(); messages.len()];
            for round in 0..rounds(messages) {
                for (hasher, message) in hashers.iter_mut().zip(messages) {
                    hasher.update(piece(message, round));
                }
            }
            hashers.into_iter().flat_map(|h| h.finalize().to_vec()).collect()
        }),
    )];
    for (label, make) in kernels {
        rows.push((
            label,
            Box::new(move |messages| {
                let mut streams = make(messages.len());
                for round in 0..rounds(messages) {
                    let pieces: Vec<&[u8]> = messages.iter().map(|m| piece(m, round)).collect();
                    streams.update(&pieces);
                }
                streams.digests()
            }),
        ));
    }
    rows
}

/// The detected multi-buffer kernel and each SIMD one forced, as streams
/// of `new_on`.
fn mb_stream_kernels<'a, S: 'a>(
    new_on: fn(Option<MbKernel>, usize) -> Result<S, MbKernelError>,
) -> Vec<(String, MakeStreams<'a, S>)> {
    let kernels = std::iter::once(None)
        .chain(MbKernel::all().iter().filter(|k| k.is_supported() && **k != MbKernel::Portable).map(|&k| Some(k)));
    kernels
        .map(|kernel| {
            let label = match kernel {
                None => format!("chunkhash streams detected ({})", MbKernel::detect()),
                Some(kernel) => format!("chunkhash streams {kernel}"),
            };
            let make: MakeStreams<'a, S> = Box::new(move |count| new_on(kernel, count).expect("a supported kernel"));
            (label, make)
        })
        .collect()
}

fn md5_stream_rows<'a>() -> Vec<(String, Hash<'a>)> {
    stream_rows::<md5::Md5, _>("md-5", mb_stream_kernels(multi_buffer::Md5Streams::new_on))
}

fn sha1_stream_rows<'a>() -> Vec<(String, Hash<'a>)> {
    stream_rows::<sha1::Sha1, _>("sha1", mb_stream_kernels(multi_buffer::Sha1Streams::new_on))
}

fn sha512_stream_rows<'a>() -> Vec<(String, Hash<'a>)> {
    stream_rows::<sha2::Sha512, _>("sha2", mb_stream_kernels(multi_buffer::Sha512Streams::new_on))
}

/// SHA-256 streams on the detected kernel and each SHA-256 kernel forced.
fn sha256_stream_rows<'a>() -> Vec<(String, Hash<'a>)> {
    let kernels = ["", "shani", "avx2", "avx512"]
        .into_iter()
        .filter(|name| multi_buffer::Sha256Streams::new_on(name, 0).is_some())
        .map(|name| {
            let label =
                if name.is_empty() { "chunkhash streams detected".into() } else { format!("chunkhash streams {name}") };
            let make: MakeStreams<'a, multi_buffer::Sha256Streams> =
                Box::new(move |count| multi_buffer::Sha256Streams::new_on(name, count).expect("a supported kernel"));
            (label, make)
        })
        .collect();
    stream_rows::<sha2::Sha256, _>("sha2", kernels)
}

fn sha1_rows<'a>() -> Vec<(String, Hash<'a>)> {
    use sha1::Digest as _;
    rows("sha1", |m| sha1::Sha1::digest(m).into(), multi_buffer::sha1_many_on)
}

fn sha512_rows<'a>() -> Vec<(String, Hash<'a>)> {
    use sha2::Digest as _;
    rows("sha2", |m| sha2::Sha512::digest(m).into(), multi_buffer::sha512_many_on)
}

fn main() -> ExitCode {
    let defaults = Options { rounds: 9, slice: Duration::from_millis(400), sizes: vec![1], only: String::new() };
    let Options { rounds, slice, only, .. } =
        match Options::parse(std::env::args().skip(1), defaults, &["--rounds", "--slice-ms", "--only"]) {
            Ok(options) => options,
            Err(message) => {
                eprintln!("multi_buffer_vs_loop: {message}");
                return ExitCode::from(2);
            }
        };
    let batches: Vec<Batch> = vec![
        Batch { label: "MD5".into(), count: 16, len: 8 << 20, rows: md5_rows() },
        Batch { label: "MD5 streams, 1 MiB pieces".into(), count: 16, len: 8 << 20, rows: md5_stream_rows() },
        Batch { label: "SHA-1 streams, 1 MiB pieces".into(), count: 16, len: 8 << 20, rows: sha1_stream_rows() },
        Batch { label: "SHA-256 streams, 1 MiB pieces".into(), count: 16, len: 8 << 20, rows: sha256_stream_rows() },
        Batch { label: "SHA-512 streams, 1 MiB pieces".into(), count: 16, len: 8 << 20, rows: sha512_stream_rows() },
        Batch { label: "SHA-512".into(), count: 1024, len: 64, rows: sha512_rows() },
        Batch { label: "SHA-512".into(), count: 256, len: 1024, rows: sha512_rows() },
        Batch { label: "SHA-512".into(), count: 64, len: 4096, rows: sha512_rows() },
        Batch { label: "SHA-1".into(), count: 256, len: 1024, rows: sha1_rows() },
        Batch { label: "SHA-1".into(), count: 16, len: 8 << 20, rows: sha1_rows() },
    ]
    .into_iter()
    .filter(|batch| batch.label.to_ascii_lowercase().contains(&only))
    .collect();
    println!(
        "# multi-buffer kernels: {rounds} rounds x {} ms per case, medians; core clock {:.2} GHz; kernel detected: {}",
        slice.as_millis(),
        core_ghz(),
        MbKernel::detect()
    );
    println!("# every row checked equal to the loop on the timed batch and on mixed lengths before timing");
    println!();
    println!("| algorithm | batch | implementation | GB/s | ms per batch | x loop (paired median) | spread |");
    println!("| --- | --- | --- | ---: | ---: | ---: | ---: |");
    for batch in &batches {
        let data = random_input(batch.count * batch.len, 42);
        let messages: Vec<&[u8]> = data.chunks(batch.len.max(1)).take(batch.count).collect();
        let mixed_data = random_input(64 * 4160, 7);
        let mixed: Vec<&[u8]> = (0..64).map(|i| &mixed_data[i * 4160..i * 4160 + (i * 977) % 4161]).collect();
        for check in [&messages, &mixed] {
            let expected = (batch.rows[0].1)(check);
            if let Some((label, _)) = batch.rows.iter().find(|(_, hash)| hash(check) != expected) {
                eprintln!("multi_buffer_vs_loop: {}: {label} disagrees with the loop", batch.label);
                return ExitCode::FAILURE;
            }
        }
        let bytes = batch.count * batch.len;
        let mut cases: Vec<Case> = batch
            .rows
            .iter()
            .map(|(label, hash)| {
                let messages = &messages;
                Case::new(label.clone(), bytes, move || {
                    black_box(hash(black_box(messages)));
                })
            })
            .collect();
        let timings = run_interleaved(&mut cases, rounds, slice);
        let anchor = &timings[0];
        for timing in &timings {
            println!(
                "| {} | {} x {} | {} | {:.2} | {:.2} | {:.2} | {:.0}% |",
                batch.label,
                batch.count,
                format_size(batch.len),
                timing.name,
                timing.mb_per_s() / 1000.0,
                timing.median_ns() / 1e6,
                median_ratio(anchor, timing),
                timing.spread() * 100.0
            );
        }
    }
    ExitCode::SUCCESS
}
