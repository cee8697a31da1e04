//! The JNI edge: errors become Java exceptions, panics are caught, and Java
//! arrays and direct buffers become Rust slices.
//!
//! Input arrays are pinned with `GetPrimitiveArrayCritical` (no copy on
//! HotSpot) for the length of one hash; between pinning and release no other
//! JNI function is called, as the JNI specification requires. Outputs are
//! written after every pin is released, with `SetByteArrayRegion`, or into a
//! pinned output array that is released with copy-back.
//!
//! Another Java thread may write into an input while it is hashed (Java
//! does not stop it; a critical pin only keeps the array in place). That
//! changes which bytes are hashed, never where they are read: an array's
//! length is fixed when it is made and read before the pin, a direct
//! buffer's memory is its capacity, read at the call and kept alive by the
//! buffer object for the call, and every slice lies inside those bounds. The
//! digest is of some mix of old and new bytes, as documented in `Blake3` and
//! `Checksums` and tested by `ConcurrentWriteTest`.

use core::marker::PhantomData;
use jni::objects::{JByteArray, JByteBuffer, JIntArray, JObject, JPrimitiveArray};
use jni::sys::{self, jint};
use jni::JNIEnv;
use std::panic::{catch_unwind, AssertUnwindSafe};

/// Why a call failed; each variant becomes one Java exception.
#[derive(Debug)]
pub(crate) enum Error {
    /// A required argument was null: `NullPointerException`.
    Null(&'static str),
    /// An argument out of range: `IllegalArgumentException`.
    Argument(String),
    /// A closed hasher was used: `IllegalStateException`.
    Closed,
    /// A JNI call failed; a Java exception may be pending already.
    Jni(jni::errors::Error),
    /// Bao data that does not verify, or a stream or outboard of the wrong
    /// length: `io.chunkhash.BaoException`.
    Bao(crate::bao::Failure),
}

impl From<jni::errors::Error> for Error {
    fn from(error: jni::errors::Error) -> Error {
        Error::Jni(error)
    }
}

pub(crate) type Result<T> = core::result::Result<T, Error>;

/// Runs one native method: its error becomes a Java exception (the method
/// then returns `fallback`, which Java never sees), and a panic, which
/// would be a bug, becomes an `IllegalStateException` instead of unwinding
/// into the JVM.
pub(crate) fn run<'local, T>(
    env: &mut JNIEnv<'local>,
    fallback: T,
    body: impl FnOnce(&mut JNIEnv<'local>) -> Result<T>,
) -> T {
    let outcome = catch_unwind(AssertUnwindSafe(|| body(env)));
    let (class, message) = match outcome {
        Ok(Ok(value)) => return value,
        Ok(Err(Error::Null(what))) => ("java/lang/NullPointerException", format!("{what} is null")),
        Ok(Err(Error::Argument(message))) => ("java/lang/IllegalArgumentException", message),
        Ok(Err(Error::Closed)) => ("java/lang/IllegalStateException", "the hasher is closed".to_owned()),
        Ok(Err(Error::Jni(error))) => {
            if env.exception_check().unwrap_or(true) {
                return fallback; // the JVM's own exception (out of memory, ...) is pending
            }
            ("java/lang/IllegalStateException", format!("chunkhash: JNI call failed: {error}"))
        }
        Ok(Err(Error::Bao(failure))) => {
            if !env.exception_check().unwrap_or(true) {
                // If the exception cannot be made, the JVM's own (out of memory, ...) is pending.
                let _ = crate::bao::throw(env, failure);
            }
            return fallback;
        }
        Err(_) => ("java/lang/IllegalStateException", "chunkhash: internal error (a bug in chunkhash)".to_owned()),
    };
    if !env.exception_check().unwrap_or(true) {
        // If even throwing fails, the JVM has an exception pending already.
        let _ = env.throw_new(class, message);
    }
    fallback
}

/// An `IllegalArgumentException` with this message.
pub(crate) fn argument<T>(message: impl Into<String>) -> Result<T> {
    Err(Error::Argument(message.into()))
}

/// The length of a Java array, which must not be null.
pub(crate) fn array_len<T: jni::objects::TypeArray>(
    env: &JNIEnv<'_>,
    array: &JPrimitiveArray<'_, T>,
    what: &'static str,
) -> Result<usize> {
    if array.is_null() {
        return Err(Error::Null(what));
    }
    let raw_env = env.get_raw();
    let get_length = jni_function(
        // SAFETY: `raw_env` is this thread's JNIEnv, its table the JVM's.
        unsafe { (**raw_env).GetArrayLength },
        "GetArrayLength",
    )?;
    // SAFETY: `array` is a live, non-null local reference to an array;
    // GetArrayLength cannot throw for one. Called raw, as the other calls
    // of the per-value path are: the `jni` crate follows each call with an
    // ExceptionCheck, a second JNI call, which short values would feel.
    let len = unsafe { get_length(raw_env, array.as_raw()) };
    Ok(usize::try_from(len).expect("Java array lengths are not negative"))
}

/// A function of the JNI table, or an error if the JVM lacks it.
fn jni_function<F>(function: Option<F>, name: &'static str) -> Result<F> {
    function.ok_or(Error::Jni(jni::errors::Error::JNIEnvMethodNotFound(name)))
}

/// Inputs up to this many bytes are copied to the stack with one
/// GetByteArrayRegion rather than pinned (two calls, and the GC locker).
const COPY_MAX: usize = 256;

/// `off..off + len` as a range inside `total`, or an error naming `what`.
pub(crate) fn range(off: jint, len: jint, total: usize, what: &str) -> Result<core::ops::Range<usize>> {
    match (usize::try_from(off), usize::try_from(len)) {
        (Ok(off), Ok(len)) if off.checked_add(len).is_some_and(|end| end <= total) => Ok(off..off + len),
        _ => argument(format!("{what}: offset {off} and length {len} are outside its {total} bytes")),
    }
}

/// A primitive array pinned with `GetPrimitiveArrayCritical`, released on
/// drop: with copy-back for an output, without for an input.
pub(crate) struct Pinned<'a, T> {
    env: *mut sys::JNIEnv,
    array: sys::jarray,
    elements: *mut T,
    len: usize,
    copy_back: bool,
    _array: PhantomData<&'a JObject<'a>>,
}

