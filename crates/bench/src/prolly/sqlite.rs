//! The SQLite baseline of the insert workload: the same rows into a
//! file-backed SQLite table (rusqlite, the bundled SQLite), one
//! transaction per commit. Built with the `sqlite` feature only.

use super::data::Row;
use std::path::Path;

/// The SQLite version, when this build has SQLite.
pub fn version() -> Option<String> {
    #[cfg(feature = "sqlite")]
    return Some(format!("SQLite {}", rusqlite::version()));
    #[cfg(not(feature = "sqlite"))]
    None
}

/// Inserts `rows` into a new database at `path`, `commit_rows` to a
/// transaction; returns the seconds the inserts took (table creation
/// excluded). With `fsync` SQLite runs as configured by default
/// (`synchronous = FULL`, rollback journal); without it `synchronous = OFF`,
/// as the map's store without fsync.
#[cfg(feature = "sqlite")]
pub fn insert(path: &Path, rows: &[Row], commit_rows: usize, fsync: bool) -> Result<f64, String> {
    let fail = |error: rusqlite::Error| format!("{}: sqlite: {error}", path.display());
    let _ = std::fs::remove_file(path);
    let mut db = rusqlite::Connection::open(path).map_err(fail)?;
    db.execute_batch(if fsync { "PRAGMA synchronous = FULL;" } else { "PRAGMA synchronous = OFF;" }).map_err(fail)?;
    db.execute_batch(
        "CREATE TABLE sbtest1 (id INTEGER PRIMARY KEY, k INTEGER NOT NULL DEFAULT 0, \
         c CHAR(120) NOT NULL DEFAULT '', pad CHAR(60) NOT NULL DEFAULT '')",
    )
    .map_err(fail)?;
    let start = std::time::Instant::now();
    for commit in rows.chunks(commit_rows.max(1)) {
        let transaction = db.transaction().map_err(fail)?;
        {
            let mut insert =
                transaction.prepare("INSERT INTO sbtest1 (id, k, c, pad) VALUES (?1, ?2, ?3, ?4)").map_err(fail)?;
            for row in commit {
                insert.execute(rusqlite::params![row.id as i64, row.k, row.c, row.pad]).map_err(fail)?;
            }
        }
        transaction.commit().map_err(fail)?;
    }
    let seconds = start.elapsed().as_secs_f64();
    let count: i64 = db.query_row("SELECT count(*) FROM sbtest1", [], |row| row.get(0)).map_err(fail)?;
    if count != rows.len() as i64 {
        return Err(format!("{}: sqlite holds {count} rows of {}", path.display(), rows.len()));
    }
    Ok(seconds)
}

/// Without the `sqlite` feature there is nothing to run.
#[cfg(not(feature = "sqlite"))]
pub fn insert(path: &Path, _rows: &[Row], _commit_rows: usize, _fsync: bool) -> Result<f64, String> {
    Err(format!("{}: this build has no SQLite (the `sqlite` feature)", path.display()))
}

#[cfg(all(test, feature = "sqlite"))]
mod tests {
    use super::*;

    #[test]
    fn rows_go_in_one_transaction_per_commit() {
        let dir = std::env::temp_dir().join(format!("chunkhash-prolly-sqlite-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let rows = super::super::data::sysbench_rows(2500, 3);
        let seconds = insert(&dir.join("db"), &rows, 1000, false).unwrap();
        assert!(seconds > 0.0);
        assert!(version().unwrap().starts_with("SQLite 3."));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
