//! `get` and `ls`: a snapshot read back, every chunk verified (trailer,
//! stored address, hash of the bytes) before a byte of it is written out.

use crate::address::{Address, Hashing};
use crate::error::{Error, Result};
use crate::object::{Content, Node, Snapshot, Tree};
use crate::store::Store;
use std::collections::HashMap;
use std::ffi::OsStr;
use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};

/// Chunks read and verified together when restoring a file.
const RESTORE_BATCH_BYTES: u64 = 8 << 20;

/// Directory levels below a snapshot's top tree that `put` stores and
/// `get`, `ls` and `verify` follow. A path of that many one-byte names is
/// 2 KiB, half of Linux's `PATH_MAX`, so no tree a `put` can walk by path
/// comes near it; and the walks, which recurse a level per directory, stay
/// far inside a 2 MiB thread stack. A crafted snapshot nested deeper is
/// refused instead of overflowing the stack.
pub const MAX_TREE_DEPTH: usize = 1024;

/// Entries (files, directories, links) of one snapshot, counted as `get`
/// writes them: a subtree named twice counts twice. `put` holds every
/// entry in memory (over 100 bytes each), so 2^28 entries would take tens
/// of GB to store; a crafted snapshot naming one subtree many times over
/// (2^60 entries from 60 small trees) is refused before anything is
/// written.
pub const MAX_SNAPSHOT_ENTRIES: u64 = 1 << 28;

/// How `get` restores.
#[derive(Default)]
pub struct GetOptions<'a> {
    /// Restore the setuid, setgid and sticky bits as stored (tar's `-p`).
    /// Off by default: a snapshot from elsewhere, restored as root, must
    /// not create setuid-root programs.
    pub preserve_special_bits: bool,
    /// Called with the number of bytes written since the last call.
    pub progress: Option<&'a mut dyn FnMut(u64)>,
}

impl std::fmt::Debug for GetOptions<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GetOptions").field("preserve_special_bits", &self.preserve_special_bits).finish_non_exhaustive()
    }
}

/// What a snapshot's trees hold, counted as restored (shared subtrees
/// counted each time they are named), and how deep they nest.
#[derive(Clone, Copy, Debug, Default)]
struct Census {
    files: u64,
    bytes: u64,
    entries: u64,
    /// Directory levels below this tree.
    height: usize,
}

/// What `get` wrote.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RestoreReport {
    /// Files written.
    pub files: u64,
    /// Directories made.
    pub dirs: u64,
    /// Symbolic links made.
    pub symlinks: u64,
    /// Bytes written.
    pub bytes: u64,
}

/// One entry of a snapshot, as `ls` lists it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Listed {
    /// The path inside the snapshot, `/`-separated (any bytes but `/` and NUL).
    pub path: Vec<u8>,
    /// What is there.
    pub node: Node,
}

impl Store {
    /// Restores `snapshot` into `dest` with the default options (no
    /// setuid, setgid or sticky bits): see [`Store::get_with`].
    pub fn get(&self, snapshot: &Address, dest: &Path, progress: Option<&mut dyn FnMut(u64)>) -> Result<RestoreReport> {
        self.get_with(snapshot, dest, GetOptions { preserve_special_bits: false, progress })
    }

