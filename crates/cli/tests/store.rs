//! `chunkhash store ...` run as a real process: every subcommand, exit
//! codes, `kill -9` of `put` at seeded points (by the crash-injection hook
//! at every write step, and by SIGKILL at seeded delays), and a
//! small run of `store bench`.

mod common;

use chunkhash_store::{OpenOptions, Store};
use common::{is_stopped, same_tree, write_files};
use std::fs;
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::Duration;
use vectors::listing::listing;
use vectors::{test_seed, TestRng};

fn test_dir(test: &str) -> PathBuf {
    let path = Path::new(env!("CARGO_TARGET_TMPDIR")).join("store-cli-tests").join(test);
    let _ = fs::remove_dir_all(&path);
    fs::create_dir_all(&path).unwrap();
    path
}

fn chunkhash(dir: &Path) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_chunkhash"));
    command.current_dir(dir).env_remove("CHUNKHASH_STORE").env_remove("CHUNKHASH_STORE_CRASH_AT");
    command.stdin(Stdio::null());
    command
}

fn run(dir: &Path, args: &[&str]) -> Output {
    chunkhash(dir).args(args).output().unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Runs and expects exit status `code`; returns stdout.
fn expect(dir: &Path, args: &[&str], code: i32) -> String {
    let output = run(dir, args);
    assert_eq!(
        output.status.code(),
        Some(code),
        "{args:?}\nstdout: {}\nstderr: {}",
        text(&output.stdout),
        text(&output.stderr)
    );
    text(&output.stdout)
}

fn last_line(stdout: &str) -> String {
    stdout.lines().last().unwrap_or_default().to_string()
}

#[test]
fn every_subcommand_and_its_exit_codes() {
    let dir = test_dir("subcommands");
    let mut rng = TestRng::new(test_seed("store_subcommands", 0x5eed_1001));
    write_files(&mut rng, &dir.join("data"), 12, 200_000);
    std::os::unix::fs::symlink("even/file 0", dir.join("data/link")).unwrap();

    let created = expect(&dir, &["store", "init", "--store", "st", "--algorithm", "sha256", "--chunk-avg", "32K"], 0);
    assert!(created.contains("SHA-256") && created.contains("32768"), "{created}");
    expect(&dir, &["store", "init", "--store", "st"], 2);

    let put = expect(&dir, &["store", "put", "--store", "st", "data"], 0);
    let snapshot = last_line(&put);
    assert_eq!(snapshot.len(), 64, "{put}");
    // The same files on 3 threads: nothing new to store.
    let again = expect(&dir, &["store", "put", "--store", "st", "--threads", "3", "data"], 0);
    assert!(again.contains("new: 0 chunks, 0 bytes") && again.contains("on 3 threads"), "{again}");

    // CHUNKHASH_STORE names the store when --store is absent.
    let with_env = |args: &[&str]| chunkhash(&dir).args(args).env("CHUNKHASH_STORE", "st").output().unwrap();
    let listed = with_env(&["store", "ls"]);
    assert!(text(&listed.stdout).starts_with(&snapshot), "{}", text(&listed.stdout));
    let entries = text(&with_env(&["store", "ls", &snapshot[..10]]).stdout);
    assert!(entries.contains("data/even/file 0\n") && entries.contains("data/link -> even/file 0"), "{entries}");

    expect(&dir, &["store", "get", "--store", "st", &snapshot, "out"], 0);
    assert!(same_tree(&dir.join("data"), &dir.join("out/data")));
    let verified = expect(&dir, &["store", "verify", "--store", "st"], 0);
    assert!(verified.contains("every record is sound"), "{verified}");
    let stats = expect(&dir, &["store", "stats", "--store", "st"], 0);
    // Two puts of the same files make one snapshot when they fall in the
    // same second, two otherwise (the test once ran long enough for that).
    let snapshots = text(&listed.stdout).lines().count();
    assert!(stats.contains(&format!("snapshots:      {snapshots}\n")) && stats.contains("dedup ratio"), "{stats}");
    let reindexed = expect(&dir, &["store", "reindex", "--store", "st"], 0);
    assert!(reindexed.contains("it equals the index it replaces"), "{reindexed}");

    // Usage errors exit 2 with a message.
    let cases: [(&[&str], &str); 6] = [
        (&["store", "verify"], "no store given"),
        (&["store", "put", "--store", "st", "--threads", "0", "data"], "--threads"),
        (&["store", "verify", "--store", "data"], "not a chunk store"),
        (&["store", "get", "--store", "st", "abcdef12", "out2"], "no snapshot abcdef12"),
        (&["store", "ls", "--store", "st", "--algorithm", "blake3-160"], "not BLAKE3-160 as expected"),
        (&["store", "get", "--store", "st", &snapshot, "out"], "not an empty directory"),
    ];
    for (args, message) in cases {
        let output = run(&dir, args);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {}", text(&output.stderr));
        assert!(text(&output.stderr).contains(message), "{args:?}: {}", text(&output.stderr));
    }

    // A second writer is refused while one holds the lock.
    let writer = Store::open(&dir.join("st"), OpenOptions { write: true, ..OpenOptions::default() }).unwrap();
    let output = run(&dir, &["store", "put", "--store", "st", "data"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(text(&output.stderr).contains("another writer"), "{}", text(&output.stderr));
    drop(writer);

    // Damage: verify names the chunk and its file and exits 1; get exits 1.
    let pack = fs::read_dir(dir.join("st/packs")).unwrap().next().unwrap().unwrap().path();
    let mut bytes = fs::read(&pack).unwrap();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 0x40;
    fs::write(&pack, bytes).unwrap();
    let output = run(&dir, &["store", "verify", "--store", "st"]);
    assert_eq!(output.status.code(), Some(1));
    let stderr = text(&output.stderr);
    assert!(stderr.contains("damaged: chunk") && stderr.contains(&format!("in {}:data/", &snapshot[..12])), "{stderr}");
    let output = run(&dir, &["store", "get", "--store", "st", &snapshot, "out3"]);
    assert_eq!(output.status.code(), Some(1), "{}", text(&output.stderr));
    assert!(text(&output.stderr).contains("checksum mismatch"), "{}", text(&output.stderr));
}

/// The store after a crash: it opens, verifies clean, and restores the
/// earlier snapshot exactly.
#[test]
fn get_restores_special_bits_only_when_asked() {
    use std::os::unix::fs::PermissionsExt;
    let dir = test_dir("special_bits");
    fs::create_dir_all(dir.join("data/shared")).unwrap();
    fs::write(dir.join("data/tool"), b"#!/bin/sh\n").unwrap();
    fs::set_permissions(dir.join("data/tool"), fs::Permissions::from_mode(0o4755)).unwrap();
    fs::set_permissions(dir.join("data/shared"), fs::Permissions::from_mode(0o1777)).unwrap();
    expect(&dir, &["store", "init", "--store", "st"], 0);
    let snapshot = last_line(&expect(&dir, &["store", "put", "--store", "st", "data"], 0));
    let mode = |path: &str| fs::symlink_metadata(dir.join(path)).unwrap().permissions().mode() & 0o7777;
    expect(&dir, &["store", "get", "--store", "st", &snapshot, "plain"], 0);
    assert_eq!((mode("plain/data/tool"), mode("plain/data/shared")), (0o755, 0o777));
    expect(&dir, &["store", "get", "--store", "st", "--preserve-special-bits", &snapshot, "kept"], 0);
    assert_eq!((mode("kept/data/tool"), mode("kept/data/shared")), (0o4755, 0o1777));
}

fn assert_sound_after_crash(dir: &Path, store: &Path, earlier: &str, data: &Path, label: &str) {
    let opened = Store::open(store, OpenOptions::default()).unwrap_or_else(|e| panic!("{label}: open: {e}"));
    let report = opened.verify(None).unwrap();
    assert!(report.damage.is_empty(), "{label}: {:?}", report.damage);
    let out = dir.join(format!("restored-{label}"));
    let address = opened.resolve(earlier).unwrap();
    opened.get(&address, &out, None).unwrap_or_else(|e| panic!("{label}: get: {e}"));
    assert!(same_tree(data, &out.join("v1")), "{label}: restored tree differs");
    fs::remove_dir_all(&out).unwrap();
}

fn copy_dir(from: &Path, to: &Path) {
    let _ = fs::remove_dir_all(to);
    let status = Command::new("cp").arg("-a").arg(from).arg(to).status().unwrap();
    assert!(status.success());
}

/// A put with a crash injected at write step `step` (0: none).
fn put_crashing(dir: &Path, store: &Path, input: &str, step: u64) -> Output {
    let mut command = chunkhash(dir);
    command.args(["store", "put", "--pack-target", "128K", "--store"]).arg(store).arg(input);
    if step > 0 {
        command.env("CHUNKHASH_STORE_CRASH_AT", step.to_string());
    }
    command.output().unwrap()
}

#[test]
fn kill_9_during_put_at_every_write_step() {
    let dir = test_dir("crash_steps");
    let mut rng = TestRng::new(test_seed("store_crash_steps", 0x5eed_2001));
    write_files(&mut rng, &dir.join("v1"), 10, 60_000);
    copy_dir(&dir.join("v1"), &dir.join("v2"));
    write_files(&mut rng, &dir.join("v2/new"), 16, 120_000);
    fs::write(dir.join("v2/even/file 0"), rng.bytes(90_000)).unwrap();

    let baseline = dir.join("baseline");
    expect(
        &dir,
        &["store", "init", "--store", "baseline", "--chunk-min", "1K", "--chunk-avg", "4K", "--chunk-max", "16K"],
        0,
    );
    let earlier = last_line(&expect(&dir, &["store", "put", "--store", "baseline", "--pack-target", "128K", "v1"], 0));

    // The write steps of an uninterrupted put: the first step at which no
    // crash happens, found by bisection (steps are deterministic from the
    // same starting store).
    let work = dir.join("work");
    let crashes = |step: u64| {
        copy_dir(&baseline, &work);
        let output = put_crashing(&dir, &work, "v2", step);
        !output.status.success()
    };
    let (mut low, mut high) = (1u64, 4096u64);
    assert!(!crashes(high), "more than {high} write steps");
    while low < high {
        let mid = (low + high) / 2;
        if crashes(mid) {
            low = mid + 1;
        } else {
            high = mid;
        }
    }
    let steps = low - 1;
    assert!(steps > 20, "only {steps} write steps");
    println!("an uninterrupted put takes {steps} write steps");

    // Every step: each write, fsync, rename, truncation and removal.
    for step in 1..=steps {
        copy_dir(&baseline, &work);
        let output = put_crashing(&dir, &work, "v2", step);
        assert_eq!(output.status.signal(), Some(6), "step {step}: {}", text(&output.stderr));
        assert!(text(&output.stderr).contains("crash injected"), "step {step}");
        assert_sound_after_crash(&dir, &work, &earlier, &dir.join("v1"), &format!("step-{step}"));
        // The store takes the next put, which stores v2 whole.
        let again = last_line(&text(&put_crashing(&dir, &work, "v2", 0).stdout));
        let out = dir.join("out-v2");
        let _ = fs::remove_dir_all(&out);
        expect(&dir, &["store", "get", "--store", "work", &again, "out-v2"], 0);
        assert!(same_tree(&dir.join("v2"), &out.join("v2")), "step {step}: v2 differs");
    }
}

#[test]
fn sigkill_during_put_at_seeded_delays() {
    let dir = test_dir("sigkill");
    let mut rng = TestRng::new(test_seed("store_sigkill", 0x5eed_3001));
    write_files(&mut rng, &dir.join("v1"), 6, 50_000);
    write_files(&mut rng, &dir.join("v2"), 40, 1_000_000);
    let store = dir.join("st");
    expect(
        &dir,
        &["store", "init", "--store", "st", "--chunk-min", "1K", "--chunk-avg", "4K", "--chunk-max", "16K"],
        0,
    );
    let earlier = last_line(&expect(&dir, &["store", "put", "--store", "st", "v1"], 0));
    let mut finished = Vec::new();
    let mut killed = 0;
    for round in 0..8 {
        let delay = Duration::from_millis(rng.range(0..=120) as u64);
        let mut child = chunkhash(&dir)
            .args(["store", "put", "--pack-target", "256K", "--store", "st", "v2"])
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(delay);
        let _ = child.kill(); // SIGKILL
        let output = child.wait_with_output().unwrap();
        if output.status.success() {
            finished.push((round, last_line(&text(&output.stdout))));
        } else {
            assert_eq!(output.status.signal(), Some(9), "round {round}");
            killed += 1;
        }
        assert_sound_after_crash(&dir, &store, &earlier, &dir.join("v1"), &format!("kill-{round}"));
    }
    println!("{killed} of 8 puts killed, {} finished first", finished.len());
    // Puts that finished before the kill left complete snapshots. Two puts
    // of the same tree may name the same snapshot, so each gets its own
    // output directory by round.
    let opened = Store::open(&store, OpenOptions::default()).unwrap();
    for (round, snapshot) in finished {
        let address = opened.resolve(&snapshot).unwrap();
        let out = dir.join(format!("finished-{round}"));
        opened.get(&address, &out, None).unwrap();
        assert!(same_tree(&dir.join("v2"), &out.join("v2")));
    }
}

#[test]
fn bench_runs_small_and_writes_json() {
    let dir = test_dir("bench");
    let json = dir.join("run.json");
    let stdout = expect(
        &dir,
        &[
            "store",
            "bench",
            "--size",
            "3MiB",
            "--small-files",
            "40",
            "--runs",
            "1",
            "--fsync",
            "no",
            "--dir",
            ".",
            "--json",
            "run.json",
            "--threads",
            "1,2",
        ],
        0,
    );
    assert!(stdout.contains("BLAKE3 batch") && stdout.contains("vs SHA-512/160"), "{stdout}");
    let value: serde_json::Value = serde_json::from_str(&fs::read_to_string(json).unwrap()).unwrap();
    assert_eq!(value["tool"], "chunkhash store bench");
    let rows = value["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 12);
    let threads: Vec<_> = rows.iter().map(|row| row["threads"].as_u64().unwrap()).collect();
    assert_eq!(threads, [1, 2].repeat(6));
    for row in rows {
        assert!(row["mb_per_s"].as_f64().unwrap() > 0.0, "{row}");
        // Hashing time is summed over the threads, so it can pass 100%.
        let share = row["hash_share"].as_f64().unwrap();
        assert!((0.0..=row["threads"].as_f64().unwrap()).contains(&share), "{row}");
    }
    assert_eq!(rows[0]["vs_sha512_160"].as_f64(), Some(1.0));
    assert_eq!(rows[1]["vs_sha512_160"].as_f64(), Some(1.0), "against SHA-512/160 at the same thread count");
    assert_eq!(value["corpus"]["large_bytes"], 3 << 20);
    assert!(value["chunks"]["count"].as_u64().unwrap() > 0);
    // Nothing left behind in --dir but the JSON.
    let left: Vec<_> = fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(left, vec![std::ffi::OsString::from("run.json")]);
}

/// Issue 33 item 5: `put --roots` records each file's BLAKE3 root, `ls`
/// shows it as `chunkhash FILE` (b3sum) prints it, and `get --range` writes
/// verified bytes of one file; damage exits 1, a file without a root, a
/// range past the end and a malformed range exit 2.
#[test]
fn roots_in_ls_and_verified_ranges_with_get() {
    let dir = test_dir("roots");
    let mut rng = TestRng::new(test_seed("store_roots", 0x5eed_1033));
    fs::create_dir(dir.join("data")).unwrap();
    let big = rng.bytes(700_000);
    fs::write(dir.join("data/big"), &big).unwrap();
    fs::write(dir.join("data/small"), b"hello").unwrap();
    expect(&dir, &["store", "init", "--store", "st"], 0);
    let plain = last_line(&expect(&dir, &["store", "put", "--store", "st", "data"], 0));
    let snapshot = last_line(&expect(&dir, &["store", "put", "--store", "st", "--roots", "data"], 0));
    let listed = expect(&dir, &["store", "ls", "--store", "st", &snapshot], 0);
    let sums = expect(&dir, &["data/big", "data/small"], 0);
    for line in sums.lines() {
        assert!(listed.contains(&format!("{line}\n")), "{line:?} not in\n{listed}");
    }
    // A store's listing without roots keeps its columns.
    let listed_plain = expect(&dir, &["store", "ls", "--store", "st", &plain], 0);
    assert!(listed_plain.contains("      700000 data/big\n"), "{listed_plain}");

    let get = |snapshot: &str, range: &str| {
        run(&dir, &["store", "get", "--store", "st", snapshot, "data/big", "--range", range])
    };
    for (range, bytes) in [
        ("100000..200000", &big[100_000..200_000]),
        ("699990..", &big[699_990..]),
        ("5..5", &big[5..5]),
        ("0..800000", &big[..]),
    ] {
        let output = get(&snapshot, range);
        assert_eq!(output.status.code(), Some(0), "{range}: {}", text(&output.stderr));
        assert!(output.stdout == bytes, "{range}: {} bytes", output.stdout.len());
    }
    for (snapshot, range, says) in [
        (&plain, "0..1", "without a BLAKE3 root"),
        (&snapshot, "800000..800001", "starts past the end"),
        (&snapshot, "10-20", "not START..END"),
        (&snapshot, "20..10", "ends before it starts"),
    ] {
        let output = get(snapshot, range);
        assert_eq!(output.status.code(), Some(2), "{range}: {}", text(&output.stderr));
        assert!(text(&output.stderr).contains(says) && output.stdout.is_empty(), "{range}: {}", text(&output.stderr));
    }
    // Damage in the middle of every pack: the whole file's range fails.
    for pack in fs::read_dir(dir.join("st/packs")).unwrap() {
        let pack = pack.unwrap().path();
        let mut bytes = fs::read(&pack).unwrap();
        let middle = bytes.len() / 2;
        bytes[middle] ^= 0x40;
        fs::write(&pack, bytes).unwrap();
    }
    let output = get(&snapshot, "0..700000");
    assert_eq!(output.status.code(), Some(1), "{}", text(&output.stderr));
    assert!(text(&output.stderr).starts_with("chunkhash: store: "), "{}", text(&output.stderr));
}

/// The readers' commands, run beside a writer: each exits 0, and nothing
/// reads as damage.
fn readers_see_no_damage(dir: &Path, store: &str, earlier: &str, data: &Path, label: &str) {
    let verified = run(dir, &["store", "verify", "--store", store]);
    let (stdout, stderr) = (text(&verified.stdout), text(&verified.stderr));
    assert_eq!(verified.status.code(), Some(0), "{label}: verify\n{stdout}\n{stderr}");
    assert!(stdout.contains("every record is sound") && !stderr.contains("damaged"), "{label}: {stdout}\n{stderr}");
    let listed = expect(dir, &["store", "ls", "--store", store], 0);
    assert!(listed.contains(earlier), "{label}: {listed}");
    for snapshot in listed.lines().filter_map(|line| line.split_whitespace().next()) {
        expect(dir, &["store", "ls", "--store", store, snapshot], 0);
    }
    expect(dir, &["store", "stats", "--store", store], 0);
    let out = dir.join(format!("out-{label}"));
    let _ = fs::remove_dir_all(&out);
    expect(dir, &["store", "get", "--store", store, earlier, &out.to_string_lossy()], 0);
    assert!(same_tree(data, &out.join("v1")), "{label}: restored tree differs");
    fs::remove_dir_all(&out).unwrap();
}

/// Readers beside a running put (issue 30). The writer is stopped at
/// write steps spread over its put (the store's pause hook: SIGSTOP before
/// step N), where it holds the lock with packs sealed but not indexed and
/// a pack half written; there `verify`, `ls`, `stats` and `get` must exit
/// 0, see no damage, and leave every file of the store as it was (name,
/// size, mtime, inode: no write, no lock file touched, no recovery). Then
/// the same readers run in a loop beside a put that is not stopped.
#[test]
fn readers_beside_a_running_put_see_no_damage_and_write_nothing() {
    let dir = test_dir("readers_beside_put");
    let mut rng = TestRng::new(test_seed("store_readers_beside_put", 0x5eed_4001));
    write_files(&mut rng, &dir.join("v1"), 6, 50_000);
    write_files(&mut rng, &dir.join("big"), 30, 400_000);
    expect(
        &dir,
        &["store", "init", "--store", "baseline", "--chunk-min", "1K", "--chunk-avg", "4K", "--chunk-max", "16K"],
        0,
    );
    let earlier = last_line(&expect(&dir, &["store", "put", "--store", "baseline", "v1"], 0));
    let work = dir.join("work");
    let put = |pause: Option<u64>| {
        let mut command = chunkhash(&dir);
        command.args(["store", "put", "--pack-target", "128K", "--store", "work", "big"]);
        if let Some(step) = pause {
            command.env("CHUNKHASH_STORE_PAUSE_AT", step.to_string());
        }
        command.stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap()
    };
    let mut paused = 0;
    let mut step = 1;
    loop {
        copy_dir(&dir.join("baseline"), &work);
        let mut child = put(Some(step));
        while !is_stopped(child.id()) && child.try_wait().unwrap().is_none() {
            std::thread::sleep(Duration::from_millis(5));
        }
        if child.try_wait().unwrap().is_some() {
            // The put has fewer steps: every pause point was reached.
            assert!(child.wait_with_output().unwrap().status.success());
            break;
        }
        let before = listing(&work);
        readers_see_no_damage(&dir, "work", &earlier, &dir.join("v1"), &format!("step-{step}"));
        assert_eq!(listing(&work), before, "step {step}: a reader changed the store");
        Command::new("kill").args(["-CONT", &child.id().to_string()]).status().unwrap();
        let output = child.wait_with_output().unwrap();
        assert!(output.status.success(), "step {step}: {}", text(&output.stderr));
        paused += 1;
        step = 2 * step + 1;
    }
    assert!(paused >= 6, "only {paused} pause points");

    // Free running: readers in a loop until the put ends.
    copy_dir(&dir.join("baseline"), &work);
    let mut child = put(None);
    let mut rounds = 0;
    while child.try_wait().unwrap().is_none() || rounds == 0 {
        readers_see_no_damage(&dir, "work", &earlier, &dir.join("v1"), &format!("round-{rounds}"));
        rounds += 1;
    }
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success(), "{}", text(&output.stderr));
    let snapshot = last_line(&text(&output.stdout));
    expect(&dir, &["store", "get", "--store", "work", &snapshot, "out-big"], 0);
    assert!(same_tree(&dir.join("big"), &dir.join("out-big/big")));
    println!(
        "readers saw no damage and wrote nothing at {paused} pause points of a put, and in {rounds} rounds beside one"
    );
}
