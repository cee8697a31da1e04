#!/usr/bin/env python3
"""Ingest to a SeaweedFS S3 gateway on loopback with each upload checksum
kind and without any: `chunkhash store put` of one generated tree into a
fresh prefix per run, every variant once per round in a rotated order
(interleaved), ROUNDS rounds; prints each run's MB/s (as `put` reports it:
bytes of input over the put's wall time) and, per variant, the median of its
per-round ratios to the run without a checksum header.

Variants: none (--s3-no-checksum), crc64nvme (the default), crc32c, crc32,
sha256, xxhash3, all with the default part size (8 MiB: a 32 MiB pack goes up
in four parts), and crc64nvme-single-put (--s3-part-size 64M: one PUT per
pack), the no-checksum run uses the default part size too.

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
    print(f"{megabytes} MB in {megabytes // 4} files of 4 MiB, seed 22; {rounds} rounds, interleaved")
    variants = {
        "none": ["--s3-no-checksum"],
        "crc64nvme": ["--s3-checksum", "crc64nvme"],
        "crc32c": ["--s3-checksum", "crc32c"],
        "crc32": ["--s3-checksum", "crc32"],
        "sha256": ["--s3-checksum", "sha256"],
        "xxhash3": ["--s3-checksum", "xxhash3"],
        "crc64nvme-single-put": ["--s3-checksum", "crc64nvme", "--s3-part-size", "64M"],
    }
    names = list(variants)
    results = {name: [] for name in names}
    ratios = {name: [] for name in names}
    run = 0
    for r in range(rounds):
        order = names[r % len(names):] + names[:r % len(names)]
        speeds = {}
        for name in order:
            run += 1
            store = f"s3://chunkhash-bench/run{run}"
            flags = ["store", "--s3-endpoint", endpoint, "--store", store, *variants[name]]
            subprocess.run([chunkhash, *flags, "init"], check=True, capture_output=True)
            out = subprocess.run([chunkhash, *flags, "put", tree], check=True, capture_output=True, text=True).stdout
            speeds[name] = float(re.search(r"([0-9.]+) MB/s", out).group(1))
            results[name].append(speeds[name])
            print(f"round {r}: {name:21} {speeds[name]:8.1f} MB/s", flush=True)
        for name in names:
            ratios[name].append(speeds[name] / speeds["none"])
    print(f"{'variant':21} {'median MB/s':>11}  ratio to none: median (per round)")
    for name in names:
        per_round = ", ".join(f"{x:.3f}" for x in ratios[name])
        print(f"{name:21} {statistics.median(results[name]):11.1f}  {statistics.median(ratios[name]):.3f} ({per_round})")
finally:
    server.kill()
    server.wait()
    shutil.rmtree(work, ignore_errors=True)
