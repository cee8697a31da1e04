//! AVX-512 kernels in inline assembly (x86_64, AVX-512F + VL, BMI2).
//!
//! Written from the BLAKE3 specification (section 2.2, the compression
//! function) and measurements on this project's machine (Zen 4); the
//! intrinsics kernels in `avx512.rs` compute the same and are the oracle
//! these are tested against. Why assembly: the kernels are bound by the
//! vector ports or by one compression's dependency chain, and how close
//! they get to either depends on an instruction schedule LLVM does not
//! find from intrinsics (BENCHMARKS.md has the measurements).
//!
//! - Transposed kernels: one chain per 32-bit lane of a zmm register
//!   (register `i` holds state word `i` of every lane). `run16` takes
//!   sixteen chains (two sets of eight in ymm0-15 and ymm16-31); `run32`
//!   interleaves two sets of sixteen (zmm0-15
//!   and zmm16-31), whose independent instructions fill the ports one
//!   compression's dependencies leave idle (Zen 4: 442 cycles per sixteen
//!   lanes against 465). The message is read through memory operands from
//!   a transposed copy (`message[i]` = word `i` of every lane) that plain
//!   integer loads and stores build for the next step while the rounds
//!   run: they use no vector port (measured: 465 against 495 cycles a step
//!   with vector shuffles).
//! - Row kernels (`hash_rows`, the single-block compression): see below.
//! - Parent kernels (`hash_parent_blocks`): a tree level's parents, whose
//!   blocks are consecutive and share key, counter and flags, need no lane
//!   parameters: sixteen (`parents16`) or eight (`parents8`) are loaded
//!   whole and transposed in registers, the message stays in registers;
//!   four, two or one go to the row form (`compress_four`,
//!   `compress_two`, the single-block compression).
//!
//! Assembler macros (`.macro`) spell out the rounds; every asm block
//! removes them again (`.purgem`), so a block may be emitted twice.

use super::asm_lanes::{asm_all_vectors, row_params_asm, short_third_chunk, LaneParams, PaddedBlocks};
use super::asm_lanes::{len_flags, row_output, RowParams, RowScratch, ROW_CHAINS};
use super::job::LaneJob;
use super::spec::{CvBytes, CvWords, BLOCK_LEN, CHUNK_LEN, IV};
use core::arch::asm;
use core::mem::{offset_of, MaybeUninit};
use core::ptr::addr_of;

/// Memory of one set of sixteen lanes: the transposed message of this step
/// and the next (`message[step % 2][i]` is word `i` of every lane), the
/// chaining values of lanes as they finish (transposed too), and values
/// per lane when the caller's buffer cannot take all sixteen.
#[repr(C, align(64))]
struct Scratch16 {
    message: [[[u32; 16]; 16]; 2],
    finished: [[u32; 16]; 8],
    out: [[u8; 32]; 16],
    /// This step's prefetch offset (`PREFETCH_OFFSET`).
    prefetch: u64,
}

/// Memory of one 32-lane call: the transposed messages of this step
/// (first set, then second) and the next, and each set's finished lanes.
#[repr(C, align(64))]
struct Scratch32 {
    message: [[[u32; 16]; 16]; 4],
    finished: [[[u32; 16]; 8]; 2],
    /// This step's prefetch offset (`PREFETCH_OFFSET`).
    prefetch: u64,
}

/// Qword indices for `vpermi2q` that put two lanes' values side by side
/// in the final transpose; see `OUT_TRANSPOSE`.
#[repr(C, align(64))]
struct OutIndices([u64; 16]);
static OUT_INDICES: OutIndices = OutIndices([0, 1, 8, 9, 2, 3, 10, 11, 4, 5, 12, 13, 6, 7, 14, 15]);

/// Assembler macros of the transposed kernels. Register conventions: rcx
/// is the next step and r10 its byte offset in a lane (`rcx << r14`).
macro_rules! transposed_macros {
    () => {
        r"
        // The block of `lane` of the parameters at `params` for step rcx.
        .macro LANE_POINTER reg, params, lane
            mov \reg, [\params + {base} + 8*(\lane)]
            add \reg, r10
            cmp rcx, [\params + {whole} + 8*(\lane)]
            cmovae \reg, [\params + {pad} + 8*(\lane)]
        .endm

        // Copies lane `lane`'s block for step rcx into column `lane` of the
        // transposed message at `dst`, eight bytes at a time, and asks for
        // the block `PREFETCH_OFFSET` chose (a lane's input is a stream the
        // hardware prefetchers follow poorly among sixteen or thirty-two;
        // a prefetch never faults, wherever it points).
        .macro SCALAR_LANE params, lane, dst
            LANE_POINTER rax, \params, \lane
            mov rdx, [rsi + {prefetch}]
            prefetcht0 [rax + rdx]
            .irp k, 0, 1, 2, 3, 4, 5, 6, 7
                mov rdx, [rax + 8*\k]
                mov [\dst + 128*\k + 4*(\lane)], edx
                shr rdx, 32
                mov [\dst + 128*\k + 64 + 4*(\lane)], edx
            .endr
        .endm

        // Where the prefetches of step rcx point, as an offset from a
        // lane's block: four blocks on; from step 12, when that would be
        // the next lane's chunk (already read), the block rcx - 12 of the
        // chunk this lane takes in the next call over consecutive chunks,
        // `stride` bytes on, so that the next call's first blocks come
        // from the cache too (measured on inputs beyond the caches).
        // Asks for blocks 1-4 of the first `lanes` lanes at `params`, at
        // a call's start: the steps' prefetches run four blocks ahead from
        // step 1, so without these a call over inputs not in the caches
        // waits on each of its first blocks in turn (measured, input
        // flushed before each call: 16 KiB 3705 against the official
        // crate's 3155 ns).
        .macro PREFETCH_START params, lanes
            .set lane, 0
            .rept \lanes
                mov rax, [\params + {base} + 8*lane]
                prefetcht0 [rax + 64]
                prefetcht0 [rax + 128]
                prefetcht0 [rax + 192]
                prefetcht0 [rax + 256]
                .set lane, lane + 1
            .endr
        .endm

        .macro PREFETCH_OFFSET stride
            mov eax, 4*64
            mov edx, \stride - 12*64
            cmp rcx, 12
            cmovae eax, edx
            mov [rsi + {prefetch}], rax
        .endm

        // The first step's transpose, with vector registers zmm16-31 (free
        // before the rounds start). Row `row` of half `half` (words
        // 8*half .. 8*half+7): lane `low` in the low 256 bits, lane `high`
        // in the high ones.
        .macro LOAD_ROW params, row, low, high, half
            LANE_POINTER rax, \params, \low
            LANE_POINTER rdx, \params, \high
            vmovdqu32 ymm\row, [rax + 32*\half]
            vinserti64x4 zmm\row, zmm\row, [rdx + 32*\half], 1
        .endm
        // Rows 16-19 hold lanes 0-3 (low) and 4-7 (high), rows 20-23
        // lanes 8-11 and 12-15. Interleaving words, then pairs of words,
        // leaves in zmm16+j (zmm20+j) word 8*half+j of lanes 0-3 in 128-bit
        // block 0, of lanes 4-7 in block 2, and word 8*half+4+j in blocks
        // 1 and 3 (lanes 8-15 likewise); picking the blocks in order
        // finishes the transpose.
        .macro VECTOR_HALF params, half, dst
            LOAD_ROW \params, 16, 0, 4, \half
            LOAD_ROW \params, 17, 1, 5, \half
            LOAD_ROW \params, 18, 2, 6, \half
            LOAD_ROW \params, 19, 3, 7, \half
            // (With one half of eight lanes, `HALVES` 1, lanes 8-15 are
            // never read: their rows transpose whatever zmm20-23 hold.)
            .if HALVES == 2
                LOAD_ROW \params, 20, 8, 12, \half
                LOAD_ROW \params, 21, 9, 13, \half
                LOAD_ROW \params, 22, 10, 14, \half
                LOAD_ROW \params, 23, 11, 15, \half
            .endif
            vpunpckldq zmm24, zmm16, zmm17
            vpunpckhdq zmm25, zmm16, zmm17
            vpunpckldq zmm26, zmm18, zmm19
            vpunpckhdq zmm27, zmm18, zmm19
            vpunpckldq zmm28, zmm20, zmm21
            vpunpckhdq zmm29, zmm20, zmm21
            vpunpckldq zmm30, zmm22, zmm23
            vpunpckhdq zmm31, zmm22, zmm23
            vpunpcklqdq zmm16, zmm24, zmm26
            vpunpckhqdq zmm17, zmm24, zmm26
            vpunpcklqdq zmm18, zmm25, zmm27
            vpunpckhqdq zmm19, zmm25, zmm27
            vpunpcklqdq zmm20, zmm28, zmm30
            vpunpckhqdq zmm21, zmm28, zmm30
            vpunpcklqdq zmm22, zmm29, zmm31
            vpunpckhqdq zmm23, zmm29, zmm31
            vshufi32x4 zmm24, zmm16, zmm20, 0x88
            vshufi32x4 zmm25, zmm17, zmm21, 0x88
            vshufi32x4 zmm26, zmm18, zmm22, 0x88
            vshufi32x4 zmm27, zmm19, zmm23, 0x88
            vshufi32x4 zmm28, zmm16, zmm20, 0xDD
            vshufi32x4 zmm29, zmm17, zmm21, 0xDD
            vshufi32x4 zmm30, zmm18, zmm22, 0xDD
            vshufi32x4 zmm31, zmm19, zmm23, 0xDD
            vmovdqa32 [\dst + 512*\half + 0], ymm24
            vextracti64x4 [\dst + 512*\half + 32], zmm24, 1
            vmovdqa32 [\dst + 512*\half + 64], ymm25
            vextracti64x4 [\dst + 512*\half + 96], zmm25, 1
            vmovdqa32 [\dst + 512*\half + 128], ymm26
            vextracti64x4 [\dst + 512*\half + 160], zmm26, 1
            vmovdqa32 [\dst + 512*\half + 192], ymm27
            vextracti64x4 [\dst + 512*\half + 224], zmm27, 1
            vmovdqa32 [\dst + 512*\half + 256], ymm28
            vextracti64x4 [\dst + 512*\half + 288], zmm28, 1
            vmovdqa32 [\dst + 512*\half + 320], ymm29
            vextracti64x4 [\dst + 512*\half + 352], zmm29, 1
            vmovdqa32 [\dst + 512*\half + 384], ymm30
            vextracti64x4 [\dst + 512*\half + 416], zmm30, 1
            vmovdqa32 [\dst + 512*\half + 448], ymm31
            vextracti64x4 [\dst + 512*\half + 480], zmm31, 1
        .endm

        // The fourth state row and the IV row of one set for step r13:
        // `w` registers v8-v15 (numbers) for the lanes `lanes` bytes into
        // each parameter vector (0, or 32 for lanes 8-15 in ymm), its lanes
        // ending at this step in mask `k`; r12 the offset of this step's
        // flags in the parameters.
        .macro STEP_ROWS w, params, lanes, v8, v9, v10, v11, v12, v13, v14, v15, k
            vpbroadcastd \w\()\v14, r13d
            vpcmpeqd \k, \w\()\v14, [\params + {last_block} + \lanes]
            vmovdqu32 \w\()\v15, [\params + r12 + \lanes]
            vpord \w\()\v15{{\k}}, \w\()\v15, [\params + {end_flags} + \lanes]
            mov eax, 64
            vpbroadcastd \w\()\v14, eax
            vmovdqu32 \w\()\v14{{\k}}, [\params + {last_len} + \lanes]
            vpbroadcastd \w\()\v8, dword ptr [\params + {key_iv} + 32]
            vpbroadcastd \w\()\v9, dword ptr [\params + {key_iv} + 36]
            vpbroadcastd \w\()\v10, dword ptr [\params + {key_iv} + 40]
            vpbroadcastd \w\()\v11, dword ptr [\params + {key_iv} + 44]
            vmovdqu32 \w\()\v12, [\params + {counter_low} + \lanes]
            vmovdqu32 \w\()\v13, [\params + {counter_high} + \lanes]
        .endm

        // The key in the chaining-value registers v0-v7 (numbers).
        .macro KEY_ROWS w, params, v0, v1, v2, v3, v4, v5, v6, v7
            vpbroadcastd \w\()\v0, dword ptr [\params + {key_iv} + 0]
            vpbroadcastd \w\()\v1, dword ptr [\params + {key_iv} + 4]
            vpbroadcastd \w\()\v2, dword ptr [\params + {key_iv} + 8]
            vpbroadcastd \w\()\v3, dword ptr [\params + {key_iv} + 12]
            vpbroadcastd \w\()\v4, dword ptr [\params + {key_iv} + 16]
            vpbroadcastd \w\()\v5, dword ptr [\params + {key_iv} + 20]
            vpbroadcastd \w\()\v6, dword ptr [\params + {key_iv} + 24]
            vpbroadcastd \w\()\v7, dword ptr [\params + {key_iv} + 28]
        .endm

        "
    };
}