    /// Restores `snapshot` into `dest`, a new or empty directory: each
    /// top-level entry of the snapshot becomes an entry of `dest`. A file
    /// with a damaged chunk is removed and the others are still restored;
    /// the damage is then the error, naming each such file. Nothing
    /// unverified is ever written. Before writing anything, the snapshot's
    /// trees are counted (each distinct tree read once): trees nested deeper
    /// than [`MAX_TREE_DEPTH`], more than [`MAX_SNAPSHOT_ENTRIES`] entries,
    /// or files and bytes other than the root's own counts are refused as
    /// corrupt, so the work and the bytes written are bounded by what the
    /// root claims.
    pub fn get_with(&self, snapshot: &Address, dest: &Path, options: GetOptions<'_>) -> Result<RestoreReport> {
        let GetOptions { preserve_special_bits, mut progress } = options;
        let root = self.checked_root(snapshot)?;
        match fs::read_dir(dest) {
            Ok(mut entries) => {
                if entries.next().is_some() {
                    return Err(Error::DestinationExists(dest.to_path_buf()));
                }
            }
            Err(error) if error.kind() == io::ErrorKind::NotFound => {
                fs::create_dir_all(dest).map_err(|e| Error::io("creating", dest, e))?;
            }
            Err(_) if fs::symlink_metadata(dest).is_ok_and(|m| !m.is_dir()) => {
                return Err(Error::DestinationExists(dest.to_path_buf()));
            }
            Err(error) => return Err(Error::io("reading", dest, error)),
        }
        let mut restore = Restore { store: self, preserve_special_bits, progress: &mut progress, damaged: Vec::new() };
        let mut report = RestoreReport::default();
        restore.tree(&root.tree, dest, &mut report)?;
        let mut damaged = restore.damaged;
        match damaged.len() {
            0 => Ok(report),
            1 => Err(damaged.remove(0)),
            n => Err(Error::corrupt(
                format!("{n} files of snapshot {snapshot}"),
                damaged.iter().map(ToString::to_string).collect::<Vec<_>>().join("; "),
            )),
        }
    }

    /// The root of `snapshot`, once its pointer is checked and its trees
    /// counted: within the limits and agreeing with the root's counts.
    fn checked_root(&self, snapshot: &Address) -> Result<Snapshot> {
        self.check_pointer(snapshot)?;
        let root = self.snapshot(snapshot)?;
        let census = self.census(&root.tree, 0, &mut HashMap::new())?;
        let refuse = |reason: String| Err(Error::corrupt(format!("snapshot {snapshot}"), reason));
        if census.entries > MAX_SNAPSHOT_ENTRIES {
            return refuse(format!(
                "its trees name {} entries, more than the {MAX_SNAPSHOT_ENTRIES} a snapshot may hold (a subtree named many times over?)",
                census.entries
            ));
        }
        if (census.files, census.bytes) != (root.files, root.bytes) {
            return refuse(format!(
                "its trees hold {} files of {} bytes, its root says {} files of {} bytes",
                census.files, census.bytes, root.files, root.bytes
            ));
        }
        Ok(root)
    }

    /// Counts what `tree`, found `depth` levels below the top, holds, each
    /// distinct tree read once (`seen`), so a subtree named many times
    /// costs one read however often it repeats; counts saturate.
    fn census(&self, tree: &Address, depth: usize, seen: &mut HashMap<Address, Census>) -> Result<Census> {
        let too_deep = || {
            Err(Error::corrupt(
                format!("tree {tree}"),
                format!("its directories nest deeper than {MAX_TREE_DEPTH} levels, the limit"),
            ))
        };
        if let Some(census) = seen.get(tree) {
            return if depth + census.height > MAX_TREE_DEPTH { too_deep() } else { Ok(*census) };
        }
        if depth > MAX_TREE_DEPTH {
            return too_deep();
        }
        let mut census = Census::default();
        for entry in self.read_tree(tree)?.entries {
            census.entries = census.entries.saturating_add(1);
            match entry.node {
                Node::File { size, .. } => {
                    census.files = census.files.saturating_add(1);
                    census.bytes = census.bytes.saturating_add(size);
                }
                Node::Dir { tree, .. } => {
                    let below = self.census(&tree, depth + 1, seen)?;
                    census.files = census.files.saturating_add(below.files);
                    census.bytes = census.bytes.saturating_add(below.bytes);
                    census.entries = census.entries.saturating_add(below.entries);
                    census.height = census.height.max(below.height + 1);
                }
                Node::Symlink { .. } => {}
            }
        }
        seen.insert(*tree, census);
        Ok(census)
    }

    /// Every entry of `snapshot`, depth first, in name order.
    pub fn ls(&self, snapshot: &Address) -> Result<Vec<Listed>> {
        let root = self.checked_root(snapshot)?;
        let mut out = Vec::new();
        self.list_tree(&self.read_tree(&root.tree)?, &[], &mut out)?;
        Ok(out)
    }

