package io.chunkhash;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/** Every bad input gets its exception and message, from the Java checks and from the native ones behind them. */
class BadInputTest {
    private static final byte[] VALUES = new byte[10];
    private static final byte[] KEY = new byte[32];

    static void throwsWith(Class<? extends Throwable> type, String message, Executable call) {
        Throwable e = assertThrows(type, call);
        assertEquals(message, e.getMessage());
    }

    @Test
    void nulls() {
        throwsWith(NullPointerException.class, "input is null", () -> Blake3.hash((byte[]) null));
        throwsWith(NullPointerException.class, "input is null", () -> Blake3.hash((ByteBuffer) null));
        throwsWith(NullPointerException.class, "key is null", () -> Blake3.keyedHash(null, VALUES));
        throwsWith(NullPointerException.class, "context is null", () -> Blake3.deriveKey(null, VALUES));
        throwsWith(NullPointerException.class, "key material is null", () -> Blake3.deriveKey("c", null));
        throwsWith(NullPointerException.class, "values is null", () -> Blake3.hashMany(null, new int[] {0}));
        throwsWith(NullPointerException.class, "offsets is null", () -> Blake3.hashMany(VALUES, null));
        throwsWith(NullPointerException.class, "buffers is null", () -> Blake3.hashMany((List<ByteBuffer>) null));
        throwsWith(NullPointerException.class, "buffers[1] is null",
                () -> Blake3.hashMany(Arrays.asList(ByteBuffer.allocate(1), null)));
        throwsWith(NullPointerException.class, "algorithm is null", () -> Checksums.of(null, VALUES));
        throwsWith(NullPointerException.class, "input is null", () -> Checksums.of(Algorithm.CRC32C, (byte[]) null));
        throwsWith(NullPointerException.class, "name is null", () -> Algorithm.fromName(null));
        try (Blake3.Hasher h = new Blake3.Hasher(); StreamingChecksum s = Checksums.crc32c()) {
            throwsWith(NullPointerException.class, "input is null", () -> h.update((byte[]) null));
            throwsWith(NullPointerException.class, "out is null", () -> h.output(0, null));
            throwsWith(NullPointerException.class, "input is null", () -> s.update((byte[]) null, 0, 0));
        }
    }

    @Test
    void nativeSideChecksNullsToo() {
        throwsWith(NullPointerException.class, "input is null", () -> Native.blake3(0, null, null, 0, 0, new byte[32]));
        throwsWith(NullPointerException.class, "output is null", () -> Native.blake3(0, null, VALUES, 0, 0, null));
        throwsWith(NullPointerException.class, "key is null", () -> Native.blake3(1, null, VALUES, 0, 0, new byte[32]));
        throwsWith(NullPointerException.class, "buffer is null", () -> Native.digestDirect(7, null, 0, 0, new byte[4]));
        throwsWith(NullPointerException.class, "offsets is null",
                () -> Native.digestMany(7, VALUES, null, new byte[4]));
    }

    @Test
    void rangesOutsideTheArray() {
        assertThrows(IndexOutOfBoundsException.class, () -> Blake3.hash(VALUES, 5, 6));
        assertThrows(IndexOutOfBoundsException.class, () -> Blake3.hash(VALUES, -1, 2));
        assertThrows(IndexOutOfBoundsException.class, () -> Checksums.of(Algorithm.SHA_256, VALUES, 0, 11));
        assertThrows(IndexOutOfBoundsException.class, () -> Checksums.crc32c().update(VALUES, 8, 3));
        // Past the Java checks, the native side refuses too.
        throwsWith(IllegalArgumentException.class, "input: offset 5 and length 6 are outside its 10 bytes",
                () -> Native.blake3(0, null, VALUES, 5, 6, new byte[32]));
        throwsWith(IllegalArgumentException.class, "input: offset -1 and length 2 are outside its 10 bytes",
                () -> Native.value(7, VALUES, -1, 2));
        throwsWith(IllegalArgumentException.class, "buffer: offset 0 and length 11 are outside its 10 bytes",
                () -> Native.digestDirect(7, ByteBuffer.allocateDirect(10), 0, 11, new byte[4]));
        throwsWith(IllegalArgumentException.class, "the buffer is not direct",
                () -> Native.digestDirect(7, ByteBuffer.allocate(10), 0, 1, new byte[4]));
        throwsWith(IllegalArgumentException.class, "output: 31 bytes, expected 4",
                () -> Native.digest(7, VALUES, 0, 1, new byte[31]));
    }