/// Assembler macros of the rounds and the output transpose of the
/// transposed kernels, over register numbers (their only operand is
/// `indices`, `OUT_INDICES`).
macro_rules! lane_math_macros {
    () => {
        r"
        // The same operation on four pairs of register numbers: `dst op=
        // src` (ADD4, XOR_ROTATE4 with a rotation right by `n` after), or
        // a message word at `m` (ADD4_MESSAGE).
        .macro ADD4 w, d0, s0, d1, s1, d2, s2, d3, s3
            vpaddd \w\()\d0, \w\()\d0, \w\()\s0
            vpaddd \w\()\d1, \w\()\d1, \w\()\s1
            vpaddd \w\()\d2, \w\()\d2, \w\()\s2
            vpaddd \w\()\d3, \w\()\d3, \w\()\s3
        .endm
        .macro ADD4_MESSAGE w, m, d0, x0, d1, x1, d2, x2, d3, x3
            vpaddd \w\()\d0, \w\()\d0, [\m + 64*\x0]
            vpaddd \w\()\d1, \w\()\d1, [\m + 64*\x1]
            vpaddd \w\()\d2, \w\()\d2, [\m + 64*\x2]
            vpaddd \w\()\d3, \w\()\d3, [\m + 64*\x3]
        .endm
        .macro XOR_ROTATE4 w, n, d0, s0, d1, s1, d2, s2, d3, s3
            vpxord \w\()\d0, \w\()\d0, \w\()\s0
            vpxord \w\()\d1, \w\()\d1, \w\()\s1
            vpxord \w\()\d2, \w\()\d2, \w\()\s2
            vpxord \w\()\d3, \w\()\d3, \w\()\s3
            vprord \w\()\d0, \w\()\d0, \n
            vprord \w\()\d1, \w\()\d1, \n
            vprord \w\()\d2, \w\()\d2, \n
            vprord \w\()\d3, \w\()\d3, \n
        .endm
        // Half of G on four columns or diagonals (a, b, c, d register
        // numbers): a += m + b, d = (d ^ a) >>> r1, c += d, b = (b ^ c) >>>
        // r2, with message words x (indices into the message at `m`).
        .macro HALF_G4 w, m, r1, r2, a0,b0,c0,d0, a1,b1,c1,d1, a2,b2,c2,d2, a3,b3,c3,d3, x0,x1,x2,x3
            ADD4_MESSAGE \w, \m, \a0, \x0, \a1, \x1, \a2, \x2, \a3, \x3
            ADD4 \w, \a0, \b0, \a1, \b1, \a2, \b2, \a3, \b3
            XOR_ROTATE4 \w, \r1, \d0, \a0, \d1, \a1, \d2, \a2, \d3, \a3
            ADD4 \w, \c0, \d0, \c1, \d1, \c2, \d2, \c3, \d3
            XOR_ROTATE4 \w, \r2, \b0, \c0, \b1, \c1, \b2, \c2, \b3, \c3
        .endm
        // G on four columns or diagonals, message words x then y.
        .macro G4 w, m, a0,b0,c0,d0, a1,b1,c1,d1, a2,b2,c2,d2, a3,b3,c3,d3, x0,x1,x2,x3, y0,y1,y2,y3
            HALF_G4 \w, \m, 16, 12, \a0,\b0,\c0,\d0, \a1,\b1,\c1,\d1, \a2,\b2,\c2,\d2, \a3,\b3,\c3,\d3, \x0,\x1,\x2,\x3
            HALF_G4 \w, \m, 8, 7, \a0,\b0,\c0,\d0, \a1,\b1,\c1,\d1, \a2,\b2,\c2,\d2, \a3,\b3,\c3,\d3, \y0,\y1,\y2,\y3
        .endm
        // The columns and the diagonals of one set: `w` registers (zmm or
        // ymm) from number `o` (0 or 16), message at `m`.
        .macro COLUMNS w, m, o, x0, x1, x2, x3, y0, y1, y2, y3
            .if \o == 0
                G4 \w, \m, 0,4,8,12, 1,5,9,13, 2,6,10,14, 3,7,11,15, \x0,\x1,\x2,\x3, \y0,\y1,\y2,\y3
            .else
                G4 \w, \m, 16,20,24,28, 17,21,25,29, 18,22,26,30, 19,23,27,31, \x0,\x1,\x2,\x3, \y0,\y1,\y2,\y3
            .endif
        .endm
        .macro DIAGONALS w, m, o, x0, x1, x2, x3, y0, y1, y2, y3
            .if \o == 0
                G4 \w, \m, 0,5,10,15, 1,6,11,12, 2,7,8,13, 3,4,9,14, \x0,\x1,\x2,\x3, \y0,\y1,\y2,\y3
            .else
                G4 \w, \m, 16,21,26,31, 17,22,27,28, 18,23,24,29, 19,20,25,30, \x0,\x1,\x2,\x3, \y0,\y1,\y2,\y3
            .endif
        .endm

        // Writes the values of the first `lanes` (8 or 16) lanes (zmm0-7,
        // word i of every lane in zmm i) to 32 bytes each at `dst`, with
        // zmm16-31:
        // interleaving words, then pairs, leaves in 128-bit block k of
        // zmm24+j words 0-3 of lane 4k+j, and of zmm28+j its words 4-7; a
        // two-source permute then puts lanes j and 4+j (8+j and 12+j) side
        // by side.
        .macro PAIR_OUT dst, j, low, high, lanes
            vmovdqa64 zmm16, [rip + {indices}]
            vpermi2q zmm16, zmm\low, zmm\high
            vmovdqu64 [\dst + 32*\j], ymm16
            vextracti64x4 [\dst + 32*(\j+4)], zmm16, 1
            .if \lanes == 16
                vmovdqa64 zmm17, [rip + {indices} + 64]
                vpermi2q zmm17, zmm\low, zmm\high
                vmovdqu64 [\dst + 32*(\j+8)], ymm17
                vextracti64x4 [\dst + 32*(\j+12)], zmm17, 1
            .endif
        .endm
        .macro OUT_TRANSPOSE dst, lanes
            vpunpckldq zmm16, zmm0, zmm1
            vpunpckhdq zmm17, zmm0, zmm1
            vpunpckldq zmm18, zmm2, zmm3
            vpunpckhdq zmm19, zmm2, zmm3
            vpunpckldq zmm20, zmm4, zmm5
            vpunpckhdq zmm21, zmm4, zmm5
            vpunpckldq zmm22, zmm6, zmm7
            vpunpckhdq zmm23, zmm6, zmm7
            vpunpcklqdq zmm24, zmm16, zmm18
            vpunpckhqdq zmm25, zmm16, zmm18
            vpunpcklqdq zmm26, zmm17, zmm19
            vpunpckhqdq zmm27, zmm17, zmm19
            vpunpcklqdq zmm28, zmm20, zmm22
            vpunpckhqdq zmm29, zmm20, zmm22
            vpunpcklqdq zmm30, zmm21, zmm23
            vpunpckhqdq zmm31, zmm21, zmm23
            PAIR_OUT \dst, 0, 24, 28, \lanes
            PAIR_OUT \dst, 1, 25, 29, \lanes
            PAIR_OUT \dst, 2, 26, 30, \lanes
            PAIR_OUT \dst, 3, 27, 31, \lanes
        .endm

        // The message schedule: round r reads word PERMUTATION^r(i) where
        // round 0 reads i (spec section 2.2); ROUND_r passes its words.
        .macro SCHEDULE round, s0,s1,s2,s3,s4,s5,s6,s7,s8,s9,s10,s11,s12,s13,s14,s15
            \round \s0,\s2,\s4,\s6, \s1,\s3,\s5,\s7, \s8,\s10,\s12,\s14, \s9,\s11,\s13,\s15
        .endm
        .macro SEVEN_ROUNDS round
            SCHEDULE \round, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15
            SCHEDULE \round, 2,6,3,10,7,0,4,13,1,11,12,5,9,14,15,8
            SCHEDULE \round, 3,4,10,12,13,2,7,14,6,5,9,0,11,15,8,1
            SCHEDULE \round, 10,7,12,9,14,3,13,15,4,0,11,2,5,8,1,6
            SCHEDULE \round, 12,13,9,11,15,10,14,8,7,2,5,3,0,1,6,4
            SCHEDULE \round, 9,14,11,5,8,12,15,1,13,3,0,10,2,6,4,7
            SCHEDULE \round, 11,15,5,0,1,9,8,6,14,10,2,12,3,4,7,13
        .endm
        "
    };
}

/// Purges what `transposed_macros!` defines.
macro_rules! purge_transposed_macros {
    () => {
        r"
        .purgem LANE_POINTER
        .purgem SCALAR_LANE
        .purgem PREFETCH_START
        .purgem PREFETCH_OFFSET
        .purgem LOAD_ROW
        .purgem VECTOR_HALF
        .purgem STEP_ROWS
        .purgem KEY_ROWS
        "
    };
}

/// Purges what `lane_math_macros!` defines.
macro_rules! purge_lane_math_macros {
    () => {
        r"
        .purgem ADD4
        .purgem ADD4_MESSAGE
        .purgem XOR_ROTATE4
        .purgem HALF_G4
        .purgem G4
        .purgem COLUMNS
        .purgem DIAGONALS
        .purgem PAIR_OUT
        .purgem OUT_TRANSPOSE
        .purgem SCHEDULE
        .purgem SEVEN_ROUNDS
        "
    };
}

