#!/usr/bin/env bash
# Clean build times, interleaved: chunkhash with its default features (and
# variants) beside a crate that depends only on the official `blake3`, each
# candidate crate of the checksum registry alone, and the file-hashing
# programs of crates/bench/build-time (chunkhash lean, blake3, the plain
# reference: `file-*`).
#
#   [PROFILE=dev|release] [JOBS=N] crates/bench/scripts/build_times.sh [ROUNDS] [CONFIG...]
#
# PROFILE (default release) is cargo's profile; JOBS (default: cargo's) its -j.
#
# Every round builds every configuration once, from an empty target
# directory, in turn, so load from neighbours on a shared machine hits all of
# them alike; the summary gives each one's median wall time, the median of its
# per-round ratio to `blake3-only`, and its median CPU time (user + system).
# Crates are fetched before timing. Figures: BENCHMARKS.md, "Checksum crates".
set -euo pipefail

root=$(cd "$(dirname "$0")/../../.." && pwd)

# name|dependency lines of a scratch crate, for chunkhash:* the cargo
# arguments that build the workspace's chunkhash, for file-* nothing (the
# crate is crates/bench/build-time/NAME, its own workspace).
configs=(
  'file-chunkhash|'
  'file-blake3|'
  'file-reference|'
  'blake3-only|blake3 = "1.8"'
  'chunkhash:default|'
  'chunkhash:no-registry|--no-default-features --features std'
  'chunkhash:no-blake2|--no-default-features --features std,xxhash,crc,sha2'
  'chunkhash:no-crc|--no-default-features --features std,xxhash,blake2,sha2'
  'chunkhash:no-xxhash|--no-default-features --features std,crc,blake2,sha2'
  'chunkhash:no-sha2|--no-default-features --features std,xxhash,crc,blake2'
  'chunkhash:core+crc|--no-default-features --features std,crc'
  'twox-hash|twox-hash = { version = "2.1.5", default-features = false, features = ["std", "xxhash32", "xxhash64", "xxhash3_64", "xxhash3_128"] }'
  'xxhash-rust|xxhash-rust = { version = "0.8.19", features = ["xxh3", "xxh64", "xxh32"] }'
  'crc32c|crc32c = "0.6.9"'
  'crc-fast|crc-fast = { version = "1.10.0", default-features = false, features = ["std"] }'
  'blake2b_simd|blake2b_simd = { version = "1.0.5", default-features = false }'
  'blake2|blake2 = { version = "0.11.0", default-features = false }'
  'sha2|sha2 = { version = "0.11.1", default-features = false }'
  'hmac-sha256+512|hmac-sha256 = "1.1.15"
hmac-sha512 = { version = "1.1.13", default-features = false }'
)

config_of() {
  local config
  for config in "${configs[@]}"; do
    if [ "${config%%|*}" = "$1" ]; then
      printf '%s' "${config#*|}"
      return
    fi
  done
  echo "build_times.sh: unknown configuration $1" >&2
  exit 2
}

# Internal: `build_times.sh --build-one NAME WORKDIR` does one clean build.
profile=${PROFILE:-release}
cargo_args=(build -q --offline --profile "$profile")
if [ -n "${JOBS:-}" ]; then cargo_args+=(-j "$JOBS"); fi
if [ "${1:-}" = "--build-one" ]; then
  name=$2 work=$3
  rm -rf "$work/target"
  case $name in
    chunkhash:*)
      # shellcheck disable=SC2046 # the arguments are meant to split
      cd "$root" && CARGO_TARGET_DIR=$work/target cargo "${cargo_args[@]}" -p chunkhash $(config_of "$name")
      ;;
    file-*) cd "$root/crates/bench/build-time/$name" && CARGO_TARGET_DIR=$work/target cargo "${cargo_args[@]}" ;;
    *) cd "$work/$name" && CARGO_TARGET_DIR=$work/target cargo "${cargo_args[@]}" ;;
  esac
  exit
fi

rounds=${1:-5}
shift || true
names=("$@")
if [ ${#names[@]} -eq 0 ]; then
  for config in "${configs[@]}"; do names+=("${config%%|*}"); done
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for name in "${names[@]}"; do
  deps=$(config_of "$name")
  case $name in
    chunkhash:*) continue ;;
    file-*)
      (cd "$root/crates/bench/build-time/$name" && cargo fetch -q)
      continue
      ;;
  esac
  mkdir -p "$work/$name/src"
  printf '[package]\nname = "scratch"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\n%s\n\n[workspace]\n' \
    "$deps" >"$work/$name/Cargo.toml"
  echo 'pub fn f() {}' >"$work/$name/src/lib.rs"
  (cd "$work/$name" && cargo fetch -q)
done
(cd "$root" && cargo fetch -q)

echo "# clean $profile builds${JOBS:+ (-j $JOBS)}, $rounds interleaved rounds, $(nproc) cores, $(rustc --version), $(uptime)"
echo "# round, build, wall s, CPU s"
results=$work/results.txt
for round in $(seq "$rounds"); do
  for name in "${names[@]}"; do
    /usr/bin/time -f "%e %U %S" -o "$work/time.txt" "$0" --build-one "$name" "$work"
    read -r wall user system <"$work/time.txt"
    echo "$round $name $wall $(echo "$user + $system" | bc)" | tee -a "$results"
  done
done

python3 - "$results" <<'EOF'
import collections, statistics, sys
wall = collections.defaultdict(dict)
cpu = collections.defaultdict(dict)
for line in open(sys.argv[1]):
    round_, name, seconds, cpu_seconds = line.split()
    wall[name][int(round_)] = float(seconds)
    cpu[name][int(round_)] = float(cpu_seconds)
base = wall.get("blake3-only") or wall.get("file-blake3")
base_cpu = cpu.get("blake3-only") or cpu.get("file-blake3")
print()
print("| build | wall s (median) | wall s per round | wall vs blake3 (paired median) | CPU s (median) | CPU s per round | CPU vs blake3 (paired median) |")
print("| --- | ---: | --- | ---: | ---: | --- | ---: |")
for name, runs in wall.items():
    ratio = f"{statistics.median(runs[r] / base[r] for r in runs):.2f}" if base else "-"
    listed = " ".join(f"{runs[r]:.2f}" for r in sorted(runs))
    cpus = cpu[name]
    cpu_ratio = f"{statistics.median(cpus[r] / base_cpu[r] for r in cpus):.2f}" if base_cpu else "-"
    cpu_listed = " ".join(f"{cpus[r]:.2f}" for r in sorted(cpus))
    print(f"| {name} | {statistics.median(runs.values()):.2f} | {listed} | {ratio} | {statistics.median(cpus.values()):.2f} | {cpu_listed} | {cpu_ratio} |")
EOF
