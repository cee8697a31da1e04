//! Test support shared by chunkhash's crates and bindings: the project's
//! known-answer vectors (the `vectors/` folder at the repository root, with
//! its provenance in `vectors/README.md`) and seeded random inputs.
//!
//! The vector files are embedded at compile time, so tests need no path at
//! run time and never read anything outside the repository.

pub mod cdc;
#[cfg(unix)]
pub mod listing;

use serde_json::Value;

/// The official BLAKE3 test vectors, verbatim.
pub const BLAKE3_TEST_VECTORS_JSON: &str = include_str!("../../../vectors/blake3/test_vectors.json");

/// One case of the official BLAKE3 vectors: 131-byte outputs of each mode.
#[derive(Clone, Debug)]
pub struct Blake3Case {
    /// Length of the input, built by [`input_pattern`].
    pub input_len: usize,
    /// Extended output of the default hash.
    pub hash: Vec<u8>,
    /// Extended output of the keyed hash under [`Blake3Vectors::key`].
    pub keyed_hash: Vec<u8>,
    /// Extended output of key derivation under [`Blake3Vectors::context_string`].
    pub derive_key: Vec<u8>,
}

/// The official BLAKE3 vectors, parsed.
#[derive(Clone, Debug)]
pub struct Blake3Vectors {
    /// The keyed-mode key.
    pub key: [u8; 32],
    /// The key-derivation context.
    pub context_string: String,
    /// Every case.
    pub cases: Vec<Blake3Case>,
}

/// Parses the embedded official BLAKE3 vectors.
pub fn blake3_vectors() -> Blake3Vectors {
    let json: Value = serde_json::from_str(BLAKE3_TEST_VECTORS_JSON).expect("vectors file is JSON");
    let text = |value: &Value, field: &str| -> String {
        value[field].as_str().unwrap_or_else(|| panic!("field {field} is a string")).to_owned()
    };
    let key: [u8; 32] = text(&json, "key").into_bytes().try_into().expect("key is 32 bytes");
    let cases = json["cases"]
        .as_array()
        .expect("cases is an array")
        .iter()
        .map(|case| Blake3Case {
            input_len: case["input_len"].as_u64().expect("input_len is a number") as usize,
            hash: decode_hex(&text(case, "hash")),
            keyed_hash: decode_hex(&text(case, "keyed_hash")),
            derive_key: decode_hex(&text(case, "derive_key")),
        })
        .collect();
    Blake3Vectors { key, context_string: text(&json, "context_string"), cases }
}

/// The project's golden vectors (`vectors/golden.json`): every registry
/// algorithm on fixed inputs, BLAKE3 keyed and derive-key, and block
/// trailers. Made from independent references by
/// `vectors/tools/check_golden.py`; the bindings read the same file.
pub const GOLDEN_JSON: &str = include_str!("../../../vectors/golden.json");

/// The golden vectors, parsed.
#[derive(Clone, Debug)]
pub struct Golden {
    /// The BLAKE3 keyed-mode key (the official vectors' key).
    pub key: [u8; 32],
    /// The BLAKE3 key-derivation context (the official vectors' context).
    pub context_string: String,
    /// The registry table: id, canonical name, digest length.
    pub algorithms: Vec<GoldenAlgorithm>,
    /// Digests of [`input_pattern`] inputs.
    pub digests: Vec<GoldenDigest>,
    /// Trailers sealed over [`input_pattern`] blocks.
    pub trailers: Vec<GoldenTrailer>,
}

/// One row of the registry table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GoldenAlgorithm {
    /// The stable numeric id.
    pub id: u8,
    /// The canonical name.
    pub name: String,
    /// Bytes in a digest.
    pub digest_len: usize,
}

/// How a golden digest was computed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GoldenMode {
    /// The plain digest of the algorithm.
    Hash,
    /// BLAKE3 keyed with [`Golden::key`].
    KeyedHash,
    /// BLAKE3 key derivation with [`Golden::context_string`].
    DeriveKey,
}

/// One golden digest.
#[derive(Clone, Debug)]
pub struct GoldenDigest {
    /// Canonical algorithm name.
    pub algorithm: String,
    /// How it was computed.
    pub mode: GoldenMode,
    /// Length of the input, built by [`input_pattern`].
    pub input_len: usize,
    /// The expected digest.
    pub digest: Vec<u8>,
}

