//! BLAKE3 (hash mode only) written plainly from the specification: one
//! compression at a time, no SIMD, no unsafe, no dependency. It stands in for
//! the `blake3-simple` crate (a port of the specification's reference code,
//! not found on the crates.io index here) in the build-time comparison: the
//! kind of implementation people pick for build scripts because it compiles
//! in a moment. Checked against the official `blake3` by `dev-speed`.

const IV: [u32; 8] =
    [0x6A09_E667, 0xBB67_AE85, 0x3C6E_F372, 0xA54F_F53A, 0x510E_527F, 0x9B05_688C, 0x1F83_D9AB, 0x5BE0_CD19];
const PERMUTATION: [usize; 16] = [2, 6, 3, 10, 7, 0, 4, 13, 1, 11, 12, 5, 9, 14, 15, 8];
const CHUNK_START: u32 = 1;
const CHUNK_END: u32 = 2;
const PARENT: u32 = 4;
const ROOT: u32 = 8;
const BLOCK_LEN: usize = 64;
const CHUNK_LEN: usize = 1024;

fn g(s: &mut [u32; 16], a: usize, b: usize, c: usize, d: usize, x: u32, y: u32) {
    s[a] = s[a].wrapping_add(s[b]).wrapping_add(x);
    s[d] = (s[d] ^ s[a]).rotate_right(16);
    s[c] = s[c].wrapping_add(s[d]);
    s[b] = (s[b] ^ s[c]).rotate_right(12);
    s[a] = s[a].wrapping_add(s[b]).wrapping_add(y);
    s[d] = (s[d] ^ s[a]).rotate_right(8);
    s[c] = s[c].wrapping_add(s[d]);
    s[b] = (s[b] ^ s[c]).rotate_right(7);
}

fn compress(cv: &[u32; 8], block: &[u32; 16], counter: u64, len: u32, flags: u32) -> [u32; 16] {
    let mut s = [
        cv[0],
        cv[1],
        cv[2],
        cv[3],
        cv[4],
        cv[5],
        cv[6],
        cv[7],
        IV[0],
        IV[1],
        IV[2],
        IV[3],
        counter as u32,
        (counter >> 32) as u32,
        len,
        flags,
    ];
    let mut m = *block;
    for round in 0..7 {
        g(&mut s, 0, 4, 8, 12, m[0], m[1]);
        g(&mut s, 1, 5, 9, 13, m[2], m[3]);
        g(&mut s, 2, 6, 10, 14, m[4], m[5]);
        g(&mut s, 3, 7, 11, 15, m[6], m[7]);
        g(&mut s, 0, 5, 10, 15, m[8], m[9]);
        g(&mut s, 1, 6, 11, 12, m[10], m[11]);
        g(&mut s, 2, 7, 8, 13, m[12], m[13]);
        g(&mut s, 3, 4, 9, 14, m[14], m[15]);
        if round < 6 {
            let old = m;
            for (i, &from) in PERMUTATION.iter().enumerate() {
                m[i] = old[from];
            }
        }
    }
    for i in 0..8 {
        s[i] ^= s[i + 8];
        s[i + 8] ^= cv[i];
    }
    s
}

fn first8(words: [u32; 16]) -> [u32; 8] {
    let mut cv = [0; 8];
    cv.copy_from_slice(&words[..8]);
    cv
}

fn words(bytes: &[u8; BLOCK_LEN]) -> [u32; 16] {
    let mut w = [0; 16];
    for (word, four) in w.iter_mut().zip(bytes.chunks_exact(4)) {
        *word = u32::from_le_bytes([four[0], four[1], four[2], four[3]]);
    }
    w
}

/// The last compression of a node, kept until we know whether it is the root.
struct Output {
    cv: [u32; 8],
    block: [u32; 16],
    counter: u64,
    len: u32,
    flags: u32,
}

