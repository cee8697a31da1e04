//! Streaming XXH3: input in pieces of any size, the same output as one
//! call over their concatenation.
//!
//! Input is buffered until more than 256 bytes have come (so an input of up
//! to 240 bytes reaches the short-input code whole). After that, whole
//! stripes are accumulated as soon as more input is known to follow them:
//! the stripe holding the input's last byte is only known at `finalize`,
//! which accumulates the buffered stripes but that one, then the last 64
//! bytes as the final stripe. Those may reach back into input already
//! consumed; the buffer's last 64 bytes keep the latest consumed stripe for
//! that case.

use super::{join, merge128, merge64, short, spec, Key};
use crate::platform::xxh3::{Accumulators, Checked, STRIPE_LEN};
use spec::{DEFAULT_SECRET, DEFAULT_SECRET_LEN, INITIAL_ACCUMULATORS};

/// Bytes buffered before any is consumed: four stripes, more than the 240
/// bytes of the short-input paths.
const BUFFER_LEN: usize = 4 * STRIPE_LEN;
/// Where the latest consumed stripe is kept.
const KEPT_STRIPE_AT: usize = BUFFER_LEN - STRIPE_LEN;

/// The secret of a streaming state.
#[derive(Clone, Debug)]
enum Secret<'a> {
    Default,
    /// Derived from a non-zero seed, for inputs over 240 bytes.
    Derived([u8; DEFAULT_SECRET_LEN]),
    Custom(&'a [u8]),
}

impl Secret<'_> {
    /// The secret of the long-input loop.
    fn long(&self) -> &[u8] {
        match self {
            Secret::Default => &DEFAULT_SECRET,
            Secret::Derived(secret) => secret,
            Secret::Custom(secret) => secret,
        }
    }

    /// The secret of the short-input paths: a seed mixes into the default.
    fn short(&self) -> &[u8] {
        match self {
            Secret::Default | Secret::Derived(_) => &DEFAULT_SECRET,
            Secret::Custom(secret) => secret,
        }
    }
}

#[derive(Clone, Debug)]
struct State<'a> {
    acc: Accumulators,
    buffer: [u8; BUFFER_LEN],
    buffered: usize,
    total_len: u64,
    /// Stripes of the current block already accumulated.
    done: usize,
    seed: u64,
    secret: Secret<'a>,
    kernel: Checked,
}

impl<'a> State<'a> {
    fn new(key: Key<'a>, kernel: Checked) -> Self {
        let (seed, secret) = match key {
            Key::Default | Key::Seed(0) => (0, Secret::Default),
            Key::Seed(seed) => (seed, Secret::Derived(spec::derive_secret(seed))),
            Key::Secret(secret) => (0, Secret::Custom(secret)),
        };
        State {
            acc: INITIAL_ACCUMULATORS,
            buffer: [0; BUFFER_LEN],
            buffered: 0,
            total_len: 0,
            done: 0,
            seed,
            secret,
            kernel,
        }
    }

    fn reset(&mut self) {
        self.acc = INITIAL_ACCUMULATORS;
        self.buffered = 0;
        self.total_len = 0;
        self.done = 0;
    }

    fn update(&mut self, mut input: &[u8]) {
        self.total_len += input.len() as u64;
        if input.len() <= BUFFER_LEN - self.buffered {
            self.buffer[self.buffered..self.buffered + input.len()].copy_from_slice(input);
            self.buffered += input.len();
            return;
        }
        let secret = self.secret.long();
        if self.buffered > 0 {
            // Fill the buffer; input remains, so all of it can be consumed.
            let (fill, rest) = input.split_at(BUFFER_LEN - self.buffered);
            self.buffer[self.buffered..].copy_from_slice(fill);
            self.done = self.kernel.consume(&mut self.acc, &self.buffer, secret, self.done);
            self.buffered = 0;
            input = rest;
        }
        if input.len() > BUFFER_LEN {
            // Every whole stripe but the one holding the input's last byte.
            let whole = (input.len() - 1) / STRIPE_LEN * STRIPE_LEN;
            let (now, rest) = input.split_at(whole);
            self.done = self.kernel.consume(&mut self.acc, now, secret, self.done);
            self.buffer[KEPT_STRIPE_AT..].copy_from_slice(&now[whole - STRIPE_LEN..]);
            input = rest;
        }
        // At most 256 bytes, and if fewer than 64 they do not reach the kept stripe.
        self.buffer[..input.len()].copy_from_slice(input);
        self.buffered = input.len();
    }

