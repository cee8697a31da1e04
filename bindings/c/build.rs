//! Sets the shared library's SONAME on Linux, so that programs linked with
//! `-lchunkhash` record `libchunkhash.so.MAJOR.MINOR` (0.x releases may
//! break the ABI at each minor version, as cargo-c numbers them) and the
//! installed `libchunkhash.so` symlink is only needed at link time. No
//! dependencies, no generated code.

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    if os == "linux" || os == "android" || os.ends_with("bsd") {
        let major = std::env::var("CARGO_PKG_VERSION_MAJOR").expect("set by cargo");
        let minor = std::env::var("CARGO_PKG_VERSION_MINOR").expect("set by cargo");
        let soname =
            if major == "0" { format!("libchunkhash.so.0.{minor}") } else { format!("libchunkhash.so.{major}") };
        println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,{soname}");
    }
}
