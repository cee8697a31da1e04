//! `bao::Encoder` (the combined encoding and outboards of a message given
//! in pieces, in bounded memory) against the in-memory builders
//! `Tree::encode` and `Tree::outboard`, which `tests/bao.rs` checks against
//! the `bao` and `bao-tree` crates: lengths around the encoder's 1 MiB
//! steps, pieces smaller and larger than a step, groups smaller and larger
//! than a step, every mode, an output that does not start at 0, and inputs
//! of the wrong length.

use chunkhash::blake3::bao::{Encoder, Format, Mode, Order, Tree};
use std::io::{self, Cursor, Seek, SeekFrom};
use vectors::TestScale;

/// The encoder's step: input hashed and written at once.
const STEP: usize = 1 << 20;

/// Every format of `data` from the encoder, fed in pieces of `piece`
/// bytes, against the in-memory builders.
fn check(tree: Tree, data: &[u8], piece: usize) {
    let len = data.len() as u64;
    let encode = |format| {
        let mut encoder = Encoder::new(tree, len, format, Cursor::new(Vec::new())).unwrap();
        for part in data.chunks(piece) {
            encoder.update(part).unwrap();
        }
        let (root, out) = encoder.finish().unwrap();
        (root, out.into_inner())
    };
    let what = format!("len {len}, group log {}, pieces of {piece}", tree.group_log());
    assert!(encode(Format::Combined) == tree.encode(data), "combined, {what}");
    for order in [Order::Pre, Order::Post] {
        let outboard = tree.outboard(data, order);
        let (root, bytes) = encode(Format::Outboard(order));
        assert_eq!(root, outboard.root(), "{order:?}, {what}");
        assert!(bytes == outboard.bao_bytes(), "{order:?} outboard, {what}");
    }
}

#[test]
fn the_same_bytes_as_the_in_memory_builders() {
    let lengths = TestScale::pick(
        &[
            0,
            1,
            1024,
            1025,
            2048,
            3 * 1024 + 7,
            64 * 1024,
            STEP - 1,
            STEP,
            STEP + 1,
            2 * STEP + 5 * 1024 + 3,
            3 * STEP,
            5 * STEP + 1,
        ][..],
        &[0, 1, 1025, 3 * 1024 + 7, STEP, STEP + 1, 2 * STEP + 5 * 1024 + 3][..],
        &[0, 1025][..],
    );
    let pieces = TestScale::pick(&[4096, 1_000_003, STEP + 1, usize::MAX][..], &[4096, usize::MAX][..], &[100][..]);
    let input = vectors::bao_input(*lengths.iter().max().unwrap());
    for &len in lengths {
        // 7 and up: a group fills the writer's batch of chunks on its own.
        for group_log in [0, 2, 4, 7, 9] {
            let tree = Tree::new(Mode::hash(), group_log).unwrap();
            for &piece in pieces {
                check(tree, &input[..len], piece);
            }
        }
    }
}

#[test]
fn groups_larger_than_a_step_and_other_modes() {
    let lengths = TestScale::pick(
        &[0, 1, STEP, STEP * 2, STEP * 2 + 1, STEP * 5 + 3][..],
        &[0, STEP, STEP * 2 + 1][..],
        &[0][..],
    );
    let input = vectors::bao_input(STEP * 5 + 3);
    for &len in lengths {
        // 10: a group is a step (the message's one group may come whole).
        for group_log in [10, 11, 12] {
            check(Tree::new(Mode::hash(), group_log).unwrap(), &input[..len], 300_001);
        }
    }
    let data = &input[..TestScale::pick(3 * STEP + 777, 3 * STEP + 777, 3000)];
    check(Tree::new(Mode::keyed(&[9; 32]), 0).unwrap(), data, 65536);
    check(Tree::new(Mode::derive_key("chunkhash bao encoder test"), 11).unwrap(), data, 65536);
}

#[test]
fn output_starts_where_the_writer_is() {
    // Past the first step, so that the root's node is written back with a seek.
    let data = vectors::bao_input(TestScale::pick(5 * STEP + 1, 5 * STEP + 1, 3000));
    let mut out = Cursor::new(b"prefix".to_vec());
    out.seek(SeekFrom::End(0)).unwrap();
    let mut encoder = Encoder::new(Tree::bao(), data.len() as u64, Format::Combined, out).unwrap();
    encoder.update(&data).unwrap();
    let (_, out) = encoder.finish().unwrap();
    let expected = [&b"prefix"[..], &Tree::bao().encode(&data).1].concat();
    assert!(out.into_inner() == expected);
}

#[test]
fn wrong_lengths_are_errors() {
    let mut encoder = Encoder::new(Tree::bao(), 10, Format::Combined, Cursor::new(Vec::new())).unwrap();
    encoder.update(&[1; 6]).unwrap();
    let error = encoder.update(&[1; 5]).unwrap_err();
    assert_eq!(error.kind(), io::ErrorKind::InvalidInput);
    assert_eq!(error.to_string(), "more input than the 10 bytes the encoder was given");
    let error = encoder.finish().unwrap_err();
    assert_eq!(error.kind(), io::ErrorKind::UnexpectedEof);
    assert_eq!(error.to_string(), "the input ended after 6 of its 10 bytes");
}

/// An output that takes `room` bytes and then fails every write.
struct Full {
    inner: Cursor<Vec<u8>>,
    room: u64,
}

