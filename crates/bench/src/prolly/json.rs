//! A `store bench-kv` [`Run`] as JSON, shaped like `chunkhash store bench
//! --json` (`tool`, `version`, `backend`, `core_ghz`, then `rows`), with the
//! plan, the load and the node size distributions. Written out by hand
//! here, next to its documentation (`chunkhash store bench-kv --help`).

use super::{Engine, Row, Run};
use chunkhash_store::prolly::Shape;
use chunkhash_store::ChunkSizes;
use serde_json::{json, Value};

/// The JSON form of a run.
pub fn to_json(run: &Run) -> Value {
    let plan = &run.plan;
    let rows: Vec<Value> = run.rows.iter().map(|row| row_json(run, row)).collect();
    let build: Vec<Value> = run
        .kv_build_seconds
        .iter()
        .map(|(method, seconds)| json!({"method": method.key, "seconds": seconds}))
        .collect();
    json!({
        "tool": "chunkhash store bench-kv",
        "version": run.version,
        "backend": run.backend,
        "core_ghz": run.core_ghz,
        "runs": plan.runs,
        "fsync": plan.fsync,
        "seed": plan.seed,
        "load": {"start": run.load[0], "end": run.load[1]},
        "plan": {
            "rows": plan.rows,
            "commit_rows": plan.commit_rows,
            "kv_entries": plan.kv_entries,
            "kv_updates": plan.kv_updates,
            "proofs": plan.proofs,
        },
        "insert_map": run.insert_shape.as_ref().map(shape_json),
        "kv_map": run.kv_shape.as_ref().map(shape_json),
        "kv_build": build,
        "proof_bytes": sizes_json(&run.proof_sizes),
        "hash_replay": run.hash_replay.iter().map(|(workload, per_node, batch)| json!({
            "workload": workload.key(), "per_node_cpu_s_per_commit": per_node, "batch_cpu_s_per_commit": batch,
        })).collect::<Vec<_>>(),
        "rows": rows,
    })
}

/// The text of a `--json` file.
pub fn to_string(run: &Run) -> String {
    crate::json::pretty(&to_json(run))
}

fn row_json(run: &Run, row: &Row) -> Value {
    let (method, algorithm, hashing) = match &row.engine {
        Engine::Map(method) => (method.key.to_string(), method.algorithm.name().to_string(), method.hashing.name()),
        Engine::Sqlite(version) => (version.clone(), String::new(), ""),
    };
    json!({
        "workload": row.workload.key(),
        "engine": method,
        "algorithm": algorithm,
        "hashing": hashing,
        "ops": row.ops,
        "commits": row.commits,
        "seconds": row.median_seconds(),
        "ops_per_s": row.ops_per_s(),
        "hash_share": row.hash_share(),
        "hash_s_per_commit": row.hash_seconds_per_commit(),
        "vs_sha512_160": run.vs_sha512_160(row),
        "vs_sqlite": run.vs_sqlite(row),
        "cpu_vs_sha512_160": run.cpu_vs_sha512_160(row),
        "noise": row.noise(),
        "runs_s": row.seconds,
        "hash_s": row.hash_seconds,
        "cpu_s": row.cpu_seconds,
    })
}

fn shape_json(shape: &Shape) -> Value {
    json!({
        "entries": shape.entries,
        "height": shape.height,
        "leaves": sizes_json(&shape.leaves),
        "inner": sizes_json(&shape.inner),
    })
}

fn sizes_json(sizes: &ChunkSizes) -> Value {
    crate::store::json::sizes_json(sizes)
}
