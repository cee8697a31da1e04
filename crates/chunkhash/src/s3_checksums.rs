//! Every checksum Amazon S3 records for an object, computed in one pass over
//! its bytes, exactly as S3 reports them.
//!
//! S3 takes ten checksum kinds ([`S3Checksum`]): CRC32, CRC32C and
//! CRC64NVME, SHA1, SHA256, SHA512 and MD5, XXHASH64, XXHASH3 (XXH3-64) and
//! XXHASH128 (XXH3-128), each sent and returned as the base64 of the
//! digest's big-endian bytes, in a header `x-amz-checksum-<kind>` and a
//! request or response field `Checksum<KIND>` (the S3 API reference, type
//! `Checksum`, and the SDKs generated from it: e.g. the Kotlin SDK's
//! `PutObjectRequest.checksumXxhash3`, "the Base64 encoded, 64-bit XXHASH3
//! checksum of the object", and `checksumXxhash128`, 128-bit). Besides them,
//! the ETag: the hex MD5 of the object, in double quotes.
//!
//! An object uploaded in parts of [`S3Hasher::with_part_size`] bytes (the
//! last one shorter) has the multipart forms instead:
//!
//! - the CRCs, full-object: the CRC of the whole object, as S3 computes it
//!   for `ChecksumType` `FULL_OBJECT`, here made from each part's CRC with
//!   [`crc_combine`], as a multipart uploader does;
//! - the others, composite: the kind's hash of the parts' digests
//!   concatenated, then `-N` for N parts (`ChecksumType` `COMPOSITE`);
//! - the ETag: the hex MD5 of the parts' MD5 digests, then `-N`.
//!
//! [`MultipartChecksum`] is that composition for one kind, the one
//! implementation both `s3sum` (through [`S3Hasher`]) and the store's
//! multipart uploads use.
//!
//! An [`S3Hasher`] keeps one state per kind and splits them into two groups
//! of about equal cost (MD5 and SHA-512 are the slow ones); an update of at
//! least [`PARALLEL_MIN`] bytes hashes the second group on a scoped thread,
//! so the ten kinds run on two cores from one read of the data.
//!
//! An object that can be read at any offset (a file) has its multipart
//! forms computed faster by [`multipart_sums_at`]: the parts are
//! independent messages, so it hashes 16 at a time side by side, their
//! MD5, SHA-1, SHA-256 and SHA-512 in SIMD lanes (or SHA-256 interleaved
//! on the SHA extensions: `chunkhash::multi_buffer`'s streams).

use crate::{crc_combine, Algorithm, Digest, StreamingHasher};
use std::string::String;
use std::vec;
use std::vec::Vec;

/// One of S3's checksum kinds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum S3Checksum {
    /// `CRC32`: CRC-32 (ISO-HDLC); full-object when multipart.
    Crc32,
    /// `CRC32C`: CRC-32C; full-object when multipart.
    Crc32c,
    /// `CRC64NVME`: CRC-64/NVME, S3's default; full-object when multipart.
    Crc64Nvme,
    /// `SHA1`: SHA-1; composite when multipart.
    Sha1,
    /// `SHA256`: SHA-256; composite when multipart.
    Sha256,
    /// `SHA512`: SHA-512; composite when multipart.
    Sha512,
    /// `MD5`: MD5; composite when multipart.
    Md5,
    /// `XXHASH64`: XXH64, seed 0; composite when multipart.
    Xxhash64,
    /// `XXHASH3`: XXH3-64, seed 0; composite when multipart.
    Xxhash3,
    /// `XXHASH128`: XXH3-128, seed 0; composite when multipart.
    Xxhash128,
}

/// Updates of at least this many bytes hash the two groups of kinds on two
/// threads; smaller ones on the caller's thread alone, where starting a
/// thread (tens of microseconds) would cost more than it saves.
pub const PARALLEL_MIN: usize = 256 * 1024;

impl S3Checksum {
    /// The ten kinds, in the order S3's documentation lists them.
    pub const ALL: [S3Checksum; 10] = [
        S3Checksum::Crc32,
        S3Checksum::Crc32c,
        S3Checksum::Crc64Nvme,
        S3Checksum::Sha1,
        S3Checksum::Sha256,
        S3Checksum::Sha512,
        S3Checksum::Md5,
        S3Checksum::Xxhash64,
        S3Checksum::Xxhash3,
        S3Checksum::Xxhash128,
    ];

