# The two commands a newcomer needs (see README.md):
#   make run   - the main job
#   make test  - every test, lint and check
# Toolchains the machine provides: Rust (rustup), Python 3, Node, gcc.

CARGO ?= cargo
PYTHON ?= python3
# The CLI tests check xxhsum formats against an independent xxHash, the
# Python `xxhash` package; it is installed here, never globally.
PYDEPS ?= target/pydeps
export CHUNKHASH_PYDEPS := $(abspath $(PYDEPS))
# Backends to run the whole suite on, forced with CHUNKHASH_BACKEND; the ones
# this CPU lacks are skipped with a note.
BACKENDS ?= portable sse41 avx2 avx512
# CRC kernels to run the registry and CRC tests on, forced with
# CHUNKHASH_CRC_BACKEND (each kernel's own tests force them all anyway).
CRC_BACKENDS ?= portable sse42 pclmul vpclmul

.PHONY: run test test-rust test-c test-features check-golden test-backends test-crc-backends test-targets lint pydeps install

# The main job: `chunkhash bench` with its defaults (every algorithm, 64 B to
# 1 MiB); needs no input and ends well under a minute.
run:
	$(CARGO) run --release -p chunkhash-cli -- bench

test: lint pydeps test-rust test-features test-c check-golden test-backends test-crc-backends test-targets

# Installs the C library (header, libchunkhash.a, libchunkhash.so, chunkhash.pc):
#   make install PREFIX=/usr/local   (also DESTDIR, LIBDIR, INCLUDEDIR)
install:
	$(MAKE) -C bindings/c install

pydeps:
	@$(PYTHON) -c "import sys; sys.path.insert(0, '$(PYDEPS)'); import xxhash" 2>/dev/null || \
	  $(PYTHON) -m pip install --quiet --disable-pip-version-check --root-user-action=ignore --target $(PYDEPS) xxhash

lint:
	$(CARGO) fmt --all -- --check
	$(CARGO) fmt --manifest-path bindings/c/header-gen/Cargo.toml -- --check
	$(CARGO) clippy --workspace --all-targets -- -D warnings

test-rust:
	$(CARGO) test --workspace --all-features

# The C library (bindings/c): header drift check, the C tests under ASan and
# UBSan and under valgrind, the C++ header check, install + pkg-config + the
# example. Its Rust unit tests ran in test-rust.
test-c:
	$(MAKE) -C bindings/c test-native

# The registry with its families off (no_std without them; the tests check
# that missing algorithms are errors), and every family without std.
test-features:
	$(CARGO) build -q -p chunkhash --no-default-features
	$(CARGO) build -q -p chunkhash --no-default-features --features xxhash,crc,blake2,sha2
	$(CARGO) clippy -q -p chunkhash --no-default-features -- -D warnings
	$(CARGO) clippy -q -p chunkhash --no-default-features --features crc -- -D warnings
	$(CARGO) test -q -p chunkhash --no-default-features --features std --test registry --test trailer

# vectors/golden.json against independent references (hashlib, zlib, xxhash,
# crc32c, awscrt, blake3); installs the pinned Python packages it needs.
check-golden:
	$(PYTHON) -m pip install -q --disable-pip-version-check --root-user-action=ignore -r vectors/tools/requirements.txt
	$(PYTHON) vectors/tools/check_golden.py

# The differential tests already force each backend; this runs everything
# else (one-shot calls, default hashers) on each one too.
test-backends:
	@for backend in $(BACKENDS); do \
	  if $(CARGO) run -q --release -p chunkhash --example backend_supported -- $$backend; then \
	    echo "== CHUNKHASH_BACKEND=$$backend"; \
	    CHUNKHASH_BACKEND=$$backend $(CARGO) test -q -p chunkhash --all-features || exit 1; \
	  else \
	    echo "note: backend $$backend not supported on this machine, skipped"; \
	  fi; \
	done

# The CRC, registry and trailer tests on each CRC kernel in turn (with the
# features of test-backends, whose build they reuse).
test-crc-backends:
	@for backend in $(CRC_BACKENDS); do \
	  if $(CARGO) run -q --release -p chunkhash --example backend_supported -- crc:$$backend; then \
	    echo "== CHUNKHASH_CRC_BACKEND=$$backend"; \
	    CHUNKHASH_CRC_BACKEND=$$backend $(CARGO) test -q -p chunkhash --all-features --test crc --test registry --test trailer || exit 1; \
	  else \
	    echo "note: CRC backend $$backend not supported on this machine, skipped"; \
	  fi; \
	done

# aarch64 (NEON) and wasm32 (SIMD128), where their targets are installed;
# skipped with a note otherwise.
test-targets:
	./scripts/check-targets.sh
