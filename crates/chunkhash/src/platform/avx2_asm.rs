//! AVX2 kernels in inline assembly (x86_64, AVX2 + BMI2): the `avx2asm`
//! backend, for CPUs without AVX-512.
//!
//! Written from the BLAKE3 specification (section 2.2) like
//! `avx512_asm.rs`, with what AVX2 lacks worked around: sixteen vector
//! registers instead of 32, and no rotate instruction (rotations by 16 and
//! 8 are byte shuffles, by 12 and 7 two shifts and an OR). The intrinsics
//! kernels (`avx2.rs`, `sse41.rs`) compute the same and are the oracle.
//!
//! - Row kernels (`compress_chain`, `hash_rows`): the state as four row
//!   vectors, one 128-bit lane per chain, for one or two chains.
//! - `run8`: eight chains, one per 32-bit lane of ymm0-15 (transposed).
//! - `hash_parent_blocks`: a tree level's parents, eight at a time with
//!   the blocks transposed in registers (`parents8`), one or two in the
//!   row form (`compress_two`).

use super::asm_lanes::{
    asm_all_vectors, len_flags, row_output, row_params_asm, short_third_chunk, LaneParams, PaddedBlocks, RowParams,
    RowScratch,
};
use super::job::LaneJob;
use super::spec::{CvBytes, CvWords, BLOCK_LEN, CHUNK_LEN, IV};
use core::arch::asm;
use core::mem::{offset_of, MaybeUninit};

/// Byte shuffles that rotate every 32-bit word right by 16 and by 8, for
/// `vpshufb` (the same pattern in both 128-bit halves), and the IV row.
#[repr(C, align(64))]
struct Constants {
    rotate16: [u8; 32],
    rotate8: [u8; 32],
    iv: [u32; 4],
}

static CONSTANTS: Constants = Constants {
    rotate16: [
        2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13, 2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13,
    ],
    rotate8: [
        1, 2, 3, 0, 5, 6, 7, 4, 9, 10, 11, 8, 13, 14, 15, 12, 1, 2, 3, 0, 5, 6, 7, 4, 9, 10, 11, 8, 13, 14, 15, 12,
    ],
    iv: [IV[0], IV[1], IV[2], IV[3]],
};

/// Assembler macros of the AVX2 row form: rows a, b, c, d (spec section
/// 2.2's v0-3, v4-7, v8-11, v12-15), one 128-bit lane per chain; `w` is
/// `xmm` or `ymm`, the other arguments register numbers; r8 points to
/// `CONSTANTS`.
macro_rules! avx2_row_macros {
    () => {
        r"
        // G on the four columns (or diagonals) of one set of rows, with
        // message vectors mx, my; t is scratch.
        .macro G_ROWS w, a, b, c, d, mx, my, t
            vpaddd \w\a, \w\a, \w\mx
            vpaddd \w\a, \w\a, \w\b
            vpxor \w\d, \w\d, \w\a
            vpshufb \w\d, \w\d, [r8]
            vpaddd \w\c, \w\c, \w\d
            vpxor \w\b, \w\b, \w\c
            vpsrld \w\t, \w\b, 12
            vpslld \w\b, \w\b, 20
            vpor \w\b, \w\b, \w\t
            vpaddd \w\a, \w\a, \w\my
            vpaddd \w\a, \w\a, \w\b
            vpxor \w\d, \w\d, \w\a
            vpshufb \w\d, \w\d, [r8 + 32]
            vpaddd \w\c, \w\c, \w\d
            vpxor \w\b, \w\b, \w\c
            vpsrld \w\t, \w\b, 7
            vpslld \w\b, \w\b, 25
            vpor \w\b, \w\b, \w\t
        .endm
        // Rotate rows a, c, d so that lane j of the columns step computes
        // the diagonal through b's word j (b stays: it is finished last).
        .macro DIAGONALIZE w, a, c, d
            vpshufd \w\a, \w\a, 0x93
            vpshufd \w\c, \w\c, 0x39
            vpshufd \w\d, \w\d, 0x4E
        .endm
        .macro UNDIAGONALIZE w, a, c, d
            vpshufd \w\a, \w\a, 0x39
            vpshufd \w\c, \w\c, 0x93
            vpshufd \w\d, \w\d, 0x4E
        .endm
        // Round 0's message vectors from four 16-byte quarters q0-q3 of a
        // block (per lane): column x = words 0 2 4 6, column y = 1 3 5 7,
        // diagonal x = 14 8 10 12, diagonal y = 15 9 11 13.
        .macro FIRST_WORDS w, q0, q1, q2, q3, cx, cy, dx, dy
            vshufps \w\cx, \w\q0, \w\q1, 0x88
            vshufps \w\cy, \w\q0, \w\q1, 0xDD
            vshufps \w\dx, \w\q2, \w\q3, 0x88
            vpshufd \w\dx, \w\dx, 0x93
            vshufps \w\dy, \w\q2, \w\q3, 0xDD
            vpshufd \w\dy, \w\dy, 0x93
        .endm
        // The next round's message vectors. Each round permutes the
        // message by the spec's [2, 6, 3, 10, 7, 0, 4, 13, 1, 11, 12, 5, 9,
        // 14, 15, 8], which maps this round's vectors to the next round's as
        //   column x   = (cx1, cy1, cy3, cx2)
        //   column y   = (cx3, dx2, cx0, dy3)
        //   diagonal x = (dy0, cy0, dx3, dy1)
        //   diagonal y = (dx1, dy2, cy2, dx0)
        // (derived in `RoundWords::next`, avx512.rs); here with two-source
        // shuffles, a word shuffle and a blend. `blend3` and `blend2` are
        // the blend masks of word 3 and word 2 of every lane.
        .macro NEXT_WORDS w, cx, cy, dx, dy, ncx, ncy, ndx, ndy, t, blend3, blend2
            vshufps \w\ncx, \w\cx, \w\cy, 0xD9
            vpshufd \w\ncx, \w\ncx, 0x78
            vshufps \w\ncy, \w\cx, \w\dx, 0xA3
            vpshufd \w\ncy, \w\ncy, 0xD8
            vpblendd \w\ncy, \w\ncy, \w\dy, \blend3
            vunpcklps \w\t, \w\dy, \w\cy
            vshufps \w\ndx, \w\dx, \w\dy, 0x5F
            vshufps \w\ndx, \w\t, \w\ndx, 0x84
            vshufps \w\ndy, \w\dx, \w\dy, 0xA1
            vpshufd \w\ndy, \w\ndy, 0x78
            vpblendd \w\ndy, \w\ndy, \w\cy, \blend2
        .endm
        "
    };
}

/// Purges what `avx2_row_macros!` defines.
macro_rules! purge_avx2_row_macros {
    () => {
        r"
        .purgem G_ROWS
        .purgem DIAGONALIZE
        .purgem UNDIAGONALIZE
        .purgem FIRST_WORDS
        .purgem NEXT_WORDS
        "
    };
}

/// `ROW_PAIR`, for the row kernels over a `RowParams` (the `counter`
/// operand names its field).
macro_rules! avx2_row_params_macros {
    () => {
        r"
        // The fourth rows of pair `pair` for its blocks `field` (an offset
        // into the `RowParams` at rdi): counter and length + flags of each
        // chain, from 8-byte loads, to rsi + `dst` (xmm10-11 scratch).
        .macro ROW_PAIR field, pair, dst
            vmovq xmm10, [rdi + {counter} + 16*\pair]
            vpinsrq xmm10, xmm10, [rdi + \field + 16*\pair], 1
            vmovq xmm11, [rdi + {counter} + 16*\pair + 8]
            vpinsrq xmm11, xmm11, [rdi + \field + 16*\pair + 8], 1
            vinserti128 ymm10, ymm10, xmm11, 1
            vmovdqa [rsi + \dst], ymm10
        .endm
        "
    };
}