    fn list_tree(&self, tree: &Tree, prefix: &[u8], out: &mut Vec<Listed>) -> Result<()> {
        for entry in &tree.entries {
            let mut path = prefix.to_vec();
            if !path.is_empty() {
                path.push(b'/');
            }
            path.extend_from_slice(&entry.name);
            out.push(Listed { path: path.clone(), node: entry.node.clone() });
            if let Node::Dir { tree, .. } = &entry.node {
                self.list_tree(&self.read_tree(tree)?, &path, out)?;
            }
        }
        Ok(())
    }
}

/// One `get` under way.
struct Restore<'s, 'p, 'q> {
    store: &'s Store,
    preserve_special_bits: bool,
    progress: &'p mut Option<&'q mut dyn FnMut(u64)>,
    /// Files (or subtrees) left out because of damage, each an error naming it.
    damaged: Vec<Error>,
}

impl Restore<'_, '_, '_> {
    /// Restores the entries of `tree` into `dir`. Recursion is one level
    /// per directory, bounded by `MAX_TREE_DEPTH` (checked by the census).
    fn tree(&mut self, tree: &Address, dir: &Path, report: &mut RestoreReport) -> Result<()> {
        let tree = self.store.read_tree(tree)?;
        for entry in tree.entries {
            let path = dir.join(OsStr::from_bytes(&entry.name));
            match entry.node {
                Node::File { mode, size, content, .. } => {
                    if let Err(error) = self.file(&content, size, &path) {
                        let _ = fs::remove_file(&path);
                        // Damage costs this file only; anything else stops the restore.
                        if !error.is_damage() {
                            return Err(error);
                        }
                        self.damaged.push(in_file(error, &path));
                        continue;
                    }
                    self.set_mode(&path, mode)?;
                    report.files += 1;
                    report.bytes += size;
                }
                Node::Dir { mode, tree } => {
                    fs::create_dir(&path).map_err(|e| Error::io("creating", &path, e))?;
                    match self.tree(&tree, &path, report) {
                        Err(error) if error.is_damage() => self.damaged.push(in_file(error, &path)),
                        result => result?,
                    }
                    // After the entries, in case the mode forbids writing.
                    self.set_mode(&path, mode)?;
                    report.dirs += 1;
                }
                Node::Symlink { target } => {
                    std::os::unix::fs::symlink(OsStr::from_bytes(&target), &path)
                        .map_err(|e| Error::io("creating the link", &path, e))?;
                    report.symlinks += 1;
                }
            }
        }
        Ok(())
    }

    /// Writes a file of `size` bytes from its chunks, read a chunk list at
    /// a time (never the whole list of a file in memory). Stops as soon as
    /// the chunks hold more than `size` bytes, or more chunks than `size`
    /// (chunks are never empty): a crafted list repeating one chunk cannot
    /// write more than its entry claims.
    fn file(&mut self, content: &Content, size: u64, path: &Path) -> Result<()> {
        let mut file: File = OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(0o600)
            .open(path)
            .map_err(|e| Error::io("creating", path, e))?;
        let store = self.store;
        let mut hasher = store.hasher(Hashing::Batch);
        let mut written = 0u64;
        let mut chunks = 0u64;
        let too_long = |what: String| {
            Err(Error::corrupt(format!("file {}", path.display()), format!("{what}, its entry says {size} bytes")))
        };
        let progress = &mut *self.progress;
        store.visit_chunks(content, &mut |_| false, &mut |addresses| {
            chunks += addresses.len() as u64;
            if chunks > size {
                return too_long(format!("its chunk lists name more than {size} chunks"));
            }
            let mut start = 0;
            while start < addresses.len() {
                // Up to RESTORE_BATCH_BYTES of records, by the index's lengths.
                let mut end = start;
                let mut bytes = 0u64;
                while end < addresses.len() && (end == start || bytes < RESTORE_BATCH_BYTES) {
                    bytes += store.index.get(&addresses[end]).map_or(0, |location| u64::from(location.len));
                    end += 1;
                }
                let payloads =
                    store.read_verified(&addresses[start..end], &mut hasher).map_err(|e| in_file(e, path))?;
                for payload in &payloads {
                    written += payload.len() as u64;
                    if written > size {
                        return too_long(format!("its chunks hold more than {size} bytes"));
                    }
                    file.write_all(payload).map_err(|e| Error::io("writing", path, e))?;
                    if let Some(progress) = progress {
                        progress(payload.len() as u64);
                    }
                }
                start = end;
            }
            Ok(())
        })?;
        if written != size {
            return too_long(format!("its chunks hold {written} bytes"));
        }
        Ok(())
    }

    /// Sets the permission bits; the setuid, setgid and sticky bits only
    /// when asked.
    fn set_mode(&self, path: &Path, mode: u32) -> Result<()> {
        let mask = if self.preserve_special_bits { 0o7777 } else { 0o777 };
        fs::set_permissions(path, fs::Permissions::from_mode(mode & mask))
            .map_err(|e| Error::io("setting the mode of", path, e))
    }
}

