//! Series read back from the recorded outputs of the benchmark programs in
//! `crates/bench/runs/` (their text tables, as the programs print them), for
//! the plots of BENCHMARKS.md (`plot_recorded`). Each reader takes the first
//! table of its kind in the text, so a file holding several runs gives its
//! first; a table that is missing or malformed is an error naming what was
//! looked for, never an empty plot.

use crate::parse_size;
use crate::plot::Series;

/// Why a recorded output could not be read.
pub type ReadError = String;

/// The lines of the first section that starts with `heading`, up to the
/// next blank line (the heading itself left out).
fn section<'a>(text: &'a str, heading: &str) -> Result<Vec<&'a str>, ReadError> {
    let mut lines = text.lines().skip_while(|line| !line.trim_start().starts_with(heading));
    if lines.next().is_none() {
        return Err(format!("no section {heading:?}"));
    }
    Ok(lines.take_while(|line| !line.trim().is_empty()).collect())
}

/// The `n`th whitespace-separated number of a table cell.
fn number(cell: &str, n: usize, what: &str) -> Result<f64, ReadError> {
    let word = cell.split_whitespace().nth(n).ok_or_else(|| format!("{what}: no field {n} in {cell:?}"))?;
    word.parse().map_err(|_| format!("{what}: {word:?} is not a number"))
}

fn size_of(cell: &str) -> Result<f64, ReadError> {
    parse_size(cell.trim()).map(|bytes| bytes as f64)
}

/// `blake3_vs_official`'s "one message, one thread" table: MB/s by size,
/// chunkhash and the official crate.
pub fn blake3_single(text: &str) -> Result<Vec<Series>, ReadError> {
    let (mut ours, mut official) = (Vec::new(), Vec::new());
    for line in section(text, "one message, one thread")? {
        let cells: Vec<&str> = line.split('|').collect();
        if cells.len() < 4 || cells[0].trim() == "size" {
            continue;
        }
        let size = size_of(cells[0])?;
        ours.push((size, number(cells[1], 1, "chunkhash MB/s")?));
        official.push((size, number(cells[2], 1, "official MB/s")?));
    }
    if ours.is_empty() {
        return Err("no rows in \"one message, one thread\"".into());
    }
    Ok(vec![("chunkhash".into(), ours), ("official blake3".into(), official)])
}

/// `blake3_vs_official`'s batch table (`N x SIZE` rows): MB/s by message
/// size of chunkhash's batch call, a loop over the official crate and a
/// loop over chunkhash's single calls. Rows of mixed sizes are left out.
pub fn blake3_batch(text: &str) -> Result<Vec<Series>, ReadError> {
    let (mut batch, mut official, mut ours) = (Vec::new(), Vec::new(), Vec::new());
    for line in section(text, "batches of independent messages")? {
        let cells: Vec<&str> = line.split('|').collect();
        let Some((count, size)) = cells[0].split_once(" x ") else { continue };
        let (Ok(count), Ok(size)) = (count.trim().parse::<f64>(), size_of(size)) else { continue };
        if cells.len() < 4 {
            return Err(format!("batch row {line:?}: too few columns"));
        }
        // ns for the whole batch, to MB/s: bytes per ns is GB/s.
        let mb_per_s = |ns: f64| count * size / ns * 1000.0;
        batch.push((size, number(cells[1], 1, "batch MB/s")?));
        official.push((size, mb_per_s(number(cells[2], 0, "official loop ns")?)));
        ours.push((size, mb_per_s(number(cells[2], 1, "chunkhash loop ns")?)));
    }
    if batch.is_empty() {
        return Err("no N x SIZE rows in \"batches of independent messages\"".into());
    }
    Ok(vec![
        ("chunkhash batch call".into(), batch),
        ("loop: official blake3".into(), official),
        ("loop: chunkhash".into(), ours),
    ])
}

/// `xxh3_vs_c`'s first table after `heading` (`"XXH3-64:"`): GB/s by size
/// of chunkhash, the C dispatcher, and both built for AVX2.
pub fn xxh3_vs_c(text: &str, heading: &str) -> Result<Vec<Series>, ReadError> {
    let rows = text.lines().skip_while(|line| !line.starts_with(heading)).skip_while(|line| !line.starts_with('|'));
    let columns = [(1, "chunkhash"), (2, "C (dispatch)"), (6, "chunkhash, AVX2"), (7, "C, AVX2")];
    let mut series: Vec<Series> = columns.iter().map(|(_, name)| (name.to_string(), Vec::new())).collect();
    for line in rows.take_while(|line| line.starts_with('|')) {
        let cells: Vec<&str> = line.split('|').skip(1).collect();
        let Ok(size) = size_of(cells[0]) else { continue };
        for ((column, _), (_, points)) in columns.iter().zip(&mut series) {
            let cell = cells.get(*column).ok_or_else(|| format!("row {line:?}: no column {column}"))?;
            points.push((size, number(cell, 0, "GB/s")?));
        }
    }
    if series[0].1.is_empty() {
        return Err(format!("no table after {heading:?}"));
    }
    Ok(series)
}