    /// S3's name of the kind (`ChecksumAlgorithm`): `"CRC64NVME"`, `"SHA256"`, ...
    pub const fn name(self) -> &'static str {
        match self {
            S3Checksum::Crc32 => "CRC32",
            S3Checksum::Crc32c => "CRC32C",
            S3Checksum::Crc64Nvme => "CRC64NVME",
            S3Checksum::Sha1 => "SHA1",
            S3Checksum::Sha256 => "SHA256",
            S3Checksum::Sha512 => "SHA512",
            S3Checksum::Md5 => "MD5",
            S3Checksum::Xxhash64 => "XXHASH64",
            S3Checksum::Xxhash3 => "XXHASH3",
            S3Checksum::Xxhash128 => "XXHASH128",
        }
    }

    /// The request and response field (boto3's parameter name):
    /// `"ChecksumCRC64NVME"`, ...
    pub fn field(self) -> String {
        let mut field = String::from("Checksum");
        field.push_str(self.name());
        field
    }

    /// The HTTP header: `"x-amz-checksum-crc64nvme"`, ...
    pub fn header(self) -> String {
        let mut header = String::from("x-amz-checksum-");
        header.push_str(&self.name().to_ascii_lowercase());
        header
    }

    /// The registry algorithm that computes it.
    pub const fn algorithm(self) -> Algorithm {
        match self {
            S3Checksum::Crc32 => Algorithm::Crc32,
            S3Checksum::Crc32c => Algorithm::Crc32c,
            S3Checksum::Crc64Nvme => Algorithm::Crc64Nvme,
            S3Checksum::Sha1 => Algorithm::Sha1,
            S3Checksum::Sha256 => Algorithm::Sha256,
            S3Checksum::Sha512 => Algorithm::Sha512,
            S3Checksum::Md5 => Algorithm::Md5,
            S3Checksum::Xxhash64 => Algorithm::Xxh64,
            S3Checksum::Xxhash3 => Algorithm::Xxh3_64,
            S3Checksum::Xxhash128 => Algorithm::Xxh3_128,
        }
    }

    /// Whether a multipart object's value is the full object's (the CRCs)
    /// rather than a composite of its parts'.
    pub const fn is_full_object(self) -> bool {
        matches!(self, S3Checksum::Crc32 | S3Checksum::Crc32c | S3Checksum::Crc64Nvme)
    }

    /// The kind named `name` (S3's name, or its field or header, any case).
    pub fn from_name(name: &str) -> Option<S3Checksum> {
        let lower = name.to_ascii_lowercase();
        let bare = lower.strip_prefix("x-amz-checksum-").or_else(|| lower.strip_prefix("checksum")).unwrap_or(&lower);
        S3Checksum::ALL.into_iter().find(|kind| kind.name().eq_ignore_ascii_case(bare))
    }

    /// Cost per byte in tenths of a cycle, for splitting the kinds between
    /// two threads: `chunkhash bench --sizes 1M --threads 1` on the project
    /// machine (Zen 4): MD5 5.8 cycles/byte (portable code), SHA-512 5.6
    /// (AVX2), SHA-1 1.85 and SHA-256 1.9 (SHA-NI), the CRCs and xxHash
    /// about 0.05. So one thread gets MD5 and the other SHA-512, and the
    /// rest goes to even them out.
    const fn cost(self) -> u32 {
        match self {
            S3Checksum::Md5 => 58,
            S3Checksum::Sha512 => 56,
            S3Checksum::Sha256 | S3Checksum::Sha1 => 19,
            _ => 1,
        }
    }

    /// [`S3Checksum::cost`] when parts are hashed side by side
    /// ([`multipart_sums_at`]): MD5, SHA-1, SHA-256 and SHA-512 through the
    /// multi-buffer streams. Scaled from their time against one hasher per
    /// part (`multi_buffer_vs_loop --only streams`, 16 parts of 8 MiB, the
    /// project machine, AVX-512 and SHA-NI): MD5 10x faster, SHA-512 5.2x,
    /// SHA-1 2.1x, SHA-256 1.7x; so all four cost about the same, and the
    /// split puts two on each thread.
    const fn side_by_side_cost(self) -> u32 {
        match self {
            S3Checksum::Md5 => 6,
            S3Checksum::Sha1 => 9,
            S3Checksum::Sha256 | S3Checksum::Sha512 => 11,
            _ => self.cost(),
        }
    }
}

