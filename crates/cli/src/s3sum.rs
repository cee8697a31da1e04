//! `chunkhash s3sum`: every checksum S3 records for a file, as S3 reports
//! it, from one read of the file on two cores (`chunkhash::s3_checksums`).

use crate::status::Printer;
use anyhow::{anyhow, bail, Result};
#[cfg(unix)]
use chunkhash::s3_checksums::multipart_sums_at;
use chunkhash::s3_checksums::{S3Checksum, S3Hasher, S3Sums};
use clap::Args;
use std::fs::File;
use std::io::{self, Read, Write};
#[cfg(unix)]
use std::num::NonZeroU64;
use std::path::{Path, PathBuf};

/// `chunkhash s3sum`.
#[derive(Debug, Args)]
#[command(after_long_help = S3SUM_HELP)]
pub struct S3sumFlags {
    /// Files to checksum (`-` for standard input)
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,

    /// The multipart forms for parts of SIZE bytes: 8MiB, 5M, 16777216, ...
    #[arg(long, value_name = "SIZE")]
    pub part_size: Option<String>,

    /// Comma-separated kinds: CRC32, CRC32C, CRC64NVME, SHA1, SHA256, SHA512, MD5,
    /// XXHASH64, XXHASH3, XXHASH128, ETag (default: all)
    #[arg(long, value_name = "LIST")]
    pub algorithms: Option<String>,

    /// One JSON object per file: {"file", "size", "part_size", "parts", "checksums", "ETag"}
    #[arg(long)]
    pub json: bool,
}

const S3SUM_HELP: &str = "\
Each value is what S3 returns for the object (HEAD with checksum mode, the
ETag header): base64 of the big-endian digest. Lines are `KIND (FILE) = VALUE`.
With --part-size the object is taken as a multipart upload in parts of that
size (the last one shorter): the CRCs are then full-object (the CRC of the
whole file, combined from the parts'), the others composite (the hash of the
concatenated part digests, then `-N` for N parts), and the ETag is the MD5 of
the part MD5s, then `-N`. Every value comes from one read of the file, hashed
on two threads. MD5 and SHA-1 are here for S3's sake: never for new designs.

Exit status: 0 if every file was read, 1 if any could not be, 2 for bad usage.";

/// Reads this many bytes at a time: large enough that each read hashes on
/// two threads (see `chunkhash::s3_checksums::PARALLEL_MIN`).
const BUFFER: usize = 4 << 20;

struct Settings {
    kinds: Vec<S3Checksum>,
    etag: bool,
    part_size: Option<u64>,
}

pub fn run(flags: S3sumFlags, printer: &mut Printer) -> Result<()> {
    let settings = settings(&flags)?;
    for path in &flags.files {
        let name = path.as_os_str().as_encoded_bytes();
        let sums = match checksum(path, &settings) {
            Ok(sums) => sums,
            Err(error) => {
                printer.file_error(name, &error)?;
                continue;
            }
        };
        let shown = String::from_utf8_lossy(name);
        let out = printer.out();
        if flags.json {
            let mut object = serde_json::Map::new();
            object.insert("file".into(), shown.as_ref().into());
            object.insert("size".into(), sums.len().into());
            object.insert("part_size".into(), settings.part_size.into());
            object.insert("parts".into(), sums.parts().into());
            let checksums: serde_json::Map<String, serde_json::Value> =
                sums.values().map(|(kind, value)| (kind.field(), value.into())).collect();
            object.insert("checksums".into(), checksums.into());
            if settings.etag {
                object.insert("ETag".into(), sums.etag().into());
            }
            writeln!(out, "{}", serde_json::Value::Object(object))?;
        } else {
            for (kind, value) in sums.values() {
                writeln!(out, "{kind} ({shown}) = {value}")?;
            }
            if settings.etag {
                writeln!(out, "ETag ({shown}) = {}", sums.etag())?;
            }
        }
    }
    Ok(())
}

