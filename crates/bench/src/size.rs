//! Byte sizes as the tables print them (`64 B`, `4 KiB`, `1 MiB`); `--sizes`
//! reads them with `chunkhash_store::parse_size`.

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_round_trip() {
        for bytes in [64, 3000, 4096, 1 << 20, 5 << 20, 1 << 30] {
            assert_eq!(chunkhash_store::parse_size(&format_size(bytes)), Ok(bytes));
        }
        assert_eq!(format_size(64), "64 B");
        assert_eq!(format_size(4096), "4 KiB");
        assert_eq!(format_size(1 << 20), "1 MiB");
        assert_eq!(format_size(3000), "3000 B");
    }
}
