//! The native methods of `io.chunkhash.Native` for every algorithm of the
//! registry: names and lengths, one-shot digests, integer values, the
//! streaming state behind a handle, and batches.

use crate::boundary::{
    argument, array_len, direct_bytes, pin_bytes, pin_bytes_out, pin_ints, pin_longs_out, run, split,
    update_from_bytes, update_from_direct, with_bytes, with_direct, write_out, Error, Result, State,
};
use chunkhash::{Algorithm, StreamingHasher};
use jni::objects::{JByteArray, JByteBuffer, JClass, JIntArray, JLongArray, JObjectArray, JString};
use jni::sys::{jint, jlong, jstring};
use jni::JNIEnv;

/// The algorithm with this id, or an `IllegalArgumentException`.
fn algorithm(id: jint) -> Result<Algorithm> {
    u8::try_from(id)
        .ok()
        .and_then(|id| Algorithm::from_id(id).ok())
        .map_or_else(|| argument(format!("unknown algorithm id {id}")), Ok)
}

/// A digest of at most 8 bytes as a number: its bytes read big-endian,
/// the order the registry prints them (CRC32C of "123456789" is
/// e3069283, the value 0xe3069283).
///
/// The integer checksums Spark calls per row go straight to their
/// functions, which return the number itself: no `Digest` to fill and read
/// back (the tests check both ways against the golden digests).
fn value(algorithm: Algorithm, input: &[u8]) -> Result<i64> {
    Ok(match algorithm {
        Algorithm::Xxh3_64 => chunkhash::xxh3::hash64(input) as i64,
        Algorithm::Crc32c => i64::from(chunkhash::crc::crc32c(input)),
        Algorithm::Crc32 => i64::from(chunkhash::crc::crc32(input)),
        Algorithm::Crc64Nvme => chunkhash::crc::crc64_nvme(input) as i64,
        _ => digest_value(digest(algorithm, input)?.as_bytes())?,
    })
}

fn digest_value(bytes: &[u8]) -> Result<i64> {
    if bytes.len() > 8 {
        return argument(format!("a {}-byte digest is not a 64-bit value", bytes.len()));
    }
    Ok(bytes.iter().fold(0u64, |value, &byte| value << 8 | u64::from(byte)) as i64)
}

fn digest(algorithm: Algorithm, input: &[u8]) -> Result<chunkhash::Digest> {
    chunkhash::try_digest(algorithm, input).map_err(|e| Error::Argument(e.to_string()))
}

#[no_mangle]
pub extern "system" fn Java_io_chunkhash_Native_algorithmName<'l>(
    mut env: JNIEnv<'l>,
    _: JClass<'l>,
    id: jint,
) -> jstring {
    run(&mut env, core::ptr::null_mut(), |env| Ok(env.new_string(algorithm(id)?.name())?.into_raw()))
}

#[no_mangle]
pub extern "system" fn Java_io_chunkhash_Native_digestLength<'l>(mut env: JNIEnv<'l>, _: JClass<'l>, id: jint) -> jint {
    run(&mut env, 0, |_| Ok(algorithm(id)?.digest_len() as jint))
}

/// The id of the algorithm a name or alias names (as the CLI parses it).
#[no_mangle]
pub extern "system" fn Java_io_chunkhash_Native_algorithmId<'l>(
    mut env: JNIEnv<'l>,
    _: JClass<'l>,
    name: JString<'l>,
) -> jint {
    run(&mut env, 0, |env| {
        if name.is_null() {
            return Err(Error::Null("name"));
        }
        let name: String = env.get_string(&name)?.into();
        name.parse::<Algorithm>().map(|a| jint::from(a.id())).map_err(|e| Error::Argument(e.to_string()))
    })
}

