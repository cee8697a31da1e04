//! Writes `tests/vectors.h`, the known-answer vectors for the C tests, from
//! the project's vector files as the `vectors` crate parses them, and fails
//! when the committed copy is stale.
//!
//! C has no JSON parser here, and the `vectors` crate is the project's one
//! reader of `vectors/`; so the data reaches C as a generated header,
//! committed (the C tests then build with a C compiler alone), and this
//! test, part of `cargo test --workspace`, keeps it in step. Regenerate with
//! `make -C bindings/c vectors` (`CHUNKHASH_BLESS=1`).

const PATH: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors.h");

fn c_string(s: &str) -> String {
    assert!(s.bytes().all(|b| b.is_ascii_graphic() || b == b' ') && !s.contains(['"', '\\']), "plain ASCII: {s:?}");
    format!("\"{s}\"")
}

fn generate() -> String {
    let official = vectors::blake3_vectors();
    let golden = vectors::golden();
    let mut h = String::new();
    let mut line = |text: &str| {
        h.push_str(text);
        h.push('\n');
    };
    line("/* Known-answer vectors for the C tests. Generated from vectors/blake3/test_vectors.json");
    line(" * and vectors/golden.json by bindings/c/src/c_test_vectors.rs; do not edit. Regenerate with");
    line(" * `make -C bindings/c vectors`; `cargo test -p chunkhash-c` fails when this file is stale.");
    line(" * Inputs: byte i of an input of input_len bytes is i % 251. Outputs are lowercase hex. */");
    line("#ifndef CHUNKHASH_TEST_VECTORS_H");
    line("#define CHUNKHASH_TEST_VECTORS_H");
    line("");
    line("#include <stddef.h>");
    line("#include <stdint.h>");
    line("");
    line("/* The official BLAKE3 vectors: 131 bytes of extended output per mode. */");
    line(&format!("#define BLAKE3_KEY {}", c_string(std::str::from_utf8(&official.key).expect("ASCII key"))));
    line(&format!("#define BLAKE3_CONTEXT {}", c_string(&official.context_string)));
    line("struct blake3_case { size_t input_len; const char *hash, *keyed_hash, *derive_key; };");
    line("static const struct blake3_case BLAKE3_CASES[] = {");
    for case in &official.cases {
        line(&format!("    {{{},", case.input_len));
        line(&format!("     \"{}\",", chunkhash::hex::encode(&case.hash)));
        line(&format!("     \"{}\",", chunkhash::hex::encode(&case.keyed_hash)));
        line(&format!("     \"{}\"}},", chunkhash::hex::encode(&case.derive_key)));
    }
    line("};");
    line("");
    line("/* golden.json: the registry table, digests and trailers. */");
    line(&format!("#define GOLDEN_KEY {}", c_string(std::str::from_utf8(&golden.key).expect("ASCII key"))));
    line(&format!("#define GOLDEN_CONTEXT {}", c_string(&golden.context_string)));
    line("struct golden_algorithm { uint32_t id; const char *name; size_t digest_len; };");
    line("static const struct golden_algorithm GOLDEN_ALGORITHMS[] = {");
    for a in &golden.algorithms {
        line(&format!("    {{{}, {}, {}}},", a.id, c_string(&a.name), a.digest_len));
    }
    line("};");
    line("enum golden_mode { MODE_HASH, MODE_KEYED_HASH, MODE_DERIVE_KEY };");
    line("struct golden_digest { const char *algorithm; enum golden_mode mode; size_t input_len; const char *hex; };");
    line("static const struct golden_digest GOLDEN_DIGESTS[] = {");
    for d in &golden.digests {
        let mode = match d.mode {
            vectors::GoldenMode::Hash => "MODE_HASH",
            vectors::GoldenMode::KeyedHash => "MODE_KEYED_HASH",
            vectors::GoldenMode::DeriveKey => "MODE_DERIVE_KEY",
        };
        let hex = chunkhash::hex::encode(&d.digest);
        line(&format!("    {{{}, {mode}, {}, \"{hex}\"}},", c_string(&d.algorithm), d.input_len));
    }
    line("};");
    line("struct golden_trailer { const char *algorithm; size_t input_len; uint64_t context; const char *hex; };");
    line("static const struct golden_trailer GOLDEN_TRAILERS[] = {");
    for t in &golden.trailers {
        let hex = chunkhash::hex::encode(&t.trailer);
        line(&format!("    {{{}, {}, UINT64_C({}), \"{hex}\"}},", c_string(&t.algorithm), t.input_len, t.context));
    }
    line("};");
    line("");
    line("/* vectors/bao/test_vectors.json (the bao crate's): roots, encodings, outboards and slices,");
    line(" * outputs given by their length and BLAKE3 hash. Inputs: a 4-byte little-endian counter");
    line(" * from 1, cut at input_len. */");
    let bao = vectors::bao_vectors();
    line("struct bao_output { size_t input_len; const char *root; size_t output_len; const char *output_blake3; };");
    for (list, name) in [("encode", "BAO_ENCODED"), ("outboard", "BAO_OUTBOARDS")] {
        line(&format!("static const struct bao_output {name}[] = {{"));
        for case in bao[list].as_array().expect("a list") {
            let (root, hash) =
                (case["bao_hash"].as_str().expect("a string"), case["encoded_blake3"].as_str().expect("a string"));
            let (input_len, output_len) =
                (case["input_len"].as_u64().expect("a number"), case["output_len"].as_u64().expect("a number"));
            line(&format!("    {{{input_len}, \"{root}\", {output_len}, \"{hash}\"}},"));
        }
        line("};");
    }
    line("struct bao_slice { size_t input_len; uint64_t start, len; size_t output_len; const char *output_blake3; };");
    line("static const struct bao_slice BAO_SLICES[] = {");
    for case in bao["slice"].as_array().expect("a list") {
        for slice in case["slices"].as_array().expect("a list") {
            let (start, len, output_len) = (
                slice["start"].as_u64().expect("a number"),
                slice["len"].as_u64().expect("a number"),
                slice["output_len"].as_u64().expect("a number"),
            );
            let (input_len, hash) =
                (case["input_len"].as_u64().expect("a number"), slice["output_blake3"].as_str().expect("a string"));
            line(&format!("    {{{input_len}, {start}, {len}, {output_len}, \"{hash}\"}},"));
        }
    }
    line("};");
    line("");
    line("#endif /* CHUNKHASH_TEST_VECTORS_H */");
    h
}

#[test]
fn c_test_vectors_are_up_to_date() {
    let generated = generate();
    if std::env::var_os("CHUNKHASH_BLESS").is_some() {
        std::fs::write(PATH, &generated).expect("write tests/vectors.h");
        return;
    }
    let committed = std::fs::read_to_string(PATH).unwrap_or_default();
    assert!(
        committed == generated,
        "bindings/c/tests/vectors.h is stale: the vector files changed. Run `make -C bindings/c vectors` and commit it."
    );
}
