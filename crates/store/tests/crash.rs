//! Crash simulation (issue 30): seeded workloads run on the simulated file
//! system (`location::sim`), which logs every step; then a power cut after
//! every step (with several seeded choices of what it loses), recovery, and
//! the checks: every snapshot whose `put` returned (every map root whose
//! commit returned) is there and reads back byte for byte; any snapshot that
//! is visible is one the workload made and is whole (`verify` is clean); the
//! next put (commit) works. A sample of the states also crashes again during
//! their recovery. Injected durability mistakes must be found.
//!
//! A failure prints the line that replays it: `CHUNKHASH_CRASH_SEED` (the
//! workload), `CHUNKHASH_CRASH_STEP` and `CHUNKHASH_CRASH_LOSS` (the crash).
//! The workload's steps are the same in every run; only the snapshot
//! times (seconds) differ, which changes no step and no length.

mod common;

use chunkhash_store::location::sim::SimFs;
use chunkhash_store::location::{Directory, InjectedFault, Location};
use chunkhash_store::prolly::{Edit, ProllyMap};
use chunkhash_store::{Address, ChunkerSettings, CreateOptions, Hashing, OpenOptions, PutOptions, Store};
use common::*;
use std::collections::{BTreeMap, HashSet};
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Instant;
use vectors::TestRng;

/// Where the simulated store lives (a path of the simulated file system).
const ROOT: &str = "/simulated/store";
/// Power cuts per step, each losing a different seeded part of what was
/// not synced (equal results are counted and checked once).
const LOSSES_PER_STEP: u64 = 12;
/// One distinct state in this many is also restored to disk and compared
/// file by file (the others are checked through `verify` and the snapshot
/// addresses, which commit to every byte).
const RESTORE_EVERY: usize = 16;
/// One distinct state in this many also crashes again at every step of its
/// recovery.
const RECOVERY_CRASH_EVERY: usize = 8;

type Entries = BTreeMap<Vec<u8>, Vec<u8>>;

fn sim_options() -> OpenOptions {
    // Small packs, so a put seals several.
    OpenOptions { pack_target: 16 << 10, ..OpenOptions::default() }
}

fn writer_options() -> OpenOptions {
    OpenOptions { write: true, ..sim_options() }
}

