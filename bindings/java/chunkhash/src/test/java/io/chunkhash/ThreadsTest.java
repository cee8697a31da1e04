package io.chunkhash;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;

/** Many threads share the library (and one hasher) and get the single-threaded answers. */
class ThreadsTest {
    private static final int THREADS = 8;

    @Test
    void threadsShareTheLibrary() throws Exception {
        SplittableRandom random = TestSupport.random("ThreadsTest", 0x746872656164L);
        byte[][] inputs = new byte[64][];
        byte[][] expected = new byte[inputs.length][];
        for (int i = 0; i < inputs.length; i++) {
            inputs[i] = TestSupport.bytes(random, TestSupport.length(random));
            expected[i] = DifferentialTest.bouncy(null, inputs[i], 32);
        }
        Object[] packed = TestSupport.pack(inputs);
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        try {
            List<Future<Integer>> results = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                int offset = t;
                results.add(pool.submit(() -> {
                    int checked = 0;
                    for (int round = 0; round < 20; round++) {
                        int i = (offset + round * 7) % inputs.length;
                        assertArrayEquals(expected[i], Blake3.hash(inputs[i]));
                        try (Blake3.Hasher h = new Blake3.Hasher()) {
                            assertArrayEquals(expected[i], h.update(inputs[i]).digest());
                        }
                        byte[] many = Blake3.hashMany((byte[]) packed[0], (int[]) packed[1]);
                        assertArrayEquals(expected[i], TestSupport.slice(many, 32 * i, 32));
                        CRC32C jdk = new CRC32C();
                        jdk.update(inputs[i]);
                        assertEquals(jdk.getValue(), Checksums.value(Algorithm.CRC32C, inputs[i]));
                        checked++;
                    }
                    return checked;
                }));
            }
            for (Future<Integer> r : results) {
                assertEquals(20, r.get());
            }

            // One streaming checksum fed by all threads at once: updates are serialised, none is lost.
            try (StreamingChecksum shared = Checksums.crc32c(); StreamingChecksum reference = Checksums.crc32c()) {
                byte[] ones = new byte[1000];
                java.util.Arrays.fill(ones, (byte) 1);
                List<Future<?>> feeds = new ArrayList<>();
                for (int t = 0; t < THREADS; t++) {
                    feeds.add(pool.submit(() -> {
                        for (int k = 0; k < 50; k++) shared.update(ones, 0, ones.length);
                    }));
                }
                for (Future<?> f : feeds) f.get();
                for (int k = 0; k < THREADS * 50; k++) reference.update(ones, 0, ones.length);
                assertEquals(reference.getValue(), shared.getValue(), "identical bytes in any order give one CRC");
            }
        } finally {
            pool.shutdown();
        }
    }

    @Test
    void unclosedHashersAreCleaned() throws Exception {
        // Hashers dropped without close() are freed by the cleaner; this must neither crash nor leak without bound.
        for (int i = 0; i < 20_000; i++) {
            new Blake3.Hasher().update(new byte[] {(byte) i});
            Checksums.xxh3_64().update(new byte[] {(byte) i}, 0, 1);
        }
        System.gc();
        try (Blake3.Hasher h = new Blake3.Hasher()) {
            assertArrayEquals(Blake3.hash(new byte[0]), h.digest());
        }
    }
}
