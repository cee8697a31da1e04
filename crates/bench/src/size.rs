//! Byte sizes as the tables print them (`64 B`, `4 KiB`, `1 MiB`) and as
//! `--sizes` reads them.

/// Formats a byte count as the tables print it: 64 B, 4 KiB, 1 MiB.
pub fn format_size(bytes: usize) -> String {
    if bytes >= 1 << 20 && bytes.is_multiple_of(1 << 20) {
        format!("{} MiB", bytes >> 20)
    } else if bytes >= 1024 && bytes.is_multiple_of(1024) {
        format!("{} KiB", bytes >> 10)
    } else {
        format!("{bytes} B")
    }
}

/// Parses a size: a number with an optional `B`, `K`/`KiB`, `M`/`MiB` or
/// `G`/`GiB` suffix.
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
    fn sizes_round_trip() {
        for (text, bytes) in
            [("64", 64), ("64B", 64), ("4K", 4096), ("4 KiB", 4096), ("1MiB", 1 << 20), ("1 GiB", 1 << 30)]
        {
            assert_eq!(parse_size(text), Ok(bytes));
        }
        assert_eq!(format_size(64), "64 B");
        assert_eq!(format_size(4096), "4 KiB");
        assert_eq!(format_size(1 << 20), "1 MiB");
        assert_eq!(format_size(3000), "3000 B");
        assert!(parse_size("12 parsecs").is_err());
        assert!(parse_size("").is_err());
        assert!(parse_size("20000000000G").is_err());
    }
}
