//! What every XXH3 kernel shares: the geometry of stripes and blocks, and
//! the walk over stripes that scrambles at the end of each block (xxHash
//! spec, "XXH3 Algorithm Description (for large inputs)", steps 2 and 3).
//! A leaf: it imports nothing from the crate.
//!
//! A kernel brings two operations on its own register form of the eight
//! accumulators: `accumulate` (stripe `i` of a run uses the secret from byte
//! `8 * i`) and `scramble` (with the last 64 bytes of the secret). The walks
//! below are `#[inline(always)]` and take them as closures, so each kernel's
//! `#[target_feature]` entry point compiles the whole loop with its own
//! instructions and keeps the accumulators in registers.

/// Bytes in a stripe: the unit of one accumulation.
pub(crate) const STRIPE_LEN: usize = 64;
/// How far the secret window moves from one stripe to the next.
pub(crate) const SECRET_STEP: usize = 8;
/// The shortest secret the spec allows (9 stripes per block).
pub(crate) const SECRET_MIN_LEN: usize = 136;
/// Where the window of the last stripe starts, counted back from the
/// secret's end (spec: `secretLength - 71`).
const LAST_STRIPE_SECRET_FROM_END: usize = STRIPE_LEN + 7;
/// The length of the default secret, and of a secret derived from a seed:
/// kernels may specialise for it (16-stripe blocks).
pub(crate) const DEFAULT_SECRET_LEN: usize = 192;
/// The scramble multiplier (spec: `PRIME32_1`).
pub(crate) const PRIME32_1: u32 = 0x9E37_79B1;

/// The eight 64-bit accumulators of the long-input loop.
pub(crate) type Accumulators = [u64; 8];

/// Stripes in one block for a secret of `secret_len` bytes.
#[inline(always)]
pub(crate) fn stripes_per_block(secret_len: usize) -> usize {
    (secret_len - STRIPE_LEN) / SECRET_STEP
}

/// The last 64 bytes of the secret, which every scramble uses.
#[inline(always)]
pub(crate) fn scramble_key(secret: &[u8]) -> &[u8; STRIPE_LEN] {
    secret[secret.len() - STRIPE_LEN..].try_into().unwrap()
}

/// The 64-byte secret window of stripe `index` of a run that starts at the
/// secret's beginning.
#[inline(always)]
pub(crate) fn stripe_key(secret: &[u8], index: usize) -> &[u8; STRIPE_LEN] {
    secret[index * SECRET_STEP..index * SECRET_STEP + STRIPE_LEN].try_into().unwrap()
}

/// Bytes in a block of the default secret length: 16 stripes.
pub(crate) const DEFAULT_BLOCK_LEN: usize = (DEFAULT_SECRET_LEN - STRIPE_LEN) / SECRET_STEP * STRIPE_LEN;

/// Accumulates whole `stripes` (a multiple of 64 bytes), the first of them
/// stripe `done` of the current block, scrambling whenever a block fills.
/// Returns the new position in the block. Only stripes that more input
/// follows may come here: the block that holds the input's last byte is
/// never scrambled.
///
/// `accumulate_block` takes whole blocks of a default-length secret (the
/// default one, or one derived from a seed): with the sizes known, a
/// kernel's loop over a block unrolls, its secret windows need no bounds
/// checks and may stay in registers.
///
/// # Panics
///
/// If `stripes` is not whole stripes, the secret is shorter than 136 bytes
/// or `done` is not inside a block.
#[inline(always)]
pub(crate) fn consume<A>(
    acc: &mut A,
    mut stripes: &[u8],
    secret: &[u8],
    mut done: usize,
    mut accumulate: impl FnMut(&mut A, &[u8], &[u8]),
    mut accumulate_block: impl FnMut(&mut A, &[u8; DEFAULT_BLOCK_LEN], &[u8; DEFAULT_SECRET_LEN]),
    mut scramble: impl FnMut(&mut A, &[u8; STRIPE_LEN]),
) -> usize {
    assert!(
        stripes.len().is_multiple_of(STRIPE_LEN) && secret.len() >= SECRET_MIN_LEN,
        "whole stripes, a valid secret"
    );
    let per_block = stripes_per_block(secret.len());
    assert!(done < per_block, "a position inside a block");
    // The rest of the current block. Its windows end at byte 8 * per_block
    // + 56 < secret.len(): in bounds.
    if done > 0 {
        let take = (per_block - done).min(stripes.len() / STRIPE_LEN);
        let (now, later) = stripes.split_at(take * STRIPE_LEN);
        accumulate(acc, now, &secret[done * SECRET_STEP..]);
        done += take;
        if done < per_block {
            return done;
        }
        scramble(acc, scramble_key(secret));
        stripes = later;
    }
    // Whole blocks.
    let rest = if let Ok(secret) = <&[u8; DEFAULT_SECRET_LEN]>::try_from(secret) {
        let mut blocks = stripes.chunks_exact(DEFAULT_BLOCK_LEN);
        for block in &mut blocks {
            accumulate_block(acc, block.try_into().unwrap(), secret);
            scramble(acc, scramble_key(secret));
        }
        blocks.remainder()
    } else {
        let mut blocks = stripes.chunks_exact(per_block * STRIPE_LEN);
        for block in &mut blocks {
            accumulate(acc, block, secret);
            scramble(acc, scramble_key(secret));
        }
        blocks.remainder()
    };
    // The start of the next block.
    accumulate(acc, rest, secret);
    rest.len() / STRIPE_LEN
}