impl core::fmt::Display for S3Checksum {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.name())
    }
}

/// One kind's checksum of an object uploaded in parts of a fixed size (all
/// but the last exactly that long): the object's value S3 keeps, and if
/// asked, each part's own digest, which its upload request carries. An
/// [`S3Hasher`] with a part size runs one per kind; a store's multipart
/// upload runs one for its kind (`chunkhash_store::location::upload`).
///
/// ```
/// use chunkhash::s3_checksums::{MultipartChecksum, S3Checksum};
///
/// let mut sum = MultipartChecksum::new(S3Checksum::Sha256, 6).unwrap().keeping_part_digests();
/// sum.update(b"hello ").update(b"world");
/// let sum = sum.finish();
/// assert_eq!(sum.parts(), 2);
/// assert_eq!(sum.part_digests()[1], chunkhash::digest(chunkhash::Algorithm::Sha256, b"world"));
/// assert!(sum.value().ends_with("-2"));
/// ```
#[derive(Clone, Debug)]
pub struct MultipartChecksum {
    kind: S3Checksum,
    part_size: u64,
    /// The current part's hasher.
    part: StreamingHasher,
    /// Bytes in the current part.
    in_part: u64,
    /// Finished parts.
    parts: u64,
    /// The CRC of all finished parts (full-object kinds).
    crc: u64,
    /// The hash of the finished parts' digests (composite kinds).
    composite: StreamingHasher,
    /// Each finished part's digest, when kept.
    part_digests: Option<Vec<Digest>>,
}

impl MultipartChecksum {
    /// Nothing added yet.
    ///
    /// # Errors
    ///
    /// [`ZeroPartSize`] for a part size of 0.
    pub fn new(kind: S3Checksum, part_size: u64) -> Result<MultipartChecksum, ZeroPartSize> {
        if part_size == 0 {
            return Err(ZeroPartSize);
        }
        let algorithm = kind.algorithm();
        Ok(MultipartChecksum {
            kind,
            part_size,
            part: StreamingHasher::new(algorithm),
            in_part: 0,
            parts: 0,
            crc: 0,
            composite: StreamingHasher::new(algorithm),
            part_digests: None,
        })
    }

    /// The sum of a whole object held in memory, each part's digest kept:
    /// the same as [`new`](MultipartChecksum::new),
    /// [`keeping_part_digests`](MultipartChecksum::keeping_part_digests),
    /// one [`update`](MultipartChecksum::update) and
    /// [`finish`](MultipartChecksum::finish), but the parts are hashed
    /// side by side ([`digest_many`](crate::digest_many): MD5, SHA-1,
    /// SHA-256 and SHA-512 parts in SIMD lanes or interleaved SHA-NI
    /// streams) rather than one after another.
    ///
    /// ```
    /// use chunkhash::s3_checksums::{MultipartChecksum, S3Checksum};
    ///
    /// let of = MultipartChecksum::of(S3Checksum::Sha256, 6, b"hello world").unwrap();
    /// let mut fed = MultipartChecksum::new(S3Checksum::Sha256, 6).unwrap().keeping_part_digests();
    /// fed.update(b"hello world");
    /// assert_eq!(of, fed.finish());
    /// ```
    ///
    /// # Errors
    ///
    /// [`ZeroPartSize`] for a part size of 0.
    pub fn of(kind: S3Checksum, part_size: u64, object: &[u8]) -> Result<MultipartSum, ZeroPartSize> {
        let mut sum = MultipartChecksum::new(kind, part_size)?.keeping_part_digests();
        // An empty object is one empty part.
        let parts: Vec<&[u8]> = if object.is_empty() {
            vec![object]
        } else {
            object.chunks(usize::try_from(part_size).unwrap_or(usize::MAX)).collect()
        };
        let mut digests = vec![crate::digest(kind.algorithm(), b""); parts.len()];
        crate::digest_many(kind.algorithm(), &parts, &mut digests);
        for (part, digest) in parts.iter().zip(digests) {
            sum.add_part(digest, part.len() as u64);
        }
        Ok(sum.finish())
    }

