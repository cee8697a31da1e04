//! Every multi-buffer kernel, forced one by one, against the independent
//! one-message crates (`md-5`, `sha1`, `sha2`) on the RFC's vectors and on seeded random
//! batches: equal lengths on every block edge, mixed lengths 0 to 4160
//! bytes, one long message among short ones, empty and single batches, at
//! random offsets. The seed is printed.

use super::MbKernel;
use crate::platform::multi_buffer::MbPlatform;
use std::string::{String, ToString};
use std::vec::Vec;
use std::{format, println, vec};
use vectors::{test_seed, TestRng, TestScale};

/// The kernels a test runs on: `CHUNKHASH_MB_KERNEL`'s alone when set (the
/// test matrix forces each in turn), else every one this machine supports.
/// Panics when the forced one is unknown or unsupported, so a forced run
/// never passes on another kernel. Prints what it picked.
fn kernels_under_test() -> Vec<MbPlatform> {
    let chosen: Vec<MbPlatform> = match MbKernel::from_env() {
        Ok(Some(kernel)) => vec![kernel.checked().unwrap()],
        Ok(None) => MbKernel::all().iter().filter_map(|kernel| kernel.checked().ok()).collect(),
        Err(error) => panic!("CHUNKHASH_MB_KERNEL: {error}"),
    };
    let names: Vec<&str> = chosen.iter().map(|platform| platform.kernel().name()).collect();
    let missing: Vec<&str> =
        MbKernel::all().iter().filter(|kernel| !kernel.is_supported()).map(|kernel| kernel.name()).collect();
    println!("multi-buffer kernels under test: {} (not supported here: {})", names.join(", "), missing.join(", "));
    chosen
}

/// Lengths on the edges of 64- and 128-byte blocks, where the padding
/// takes one block or two, and a few long ones.
const EDGE_LENGTHS: [usize; 22] =
    [0, 1, 3, 55, 56, 57, 63, 64, 65, 111, 112, 113, 119, 120, 127, 128, 129, 239, 240, 256, 1000, 4160];

/// A multi-buffer call on a forced kernel.
type Many<const N: usize> = fn(MbPlatform, &[&[u8]], &mut [[u8; N]]);

/// One algorithm under test: its multi-buffer call and its reference.
struct Subject<const N: usize> {
    name: &'static str,
    many: Many<N>,
    /// The crate-level call, on the detected kernel.
    detected: fn(&[&[u8]], &mut [[u8; N]]),
    reference: fn(&[u8]) -> [u8; N],
}

impl<const N: usize> Subject<N> {
    /// Checks one batch on one kernel against the reference, naming the
    /// first wrong message.
    fn check(&self, platform: MbPlatform, messages: &[&[u8]], what: &str) {
        let mut out = vec![[0xa5; N]; messages.len()];
        (self.many)(platform, messages, &mut out);
        for (index, (message, digest)) in messages.iter().zip(&out).enumerate() {
            assert!(
                *digest == (self.reference)(message),
                "{} on {}: {what}: message {index} of {} ({} bytes) differs",
                self.name,
                platform.kernel(),
                messages.len(),
                message.len(),
            );
        }
    }

    /// Known answers: `(message, hex digest)` each alone and all in one batch.
    fn known_answers(&self, cases: &[(&[u8], &str)]) {
        for platform in kernels_under_test() {
            let messages: Vec<&[u8]> = cases.iter().map(|(message, _)| *message).collect();
            let mut out = vec![[0; N]; messages.len()];
            (self.many)(platform, &messages, &mut out);
            for ((message, expected), digest) in cases.iter().zip(&out) {
                assert_eq!(hex(digest), *expected, "{} on {}: {message:?}", self.name, platform.kernel());
                let mut alone = [[0; N]];
                (self.many)(platform, &[message], &mut alone);
                assert_eq!(hex(&alone[0]), *expected, "{} on {}: {message:?} alone", self.name, platform.kernel());
            }
        }
    }

    /// The crate-level call runs the detected kernel (`CHUNKHASH_MB_KERNEL`'s
    /// in the matrix rows) and agrees with the reference.
    fn detected_kernel_runs(&self) {
        let messages: [&[u8]; 3] = [b"", b"abc", &[7; 1000]];
        let mut out = [[0; N]; 3];
        (self.detected)(&messages, &mut out);
        for (message, digest) in messages.iter().zip(&out) {
            assert!(*digest == (self.reference)(message), "{} on the detected kernel", self.name);
        }
        println!("{}: detected multi-buffer kernel {}", self.name, MbKernel::detect());
    }

