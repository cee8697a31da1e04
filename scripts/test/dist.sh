#!/usr/bin/env bash
# `make test-dist`, after `make dist`: installs each artifact of dist/ into a
# clean place under target/dist-smoke and runs a small program against it,
# as a user of that artifact would, checking known answers (BLAKE3 of "abc"
# and the check value of CRC-32C, among others):
#
#   python X.Y   a fresh venv per CPython >= 3.10 found here, the wheel
#                installed with `pip install --no-index`, run with neither
#                cargo nor rustc on PATH (scripts/test/dist/smoke.py)
#   npm          a fresh project, `npm install --offline` of the tarball,
#                the ES module and CommonJS entries (smoke.mjs)
#   browser      the browser test (bindings/js/tests/browser.test.mjs) on
#                the installed copy of the package, in headless Chromium
#   java         a fresh Maven project (scripts/test/dist/java) whose only
#                dependency, io.chunkhash:chunkhash, comes from dist/maven
#                into an empty local repository; everything else from
#                ~/.m2 as a file:// mirror, so Maven needs no network
#   c            the tarball unpacked into an empty prefix, a C program
#                built through pkg-config, shared and static (smoke.c)
#   crate        the .crate unpacked, a fresh cargo program depending on it
#                by path, run offline
#
# Ends with "dist: N passed, N failed" (the line parts.sh counts); exits 1
# when any failed. Each run's output is in target/dist-smoke/NAME.log.
#
#   scripts/test/dist.sh [KIND...]      (python npm browser java c crate; default all.
#                                        DIST names the folder; default dist)
set -uo pipefail
cd "$(dirname "$0")/../.."
. scripts/test/lib.sh

ROOT=$PWD
DIST=$(realpath -m "${DIST:-dist}")
WORK=$ROOT/target/dist-smoke
HERE=$ROOT/scripts/test/dist
VERSION=$(sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -n 1)
# What a machine without Rust has on PATH: the system's folders only.
BARE_PATH=/usr/local/bin:/usr/bin:/bin

rm -rf "$WORK"
mkdir -p "$WORK"
passed=0
failed=0

# smoke NAME COMMAND...: runs one smoke test with its output in NAME.log;
# prints its last line (the test's own summary) and the seconds it took.
smoke() {
  local name=$1 start=$SECONDS log=$WORK/$1.log
  shift
  if "$@" >"$log" 2>&1; then
    passed=$((passed + 1))
    printf 'ok    %-12s %3ss  %s\n' "$name" $((SECONDS - start)) "$(tail -n 1 "$log")"
  else
    failed=$((failed + 1))
    printf 'FAIL  %-12s %3ss  (log: %s)\n' "$name" $((SECONDS - start)) "$log"
    tail -n 30 "$log" | sed 's/^/      /'
  fi
}

# the_file PATTERN: the one file of dist/ matching PATTERN, or an error.
the_file() {
  local files
  files=$(compgen -G "$DIST/$1") || { echo "error: no $1 in $DIST: run 'make dist'" >&2; return 1; }
  [ "$(wc -l <<<"$files")" = 1 ] || { echo "error: more than one $1 in $DIST: $files" >&2; return 1; }
  echo "$files"
}

# CPython 3.10 and later: on PATH, or pyenv's installed versions.
pythons() {
  local minor exe root
  root=$(pyenv root 2>/dev/null)
  for minor in 10 11 12 13 14; do
    exe=
    [ -n "$root" ] && exe=$(compgen -G "$root/versions/3.$minor.*/bin/python3.$minor" | tail -n 1)
    [ -n "$exe" ] || exe=$(python3.$minor -c 'import sys; print(sys.executable)' 2>/dev/null)
    [ -n "$exe" ] && echo "$exe"
  done
  return 0
}