    @Test
    void badOffsets() {
        throwsWith(IllegalArgumentException.class, "offsets is empty; n values need n + 1 offsets",
                () -> Blake3.hashMany(VALUES, new int[0]));
        throwsWith(IllegalArgumentException.class, "offsets[2] is 3, below offsets[1] = 5: offsets must ascend",
                () -> Blake3.hashMany(VALUES, new int[] {0, 5, 3}));
        throwsWith(IllegalArgumentException.class, "offsets[1] is 11, past the 10 bytes of values",
                () -> Blake3.hashMany(VALUES, new int[] {0, 11}));
        throwsWith(IllegalArgumentException.class, "offsets[0] is -1, outside the 10 bytes of values",
                () -> Checksums.ofMany(Algorithm.CRC32C, VALUES, new int[] {-1, 2}));
        throwsWith(IllegalArgumentException.class, "offsets[0] is 11, outside the 10 bytes of values",
                () -> Checksums.valueMany(Algorithm.XXH3_64, VALUES, new int[] {11}));
        throwsWith(IllegalArgumentException.class, "offsets[1] is -5, below offsets[0] = 0: offsets must ascend",
                () -> Blake3.addressMany(VALUES, new int[] {0, -5}));
        throwsWith(IllegalArgumentException.class, "output: 31 bytes for 1 values of 32 bytes",
                () -> Native.blake3Many(0, null, 32, VALUES, new int[] {0, 1}, new byte[31]));
        throwsWith(IllegalArgumentException.class, "batch output length 7: 32 (hash) or 20 (address)",
                () -> Native.blake3Many(0, null, 7, VALUES, new int[] {0, 1}, new byte[7]));
        throwsWith(IllegalArgumentException.class, "3 buffers with 2 positions and 3 lengths",
                () -> Native.digestManyDirect(7, new ByteBuffer[3], new int[2], new int[3], new byte[12]));
        throwsWith(IllegalArgumentException.class, "buffers[0] is null",
                () -> Native.digestManyDirect(7, new ByteBuffer[1], new int[1], new int[1], new byte[4]));
        throwsWith(IllegalArgumentException.class, "buffer: offset 0 and length 5 are outside its 4 bytes",
                () -> Native.blake3ManyDirect(0, null, 32, new ByteBuffer[] {ByteBuffer.allocateDirect(4)},
                        new int[1], new int[] {5}, new byte[32]));
    }

    @Test
    void badKeysContextsAndLengths() {
        throwsWith(IllegalArgumentException.class, "key: 31 bytes, a BLAKE3 key is 32",
                () -> Blake3.keyedHash(new byte[31], VALUES));
        throwsWith(IllegalArgumentException.class, "key: 33 bytes, a BLAKE3 key is 32",
                () -> Blake3.Hasher.keyed(new byte[33]));
        throwsWith(IllegalArgumentException.class, "key: 0 bytes, a BLAKE3 key is 32",
                () -> Blake3.keyedHashMany(new byte[0], VALUES, new int[] {0}));
        throwsWith(IllegalArgumentException.class, "key: 16 bytes, a BLAKE3 key is 32",
                () -> Native.blake3(1, new byte[16], VALUES, 0, 0, new byte[32]));
        throwsWith(IllegalArgumentException.class, "context: not valid UTF-8",
                () -> Native.blake3(2, new byte[] {(byte) 0xff}, VALUES, 0, 0, new byte[32]));
        throwsWith(IllegalArgumentException.class, "unknown BLAKE3 mode 3",
                () -> Native.blake3(3, KEY, VALUES, 0, 0, new byte[32]));
        throwsWith(IllegalArgumentException.class, "output length -1 is negative", () -> Blake3.hash(VALUES, -1));
        throwsWith(IllegalArgumentException.class, "output position -1 is negative",
                () -> new Blake3.Hasher().output(-1, new byte[1]));
        long handle = Native.blake3HasherNew(0, null);
        try {
            throwsWith(IllegalArgumentException.class, "output position -2 is negative",
                    () -> Native.blake3HasherOutput(handle, -2, new byte[1]));
        } finally {
            Native.blake3HasherFree(handle);
        }
    }

