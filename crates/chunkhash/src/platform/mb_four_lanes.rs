//! What the four-lane multi-buffer kernels (`mb_simd128.rs` on wasm32,
//! `mb_neon.rs` on aarch64) share: the walk over each lane's blocks and
//! MD5's and SHA-1's steps, as macros expanded in each kernel file on its
//! own vector type, as `lane_rounds!` is for SHA-256. They call the
//! functions the calling file defines on its vector type: `load_rows`,
//! `add_to_rows` and `words` (the block walk); `add`, `xor`, `or_not`
//! (`b OR NOT d`), `select` (bits of the second argument where the first
//! has ones, else of the third), `splat` and `rotate_left` (the steps).

/// Expands to `block` and `compress_blocks` on vector type `$v`, each
/// function with the attributes given.
macro_rules! four_lane_blocks {
    ($v:ty; $(#[$attr:meta])*) => {
        /// Block `n` of each lane's blocks (the caller checked the lengths).
        $(#[$attr])*
        fn block<'a>(blocks: &[&'a [u8]; LANES], n: usize) -> [&'a [u8; BLOCK_LEN]; LANES] {
            core::array::from_fn(|lane| blocks[lane][n * BLOCK_LEN..n * BLOCK_LEN + BLOCK_LEN].try_into().unwrap())
        }

        /// `count` blocks of each lane's `blocks` into `state` (`S` words a
        /// lane): `steps` turns the state vectors and a block's words into
        /// the state before the feed-forward addition.
        ///
        /// Panics if a lane has fewer than `count` blocks.
        $(#[$attr])*
        fn compress_blocks<const S: usize>(
            state: &mut [[u32; LANES]; S],
            blocks: &[&[u8]; LANES],
            count: usize,
            big_endian: bool,
            steps: impl Fn([$v; S], [$v; 16]) -> [$v; S],
        ) {
            assert!(
                blocks.iter().all(|lane| lane.len() >= count * BLOCK_LEN),
                "a lane has fewer blocks than asked for"
            );
            for n in 0..count {
                add_to_rows(state, steps(load_rows(state), words(block(blocks, n), big_endian)));
            }
        }
    };
}

/// Expands to `md5_steps` and `sha1_steps` (with their `md5_step` and
/// `sha1_step`) on vector type `$v`, each function with the attributes
/// given.
#[cfg(feature = "compat")]
macro_rules! four_lane_steps {
    ($v:ty; $(#[$attr:meta])*) => {
        /// MD5's step `i` (RFC 1321 section 3.4): a new B from the four
        /// words, which then move down one place, (A, B, C, D) becoming
        /// (D, new B, B, C).
        $(#[$attr])*
        fn md5_step([a, b, c, d]: [$v; 4], m: &[$v; 16], i: usize) -> [$v; 4] {
            use $crate::platform::mb_spec::{md5_word_index, MD5_SHIFTS, MD5_T};
            let round = i / 16;
            let f = match round {
                // F and G as bit selects: (b AND c) OR (NOT b AND d), and
                // (b AND d) OR (c AND NOT d).
                0 => select(b, c, d),
                1 => select(d, b, c),
                2 => xor(xor(b, c), d),
                _ => xor(c, or_not(b, d)),
            };
            let sum = add(add(a, f), add(m[md5_word_index(round, i % 16)], splat(MD5_T[i])));
            [d, add(b, rotate_left(sum, MD5_SHIFTS[round][i % 4])), b, c]
        }

        /// MD5's 64 steps on one block's words `m`.
        $(#[$attr])*
        fn md5_steps(mut s: [$v; 4], m: [$v; 16]) -> [$v; 4] {
            let step = |s, i| md5_step(s, &m, i);
            $crate::platform::mb_four_lanes::unrolled!(s = step;
                0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31
                32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63);
            s
        }

        /// SHA-1's step `t` (FIPS 180-4 section 6.1.2), its schedule in a
        /// ring of sixteen words: W(t) replaces W(t - 16).
        $(#[$attr])*
        fn sha1_step([a, b, c, d, e]: [$v; 5], w: &mut [$v; 16], t: usize) -> [$v; 5] {
            use $crate::platform::mb_spec::SHA1_K;
            let j = t % 16;
            if t >= 16 {
                let mixed = xor(xor(w[(j + 13) % 16], w[(j + 8) % 16]), xor(w[(j + 2) % 16], w[j]));
                w[j] = rotate_left(mixed, 1);
            }
            // Ch as a bit select, Parity, Maj as a bit select (`d` where
            // `b` and `c` differ, else `c`), Parity.
            let f = match t / 20 {
                0 => select(b, c, d),
                2 => select(xor(b, c), d, c),
                _ => xor(xor(b, c), d),
            };
            let sum = add(add(rotate_left(a, 5), f), add(e, splat(SHA1_K[t / 20])));
            [add(sum, w[j]), a, rotate_left(b, 30), c, d]
        }

        /// SHA-1's 80 steps on one block's words `w`.
        $(#[$attr])*
        fn sha1_steps(mut s: [$v; 5], mut w: [$v; 16]) -> [$v; 5] {
            let mut step = |s, t| sha1_step(s, &mut w, t);
            $crate::platform::mb_four_lanes::unrolled!(s = step;
                0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39
                40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63 64 65 66 67 68 69 70 71 72 73 74 75 76 77 78 79);
            s
        }
    };
}

/// `$state = $step($state, i)` for each literal `i`, in order: unrolled, so
/// each step's table entries, rotations and word indexes are constants.
/// Written as a loop, LLVM kept the 64 or 80 steps rolled, the words in
/// memory and the rotations variable: in the npm package's `hashMany`
/// (1024 x 64 B, 256 x 1 KiB, 64 x 4 KiB) MD5 ran 1.56-1.97x the scalar
/// build and SHA-1 1.13-1.14x; unrolled, 1.81-2.93x and 1.52-2.19x, for
/// 40 kB more of the SIMD128 module (`bindings/js/bench-many.mjs`).
#[cfg(feature = "compat")]
macro_rules! unrolled {
    ($state:ident = $step:ident; $($i:literal)*) => {
        $( $state = $step($state, $i); )*
    };
}

pub(crate) use four_lane_blocks;
#[cfg(feature = "compat")]
pub(crate) use {four_lane_steps, unrolled};