smoke_python() {
  local python=$1 venv
  venv=$WORK/venv-$(basename "$python")
  local wheel
  wheel=$(the_file "chunkhash-$VERSION-cp310-abi3-*.whl") || return 1
  echo "wheel: $wheel"
  # Without pip of its own (ensurepip takes most of a venv's creation): the
  # interpreter's pip installs into it (pip's --python).
  "$python" -m venv --without-pip "$venv" || return 1
  # A machine without Rust: neither tool may be reachable from here on.
  if PATH=$venv/bin:$BARE_PATH command -v cargo || PATH=$venv/bin:$BARE_PATH command -v rustc; then
    echo "error: cargo or rustc is still on PATH ($BARE_PATH)"
    return 1
  fi
  PATH=$venv/bin:$BARE_PATH "$python" -m pip --python "$venv/bin/python" install -q --disable-pip-version-check --no-index "$wheel" || return 1
  (cd "$WORK" && PATH=$venv/bin:$BARE_PATH "$venv/bin/python" "$HERE/smoke.py")
}

smoke_npm() {
  local tarball project=$WORK/npm
  tarball=$(the_file "chunkhash-$VERSION.tgz") || return 1
  mkdir -p "$project"
  cp "$HERE/smoke.mjs" "$project/"
  echo '{ "name": "chunkhash-smoke", "version": "1.0.0", "private": true }' >"$project/package.json"
  (cd "$project" && PATH=$BARE_PATH npm install --offline --no-audit --no-fund --loglevel=error "$tarball" &&
    PATH=$BARE_PATH node smoke.mjs)
}

# The browser test of the repository, serving the installed package's
# files (CHUNKHASH_JS_PACKAGE) in place of bindings/js's own.
smoke_browser() {
  local package=$WORK/npm/node_modules/chunkhash
  [ -f "$package/dist/chunkhash.mjs" ] || { echo "error: the npm smoke test did not install the package"; return 1; }
  # As make test-js: Debian's chromium when missing; playwright-core from bindings/js's npm ci.
  (need_apt /usr/bin/chromium chromium) || return 1
  (cd bindings/js && CHUNKHASH_JS_PACKAGE=$package node --test tests/browser.test.mjs) || return 1
  echo "browser: ok (the installed package in headless Chromium)"
}

smoke_java() {
  local repo=$WORK/java/m2 project=$WORK/java/project settings=$WORK/java/settings.xml jar
  [ -d "$DIST/maven/io/chunkhash/chunkhash/$VERSION" ] || { echo "error: no $DIST/maven/io/chunkhash/chunkhash/$VERSION: run 'make dist'"; return 1; }
  mkdir -p "$repo" "$project"
  cp -r "$HERE/java/." "$project/"
  cat >"$settings" <<EOF
<settings>
  <localRepository>$repo</localRepository>
  <mirrors>
    <!-- Plugins and the parent's imports from the machine's ~/.m2 (filled
         by make test-java), read as a repository: no network. -->
    <mirror><id>m2</id><mirrorOf>*,!chunkhash-dist</mirrorOf><url>file://$HOME/.m2/repository</url></mirror>
  </mirrors>
  <profiles>
    <profile>
      <id>chunkhash-dist</id>
      <repositories><repository><id>chunkhash-dist</id><url>file://$DIST/maven</url></repository></repositories>
    </profile>
  </profiles>
  <activeProfiles><activeProfile>chunkhash-dist</activeProfile></activeProfiles>
</settings>
EOF
  (cd "$project" && mvn -B -ntp -q -s "$settings" compile >"$WORK/java/mvn.log" 2>&1) ||
    { cat "$WORK/java/mvn.log"; echo "error: the smoke project did not build (plugins come from ~/.m2: run 'make test-java' first)"; return 1; }
  jar=$repo/io/chunkhash/chunkhash/$VERSION/chunkhash-$VERSION.jar
  # Maven records where each artifact came from: dist/maven, not ~/.m2.
  grep -q '>chunkhash-dist=' "$(dirname "$jar")/_remote.repositories" ||
    { echo "error: $jar did not come from $DIST/maven"; cat "$(dirname "$jar")/_remote.repositories"; return 1; }
  (cd "$project" && java -cp "target/classes:$jar" Smoke)
}

