//! The JNI side of chunkhash's Java binding: the native methods of the Java
//! class `io.chunkhash.Native`, built as `libchunkhash_jni` and packed into
//! the jar (`bindings/java`).
//!
//! Like the C library, this crate converts arguments and errors and calls
//! the `chunkhash` crate; it holds no hashing logic. Every method runs under
//! `catch_unwind` (`boundary::run`): a Rust panic never unwinds into the JVM,
//! and bad input from Java (null, offsets out of range or not ascending, a
//! wrong key length, an unknown algorithm id) becomes a Java exception. The
//! `jni` crate gives the types and calls; the only raw JNI is array pinning
//! (`GetPrimitiveArrayCritical`), which reads Java arrays without a copy.

mod bao;
mod blake3;
mod boundary;
mod registry;
