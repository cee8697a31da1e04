//! Kernel selection: the one place that decides which instruction set runs.
//!
//! Every `core::arch` intrinsic and every `unsafe` kernel call of the crate
//! lives in this folder, one file per instruction set. The rest of the crate
//! talks to a [`Platform`], a [`Backend`] whose support has been checked, so
//! safe code can never reach an instruction the CPU lacks.

#[cfg(any(
    target_arch = "x86",
    target_arch = "x86_64",
    all(target_arch = "aarch64", target_endian = "little"),
    all(target_arch = "wasm32", target_feature = "simd128")
))]
mod lanes;
pub(crate) mod portable;

#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
mod avx2;
#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
mod avx512;
#[cfg(all(target_arch = "aarch64", target_endian = "little"))]
mod neon;
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
mod simd128;
#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
mod sse41;

use core::fmt;

/// Bytes in one BLAKE3 block, the unit of one compression.
pub const BLOCK_LEN: usize = 64;
/// Bytes in one BLAKE3 chunk, the leaf of the tree.
pub const CHUNK_LEN: usize = 1024;
/// Bytes in a default-length hash and in a chaining value.
pub const OUT_LEN: usize = 32;
/// Bytes in a key.
pub const KEY_LEN: usize = 32;

/// Widest lane count of any kernel (AVX-512: 16 x 32-bit lanes).
pub(crate) const MAX_LANES: usize = 16;

/// A chaining value as eight little-endian words.
pub(crate) type CvWords = [u32; 8];
/// A chaining value as it is stored and fed to parent nodes.
pub(crate) type CvBytes = [u8; OUT_LEN];

/// The BLAKE3 initialisation vector (the SHA-256 IV; spec section 2.2).
pub(crate) const IV: CvWords =
    [0x6A09E667, 0xBB67AE85, 0x3C6EF372, 0xA54FF53A, 0x510E527F, 0x9B05688C, 0x1F83D9AB, 0x5BE0CD19];

/// Word order of the message for each of the seven rounds: round `r` reads
/// message word `MSG_SCHEDULE[r][i]` where round 0 reads word `i`. Each row is
/// the previous one permuted by the spec's `[2, 6, 3, 10, 7, 0, 4, 13, 1, 11,
/// 12, 5, 9, 14, 15, 8]` (spec section 2.2).
pub(crate) const MSG_SCHEDULE: [[usize; 16]; 7] = {
    const PERMUTATION: [usize; 16] = [2, 6, 3, 10, 7, 0, 4, 13, 1, 11, 12, 5, 9, 14, 15, 8];
    let mut schedule = [[0; 16]; 7];
    let mut i = 0;
    while i < 16 {
        schedule[0][i] = i;
        i += 1;
    }
    let mut round = 1;
    while round < 7 {
        let mut i = 0;
        while i < 16 {
            schedule[round][i] = schedule[round - 1][PERMUTATION[i]];
            i += 1;
        }
        round += 1;
    }
    schedule
};

// Domain flags (spec table 3).
pub(crate) const CHUNK_START: u8 = 1 << 0;
pub(crate) const CHUNK_END: u8 = 1 << 1;
pub(crate) const PARENT: u8 = 1 << 2;
pub(crate) const ROOT: u8 = 1 << 3;
pub(crate) const KEYED_HASH: u8 = 1 << 4;
pub(crate) const DERIVE_KEY_CONTEXT: u8 = 1 << 5;
pub(crate) const DERIVE_KEY_MATERIAL: u8 = 1 << 6;

/// One independent compression chain for a SIMD lane: a whole chunk (up to
/// 1024 bytes, the last block possibly partial, or empty) or one parent node
/// (64 bytes). Every block gets `flags`; the first also gets `start_flags`,
/// the last also `end_flags`. The chain starts from the key words.
#[derive(Clone, Copy, Debug)]
pub(crate) struct LaneJob<'a> {
    pub(crate) input: &'a [u8],
    pub(crate) counter: u64,
    pub(crate) flags: u8,
    pub(crate) start_flags: u8,
    pub(crate) end_flags: u8,
}

