//! `cargo run -p chunkhash-binding-lists`: rewrites the bindings' algorithm
//! lists from the registry table (see the library's docs).

use std::process::ExitCode;

fn main() -> ExitCode {
    let files = match chunkhash_binding_lists::expected(&chunkhash_binding_lists::registry()) {
        Ok(files) => files,
        Err(error) => {
            eprintln!("chunkhash-binding-lists: {error}");
            return ExitCode::FAILURE;
        }
    };
    for (path, old, new) in files {
        if old == new {
            continue;
        }
        if let Err(error) = std::fs::write(&path, new) {
            eprintln!("chunkhash-binding-lists: {}: {error}", path.display());
            return ExitCode::FAILURE;
        }
        println!("wrote {}", path.display());
    }
    ExitCode::SUCCESS
}
