//! The run of `chunkhash store bench-kv`: the prolly map's workloads with
//! each way of addressing its nodes ([`METHODS`]), against SQLite where this
//! build has it.
//!
//! - **insert**: the rows of sysbench's `sbtest` table ([`data::Row`]),
//!   inserted by id in commits of `commit_rows` rows, into a fresh store
//!   per run; and **insert-one-commit**, all rows in one commit. The same
//!   rows go into SQLite (file-backed, one transaction per commit) where
//!   the `sqlite` feature is on.
//! - **kv-update**: a map of `kv_entries` random 32-byte keys and values is
//!   built once per method; each run then updates `kv_updates` random keys
//!   in one commit, on the version the previous run left.
//! - **prove** and **verify**: proofs of `proofs` keys of that map, half
//!   present and half absent, made and then checked.
//!
//! Rounds alternate: each round runs every method once (and SQLite), one
//! further along each time, after a warm-up run, so load from a neighbour
//! hits all alike; speed against SHA-512/160 is the median over rounds of
//! the paired ratio of times. One thread does all the work.

pub mod data;
pub mod json;
pub mod sqlite;

use crate::harness::{consume, core_ghz, median, median_paired_ratio, spread, thread_cpu_seconds};
use crate::store::Method;
use chunkhash::{blake3, Algorithm};
use chunkhash_store::prolly::{Edit, ProllyMap, Proof, Shape};
use chunkhash_store::{Address, ChunkSizes, CreateOptions, Hashing, OpenOptions, Store};
use data::{kv_keys, kv_puts, kv_sample, sysbench_rows, KV_LEN};
use std::fmt;
use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// The ways of addressing nodes, in the order the table prints them; the
/// BLAKE3 methods use BLAKE3-160 addresses, the store's default.
pub const METHODS: [Method; 4] = [
    Method {
        key: "sha512-160",
        name: "SHA-512/160",
        algorithm: Algorithm::Sha512_160,
        hashing: Hashing::PerChunk,
        roots: false,
    },
    Method {
        key: "blake3-portable",
        name: "BLAKE3 portable",
        algorithm: Algorithm::Blake3_160,
        hashing: Hashing::Portable,
        roots: false,
    },
    Method {
        key: "blake3-per-node",
        name: "BLAKE3 per node",
        algorithm: Algorithm::Blake3_160,
        hashing: Hashing::PerChunk,
        roots: false,
    },
    Method {
        key: "blake3-batch",
        name: "BLAKE3 batch",
        algorithm: Algorithm::Blake3_160,
        hashing: Hashing::Batch,
        roots: false,
    },
];

/// The method of a `--methods` key (any case).
pub fn method(key: &str) -> Option<Method> {
    METHODS.iter().copied().find(|method| method.key.eq_ignore_ascii_case(key.trim()))
}

/// A workload, as rows name it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Workload {
    /// Rows inserted in commits of `commit_rows`.
    Insert,
    /// Rows inserted in one commit.
    InsertOneCommit,
    /// Random keys of a large map updated in one commit.
    KvUpdate,
    /// Proofs made.
    Prove,
    /// Proofs checked.
    Verify,
}

impl Workload {
    /// The name `--json` writes.
    pub fn key(self) -> &'static str {
        match self {
            Workload::Insert => "insert",
            Workload::InsertOneCommit => "insert-one-commit",
            Workload::KvUpdate => "kv-update",
            Workload::Prove => "prove",
            Workload::Verify => "verify",
        }
    }
}

/// The groups of workloads `--workloads` selects.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Group {
    /// insert and insert-one-commit (and SQLite).
    Oltp,
    /// kv-update.
    Kv,
    /// prove and verify.
    Proofs,
}

impl Group {
    /// Every group, in order.
    pub const ALL: [Group; 3] = [Group::Oltp, Group::Kv, Group::Proofs];

    /// The group of a `--workloads` name: oltp, kv or proofs.
    pub fn from_key(key: &str) -> Option<Group> {
        match key.trim().to_ascii_lowercase().as_str() {
            "oltp" => Some(Group::Oltp),
            "kv" => Some(Group::Kv),
            "proofs" => Some(Group::Proofs),
            _ => None,
        }
    }
}