impl<'a> LaneJob<'a> {
    /// Fills unused slots of a job array; never hashed.
    pub(crate) const IDLE: LaneJob<'static> =
        LaneJob { input: &[], counter: 0, flags: 0, start_flags: 0, end_flags: 0 };

    /// A chunk of the tree: `CHUNK_START` on its first block, `CHUNK_END` (and
    /// `ROOT` when the chunk is the whole message) on its last.
    pub(crate) fn chunk(input: &'a [u8], chunk_index: u64, flags: u8, is_root: bool) -> Self {
        debug_assert!(input.len() <= CHUNK_LEN);
        let root = if is_root { ROOT } else { 0 };
        LaneJob { input, counter: chunk_index, flags, start_flags: CHUNK_START, end_flags: CHUNK_END | root }
    }

    /// A parent node: the two child chaining values, concatenated.
    pub(crate) fn parent(block: &'a [u8], flags: u8, is_root: bool) -> Self {
        debug_assert_eq!(block.len(), BLOCK_LEN);
        let root = if is_root { ROOT } else { 0 };
        LaneJob { input: block, counter: 0, flags: flags | PARENT, start_flags: 0, end_flags: root }
    }

    /// Blocks compressed for this job: an empty chunk is still one block.
    pub(crate) fn block_count(&self) -> usize {
        self.input.len().div_ceil(BLOCK_LEN).max(1)
    }

    /// Calls `f(block, block_len, flags)` for each block of the job in
    /// order: whole blocks straight from the input, a partial last block
    /// zero-padded.
    #[inline(always)]
    pub(crate) fn for_each_block(&self, mut f: impl FnMut(&[u8; BLOCK_LEN], u8, u8)) {
        let blocks = self.block_count();
        for index in 0..blocks {
            let mut flags = self.flags;
            if index == 0 {
                flags |= self.start_flags;
            }
            if index == blocks - 1 {
                flags |= self.end_flags;
            }
            match self.input.get(index * BLOCK_LEN..(index + 1) * BLOCK_LEN) {
                Some(block) => f(block.try_into().unwrap(), BLOCK_LEN as u8, flags),
                None => {
                    let (block, len) = padded_block(self.input, index);
                    f(&block, len, flags);
                }
            }
        }
    }
}

/// Splits `input` into the block at `index`, zero-padded, and its length.
#[inline]
pub(crate) fn padded_block(input: &[u8], index: usize) -> ([u8; BLOCK_LEN], u8) {
    let start = index * BLOCK_LEN;
    if let Some(whole) = input.get(start..start + BLOCK_LEN) {
        // A fixed-size copy: no call to `memcpy` on the path of small hashes.
        return (whole.try_into().unwrap(), BLOCK_LEN as u8);
    }
    let rest = &input[start.min(input.len())..];
    let mut block = [0u8; BLOCK_LEN];
    block[..rest.len()].copy_from_slice(rest);
    (block, rest.len() as u8)
}

/// Reads a block as sixteen little-endian words.
pub(crate) fn block_words(block: &[u8; BLOCK_LEN]) -> [u32; 16] {
    core::array::from_fn(|i| u32::from_le_bytes(block[4 * i..4 * i + 4].try_into().unwrap()))
}

/// Reads 32 bytes as eight little-endian words.
pub(crate) fn cv_words(bytes: &[u8; OUT_LEN]) -> CvWords {
    core::array::from_fn(|i| u32::from_le_bytes(bytes[4 * i..4 * i + 4].try_into().unwrap()))
}

/// Writes eight words as 32 little-endian bytes.
pub(crate) fn cv_bytes(words: &CvWords) -> CvBytes {
    let mut out = [0u8; OUT_LEN];
    for (chunk, word) in out.chunks_exact_mut(4).zip(words) {
        chunk.copy_from_slice(&word.to_le_bytes());
    }
    out
}

