//! The module's memory, shared with JavaScript: the staging area that the
//! wrapper writes inputs into, the output area it reads results from, the
//! message of the last error, and the table of live hashers.
//!
//! WebAssembly runs one thread per instance, so one `RefCell` in a
//! thread-local holds it all. JavaScript reads and writes the two areas
//! through the pointers it is given, only between calls, when no Rust
//! reference to them is alive.

use core::cell::RefCell;

use chunkhash::{blake3, StreamingHasher};

use crate::Error;

/// Bytes the output area starts with: every registry digest and trailer
/// fits, so a one-shot call never moves it.
pub(crate) const OUTPUT_START_LEN: usize = 128;

/// One incremental hash, owned by a JavaScript hasher object.
#[derive(Clone)]
pub(crate) enum Session {
    /// BLAKE3 in any mode, with extended output.
    Blake3(blake3::Hasher),
    /// Any other registry algorithm (BLAKE3-160 included).
    Registry(StreamingHasher),
}

pub(crate) struct State {
    /// Inputs, written by JavaScript; only grows.
    pub(crate) staging: Vec<u8>,
    /// Results, read by JavaScript; only grows.
    pub(crate) output: Vec<u8>,
    /// The message of the last error (UTF-8).
    pub(crate) message: String,
    /// Live hashers.
    pub(crate) sessions: Sessions,
    /// Bytes the last Bao decode verified (also when it failed).
    pub(crate) verified_len: usize,
    /// The chunking in progress.
    pub(crate) cdc: Option<crate::cdc::Job>,
    /// The Bao outboard being built from pieces.
    pub(crate) bao_outboard: Option<chunkhash::blake3::bao::OutboardBuilder>,
}

/// The table of live hashers; a handle is an index plus one, so 0 is never
/// a handle.
#[derive(Default)]
pub(crate) struct Sessions {
    slots: Vec<Option<Session>>,
    /// Indexes of `slots` free for reuse.
    free: Vec<usize>,
}

thread_local! {
    static STATE: RefCell<State> = RefCell::new(State::new());
}

/// Runs `f` on the module's state. Calls never nest: JavaScript calls one
/// export at a time and no export calls back into JavaScript.
pub(crate) fn with_state<R>(f: impl FnOnce(&mut State) -> R) -> R {
    STATE.with_borrow_mut(f)
}

impl State {
    fn new() -> State {
        State {
            staging: Vec::new(),
            output: vec![0; OUTPUT_START_LEN],
            message: String::new(),
            sessions: Sessions::default(),
            verified_len: 0,
            cdc: None,
            bao_outboard: None,
        }
    }

    /// Makes the staging area at least `len` bytes long.
    pub(crate) fn grow_staging(&mut self, len: usize) -> Result<(), Error> {
        grow(&mut self.staging, len)
    }

    /// `len` staged bytes from `start`, or an error if JavaScript named bytes
    /// outside the staging area.
    pub(crate) fn staged(&self, start: usize, len: usize) -> Result<&[u8], Error> {
        staged(&self.staging, start, len)
    }

    /// The first `len` bytes of the output area, grown as needed.
    pub(crate) fn output(&mut self, len: usize) -> Result<&mut [u8], Error> {
        output_area(&mut self.output, len)
    }
}

impl Sessions {
    /// Stores a hasher and returns its handle.
    pub(crate) fn insert(&mut self, session: Session) -> Result<i32, Error> {
        let index = match self.free.pop() {
            Some(index) => {
                self.slots[index] = Some(session);
                index
            }
            None => {
                self.slots.try_reserve(1).map_err(|_| Error::out_of_memory())?;
                self.free.try_reserve(self.slots.len() + 1).map_err(|_| Error::out_of_memory())?;
                self.slots.push(Some(session));
                self.slots.len() - 1
            }
        };
        i32::try_from(index + 1).map_err(|_| Error::out_of_memory())
    }

    pub(crate) fn get(&mut self, handle: u32) -> Result<&mut Session, Error> {
        let index = (handle as usize).checked_sub(1).ok_or_else(|| Error::invalid_handle(handle))?;
        self.slots.get_mut(index).and_then(Option::as_mut).ok_or_else(|| Error::invalid_handle(handle))
    }

    pub(crate) fn remove(&mut self, handle: u32) -> Result<(), Error> {
        self.get(handle)?;
        let index = handle as usize - 1;
        self.slots[index] = None;
        // `insert` reserved room for every slot, so this push never allocates.
        self.free.push(index);
        Ok(())
    }

    /// Hashers alive now (for the memory tests).
    pub(crate) fn live(&self) -> usize {
        self.slots.len() - self.free.len()
    }
}

/// Splits the staging area into the parts the wrapper laid out one after
/// another, checking that they fit.
pub(crate) fn staged(staging: &[u8], start: usize, len: usize) -> Result<&[u8], Error> {
    start
        .checked_add(len)
        .and_then(|end| staging.get(start..end))
        .ok_or_else(|| Error::invalid_argument(format!("{len} bytes at {start} lie outside the staging area")))
}

/// The first `len` bytes of the output area, grown as needed.
pub(crate) fn output_area(output: &mut Vec<u8>, len: usize) -> Result<&mut [u8], Error> {
    grow(output, len)?;
    Ok(&mut output[..len])
}

fn grow(buffer: &mut Vec<u8>, len: usize) -> Result<(), Error> {
    if buffer.len() < len {
        buffer.try_reserve(len - buffer.len()).map_err(|_| Error::out_of_memory())?;
        buffer.resize(len, 0);
    }
    Ok(())
}
