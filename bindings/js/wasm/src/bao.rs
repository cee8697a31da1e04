//! The Bao exports (`chunkhash::blake3::bao`): outboards, the combined
//! encoding, slices, and a verifying decoder that writes only verified
//! bytes. Each call takes its whole input staged (the library's outboard and
//! encoding are one-shot over a buffer); the wrapper says so in its docs.
//!
//! Ranges: JavaScript asks for one byte range (`bao`'s slices) or the whole
//! message (a combined encoding), as `start` and `count` in 64 bits.

// A list of one range is the common case here.
#![allow(clippy::single_range_in_vec_init)]

use chunkhash::blake3::bao::{self, BaoError, Decoder, Order, Tree};
use chunkhash::blake3::{Hash, OUT_LEN};

use crate::state::{output_area, staged, State};
use crate::{run, Error, Mode, ERROR_INVALID_ARGUMENT};

/// A node or group that does not verify (`BaoError::Mismatch`).
pub const ERROR_BAO_MISMATCH: i32 = -20;
/// A stream that ends before every requested byte is verified.
pub const ERROR_BAO_TRUNCATED: i32 = -21;
/// Bytes after the end of a slice or encoding.
pub const ERROR_BAO_EXTENDED: i32 = -22;
/// An outboard or encoding whose length does not fit its header.
pub const ERROR_BAO_LENGTH: i32 = -23;

fn tree(mode: &Mode<'_>, group_log: u32) -> Result<Tree, Error> {
    let mode = match *mode {
        Mode::Hash => bao::Mode::hash(),
        Mode::Keyed(key) => bao::Mode::keyed(key),
        Mode::DeriveKey(context) => bao::Mode::derive_key(context),
    };
    let group_log = u8::try_from(group_log).unwrap_or(u8::MAX);
    Tree::new(mode, group_log).map_err(bao_error)
}

fn order(post_order: u32) -> Order {
    if post_order == 0 {
        Order::Pre
    } else {
        Order::Post
    }
}

fn bao_error(error: BaoError) -> Error {
    let code = match error {
        BaoError::Mismatch { .. } => ERROR_BAO_MISMATCH,
        BaoError::OutboardLength { .. } | BaoError::EncodingLength { .. } => ERROR_BAO_LENGTH,
        BaoError::Truncated { .. } => ERROR_BAO_TRUNCATED,
        BaoError::Extended { .. } => ERROR_BAO_EXTENDED,
        _ => ERROR_INVALID_ARGUMENT,
    };
    Error::new(code, error)
}

/// Writes the root hash and then `bytes` to the output area; returns their
/// length.
fn root_and(output: &mut Vec<u8>, root: Hash, bytes: &[u8]) -> Result<i32, Error> {
    let out = output_area(output, OUT_LEN + bytes.len())?;
    out[..OUT_LEN].copy_from_slice(root.as_bytes());
    out[OUT_LEN..].copy_from_slice(bytes);
    crate::len_i32(out.len())
}

/// The outboard of the `len` bytes staged after the mode's parameter, for
/// groups of 2^`group_log` chunks, in pre-order (`post_order` 0) or
/// post-order: the output area receives the root hash (32 bytes), then
/// `bao`'s outboard file (the 8-byte length header, then the nodes).
#[unsafe(no_mangle)] // SAFETY: no other symbol of this module has this name.
pub extern "C" fn chunkhash_bao_outboard(
    mode: u32,
    param_len: usize,
    len: usize,
    group_log: u32,
    post_order: u32,
) -> i32 {
    run(|state| {
        let State { staging, output, .. } = state;
        let mode = Mode::parse(mode, staged(staging, 0, param_len)?)?;
        let tree = tree(&mode, group_log)?;
        let outboard = tree.outboard(staged(staging, param_len, len)?, order(post_order));
        root_and(output, outboard.root(), outboard.bao_bytes())
    })
}

/// Starts an outboard of a `len`-byte message given in pieces (the same
/// bytes as [`chunkhash_bao_outboard`]'s): each piece is copied into the
/// staging area and hashed while it is still in the cache, where the
/// one-shot call would read a whole staged copy back from memory. The mode's
/// parameter is staged at 0; the pieces go to [`chunkhash_bao_outboard_update`].
#[unsafe(no_mangle)] // SAFETY: no other symbol of this module has this name.
pub extern "C" fn chunkhash_bao_outboard_begin(
    mode: u32,
    param_len: usize,
    len: u64,
    group_log: u32,
    post_order: u32,
) -> i32 {
    run(|state| {
        state.bao_outboard = None;
        let mode = Mode::parse(mode, state.staged(0, param_len)?)?;
        let tree = tree(&mode, group_log)?;
        state.bao_outboard = Some(tree.outboard_builder(len, order(post_order)).map_err(|_| Error::out_of_memory())?);
        Ok(0)
    })
}