fn location(fs: &SimFs, fault: Option<InjectedFault>) -> Box<dyn Location> {
    let directory = Directory::with_fs(ROOT, Arc::new(fs.clone()));
    Box::new(match fault {
        Some(fault) => directory.inject_fault(fault),
        None => directory,
    })
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Shape {
    /// Puts of random trees sharing files (dedup across puts).
    Puts,
    /// Two puts of files up to 3 MiB (18 and 3 MB with seed 31), the
    /// default chunker: more than one read-ahead batch in a put, too many
    /// steps to crash at each, so a seeded sample.
    LargePuts,
    /// Puts, restores, `verify` and `reindex`.
    Mixed,
    /// Prolly map commits.
    Prolly,
}

/// What a workload promised once a call returned: from that step on, it
/// must survive any crash.
enum Promise {
    Snapshot { address: Address, tree: PathBuf },
    Root { root: Address, entries: Entries },
}

struct Returned {
    step: usize,
    promise: Promise,
}

/// One run of a workload to its end, with every step logged.
struct Workload {
    shape: Shape,
    seed: u64,
    fault: Option<InjectedFault>,
    fs: SimFs,
    /// Steps taken by creating the store (crashes come after it).
    start: usize,
    returned: Vec<Returned>,
    /// Every snapshot the workload made: the only ones that may be visible.
    snapshots: HashSet<Address>,
    /// What the check puts (or commits) after recovery.
    next_tree: PathBuf,
    next_edits: Vec<Edit>,
    dir: PathBuf,
}

impl Workload {
    fn run(shape: Shape, seed: u64, fault: Option<InjectedFault>) -> Workload {
        let dir = test_dir(&format!("crash-{shape:?}-{seed}-{fault:?}"));
        let fs = SimFs::new();
        for folder in ["packs", "index", "snapshots"] {
            fs.create_dir_all(&Path::new(ROOT).join(folder));
        }
        let chunker = if shape == Shape::LargePuts { ChunkerSettings::DEFAULT } else { SMALL_CHUNKS };
        let create = CreateOptions { chunker, ..CreateOptions::default() };
        let mut store = Store::create_location(location(&fs, fault), create, sim_options()).unwrap();
        let mut rng = TestRng::new(seed);
        let next_tree = dir.join("next");
        random_tree(&mut rng, &next_tree.join("tree"), 1, 3000, &mut Vec::new());
        let mut workload = Workload {
            shape,
            seed,
            fault,
            start: fs.steps(),
            fs,
            returned: Vec::new(),
            snapshots: HashSet::new(),
            next_tree,
            next_edits: random_edits(&mut rng, &mut Entries::new(), 20),
            dir,
        };
        let mut pool = Vec::new();
        match shape {
            Shape::LargePuts => {
                for i in 0..2 {
                    let tree = workload.dir.join(format!("put-{i}"));
                    input_tree(&mut rng, &tree, 3 << 20, &mut pool);
                    workload.put(&mut store, tree);
                }
            }
            Shape::Puts => {
                for i in 0..4 {
                    let tree = workload.dir.join(format!("put-{i}"));
                    input_tree(&mut rng, &tree, 30_000, &mut pool);
                    workload.put(&mut store, tree);
                }
            }
            Shape::Mixed => {
                for i in 0..3 {
                    let tree = workload.dir.join(format!("put-{i}"));
                    input_tree(&mut rng, &tree, 12_000, &mut pool);
                    let snapshot = workload.put(&mut store, tree.clone());
                    let restored = workload.dir.join(format!("restored-{i}"));
                    store.get(&snapshot, &restored, None).unwrap();
                    assert_same_tree(&tree, &restored);
                    assert!(store.verify(None).unwrap().damage.is_empty());
                    if i > 0 {
                        drop(store);
                        store = Store::reindex_location(location(&workload.fs, fault), sim_options()).unwrap().0;
                    }
                }
            }
            Shape::Prolly => {
                let mut map = ProllyMap::new(store, Hashing::Batch);
                let mut root = map.empty_root();
                let mut entries = Entries::new();
                for _ in 0..6 {
                    let count = rng.range(20..=150);
                    let edits = random_edits(&mut rng, &mut entries, count);
                    root = map.apply(&root, &edits).unwrap();
                    let step = workload.fs.steps();
                    workload
                        .returned
                        .push(Returned { step, promise: Promise::Root { root, entries: entries.clone() } });
                }
            }
        }
        workload
    }

    fn put(&mut self, store: &mut Store, tree: PathBuf) -> Address {
        let address = store.put(&[tree.join("tree")], PutOptions::default()).unwrap().snapshot;
        self.snapshots.insert(address);
        self.returned.push(Returned { step: self.fs.steps(), promise: Promise::Snapshot { address, tree } });
        address
    }
}

/// A tree to put, `DIR/tree`: three random trees side by side (files up to
/// `max_file` bytes, some repeating files of `pool`, earlier puts' files).
fn input_tree(rng: &mut TestRng, dir: &Path, max_file: usize, pool: &mut Vec<Vec<u8>>) {
    for part in 0..3 {
        random_tree(rng, &dir.join("tree").join(format!("part-{part}")), 2, max_file, pool);
    }
}

/// Keys from a small universe (so edits replace and delete), values mostly
/// small, now and then larger than a node.
fn random_edits(rng: &mut TestRng, entries: &mut Entries, count: usize) -> Vec<Edit> {
    let mut edits = Vec::with_capacity(count);
    for _ in 0..count {
        let key = format!("key-{:05}", rng.range(0..=1500)).into_bytes();
        if rng.range(0..=4) == 0 {
            entries.remove(&key);
            edits.push(Edit::delete(key));
        } else {
            let len = if rng.range(0..=30) == 0 { rng.range(5000..=20_000) } else { rng.range(0..=300) };
            let value = rng.bytes(len);
            entries.insert(key.clone(), value.clone());
            edits.push(Edit::put(key, value));
        }
    }
    edits
}

/// What a check found wrong.
#[derive(Debug, PartialEq, Eq)]
enum Finding {
    /// A snapshot (or root) whose call returned is gone.
    Lost(String),
    /// Damage: `verify` found some, a visible snapshot is not whole, or
    /// the store cannot open for damage.
    Damaged(String),
    /// Anything else: an error opening, the next put failing.
    Failed(String),
}

fn damage_or_failure(what: &str, error: chunkhash_store::Error) -> Finding {
    if error.is_damage() {
        Finding::Damaged(format!("{what}: {error}"))
    } else {
        Finding::Failed(format!("{what}: {error}"))
    }
}

static RESTORES: AtomicU64 = AtomicU64::new(0);

/// Restores `snapshot` to disk and compares it with `tree`.
fn restore_and_compare(store: &Store, snapshot: &Address, tree: &Path, scratch: &Path) -> Result<(), Finding> {
    let dest = scratch.join(format!("restore-{}", RESTORES.fetch_add(1, Ordering::Relaxed)));
    store.get(snapshot, &dest, None).map_err(|e| damage_or_failure(&format!("restoring {snapshot}"), e))?;
    let same = std::panic::catch_unwind(|| assert_same_tree(tree, &dest));
    let _ = std::fs::remove_dir_all(&dest);
    same.map_err(|_| Finding::Damaged(format!("snapshot {snapshot} restores with different bytes")))
}

fn verify_clean(store: &Store, when: &str) -> Result<(), Finding> {
    let report = store.verify(None).map_err(|e| damage_or_failure(when, e))?;
    match report.damage.first() {
        None => Ok(()),
        Some(damage) => Err(Finding::Damaged(format!(
            "{when}: verify found {} problems, the first: {}: {}",
            report.damage.len(),
            damage.what,
            damage.reason
        ))),
    }
}

/// What recovery repaired, by kind of its notes (to show the states reach
/// every path of recovery).
const REPAIRS: [(&str, &str); 4] = [
    ("cut off", "torn records cut"),
    ("sealed", "open packs sealed"),
    ("did not index", "orphan packs indexed"),
    ("removed a pack", "started packs removed"),
];

/// Reopens the store on a crashed file system (recovery runs) and checks it
/// against what the workload had promised by step `n`.
fn check(workload: &Workload, fs: &SimFs, n: usize, restore: bool, repairs: &mut [usize]) -> Result<(), Finding> {
    let promised: Vec<&Returned> = workload.returned.iter().filter(|r| r.step <= n).collect();
    let mut store = Store::open_location(location(fs, workload.fault), writer_options())
        .map_err(|e| damage_or_failure("opening after the crash", e))?;
    for (count, (marker, _)) in repairs.iter_mut().zip(REPAIRS) {
        *count += store.notes().iter().filter(|note| note.contains(marker)).count();
    }
    verify_clean(&store, "after the crash")?;
    let scratch = workload.dir.join("scratch");
    if workload.shape == Shape::Prolly {
        let mut map = ProllyMap::new(store, Hashing::Batch);
        let mut last = map.empty_root();
        for returned in &promised {
            let Promise::Root { root, entries } = &returned.promise else { unreachable!() };
            let read: Result<Entries, _> = map.range(root, ..).and_then(|range| range.collect());
            match read {
                Ok(read) if read == *entries => {}
                Ok(_) => return Err(Finding::Damaged(format!("root {root} reads back other entries"))),
                Err(error) => {
                    return Err(Finding::Lost(format!("root {root} (returned at step {}): {error}", returned.step)))
                }
            }
            last = *root;
        }
        let root = map.apply(&last, &workload.next_edits).map_err(|e| damage_or_failure("the next commit", e))?;
        let count = map.range(&root, ..).map_err(|e| damage_or_failure("reading the next commit", e))?.count();
        if count == 0 {
            return Err(Finding::Failed("the next commit reads back empty".into()));
        }
        return verify_clean(map.store(), "after the next commit");
    }
    let visible: HashSet<Address> =
        store.snapshots().map_err(|e| damage_or_failure("listing", e))?.into_iter().collect();
    for returned in &promised {
        let Promise::Snapshot { address, .. } = &returned.promise else { unreachable!() };
        if !visible.contains(address) {
            return Err(Finding::Lost(format!("snapshot {address} (its put returned at step {})", returned.step)));
        }
    }
    if let Some(stranger) = visible.iter().find(|address| !workload.snapshots.contains(address)) {
        return Err(Finding::Damaged(format!("snapshot {stranger} is visible but no put made it")));
    }
    if restore {
        for returned in &workload.returned {
            let Promise::Snapshot { address, tree } = &returned.promise else { unreachable!() };
            if visible.contains(address) {
                restore_and_compare(&store, address, tree, &scratch)?;
            }
        }
    }
    let next = store
        .put(&[workload.next_tree.join("tree")], PutOptions::default())
        .map_err(|e| damage_or_failure("the next put", e))?
        .snapshot;
    if !store.snapshots().map_err(|e| damage_or_failure("listing", e))?.contains(&next) {
        return Err(Finding::Failed(format!("the next put's snapshot {next} is not listed")));
    }
    verify_clean(&store, "after the next put")?;
    if restore {
        restore_and_compare(&store, &next, &workload.next_tree, &scratch)?;
    }
    Ok(())
}

/// A failed check, with the line that replays it.
#[derive(Debug)]
struct Failure {
    finding: Finding,
    replay: String,
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}\n  replay: {}", self.finding, self.replay)
    }
}