/// What to measure.
#[derive(Clone, Debug, PartialEq)]
pub struct Plan {
    /// Rows of the insert workloads (200,000).
    pub rows: u64,
    /// Rows per commit of `insert` (1,000).
    pub commit_rows: u64,
    /// Entries of the update and proof workloads' map (1,000,000).
    pub kv_entries: u64,
    /// Keys updated per commit (10,000).
    pub kv_updates: u64,
    /// Keys proved and verified per run (10,000).
    pub proofs: u64,
    /// Timed runs of each method per workload (at least 1).
    pub runs: usize,
    /// The methods, in order (at least one).
    pub methods: Vec<Method>,
    /// The workload groups, in order (at least one).
    pub groups: Vec<Group>,
    /// Whether commits are made durable with fsync.
    pub fsync: bool,
    /// Whether SQLite runs beside the insert workloads (needs the `sqlite`
    /// feature).
    pub sqlite: bool,
    /// Seed of the rows and keys.
    pub seed: u64,
    /// Where the stores are written, in a directory of this process that
    /// is removed at the end.
    pub dir: PathBuf,
}

/// Who ran a row: a method of the map, or SQLite.
#[derive(Clone, Debug, PartialEq)]
pub enum Engine {
    /// The prolly map, addressing nodes so.
    Map(Method),
    /// SQLite, with its version.
    Sqlite(String),
}

impl Engine {
    /// The name the table prints.
    pub fn name(&self) -> &str {
        match self {
            Engine::Map(method) => method.name,
            Engine::Sqlite(version) => version,
        }
    }
}

/// One engine on one workload, over all rounds.
#[derive(Clone, Debug)]
pub struct Row {
    /// The workload.
    pub workload: Workload,
    /// Who ran it.
    pub engine: Engine,
    /// Operations per run: rows inserted, keys updated, proofs made or checked.
    pub ops: u64,
    /// Commits per run (0 for proofs).
    pub commits: u64,
    /// Seconds of each run.
    pub seconds: Vec<f64>,
    /// Seconds of each run spent computing the addresses of the commits'
    /// nodes (zeros for SQLite and proofs).
    pub hash_seconds: Vec<f64>,
    /// On-CPU seconds of each run (empty where the system does not say).
    pub cpu_seconds: Vec<f64>,
}

impl Row {
    fn new(workload: Workload, engine: Engine, ops: u64, commits: u64) -> Row {
        Row { workload, engine, ops, commits, seconds: Vec::new(), hash_seconds: Vec::new(), cpu_seconds: Vec::new() }
    }

    /// The median seconds of a run.
    pub fn median_seconds(&self) -> f64 {
        median(&self.seconds)
    }

    /// Operations per second, at the median time.
    pub fn ops_per_s(&self) -> f64 {
        self.ops as f64 / self.median_seconds()
    }

    /// Whether the row measured the hashing of commits (not SQLite, not proofs).
    fn hashes_commits(&self) -> bool {
        self.method().is_some() && self.commits > 0 && !self.hash_seconds.is_empty()
    }

    /// The median over runs of the share of time spent hashing the
    /// commits' nodes (`None` for SQLite and proofs).
    pub fn hash_share(&self) -> Option<f64> {
        let shares: Vec<f64> = self.hash_seconds.iter().zip(&self.seconds).map(|(h, s)| h / s).collect();
        self.hashes_commits().then(|| median(&shares))
    }

    /// The median hashing seconds per commit (`None` for SQLite and proofs).
    pub fn hash_seconds_per_commit(&self) -> Option<f64> {
        self.hashes_commits().then(|| median(&self.hash_seconds) / self.commits as f64)
    }

    /// The interquartile range of the runs' times over their median.
    pub fn noise(&self) -> f64 {
        spread(&self.seconds)
    }

    /// The median on-CPU seconds, when known for every run.
    pub fn cpu_median(&self) -> Option<f64> {
        (!self.cpu_seconds.is_empty() && self.cpu_seconds.len() == self.seconds.len())
            .then(|| median(&self.cpu_seconds))
    }

    fn method(&self) -> Option<&Method> {
        match &self.engine {
            Engine::Map(method) => Some(method),
            Engine::Sqlite(_) => None,
        }
    }
}

