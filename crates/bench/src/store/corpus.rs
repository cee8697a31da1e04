//! The corpus `chunkhash store bench` ingests: seeded, so every run and
//! machine ingests the same bytes. Large files from 1 KiB to 64 MiB
//! (log-uniform sizes) whose content is cut into segments of 256 KiB to
//! 4 MiB, about 30% of them repeating an earlier segment; then small files
//! of 64 B to 8 KiB, about 30% exact copies of an earlier one, 100 to a
//! directory.

use super::Error;
use crate::rng::SeededRng;
use std::fs;
use std::path::Path;

/// Small files per GiB of large files, when not given.
pub const SMALL_FILES_PER_GIB: u64 = 100_000;
/// The share of segments and of small files that repeat earlier content.
const REPEAT_PERCENT: u64 = 30;
/// Small files per directory.
const SMALL_PER_DIR: u64 = 100;
/// Earlier segments (large files) and files (small ones) that later ones
/// may repeat.
const SEGMENT_POOL: usize = 64;
const SMALL_POOL: usize = 1000;

/// What was generated.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Corpus {
    /// Large files.
    pub files: u64,
    /// Their bytes: the size asked for.
    pub large_bytes: u64,
    /// Small files.
    pub small_files: u64,
    /// Their bytes.
    pub small_bytes: u64,
    /// Bytes (large and small) that repeat earlier content.
    pub repeated_bytes: u64,
}

impl Corpus {
    /// Bytes of all files.
    pub fn bytes(&self) -> u64 {
        self.large_bytes + self.small_bytes
    }
}

/// The default number of small files for `size` bytes of large files.
pub fn small_files_for(size: u64) -> u64 {
    ((u128::from(size) * u128::from(SMALL_FILES_PER_GIB)) >> 30) as u64
}

/// Writes the corpus under `root`: `size` bytes of large files in
/// `root/large`, `small_files` small files in `root/small/NNNN/`.
pub fn generate(root: &Path, size: u64, small_files: u64, seed: u64) -> Result<Corpus, Error> {
    let mut rng = SeededRng::new(seed);
    let mut corpus = Corpus::default();
    let large = root.join("large");
    create_dir(&large)?;
    let mut pool: Vec<Vec<u8>> = Vec::new();
    while corpus.large_bytes < size {
        let len = rng.log_uniform(1 << 10, 64 << 20).min(size - corpus.large_bytes) as usize;
        let mut file = Vec::with_capacity(len);
        while file.len() < len {
            if !pool.is_empty() && rng.chance(REPEAT_PERCENT) {
                // A whole earlier segment (cut only by the file's end), so
                // repeats are as long as fresh segments.
                let source = &pool[rng.below(pool.len() as u64) as usize];
                let take = source.len().min(len - file.len());
                file.extend_from_slice(&source[..take]);
                corpus.repeated_bytes += take as u64;
            } else {
                let segment = (rng.log_uniform(256 << 10, 4 << 20) as usize).min(len - file.len());
                let fresh = rng.bytes(segment);
                file.extend_from_slice(&fresh);
                remember(&mut rng, &mut pool, SEGMENT_POOL, fresh);
            }
        }
        write(&large.join(format!("{:05}.bin", corpus.files)), &file)?;
        corpus.files += 1;
        corpus.large_bytes += len as u64;
    }
    let mut recent: Vec<Vec<u8>> = Vec::new();
    for index in 0..small_files {
        let dir = root.join("small").join(format!("{:04}", index / SMALL_PER_DIR));
        if index % SMALL_PER_DIR == 0 {
            create_dir(&dir)?;
        }
        let bytes = if !recent.is_empty() && rng.chance(REPEAT_PERCENT) {
            let copy = recent[rng.below(recent.len() as u64) as usize].clone();
            corpus.repeated_bytes += copy.len() as u64;
            copy
        } else {
            let len = rng.log_uniform(64, 8 << 10) as usize;
            let bytes = rng.bytes(len);
            remember(&mut rng, &mut recent, SMALL_POOL, bytes.clone());
            bytes
        };
        write(&dir.join(format!("{index:06}.txt")), &bytes)?;
        corpus.small_files += 1;
        corpus.small_bytes += bytes.len() as u64;
    }
    Ok(corpus)
}

/// Keeps `content` for later repeats: appended while the pool has room,
/// else in place of a random entry.
fn remember(rng: &mut SeededRng, pool: &mut Vec<Vec<u8>>, room: usize, content: Vec<u8>) {
    if pool.len() < room {
        pool.push(content);
    } else {
        pool[rng.below(room as u64) as usize] = content;
    }
}

pub(super) fn create_dir(dir: &Path) -> Result<(), Error> {
    fs::create_dir_all(dir).map_err(|source| Error::io("creating", dir, source))
}

fn write(path: &Path, bytes: &[u8]) -> Result<(), Error> {
    fs::write(path, bytes).map_err(|source| Error::io("writing", path, source))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_corpus_is_seeded_and_repeats_about_a_third() {
        let dir = std::env::temp_dir().join(format!("chunkhash-corpus-test-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        let first = generate(&dir.join("a"), 24 << 20, 300, 7).unwrap();
        let second = generate(&dir.join("b"), 24 << 20, 300, 7).unwrap();
        assert_eq!((first.large_bytes, first.small_files), (24 << 20, 300));
        assert_eq!(first, second);
        for file in ["large/00000.bin", "small/0002/000299.txt"] {
            assert_eq!(fs::read(dir.join("a").join(file)).unwrap(), fs::read(dir.join("b").join(file)).unwrap());
        }
        let other = generate(&dir.join("c"), 24 << 20, 300, 8).unwrap();
        assert_ne!(fs::read(dir.join("a/large/00000.bin")).unwrap(), fs::read(dir.join("c/large/00000.bin")).unwrap());
        assert_eq!(other.large_bytes, 24 << 20);
        let share = first.repeated_bytes as f64 / first.bytes() as f64;
        assert!((0.2..0.4).contains(&share), "{share}");
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn small_files_scale_with_the_size() {
        assert_eq!(small_files_for(1 << 30), 100_000);
        assert_eq!(small_files_for(64 << 20), 6250);
        assert_eq!(small_files_for(0), 0);
    }
}
