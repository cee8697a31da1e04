//! The portable CRC kernel: slicing-by-16 tables, any width up to 64 bits.
//! Always compiled; every other kernel is tested against it.

use super::constants::SliceTables;

/// The register after `data`, from `register` (reflected, the CRC's width
/// in the low bits; no initial or final XOR here).
pub(crate) fn update(tables: &SliceTables, mut register: u64, data: &[u8]) -> u64 {
    let mut blocks = data.chunks_exact(16);
    for block in &mut blocks {
        let (first, second) = block.split_at(8);
        // The register lies over the first bytes of the block (reflected
        // order), so one XOR feeds it in. The second word's lookups do not
        // wait for the register: 16 bytes a step instead of 8 made CRC32C in
        // WebAssembly (V8) 1.15-1.48x faster.
        let x = register ^ u64::from_le_bytes(first.try_into().expect("8 bytes"));
        let y = u64::from_le_bytes(second.try_into().expect("8 bytes"));
        register = slice8(tables, 0, y) ^ slice8(tables, 8, x);
    }
    let mut words = blocks.remainder().chunks_exact(8);
    for word in &mut words {
        register = slice8(tables, 0, register ^ u64::from_le_bytes(word.try_into().expect("8 bytes")));
    }
    for &byte in words.remainder() {
        register = (register >> 8) ^ tables[0][((register ^ byte as u64) & 0xFF) as usize];
    }
    register
}

/// The register that the eight bytes of `word` leave when `skip` zero bytes
/// follow them: each byte contributes the register it leaves after
/// the bytes that follow it, from table `skip + 7` (the first byte) down to
/// table `skip` (the last).
#[inline(always)]
fn slice8(tables: &SliceTables, skip: usize, word: u64) -> u64 {
    let [b0, b1, b2, b3, b4, b5, b6, b7] = word.to_le_bytes();
    tables[skip + 7][b0 as usize]
        ^ tables[skip + 6][b1 as usize]
        ^ tables[skip + 5][b2 as usize]
        ^ tables[skip + 4][b3 as usize]
        ^ tables[skip + 3][b4 as usize]
        ^ tables[skip + 2][b5 as usize]
        ^ tables[skip + 1][b6 as usize]
        ^ tables[skip][b7 as usize]
}
