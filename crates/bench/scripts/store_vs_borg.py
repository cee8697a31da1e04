#!/usr/bin/env python3
"""`chunkhash store put` against `borg create` (borg 1.2, no compression, no
encryption) on the same files: the corpus `chunkhash store bench` ingests
(written to disk once by the `store_corpus` binary), each tool into a fresh
repository on the same disk, the page cache warm (an untimed read of the
corpus before every run, and a warm-up round).

Variants, each run once per round in a rotated order (interleaved):
  borg            borg init -e none; borg create --compression none (borg's
                  default chunker: buzhash, 512 KiB to 8 MiB, 2 MiB average)
  borg-64k        the same with --chunker-params buzhash,14,18,16,4095 (16 KiB
                  to 256 KiB, 64 KiB average: the store's chunk sizes)
  chunkhash-tN    chunkhash store init; chunkhash store put --no-fsync --threads N
Only `borg create` and `chunkhash store put` are timed (wall clock, and user +
sys CPU of the process from wait4); `init` is not.

fsync: `put --no-fsync` makes none. borg 1.2 has no setting to skip its
fsyncs (each segment file, and the directories, at every commit), so borg
runs under eatmydata (LD_PRELOAD: fsync, fdatasync, sync_file_range and
O_SYNC become no-ops); without eatmydata on PATH the script stops. borg's
fadvise(DONTNEED) calls are left as they are: on the segments it wrote, and
on every input file once read, which empties the page cache of the corpus
(measured: a put right after a borg run read it from disk, 4-7 s instead of
1), so the corpus is read once more before every run (untimed) and each run
starts with it in the page cache. After each run (untimed) the repository is
removed and `sync` writes back the dirty pages either tool left, so no run
pays for the one before.

Prints each run, then per variant the median seconds, MB/s (10^6 bytes of
corpus per second), median CPU seconds, and the median over rounds of the
paired ratio borg time / chunkhash time (how many times borg's time
chunkhash takes less).

    crates/bench/scripts/store_vs_borg.py CHUNKHASH STORE_CORPUS [SIZE] [ROUNDS] [THREADS] [WORKDIR]

SIZE: the corpus's large files (default 512MiB); ROUNDS (default 5);
THREADS: comma-separated chunkhash thread counts (default 1,2); WORKDIR: a
directory on disk (default /var/tmp), where a fresh folder is made and
removed at the end.
"""
import os, shutil, statistics, subprocess, sys, tempfile, time

chunkhash = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "target/release/chunkhash")
store_corpus = os.path.abspath(sys.argv[2] if len(sys.argv) > 2 else "target/release/store_corpus")
size = sys.argv[3] if len(sys.argv) > 3 else "512MiB"
rounds = int(sys.argv[4]) if len(sys.argv) > 4 else 5
threads = [int(t) for t in (sys.argv[5] if len(sys.argv) > 5 else "1,2").split(",")]
workdir = sys.argv[6] if len(sys.argv) > 6 else "/var/tmp"

for tool in ("borg", "eatmydata"):
    if shutil.which(tool) is None:
        sys.exit(f"store_vs_borg: {tool} is not on PATH (apt-get install borgbackup eatmydata)")

work = tempfile.mkdtemp(prefix="store-vs-borg-", dir=workdir)
env = dict(os.environ, BORG_BASE_DIR=f"{work}/borg-home", BORG_UNKNOWN_UNENCRYPTED_REPO_ACCESS_IS_OK="yes",
           BORG_RELOCATED_REPO_ACCESS_IS_OK="yes", BORG_CHECK_I_KNOW_WHAT_I_AM_DOING="YES")


def run(args, timed):
    """Runs args; returns (wall seconds, user + sys CPU seconds) if timed."""
    start = time.monotonic()
    process = subprocess.Popen(args, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.monotonic() - start
    err = process.stderr.read().decode(errors="replace")
    process.stderr.close()
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"store_vs_borg: {' '.join(args)} failed:\n{err}")
    return (wall, usage.ru_utime + usage.ru_stime) if timed else None


def borg(params):
    def once(repo):
        run(["borg", "init", "-e", "none", repo], False)
        extra = ["--chunker-params", params] if params else []
        return run(["eatmydata", "borg", "create", "--compression", "none", *extra, f"{repo}::a", "corpus"], True)
    return once


def chunkhash_put(n):
    def once(repo):
        run([chunkhash, "store", "--store", repo, "init"], False)
        return run([chunkhash, "store", "--store", repo, "put", "--no-fsync", "--threads", str(n), "corpus"], True)
    return once


variants = {"borg": borg(None), "borg-64k": borg("buzhash,14,18,16,4095")}
variants.update({f"chunkhash-t{n}": chunkhash_put(n) for n in threads})

try:
    os.chdir(work)
    generated = subprocess.run([store_corpus, "corpus", "--size", size], check=True, capture_output=True, text=True)
    print(generated.stdout.strip())
    corpus_bytes = sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk("corpus") for f in fs)
    def warm():
        for d, _, fs in os.walk("corpus"):
            for f in fs:
                with open(os.path.join(d, f), "rb") as file:
                    while file.read(1 << 20):
                        pass
    print(f"borg {subprocess.run(['borg', '--version'], capture_output=True, text=True).stdout.strip()}, "
          f"{chunkhash}, {rounds} rounds (+1 warm-up), interleaved; repositories in {work}")
    names = list(variants)
    results = {name: [] for name in names}
    for round_ in range(rounds + 1):
        order = names[round_ % len(names):] + names[:round_ % len(names)]
        for name in order:
            repo = f"{work}/repo-{name}"
            warm()
            wall, cpu = variants[name](repo)
            shutil.rmtree(repo)
            shutil.rmtree(f"{work}/borg-home", ignore_errors=True)
            # Neither tool fsyncs, so each leaves hundreds of MB of dirty
            # pages: written back here, untimed, or the next run pays
            # for them (measured: a put after a borg run took 4-7 s).
            os.sync()
            if round_ > 0:
                results[name].append((wall, cpu))
            print(f"round {round_}{' (warm-up)' if round_ == 0 else ''} {name}: {wall:.3f} s wall, {cpu:.3f} s CPU",
                  flush=True)
    print(f"\n{corpus_bytes} bytes of corpus")
    print(f"{'variant':<14} {'median s':>9} {'MB/s':>8} {'CPU s':>7}  vs borg  vs borg-64k  runs (s)")
    for name in names:
        walls = [w for w, _ in results[name]]
        med = statistics.median(walls)
        ratios = [statistics.median([b[0] / w for b, (w, _) in zip(results[other], results[name])])
                  for other in ("borg", "borg-64k")]
        print(f"{name:<14} {med:>9.3f} {corpus_bytes / med / 1e6:>8.1f} "
              f"{statistics.median(c for _, c in results[name]):>7.3f}  {ratios[0]:>6.2f}x  {ratios[1]:>9.2f}x  "
              + " ".join(f"{w:.2f}" for w in walls))
finally:
    os.chdir("/")
    shutil.rmtree(work, ignore_errors=True)