impl io::Write for Full {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        if self.inner.position() + bytes.len() as u64 > self.room {
            return Err(io::Error::other("the disk is full"));
        }
        self.inner.write(bytes)
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

impl Seek for Full {
    fn seek(&mut self, to: SeekFrom) -> io::Result<u64> {
        self.inner.seek(to)
    }
}

/// After a failed write the encoder takes nothing more: a later update
/// or finish is an error, not a step written twice or a panic. (The
/// combined encoding: an outboard of a few MiB is written only at the
/// end, by `finish`.)
#[test]
fn nothing_is_taken_after_a_failed_write() {
    let len = 3 * STEP as u64 + 5;
    let format = Format::Combined;
    let out = Full { inner: Cursor::new(Vec::new()), room: 4096 };
    let mut encoder = Encoder::new(Tree::bao(), len, format, out).unwrap();
    let piece = vec![7u8; STEP];
    let first = (0..3).map(|_| encoder.update(&piece)).find(Result::is_err);
    let error = first.expect("a write fails").unwrap_err();
    assert_eq!(error.to_string(), "the disk is full", "{format:?}");
    let again = encoder.update(&piece[..5]).unwrap_err();
    assert_eq!(again.to_string(), "an earlier write of this encoding failed", "{format:?}");
    let end = encoder.finish().map(drop).unwrap_err();
    assert_eq!(end.to_string(), "an earlier write of this encoding failed", "{format:?}");
}

/// The same for post-order nodes: they are written a MiB at a time, so the
/// first failure comes after 16 MiB of a message in 1 KiB groups.
#[test]
fn post_order_takes_nothing_after_a_failed_write() {
    use chunkhash::blake3::bao::PostOrderEncoder;
    let out = Full { inner: Cursor::new(Vec::new()), room: 4096 };
    let mut encoder = PostOrderEncoder::new(Tree::bao(), out);
    let piece = vec![7u8; STEP];
    let first = (0..20).map(|_| encoder.update(&piece)).find(Result::is_err);
    let error = first.expect("a write fails").unwrap_err();
    assert_eq!(error.to_string(), "the disk is full");
    let again = encoder.update(&piece[..5]).unwrap_err();
    assert_eq!(again.to_string(), "an earlier write of this encoding failed");
    let end = encoder.finish().map(drop).unwrap_err();
    assert_eq!(end.to_string(), "an earlier write of this encoding failed");
}

/// An empty piece adds nothing to either streaming encoder: before,
/// between and after the pieces, and for the empty message.
#[test]
fn empty_pieces_are_no_ops() {
    use chunkhash::blake3::bao::PostOrderEncoder;
    let input = vectors::bao_input(STEP + 5000);
    for group_log in [0, 11] {
        let tree = Tree::new(Mode::hash(), group_log).unwrap();
        for len in [0, 5000, STEP + 5000] {
            let data = &input[..len];
            let pieces = [&[][..], &data[..len / 2], &[], &data[len / 2..], &[]];
            for format in [Format::Combined, Format::Outboard(Order::Pre), Format::Outboard(Order::Post)] {
                let mut encoder = Encoder::new(tree, len as u64, format, Cursor::new(Vec::new())).unwrap();
                for piece in pieces {
                    encoder.update(piece).unwrap();
                }
                let (root, out) = encoder.finish().unwrap();
                let expected = match format {
                    Format::Combined => tree.encode(data).1,
                    Format::Outboard(order) => tree.outboard(data, order).bao_bytes().to_vec(),
                };
                assert_eq!(root, chunkhash::blake3::hash(data));
                assert!(out.into_inner() == expected, "{format:?}, len {len}, group log {group_log}");
            }
            let mut encoder = PostOrderEncoder::new(tree, Vec::new());
            for piece in pieces {
                encoder.update(piece).unwrap();
            }
            let (root, got_len, nodes) = encoder.finish().unwrap();
            let post = tree.outboard(data, Order::Post);
            assert_eq!((root, got_len), (post.root(), len as u64));
            assert!(nodes == post.nodes(), "post-order, len {len}, group log {group_log}");
        }
    }
}

/// Post-order nodes of a message of unknown length, and the pre-order
/// reordering, against `Tree::outboard`.
#[test]
fn post_order_of_unknown_length_and_its_pre_order() {
    use chunkhash::blake3::bao::{post_to_pre_order, PostOrderEncoder};
    // 17 MiB: more than the 16K nodes the reordering takes at once.
    let lengths = TestScale::pick(
        &[0, 1, 1024, 1025, 3 * 1024 + 7, STEP - 1, STEP, STEP + 1, 2 * STEP, 3 * STEP + 5 * 1024 + 3, 17 * STEP + 1][..],
        &[0, 1025, STEP, STEP + 1, 3 * STEP + 5 * 1024 + 3][..],
        &[0, 1025][..],
    );
    let input = vectors::bao_input(*lengths.iter().max().unwrap());
    for &len in lengths {
        for group_log in [0, 4, 7, 10, 11] {
            if group_log > 4 && len > 5 * STEP {
                continue;
            }
            let tree = Tree::new(Mode::hash(), group_log).unwrap();
            let post = tree.outboard(&input[..len], Order::Post);
            for piece in [4096, STEP, usize::MAX] {
                let mut encoder = PostOrderEncoder::new(tree, Vec::new());
                for part in input[..len].chunks(piece) {
                    encoder.update(part).unwrap();
                }
                let (root, got_len, nodes) = encoder.finish().unwrap();
                let what = format!("len {len}, group log {group_log}, pieces of {piece}");
                assert_eq!((root, got_len), (post.root(), len as u64), "{what}");
                assert!(nodes == post.nodes(), "{what}");
            }
            let mut pre = Vec::new();
            post_to_pre_order(&tree, len as u64, Cursor::new(post.nodes()), &mut pre).unwrap();
            assert!(
                pre == tree.outboard(&input[..len], Order::Pre).nodes(),
                "pre-order, len {len}, group log {group_log}"
            );
        }
    }
}