/// Emits `run16` and `run8`: a call over `$lanes` lanes, sixteen in
/// zmm0-15 or eight in ymm0-15, chains of blocks (see [`LaneParams`]).
macro_rules! run_lanes {
    ($name:ident, $lanes:literal) => {
/// Runs a call of `$lanes` lanes (see `run_lanes!`).
///
/// # Safety
///
/// AVX-512F + VL + BMI2. The block pointers of `params` name 64 readable
/// bytes at every step up to and including `steps` (`asm_lanes`), and
/// `params.out` is writable for 32 bytes a lane.
#[target_feature(enable = "avx512f,avx512vl,avx2,bmi2")]
unsafe fn $name(params: &LaneParams, scratch: &mut MaybeUninit<Scratch16>) {
    // SAFETY: forwarded from the caller. The block writes `params.out` and
    // `scratch` only, reads `params`, `scratch`, the blocks and
    // `OUT_INDICES`, and declares every register it changes.
    unsafe {
        asm_all_vectors!(zmm:
            transposed_macros!(),
            lane_math_macros!(),
            // Registers: one compression of all lanes in zmm0-15 (sixteen)
            // or ymm0-15 (eight). Sixteen lanes as two interleaved sets of
            // eight in ymm0-15 and ymm16-31 issue twice the instructions
            // for the same work: faster alone on Zen 4 once (444 against
            // 466 cycles a step), but slower in this kernel as it is now
            // (16 KiB 2664-2694 against 2554-2634 ns a call), and 1.4x
            // slower whenever the core's other hardware thread is busy and
            // the front end feeds each thread half the time (BENCHMARKS.md,
            // the contention section). Tried and dropped: the message in
            // zmm16-31, transposed with vector shuffles at each step's
            // start (16 KiB 2765-2834 ns: the transpose is not overlapped).
            // rdi the parameters, rsi the scratch memory, r8 this step's
            // message (word i of every lane at 64*i), r9 the next step's,
            // r13 the step, r11 the step count, r15 where values go, rax
            // and rdx scalar scratch, k1 the lanes whose last block this
            // step is. The next step's blocks are copied one lane at a
            // time, spread over the step.
            r"
            .set LANES, {lanes}
            // After G step `g_steps` (of 14), copy lanes so that all are
            // done by 90% of the step: copies packed closer together fill
            // the store queue behind the rounds (measured: 523 cycles a
            // step with all of them in the first 60%).
            .macro NEXT_LANE
                .set g_steps, g_steps + 1
                .rept 2
                    .if lanes_copied < LANES && lanes_copied * 25 < g_steps * 2 * LANES
                        SCALAR_LANE rdi, lanes_copied, r9
                        .set lanes_copied, lanes_copied + 1
                    .endif
                .endr
            .endm
            .macro ROUND x0,x1,x2,x3, y0,y1,y2,y3, z0,z1,z2,z3, w0,w1,w2,w3
                .if LANES == 16
                    COLUMNS zmm, r8, 0, \x0,\x1,\x2,\x3, \y0,\y1,\y2,\y3
                    NEXT_LANE
                    DIAGONALS zmm, r8, 0, \z0,\z1,\z2,\z3, \w0,\w1,\w2,\w3
                .else
                    COLUMNS ymm, r8, 0, \x0,\x1,\x2,\x3, \y0,\y1,\y2,\y3
                    NEXT_LANE
                    DIAGONALS ymm, r8, 0, \z0,\z1,\z2,\z3, \w0,\w1,\w2,\w3
                .endif
                NEXT_LANE
            .endm
            // One step: the rounds, the chaining values and the finished
            // lanes, on `w` registers (zmm or ymm).
            .macro STEP w
                STEP_ROWS \w, rdi, 0, 8, 9, 10, 11, 12, 13, 14, 15, k1
                .set lanes_copied, 0
                .set g_steps, 0
                SEVEN_ROUNDS ROUND
                vpxord \w\()0, \w\()0, \w\()8
                vpxord \w\()1, \w\()1, \w\()9
                vpxord \w\()2, \w\()2, \w\()10
                vpxord \w\()3, \w\()3, \w\()11
                vpxord \w\()4, \w\()4, \w\()12
                vpxord \w\()5, \w\()5, \w\()13
                vpxord \w\()6, \w\()6, \w\()14
                vpxord \w\()7, \w\()7, \w\()15
                inc r13
                cmp r13, r11
                jae 8f
                // Lanes whose job ends here, before the call's last step.
                kortestw k1, k1
                jz 4f
                .irp i, 0, 1, 2, 3, 4, 5, 6, 7
                    vmovdqa32 [rsi + {finished} + 64*\i]{{k1}}, \w\()\i
                .endr
                4:
            .endm

            // Step 0's blocks, transposed with vector registers.
            xor ecx, ecx
            xor r10d, r10d
            mov r14d, 6
            mov r8, rsi
            lea r9, [rsi + 1024]
            .set HALVES, LANES / 8
            VECTOR_HALF rdi, 0, r8
            VECTOR_HALF rdi, 1, r8
            PREFETCH_START rdi, LANES
            .if LANES == 16
                KEY_ROWS zmm, rdi, 0, 1, 2, 3, 4, 5, 6, 7
            .else
                KEY_ROWS ymm, rdi, 0, 1, 2, 3, 4, 5, 6, 7
            .endif
            mov r12, {first_flags}
            mov r11, [rdi + {steps}]
            xor r13d, r13d

            2:
            lea rcx, [r13 + 1]
            shlx r10, rcx, r14
            PREFETCH_OFFSET 1024*LANES
            .if LANES == 16
                STEP zmm
            .else
                STEP ymm
            .endif
            mov r12, {flags}
            xchg r8, r9
            jmp 2b

            // The end of chains: the lanes that ended before the last step
            // come from memory, the others are in the registers.
            8:
            knotw k2, k1
            vmovdqa32 zmm0{{k2}}, [rsi + {finished} + 0]
            vmovdqa32 zmm1{{k2}}, [rsi + {finished} + 64]
            vmovdqa32 zmm2{{k2}}, [rsi + {finished} + 128]
            vmovdqa32 zmm3{{k2}}, [rsi + {finished} + 192]
            vmovdqa32 zmm4{{k2}}, [rsi + {finished} + 256]
            vmovdqa32 zmm5{{k2}}, [rsi + {finished} + 320]
            vmovdqa32 zmm6{{k2}}, [rsi + {finished} + 384]
            vmovdqa32 zmm7{{k2}}, [rsi + {finished} + 448]
            mov r15, [rdi + {out}]
            OUT_TRANSPOSE r15, LANES
            vzeroupper
            .purgem NEXT_LANE
            .purgem ROUND
            .purgem STEP
            ",
            purge_transposed_macros!(),
            purge_lane_math_macros!(),
            lanes = const $lanes,
            base = const offset_of!(LaneParams, base),
            whole = const offset_of!(LaneParams, whole),
            pad = const offset_of!(LaneParams, pad),
            key_iv = const offset_of!(LaneParams, key_iv),
            first_flags = const offset_of!(LaneParams, first_flags),
            flags = const offset_of!(LaneParams, flags),
            end_flags = const offset_of!(LaneParams, end_flags),
            last_block = const offset_of!(LaneParams, last_block),
            last_len = const offset_of!(LaneParams, last_len),
            counter_low = const offset_of!(LaneParams, counter_low),
            counter_high = const offset_of!(LaneParams, counter_high),
            steps = const offset_of!(LaneParams, steps),
            out = const offset_of!(LaneParams, out),
            finished = const offset_of!(Scratch16, finished),
            prefetch = const offset_of!(Scratch16, prefetch),
            indices = sym OUT_INDICES,
            in("rdi") params,
            in("rsi") scratch.as_mut_ptr(),
            out("rax") _, out("rcx") _, out("rdx") _,
            out("r8") _, out("r9") _, out("r10") _, out("r11") _,
            out("r12") _, out("r13") _, out("r14") _, out("r15") _,
            out("k1") _, out("k2") _,
        );
    }
}
    };
}
run_lanes!(run16, 16);
run_lanes!(run8, 8);

/// Runs a 32-lane call: two sets of sixteen chains, `first` in zmm0-15
/// and `second` in zmm16-31, interleaved half-round by half-round. Both
/// have the same `steps` and `stride_shift` (chains only).
///
/// # Safety
///
/// As [`run16`], for both parameter sets, and `first.steps ==
/// second.steps`.
#[target_feature(enable = "avx512f,avx512vl,avx2,bmi2")]
unsafe fn run32(first: &LaneParams, second: &LaneParams, scratch: &mut MaybeUninit<Scratch32>) {
    // SAFETY: forwarded from the caller. The block writes both `out`s and
    // `scratch` only, reads the parameters, `scratch`, the blocks and
    // `OUT_INDICES`, and declares every register it changes.
    unsafe {
        asm_all_vectors!(zmm:
            transposed_macros!(),
            lane_math_macros!(),
            // Registers: zmm0-15 the first set's state, zmm16-31 the
            // second's; rdi and r15 their parameters, rsi the scratch
            // memory, r8 this step's
            // message (the second set's at r8 + 1024), r9 the next step's,
            // r13 the step, r11 the step count, rax and rdx scalar
            // scratch, k1 and k3 the lanes of each set whose last block
            // this step is. The next step's blocks are copied spread over the step.
            r"
            // After G step `g_steps` (of 28), copy lanes so that all 32 are
            // done by the 25th (see `run16`).
            .macro NEXT_LANES
                .set g_steps, g_steps + 1
                .rept 3
                    .if lanes_copied < 32 && lanes_copied * 25 < g_steps * 32
                        .if lanes_copied < 16
                            SCALAR_LANE rdi, lanes_copied, r9
                        .else
                            SCALAR_LANE r15, lanes_copied-16, r9+1024
                        .endif
                        .set lanes_copied, lanes_copied + 1
                    .endif
                .endr
            .endm
            .macro ROUND x0,x1,x2,x3, y0,y1,y2,y3, z0,z1,z2,z3, w0,w1,w2,w3
                COLUMNS zmm, r8, 0, \x0,\x1,\x2,\x3, \y0,\y1,\y2,\y3
                NEXT_LANES
                COLUMNS zmm, r8+1024, 16, \x0,\x1,\x2,\x3, \y0,\y1,\y2,\y3
                NEXT_LANES
                DIAGONALS zmm, r8, 0, \z0,\z1,\z2,\z3, \w0,\w1,\w2,\w3
                NEXT_LANES
                DIAGONALS zmm, r8+1024, 16, \z0,\z1,\z2,\z3, \w0,\w1,\w2,\w3
                NEXT_LANES
            .endm

            // Step 0's blocks, transposed with vector registers.
            xor ecx, ecx
            xor r10d, r10d
            mov r14d, 6
            mov r8, rsi
            lea r9, [rsi + 2048]
            .set HALVES, 2
            VECTOR_HALF rdi, 0, r8
            VECTOR_HALF rdi, 1, r8
            VECTOR_HALF r15, 0, r8+1024
            VECTOR_HALF r15, 1, r8+1024
            PREFETCH_START rdi, 16
            PREFETCH_START r15, 16
            KEY_ROWS zmm, rdi, 0, 1, 2, 3, 4, 5, 6, 7
            KEY_ROWS zmm, r15, 16, 17, 18, 19, 20, 21, 22, 23
            mov r12, {first_flags}
            mov r11, [rdi + {steps}]
            xor r13d, r13d

            2:
            lea rcx, [r13 + 1]
            shlx r10, rcx, r14
            PREFETCH_OFFSET 32*1024
            STEP_ROWS zmm, rdi, 0, 8, 9, 10, 11, 12, 13, 14, 15, k1
            STEP_ROWS zmm, r15, 0, 24, 25, 26, 27, 28, 29, 30, 31, k3
            .set lanes_copied, 0
            .set g_steps, 0
            SEVEN_ROUNDS ROUND
            vpxord zmm0, zmm0, zmm8
            vpxord zmm1, zmm1, zmm9
            vpxord zmm2, zmm2, zmm10
            vpxord zmm3, zmm3, zmm11
            vpxord zmm4, zmm4, zmm12
            vpxord zmm5, zmm5, zmm13
            vpxord zmm6, zmm6, zmm14
            vpxord zmm7, zmm7, zmm15
            vpxord zmm16, zmm16, zmm24
            vpxord zmm17, zmm17, zmm25
            vpxord zmm18, zmm18, zmm26
            vpxord zmm19, zmm19, zmm27
            vpxord zmm20, zmm20, zmm28
            vpxord zmm21, zmm21, zmm29
            vpxord zmm22, zmm22, zmm30
            vpxord zmm23, zmm23, zmm31
            inc r13
            cmp r13, r11
            jae 8f
            kortestw k1, k1
            jz 4f
            vmovdqa32 [rsi + {finished} + 0]{{k1}}, zmm0
            vmovdqa32 [rsi + {finished} + 64]{{k1}}, zmm1
            vmovdqa32 [rsi + {finished} + 128]{{k1}}, zmm2
            vmovdqa32 [rsi + {finished} + 192]{{k1}}, zmm3
            vmovdqa32 [rsi + {finished} + 256]{{k1}}, zmm4
            vmovdqa32 [rsi + {finished} + 320]{{k1}}, zmm5
            vmovdqa32 [rsi + {finished} + 384]{{k1}}, zmm6
            vmovdqa32 [rsi + {finished} + 448]{{k1}}, zmm7
            4:
            kortestw k3, k3
            jz 5f
            vmovdqa32 [rsi + {finished} + 512 + 0]{{k3}}, zmm16
            vmovdqa32 [rsi + {finished} + 512 + 64]{{k3}}, zmm17
            vmovdqa32 [rsi + {finished} + 512 + 128]{{k3}}, zmm18
            vmovdqa32 [rsi + {finished} + 512 + 192]{{k3}}, zmm19
            vmovdqa32 [rsi + {finished} + 512 + 256]{{k3}}, zmm20
            vmovdqa32 [rsi + {finished} + 512 + 320]{{k3}}, zmm21
            vmovdqa32 [rsi + {finished} + 512 + 384]{{k3}}, zmm22
            vmovdqa32 [rsi + {finished} + 512 + 448]{{k3}}, zmm23
            5:
            mov r12, {flags}
            xchg r8, r9
            jmp 2b

            // The end: the second set's values join its finished lanes in
            // memory while zmm16-31 serve the first set's transpose.
            8:
            vmovdqa32 [rsi + {finished} + 512 + 0]{{k3}}, zmm16
            vmovdqa32 [rsi + {finished} + 512 + 64]{{k3}}, zmm17
            vmovdqa32 [rsi + {finished} + 512 + 128]{{k3}}, zmm18
            vmovdqa32 [rsi + {finished} + 512 + 192]{{k3}}, zmm19
            vmovdqa32 [rsi + {finished} + 512 + 256]{{k3}}, zmm20
            vmovdqa32 [rsi + {finished} + 512 + 320]{{k3}}, zmm21
            vmovdqa32 [rsi + {finished} + 512 + 384]{{k3}}, zmm22
            vmovdqa32 [rsi + {finished} + 512 + 448]{{k3}}, zmm23
            knotw k2, k1
            vmovdqa32 zmm0{{k2}}, [rsi + {finished} + 0]
            vmovdqa32 zmm1{{k2}}, [rsi + {finished} + 64]
            vmovdqa32 zmm2{{k2}}, [rsi + {finished} + 128]
            vmovdqa32 zmm3{{k2}}, [rsi + {finished} + 192]
            vmovdqa32 zmm4{{k2}}, [rsi + {finished} + 256]
            vmovdqa32 zmm5{{k2}}, [rsi + {finished} + 320]
            vmovdqa32 zmm6{{k2}}, [rsi + {finished} + 384]
            vmovdqa32 zmm7{{k2}}, [rsi + {finished} + 448]
            mov rax, [rdi + {out}]
            OUT_TRANSPOSE rax, 16
            vmovdqa32 zmm0, [rsi + {finished} + 512 + 0]
            vmovdqa32 zmm1, [rsi + {finished} + 512 + 64]
            vmovdqa32 zmm2, [rsi + {finished} + 512 + 128]
            vmovdqa32 zmm3, [rsi + {finished} + 512 + 192]
            vmovdqa32 zmm4, [rsi + {finished} + 512 + 256]
            vmovdqa32 zmm5, [rsi + {finished} + 512 + 320]
            vmovdqa32 zmm6, [rsi + {finished} + 512 + 384]
            vmovdqa32 zmm7, [rsi + {finished} + 512 + 448]
            mov rax, [r15 + {out}]
            OUT_TRANSPOSE rax, 16
            vzeroupper
            .purgem NEXT_LANES
            .purgem ROUND
            ",
            purge_transposed_macros!(),
            purge_lane_math_macros!(),
            base = const offset_of!(LaneParams, base),
            whole = const offset_of!(LaneParams, whole),
            pad = const offset_of!(LaneParams, pad),
            key_iv = const offset_of!(LaneParams, key_iv),
            first_flags = const offset_of!(LaneParams, first_flags),
            flags = const offset_of!(LaneParams, flags),
            end_flags = const offset_of!(LaneParams, end_flags),
            last_block = const offset_of!(LaneParams, last_block),
            last_len = const offset_of!(LaneParams, last_len),
            counter_low = const offset_of!(LaneParams, counter_low),
            counter_high = const offset_of!(LaneParams, counter_high),
            steps = const offset_of!(LaneParams, steps),
            out = const offset_of!(LaneParams, out),
            finished = const offset_of!(Scratch32, finished),
            prefetch = const offset_of!(Scratch32, prefetch),
            indices = sym OUT_INDICES,
            in("rdi") first,
            in("r15") second,
            in("rsi") scratch.as_mut_ptr(),
            out("rax") _, out("rcx") _, out("rdx") _,
            out("r8") _, out("r9") _, out("r10") _, out("r11") _,
            out("r12") _, out("r13") _, out("r14") _,
            out("k1") _, out("k2") _, out("k3") _,
        );
    }
}

