package io.chunkhash;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntConsumer;
import org.junit.jupiter.api.Test;

/**
 * Another thread writes into an input while it is hashed. The digest is then of some mix of old and new
 * bytes (only its length is known), never a crash or a read outside the input: the native side reads the
 * length fixed at the call (a byte[]'s length never changes; a direct buffer's memory is its capacity,
 * held by the buffer object for the call). Once the writer stops, the digest is that of the final bytes.
 */
class ConcurrentWriteTest {
    private static final int SIZE = 32 << 20;

    /** Runs {@code hashes} while a thread writes {@code write(value)} slices, then stops the writer. */
    private static void whileWritten(IntConsumer write, Runnable hashes) throws Exception {
        AtomicBoolean stop = new AtomicBoolean();
        AtomicInteger rounds = new AtomicInteger();
        Thread writer = new Thread(() -> {
            int value = 1;
            while (!stop.get()) {
                write.accept(value);
                value = value % 255 + 1;
                rounds.incrementAndGet();
            }
        });
        writer.start();
        try {
            while (rounds.get() == 0) {
                Thread.onSpinWait(); // the writer runs before the first hash
            }
            hashes.run();
        } finally {
            stop.set(true);
            writer.join();
        }
        assertTrue(rounds.get() > 0);
    }

    private static byte[] sha256(byte[] bytes) throws Exception {
        return MessageDigest.getInstance("SHA-256").digest(bytes);
    }

    @Test
    void aByteArrayWrittenWhileHashed() throws Exception {
        byte[] data = new byte[SIZE];
        whileWritten(value -> {
            for (int start = 0; start < SIZE; start += 1 << 20) {
                java.util.Arrays.fill(data, start, start + 4096, (byte) value);
            }
        }, () -> {
            for (int round = 0; round < 3; round++) {
                assertEquals(32, Blake3.hash(data).length);
                try (Blake3.Hasher hasher = new Blake3.Hasher()) {
                    assertEquals(32, hasher.update(data).digest().length);
                }
                assertEquals(32, Checksums.of(Algorithm.SHA_256, data).length);
                assertEquals(8, Checksums.of(Algorithm.XXH3_64, data, 1, SIZE - 1).length);
            }
        });
        byte[] last = data.clone();
        assertArrayEquals(DifferentialTest.bouncy(null, last, 32), Blake3.hash(data));
        assertArrayEquals(sha256(last), Checksums.of(Algorithm.SHA_256, data));
    }

    @Test
    void aDirectBufferWrittenWhileHashed() throws Exception {
        ByteBuffer data = ByteBuffer.allocateDirect(SIZE);
        whileWritten(value -> {
            for (int start = 0; start < SIZE; start += 1 << 20) {
                for (int i = 0; i < 4096; i += 8) {
                    data.putLong(start + i, value * 0x0101010101010101L);
                }
            }
        }, () -> {
            for (int round = 0; round < 3; round++) {
                assertEquals(32, Blake3.hash(data).length);
                try (Blake3.Hasher hasher = new Blake3.Hasher()) {
                    assertEquals(32, hasher.update(data.duplicate()).digest().length);
                }
                assertEquals(32, Checksums.of(Algorithm.SHA_256, data).length);
            }
        });
        byte[] last = new byte[SIZE];
        data.duplicate().get(last);
        assertArrayEquals(DifferentialTest.bouncy(null, last, 32), Blake3.hash(data));
        assertArrayEquals(sha256(last), Checksums.of(Algorithm.SHA_256, data));
    }
}
