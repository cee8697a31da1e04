#!/bin/sh
# make bench-compare BASE=<ref>: the working tree's `chunkhash` against the
# one built from <ref>, on the same benchmark rows, run alternately in one
# session, one table of baseline, new and change (the noise rule of
# `chunkhash bench --compare`). See CONTRIBUTING.md, "Benchmark comparison".
#
# The base is checked out in a git worktree, target/bench-base-<ref>, and
# built into this checkout's target/ (cargo keeps the two builds' own crates
# apart by path and shares every dependency, so the base costs only the
# workspace's crates). Both binaries are copied to target/bench-compare/
# before anything runs.
#
# Settings (environment, or make variables):
#   BASE        the ref to compare with (required): main, main~5, a commit
#   BENCH_ARGS  the `chunkhash bench` rows (default: its own defaults)
#   STORE=1     also `chunkhash store bench` and `store bench-kv` (STORE_ARGS,
#               KV_ARGS: their options; defaults are short runs)
#   PASSES      passes over the commands, each running both builds (3)
set -eu

: "${BASE:?usage: make bench-compare BASE=<ref> [BENCH_ARGS=...] [STORE=1] [PASSES=3]}"
CARGO=${CARGO:-cargo}
PASSES=${PASSES:-3}
BENCH_ARGS=${BENCH_ARGS:-}
STORE=${STORE:-}
STORE_ARGS=${STORE_ARGS:---size 64MiB --runs 3 --fsync no}
KV_ARGS=${KV_ARGS:---rows 20000 --kv-entries 100000 --kv-updates 2000 --proofs 2000 --runs 3}

root=$(git rev-parse --show-toplevel)
cd "$root"
base_commit=$(git rev-parse --verify --quiet "$BASE^{commit}") || { echo "bench-compare: unknown ref $BASE" >&2; exit 2; }
worktree=target/bench-base-$(printf '%s' "$BASE" | tr -c 'A-Za-z0-9._-' '-')
out=target/bench-compare
mkdir -p "$out"

if [ -e "$worktree/.git" ]; then
    git -C "$worktree" checkout --quiet --detach "$base_commit"
else
    git worktree add --quiet --detach "$worktree" "$base_commit"
fi

echo "bench-compare: building the base, $BASE ($(git rev-parse --short "$base_commit")), in $worktree" >&2
# CARGO_TARGET_DIR: this checkout's target/, so dependencies are shared.
# The binary is removed first, so a failed build cannot leave the other's.
rm -f target/release/chunkhash
(cd "$worktree" && CARGO_TARGET_DIR="$root/target" nice $CARGO build --quiet --release -p chunkhash-cli)
cp target/release/chunkhash "$out/chunkhash-base"
echo "bench-compare: building the working tree" >&2
rm -f target/release/chunkhash
nice $CARGO build --quiet --release -p chunkhash-cli
cp target/release/chunkhash "$out/chunkhash-new"
nice $CARGO build --quiet --release -p chunkhash-bench --no-default-features --bin bench_compare

dirty=$(git status --porcelain --untracked-files=no | head -c1)
echo "bench-compare: base $BASE ($(git rev-parse --short "$base_commit")), new: working tree at $(git rev-parse --short HEAD)${dirty:+ with uncommitted changes}; $PASSES passes, $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"

# shellcheck disable=SC2086 # the ARGS variables are word lists
if [ -n "$STORE" ]; then
    target/release/bench_compare --base "$out/chunkhash-base" --new "$out/chunkhash-new" --passes "$PASSES" --dir "$out" \
        -- bench $BENCH_ARGS -- store bench $STORE_ARGS -- store bench-kv $KV_ARGS
else
    target/release/bench_compare --base "$out/chunkhash-base" --new "$out/chunkhash-new" --passes "$PASSES" --dir "$out" \
        -- bench $BENCH_ARGS
fi