super::asm_lanes::transposed_entry_points!(
    8,
    "avx512f,avx512vl,avx2,bmi2",
    "The CPU must support AVX-512F, AVX-512VL and BMI2.",
    run8,
    Scratch16,
    hash_lanes8
);
super::asm_lanes::transposed_entry_points!(
    16,
    "avx512f,avx512vl,avx2,bmi2",
    "The CPU must support AVX-512F, AVX-512VL and BMI2.",
    run16,
    Scratch16,
    hash_lanes16
);

/// Hashes the whole chunks of `input` as `Platform::hash_chunks` does,
/// thirty-two, sixteen or eight per call, into `out`; returns how many it hashed:
/// as many as fill whole calls.
///
/// # Safety
///
/// The CPU must support AVX-512F, AVX-512VL and BMI2.
#[target_feature(enable = "avx512f,avx512vl,avx2,bmi2")]
pub(super) unsafe fn hash_whole_chunks(
    key: &CvWords,
    input: &[u8],
    first_counter: u64,
    chunk_flags: [u8; 3],
    out: &mut [CvBytes],
) -> usize {
    let mut done = 0;
    let whole = input.len() / CHUNK_LEN;
    let mut scratch = MaybeUninit::<Scratch32>::uninit();
    while whole - done >= 32 {
        let (first, second) = out[done..done + 32].split_at_mut(16);
        let first_input = &input[done * CHUNK_LEN..(done + 16) * CHUNK_LEN];
        let second_input = &input[(done + 16) * CHUNK_LEN..(done + 32) * CHUNK_LEN];
        let counter = first_counter.wrapping_add(done as u64);
        let first = LaneParams::chunks(key, first_input, counter, chunk_flags, 16, first.as_mut_ptr().cast());
        let second = LaneParams::chunks(
            key,
            second_input,
            counter.wrapping_add(16),
            chunk_flags,
            16,
            second.as_mut_ptr().cast(),
        );
        // SAFETY: the CPU features are the caller's contract; both
        // parameter sets come from `LaneParams::chunks` over sixteen whole
        // chunks (the same steps), and write sixteen values each to their
        // halves of `out[done..done + 32]`.
        unsafe { run32(&first, &second, &mut scratch) };
        done += 32;
    }
    for lanes in [16, 8] {
        if whole - done >= lanes {
            let destination = out[done..done + lanes].as_mut_ptr().cast();
            let chunks = &input[done * CHUNK_LEN..(done + lanes) * CHUNK_LEN];
            let counter = first_counter.wrapping_add(done as u64);
            let params = LaneParams::chunks(key, chunks, counter, chunk_flags, lanes, destination);
            let mut scratch = MaybeUninit::<Scratch16>::uninit();
            // SAFETY: the CPU features are the caller's contract; `params`
            // comes from `LaneParams::chunks` and writes `lanes` values to
            // `out[done..done + lanes]`.
            unsafe {
                if lanes == 16 {
                    run16(&params, &mut scratch)
                } else {
                    run8(&params, &mut scratch)
                }
            };
            done += lanes;
        }
    }
    done
}

/// Index vectors for `vpermi2d` and blend masks that turn one round's
/// message words into the next round's, in the row form; see
/// `RoundWords::next` in `avx512.rs`, which derives them from the spec's
/// permutation. Indices 0-3 pick from the first source, 4-7 from the
/// second; the 256-bit forms repeat the pattern for a second chain in the
/// high 128 bits (+4 and +8 into the two 8-word sources).
#[repr(C, align(64))]
struct RowConstants {
    wide: [[u32; 8]; 5],
    narrow: [[u32; 4]; 5],
    iv: [u32; 4],
}

const fn widen(pattern: [u32; 4]) -> [u32; 8] {
    let mut out = [0; 8];
    let mut i = 0;
    while i < 4 {
        let p = pattern[i];
        out[i] = if p < 4 { p } else { p + 4 };
        out[4 + i] = if p < 4 { p + 4 } else { p + 8 };
        i += 1;
    }
    out
}

/// next column_x; column_y before the blend; diagonal_x's first source;
/// next diagonal_x; diagonal_y before the blend.
const NEXT_WORDS: [[u32; 4]; 5] = [[1, 5, 7, 2], [3, 6, 0, 0], [0, 4, 0, 1], [0, 1, 7, 3], [1, 6, 0, 0]];

static ROW_CONSTANTS: RowConstants = RowConstants {
    wide: [
        widen(NEXT_WORDS[0]),
        widen(NEXT_WORDS[1]),
        widen(NEXT_WORDS[2]),
        widen(NEXT_WORDS[3]),
        widen(NEXT_WORDS[4]),
    ],
    narrow: NEXT_WORDS,
    iv: [IV[0], IV[1], IV[2], IV[3]],
};

/// Assembler macros of the row form: the state as four row vectors
/// a, b, c, d (spec section 2.2's v0-3, v4-7, v8-11, v12-15), one 128-bit
/// lane per chain; the message as the four vectors each half-round adds.
///
/// `XOR_ROR_SPLIT` computes `dst = (dst ^ src) >>> n` as
/// `(dst >>> n) ^ (src >> n) ^ (src << (32 - n))`: `dst` is ready long
/// before `src` in every G step, so its rotation runs early and `src` goes
/// through a shift and a three-way XOR (1 + 1 cycles on Zen 4) instead of
/// an XOR and a rotation (1 + 2). It costs two instructions more, which the
/// chains with one or two lanes have room for (measured: 194 against 210
/// cycles a block).
macro_rules! row_macros {
    () => {
        r"
        .macro XOR_ROR dst, src, n
            vpxord \dst, \dst, \src
            vprord \dst, \dst, \n
        .endm
        .macro XOR_ROR_SPLIT dst, src, n, t1, t2
            vprord \dst, \dst, \n
            vpsrld \t1, \src, \n
            vpslld \t2, \src, 32-\n
            vpternlogd \dst, \t1, \t2, 0x96
        .endm
        // G on the four columns (or diagonals) of one set of rows, with the
        // split rotations; t1, t2 are scratch.
        .macro G_SPLIT a, b, c, d, mx, my, t1, t2
            vpaddd \a, \a, \mx
            vpaddd \a, \a, \b
            XOR_ROR_SPLIT \d, \a, 16, \t1, \t2
            vpaddd \c, \c, \d
            XOR_ROR_SPLIT \b, \c, 12, \t1, \t2
            vpaddd \a, \a, \my
            vpaddd \a, \a, \b
            XOR_ROR_SPLIT \d, \a, 8, \t1, \t2
            vpaddd \c, \c, \d
            XOR_ROR_SPLIT \b, \c, 7, \t1, \t2
        .endm
        // G on the four columns (or diagonals) of one set of rows.
        .macro G_PLAIN a, b, c, d, mx, my
            vpaddd \a, \a, \mx
            vpaddd \a, \a, \b
            XOR_ROR \d, \a, 16
            vpaddd \c, \c, \d
            XOR_ROR \b, \c, 12
            vpaddd \a, \a, \my
            vpaddd \a, \a, \b
            XOR_ROR \d, \a, 8
            vpaddd \c, \c, \d
            XOR_ROR \b, \c, 7
        .endm
        // G on two independent sets of rows, instruction by instruction.
        .macro G_TWO a1, b1, c1, d1, mx1, my1, a2, b2, c2, d2, mx2, my2
            vpaddd \a1, \a1, \mx1
            vpaddd \a2, \a2, \mx2
            vpaddd \a1, \a1, \b1
            vpaddd \a2, \a2, \b2
            vpxord \d1, \d1, \a1
            vpxord \d2, \d2, \a2
            vprord \d1, \d1, 16
            vprord \d2, \d2, 16
            vpaddd \c1, \c1, \d1
            vpaddd \c2, \c2, \d2
            vpxord \b1, \b1, \c1
            vpxord \b2, \b2, \c2
            vprord \b1, \b1, 12
            vprord \b2, \b2, 12
            vpaddd \a1, \a1, \my1
            vpaddd \a2, \a2, \my2
            vpaddd \a1, \a1, \b1
            vpaddd \a2, \a2, \b2
            vpxord \d1, \d1, \a1
            vpxord \d2, \d2, \a2
            vprord \d1, \d1, 8
            vprord \d2, \d2, 8
            vpaddd \c1, \c1, \d1
            vpaddd \c2, \c2, \d2
            vpxord \b1, \b1, \c1
            vpxord \b2, \b2, \c2
            vprord \b1, \b1, 7
            vprord \b2, \b2, 7
        .endm
        // Rotate rows a, c, d so that lane j of the columns step computes
        // the diagonal through b's word j (b stays: it is finished last).
        .macro DIAGONALIZE a, c, d
            vpshufd \a, \a, 0x93
            vpshufd \c, \c, 0x39
            vpshufd \d, \d, 0x4E
        .endm
        .macro UNDIAGONALIZE a, c, d
            vpshufd \a, \a, 0x39
            vpshufd \c, \c, 0x93
            vpshufd \d, \d, 0x4E
        .endm
        // Round 0's message vectors from four 16-byte quarters q0-q3 of a
        // block (per lane): column x = words 0 2 4 6, column y = 1 3 5 7,
        // diagonal x = 14 8 10 12, diagonal y = 15 9 11 13.
        .macro FIRST_WORDS q0, q1, q2, q3, cx, cy, dx, dy
            vshufps \cx, \q0, \q1, 0x88
            vshufps \cy, \q0, \q1, 0xDD
            vshufps \dx, \q2, \q3, 0x88
            vpshufd \dx, \dx, 0x93
            vshufps \dy, \q2, \q3, 0xDD
            vpshufd \dy, \dy, 0x93
        .endm
        // The next round's message vectors (k2 = 0b1000, k3 = 0b0100 in
        // every lane; `table` the index vectors of this width).
        .macro NEXT_WORDS cx, cy, dx, dy, ncx, ncy, ndx, ndy, t1, t2, t3, table, width
            vmovdqa32 \ncx, [\table + 0*\width]
            vpermi2d \ncx, \cx, \cy
            vmovdqa32 \t1, [\table + 1*\width]
            vpermi2d \t1, \cx, \dx
            vpblendmd \ncy{{k2}}, \t1, \dy
            vmovdqa32 \t2, [\table + 2*\width]
            vpermi2d \t2, \dy, \cy
            vmovdqa32 \ndx, [\table + 3*\width]
            vpermi2d \ndx, \t2, \dx
            vmovdqa32 \t3, [\table + 4*\width]
            vpermi2d \t3, \dx, \dy
            vpblendmd \ndy{{k3}}, \t3, \cy
        .endm
        "
    };
}

/// Purges what `row_macros!` defines.
macro_rules! purge_row_macros {
    () => {
        r"
        .purgem XOR_ROR
        .purgem XOR_ROR_SPLIT
        .purgem G_SPLIT
        .purgem G_PLAIN
        .purgem G_TWO
        .purgem DIAGONALIZE
        .purgem UNDIAGONALIZE
        .purgem FIRST_WORDS
        .purgem NEXT_WORDS
        "
    };
}