smoke_c() {
  local tarball prefix=$WORK/c/prefix out=$WORK/c libdir
  tarball=$(the_file "chunkhash-c-$VERSION-*.tar.gz") || return 1
  mkdir -p "$prefix"
  tar -xzf "$tarball" -C "$prefix" --strip-components=1 || return 1
  export PKG_CONFIG_PATH=$prefix/lib/pkgconfig
  echo "pkg-config: chunkhash $(pkg-config --modversion chunkhash): $(pkg-config --cflags --libs chunkhash)"
  libdir=$(pkg-config --variable=libdir chunkhash)
  # shellcheck disable=SC2046 # pkg-config's flags are meant to split
  gcc -std=c11 -Wall -Wextra -Werror -o "$out/smoke_shared" "$HERE/smoke.c" $(pkg-config --cflags --libs chunkhash) || return 1
  # shellcheck disable=SC2046
  gcc -std=c11 -Wall -Wextra -Werror -o "$out/smoke_static" "$HERE/smoke.c" $(pkg-config --cflags chunkhash) \
    $(pkg-config --variable=static_libs chunkhash) || return 1
  readelf -d "$out/smoke_shared" | grep -q 'NEEDED.*libchunkhash\.so\.' || { echo "error: smoke_shared does not load libchunkhash.so"; return 1; }
  if readelf -d "$out/smoke_static" | grep -q libchunkhash; then echo "error: smoke_static needs libchunkhash.so"; return 1; fi
  LD_LIBRARY_PATH=$libdir "$out/smoke_shared" && "$out/smoke_static"
}

# The crate as crates.io would serve it: unpacked, used by path from a new
# program, offline, with the versions of the lock file the crate carries.
# The build shares target/ with `cargo publish --dry-run` (make
# dist-crate), whose verify step already compiled the dependencies.
smoke_crate() {
  local crate project=$WORK/crate/smoke
  crate=$(the_file "chunkhash-$VERSION.crate") || return 1
  mkdir -p "$project/src"
  tar -xzf "$crate" -C "$WORK/crate" || return 1
  cp "$WORK/crate/chunkhash-$VERSION/Cargo.lock" "$project/" 2>/dev/null || true
  cat >"$project/Cargo.toml" <<EOF
[package]
name = "chunkhash-smoke"
version = "0.0.0"
edition = "2021"
publish = false

[dependencies]
chunkhash = { path = "../chunkhash-$VERSION" }

[workspace]
EOF
  cp "$HERE/smoke.rs" "$project/src/main.rs"
  CARGO_TARGET_DIR=$ROOT/target cargo run -q --offline --manifest-path "$project/Cargo.toml"
}

echo "==== the artifacts of $DIST"
(cd "$DIST" && find . -maxdepth 1 -type f -printf '%10s B  %f\n' | sort -k3) || die "no $DIST: run 'make dist'"
[ -d "$DIST/maven" ] && echo "$(du -sb "$DIST/maven" | cut -f1) B  maven/ ($(find "$DIST/maven" -name '*.jar' | wc -l) jars)"

KINDS=${*:-python npm browser java c crate}
wanted() { [[ " $KINDS " == *" $1 "* ]]; }

echo "==== smoke tests"
if wanted python; then
  found=0
  while read -r python; do
    found=1
    smoke "python$("$python" -c 'import sys; print("%d.%d" % sys.version_info[:2])')" smoke_python "$python"
  done < <(pythons)
  [ "$found" = 1 ] || { failed=$((failed + 1)); echo "FAIL  python: no CPython >= 3.10 found"; }
fi
for kind in npm browser java c crate; do
  wanted $kind && smoke $kind smoke_$kind
done

echo "dist: $passed passed, $failed failed"
[ "$failed" = 0 ]
