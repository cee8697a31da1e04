//! MD5 (RFC 1321) and SHA-1 (FIPS 180-4), adapted from RustCrypto's `md-5`
//! and `sha1`: for compatibility only, never for new designs. Both are
//! broken against collisions (MD5 in seconds, SHA-1 since SHAttered); they
//! are here because existing systems record them: S3's ETag (the MD5 of an
//! object, or of its parts' MD5s), S3's `SHA1` checksum, and the `md5sum`
//! and `sha1sum` files `chunkhash check` reads. New data should use BLAKE3,
//! SHA-256 or a CRC for plain error detection.
//!
//! Why these crates: they are the maintained pure-Rust implementations,
//! and they share the `digest` stack that `sha2` already brings, so they add
//! two small crates to the build. The 0.11 lines have no assembly features
//! any more: `sha1` picks SHA-NI (x86) or the SHA2 extension (aarch64) at
//! run time with `cpufeatures`, as `sha2` does, and `md-5` runs portable
//! Rust on x86 (MD5 is one serial dependency chain, so SIMD cannot help one
//! message). The 0.10 lines' `asm` features (`md5-asm`, `sha1-asm`)
//! assemble their code with the `cc` crate, which needs a C toolchain at
//! build time; the core crate builds without one, so they were not taken
//! (and not measured). Measured here, 1 MiB inputs on one thread, the
//! machine loaded (load average 8-10 on 2 cores; BENCHMARKS.md "S3
//! checksums"): `md-5` 285-628 MB/s (5.8 cycles/byte in the quietest
//! round), `sha1` 663-1241 MB/s (1.85 cycles/byte); OpenSSL 3's assembly,
//! run alternately with them (`openssl speed -evp md5|sha1 -bytes
//! 1048576`): 746-759 MB/s MD5, 1823-1950 MB/s SHA-1. OpenSSL is faster
//! (MD5 1.2-2.6x, SHA-1 1.5-2.9x in these noisy rounds). No other
//! pure-Rust candidate was measured; these are compatibility algorithms,
//! where the maintained crate without a C toolchain was the deciding point.

use crate::wrapper::{aarch64_has, wrapper, x86_has};
use ::sha1::Digest as _;

wrapper! {
    /// MD5 from RustCrypto's `md-5` (compatibility only).
    Md5(::md5::Md5): 16, implementation: "md-5 soft",
    /// SHA-1 from RustCrypto's `sha1` (compatibility only).
    Sha1(::sha1::Sha1): 20, implementation: sha1_implementation();
    {
        // Out of line so the registry's inlined dispatch stays small (see registry.rs).
        #[inline(never)]
        hash(input) => State::digest(input).into();
        new() => State::new();
        update(state, input) => state.update(input);
        finalize(state) => state.clone().finalize().into();
    }
}

/// sha1 0.11 (`compress.rs`): SHA-NI (with SSSE3 and SSE4.1) on x86, the
/// SHA2 extension on aarch64, picked at run time with `cpufeatures`, even
/// without `std`; chunkhash asks the CPU only with `std`.
fn sha1_implementation() -> &'static str {
    match (cfg!(feature = "std"), x86_has!("sha", "ssse3", "sse4.1"), aarch64_has!("sha2")) {
        (false, _, _) => "sha1 (instruction set picked at run time)",
        (true, true, _) => "sha1 shani",
        (true, false, true) => "sha1 aarch64-sha2",
        (true, false, false) => "sha1 soft",
    }
}
