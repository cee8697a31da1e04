package io.chunkhash;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * XXH3-64 and XXH3-128 (seed 0, the default secret) of inputs of at most 240 bytes, in plain
 * Java: the short-input paths of the XXH3 specification (xxHash's
 * {@code doc/xxhash_spec.md}, "XXH3 algorithm description": lengths 0, 1-3, 4-8,
 * 9-16, 17-128 and 129-240), which need neither stripes nor the accumulator
 * loop. Longer inputs go to the native library ({@link ShortPath}).
 */
final class JavaXxh3 {
    private JavaXxh3() {}

    /** The longest input this class hashes: the specification's "mid-size" limit. */
    static final int MAX_LEN = 240;

    private static final long PRIME32_2 = 0x85EBCA77L;
    private static final long PRIME64_1 = 0x9E3779B185EBCA87L;
    private static final long PRIME64_2 = 0xC2B2AE3D27D4EB4FL;
    private static final long PRIME64_3 = 0x165667B19E3779F9L;
    private static final long PRIME64_4 = 0x85EBCA77C2B2AE63L;
    private static final long PRIME_MX1 = 0x165667919E3779F9L;
    private static final long PRIME_MX2 = 0x9FB21C651E98DF25L;

    private static final VarHandle LE64 = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle LE32 = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);

    /** The default secret, kSecret of the specification (192 bytes; the short paths read the first 136). */
    private static final byte[] SECRET = {
        (byte) 0xb8, (byte) 0xfe, (byte) 0x6c, (byte) 0x39, (byte) 0x23, (byte) 0xa4, (byte) 0x4b, (byte) 0xbe,
        (byte) 0x7c, (byte) 0x01, (byte) 0x81, (byte) 0x2c, (byte) 0xf7, (byte) 0x21, (byte) 0xad, (byte) 0x1c,
        (byte) 0xde, (byte) 0xd4, (byte) 0x6d, (byte) 0xe9, (byte) 0x83, (byte) 0x90, (byte) 0x97, (byte) 0xdb,
        (byte) 0x72, (byte) 0x40, (byte) 0xa4, (byte) 0xa4, (byte) 0xb7, (byte) 0xb3, (byte) 0x67, (byte) 0x1f,
        (byte) 0xcb, (byte) 0x79, (byte) 0xe6, (byte) 0x4e, (byte) 0xcc, (byte) 0xc0, (byte) 0xe5, (byte) 0x78,
        (byte) 0x82, (byte) 0x5a, (byte) 0xd0, (byte) 0x7d, (byte) 0xcc, (byte) 0xff, (byte) 0x72, (byte) 0x21,
        (byte) 0xb8, (byte) 0x08, (byte) 0x46, (byte) 0x74, (byte) 0xf7, (byte) 0x43, (byte) 0x24, (byte) 0x8e,
        (byte) 0xe0, (byte) 0x35, (byte) 0x90, (byte) 0xe6, (byte) 0x81, (byte) 0x3a, (byte) 0x26, (byte) 0x4c,
        (byte) 0x3c, (byte) 0x28, (byte) 0x52, (byte) 0xbb, (byte) 0x91, (byte) 0xc3, (byte) 0x00, (byte) 0xcb,
        (byte) 0x88, (byte) 0xd0, (byte) 0x65, (byte) 0x8b, (byte) 0x1b, (byte) 0x53, (byte) 0x2e, (byte) 0xa3,
        (byte) 0x71, (byte) 0x64, (byte) 0x48, (byte) 0x97, (byte) 0xa2, (byte) 0x0d, (byte) 0xf9, (byte) 0x4e,
        (byte) 0x38, (byte) 0x19, (byte) 0xef, (byte) 0x46, (byte) 0xa9, (byte) 0xde, (byte) 0xac, (byte) 0xd8,
        (byte) 0xa8, (byte) 0xfa, (byte) 0x76, (byte) 0x3f, (byte) 0xe3, (byte) 0x9c, (byte) 0x34, (byte) 0x3f,
        (byte) 0xf9, (byte) 0xdc, (byte) 0xbb, (byte) 0xc7, (byte) 0xc7, (byte) 0x0b, (byte) 0x4f, (byte) 0x1d,
        (byte) 0x8a, (byte) 0x51, (byte) 0xe0, (byte) 0x4b, (byte) 0xcd, (byte) 0xb4, (byte) 0x59, (byte) 0x31,
        (byte) 0xc8, (byte) 0x9f, (byte) 0x7e, (byte) 0xc9, (byte) 0xd9, (byte) 0x78, (byte) 0x73, (byte) 0x64,
        (byte) 0xea, (byte) 0xc5, (byte) 0xac, (byte) 0x83, (byte) 0x34, (byte) 0xd3, (byte) 0xeb, (byte) 0xc3,
        (byte) 0xc5, (byte) 0x81, (byte) 0xa0, (byte) 0xff, (byte) 0xfa, (byte) 0x13, (byte) 0x63, (byte) 0xeb,
        (byte) 0x17, (byte) 0x0d, (byte) 0xdd, (byte) 0x51, (byte) 0xb7, (byte) 0xf0, (byte) 0xda, (byte) 0x49,
        (byte) 0xd3, (byte) 0x16, (byte) 0x55, (byte) 0x26, (byte) 0x29, (byte) 0xd4, (byte) 0x68, (byte) 0x9e,
        (byte) 0x2b, (byte) 0x16, (byte) 0xbe, (byte) 0x58, (byte) 0x7d, (byte) 0x47, (byte) 0xa1, (byte) 0xfc,
        (byte) 0x8f, (byte) 0xf8, (byte) 0xb8, (byte) 0xd1, (byte) 0x7a, (byte) 0xd0, (byte) 0x31, (byte) 0xce,
        (byte) 0x45, (byte) 0xcb, (byte) 0x3a, (byte) 0x8f, (byte) 0x95, (byte) 0x16, (byte) 0x04, (byte) 0x28,
        (byte) 0xaf, (byte) 0xd7, (byte) 0xfb, (byte) 0xca, (byte) 0xbb, (byte) 0x4b, (byte) 0x40, (byte) 0x7e,
    };

    /** XXH3-64 of {@code len <= MAX_LEN} bytes of {@code in} from {@code off} (the caller checked the range). */
    static long hash64(byte[] in, int off, int len) {
        if (len <= 16) {
            if (len > 8) {
                long lo = le64(in, off) ^ (secret64(24) ^ secret64(32));
                long hi = le64(in, off + len - 8) ^ (secret64(40) ^ secret64(48));
                long acc = len + Long.reverseBytes(lo) + hi + fold64(lo, hi);
                return avalanche(acc);
            }
            if (len >= 4) {
                long in1 = le32(in, off) & 0xFFFFFFFFL;
                long in2 = le32(in, off + len - 4) & 0xFFFFFFFFL;
                long keyed = (in2 + (in1 << 32)) ^ (secret64(8) ^ secret64(16));
                return rrmxmx(keyed, len);
            }
            if (len > 0) {
                int c1 = in[off] & 0xFF;
                int c2 = in[off + (len >> 1)] & 0xFF;
                int c3 = in[off + len - 1] & 0xFF;
                long combined = ((c1 << 16) | (c2 << 24) | c3 | (len << 8)) & 0xFFFFFFFFL;
                long bitflip = (secret32(0) ^ secret32(4)) & 0xFFFFFFFFL;
                return xxh64Avalanche(combined ^ bitflip);
            }
            return xxh64Avalanche(secret64(56) ^ secret64(64));
        }
        long acc = len * PRIME64_1;
        if (len <= 128) {
            if (len > 32) {
                if (len > 64) {
                    if (len > 96) {
                        acc += mix16(in, off + 48, 96);
                        acc += mix16(in, off + len - 64, 112);
                    }
                    acc += mix16(in, off + 32, 64);
                    acc += mix16(in, off + len - 48, 80);
                }
                acc += mix16(in, off + 16, 32);
                acc += mix16(in, off + len - 32, 48);
            }
            acc += mix16(in, off, 0);
            acc += mix16(in, off + len - 16, 16);
            return avalanche(acc);
        }
        int rounds = len / 16;
        for (int i = 0; i < 8; i++) {
            acc += mix16(in, off + 16 * i, 16 * i);
        }
        acc = avalanche(acc);
        for (int i = 8; i < rounds; i++) {
            acc += mix16(in, off + 16 * i, 16 * (i - 8) + 3); // MIDSIZE_STARTOFFSET
        }
        acc += mix16(in, off + len - 16, 136 - 17); // SECRET_SIZE_MIN - MIDSIZE_LASTOFFSET
        return avalanche(acc);
    }

    /**
     * XXH3-128 of {@code len <= MAX_LEN} bytes from {@code off} into {@code out} at {@code outOff}: 16 bytes,
     * the high half first, big-endian (as xxhsum prints it and the registry orders it).
     */
    static void hash128(byte[] in, int off, int len, byte[] out, int outOff) {
        long low;
        long high;
        if (len <= 16) {
            if (len > 8) {
                long bitflipLow = secret64(32) ^ secret64(40);
                long bitflipHigh = secret64(48) ^ secret64(56);
                long inLow = le64(in, off);
                long inHigh = le64(in, off + len - 8);
                long x = inLow ^ inHigh ^ bitflipLow;
                long mLow = x * PRIME64_1;
                long mHigh = unsignedMultiplyHigh(x, PRIME64_1);
                mLow += (long) (len - 1) << 54;
                inHigh ^= bitflipHigh;
                mHigh += inHigh + (inHigh & 0xFFFFFFFFL) * (PRIME32_2 - 1);
                mLow ^= Long.reverseBytes(mHigh);
                low = mLow * PRIME64_2;
                high = unsignedMultiplyHigh(mLow, PRIME64_2) + mHigh * PRIME64_2;
                low = avalanche(low);
                high = avalanche(high);
            } else if (len >= 4) {
                long inLow = le32(in, off) & 0xFFFFFFFFL;
                long inHigh = le32(in, off + len - 4) & 0xFFFFFFFFL;
                long keyed = (inLow + (inHigh << 32)) ^ (secret64(16) ^ secret64(24));
                long multiplier = PRIME64_1 + ((long) len << 2);
                long mLow = keyed * multiplier;
                long mHigh = unsignedMultiplyHigh(keyed, multiplier);
                mHigh += mLow << 1;
                mLow ^= mHigh >>> 3;
                mLow ^= mLow >>> 35;
                mLow *= PRIME_MX2;
                mLow ^= mLow >>> 28;
                low = mLow;
                high = avalanche(mHigh);
            } else if (len > 0) {
                int c1 = in[off] & 0xFF;
                int c2 = in[off + (len >> 1)] & 0xFF;
                int c3 = in[off + len - 1] & 0xFF;
                int combinedLow = (c1 << 16) | (c2 << 24) | c3 | (len << 8);
                int combinedHigh = Integer.rotateLeft(Integer.reverseBytes(combinedLow), 13);
                long bitflipLow = (secret32(0) ^ secret32(4)) & 0xFFFFFFFFL;
                long bitflipHigh = (secret32(8) ^ secret32(12)) & 0xFFFFFFFFL;
                low = xxh64Avalanche((combinedLow & 0xFFFFFFFFL) ^ bitflipLow);
                high = xxh64Avalanche((combinedHigh & 0xFFFFFFFFL) ^ bitflipHigh);
            } else {
                low = xxh64Avalanche(secret64(64) ^ secret64(72));
                high = xxh64Avalanche(secret64(80) ^ secret64(88));
            }
        } else {
            long accLow = len * PRIME64_1;
            long accHigh = 0;
            // mix32 of the specification, written out so that the accumulator stays in two locals: each step
            // adds a 16-byte mix to one half and xors the other piece's sum into it.
            int rounds = len <= 128 ? (len - 1) / 32 + 1 : len / 32;
            for (int i = 0; i < rounds; i++) {
                int at1;
                int at2;
                int secretAt;
                if (len <= 128) { // pieces from both ends, the innermost first (i = rounds - 1 is the outermost)
                    int k = rounds - 1 - i;
                    at1 = off + 16 * k;
                    at2 = off + len - 16 * (k + 1);
                    secretAt = 32 * k;
                } else {
                    at1 = off + 32 * i;
                    at2 = at1 + 16;
                    secretAt = i < 4 ? 32 * i : 3 + 32 * (i - 4); // MIDSIZE_STARTOFFSET
                }
                accLow += mix16(in, at1, secretAt);
                accLow ^= le64(in, at2) + le64(in, at2 + 8);
                accHigh += mix16(in, at2, secretAt + 16);
                accHigh ^= le64(in, at1) + le64(in, at1 + 8);
                if (len > 128 && i == 3) {
                    accLow = avalanche(accLow);
                    accHigh = avalanche(accHigh);
                }
            }
            if (len > 128) { // the last 32 bytes, backwards: SECRET_SIZE_MIN - MIDSIZE_LASTOFFSET - 16
                int at1 = off + len - 16;
                int at2 = off + len - 32;
                int secretAt = 136 - 17 - 16;
                accLow += mix16(in, at1, secretAt);
                accLow ^= le64(in, at2) + le64(in, at2 + 8);
                accHigh += mix16(in, at2, secretAt + 16);
                accHigh ^= le64(in, at1) + le64(in, at1 + 8);
            }
            low = avalanche(accLow + accHigh);
            high = -avalanche(accLow * PRIME64_1 + accHigh * PRIME64_4 + len * PRIME64_2);
        }
        for (int i = 7; i >= 0; i--, high >>>= 8) out[outOff + i] = (byte) high;
        for (int i = 15; i >= 8; i--, low >>>= 8) out[outOff + i] = (byte) low;
    }

    private static long mix16(byte[] in, int at, int secretAt) {
        return fold64(le64(in, at) ^ secret64(secretAt), le64(in, at + 8) ^ secret64(secretAt + 8));
    }

    /** The 128-bit product of a and b (unsigned), its two halves xored. */
    private static long fold64(long a, long b) {
        return a * b ^ unsignedMultiplyHigh(a, b);
    }

    /** The high half of the unsigned 128-bit product (Java 18's Math.unsignedMultiplyHigh; this is Java 11). */
    private static long unsignedMultiplyHigh(long a, long b) {
        return Math.multiplyHigh(a, b) + ((a >> 63) & b) + ((b >> 63) & a);
    }

    private static long avalanche(long h) {
        h ^= h >>> 37;
        h *= PRIME_MX1;
        return h ^ (h >>> 32);
    }

    private static long xxh64Avalanche(long h) {
        h ^= h >>> 33;
        h *= PRIME64_2;
        h ^= h >>> 29;
        h *= PRIME64_3;
        return h ^ (h >>> 32);
    }

    private static long rrmxmx(long h, int len) {
        h ^= Long.rotateLeft(h, 49) ^ Long.rotateLeft(h, 24);
        h *= PRIME_MX2;
        h ^= (h >>> 35) + len;
        h *= PRIME_MX2;
        return h ^ (h >>> 28);
    }

    private static long le64(byte[] b, int at) {
        return (long) LE64.get(b, at);
    }

    private static int le32(byte[] b, int at) {
        return (int) LE32.get(b, at);
    }

    private static long secret64(int at) {
        return (long) LE64.get(SECRET, at);
    }

    private static int secret32(int at) {
        return (int) LE32.get(SECRET, at);
    }
}