/// One golden block trailer.
#[derive(Clone, Debug)]
pub struct GoldenTrailer {
    /// Canonical algorithm name.
    pub algorithm: String,
    /// Length of the block, built by [`input_pattern`].
    pub input_len: usize,
    /// The context it was sealed with.
    pub context: u64,
    /// The expected trailer bytes.
    pub trailer: Vec<u8>,
}

/// Parses the embedded golden vectors; panics on a malformed file (trusted
/// test data, and its own test checks it).
pub fn golden() -> Golden {
    let json: Value = serde_json::from_str(GOLDEN_JSON).expect("golden.json is JSON");
    let text = |value: &Value, field: &str| -> String {
        value[field].as_str().unwrap_or_else(|| panic!("field {field} is a string in {value}")).to_owned()
    };
    let number = |value: &Value, field: &str| -> u64 {
        value[field].as_u64().unwrap_or_else(|| panic!("field {field} is a number in {value}"))
    };
    let list = |field: &str| json[field].as_array().unwrap_or_else(|| panic!("{field} is an array")).iter();
    let algorithms = list("algorithms")
        .map(|a| GoldenAlgorithm {
            id: u8::try_from(number(a, "id")).expect("id fits a byte"),
            name: text(a, "name"),
            digest_len: number(a, "digest_len") as usize,
        })
        .collect();
    let digests = list("digests")
        .map(|d| GoldenDigest {
            algorithm: text(d, "algorithm"),
            mode: match text(d, "mode").as_str() {
                "hash" => GoldenMode::Hash,
                "keyed_hash" => GoldenMode::KeyedHash,
                "derive_key" => GoldenMode::DeriveKey,
                other => panic!("unknown mode {other:?}"),
            },
            input_len: number(d, "input_len") as usize,
            digest: decode_hex(&text(d, "hex")),
        })
        .collect();
    let trailers = list("trailers")
        .map(|t| GoldenTrailer {
            algorithm: text(t, "algorithm"),
            input_len: number(t, "input_len") as usize,
            // A decimal string: JSON numbers lose precision above 2^53 in JavaScript.
            context: text(t, "context").parse().expect("context is a decimal u64"),
            trailer: decode_hex(&text(t, "hex")),
        })
        .collect();
    Golden {
        key: text(&json, "key").into_bytes().try_into().expect("key is 32 bytes"),
        context_string: text(&json, "context_string"),
        algorithms,
        digests,
        trailers,
    }
}

/// The input of the official vectors: byte `i` is `i % 251`.
pub fn input_pattern(len: usize) -> Vec<u8> {
    (0..len).map(|i| (i % 251) as u8).collect()
}

/// Decodes hex with chunkhash's decoder; panics on bad input (vector files
/// are trusted test data).
fn decode_hex(hex: &str) -> Vec<u8> {
    chunkhash::hex::decode_vec(hex).unwrap_or_else(|error| panic!("vector file hex {hex:?}: {error}"))
}

/// A small seeded generator (SplitMix64) for reproducible random tests.
/// Not for cryptography.
#[derive(Clone, Debug)]
pub struct TestRng(u64);

impl TestRng {
    /// A generator from a seed; tests print the seed they use.
    pub fn new(seed: u64) -> Self {
        TestRng(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E3779B97F4A7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58476D1CE4E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D049BB133111EB);
        z ^ (z >> 31)
    }

    /// A uniform value in `range` (inclusive bounds).
    pub fn range(&mut self, range: std::ops::RangeInclusive<usize>) -> usize {
        let span = (range.end() - range.start()) as u64 + 1;
        range.start() + (self.next_u64() % span) as usize
    }

    /// Fills a buffer with random bytes.
    pub fn fill(&mut self, buf: &mut [u8]) {
        for chunk in buf.chunks_mut(8) {
            let bytes = self.next_u64().to_le_bytes();
            chunk.copy_from_slice(&bytes[..chunk.len()]);
        }
    }

    /// `len` random bytes.
    pub fn bytes(&mut self, len: usize) -> Vec<u8> {
        let mut buf = vec![0u8; len];
        self.fill(&mut buf);
        buf
    }

