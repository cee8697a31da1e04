//! The portable CRC kernel: slicing-by-8 tables, any width up to 64 bits.
//! Always compiled; every other kernel is tested against it.

use super::constants::SliceTables;

/// The register after `data`, from `register` (reflected, the CRC's width
/// in the low bits; no initial or final XOR here).
pub(crate) fn update(tables: &SliceTables, mut register: u64, data: &[u8]) -> u64 {
    let mut words = data.chunks_exact(8);
    for word in &mut words {
        // The register lies over the first bytes of the word (reflected
        // order), so one XOR feeds it in; each byte of the result then
        // contributes the register it leaves after the bytes that follow it.
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