impl Output {
    fn chaining_value(&self) -> [u32; 8] {
        first8(compress(&self.cv, &self.block, self.counter, self.len, self.flags))
    }

    fn root_hash(&self) -> [u8; 32] {
        let s = compress(&self.cv, &self.block, 0, self.len, self.flags | ROOT);
        let mut out = [0; 32];
        for (bytes, word) in out.chunks_exact_mut(4).zip(&s[..8]) {
            bytes.copy_from_slice(&word.to_le_bytes());
        }
        out
    }
}

fn parent(left: [u32; 8], right: [u32; 8]) -> Output {
    let mut block = [0; 16];
    block[..8].copy_from_slice(&left);
    block[8..].copy_from_slice(&right);
    Output { cv: IV, block, counter: 0, len: BLOCK_LEN as u32, flags: PARENT }
}

struct Chunk {
    cv: [u32; 8],
    counter: u64,
    block: [u8; BLOCK_LEN],
    block_len: usize,
    blocks_done: usize,
}

impl Chunk {
    fn new(counter: u64) -> Chunk {
        Chunk { cv: IV, counter, block: [0; BLOCK_LEN], block_len: 0, blocks_done: 0 }
    }

    fn len(&self) -> usize {
        self.blocks_done * BLOCK_LEN + self.block_len
    }

    fn start_flag(&self) -> u32 {
        if self.blocks_done == 0 {
            CHUNK_START
        } else {
            0
        }
    }

    fn update(&mut self, mut input: &[u8]) {
        while !input.is_empty() {
            // A full block is compressed only when more input follows: the
            // last block of a chunk takes CHUNK_END.
            if self.block_len == BLOCK_LEN {
                let s = compress(&self.cv, &words(&self.block), self.counter, BLOCK_LEN as u32, self.start_flag());
                self.cv = first8(s);
                self.blocks_done += 1;
                self.block = [0; BLOCK_LEN];
                self.block_len = 0;
            }
            let take = (BLOCK_LEN - self.block_len).min(input.len());
            self.block[self.block_len..self.block_len + take].copy_from_slice(&input[..take]);
            self.block_len += take;
            input = &input[take..];
        }
    }

    fn output(&self) -> Output {
        Output {
            cv: self.cv,
            block: words(&self.block),
            counter: self.counter,
            len: self.block_len as u32,
            flags: self.start_flag() | CHUNK_END,
        }
    }
}

/// An incremental BLAKE3 hasher (unkeyed hash mode, 32-byte output).
pub struct Hasher {
    chunk: Chunk,
    stack: Vec<[u32; 8]>,
}

impl Default for Hasher {
    fn default() -> Hasher {
        Hasher::new()
    }
}

impl Hasher {
    pub fn new() -> Hasher {
        Hasher { chunk: Chunk::new(0), stack: Vec::new() }
    }

    pub fn update(&mut self, mut input: &[u8]) -> &mut Hasher {
        while !input.is_empty() {
            if self.chunk.len() == CHUNK_LEN {
                let mut cv = self.chunk.output().chaining_value();
                let mut total = self.chunk.counter + 1;
                // Merge completed subtrees: one per trailing zero bit of the
                // chunk count.
                while total & 1 == 0 {
                    cv = parent(self.stack.pop().expect("a left subtree"), cv).chaining_value();
                    total >>= 1;
                }
                self.stack.push(cv);
                self.chunk = Chunk::new(self.chunk.counter + 1);
            }
            let take = (CHUNK_LEN - self.chunk.len()).min(input.len());
            self.chunk.update(&input[..take]);
            input = &input[take..];
        }
        self
    }

    pub fn finalize(&self) -> [u8; 32] {
        let mut output = self.chunk.output();
        for left in self.stack.iter().rev() {
            output = parent(*left, output.chaining_value());
        }
        output.root_hash()
    }
}

/// The BLAKE3 hash of `input`.
pub fn hash(input: &[u8]) -> [u8; 32] {
    Hasher::new().update(input).finalize()
}
