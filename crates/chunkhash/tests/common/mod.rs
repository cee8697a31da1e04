//! Helpers shared by the integration tests.

use chunkhash::blake3::Backend;

/// The backends this CPU can run; prints the ones it skips, so a run that
/// tested fewer kernels than expected says so.
#[allow(dead_code)]
pub fn supported_backends() -> Vec<Backend> {
    let mut supported = Vec::new();
    for &backend in Backend::all() {
        if backend.is_supported() {
            supported.push(backend);
        } else {
            println!("note: backend {backend} not supported here, skipped");
        }
    }
    println!("testing backends {supported:?}, detected {}", Backend::detect());
    supported
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
