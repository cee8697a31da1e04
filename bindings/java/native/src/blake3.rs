//! The native methods of `io.chunkhash.Native` for BLAKE3: one-shot
//! hashes in the three modes with any output length, the incremental
//! hasher behind a handle, and batches.

use crate::boundary::{
    argument, array_len, direct_bytes, pin_bytes, pin_bytes_out, pin_ints, run, split, update_from_bytes,
    update_from_direct, with_bytes, with_direct, write_out, Result, State,
};
use chunkhash::blake3::{self, Batch, Hasher, ADDRESS_LEN, KEY_LEN, OUT_LEN};
use jni::objects::{JByteArray, JByteBuffer, JClass, JIntArray, JObjectArray};
use jni::sys::{jint, jlong, jstring};
use jni::JNIEnv;

/// A BLAKE3 mode as Java passes it: an int and the key or context bytes.
pub(crate) enum Mode {
    Plain,
    Keyed([u8; KEY_LEN]),
    DeriveKey(String),
}

const PLAIN: jint = 0;
const KEYED: jint = 1;
const DERIVE_KEY: jint = 2;

impl Mode {
    pub(crate) fn read(env: &JNIEnv<'_>, mode: jint, key_or_context: &JByteArray<'_>) -> Result<Mode> {
        match mode {
            PLAIN => Ok(Mode::Plain),
            KEYED => {
                let len = array_len(env, key_or_context, "key")?;
                if len != KEY_LEN {
                    return argument(format!("key: {len} bytes, a BLAKE3 key is {KEY_LEN}"));
                }
                let mut key = [0u8; KEY_LEN];
                key.copy_from_slice(&env.convert_byte_array(key_or_context)?);
                Ok(Mode::Keyed(key))
            }
            DERIVE_KEY => {
                array_len(env, key_or_context, "context")?;
                String::from_utf8(env.convert_byte_array(key_or_context)?)
                    .map(Mode::DeriveKey)
                    .or_else(|_| argument("context: not valid UTF-8"))
            }
            other => argument(format!("unknown BLAKE3 mode {other}")),
        }
    }

    fn hasher(&self) -> Hasher {
        match self {
            Mode::Plain => Hasher::new(),
            Mode::Keyed(key) => Hasher::new_keyed(key),
            Mode::DeriveKey(context) => Hasher::new_derive_key(context),
        }
    }

    fn batch(&self) -> Batch {
        match self {
            Mode::Plain => Batch::new(),
            Mode::Keyed(key) => Batch::new_keyed(key),
            Mode::DeriveKey(context) => Batch::new_derive_key(context),
        }
    }

    /// The first `out_len` output bytes for `input`.
    fn output(&self, input: &[u8], out_len: usize) -> Output {
        match (self, out_len) {
            (Mode::Plain, OUT_LEN) => Output::Hash(*blake3::hash(input).as_bytes()),
            (Mode::Keyed(key), OUT_LEN) => Output::Hash(*blake3::keyed_hash(key, input).as_bytes()),
            (Mode::DeriveKey(context), OUT_LEN) => Output::Hash(blake3::derive_key(context, input)),
            (Mode::Plain, ADDRESS_LEN) => Output::Address(*blake3::address(input).as_bytes()),
            _ => {
                let mut hasher = self.hasher();
                hasher.update(input);
                let mut out = vec![0u8; out_len];
                hasher.finalize_xof().fill(&mut out);
                Output::Extended(out)
            }
        }
    }
}

/// A default-length output or an address on the stack, or an extended one.
enum Output {
    Hash([u8; OUT_LEN]),
    Address([u8; ADDRESS_LEN]),
    Extended(Vec<u8>),
}

impl Output {
    fn bytes(&self) -> &[u8] {
        match self {
            Output::Hash(bytes) => bytes,
            Output::Address(bytes) => bytes,
            Output::Extended(bytes) => bytes,
        }
    }
}

