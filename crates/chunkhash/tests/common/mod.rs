//! Helpers shared by the integration tests.

use chunkhash::blake3::Backend;

/// The backends to test: `CHUNKHASH_BACKEND`'s alone when it is set, else
/// every one this CPU runs; a required one (`CHUNKHASH_REQUIRE_BACKENDS`)
/// that cannot run fails the test. Prints what it picked, so a run that
/// tested fewer kernels than expected says so.
#[allow(dead_code)]
pub fn supported_backends() -> Vec<Backend> {
    let backends = vectors::backends_under_test(Backend::all(), Backend::is_supported);
    println!("detected {}", Backend::detect());
    backends
}

/// Feeds `input` to `update` in pieces of the given lengths, cycling.
#[allow(dead_code)]
pub fn feed_in_pieces(input: &[u8], pieces: &[usize], mut update: impl FnMut(&[u8])) {
    let mut rest = input;
    for &piece in pieces.iter().cycle() {
        if rest.is_empty() {
            break;
        }
        let (head, tail) = rest.split_at(piece.min(rest.len()));
        update(head);
        rest = tail;
    }
}
