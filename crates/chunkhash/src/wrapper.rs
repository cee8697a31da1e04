//! The interface between the registry table (`registry.rs`) and the code
//! that computes each algorithm: what a wrapper module provides, and the
//! two adapters the table uses besides the wrapper modules, for chunkhash's
//! own BLAKE3 and for the 160-bit truncations.
//!
//! A wrapper is a type per algorithm (`xxhash::Xxh3_64`, `sha2::Sha256`,
//! ...) holding the streaming state of the crate it adapts, with the
//! crate's one-shot call beside it, since for small inputs the one-shot
//! call is faster than a state fed once. Outputs are fixed-size arrays, so
//! the registry's dispatch copies a known number of bytes per arm.

/// What the registry needs of an algorithm with an `N`-byte digest.
pub(crate) trait Wrapper<const N: usize>: Clone {
    /// The digest of `input` in one call.
    fn hash(input: &[u8]) -> [u8; N];

    /// A fresh streaming state.
    fn new() -> Self;

    /// Adds input.
    fn update(&mut self, input: &[u8]);

    /// The digest of all input so far; the state is unchanged.
    fn finalize(&self) -> [u8; N];

    /// Forgets all input.
    fn reset(&mut self) {
        *self = Self::new();
    }

    /// The code that runs on this machine: the crate, and the instruction set
    /// it picks here (`"crc32c sse4.2"`, `"sha2 shani"`), for chunkhash's
    /// own XXH3 its kernel (`"chunkhash avx512"`), or for chunkhash's own
    /// BLAKE3 the backend name (`"avx512"`). A wrapper knows the crate's
    /// version and features, so it reads the crate's dispatch rule, not the
    /// caller.
    fn implementation() -> &'static str;
}

