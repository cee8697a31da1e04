//! The call-site shapes of issue 34's short-input benchmarks (`xxh3_vs_c`,
//! `short_checksums`): how real code calls a hash of a few bytes. Each is
//! kept out of line, so that callgrind can count it alone
//! (`--toggle-collect='*shape_*'`).

use std::hint::black_box;

/// A tight loop: `hash` inlined into it when it can be.
#[inline(never)]
pub fn shape_loop<T>(hash: impl Fn(&[u8]) -> T, input: &[u8], calls: usize) {
    for _ in 0..calls {
        black_box(hash(black_box(input)));
    }
}

/// A closure called through a pointer: `hash` inlined into the closure, the
/// closure not inlined into the loop (`black_box` hides which it is), as a
/// hash table's hasher or a callback is called.
#[inline(never)]
pub fn shape_dyn<T>(hash: &mut dyn FnMut(&[u8]) -> T, input: &[u8], calls: usize) {
    let hash = black_box(hash);
    for _ in 0..calls {
        black_box(hash(black_box(input)));
    }
}