#[no_mangle]
pub extern "system" fn Java_io_chunkhash_Native_blake3<'l>(
    mut env: JNIEnv<'l>,
    _: JClass<'l>,
    mode: jint,
    key_or_context: JByteArray<'l>,
    input: JByteArray<'l>,
    off: jint,
    len: jint,
    out: JByteArray<'l>,
) {
    run(&mut env, (), |env| {
        let mode = Mode::read(env, mode, &key_or_context)?;
        let out_len = array_len(env, &out, "output")?;
        let output = with_bytes(env, &input, off, len, |input| mode.output(input, out_len))?;
        write_out(env, &out, output.bytes())
    })
}

#[no_mangle]
pub extern "system" fn Java_io_chunkhash_Native_blake3Direct<'l>(
    mut env: JNIEnv<'l>,
    _: JClass<'l>,
    mode: jint,
    key_or_context: JByteArray<'l>,
    input: JByteBuffer<'l>,
    pos: jint,
    len: jint,
    out: JByteArray<'l>,
) {
    run(&mut env, (), |env| {
        let mode = Mode::read(env, mode, &key_or_context)?;
        let out_len = array_len(env, &out, "output")?;
        let output = with_direct(env, &input, pos, len, |input| mode.output(input, out_len))?;
        write_out(env, &out, output.bytes())
    })
}

impl State for Hasher {
    fn update(&mut self, input: &[u8]) {
        Hasher::update(self, input);
    }
}

#[no_mangle]
pub extern "system" fn Java_io_chunkhash_Native_blake3HasherNew<'l>(
    mut env: JNIEnv<'l>,
    _: JClass<'l>,
    mode: jint,
    key_or_context: JByteArray<'l>,
) -> jlong {
    run(&mut env, 0, |env| {
        let mode = Mode::read(env, mode, &key_or_context)?;
        Ok(mode.hasher().into_handle())
    })
}

#[no_mangle]
pub extern "system" fn Java_io_chunkhash_Native_blake3HasherUpdate<'l>(
    mut env: JNIEnv<'l>,
    _: JClass<'l>,
    handle: jlong,
    input: JByteArray<'l>,
    off: jint,
    len: jint,
) {
    run(&mut env, (), |env| update_from_bytes::<Hasher>(env, handle, &input, off, len))
}

#[no_mangle]
pub extern "system" fn Java_io_chunkhash_Native_blake3HasherUpdateDirect<'l>(
    mut env: JNIEnv<'l>,
    _: JClass<'l>,
    handle: jlong,
    input: JByteBuffer<'l>,
    pos: jint,
    len: jint,
) {
    run(&mut env, (), |env| update_from_direct::<Hasher>(env, handle, &input, pos, len))
}

#[no_mangle]
pub extern "system" fn Java_io_chunkhash_Native_blake3HasherOutput<'l>(
    mut env: JNIEnv<'l>,
    _: JClass<'l>,
    handle: jlong,
    position: jlong,
    out: JByteArray<'l>,
) {
    run(&mut env, (), |env| {
        let Ok(position) = u64::try_from(position) else {
            return argument(format!("output position {position} is negative"));
        };
        let hasher = Hasher::from_handle(handle)?;
        let mut bytes = vec![0u8; array_len(env, &out, "output")?];
        let mut reader = hasher.finalize_xof();
        reader.set_position(position);
        reader.fill(&mut bytes);
        write_out(env, &out, &bytes)
    })
}

#[no_mangle]
pub extern "system" fn Java_io_chunkhash_Native_blake3HasherReset<'l>(
    mut env: JNIEnv<'l>,
    _: JClass<'l>,
    handle: jlong,
) {
    run(&mut env, (), |_| {
        Hasher::from_handle(handle)?.reset();
        Ok(())
    })
}