/// Compresses `count >= 1` blocks at `blocks` one after another, as
/// `avx512_asm::compress_chain` does (the same contract), with AVX2.
///
/// # Safety
///
/// AVX2; `cv_in` readable for 32 bytes, `blocks` for `64 * count`,
/// `cv_out` writable for 32 bytes (unless `xof`), `xof` null or writable
/// for 64.
#[target_feature(enable = "avx2")]
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
    // memory and `CONSTANTS`, and declares every register it changes.
    unsafe {
        asm!(
            avx2_row_macros!(),
            r"
            // Rows in xmm0-3, message words in xmm4-7 and xmm8-11 by turns,
            // xmm12-15 scratch.
            .macro ROUND cx, cy, dx, dy, ncx, ncy, ndx, ndy, next
                .if \next
                    NEXT_WORDS xmm, \cx, \cy, \dx, \dy, \ncx, \ncy, \ndx, \ndy, 13, 0x8, 0x4
                .endif
                G_ROWS xmm, 0, 1, 2, 3, \cx, \cy, 12
                DIAGONALIZE xmm, 0, 2, 3
                G_ROWS xmm, 0, 1, 2, 3, \dx, \dy, 12
                UNDIAGONALIZE xmm, 0, 2, 3
            .endm
            lea r8, [rip + {constants}]
            vmovdqu xmm0, [rdi]
            vmovdqu xmm1, [rdi + 16]
            vmovq xmm15, rdx
            2:
            vmovdqu xmm12, [rsi]
            vmovdqu xmm13, [rsi + 16]
            vmovdqu xmm14, [rsi + 32]
            vmovdqu xmm3, [rsi + 48]
            FIRST_WORDS xmm, 12, 13, 14, 3, 4, 5, 6, 7
            vmovdqa xmm2, [r8 + {iv}]
            vpinsrq xmm3, xmm15, r11, 1
            ROUND 4, 5, 6, 7, 8, 9, 10, 11, 1
            ROUND 8, 9, 10, 11, 4, 5, 6, 7, 1
            ROUND 4, 5, 6, 7, 8, 9, 10, 11, 1
            ROUND 8, 9, 10, 11, 4, 5, 6, 7, 1
            ROUND 4, 5, 6, 7, 8, 9, 10, 11, 1
            ROUND 8, 9, 10, 11, 4, 5, 6, 7, 1
            ROUND 4, 5, 6, 7, 8, 9, 10, 11, 0
            ",
            super::asm_lanes::chain_tail!(),
            r"
            .purgem ROUND
            ",
            purge_avx2_row_macros!(),
            constants = sym CONSTANTS,
            iv = const offset_of!(Constants, iv),
            in("rdi") cv_in,
            in("r10") cv_out,
            inout("rsi") blocks => _,
            inout("rcx") count => _,
            in("rdx") counter,
            inout("r11") first => _,
            in("rax") rest,
            in("r9") xof,
            out("r8") _,
            out("xmm0") _, out("xmm1") _, out("xmm2") _, out("xmm3") _,
            out("xmm4") _, out("xmm5") _, out("xmm6") _, out("xmm7") _,
            out("xmm8") _, out("xmm9") _, out("xmm10") _, out("xmm11") _,
            out("xmm12") _, out("xmm13") _, out("xmm14") _, out("xmm15") _,
            options(nostack),
        );
    }
}

super::asm_lanes::single_block_entry_points!("avx2", "The CPU must support AVX2.");

/// Compresses two blocks from the same chaining value side by side, as
/// `avx512_asm::compress_two` does (the same contract), with AVX2.
///
/// # Safety
///
/// AVX2; `key` readable for 32 bytes, `block0` and `block1` for 64, `out0`
/// and `out1` writable for 32.
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn compress_two(key: *const u32, block0: *const u8, block1: *const u8, row: u64, out0: *mut u8, out1: *mut u8) {
    // SAFETY: forwarded from the caller; the block reads only the named
    // memory and `CONSTANTS`, writes only `out0` and `out1`, and declares
    // every register it changes.
    unsafe {
        asm_all_vectors!(ymm:
            avx2_row_macros!(),
            r"
            .macro ROUND cx, cy, dx, dy, ncx, ncy, ndx, ndy, next
                .if \next
                    NEXT_WORDS ymm, \cx, \cy, \dx, \dy, \ncx, \ncy, \ndx, \ndy, 13, 0x88, 0x44
                .endif
                G_ROWS ymm, 0, 1, 2, 3, \cx, \cy, 12
                DIAGONALIZE ymm, 0, 2, 3
                G_ROWS ymm, 0, 1, 2, 3, \dx, \dy, 12
                UNDIAGONALIZE ymm, 0, 2, 3
            .endm
            lea r8, [rip + {constants}]
            vbroadcasti128 ymm0, [rdi]
            vbroadcasti128 ymm1, [rdi + 16]
            vmovdqu xmm12, [rsi]
            vinserti128 ymm12, ymm12, [rdx], 1
            vmovdqu xmm13, [rsi + 16]
            vinserti128 ymm13, ymm13, [rdx + 16], 1
            vmovdqu xmm14, [rsi + 32]
            vinserti128 ymm14, ymm14, [rdx + 32], 1
            vmovdqu xmm15, [rsi + 48]
            vinserti128 ymm15, ymm15, [rdx + 48], 1
            FIRST_WORDS ymm, 12, 13, 14, 15, 4, 5, 6, 7
            vbroadcasti128 ymm2, [r8 + {iv}]
            // The fourth row: counter 0, then `row`, in both chains.
            vmovq xmm3, rcx
            vpbroadcastq ymm3, xmm3
            vpxor xmm12, xmm12, xmm12
            vpblendd ymm3, ymm3, ymm12, 0x33
            ROUND 4, 5, 6, 7, 8, 9, 10, 11, 1
            ROUND 8, 9, 10, 11, 4, 5, 6, 7, 1
            ROUND 4, 5, 6, 7, 8, 9, 10, 11, 1
            ROUND 8, 9, 10, 11, 4, 5, 6, 7, 1
            ROUND 4, 5, 6, 7, 8, 9, 10, 11, 1
            ROUND 8, 9, 10, 11, 4, 5, 6, 7, 1
            ROUND 4, 5, 6, 7, 8, 9, 10, 11, 0
            vpxor ymm0, ymm0, ymm2
            vpxor ymm1, ymm1, ymm3
            vmovdqu [r9], xmm0
            vmovdqu [r9 + 16], xmm1
            vextracti128 [r10], ymm0, 1
            vextracti128 [r10 + 16], ymm1, 1
            vzeroupper
            .purgem ROUND
            ",
            purge_avx2_row_macros!(),
            constants = sym CONSTANTS,
            iv = const offset_of!(Constants, iv),
            in("rdi") key,
            in("rsi") block0,
            in("rdx") block1,
            in("rcx") row,
            in("r9") out0,
            in("r10") out1,
            out("r8") _,
        );
    }
}