fn env(name: &str) -> Option<u64> {
    std::env::var(name).ok().and_then(|value| value.parse().ok())
}

/// A crash's loss seed, from the workload, the step and the choice.
fn loss_seed(seed: u64, step: usize, choice: u64) -> u64 {
    let mut rng = TestRng::new(seed ^ (step as u64).rotate_left(24) ^ choice.rotate_left(48));
    rng.next_u64()
}

#[derive(Debug, Default)]
struct Counts {
    steps: usize,
    /// Distinct crash states checked (state and promises both equal count once).
    distinct: usize,
    restored: usize,
    /// Distinct states of a crash during recovery, checked.
    during_recovery: usize,
    /// Recoveries' repairs, by the kinds of `REPAIRS`.
    repairs: [usize; REPAIRS.len()],
}

impl Counts {
    fn add(&mut self, other: &Counts) {
        self.steps += other.steps;
        self.distinct += other.distinct;
        self.restored += other.restored;
        self.during_recovery += other.during_recovery;
        for (total, count) in self.repairs.iter_mut().zip(other.repairs) {
            *total += count;
        }
    }

    fn repairs(&self) -> String {
        let kinds: Vec<String> = REPAIRS.iter().zip(self.repairs).map(|((_, kind), n)| format!("{n} {kind}")).collect();
        kinds.join(", ")
    }
}