#[no_mangle]
pub extern "system" fn Java_io_chunkhash_Native_blake3HasherFree<'l>(
    mut env: JNIEnv<'l>,
    _: JClass<'l>,
    handle: jlong,
) {
    run(&mut env, (), |_| {
        Hasher::free(handle);
        Ok(())
    })
}

/// Writes `out_len` bytes per input (32: the mode's hash or derived key;
/// 20: the first 20 bytes of that, the address) into `out`.
fn hash_many(mode: &Mode, out_len: usize, inputs: &[&[u8]], out: &mut [u8]) -> Result<()> {
    if out.len() != inputs.len() * out_len {
        return argument(format!("output: {} bytes for {} values of {out_len} bytes", out.len(), inputs.len()));
    }
    let batch = mode.batch();
    match out_len {
        OUT_LEN => batch.hash_many_bytes(inputs, out.as_chunks_mut::<OUT_LEN>().0),
        ADDRESS_LEN => {
            for (inputs, out) in inputs.chunks(256).zip(out.chunks_mut(256 * ADDRESS_LEN)) {
                let mut hashes = [[0u8; OUT_LEN]; 256];
                let hashes = &mut hashes[..inputs.len()];
                batch.hash_many_bytes(inputs, hashes);
                for (hash, out) in hashes.iter().zip(out.chunks_exact_mut(ADDRESS_LEN)) {
                    out.copy_from_slice(&hash[..ADDRESS_LEN]);
                }
            }
        }
        other => return argument(format!("batch output length {other}: 32 (hash) or 20 (address)")),
    }
    Ok(())
}

#[no_mangle]
pub extern "system" fn Java_io_chunkhash_Native_blake3Many<'l>(
    mut env: JNIEnv<'l>,
    _: JClass<'l>,
    mode: jint,
    key_or_context: JByteArray<'l>,
    out_len: jint,
    values: JByteArray<'l>,
    offsets: JIntArray<'l>,
    out: JByteArray<'l>,
) {
    run(&mut env, (), |env| {
        let mode = Mode::read(env, mode, &key_or_context)?;
        let values_len = array_len(env, &values, "values")?;
        let offsets_len = array_len(env, &offsets, "offsets")?;
        let out_total = array_len(env, &out, "output")?;
        let values = pin_bytes(env, &values, values_len)?;
        let offsets = pin_ints(env, &offsets, offsets_len)?;
        let mut out = pin_bytes_out(env, &out, out_total)?;
        let inputs = split(values.as_slice(), offsets.as_slice())?;
        hash_many(&mode, out_len as usize, &inputs, out.as_mut_slice())
    })
}

#[no_mangle]
pub extern "system" fn Java_io_chunkhash_Native_blake3ManyDirect<'l>(
    mut env: JNIEnv<'l>,
    _: JClass<'l>,
    mode: jint,
    key_or_context: JByteArray<'l>,
    out_len: jint,
    buffers: JObjectArray<'l>,
    positions: JIntArray<'l>,
    lengths: JIntArray<'l>,
    out: JByteArray<'l>,
) {
    run(&mut env, (), |env| {
        let mode = Mode::read(env, mode, &key_or_context)?;
        let mut bytes = vec![0u8; array_len(env, &out, "output")?];
        let ranges = crate::registry::direct_ranges(env, &buffers, &positions, &lengths)?;
        let mut inputs = Vec::with_capacity(ranges.len());
        for (buffer, pos, len) in &ranges {
            inputs.push(direct_bytes(env, buffer, *pos, *len)?);
        }
        hash_many(&mode, out_len as usize, &inputs, &mut bytes)?;
        write_out(env, &out, &bytes)
    })
}

#[no_mangle]
pub extern "system" fn Java_io_chunkhash_Native_backend<'l>(mut env: JNIEnv<'l>, _: JClass<'l>) -> jstring {
    run(&mut env, core::ptr::null_mut(), |env| Ok(env.new_string(blake3::Backend::detect().name())?.into_raw()))
}
