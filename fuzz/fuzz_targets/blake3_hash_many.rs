//! Batch hashing of any list of messages (each up to 64 KiB, cut from a
//! fixed pool), in every mode and on every backend this CPU runs, against
//! the official `blake3` crate one message at a time.

#![no_main]

use arbitrary::Arbitrary;
use chunkhash::blake3::{Address, Batch, Hash};
use chunkhash_fuzz::{backends, message};
use libfuzzer_sys::fuzz_target;

/// Bytes of all messages of one case together: enough for many lanes of
/// several chunks each, small enough to run hundreds of cases a second.
const MAX_TOTAL: usize = 512 * 1024;

#[derive(Arbitrary, Debug)]
enum Mode {
    Hash,
    Keyed,
    DeriveKey,
    Address,
}

#[derive(Arbitrary, Debug)]
struct Case {
    mode: Mode,
    /// (offset, length) of each message.
    messages: Vec<(u32, u16)>,
}

const KEY: [u8; 32] = *b"chunkhash fuzz batch keyed hash!";
const CONTEXT: &str = "chunkhash fuzz 2026-11-23 batch derive_key";

fuzz_target!(|case: Case| {
    let mut total = 0;
    let inputs: Vec<&[u8]> = case
        .messages
        .iter()
        .map(|&(offset, len)| message(offset, len))
        .take_while(|m| {
            total += m.len();
            total <= MAX_TOTAL
        })
        .collect();
    let expected: Vec<[u8; 32]> = inputs
        .iter()
        .map(|input| match case.mode {
            Mode::Hash | Mode::Address => *::blake3::hash(input).as_bytes(),
            Mode::Keyed => *::blake3::keyed_hash(&KEY, input).as_bytes(),
            Mode::DeriveKey => ::blake3::derive_key(CONTEXT, input),
        })
        .collect();
    for &backend in backends() {
        let got: Vec<[u8; 32]> = match case.mode {
            Mode::Hash => {
                let mut out = vec![Hash::from([0; 32]); inputs.len()];
                Batch::new().with_backend(backend).unwrap().hash_many(&inputs, &mut out);
                out.iter().map(|h| *h.as_bytes()).collect()
            }
            Mode::Keyed => {
                let mut out = vec![[0u8; 32]; inputs.len()];
                Batch::new_keyed(&KEY).with_backend(backend).unwrap().hash_many_bytes(&inputs, &mut out);
                out
            }
            Mode::DeriveKey => {
                let mut out = vec![[0u8; 32]; inputs.len()];
                Batch::new_derive_key(CONTEXT).with_backend(backend).unwrap().hash_many_bytes(&inputs, &mut out);
                out
            }
            Mode::Address => {
                let mut out = vec![Address::from([0; 20]); inputs.len()];
                Batch::new().with_backend(backend).unwrap().address_many(&inputs, &mut out);
                // Compare the 20 bytes there are; pad with the expected rest.
                out.iter()
                    .zip(&expected)
                    .map(|(a, e)| {
                        let mut full = *e;
                        full[..20].copy_from_slice(a.as_bytes());
                        full
                    })
                    .collect()
            }
        };
        for (i, (got, expected)) in got.iter().zip(&expected).enumerate() {
            assert_eq!(
                got,
                expected,
                "{backend}, {:?}, message {i} of {} ({} bytes)",
                case.mode,
                inputs.len(),
                inputs[i].len()
            );
        }
    }
});