    @Test
    void unknownAlgorithms() {
        throwsWith(IllegalArgumentException.class, "unknown algorithm id 0 (ids are 1 to 16)",
                () -> Algorithm.fromId(0));
        throwsWith(IllegalArgumentException.class, "unknown algorithm id 17 (ids are 1 to 16)",
                () -> Algorithm.fromId(17));
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> Algorithm.fromName("md4"));
        assertEquals(true, e.getMessage().contains("md4"), e.getMessage());
        throwsWith(IllegalArgumentException.class, "unknown algorithm id 99", () -> Native.digest(99, VALUES, 0, 0,
                new byte[4]));
        throwsWith(IllegalArgumentException.class, "unknown algorithm id -1", () -> Native.streamNew(-1));
        throwsWith(IllegalArgumentException.class, "unknown algorithm id 256", () -> Native.value(256, VALUES, 0, 0));
    }

    @Test
    void valuesOfLongDigests() {
        throwsWith(IllegalArgumentException.class, "SHA-256 has a 32-byte digest, not a 64-bit value; use of()",
                () -> Checksums.value(Algorithm.SHA_256, VALUES));
        throwsWith(IllegalArgumentException.class, "XXH3-128 has a 16-byte digest, not a 64-bit value; use of()",
                () -> Checksums.valueMany(Algorithm.XXH3_128, VALUES, new int[] {0}));
        throwsWith(IllegalArgumentException.class, "a 16-byte digest is not a 64-bit value",
                () -> Native.value(4, VALUES, 0, 0));
        throwsWith(IllegalArgumentException.class, "XXH3-128: a 16-byte digest is not a 64-bit value",
                () -> Native.valueMany(4, VALUES, new int[] {0}, new long[0]));
        try (StreamingChecksum s = Checksums.newHasher(Algorithm.BLAKE3)) {
            throwsWith(IllegalStateException.class, "BLAKE3 has a 32-byte digest, not a 64-bit value; use digest()",
                    s::getValue);
        }
    }

    @Test
    void aRustPanicBecomesAnException() {
        throwsWith(IllegalStateException.class, "chunkhash: internal error (a bug in chunkhash)", Native::panicForTests);
        assertEquals(32, Blake3.hash(VALUES).length, "the library goes on working");
    }

    @Test
    void closedHashers() {
        Blake3.Hasher h = new Blake3.Hasher();
        h.close();
        h.close(); // twice is harmless
        throwsWith(IllegalStateException.class, "the hasher is closed", () -> h.update(VALUES));
        throwsWith(IllegalStateException.class, "the hasher is closed", h::digest);
        StreamingChecksum s = Checksums.xxh64();
        s.close();
        throwsWith(IllegalStateException.class, "the hasher is closed", s::getValue);
        throwsWith(IllegalStateException.class, "the hasher is closed", s::reset);
        // The native side refuses the closed handle 0 as well.
        throwsWith(IllegalStateException.class, "the hasher is closed", () -> Native.blake3HasherReset(0));
        throwsWith(IllegalStateException.class, "the hasher is closed", () -> Native.streamValue(0));
    }
}