/// Takes the next piece of the message, `len` bytes staged at 0: each but
/// the last a power of two of groups (an empty piece adds nothing). An
/// error ends the outboard: the calls after it fail until the next
/// [`chunkhash_bao_outboard_begin`], rather than go on from a message that
/// lacks a piece.
#[unsafe(no_mangle)] // SAFETY: no other symbol of this module has this name.
pub extern "C" fn chunkhash_bao_outboard_update(len: usize) -> i32 {
    run(|state| {
        let State { staging, bao_outboard, .. } = state;
        let builder = bao_outboard.as_mut().ok_or_else(no_outboard)?;
        let taken = staged(staging, 0, len).and_then(|piece| builder.update(piece).map_err(bao_error));
        if taken.is_err() {
            *bao_outboard = None;
        }
        taken.map(|()| 0)
    })
}

/// Ends the outboard begun by [`chunkhash_bao_outboard_begin`]: the output
/// area receives what [`chunkhash_bao_outboard`] writes there.
#[unsafe(no_mangle)] // SAFETY: no other symbol of this module has this name.
pub extern "C" fn chunkhash_bao_outboard_finish() -> i32 {
    run(|state| {
        let State { output, bao_outboard, .. } = state;
        let outboard = bao_outboard.take().ok_or_else(no_outboard)?.finish().map_err(bao_error)?;
        root_and(output, outboard.root(), outboard.bao_bytes())
    })
}

fn no_outboard() -> Error {
    Error::invalid_argument(
        "no Bao outboard in progress (chunkhash_bao_outboard_begin first; an error ends the one in progress)",
    )
}

/// The combined encoding of the `len` bytes staged after the mode's
/// parameter: the output area receives the root hash, then the encoding.
#[unsafe(no_mangle)] // SAFETY: no other symbol of this module has this name.
pub extern "C" fn chunkhash_bao_encode(mode: u32, param_len: usize, len: usize, group_log: u32) -> i32 {
    run(|state| {
        let State { staging, output, .. } = state;
        let mode = Mode::parse(mode, staged(staging, 0, param_len)?)?;
        let (root, encoding) = tree(&mode, group_log)?.encode(staged(staging, param_len, len)?);
        root_and(output, root, &encoding)
    })
}

/// The slice for bytes `start..start + count` of the `len` bytes staged at
/// 0, taken from the outboard staged after them (`outboard_len` bytes:
/// `bao`'s file, header first, in the order `post_order` says). Without an
/// outboard (`outboard_len` 0 and `len` the encoding's length), from the
/// combined encoding staged at 0. Returns the slice's length.
#[unsafe(no_mangle)] // SAFETY: no other symbol of this module has this name.
pub extern "C" fn chunkhash_bao_slice(
    len: usize,
    outboard_len: usize,
    group_log: u32,
    post_order: u32,
    start: u64,
    count: u64,
) -> i32 {
    run(|state| {
        let State { staging, output, .. } = state;
        // The mode plays no part in cutting a slice.
        let tree = tree(&Mode::Hash, group_log)?;
        let ranges = [start..start.saturating_add(count)];
        let source = staged(staging, 0, len)?;
        let slice = if outboard_len == 0 {
            tree.slice_encoding(source, &ranges)
        } else {
            let file = staged(staging, len, outboard_len)?;
            let (header, nodes) = file.split_at_checked(bao::HEADER_LEN).ok_or_else(|| {
                Error::new(
                    ERROR_BAO_LENGTH,
                    format!("an outboard of {outboard_len} bytes is shorter than its 8-byte header"),
                )
            })?;
            let message_len = u64::from_le_bytes(header.try_into().expect("the header is 8 bytes"));
            let mut owned = Vec::new();
            owned.try_reserve_exact(nodes.len()).map_err(|_| Error::out_of_memory())?;
            owned.extend_from_slice(nodes);
            // The root plays no part in cutting a slice either.
            let outboard =
                bao::Outboard::from_parts(&tree, Hash::from([0; OUT_LEN]), message_len, order(post_order), owned)
                    .map_err(bao_error)?;
            tree.slice(source, &outboard, &ranges)
        }
        .map_err(bao_error)?;
        let out = output_area(output, slice.len())?;
        out.copy_from_slice(&slice);
        crate::len_i32(slice.len())
    })
}