#[no_mangle]
pub extern "system" fn Java_io_chunkhash_Native_digest<'l>(
    mut env: JNIEnv<'l>,
    _: JClass<'l>,
    id: jint,
    input: JByteArray<'l>,
    off: jint,
    len: jint,
    out: JByteArray<'l>,
) {
    run(&mut env, (), |env| {
        let algorithm = algorithm(id)?;
        let digest = with_bytes(env, &input, off, len, |input| digest(algorithm, input))??;
        write_out(env, &out, digest.as_bytes())
    })
}

#[no_mangle]
pub extern "system" fn Java_io_chunkhash_Native_digestDirect<'l>(
    mut env: JNIEnv<'l>,
    _: JClass<'l>,
    id: jint,
    input: JByteBuffer<'l>,
    pos: jint,
    len: jint,
    out: JByteArray<'l>,
) {
    run(&mut env, (), |env| {
        let algorithm = algorithm(id)?;
        let digest = with_direct(env, &input, pos, len, |input| digest(algorithm, input))??;
        write_out(env, &out, digest.as_bytes())
    })
}

#[no_mangle]
pub extern "system" fn Java_io_chunkhash_Native_value<'l>(
    mut env: JNIEnv<'l>,
    _: JClass<'l>,
    id: jint,
    input: JByteArray<'l>,
    off: jint,
    len: jint,
) -> jlong {
    run(&mut env, 0, |env| {
        let algorithm = algorithm(id)?;
        with_bytes(env, &input, off, len, |input| value(algorithm, input))?
    })
}

#[no_mangle]
pub extern "system" fn Java_io_chunkhash_Native_valueDirect<'l>(
    mut env: JNIEnv<'l>,
    _: JClass<'l>,
    id: jint,
    input: JByteBuffer<'l>,
    pos: jint,
    len: jint,
) -> jlong {
    run(&mut env, 0, |env| {
        let algorithm = algorithm(id)?;
        with_direct(env, &input, pos, len, |input| value(algorithm, input))?
    })
}

/// Digests of many values into `out` (n x digest length bytes).
#[no_mangle]
pub extern "system" fn Java_io_chunkhash_Native_digestMany<'l>(
    mut env: JNIEnv<'l>,
    _: JClass<'l>,
    id: jint,
    values: JByteArray<'l>,
    offsets: JIntArray<'l>,
    out: JByteArray<'l>,
) {
    run(&mut env, (), |env| {
        let algorithm = algorithm(id)?;
        let values_len = array_len(env, &values, "values")?;
        let offsets_len = array_len(env, &offsets, "offsets")?;
        let out_total = array_len(env, &out, "output")?;
        let values = pin_bytes(env, &values, values_len)?;
        let offsets = pin_ints(env, &offsets, offsets_len)?;
        let mut out = pin_bytes_out(env, &out, out_total)?;
        let inputs = split(values.as_slice(), offsets.as_slice())?;
        digest_many(algorithm, &inputs, out.as_mut_slice())
    })
}

fn digest_many(algorithm: Algorithm, inputs: &[&[u8]], out: &mut [u8]) -> Result<()> {
    let len = algorithm.digest_len();
    if out.len() != inputs.len() * len {
        return argument(format!("output: {} bytes for {} digests of {len} bytes", out.len(), inputs.len()));
    }
    match algorithm {
        Algorithm::Blake3 => chunkhash::blake3::Batch::new().hash_many_bytes(inputs, out.as_chunks_mut().0),
        _ => in_groups(algorithm, inputs, |start, digests| {
            for (out, digest) in out[start * len..].chunks_exact_mut(len).zip(digests) {
                out.copy_from_slice(digest.as_bytes());
            }
        })?,
    }
    Ok(())
}

/// Digests per call of `chunkhash::digest_many` here: 18 KiB of `Digest`s
/// on the stack, enough messages that the library's lanes rarely idle.
const GROUP: usize = 256;