    /// `data` split at random, for streaming APIs fed in pieces: pieces of
    /// up to a tenth, a hundredth or a thousandth of `data` (one scale per
    /// call), and now and then an empty one.
    pub fn pieces<'a>(&mut self, data: &'a [u8]) -> Vec<&'a [u8]> {
        let most = data.len() / [10, 100, 1000][self.range(0..=2)] + 1;
        let mut pieces = Vec::new();
        let mut rest = data;
        while !rest.is_empty() {
            let take = if self.range(0..=9) == 0 { 0 } else { self.range(1..=most).min(rest.len()) };
            pieces.push(&rest[..take]);
            rest = &rest[take..];
        }
        pieces
    }
}

/// Where the Python packages the tests spawn (`xxhash`, `hf-xet`) are
/// installed: `CHUNKHASH_PYDEPS` as `make test` sets it, else `pydeps` in
/// the target directory, the parent of `target_tmpdir` (pass the test's
/// `env!("CARGO_TARGET_TMPDIR")`), where `make pydeps` puts them.
pub fn pydeps(target_tmpdir: &str) -> std::path::PathBuf {
    match std::env::var_os("CHUNKHASH_PYDEPS") {
        Some(path) => std::path::PathBuf::from(path),
        None => std::path::Path::new(target_tmpdir).parent().unwrap_or(std::path::Path::new(".")).join("pydeps"),
    }
}

/// The seed of a random test: `CHUNKHASH_TEST_SEED` if set, else `default`.
/// Printed, so a failure can be replayed.
pub fn test_seed(test: &str, default: u64) -> u64 {
    let seed = std::env::var("CHUNKHASH_TEST_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or(default);
    println!("{test}: seed {seed} (set CHUNKHASH_TEST_SEED to replay another)");
    seed
}

/// How much a test run covers. Natively every case runs (`Full`); where each
/// case costs 10 to 50 times more, under qemu-user and WASI, a chosen subset
/// (`Small`, from `CHUNKHASH_TEST_SCALE=small`); under Miri, which is slower
/// by another factor of a thousand, a handful (`Miri`, automatic). The
/// subsets keep every kernel path: see [`lengths_up_to`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TestScale {
    /// Every case (the default).
    Full,
    /// Cases on every block, chunk and lane edge, fewer random rounds.
    Small,
    /// A few cases per path, for Miri.
    Miri,
}

impl TestScale {
    /// The scale of this run; an unknown `CHUNKHASH_TEST_SCALE` fails, so a
    /// typo cannot quietly run the full suite where a small one was meant.
    pub fn get() -> TestScale {
        if cfg!(miri) {
            return TestScale::Miri;
        }
        match std::env::var("CHUNKHASH_TEST_SCALE").as_deref() {
            Err(_) | Ok("" | "full") => TestScale::Full,
            Ok("small") => TestScale::Small,
            Ok(other) => panic!("CHUNKHASH_TEST_SCALE={other:?}: expected \"full\" or \"small\""),
        }
    }

    /// `full`, `small` or `miri`, by the scale of this run: a count of
    /// random rounds, a size.
    pub fn pick<T>(full: T, small: T, miri: T) -> T {
        match TestScale::get() {
            TestScale::Full => full,
            TestScale::Small => small,
            TestScale::Miri => miri,
        }
    }
}

