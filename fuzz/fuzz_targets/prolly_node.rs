//! A prolly map node: no input panics, hangs or allocates more than it holds; one
//! accepted and encoded again gives the same (the checks are in
//! `chunkhash_store::fuzzing::prolly_node`, beside the decoders).

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| chunkhash_store::fuzzing::prolly_node(data));
