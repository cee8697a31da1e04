package io.chunkhash;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * CRC-64/NVME in plain Java, slicing by 8 (eight bytes per step through eight
 * 256-entry tables). The parameters are those of the CRC catalogue's entry
 * (reveng.sourceforge.io/crc-catalogue, "CRC-64/NVME"): polynomial
 * 0xad93d23594c93659, reflected input and output, init and xorout all ones,
 * check 0xae8b14860a799888. Long inputs go to the native library, whose
 * carry-less multiplication is much faster ({@link ShortPath}).
 */
final class JavaCrc64Nvme {
    private JavaCrc64Nvme() {}

    private static final long POLY_REFLECTED = Long.reverse(0xad93d23594c93659L);
    private static final long[][] TABLE = new long[8][256];
    private static final VarHandle LE64 = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    static {
        for (int b = 0; b < 256; b++) {
            long crc = b;
            for (int k = 0; k < 8; k++) {
                crc = (crc >>> 1) ^ ((crc & 1) == 0 ? 0 : POLY_REFLECTED);
            }
            TABLE[0][b] = crc;
        }
        // TABLE[k][b]: the CRC register after byte b followed by k zero bytes.
        for (int k = 1; k < 8; k++) {
            for (int b = 0; b < 256; b++) {
                long prev = TABLE[k - 1][b];
                TABLE[k][b] = (prev >>> 8) ^ TABLE[0][(int) prev & 0xff];
            }
        }
    }

    /** The CRC of {@code len} bytes of {@code in} from {@code off} (the caller checked the range). */
    static long value(byte[] in, int off, int len) {
        long[] t0 = TABLE[0], t1 = TABLE[1], t2 = TABLE[2], t3 = TABLE[3];
        long[] t4 = TABLE[4], t5 = TABLE[5], t6 = TABLE[6], t7 = TABLE[7];
        long crc = ~0L;
        int end = off + len;
        for (; end - off >= 8; off += 8) {
            long x = crc ^ (long) LE64.get(in, off);
            crc = t7[(int) x & 0xff] ^ t6[(int) (x >>> 8) & 0xff] ^ t5[(int) (x >>> 16) & 0xff]
                    ^ t4[(int) (x >>> 24) & 0xff] ^ t3[(int) (x >>> 32) & 0xff] ^ t2[(int) (x >>> 40) & 0xff]
                    ^ t1[(int) (x >>> 48) & 0xff] ^ t0[(int) (x >>> 56)];
        }
        for (; off < end; off++) {
            crc = (crc >>> 8) ^ t0[(int) (crc ^ in[off]) & 0xff];
        }
        return ~crc;
    }
}