/// The long-input loop of a one-shot hash (more than 240 bytes, at least one
/// stripe): every stripe but the one holding the last byte, then the last
/// 64 bytes as the final stripe with its own secret window.
#[inline(always)]
pub(crate) fn hash_long<A>(
    acc: &mut A,
    input: &[u8],
    secret: &[u8],
    mut accumulate: impl FnMut(&mut A, &[u8], &[u8]),
    accumulate_block: impl FnMut(&mut A, &[u8; DEFAULT_BLOCK_LEN], &[u8; DEFAULT_SECRET_LEN]),
    scramble: impl FnMut(&mut A, &[u8; STRIPE_LEN]),
) {
    assert!(input.len() >= STRIPE_LEN, "at least one stripe");
    let whole = (input.len() - 1) / STRIPE_LEN * STRIPE_LEN;
    consume(acc, &input[..whole], secret, 0, &mut accumulate, accumulate_block, scramble);
    accumulate(acc, last_stripe(input), last_stripe_key(secret));
}

/// The final stripe: the input's last 64 bytes (which may overlap stripes
/// already accumulated).
#[inline(always)]
pub(crate) fn last_stripe(input: &[u8]) -> &[u8] {
    &input[input.len() - STRIPE_LEN..]
}

/// The final stripe's secret window.
#[inline(always)]
pub(crate) fn last_stripe_key(secret: &[u8]) -> &[u8] {
    &secret[secret.len() - LAST_STRIPE_SECRET_FROM_END..]
}

/// The entry points of a SIMD kernel file, for its instruction set
/// `$feature`, from the file's `load_acc` and `store_acc` (the eight
/// accumulators in and out of registers) and its `accumulate`,
/// `accumulate_block` and `scramble` (see `consume`), all
/// `#[target_feature(enable = $feature)]`. The entry points are safe
/// functions with that target feature: only code that has checked for the
/// feature may call them (`mod.rs`, after `Kernel::checked`).
#[cfg(any(
    target_arch = "x86",
    target_arch = "x86_64",
    all(target_arch = "aarch64", target_endian = "little"),
    all(target_arch = "wasm32", target_feature = "simd128")
))]
macro_rules! entry_points {
    ($feature:literal) => {
        /// See `stripes::consume`.
        #[target_feature(enable = $feature)]
        pub(super) fn consume(acc: &mut Accumulators, stripes: &[u8], secret: &[u8], done: usize) -> usize {
            let mut registers = load_acc(acc);
            let done = stripes::consume(
                &mut registers,
                stripes,
                secret,
                done,
                |a, s, k| accumulate(a, s, k),
                |a, b, k| accumulate_block(a, b, k),
                |a, k| scramble(a, k),
            );
            store_acc(acc, registers);
            done
        }

        /// See `stripes::hash_long`.
        #[target_feature(enable = $feature)]
        pub(super) fn hash_long(acc: &mut Accumulators, input: &[u8], secret: &[u8]) {
            let mut registers = load_acc(acc);
            stripes::hash_long(
                &mut registers,
                input,
                secret,
                |a, s, k| accumulate(a, s, k),
                |a, b, k| accumulate_block(a, b, k),
                |a, k| scramble(a, k),
            );
            store_acc(acc, registers);
        }

        /// Accumulates the final stripe of an input.
        #[target_feature(enable = $feature)]
        pub(super) fn accumulate_last(acc: &mut Accumulators, stripe: &[u8; STRIPE_LEN], secret: &[u8]) {
            let mut registers = load_acc(acc);
            accumulate(&mut registers, stripe, stripes::last_stripe_key(secret));
            store_acc(acc, registers);
        }
    };
}
#[cfg(any(
    target_arch = "x86",
    target_arch = "x86_64",
    all(target_arch = "aarch64", target_endian = "little"),
    all(target_arch = "wasm32", target_feature = "simd128")
))]
pub(crate) use entry_points;
