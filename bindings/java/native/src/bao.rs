//! The native methods of `io.chunkhash.Native` for Bao
//! (`chunkhash::blake3::bao`): outboards, the combined encoding, slices, and
//! a one-shot verifying decode that returns only verified bytes. Data that
//! does not verify becomes an `io.chunkhash.BaoException` carrying the
//! bytes verified before the failure.

// A list of one range is the common case here.
#![allow(clippy::single_range_in_vec_init)]

use crate::blake3::Mode;
use crate::boundary::{argument, array_len, direct_bytes, pin_bytes, run, with_bytes, write_out, Error, Result};
use chunkhash::blake3::bao::{self, BaoError, Decoder, Order, Tree};
use chunkhash::blake3::{Hash, OUT_LEN};
use jni::objects::{JByteArray, JByteBuffer, JClass, JObject, JThrowable, JValue};
use jni::sys::{jboolean, jbyteArray, jint, jlong, JNI_FALSE};
use jni::JNIEnv;
use std::ops::Range;

/// Why Bao data was refused, as `BaoException` reports it.
#[derive(Debug)]
pub(crate) struct Failure {
    /// `mismatch`, `truncated`, `extended` or `length`.
    kind: &'static str,
    message: String,
    /// The requested bytes verified before the failure.
    verified: Vec<u8>,
}

impl Failure {
    fn new(kind: &'static str, message: impl ToString) -> Failure {
        Failure { kind, message: message.to_string(), verified: Vec::new() }
    }
}

/// A library error: a mismatch or a length that does not fit a header is
/// data that fails; anything else is a bad argument.
fn bao_error(error: BaoError) -> Error {
    match error {
        BaoError::Mismatch { .. } => Error::Bao(Failure::new("mismatch", error)),
        BaoError::OutboardLength { .. } | BaoError::EncodingLength { .. } => Error::Bao(Failure::new("length", error)),
        _ => Error::Argument(error.to_string()),
    }
}

/// Throws `failure` as an `io.chunkhash.BaoException(kind, message, verified)`.
pub(crate) fn throw(env: &mut JNIEnv<'_>, failure: Failure) -> jni::errors::Result<()> {
    let kind = env.new_string(failure.kind)?;
    let message = env.new_string(failure.message)?;
    let verified = env.byte_array_from_slice(&failure.verified)?;
    let exception = env.new_object(
        "io/chunkhash/BaoException",
        "(Ljava/lang/String;Ljava/lang/String;[B)V",
        &[JValue::Object(&kind), JValue::Object(&message), JValue::Object(&verified)],
    )?;
    env.throw(JThrowable::from(exception))
}

fn tree(env: &JNIEnv<'_>, mode: jint, key_or_context: &JByteArray<'_>, group_log: jint) -> Result<Tree> {
    let mode = match Mode::read(env, mode, key_or_context)? {
        Mode::Plain => bao::Mode::hash(),
        Mode::Keyed(key) => bao::Mode::keyed(&key),
        Mode::DeriveKey(context) => bao::Mode::derive_key(&context),
    };
    match u8::try_from(group_log) {
        Ok(group_log) => Tree::new(mode, group_log).map_err(bao_error),
        Err(_) => argument(format!("group log {group_log} is outside 0..={}", bao::MAX_GROUP_LOG)),
    }
}

fn order(post_order: jboolean) -> Order {
    if post_order == JNI_FALSE {
        Order::Pre
    } else {
        Order::Post
    }
}

fn range(start: jlong, count: jlong) -> Result<Range<u64>> {
    match (u64::try_from(start), u64::try_from(count)) {
        (Ok(start), Ok(count)) => Ok(start..start.saturating_add(count)),
        _ => argument(format!("start {start} and count {count} must not be negative")),
    }
}

/// A new Java `byte[]` of `bytes`.
fn new_array(env: &JNIEnv<'_>, bytes: &[u8]) -> Result<jbyteArray> {
    if jint::try_from(bytes.len()).is_err() {
        return argument(format!("a result of {} bytes exceeds a Java array", bytes.len()));
    }
    Ok(env.byte_array_from_slice(bytes)?.into_raw())
}

/// Writes the root hash to `root_out` (32 bytes) and returns `bytes` as a new array.
fn root_and_array(env: &JNIEnv<'_>, root: &Hash, root_out: &JByteArray<'_>, bytes: &[u8]) -> Result<jbyteArray> {
    write_out(env, root_out, root.as_bytes())?;
    new_array(env, bytes)
}

#[no_mangle]
pub extern "system" fn Java_io_chunkhash_Native_baoOutboard<'l>(
    mut env: JNIEnv<'l>,
    _: JClass<'l>,
    mode: jint,
    key_or_context: JByteArray<'l>,
    group_log: jint,
    post_order: jboolean,
    input: JByteArray<'l>,
    off: jint,
    len: jint,
    root_out: JByteArray<'l>,
) -> jbyteArray {
    run(&mut env, core::ptr::null_mut(), |env| {
        let tree = tree(env, mode, &key_or_context, group_log)?;
        let outboard = with_bytes(env, &input, off, len, |input| tree.outboard(input, order(post_order)))?;
        root_and_array(env, &outboard.root(), &root_out, outboard.bao_bytes())
    })
}