/// The SIMD instruction sets BLAKE3 can run on. [`Backend::detect`] picks the
/// best one this CPU supports; the others can be forced for testing and
/// benchmarking, for example with [`Hasher::new_with_backend`](crate::blake3::Hasher::new_with_backend).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Backend {
    /// Plain Rust, one compression at a time; runs everywhere.
    Portable,
    /// x86 SSE4.1: 4 lanes.
    Sse41,
    /// x86 AVX2: 8 lanes.
    Avx2,
    /// x86 AVX-512F + AVX-512VL: 16 lanes.
    Avx512,
    /// aarch64 NEON: 4 lanes.
    Neon,
    /// wasm32 SIMD128: 4 lanes; a build-time choice (`-C target-feature=+simd128`).
    Wasm32Simd,
}

const ALL_BACKENDS: [Backend; 6] =
    [Backend::Portable, Backend::Sse41, Backend::Avx2, Backend::Avx512, Backend::Neon, Backend::Wasm32Simd];

#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
cpufeatures::new!(sse41_cpuid, "sse4.1");
#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
cpufeatures::new!(avx2_cpuid, "avx2");
// VL gives the 128- and 256-bit forms of the rotate instructions that the
// narrow kernels and the single-block compression use.
#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
cpufeatures::new!(avx512_cpuid, "avx512f", "avx512vl");

impl Backend {
    /// Every backend this crate knows, supported here or not, narrowest first.
    pub fn all() -> &'static [Backend] {
        &ALL_BACKENDS
    }

    /// The lowercase name used by `CHUNKHASH_BACKEND`, the CLI and the bindings.
    pub fn name(self) -> &'static str {
        match self {
            Backend::Portable => "portable",
            Backend::Sse41 => "sse41",
            Backend::Avx2 => "avx2",
            Backend::Avx512 => "avx512",
            Backend::Neon => "neon",
            Backend::Wasm32Simd => "wasm32simd",
        }
    }

    /// How many chains one kernel call hashes side by side.
    pub fn lanes(self) -> usize {
        match self {
            Backend::Portable => 1,
            Backend::Sse41 | Backend::Neon | Backend::Wasm32Simd => 4,
            Backend::Avx2 => 8,
            Backend::Avx512 => 16,
        }
    }

    /// Whether this CPU (and this build) can run the backend.
    pub fn is_supported(self) -> bool {
        match self {
            Backend::Portable => true,
            #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
            Backend::Sse41 => sse41_cpuid::get(),
            #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
            Backend::Avx2 => avx2_cpuid::get(),
            #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
            Backend::Avx512 => avx512_cpuid::get(),
            // Baseline on (little-endian) aarch64.
            Backend::Neon => cfg!(all(target_arch = "aarch64", target_endian = "little")),
            // No run-time detection in wasm: supported when the build enables it.
            Backend::Wasm32Simd => cfg!(all(target_arch = "wasm32", target_feature = "simd128")),
            #[cfg(not(any(target_arch = "x86", target_arch = "x86_64")))]
            Backend::Sse41 | Backend::Avx2 | Backend::Avx512 => false,
        }
    }

    /// The best backend this CPU supports, ignoring `CHUNKHASH_BACKEND`.
    pub fn best_supported() -> Backend {
        *ALL_BACKENDS.iter().rev().find(|backend| backend.is_supported()).unwrap_or(&Backend::Portable)
    }

    /// The backend used when none is forced: `CHUNKHASH_BACKEND` when it is
    /// set to a supported backend, else [`Backend::best_supported`]. Decided
    /// once per process and cached. An unknown or unsupported value is
    /// reported once on stderr and detection is used instead; call
    /// [`Backend::from_env`] to treat it as an error.
    pub fn detect() -> Backend {
        Platform::detect().backend
    }

    /// Reads `CHUNKHASH_BACKEND`: `Ok(None)` when unset or empty,
    /// `Ok(Some(backend))` for a supported backend, an error otherwise.
    #[cfg(feature = "std")]
    pub fn from_env() -> Result<Option<Backend>, BackendError> {
        match std::env::var("CHUNKHASH_BACKEND") {
            Err(std::env::VarError::NotPresent) => Ok(None),
            Err(std::env::VarError::NotUnicode(value)) => Err(BackendError::unknown(&value.to_string_lossy())),
            Ok(value) if value.trim().is_empty() => Ok(None),
            Ok(value) => {
                let backend: Backend = value.trim().parse()?;
                if backend.is_supported() {
                    Ok(Some(backend))
                } else {
                    Err(BackendError::unsupported(backend))
                }
            }
        }
    }
}

