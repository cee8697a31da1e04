//! BLAKE3's `Hasher` fed a message (up to 64 KiB, cut from a fixed pool) in
//! pieces of any lengths, on every backend this CPU runs, against the
//! official `blake3` crate: finalizing midway changes nothing, `count`
//! follows the input, and `reset` starts over.

#![no_main]

use arbitrary::Arbitrary;
use chunkhash::blake3::Hasher;
use chunkhash_fuzz::{backends, message, pieces};
use libfuzzer_sys::fuzz_target;

#[derive(Arbitrary, Debug)]
struct Case {
    offset: u32,
    len: u16,
    keyed: bool,
    /// Piece lengths, cycled; a piece of length 0 is an empty update.
    splits: Vec<u16>,
    /// Finalize after this piece too (modulo the piece count).
    finalize_at: u8,
}

fuzz_target!(|case: Case| {
    let input = message(case.offset, case.len);
    let key = *b"chunkhash fuzz hasher splits key";
    let expected = *if case.keyed { ::blake3::keyed_hash(&key, input) } else { ::blake3::hash(input) }.as_bytes();
    let pieces = pieces(input, &case.splits[..case.splits.len().min(64)]);
    for &backend in backends() {
        let mut hasher =
            if case.keyed { Hasher::new_keyed_with_backend(backend, &key) } else { Hasher::new_with_backend(backend) }
                .unwrap();
        let mut fed = 0u64;
        for (i, piece) in pieces.iter().enumerate() {
            hasher.update(piece);
            fed += piece.len() as u64;
            assert_eq!(hasher.count(), fed);
            if i == case.finalize_at as usize % pieces.len() {
                let midway = hasher.finalize();
                let expected_midway = if case.keyed {
                    ::blake3::keyed_hash(&key, &input[..fed as usize])
                } else {
                    ::blake3::hash(&input[..fed as usize])
                };
                assert_eq!(midway.as_bytes(), expected_midway.as_bytes(), "{backend}, midway after {fed} bytes");
            }
        }
        assert_eq!(*hasher.finalize().as_bytes(), expected, "{backend}, {} bytes", input.len());
        hasher.reset();
        assert_eq!(hasher.count(), 0);
        hasher.update(input);
        assert_eq!(*hasher.finalize().as_bytes(), expected, "{backend} after reset");
    }
});
