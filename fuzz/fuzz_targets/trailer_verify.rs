//! `trailer::verify` on any block, trailer and context: never panics, an
//! `Ok` is only ever given for the trailer `seal` makes, and a sealed
//! trailer verifies, cut or lengthened it does not.

#![no_main]

use arbitrary::Arbitrary;
use chunkhash::trailer::{self, TrailerError};
use chunkhash::Algorithm;
use libfuzzer_sys::fuzz_target;

#[derive(Arbitrary, Debug)]
struct Case<'a> {
    context: u64,
    other_context: u64,
    algorithm: u8,
    trailer: &'a [u8],
    block: &'a [u8],
}

fuzz_target!(|case: Case<'_>| {
    let Case { context, other_context, algorithm, trailer, block } = case;
    match trailer::verify(block, trailer, context) {
        Ok(algorithm) => assert_eq!(trailer::seal(block, algorithm, context).as_bytes(), trailer),
        Err(error) => {
            assert!(!error.to_string().is_empty());
            if let TrailerError::Mismatch(algorithm) = error {
                assert_ne!(trailer::seal(block, algorithm, context).as_bytes(), trailer);
            }
        }
    }
    let algorithm = Algorithm::all()[algorithm as usize % Algorithm::all().len()];
    let sealed = trailer::seal(block, algorithm, context);
    let bytes = sealed.as_bytes();
    assert_eq!(bytes.len(), trailer::trailer_len(algorithm));
    assert_eq!(bytes[0], algorithm.id());
    assert_eq!(trailer::verify(block, bytes, context), Ok(algorithm));
    let cut = &bytes[..bytes.len() - 1];
    assert!(matches!(trailer::verify(block, cut, context), Err(TrailerError::Truncated { .. })));
    let mut longer = bytes.to_vec();
    longer.push(0);
    assert!(matches!(trailer::verify(block, &longer, context), Err(TrailerError::TooLong { .. })));
    // Another context gives another trailer, except where a short checksum
    // collides by chance (4 bytes: one in 2^32).
    if other_context != context && algorithm.digest_len() >= 8 {
        assert_eq!(trailer::verify(block, bytes, other_context), Err(TrailerError::Mismatch(algorithm)));
    }
});