/// The crashes to try, as (step, choice of losses): after every step,
/// `LOSSES_PER_STEP` ways each, or `sample` of them drawn by the seed.
fn crashes(workload: &Workload, sample: Option<usize>) -> Vec<(usize, u64)> {
    let steps = workload.start..=workload.fs.steps();
    match sample {
        None => steps.flat_map(|n| (0..LOSSES_PER_STEP).map(move |choice| (n, choice))).collect(),
        Some(count) => {
            let mut rng = TestRng::new(workload.seed);
            let mut drawn: Vec<(usize, u64)> =
                (0..count).map(|_| (rng.range(steps.clone()), rng.next_u64() % LOSSES_PER_STEP)).collect();
            drawn.sort_unstable();
            drawn
        }
    }
}

/// Crashes `workload` as [`crashes`] says and checks every distinct state;
/// stops at the first failure.
fn explore(workload: &Workload, sample: Option<usize>) -> Result<Counts, Failure> {
    let test = match workload.shape {
        Shape::Puts => "power_cuts_during_puts_lose",
        Shape::LargePuts => "power_cuts_during_large_puts",
        Shape::Mixed => "power_cuts_during_puts_restores",
        Shape::Prolly => "power_cuts_during_prolly",
    };
    let mut counts = Counts { steps: workload.fs.steps() - workload.start, ..Counts::default() };
    let mut seen = HashSet::new();
    let mut seen_recovering = HashSet::new();
    let (only_step, only_loss) = (env("CHUNKHASH_CRASH_STEP"), env("CHUNKHASH_CRASH_LOSS"));
    let mut crashes = crashes(workload, sample);
    if let Some(step) = only_step {
        crashes = (0..LOSSES_PER_STEP).map(|choice| (step as usize, choice)).collect();
    }
    for (n, choice) in crashes {
        let promised = workload.returned.iter().filter(|r| r.step <= n).count();
        let loss = only_loss.unwrap_or_else(|| loss_seed(workload.seed, n, choice));
        let replay = format!(
            "CHUNKHASH_CRASH_SEED={} CHUNKHASH_CRASH_STEP={n} CHUNKHASH_CRASH_LOSS={loss} \
             cargo test -p chunkhash-store --test crash {test} \
             (workload {:?}, crash before step {n}: {})",
            workload.seed,
            workload.shape,
            workload.fs.describe_step(n)
        );
        let crashed = workload.fs.crash(n, loss);
        if !seen.insert((crashed.fingerprint(), promised)) {
            continue;
        }
        counts.distinct += 1;
        let restore = counts.distinct.is_multiple_of(RESTORE_EVERY);
        counts.restored += usize::from(restore);
        check(workload, &crashed, n, restore, &mut counts.repairs)
            .map_err(|finding| Failure { finding, replay: replay.clone() })?;
        if counts.distinct.is_multiple_of(RECOVERY_CRASH_EVERY) || only_step.is_some() {
            counts.during_recovery +=
                crash_during_recovery(workload, n, loss, &mut seen_recovering, &mut counts.repairs).map_err(
                    |(finding, again)| Failure {
                        finding,
                        replay: format!("{replay}, then a crash during recovery, {again}"),
                    },
                )?;
        }
        if only_loss.is_some() {
            break;
        }
    }
    Ok(counts)
}