    /// The accumulators after the final stripe, for inputs over 240 bytes.
    fn long_accumulators(&self) -> Accumulators {
        let secret = self.secret.long();
        let mut acc = self.acc;
        let whole = (self.buffered - 1) / STRIPE_LEN * STRIPE_LEN;
        self.kernel.consume(&mut acc, &self.buffer[..whole], secret, self.done);
        let mut last = [0u8; STRIPE_LEN];
        if self.buffered >= STRIPE_LEN {
            last.copy_from_slice(&self.buffer[self.buffered - STRIPE_LEN..self.buffered]);
        } else {
            // The end of the kept stripe, then the buffered bytes.
            let (earlier, buffered) = last.split_at_mut(STRIPE_LEN - self.buffered);
            earlier.copy_from_slice(&self.buffer[BUFFER_LEN - earlier.len()..]);
            buffered.copy_from_slice(&self.buffer[..self.buffered]);
        }
        self.kernel.accumulate_last(&mut acc, &last, secret);
        acc
    }

    fn is_short(&self) -> bool {
        self.total_len <= short::SHORT_MAX as u64
    }

    fn finalize64(&self) -> u64 {
        if self.is_short() {
            short::hash64(&self.buffer[..self.buffered], short::key(self.secret.short()), self.seed)
        } else {
            merge64(&self.long_accumulators(), self.secret.long(), self.total_len)
        }
    }

    fn finalize128(&self) -> u128 {
        if self.is_short() {
            join(short::hash128(&self.buffer[..self.buffered], short::key(self.secret.short()), self.seed))
        } else {
            merge128(&self.long_accumulators(), self.secret.long(), self.total_len)
        }
    }
}

macro_rules! hasher {
    ($(#[$doc:meta])* $name:ident, $output:ty, $finalize:ident, $config:ident) => {
        $(#[$doc])*
        #[derive(Clone, Debug)]
        pub struct $name<'a>(State<'a>);

        impl Default for $name<'static> {
            fn default() -> Self {
                Self::new()
            }
        }

        impl $name<'static> {
            /// Seed 0, the default secret.
            pub fn new() -> Self {
                super::Xxh3::new().$config()
            }

            /// A seed, with the default secret.
            pub fn with_seed(seed: u64) -> Self {
                super::Xxh3::with_seed(seed).$config()
            }
        }

        impl<'a> $name<'a> {
            /// A custom secret (seed 0).
            pub fn with_secret(secret: super::Secret<'a>) -> Self {
                super::Xxh3::with_secret(secret).$config()
            }

            pub(super) fn from_config(key: Key<'a>, kernel: Checked) -> Self {
                $name(State::new(key, kernel))
            }

            /// Adds input.
            pub fn update(&mut self, input: &[u8]) -> &mut Self {
                self.0.update(input);
                self
            }

            /// The hash of all input so far; the state is unchanged.
            pub fn finalize(&self) -> $output {
                self.0.$finalize()
            }

            /// Forgets all input, keeping the seed or secret.
            pub fn reset(&mut self) {
                self.0.reset();
            }
        }

        #[cfg(feature = "std")]
        impl std::io::Write for $name<'_> {
            fn write(&mut self, input: &[u8]) -> std::io::Result<usize> {
                self.update(input);
                Ok(input.len())
            }

            fn flush(&mut self) -> std::io::Result<()> {
                Ok(())
            }
        }
    };
}

hasher! {
    /// Streaming XXH3-64.
    Hasher64, u64, finalize64, hasher64
}

hasher! {
    /// Streaming XXH3-128 (`high << 64 | low`).
    Hasher128, u128, finalize128, hasher128
}