    /// Also keeps each part's digest ([`MultipartSum::part_digests`]).
    pub fn keeping_part_digests(mut self) -> MultipartChecksum {
        self.part_digests = Some(Vec::new());
        self
    }

    /// Adds the object's next bytes.
    pub fn update(&mut self, mut data: &[u8]) -> &mut Self {
        while !data.is_empty() {
            // A part is closed when the next byte arrives, so an object
            // whose length is a multiple of the part size has no empty
            // last part.
            if self.in_part == self.part_size {
                self.close_part();
            }
            let room = usize::try_from(self.part_size - self.in_part).unwrap_or(usize::MAX);
            let (now, later) = data.split_at(data.len().min(room));
            self.part.update(now);
            self.in_part += now.len() as u64;
            data = later;
        }
        self
    }

    /// Bytes added so far.
    pub fn len(&self) -> u64 {
        self.parts * self.part_size + self.in_part
    }

    /// Whether nothing was added yet.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn close_part(&mut self) {
        let digest = self.part.finalize();
        self.part.reset();
        let len = core::mem::take(&mut self.in_part);
        self.add_part(digest, len);
    }

    /// Adds a finished part of `len` bytes by its digest (none may be
    /// open: the caller hashed the part itself, side by side with others).
    fn add_part(&mut self, digest: Digest, len: u64) {
        debug_assert_eq!(self.in_part, 0, "a part is open");
        if self.kind.is_full_object() {
            let crc = crc_integer(&digest);
            self.crc = if self.parts == 0 {
                crc
            } else {
                crc_combine(self.kind.algorithm(), self.crc, crc, len).expect("a CRC kind")
            };
        } else {
            self.composite.update(digest.as_bytes());
        }
        if let Some(digests) = &mut self.part_digests {
            digests.push(digest);
        }
        self.parts += 1;
    }

    /// Closes the last part (an empty object is one empty part) and
    /// composes the object's value.
    pub fn finish(mut self) -> MultipartSum {
        if self.in_part > 0 || self.parts == 0 {
            self.close_part();
        }
        let digest = if self.kind.is_full_object() {
            let len = self.kind.algorithm().digest_len();
            self.crc.to_be_bytes()[8 - len..].to_vec()
        } else {
            self.composite.finalize().as_bytes().to_vec()
        };
        MultipartSum { kind: self.kind, digest, parts: self.parts, part_digests: self.part_digests.unwrap_or_default() }
    }
}

/// What a [`MultipartChecksum`] came to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MultipartSum {
    kind: S3Checksum,
    digest: Vec<u8>,
    parts: u64,
    part_digests: Vec<Digest>,
}

impl MultipartSum {
    /// The kind.
    pub fn kind(&self) -> S3Checksum {
        self.kind
    }

    /// The object's digest: the whole object's CRC (full-object kinds) or
    /// the kind's hash of the parts' digests (composite kinds).
    pub fn digest(&self) -> &[u8] {
        &self.digest
    }

    /// The number of parts, at least 1.
    pub fn parts(&self) -> u64 {
        self.parts
    }

    /// The value as S3 reports it: the digest in base64, then `-N` for
    /// N parts for a composite kind.
    pub fn value(&self) -> String {
        let mut value = base64(&self.digest);
        if !self.kind.is_full_object() {
            value.push_str(&std::format!("-{}", self.parts));
        }
        value
    }

    /// Each part's digest, in order, if
    /// [`keeping_part_digests`](MultipartChecksum::keeping_part_digests)
    /// asked for them; else empty.
    pub fn part_digests(&self) -> &[Digest] {
        &self.part_digests
    }
}

/// One kind's state in an [`S3Hasher`].
// At most eleven lanes, made once per object: their size does not matter.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug)]
enum Lane {
    /// A single-part upload: the digest of the whole object.
    Single(S3Checksum, StreamingHasher),
    Multipart(MultipartChecksum),
}

impl Lane {
    fn kind(&self) -> S3Checksum {
        match self {
            Lane::Single(kind, _) => *kind,
            Lane::Multipart(sum) => sum.kind,
        }
    }

