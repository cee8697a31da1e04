//! Chunk size distributions, for `stats`, `put` and the benchmark; and
//! byte sizes as settings are written (`4 MiB`), for the command's options
//! (`--pack-target`, `--chunk-avg`, `--s3-part-size`, `s3sum --part-size`)
//! and the benchmarks' `--sizes`.

/// Sizes seen, kept exactly (a few bytes per chunk) so that percentiles
/// are exact.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ChunkSizes {
    sizes: Vec<u32>,
    total: u64,
    sorted: bool,
}

impl ChunkSizes {
    /// Counts one chunk.
    pub fn add(&mut self, size: u64) {
        self.sizes.push(size.min(u64::from(u32::MAX)) as u32);
        self.total += size;
        self.sorted = false;
    }

    /// Chunks counted.
    pub fn count(&self) -> u64 {
        self.sizes.len() as u64
    }

    /// Their bytes.
    pub fn total(&self) -> u64 {
        self.total
    }

    /// The mean size, 0 for none.
    pub fn mean(&self) -> f64 {
        if self.sizes.is_empty() {
            0.0
        } else {
            self.total as f64 / self.sizes.len() as f64
        }
    }

    fn sort(&mut self) {
        if !self.sorted {
            self.sizes.sort_unstable();
            self.sorted = true;
        }
    }

    /// The size at percentile `p` (0 to 100; nearest rank), 0 for none.
    pub fn percentile(&mut self, p: f64) -> u64 {
        self.sort();
        if self.sizes.is_empty() {
            return 0;
        }
        let rank = ((p / 100.0) * (self.sizes.len() - 1) as f64).round() as usize;
        u64::from(self.sizes[rank.min(self.sizes.len() - 1)])
    }

    /// Counts per power-of-two bucket: `(low, high, count)` for sizes in
    /// `low..high`, from the smallest bucket used to the largest.
    pub fn buckets(&mut self) -> Vec<(u64, u64, u64)> {
        self.sort();
        let mut buckets: Vec<(u64, u64, u64)> = Vec::new();
        for &size in &self.sizes {
            let low = if size == 0 { 0 } else { 1u64 << (31 - size.leading_zeros()) };
            match buckets.last_mut() {
                Some(bucket) if bucket.0 == low => bucket.2 += 1,
                _ => buckets.push((low, (low * 2).max(1), 1)),
            }
        }
        buckets
    }

    /// The distribution in one line, as `stats` and the benchmark print it:
    /// `mean 10877, min 64, p10 180, median 1014, p90 38000, max 262144`.
    pub fn summary(&mut self) -> String {
        format!(
            "mean {:.0}, min {}, p10 {}, median {}, p90 {}, max {}",
            self.mean(),
            self.percentile(0.0),
            self.percentile(10.0),
            self.percentile(50.0),
            self.percentile(90.0),
            self.percentile(100.0)
        )
    }
}

/// Parses a size: a number with an optional `B`, `K`/`KiB`, `M`/`MiB` or
/// `G`/`GiB` suffix (any case, a space allowed before it; all binary).
pub fn parse_size(text: &str) -> Result<usize, String> {
    let text = text.trim();
    let split = text.find(|c: char| !c.is_ascii_digit()).unwrap_or(text.len());
    let (digits, unit) = text.split_at(split);
    let number: usize = digits.parse().map_err(|_| format!("invalid size {text:?}"))?;
    let multiplier = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 1,
        "k" | "kb" | "kib" => 1024,
        "m" | "mb" | "mib" => 1 << 20,
        "g" | "gb" | "gib" => 1 << 30,
        _ => return Err(format!("invalid size unit in {text:?} (use B, KiB, MiB or GiB)")),
    };
    number.checked_mul(multiplier).ok_or_else(|| format!("size {text:?} is too large"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentiles_and_buckets() {
        let mut sizes = ChunkSizes::default();
        for size in [0, 1, 3, 1000, 1024, 1500, 70_000] {
            sizes.add(size);
        }
        assert_eq!((sizes.count(), sizes.total()), (7, 73_528));
        assert_eq!((sizes.percentile(0.0), sizes.percentile(50.0), sizes.percentile(100.0)), (0, 1000, 70_000));
        assert_eq!(
            sizes.buckets(),
            vec![(0, 1, 1), (1, 2, 1), (2, 4, 1), (512, 1024, 1), (1024, 2048, 2), (65536, 131072, 1)]
        );
        assert_eq!(sizes.summary(), "mean 10504, min 0, p10 1, median 1000, p90 1500, max 70000");
    }

    #[test]
    fn sizes_parse() {
        for (text, bytes) in
            [("64", 64), ("64B", 64), ("4K", 4096), ("4 KiB", 4096), ("1MiB", 1 << 20), ("1 GiB", 1 << 30)]
        {
            assert_eq!(parse_size(text), Ok(bytes));
        }
        assert!(parse_size("12 parsecs").is_err());
        assert!(parse_size("").is_err());
        assert!(parse_size("-1K").is_err());
        assert!(parse_size("20000000000G").is_err());
    }
}
