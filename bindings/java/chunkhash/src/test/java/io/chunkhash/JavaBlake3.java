package io.chunkhash;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * BLAKE3 of inputs of at most one chunk (1024 bytes), in plain Java: the
 * chunk's blocks compressed one after the other, the last with the root flag,
 * as the BLAKE3 paper describes (section 2: the compression function, chunk
 * chaining, the root output and its extension). No tree, so no parents.
 * Plain and keyed hashes of any output length.
 *
 * <p>A test class: an independent implementation the tests compare the native
 * one with, and the contender {@code SwitchOverBench} times to show why
 * {@link Blake3} has no Java path (see {@link ShortPath}).
 */
final class JavaBlake3 {
    private JavaBlake3() {}

    /** The longest input: one chunk. */
    static final int MAX_LEN = 1024;

    private static final int BLOCK_LEN = 64;
    private static final int CHUNK_START = 1;
    private static final int CHUNK_END = 2;
    private static final int ROOT = 8;
    private static final int KEYED_HASH = 16;

    private static final int[] IV = {
        0x6A09E667, 0xBB67AE85, 0x3C6EF372, 0xA54FF53A, 0x510E527F, 0x9B05688C, 0x1F83D9AB, 0x5BE0CD19,
    };

    private static final VarHandle LE32 = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);

    /** {@code out.length} bytes of the hash of {@code len <= MAX_LEN} bytes from {@code off}; key null for plain. */
    static void hash(byte[] key, byte[] in, int off, int len, byte[] out) {
        int[] cv = new int[8];
        int flags = 0;
        if (key == null) {
            System.arraycopy(IV, 0, cv, 0, 8);
        } else {
            for (int i = 0; i < 8; i++) cv[i] = (int) LE32.get(key, 4 * i);
            flags = KEYED_HASH;
        }
        int[] m = new int[16];
        int[] state = new int[16];
        int at = 0;
        int start = CHUNK_START;
        // Every block but the last chains into the next; the last (possibly short or empty) is the root's input.
        while (len - at > BLOCK_LEN) {
            for (int i = 0; i < 16; i++) m[i] = (int) LE32.get(in, off + at + 4 * i);
            compress(cv, m, 0, BLOCK_LEN, flags | start, state);
            System.arraycopy(state, 0, cv, 0, 8);
            at += BLOCK_LEN;
            start = 0;
        }
        int last = len - at;
        if (last == BLOCK_LEN) {
            for (int i = 0; i < 16; i++) m[i] = (int) LE32.get(in, off + at + 4 * i);
        } else {
            byte[] block = new byte[BLOCK_LEN];
            System.arraycopy(in, off + at, block, 0, last);
            for (int i = 0; i < 16; i++) m[i] = (int) LE32.get(block, 4 * i);
        }
        int rootFlags = flags | start | CHUNK_END | ROOT;
        // The root output: block t of the extended output is the compression with counter t, all 16 words kept.
        for (int t = 0, o = 0; o < out.length; t++, o += BLOCK_LEN) {
            compress(cv, m, t, last, rootFlags, state);
            for (int i = 0; i < 8; i++) state[i + 8] ^= cv[i];
            int n = Math.min(BLOCK_LEN, out.length - o);
            int words = n >> 2;
            for (int i = 0; i < words; i++) LE32.set(out, o + 4 * i, state[i]);
            for (int i = 4 * words; i < n; i++) out[o + i] = (byte) (state[i >> 2] >>> (8 * (i & 3)));
        }
    }

    /**
     * The compression function of the block {@code m} (16 little-endian words);
     * leaves in {@code s} the first 8 output words, s[i] ^ s[i + 8], and s[8..16]
     * as they are. The 7 rounds are written out, each reading the message words
     * in the order the permutation (2, 6, 3, 10, 7, 0, 4, 13, 1, 11, 12, 5, 9,
     * 14, 15, 8) applied r times gives, so that every word stays in a local.
     */
    private static void compress(int[] cv, int[] m, long counter, int blockLen, int flags, int[] s) {
        int m0 = m[0], m1 = m[1], m2 = m[2], m3 = m[3], m4 = m[4], m5 = m[5], m6 = m[6], m7 = m[7];
        int m8 = m[8], m9 = m[9], m10 = m[10], m11 = m[11], m12 = m[12], m13 = m[13], m14 = m[14], m15 = m[15];
        int s0 = cv[0], s1 = cv[1], s2 = cv[2], s3 = cv[3], s4 = cv[4], s5 = cv[5], s6 = cv[6], s7 = cv[7];
        int s8 = IV[0], s9 = IV[1], s10 = IV[2], s11 = IV[3];
        int s12 = (int) counter, s13 = (int) (counter >>> 32), s14 = blockLen, s15 = flags;
        // Round 1.
        s0 += s4 + m0; s12 = Integer.rotateRight(s12 ^ s0, 16); s8 += s12; s4 = Integer.rotateRight(s4 ^ s8, 12);
        s0 += s4 + m1; s12 = Integer.rotateRight(s12 ^ s0, 8); s8 += s12; s4 = Integer.rotateRight(s4 ^ s8, 7);
        s1 += s5 + m2; s13 = Integer.rotateRight(s13 ^ s1, 16); s9 += s13; s5 = Integer.rotateRight(s5 ^ s9, 12);
        s1 += s5 + m3; s13 = Integer.rotateRight(s13 ^ s1, 8); s9 += s13; s5 = Integer.rotateRight(s5 ^ s9, 7);
        s2 += s6 + m4; s14 = Integer.rotateRight(s14 ^ s2, 16); s10 += s14; s6 = Integer.rotateRight(s6 ^ s10, 12);
        s2 += s6 + m5; s14 = Integer.rotateRight(s14 ^ s2, 8); s10 += s14; s6 = Integer.rotateRight(s6 ^ s10, 7);
        s3 += s7 + m6; s15 = Integer.rotateRight(s15 ^ s3, 16); s11 += s15; s7 = Integer.rotateRight(s7 ^ s11, 12);
        s3 += s7 + m7; s15 = Integer.rotateRight(s15 ^ s3, 8); s11 += s15; s7 = Integer.rotateRight(s7 ^ s11, 7);
        s0 += s5 + m8; s15 = Integer.rotateRight(s15 ^ s0, 16); s10 += s15; s5 = Integer.rotateRight(s5 ^ s10, 12);
        s0 += s5 + m9; s15 = Integer.rotateRight(s15 ^ s0, 8); s10 += s15; s5 = Integer.rotateRight(s5 ^ s10, 7);
        s1 += s6 + m10; s12 = Integer.rotateRight(s12 ^ s1, 16); s11 += s12; s6 = Integer.rotateRight(s6 ^ s11, 12);
        s1 += s6 + m11; s12 = Integer.rotateRight(s12 ^ s1, 8); s11 += s12; s6 = Integer.rotateRight(s6 ^ s11, 7);
        s2 += s7 + m12; s13 = Integer.rotateRight(s13 ^ s2, 16); s8 += s13; s7 = Integer.rotateRight(s7 ^ s8, 12);
        s2 += s7 + m13; s13 = Integer.rotateRight(s13 ^ s2, 8); s8 += s13; s7 = Integer.rotateRight(s7 ^ s8, 7);
        s3 += s4 + m14; s14 = Integer.rotateRight(s14 ^ s3, 16); s9 += s14; s4 = Integer.rotateRight(s4 ^ s9, 12);
        s3 += s4 + m15; s14 = Integer.rotateRight(s14 ^ s3, 8); s9 += s14; s4 = Integer.rotateRight(s4 ^ s9, 7);
        // Round 2.
        s0 += s4 + m2; s12 = Integer.rotateRight(s12 ^ s0, 16); s8 += s12; s4 = Integer.rotateRight(s4 ^ s8, 12);
        s0 += s4 + m6; s12 = Integer.rotateRight(s12 ^ s0, 8); s8 += s12; s4 = Integer.rotateRight(s4 ^ s8, 7);
        s1 += s5 + m3; s13 = Integer.rotateRight(s13 ^ s1, 16); s9 += s13; s5 = Integer.rotateRight(s5 ^ s9, 12);
        s1 += s5 + m10; s13 = Integer.rotateRight(s13 ^ s1, 8); s9 += s13; s5 = Integer.rotateRight(s5 ^ s9, 7);
        s2 += s6 + m7; s14 = Integer.rotateRight(s14 ^ s2, 16); s10 += s14; s6 = Integer.rotateRight(s6 ^ s10, 12);
        s2 += s6 + m0; s14 = Integer.rotateRight(s14 ^ s2, 8); s10 += s14; s6 = Integer.rotateRight(s6 ^ s10, 7);
        s3 += s7 + m4; s15 = Integer.rotateRight(s15 ^ s3, 16); s11 += s15; s7 = Integer.rotateRight(s7 ^ s11, 12);
        s3 += s7 + m13; s15 = Integer.rotateRight(s15 ^ s3, 8); s11 += s15; s7 = Integer.rotateRight(s7 ^ s11, 7);
        s0 += s5 + m1; s15 = Integer.rotateRight(s15 ^ s0, 16); s10 += s15; s5 = Integer.rotateRight(s5 ^ s10, 12);
        s0 += s5 + m11; s15 = Integer.rotateRight(s15 ^ s0, 8); s10 += s15; s5 = Integer.rotateRight(s5 ^ s10, 7);
        s1 += s6 + m12; s12 = Integer.rotateRight(s12 ^ s1, 16); s11 += s12; s6 = Integer.rotateRight(s6 ^ s11, 12);
        s1 += s6 + m5; s12 = Integer.rotateRight(s12 ^ s1, 8); s11 += s12; s6 = Integer.rotateRight(s6 ^ s11, 7);
        s2 += s7 + m9; s13 = Integer.rotateRight(s13 ^ s2, 16); s8 += s13; s7 = Integer.rotateRight(s7 ^ s8, 12);
        s2 += s7 + m14; s13 = Integer.rotateRight(s13 ^ s2, 8); s8 += s13; s7 = Integer.rotateRight(s7 ^ s8, 7);
        s3 += s4 + m15; s14 = Integer.rotateRight(s14 ^ s3, 16); s9 += s14; s4 = Integer.rotateRight(s4 ^ s9, 12);
        s3 += s4 + m8; s14 = Integer.rotateRight(s14 ^ s3, 8); s9 += s14; s4 = Integer.rotateRight(s4 ^ s9, 7);
        // Round 3.
        s0 += s4 + m3; s12 = Integer.rotateRight(s12 ^ s0, 16); s8 += s12; s4 = Integer.rotateRight(s4 ^ s8, 12);
        s0 += s4 + m4; s12 = Integer.rotateRight(s12 ^ s0, 8); s8 += s12; s4 = Integer.rotateRight(s4 ^ s8, 7);
        s1 += s5 + m10; s13 = Integer.rotateRight(s13 ^ s1, 16); s9 += s13; s5 = Integer.rotateRight(s5 ^ s9, 12);
        s1 += s5 + m12; s13 = Integer.rotateRight(s13 ^ s1, 8); s9 += s13; s5 = Integer.rotateRight(s5 ^ s9, 7);
        s2 += s6 + m13; s14 = Integer.rotateRight(s14 ^ s2, 16); s10 += s14; s6 = Integer.rotateRight(s6 ^ s10, 12);
        s2 += s6 + m2; s14 = Integer.rotateRight(s14 ^ s2, 8); s10 += s14; s6 = Integer.rotateRight(s6 ^ s10, 7);
        s3 += s7 + m7; s15 = Integer.rotateRight(s15 ^ s3, 16); s11 += s15; s7 = Integer.rotateRight(s7 ^ s11, 12);
        s3 += s7 + m14; s15 = Integer.rotateRight(s15 ^ s3, 8); s11 += s15; s7 = Integer.rotateRight(s7 ^ s11, 7);
        s0 += s5 + m6; s15 = Integer.rotateRight(s15 ^ s0, 16); s10 += s15; s5 = Integer.rotateRight(s5 ^ s10, 12);
        s0 += s5 + m5; s15 = Integer.rotateRight(s15 ^ s0, 8); s10 += s15; s5 = Integer.rotateRight(s5 ^ s10, 7);
        s1 += s6 + m9; s12 = Integer.rotateRight(s12 ^ s1, 16); s11 += s12; s6 = Integer.rotateRight(s6 ^ s11, 12);
        s1 += s6 + m0; s12 = Integer.rotateRight(s12 ^ s1, 8); s11 += s12; s6 = Integer.rotateRight(s6 ^ s11, 7);
        s2 += s7 + m11; s13 = Integer.rotateRight(s13 ^ s2, 16); s8 += s13; s7 = Integer.rotateRight(s7 ^ s8, 12);
        s2 += s7 + m15; s13 = Integer.rotateRight(s13 ^ s2, 8); s8 += s13; s7 = Integer.rotateRight(s7 ^ s8, 7);
        s3 += s4 + m8; s14 = Integer.rotateRight(s14 ^ s3, 16); s9 += s14; s4 = Integer.rotateRight(s4 ^ s9, 12);
        s3 += s4 + m1; s14 = Integer.rotateRight(s14 ^ s3, 8); s9 += s14; s4 = Integer.rotateRight(s4 ^ s9, 7);
        // Round 4.
        s0 += s4 + m10; s12 = Integer.rotateRight(s12 ^ s0, 16); s8 += s12; s4 = Integer.rotateRight(s4 ^ s8, 12);
        s0 += s4 + m7; s12 = Integer.rotateRight(s12 ^ s0, 8); s8 += s12; s4 = Integer.rotateRight(s4 ^ s8, 7);
        s1 += s5 + m12; s13 = Integer.rotateRight(s13 ^ s1, 16); s9 += s13; s5 = Integer.rotateRight(s5 ^ s9, 12);
        s1 += s5 + m9; s13 = Integer.rotateRight(s13 ^ s1, 8); s9 += s13; s5 = Integer.rotateRight(s5 ^ s9, 7);
        s2 += s6 + m14; s14 = Integer.rotateRight(s14 ^ s2, 16); s10 += s14; s6 = Integer.rotateRight(s6 ^ s10, 12);
        s2 += s6 + m3; s14 = Integer.rotateRight(s14 ^ s2, 8); s10 += s14; s6 = Integer.rotateRight(s6 ^ s10, 7);
        s3 += s7 + m13; s15 = Integer.rotateRight(s15 ^ s3, 16); s11 += s15; s7 = Integer.rotateRight(s7 ^ s11, 12);
        s3 += s7 + m15; s15 = Integer.rotateRight(s15 ^ s3, 8); s11 += s15; s7 = Integer.rotateRight(s7 ^ s11, 7);
        s0 += s5 + m4; s15 = Integer.rotateRight(s15 ^ s0, 16); s10 += s15; s5 = Integer.rotateRight(s5 ^ s10, 12);
        s0 += s5 + m0; s15 = Integer.rotateRight(s15 ^ s0, 8); s10 += s15; s5 = Integer.rotateRight(s5 ^ s10, 7);
        s1 += s6 + m11; s12 = Integer.rotateRight(s12 ^ s1, 16); s11 += s12; s6 = Integer.rotateRight(s6 ^ s11, 12);
        s1 += s6 + m2; s12 = Integer.rotateRight(s12 ^ s1, 8); s11 += s12; s6 = Integer.rotateRight(s6 ^ s11, 7);
        s2 += s7 + m5; s13 = Integer.rotateRight(s13 ^ s2, 16); s8 += s13; s7 = Integer.rotateRight(s7 ^ s8, 12);
        s2 += s7 + m8; s13 = Integer.rotateRight(s13 ^ s2, 8); s8 += s13; s7 = Integer.rotateRight(s7 ^ s8, 7);
        s3 += s4 + m1; s14 = Integer.rotateRight(s14 ^ s3, 16); s9 += s14; s4 = Integer.rotateRight(s4 ^ s9, 12);
        s3 += s4 + m6; s14 = Integer.rotateRight(s14 ^ s3, 8); s9 += s14; s4 = Integer.rotateRight(s4 ^ s9, 7);
        // Round 5.
        s0 += s4 + m12; s12 = Integer.rotateRight(s12 ^ s0, 16); s8 += s12; s4 = Integer.rotateRight(s4 ^ s8, 12);
        s0 += s4 + m13; s12 = Integer.rotateRight(s12 ^ s0, 8); s8 += s12; s4 = Integer.rotateRight(s4 ^ s8, 7);
        s1 += s5 + m9; s13 = Integer.rotateRight(s13 ^ s1, 16); s9 += s13; s5 = Integer.rotateRight(s5 ^ s9, 12);
        s1 += s5 + m11; s13 = Integer.rotateRight(s13 ^ s1, 8); s9 += s13; s5 = Integer.rotateRight(s5 ^ s9, 7);
        s2 += s6 + m15; s14 = Integer.rotateRight(s14 ^ s2, 16); s10 += s14; s6 = Integer.rotateRight(s6 ^ s10, 12);
        s2 += s6 + m10; s14 = Integer.rotateRight(s14 ^ s2, 8); s10 += s14; s6 = Integer.rotateRight(s6 ^ s10, 7);
        s3 += s7 + m14; s15 = Integer.rotateRight(s15 ^ s3, 16); s11 += s15; s7 = Integer.rotateRight(s7 ^ s11, 12);
        s3 += s7 + m8; s15 = Integer.rotateRight(s15 ^ s3, 8); s11 += s15; s7 = Integer.rotateRight(s7 ^ s11, 7);
        s0 += s5 + m7; s15 = Integer.rotateRight(s15 ^ s0, 16); s10 += s15; s5 = Integer.rotateRight(s5 ^ s10, 12);
        s0 += s5 + m2; s15 = Integer.rotateRight(s15 ^ s0, 8); s10 += s15; s5 = Integer.rotateRight(s5 ^ s10, 7);
        s1 += s6 + m5; s12 = Integer.rotateRight(s12 ^ s1, 16); s11 += s12; s6 = Integer.rotateRight(s6 ^ s11, 12);
        s1 += s6 + m3; s12 = Integer.rotateRight(s12 ^ s1, 8); s11 += s12; s6 = Integer.rotateRight(s6 ^ s11, 7);
        s2 += s7 + m0; s13 = Integer.rotateRight(s13 ^ s2, 16); s8 += s13; s7 = Integer.rotateRight(s7 ^ s8, 12);
        s2 += s7 + m1; s13 = Integer.rotateRight(s13 ^ s2, 8); s8 += s13; s7 = Integer.rotateRight(s7 ^ s8, 7);
        s3 += s4 + m6; s14 = Integer.rotateRight(s14 ^ s3, 16); s9 += s14; s4 = Integer.rotateRight(s4 ^ s9, 12);
        s3 += s4 + m4; s14 = Integer.rotateRight(s14 ^ s3, 8); s9 += s14; s4 = Integer.rotateRight(s4 ^ s9, 7);
        // Round 6.
        s0 += s4 + m9; s12 = Integer.rotateRight(s12 ^ s0, 16); s8 += s12; s4 = Integer.rotateRight(s4 ^ s8, 12);
        s0 += s4 + m14; s12 = Integer.rotateRight(s12 ^ s0, 8); s8 += s12; s4 = Integer.rotateRight(s4 ^ s8, 7);
        s1 += s5 + m11; s13 = Integer.rotateRight(s13 ^ s1, 16); s9 += s13; s5 = Integer.rotateRight(s5 ^ s9, 12);
        s1 += s5 + m5; s13 = Integer.rotateRight(s13 ^ s1, 8); s9 += s13; s5 = Integer.rotateRight(s5 ^ s9, 7);
        s2 += s6 + m8; s14 = Integer.rotateRight(s14 ^ s2, 16); s10 += s14; s6 = Integer.rotateRight(s6 ^ s10, 12);
        s2 += s6 + m12; s14 = Integer.rotateRight(s14 ^ s2, 8); s10 += s14; s6 = Integer.rotateRight(s6 ^ s10, 7);
        s3 += s7 + m15; s15 = Integer.rotateRight(s15 ^ s3, 16); s11 += s15; s7 = Integer.rotateRight(s7 ^ s11, 12);
        s3 += s7 + m1; s15 = Integer.rotateRight(s15 ^ s3, 8); s11 += s15; s7 = Integer.rotateRight(s7 ^ s11, 7);
        s0 += s5 + m13; s15 = Integer.rotateRight(s15 ^ s0, 16); s10 += s15; s5 = Integer.rotateRight(s5 ^ s10, 12);
        s0 += s5 + m3; s15 = Integer.rotateRight(s15 ^ s0, 8); s10 += s15; s5 = Integer.rotateRight(s5 ^ s10, 7);
        s1 += s6 + m0; s12 = Integer.rotateRight(s12 ^ s1, 16); s11 += s12; s6 = Integer.rotateRight(s6 ^ s11, 12);
        s1 += s6 + m10; s12 = Integer.rotateRight(s12 ^ s1, 8); s11 += s12; s6 = Integer.rotateRight(s6 ^ s11, 7);
        s2 += s7 + m2; s13 = Integer.rotateRight(s13 ^ s2, 16); s8 += s13; s7 = Integer.rotateRight(s7 ^ s8, 12);
        s2 += s7 + m6; s13 = Integer.rotateRight(s13 ^ s2, 8); s8 += s13; s7 = Integer.rotateRight(s7 ^ s8, 7);
        s3 += s4 + m4; s14 = Integer.rotateRight(s14 ^ s3, 16); s9 += s14; s4 = Integer.rotateRight(s4 ^ s9, 12);
        s3 += s4 + m7; s14 = Integer.rotateRight(s14 ^ s3, 8); s9 += s14; s4 = Integer.rotateRight(s4 ^ s9, 7);
        // Round 7.
        s0 += s4 + m11; s12 = Integer.rotateRight(s12 ^ s0, 16); s8 += s12; s4 = Integer.rotateRight(s4 ^ s8, 12);
        s0 += s4 + m15; s12 = Integer.rotateRight(s12 ^ s0, 8); s8 += s12; s4 = Integer.rotateRight(s4 ^ s8, 7);
        s1 += s5 + m5; s13 = Integer.rotateRight(s13 ^ s1, 16); s9 += s13; s5 = Integer.rotateRight(s5 ^ s9, 12);
        s1 += s5 + m0; s13 = Integer.rotateRight(s13 ^ s1, 8); s9 += s13; s5 = Integer.rotateRight(s5 ^ s9, 7);
        s2 += s6 + m1; s14 = Integer.rotateRight(s14 ^ s2, 16); s10 += s14; s6 = Integer.rotateRight(s6 ^ s10, 12);
        s2 += s6 + m9; s14 = Integer.rotateRight(s14 ^ s2, 8); s10 += s14; s6 = Integer.rotateRight(s6 ^ s10, 7);
        s3 += s7 + m8; s15 = Integer.rotateRight(s15 ^ s3, 16); s11 += s15; s7 = Integer.rotateRight(s7 ^ s11, 12);
        s3 += s7 + m6; s15 = Integer.rotateRight(s15 ^ s3, 8); s11 += s15; s7 = Integer.rotateRight(s7 ^ s11, 7);
        s0 += s5 + m14; s15 = Integer.rotateRight(s15 ^ s0, 16); s10 += s15; s5 = Integer.rotateRight(s5 ^ s10, 12);
        s0 += s5 + m10; s15 = Integer.rotateRight(s15 ^ s0, 8); s10 += s15; s5 = Integer.rotateRight(s5 ^ s10, 7);
        s1 += s6 + m2; s12 = Integer.rotateRight(s12 ^ s1, 16); s11 += s12; s6 = Integer.rotateRight(s6 ^ s11, 12);
        s1 += s6 + m12; s12 = Integer.rotateRight(s12 ^ s1, 8); s11 += s12; s6 = Integer.rotateRight(s6 ^ s11, 7);
        s2 += s7 + m3; s13 = Integer.rotateRight(s13 ^ s2, 16); s8 += s13; s7 = Integer.rotateRight(s7 ^ s8, 12);
        s2 += s7 + m4; s13 = Integer.rotateRight(s13 ^ s2, 8); s8 += s13; s7 = Integer.rotateRight(s7 ^ s8, 7);
        s3 += s4 + m7; s14 = Integer.rotateRight(s14 ^ s3, 16); s9 += s14; s4 = Integer.rotateRight(s4 ^ s9, 12);
        s3 += s4 + m13; s14 = Integer.rotateRight(s14 ^ s3, 8); s9 += s14; s4 = Integer.rotateRight(s4 ^ s9, 7);
        s[0] = s0 ^ s8; s[1] = s1 ^ s9; s[2] = s2 ^ s10; s[3] = s3 ^ s11;
        s[4] = s4 ^ s12; s[5] = s5 ^ s13; s[6] = s6 ^ s14; s[7] = s7 ^ s15;
        s[8] = s8; s[9] = s9; s[10] = s10; s[11] = s11; s[12] = s12; s[13] = s13; s[14] = s14; s[15] = s15;
    }
}
