//! The CRC constants recomputed a second way, and every kernel against the
//! portable one and against the `crc-fast` crate (an independent
//! implementation), forced one by one: every length from 0 to 4160 bytes,
//! random lengths up to 1 MiB at random offsets (and one of 2.5 MiB), and
//! streaming in random pieces. Seeded; the seed is printed.

use super::constants::{
    barrett, fold_constants, fold_keys, shift, shift_table, slice_tables, CrcSpec, CRC32, CRC32C, CRC64_NVME,
};
use super::{CrcBackend, CrcKernels};
use std::string::ToString;
use std::vec;
use std::vec::Vec;
use vectors::TestRng;

const SPECS: [(&str, CrcSpec); 3] = [("CRC-32C", CRC32C), ("CRC-32", CRC32), ("CRC-64/NVME", CRC64_NVME)];

/// The register after `data`, one bit at a time: the definition of a
/// reflected CRC, sharing no code or table with the kernels.
fn bitwise(spec: CrcSpec, mut register: u64, data: &[u8]) -> u64 {
    let poly = spec.poly.reverse_bits() >> (64 - spec.width);
    for &byte in data {
        register ^= u64::from(byte);
        for _ in 0..8 {
            register = if register & 1 == 1 { (register >> 1) ^ poly } else { register >> 1 };
        }
    }
    register
}

/// Carry-less multiplication, bit by bit.
fn clmul(a: u64, b: u64) -> u128 {
    (0..64).filter(|i| (b >> i) & 1 == 1).fold(0u128, |product, i| product ^ (u128::from(a) << i))
}

#[test]
fn check_values_of_the_catalogue() {
    let check =
        |spec: CrcSpec, expected: u64| assert_eq!(!bitwise(spec, spec.mask(), b"123456789") & spec.mask(), expected);
    check(CRC32C, 0xE306_9283);
    check(CRC32, 0xCBF4_3926);
    check(CRC64_NVME, 0xAE8B_1486_0A79_9888);
    for backend in supported() {
        let kernels = CrcKernels::new(backend).unwrap();
        assert_eq!(kernels.crc32c(b"123456789"), 0xE306_9283, "{backend}");
        assert_eq!(kernels.crc32(b"123456789"), 0xCBF4_3926, "{backend}");
        assert_eq!(kernels.crc64_nvme(b"123456789"), 0xAE8B_1486_0A79_9888, "{backend}");
    }
}

#[test]
fn slicing_tables_are_the_bitwise_crc_of_a_byte_and_zeros() {
    for (name, spec) in SPECS {
        let tables = slice_tables(spec);
        for (k, table) in tables.iter().enumerate() {
            for (byte, &entry) in table.iter().enumerate() {
                let mut message = vec![0u8; k + 1];
                message[0] = byte as u8;
                assert_eq!(entry, bitwise(spec, 0, &message), "{name} table {k} byte {byte}");
            }
        }
    }
}

/// A folded lane, placed D bytes later, leaves the same register as the
/// lane followed by D zero bytes: the keys move lanes by exactly D.
#[test]
fn fold_keys_move_a_lane_by_their_distance() {
    let mut rng = TestRng::new(vectors::test_seed("fold_keys_move_a_lane_by_their_distance", 31));
    for (name, spec) in SPECS {
        let constants = fold_constants(spec);
        let mut distances: Vec<(u64, [u64; 2])> =
            constants.lanes.iter().enumerate().map(|(i, &keys)| (16 * (i as u64 + 1), keys)).collect();
        distances.extend([
            (64, constants.bytes_64),
            (128, constants.bytes_128),
            (192, constants.bytes_192),
            (256, constants.bytes_256),
        ]);
        for (bytes, keys) in distances {
            assert_eq!(keys, fold_keys(spec, 8 * bytes));
            for _ in 0..20 {
                let lane = rng.bytes(16);
                let low = u64::from_le_bytes(lane[..8].try_into().unwrap());
                let high = u64::from_le_bytes(lane[8..].try_into().unwrap());
                let folded = clmul(low, keys[0]) ^ clmul(high, keys[1]);
                let mut moved = lane.clone();
                moved.resize(16 + bytes as usize, 0);
                assert_eq!(bitwise(spec, 0, &folded.to_le_bytes()), bitwise(spec, 0, &moved), "{name}, {bytes} bytes");
            }
        }
    }
}