impl fmt::Display for Backend {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl core::str::FromStr for Backend {
    type Err = BackendError;

    /// Parses a backend name as [`Backend::name`] spells it, ignoring case.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        ALL_BACKENDS
            .iter()
            .copied()
            .find(|backend| backend.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| BackendError::unknown(s))
    }
}

/// A backend was asked for that does not exist or that this CPU cannot run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BackendError(BackendErrorKind);

#[derive(Clone, Debug, PartialEq, Eq)]
enum BackendErrorKind {
    Unknown { name: [u8; 24], len: usize },
    Unsupported(Backend),
}

impl BackendError {
    fn unknown(name: &str) -> Self {
        // Keep the first bytes of the bad name for the message without allocating.
        let mut stored = [0u8; 24];
        let mut len = name.len().min(stored.len());
        while !name.is_char_boundary(len) {
            len -= 1;
        }
        stored[..len].copy_from_slice(&name.as_bytes()[..len]);
        BackendError(BackendErrorKind::Unknown { name: stored, len })
    }

    pub(crate) fn unsupported(backend: Backend) -> Self {
        BackendError(BackendErrorKind::Unsupported(backend))
    }

    /// The backend that was asked for, when it exists but is not supported.
    pub fn unsupported_backend(&self) -> Option<Backend> {
        match self.0 {
            BackendErrorKind::Unsupported(backend) => Some(backend),
            BackendErrorKind::Unknown { .. } => None,
        }
    }
}

impl fmt::Display for BackendError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.0 {
            BackendErrorKind::Unknown { name, len } => {
                let name = core::str::from_utf8(&name[..*len]).unwrap_or("?");
                write!(f, "unknown backend {name:?}, expected one of ")?;
                for (i, backend) in ALL_BACKENDS.iter().enumerate() {
                    let separator = if i == 0 { "" } else { ", " };
                    write!(f, "{separator}{backend}")?;
                }
                Ok(())
            }
            BackendErrorKind::Unsupported(backend) => {
                write!(f, "backend {backend} is not supported by this CPU or build")
            }
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for BackendError {}

/// A [`Backend`] that is known to run on this machine. Only [`Platform::new`]
/// and [`Platform::detect`] make one, and both check support, so the kernel
/// calls below are sound.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Platform {
    backend: Backend,
}

/// The detected platform, cached: 0 is "not yet", otherwise the index into
/// `ALL_BACKENDS` plus one.
static DETECTED: core::sync::atomic::AtomicU8 = core::sync::atomic::AtomicU8::new(0);

impl Platform {
    pub(crate) fn new(backend: Backend) -> Result<Platform, BackendError> {
        if backend.is_supported() {
            Ok(Platform { backend })
        } else {
            Err(BackendError::unsupported(backend))
        }
    }

    #[inline]
    pub(crate) fn detect() -> Platform {
        use core::sync::atomic::Ordering::Relaxed;
        match DETECTED.load(Relaxed) {
            0 => Self::detect_slow(),
            n => Platform { backend: ALL_BACKENDS[n as usize - 1] },
        }
    }

    #[cold]
    fn detect_slow() -> Platform {
        use core::sync::atomic::Ordering::Relaxed;
        #[cfg(feature = "std")]
        let backend = match Backend::from_env() {
            Ok(Some(backend)) => backend,
            Ok(None) => Backend::best_supported(),
            Err(error) => {
                // A library should not print, but a silently ignored override
                // would let a forced-backend test run pass on the wrong kernel.
                std::eprintln!("chunkhash: CHUNKHASH_BACKEND: {error}; using detection instead");
                Backend::best_supported()
            }
        };
        #[cfg(not(feature = "std"))]
        let backend = Backend::best_supported();
        let index = ALL_BACKENDS.iter().position(|b| *b == backend).unwrap_or(0);
        DETECTED.store(index as u8 + 1, Relaxed);
        Platform { backend }
    }