/// The digests of `inputs` through `chunkhash::try_digest_many` (one
/// dispatch per call; SHA-256 in multi-buffer lanes, BLAKE3 in its batch),
/// a group at a time: `put(start, digests)` receives those of inputs
/// `start..`. Nothing is allocated.
fn in_groups(algorithm: Algorithm, inputs: &[&[u8]], mut put: impl FnMut(usize, &[chunkhash::Digest])) -> Result<()> {
    let mut digests = [digest(algorithm, b"")?; GROUP];
    for (group, inputs) in inputs.chunks(GROUP).enumerate() {
        let digests = &mut digests[..inputs.len()];
        chunkhash::try_digest_many(algorithm, inputs, digests).map_err(|e| Error::Argument(e.to_string()))?;
        put(group * GROUP, digests);
    }
    Ok(())
}

/// Integer values (digests of at most 8 bytes) of many values into `out`.
#[no_mangle]
pub extern "system" fn Java_io_chunkhash_Native_valueMany<'l>(
    mut env: JNIEnv<'l>,
    _: JClass<'l>,
    id: jint,
    values: JByteArray<'l>,
    offsets: JIntArray<'l>,
    out: JLongArray<'l>,
) {
    run(&mut env, (), |env| {
        let algorithm = algorithm(id)?;
        if algorithm.digest_len() > 8 {
            return argument(format!("{algorithm}: a {}-byte digest is not a 64-bit value", algorithm.digest_len()));
        }
        let values_len = array_len(env, &values, "values")?;
        let offsets_len = array_len(env, &offsets, "offsets")?;
        let out_len = array_len(env, &out, "output")?;
        let values = pin_bytes(env, &values, values_len)?;
        let offsets = pin_ints(env, &offsets, offsets_len)?;
        let mut out = pin_longs_out(env, &out, out_len)?;
        let inputs = split(values.as_slice(), offsets.as_slice())?;
        if out_len != inputs.len() {
            return argument(format!("output: {out_len} values for {} inputs", inputs.len()));
        }
        let out = out.as_mut_slice();
        match algorithm {
            // Their one-shot functions return the number itself, with no
            // `Digest` to fill and read back, and have no lanes to share.
            Algorithm::Xxh3_64 | Algorithm::Crc32c | Algorithm::Crc32 | Algorithm::Crc64Nvme => {
                for (input, out) in inputs.iter().zip(out) {
                    *out = value(algorithm, input)?;
                }
                Ok(())
            }
            _ => {
                let mut result = Ok(());
                in_groups(algorithm, &inputs, |start, digests| {
                    for (out, digest) in out[start..].iter_mut().zip(digests) {
                        match digest_value(digest.as_bytes()) {
                            Ok(value) => *out = value,
                            Err(error) => result = Err(error),
                        }
                    }
                })?;
                result
            }
        }
    })
}

/// Each direct buffer of `buffers` with its position and length, checked
/// to be as many as the buffers.
pub(crate) fn direct_ranges<'l>(
    env: &mut JNIEnv<'l>,
    buffers: &JObjectArray<'l>,
    positions: &JIntArray<'l>,
    lengths: &JIntArray<'l>,
) -> Result<Vec<(JByteBuffer<'l>, jint, jint)>> {
    if buffers.is_null() {
        return Err(Error::Null("buffers"));
    }
    let n = env.get_array_length(buffers)? as usize;
    let mut pos = vec![0; array_len(env, positions, "positions")?];
    let mut len = vec![0; array_len(env, lengths, "lengths")?];
    if pos.len() != n || len.len() != n {
        return argument(format!("{n} buffers with {} positions and {} lengths", pos.len(), len.len()));
    }
    env.get_int_array_region(positions, 0, &mut pos)?;
    env.get_int_array_region(lengths, 0, &mut len)?;
    env.ensure_local_capacity(n as i32 + 16)?;
    let mut ranges = Vec::with_capacity(n);
    for i in 0..n {
        let buffer = env.get_object_array_element(buffers, i as i32)?;
        if buffer.is_null() {
            return argument(format!("buffers[{i}] is null"));
        }
        ranges.push((JByteBuffer::from(buffer), pos[i], len[i]));
    }
    Ok(ranges)
}