impl<'a, T> Pinned<'a, T> {
    /// Pins `array` of `len` elements (its length, read before: no JNI call
    /// may come between pins). `T` must be the array's element type.
    fn pin(env: &JNIEnv<'_>, array: &'a JObject<'a>, len: usize, copy_back: bool) -> Result<Pinned<'a, T>> {
        let raw_env = env.get_raw();
        // SAFETY: `raw_env` is the JNIEnv of this thread (the one the JVM
        // passed to the native method), and its function table is the JVM's.
        let get = unsafe { (**raw_env).GetPrimitiveArrayCritical }
            .ok_or(Error::Jni(jni::errors::Error::JNIEnvMethodNotFound("GetPrimitiveArrayCritical")))?;
        // SAFETY: `array` is a live, non-null local reference to a primitive
        // array (checked by `array_len`); a null `isCopy` is allowed.
        let elements = unsafe { get(raw_env, array.as_raw(), core::ptr::null_mut()) }.cast::<T>();
        if elements.is_null() {
            return Err(Error::Jni(jni::errors::Error::NullPtr("GetPrimitiveArrayCritical")));
        }
        Ok(Pinned { env: raw_env, array: array.as_raw(), elements, len, copy_back, _array: PhantomData })
    }

    pub(crate) fn as_slice(&self) -> &[T] {
        // SAFETY: the JVM pinned `len` elements of type `T` at `elements`,
        // valid until the release in `drop`; the slice borrows `self`.
        unsafe { core::slice::from_raw_parts(self.elements, self.len) }
    }

    pub(crate) fn as_mut_slice(&mut self) -> &mut [T] {
        // SAFETY: as in `as_slice`; `&mut self` makes this the only view, and
        // only output arrays (distinct from every input) are written.
        unsafe { core::slice::from_raw_parts_mut(self.elements, self.len) }
    }
}

impl<T> Drop for Pinned<'_, T> {
    fn drop(&mut self) {
        // SAFETY: the pointer and array are the pair `pin` got from this
        // thread's JNIEnv, released exactly once.
        unsafe {
            if let Some(release) = (**self.env).ReleasePrimitiveArrayCritical {
                let mode = if self.copy_back { 0 } else { sys::JNI_ABORT };
                release(self.env, self.array, self.elements.cast(), mode);
            }
        }
    }
}

