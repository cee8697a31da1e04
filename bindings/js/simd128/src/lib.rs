//! The SIMD128 side module of the `chunkhash` npm package: nothing but the
//! chunkhash library's SIMD128 kernels, which its `wasm-simd128-module`
//! feature exports (`crates/chunkhash/src/platform/simd128_module.rs` has
//! them and says why they live apart). The scalar main module
//! (`bindings/js/wasm`) imports them; the loader in
//! `bindings/js/lib/chunkhash.mjs` instantiates this module first, on the
//! main module's memory, when the engine validates SIMD128.
//!
//! `no_std` and without an allocator, so the module has no data of its own:
//! data segments would be written over the main module's memory. The build
//! script fails if it finds any. A panic (a kernel's assertion) traps.

#![cfg_attr(target_arch = "wasm32", no_std)]

// The kernels are exported by the library; this crate only links them.
extern crate chunkhash as _;

#[cfg(target_arch = "wasm32")]
#[panic_handler]
fn panic(_: &core::panic::PanicInfo<'_>) -> ! {
    core::arch::wasm32::unreachable()
}