/// Adds the file being restored to a damage report.
fn in_file(error: Error, path: &Path) -> Error {
    let of = format!("(of {})", path.display());
    match error {
        // Already named (a chunk's damage, found inside the file's restore).
        Error::Corrupt { what, reason } if what.ends_with(&of) => Error::Corrupt { what, reason },
        Error::Corrupt { what, reason } => Error::Corrupt { what: format!("{what} {of}"), reason },
        Error::MissingObject(address) => {
            Error::corrupt(format!("chunk {address} (of {})", path.display()), "it is not in the store")
        }
        other => other,
    }
}

/// A path of a listing as a `PathBuf`.
pub fn listed_path(listed: &Listed) -> PathBuf {
    PathBuf::from(OsStr::from_bytes(&listed.path))
}

/// Snapshots crafted object by object (as a hostile store could hold them,
/// every record sound), restored, listed and verified.
#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::object::{Entry, LIST_FANOUT};
    use crate::store::{Commit, CreateOptions, OpenOptions};

    /// A fresh store for one test, in the system's temp dir.
    pub(crate) fn new_store(test: &str) -> (PathBuf, Store) {
        let dir = std::env::temp_dir().join(format!("chunkhash-restore-{test}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        let options = OpenOptions { fsync: false, ..OpenOptions::default() };
        let store = Store::create(&dir.join("store"), CreateOptions::default(), options).unwrap();
        (dir, store)
    }

    pub(crate) fn add(store: &Store, commit: &mut Commit, bytes: &[u8]) -> Address {
        let address = store.hasher(Hashing::Batch).address(bytes);
        store.add(commit, &address, bytes).unwrap();
        address
    }

    fn dir(name: &str, mode: u32, tree: Address) -> Entry {
        Entry { name: name.into(), node: Node::Dir { mode, tree } }
    }

    /// Commits the snapshot whose top tree is `top` (stored by `build`,
    /// which returns it); the root claims `files` files of `bytes` bytes.
    pub(crate) fn snapshot(
        store: &mut Store,
        files: u64,
        bytes: u64,
        build: impl FnOnce(&Store, &mut Commit) -> Address,
    ) -> Address {
        let mut commit = store.begin().unwrap();
        let tree = build(store, &mut commit);
        let root = Snapshot { time: 1, tree, files, bytes };
        let address = add(store, &mut commit, &root.encode());
        store.finish(commit, &address).unwrap();
        address
    }

    fn mode_of(path: &Path) -> u32 {
        fs::symlink_metadata(path).unwrap().permissions().mode() & 0o7777
    }

    #[test]
    fn special_bits_are_restored_only_when_asked() {
        let (base, mut store) = new_store("special-bits");
        let snapshot = snapshot(&mut store, 2, 10, |store, commit| {
            let chunk = add(store, commit, b"hello");
            let file = |name: &str, mode| Entry {
                name: name.into(),
                node: Node::File { mode, size: 5, content: Content { level: 0, addresses: vec![chunk] }, root: None },
            };
            let empty = add(store, commit, &Tree::default().encode());
            let top = Tree { entries: vec![dir("dir", 0o3777, empty), file("setgid", 0o2750), file("setuid", 0o4755)] };
            add(store, commit, &top.encode())
        });
        let out = base.join("default");
        store.get(&snapshot, &out, None).unwrap();
        assert_eq!(mode_of(&out.join("setuid")), 0o755);
        assert_eq!(mode_of(&out.join("setgid")), 0o750);
        assert_eq!(mode_of(&out.join("dir")), 0o777);
        assert_eq!(fs::read(out.join("setuid")).unwrap(), b"hello");
        let out = base.join("preserved");
        store.get_with(&snapshot, &out, GetOptions { preserve_special_bits: true, progress: None }).unwrap();
        assert_eq!(mode_of(&out.join("setuid")), 0o4755);
        assert_eq!(mode_of(&out.join("setgid")), 0o2750);
        assert_eq!(mode_of(&out.join("dir")), 0o3777);
        fs::remove_dir_all(&base).unwrap();
    }

    /// A chain of `depth` directories named "d" below the top tree.
    fn chain(store: &mut Store, depth: usize) -> Address {
        snapshot(store, 0, 0, |store, commit| {
            // Encoded first and stored in one call: 100,000 calls take seconds.
            let mut hasher = store.hasher(Hashing::Batch);
            let mut objects = vec![Tree::default().encode()];
            let mut tree = hasher.address(&objects[0]);
            for _ in 0..depth {
                objects.push(Tree { entries: vec![dir("d", 0o755, tree)] }.encode());
                tree = hasher.address(objects.last().unwrap());
            }
            let mut addresses = Vec::new();
            hasher.addresses(&objects.iter().map(Vec::as_slice).collect::<Vec<_>>(), &mut addresses);
            let records: Vec<(Address, &[u8])> = addresses.into_iter().zip(objects.iter().map(Vec::as_slice)).collect();
            store.add_all(commit, &records).unwrap();
            tree
        })
    }

    #[test]
    fn trees_deeper_than_the_limit_are_refused_without_overflowing_the_stack() {
        let (base, mut store) = new_store("depth");
        // 100,000 levels: a walk that recursed without the limit would
        // overflow this thread's 2 MiB stack (cargo's default for tests).
        let deep = chain(&mut store, 100_000);
        let error = store.get(&deep, &base.join("deep"), None).unwrap_err().to_string();
        assert!(error.contains("deeper than 1024 levels"), "{error}");
        assert!(!base.join("deep/d").exists(), "nothing is written before the check");
        let error = store.ls(&deep).unwrap_err().to_string();
        assert!(error.contains("deeper than 1024 levels"), "{error}");
        let report = store.verify(None).unwrap();
        assert_eq!(report.damage.len(), 1, "{:?}", report.damage);
        assert!(report.damage[0].reason.contains("deeper than 1024 levels"), "{:?}", report.damage);

        // At the limit: restored, listed and verified. The top tree holds
        // the first "d", so there are MAX_TREE_DEPTH directories in all.
        fs::remove_dir_all(&base).unwrap();
        let (base, mut store) = new_store("depth-limit");
        let deepest = chain(&mut store, MAX_TREE_DEPTH);
        let report = store.get(&deepest, &base.join("out"), None).unwrap();
        assert_eq!(report.dirs, MAX_TREE_DEPTH as u64);
        assert_eq!(store.ls(&deepest).unwrap().len(), MAX_TREE_DEPTH);
        assert!(store.verify(None).unwrap().damage.is_empty());
        let deeper = chain(&mut store, MAX_TREE_DEPTH + 1);
        assert!(store.get(&deeper, &base.join("out-deeper"), None).is_err());
        assert!(store.ls(&deeper).is_err());
        fs::remove_dir_all(&base).unwrap();
    }

    #[test]
    fn a_tree_reached_deep_through_a_shared_subtree_is_refused() {
        // The same tree first met near the top, then again below a long
        // chain: its height counts at each place it is named.
        let (base, mut store) = new_store("depth-shared");
        let snapshot = snapshot(&mut store, 0, 0, |store, commit| {
            let mut tall = add(store, commit, &Tree::default().encode());
            for _ in 0..10 {
                tall = add(store, commit, &Tree { entries: vec![dir("t", 0o755, tall)] }.encode());
            }
            let mut chain = tall;
            for _ in 0..MAX_TREE_DEPTH - 5 {
                chain = add(store, commit, &Tree { entries: vec![dir("d", 0o755, chain)] }.encode());
            }
            add(store, commit, &Tree { entries: vec![dir("a", 0o755, tall), dir("b", 0o755, chain)] }.encode())
        });
        let error = store.get(&snapshot, &base.join("out"), None).unwrap_err().to_string();
        assert!(error.contains("deeper than 1024 levels"), "{error}");
        fs::remove_dir_all(&base).unwrap();
    }

    /// `levels` trees, each naming the next twice, above a tree holding one
    /// 1-byte file: 2^levels paths to it. The root claims one file.
    fn subtree_bomb(store: &mut Store, levels: usize) -> Address {
        snapshot(store, 1, 1, |store, commit| {
            let chunk = add(store, commit, b"x");
            let file =
                Node::File { mode: 0o644, size: 1, content: Content { level: 0, addresses: vec![chunk] }, root: None };
            let mut tree =
                add(store, commit, &Tree { entries: vec![Entry { name: b"f".to_vec(), node: file }] }.encode());
            for _ in 0..levels {
                tree =
                    add(store, commit, &Tree { entries: vec![dir("a", 0o755, tree), dir("b", 0o755, tree)] }.encode());
            }
            tree
        })
    }

    #[test]
    fn a_subtree_bomb_fails_quickly_and_verify_reads_each_tree_once() {
        // 60 trees, each naming the next twice: 2^60 paths to one file. The
        // root claims one file; restoring it all would never end.
        let (base, mut store) = new_store("bomb");
        let bomb = subtree_bomb(&mut store, 60);
        let error = store.get(&bomb, &base.join("out"), None).unwrap_err().to_string();
        assert!(error.contains("more than the 268435456 a snapshot may hold"), "{error}");
        assert!(!base.join("out").exists(), "nothing is written");
        let error = store.ls(&bomb).unwrap_err().to_string();
        assert!(error.contains("more than the 268435456"), "{error}");
        let report = store.verify(None).unwrap();
        assert!(report.damage.is_empty(), "{:?}", report.damage);
        assert_eq!(report.snapshots, 1);

        // Within the entry limit, the root's counts decide: 2^10 files where
        // the root claims one.
        let small = subtree_bomb(&mut store, 10);
        let error = store.get(&small, &base.join("small"), None).unwrap_err().to_string();
        assert!(error.contains("its trees hold 1024 files of 1024 bytes, its root says 1 files of 1 bytes"), "{error}");
        fs::remove_dir_all(&base).unwrap();
    }

    #[test]
    fn a_chunk_list_bomb_writes_no_more_than_its_entry_claims() {
        // A file of 3 bytes whose lists name one chunk 4096^3 times.
        let (base, mut store) = new_store("list-bomb");
        let snapshot = snapshot(&mut store, 1, 3, |store, commit| {
            let mut content = Content { level: 0, addresses: vec![add(store, commit, b"x"); LIST_FANOUT] };
            for _ in 0..2 {
                let list = add(store, commit, &content.encode_list());
                content = Content { level: content.level + 1, addresses: vec![list; LIST_FANOUT] };
            }
            let file = Node::File { mode: 0o644, size: 3, content, root: None };
            add(store, commit, &Tree { entries: vec![Entry { name: b"f".to_vec(), node: file }] }.encode())
        });
        let error = store.get(&snapshot, &base.join("out"), None).unwrap_err().to_string();
        assert!(error.contains("its chunk lists name more than 3 chunks"), "{error}");
        assert!(!base.join("out/f").exists(), "the partial file is removed");
        let report = store.verify(None).unwrap();
        assert!(report.damage.is_empty(), "{:?}", report.damage);
        fs::remove_dir_all(&base).unwrap();
    }
}
