//! The checksum an object store verifies on upload, computed by the store
//! itself: for a pack, in the loop that writes and seals its records (one
//! pass over the bytes); for the small files, over their bytes.
//!
//! An object goes up in one request, or in parts of a part size (all but
//! the last exactly that long) when it is longer. Each part carries its own
//! value; the whole object's value is, for the CRCs, the CRC of the whole
//! object (S3's `FULL_OBJECT` type), made from the parts' CRCs with
//! [`chunkhash::crc_combine`], and for the others the kind's hash of the
//! parts' digests concatenated, then `-N` for N parts (`COMPOSITE`): the
//! composition `s3sum` uses too, [`chunkhash::s3_checksums::MultipartChecksum`].

pub use chunkhash::s3_checksums::S3Checksum;

use chunkhash::s3_checksums::{base64, MultipartChecksum, MultipartSum};
use std::io;

/// The kinds a store's uploads can carry, the default first: the CRCs
/// (which S3 and SeaweedFS check and keep), SHA-256 (checked and kept),
/// and XXHASH3 (accepted by SeaweedFS without being checked or kept).
pub const UPLOAD_KINDS: [S3Checksum; 5] =
    [S3Checksum::Crc64Nvme, S3Checksum::Crc32c, S3Checksum::Crc32, S3Checksum::Sha256, S3Checksum::Xxhash3];

/// The upload kind named `name` (`crc64nvme`, `CRC32C`, ...); an
/// `InvalidInput` error listing the choices for any other name.
pub fn parse_kind(name: &str) -> io::Result<S3Checksum> {
    S3Checksum::from_name(name).filter(|kind| UPLOAD_KINDS.contains(kind)).ok_or_else(|| {
        let names: Vec<String> = UPLOAD_KINDS.iter().map(|kind| kind.name().to_ascii_lowercase()).collect();
        io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("unknown upload checksum {name:?}: one of {}", names.join(", ")),
        )
    })
}

/// What a location wants the pack writer to compute.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UploadChecksum {
    /// The kind.
    pub kind: S3Checksum,
    /// Objects longer than this go up in parts of this many bytes.
    pub part_size: u64,
}

/// An object's upload checksum, fed in pieces of any size.
#[derive(Clone, Debug)]
pub struct PartSums {
    part_size: u64,
    sum: MultipartChecksum,
}

impl PartSums {
    /// Nothing added yet (a part size of 0 is taken as 1).
    pub fn new(checksum: UploadChecksum) -> PartSums {
        let part_size = checksum.part_size.max(1);
        let sum = MultipartChecksum::new(checksum.kind, part_size).expect("a part size of at least 1");
        PartSums { part_size, sum: sum.keeping_part_digests() }
    }

    /// The sums of `bytes`, its parts hashed side by side
    /// ([`MultipartChecksum::of`]: SHA-256 parts in SIMD lanes or
    /// interleaved SHA-NI streams).
    pub fn of(checksum: UploadChecksum, bytes: &[u8]) -> ObjectSums {
        let part_size = checksum.part_size.max(1);
        let sum = MultipartChecksum::of(checksum.kind, part_size, bytes).expect("a part size of at least 1");
        ObjectSums { part_size, sum, len: bytes.len() as u64 }
    }

    /// Adds the object's next bytes.
    pub fn update(&mut self, data: &[u8]) -> &mut Self {
        self.sum.update(data);
        self
    }

    /// The parts' digests and the object's length.
    pub fn finish(self) -> ObjectSums {
        let len = self.sum.len();
        ObjectSums { part_size: self.part_size, sum: self.sum.finish(), len }
    }
}

/// The upload checksum of a whole object and of each of its parts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ObjectSums {
    part_size: u64,
    /// At least one part (an empty object is one empty part).
    sum: MultipartSum,
    len: u64,
}

impl ObjectSums {
    /// The kind.
    pub fn kind(&self) -> S3Checksum {
        self.sum.kind()
    }

    /// The part size the parts were cut at.
    pub fn part_size(&self) -> u64 {
        self.part_size
    }

    /// The object's length in bytes.
    pub fn len(&self) -> u64 {
        self.len
    }

    /// Whether the object is empty.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Parts: 1 when the object goes up in one request.
    pub fn part_count(&self) -> usize {
        self.sum.part_digests().len()
    }