/// Verifies a slice or combined encoding against a root hash. Staged: the
/// mode's parameter, the 32-byte root, then the stream (`len` bytes).
/// `whole` 1: a combined encoding (every byte); else the slice for bytes
/// `start..start + count`. The output area receives the verified bytes of
/// the range, in order; returns their length. On an error the bytes
/// verified before the failing item are there all the same:
/// [`chunkhash_bao_verified_len`] gives how many.
#[unsafe(no_mangle)] // SAFETY: no other symbol of this module has this name.
pub extern "C" fn chunkhash_bao_decode(
    mode: u32,
    param_len: usize,
    len: usize,
    group_log: u32,
    whole: u32,
    start: u64,
    count: u64,
) -> i32 {
    run(|state| {
        state.verified_len = 0;
        let State { staging, output, verified_len, .. } = state;
        let mode = Mode::parse(mode, staged(staging, 0, param_len)?)?;
        let tree = tree(&mode, group_log)?;
        let root: [u8; OUT_LEN] = staged(staging, param_len, OUT_LEN)?.try_into().expect("32 bytes staged");
        let stream = staged(staging, param_len + OUT_LEN, len)?;
        let range = if whole == 1 { bao::WHOLE[0].clone() } else { start..start.saturating_add(count) };
        let mut verified = Vec::new();
        let result = decode(tree, Hash::from(root), range, stream, &mut verified);
        let out = output_area(output, verified.len())?;
        out.copy_from_slice(&verified);
        *verified_len = verified.len();
        result?;
        crate::len_i32(verified.len())
    })
}

/// Bytes the last [`chunkhash_bao_decode`] verified (also when it failed).
#[unsafe(no_mangle)] // SAFETY: no other symbol of this module has this name.
pub extern "C" fn chunkhash_bao_verified_len() -> usize {
    crate::state::with_state(|state| state.verified_len)
}

/// Feeds `stream` to a decoder for `range`, appending the range's verified
/// bytes to `out`; the stream must end where the slice does.
fn decode(tree: Tree, root: Hash, range: core::ops::Range<u64>, stream: &[u8], out: &mut Vec<u8>) -> Result<(), Error> {
    let ranges = [range.clone()];
    let mut failure = None;
    Decoder::new(tree, root, &ranges)
        .feed_all(stream, |verified| {
            // The part of the group inside the range (a group at the end
            // proves the length for a range past it, and gives no bytes).
            let part = verified.bytes_in(&range);
            if failure.is_none() {
                if out.try_reserve(part.len()).is_err() {
                    failure = Some(Error::out_of_memory());
                } else {
                    out.extend_from_slice(part);
                }
            }
        })
        .map_err(bao_error)?;
    failure.map_or(Ok(()), Err)
}

#[cfg(test)]
mod tests {
    //! The Bao exports on the host against the library and the `bao`
    //! crate's vectors (the JavaScript tests run the same file through
    //! the wrapper).

    use super::*;
    use crate::state::with_state;
    use crate::tests::{output, stage};
    use crate::{MODE_HASH, MODE_KEYED};
    use vectors::{bao_input, bao_vectors};

    fn hex(bytes: &[u8]) -> String {
        chunkhash::blake3::hash(bytes).to_hex().to_string()
    }