    fn update(&mut self, data: &[u8]) {
        match self {
            Lane::Single(_, hasher) => {
                hasher.update(data);
            }
            Lane::Multipart(sum) => {
                sum.update(data);
            }
        }
    }
}

/// `kinds` made into two groups of about equal `cost` for two threads:
/// greedily, the dearest kind first, each to the lighter group.
fn split_by_cost<T>(
    mut kinds: Vec<S3Checksum>,
    cost: fn(S3Checksum) -> u32,
    mut make: impl FnMut(S3Checksum) -> T,
) -> [Vec<T>; 2] {
    kinds.sort_by_key(|&kind| core::cmp::Reverse(cost(kind)));
    let mut groups = [Vec::new(), Vec::new()];
    let mut costs = [0u32; 2];
    for kind in kinds {
        let lighter = usize::from(costs[1] < costs[0]);
        costs[lighter] += cost(kind);
        groups[lighter].push(make(kind));
    }
    groups
}

/// `update` on every state of both groups, the second group on a scoped
/// thread when the step hashes at least [`PARALLEL_MIN`] bytes.
fn on_two_threads<T: Send>(groups: &mut [Vec<T>; 2], bytes: usize, update: impl Fn(&mut T) + Sync) {
    let [first, second] = groups;
    let hash_group = |group: &mut Vec<T>| group.iter_mut().for_each(&update);
    if bytes >= PARALLEL_MIN && !second.is_empty() {
        std::thread::scope(|scope| {
            scope.spawn(|| hash_group(second));
            hash_group(first);
        });
    } else {
        hash_group(first);
        hash_group(second);
    }
}

fn crc_integer(digest: &Digest) -> u64 {
    digest.as_bytes().iter().fold(0u64, |value, &byte| value << 8 | u64::from(byte))
}

/// Computes S3's checksums of one object, fed in pieces of any size.
///
/// ```
/// use chunkhash::s3_checksums::{S3Checksum, S3Hasher};
///
/// let mut hasher = S3Hasher::new(&S3Checksum::ALL);
/// hasher.update(b"hello world");
/// let sums = hasher.finalize();
/// assert_eq!(sums.get(S3Checksum::Crc32), Some("DUoRhQ=="));
/// assert_eq!(sums.etag(), "\"5eb63bbbe01eeed093cb22bb8f5acdc3\"");
///
/// // In parts of 6 bytes: "hello " and "world".
/// let mut hasher = S3Hasher::with_part_size(&S3Checksum::ALL, 6).unwrap();
/// hasher.update(b"hello world");
/// let sums = hasher.finalize();
/// assert_eq!(sums.get(S3Checksum::Crc32), Some("DUoRhQ=="));
/// assert!(sums.get(S3Checksum::Sha256).unwrap().ends_with("-2"));
/// assert!(sums.etag().ends_with("-2\""));
/// ```
#[derive(Clone, Debug)]
pub struct S3Hasher {
    /// The two groups of lanes, hashed side by side. MD5 is always in one
    /// of them: it gives the ETag.
    groups: [Vec<Lane>; 2],
    /// Whether MD5 was asked for (else it runs for the ETag alone).
    md5_wanted: bool,
    len: u64,
}

/// What [`S3Hasher::with_part_size`] and [`MultipartChecksum::new`] refuse.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ZeroPartSize;

impl core::fmt::Display for ZeroPartSize {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("the part size must be at least 1 byte")
    }
}

impl std::error::Error for ZeroPartSize {}

impl S3Hasher {
    /// The checksums of a single-part upload (`PutObject`), for `kinds`
    /// (repeats ignored), and the ETag.
    pub fn new(kinds: &[S3Checksum]) -> S3Hasher {
        S3Hasher::split(kinds, S3Checksum::cost)
    }

    /// [`S3Hasher::new`], its kinds split between the two threads by `cost`.
    fn split(kinds: &[S3Checksum], cost: fn(S3Checksum) -> u32) -> S3Hasher {
        let mut kinds: Vec<S3Checksum> = kinds.to_vec();
        kinds.sort();
        kinds.dedup();
        let md5_wanted = kinds.contains(&S3Checksum::Md5);
        if !md5_wanted {
            kinds.push(S3Checksum::Md5);
        }
        let groups = split_by_cost(kinds, cost, |kind| Lane::Single(kind, StreamingHasher::new(kind.algorithm())));
        S3Hasher { groups, md5_wanted, len: 0 }
    }

