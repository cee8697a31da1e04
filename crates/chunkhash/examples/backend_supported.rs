//! Exits 0 if this machine supports the backend named by the first
//! argument, 1 if not, 2 if the name is unknown. Used by the Makefile.

use chunkhash::blake3::Backend;
use std::process::ExitCode;

fn main() -> ExitCode {
    let name = std::env::args().nth(1).unwrap_or_default();
    match name.parse::<Backend>() {
        Ok(backend) if backend.is_supported() => ExitCode::SUCCESS,
        Ok(_) => ExitCode::from(1),
        Err(error) => {
            eprintln!("backend_supported: {error}");
            ExitCode::from(2)
        }
    }
}