/// Declares wrapper types over a crate's streaming states and implements
/// [`Wrapper`] for them with one expression per operation, for modules that
/// adapt several algorithms of one crate (`xxhash.rs`, `sha2.rs`):
///
/// ```text
/// wrapper! {
///     /// Docs of the type.
///     Name(CrateState): 8, implementation: "crate isa";
///     {
///         hash(input) => crate_one_shot(input).to_be_bytes();
///         new() => State::new();
///         update(state, input) => state.write(input);
///         finalize(state) => state.finish().to_be_bytes();
///     }
/// }
/// ```
///
/// Types listed together (separated by `,`, the list ended by `;`) share
/// the operations, in whose expressions `State` names each type's crate
/// state; `state` is that state (`&mut` in `update`, `&` in `finalize`).
/// Attributes before `hash` (such as `#[inline(never)]`) go on that method.
#[cfg(any(feature = "xxhash", feature = "sha2", feature = "compat"))]
macro_rules! wrapper {
    (
        $($(#[$meta:meta])* $name:ident($state:ty): $len:literal, implementation: $implementation:expr),+;
        $operations:tt
    ) => {
        $($crate::wrapper::wrapper!(@one $(#[$meta])* $name($state): $len, $implementation; $operations);)+
    };
    (
        @one $(#[$meta:meta])* $name:ident($state:ty): $len:literal, $implementation:expr;
        {
            $(#[$hash_meta:meta])*
            hash($input:ident) => $hash:expr;
            new() => $new:expr;
            update($updated:ident, $data:ident) => $update:expr;
            finalize($finalized:ident) => $finalize:expr;
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone)]
        pub(crate) struct $name($state);

        impl $crate::wrapper::Wrapper<$len> for $name {
            $(#[$hash_meta])*
            fn hash($input: &[u8]) -> [u8; $len] {
                #[allow(dead_code)]
                type State = $state;
                $hash
            }

            fn new() -> Self {
                #[allow(dead_code)]
                type State = $state;
                $name($new)
            }

            fn update(&mut self, $data: &[u8]) {
                let $updated = &mut self.0;
                $update;
            }

            fn finalize(&self) -> [u8; $len] {
                let $finalized = &self.0;
                $finalize
            }

            fn implementation() -> &'static str {
                $implementation
            }
        }
    };
}
#[cfg(any(feature = "xxhash", feature = "sha2", feature = "compat"))]
pub(crate) use wrapper;

/// chunkhash's own BLAKE3, as the registry sees it.
impl Wrapper<32> for crate::blake3::Hasher {
    /// Kept out of line: BLAKE3's tree hashing needs a large stack frame, and
    /// inlined into the dispatch it made every algorithm's call pay for it.
    #[inline(never)]
    fn hash(input: &[u8]) -> [u8; 32] {
        crate::blake3::hash(input).into()
    }

    fn new() -> Self {
        crate::blake3::Hasher::new()
    }

    fn update(&mut self, input: &[u8]) {
        crate::blake3::Hasher::update(self, input);
    }

    fn finalize(&self) -> [u8; 32] {
        crate::blake3::Hasher::finalize(self).into()
    }

    fn reset(&mut self) {
        crate::blake3::Hasher::reset(self);
    }

    fn implementation() -> &'static str {
        crate::blake3::Backend::detect().name()
    }
}

/// The first `M` bytes of an `N`-byte algorithm `W`: BLAKE3-160 and
/// SHA-512/160, the chunk addresses of 20 bytes.
#[derive(Clone)]
pub(crate) struct Prefix<W, const N: usize, const M: usize>(W);

impl<W: Wrapper<N>, const N: usize, const M: usize> Wrapper<M> for Prefix<W, N, M> {
    #[inline(always)]
    fn hash(input: &[u8]) -> [u8; M] {
        prefix(W::hash(input))
    }

    fn new() -> Self {
        Prefix(W::new())
    }

    fn update(&mut self, input: &[u8]) {
        self.0.update(input);
    }

    fn finalize(&self) -> [u8; M] {
        prefix(self.0.finalize())
    }

    fn reset(&mut self) {
        self.0.reset();
    }

    fn implementation() -> &'static str {
        W::implementation()
    }
}

#[inline(always)]
fn prefix<const N: usize, const M: usize>(output: [u8; N]) -> [u8; M] {
    const { assert!(M <= N, "a prefix is shorter than the output") };
    let mut first = [0u8; M];
    first.copy_from_slice(&output[..M]);
    first
}

/// Whether the CPU has all the x86 features named, asked the way the
/// wrapped crates ask: at run time with `std` (`is_x86_feature_detected!`,
/// cached by std), otherwise whether the build enables them, which is all
/// those crates can know without `std` too (except sha2, see sha2.rs).
/// Always false on other architectures.
#[cfg(any(feature = "blake2", feature = "sha2", feature = "compat"))]
macro_rules! x86_has {
    ($($feature:tt),+) => {{
        #[cfg(all(feature = "std", any(target_arch = "x86", target_arch = "x86_64")))]
        let has = $(std::arch::is_x86_feature_detected!($feature))&&+;
        #[cfg(not(all(feature = "std", any(target_arch = "x86", target_arch = "x86_64"))))]
        let has = cfg!(all(any(target_arch = "x86", target_arch = "x86_64"), $(target_feature = $feature),+));
        has
    }};
}
#[cfg(any(feature = "blake2", feature = "sha2", feature = "compat"))]
pub(crate) use x86_has;

/// [`x86_has`] for aarch64: `is_aarch64_feature_detected!` with `std`,
/// otherwise the build's target features. Always false elsewhere.
#[cfg(any(feature = "sha2", feature = "compat"))]
macro_rules! aarch64_has {
    ($feature:tt) => {{
        #[cfg(all(feature = "std", target_arch = "aarch64"))]
        let has = std::arch::is_aarch64_feature_detected!($feature);
        #[cfg(not(all(feature = "std", target_arch = "aarch64")))]
        let has = cfg!(all(target_arch = "aarch64", target_feature = $feature));
        has
    }};
}
#[cfg(any(feature = "sha2", feature = "compat"))]
pub(crate) use aarch64_has;