#[no_mangle]
pub extern "system" fn Java_io_chunkhash_Native_baoOutboardDirect<'l>(
    mut env: JNIEnv<'l>,
    _: JClass<'l>,
    mode: jint,
    key_or_context: JByteArray<'l>,
    group_log: jint,
    post_order: jboolean,
    input: JByteBuffer<'l>,
    pos: jint,
    len: jint,
    root_out: JByteArray<'l>,
) -> jbyteArray {
    run(&mut env, core::ptr::null_mut(), |env| {
        let tree = tree(env, mode, &key_or_context, group_log)?;
        let outboard = tree.outboard(direct_bytes(env, &input, pos, len)?, order(post_order));
        root_and_array(env, &outboard.root(), &root_out, outboard.bao_bytes())
    })
}

#[no_mangle]
pub extern "system" fn Java_io_chunkhash_Native_baoEncode<'l>(
    mut env: JNIEnv<'l>,
    _: JClass<'l>,
    mode: jint,
    key_or_context: JByteArray<'l>,
    group_log: jint,
    input: JByteArray<'l>,
    off: jint,
    len: jint,
    root_out: JByteArray<'l>,
) -> jbyteArray {
    run(&mut env, core::ptr::null_mut(), |env| {
        let tree = tree(env, mode, &key_or_context, group_log)?;
        let (root, encoding) = with_bytes(env, &input, off, len, |input| tree.encode(input))?;
        root_and_array(env, &root, &root_out, &encoding)
    })
}

/// The slice for `start..start + count` of `source`: the data with
/// `outboard` (`bao`'s file), or a combined encoding when `outboard` is null.
#[no_mangle]
pub extern "system" fn Java_io_chunkhash_Native_baoSlice<'l>(
    mut env: JNIEnv<'l>,
    _: JClass<'l>,
    group_log: jint,
    post_order: jboolean,
    source: JByteArray<'l>,
    outboard: JByteArray<'l>,
    start: jlong,
    count: jlong,
) -> jbyteArray {
    run(&mut env, core::ptr::null_mut(), |env| {
        // The mode plays no part in cutting a slice.
        let tree = tree(env, 0, &JByteArray::from(JObject::null()), group_log)?;
        let ranges = [range(start, count)?];
        let source_len = array_len(env, &source, "source")?;
        let slice = if outboard.is_null() {
            let pinned = pin_bytes(env, &source, source_len)?;
            tree.slice_encoding(pinned.as_slice(), &ranges)
        } else {
            let file = env.convert_byte_array(&outboard)?;
            let Some((header, nodes)) = file.split_at_checked(bao::HEADER_LEN) else {
                let message = format!("an outboard of {} bytes is shorter than its 8-byte header", file.len());
                return Err(Error::Bao(Failure::new("length", message)));
            };
            let message_len = u64::from_le_bytes(header.try_into().expect("the header is 8 bytes"));
            // The root plays no part in cutting a slice either.
            let outboard = bao::Outboard::from_parts(
                &tree,
                Hash::from([0; OUT_LEN]),
                message_len,
                order(post_order),
                nodes.to_vec(),
            )
            .map_err(bao_error)?;
            let pinned = pin_bytes(env, &source, source_len)?;
            tree.slice(pinned.as_slice(), &outboard, &ranges)
        }
        .map_err(bao_error)?;
        new_array(env, &slice)
    })
}

/// The verified bytes of a combined encoding (`whole`) or of the slice for
/// `start..start + count`, checked against `root`.
#[no_mangle]
pub extern "system" fn Java_io_chunkhash_Native_baoDecode<'l>(
    mut env: JNIEnv<'l>,
    _: JClass<'l>,
    mode: jint,
    key_or_context: JByteArray<'l>,
    group_log: jint,
    root: JByteArray<'l>,
    stream: JByteArray<'l>,
    whole: jboolean,
    start: jlong,
    count: jlong,
) -> jbyteArray {
    run(&mut env, core::ptr::null_mut(), |env| {
        let tree = tree(env, mode, &key_or_context, group_log)?;
        let root_len = array_len(env, &root, "root")?;
        if root_len != OUT_LEN {
            return argument(format!("root: {root_len} bytes, a BLAKE3 hash is {OUT_LEN}"));
        }
        let root: [u8; OUT_LEN] = env.convert_byte_array(&root)?.try_into().expect("32 bytes");
        let range = if whole == JNI_FALSE { range(start, count)? } else { bao::WHOLE[0].clone() };
        // A copy, not the pinned array: another Java thread may write to the
        // array during the call, and the bytes handed out must be the bytes
        // that were hashed (review). Also keeps the GC free while decoding.
        array_len(env, &stream, "stream")?;
        let stream = env.convert_byte_array(&stream)?;
        let mut verified = Vec::new();
        let result = decode(tree, Hash::from(root), range, &stream, &mut verified);
        match result {
            Ok(()) => new_array(env, &verified),
            Err(mut failure) => {
                failure.verified = verified;
                Err(Error::Bao(failure))
            }
        }
    })
}

/// Feeds `stream` to a decoder for `range`, appending the range's verified
/// bytes to `out`; the stream must end where the slice does.
fn decode(
    tree: Tree,
    root: Hash,
    range: Range<u64>,
    stream: &[u8],
    out: &mut Vec<u8>,
) -> core::result::Result<(), Failure> {
    let ranges = [range.clone()];
    Decoder::new(tree, root, &ranges)
        .feed_all(stream, |verified| out.extend_from_slice(verified.bytes_in(&range)))
        .map_err(|error| match error {
            BaoError::Mismatch { .. } => Failure::new("mismatch", error),
            BaoError::Truncated { .. } => Failure::new("truncated", error),
            BaoError::Extended { .. } => Failure::new("extended", error),
            _ => Failure::new("length", error),
        })
}