    #[test]
    fn outboards_in_pieces_are_the_one_shot_ones() {
        let input = bao_input(700_000);
        for (group_log, post_order) in [(0, 0), (0, 1), (2, 1), (4, 0), (6, 0)] {
            stage(&[&input]);
            let n = chunkhash_bao_outboard(MODE_HASH, 0, input.len(), group_log, post_order);
            let whole = output(n as usize);
            stage(&[]);
            assert_eq!(chunkhash_bao_outboard_begin(MODE_HASH, 0, input.len() as u64, group_log, post_order), 0);
            for piece in input.chunks(64 << 10) {
                stage(&[piece]);
                assert_eq!(chunkhash_bao_outboard_update(piece.len()), 0);
            }
            assert_eq!(chunkhash_bao_outboard_finish(), n);
            assert!(output(n as usize) == whole, "k {group_log}");
        }
        // Not a whole subtree (three groups): an error that ends the
        // outboard, not one the next piece goes on from.
        stage(&[]);
        assert_eq!(chunkhash_bao_outboard_begin(MODE_HASH, 0, input.len() as u64, 0, 0), 0);
        stage(&[&input[..3072]]);
        assert_eq!(chunkhash_bao_outboard_update(3072), ERROR_INVALID_ARGUMENT);
        assert_eq!(chunkhash_bao_outboard_update(1024), ERROR_INVALID_ARGUMENT);
        assert!(with_state(|state| state.message.contains("an error ends the one in progress")));
        assert_eq!(chunkhash_bao_outboard_finish(), ERROR_INVALID_ARGUMENT);
        // An empty piece adds nothing; an early end and no outboard begun
        // are errors.
        stage(&[]);
        assert_eq!(chunkhash_bao_outboard_begin(MODE_HASH, 0, input.len() as u64, 0, 0), 0);
        assert_eq!(chunkhash_bao_outboard_update(0), 0);
        stage(&[&input[..1024]]);
        assert_eq!(chunkhash_bao_outboard_update(1024), 0);
        assert_eq!(chunkhash_bao_outboard_update(0), 0);
        assert_eq!(chunkhash_bao_outboard_finish(), ERROR_INVALID_ARGUMENT);
        assert_eq!(chunkhash_bao_outboard_finish(), ERROR_INVALID_ARGUMENT);
        assert_eq!(chunkhash_bao_outboard_update(1024), ERROR_INVALID_ARGUMENT);
        // An outboard past the memory's reach is an error, not a trap.
        #[cfg(target_pointer_width = "32")]
        assert_eq!(chunkhash_bao_outboard_begin(MODE_HASH, 0, u64::MAX, 0, 0), crate::ERROR_OUT_OF_MEMORY);
    }

    #[test]
    fn vectors_through_outboard_encode_slice_and_decode() {
        let vectors = bao_vectors();
        for case in vectors["outboard"].as_array().unwrap() {
            let input = bao_input(case["input_len"].as_u64().unwrap() as usize);
            stage(&[&input]);
            let n = chunkhash_bao_outboard(MODE_HASH, 0, input.len(), 0, 0);
            assert_eq!(n as u64, 32 + case["output_len"].as_u64().unwrap());
            let out = output(n as usize);
            assert_eq!(hex(&out[32..]), case["encoded_blake3"].as_str().unwrap());
            assert_eq!(
                chunkhash::blake3::Hash::from(<[u8; 32]>::try_from(&out[..32]).unwrap()).to_hex().as_str(),
                case["bao_hash"].as_str().unwrap()
            );
        }
        for case in vectors["encode"].as_array().unwrap() {
            let input = bao_input(case["input_len"].as_u64().unwrap() as usize);
            stage(&[&input]);
            let n = chunkhash_bao_encode(MODE_HASH, 0, input.len(), 0);
            let out = output(n as usize);
            let (root, encoding) = out.split_at(32);
            assert_eq!(hex(encoding), case["encoded_blake3"].as_str().unwrap());
            stage(&[root, encoding]);
            assert_eq!(chunkhash_bao_decode(MODE_HASH, 0, encoding.len(), 0, 1, 0, 0), input.len() as i32);
            assert_eq!(output(input.len()), input);
            for point in case["corruptions"].as_array().unwrap() {
                let mut bad = encoding.to_vec();
                bad[point.as_u64().unwrap() as usize] ^= 1;
                stage(&[root, &bad]);
                assert!(chunkhash_bao_decode(MODE_HASH, 0, bad.len(), 0, 1, 0, 0) < 0, "corruption at {point}");
                assert!(chunkhash_bao_verified_len() < input.len().max(1));
            }
        }
        for case in vectors["slice"].as_array().unwrap() {
            let input = bao_input(case["input_len"].as_u64().unwrap() as usize);
            let outboard = Tree::bao().outboard(&input, Order::Pre);
            for slice_case in case["slices"].as_array().unwrap() {
                let start = slice_case["start"].as_u64().unwrap();
                let count = slice_case["len"].as_u64().unwrap();
                stage(&[&input, outboard.bao_bytes()]);
                let n = chunkhash_bao_slice(input.len(), outboard.bao_bytes().len(), 0, 0, start, count);
                assert_eq!(n as u64, slice_case["output_len"].as_u64().unwrap());
                let slice = output(n as usize);
                assert_eq!(hex(&slice), slice_case["output_blake3"].as_str().unwrap());
                stage(&[outboard.root().as_bytes(), &slice]);
                let n = chunkhash_bao_decode(MODE_HASH, 0, slice.len(), 0, 0, start, count);
                let expected = &input[(start as usize).min(input.len())..((start + count) as usize).min(input.len())];
                assert_eq!(output(n as usize), expected);
            }
        }
    }