/// `crc_kernels`' rows of one algorithm: GB/s from the best round's ns, by
/// size, for each implementation whose name starts with one of `names`.
pub fn crc_best(text: &str, algorithm: &str, names: &[&str]) -> Result<Vec<Series>, ReadError> {
    let mut series: Vec<Series> = names.iter().map(|name| (name.to_string(), Vec::new())).collect();
    for line in text.lines().filter(|line| line.starts_with('|')) {
        let cells: Vec<&str> = line.split('|').skip(1).map(str::trim).collect();
        if cells.len() < 8 || cells[0] != algorithm {
            continue;
        }
        if let Some((_, points)) = series.iter_mut().find(|(name, _)| cells[2].starts_with(name.as_str())) {
            let size = size_of(cells[1])?;
            points.push((size, size / number(cells[7], 0, "best ns")?));
        }
    }
    if let Some((name, _)) = series.iter().find(|(_, points)| points.is_empty()) {
        return Err(format!("no {algorithm} rows of {name:?}"));
    }
    Ok(series)
}

#[cfg(test)]
mod tests {
    use super::*;

    const BLAKE3: &str = "header\n\none message, one thread
     size |  ours ns/op      MB/s    cpb |    official      MB/s    cpb |  ratio
     64 B |        61.1      1047  3.504 |        59.4      1077  3.408 |   0.97
    1 KiB |      1014.0      1010  3.633 |      1064.1       962  3.813 |   1.05

batches of independent messages, one thread (batch = chunkhash::blake3::hash_many)
           batch |    batch ns     MB/s    cpb | official ns   ours loop | x offic.   x ours |  vs 1 MiB
     1024 x 64 B |       19990     3278  1.119 |       61098       62819 |     3.06     3.15 |      1.53
 512 mixed 1..8K |      467926     4386  0.837 |     1223514     1011355 |     2.61     2.16 |      1.15
";

    #[test]
    fn reads_the_blake3_tables() {
        let single = blake3_single(BLAKE3).unwrap();
        assert_eq!(single[0].1, vec![(64.0, 1047.0), (1024.0, 1010.0)]);
        assert_eq!(single[1].1, vec![(64.0, 1077.0), (1024.0, 962.0)]);
        let batch = blake3_batch(BLAKE3).unwrap();
        assert_eq!(batch[0].1, vec![(64.0, 3278.0)]);
        // 1024 x 64 B in 61098 ns.
        assert!((batch[1].1[0].1 - 65536.0 / 61098.0 * 1000.0).abs() < 1e-9);
        assert_eq!(batch[2].1.len(), 1, "the mixed row is left out");
    }

    #[test]
    fn a_missing_or_malformed_table_is_an_error() {
        assert_eq!(blake3_single("nothing here").unwrap_err(), "no section \"one message, one thread\"");
        let broken = BLAKE3.replace("1047", "fast");
        assert!(blake3_single(&broken).unwrap_err().contains("\"fast\" is not a number"));
        assert!(xxh3_vs_c(BLAKE3, "XXH3-64:").is_err());
        assert!(crc_best(
            "| CRC32C | 64 B | crc-fast 1.10 | 4.6 | 13.8 | 1.00 | 5% | 12.9 | 1.00 |",
            "CRC32C",
            &["crc-fast", "chunkhash::crc"]
        )
        .unwrap_err()
        .contains("chunkhash::crc"));
    }

    #[test]
    fn reads_the_xxh3_and_crc_tables() {
        let xxh3 = "XXH3-64: GB/s\n\n| size | chunkhash | C dispatch | ratio | C avx512 | ratio | chunkhash avx2 | C avx2 | ratio |\n| ---: | ---: |\n| 16 B | 3.0 | 2.4 | 1.248 | 2.3 | 1.315 | 2.7 | 2.3 | 1.193 |\n";
        let series = xxh3_vs_c(xxh3, "XXH3-64:").unwrap();
        let values: Vec<f64> = series.iter().map(|(_, points)| points[0].1).collect();
        assert_eq!(values, [3.0, 2.4, 2.7, 2.3]);
        let crc = "| CRC32C | 4 KiB | crc-fast 1.10 | 15.8 | 260.0 | 1.00 | 63% | 92.7 | 1.00 |\n| CRC-32 | 4 KiB | crc-fast 1.10 | 1 | 1 | 1 | 1% | 1 | 1 |";
        assert_eq!(crc_best(crc, "CRC32C", &["crc-fast"]).unwrap()[0].1, vec![(4096.0, 4096.0 / 92.7)]);
    }
}
