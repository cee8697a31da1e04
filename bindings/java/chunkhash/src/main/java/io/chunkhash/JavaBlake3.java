package io.chunkhash;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * BLAKE3 of inputs of at most one chunk (1024 bytes), in plain Java, written
 * from the BLAKE3 paper (section 2: the compression function, chunk chaining,
 * the root output and its extension): the chunk's 64-byte blocks compressed
 * one after the other, the first with CHUNK_START, the last with CHUNK_END
 * and ROOT. One chunk is a whole tree, so there are no parent nodes. All three
 * modes (plain, keyed, derive-key) and any output length.
 *
 * <p>{@link Blake3} uses it for inputs of up to {@link ShortPath#BLAKE3_MAX}
 * bytes and outputs of up to {@link ShortPath#BLAKE3_OUT_MAX}, where a native
 * call costs more than the whole hash here (the measured switch-over is in
 * {@link ShortPath}); the tests compare it with the native library at every
 * length it takes, in all three modes.
 */
final class JavaBlake3 {
    private JavaBlake3() {}

    /** The longest input: one chunk. */
    static final int MAX_LEN = 1024;

    private static final int BLOCK_LEN = 64;
    private static final int CHUNK_START = 1;
    private static final int CHUNK_END = 2;
    private static final int ROOT = 8;
    /** The mode flags (the BLAKE3 paper's domain separation flags). */
    static final int KEYED_HASH = 16;
    static final int DERIVE_KEY_CONTEXT = 32;
    static final int DERIVE_KEY_MATERIAL = 64;

    /** The key words of a plain hash: the IV (SHA-256's initial words). */
    static final int[] IV = {
        0x6A09E667, 0xBB67AE85, 0x3C6EF372, 0xA54FF53A, 0x510E527F, 0x9B05688C, 0x1F83D9AB, 0x5BE0CD19,
    };
    private static final int IV0 = IV[0], IV1 = IV[1], IV2 = IV[2], IV3 = IV[3];

    private static final VarHandle LE32 = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);

    /** The 8 little-endian key words of a 32-byte key. */
    static int[] keyWords(byte[] key) {
        int[] words = new int[8];
        for (int i = 0; i < 8; i++) words[i] = (int) LE32.get(key, 4 * i);
        return words;
    }

    /**
     * The key words of derive-key mode for a context of at most {@link #MAX_LEN}
     * bytes (its UTF-8): the context's hash with DERIVE_KEY_CONTEXT, whose 32
     * bytes key the hash of the key material.
     */
    static int[] contextKey(byte[] context) {
        byte[] key = new byte[32];
        hash(IV, DERIVE_KEY_CONTEXT, context, 0, context.length, key);
        return keyWords(key);
    }

    /**
     * Fills {@code out} (any length: the extended output) with the output for
     * {@code len <= MAX_LEN} bytes of {@code in} from {@code off}, under the
     * key words {@code key} ({@link #IV} for a plain hash) and mode flags
     * {@code flags} (0, {@link #KEYED_HASH} or {@link #DERIVE_KEY_MATERIAL}).
     */
    static void hash(int[] key, int flags, byte[] in, int off, int len, byte[] out) {
        if (len > MAX_LEN) { // a longer input needs the tree: past one chunk this code would be wrong, not slow
            throw new IllegalArgumentException("JavaBlake3: " + len + " bytes, at most " + MAX_LEN);
        }
        // h[0..8]: the chaining value; compress writes the next one there, and h[8..16] the rest of the output.
        int[] h = new int[16];
        System.arraycopy(key, 0, h, 0, 8);
        int at = off;
        int end = off + len;
        int start = CHUNK_START;
        // Every block but the last chains into the next; the last (possibly short or empty) is the root's input.
        while (end - at > BLOCK_LEN) {
            compress(h, in, at, 0, BLOCK_LEN, flags | start, h);
            at += BLOCK_LEN;
            start = 0;
        }
        int last = end - at;
        byte[] block = in;
        if (last < BLOCK_LEN) { // zero-padded, as the paper pads the last block
            block = new byte[BLOCK_LEN];
            System.arraycopy(in, at, block, 0, last);
            at = 0;
        }
        int rootFlags = flags | start | CHUNK_END | ROOT;
        if (out.length == 32) { // the hash: the first 8 words of one root compression
            compress(h, block, at, 0, last, rootFlags, h);
            for (int i = 0; i < 8; i++) LE32.set(out, 4 * i, h[i]);
            return;
        }
        // The extended output: block t is the root compression with counter t, all 16 words kept.
        int[] o = new int[16];
        for (int t = 0, p = 0; p < out.length; t++, p += BLOCK_LEN) {
            compress(h, block, at, t, last, rootFlags, o);
            int n = Math.min(BLOCK_LEN, out.length - p);
            int words = n >> 2;
            for (int i = 0; i < words; i++) LE32.set(out, p + 4 * i, o[i]);
            for (int i = 4 * words; i < n; i++) out[p + i] = (byte) (o[i >> 2] >>> (8 * (i & 3)));
        }
    }

    /**
     * The compression function of the 64-byte block at {@code in[at..]} under
     * the chaining value {@code cv[0..8]}; writes the 16 output words to
     * {@code s} (may be {@code cv}): s[i] ^ s[i + 8] for i < 8, then
     * s[i + 8] ^ cv[i], the paper's full output (its first 8 words are the
     * next chaining value). 7 rounds; between rounds the message words are
     * permuted in locals. (A loop, not the 7 rounds written out: the loop ran
     * 1.3-1.4x faster under C2, JDK 17, measured here at 64 and 1024 bytes.)
     */
    private static void compress(int[] cv, byte[] in, int at, long counter, int blockLen, int flags, int[] s) {
        int m0 = (int) LE32.get(in, at), m1 = (int) LE32.get(in, at + 4), m2 = (int) LE32.get(in, at + 8);
        int m3 = (int) LE32.get(in, at + 12), m4 = (int) LE32.get(in, at + 16), m5 = (int) LE32.get(in, at + 20);
        int m6 = (int) LE32.get(in, at + 24), m7 = (int) LE32.get(in, at + 28), m8 = (int) LE32.get(in, at + 32);
        int m9 = (int) LE32.get(in, at + 36), m10 = (int) LE32.get(in, at + 40), m11 = (int) LE32.get(in, at + 44);
        int m12 = (int) LE32.get(in, at + 48), m13 = (int) LE32.get(in, at + 52);
        int m14 = (int) LE32.get(in, at + 56), m15 = (int) LE32.get(in, at + 60);
        int c0 = cv[0], c1 = cv[1], c2 = cv[2], c3 = cv[3], c4 = cv[4], c5 = cv[5], c6 = cv[6], c7 = cv[7];
        int s0 = c0, s1 = c1, s2 = c2, s3 = c3, s4 = c4, s5 = c5, s6 = c6, s7 = c7;
        int s8 = IV0, s9 = IV1, s10 = IV2, s11 = IV3;
        int s12 = (int) counter, s13 = (int) (counter >>> 32), s14 = blockLen, s15 = flags;
        for (int round = 0; ; round++) {
            // G on the columns, then on the diagonals.
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
            if (round == 6) break;
            // The message permutation (2, 6, 3, 10, 7, 0, 4, 13, 1, 11, 12, 5, 9, 14, 15, 8).
            int t0 = m2, t1 = m6, t2 = m3, t3 = m10, t4 = m7, t5 = m0, t6 = m4, t7 = m13;
            int t8 = m1, t9 = m11, t10 = m12, t11 = m5, t12 = m9, t13 = m14, t14 = m15, t15 = m8;
            m0 = t0; m1 = t1; m2 = t2; m3 = t3; m4 = t4; m5 = t5; m6 = t6; m7 = t7;
            m8 = t8; m9 = t9; m10 = t10; m11 = t11; m12 = t12; m13 = t13; m14 = t14; m15 = t15;
        }
        s[0] = s0 ^ s8; s[1] = s1 ^ s9; s[2] = s2 ^ s10; s[3] = s3 ^ s11;
        s[4] = s4 ^ s12; s[5] = s5 ^ s13; s[6] = s6 ^ s14; s[7] = s7 ^ s15;
        s[8] = s8 ^ c0; s[9] = s9 ^ c1; s[10] = s10 ^ c2; s[11] = s11 ^ c3;
        s[12] = s12 ^ c4; s[13] = s13 ^ c5; s[14] = s14 ^ c6; s[15] = s15 ^ c7;
    }
}
