//! The three CRCs' parameters, and every constant their kernels use,
//! derived here at compile time from the polynomials alone (a leaf: no
//! kernel code, no `core::arch`).
//!
//! All three CRCs of the registry are reflected (the first bit of a byte is
//! its least significant) with initial value and final XOR all ones:
//!
//! | CRC | width | polynomial (normal form, without x^width) | check value of `"123456789"` |
//! | --- | ---: | --- | --- |
//! | CRC-32C (iSCSI, Castagnoli) | 32 | `0x1EDC6F41` | `0xE3069283` |
//! | CRC-32 (ISO-HDLC: zlib, gzip, PNG, Ethernet) | 32 | `0x04C11DB7` | `0xCBF43926` |
//! | CRC-64/NVME | 64 | `0xAD93D23594C93659` | `0xAE8B14860A799888` |
//!
//! (Parameters and check values as in the CRC RevEng catalogue, "Catalogue
//! of parametrised CRC algorithms"; CRC-64/NVME is the NVM Express base
//! specification's, which S3 uses.)
//!
//! # How the constants are derived
//!
//! Polynomials over GF(2) are held in *normal* form here (bit `d` is the
//! coefficient of x^d) and reduced modulo P, the CRC polynomial of degree
//! `w` (its x^w term implied). The kernels work on *reflected* values: the
//! bytes as they lie in memory, loaded little-endian, so that bit `j` of a
//! 64-bit word is the coefficient of x^(63-j). A constant `r` (degree < 64)
//! becomes `r.reverse_bits()` in that form.
//!
//! - **Folding** (PCLMULQDQ, PMULL): a 128-bit lane X = H x^64 + L (H is its
//!   first 8 bytes) is moved D bits further along the message by
//!   X x^D = H x^(D+64) + L x^D ≡ H (x^(D+64) mod P) + L (x^D mod P). A
//!   carry-less multiply of two reflected 64-bit values yields the product
//!   times x (the 127-bit result lands one bit off in a 128-bit register), so
//!   the keys are x^(D+63) mod P for the first half and x^(D-1) mod P for the
//!   second ([`fold_keys`]).
//! - **Barrett reduction** of a 64-bit reflected value T to (T x^w) mod P,
//!   the CRC register after T: with μ = ⌊x^(64+w) / P⌋ (degree 64), the
//!   quotient is q = ⌊T μ / x^64⌋ = ⌊T ⌊μ/x⌋ / x^63⌋ (no carries in GF(2):
//!   the dropped bit of μ only touches terms below x^64), which is the first
//!   half of the reflected product with ⌊μ/x⌋; and the remainder is the low
//!   `w` coefficients of q P = x q ⌊P/x⌋ + q (P has a constant term), the
//!   second half of the reflected product with ⌊P/x⌋, XOR q
//!   ([`Barrett`]). Exact, as polynomial Barrett reduction is whenever μ
//!   has the full 64 + w bits of precision.
//! - **Tables** (the portable code): slicing-by-16, table k holding the
//!   register after one byte followed by k zero bytes.
//! - **Shifts** (merging interleaved streams): the register of a stream
//!   that has B more bytes after it is the register times x^(8B) mod P;
//!   [`ShiftTable`] tabulates that linear map byte by byte.
//!
//! `tests.rs` recomputes every constant a second way (bit by bit, with a
//! 1-bit-at-a-time CRC) and checks it.

/// A reflected CRC with initial value and final XOR all ones.
#[derive(Clone, Copy, Debug)]
pub(crate) struct CrcSpec {
    /// 32 or 64.
    pub(crate) width: u32,
    /// The polynomial in normal form, without its x^width term.
    pub(crate) poly: u64,
}

/// CRC-32C (Castagnoli).
pub(crate) const CRC32C: CrcSpec = CrcSpec { width: 32, poly: 0x1EDC_6F41 };
/// CRC-32 (ISO-HDLC).
pub(crate) const CRC32: CrcSpec = CrcSpec { width: 32, poly: 0x04C1_1DB7 };
/// CRC-64/NVME.
pub(crate) const CRC64_NVME: CrcSpec = CrcSpec { width: 64, poly: 0xAD93_D235_94C9_3659 };

impl CrcSpec {
    /// The ones in the low `width` bits.
    pub(crate) const fn mask(self) -> u64 {
        if self.width == 64 {
            u64::MAX
        } else {
            (1 << self.width) - 1
        }
    }