/// `LANE_POINTER` for a [`RowParams`] call: chain `chain`'s block at step
/// rcx (byte offset r10) into `reg`.
macro_rules! row_pointer_macro {
    () => {
        r"
        .macro LANE_POINTER reg, chain
            mov \reg, [rdi + {base} + 8*\chain]
            add \reg, r10
            cmp rcx, [rdi + {whole} + 8*\chain]
            cmovae \reg, [rdi + {pad} + 8*\chain]
            // The block four steps on (the first four: see
            // `prefetch_first_blocks`).
            prefetcht0 [\reg + 4*64]
        .endm
        // Round 0's words of two chains (low and high 128 bits) from their
        // blocks at p0 and p1, through quarters q0-q3 (register numbers).
        .macro LOAD_PAIR p0, p1, q0, q1, q2, q3, cx, cy, dx, dy
            vmovdqu32 xmm\q0, [\p0]
            vinserti32x4 ymm\q0, ymm\q0, [\p1], 1
            vmovdqu32 xmm\q1, [\p0 + 16]
            vinserti32x4 ymm\q1, ymm\q1, [\p1 + 16], 1
            vmovdqu32 xmm\q2, [\p0 + 32]
            vinserti32x4 ymm\q2, ymm\q2, [\p1 + 32], 1
            vmovdqu32 xmm\q3, [\p0 + 48]
            vinserti32x4 ymm\q3, ymm\q3, [\p1 + 48], 1
            FIRST_WORDS ymm\q0, ymm\q1, ymm\q2, ymm\q3, ymm\cx, ymm\cy, ymm\dx, ymm\dy
        .endm
        // The fourth rows of pair `pair` for its blocks `field` (an offset
        // into the parameters): counter and length + flags of each chain,
        // from 8-byte loads, to the scratch memory at `dst`.
        .macro ROW_PAIR field, pair, dst
            vmovq xmm2, [rdi + {counter} + 16*\pair]
            vpinsrq xmm2, xmm2, [rdi + \field + 16*\pair], 1
            vmovq xmm3, [rdi + {counter} + 16*\pair + 8]
            vpinsrq xmm3, xmm3, [rdi + \field + 16*\pair + 8], 1
            vinserti128 ymm2, ymm2, xmm3, 1
            vmovdqa [rsi + \dst], ymm2
        .endm
        // Pair `pair`'s last steps, each in its chain's four words.
        .macro LAST_STEPS pair, dst
            vpbroadcastd xmm2, dword ptr [rdi + {last_block} + 16*\pair]
            vpbroadcastd xmm3, dword ptr [rdi + {last_block} + 16*\pair + 8]
            vinserti128 ymm2, ymm2, xmm3, 1
            vmovdqa [rsi + \dst], ymm2
        .endm
        .macro PAIR_ROWS pair
            ROW_PAIR {first}, \pair, {rows} + 128*\pair
            ROW_PAIR {middle}, \pair, {rows} + 128*\pair + 32
            ROW_PAIR {last}, \pair, {rows} + 128*\pair + 64
            LAST_STEPS \pair, {rows} + 128*\pair + 96
        .endm
        "
    };
}

/// Purges what `row_pointer_macro!` defines.
macro_rules! purge_row_pointer_macro {
    () => {
        r"
        .purgem LANE_POINTER
        .purgem LOAD_PAIR
        .purgem ROW_PAIR
        .purgem LAST_STEPS
        .purgem PAIR_ROWS
        "
    };
}