/// The crash state after step `n` (loss `loss`), recovered with a crash
/// before each step of its recovery, each state checked.
fn crash_during_recovery(
    workload: &Workload,
    n: usize,
    loss: u64,
    seen: &mut HashSet<(u64, usize)>,
    repairs: &mut [usize],
) -> Result<usize, (Finding, String)> {
    let recovering = workload.fs.crash(n, loss);
    let store = Store::open_location(location(&recovering, workload.fault), writer_options())
        .map_err(|e| (damage_or_failure("opening after the crash", e), String::new()))?;
    drop(store);
    let promised = workload.returned.iter().filter(|r| r.step <= n).count();
    let mut checked = 0;
    for m in 0..recovering.steps() {
        for choice in 0..2 {
            let again_loss = loss_seed(loss, m, choice);
            let again = recovering.crash(m, again_loss);
            if !seen.insert((again.fingerprint(), promised)) {
                continue;
            }
            checked += 1;
            check(workload, &again, n, false, repairs).map_err(|finding| {
                (finding, format!("before its step {m} ({}), loss {again_loss}", recovering.describe_step(m)))
            })?;
        }
    }
    Ok(checked)
}

/// Runs the workloads of a shape and explores each; panics with the replay
/// line at the first failure. Returns the distinct states checked.
fn explore_shape(shape: Shape, seeds: &[u64], sample: Option<usize>) -> usize {
    let start = Instant::now();
    let seeds: Vec<u64> = match env("CHUNKHASH_CRASH_SEED") {
        Some(seed) => vec![seed],
        None => seeds.to_vec(),
    };
    let mut total = Counts::default();
    for &seed in &seeds {
        let workload = Workload::run(shape, seed, None);
        let counts = explore(&workload, sample).unwrap_or_else(|failure| panic!("{failure}"));
        println!(
            "{shape:?} seed {seed}: {} steps, {} distinct crash states ({} restored), {} during recovery",
            counts.steps, counts.distinct, counts.restored, counts.during_recovery
        );
        total.add(&counts);
    }
    println!(
        "{shape:?}: {} workloads, {} steps, {} distinct crash states ({} restored) + {} during recovery, {:.1} s; \
         recoveries: {}",
        seeds.len(),
        total.steps,
        total.distinct,
        total.restored,
        total.during_recovery,
        start.elapsed().as_secs_f64(),
        total.repairs()
    );
    total.distinct + total.during_recovery
}

#[test]
fn power_cuts_during_puts_lose_no_snapshot() {
    let states = explore_shape(Shape::Puts, &[1, 2, 3, 4, 5, 6], None);
    assert!(env("CHUNKHASH_CRASH_SEED").is_some() || states >= 3000, "{states} distinct crash states");
}

#[test]
fn power_cuts_during_puts_restores_verify_and_reindex_lose_no_snapshot() {
    let states = explore_shape(Shape::Mixed, &[11, 12, 13, 14, 15, 16, 17, 18], None);
    assert!(env("CHUNKHASH_CRASH_SEED").is_some() || states >= 3000, "{states} distinct crash states");
}

#[test]
fn power_cuts_during_large_puts_lose_no_snapshot() {
    let states = explore_shape(Shape::LargePuts, &[31], Some(200));
    assert!(env("CHUNKHASH_CRASH_SEED").is_some() || states >= 150, "{states} distinct crash states");
}

#[test]
fn power_cuts_during_prolly_commits_lose_no_root() {
    let states = explore_shape(Shape::Prolly, &[21, 22, 23, 24, 25, 26, 27, 28], None);
    assert!(env("CHUNKHASH_CRASH_SEED").is_some() || states >= 3000, "{states} distinct crash states");
}

/// The simulation can fail: with a durability mistake put into the store,
/// it reports a lost or damaged snapshot.
fn finds(fault: InjectedFault) -> Failure {
    let workload = Workload::run(Shape::Puts, 1, Some(fault));
    let failure = explore(&workload, None).expect_err("the simulation missed an injected durability mistake");
    println!("{fault:?}: found {failure}");
    assert!(matches!(failure.finding, Finding::Lost(_) | Finding::Damaged(_)), "{failure}");
    failure
}

#[test]
fn the_simulation_finds_a_missing_directory_fsync() {
    finds(InjectedFault::NoDirSyncAfterPublish);
}

#[test]
fn the_simulation_finds_a_directory_fsync_before_the_file_fsync() {
    finds(InjectedFault::DirSyncBeforeFileSync);
}
