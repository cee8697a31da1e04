//! The official BLAKE3 known-answer vectors (`vectors/blake3/`), through the
//! one-shot calls and through `Hasher` fed in several split patterns, on
//! every backend this CPU supports.

mod common;

use chunkhash::blake3::{self, Backend, Hasher};
use common::{feed_in_pieces, supported_backends};
use vectors::{blake3_vectors, input_pattern};

/// Split patterns: single bytes, around a block, around a chunk.
const SPLITS: &[&[usize]] = &[&[1], &[63], &[64], &[65], &[1023], &[1024], &[1025], &[63, 64, 65, 1023, 1024, 1025]];

fn hashers(backend: Backend, key: &[u8; 32], context: &str) -> [(&'static str, Hasher); 3] {
    [
        ("hash", Hasher::new_with_backend(backend).unwrap()),
        ("keyed_hash", Hasher::new_keyed_with_backend(backend, key).unwrap()),
        ("derive_key", Hasher::new_derive_key_with_backend(backend, context).unwrap()),
    ]
}

#[test]
fn official_vectors_one_shot() {
    let vectors = blake3_vectors();
    assert_eq!(vectors.cases.len(), 35, "the official file has 35 cases");
    for case in &vectors.cases {
        let input = input_pattern(case.input_len);
        let len = case.input_len;
        assert_eq!(blake3::hash(&input).as_bytes()[..], case.hash[..32], "hash, len {len}");
        assert_eq!(blake3::keyed_hash(&vectors.key, &input).as_bytes()[..], case.keyed_hash[..32], "keyed, len {len}");
        assert_eq!(blake3::derive_key(&vectors.context_string, &input)[..], case.derive_key[..32], "derive, len {len}");
        assert_eq!(blake3::address(&input).as_bytes()[..], case.hash[..20], "address, len {len}");
    }
}

#[test]
fn official_vectors_incremental_every_backend() {
    let vectors = blake3_vectors();
    for backend in supported_backends() {
        for case in &vectors.cases {
            let input = input_pattern(case.input_len);
            let expected = [&case.hash, &case.keyed_hash, &case.derive_key];
            assert_eq!(blake3::hash_with_backend(backend, &input).unwrap().as_bytes()[..], case.hash[..32]);
            for splits in SPLITS {
                for ((mode, mut hasher), expected) in
                    hashers(backend, &vectors.key, &vectors.context_string).into_iter().zip(expected)
                {
                    let what = format!("{mode}, len {}, {backend}, pieces {splits:?}", case.input_len);
                    feed_in_pieces(&input, splits, |piece| {
                        hasher.update(piece);
                    });
                    assert_eq!(hasher.finalize().as_bytes()[..], expected[..32], "{what}");
                    let mut extended = [0u8; 131];
                    hasher.finalize_xof().fill(&mut extended);
                    assert_eq!(extended[..], expected[..], "{what}, extended output");
                }
            }
        }
    }
}

#[test]
fn official_vectors_extended_output_read_in_pieces() {
    let vectors = blake3_vectors();
    for case in &vectors.cases {
        let input = input_pattern(case.input_len);
        let mut hasher = Hasher::new();
        hasher.update(&input);
        // 131 bytes read as 1, 2, 3, ... bytes straddle every block edge.
        let mut reader = hasher.finalize_xof();
        let mut got = Vec::new();
        let mut piece = 1;
        while got.len() < 131 {
            let mut buf = vec![0u8; piece.min(131 - got.len())];
            reader.fill(&mut buf);
            got.extend_from_slice(&buf);
            piece += 1;
        }
        assert_eq!(got, case.hash, "len {}", case.input_len);
        assert_eq!(reader.position(), 131);
        // Random access: every suffix, starting at each position.
        for start in [0u64, 1, 31, 32, 63, 64, 65, 100, 128] {
            reader.set_position(start);
            let mut rest = vec![0u8; 131 - start as usize];
            reader.fill(&mut rest);
            assert_eq!(rest[..], case.hash[start as usize..], "len {}, from {start}", case.input_len);
        }
    }
}

#[test]
fn reset_and_clone_keep_the_mode() {
    let vectors = blake3_vectors();
    let case = vectors.cases.iter().find(|case| case.input_len == 1025).unwrap();
    let input = input_pattern(1025);
    let mut hasher = Hasher::new_keyed(&vectors.key);
    hasher.update(b"something else entirely");
    hasher.reset();
    let mut clone = hasher.clone();
    hasher.update(&input);
    clone.update(&input[..700]).update(&input[700..]);
    assert_eq!(hasher.finalize().as_bytes()[..], case.keyed_hash[..32]);
    assert_eq!(clone.finalize(), hasher.finalize());
    assert_eq!(hasher.count(), 1025);
}
