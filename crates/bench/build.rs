//! Links the reference C xxHash for the `c-xxhash` feature (off by default,
//! so a plain build needs no C library): Debian's libxxhash (`-lxxhash`,
//! from libxxhash-dev, with its run-time x86 dispatcher), and its header
//! compiled twice with the instruction set forced, AVX2 and AVX-512
//! (`csrc/xxh3_forced.c`). `make bench-xxh3` installs the package.

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=csrc/xxh3_forced.c");
    // The build script's own `cfg(feature)` is the package's feature.
    #[cfg(feature = "c-xxhash")]
    c_xxhash::build();
}

#[cfg(feature = "c-xxhash")]
mod c_xxhash {
    const HEADER: &str = "/usr/include/xxhash.h";

    pub(super) fn build() {
        if !std::path::Path::new(HEADER).exists() {
            panic!("feature c-xxhash needs {HEADER}: apt-get install libxxhash-dev (make bench-xxh3 does)");
        }
        println!("cargo:rustc-link-lib=dylib=xxhash");
        // Only x86-64 has the two forced builds; elsewhere the dynamic library alone.
        if std::env::var("CARGO_CFG_TARGET_ARCH").as_deref() != Ok("x86_64") {
            return;
        }
        for (prefix, vector, flag) in [("c_avx2", "XXH_AVX2", "-mavx2"), ("c_avx512", "XXH_AVX512", "-mavx512f")] {
            cc::Build::new()
                .file("csrc/xxh3_forced.c")
                .define("XXH_VECTOR", vector)
                .define("PEER_PREFIX", prefix)
                .flag(flag)
                .opt_level(3)
                .compile(prefix);
        }
    }
}