/// Barrett reduction as the kernels do it, in software, against the
/// bitwise register after 8 bytes.
#[test]
fn barrett_constants_reduce_exactly() {
    let mut rng = TestRng::new(vectors::test_seed("barrett_constants_reduce_exactly", 32));
    for (name, spec) in SPECS {
        let constants = barrett(spec);
        for t in [0, 1, u64::MAX, 1 << 63].into_iter().chain((0..1000).map(|_| rng.next_u64())) {
            let quotient = clmul(t, constants.mu) as u64;
            let high = (clmul(quotient, constants.poly) >> 64) as u64;
            let reduced = (high ^ quotient) >> (64 - spec.width);
            assert_eq!(reduced, bitwise(spec, 0, &t.to_le_bytes()), "{name}: {t:#x}");
        }
    }
}

#[test]
fn shift_tables_append_zero_bytes() {
    let mut rng = TestRng::new(vectors::test_seed("shift_tables_append_zero_bytes", 33));
    for bytes in [1, 16, 256, 4096] {
        let table = shift_table(CRC32C, bytes);
        for _ in 0..200 {
            let register = rng.next_u64() as u32;
            let zeros = vec![0u8; bytes as usize];
            assert_eq!(u64::from(shift(&table, register)), bitwise(CRC32C, register.into(), &zeros), "{bytes}");
        }
    }
}

/// x^n mod P by square and multiply, against n multiplications by x.
#[test]
fn powers_of_x_by_squaring_match_repeated_shifts() {
    for (name, spec) in SPECS {
        let mut power = 1u64; // x^0
        for n in 0..5000u64 {
            assert_eq!(spec.x_pow(n), power, "{name}: x^{n}");
            // Times x: the register of a 1 bit shifted once, in normal form.
            let carry = power >> (spec.width - 1) & 1 == 1;
            power = (power << 1) & spec.mask();
            if carry {
                power ^= spec.poly;
            }
        }
    }
}

fn supported() -> Vec<CrcBackend> {
    let backends: Vec<CrcBackend> = CrcBackend::all().iter().copied().filter(|b| b.is_supported()).collect();
    std::println!("CRC kernels under test: {backends:?}, detected {}", CrcBackend::detect());
    for backend in CrcBackend::all().iter().filter(|b| !b.is_supported()) {
        std::println!("note: CRC backend {backend} not supported here, skipped");
    }
    backends
}

/// The three CRCs of `data` by every kernel, against portable and crc-fast.
fn check_all_kernels(kernels: &[CrcKernels], data: &[u8], what: &str) {
    let portable = CrcKernels::new(CrcBackend::Portable).unwrap();
    let expected = (portable.crc32c(data), portable.crc32(data), portable.crc64_nvme(data));
    let independent = (
        crc_fast::checksum(crc_fast::CrcAlgorithm::Crc32Iscsi, data) as u32,
        crc_fast::checksum(crc_fast::CrcAlgorithm::Crc32IsoHdlc, data) as u32,
        crc_fast::checksum(crc_fast::CrcAlgorithm::Crc64Nvme, data),
    );
    assert_eq!(expected, independent, "portable against crc-fast, {what}");
    for kernel in kernels {
        let got = (kernel.crc32c(data), kernel.crc32(data), kernel.crc64_nvme(data));
        assert_eq!(got, expected, "{:?}, {what}", kernel.backend());
    }
}

