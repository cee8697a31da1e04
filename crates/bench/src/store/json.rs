//! A store bench [`Run`] as JSON, shaped like `chunkhash bench --json`
//! (`tool`, `version`, `backend`, `core_ghz`, then `rows`), with the corpus,
//! the chunker and the chunk size distribution. Written out by hand here,
//! next to its documentation (`chunkhash store bench --help`).

use super::{Row, Run};
use chunkhash_store::ChunkSizes;
use serde_json::{json, Value};

/// The JSON form of a run.
pub fn to_json(run: &Run) -> Value {
    let bytes = run.corpus.bytes();
    let rows: Vec<Value> = run.rows.iter().map(|row| row_json(run, row, bytes)).collect();
    let mut chunks = sizes_json(&run.chunks);
    chunks["stored_bytes"] = json!(run.stored_bytes);
    json!({
        "tool": "chunkhash store bench",
        "version": run.version,
        "backend": run.backend,
        "core_ghz": run.core_ghz,
        "runs": run.runs,
        "corpus": {
            "seed": run.seed,
            "bytes": bytes,
            "files": run.corpus.files + run.corpus.small_files,
            "large_bytes": run.corpus.large_bytes,
            "small_files": run.corpus.small_files,
            "small_bytes": run.corpus.small_bytes,
            "repeated_bytes": run.corpus.repeated_bytes,
        },
        "chunker": {"min": run.chunker.min, "avg": run.chunker.avg, "max": run.chunker.max},
        "chunks": chunks,
        "rows": rows,
    })
}

/// The text of a `--json` file.
pub fn to_string(run: &Run) -> String {
    crate::json::pretty(&to_json(run))
}

fn row_json(run: &Run, row: &Row, bytes: u64) -> Value {
    let seconds = row.median_seconds();
    json!({
        "method": row.method.key,
        "threads": row.threads,
        "algorithm": row.method.algorithm.name(),
        "hashing": row.method.hashing.name(),
        "fsync": row.fsync,
        "seconds": seconds,
        "mb_per_s": bytes as f64 / seconds / 1e6,
        "hash_share": row.hash_share(),
        "vs_sha512_160": run.vs_sha512_160(row),
        "noise": row.noise(),
        "runs_s": row.seconds,
        "hash_s": row.hash_seconds,
        "cpu_s": row.cpu_seconds,
        "cpu_mb_per_s": row.cpu_mb_per_s(bytes),
    })
}

pub(crate) fn sizes_json(sizes: &ChunkSizes) -> Value {
    let mut sizes = sizes.clone();
    json!({
        "count": sizes.count(),
        "bytes": sizes.total(),
        "mean": sizes.mean(),
        "min": sizes.percentile(0.0),
        "p10": sizes.percentile(10.0),
        "p50": sizes.percentile(50.0),
        "p90": sizes.percentile(90.0),
        "max": sizes.percentile(100.0),
        "buckets": sizes.buckets().iter().map(|(low, high, count)| json!([low, high, count])).collect::<Vec<_>>(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::corpus::Corpus;
    use crate::store::METHODS;

    #[test]
    fn every_documented_field_is_written() {
        let mut chunks = ChunkSizes::default();
        for size in [100, 5000, 70_000] {
            chunks.add(size);
        }
        let row = |index: usize, seconds: f64| {
            let seconds = vec![seconds, seconds * 1.1];
            let hash_seconds = seconds.iter().map(|s| s / 2.0).collect();
            Row { method: METHODS[index], threads: 1, fsync: false, seconds, hash_seconds, cpu_seconds: Vec::new() }
        };
        let run = Run {
            version: "0".into(),
            backend: "portable".into(),
            core_ghz: 3.0,
            runs: 2,
            seed: 16,
            corpus: Corpus { files: 2, large_bytes: 70_000, small_files: 2, small_bytes: 5100, repeated_bytes: 100 },
            chunker: chunkhash_store::ChunkerSettings { min: 1, avg: 2, max: 3 },
            chunks,
            stored_bytes: 75_000,
            rows: vec![row(0, 2.0), row(5, 1.0)],
        };
        let value = to_json(&run);
        assert_eq!(value["tool"], "chunkhash store bench");
        assert_eq!(value["corpus"]["bytes"], 75_100);
        assert_eq!(value["corpus"]["files"], 4);
        assert_eq!(value["chunks"]["count"], 3);
        assert_eq!(value["chunks"]["stored_bytes"], 75_000);
        assert_eq!(value["chunks"]["p50"], 5000);
        assert_eq!(value["rows"][1]["method"], "blake3-batch");
        assert_eq!(value["rows"][1]["algorithm"], "BLAKE3-160");
        assert_eq!(value["rows"][1]["hashing"], "batch");
        assert_eq!(value["rows"][1]["vs_sha512_160"], 2.0);
        assert_eq!(value["rows"][1]["hash_share"], 0.5);
        assert_eq!(value["rows"][1]["cpu_mb_per_s"], Value::Null);
        assert_eq!(value["rows"][0]["runs_s"], json!([2.0, 2.2]));
        assert!(to_string(&run).ends_with("}\n"));
    }
}