    /// The checksums of a multipart upload in parts of `part_size` bytes
    /// (the last part shorter): full-object CRCs, composite `value-N` for the
    /// others, and the multipart ETag. An empty object is one empty part.
    ///
    /// # Errors
    ///
    /// [`ZeroPartSize`] for a part size of 0.
    pub fn with_part_size(kinds: &[S3Checksum], part_size: u64) -> Result<S3Hasher, ZeroPartSize> {
        S3Hasher::multipart(kinds, part_size, S3Checksum::cost)
    }

    /// [`S3Hasher::with_part_size`], its kinds split by `cost`.
    fn multipart(kinds: &[S3Checksum], part_size: u64, cost: fn(S3Checksum) -> u32) -> Result<S3Hasher, ZeroPartSize> {
        let mut hasher = S3Hasher::split(kinds, cost);
        for lane in hasher.groups.iter_mut().flatten() {
            *lane = Lane::Multipart(MultipartChecksum::new(lane.kind(), part_size)?);
        }
        Ok(hasher)
    }

    /// Adds the object's next bytes. At least [`PARALLEL_MIN`] bytes are
    /// hashed on two threads.
    pub fn update(&mut self, data: &[u8]) -> &mut Self {
        on_two_threads(&mut self.groups, data.len(), |lane| lane.update(data));
        self.len += data.len() as u64;
        self
    }

    /// Bytes added so far.
    pub fn len(&self) -> u64 {
        self.len
    }

    /// Whether nothing was added yet.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The values, as S3 reports them.
    pub fn finalize(self) -> S3Sums {
        let mut values = Vec::new();
        let mut etag = String::new();
        let mut parts = 0;
        for lane in self.groups.into_iter().flatten() {
            let (kind, digest, value) = match lane {
                Lane::Single(kind, hasher) => {
                    let digest = hasher.finalize().as_bytes().to_vec();
                    let value = base64(&digest);
                    (kind, digest, value)
                }
                Lane::Multipart(sum) => {
                    let sum = sum.finish();
                    parts = sum.parts();
                    (sum.kind(), sum.digest().to_vec(), sum.value())
                }
            };
            if kind == S3Checksum::Md5 {
                let suffix = if parts > 0 { std::format!("-{parts}") } else { String::new() };
                etag = std::format!("\"{}{suffix}\"", crate::hex::encode(&digest));
                if !self.md5_wanted {
                    continue;
                }
            }
            values.push((kind, value));
        }
        values.sort();
        S3Sums { values, etag, parts, len: self.len }
    }
}

/// Parts hashed side by side by [`multipart_sums_at`]: the lanes of the
/// widest MD5 and SHA-1 kernels (AVX-512: 16 lanes of 32-bit words; SHA-512
/// takes them 8 at a time, SHA-256 on SHA-NI 4).
pub const PARTS_SIDE_BY_SIDE: usize = 16;

/// Bytes of each part [`multipart_sums_at`] reads at a time: 16 parts of
/// 256 KiB hold 4 MiB, and each step is large enough for two threads
/// ([`PARALLEL_MIN`]).
pub const PART_WINDOW: usize = 256 * 1024;

