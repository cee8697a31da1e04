#!/usr/bin/env python3
"""Ingest to a SeaweedFS S3 gateway on loopback with and without the
CRC64NVME checksum header: `chunkhash store put` of one generated tree into a
fresh prefix, the two kinds interleaved, ROUNDS pairs; prints each run's MB/s
(as `put` reports it: bytes of input over the put's wall time) and the
median of the per-pair ratios (with / without).

    crates/bench/scripts/store_s3_ingest.py [CHUNKHASH] [WEED] [MB] [ROUNDS]
"""
import os, random, re, shutil, socket, statistics, subprocess, sys, tempfile, time, http.client

chunkhash = sys.argv[1] if len(sys.argv) > 1 else "target/release/chunkhash"
weed = sys.argv[2] if len(sys.argv) > 2 else "target/py-venv/bin/weed"
megabytes = int(sys.argv[3]) if len(sys.argv) > 3 else 256
rounds = int(sys.argv[4]) if len(sys.argv) > 4 else 5
work = tempfile.mkdtemp(prefix="store-s3-bench-", dir="/dev/shm" if os.path.isdir("/dev/shm") else None)

names = ["master.port", "master.port.grpc", "volume.port", "volume.port.grpc", "filer.port", "filer.port.grpc",
         "s3.port", "s3.port.grpc", "s3.port.iceberg", "s3.port.lance"]
sockets = [socket.socket() for _ in names]
for s in sockets:
    s.bind(("127.0.0.1", 0))
ports = {n: s.getsockname()[1] for n, s in zip(names, sockets)}
for s in sockets:
    s.close()
os.makedirs(f"{work}/weed")
server = subprocess.Popen([weed, "mini", f"-dir={work}/weed", "-ip=127.0.0.1", "-ip.bind=127.0.0.1", "-webdav=false",
                           "-admin.ui=false", *(f"-{n}={p}" for n, p in ports.items())],
                          stdout=open(f"{work}/weed.log", "wb"), stderr=subprocess.STDOUT)
try:
    endpoint = f"http://127.0.0.1:{ports['s3.port']}"
    deadline = time.monotonic() + 90
    while True:
        assert server.poll() is None and time.monotonic() < deadline, "weed did not start"
        try:
            c = http.client.HTTPConnection("127.0.0.1", ports["s3.port"], timeout=5)
            c.request("PUT", "/chunkhash-bench")
            if c.getresponse().status == 200:
                break
        except OSError:
            pass
        time.sleep(0.3)
    rng = random.Random(22)
    tree = f"{work}/tree"
    os.makedirs(tree)
    for i in range(megabytes // 4):
        with open(f"{tree}/file{i}", "wb") as f:
            f.write(rng.randbytes(4 << 20))
    print(f"{megabytes} MB in {megabytes // 4} files of 4 MiB, seed 22; {rounds} pairs, interleaved")
    results = {"with": [], "without": []}
    ratios = []
    run = 0
    for r in range(rounds):
        pair = {}
        for kind in (["with", "without"] if r % 2 == 0 else ["without", "with"]):
            run += 1
            store = f"s3://chunkhash-bench/run{run}"
            flags = ["store", "--s3-endpoint", endpoint, "--store", store] + ([] if kind == "with" else ["--s3-no-checksum"])
            subprocess.run([chunkhash, *flags, "init"], check=True, capture_output=True)
            out = subprocess.run([chunkhash, *flags, "put", tree], check=True, capture_output=True, text=True).stdout
            mbs = float(re.search(r"([0-9.]+) MB/s", out).group(1))
            pair[kind] = mbs
            results[kind].append(mbs)
            print(f"round {r}: {kind:7} checksum header {mbs:8.1f} MB/s")
        ratios.append(pair["with"] / pair["without"])
    print(f"median with {statistics.median(results['with']):.1f} MB/s, without {statistics.median(results['without']):.1f} MB/s")
    print(f"ratio with/without per pair: {', '.join(f'{x:.3f}' for x in ratios)}; median {statistics.median(ratios):.3f}")
finally:
    server.kill()
    server.wait()
    shutil.rmtree(work, ignore_errors=True)
