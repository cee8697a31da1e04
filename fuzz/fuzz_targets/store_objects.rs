//! Tree, chunk-list and snapshot-root objects (`chunkhash_store::object`): no input panics, hangs or allocates more than it holds; one
//! accepted and encoded again gives the same (the checks are in
//! `chunkhash_store::fuzzing::objects`, beside the decoders).

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| chunkhash_store::fuzzing::objects(data));
