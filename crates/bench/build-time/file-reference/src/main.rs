//! Prints the BLAKE3 hash of the file named by the first argument, as a
//! build script would hash an asset.

fn main() {
    let path = std::env::args_os().nth(1).expect("usage: file-reference FILE");
    let data = std::fs::read(&path).expect("cannot read the file");
    println!("{}", blake3_reference::hash(&data).iter().map(|b| format!("{b:02x}")).collect::<String>());
}