/// Hashes one or two jobs in the row form, side by side in the two 128-bit
/// lanes of ymm registers (a job per lane).
///
/// # Safety
///
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
pub(super) unsafe fn hash_rows2(key: &CvWords, jobs: &[LaneJob<'_>], out: &mut [CvBytes]) {
    assert!(out.len() == jobs.len() && (1..=2).contains(&jobs.len()));
    let mut padded = PaddedBlocks::uninit();
    let params = RowParams::new(key, jobs, &mut padded);
    // SAFETY: AVX2 per the caller; `params` comes from `RowParams::new`
    // (its pointers' invariant) with `padded` alive.
    unsafe { run_rows2(&params, out) }
}

/// Runs a row-form call over the one or two chains of `params` (as many
/// as `out` holds) and writes their values to `out`.
///
/// # Safety
///
/// AVX2; the block pointers of `params` name 64 readable bytes at every
/// step (`asm_lanes`), and its key is readable.
#[target_feature(enable = "avx2")]
unsafe fn run_rows2(params: &RowParams, out: &mut [CvBytes]) {
    assert!((1..=2).contains(&out.len()));
    let mut scratch = MaybeUninit::<RowScratch>::uninit();
    // SAFETY: AVX2 per the caller. The block pointers of `params` name 64
    // readable bytes at every step (`asm_lanes`), `padded` and the key
    // outlive the block; it writes only `scratch`, reads only `params`,
    // `scratch`, the key, the blocks and `CONSTANTS`, and declares every
    // register it changes.
    unsafe {
        row_params_asm!(ymm:
            avx2_row_macros!(),
            avx2_row_params_macros!(),
            r"
            // Rows in ymm0-3 (chain 0 low, chain 1 high), message words in
            // ymm4-7 and ymm8-11 by turns, ymm12-15 scratch; rdi the
            // parameters, rsi the outputs, r8 the constants, r12 this
            // step's fourth rows, r13 the step.
            .macro LANE_POINTER reg, chain
                mov \reg, [rdi + {base} + 8*\chain]
                add \reg, r10
                cmp rcx, [rdi + {whole} + 8*\chain]
                cmovae \reg, [rdi + {pad} + 8*\chain]
                // The block four steps on (the first four: see
                // `prefetch_first_blocks`).
                prefetcht0 [\reg + 4*64]
            .endm
            .macro ROUND cx, cy, dx, dy, ncx, ncy, ndx, ndy, next
                .if \next
                    NEXT_WORDS ymm, \cx, \cy, \dx, \dy, \ncx, \ncy, \ndx, \ndy, 13, 0x88, 0x44
                .endif
                G_ROWS ymm, 0, 1, 2, 3, \cx, \cy, 12
                DIAGONALIZE ymm, 0, 2, 3
                G_ROWS ymm, 0, 1, 2, 3, \dx, \dy, 12
                UNDIAGONALIZE ymm, 0, 2, 3
            .endm
            lea r8, [rip + {constants}]
            ROW_PAIR {first}, 0, {rows}
            ROW_PAIR {middle}, 0, {rows} + 32
            ROW_PAIR {last}, 0, {rows} + 64
            mov rax, [rdi + {key}]
            vbroadcasti128 ymm0, [rax]
            vbroadcasti128 ymm1, [rax + 16]
            lea r12, [rsi + {rows}]
            mov r11, [rdi + {steps}]
            xor r13d, r13d
            2:
            mov rcx, r13
            mov r10, r13
            shl r10, 6
            LANE_POINTER rax, 0
            LANE_POINTER rdx, 1
            vmovdqu xmm12, [rax]
            vinserti128 ymm12, ymm12, [rdx], 1
            vmovdqu xmm13, [rax + 16]
            vinserti128 ymm13, ymm13, [rdx + 16], 1
            vmovdqu xmm14, [rax + 32]
            vinserti128 ymm14, ymm14, [rdx + 32], 1
            vmovdqu xmm15, [rax + 48]
            vinserti128 ymm15, ymm15, [rdx + 48], 1
            FIRST_WORDS ymm, 12, 13, 14, 15, 4, 5, 6, 7
            vbroadcasti128 ymm2, [r8 + {iv}]
            vmovdqu ymm3, [r12]
            cmp r13, [rdi + {last_block}]
            jne 3f
            vpblendd ymm3, ymm3, [rsi + {rows} + 64], 0x0F
            3:
            cmp r13, [rdi + {last_block} + 8]
            jne 4f
            vpblendd ymm3, ymm3, [rsi + {rows} + 64], 0xF0
            4:
            ROUND 4, 5, 6, 7, 8, 9, 10, 11, 1
            ROUND 8, 9, 10, 11, 4, 5, 6, 7, 1
            ROUND 4, 5, 6, 7, 8, 9, 10, 11, 1
            ROUND 8, 9, 10, 11, 4, 5, 6, 7, 1
            ROUND 4, 5, 6, 7, 8, 9, 10, 11, 1
            ROUND 8, 9, 10, 11, 4, 5, 6, 7, 1
            ROUND 4, 5, 6, 7, 8, 9, 10, 11, 0
            vpxor ymm0, ymm0, ymm2
            vpxor ymm1, ymm1, ymm3
            // A chain whose last block this was keeps its value.
            cmp r13, [rdi + {last_block}]
            jne 5f
            vmovdqu [rsi + {out}], xmm0
            vmovdqu [rsi + {out} + 32], xmm1
            5:
            cmp r13, [rdi + {last_block} + 8]
            jne 6f
            vextracti128 [rsi + {out} + 16], ymm0, 1
            vextracti128 [rsi + {out} + 48], ymm1, 1
            6:
            lea r12, [rsi + {rows} + 32]
            inc r13
            cmp r13, r11
            jb 2b
            vzeroupper
            .purgem LANE_POINTER
            .purgem ROW_PAIR
            .purgem ROUND
            ",
            purge_avx2_row_macros!(),
            rows = const offset_of!(RowScratch, rows),
            out = const offset_of!(RowScratch, out),
            constants = sym CONSTANTS,
            iv = const offset_of!(Constants, iv),
            in("rdi") params,
            in("rsi") scratch.as_mut_ptr(),
            out("rax") _, out("rcx") _, out("rdx") _,
            out("r8") _, out("r10") _, out("r11") _, out("r12") _, out("r13") _,
        );
    }
    // SAFETY: every chain of `jobs` has a last block at some step, where
    // the block above stored its value (its lane of `scratch.out`).
    let written = unsafe { &*core::ptr::addr_of!((*scratch.as_ptr()).out) };
    for (chain, value) in out.iter_mut().enumerate() {
        *value = row_output(written, chain);
    }
}

/// Assembler macros of the AVX2 transposed kernels (`run8`,
/// `parents8`): the rounds with v11 in memory and the message at r8, and
/// the 8x8 transpose. Operands: `v11` (its offset from rsi), `constants`,
/// `rotate16`, `rotate8`; `ROUND` calls `NEXT_LANE`, which the kernel
/// defines.
macro_rules! avx2_lane_macros {
    () => {
        r"
        // c += d for one (c, d): v11 lives in memory, its new value
        // also stays in ymm11 for the XOR with b that follows.
        .macro ADD_C c, d
            .if \c == 11
                vpaddd ymm11, ymm\d, [rsi + {v11}]
                vmovdqa [rsi + {v11}], ymm11
            .else
                vpaddd ymm\c, ymm\c, ymm\d
            .endif
        .endm
        // b = (b ^ c) >>> n for four (b, c), ymm11 as scratch.
        .macro XOR_SHIFT_ROTATE n, b0, c0, b1, c1, b2, c2, b3, c3
            vpxor ymm\b0, ymm\b0, ymm\c0
            vpxor ymm\b1, ymm\b1, ymm\c1
            vpxor ymm\b2, ymm\b2, ymm\c2
            vpxor ymm\b3, ymm\b3, ymm\c3
            .irp b, \b0, \b1, \b2, \b3
                vpsrld ymm11, ymm\b, \n
                vpslld ymm\b, ymm\b, 32-\n
                vpor ymm\b, ymm\b, ymm11
            .endr
        .endm
        // Half of G on four columns or diagonals (register numbers; 11
        // stands for v11 in memory): a += m + b, d = (d ^ a) >>> 16 or
        // 8 (a byte shuffle, pattern at `shuffle`), c += d, b = (b ^ c)
        // >>> n, message words x at r8.
        .macro HALF_G4 shuffle, n, a0,b0,c0,d0, a1,b1,c1,d1, a2,b2,c2,d2, a3,b3,c3,d3, x0,x1,x2,x3
            vpaddd ymm\a0, ymm\a0, [r8 + 32*\x0]
            vpaddd ymm\a1, ymm\a1, [r8 + 32*\x1]
            vpaddd ymm\a2, ymm\a2, [r8 + 32*\x2]
            vpaddd ymm\a3, ymm\a3, [r8 + 32*\x3]
            vpaddd ymm\a0, ymm\a0, ymm\b0
            vpaddd ymm\a1, ymm\a1, ymm\b1
            vpaddd ymm\a2, ymm\a2, ymm\b2
            vpaddd ymm\a3, ymm\a3, ymm\b3
            XOR_SHUFFLE \shuffle, \d0, \a0
            XOR_SHUFFLE \shuffle, \d1, \a1
            XOR_SHUFFLE \shuffle, \d2, \a2
            XOR_SHUFFLE \shuffle, \d3, \a3
            ADD_C \c0, \d0
            ADD_C \c1, \d1
            ADD_C \c2, \d2
            ADD_C \c3, \d3
            XOR_SHIFT_ROTATE \n, \b0, \c0, \b1, \c1, \b2, \c2, \b3, \c3
        .endm
        .macro XOR_SHUFFLE shuffle, d, a
            vpxor ymm\d, ymm\d, ymm\a
            vpshufb ymm\d, ymm\d, [rip + {constants} + \shuffle]
        .endm
        // G on four columns or diagonals, message words x then y.
        .macro G4 a0,b0,c0,d0, a1,b1,c1,d1, a2,b2,c2,d2, a3,b3,c3,d3, x0,x1,x2,x3, y0,y1,y2,y3
            HALF_G4 {rotate16}, 12, \a0,\b0,\c0,\d0, \a1,\b1,\c1,\d1, \a2,\b2,\c2,\d2, \a3,\b3,\c3,\d3, \x0,\x1,\x2,\x3
            HALF_G4 {rotate8}, 7, \a0,\b0,\c0,\d0, \a1,\b1,\c1,\d1, \a2,\b2,\c2,\d2, \a3,\b3,\c3,\d3, \y0,\y1,\y2,\y3
        .endm
        .macro ROUND x0,x1,x2,x3, y0,y1,y2,y3, z0,z1,z2,z3, w0,w1,w2,w3
            G4 0,4,8,12, 1,5,9,13, 2,6,10,14, 3,7,11,15, \x0,\x1,\x2,\x3, \y0,\y1,\y2,\y3
            NEXT_LANE
            G4 0,5,10,15, 1,6,11,12, 2,7,8,13, 3,4,9,14, \z0,\z1,\z2,\z3, \w0,\w1,\w2,\w3
            NEXT_LANE
        .endm
        .macro SCHEDULE s0,s1,s2,s3,s4,s5,s6,s7,s8,s9,s10,s11,s12,s13,s14,s15
            ROUND \s0,\s2,\s4,\s6, \s1,\s3,\s5,\s7, \s8,\s10,\s12,\s14, \s9,\s11,\s13,\s15
        .endm
        // Interleaves words, then pairs, then halves: ymm0-7 (word i of
        // the eight lanes in ymm i) become lane j's eight words in ymm
        // 8+j, which go to `dst` + 32*j. The same transpose turns eight
        // lanes' blocks into words.
        .macro TRANSPOSE8 s0, s1, s2, s3, s4, s5, s6, s7, t0, t1, t2, t3, t4, t5, t6, t7
            vpunpckldq ymm\t0, ymm\s0, ymm\s1
            vpunpckhdq ymm\t1, ymm\s0, ymm\s1
            vpunpckldq ymm\t2, ymm\s2, ymm\s3
            vpunpckhdq ymm\t3, ymm\s2, ymm\s3
            vpunpckldq ymm\t4, ymm\s4, ymm\s5
            vpunpckhdq ymm\t5, ymm\s4, ymm\s5
            vpunpckldq ymm\t6, ymm\s6, ymm\s7
            vpunpckhdq ymm\t7, ymm\s6, ymm\s7
            vpunpcklqdq ymm\s0, ymm\t0, ymm\t2
            vpunpckhqdq ymm\s1, ymm\t0, ymm\t2
            vpunpcklqdq ymm\s2, ymm\t1, ymm\t3
            vpunpckhqdq ymm\s3, ymm\t1, ymm\t3
            vpunpcklqdq ymm\s4, ymm\t4, ymm\t6
            vpunpckhqdq ymm\s5, ymm\t4, ymm\t6
            vpunpcklqdq ymm\s6, ymm\t5, ymm\t7
            vpunpckhqdq ymm\s7, ymm\t5, ymm\t7
            vperm2i128 ymm\t0, ymm\s0, ymm\s4, 0x20
            vperm2i128 ymm\t1, ymm\s1, ymm\s5, 0x20
            vperm2i128 ymm\t2, ymm\s2, ymm\s6, 0x20
            vperm2i128 ymm\t3, ymm\s3, ymm\s7, 0x20
            vperm2i128 ymm\t4, ymm\s0, ymm\s4, 0x31
            vperm2i128 ymm\t5, ymm\s1, ymm\s5, 0x31
            vperm2i128 ymm\t6, ymm\s2, ymm\s6, 0x31
            vperm2i128 ymm\t7, ymm\s3, ymm\s7, 0x31
        .endm
        .macro OUT dst
            TRANSPOSE8 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
            vmovdqu [\dst + 0], ymm8
            vmovdqu [\dst + 32], ymm9
            vmovdqu [\dst + 64], ymm10
            vmovdqu [\dst + 96], ymm11
            vmovdqu [\dst + 128], ymm12
            vmovdqu [\dst + 160], ymm13
            vmovdqu [\dst + 192], ymm14
            vmovdqu [\dst + 224], ymm15
        .endm

        "
    };
}

/// Purges what `avx2_lane_macros!` defines.
macro_rules! purge_avx2_lane_macros {
    () => {
        r"
        .purgem ADD_C
        .purgem XOR_SHIFT_ROTATE
        .purgem HALF_G4
        .purgem XOR_SHUFFLE
        .purgem G4
        .purgem ROUND
        .purgem SCHEDULE
        .purgem TRANSPOSE8
        .purgem OUT
        "
    };
}

/// Memory of one 8-lane call: the transposed message of this step and the
/// next (`message[step % 2][i]` is word `i` of every lane), the chaining
/// values of lanes as they finish (transposed), the state word v11, and
/// values per lane when the caller's buffer cannot take all eight.
#[repr(C, align(64))]
struct Scratch8 {
    message: [[[u32; 8]; 16]; 2],
    finished: [[u32; 8]; 8],
    v11: [u32; 8],
    out: [[u8; 32]; 8],
    /// This step's prefetch offset from a lane's block.
    prefetch: u64,
}

/// Runs an 8-lane call: chains of blocks, as `avx512_asm::run16` does for
/// sixteen (see [`LaneParams`]; only its
/// first eight lanes are read).
///
/// Sixteen ymm registers for sixteen state words leave none for the
/// shifts of the rotations by 12 and 7, so one word lives in memory: v11,
/// a `c` (column 3, diagonal 1), whose `c += d` becomes `t = d + [v11];
/// [v11] = t` and whose next read comes about the store-forwarding delay
/// later, when it is due anyway (measured on Zen 4: 348 cycles for the
/// rounds of a step, against 367 with v3 spilled around each rotation).
/// `t` (ymm11) then serves the shifts. The message is read through memory
/// operands, the rotations by 16 and 8 are byte shuffles with the pattern
/// in memory.
///
/// # Safety
///
/// AVX2 + BMI2. The block pointers of `params` name 64 readable bytes at
/// every step up to and including `steps` (`asm_lanes`), and `params.out`
/// is writable for 256 bytes.
#[target_feature(enable = "avx2,bmi2")]
unsafe fn run8(params: &LaneParams, scratch: &mut MaybeUninit<Scratch8>) {
    // SAFETY: forwarded from the caller. The block writes `params.out` and
    // `scratch` only, reads `params`, `scratch`, the blocks and
    // `CONSTANTS`, and declares every register it changes.
    unsafe {
        asm_all_vectors!(ymm:
            avx2_lane_macros!(),
            // Registers: ymm0-15 the state; rdi the parameters, rsi the
            // scratch memory, r8 this step's message, r9 the next step's,
            // rcx the next step and r10 its byte offset in a lane (rcx <<
            // r14), r13 the step, r11 the step count, r12 the offset of this
            // step's flags in the parameters, r15 where values go, rax and
            // rdx scalar scratch, rbp... not used; r14 the stride shift.
            r"
            .macro LANE_POINTER reg, lane
                mov \reg, [rdi + {base} + 8*(\lane)]
                add \reg, r10
                cmp rcx, [rdi + {whole} + 8*(\lane)]
                cmovae \reg, [rdi + {pad} + 8*(\lane)]
            .endm
            // Copies lane `lane`'s block for step rcx into column `lane` of
            // the transposed message at `dst` (rows of 32 bytes), and asks
            // for the block the step's prefetch offset names (as in
            // `avx512_asm`'s `PREFETCH_OFFSET`: four blocks on, from step 12
            // the first blocks of the lane's chunk in the next call, 8 KiB
            // on).
            .macro SCALAR_LANE lane, dst
                LANE_POINTER rax, \lane
                mov rdx, [rsi + {prefetch}]
                prefetcht0 [rax + rdx]
                .irp k, 0, 1, 2, 3, 4, 5, 6, 7
                    mov rdx, [rax + 8*\k]
                    mov [\dst + 64*\k + 4*(\lane)], edx
                    shr rdx, 32
                    mov [\dst + 64*\k + 32 + 4*(\lane)], edx
                .endr
            .endm
            // After G step `g_steps` (of 14), copy lanes so that all 8 are
            // done by the 13th (see `avx512_asm::run16`).
            .macro NEXT_LANE
                .set g_steps, g_steps + 1
                .rept 2
                    .if lanes_copied < 8 && lanes_copied * 13 < g_steps * 8
                        SCALAR_LANE lanes_copied, r9
                        .set lanes_copied, lanes_copied + 1
                    .endif
                .endr
            .endm
            .macro KEYS
                .irp i, 0, 1, 2, 3, 4, 5, 6, 7
                    vpbroadcastd ymm\i, dword ptr [rdi + {key_iv} + 4*\i]
                .endr
            .endm
            // Step 0's blocks: loaded whole and transposed with the vector
            // registers, free until the rounds start (scalar copies, as for
            // the later steps, would leave the first rounds' loads waiting
            // for 128 narrow stores to reach the cache).
            .macro VECTOR_HALF half
                .irp j, 0, 1, 2, 3, 4, 5, 6, 7
                    LANE_POINTER rax, \j
                    // Blocks 1-4: the steps' prefetches begin four
                    // blocks ahead of step 1 (see `avx512_asm`'s
                    // `PREFETCH_START`).
                    .if \half == 0
                        prefetcht0 [rax + 64]
                        prefetcht0 [rax + 2*64]
                        prefetcht0 [rax + 3*64]
                        prefetcht0 [rax + 4*64]
                    .endif
                    vmovdqu ymm\j, [rax + 32*\half]
                .endr
                TRANSPOSE8 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
                .irp i, 8, 9, 10, 11, 12, 13, 14, 15
                    vmovdqa [r8 + 256*\half + 32*(\i-8)], ymm\i
                .endr
            .endm
            xor ecx, ecx
            xor r10d, r10d
            mov r14d, 6
            mov r8, rsi
            lea r9, [rsi + 512]
            VECTOR_HALF 0
            VECTOR_HALF 1
            KEYS
            mov r12, {first_flags}
            mov r11, [rdi + {steps}]
            xor r13d, r13d

            2:
            lea rcx, [r13 + 1]
            shlx r10, rcx, r14
            mov eax, 4*64
            mov edx, 8*1024 - 12*64
            cmp rcx, 12
            cmovae eax, edx
            mov [rsi + {prefetch}], rax
            // The fourth row: ymm14 = the lanes ending at this step.
            vmovd xmm14, r13d
            vpbroadcastd ymm14, xmm14
            vpcmpeqd ymm14, ymm14, [rdi + {last_block}]
            vpand ymm15, ymm14, [rdi + {end_flags}]
            vpor ymm15, ymm15, [rdi + r12]
            mov eax, 64
            vmovd xmm13, eax
            vpbroadcastd ymm13, xmm13
            vpblendvb ymm14, ymm13, [rdi + {last_len}], ymm14
            vmovdqu ymm12, [rdi + {counter_low}]
            vmovdqu ymm13, [rdi + {counter_high}]
            vpbroadcastd ymm8, dword ptr [rdi + {key_iv} + 32]
            vpbroadcastd ymm9, dword ptr [rdi + {key_iv} + 36]
            vpbroadcastd ymm10, dword ptr [rdi + {key_iv} + 40]
            vpbroadcastd ymm11, dword ptr [rdi + {key_iv} + 44]
            vmovdqa [rsi + {v11}], ymm11
            .set lanes_copied, 0
            .set g_steps, 0
            SCHEDULE 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15
            SCHEDULE 2,6,3,10,7,0,4,13,1,11,12,5,9,14,15,8
            SCHEDULE 3,4,10,12,13,2,7,14,6,5,9,0,11,15,8,1
            SCHEDULE 10,7,12,9,14,3,13,15,4,0,11,2,5,8,1,6
            SCHEDULE 12,13,9,11,15,10,14,8,7,2,5,3,0,1,6,4
            SCHEDULE 9,14,11,5,8,12,15,1,13,3,0,10,2,6,4,7
            SCHEDULE 11,15,5,0,1,9,8,6,14,10,2,12,3,4,7,13
            vpxor ymm0, ymm0, ymm8
            vpxor ymm1, ymm1, ymm9
            vpxor ymm2, ymm2, ymm10
            vpxor ymm3, ymm3, [rsi + {v11}]
            vpxor ymm4, ymm4, ymm12
            vpxor ymm5, ymm5, ymm13
            vpxor ymm6, ymm6, ymm14
            vpxor ymm7, ymm7, ymm15
            // ymm8 = the lanes whose last block this step was.
            vmovd xmm8, r13d
            vpbroadcastd ymm8, xmm8
            vpcmpeqd ymm8, ymm8, [rdi + {last_block}]
            inc r13
            cmp r13, r11
            jae 8f
            vptest ymm8, ymm8
            jz 5f
            // Lanes whose job ends here, before the call's last step.
            .irp i, 0, 1, 2, 3, 4, 5, 6, 7
                vpmaskmovd [rsi + {finished} + 32*\i], ymm8, ymm\i
            .endr
            5:
            mov r12, {flags}
            xchg r8, r9
            jmp 2b

            // The end of chains: the lanes that ended before the last step
            // come from memory, the others are in the registers.
            8:
            .irp i, 0, 1, 2, 3, 4, 5, 6, 7
                vmovdqa ymm9, [rsi + {finished} + 32*\i]
                vpblendvb ymm\i, ymm9, ymm\i, ymm8
            .endr
            mov r15, [rdi + {out}]
            OUT r15
            vzeroupper
            .purgem LANE_POINTER
            .purgem SCALAR_LANE
            .purgem NEXT_LANE
            .purgem KEYS
            .purgem VECTOR_HALF
            ",
            purge_avx2_lane_macros!(),
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
            prefetch = const offset_of!(Scratch8, prefetch),
            finished = const offset_of!(Scratch8, finished),
            v11 = const offset_of!(Scratch8, v11),
            constants = sym CONSTANTS,
            rotate16 = const offset_of!(Constants, rotate16),
            rotate8 = const offset_of!(Constants, rotate8),
            in("rdi") params,
            in("rsi") scratch.as_mut_ptr(),
            out("rax") _, out("rcx") _, out("rdx") _,
            out("r8") _, out("r9") _, out("r10") _, out("r11") _,
            out("r12") _, out("r13") _, out("r14") _, out("r15") _,
        );
    }
}

super::asm_lanes::transposed_entry_points!(
    8,
    "avx2,bmi2",
    "The CPU must support AVX2 and BMI2.",
    run8,
    Scratch8,
    hash_lanes8
);

/// Memory of `parents8`: the transposed message (`message[i]` is word `i`
/// of every lane) and the state word v11.
#[repr(C, align(32))]
struct ParentScratch8 {
    message: [[u32; 8]; 16],
    v11: [u32; 8],
}

/// Compresses up to eight independent blocks from the same chaining value
/// `key` side by side (parents of one tree level: counter 0, block length
/// 64, `flags`), one per 32-bit lane as `run8` does, and writes eight
/// values of 32 bytes to `out` (lanes past `count` repeat the last block).
/// The blocks are consecutive, so no lane parameters: each half of the
/// eight blocks is loaded whole and transposed in registers before the
/// rounds, which read the message from memory as `run8`'s do.
///
/// # Safety
///
/// AVX2; `key` readable for 32 bytes, `blocks` for `64 * count` with
/// `1 <= count <= 8`, `out` writable for 256 bytes.
#[target_feature(enable = "avx2")]
unsafe fn parents8(key: *const u32, flags: u8, blocks: *const u8, count: usize, out: *mut u8) {
    debug_assert!((1..=8).contains(&count));
    let last = blocks.wrapping_add(64 * (count - 1));
    let mut scratch = MaybeUninit::<ParentScratch8>::uninit();
    // SAFETY: forwarded from the caller; the block reads `key`, the first
    // `count` blocks, `scratch` and `CONSTANTS`, writes `scratch` and
    // `out`, and declares every register it changes.
    unsafe {
        asm_all_vectors!(ymm:
            avx2_lane_macros!(),
            r"
            .macro NEXT_LANE
            .endm
            // Lane `lane`'s block into rax: the block `lane` after r9, or
            // the last one (rdx) for lanes past it.
            .macro LANE_BLOCK lane
                lea rax, [r9 + 64*\lane]
                cmp rax, rdx
                cmova rax, rdx
            .endm
            // Words 8*half .. 8*half + 7 of the eight lanes, transposed
            // into rows of the message.
            .macro MESSAGE_HALF half
                .irp j, 0, 1, 2, 3, 4, 5, 6, 7
                    LANE_BLOCK \j
                    vmovdqu ymm\j, [rax + 32*\half]
                .endr
                TRANSPOSE8 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
                .irp i, 8, 9, 10, 11, 12, 13, 14, 15
                    vmovdqa [r8 + 256*\half + 32*(\i-8)], ymm\i
                .endr
            .endm
            mov r8, rsi
            MESSAGE_HALF 0
            MESSAGE_HALF 1
            .irp i, 0, 1, 2, 3, 4, 5, 6, 7
                vpbroadcastd ymm\i, dword ptr [rdi + 4*\i]
            .endr
            vpbroadcastd ymm8, dword ptr [rip + {constants} + {iv}]
            vpbroadcastd ymm9, dword ptr [rip + {constants} + {iv} + 4]
            vpbroadcastd ymm10, dword ptr [rip + {constants} + {iv} + 8]
            vpbroadcastd ymm11, dword ptr [rip + {constants} + {iv} + 12]
            vmovdqa [rsi + {v11}], ymm11
            vpxor xmm12, xmm12, xmm12
            vpxor xmm13, xmm13, xmm13
            mov eax, 64
            vmovd xmm14, eax
            vpbroadcastd ymm14, xmm14
            vmovd xmm15, r10d
            vpbroadcastd ymm15, xmm15
            SCHEDULE 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15
            SCHEDULE 2,6,3,10,7,0,4,13,1,11,12,5,9,14,15,8
            SCHEDULE 3,4,10,12,13,2,7,14,6,5,9,0,11,15,8,1
            SCHEDULE 10,7,12,9,14,3,13,15,4,0,11,2,5,8,1,6
            SCHEDULE 12,13,9,11,15,10,14,8,7,2,5,3,0,1,6,4
            SCHEDULE 9,14,11,5,8,12,15,1,13,3,0,10,2,6,4,7
            SCHEDULE 11,15,5,0,1,9,8,6,14,10,2,12,3,4,7,13
            vpxor ymm0, ymm0, ymm8
            vpxor ymm1, ymm1, ymm9
            vpxor ymm2, ymm2, ymm10
            vpxor ymm3, ymm3, [rsi + {v11}]
            vpxor ymm4, ymm4, ymm12
            vpxor ymm5, ymm5, ymm13
            vpxor ymm6, ymm6, ymm14
            vpxor ymm7, ymm7, ymm15
            OUT rcx
            vzeroupper
            .purgem NEXT_LANE
            .purgem LANE_BLOCK
            .purgem MESSAGE_HALF
            ",
            purge_avx2_lane_macros!(),
            v11 = const offset_of!(ParentScratch8, v11),
            constants = sym CONSTANTS,
            iv = const offset_of!(Constants, iv),
            rotate16 = const offset_of!(Constants, rotate16),
            rotate8 = const offset_of!(Constants, rotate8),
            in("rdi") key,
            in("rsi") scratch.as_mut_ptr(),
            in("r9") blocks,
            in("rdx") last,
            in("rcx") out,
            in("r10d") flags as u32,
            out("rax") _, out("r8") _,
        );
    }
}

/// Hashes independent one-block jobs as `Platform::hash_blocks` does:
/// eight at a time (`parents8`), then what remains with the narrowest
/// kernel that takes it.
///
/// # Safety
///
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
pub(super) unsafe fn hash_parent_blocks(key: &CvWords, flags: u8, blocks: &[[u8; BLOCK_LEN]], out: &mut [CvBytes]) {
    assert!(out.len() >= blocks.len());
    let (groups, rest) = blocks.as_chunks::<8>();
    let (out_groups, out_rest) = out[..blocks.len()].as_chunks_mut::<8>();
    for (group, values) in groups.iter().zip(out_groups) {
        // SAFETY: AVX2 per the caller; eight blocks, eight values.
        unsafe { parents8(key.as_ptr(), flags, group.as_ptr().cast(), 8, values.as_mut_ptr().cast()) };
    }
    let count = rest.len();
    match count {
        0 => {}
        // SAFETY: AVX2 per the caller; one or two blocks and values.
        1..=2 => unsafe { hash_one_or_two_blocks(key, flags, rest, out_rest) },
        _ => {
            let mut scratch = [[0u8; 32]; 8];
            // SAFETY: AVX2 per the caller; `rest` holds `count` blocks,
            // `scratch` room for eight values.
            unsafe { parents8(key.as_ptr(), flags, rest.as_ptr().cast(), count, scratch.as_mut_ptr().cast()) };
            out_rest.copy_from_slice(&scratch[..count]);
        }
    }
}

/// Hashes the whole chunks of `input` as `Platform::hash_chunks` does,
/// eight per call, into `out`; returns how many it hashed: as many as fill
/// whole calls.
///
/// # Safety
///
/// The CPU must support AVX2 and BMI2.
#[target_feature(enable = "avx2,bmi2")]
pub(super) unsafe fn hash_whole_chunks(
    key: &CvWords,
    input: &[u8],
    first_counter: u64,
    chunk_flags: [u8; 3],
    out: &mut [CvBytes],
) -> usize {
    let mut scratch = MaybeUninit::<Scratch8>::uninit();
    let (groups, _) = input.as_chunks::<{ 8 * CHUNK_LEN }>();
    for (group_index, (group, out)) in groups.iter().zip(out.chunks_exact_mut(8)).enumerate() {
        let counter = first_counter.wrapping_add(8 * group_index as u64);
        let params = LaneParams::chunks(key, group, counter, chunk_flags, 8, out.as_mut_ptr().cast());
        // SAFETY: the CPU features are the caller's contract; `params`
        // comes from `LaneParams::chunks` over eight whole chunks and
        // writes eight values to `out`.
        unsafe { run8(&params, &mut scratch) };
    }
    8 * groups.len().min(out.len() / 8)
}

/// Memory of a 4-chain row call: the message vectors of this step and the
/// next (`[step % 2][pair][round][column x, column y, diagonal x,
/// diagonal y]`, both chains of a pair in one 32-byte vector), and the
/// rows and outputs of `RowScratch`.
#[repr(C, align(64))]
struct RowScratch4 {
    message: [[[[[u32; 8]; 4]; 7]; 2]; 2],
    rows: RowScratch,
}

/// Hashes three or four jobs in the row form, as two pairs of chains in
/// two sets of ymm registers whose instructions interleave. With eight
/// registers for the state and two for the shifts, the message vectors do
/// not fit: a step builds the next step's (28 a pair) in memory while its
/// rounds run, and the rounds read them as memory operands.
///
/// # Safety
///
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
pub(super) unsafe fn hash_rows4(key: &CvWords, jobs: &[LaneJob<'_>], out: &mut [CvBytes]) {
    assert!(out.len() == jobs.len() && (1..=4).contains(&jobs.len()));
    let mut padded = PaddedBlocks::uninit();
    let params = RowParams::new(key, jobs, &mut padded);
    // SAFETY: AVX2 per the caller; `params` comes from `RowParams::new`
    // (its pointers' invariant) with `padded` alive.
    unsafe { run_rows4(&params, out) }
}

/// The longest third chunk `hash_chunk_rows` hashes on its own, after
/// the other two in one row set (see `short_third_chunk`); measured on
/// Zen 4: 2049 B 1498-1508 -> 1299-1308 ns, 2240 B 1484-1497 ->
/// 1417-1421 ns; with five blocks even, with six slower.
const SHORT_THIRD_CHUNK: usize = 4 * BLOCK_LEN;

/// Hashes one to four consecutive chunks as `Platform::hash_chunks` does,
/// in the row form; returns their number.
///
/// # Safety
///
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
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
    let out = &mut out[..count];
    // SAFETY: AVX2 per the caller; `params` comes from `RowParams::chunks`
    // (its pointers' invariant) with `padded` alive.
    unsafe {
        if count <= 2 {
            run_rows2(&params, out)
        } else {
            run_rows4(&params, out)
        }
    };
    count
}

/// Runs a two-set row call over the chains of `params` (as many as `out`
/// holds, at most four) and writes their values to `out`.
///
/// # Safety
///
/// AVX2; the block pointers of `params` name 64 readable bytes at every
/// step up to and including `steps` (`asm_lanes`), and its key is
/// readable.
#[target_feature(enable = "avx2")]
unsafe fn run_rows4(params: &RowParams, out: &mut [CvBytes]) {
    assert!((1..=4).contains(&out.len()));
    let mut scratch = MaybeUninit::<RowScratch4>::uninit();
    // SAFETY: forwarded from the caller; the block writes only `scratch`,
    // reads only `params`, `scratch`, the key, the blocks and `CONSTANTS`,
    // and declares every register it changes.
    unsafe {
        row_params_asm!(ymm:
            avx2_row_macros!(),
            avx2_row_params_macros!(),
            r"
            // Rows: ymm0-3 chains 0 and 1, ymm4-7 chains 2 and 3; ymm8 and
            // ymm9 the shifts' scratch; ymm10-15 build the next step's
            // message. rdi the parameters, rsi the scratch memory, r8 the
            // constants, r9 this step's message, r14 the next step's, r12
            // this step's fourth rows, r13 the step, rcx the next step and
            // r10 its byte offset in a chain.
            .macro LANE_POINTER reg, chain
                mov \reg, [rdi + {base} + 8*(\chain)]
                add \reg, r10
                cmp rcx, [rdi + {whole} + 8*(\chain)]
                cmovae \reg, [rdi + {pad} + 8*(\chain)]
                // The block four steps on (the first four: see
                // `prefetch_first_blocks`).
                prefetcht0 [\reg + 4*64]
            .endm
            // Round 0's message of pair `pair` for step rcx into `dst`.
            .macro FIRST_MESSAGE pair, dst
                LANE_POINTER rax, 2*\pair
                LANE_POINTER rdx, 2*\pair+1
                vmovdqu xmm10, [rax]
                vinserti128 ymm10, ymm10, [rdx], 1
                vmovdqu xmm11, [rax + 16]
                vinserti128 ymm11, ymm11, [rdx + 16], 1
                vmovdqu xmm12, [rax + 32]
                vinserti128 ymm12, ymm12, [rdx + 32], 1
                vmovdqu xmm13, [rax + 48]
                vinserti128 ymm13, ymm13, [rdx + 48], 1
                vshufps ymm14, ymm10, ymm11, 0x88
                vmovdqa [\dst + 896*\pair], ymm14
                vshufps ymm14, ymm10, ymm11, 0xDD
                vmovdqa [\dst + 896*\pair + 32], ymm14
                vshufps ymm14, ymm12, ymm13, 0x88
                vpshufd ymm14, ymm14, 0x93
                vmovdqa [\dst + 896*\pair + 64], ymm14
                vshufps ymm14, ymm12, ymm13, 0xDD
                vpshufd ymm14, ymm14, 0x93
                vmovdqa [\dst + 896*\pair + 96], ymm14
            .endm
            // Round `round`'s message of pair `pair` from round-1's, both
            // at `dst`: the mapping of `NEXT_WORDS`, with the previous
            // vectors read from memory (six registers).
            .macro NEXT_MESSAGE pair, round, dst
                .set from, 896*\pair + 128*(\round-1)
                .set to, 896*\pair + 128*\round
                vmovdqa ymm10, [\dst + from]
                vshufps ymm11, ymm10, [\dst + from + 32], 0xD9
                vpshufd ymm11, ymm11, 0x78
                vmovdqa [\dst + to], ymm11
                vshufps ymm12, ymm10, [\dst + from + 64], 0xA3
                vpshufd ymm12, ymm12, 0xD8
                vpblendd ymm12, ymm12, [\dst + from + 96], 0x88
                vmovdqa [\dst + to + 32], ymm12
                vmovdqa ymm10, [\dst + from + 96]
                vunpcklps ymm13, ymm10, [\dst + from + 32]
                vmovdqa ymm14, [\dst + from + 64]
                vshufps ymm15, ymm14, ymm10, 0x5F
                vshufps ymm13, ymm13, ymm15, 0x84
                vmovdqa [\dst + to + 64], ymm13
                vshufps ymm15, ymm14, ymm10, 0xA1
                vpshufd ymm15, ymm15, 0x78
                vpblendd ymm15, ymm15, [\dst + from + 32], 0x44
                vmovdqa [\dst + to + 96], ymm15
            .endm
            // G on both pairs' rows (instruction by instruction), message
            // vector `mx`, `my` (indices into a pair's round) of `round`.
            .macro G_TWO round, mx, my
                vpaddd ymm0, ymm0, [r9 + 128*\round + 32*\mx]
                vpaddd ymm4, ymm4, [r9 + 896 + 128*\round + 32*\mx]
                vpaddd ymm0, ymm0, ymm1
                vpaddd ymm4, ymm4, ymm5
                vpxor ymm3, ymm3, ymm0
                vpxor ymm7, ymm7, ymm4
                vpshufb ymm3, ymm3, [r8]
                vpshufb ymm7, ymm7, [r8]
                vpaddd ymm2, ymm2, ymm3
                vpaddd ymm6, ymm6, ymm7
                vpxor ymm1, ymm1, ymm2
                vpxor ymm5, ymm5, ymm6
                vpsrld ymm8, ymm1, 12
                vpsrld ymm9, ymm5, 12
                vpslld ymm1, ymm1, 20
                vpslld ymm5, ymm5, 20
                vpor ymm1, ymm1, ymm8
                vpor ymm5, ymm5, ymm9
                vpaddd ymm0, ymm0, [r9 + 128*\round + 32*\my]
                vpaddd ymm4, ymm4, [r9 + 896 + 128*\round + 32*\my]
                vpaddd ymm0, ymm0, ymm1
                vpaddd ymm4, ymm4, ymm5
                vpxor ymm3, ymm3, ymm0
                vpxor ymm7, ymm7, ymm4
                vpshufb ymm3, ymm3, [r8 + 32]
                vpshufb ymm7, ymm7, [r8 + 32]
                vpaddd ymm2, ymm2, ymm3
                vpaddd ymm6, ymm6, ymm7
                vpxor ymm1, ymm1, ymm2
                vpxor ymm5, ymm5, ymm6
                vpsrld ymm8, ymm1, 7
                vpsrld ymm9, ymm5, 7
                vpslld ymm1, ymm1, 25
                vpslld ymm5, ymm5, 25
                vpor ymm1, ymm1, ymm8
                vpor ymm5, ymm5, ymm9
            .endm
            .macro ROUND round
                G_TWO \round, 0, 1
                vpshufd ymm0, ymm0, 0x93
                vpshufd ymm4, ymm4, 0x93
                vpshufd ymm2, ymm2, 0x39
                vpshufd ymm6, ymm6, 0x39
                vpshufd ymm3, ymm3, 0x4E
                vpshufd ymm7, ymm7, 0x4E
                G_TWO \round, 2, 3
                vpshufd ymm0, ymm0, 0x39
                vpshufd ymm4, ymm4, 0x39
                vpshufd ymm2, ymm2, 0x93
                vpshufd ymm6, ymm6, 0x93
                vpshufd ymm3, ymm3, 0x4E
                vpshufd ymm7, ymm7, 0x4E
            .endm
            // Keeps the value of chain `chain` when this step was its last.
            .macro KEEP chain, row0, row1, half
                cmp r13, [rdi + {last_block} + 8*\chain]
                jne 7f
                .if \half == 0
                    vmovdqu [rsi + {out} + 64*(\chain/2) + 16*(\chain%2)], xmm\row0
                    vmovdqu [rsi + {out} + 64*(\chain/2) + 32 + 16*(\chain%2)], xmm\row1
                .else
                    vextracti128 [rsi + {out} + 64*(\chain/2) + 16*(\chain%2)], ymm\row0, 1
                    vextracti128 [rsi + {out} + 64*(\chain/2) + 32 + 16*(\chain%2)], ymm\row1, 1
                .endif
                7:
            .endm
            // The last block of chain `chain` at this step: its lane of
            // the fourth row `row` from the pair's last rows at `last`.
            .macro LAST_ROW chain, row, last, mask
                cmp r13, [rdi + {last_block} + 8*\chain]
                jne 7f
                vpblendd ymm\row, ymm\row, [rsi + \last], \mask
                7:
            .endm

            lea r8, [rip + {constants}]
            ROW_PAIR {first}, 0, {rows}
            ROW_PAIR {middle}, 0, {rows} + 32
            ROW_PAIR {last}, 0, {rows} + 64
            ROW_PAIR {first}, 1, {rows} + 128
            ROW_PAIR {middle}, 1, {rows} + 128 + 32
            ROW_PAIR {last}, 1, {rows} + 128 + 64
            mov rax, [rdi + {key}]
            vbroadcasti128 ymm0, [rax]
            vbroadcasti128 ymm1, [rax + 16]
            vmovdqa ymm4, ymm0
            vmovdqa ymm5, ymm1
            mov r9, rsi
            lea r14, [rsi + 1792]
            xor ecx, ecx
            xor r10d, r10d
            FIRST_MESSAGE 0, r9
            FIRST_MESSAGE 1, r9
            .irp round, 1, 2, 3, 4, 5, 6
                NEXT_MESSAGE 0, \round, r9
                NEXT_MESSAGE 1, \round, r9
            .endr
            mov r12, {rows}
            mov r11, [rdi + {steps}]
            xor r13d, r13d

            2:
            lea rcx, [r13 + 1]
            mov r10, rcx
            shl r10, 6
            vbroadcasti128 ymm2, [r8 + {iv}]
            vmovdqa ymm6, ymm2
            vmovdqa ymm3, [rsi + r12]
            vmovdqa ymm7, [rsi + r12 + 128]
            LAST_ROW 0, 3, {rows} + 64, 0x0F
            LAST_ROW 1, 3, {rows} + 64, 0xF0
            LAST_ROW 2, 7, {rows} + 128 + 64, 0x0F
            LAST_ROW 3, 7, {rows} + 128 + 64, 0xF0
            cmp rcx, r11
            jae 3f
            // The next step's message, spread over this step's rounds.
            FIRST_MESSAGE 0, r14
            ROUND 0
            NEXT_MESSAGE 0, 1, r14
            NEXT_MESSAGE 0, 2, r14
            ROUND 1
            NEXT_MESSAGE 0, 3, r14
            NEXT_MESSAGE 0, 4, r14
            ROUND 2
            NEXT_MESSAGE 0, 5, r14
            NEXT_MESSAGE 0, 6, r14
            FIRST_MESSAGE 1, r14
            ROUND 3
            NEXT_MESSAGE 1, 1, r14
            NEXT_MESSAGE 1, 2, r14
            ROUND 4
            NEXT_MESSAGE 1, 3, r14
            NEXT_MESSAGE 1, 4, r14
            ROUND 5
            NEXT_MESSAGE 1, 5, r14
            NEXT_MESSAGE 1, 6, r14
            ROUND 6
            jmp 4f
            // The last step: no next message.
            3:
            .irp round, 0, 1, 2, 3, 4, 5, 6
                ROUND \round
            .endr
            4:
            vpxor ymm0, ymm0, ymm2
            vpxor ymm1, ymm1, ymm3
            vpxor ymm4, ymm4, ymm6
            vpxor ymm5, ymm5, ymm7
            KEEP 0, 0, 1, 0
            KEEP 1, 0, 1, 1
            KEEP 2, 4, 5, 0
            KEEP 3, 4, 5, 1
            mov r12, {rows} + 32
            xchg r9, r14
            inc r13
            cmp r13, r11
            jb 2b
            vzeroupper
            .purgem LANE_POINTER
            .purgem ROW_PAIR
            .purgem FIRST_MESSAGE
            .purgem NEXT_MESSAGE
            .purgem G_TWO
            .purgem ROUND
            .purgem KEEP
            .purgem LAST_ROW
            ",
            purge_avx2_row_macros!(),
            rows = const offset_of!(RowScratch4, rows) + offset_of!(RowScratch, rows),
            out = const offset_of!(RowScratch4, rows) + offset_of!(RowScratch, out),
            constants = sym CONSTANTS,
            iv = const offset_of!(Constants, iv),
            in("rdi") params,
            in("rsi") scratch.as_mut_ptr(),
            out("rax") _, out("rcx") _, out("rdx") _, out("r8") _, out("r9") _,
            out("r10") _, out("r11") _, out("r12") _, out("r13") _, out("r14") _,
        );
    }
    // SAFETY: every chain has a last block at some step, where the block
    // above stored its value (its lane of the outputs).
    let written = unsafe { &*core::ptr::addr_of!((*scratch.as_ptr()).rows.out) };
    for (chain, value) in out.iter_mut().enumerate() {
        *value = row_output(written, chain);
    }
}