/// The multipart checksums of an object of `len` bytes (as
/// [`S3Hasher::with_part_size`] gives them), read through `read_at(offset,
/// buffer)`, which must fill `buffer` with the object's bytes from
/// `offset` on (a file's `read_exact_at`).
///
/// The parts are independent messages, so instead of one after another
/// they are hashed [`PARTS_SIDE_BY_SIDE`] at a time: a window of
/// [`PART_WINDOW`] bytes of each (at most 4 MiB held), MD5 (the ETag and
/// the MD5 kind), SHA-1, SHA-256 and SHA-512 of all of them side by side in
/// SIMD lanes (one part after another, each runs at one block per
/// compression's latency), the other kinds part by part, the kinds split
/// between two threads as in [`S3Hasher::update`].
/// Reading at offsets, rather than the object in order, is what keeps the
/// memory bounded: in order, the parts of one group would arrive one whole
/// part after another and all but the last would have to be held.
///
/// ```
/// use chunkhash::s3_checksums::{multipart_sums_at, S3Checksum, S3Hasher};
/// use std::num::NonZeroU64;
///
/// let object = b"hello world";
/// let read_at = |offset: u64, buffer: &mut [u8]| -> Result<(), ()> {
///     let start = offset as usize;
///     buffer.copy_from_slice(&object[start..start + buffer.len()]);
///     Ok(())
/// };
/// let sums = multipart_sums_at(&S3Checksum::ALL, NonZeroU64::new(6).unwrap(), 11, read_at).unwrap();
/// let mut hasher = S3Hasher::with_part_size(&S3Checksum::ALL, 6).unwrap();
/// hasher.update(object);
/// assert_eq!(sums, hasher.finalize());
/// ```
///
/// # Errors
///
/// The first error of `read_at` (nothing more is read then).
pub fn multipart_sums_at<E>(
    kinds: &[S3Checksum],
    part_size: core::num::NonZeroU64,
    len: u64,
    mut read_at: impl FnMut(u64, &mut [u8]) -> Result<(), E>,
) -> Result<S3Sums, E> {
    let part_size = part_size.get();
    let mut hasher = S3Hasher::multipart(kinds, part_size, S3Checksum::side_by_side_cost).expect("not 0");
    let parts = len.div_ceil(part_size).max(1);
    let window = usize::try_from(part_size).unwrap_or(usize::MAX).min(PART_WINDOW);
    let most = usize::try_from(parts).unwrap_or(usize::MAX).min(PARTS_SIDE_BY_SIDE);
    let mut buffer = vec![0u8; window * most];
    let mut first = 0u64;
    while first < parts {
        let count = usize::try_from(parts - first).unwrap_or(usize::MAX).min(PARTS_SIDE_BY_SIDE);
        let start = |i: usize| (first + i as u64) * part_size;
        let part_len = |i: usize| (len - start(i)).min(part_size);
        let mut groups = hasher
            .groups
            .each_ref()
            .map(|lanes| lanes.iter().map(|lane| PartGroup::new(lane.kind(), count)).collect::<Vec<_>>());
        let mut offset = 0u64;
        let mut takes = [0usize; PARTS_SIDE_BY_SIDE];
        loop {
            for (i, take) in takes[..count].iter_mut().enumerate() {
                *take = usize::try_from(part_len(i).saturating_sub(offset)).unwrap_or(usize::MAX).min(window);
                if *take > 0 {
                    read_at(start(i) + offset, &mut buffer[i * window..i * window + *take])?;
                }
            }
            let total: usize = takes[..count].iter().sum();
            if total == 0 {
                break;
            }
            let mut pieces: [&[u8]; PARTS_SIDE_BY_SIDE] = [&[]; PARTS_SIDE_BY_SIDE];
            for (i, piece) in pieces[..count].iter_mut().enumerate() {
                *piece = &buffer[i * window..i * window + takes[i]];
            }
            let pieces = &pieces[..count];
            on_two_threads(&mut groups, total, |group| group.update(pieces));
            offset += window as u64;
        }
        for (lanes, group) in hasher.groups.iter_mut().zip(groups) {
            for (lane, part_group) in lanes.iter_mut().zip(group) {
                let Lane::Multipart(sum) = lane else { unreachable!("made by S3Hasher::multipart") };
                for (i, digest) in part_group.finish().into_iter().enumerate() {
                    sum.add_part(digest, part_len(i));
                }
            }
        }
        first += count as u64;
    }
    hasher.len = len;
    Ok(hasher.finalize())
}

/// One kind's digests of a group of consecutive parts fed side by side.
enum PartGroup {
    /// MD5 in SIMD lanes.
    Md5(crate::multi_buffer::Md5Streams),
    /// SHA-1 in SIMD lanes.
    Sha1(crate::multi_buffer::Sha1Streams),
    /// SHA-256 interleaved on the SHA extensions, or in SIMD lanes.
    Sha256(crate::multi_buffer::Sha256Streams),
    /// SHA-512 in SIMD lanes.
    Sha512(crate::multi_buffer::Sha512Streams),
    /// Any other kind: one hasher per part.
    Each(Vec<StreamingHasher>),
}

