//! The registry table: one row per algorithm, and the code the rows become.
//!
//! A row gives the algorithm's enum variant and stable id, its docs, its
//! names, its digest length, whether it is cryptographic, the cargo feature
//! that compiles it in (none for BLAKE3), and the wrapper type that computes
//! it ([`Wrapper`], `wrapper.rs`). The `registry!` macro turns the rows into
//! the [`Algorithm`] enum, the property table its methods read
//! (`algorithm.rs`), and one `match` per operation that dispatches to the
//! wrappers: one-shot hashing, the streaming state, the implementation name.
//!
//! Adding an algorithm is a row here, its wrapper module (one-shot `hash`,
//! streaming `new`/`update`/`finalize`/`reset`, `implementation`), and its
//! rows in `vectors/golden.json`. Everything else (parsing, the C constants,
//! the CLI's lists, the trailer layout) reads the table.
//!
//! The ids are an on-disk contract: an id never changes meaning, a new
//! algorithm gets the next id, and 0 is reserved so that a zeroed trailer (a
//! hole, a wiped sector) never names an algorithm. Rows are in id order,
//! which a compile-time check below enforces.

use crate::wrapper::{Prefix, Wrapper};

/// One row's properties, as `Algorithm`'s methods return them.
pub(crate) struct Properties {
    pub(crate) name: &'static str,
    pub(crate) bsd_tag: &'static str,
    /// Lowercase, with `-` for `_` (see `Algorithm::aliases`).
    pub(crate) aliases: &'static [&'static str],
    pub(crate) digest_len: usize,
    pub(crate) cryptographic: bool,
    pub(crate) cargo_feature: Option<&'static str>,
    pub(crate) available: bool,
}

