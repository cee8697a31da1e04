//! Every registry algorithm on any input: `StreamingHasher` fed in pieces
//! of any lengths gives the one-shot `digest`, `reset` starts over, the hex
//! form reads back, and BLAKE3 matches the official `blake3` crate.

#![no_main]

use arbitrary::Arbitrary;
use chunkhash::{digest, Algorithm, Digest, StreamingHasher};
use chunkhash_fuzz::pieces;
use libfuzzer_sys::fuzz_target;

#[derive(Arbitrary, Debug)]
struct Case<'a> {
    splits: Vec<u16>,
    input: &'a [u8],
}

fuzz_target!(|case: Case<'_>| {
    let pieces = pieces(case.input, &case.splits[..case.splits.len().min(64)]);
    for &algorithm in Algorithm::all() {
        let one_shot = digest(algorithm, case.input);
        assert_eq!(one_shot.as_bytes().len(), algorithm.digest_len());
        let mut hasher = StreamingHasher::new(algorithm);
        for piece in &pieces {
            hasher.update(piece);
        }
        assert_eq!(
            hasher.finalize(),
            one_shot,
            "{algorithm}, pieces of {:?}",
            pieces.iter().map(|p| p.len()).collect::<Vec<_>>()
        );
        hasher.reset();
        hasher.update(case.input);
        assert_eq!(hasher.finalize(), one_shot, "{algorithm} after reset");
        assert_eq!(Digest::from_hex(algorithm, one_shot.to_hex().as_str()), Ok(one_shot));
    }
    let blake3 = ::blake3::hash(case.input);
    assert_eq!(digest(Algorithm::Blake3, case.input).as_bytes(), blake3.as_bytes());
    assert_eq!(digest(Algorithm::Blake3_160, case.input).as_bytes(), &blake3.as_bytes()[..20]);
});