    /// The polynomial reflected in `width` bits: the constant of bitwise
    /// and table-driven reflected CRCs.
    pub(crate) const fn reflected_poly(self) -> u64 {
        self.poly.reverse_bits() >> (64 - self.width)
    }

    /// `a` times x, modulo P (normal form).
    const fn mul_x(self, a: u64) -> u64 {
        let carry = (a >> (self.width - 1)) & 1;
        let shifted = (a << 1) & self.mask();
        if carry == 1 {
            shifted ^ self.poly
        } else {
            shifted
        }
    }

    /// `a` times `b`, modulo P (normal form, both of degree < width).
    pub(crate) const fn mul_mod(self, a: u64, b: u64) -> u64 {
        let mut product = 0;
        let mut bit = self.width;
        while bit > 0 {
            bit -= 1;
            product = self.mul_x(product);
            if (b >> bit) & 1 == 1 {
                product ^= a;
            }
        }
        product
    }

    /// x^n modulo P (normal form), by square and multiply.
    pub(crate) const fn x_pow(self, mut n: u64) -> u64 {
        let mut result = 1;
        let mut square = self.mul_x(1); // x
        while n > 0 {
            if n & 1 == 1 {
                result = self.mul_mod(result, square);
            }
            square = self.mul_mod(square, square);
            n >>= 1;
        }
        result
    }

    /// ⌊x^n / P⌋ for n <= 128 (the quotient has n - width + 1 bits), by long
    /// division.
    const fn quotient_of_x_pow(self, n: u32) -> u128 {
        let divisor = (1u128 << self.width) | self.poly as u128;
        let (mut remainder, mut quotient) = (0u128, 0u128);
        let mut bit = n as i32;
        while bit >= 0 {
            remainder = (remainder << 1) | (bit as u32 == n) as u128;
            if (remainder >> self.width) & 1 == 1 {
                remainder ^= divisor;
                quotient |= 1 << bit;
            }
            bit -= 1;
        }
        quotient
    }
}

/// A 64-bit reflected constant from a normal-form one.
const fn reflect64(normal: u64) -> u64 {
    normal.reverse_bits()
}

/// Keys that move a 128-bit lane `bits` further along the message: the
/// multiplier of its first 8 bytes, then of its last 8 (see the module
/// docs). `bits` is at least 64.
pub(crate) const fn fold_keys(spec: CrcSpec, bits: u64) -> [u64; 2] {
    [reflect64(spec.x_pow(bits + 63)), reflect64(spec.x_pow(bits - 1))]
}

/// The two constants of a Barrett reduction (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Barrett {
    /// ⌊μ/x⌋ reflected, with μ = ⌊x^(64+w) / P⌋.
    pub(crate) mu: u64,
    /// ⌊P/x⌋ reflected (P with its x^w term).
    pub(crate) poly: u64,
}

pub(crate) const fn barrett(spec: CrcSpec) -> Barrett {
    let mu = spec.quotient_of_x_pow(64 + spec.width);
    let full_poly = (1u128 << spec.width) | spec.poly as u128;
    Barrett { mu: reflect64((mu >> 1) as u64), poly: reflect64((full_poly >> 1) as u64) }
}

/// A CRC's folding constants (`pclmul.rs`, `vpclmul.rs`, `aarch64.rs`).
#[derive(Clone, Copy, Debug)]
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))] // The 512-bit steps are x86's.
pub(crate) struct FoldConstants {
    /// `lanes[i]` moves a 128-bit lane `16 (i + 1)` bytes.
    pub(crate) lanes: [[u64; 2]; 8],
    /// Move each lane of a 512-bit vector 64, 128, 192 and 256 bytes:
    /// the AVX-512 kernel's steps.
    pub(crate) bytes_64: [u64; 2],
    pub(crate) bytes_128: [u64; 2],
    pub(crate) bytes_192: [u64; 2],
    pub(crate) bytes_256: [u64; 2],
    pub(crate) barrett: Barrett,
    pub(crate) width: u32,
}

pub(crate) const fn fold_constants(spec: CrcSpec) -> FoldConstants {
    let mut lanes = [[0u64; 2]; 8];
    let mut i = 0;
    while i < 8 {
        lanes[i] = fold_keys(spec, 128 * (i as u64 + 1));
        i += 1;
    }
    FoldConstants {
        lanes,
        bytes_64: fold_keys(spec, 512),
        bytes_128: fold_keys(spec, 1024),
        bytes_192: fold_keys(spec, 1536),
        bytes_256: fold_keys(spec, 2048),
        barrett: barrett(spec),
        width: spec.width,
    }
}