/// Hashes one to four jobs in the row form: one or two chains side by
/// side in ymm registers with the split rotations, three or four as two
/// interleaved sets of two (measured on Zen 4, per block: 194 and 216
/// cycles; the transposed four-lane kernel takes about 290).
///
/// # Safety
///
/// The CPU must support AVX-512F and AVX-512VL.
#[target_feature(enable = "avx512f,avx512vl,avx2")]
pub(super) unsafe fn hash_rows(key: &CvWords, jobs: &[LaneJob<'_>], out: &mut [CvBytes]) {
    assert!(out.len() == jobs.len() && (1..=ROW_CHAINS).contains(&jobs.len()));
    let mut padded = PaddedBlocks::uninit();
    let params = RowParams::new(key, jobs, &mut padded);
    // SAFETY: the CPU features are the caller's contract; `params` comes
    // from `RowParams::new` (its pointers' invariant) with `padded` alive.
    unsafe { run_rows(&params, out) }
}

/// The longest third chunk `hash_chunk_rows` hashes on its own, after
/// the other two in one row set (see `short_third_chunk`); measured on
/// Zen 4: 2049 B 1364-1378 -> 1257-1280 ns, 2112 B 1359-1365 ->
/// 1255-1285 ns; with three blocks about even, with four slower.
const SHORT_THIRD_CHUNK: usize = 2 * BLOCK_LEN;

/// Hashes one to four consecutive chunks as `Platform::hash_chunks` does,
/// in the row form; returns their number.
///
/// # Safety
///
/// The CPU must support AVX-512F and AVX-512VL.
#[target_feature(enable = "avx512f,avx512vl,avx2")]
pub(super) unsafe fn hash_chunk_rows(
    key: &CvWords,
    input: &[u8],
    first_counter: u64,
    chunk_flags: [u8; 3],
    out: &mut [CvBytes],
) -> usize {
    if let Some((whole, third)) = short_third_chunk(input, SHORT_THIRD_CHUNK) {
        // SAFETY: the caller's contract, for two and one of the chunks.
        unsafe {
            hash_chunk_rows(key, whole, first_counter, chunk_flags, out);
            hash_chunk_rows(key, third, first_counter.wrapping_add(2), chunk_flags, &mut out[2..]);
        }
        return 3;
    }
    super::prefetch_first_blocks(input);
    let count = input.len().div_ceil(CHUNK_LEN);
    let mut padded = PaddedBlocks::uninit();
    let params = RowParams::chunks(key, input, first_counter, chunk_flags, &mut padded);
    // SAFETY: the CPU features are the caller's contract; `params` comes
    // from `RowParams::chunks` (its pointers' invariant) with `padded` alive.
    unsafe { run_rows(&params, &mut out[..count]) };
    count
}

/// `asm!` for the row-form kernels of `run_rows`: the operands given (a
/// trailing comma), the `RowScratch` field offsets and constants their
/// templates name, and what `row_params_asm!` adds.
macro_rules! rows_asm {
    ($($operands:tt)*) => {
        row_params_asm!(zmm:
            $($operands)*
            rows = const offset_of!(RowScratch, rows),
            out = const offset_of!(RowScratch, out),
            constants = sym ROW_CONSTANTS,
            iv = const offset_of!(RowConstants, iv),
        )
    };
}

/// Runs a row-form call over the chains of `params`, whose number is
/// `out.len()`, and writes their values to `out`.
///
/// # Safety
///
/// AVX-512F + VL; the block pointers of `params` name 64 readable bytes at
/// every step (`asm_lanes`), and its key is readable.
#[target_feature(enable = "avx512f,avx512vl,avx2")]
unsafe fn run_rows(params: &RowParams, out: &mut [CvBytes]) {
    assert!((1..=ROW_CHAINS).contains(&out.len()));
    let mut scratch = MaybeUninit::<RowScratch>::uninit();
    if out.len() <= 2 {
        // SAFETY: AVX-512F + VL are enabled (the caller's contract). The
        // block pointers of `params` name 64 readable bytes at every step
        // and the key is readable (the caller's contract); it writes
        // only `scratch`, reads only `params`, `scratch`, the key, the
        // blocks and `ROW_CONSTANTS`, and declares every register it
        // changes.
        unsafe {
            rows_asm!(
                row_macros!(),
                row_pointer_macro!(),
                r"
                // One set of rows: ymm0-3 (chain 0 low, chain 1 high);
                // message words in ymm8-11 and ymm16-19 by turns; rdi the
                // parameters, rsi the outputs, r8 the index vectors, r12
                // this step's fourth rows, r13 the step, k1 the chains
                // whose last block this step is.
                .macro ROUND cx, cy, dx, dy, ncx, ncy, ndx, ndy, next
                    .if \next
                        NEXT_WORDS ymm\cx, ymm\cy, ymm\dx, ymm\dy, ymm\ncx, ymm\ncy, ymm\ndx, ymm\ndy, ymm24, ymm25, ymm26, r8, 32
                    .endif
                    G_SPLIT ymm0, ymm1, ymm2, ymm3, ymm\cx, ymm\cy, ymm28, ymm29
                    DIAGONALIZE ymm0, ymm2, ymm3
                    G_SPLIT ymm0, ymm1, ymm2, ymm3, ymm\dx, ymm\dy, ymm28, ymm29
                    UNDIAGONALIZE ymm0, ymm2, ymm3
                .endm
                lea r8, [rip + {constants}]
                mov eax, 0x88
                kmovw k2, eax
                mov eax, 0x44
                kmovw k3, eax
                PAIR_ROWS 0
                mov rax, [rdi + {key}]
                vbroadcasti32x4 ymm0, [rax]
                vbroadcasti32x4 ymm1, [rax + 16]
                lea r12, [rsi + {rows}]
                mov r11, [rdi + {steps}]
                xor r13d, r13d
                2:
                mov rcx, r13
                mov r10, r13
                shl r10, 6
                LANE_POINTER rax, 0
                LANE_POINTER rdx, 1
                LOAD_PAIR rax, rdx, 20, 21, 22, 23, 8, 9, 10, 11
                vpbroadcastd ymm30, r13d
                vpcmpeqd k1, ymm30, [rsi + {rows} + 96]
                vmovdqa32 ymm3, [r12]
                vmovdqa32 ymm3{{k1}}, [rsi + {rows} + 64]
                vbroadcasti32x4 ymm2, [r8 + {iv}]
                ROUND 8, 9, 10, 11, 16, 17, 18, 19, 1
                ROUND 16, 17, 18, 19, 8, 9, 10, 11, 1
                ROUND 8, 9, 10, 11, 16, 17, 18, 19, 1
                ROUND 16, 17, 18, 19, 8, 9, 10, 11, 1
                ROUND 8, 9, 10, 11, 16, 17, 18, 19, 1
                ROUND 16, 17, 18, 19, 8, 9, 10, 11, 1
                ROUND 8, 9, 10, 11, 16, 17, 18, 19, 0
                vpxord ymm0, ymm0, ymm2
                vpxord ymm1, ymm1, ymm3
                vmovdqa32 [rsi + {out}]{{k1}}, ymm0
                vmovdqa32 [rsi + {out} + 32]{{k1}}, ymm1
                lea r12, [rsi + {rows} + 32]
                inc r13
                cmp r13, r11
                jb 2b
                vzeroupper
                .purgem ROUND
                ",
                purge_row_macros!(),
                purge_row_pointer_macro!(),
                in("rdi") params,
                in("rsi") scratch.as_mut_ptr(),
                out("rax") _, out("rcx") _, out("rdx") _,
                out("r8") _, out("r10") _, out("r11") _, out("r12") _, out("r13") _,
                out("k1") _, out("k2") _, out("k3") _,
            );
        }
    } else {
        // SAFETY: as above.
        unsafe {
            rows_asm!(
                row_macros!(),
                row_pointer_macro!(),
                r"
                // Two sets of rows: ymm0-3 (chains 0 and 1) and ymm4-7
                // (chains 2 and 3); message words of the first set in
                // ymm8-11 and ymm16-19 by turns, of the second in ymm12-15
                // and ymm20-23; k1 and k4 the chains of each set whose
                // last block this step is.
                .macro ROUND x0, y0, z0, w0, x1, y1, z1, w1, nx0, ny0, nz0, nw0, nx1, ny1, nz1, nw1, next
                    .if \next
                        NEXT_WORDS ymm\x0, ymm\y0, ymm\z0, ymm\w0, ymm\nx0, ymm\ny0, ymm\nz0, ymm\nw0, ymm24, ymm25, ymm26, r8, 32
                        NEXT_WORDS ymm\x1, ymm\y1, ymm\z1, ymm\w1, ymm\nx1, ymm\ny1, ymm\nz1, ymm\nw1, ymm27, ymm28, ymm29, r8, 32
                    .endif
                    G_TWO ymm0, ymm1, ymm2, ymm3, ymm\x0, ymm\y0, ymm4, ymm5, ymm6, ymm7, ymm\x1, ymm\y1
                    DIAGONALIZE ymm0, ymm2, ymm3
                    DIAGONALIZE ymm4, ymm6, ymm7
                    G_TWO ymm0, ymm1, ymm2, ymm3, ymm\z0, ymm\w0, ymm4, ymm5, ymm6, ymm7, ymm\z1, ymm\w1
                    UNDIAGONALIZE ymm0, ymm2, ymm3
                    UNDIAGONALIZE ymm4, ymm6, ymm7
                .endm
                lea r8, [rip + {constants}]
                mov eax, 0x88
                kmovw k2, eax
                mov eax, 0x44
                kmovw k3, eax
                PAIR_ROWS 0
                PAIR_ROWS 1
                mov rax, [rdi + {key}]
                vbroadcasti32x4 ymm0, [rax]
                vbroadcasti32x4 ymm1, [rax + 16]
                vmovdqa32 ymm4, ymm0
                vmovdqa32 ymm5, ymm1
                lea r12, [rsi + {rows}]
                mov r11, [rdi + {steps}]
                xor r13d, r13d
                2:
                mov rcx, r13
                mov r10, r13
                shl r10, 6
                LANE_POINTER rax, 0
                LANE_POINTER rdx, 1
                LOAD_PAIR rax, rdx, 24, 25, 26, 27, 8, 9, 10, 11
                LANE_POINTER rax, 2
                LANE_POINTER rdx, 3
                LOAD_PAIR rax, rdx, 28, 29, 30, 31, 12, 13, 14, 15
                vpbroadcastd ymm30, r13d
                vpcmpeqd k1, ymm30, [rsi + {rows} + 96]
                vpcmpeqd k4, ymm30, [rsi + {rows} + 128 + 96]
                vmovdqa32 ymm3, [r12]
                vmovdqa32 ymm3{{k1}}, [rsi + {rows} + 64]
                vmovdqa32 ymm7, [r12 + 128]
                vmovdqa32 ymm7{{k4}}, [rsi + {rows} + 128 + 64]
                vbroadcasti32x4 ymm2, [r8 + {iv}]
                vmovdqa32 ymm6, ymm2
                ROUND 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 1
                ROUND 16, 17, 18, 19, 20, 21, 22, 23, 8, 9, 10, 11, 12, 13, 14, 15, 1
                ROUND 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 1
                ROUND 16, 17, 18, 19, 20, 21, 22, 23, 8, 9, 10, 11, 12, 13, 14, 15, 1
                ROUND 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 1
                ROUND 16, 17, 18, 19, 20, 21, 22, 23, 8, 9, 10, 11, 12, 13, 14, 15, 1
                ROUND 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 0
                vpxord ymm0, ymm0, ymm2
                vpxord ymm1, ymm1, ymm3
                vpxord ymm4, ymm4, ymm6
                vpxord ymm5, ymm5, ymm7
                vmovdqa32 [rsi + {out}]{{k1}}, ymm0
                vmovdqa32 [rsi + {out} + 32]{{k1}}, ymm1
                vmovdqa32 [rsi + {out} + 64]{{k4}}, ymm4
                vmovdqa32 [rsi + {out} + 96]{{k4}}, ymm5
                lea r12, [rsi + {rows} + 32]
                inc r13
                cmp r13, r11
                jb 2b
                vzeroupper
                .purgem ROUND
                ",
                purge_row_macros!(),
                purge_row_pointer_macro!(),
                in("rdi") params,
                in("rsi") scratch.as_mut_ptr(),
                out("rax") _, out("rcx") _, out("rdx") _,
                out("r8") _, out("r10") _, out("r11") _, out("r12") _, out("r13") _,
                out("k1") _, out("k2") _, out("k3") _, out("k4") _,
            );
        }
    }
    // SAFETY: every chain of `jobs` has a last block at some step, where
    // the block above stored its value (its lanes of `scratch.out`).
    let written = unsafe { &*addr_of!((*scratch.as_ptr()).out) };
    for (chain, value) in out.iter_mut().enumerate() {
        *value = row_output(written, chain);
    }
}

/// Compresses `count >= 1` blocks at `blocks` one after another, starting
/// from the chaining value at `cv_in`, in the row form; then writes the new
/// chaining value to `cv_out`, or, when `xof` is not null, all 64 output
/// bytes there (then `count` is 1 and `cv_out` is not written). Every block
/// has `counter`; the first block's length and flags are `first` (length in
/// the low 32 bits, flags in the high), every later one's `rest`: they go
/// into the fourth state row from general registers, because a vector load
/// of values the caller has just stored word by word would wait for the
/// stores to reach the cache (measured on Zen 4: 253 cycles a block with
/// the vector load, more than from general registers; the second figure
/// was not kept).
///
/// # Safety
///
/// AVX-512F + VL; `cv_in` readable for 32 bytes, `blocks` for `64 *
/// count`, `cv_out` writable for 32 bytes (unless `xof`), `xof` null or
/// writable for 64.
#[target_feature(enable = "avx512f,avx512vl,avx2")]
#[inline]
unsafe fn compress_chain(
    cv_in: *const u32,
    cv_out: *mut u32,
    blocks: *const u8,
    count: usize,
    counter: u64,
    [first, rest]: [u64; 2],
    xof: *mut u8,
) {
    debug_assert!(count >= 1);
    // SAFETY: forwarded from the caller; the block reads only the named
    // memory and `ROW_CONSTANTS`, and declares every register it changes.
    unsafe {
        asm!(
            row_macros!(),
            r"
            .macro ROUND cx, cy, dx, dy, ncx, ncy, ndx, ndy, next
                .if \next
                    NEXT_WORDS xmm\cx, xmm\cy, xmm\dx, xmm\dy, xmm\ncx, xmm\ncy, xmm\ndx, xmm\ndy, xmm24, xmm25, xmm26, r8, 16
                .endif
                G_PLAIN xmm0, xmm1, xmm2, xmm3, xmm\cx, xmm\cy
                DIAGONALIZE xmm0, xmm2, xmm3
                G_PLAIN xmm0, xmm1, xmm2, xmm3, xmm\dx, xmm\dy
                UNDIAGONALIZE xmm0, xmm2, xmm3
            .endm
            mov r8d, 0x8
            kmovw k2, r8d
            mov r8d, 0x4
            kmovw k3, r8d
            lea r8, [rip + {constants} + {narrow}]
            vmovdqu32 xmm0, [rdi]
            vmovdqu32 xmm1, [rdi + 16]
            vmovq xmm30, rdx
            2:
            vmovdqu32 xmm20, [rsi]
            vmovdqu32 xmm21, [rsi + 16]
            vmovdqu32 xmm22, [rsi + 32]
            vmovdqu32 xmm23, [rsi + 48]
            FIRST_WORDS xmm20, xmm21, xmm22, xmm23, xmm8, xmm9, xmm10, xmm11
            vmovdqa32 xmm2, [rip + {constants} + {iv}]
            vpinsrq xmm3, xmm30, r11, 1
            ROUND 8, 9, 10, 11, 16, 17, 18, 19, 1
            ROUND 16, 17, 18, 19, 8, 9, 10, 11, 1
            ROUND 8, 9, 10, 11, 16, 17, 18, 19, 1
            ROUND 16, 17, 18, 19, 8, 9, 10, 11, 1
            ROUND 8, 9, 10, 11, 16, 17, 18, 19, 1
            ROUND 16, 17, 18, 19, 8, 9, 10, 11, 1
            ROUND 8, 9, 10, 11, 16, 17, 18, 19, 0
            ",
            super::asm_lanes::chain_tail!(),
            r"
            .purgem ROUND
            ",
            purge_row_macros!(),
            constants = sym ROW_CONSTANTS,
            iv = const offset_of!(RowConstants, iv),
            narrow = const offset_of!(RowConstants, narrow),
            in("rdi") cv_in,
            in("r10") cv_out,
            inout("rsi") blocks => _,
            inout("rcx") count => _,
            in("rdx") counter,
            inout("r11") first => _,
            in("rax") rest,
            in("r9") xof,
            out("r8") _,
            out("k2") _, out("k3") _,
            out("xmm0") _, out("xmm1") _, out("xmm2") _, out("xmm3") _,
            out("xmm8") _, out("xmm9") _, out("xmm10") _, out("xmm11") _,
            out("xmm16") _, out("xmm17") _, out("xmm18") _, out("xmm19") _,
            out("xmm20") _, out("xmm21") _, out("xmm22") _, out("xmm23") _,
            out("xmm24") _, out("xmm25") _, out("xmm26") _, out("xmm30") _,
            out("xmm12") _, out("xmm13") _, out("xmm14") _, out("xmm15") _,
            options(nostack),
        );
    }
}

super::asm_lanes::single_block_entry_points!("avx512f,avx512vl,avx2", "The CPU must support AVX-512F and AVX-512VL.");

/// Compresses two blocks from the same chaining value side by side, one
/// per 128-bit lane of ymm rows (a tree level's last two parents; counter
/// 0, `row` their length and flags), and writes the two values to `out0`
/// and `out1`.
///
/// # Safety
///
/// AVX-512F + VL; `key` readable for 32 bytes, `block0` and `block1` for
/// 64, `out0` and `out1` writable for 32.
#[target_feature(enable = "avx512f,avx512vl,avx2")]
#[inline]
unsafe fn compress_two(key: *const u32, block0: *const u8, block1: *const u8, row: u64, out0: *mut u8, out1: *mut u8) {
    // SAFETY: forwarded from the caller; the block reads only the named
    // memory and `ROW_CONSTANTS`, writes only `out0` and `out1`, and
    // declares every register it changes.
    unsafe {
        asm!(
            row_macros!(),
            r"
            .macro ROUND cx, cy, dx, dy, ncx, ncy, ndx, ndy, next
                .if \next
                    NEXT_WORDS ymm\cx, ymm\cy, ymm\dx, ymm\dy, ymm\ncx, ymm\ncy, ymm\ndx, ymm\ndy, ymm24, ymm25, ymm26, r8, 32
                .endif
                G_PLAIN ymm0, ymm1, ymm2, ymm3, ymm\cx, ymm\cy
                DIAGONALIZE ymm0, ymm2, ymm3
                G_PLAIN ymm0, ymm1, ymm2, ymm3, ymm\dx, ymm\dy
                UNDIAGONALIZE ymm0, ymm2, ymm3
            .endm
            lea r8, [rip + {constants}]
            mov eax, 0x88
            kmovw k2, eax
            mov eax, 0x44
            kmovw k3, eax
            vbroadcasti32x4 ymm0, [rdi]
            vbroadcasti32x4 ymm1, [rdi + 16]
            vmovdqu32 xmm20, [rsi]
            vinserti32x4 ymm20, ymm20, [rdx], 1
            vmovdqu32 xmm21, [rsi + 16]
            vinserti32x4 ymm21, ymm21, [rdx + 16], 1
            vmovdqu32 xmm22, [rsi + 32]
            vinserti32x4 ymm22, ymm22, [rdx + 32], 1
            vmovdqu32 xmm23, [rsi + 48]
            vinserti32x4 ymm23, ymm23, [rdx + 48], 1
            FIRST_WORDS ymm20, ymm21, ymm22, ymm23, ymm8, ymm9, ymm10, ymm11
            vbroadcasti32x4 ymm2, [r8 + {iv}]
            // The fourth row: counter 0, then `row`, in both chains.
            vpbroadcastq ymm3, rcx
            mov eax, 0x33
            kmovw k1, eax
            vpxord ymm3{{k1}}, ymm3, ymm3
            ROUND 8, 9, 10, 11, 16, 17, 18, 19, 1
            ROUND 16, 17, 18, 19, 8, 9, 10, 11, 1
            ROUND 8, 9, 10, 11, 16, 17, 18, 19, 1
            ROUND 16, 17, 18, 19, 8, 9, 10, 11, 1
            ROUND 8, 9, 10, 11, 16, 17, 18, 19, 1
            ROUND 16, 17, 18, 19, 8, 9, 10, 11, 1
            ROUND 8, 9, 10, 11, 16, 17, 18, 19, 0
            vpxord ymm0, ymm0, ymm2
            vpxord ymm1, ymm1, ymm3
            vmovdqu32 [r9], xmm0
            vmovdqu32 [r9 + 16], xmm1
            vextracti32x4 [r10], ymm0, 1
            vextracti32x4 [r10 + 16], ymm1, 1
            vzeroupper
            .purgem ROUND
            ",
            purge_row_macros!(),
            constants = sym ROW_CONSTANTS,
            iv = const offset_of!(RowConstants, iv),
            in("rdi") key,
            in("rsi") block0,
            in("rdx") block1,
            in("rcx") row,
            in("r9") out0,
            in("r10") out1,
            out("rax") _, out("r8") _,
            out("k1") _, out("k2") _, out("k3") _,
            out("ymm0") _, out("ymm1") _, out("ymm2") _, out("ymm3") _,
            out("ymm8") _, out("ymm9") _, out("ymm10") _, out("ymm11") _,
            out("ymm16") _, out("ymm17") _, out("ymm18") _, out("ymm19") _,
            out("ymm20") _, out("ymm21") _, out("ymm22") _, out("ymm23") _,
            out("ymm24") _, out("ymm25") _, out("ymm26") _,
            options(nostack),
        );
    }
}

/// The rounds of the parent kernels: state words in registers 16-31,
/// message word `i` in register `i` (`w` is `zmm` or `ymm`).
macro_rules! parent_round_macros {
    ($w:literal) => {
        concat!(
            r"
            .macro HALF_G4_REGS r1, r2, a0,b0,c0,d0, a1,b1,c1,d1, a2,b2,c2,d2, a3,b3,c3,d3, x0,x1,x2,x3
                ADD4 ",
            $w,
            r", \a0, \x0, \a1, \x1, \a2, \x2, \a3, \x3
                ADD4 ",
            $w,
            r", \a0, \b0, \a1, \b1, \a2, \b2, \a3, \b3
                XOR_ROTATE4 ",
            $w,
            r", \r1, \d0, \a0, \d1, \a1, \d2, \a2, \d3, \a3
                ADD4 ",
            $w,
            r", \c0, \d0, \c1, \d1, \c2, \d2, \c3, \d3
                XOR_ROTATE4 ",
            $w,
            r", \r2, \b0, \c0, \b1, \c1, \b2, \c2, \b3, \c3
            .endm
            .macro ROUND_REGS x0,x1,x2,x3, y0,y1,y2,y3, z0,z1,z2,z3, w0,w1,w2,w3
                HALF_G4_REGS 16, 12, 16,20,24,28, 17,21,25,29, 18,22,26,30, 19,23,27,31, \x0,\x1,\x2,\x3
                HALF_G4_REGS 8, 7, 16,20,24,28, 17,21,25,29, 18,22,26,30, 19,23,27,31, \y0,\y1,\y2,\y3
                HALF_G4_REGS 16, 12, 16,21,26,31, 17,22,27,28, 18,23,24,29, 19,20,25,30, \z0,\z1,\z2,\z3
                HALF_G4_REGS 8, 7, 16,21,26,31, 17,22,27,28, 18,23,24,29, 19,20,25,30, \w0,\w1,\w2,\w3
            .endm
            // Lane `lane`'s block into rax: the block `lane` after rsi, or
            // the last one (rdx) for lanes past it.
            .macro LANE_BLOCK lane
                lea rax, [rsi + 64*\lane]
                cmp rax, rdx
                cmova rax, rdx
            .endm
            // The state: the key (rdi), the IV's first words, counter 0,
            // block length 64 and the flags (r8d).
            .macro PARENT_STATE
                vpbroadcastd ",
            $w,
            r"16, dword ptr [rdi + 0]
                vpbroadcastd ",
            $w,
            r"17, dword ptr [rdi + 4]
                vpbroadcastd ",
            $w,
            r"18, dword ptr [rdi + 8]
                vpbroadcastd ",
            $w,
            r"19, dword ptr [rdi + 12]
                vpbroadcastd ",
            $w,
            r"20, dword ptr [rdi + 16]
                vpbroadcastd ",
            $w,
            r"21, dword ptr [rdi + 20]
                vpbroadcastd ",
            $w,
            r"22, dword ptr [rdi + 24]
                vpbroadcastd ",
            $w,
            r"23, dword ptr [rdi + 28]
                vpbroadcastd ",
            $w,
            r"24, dword ptr [rip + {constants} + {iv} + 0]
                vpbroadcastd ",
            $w,
            r"25, dword ptr [rip + {constants} + {iv} + 4]
                vpbroadcastd ",
            $w,
            r"26, dword ptr [rip + {constants} + {iv} + 8]
                vpbroadcastd ",
            $w,
            r"27, dword ptr [rip + {constants} + {iv} + 12]
                vpxord ",
            $w,
            r"28, ",
            $w,
            r"28, ",
            $w,
            r"28
                vpxord ",
            $w,
            r"29, ",
            $w,
            r"29, ",
            $w,
            r"29
                mov eax, 64
                vpbroadcastd ",
            $w,
            r"30, eax
                vpbroadcastd ",
            $w,
            r"31, r8d
            .endm
            "
        )
    };
}

/// Purges what `parent_round_macros!` defines.
macro_rules! purge_parent_round_macros {
    () => {
        r"
        .purgem HALF_G4_REGS
        .purgem ROUND_REGS
        .purgem LANE_BLOCK
        .purgem PARENT_STATE
        "
    };
}

/// Compresses up to sixteen independent blocks from the same chaining
/// value `key` side by side (parents of one tree level: counter 0, block
/// length 64, `flags`), one per 32-bit lane of zmm registers, and writes
/// sixteen values of 32 bytes to `out` (lanes past `count` repeat the
/// last block). Unlike `run16`, it takes no lane parameters: the blocks
/// are consecutive, so they are loaded whole and transposed in registers,
/// and the message stays in zmm0-15 while the state takes zmm16-31.
///
/// # Safety
///
/// AVX-512F + VL; `key` readable for 32 bytes, `blocks` for `64 * count`
/// with `1 <= count <= 16`, `out` writable for 512 bytes.
#[target_feature(enable = "avx512f,avx512vl,avx2")]
unsafe fn parents16(key: *const u32, flags: u8, blocks: *const u8, count: usize, out: *mut u8) {
    debug_assert!((1..=16).contains(&count));
    let last = blocks.wrapping_add(64 * (count - 1));
    // SAFETY: forwarded from the caller: the block reads `key`, the first
    // `count` blocks and the constants, writes `out`, and declares every
    // register it changes.
    unsafe {
        asm_all_vectors!(zmm:
            lane_math_macros!(),
            parent_round_macros!("zmm"),
            r"
            // Lane j's block into zmm j, then a transpose in four passes
            // (words, pairs of words, 128-bit blocks twice), through
            // zmm16-31, leaves word i of every lane in zmm i.
            LANE_BLOCK 0
            vmovdqu32 zmm0, [rax]
            LANE_BLOCK 1
            vmovdqu32 zmm1, [rax]
            LANE_BLOCK 2
            vmovdqu32 zmm2, [rax]
            LANE_BLOCK 3
            vmovdqu32 zmm3, [rax]
            LANE_BLOCK 4
            vmovdqu32 zmm4, [rax]
            LANE_BLOCK 5
            vmovdqu32 zmm5, [rax]
            LANE_BLOCK 6
            vmovdqu32 zmm6, [rax]
            LANE_BLOCK 7
            vmovdqu32 zmm7, [rax]
            LANE_BLOCK 8
            vmovdqu32 zmm8, [rax]
            LANE_BLOCK 9
            vmovdqu32 zmm9, [rax]
            LANE_BLOCK 10
            vmovdqu32 zmm10, [rax]
            LANE_BLOCK 11
            vmovdqu32 zmm11, [rax]
            LANE_BLOCK 12
            vmovdqu32 zmm12, [rax]
            LANE_BLOCK 13
            vmovdqu32 zmm13, [rax]
            LANE_BLOCK 14
            vmovdqu32 zmm14, [rax]
            LANE_BLOCK 15
            vmovdqu32 zmm15, [rax]
            vpunpckldq zmm16, zmm0, zmm1
            vpunpckhdq zmm17, zmm0, zmm1
            vpunpckldq zmm18, zmm2, zmm3
            vpunpckhdq zmm19, zmm2, zmm3
            vpunpckldq zmm20, zmm4, zmm5
            vpunpckhdq zmm21, zmm4, zmm5
            vpunpckldq zmm22, zmm6, zmm7
            vpunpckhdq zmm23, zmm6, zmm7
            vpunpckldq zmm24, zmm8, zmm9
            vpunpckhdq zmm25, zmm8, zmm9
            vpunpckldq zmm26, zmm10, zmm11
            vpunpckhdq zmm27, zmm10, zmm11
            vpunpckldq zmm28, zmm12, zmm13
            vpunpckhdq zmm29, zmm12, zmm13
            vpunpckldq zmm30, zmm14, zmm15
            vpunpckhdq zmm31, zmm14, zmm15
            vpunpcklqdq zmm0, zmm16, zmm18
            vpunpckhqdq zmm4, zmm16, zmm18
            vpunpcklqdq zmm8, zmm17, zmm19
            vpunpckhqdq zmm12, zmm17, zmm19
            vpunpcklqdq zmm1, zmm20, zmm22
            vpunpckhqdq zmm5, zmm20, zmm22
            vpunpcklqdq zmm9, zmm21, zmm23
            vpunpckhqdq zmm13, zmm21, zmm23
            vpunpcklqdq zmm2, zmm24, zmm26
            vpunpckhqdq zmm6, zmm24, zmm26
            vpunpcklqdq zmm10, zmm25, zmm27
            vpunpckhqdq zmm14, zmm25, zmm27
            vpunpcklqdq zmm3, zmm28, zmm30
            vpunpckhqdq zmm7, zmm28, zmm30
            vpunpcklqdq zmm11, zmm29, zmm31
            vpunpckhqdq zmm15, zmm29, zmm31
            vshufi32x4 zmm16, zmm0, zmm1, 0x88
            vshufi32x4 zmm17, zmm0, zmm1, 0xDD
            vshufi32x4 zmm18, zmm2, zmm3, 0x88
            vshufi32x4 zmm19, zmm2, zmm3, 0xDD
            vshufi32x4 zmm20, zmm4, zmm5, 0x88
            vshufi32x4 zmm21, zmm4, zmm5, 0xDD
            vshufi32x4 zmm22, zmm6, zmm7, 0x88
            vshufi32x4 zmm23, zmm6, zmm7, 0xDD
            vshufi32x4 zmm24, zmm8, zmm9, 0x88
            vshufi32x4 zmm25, zmm8, zmm9, 0xDD
            vshufi32x4 zmm26, zmm10, zmm11, 0x88
            vshufi32x4 zmm27, zmm10, zmm11, 0xDD
            vshufi32x4 zmm28, zmm12, zmm13, 0x88
            vshufi32x4 zmm29, zmm12, zmm13, 0xDD
            vshufi32x4 zmm30, zmm14, zmm15, 0x88
            vshufi32x4 zmm31, zmm14, zmm15, 0xDD
            vshufi32x4 zmm0, zmm16, zmm18, 0x88
            vshufi32x4 zmm8, zmm16, zmm18, 0xDD
            vshufi32x4 zmm4, zmm17, zmm19, 0x88
            vshufi32x4 zmm12, zmm17, zmm19, 0xDD
            vshufi32x4 zmm1, zmm20, zmm22, 0x88
            vshufi32x4 zmm9, zmm20, zmm22, 0xDD
            vshufi32x4 zmm5, zmm21, zmm23, 0x88
            vshufi32x4 zmm13, zmm21, zmm23, 0xDD
            vshufi32x4 zmm2, zmm24, zmm26, 0x88
            vshufi32x4 zmm10, zmm24, zmm26, 0xDD
            vshufi32x4 zmm6, zmm25, zmm27, 0x88
            vshufi32x4 zmm14, zmm25, zmm27, 0xDD
            vshufi32x4 zmm3, zmm28, zmm30, 0x88
            vshufi32x4 zmm11, zmm28, zmm30, 0xDD
            vshufi32x4 zmm7, zmm29, zmm31, 0x88
            vshufi32x4 zmm15, zmm29, zmm31, 0xDD
            PARENT_STATE
            SEVEN_ROUNDS ROUND_REGS
            vpxord zmm0, zmm16, zmm24
            vpxord zmm1, zmm17, zmm25
            vpxord zmm2, zmm18, zmm26
            vpxord zmm3, zmm19, zmm27
            vpxord zmm4, zmm20, zmm28
            vpxord zmm5, zmm21, zmm29
            vpxord zmm6, zmm22, zmm30
            vpxord zmm7, zmm23, zmm31
            OUT_TRANSPOSE rcx, 16
            vzeroupper
            ",
            purge_parent_round_macros!(),
            purge_lane_math_macros!(),
            constants = sym ROW_CONSTANTS,
            iv = const offset_of!(RowConstants, iv),
            indices = sym OUT_INDICES,
            in("rdi") key,
            in("rsi") blocks,
            in("rdx") last,
            in("rcx") out,
            in("r8d") flags as u32,
            out("rax") _,
        );
    }
}

/// `parents16` for up to eight blocks, one per 32-bit lane of ymm
/// registers; writes eight values (256 bytes) to `out`.
///
/// # Safety
///
/// AVX-512F + VL; `key` readable for 32 bytes, `blocks` for `64 * count`
/// with `1 <= count <= 8`, `out` writable for 256 bytes.
#[target_feature(enable = "avx512f,avx512vl,avx2")]
unsafe fn parents8(key: *const u32, flags: u8, blocks: *const u8, count: usize, out: *mut u8) {
    debug_assert!((1..=8).contains(&count));
    let last = blocks.wrapping_add(64 * (count - 1));
    // SAFETY: as `parents16`.
    unsafe {
        asm_all_vectors!(zmm:
            lane_math_macros!(),
            parent_round_macros!("ymm"),
            r"
            // Lane j's words 0-7 into ymm16+j and 8-15 into ymm24+j; two
            // 8x8 transposes (words, pairs of words, 128-bit halves) leave
            // word i of every lane in ymm i.
            LANE_BLOCK 0
            vmovdqu32 ymm16, [rax]
            vmovdqu32 ymm24, [rax + 32]
            LANE_BLOCK 1
            vmovdqu32 ymm17, [rax]
            vmovdqu32 ymm25, [rax + 32]
            LANE_BLOCK 2
            vmovdqu32 ymm18, [rax]
            vmovdqu32 ymm26, [rax + 32]
            LANE_BLOCK 3
            vmovdqu32 ymm19, [rax]
            vmovdqu32 ymm27, [rax + 32]
            LANE_BLOCK 4
            vmovdqu32 ymm20, [rax]
            vmovdqu32 ymm28, [rax + 32]
            LANE_BLOCK 5
            vmovdqu32 ymm21, [rax]
            vmovdqu32 ymm29, [rax + 32]
            LANE_BLOCK 6
            vmovdqu32 ymm22, [rax]
            vmovdqu32 ymm30, [rax + 32]
            LANE_BLOCK 7
            vmovdqu32 ymm23, [rax]
            vmovdqu32 ymm31, [rax + 32]
            vpunpckldq ymm0, ymm16, ymm17
            vpunpckhdq ymm1, ymm16, ymm17
            vpunpckldq ymm2, ymm18, ymm19
            vpunpckhdq ymm3, ymm18, ymm19
            vpunpckldq ymm4, ymm20, ymm21
            vpunpckhdq ymm5, ymm20, ymm21
            vpunpckldq ymm6, ymm22, ymm23
            vpunpckhdq ymm7, ymm22, ymm23
            vpunpcklqdq ymm16, ymm0, ymm2
            vpunpckhqdq ymm17, ymm0, ymm2
            vpunpcklqdq ymm18, ymm1, ymm3
            vpunpckhqdq ymm19, ymm1, ymm3
            vpunpcklqdq ymm20, ymm4, ymm6
            vpunpckhqdq ymm21, ymm4, ymm6
            vpunpcklqdq ymm22, ymm5, ymm7
            vpunpckhqdq ymm23, ymm5, ymm7
            vshufi32x4 ymm0, ymm16, ymm20, 0
            vshufi32x4 ymm4, ymm16, ymm20, 3
            vshufi32x4 ymm1, ymm17, ymm21, 0
            vshufi32x4 ymm5, ymm17, ymm21, 3
            vshufi32x4 ymm2, ymm18, ymm22, 0
            vshufi32x4 ymm6, ymm18, ymm22, 3
            vshufi32x4 ymm3, ymm19, ymm23, 0
            vshufi32x4 ymm7, ymm19, ymm23, 3
            vpunpckldq ymm8, ymm24, ymm25
            vpunpckhdq ymm9, ymm24, ymm25
            vpunpckldq ymm10, ymm26, ymm27
            vpunpckhdq ymm11, ymm26, ymm27
            vpunpckldq ymm12, ymm28, ymm29
            vpunpckhdq ymm13, ymm28, ymm29
            vpunpckldq ymm14, ymm30, ymm31
            vpunpckhdq ymm15, ymm30, ymm31
            vpunpcklqdq ymm24, ymm8, ymm10
            vpunpckhqdq ymm25, ymm8, ymm10
            vpunpcklqdq ymm26, ymm9, ymm11
            vpunpckhqdq ymm27, ymm9, ymm11
            vpunpcklqdq ymm28, ymm12, ymm14
            vpunpckhqdq ymm29, ymm12, ymm14
            vpunpcklqdq ymm30, ymm13, ymm15
            vpunpckhqdq ymm31, ymm13, ymm15
            vshufi32x4 ymm8, ymm24, ymm28, 0
            vshufi32x4 ymm12, ymm24, ymm28, 3
            vshufi32x4 ymm9, ymm25, ymm29, 0
            vshufi32x4 ymm13, ymm25, ymm29, 3
            vshufi32x4 ymm10, ymm26, ymm30, 0
            vshufi32x4 ymm14, ymm26, ymm30, 3
            vshufi32x4 ymm11, ymm27, ymm31, 0
            vshufi32x4 ymm15, ymm27, ymm31, 3
            PARENT_STATE
            SEVEN_ROUNDS ROUND_REGS
            vpxord ymm0, ymm16, ymm24
            vpxord ymm1, ymm17, ymm25
            vpxord ymm2, ymm18, ymm26
            vpxord ymm3, ymm19, ymm27
            vpxord ymm4, ymm20, ymm28
            vpxord ymm5, ymm21, ymm29
            vpxord ymm6, ymm22, ymm30
            vpxord ymm7, ymm23, ymm31
            OUT_TRANSPOSE rcx, 8
            vzeroupper
            ",
            purge_parent_round_macros!(),
            purge_lane_math_macros!(),
            constants = sym ROW_CONSTANTS,
            iv = const offset_of!(RowConstants, iv),
            indices = sym OUT_INDICES,
            in("rdi") key,
            in("rsi") blocks,
            in("rdx") last,
            in("rcx") out,
            in("r8d") flags as u32,
            out("rax") _,
        );
    }
}

/// Compresses three or four blocks from the same chaining value side by
/// side as `compress_two` does, in two interleaved sets of ymm rows (blocks
/// 0 and 1, 2 and 3), and writes four values (128 bytes) to `out`; with
/// three, the fourth lane repeats the third block.
///
/// # Safety
///
/// AVX-512F + VL; `key` readable for 32 bytes, `blocks` for `64 * count`
/// with `count` 3 or 4, `out` writable for 128 bytes.
#[target_feature(enable = "avx512f,avx512vl,avx2")]
unsafe fn compress_four(key: *const u32, blocks: *const u8, count: usize, row: u64, out: *mut u8) {
    debug_assert!((3..=4).contains(&count));
    let last = blocks.wrapping_add(64 * (count - 1));
    // SAFETY: forwarded from the caller; the block reads only the named
    // memory and `ROW_CONSTANTS`, writes only `out`, and declares every
    // register it changes.
    unsafe {
        asm_all_vectors!(zmm:
            row_macros!(),
            r"
            .macro ROUND x0, y0, z0, w0, x1, y1, z1, w1, nx0, ny0, nz0, nw0, nx1, ny1, nz1, nw1, next
                .if \next
                    NEXT_WORDS ymm\x0, ymm\y0, ymm\z0, ymm\w0, ymm\nx0, ymm\ny0, ymm\nz0, ymm\nw0, ymm24, ymm25, ymm26, r8, 32
                    NEXT_WORDS ymm\x1, ymm\y1, ymm\z1, ymm\w1, ymm\nx1, ymm\ny1, ymm\nz1, ymm\nw1, ymm27, ymm28, ymm29, r8, 32
                .endif
                G_TWO ymm0, ymm1, ymm2, ymm3, ymm\x0, ymm\y0, ymm4, ymm5, ymm6, ymm7, ymm\x1, ymm\y1
                DIAGONALIZE ymm0, ymm2, ymm3
                DIAGONALIZE ymm4, ymm6, ymm7
                G_TWO ymm0, ymm1, ymm2, ymm3, ymm\z0, ymm\w0, ymm4, ymm5, ymm6, ymm7, ymm\z1, ymm\w1
                UNDIAGONALIZE ymm0, ymm2, ymm3
                UNDIAGONALIZE ymm4, ymm6, ymm7
            .endm
            // Blocks p0 and p1 as round 0's words of one set of rows,
            // through quarters q0-q3 (register numbers).
            .macro LOAD_TWO p0, p1, q0, q1, q2, q3, cx, cy, dx, dy
                vmovdqu32 xmm\q0, [\p0]
                vinserti32x4 ymm\q0, ymm\q0, [\p1], 1
                vmovdqu32 xmm\q1, [\p0 + 16]
                vinserti32x4 ymm\q1, ymm\q1, [\p1 + 16], 1
                vmovdqu32 xmm\q2, [\p0 + 32]
                vinserti32x4 ymm\q2, ymm\q2, [\p1 + 32], 1
                vmovdqu32 xmm\q3, [\p0 + 48]
                vinserti32x4 ymm\q3, ymm\q3, [\p1 + 48], 1
                FIRST_WORDS ymm\q0, ymm\q1, ymm\q2, ymm\q3, ymm\cx, ymm\cy, ymm\dx, ymm\dy
            .endm
            lea r8, [rip + {constants}]
            mov eax, 0x88
            kmovw k2, eax
            mov eax, 0x44
            kmovw k3, eax
            vbroadcasti32x4 ymm0, [rdi]
            vbroadcasti32x4 ymm1, [rdi + 16]
            vmovdqa32 ymm4, ymm0
            vmovdqa32 ymm5, ymm1
            LOAD_TWO rsi, rsi + 64, 20, 21, 22, 23, 8, 9, 10, 11
            LOAD_TWO rsi + 128, rdx, 24, 25, 26, 27, 12, 13, 14, 15
            vbroadcasti32x4 ymm2, [r8 + {iv}]
            vmovdqa32 ymm6, ymm2
            // The fourth rows: counter 0, then `row`, in every chain.
            vpbroadcastq ymm3, rcx
            mov eax, 0x33
            kmovw k1, eax
            vpxord ymm3{{k1}}, ymm3, ymm3
            vmovdqa32 ymm7, ymm3
            ROUND 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 1
            ROUND 16, 17, 18, 19, 20, 21, 22, 23, 8, 9, 10, 11, 12, 13, 14, 15, 1
            ROUND 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 1
            ROUND 16, 17, 18, 19, 20, 21, 22, 23, 8, 9, 10, 11, 12, 13, 14, 15, 1
            ROUND 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 1
            ROUND 16, 17, 18, 19, 20, 21, 22, 23, 8, 9, 10, 11, 12, 13, 14, 15, 1
            ROUND 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 0
            vpxord ymm0, ymm0, ymm2
            vpxord ymm1, ymm1, ymm3
            vpxord ymm4, ymm4, ymm6
            vpxord ymm5, ymm5, ymm7
            vmovdqu32 [r9], xmm0
            vmovdqu32 [r9 + 16], xmm1
            vextracti32x4 [r9 + 32], ymm0, 1
            vextracti32x4 [r9 + 48], ymm1, 1
            vmovdqu32 [r9 + 64], xmm4
            vmovdqu32 [r9 + 80], xmm5
            vextracti32x4 [r9 + 96], ymm4, 1
            vextracti32x4 [r9 + 112], ymm5, 1
            vzeroupper
            .purgem ROUND
            .purgem LOAD_TWO
            ",
            purge_row_macros!(),
            constants = sym ROW_CONSTANTS,
            iv = const offset_of!(RowConstants, iv),
            in("rdi") key,
            in("rsi") blocks,
            in("rdx") last,
            in("rcx") row,
            in("r9") out,
            out("rax") _, out("r8") _,
            out("k1") _, out("k2") _, out("k3") _,
        );
    }
}

/// Hashes independent one-block jobs as `Platform::hash_blocks` does:
/// sixteen at a time (`parents16`), then what remains with the narrowest
/// kernel that takes it.
///
/// # Safety
///
/// The CPU must support AVX-512F and AVX-512VL.
#[target_feature(enable = "avx512f,avx512vl,avx2")]
pub(super) unsafe fn hash_parent_blocks(key: &CvWords, flags: u8, blocks: &[[u8; BLOCK_LEN]], out: &mut [CvBytes]) {
    assert!(out.len() >= blocks.len());
    let (groups, rest) = blocks.as_chunks::<16>();
    let (out_groups, out_rest) = out[..blocks.len()].as_chunks_mut::<16>();
    for (group, values) in groups.iter().zip(out_groups) {
        // SAFETY: AVX-512F + VL per the caller; sixteen blocks, sixteen
        // values.
        unsafe { parents16(key.as_ptr(), flags, group.as_ptr().cast(), 16, values.as_mut_ptr().cast()) };
    }
    let count = rest.len();
    if count <= 2 {
        if count > 0 {
            // SAFETY: AVX-512F + VL per the caller; one or two blocks and
            // values.
            unsafe { hash_one_or_two_blocks(key, flags, rest, out_rest) };
        }
        return;
    }
    let mut scratch = [[0u8; 32]; 16];
    let (key, blocks, values) = (key.as_ptr(), rest.as_ptr().cast(), scratch.as_mut_ptr().cast());
    // SAFETY: AVX-512F + VL per the caller; `rest` holds `count` blocks,
    // `scratch` room for sixteen values, the most any of these writes.
    unsafe {
        match count {
            3..=4 => compress_four(key, blocks, count, len_flags(BLOCK_LEN as u32, flags), values),
            5..=8 => parents8(key, flags, blocks, count, values),
            _ => parents16(key, flags, blocks, count, values),
        }
    }
    out_rest.copy_from_slice(&scratch[..count]);
}