    pub(crate) fn backend(self) -> Backend {
        self.backend
    }

    /// Compresses one block into `cv` (the chaining-value half of the output).
    #[inline]
    pub(crate) fn compress_in_place(
        self,
        cv: &mut CvWords,
        block: &[u8; BLOCK_LEN],
        block_len: u8,
        counter: u64,
        flags: u8,
    ) {
        match self.backend {
            #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
            // SAFETY: a `Platform` exists only for a supported backend; kernels check their lane count.
            Backend::Avx512 => unsafe { avx512::compress_in_place(cv, block, block_len, counter, flags) },
            #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
            // SAFETY: a `Platform` exists only for a supported backend; kernels check their lane count.
            Backend::Sse41 | Backend::Avx2 => unsafe { sse41::compress_in_place(cv, block, block_len, counter, flags) },
            _ => portable::compress_in_place(cv, block, block_len, counter, flags),
        }
    }

    /// Compresses whole blocks into `cv` one after another, the first with
    /// `first_flags` added: every block of a chunk but its last.
    #[inline]
    pub(crate) fn compress_blocks(
        self,
        cv: &mut CvWords,
        blocks: &[[u8; BLOCK_LEN]],
        counter: u64,
        flags: u8,
        first_flags: u8,
    ) {
        match self.backend {
            #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
            // SAFETY: a `Platform` exists only for a supported backend.
            Backend::Avx512 => unsafe { avx512::compress_blocks(cv, blocks, counter, flags, first_flags) },
            _ => {
                let mut block_flags = flags | first_flags;
                for block in blocks {
                    self.compress_in_place(cv, block, BLOCK_LEN as u8, counter, block_flags);
                    block_flags = flags;
                }
            }
        }
    }

    /// The hash of a message of at most one block: one compression that is
    /// the whole chunk and the root. The shortcut keeps small hashes free of
    /// the tree's bookkeeping.
    #[inline]
    pub(crate) fn hash_one_block(self, key: &CvWords, flags: u8, input: &[u8]) -> CvBytes {
        debug_assert!(input.len() <= BLOCK_LEN);
        let flags = flags | CHUNK_START | CHUNK_END | ROOT;
        let mut cv = *key;
        match <&[u8; BLOCK_LEN]>::try_from(input) {
            Ok(block) => self.compress_in_place(&mut cv, block, BLOCK_LEN as u8, 0, flags),
            Err(_) => {
                let (block, len) = padded_block(input, 0);
                self.compress_in_place(&mut cv, &block, len, 0, flags);
            }
        }
        cv_bytes(&cv)
    }

    /// Compresses one block and returns all 64 output bytes, for extended output.
    #[inline]
    pub(crate) fn compress_xof(
        self,
        cv: &CvWords,
        block: &[u8; BLOCK_LEN],
        block_len: u8,
        counter: u64,
        flags: u8,
    ) -> [u8; BLOCK_LEN] {
        match self.backend {
            #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
            // SAFETY: a `Platform` exists only for a supported backend; kernels check their lane count.
            Backend::Avx512 => unsafe { avx512::compress_xof(cv, block, block_len, counter, flags) },
            #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
            // SAFETY: a `Platform` exists only for a supported backend; kernels check their lane count.
            Backend::Sse41 | Backend::Avx2 => unsafe { sse41::compress_xof(cv, block, block_len, counter, flags) },
            _ => portable::compress_xof(cv, block, block_len, counter, flags),
        }
    }

