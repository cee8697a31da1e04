//! Prints the BLAKE3 hash of the file named by the first argument, as a
//! build script would hash an asset.

fn main() {
    let path = std::env::args_os().nth(1).expect("usage: file-blake3 FILE");
    let data = std::fs::read(&path).expect("cannot read the file");
    println!("{}", blake3::hash(&data).to_hex());
}