#[test]
fn every_kernel_at_every_length_to_4160() {
    let kernels: Vec<CrcKernels> = supported().into_iter().map(|b| CrcKernels::new(b).unwrap()).collect();
    let mut rng = TestRng::new(vectors::test_seed("every_kernel_at_every_length_to_4160", 34));
    let buffer = rng.bytes(4160 + 64);
    for len in 0..=4160 {
        // A different offset each time, so lanes start at every alignment.
        let offset = len % 64;
        check_all_kernels(&kernels, &buffer[offset..offset + len], &format_len(len, offset));
    }
    // Runs of one byte value: all zeros and all ones have their own carries.
    for fill in [0x00u8, 0xFF] {
        for len in [1, 15, 16, 17, 255, 256, 257, 4096] {
            check_all_kernels(&kernels, &vec![fill; len], &std::format!("{len} bytes of {fill:#04x}"));
        }
    }
}

#[test]
fn every_kernel_at_random_lengths_to_1_mib() {
    let kernels: Vec<CrcKernels> = supported().into_iter().map(|b| CrcKernels::new(b).unwrap()).collect();
    let mut rng = TestRng::new(vectors::test_seed("every_kernel_at_random_lengths_to_1_mib", 35));
    let buffer = rng.bytes((5 << 19) + 64);
    // Past 1 MiB the fused CRC-32C loop takes the input in pieces.
    let mut lengths = vec![1 << 20, (1 << 20) - 1, (5 << 19) - 9, 3 * 4096, 3 * 4096 + 7, 3 * 256 - 1, 65536];
    lengths.extend((0..24).map(|_| rng.range(4161..=1 << 20)));
    for len in lengths {
        let offset = rng.range(0..=63);
        check_all_kernels(&kernels, &buffer[offset..offset + len], &format_len(len, offset));
    }
}

/// The registers carry across calls: streaming in random pieces equals one
/// call, on every kernel.
#[test]
fn every_kernel_streams_in_random_pieces() {
    let mut rng = TestRng::new(vectors::test_seed("every_kernel_streams_in_random_pieces", 36));
    for backend in supported() {
        let kernels = CrcKernels::new(backend).unwrap();
        for _ in 0..60 {
            let len = rng.range(0..=20_000);
            let data = rng.bytes(len);
            let (mut r32c, mut r32, mut r64) = (!0u32, !0u32, !0u64);
            let mut rest = data.as_slice();
            while !rest.is_empty() {
                let (piece, tail) = rest.split_at(rng.range(0..=rest.len().min(5000)));
                r32c = kernels.update_crc32c(r32c, piece);
                r32 = kernels.update_crc32(r32, piece);
                r64 = kernels.update_crc64_nvme(r64, piece);
                rest = tail;
            }
            let what = std::format!("{backend}, {} bytes", data.len());
            assert_eq!(!r32c, kernels.crc32c(&data), "CRC-32C {what}");
            assert_eq!(!r32, kernels.crc32(&data), "CRC-32 {what}");
            assert_eq!(!r64, kernels.crc64_nvme(&data), "CRC-64/NVME {what}");
        }
    }
}

#[test]
fn unsupported_backends_are_errors() {
    for &backend in CrcBackend::all() {
        match CrcKernels::new(backend) {
            Ok(kernels) => assert!(backend.is_supported() && kernels.backend() == backend),
            Err(error) => {
                assert!(!backend.is_supported());
                assert_eq!(error.unsupported_backend(), Some(backend));
                assert_eq!(
                    error.to_string(),
                    std::format!("CRC backend {backend} is not supported by this CPU or build")
                );
            }
        }
        assert_eq!(backend.name().parse::<CrcBackend>(), Ok(backend));
        assert_eq!(backend.name().to_uppercase().parse::<CrcBackend>(), Ok(backend));
    }
    let error = "avx1024".parse::<CrcBackend>().unwrap_err();
    assert_eq!(
        error.to_string(),
        "unknown CRC backend \"avx1024\", expected one of portable, sse42, pclmul, vpclmul, aarch64"
    );
    assert_eq!(error.unsupported_backend(), None);
    assert!(CrcBackend::best_supported().is_supported());
}

fn format_len(len: usize, offset: usize) -> std::string::String {
    std::format!("{len} bytes at offset {offset}")
}
