#!/bin/sh
# Builds examples/c/chunk_addresses.c against an installed libchunkhash,
# found through pkg-config, linked shared and static, and checks what it
# prints: the built-in chunks against examples/c/chunk_addresses.expected,
# and files against the Rust library (the hash_file example, whose first 40
# hex digits are the address). Run by `make -C bindings/c test-install`,
# which sets PKG_CONFIG_PATH to the test prefix, CC, OUT, CARGO and ROOT.
set -eu

example="$ROOT/examples/c/chunk_addresses.c"
warnings="-std=c11 -Wall -Wextra -Werror -Wpedantic"
libdir=$(pkg-config --variable=libdir chunkhash)
echo "pkg-config: chunkhash $(pkg-config --modversion chunkhash), $(pkg-config --cflags --libs chunkhash)"

# shellcheck disable=SC2046 # word splitting of pkg-config's flags is intended
$CC $warnings -o "$OUT/chunk_addresses" "$example" $(pkg-config --cflags --libs chunkhash)
# shellcheck disable=SC2046
$CC $warnings -o "$OUT/chunk_addresses_static" "$example" $(pkg-config --cflags chunkhash) \
  $(pkg-config --variable=static_libs chunkhash)

readelf -d "$OUT/chunk_addresses" | grep -q 'NEEDED.*libchunkhash\.so\.' ||
  { echo "error: chunk_addresses does not load libchunkhash.so" >&2; exit 1; }
if readelf -d "$OUT/chunk_addresses_static" | grep -q 'libchunkhash'; then
  echo "error: chunk_addresses_static needs libchunkhash.so" >&2; exit 1
fi

# The built-in chunks.
for program in chunk_addresses chunk_addresses_static; do
  LD_LIBRARY_PATH="$libdir" "$OUT/$program" > "$OUT/$program.builtin.txt"
  diff -u "$ROOT/examples/c/chunk_addresses.expected" "$OUT/$program.builtin.txt"
done

# Files, against the Rust library: some of the repository's, an empty one
# and one of 100000 bytes (many chunks, hashed alone in the batch).
mkdir -p "$OUT/files"
: > "$OUT/files/empty"
head -c 100000 /dev/zero | tr '\0' 'x' > "$OUT/files/big"
cd "$ROOT"
set -- README.md Cargo.toml vectors/golden.json "$OUT/files/empty" "$OUT/files/big"
LD_LIBRARY_PATH="$libdir" "$OUT/chunk_addresses" "$@" > "$OUT/files.c.txt"
$CARGO run -q --release -p chunkhash --example hash_file -- "$@" |
  awk '{ print substr($1, 1, 40) "  " $2 }' > "$OUT/files.rust.txt"
diff -u "$OUT/files.rust.txt" "$OUT/files.c.txt"
[ "$(wc -l < "$OUT/files.c.txt")" -eq 5 ]

# An unreadable file is reported, the rest still printed, exit status 1.
if LD_LIBRARY_PATH="$libdir" "$OUT/chunk_addresses" README.md "$OUT/files/missing" > "$OUT/missing.txt" 2> "$OUT/missing.err"; then
  echo "error: chunk_addresses succeeded with a missing file" >&2; exit 1
fi
grep -q "chunk_addresses: $OUT/files/missing: No such file or directory" "$OUT/missing.err"
[ "$(wc -l < "$OUT/missing.txt")" -eq 1 ]

echo "chunk_addresses: built from the installed copy (shared and static), output checked"
