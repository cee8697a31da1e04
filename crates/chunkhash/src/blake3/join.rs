//! How the tree's recursion runs its two halves: on the calling thread, or
//! on rayon's pool for large inputs (`Hasher::update_parallel`).

/// Whether `Join` may run the two halves of a tree on two threads.
pub(crate) trait Join {
    /// Inputs shorter than this stay on one thread: splitting costs more than it saves.
    const MIN_PARALLEL_LEN: usize;
    fn join<RA: Send, RB: Send>(a: impl FnOnce() -> RA + Send, b: impl FnOnce() -> RB + Send) -> (RA, RB);
}

/// Runs both halves on the calling thread.
pub(crate) enum SerialJoin {}

impl Join for SerialJoin {
    const MIN_PARALLEL_LEN: usize = usize::MAX;
    #[inline]
    fn join<RA: Send, RB: Send>(a: impl FnOnce() -> RA + Send, b: impl FnOnce() -> RB + Send) -> (RA, RB) {
        (a(), b())
    }
}

/// Runs the halves of large subtrees on rayon's thread pool.
#[cfg(feature = "parallel")]
pub(crate) enum RayonJoin {}

#[cfg(feature = "parallel")]
impl Join for RayonJoin {
    // Below 128 KiB a half is hashed in about 10 us on one core; the
    // hand-off to another thread is not worth it there.
    const MIN_PARALLEL_LEN: usize = 128 * 1024;
    fn join<RA: Send, RB: Send>(a: impl FnOnce() -> RA + Send, b: impl FnOnce() -> RB + Send) -> (RA, RB) {
        rayon::join(a, b)
    }
}