impl PartGroup {
    fn new(kind: S3Checksum, count: usize) -> PartGroup {
        use crate::multi_buffer::{Md5Streams, Sha1Streams, Sha256Streams, Sha512Streams};
        const DETECTED: &str = "the detected kernel runs";
        match kind {
            S3Checksum::Md5 => PartGroup::Md5(Md5Streams::new_on(None, count).expect(DETECTED)),
            S3Checksum::Sha1 => PartGroup::Sha1(Sha1Streams::new_on(None, count).expect(DETECTED)),
            S3Checksum::Sha256 => PartGroup::Sha256(Sha256Streams::new_on("", count).expect(DETECTED)),
            S3Checksum::Sha512 => PartGroup::Sha512(Sha512Streams::new_on(None, count).expect(DETECTED)),
            _ => PartGroup::Each(vec![StreamingHasher::new(kind.algorithm()); count]),
        }
    }

    /// Appends `pieces[i]` to part `i`.
    fn update(&mut self, pieces: &[&[u8]]) {
        match self {
            PartGroup::Md5(streams) => streams.update(pieces),
            PartGroup::Sha1(streams) => streams.update(pieces),
            PartGroup::Sha256(streams) => streams.update(pieces),
            PartGroup::Sha512(streams) => streams.update(pieces),
            PartGroup::Each(hashers) => {
                for (hasher, piece) in hashers.iter_mut().zip(pieces) {
                    hasher.update(piece);
                }
            }
        }
    }

    /// Each part's digest, in order.
    fn finish(self) -> Vec<Digest> {
        match self {
            PartGroup::Md5(streams) => digests(Algorithm::Md5, streams.count(), |out| streams.finalize(out)),
            PartGroup::Sha1(streams) => digests(Algorithm::Sha1, streams.count(), |out| streams.finalize(out)),
            PartGroup::Sha256(streams) => digests(Algorithm::Sha256, streams.count(), |out| streams.finalize(out)),
            PartGroup::Sha512(streams) => digests(Algorithm::Sha512, streams.count(), |out| streams.finalize(out)),
            PartGroup::Each(hashers) => hashers.iter().map(StreamingHasher::finalize).collect(),
        }
    }
}

/// `count` outputs of `N` bytes from `finalize`, as digests of `algorithm`.
fn digests<const N: usize>(algorithm: Algorithm, count: usize, finalize: impl FnOnce(&mut [[u8; N]])) -> Vec<Digest> {
    let mut out = vec![[0u8; N]; count];
    finalize(&mut out);
    out.iter().map(|output| Digest::from_output(algorithm, output)).collect()
}

/// S3's checksums of one object: see [`S3Hasher`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct S3Sums {
    values: Vec<(S3Checksum, String)>,
    etag: String,
    parts: u64,
    len: u64,
}

impl S3Sums {
    /// The value of `kind` as S3 reports it (base64, `-N` for a composite),
    /// or `None` if it was not asked for.
    pub fn get(&self, kind: S3Checksum) -> Option<&str> {
        self.values.iter().find(|(k, _)| *k == kind).map(|(_, value)| value.as_str())
    }

    /// Every value asked for, in [`S3Checksum::ALL`]'s order.
    pub fn values(&self) -> impl Iterator<Item = (S3Checksum, &str)> {
        self.values.iter().map(|(kind, value)| (*kind, value.as_str()))
    }

    /// The ETag, with its double quotes: `"hex"`, or `"hex-N"` for N parts.
    pub fn etag(&self) -> &str {
        &self.etag
    }

    /// The number of parts, or 0 for a single-part upload.
    pub fn parts(&self) -> u64 {
        self.parts
    }

    /// The object's length in bytes.
    pub fn len(&self) -> u64 {
        self.len
    }

    /// Whether the object is empty.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

/// Base64 (RFC 4648, section 4: the standard alphabet, with padding), the
/// encoding of every S3 checksum value.
pub fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for group in bytes.chunks(3) {
        let word = group.iter().enumerate().fold(0u32, |word, (i, &byte)| word | u32::from(byte) << (16 - 8 * i));
        for i in 0..4 {
            if i <= group.len() {
                out.push(char::from(ALPHABET[(word >> (18 - 6 * i) & 63) as usize]));
            } else {
                out.push('=');
            }
        }
    }
    out
}