    /// Part `index`'s value (0-based), as its upload header carries it.
    pub fn part_value(&self, index: usize) -> String {
        base64(self.sum.part_digests()[index].as_bytes())
    }

    /// The whole object's value as S3 keeps it: the part's value for one
    /// part (a single-part upload); else the full-object CRC, or the
    /// composite `value-N`.
    pub fn object_value(&self) -> String {
        if let [single] = self.sum.part_digests() {
            return base64(single.as_bytes());
        }
        self.sum.value()
    }

    /// S3's `ChecksumType` of a multipart upload of this kind.
    pub fn checksum_type(&self) -> &'static str {
        if self.kind().is_full_object() {
            "FULL_OBJECT"
        } else {
            "COMPOSITE"
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chunkhash::s3_checksums::S3Hasher;
    use vectors::{test_seed, TestRng};

    /// The whole object's value equals `s3sum`'s (`chunkhash::s3_checksums::S3Hasher`,
    /// single-part below the part size, multipart above it; both compose
    /// with `MultipartChecksum`) and the value built here from the
    /// registry's digests alone, and each part's value is the part's own
    /// checksum, over random lengths, part sizes and update sizes.
    #[test]
    fn object_and_part_values_match_chunkhash_s3() {
        let seed = test_seed("object_and_part_values_match_chunkhash_s3", 26);
        let mut rng = TestRng::new(seed);
        for case in 0..40 {
            let len = rng.range(0..=20_000);
            let part_size = rng.range(1..=7_000) as u64;
            let data = rng.bytes(len);
            for kind in UPLOAD_KINDS {
                let checksum = UploadChecksum { kind, part_size };
                let mut sums = PartSums::new(checksum);
                let mut rest = &data[..];
                while !rest.is_empty() {
                    let take = rng.range(1..=rest.len());
                    sums.update(&rest[..take]);
                    rest = &rest[take..];
                }
                let sums = sums.finish();
                assert_eq!(sums, PartSums::of(checksum, &data), "case {case}");
                assert_eq!(sums.len(), len as u64);
                let parts = (len as u64).div_ceil(part_size).max(1) as usize;
                assert_eq!(sums.part_count(), parts, "case {case} {kind}");
                let expected = if parts == 1 {
                    S3Hasher::new(&[kind]).update(&data).clone().finalize()
                } else {
                    S3Hasher::with_part_size(&[kind], part_size).unwrap().update(&data).clone().finalize()
                };
                assert_eq!(Some(sums.object_value().as_str()), expected.get(kind), "case {case} {kind}");
                // And without the shared composition: a full-object CRC is
                // the whole object's CRC; a composite is the kind's hash of
                // the parts' digests, then -N.
                let algorithm = kind.algorithm();
                let independent = if parts == 1 || kind.is_full_object() {
                    base64(chunkhash::digest(algorithm, &data).as_bytes())
                } else {
                    let digests: Vec<u8> = data
                        .chunks(part_size as usize)
                        .flat_map(|part| chunkhash::digest(algorithm, part).as_bytes().to_vec())
                        .collect();
                    format!("{}-{parts}", base64(chunkhash::digest(algorithm, &digests).as_bytes()))
                };
                assert_eq!(sums.object_value(), independent, "case {case} {kind}");
                for (i, part) in data.chunks(part_size as usize).enumerate() {
                    let own = S3Hasher::new(&[kind]).update(part).clone().finalize();
                    assert_eq!(Some(sums.part_value(i).as_str()), own.get(kind), "case {case} {kind} part {i}");
                }
            }
        }
    }

    #[test]
    fn kinds_parse_by_name_and_others_are_refused() {
        assert_eq!(parse_kind("crc64nvme").unwrap(), S3Checksum::Crc64Nvme);
        assert_eq!(parse_kind("CRC32C").unwrap(), S3Checksum::Crc32c);
        assert_eq!(parse_kind("sha256").unwrap(), S3Checksum::Sha256);
        assert_eq!(parse_kind("xxhash3").unwrap(), S3Checksum::Xxhash3);
        let error = parse_kind("md5").unwrap_err();
        assert_eq!(error.kind(), io::ErrorKind::InvalidInput);
        assert!(error.to_string().contains("crc64nvme, crc32c, crc32, sha256, xxhash3"), "{error}");
        assert!(parse_kind("nope").is_err());
    }
}