/// Pins a `byte[]` input of `len` bytes (from `array_len`).
pub(crate) fn pin_bytes<'a>(env: &JNIEnv<'_>, array: &'a JByteArray<'a>, len: usize) -> Result<Pinned<'a, u8>> {
    Pinned::pin(env, array, len, false)
}

/// Pins a `byte[]` output of `len` bytes (from `array_len`).
pub(crate) fn pin_bytes_out<'a>(env: &JNIEnv<'_>, array: &'a JByteArray<'a>, len: usize) -> Result<Pinned<'a, u8>> {
    Pinned::pin(env, array, len, true)
}

/// Pins an `int[]` input of `len` ints (from `array_len`).
pub(crate) fn pin_ints<'a>(env: &JNIEnv<'_>, array: &'a JIntArray<'a>, len: usize) -> Result<Pinned<'a, i32>> {
    Pinned::pin(env, array, len, false)
}

/// Pins a `long[]` output of `len` longs (from `array_len`).
pub(crate) fn pin_longs_out<'a>(
    env: &JNIEnv<'_>,
    array: &'a jni::objects::JLongArray<'a>,
    len: usize,
) -> Result<Pinned<'a, i64>> {
    Pinned::pin(env, array, len, true)
}

/// Runs `f` on `len` bytes of a `byte[]` from `off`, pinned for the call.
pub(crate) fn with_bytes<R>(
    env: &JNIEnv<'_>,
    array: &JByteArray<'_>,
    off: jint,
    len: jint,
    f: impl FnOnce(&[u8]) -> R,
) -> Result<R> {
    let total = array_len(env, array, "input")?;
    let range = range(off, len, total, "input")?;
    if range.len() <= COPY_MAX {
        let mut copy = [0u8; COPY_MAX];
        let raw_env = env.get_raw();
        let get_region = jni_function(
            // SAFETY: `raw_env` is this thread's JNIEnv, its table the JVM's.
            unsafe { (**raw_env).GetByteArrayRegion },
            "GetByteArrayRegion",
        )?;
        // SAFETY: `array` is a live, non-null byte[] of `total` bytes and
        // `range` lies inside it (checked above), so the call cannot throw;
        // it writes `range.len()` bytes to `copy`, which has room for them.
        unsafe { get_region(raw_env, array.as_raw(), off, len, copy.as_mut_ptr().cast()) };
        return Ok(f(&copy[..range.len()]));
    }
    let pinned = pin_bytes(env, array, total)?;
    Ok(f(&pinned.as_slice()[range]))
}

/// Runs `f` on `len` bytes of a direct `ByteBuffer` from `pos`, read in
/// place (no copy).
pub(crate) fn with_direct<R>(
    env: &JNIEnv<'_>,
    buffer: &JByteBuffer<'_>,
    pos: jint,
    len: jint,
    f: impl FnOnce(&[u8]) -> R,
) -> Result<R> {
    let bytes = direct_bytes(env, buffer, pos, len)?;
    Ok(f(bytes))
}

/// The bytes `pos..pos + len` of a direct buffer. The slice stays valid
/// while the buffer is reachable: the caller's local reference keeps it so
/// for the native call.
pub(crate) fn direct_bytes<'b>(
    env: &JNIEnv<'_>,
    buffer: &'b JByteBuffer<'_>,
    pos: jint,
    len: jint,
) -> Result<&'b [u8]> {
    if buffer.is_null() {
        return Err(Error::Null("buffer"));
    }
    let address =
        env.get_direct_buffer_address(buffer).map_err(|_| Error::Argument("the buffer is not direct".into()))?;
    let capacity = env.get_direct_buffer_capacity(buffer)?;
    let range = range(pos, len, capacity, "buffer")?;
    if range.is_empty() {
        return Ok(&[]);
    }
    // SAFETY: a direct buffer's memory is `capacity` bytes at `address`,
    // valid while the buffer object lives (the local reference `buffer`
    // holds it for this native call); `range` lies inside it.
    Ok(unsafe { core::slice::from_raw_parts(address.add(range.start), range.len()) })
}