    /// Hashes independent chains side by side: `out[i]` receives the chaining
    /// value of `jobs[i]`, started from `key`. Jobs are taken in order, as many
    /// per kernel call as its lanes hold; a call with few jobs goes to a
    /// narrower kernel, and one or two jobs to interleaved row compressions.
    pub(crate) fn hash_lanes(self, key: &CvWords, mut jobs: &[LaneJob<'_>], mut out: &mut [CvBytes]) {
        assert_eq!(jobs.len(), out.len(), "one output per job");
        while !jobs.is_empty() {
            let take = jobs.len().min(self.backend.lanes()).max(1);
            let (now, later) = jobs.split_at(take);
            let (now_out, later_out) = out.split_at_mut(take);
            self.hash_lanes_once(key, now, now_out);
            jobs = later;
            out = later_out;
        }
    }

    /// At most `lanes()` jobs (at least one), in the narrowest kernel that
    /// holds them; a lone job runs as one chain of row compressions.
    #[inline]
    fn hash_lanes_once(self, key: &CvWords, jobs: &[LaneJob<'_>], out: &mut [CvBytes]) {
        match (self.backend, jobs.len()) {
            #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
            // SAFETY: a `Platform` exists only for a supported backend; kernels check their lane count.
            (Backend::Avx512, 9..) => unsafe { avx512::hash_lanes16(key, jobs, out) },
            #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
            // SAFETY: a `Platform` exists only for a supported backend; kernels check their lane count.
            (Backend::Avx512, 5..=8) => unsafe { avx512::hash_lanes8(key, jobs, out) },
            #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
            // SAFETY: a `Platform` exists only for a supported backend; kernels check their lane count.
            (Backend::Avx512, 2..=4) => unsafe { avx512::hash_lanes4(key, jobs, out) },
            #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
            // SAFETY: a `Platform` exists only for a supported backend.
            (Backend::Avx512, _) => out[0] = unsafe { avx512::hash_job(key, &jobs[0]) },
            #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
            // SAFETY: a `Platform` exists only for a supported backend; kernels check their lane count.
            (Backend::Avx2, 5..) => unsafe { avx2::hash_lanes8(key, jobs, out) },
            #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
            // SAFETY: a `Platform` exists only for a supported backend; kernels check their lane count.
            (Backend::Avx2 | Backend::Sse41, 2..) => unsafe { sse41::hash_lanes4(key, jobs, out) },
            #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
            // SAFETY: a `Platform` exists only for a supported backend.
            (Backend::Avx2 | Backend::Sse41, _) => out[0] = unsafe { sse41::hash_job(key, &jobs[0]) },
            #[cfg(all(target_arch = "aarch64", target_endian = "little"))]
            // SAFETY: a `Platform` exists only for a supported backend; kernels check their lane count.
            (Backend::Neon, 2..) => unsafe { neon::hash_lanes4(key, jobs, out) },
            #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
            // SAFETY: a `Platform` exists only for a supported backend; kernels check their lane count.
            (Backend::Wasm32Simd, 2..) => unsafe { simd128::hash_lanes4(key, jobs, out) },
            _ => portable::hash_lanes(key, jobs, out),
        }
    }
}

/// Every kernel against the portable one, below the public API: counters
/// across the 32-bit carry (no real message reaches them), every job count
/// up to one past two full kernel calls, ragged and uniform job mixes, and
/// every flag. Seeded; the seed is printed.
#[cfg(test)]
mod tests {
    use super::*;
    use std::vec::Vec;

    const COUNTERS: [u64; 8] = [0, 1, 0x7FFF_FFFF, 0x8000_0000, 0xFFFF_FFFE, 0xFFFF_FFFF, 0x1_0000_0000, u64::MAX];

    fn supported() -> Vec<Platform> {
        let platforms: Vec<Platform> = ALL_BACKENDS.iter().filter_map(|b| Platform::new(*b).ok()).collect();
        std::println!("kernels under test: {:?}", platforms.iter().map(|p| p.backend()).collect::<Vec<_>>());
        platforms
    }

    fn portable() -> Platform {
        Platform::new(Backend::Portable).unwrap()
    }

    #[test]
    fn single_block_compression_matches_portable() {
        let mut rng = vectors::TestRng::new(vectors::test_seed("single_block_compression_matches_portable", 11));
        for platform in supported() {
            for &counter in &COUNTERS {
                for len in [0u8, 1, 31, 32, 63, 64] {
                    let mut block = [0u8; BLOCK_LEN];
                    rng.fill(&mut block[..len as usize]);
                    let cv: CvWords = core::array::from_fn(|_| rng.next_u64() as u32);
                    let flags = rng.next_u64() as u8 & 0x7F;
                    let mut expected = cv;
                    portable().compress_in_place(&mut expected, &block, len, counter, flags);
                    let mut got = cv;
                    platform.compress_in_place(&mut got, &block, len, counter, flags);
                    assert_eq!(got, expected, "{:?} counter {counter:#x} len {len}", platform.backend());
                    assert_eq!(
                        platform.compress_xof(&cv, &block, len, counter, flags),
                        portable().compress_xof(&cv, &block, len, counter, flags),
                        "xof {:?} counter {counter:#x} len {len}",
                        platform.backend()
                    );
                }
            }
            let blocks: Vec<[u8; BLOCK_LEN]> =
                (0..15).map(|_| core::array::from_fn(|_| rng.next_u64() as u8)).collect();
            for count in 0..=15 {
                let mut expected = IV;
                portable().compress_blocks(&mut expected, &blocks[..count], 7, KEYED_HASH, CHUNK_START);
                let mut got = IV;
                platform.compress_blocks(&mut got, &blocks[..count], 7, KEYED_HASH, CHUNK_START);
                assert_eq!(got, expected, "compress_blocks {:?}, {count} blocks", platform.backend());
            }
        }
    }

    /// One random job: a chunk of an edge or random length, or a parent.
    fn random_job<'a>(rng: &mut vectors::TestRng, data: &'a [u8], uniform: bool) -> LaneJob<'a> {
        const EDGES: [usize; 12] = [0, 1, 63, 64, 65, 127, 128, 511, 960, 1023, 1024, 1000];
        let counter = COUNTERS[rng.range(0..=COUNTERS.len() - 1)].wrapping_add(rng.range(0..=3) as u64);
        if uniform {
            return LaneJob::chunk(&data[..CHUNK_LEN], counter, KEYED_HASH, false);
        }
        let start = rng.range(0..=data.len() - CHUNK_LEN);
        match rng.range(0..=3) {
            0 => LaneJob::parent(&data[start..start + BLOCK_LEN], DERIVE_KEY_MATERIAL, rng.range(0..=1) == 1),
            1 => LaneJob::chunk(&data[start..start + rng.range(0..=CHUNK_LEN)], counter, 0, rng.range(0..=1) == 1),
            _ => LaneJob::chunk(&data[start..start + EDGES[rng.range(0..=EDGES.len() - 1)]], counter, 0, false),
        }
    }

