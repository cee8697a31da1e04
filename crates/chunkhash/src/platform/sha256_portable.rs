//! SHA-256's compression function in plain Rust, written from FIPS 180-4
//! (sections 4.1.2, 4.2.2, 5.3.3 and 6.2.2): the multi-buffer kernels'
//! fallback where no SIMD kernel runs, and the constants they share.

/// The round constants K (FIPS 180-4, 4.2.2): the first 32 bits of the
/// fractional parts of the cube roots of the first 64 primes.
pub(crate) const K: [u32; 64] = [
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98,
    0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
    0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8,
    0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
    0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819,
    0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
    0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
    0xc67178f2,
];

/// The initial hash value H(0) (FIPS 180-4, 5.3.3): the first 32 bits of
/// the fractional parts of the square roots of the first 8 primes.
pub(crate) const IV: [u32; 8] =
    [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];

/// Bytes in a message block.
pub(crate) const BLOCK_LEN: usize = 64;

/// One block into `state` (FIPS 180-4, 6.2.2).
pub(crate) fn compress(state: &mut [u32; 8], block: &[u8; BLOCK_LEN]) {
    let mut w = [0u32; 64];
    for (t, word) in block.chunks_exact(4).enumerate() {
        w[t] = u32::from_be_bytes([word[0], word[1], word[2], word[3]]);
    }
    for t in 16..64 {
        let small_sigma0 = w[t - 15].rotate_right(7) ^ w[t - 15].rotate_right(18) ^ (w[t - 15] >> 3);
        let small_sigma1 = w[t - 2].rotate_right(17) ^ w[t - 2].rotate_right(19) ^ (w[t - 2] >> 10);
        w[t] = small_sigma1.wrapping_add(w[t - 7]).wrapping_add(small_sigma0).wrapping_add(w[t - 16]);
    }
    let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut h] = *state;
    for t in 0..64 {
        let big_sigma1 = e.rotate_right(6) ^ e.rotate_right(11) ^ e.rotate_right(25);
        let choose = (e & f) ^ (!e & g);
        let t1 = h.wrapping_add(big_sigma1).wrapping_add(choose).wrapping_add(K[t]).wrapping_add(w[t]);
        let big_sigma0 = a.rotate_right(2) ^ a.rotate_right(13) ^ a.rotate_right(22);
        let majority = (a & b) ^ (a & c) ^ (b & c);
        let t2 = big_sigma0.wrapping_add(majority);
        h = g;
        g = f;
        f = e;
        e = d.wrapping_add(t1);
        d = c;
        c = b;
        b = a;
        a = t1.wrapping_add(t2);
    }
    for (word, value) in state.iter_mut().zip([a, b, c, d, e, f, g, h]) {
        *word = word.wrapping_add(value);
    }
}

/// The 64 rounds of one block (FIPS 180-4, 6.2.2 step 3, with the message
/// schedule of step 1 computed sixteen words at a time, in place in `$w`),
/// on the working variables `$a` to `$h`: the skeleton the lane kernels
/// share (`sha256_avx2.rs`, `sha256_avx512.rs`, `mb_simd128.rs`). It calls the functions the
/// calling file defines on its vector type: `add`, `splat`, `big_sigma0`,
/// `big_sigma1`, `small_sigma0`, `small_sigma1`, `choose`, `majority`.
/// The working variables are named in rotated order round after round, so
/// no value moves between registers.
// Unused where no lane kernel is built (the scalar wasm32 build).
#[cfg_attr(
    not(any(target_arch = "x86", target_arch = "x86_64", all(target_arch = "wasm32", target_feature = "simd128"))),
    allow(unused_macros)
)]
macro_rules! lane_rounds {
    ($w:ident, $a:ident, $b:ident, $c:ident, $d:ident, $e:ident, $f:ident, $g:ident, $h:ident) => {
        for group in 0..4 {
            let k = &$crate::platform::sha256_portable::K[16 * group..16 * group + 16];
            if group > 0 {
                // W(t) for t of this group, over the last group's sixteen:
                // W(t - 16) + σ0(W(t - 15)) + W(t - 7) + σ1(W(t - 2)).
                for j in 0..16 {
                    $w[j] = add(
                        add($w[j], small_sigma0($w[(j + 1) % 16])),
                        add($w[(j + 9) % 16], small_sigma1($w[(j + 14) % 16])),
                    );
                }
            }
            // Unrolled, so every index into `$w` is a constant and the
            // words can stay in registers.
            lane_rounds!(@eight $w, k, 0, $a, $b, $c, $d, $e, $f, $g, $h);
            lane_rounds!(@eight $w, k, 8, $a, $b, $c, $d, $e, $f, $g, $h);
        }
    };
    (@eight $w:ident, $k:ident, $half:literal, $a:ident, $b:ident, $c:ident, $d:ident, $e:ident, $f:ident, $g:ident, $h:ident) => {
        lane_rounds!(@round $a, $b, $c, $d, $e, $f, $g, $h, $k[$half], $w[$half]);
        lane_rounds!(@round $h, $a, $b, $c, $d, $e, $f, $g, $k[$half + 1], $w[$half + 1]);
        lane_rounds!(@round $g, $h, $a, $b, $c, $d, $e, $f, $k[$half + 2], $w[$half + 2]);
        lane_rounds!(@round $f, $g, $h, $a, $b, $c, $d, $e, $k[$half + 3], $w[$half + 3]);
        lane_rounds!(@round $e, $f, $g, $h, $a, $b, $c, $d, $k[$half + 4], $w[$half + 4]);
        lane_rounds!(@round $d, $e, $f, $g, $h, $a, $b, $c, $k[$half + 5], $w[$half + 5]);
        lane_rounds!(@round $c, $d, $e, $f, $g, $h, $a, $b, $k[$half + 6], $w[$half + 6]);
        lane_rounds!(@round $b, $c, $d, $e, $f, $g, $h, $a, $k[$half + 7], $w[$half + 7]);
    };
    (@round $a:ident, $b:ident, $c:ident, $d:ident, $e:ident, $f:ident, $g:ident, $h:ident, $k:expr, $w:expr) => {
        let t1 = add(add($h, big_sigma1($e)), add(choose($e, $f, $g), add(splat($k), $w)));
        $d = add($d, t1);
        $h = add(t1, add(big_sigma0($a), majority($a, $b, $c)));
    };
}
#[cfg(any(target_arch = "x86", target_arch = "x86_64", all(target_arch = "wasm32", target_feature = "simd128")))]
pub(crate) use lane_rounds;