fn settings(flags: &S3sumFlags) -> Result<Settings> {
    let part_size = match &flags.part_size {
        None => None,
        Some(text) => {
            let size = chunkhash_store::parse_size(text).map_err(|e| anyhow!("--part-size: {e}"))?;
            if size == 0 {
                bail!("--part-size: the part size must be at least 1 byte");
            }
            Some(size as u64)
        }
    };
    let (mut kinds, mut etag) = (Vec::new(), false);
    match &flags.algorithms {
        None => (kinds, etag) = (S3Checksum::ALL.to_vec(), true),
        Some(list) => {
            for name in list.split(',').map(str::trim) {
                if name.eq_ignore_ascii_case("etag") {
                    etag = true;
                } else {
                    let kind = S3Checksum::from_name(name).ok_or_else(|| {
                        let known: Vec<&str> = S3Checksum::ALL.iter().map(|k| k.name()).collect();
                        anyhow!("--algorithms: unknown S3 checksum {name:?} (known: {}, ETag)", known.join(", "))
                    })?;
                    kinds.push(kind);
                }
            }
        }
    }
    Ok(Settings { kinds, etag, part_size })
}

fn checksum(path: &Path, settings: &Settings) -> io::Result<S3Sums> {
    let mut hasher = match settings.part_size {
        None => S3Hasher::new(&settings.kinds),
        Some(size) => S3Hasher::with_part_size(&settings.kinds, size).expect("checked above: not 0"),
    };
    let mut input: Box<dyn Read> = if path == Path::new("-") {
        Box::new(io::stdin().lock())
    } else {
        let file = File::open(path)?;
        let metadata = file.metadata()?;
        if metadata.is_dir() {
            return Err(crate::input::is_a_directory());
        }
        // procfs and sysfs files say they are of 0 bytes: only a file of
        // some length is read at offsets, and only a file still of that
        // length after it is taken as read (one that grew is read in
        // order, to its end, as a pipe is).
        #[cfg(unix)]
        if let (Some(part_size), true) =
            (settings.part_size.and_then(NonZeroU64::new), metadata.is_file() && metadata.len() > 0)
        {
            let sums = parts_side_by_side(&file, metadata.len(), part_size, settings)?;
            if ends_at(&file, metadata.len())? {
                return Ok(sums);
            }
        }
        Box::new(file)
    };
    let mut buffer = vec![0u8; BUFFER];
    loop {
        // Fill the buffer (short reads from pipes), so updates stay large.
        let mut filled = 0;
        while filled < buffer.len() {
            match input.read(&mut buffer[filled..]) {
                Ok(0) => break,
                Ok(n) => filled += n,
                Err(error) if error.kind() == io::ErrorKind::Interrupted => {}
                Err(error) => return Err(error),
            }
        }
        if filled == 0 {
            break;
        }
        hasher.update(&buffer[..filled]);
        if filled < buffer.len() {
            break;
        }
    }
    Ok(hasher.finalize())
}

/// The multipart checksums of a regular file, its parts read at their
/// offsets and hashed side by side (`multipart_sums_at`: MD5, SHA-1,
/// SHA-256 and SHA-512 in SIMD lanes or interleaved SHA-NI streams). Pipes
/// and other unseekable input are read in order instead. A file that
/// shrinks while read fails (`UnexpectedEof`); one that grows is read again
/// by the caller (see [`ends_at`]).
#[cfg(unix)]
fn parts_side_by_side(file: &File, len: u64, part_size: NonZeroU64, settings: &Settings) -> io::Result<S3Sums> {
    use std::os::unix::fs::FileExt;
    multipart_sums_at(&settings.kinds, part_size, len, |offset, buffer| file.read_exact_at(buffer, offset))
}

/// Whether `file` has no byte at `len` (it did not grow while read).
#[cfg(unix)]
fn ends_at(file: &File, len: u64) -> io::Result<bool> {
    use std::os::unix::fs::FileExt;
    loop {
        match file.read_at(&mut [0u8; 1], len) {
            Ok(n) => return Ok(n == 0),
            Err(error) if error.kind() == io::ErrorKind::Interrupted => {}
            Err(error) => return Err(error),
        }
    }
}