/// Writes `bytes` to the start of `out`, which must hold exactly that many.
pub(crate) fn write_out(env: &JNIEnv<'_>, out: &JByteArray<'_>, bytes: &[u8]) -> Result<()> {
    let total = array_len(env, out, "output")?;
    if total != bytes.len() {
        return argument(format!("output: {total} bytes, expected {}", bytes.len()));
    }
    let raw_env = env.get_raw();
    let set_region = jni_function(
        // SAFETY: `raw_env` is this thread's JNIEnv, its table the JVM's.
        unsafe { (**raw_env).SetByteArrayRegion },
        "SetByteArrayRegion",
    )?;
    // SAFETY: `out` is a live, non-null byte[] of exactly `bytes.len()`
    // bytes (checked above), so the call cannot throw; it reads
    // `bytes.len()` bytes from `bytes`.
    unsafe { set_region(raw_env, out.as_raw(), 0, bytes.len() as jint, bytes.as_ptr().cast()) };
    Ok(())
}

/// The slices `values[offsets[i]..offsets[i + 1]]`, checking that the
/// offsets (n + 1 of them, Arrow's layout) ascend and stay inside `values`.
pub(crate) fn split<'v>(values: &'v [u8], offsets: &[i32]) -> Result<Vec<&'v [u8]>> {
    let Some((&first, rest)) = offsets.split_first() else {
        return argument("offsets: empty; n values need n + 1 offsets");
    };
    if first < 0 || first as usize > values.len() {
        return argument(format!("offsets[0] is {first}, outside the {} bytes of values", values.len()));
    }
    let mut slices = Vec::with_capacity(rest.len());
    let mut start = first as usize;
    for (i, &end) in rest.iter().enumerate() {
        if end < start as i32 {
            return argument(format!("offsets[{}] is {end}, below offsets[{i}] = {start}: offsets must ascend", i + 1));
        }
        let end = end as usize;
        if end > values.len() {
            return argument(format!("offsets[{}] is {end}, past the {} bytes of values", i + 1, values.len()));
        }
        slices.push(&values[start..end]);
        start = end;
    }
    Ok(slices)
}

/// A native state Java holds as a `long`: a hasher, boxed.
pub(crate) trait State: Sized {
    fn update(&mut self, input: &[u8]);

    fn into_handle(self) -> jni::sys::jlong {
        Box::into_raw(Box::new(self)) as jni::sys::jlong
    }

    /// The state behind a handle, or an error for the handle 0 of a closed
    /// hasher.
    fn from_handle<'h>(handle: jni::sys::jlong) -> Result<&'h mut Self> {
        if handle == 0 {
            return Err(Error::Closed);
        }
        // SAFETY: Java passes only handles from `into_handle` of this type
        // (each Java class calls the native methods of its own type) that
        // have not been freed, one call at a time: every use holds the
        // owner's lock, under which `free` zeroes the Java copy first.
        Ok(unsafe { &mut *(handle as *mut Self) })
    }

    /// Frees the state behind a handle; 0 (closed) does nothing.
    fn free(handle: jni::sys::jlong) {
        if handle != 0 {
            // SAFETY: a handle from `into_handle` of this type, freed once
            // (as in `from_handle`).
            drop(unsafe { Box::from_raw(handle as *mut Self) });
        }
    }
}

/// `update` of the state behind `handle` with bytes of a `byte[]`.
pub(crate) fn update_from_bytes<S: State>(
    env: &JNIEnv<'_>,
    handle: jni::sys::jlong,
    input: &JByteArray<'_>,
    off: jint,
    len: jint,
) -> Result<()> {
    let state = S::from_handle(handle)?;
    with_bytes(env, input, off, len, |input| state.update(input))
}

/// `update` of the state behind `handle` with bytes of a direct buffer.
pub(crate) fn update_from_direct<S: State>(
    env: &JNIEnv<'_>,
    handle: jni::sys::jlong,
    input: &JByteBuffer<'_>,
    pos: jint,
    len: jint,
) -> Result<()> {
    let state = S::from_handle(handle)?;
    with_direct(env, input, pos, len, |input| state.update(input))
}

/// Panics inside `run`, so that a test can check that a panic becomes an
/// `IllegalStateException` and the JVM goes on (no entry point panics on
/// purpose, so this is the only way to reach that path).
#[no_mangle]
pub extern "system" fn Java_io_chunkhash_Native_panicForTests<'l>(mut env: JNIEnv<'l>, _: jni::objects::JClass<'l>) {
    run(&mut env, (), |_| -> Result<()> { panic!("a panic on purpose, for the boundary test") })
}