    #[test]
    fn lane_kernels_match_portable_on_every_job_count() {
        let mut rng = vectors::TestRng::new(vectors::test_seed("lane_kernels_match_portable_on_every_job_count", 12));
        let data = rng.bytes(8 * CHUNK_LEN);
        let key: CvWords = core::array::from_fn(|_| rng.next_u64() as u32);
        for platform in supported() {
            for count in 1..=2 * MAX_LANES + 1 {
                for round in 0..12 {
                    // Every fourth set is uniform whole chunks (the fast path).
                    let uniform = round % 4 == 0;
                    let jobs: Vec<LaneJob<'_>> = (0..count).map(|_| random_job(&mut rng, &data, uniform)).collect();
                    let mut expected = std::vec![[0u8; OUT_LEN]; count];
                    portable().hash_lanes(&key, &jobs, &mut expected);
                    let mut got = std::vec![[0u8; OUT_LEN]; count];
                    platform.hash_lanes(&key, &jobs, &mut got);
                    assert_eq!(got, expected, "{:?}, {count} jobs, round {round}", platform.backend());
                }
            }
        }
    }

    #[test]
    fn message_schedule_is_the_spec_permutation_applied_per_round() {
        // Spec section 2.2: round r reads word PERMUTATION^r(i). The last
        // row was computed separately (Python: s = [s[P[i]] for i in
        // range(16)], six times from the identity).
        assert_eq!(MSG_SCHEDULE[0], core::array::from_fn(|i| i));
        assert_eq!(MSG_SCHEDULE[1], [2, 6, 3, 10, 7, 0, 4, 13, 1, 11, 12, 5, 9, 14, 15, 8]);
        assert_eq!(MSG_SCHEDULE[6], [11, 15, 5, 0, 1, 9, 8, 6, 14, 10, 2, 12, 3, 4, 7, 13]);
    }
}
