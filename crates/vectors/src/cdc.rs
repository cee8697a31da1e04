//! An independent Xet chunker for the `cdc` tests and benchmark.

/// The chunk lengths of `data` by Xet's chunking rules (xet-core's chunker,
/// `xet_data/src/deduplication/chunking.rs`: 8 KiB minimum, 128 KiB maximum, mask the top 16 bits
/// of the hash), written on the `gearhash` crate's own scan and table: after
/// each cut the hash restarts at zero `min - 65` bytes in, a match counts
/// only at a chunk length of at least `min`, and a chunk ends at `max`
/// without one. The reference `chunkhash::cdc::Cdc::xet` is checked against.
pub fn xet_chunk_lengths_by_gearhash(data: &[u8]) -> Vec<usize> {
    const MIN: usize = 8 * 1024;
    const MAX: usize = 128 * 1024;
    let mask = 0xffff_u64 << 48;
    let mut lengths = Vec::new();
    let mut start = 0;
    while start < data.len() {
        let rest = &data[start..];
        let mut hasher = gearhash::Hasher::default();
        let mut at = (MIN - 65).min(rest.len());
        let end = rest.len().min(MAX);
        let mut length = end;
        while at < end {
            match hasher.next_match(&rest[at..end], mask) {
                Some(n) if at + n >= MIN => {
                    length = at + n;
                    break;
                }
                Some(n) => at += n,
                None => break,
            }
        }
        lengths.push(length);
        start += length;
    }
    lengths
}
