//! Exits 0 if this machine supports the backend named by the first
//! argument, 1 if not, 2 if the name is unknown. Used by the Makefile.
//! `crc:NAME` names a CRC backend (`crc:pclmul`), anything else a BLAKE3
//! one.

use chunkhash::blake3::Backend;
use std::process::ExitCode;

fn main() -> ExitCode {
    let name = std::env::args().nth(1).unwrap_or_default();
    let supported = match name.strip_prefix("crc:") {
        Some(crc) => crc.parse::<chunkhash::crc::CrcBackend>().map(|b| b.is_supported()).map_err(|e| e.to_string()),
        None => name.parse::<Backend>().map(|b| b.is_supported()).map_err(|e| e.to_string()),
    };
    match supported {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        Err(error) => {
            eprintln!("backend_supported: {error}");
            ExitCode::from(2)
        }
    }
}