#[no_mangle]
pub extern "system" fn Java_io_chunkhash_Native_digestManyDirect<'l>(
    mut env: JNIEnv<'l>,
    _: JClass<'l>,
    id: jint,
    buffers: JObjectArray<'l>,
    positions: JIntArray<'l>,
    lengths: JIntArray<'l>,
    out: JByteArray<'l>,
) {
    run(&mut env, (), |env| {
        let algorithm = algorithm(id)?;
        let mut bytes = vec![0u8; array_len(env, &out, "output")?];
        let ranges = direct_ranges(env, &buffers, &positions, &lengths)?;
        let mut inputs = Vec::with_capacity(ranges.len());
        for (buffer, pos, len) in &ranges {
            inputs.push(direct_bytes(env, buffer, *pos, *len)?);
        }
        digest_many(algorithm, &inputs, &mut bytes)?;
        write_out(env, &out, &bytes)
    })
}

impl State for StreamingHasher {
    fn update(&mut self, input: &[u8]) {
        StreamingHasher::update(self, input);
    }
}

#[no_mangle]
pub extern "system" fn Java_io_chunkhash_Native_streamNew<'l>(mut env: JNIEnv<'l>, _: JClass<'l>, id: jint) -> jlong {
    run(&mut env, 0, |_| {
        let hasher = StreamingHasher::try_new(algorithm(id)?).map_err(|e| Error::Argument(e.to_string()))?;
        Ok(hasher.into_handle())
    })
}

#[no_mangle]
pub extern "system" fn Java_io_chunkhash_Native_streamUpdate<'l>(
    mut env: JNIEnv<'l>,
    _: JClass<'l>,
    handle: jlong,
    input: JByteArray<'l>,
    off: jint,
    len: jint,
) {
    run(&mut env, (), |env| update_from_bytes::<StreamingHasher>(env, handle, &input, off, len))
}

#[no_mangle]
pub extern "system" fn Java_io_chunkhash_Native_streamUpdateDirect<'l>(
    mut env: JNIEnv<'l>,
    _: JClass<'l>,
    handle: jlong,
    input: JByteBuffer<'l>,
    pos: jint,
    len: jint,
) {
    run(&mut env, (), |env| update_from_direct::<StreamingHasher>(env, handle, &input, pos, len))
}

#[no_mangle]
pub extern "system" fn Java_io_chunkhash_Native_streamDigest<'l>(
    mut env: JNIEnv<'l>,
    _: JClass<'l>,
    handle: jlong,
    out: JByteArray<'l>,
) {
    run(&mut env, (), |env| {
        let digest = StreamingHasher::from_handle(handle)?.finalize();
        write_out(env, &out, digest.as_bytes())
    })
}

#[no_mangle]
pub extern "system" fn Java_io_chunkhash_Native_streamValue<'l>(
    mut env: JNIEnv<'l>,
    _: JClass<'l>,
    handle: jlong,
) -> jlong {
    run(&mut env, 0, |_| digest_value(StreamingHasher::from_handle(handle)?.finalize().as_bytes()))
}

#[no_mangle]
pub extern "system" fn Java_io_chunkhash_Native_streamReset<'l>(mut env: JNIEnv<'l>, _: JClass<'l>, handle: jlong) {
    run(&mut env, (), |_| {
        StreamingHasher::from_handle(handle)?.reset();
        Ok(())
    })
}

#[no_mangle]
pub extern "system" fn Java_io_chunkhash_Native_streamFree<'l>(mut env: JNIEnv<'l>, _: JClass<'l>, handle: jlong) {
    run(&mut env, (), |_| {
        StreamingHasher::free(handle);
        Ok(())
    })
}
