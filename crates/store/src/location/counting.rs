//! A location that counts the bytes read through it: what a command
//! fetched from a directory or an object store, for tests and benchmarks
//! that check a read touches only what it needs (`get --range`).

use super::fs::Fs;
use super::upload::{ObjectSums, UploadChecksum};
use super::{Location, WriterLock};
use std::io;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

/// Wraps a location, counting the bytes of every read (whole files and
/// ranges); writes pass through uncounted.
#[derive(Debug)]
pub struct Counting {
    inner: Box<dyn Location>,
    read: Arc<AtomicU64>,
}

impl Counting {
    /// Counts the reads of `inner`.
    pub fn new(inner: Box<dyn Location>) -> Counting {
        Counting { inner, read: Arc::new(AtomicU64::new(0)) }
    }

    /// The counter, to read or reset once the location is in a store.
    pub fn counter(&self) -> Arc<AtomicU64> {
        self.read.clone()
    }

    fn count(&self, bytes: usize) {
        self.read.fetch_add(bytes as u64, Ordering::Relaxed);
    }
}

impl Location for Counting {
    fn describe(&self, name: &str) -> String {
        self.inner.describe(name)
    }

    fn read(&self, name: &str) -> io::Result<Vec<u8>> {
        let bytes = self.inner.read(name)?;
        self.count(bytes.len());
        Ok(bytes)
    }

    fn read_at(&self, name: &str, offset: u64, buf: &mut [u8]) -> io::Result<()> {
        self.count(buf.len());
        self.inner.read_at(name, offset, buf)
    }

    fn len(&self, name: &str) -> io::Result<u64> {
        self.inner.len(name)
    }

    fn list(&self, folder: &str) -> io::Result<Vec<String>> {
        self.inner.list(folder)
    }

    fn write(&self, name: &str, bytes: &[u8], fsync: bool) -> io::Result<()> {
        self.inner.write(name, bytes, fsync)
    }

    fn write_new(&self, name: &str, bytes: &[u8], fsync: bool) -> io::Result<()> {
        self.inner.write_new(name, bytes, fsync)
    }

    fn upload_checksum(&self) -> Option<UploadChecksum> {
        self.inner.upload_checksum()
    }

    fn publish(&self, staged: &Path, name: &str, sums: Option<ObjectSums>, fsync: bool) -> io::Result<()> {
        self.inner.publish(staged, name, sums, fsync)
    }

    fn remove(&self, name: &str) -> io::Result<()> {
        self.inner.remove(name)
    }

    fn remove_temporaries(&self) -> io::Result<()> {
        self.inner.remove_temporaries()
    }

    fn staging(&self) -> &Path {
        self.inner.staging()
    }

    fn staging_fs(&self) -> &dyn Fs {
        self.inner.staging_fs()
    }

    fn try_lock(&self) -> io::Result<Result<WriterLock, String>> {
        self.inner.try_lock()
    }
}