/// Slicing-by-16 tables: `tables[k][b]` is the register after the byte `b`
/// followed by `k` zero bytes, starting from a zero register.
pub(crate) type SliceTables = [[u64; 256]; 16];

pub(crate) const fn slice_tables(spec: CrcSpec) -> SliceTables {
    let poly = spec.reflected_poly();
    let mut tables = [[0u64; 256]; 16];
    let mut byte = 0;
    while byte < 256 {
        let mut register = byte as u64;
        let mut bit = 0;
        while bit < 8 {
            register = if register & 1 == 1 { (register >> 1) ^ poly } else { register >> 1 };
            bit += 1;
        }
        tables[0][byte] = register;
        byte += 1;
    }
    let mut k = 1;
    while k < 16 {
        let mut byte = 0;
        while byte < 256 {
            let previous = tables[k - 1][byte];
            tables[k][byte] = (previous >> 8) ^ tables[0][(previous & 0xFF) as usize];
            byte += 1;
        }
        k += 1;
    }
    tables
}

// The shift tables serve the SSE4.2 kernel (x86-64) and its tests.
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
/// The map register -> register x^(8 B) mod P of a 32-bit CRC, one table per
/// byte of the register: `tables[k][b]` is the shift of `b << 8k`.
pub(crate) type ShiftTable = [[u32; 256]; 4];

#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
pub(crate) const fn shift_table(spec: CrcSpec, bytes: u64) -> ShiftTable {
    let multiplier = spec.x_pow(8 * bytes);
    let mut tables = [[0u32; 256]; 4];
    let mut k = 0;
    while k < 4 {
        let mut byte = 0;
        while byte < 256 {
            let register = (byte as u64) << (8 * k);
            let normal = register.reverse_bits() >> 32;
            let shifted = spec.mul_mod(normal, multiplier);
            tables[k][byte] = (shifted.reverse_bits() >> 32) as u32;
            byte += 1;
        }
        k += 1;
    }
    tables
}

/// Applies a [`ShiftTable`] to a register.
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
#[inline(always)]
pub(crate) fn shift(table: &ShiftTable, register: u32) -> u32 {
    let [a, b, c, d] = register.to_le_bytes();
    table[0][a as usize] ^ table[1][b as usize] ^ table[2][c as usize] ^ table[3][d as usize]
}

/// Defines a function returning one CRC's slicing tables (32 KiB).
///
/// On WebAssembly the module is a download, and 96 KiB of tables would be
/// more than the rest of it compressed: there (with `std`, for `OnceLock`)
/// the tables are built at first use, in well under a millisecond.
/// Elsewhere they are computed at compile time and sit in static memory.
macro_rules! slice_tables_fn {
    ($name:ident, $spec:expr) => {
        #[cfg(not(all(target_family = "wasm", feature = "std")))]
        pub(crate) fn $name() -> &'static SliceTables {
            static TABLES: SliceTables = slice_tables($spec);
            &TABLES
        }

        #[cfg(all(target_family = "wasm", feature = "std"))]
        pub(crate) fn $name() -> &'static SliceTables {
            static TABLES: std::sync::OnceLock<alloc::boxed::Box<SliceTables>> = std::sync::OnceLock::new();
            TABLES.get_or_init(|| alloc::boxed::Box::new(slice_tables($spec)))
        }
    };
}

slice_tables_fn!(crc32c_tables, CRC32C);
slice_tables_fn!(crc32_tables, CRC32);
slice_tables_fn!(crc64_nvme_tables, CRC64_NVME);

/// The folding constants of each CRC.
#[cfg_attr(not(any(target_arch = "x86_64", target_arch = "aarch64")), allow(dead_code))]
pub(crate) static CRC32C_FOLD: FoldConstants = fold_constants(CRC32C);
#[cfg_attr(not(any(target_arch = "x86_64", target_arch = "aarch64")), allow(dead_code))]
pub(crate) static CRC32_FOLD: FoldConstants = fold_constants(CRC32);
#[cfg_attr(not(any(target_arch = "x86_64", target_arch = "aarch64")), allow(dead_code))]
pub(crate) static CRC64_NVME_FOLD: FoldConstants = fold_constants(CRC64_NVME);
