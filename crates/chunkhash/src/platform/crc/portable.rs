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
        // order), so one XOR feeds it in; each byte of the result then
        // contributes the register it leaves after the bytes that follow it.
        let x = register ^ u64::from_le_bytes(first.try_into().expect("8 bytes"));
        let [x0, x1, x2, x3, x4, x5, x6, x7] = x.to_le_bytes();
        // The second word's lookups do not wait for the register: 16 bytes
        // a step instead of 8 made CRC32C in WebAssembly (V8) 1.15-1.48x
        // faster.
        let [y0, y1, y2, y3, y4, y5, y6, y7]: [u8; 8] = second.try_into().expect("8 bytes");
        let second = tables[7][y0 as usize]
            ^ tables[6][y1 as usize]
            ^ tables[5][y2 as usize]
            ^ tables[4][y3 as usize]
            ^ tables[3][y4 as usize]
            ^ tables[2][y5 as usize]
            ^ tables[1][y6 as usize]
            ^ tables[0][y7 as usize];
        register = second
            ^ tables[15][x0 as usize]
            ^ tables[14][x1 as usize]
            ^ tables[13][x2 as usize]
            ^ tables[12][x3 as usize]
            ^ tables[11][x4 as usize]
            ^ tables[10][x5 as usize]
            ^ tables[9][x6 as usize]
            ^ tables[8][x7 as usize];
    }
    let mut words = blocks.remainder().chunks_exact(8);
    for word in &mut words {
        let x = register ^ u64::from_le_bytes(word.try_into().expect("8 bytes"));
        let [b0, b1, b2, b3, b4, b5, b6, b7] = x.to_le_bytes();
        register = tables[7][b0 as usize]
            ^ tables[6][b1 as usize]
            ^ tables[5][b2 as usize]
            ^ tables[4][b3 as usize]
            ^ tables[3][b4 as usize]
            ^ tables[2][b5 as usize]
            ^ tables[1][b6 as usize]
            ^ tables[0][b7 as usize];
    }
    for &byte in words.remainder() {
        register = (register >> 8) ^ tables[0][((register ^ byte as u64) & 0xFF) as usize];
    }
    register
}