    /// Batch shapes on every kernel against the reference.
    fn differential(&self, seed_default: u64) {
        let seed = test_seed(&format!("{} multi-buffer differential", self.name), seed_default);
        let mut rng = TestRng::new(seed);
        // One buffer all messages are cut from, at random offsets.
        let data = rng.bytes(1 << 20);
        let cut = |rng: &mut TestRng, len: usize| {
            let start = rng.range(0..=data.len() - len);
            &data[start..start + len]
        };
        let rounds = TestScale::pick(300, 40, 2);
        for platform in kernels_under_test() {
            self.check(platform, &[], "an empty batch");
            for &len in &EDGE_LENGTHS {
                let one = cut(&mut rng, len);
                self.check(platform, &[one], &format!("one message of {len} bytes"));
                for count in [8, 16, 17, 33] {
                    let equal: Vec<&[u8]> = (0..count).map(|_| cut(&mut rng, len)).collect();
                    self.check(platform, &equal, &format!("{count} messages of {len} bytes"));
                }
            }
            for round in 0..rounds {
                let count = rng.range(1..=40);
                let mixed: Vec<&[u8]> = (0..count)
                    .map(|_| {
                        let len = rng.range(0..=4160);
                        cut(&mut rng, len)
                    })
                    .collect();
                self.check(platform, &mixed, &format!("round {round}, mixed lengths"));
            }
            // One long message among short ones: the long one ends alone,
            // its lane's neighbours idle; another long one comes last.
            let mut shapes: Vec<&[u8]> = vec![cut(&mut rng, 300_001)];
            shapes.extend((0..40).map(|i| cut(&mut rng, i * 7)));
            shapes.push(cut(&mut rng, 70_000));
            self.check(platform, &shapes, "one long among short");
        }
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|byte| format!("{byte:02x}")).collect()
}

#[cfg(feature = "compat")]
const MD5: Subject<16> = Subject {
    name: "MD5",
    many: |platform, messages, out| platform.md5_many(messages, out),
    detected: super::md5::md5_many,
    reference: |message| {
        use ::md5::Digest as _;
        ::md5::Md5::digest(message).into()
    },
};

