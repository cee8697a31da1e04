//! Prints the BLAKE3 hash of each file named on the command line, in the
//! `HEX  NAME` form of b3sum and sha256sum; with no arguments, of stdin.

use chunkhash::blake3::Hasher;
use std::io::Read;
use std::process::ExitCode;

fn hash_reader(mut reader: impl Read) -> std::io::Result<String> {
    let mut hasher = Hasher::new();
    let mut buf = vec![0u8; 64 * 1024];
    loop {
        match reader.read(&mut buf) {
            Ok(0) => return Ok(hasher.finalize().to_hex().to_string()),
            Ok(n) => {
                hasher.update(&buf[..n]);
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
}

fn main() -> ExitCode {
    let paths: Vec<String> = std::env::args().skip(1).collect();
    if paths.is_empty() {
        return match hash_reader(std::io::stdin().lock()) {
            Ok(hex) => {
                println!("{hex}  -");
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("hash_file: -: {e}");
                ExitCode::FAILURE
            }
        };
    }
    let mut status = ExitCode::SUCCESS;
    for path in paths {
        match std::fs::File::open(&path).and_then(hash_reader) {
            Ok(hex) => println!("{hex}  {path}"),
            Err(e) => {
                eprintln!("hash_file: {path}: {e}");
                status = ExitCode::FAILURE;
            }
        }
    }
    status
}
