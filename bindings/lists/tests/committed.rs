//! The bindings' committed algorithm lists against the registry table, and
//! that this check fails when they differ.

use chunkhash_binding_lists::{expected, java_name, registry, replace_list, typescript, Row};

#[test]
fn committed_lists_follow_the_registry() {
    for (path, old, new) in expected(&registry()).unwrap() {
        assert!(
            old == new,
            "{} lists other algorithms than the registry: run `cargo run -p chunkhash-binding-lists` and commit the result",
            path.display()
        );
    }
}

/// A registry with a row more (a new algorithm) or a row less than the
/// committed lists: every list then differs, so the test above would fail.
#[test]
fn a_row_added_or_missing_is_found() {
    let mut longer = registry();
    let id = longer.len() as u8 + 1;
    longer.push(Row { id, name: "CRC-16/TEST", digest_len: 2, cryptographic: false });
    for (path, old, new) in expected(&longer).unwrap() {
        assert_ne!(old, new, "{}", path.display());
        assert!(new.contains("CRC-16/TEST"), "{}", path.display());
    }
    let mut shorter = registry();
    let last = shorter.pop().unwrap();
    for (path, old, new) in expected(&shorter).unwrap() {
        assert_ne!(old, new, "{}", path.display());
        assert!(!new.contains(&format!("\"{}\"", last.name)) && !new.contains(&format!("'{}'", last.name)));
    }
}

#[test]
fn typescript_unions_of_a_small_table() {
    let rows = [
        Row { id: 1, name: "BLAKE3", digest_len: 32, cryptographic: true },
        Row { id: 2, name: "CRC32C", digest_len: 4, cryptographic: false },
        Row { id: 3, name: "XXH3-128", digest_len: 16, cryptographic: false },
    ];
    let text = typescript(&rows);
    assert!(text.contains("export type AlgorithmId = 1 | 2 | 3;\n"), "{text}");
    assert!(text.contains("  | 'BLAKE3'\n  | 'CRC32C'\n  | 'XXH3-128'\n  | (string & {});\n"), "{text}");
    assert!(text.contains("export type Checksum32Name = 'CRC32C';\n"), "{text}");
    assert!(text.contains("export type Checksum64Name = 'XXH3-128';\n"), "{text}");
    assert!(typescript(&rows[..1]).contains("export type Checksum32Name = never;\n"));
}

#[test]
fn java_constant_names() {
    for (name, constant) in [
        ("BLAKE3-160", "BLAKE3_160"),
        ("BLAKE2b-512", "BLAKE2B_512"),
        ("SHA-512/160", "SHA_512_160"),
        ("CRC-64/NVME", "CRC_64_NVME"),
        ("CRC32C", "CRC32C"),
    ] {
        assert_eq!(java_name(name), constant);
    }
}

#[test]
fn the_list_between_the_markers_is_replaced() {
    let begin =
        "// BEGIN generated from the registry (crates/chunkhash/src/registry.rs): cargo run -p chunkhash-binding-lists";
    let text = format!("head\n{begin}\nold 1\nold 2\n  // END generated\ntail\n");
    assert_eq!(replace_list(&text, "new\n").unwrap(), format!("head\n{begin}\nnew\n  // END generated\ntail\n"));
    assert!(replace_list("no markers\n", "new\n").is_err());
}
