//! Runs `chunkhash chunk` and `chunkhash xet-hash`: their lines and JSON
//! against the library (`chunkhash::cdc`, `chunkhash::xet`, themselves
//! checked against the `fastcdc` crate and the `hf-xet` wheel in the core
//! crate's tests), known answers of `hf_xet.hash_files`, standard input,
//! and the errors.

mod common;

use chunkhash::blake3;
use chunkhash::cdc::{Cdc, Normalization};
use chunkhash::xet;
use common::*;

/// `hf_xet.hash_files` (the `hf-xet` 1.8.0 wheel) on a file holding the one
/// byte `a`, and on an empty file.
const XET_HASH_OF_A: &str = "49a7fffaf5f34109d4a191757f3e541e26437dcd1e0e83153454a503757856be";
const XET_HASH_OF_EMPTY: &str = "0000000000000000000000000000000000000000000000000000000000000000";

#[test]
fn xet_hash_lines_and_json() {
    let dir = Dir::new("xet_hash_lines_and_json");
    let big = pattern(700_000, 3);
    dir.write("a", b"a");
    dir.write("empty", b"");
    dir.write("big file", &big);
    let out = ok(dir.run(&["xet-hash", "a", "empty", "big file"], b""));
    let expected = format!("{XET_HASH_OF_A}  a\n{XET_HASH_OF_EMPTY}  empty\n{}  big file\n", xet::file_hash(&big));
    assert_eq!(out, expected);

    // From 16 MiB, the file is chunked and hashed on all cores.
    let mut rng = vectors::TestRng::new(17);
    let large = rng.bytes((17 << 20) + 1);
    dir.write("large", &large);
    assert_eq!(ok(dir.run(&["xet-hash", "large"], b"")), format!("{}  large\n", xet::file_hash(&large)));

    let out = ok(dir.run(&["xet-hash", "--json", "big file", "-"], b"a"));
    let lines: Vec<serde_json::Value> = out.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines.len(), 2, "{out}");
    assert_eq!(lines[0]["file"], "big file");
    assert_eq!(lines[0]["size"], 700_000);
    assert_eq!(lines[0]["xetHash"], xet::file_hash(&big).to_string());
    assert_eq!(lines[1]["file"], "-");
    assert_eq!(lines[1]["xetHash"], XET_HASH_OF_A);
}

#[test]
fn chunk_lines_equal_the_library() {
    let dir = Dir::new("chunk_lines_equal_the_library");
    let data = pattern(1_000_000, 9);
    dir.write("data", &data);
    let bytes = |offset: u64, length: usize| &data[offset as usize..][..length];
    let lines = |cdc: Cdc, address: &dyn Fn(&[u8]) -> String| -> String {
        cdc.chunks(&data)
            .map(|c| format!("{} {} {}  data\n", c.offset, c.length, address(bytes(c.offset, c.length))))
            .collect()
    };
    let xet_lines = lines(Cdc::xet(), &|b| xet::chunk_hash(b).to_string());
    assert!(xet_lines.lines().count() > 5, "{xet_lines}");
    assert_eq!(ok(dir.run(&["chunk", "data"], b"")), xet_lines);
    assert_eq!(ok(dir.run(&["chunk", "--xet", "-"], &data)), xet_lines.replace("  data\n", "  -\n"));

    let fastcdc = Cdc::fastcdc(2048, 8192, 65536, Normalization::Level1).unwrap();
    let blake3_lines = lines(fastcdc, &|b| blake3::hash(b).to_hex().to_string());
    assert_eq!(ok(dir.run(&["chunk", "--fastcdc", "2K,8K,64K", "data"], b"")), blake3_lines);
    let short_lines = lines(fastcdc, &|b| blake3::address(b).to_hex().to_string());
    let out = ok(dir.run(&["chunk", "--fastcdc", "2048,8192,65536", "--address", "blake3-160", "data"], b""));
    assert_eq!(out, short_lines);

    // From 16 MiB, on all cores: the same lines.
    let mut rng = vectors::TestRng::new(16);
    let large = rng.bytes(16 << 20);
    dir.write("large", &large);
    let expected: String = Cdc::xet()
        .chunks(&large)
        .map(|c| {
            let hash = xet::chunk_hash(&large[c.offset as usize..][..c.length]);
            format!("{} {} {hash}  large\n", c.offset, c.length)
        })
        .collect();
    assert_eq!(ok(dir.run(&["chunk", "large"], b"")), expected);

    let out = ok(dir.run(&["chunk", "--json", "data"], b""));
    let mut end = 0;
    for (line, expected) in out.lines().zip(xet_lines.lines()) {
        let value: serde_json::Value = serde_json::from_str(line).unwrap();
        let fields: Vec<&str> = expected.split_whitespace().collect();
        assert_eq!(value["offset"], end);
        assert_eq!(value["offset"].to_string(), fields[0]);
        assert_eq!(value["length"].to_string(), fields[1]);
        assert_eq!(value["address"], fields[2]);
        assert_eq!(value["file"], "data");
        end += value["length"].as_u64().unwrap();
    }
    assert_eq!(end, data.len() as u64);
}

#[test]
fn chunk_and_xet_hash_errors() {
    let dir = Dir::new("chunk_and_xet_hash_errors");
    dir.write("a", b"a");
    std::fs::create_dir_all(dir.path.join("sub")).unwrap();
    for (args, message) in [
        (&["chunk", "--fastcdc", "2K,8K", "a"][..], "--fastcdc: expected three sizes MIN,AVG,MAX, got 2"),
        (&["chunk", "--fastcdc", "2K,8K,x", "a"], "--fastcdc: invalid size"),
        (&["chunk", "--fastcdc", "2K,8K,4K", "a"], "average chunk size 8192 is above the maximum chunk size 4096"),
        (&["chunk", "--xet", "--fastcdc", "2K,8K,64K", "a"], "cannot be used with"),
        (&["chunk", "--address", "md5", "a"], "invalid value 'md5'"),
        (&["xet-hash"], "required"),
    ] {
        let output = dir.run(args, b"");
        assert_eq!(code(&output), 2, "{args:?}");
        assert!(stderr(&output).contains(message), "{args:?}: {}", stderr(&output));
    }
    // A file that cannot be read is reported; the others are still done.
    for command in ["chunk", "xet-hash"] {
        let output = dir.run(&[command, "missing", "sub", "a"], b"");
        assert_eq!(code(&output), 1, "{command}");
        assert!(stderr(&output).contains("chunkhash: missing: "), "{}", stderr(&output));
        assert!(stderr(&output).contains("chunkhash: sub: "), "{}", stderr(&output));
        assert!(stdout(&output).ends_with("  a\n"), "{command}: {}", stdout(&output));
    }
}
