//! `chunkhash store bench-kv`: its flags and output. The workloads, the
//! rounds, the table and the JSON are the `chunkhash-bench` library's
//! `prolly` module.

use crate::status::Printer;
use anyhow::{anyhow, Context, Result};
use chunkhash_bench::prolly::{self, Group, Plan, METHODS};
use clap::Args;
use std::path::PathBuf;

pub const BENCH_KV_HELP: &str = "\
The prolly map (chunkhash_store::prolly) on a fresh store per method, one
thread:

  insert             sysbench's table sbtest (id INTEGER PRIMARY KEY, k INTEGER,
                     c CHAR(120), pad CHAR(60); seeded), --rows rows by id in
                     commits of --commit-rows; the key is the id (8 bytes,
                     big-endian), the value k, c and pad (186 bytes)
  insert-one-commit  the same rows in one commit
  kv-update          a map of --kv-entries random 32-byte keys and values, built
                     once per method; each run updates --kv-updates random keys
                     in one commit
  prove, verify      proofs of --proofs keys of that map (half present, half
                     absent), made, then checked

With --sqlite (a build with the `sqlite` feature: cargo build --release
--features sqlite), the insert workloads also run on SQLite: a file-backed
table, one transaction per commit, synchronous=OFF without --fsync and FULL
with it; `vs SQLite` is SQLite's time over the method's.

Methods: sha512-160 (one node per call), blake3-portable (the portable
kernel forced, one node per call), blake3-per-node (one call per node, SIMD
kernel), blake3-batch (the nodes of each level of a commit in one call); the
BLAKE3 methods use BLAKE3-160 addresses, the store's default.

Rounds alternate: each runs every method (and SQLite) once, starting one
further along; a warm-up run comes first. Reported per workload and method:
the median time, operations per second, the median share of time spent
hashing node addresses, the hashing time per commit, the speed against
SHA-512/160 and against SQLite (medians over rounds of paired ratios), the
noise (interquartile range over median) and the median on-CPU seconds (Linux
schedstat: leaves out time spent waiting for a core) and the speed against
SHA-512/160 by it. Then the ratio of batch to one-node-per-call hashing time
per commit as measured in the runs, and as replayed alone (the nodes each
level of each commit of the warm-up run made, hashed again one node per call
and one batch call per level, 11 interleaved rounds, on-CPU time), the node
size distributions and the proof sizes.

--json writes: {\"tool\", \"version\", \"backend\", \"core_ghz\", \"runs\", \"fsync\",
\"seed\", \"load\": {\"start\", \"end\"}, \"plan\": {\"rows\", \"commit_rows\",
\"kv_entries\", \"kv_updates\", \"proofs\"}, \"insert_map\" and \"kv_map\":
{\"entries\", \"height\", \"leaves\", \"inner\"}, \"kv_build\": [{\"method\", \"seconds\"}],
\"proof_bytes\", \"hash_replay\": [{\"workload\", \"per_node_cpu_s_per_commit\",
\"batch_cpu_s_per_commit\"}], \"rows\": [{\"workload\", \"engine\", \"algorithm\", \"hashing\",
\"ops\", \"commits\", \"seconds\", \"ops_per_s\", \"hash_share\", \"hash_s_per_commit\",
\"vs_sha512_160\", \"vs_sqlite\", \"cpu_vs_sha512_160\", \"noise\", \"runs_s\", \"hash_s\", \"cpu_s\"}]}; size
distributions are {\"count\", \"bytes\", \"mean\", \"min\", \"p10\", \"p50\", \"p90\",
\"max\", \"buckets\": [[low, high, count]]}.";

/// `store bench-kv`.
#[derive(Debug, Args)]
pub struct BenchKvFlags {
    /// Rows of the insert workloads
    #[arg(long, value_name = "N", default_value = "200000")]
    pub rows: String,
    /// Rows per commit of the insert workload
    #[arg(long, value_name = "N", default_value = "1000")]
    pub commit_rows: String,
    /// Entries of the update and proof workloads' map
    #[arg(long, value_name = "N", default_value = "1000000")]
    pub kv_entries: String,
    /// Keys updated per commit
    #[arg(long, value_name = "N", default_value = "10000")]
    pub kv_updates: String,
    /// Keys proved and verified per run
    #[arg(long, value_name = "N", default_value = "10000")]
    pub proofs: String,
    /// Timed runs of each method per workload
    #[arg(long, value_name = "N", default_value = "5")]
    pub runs: String,
    /// Comma-separated workload groups: oltp (insert, insert-one-commit), kv, proofs (default: all)
    #[arg(long, value_name = "LIST")]
    pub workloads: Option<String>,
    /// Comma-separated methods (default: all four, see below)
    #[arg(long, value_name = "LIST")]
    pub methods: Option<String>,
    /// Make every commit durable with fsync (default: no fsync)
    #[arg(long)]
    pub fsync: bool,
    /// Run SQLite beside the insert workloads (needs a build with the `sqlite` feature)
    #[arg(long)]
    pub sqlite: bool,
    /// Where the stores are written (default: the system temp directory)
    #[arg(long, value_name = "DIR")]
    pub dir: Option<PathBuf>,
    /// Write the results as JSON to FILE
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
    /// Seed of the rows and keys
    #[arg(long, value_name = "N", default_value = "17")]
    pub seed: String,
}

fn count(text: &str, what: &str) -> Result<u64> {
    text.trim().replace('_', "").parse().map_err(|_| anyhow!("{what}: {text:?} is not a whole number"))
}

/// Items of a comma-separated list, each looked up by `find`.
fn list<T>(text: &str, what: &str, keys: &[&str], find: impl Fn(&str) -> Option<T>) -> Result<Vec<T>> {
    text.split(',')
        .map(|key| find(key).ok_or_else(|| anyhow!("unknown {what} {key:?}; {what}s are {}", keys.join(", "))))
        .collect()
}

fn plan(flags: &BenchKvFlags) -> Result<Plan> {
    let methods = match &flags.methods {
        None => METHODS.to_vec(),
        Some(text) => list(text, "method", &METHODS.map(|m| m.key), prolly::method)?,
    };
    let groups = match &flags.workloads {
        None => Group::ALL.to_vec(),
        Some(text) => list(text, "workload", &["oltp", "kv", "proofs"], Group::from_key)?,
    };
    Ok(Plan {
        rows: count(&flags.rows, "--rows")?,
        commit_rows: count(&flags.commit_rows, "--commit-rows")?,
        kv_entries: count(&flags.kv_entries, "--kv-entries")?,
        kv_updates: count(&flags.kv_updates, "--kv-updates")?,
        proofs: count(&flags.proofs, "--proofs")?,
        runs: count(&flags.runs, "--runs")? as usize,
        methods,
        groups,
        fsync: flags.fsync,
        sqlite: flags.sqlite,
        seed: count(&flags.seed, "--seed")?,
        dir: flags.dir.clone().unwrap_or_else(std::env::temp_dir),
    })
}

/// Runs `store bench-kv`.
pub fn run(flags: &BenchKvFlags, printer: &mut Printer) -> Result<()> {
    let plan = plan(flags)?;
    let run = prolly::measure(&plan, &mut |line| {
        let _ = printer.message(format_args!("store bench-kv: {line}"));
    })?;
    run.print_table(printer.out())?;
    if let Some(path) = &flags.json {
        std::fs::write(path, prolly::json::to_string(&run))
            .with_context(|| format!("{}: writing JSON", path.display()))?;
    }
    Ok(())
}
