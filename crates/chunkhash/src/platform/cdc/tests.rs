//! Every Gear-scan kernel against the portable one, below the chunkers:
//! every match (not only the cuts a chunker keeps) for FastCDC's masks,
//! Xet's, and masks of few bits whose matches are dense enough to land in
//! several lanes of one block, over random, zero, repeated and text-like
//! bytes, from every start near a block's edges. Seeded; the seed is printed.

use super::{CdcKernel, CdcPlatform, LOOKBEHIND};
use crate::cdc::tables::{GEAR_FASTCDC, GEAR_FASTCDC_SHIFTED, GEAR_XET, GEAR_XET_SHIFTED, MASKS};
use std::vec::Vec;
use std::{format, println, vec};

/// The kernels a test runs on: `CHUNKHASH_CDC_KERNEL`'s alone when set
/// (the kernel matrix of `make test`), else every one this machine runs;
/// printed, so a run that tested only the portable kernel says so.
pub(crate) fn kernels_under_test() -> Vec<CdcPlatform> {
    let kernels: Vec<CdcKernel> = match CdcKernel::from_env() {
        Ok(Some(kernel)) => vec![kernel],
        Ok(None) => CdcKernel::all().iter().copied().filter(|k| k.is_supported()).collect(),
        Err(error) => panic!("CHUNKHASH_CDC_KERNEL: {error}"),
    };
    println!("chunker kernels under test: {kernels:?}");
    kernels.into_iter().map(|k| k.checked().unwrap()).collect()
}

fn inputs(rng: &mut vectors::TestRng, n: usize) -> Vec<(&'static str, Vec<u8>)> {
    let mut random = vec![0; n];
    rng.fill(&mut random);
    let words: [&[u8]; 8] = [b"the ", b"chunk ", b"of ", b"data\n", b"hash ", b"gear ", b"a ", b"window "];
    let mut text = Vec::with_capacity(n + 8);
    while text.len() < n {
        text.extend_from_slice(words[(rng.next_u64() % 8) as usize]);
    }
    text.truncate(n);
    vec![
        ("random", random),
        ("zeros", vec![0; n]),
        ("abc repeated", b"abc".iter().cycle().take(n).copied().collect()),
        ("text", text),
    ]
}

#[test]
fn every_kernel_finds_every_match_portable_finds() {
    let seed = vectors::test_seed("every_kernel_finds_every_match_portable_finds", 0xCDC);
    println!("seed {seed:#x}");
    let mut rng = vectors::TestRng::new(seed);
    let portable = CdcKernel::Portable.checked().unwrap();
    // Long enough for three blocks of 8 KiB and a ragged end; short under
    // Miri, which runs the portable kernel alone.
    let n = if cfg!(miri) { 200 } else { 3 * 8 * 1024 + 201 };
    // FastCDC's masks from 2^7 to 2^23 (matches from every few hundred
    // bytes to none), Xet's, and dense ones: one bit (a match at every
    // other position or so), and bits at the top of the window.
    let mut masks: Vec<u64> = MASKS[2..19].to_vec();
    masks.extend([0xffff << 48, 1 << 20, 0x3 << 62, 0x8000_0000_0000_0001, 0x0f << 30]);
    if cfg!(miri) {
        // Portable against itself there: the loops and edges, no more (a
        // denser mask, all inputs and both tables took a minute).
        masks = vec![MASKS[2], 0xffff << 48];
    }
    let tables = [("fastcdc", &GEAR_FASTCDC, &GEAR_FASTCDC_SHIFTED), ("xet", &GEAR_XET, &GEAR_XET_SHIFTED)];
    let tables = &tables[..if cfg!(miri) { 1 } else { 2 }];
    for kernel in kernels_under_test() {
        let mut inputs = inputs(&mut rng, n);
        if cfg!(miri) {
            inputs.truncate(1);
        }
        for (name, data) in inputs {
            for &(table_name, table, shifted) in tables {
                for &mask in &masks {
                    let what = format!("{:?} {name} {table_name} mask {mask:#x}", kernel.kernel());
                    let all = |platform: CdcPlatform, from: usize| {
                        let mut found = Vec::new();
                        let mut at = from;
                        while let Some(i) = platform.find(table, shifted, &data, at, mask) {
                            found.push(i);
                            at = i + 1;
                        }
                        found
                    };
                    let starts = [LOOKBEHIND, LOOKBEHIND + 1, 64 + rng.next_u64() as usize % 2000];
                    for from in starts {
                        assert_eq!(all(kernel, from), all(portable, from), "{what}, from {from}");
                    }
                    // One call per start that leaves a whole block of 8
                    // strips of 1024 bytes give or take a few, then the
                    // portable tail: the first match only.
                    let ends = (n.saturating_sub(8192 + 3)..n.saturating_sub(8192 - 3)).chain(n - 70..n - 60);
                    for from in ends.filter(|&f| f >= LOOKBEHIND) {
                        let first = |p: CdcPlatform| p.find(table, shifted, &data, from, mask);
                        assert_eq!(first(kernel), first(portable), "{what}, first from {from}");
                    }
                }
            }
        }
    }
}

/// A lone match seen from every start up to 8 KiB before it, so it falls
/// at every step of every strip of a block (the first and last of each
/// included), with no other match before it: where dense matches end a
/// scan in the first strip, this reaches the lanes' edges.
#[test]
fn a_lone_match_is_found_at_every_place_in_a_block() {
    let kernels: Vec<CdcPlatform> =
        kernels_under_test().into_iter().filter(|k| k.kernel() != CdcKernel::Portable).collect();
    if kernels.is_empty() {
        return; // The portable kernel alone (Miri, wasm): itself against itself.
    }
    let seed = vectors::test_seed("a_lone_match_is_found_at_every_place_in_a_block", 0x10E);
    println!("seed {seed:#x}");
    let mut rng = vectors::TestRng::new(seed);
    let portable = CdcKernel::Portable.checked().unwrap();
    let mut data = vec![0; 1 << 20];
    rng.fill(&mut data);
    let block = 8 * 1024;
    let cases = [(&GEAR_FASTCDC, &GEAR_FASTCDC_SHIFTED, MASKS[12]), (&GEAR_XET, &GEAR_XET_SHIFTED, 0xffff << 48)];
    for kernel in kernels {
        for (table, shifted, mask) in cases {
            // The first match at least a block past the start of the data.
            let mut from = LOOKBEHIND;
            let lone = loop {
                let at = portable.find(table, shifted, &data, from, mask).expect("a match in 1 MiB");
                if at - from >= block {
                    break at;
                }
                from = at + 1;
            };
            for from in lone + 1 - block..=lone {
                let found = kernel.find(table, shifted, &data, from, mask);
                assert_eq!(found, Some(lone), "{:?} mask {mask:#x} from {from}", kernel.kernel());
            }
        }
    }
}

#[test]
fn kernel_names_parse_and_unsupported_ones_are_refused() {
    for &kernel in CdcKernel::all() {
        assert_eq!(kernel.name().to_uppercase().parse::<CdcKernel>(), Ok(kernel));
        assert_eq!(kernel.checked().is_ok(), kernel.is_supported());
    }
    let error = "avx3".parse::<CdcKernel>().unwrap_err();
    assert_eq!(
        std::string::ToString::to_string(&error),
        "unknown chunker kernel \"avx3\", expected one of portable, avx2, avx512, neon, simd128"
    );
    assert!(CdcKernel::Portable.is_supported());
}