macro_rules! registry {
    ($(
        $(#[doc = $doc:literal])*
        $variant:ident = $id:literal {
            name: $name:literal,
            bsd_tag: $bsd_tag:literal,
            aliases: [$($alias:literal),*],
            digest_len: $len:literal,
            cryptographic: $cryptographic:literal,
            $(feature: $feature:literal,)?
            wrapper: $wrapper:ty $(,)?
        }
    )*) => {
        /// A checksum or hash algorithm of the registry.
        ///
        /// `id()` is stable forever (see the table in the crate docs); the enum is
        /// `#[non_exhaustive]` because new algorithms get new ids.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[non_exhaustive]
        #[repr(u8)]
        pub enum Algorithm {
            $($(#[doc = $doc])* $variant = $id,)*
        }

        /// Every algorithm, in id order.
        pub(crate) const ALL: &[Algorithm] = &[$(Algorithm::$variant),*];

        /// Every algorithm's properties, indexed by id: the row of id 0 (reserved)
        /// names no algorithm and is never read.
        pub(crate) const PROPERTIES: &[Properties] = &[
            Properties {
                name: "", bsd_tag: "", aliases: &[], digest_len: 0, cryptographic: false, cargo_feature: None,
                available: false,
            },
            $(
            Properties {
                name: $name,
                bsd_tag: $bsd_tag,
                aliases: &[$($alias),*],
                digest_len: $len,
                cryptographic: $cryptographic,
                cargo_feature: cargo_feature!($($feature)?),
                available: true $(&& cfg!(feature = $feature))?,
            },
        )*];

        /// Hashes `input` and hands the output, a fixed-size array, to
        /// `finish`, which makes the result (a [`Digest`](crate::Digest), a
        /// trailer, a verdict); `None` if this build lacks the algorithm.
        /// Each arm makes its own result from its own array, so nothing
        /// of variable length is copied, masked or compared, and no arm
        /// shares a buffer with another: with one shared zeroed buffer, the
        /// compiler built each digest in pieces and copied them (callgrind,
        /// 64 bytes: 40 instructions of the registry's own per XXH3-64
        /// digest, 100 per trailer, against 20 and 35 now).
        #[inline(always)]
        pub(crate) fn hash_with<F: Finish>(algorithm: Algorithm, input: &[u8], finish: F) -> Option<F::Output> {
            match algorithm {
                $(
                    $(#[cfg(feature = $feature)])?
                    Algorithm::$variant => Some(finish.finish(<$wrapper as Wrapper<$len>>::hash(input))),
                )*
                #[allow(unreachable_patterns)] // Reached only when a feature is off.
                _ => None,
            }
        }

        /// Hashes messages `0..count` (`message(i)` is message `i`) and hands
        /// each output to `sink`; `None` if this build lacks the algorithm.
        /// The `match` runs once per call, and each arm is a tight loop over
        /// the messages (the batch form for algorithms without lanes).
        pub(crate) fn hash_each<'a, S: Sink>(
            algorithm: Algorithm,
            count: usize,
            message: impl Fn(usize) -> &'a [u8],
            sink: &mut S,
        ) -> Option<()> {
            match algorithm {
                $(
                    $(#[cfg(feature = $feature)])?
                    Algorithm::$variant => {
                        for index in 0..count {
                            sink.put(index, <$wrapper as Wrapper<$len>>::hash(message(index)));
                        }
                        Some(())
                    }
                )*
                #[allow(unreachable_patterns)] // Reached only when a feature is off.
                _ => None,
            }
        }

        /// The name of the code that computes `algorithm` on this machine, or
        /// `None` if this build lacks it.
        pub(crate) fn implementation(algorithm: Algorithm) -> Option<&'static str> {
            match algorithm {
                $(
                    $(#[cfg(feature = $feature)])?
                    Algorithm::$variant => Some(<$wrapper as Wrapper<$len>>::implementation()),
                )*
                #[allow(unreachable_patterns)] // Reached only when a feature is off.
                _ => None,
            }
        }

        /// The streaming state of any algorithm this build has.
        // The BLAKE3 hasher (about 2.8 KiB) sets the size of every variant;
        // boxing it would need the heap, which the registry does without
        // (no_std, no alloc).
        #[allow(clippy::large_enum_variant)]
        #[derive(Clone)]
        pub(crate) enum State {
            $($(#[cfg(feature = $feature)])? $variant($wrapper),)*
        }

        impl State {
            /// A fresh state, or `None` if this build lacks the algorithm.
            pub(crate) fn new(algorithm: Algorithm) -> Option<State> {
                match algorithm {
                    $(
                        $(#[cfg(feature = $feature)])?
                        Algorithm::$variant => Some(State::$variant(<$wrapper as Wrapper<$len>>::new())),
                    )*
                    #[allow(unreachable_patterns)] // Reached only when a feature is off.
                    _ => None,
                }
            }

            pub(crate) fn update(&mut self, input: &[u8]) {
                match self {
                    $($(#[cfg(feature = $feature)])? State::$variant(state) => Wrapper::<$len>::update(state, input),)*
                }
            }

            /// The output so far, made into a result by `finish`.
            pub(crate) fn finalize_with<F: Finish>(&self, finish: F) -> F::Output {
                match self {
                    $(
                        $(#[cfg(feature = $feature)])?
                        State::$variant(state) => finish.finish(Wrapper::<$len>::finalize(state)),
                    )*
                }
            }

            pub(crate) fn reset(&mut self) {
                match self {
                    $($(#[cfg(feature = $feature)])? State::$variant(state) => Wrapper::<$len>::reset(state),)*
                }
            }
        }
    };
}

/// A row's `feature` as an `Option`.
macro_rules! cargo_feature {
    () => {
        None
    };
    ($feature:literal) => {
        Some($feature)
    };
}

registry! {
    /// BLAKE3, 32 bytes.
    Blake3 = 1 { name: "BLAKE3", bsd_tag: "BLAKE3", aliases: ["b3"],
        digest_len: 32, cryptographic: true, wrapper: crate::blake3::Hasher }
    /// The first 20 bytes of BLAKE3: the chunk address of
    /// [`blake3::Hash::address`](crate::blake3::Hash::address), and what
    /// `b3sum -l 20` prints.
    Blake3_160 = 2 { name: "BLAKE3-160", bsd_tag: "BLAKE3-160", aliases: ["b3-160"],
        digest_len: 20, cryptographic: true, wrapper: Prefix<crate::blake3::Hasher, 32, 20> }
    /// XXH3, 64-bit output, seed 0 and the default secret.
    Xxh3_64 = 3 { name: "XXH3-64", bsd_tag: "XXH3", aliases: ["xxh3", "xxh3-64bits"],
        digest_len: 8, cryptographic: false, feature: "xxhash", wrapper: crate::xxhash::Xxh3_64 }
    /// XXH3, 128-bit output (`XXH128`), seed 0 and the default secret.
    Xxh3_128 = 4 { name: "XXH3-128", bsd_tag: "XXH128", aliases: ["xxh128", "xxh3-128bits"],
        digest_len: 16, cryptographic: false, feature: "xxhash", wrapper: crate::xxhash::Xxh3_128 }
    /// XXH64, seed 0.
    Xxh64 = 5 { name: "XXH64", bsd_tag: "XXH64", aliases: ["xxhash64"],
        digest_len: 8, cryptographic: false, feature: "xxhash", wrapper: crate::xxhash::Xxh64 }
    /// XXH32, seed 0.
    Xxh32 = 6 { name: "XXH32", bsd_tag: "XXH32", aliases: ["xxhash32"],
        digest_len: 4, cryptographic: false, feature: "xxhash", wrapper: crate::xxhash::Xxh32 }
    /// CRC-32C (Castagnoli, the iSCSI polynomial; reflected, initial value
    /// and final XOR `0xFFFFFFFF`): check value `0xE3069283` for `"123456789"`.
    Crc32c = 7 { name: "CRC32C", bsd_tag: "CRC32C", aliases: ["crc-32c", "crc-32/iscsi"],
        digest_len: 4, cryptographic: false, feature: "crc", wrapper: crate::crc::Crc32c }
    /// BLAKE2b with a 64-byte output, unkeyed (what `b2sum` prints).
    Blake2b512 = 8 { name: "BLAKE2b-512", bsd_tag: "BLAKE2b", aliases: ["blake2b"],
        digest_len: 64, cryptographic: true, feature: "blake2", wrapper: crate::blake2b::Blake2b<64> }
    /// BLAKE2b with a 32-byte output, unkeyed: the digest length is a BLAKE2b
    /// parameter, so this is not a truncation of BLAKE2b-512 (`b2sum -l 256`,
    /// btrfs `blake2`).
    Blake2b256 = 9 { name: "BLAKE2b-256", bsd_tag: "BLAKE2b-256", aliases: [],
        digest_len: 32, cryptographic: true, feature: "blake2", wrapper: crate::blake2b::Blake2b<32> }
    /// SHA-256 (FIPS 180-4).
    Sha256 = 10 { name: "SHA-256", bsd_tag: "SHA256", aliases: ["sha256", "sha2-256"],
        digest_len: 32, cryptographic: true, feature: "sha2", wrapper: crate::sha2::Sha256 }
    /// SHA-512 (FIPS 180-4).
    Sha512 = 11 { name: "SHA-512", bsd_tag: "SHA512", aliases: ["sha512", "sha2-512"],
        digest_len: 64, cryptographic: true, feature: "sha2", wrapper: crate::sha2::Sha512 }
    /// The first 20 bytes of SHA-512: the legacy chunk address of Dolt-style
    /// (noms) chunk stores, kept for migration. Not the FIPS 180-4
    /// "SHA-512/t" family, which uses other initial values.
    Sha512_160 = 12 { name: "SHA-512/160", bsd_tag: "SHA512-160", aliases: ["sha512/160", "sha512-160"],
        digest_len: 20, cryptographic: true, feature: "sha2", wrapper: Prefix<crate::sha2::Sha512, 64, 20> }
    /// CRC-32 (ISO-HDLC: zlib's, gzip's and PNG's `crc32`, S3's `CRC32`;
    /// reflected polynomial 0x04C11DB7, initial value and final XOR
    /// `0xFFFFFFFF`): check value `0xCBF43926` for `"123456789"`. Not the
    /// POSIX `cksum` CRC, which is unreflected and appends the length.
    Crc32 = 13 { name: "CRC-32", bsd_tag: "CRC32", aliases: ["crc32", "crc-32/iso-hdlc", "crc32b"],
        digest_len: 4, cryptographic: false, feature: "crc", wrapper: crate::crc::Crc32 }
    /// CRC-64/NVME (the NVM Express CRC, S3's `CRC64NVME`; reflected
    /// polynomial 0xAD93D23594C93659, initial value and final XOR all ones):
    /// check value `0xAE8B14860A799888` for `"123456789"`.
    Crc64Nvme = 14 { name: "CRC-64/NVME", bsd_tag: "CRC64NVME", aliases: ["crc64nvme", "crc64-nvme"],
        digest_len: 8, cryptographic: false, feature: "crc", wrapper: crate::crc::Crc64Nvme }
    /// MD5 (RFC 1321), for compatibility only (S3 ETags, `md5sum` files):
    /// broken against collisions, never for new designs.
    Md5 = 15 { name: "MD5", bsd_tag: "MD5", aliases: ["md5"],
        digest_len: 16, cryptographic: true, feature: "compat", wrapper: crate::md5_sha1::Md5 }
    /// SHA-1 (FIPS 180-4), for compatibility only (S3's `SHA1` checksum,
    /// `sha1sum` files): broken against collisions, never for new designs.
    Sha1 = 16 { name: "SHA-1", bsd_tag: "SHA1", aliases: ["sha1"],
        digest_len: 20, cryptographic: true, feature: "compat", wrapper: crate::md5_sha1::Sha1 }
}

/// The largest [`Algorithm::digest_len`]: 64 bytes (BLAKE2b-512, SHA-512).
pub const MAX_DIGEST_LEN: usize = {
    let mut max = 0;
    let mut i = 0;
    while i < PROPERTIES.len() {
        if PROPERTIES[i].digest_len > max {
            max = PROPERTIES[i].digest_len;
        }
        i += 1;
    }
    max
};

// The rows are in id order with no gap, starting at 1: `Algorithm::from_id`
// indexes `ALL` by `id - 1`, and the property lookup `PROPERTIES` by `id`
// (a reserved row 0 first, which spares the lookup a subtraction and a
// bounds check: by callgrind, `digest_len` costs 2 instructions more than the
// hand-written `match` it replaces, where `id - 1` cost 6).
const _: () = {
    let mut i = 0;
    while i < ALL.len() {
        assert!(ALL[i] as usize == i + 1, "registry rows must have ids 1, 2, 3, ... in order");
        i += 1;
    }
};

/// What [`hash_with`] makes of an algorithm's output: a digest
/// (`digest.rs`), a trailer or a verdict on one (`trailer.rs`). Generic over
/// the length, so each arm of the dispatch works on a fixed-size array.
pub(crate) trait Finish {
    type Output;
    fn finish<const N: usize>(self, output: [u8; N]) -> Self::Output;
}

/// Where [`hash_each`] puts each message's output.
pub(crate) trait Sink {
    fn put<const N: usize>(&mut self, index: usize, output: [u8; N]);
}