/// RFC 1321 appendix A.5, the test suite.
#[cfg(feature = "compat")]
#[test]
fn md5_rfc_1321_test_suite() {
    MD5.known_answers(&[
        (b"", "d41d8cd98f00b204e9800998ecf8427e"),
        (b"a", "0cc175b9c0f1b6a831c399e269772661"),
        (b"abc", "900150983cd24fb0d6963f7d28e17f72"),
        (b"message digest", "f96b697d7cb7938d525a2f31aaf161d0"),
        (b"abcdefghijklmnopqrstuvwxyz", "c3fcd3d76192e4007dfb496cca67e13b"),
        (b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789", "d174ab98d277d9f5a5611c2c9f419d9f"),
        (
            b"12345678901234567890123456789012345678901234567890123456789012345678901234567890",
            "57edf4a22be3c955ac49da2e2107b67a",
        ),
    ]);
}

#[cfg(feature = "compat")]
#[test]
fn md5_matches_md5_crate() {
    MD5.differential(0x6d64_3534);
}

#[cfg(feature = "compat")]
#[test]
fn md5_many_uses_the_detected_kernel() {
    MD5.detected_kernel_runs();
}

#[cfg(feature = "sha2")]
const SHA512: Subject<64> = Subject {
    name: "SHA-512",
    many: |platform, messages, out| platform.sha512_many(messages, out),
    detected: super::sha512::sha512_many,
    reference: |message| {
        use ::sha2::Digest as _;
        ::sha2::Sha512::digest(message).into()
    },
};

/// The examples NIST publishes for FIPS 180-4 (csrc.nist.gov, "SHA512.pdf":
/// one block, two blocks) and the empty message.
#[cfg(feature = "sha2")]
#[test]
fn sha512_nist_examples() {
    SHA512.known_answers(&[
        (b"", "cf83e1357eefb8bdf1542850d66d8007d620e4050b5715dc83f4a921d36ce9ce47d0d13c5d85f2b0ff8318d2877eec2f63b931bd47417a81a538327af927da3e"),
        (b"abc", "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f"),
        (
            b"abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
            "8e959b75dae313da8cf4f72814fc143f8f7779c6eb9f7fa17299aeadb6889018501d289e4900f7e4331b99dec4b5433ac7d329eeb6dd26545e96e55b874be909",
        ),
    ]);
}

#[cfg(feature = "sha2")]
#[test]
fn sha512_matches_sha2_crate() {
    SHA512.differential(0x5348_4135_3132);
}

#[cfg(feature = "sha2")]
#[test]
fn sha512_many_uses_the_detected_kernel() {
    SHA512.detected_kernel_runs();
}

#[cfg(feature = "compat")]
const SHA1: Subject<20> = Subject {
    name: "SHA-1",
    many: |platform, messages, out| platform.sha1_many(messages, out),
    detected: super::sha1::sha1_many,
    reference: |message| {
        use ::sha1::Digest as _;
        ::sha1::Sha1::digest(message).into()
    },
};

/// The examples NIST publishes for FIPS 180-4 (csrc.nist.gov, "SHA1.pdf":
/// one block, two blocks) and the empty message.
#[cfg(feature = "compat")]
#[test]
fn sha1_nist_examples() {
    SHA1.known_answers(&[
        (b"", "da39a3ee5e6b4b0d3255bfef95601890afd80709"),
        (b"abc", "a9993e364706816aba3e25717850c26c9cd0d89d"),
        (b"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "84983e441c3bd26ebaae4aa1f95129e5e54670f1"),
    ]);
}

#[cfg(feature = "compat")]
#[test]
fn sha1_matches_sha1_crate() {
    SHA1.differential(0x5348_4131);
}

#[cfg(feature = "compat")]
#[test]
fn sha1_many_uses_the_detected_kernel() {
    SHA1.detected_kernel_runs();
}

/// A streaming type under test, whatever its digest length.
trait Streams {
    fn update(&mut self, pieces: &[&[u8]]);
    fn digests(&self) -> Vec<Vec<u8>>;
}

macro_rules! test_streams {
    ($(#[$cfg:meta])* $name:ident, $out:literal) => {
        $(#[$cfg])*
        impl Streams for super::$name {
            fn update(&mut self, pieces: &[&[u8]]) {
                super::$name::update(self, pieces);
            }

            fn digests(&self) -> Vec<Vec<u8>> {
                let mut out = vec![[0u8; $out]; self.count()];
                self.finalize(&mut out);
                out.iter().map(|digest| digest.to_vec()).collect()
            }
        }
    };
}

test_streams!(
    #[cfg(all(feature = "compat", feature = "alloc"))]
    Md5Streams,
    16
);
test_streams!(
    #[cfg(all(feature = "compat", feature = "alloc"))]
    Sha1Streams,
    20
);
test_streams!(
    #[cfg(all(feature = "sha2", feature = "alloc"))]
    Sha256Streams,
    32
);
test_streams!(
    #[cfg(all(feature = "sha2", feature = "alloc"))]
    Sha512Streams,
    64
);

/// One piece's length: empty, a byte, short, whole blocks and a byte
/// either side of them, anything to 4160 bytes, and now and then a long
/// piece that crosses many block edges.
fn piece_len(rng: &mut TestRng, block_len: usize) -> usize {
    match rng.range(0..=6) {
        0 => 0,
        1 => 1,
        2 => rng.range(1..=200),
        3 => block_len * rng.range(1..=4),
        4 => block_len * rng.range(1..=4) + rng.range(0..=2) - 1,
        5 => rng.range(4161..=20_000),
        _ => rng.range(0..=4160),
    }
}

/// Streams of one algorithm fed in random pieces (every stream its own
/// lengths, so the streams' lengths differ; now and then one stream alone
/// takes pieces), finalized midway and at the end, against the
/// one-message `reference` of each whole message; on each kernel of
/// `kernels` in turn, `make(kernel, count)` making the streams. Seeded,
/// the seed printed.
fn streams_differential<T: Streams>(
    name: &str,
    seed_default: u64,
    block_len: usize,
    kernels: &[&str],
    make: impl Fn(&str, usize) -> T,
    reference: fn(&[u8]) -> Vec<u8>,
) {
    let seed = test_seed(&format!("{name} streams"), seed_default);
    let mut rng = TestRng::new(seed);
    let rounds = TestScale::pick(40, 8, 1);
    println!("{name} streams on kernels {kernels:?}");
    for &kernel in kernels {
        let mut none = make(kernel, 0);
        none.update(&[]);
        assert!(none.digests().is_empty());
        for round in 0..rounds {
            let count = rng.range(1..=TestScale::pick(40, 40, 3));
            let mut streams = make(kernel, count);
            let mut messages: Vec<Vec<u8>> = vec![Vec::new(); count];
            let steps = rng.range(1..=TestScale::pick(10, 10, 3));
            for step in 0..=steps {
                let alone = (rng.range(0..=4) == 0).then(|| rng.range(0..=count - 1));
                let pieces: Vec<Vec<u8>> = (0..count)
                    .map(|i| {
                        let len =
                            if alone.is_some_and(|alone| alone != i) { 0 } else { piece_len(&mut rng, block_len) };
                        rng.bytes(len)
                    })
                    .collect();
                let borrowed: Vec<&[u8]> = pieces.iter().map(Vec::as_slice).collect();
                streams.update(&borrowed);
                for (message, piece) in messages.iter_mut().zip(&pieces) {
                    message.extend_from_slice(piece);
                }
                if step == steps || rng.range(0..=3) == 0 {
                    for (index, (message, digest)) in messages.iter().zip(streams.digests()).enumerate() {
                        assert!(
                            digest == reference(message),
                            "{name} streams on {kernel}: round {round} step {step}: stream {index} of {count} ({} bytes)",
                            message.len()
                        );
                    }
                }
            }
        }
    }
}

/// [`streams_differential`] on the multi-buffer kernels under test.
fn mb_streams_differential<T: Streams>(
    name: &str,
    seed_default: u64,
    block_len: usize,
    new_on: fn(Option<MbKernel>, usize) -> Result<T, super::MbKernelError>,
    reference: fn(&[u8]) -> Vec<u8>,
) {
    let kernels: Vec<&str> = kernels_under_test().iter().map(|platform| platform.kernel().name()).collect();
    let make = |kernel: &str, count| new_on(Some(kernel.parse().unwrap()), count).expect("a supported kernel");
    streams_differential(name, seed_default, block_len, &kernels, make, reference);
}

#[cfg(all(feature = "compat", feature = "alloc"))]
#[test]
fn md5_streams_match_md5_crate() {
    use ::md5::Digest as _;
    mb_streams_differential("MD5", 0x6d64_3573, 64, super::Md5Streams::new_on, |m| ::md5::Md5::digest(m).to_vec());
}

#[cfg(all(feature = "compat", feature = "alloc"))]
#[test]
fn sha1_streams_match_sha1_crate() {
    use ::sha1::Digest as _;
    mb_streams_differential("SHA-1", 0x0053_4841_3173, 64, super::Sha1Streams::new_on, |m| {
        ::sha1::Sha1::digest(m).to_vec()
    });
}

#[cfg(all(feature = "sha2", feature = "alloc"))]
#[test]
fn sha512_streams_match_sha2_crate() {
    use ::sha2::Digest as _;
    mb_streams_differential("SHA-512", 0x0053_4841_3531_3273, 128, super::Sha512Streams::new_on, |m| {
        ::sha2::Sha512::digest(m).to_vec()
    });
}

/// On the SHA-256 kernels (`CHUNKHASH_SHA256_KERNEL`'s alone when set: the
/// matrix's sha256 rows force each).
#[cfg(all(feature = "sha2", feature = "alloc"))]
#[test]
fn sha256_streams_match_sha2_crate() {
    use ::sha2::Digest as _;
    let kernels: Vec<&str> =
        crate::platform::sha256::tests::kernels_under_test().iter().map(|checked| checked.kernel().name()).collect();
    let make = |kernel: &str, count| super::Sha256Streams::new_on(kernel, count).expect("a supported kernel");
    streams_differential("SHA-256", 0x0053_4841_3235_3673, 64, &kernels, make, |m| ::sha2::Sha256::digest(m).to_vec());
}

/// A kernel this machine cannot run, or no kernel, is refused.
#[cfg(all(feature = "sha2", feature = "alloc"))]
#[test]
fn sha256_streams_refuse_unknown_kernels() {
    assert!(super::Sha256Streams::new_on("sse9", 1).is_none());
    assert!(super::Sha256Streams::new_on("portable", 1).is_some());
}

#[test]
fn kernel_names_parse_and_bad_ones_say_why() {
    for &kernel in MbKernel::all() {
        assert_eq!(kernel.name().to_uppercase().parse::<MbKernel>(), Ok(kernel));
    }
    let error = "sse9".parse::<MbKernel>().unwrap_err();
    assert_eq!(
        error.to_string(),
        "unknown multi-buffer kernel \"sse9\", expected one of portable, neon, simd128, avx2, avx512"
    );
    if !MbKernel::Avx512.is_supported() {
        assert!(MbKernel::Avx512.checked().unwrap_err().to_string().contains("not supported"));
    }
}