/// A whole run: what the table prints and `--json` writes.
#[derive(Clone, Debug)]
pub struct Run {
    /// chunkhash version.
    pub version: String,
    /// BLAKE3 backend detected.
    pub backend: String,
    /// Core clock measured at start.
    pub core_ghz: f64,
    /// The plan.
    pub plan: Plan,
    /// The load average (1, 5, 15 minutes) at the start and at the end.
    pub load: [Option<String>; 2],
    /// The map the insert workloads build (the same for every method).
    pub insert_shape: Option<Shape>,
    /// The map of the update and proof workloads, as first built.
    pub kv_shape: Option<Shape>,
    /// Seconds to build that map in one commit, per method (one run each).
    pub kv_build_seconds: Vec<(Method, f64)>,
    /// Sizes of the proofs made.
    pub proof_sizes: ChunkSizes,
    /// The hashing of the insert workloads' nodes replayed alone, on-CPU
    /// seconds per commit: (workload, one node per call, batch per level).
    pub hash_replay: Vec<(Workload, f64, f64)>,
    /// The rows.
    pub rows: Vec<Row>,
}

/// Why a run could not be measured.
#[derive(Debug)]
#[non_exhaustive]
pub enum Error {
    /// The plan asks for nothing.
    BadPlan(&'static str),
    /// The store failed (an [`chunkhash_store::Error::Io`] names the file).
    Store(chunkhash_store::Error),
    /// SQLite failed, or is not in this build.
    Sqlite(String),
    /// Methods that must agree did not: a defect, never a measurement.
    Disagree(String),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::BadPlan(reason) => f.write_str(reason),
            Error::Store(error) => error.fmt(f),
            Error::Sqlite(reason) | Error::Disagree(reason) => f.write_str(reason),
        }
    }
}

impl std::error::Error for Error {}

impl From<chunkhash_store::Error> for Error {
    fn from(error: chunkhash_store::Error) -> Error {
        Error::Store(error)
    }
}

fn io_error(action: &'static str, path: &Path, source: io::Error) -> Error {
    Error::Store(chunkhash_store::Error::Io { action, path: path.to_path_buf(), source })
}