    #[test]
    fn damage_truncation_extension_and_wrong_roots_are_errors() {
        let input = bao_input(100_000);
        let key = [9u8; 32];
        stage(&[&key, &input]);
        let n = chunkhash_bao_encode(MODE_KEYED, 32, input.len(), 2);
        let out = output(n as usize);
        let (root, encoding) = out.split_at(32);
        assert_eq!(root, chunkhash::blake3::keyed_hash(&key, &input).as_bytes());
        stage(&[&key, root, encoding]);
        assert_eq!(chunkhash_bao_decode(MODE_KEYED, 32, encoding.len(), 2, 1, 0, 0), input.len() as i32);
        // Without the key, or with another group size: nothing verifies.
        stage(&[root, encoding]);
        assert_eq!(chunkhash_bao_decode(MODE_HASH, 0, encoding.len(), 2, 1, 0, 0), ERROR_BAO_MISMATCH);
        stage(&[&key, root, encoding]);
        assert_eq!(chunkhash_bao_decode(MODE_KEYED, 32, encoding.len(), 0, 1, 0, 0), ERROR_BAO_MISMATCH);
        assert_eq!(chunkhash_bao_decode(MODE_KEYED, 32, encoding.len() - 1, 2, 1, 0, 0), ERROR_BAO_TRUNCATED);
        assert!(with_state(|state| state.message.contains("the stream ends at byte")));
        // The groups before the cut are verified and kept.
        assert!(chunkhash_bao_verified_len() > 0);
        assert_eq!(output(chunkhash_bao_verified_len()), input[..chunkhash_bao_verified_len()]);
        stage(&[&key, root, encoding, b"!"]);
        assert_eq!(chunkhash_bao_decode(MODE_KEYED, 32, encoding.len() + 1, 2, 1, 0, 0), ERROR_BAO_EXTENDED);
        assert_eq!(chunkhash_bao_verified_len(), input.len());
        let mut bad_root = root.to_vec();
        bad_root[0] ^= 0x80;
        stage(&[&key, &bad_root, encoding]);
        assert_eq!(chunkhash_bao_decode(MODE_KEYED, 32, encoding.len(), 2, 1, 0, 0), ERROR_BAO_MISMATCH);
        assert!(with_state(|state| state.message.contains("does not verify")), "{}", with_state(|s| s.message.clone()));
        assert_eq!(chunkhash_bao_verified_len(), 0);
        // Bad sizes and layouts.
        stage(&[&input]);
        assert_eq!(chunkhash_bao_outboard(MODE_HASH, 0, input.len(), 17, 0), ERROR_INVALID_ARGUMENT);
        assert_eq!(chunkhash_bao_outboard(MODE_HASH, 0, input.len(), u32::MAX, 0), ERROR_INVALID_ARGUMENT);
        assert_eq!(chunkhash_bao_slice(input.len(), 7, 0, 0, 0, 1), ERROR_BAO_LENGTH);
        assert_eq!(chunkhash_bao_slice(input.len(), 64, 0, 0, 0, 1), ERROR_BAO_LENGTH);
        assert_eq!(chunkhash_bao_slice(3, 0, 0, 0, 0, 1), ERROR_BAO_LENGTH, "an encoding of 3 bytes");
        assert_eq!(chunkhash_bao_slice(usize::MAX, 0, 0, 0, 0, 1), ERROR_INVALID_ARGUMENT);
        assert_eq!(chunkhash_bao_decode(MODE_HASH, 0, usize::MAX, 0, 1, 0, 0), ERROR_INVALID_ARGUMENT);
    }

    #[test]
    fn post_order_outboards_slice_like_pre_order_ones() {
        let input = bao_input(300_000);
        for group_log in [0, 4] {
            stage(&[&input]);
            let n = chunkhash_bao_outboard(MODE_HASH, 0, input.len(), group_log, 1);
            let post = output(n as usize)[32..].to_vec();
            let tree = Tree::new(bao::Mode::hash(), group_log as u8).unwrap();
            assert_eq!(post, tree.outboard(&input, Order::Post).bao_bytes());
            let pre = tree.outboard(&input, Order::Pre);
            stage(&[&input, &post]);
            let n = chunkhash_bao_slice(input.len(), post.len(), group_log, 1, 123_456, 70_000);
            let from_post = output(n as usize);
            assert_eq!(from_post, tree.slice(&input, &pre, &[123_456..193_456]).unwrap());
        }
    }
}