/// The input lengths from 0 to `max` a length sweep tries: all of them at
/// full scale. At small scale: every length up to two blocks and one byte
/// (each partial block, the first block boundary and the second), then at
/// every chunk count up to `max`'s the lengths 1 and 63 to 65 bytes either
/// side of the chunk edge and the edge itself (a whole or ragged last chunk,
/// a last block whole, partial or a single byte, for each number of lanes
/// filled: 1 to 16 chunks, then a second tree level), and `max`. About 300
/// lengths instead of 17,000 for `max` = 17 KiB. Under Miri, where one
/// compression takes tens of milliseconds, one length per path: empty, one
/// byte, a block and a byte past it, a chunk and a byte past it, 2 and 4
/// chunks plus a byte (parents, a second tree level).
pub fn lengths_up_to(max: usize) -> Vec<usize> {
    const BLOCK_LEN: usize = 64;
    const CHUNK_LEN: usize = 1024;
    let mut lengths: Vec<usize> = match TestScale::get() {
        TestScale::Full => return (0..=max).collect(),
        TestScale::Small => {
            let mut lengths: Vec<usize> = (0..=2 * BLOCK_LEN + 1).collect();
            for chunks in 1..=max / CHUNK_LEN + 1 {
                let edge = chunks * CHUNK_LEN;
                for offset in [-65isize, -64, -63, -1, 0, 1, 63, 64, 65] {
                    lengths.push(edge.saturating_add_signed(offset));
                }
            }
            lengths.push(max);
            lengths
        }
        TestScale::Miri => {
            vec![0, 1, BLOCK_LEN, BLOCK_LEN + 1, CHUNK_LEN, CHUNK_LEN + 1, 2 * CHUNK_LEN + 1, 4 * CHUNK_LEN + 1]
        }
    };
    lengths.retain(|&len| len <= max);
    lengths.sort_unstable();
    lengths.dedup();
    lengths
}

/// The backends a test runs on, from `all` (with their names as `Display`
/// prints them): only `CHUNKHASH_BACKEND`'s when it is set (the run that
/// forces one checks that one), else every one `supported` says this
/// machine runs. Panics when the forced backend is not supported, or when
/// one of `all` named in `CHUNKHASH_REQUIRE_BACKENDS` (comma-separated) is
/// not: a kernel that cannot run fails the run instead of being skipped.
/// That list also names the matrix's other rows by family (`crc-pclmul`,
/// `sha256-shani`, ...), which are not in `all`; they are skipped here
/// (`scripts/test/matrix.sh` rejects one that is no row), and a name of
/// neither kind (a misspelt `avx512`) panics. Prints what it picked.
pub fn backends_under_test<B: Copy + std::fmt::Display>(all: &[B], supported: impl Fn(B) -> bool) -> Vec<B> {
    let named = |name: &str| all.iter().copied().find(|b| b.to_string().eq_ignore_ascii_case(name.trim()));
    let required = std::env::var("CHUNKHASH_REQUIRE_BACKENDS").unwrap_or_default();
    let required = required.split(',').map(str::trim).filter(|name| !name.is_empty());
    for name in required {
        let Some(backend) = named(name) else {
            assert!(name.contains('-'), "CHUNKHASH_REQUIRE_BACKENDS names {name:?}, no backend nor a family's row");
            continue;
        };
        assert!(
            supported(backend),
            "backend {backend} is required (CHUNKHASH_REQUIRE_BACKENDS) but not supported here"
        );
    }
    let forced = std::env::var("CHUNKHASH_BACKEND").unwrap_or_default();
    let chosen: Vec<B> = if forced.trim().is_empty() {
        all.iter().copied().filter(|&b| supported(b)).collect()
    } else {
        let backend = named(&forced).unwrap_or_else(|| panic!("CHUNKHASH_BACKEND={forced:?} names no backend"));
        assert!(supported(backend), "CHUNKHASH_BACKEND={backend}, which this machine does not support");
        vec![backend]
    };
    let names: Vec<String> = chosen.iter().map(|b| b.to_string()).collect();
    let skipped: Vec<String> = all.iter().filter(|&&b| !supported(b)).map(|b| b.to_string()).collect();
    println!("backends under test: {} (not supported here: {})", names.join(", "), skipped.join(", "));
    chosen
}

/// The `bao` crate's test vectors (`vectors/bao/test_vectors.json`; its
/// provenance is in `vectors/README.md`), as JSON: each list's objects keep
/// the file's field names.
pub const BAO_TEST_VECTORS_JSON: &str = include_str!("../../../vectors/bao/test_vectors.json");

/// The `bao` vectors' lists (`hash`, `encode`, `outboard`, `seek`, `slice`),
/// parsed.
pub fn bao_vectors() -> Value {
    serde_json::from_str(BAO_TEST_VECTORS_JSON).expect("bao vectors file is JSON")
}

/// The input of the `bao` vectors: a 4-byte little-endian counter from 1,
/// cut at `len` bytes (the vectors' `generate_input.py`).
pub fn bao_input(len: usize) -> Vec<u8> {
    (1u32..).flat_map(u32::to_le_bytes).take(len).collect()
}