fn load_average() -> Option<String> {
    let text = fs::read_to_string("/proc/loadavg").ok()?;
    Some(text.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
}

/// Measures `plan`, removing what it wrote (also on failure). `progress`
/// is told what happens, a line at a time.
pub fn measure(plan: &Plan, progress: &mut dyn FnMut(fmt::Arguments<'_>)) -> Result<Run, Error> {
    if plan.runs == 0 || plan.methods.is_empty() || plan.groups.is_empty() {
        return Err(Error::BadPlan("nothing to measure: no runs, no methods or no workloads"));
    }
    if plan.rows == 0 || plan.commit_rows == 0 || plan.kv_entries == 0 || plan.kv_updates == 0 || plan.proofs == 0 {
        return Err(Error::BadPlan("rows, rows per commit, entries, updates and proofs must be at least 1"));
    }
    if plan.sqlite && sqlite::version().is_none() {
        return Err(Error::Sqlite("this build has no SQLite: build with the `sqlite` feature".into()));
    }
    let base = plan.dir.join(format!("chunkhash-prolly-bench-{}", std::process::id()));
    fs::create_dir_all(&base).map_err(|source| io_error("creating", &base, source))?;
    let result = measure_in(plan, &base, progress);
    let _ = fs::remove_dir_all(&base);
    result
}

/// A map in a fresh store at `dir`.
fn fresh_map(dir: &Path, method: &Method, fsync: bool) -> Result<ProllyMap, Error> {
    if dir.exists() {
        fs::remove_dir_all(dir).map_err(|source| io_error("removing", dir, source))?;
    }
    let create = CreateOptions { address: method.algorithm, ..CreateOptions::default() };
    let store = Store::create(dir, create, OpenOptions { fsync, ..OpenOptions::default() })?;
    Ok(ProllyMap::new(store, method.hashing))
}

/// One timed run.
struct Sample {
    seconds: f64,
    hash_seconds: f64,
    cpu_seconds: Option<f64>,
}

fn record(row: &mut Row, sample: &Sample) {
    row.seconds.push(sample.seconds);
    row.hash_seconds.push(sample.hash_seconds);
    row.cpu_seconds.extend(sample.cpu_seconds);
}

/// Times `work` on this thread: wall and on-CPU seconds.
fn timed<T>(work: impl FnOnce() -> Result<T, Error>) -> Result<(T, f64, Option<f64>), Error> {
    let cpu_before = thread_cpu_seconds();
    let start = Instant::now();
    let value = work()?;
    let seconds = start.elapsed().as_secs_f64();
    let cpu = thread_cpu_seconds().zip(cpu_before).map(|(after, before)| after - before);
    Ok((value, seconds, cpu))
}

fn measure_in(plan: &Plan, base: &Path, progress: &mut dyn FnMut(fmt::Arguments<'_>)) -> Result<Run, Error> {
    let mut run = Run {
        version: env!("CARGO_PKG_VERSION").to_string(),
        backend: blake3::Backend::detect().name().to_string(),
        core_ghz: core_ghz(),
        plan: plan.clone(),
        load: [load_average(), None],
        insert_shape: None,
        kv_shape: None,
        kv_build_seconds: Vec::new(),
        proof_sizes: ChunkSizes::default(),
        hash_replay: Vec::new(),
        rows: Vec::new(),
    };
    if plan.groups.contains(&Group::Oltp) {
        measure_inserts(plan, base, &mut run, progress)?;
    }
    if plan.groups.contains(&Group::Kv) || plan.groups.contains(&Group::Proofs) {
        measure_kv(plan, base, &mut run, progress)?;
    }
    run.load[1] = load_average();
    Ok(run)
}

fn measure_inserts(
    plan: &Plan,
    base: &Path,
    run: &mut Run,
    progress: &mut dyn FnMut(fmt::Arguments<'_>),
) -> Result<(), Error> {
    progress(format_args!("generating {} sysbench rows", plan.rows));
    let rows = sysbench_rows(plan.rows, plan.seed);
    let store_dir = base.join("insert-store");
    let sqlite_path = base.join("sbtest.db");
    let mut engines: Vec<Engine> = plan.methods.iter().map(|&method| Engine::Map(method)).collect();
    if let (true, Some(version)) = (plan.sqlite, sqlite::version()) {
        engines.push(Engine::Sqlite(version));
    }
    for (workload, commit_rows) in [(Workload::Insert, plan.commit_rows), (Workload::InsertOneCommit, plan.rows)] {
        let commits = plan.rows.div_ceil(commit_rows);
        let first = run.rows.len();
        run.rows.extend(engines.iter().map(|engine| Row::new(workload, engine.clone(), plan.rows, commits)));
        let mut roots: Vec<(Method, Address)> = Vec::new();
        let mut recorded = Vec::new();
        let mut insert = |engine: &Engine, shape: &mut Option<Shape>, record: bool| -> Result<Sample, Error> {
            match engine {
                Engine::Sqlite(_) => {
                    let (seconds, _, cpu) = timed(|| {
                        sqlite::insert(&sqlite_path, &rows, commit_rows as usize, plan.fsync).map_err(Error::Sqlite)
                    })?;
                    Ok(Sample { seconds, hash_seconds: 0.0, cpu_seconds: cpu })
                }
                Engine::Map(method) => {
                    let mut map = fresh_map(&store_dir, method, plan.fsync)?;
                    map.record_levels(record);
                    let batches: Vec<Vec<Edit>> = rows
                        .chunks(commit_rows as usize)
                        .map(|chunk| chunk.iter().map(data::Row::edit).collect())
                        .collect();
                    let (root, seconds, cpu) = timed(|| {
                        let mut root = map.empty_root();
                        for batch in &batches {
                            root = map.apply(&root, batch)?;
                        }
                        Ok(root)
                    })?;
                    drop(batches);
                    check_agreement(&mut roots, method, root)?;
                    if record {
                        recorded = map.take_recorded_levels();
                    }
                    if shape.is_none() {
                        *shape = Some(map.shape(&root)?);
                    }
                    Ok(Sample { seconds, hash_seconds: map.stats().hash_time.as_secs_f64(), cpu_seconds: cpu })
                }
            }
        };
        // Warm-up (page cache, allocator, code paths), keeping the nodes
        // each level of each commit made, for the replay below.
        let warm_up = Engine::Map(plan.methods[plan.methods.len() - 1]);
        insert(&warm_up, &mut run.insert_shape, true)?;
        for round in 0..plan.runs {
            for k in 0..engines.len() {
                let index = (round + k) % engines.len();
                let sample = insert(&engines[index], &mut run.insert_shape, false)?;
                progress(format_args!(
                    "{} round {}/{}: {:<16} {:>7.3} s, hashing {:>4.1}%",
                    workload.key(),
                    round + 1,
                    plan.runs,
                    engines[index].name(),
                    sample.seconds,
                    100.0 * sample.hash_seconds / sample.seconds
                ));
                record(&mut run.rows[first + index], &sample);
            }
        }
        if let Some((per_node, batch)) = replay_hashing(&recorded, commits, REPLAY_ROUNDS) {
            progress(format_args!(
                "{} hashing replayed: {:.3} ms per commit one node per call, {:.3} ms batched",
                workload.key(),
                1e3 * per_node,
                1e3 * batch
            ));
            run.hash_replay.push((workload, per_node, batch));
        }
    }
    Ok(())
}

/// Rounds of the hashing replay.
const REPLAY_ROUNDS: usize = 11;

/// The on-CPU seconds per commit of hashing `levels` (the nodes each level
/// of each commit made) with BLAKE3 one node per call and with one batch
/// call per level, interleaved over `rounds`; medians. `None` where the
/// system does not report a thread's CPU time.
fn replay_hashing(levels: &[Vec<Vec<u8>>], commits: u64, rounds: usize) -> Option<(f64, f64)> {
    let slices: Vec<Vec<&[u8]>> = levels.iter().map(|level| level.iter().map(Vec::as_slice).collect()).collect();
    let batch = blake3::Batch::new();
    let mut out = Vec::new();
    let (mut per_node, mut batched) = (Vec::new(), Vec::new());
    for _ in 0..rounds {
        let start = thread_cpu_seconds()?;
        for level in &slices {
            for node in level {
                consume(blake3::hash(node));
            }
        }
        per_node.push(thread_cpu_seconds()? - start);
        let start = thread_cpu_seconds()?;
        for level in &slices {
            out.clear();
            out.resize(level.len(), blake3::Hash::from_bytes([0; blake3::OUT_LEN]));
            batch.hash_many(level, &mut out);
            consume(&out);
        }
        batched.push(thread_cpu_seconds()? - start);
    }
    let commits = commits.max(1) as f64;
    Some((median(&per_node) / commits, median(&batched) / commits))
}

/// Methods of one algorithm must build the same root.
fn check_agreement(roots: &mut Vec<(Method, Address)>, method: &Method, root: Address) -> Result<(), Error> {
    if let Some((other, seen)) = roots.iter().find(|(other, _)| other.algorithm == method.algorithm) {
        if *seen != root {
            return Err(Error::Disagree(format!(
                "{} built root {root}, {} built {seen} from the same rows",
                method.name, other.name
            )));
        }
    } else {
        roots.push((*method, root));
    }
    Ok(())
}

fn measure_kv(
    plan: &Plan,
    base: &Path,
    run: &mut Run,
    progress: &mut dyn FnMut(fmt::Arguments<'_>),
) -> Result<(), Error> {
    progress(format_args!("building a map of {} entries per method", plan.kv_entries));
    let keys = kv_keys(plan.kv_entries, plan.seed ^ 0x6b76);
    let mut maps = Vec::new();
    let mut roots = Vec::new();
    let mut agreed = Vec::new();
    for (i, method) in plan.methods.iter().enumerate() {
        let mut map = fresh_map(&base.join(format!("kv-store-{i}")), method, plan.fsync)?;
        let puts = kv_puts(&keys, plan.seed ^ 0x7075);
        let (root, seconds, _) = timed(|| Ok(map.apply(&map.empty_root(), &puts)?))?;
        check_agreement(&mut agreed, method, root)?;
        progress(format_args!("{}: built in {seconds:.3} s", method.name));
        run.kv_build_seconds.push((*method, seconds));
        if run.kv_shape.is_none() {
            run.kv_shape = Some(map.shape(&root)?);
        }
        maps.push(map);
        roots.push(root);
    }
    let methods = &plan.methods;
    if plan.groups.contains(&Group::Kv) {
        let first = run.rows.len();
        run.rows.extend(methods.iter().map(|&m| Row::new(Workload::KvUpdate, Engine::Map(m), plan.kv_updates, 1)));
        // The builds above warmed up the code paths and the page cache.
        for round in 0..plan.runs {
            let updated = kv_sample(&keys, plan.kv_updates, plan.seed ^ (0x7570 + round as u64));
            let mut agreed = Vec::new();
            for k in 0..methods.len() {
                let index = (round + k) % methods.len();
                let edits = kv_puts(&updated, plan.seed ^ (0x7600 + round as u64));
                let map = &mut maps[index];
                let before = map.stats().hash_time;
                let (root, seconds, cpu) = timed(|| Ok(map.apply(&roots[index], &edits)?))?;
                check_agreement(&mut agreed, &methods[index], root)?;
                roots[index] = root;
                let hash_seconds = (map.stats().hash_time - before).as_secs_f64();
                progress(format_args!(
                    "kv-update round {}/{}: {:<16} {:>7.3} s, hashing {:>4.1}%",
                    round + 1,
                    plan.runs,
                    methods[index].name,
                    seconds,
                    100.0 * hash_seconds / seconds
                ));
                record(&mut run.rows[first + index], &Sample { seconds, hash_seconds, cpu_seconds: cpu });
            }
        }
    }
    if plan.groups.contains(&Group::Proofs) {
        let first = run.rows.len();
        for workload in [Workload::Prove, Workload::Verify] {
            run.rows.extend(methods.iter().map(|&m| Row::new(workload, Engine::Map(m), plan.proofs, 0)));
        }
        for round in 0..plan.runs {
            // Half the keys present, half absent.
            let mut probes: Vec<Vec<u8>> = kv_sample(&keys, plan.proofs / 2, plan.seed ^ (0x7072 + round as u64))
                .iter()
                .map(|k| k.to_vec())
                .collect();
            let absent = kv_keys(plan.proofs - plan.proofs / 2, plan.seed ^ (0x6162 + round as u64));
            probes.extend(absent.iter().map(|k| k.to_vec()));
            for k in 0..methods.len() {
                let index = (round + k) % methods.len();
                let (map, root) = (&mut maps[index], roots[index]);
                let (proofs, prove_seconds, prove_cpu) = timed(|| {
                    probes.iter().map(|key| Ok(map.prove(&root, key)?)).collect::<Result<Vec<Proof>, Error>>()
                })?;
                let (found, verify_seconds, verify_cpu) = timed(|| {
                    let mut found = 0u64;
                    for (key, proof) in probes.iter().zip(&proofs) {
                        match ProllyMap::verify(&root, key, proof) {
                            Ok(value) => found += u64::from(value.is_some_and(|v| v.len() == KV_LEN)),
                            Err(error) => {
                                return Err(Error::Disagree(format!("a proof of {}: {error}", methods[index].name)))
                            }
                        }
                    }
                    Ok(found)
                })?;
                if found != plan.proofs / 2 {
                    return Err(Error::Disagree(format!(
                        "{}: {found} of {} keys proved present, {} expected",
                        methods[index].name,
                        plan.proofs,
                        plan.proofs / 2
                    )));
                }
                if round == 0 && k == 0 {
                    for proof in &proofs {
                        run.proof_sizes.add(proof.as_bytes().len() as u64);
                    }
                }
                progress(format_args!(
                    "proofs round {}/{}: {:<16} prove {:.3} s, verify {:.3} s",
                    round + 1,
                    plan.runs,
                    methods[index].name,
                    prove_seconds,
                    verify_seconds
                ));
                let prove = Sample { seconds: prove_seconds, hash_seconds: 0.0, cpu_seconds: prove_cpu };
                record(&mut run.rows[first + index], &prove);
                let verify = Sample { seconds: verify_seconds, hash_seconds: 0.0, cpu_seconds: verify_cpu };
                record(&mut run.rows[first + methods.len() + index], &verify);
            }
        }
    }
    Ok(())
}

impl Run {
    /// The row of the same workload run with SHA-512/160.
    fn base_row(&self, row: &Row) -> Option<&Row> {
        self.rows.iter().find(|base| {
            base.workload == row.workload && base.method().is_some_and(|m| m.algorithm == Algorithm::Sha512_160)
        })
    }

    /// The row's speed against SHA-512/160 on the same workload: the median
    /// over rounds of `SHA-512/160 time / row time`, above 1 is faster.
    pub fn vs_sha512_160(&self, row: &Row) -> Option<f64> {
        row.method()?;
        Some(median_paired_ratio(&self.base_row(row)?.seconds, &row.seconds))
    }

    /// [`vs_sha512_160`](Self::vs_sha512_160) by on-CPU time.
    pub fn cpu_vs_sha512_160(&self, row: &Row) -> Option<f64> {
        row.method()?;
        let base = self.base_row(row)?;
        (base.cpu_median().is_some() && row.cpu_median().is_some())
            .then(|| median_paired_ratio(&base.cpu_seconds, &row.cpu_seconds))
    }

    /// The row's speed against SQLite on the same workload (paired, as above).
    pub fn vs_sqlite(&self, row: &Row) -> Option<f64> {
        row.method()?;
        let sqlite = self.rows.iter().find(|r| r.workload == row.workload && r.method().is_none())?;
        Some(median_paired_ratio(&sqlite.seconds, &row.seconds))
    }

    /// The row of `workload` run by the method with `key`.
    pub fn row(&self, workload: Workload, key: &str) -> Option<&Row> {
        self.rows.iter().find(|row| row.workload == workload && row.method().is_some_and(|m| m.key == key))
    }

    /// Batch hashing time per commit over one-node-per-call's, on `workload`.
    pub fn batch_hash_ratio(&self, workload: Workload) -> Option<f64> {
        let batch = self.row(workload, "blake3-batch")?.hash_seconds_per_commit()?;
        let per_node = self.row(workload, "blake3-per-node")?.hash_seconds_per_commit()?;
        Some(batch / per_node)
    }

    /// Prints the run as a table, then the targets and the node sizes.
    pub fn print_table(&self, out: &mut impl Write) -> io::Result<()> {
        let plan = &self.plan;
        writeln!(
            out,
            "chunkhash {} store bench-kv: seed {}; BLAKE3 backend {}, core {:.2} GHz; median of {} runs, one thread, {}; load {} at start, {} at end",
            self.version,
            plan.seed,
            self.backend,
            self.core_ghz,
            plan.runs,
            if plan.fsync { "fsync" } else { "no fsync" },
            self.load[0].as_deref().unwrap_or("?"),
            self.load[1].as_deref().unwrap_or("?"),
        )?;
        writeln!(
            out,
            "{:<18} {:<16} {:>9} {:>10} {:>8} {:>12} {:>10} {:>10} {:>7} {:>8}",
            "workload",
            "engine",
            "seconds",
            "ops/s",
            "hashing",
            "hash/commit",
            "vs SHA512",
            "vs SQLite",
            "noise",
            "CPU s"
        )?;
        for row in &self.rows {
            let ratio = |r: Option<f64>| r.map_or("-".to_string(), |r| format!("{r:.2}x"));
            writeln!(
                out,
                "{:<18} {:<16} {:>9.4} {:>10.0} {:>8} {:>12} {:>10} {:>10} {:>6.1}% {:>8} {:>9}",
                row.workload.key(),
                row.engine.name(),
                row.median_seconds(),
                row.ops_per_s(),
                row.hash_share().map_or("-".into(), |s| format!("{:.1}%", 100.0 * s)),
                row.hash_seconds_per_commit().map_or("-".into(), |s| format!("{:.3} ms", 1e3 * s)),
                ratio(self.vs_sha512_160(row)),
                ratio(self.vs_sqlite(row)),
                100.0 * row.noise(),
                row.cpu_median().map_or("-".into(), |s| format!("{s:.3}")),
                ratio(self.cpu_vs_sha512_160(row)),
            )?;
        }
        for workload in [Workload::Insert, Workload::InsertOneCommit, Workload::KvUpdate] {
            if let (Some(ratio), Some(batch), Some(per_node)) = (
                self.batch_hash_ratio(workload),
                self.row(workload, "blake3-batch"),
                self.row(workload, "blake3-per-node"),
            ) {
                let cpu = (batch.cpu_median().is_some() && per_node.cpu_median().is_some())
                    .then(|| median_paired_ratio(&per_node.cpu_seconds, &batch.cpu_seconds));
                writeln!(
                    out,
                    "{}: BLAKE3 batch against one node per call: {:.2}x end to end ({} by CPU time); hashing time per commit {ratio:.2} of one node per call's",
                    workload.key(),
                    median_paired_ratio(&per_node.seconds, &batch.seconds),
                    cpu.map_or("-".to_string(), |r| format!("{r:.2}x")),
                )?;
            }
        }
        for (workload, per_node, batch) in &self.hash_replay {
            writeln!(
                out,
                "{}: hashing replayed alone, CPU per commit: {:.3} ms one node per call, {:.3} ms batched ({:.2})",
                workload.key(),
                1e3 * per_node,
                1e3 * batch,
                batch / per_node
            )?;
        }
        if let Some(shape) = &self.insert_shape {
            print_shape(out, "insert map", shape)?;
        }
        if let Some(shape) = &self.kv_shape {
            print_shape(out, "kv map", shape)?;
        }
        for (method, seconds) in &self.kv_build_seconds {
            writeln!(out, "kv map built in one commit with {}: {seconds:.3} s (one run)", method.name)?;
        }
        if self.proof_sizes.count() > 0 {
            let mut sizes = self.proof_sizes.clone();
            writeln!(out, "proof bytes: {}", sizes.summary())?;
        }
        Ok(())
    }
}

fn print_shape(out: &mut impl Write, name: &str, shape: &Shape) -> io::Result<()> {
    let (mut leaves, mut inner) = (shape.leaves.clone(), shape.inner.clone());
    writeln!(
        out,
        "{name}: {} entries, height {}, {} leaves ({}), {} inner nodes ({})",
        shape.entries,
        shape.height,
        leaves.count(),
        leaves.summary(),
        inner.count(),
        if inner.count() > 0 { inner.summary() } else { "-".into() }
    )?;
    for (low, high, count) in leaves.buckets() {
        writeln!(out, "  leaves {low:>6} ..< {high:<6} {count}")?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plan(dir: &Path) -> Plan {
        Plan {
            rows: 3000,
            commit_rows: 500,
            kv_entries: 5000,
            kv_updates: 300,
            proofs: 200,
            runs: 2,
            methods: METHODS.to_vec(),
            groups: Group::ALL.to_vec(),
            fsync: false,
            sqlite: cfg!(feature = "sqlite"),
            seed: 9,
            dir: dir.to_path_buf(),
        }
    }

    #[test]
    fn a_small_run_measures_every_row_and_leaves_nothing_behind() {
        let dir = std::env::temp_dir().join(format!("chunkhash-prolly-bench-test-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let mut lines = Vec::new();
        let run = measure(&plan(&dir), &mut |line| lines.push(line.to_string())).unwrap();
        let engines = 4 + usize::from(cfg!(feature = "sqlite"));
        assert_eq!(run.rows.len(), 2 * engines + 3 * 4, "{:?}", run.rows);
        assert!(run.rows.iter().all(|row| row.seconds.len() == 2));
        let batch = run.row(Workload::Insert, "blake3-batch").unwrap();
        assert_eq!((batch.ops, batch.commits), (3000, 6));
        assert!(batch.hash_share().is_some_and(|share| (0.0..1.0).contains(&share)));
        assert_eq!(run.vs_sha512_160(run.row(Workload::KvUpdate, "sha512-160").unwrap()), Some(1.0));
        assert!(run.batch_hash_ratio(Workload::Insert).is_some());
        assert_eq!(run.insert_shape.as_ref().unwrap().entries, 3000);
        assert_eq!(run.kv_shape.as_ref().unwrap().entries, 5000);
        assert_eq!(run.proof_sizes.count(), 200);
        let mut table = Vec::new();
        run.print_table(&mut table).unwrap();
        let table = String::from_utf8(table).unwrap();
        assert!(table.contains("BLAKE3 batch") && table.contains("1.00x") && table.contains("proof bytes"), "{table}");
        assert_eq!(fs::read_dir(&dir).unwrap().count(), 0, "the run's files are removed");
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_plan_of_nothing_is_refused() {
        let dir = std::env::temp_dir();
        let refused = |plan: Plan| measure(&plan, &mut |_| ()).unwrap_err().to_string();
        assert!(refused(Plan { runs: 0, ..plan(&dir) }).starts_with("nothing to measure"));
        assert!(refused(Plan { methods: Vec::new(), ..plan(&dir) }).starts_with("nothing to measure"));
        assert!(refused(Plan { commit_rows: 0, ..plan(&dir) }).contains("at least 1"));
        if !cfg!(feature = "sqlite") {
            assert!(refused(Plan { sqlite: true, ..plan(&dir) }).contains("no SQLite"));
        }
    }
}
