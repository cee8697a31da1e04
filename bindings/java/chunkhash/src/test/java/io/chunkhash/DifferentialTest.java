package io.chunkhash;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.zip.CRC32;
import java.util.zip.CRC32C;
import net.jpountz.xxhash.XXHashFactory;
import net.openhft.hashing.LongHashFunction;
import net.openhft.hashing.LongTupleHashFunction;
import org.bouncycastle.crypto.digests.Blake3Digest;
import org.bouncycastle.crypto.params.Blake3Parameters;
import org.junit.jupiter.api.Test;

/**
 * chunkhash against independent Java implementations over seeded random
 * lengths and split points: the JDK (CRC32C, CRC32, SHA-256/512, MD5, SHA-1), Bouncy
 * Castle and Commons Codec (BLAKE3), zero-allocation-hashing (XXH3-64,
 * XXH3-128, XXH64) and lz4-java (XXH64, XXH32).
 */
class DifferentialTest {
    private static final int ROUNDS = 300;
    private static final XXHashFactory LZ4 = XXHashFactory.safeInstance();

    @Test
    void againstIndependentImplementations() throws Exception {
        SplittableRandom random = TestSupport.random("DifferentialTest", 0x6368756e6b68L);
        MessageDigest sha256 = MessageDigest.getInstance("SHA-256");
        MessageDigest sha512 = MessageDigest.getInstance("SHA-512");
        MessageDigest md5 = MessageDigest.getInstance("MD5");
        MessageDigest sha1 = MessageDigest.getInstance("SHA-1");
        List<byte[]> inputs = new ArrayList<>();
        for (int round = 0; round < ROUNDS; round++) {
            int len = TestSupport.length(random);
            byte[] input = TestSupport.bytes(random, len);
            inputs.add(input);
            String what = "round " + round + ", " + len + " bytes";

            CRC32C crc32c = new CRC32C();
            crc32c.update(input);
            assertEquals(crc32c.getValue(), Checksums.value(Algorithm.CRC32C, input), what);
            CRC32 crc32 = new CRC32();
            crc32.update(input);
            assertEquals(crc32.getValue(), Checksums.value(Algorithm.CRC_32, input), what);
            assertArrayEquals(sha256.digest(input), Checksums.of(Algorithm.SHA_256, input), what);
            assertArrayEquals(sha512.digest(input), Checksums.of(Algorithm.SHA_512, input), what);
            assertArrayEquals(md5.digest(input), Checksums.of(Algorithm.MD5, input), what);
            assertArrayEquals(sha1.digest(input), Checksums.of(Algorithm.SHA_1, input), what);
            assertEquals(LongHashFunction.xx3().hashBytes(input), Checksums.value(Algorithm.XXH3_64, input), what);
            assertEquals(LongHashFunction.xx().hashBytes(input), Checksums.value(Algorithm.XXH64, input), what);
            assertEquals(LZ4.hash64().hash(input, 0, len, 0), Checksums.value(Algorithm.XXH64, input), what);
            assertEquals(LZ4.hash32().hash(input, 0, len, 0) & 0xffffffffL, Checksums.value(Algorithm.XXH32, input),
                    what);
            long[] xx128 = LongTupleHashFunction.xx128().hashBytes(input); // {low, high}
            ByteBuffer expected128 = ByteBuffer.allocate(16).putLong(xx128[1]).putLong(xx128[0]);
            assertArrayEquals(expected128.array(), Checksums.of(Algorithm.XXH3_128, input), what);

            // BLAKE3: plain, keyed, derive-key, extended output.
            byte[] key = TestSupport.bytes(random, 32);
            int xofLen = random.nextInt(1, 200);
            assertArrayEquals(bouncy(null, input, 32), Blake3.hash(input), what);
            assertArrayEquals(bouncy(null, input, xofLen), Blake3.hash(input, xofLen), what);
            assertArrayEquals(bouncy(key, input, 32), Blake3.keyedHash(key, input), what);
            assertArrayEquals(org.apache.commons.codec.digest.Blake3.hash(input), Blake3.hash(input), what);
            byte[] context = "chunkhash differential test context".getBytes(java.nio.charset.StandardCharsets.UTF_8);
            assertArrayEquals(
                    org.apache.commons.codec.digest.Blake3.initKeyDerivationFunction(context).update(input)
                            .doFinalize(xofLen),
                    Blake3.deriveKey("chunkhash differential test context", input, xofLen), what);

            // Streaming, at random split points, against the JDK's own streaming classes.
            int a = len == 0 ? 0 : random.nextInt(len + 1);
            int b = a + (len == a ? 0 : random.nextInt(len - a + 1));
            try (StreamingChecksum ours = Checksums.crc32c(); Blake3.Hasher hasher = new Blake3.Hasher()) {
                ours.update(input, 0, a);
                ours.update(ByteBuffer.wrap(input, a, b - a));
                ours.update(VectorsTest.direct(input, b));
                assertEquals(crc32c.getValue(), ours.getValue(), what + " split " + a + "/" + b);
                hasher.update(input, 0, a).update(input, a, b - a).update(VectorsTest.direct(input, b));
                assertArrayEquals(bouncy(null, input, 32), hasher.digest(), what + " split " + a + "/" + b);
            }
        }

        // The same inputs in batches: BLAKE3 and every other algorithm against one call per value.
        Object[] packed = TestSupport.pack(inputs.toArray(new byte[0][]));
        byte[] values = (byte[]) packed[0];
        int[] offsets = (int[]) packed[1];
        for (Algorithm algorithm : Algorithm.values()) {
            byte[] many = Checksums.ofMany(algorithm, values, offsets);
            int d = algorithm.digestLength();
            long[] valuesMany = algorithm.hasValue() ? Checksums.valueMany(algorithm, values, offsets) : null;
            for (int i = 0; i < inputs.size(); i++) {
                byte[] single = Checksums.of(algorithm, inputs.get(i));
                assertArrayEquals(single, TestSupport.slice(many, d * i, d), algorithm + " value " + i);
                if (valuesMany != null) {
                    assertEquals(Checksums.value(algorithm, inputs.get(i)), valuesMany[i], algorithm + " value " + i);
                }
            }
        }
        byte[] hashes = Blake3.hashMany(values, offsets);
        for (int i = 0; i < inputs.size(); i++) {
            assertArrayEquals(bouncy(null, inputs.get(i), 32), TestSupport.slice(hashes, 32 * i, 32), "batch " + i);
        }
    }

    /** Short values, as a batch of rows would hold them: every length 0 to 300, many in one call. */
    @Test
    void shortValueBatches() {
        SplittableRandom random = TestSupport.random("DifferentialTest.shortValueBatches", 0x62617463680aL);
        byte[][] rows = new byte[2000][];
        for (int i = 0; i < rows.length; i++) {
            rows[i] = TestSupport.bytes(random, i < 301 ? i : random.nextInt(301));
        }
        Object[] packed = TestSupport.pack(rows);
        byte[] hashes = Blake3.hashMany((byte[]) packed[0], (int[]) packed[1]);
        byte[] addresses = Blake3.addressMany((byte[]) packed[0], (int[]) packed[1]);
        for (int i = 0; i < rows.length; i++) {
            byte[] expected = bouncy(null, rows[i], 32);
            assertArrayEquals(expected, TestSupport.slice(hashes, 32 * i, 32), "row " + i);
            assertArrayEquals(TestSupport.slice(expected, 0, 20), TestSupport.slice(addresses, 20 * i, 20), "row " + i);
        }
    }

    /** The multi-buffer algorithms in batches of short rows (the library's lanes) against the JDK's digests. */
    @Test
    void multiBufferBatchesAgainstTheJdk() throws Exception {
        SplittableRandom random = TestSupport.random("DifferentialTest.multiBufferBatches", 0x6d756c7469L);
        byte[][] rows = new byte[1000][];
        for (int i = 0; i < rows.length; i++) {
            rows[i] = TestSupport.bytes(random, i == 500 ? 4160 : random.nextInt(300));
        }
        Object[] packed = TestSupport.pack(rows);
        Algorithm[] algorithms = {Algorithm.SHA_256, Algorithm.SHA_512, Algorithm.MD5, Algorithm.SHA_1};
        String[] jdkNames = {"SHA-256", "SHA-512", "MD5", "SHA-1"};
        for (int a = 0; a < algorithms.length; a++) {
            MessageDigest jdk = MessageDigest.getInstance(jdkNames[a]);
            byte[] many = Checksums.ofMany(algorithms[a], (byte[]) packed[0], (int[]) packed[1]);
            int d = algorithms[a].digestLength();
            assertEquals(rows.length * d, many.length);
            for (int i = 0; i < rows.length; i++) {
                assertArrayEquals(jdk.digest(rows[i]), TestSupport.slice(many, d * i, d), algorithms[a] + " row " + i);
            }
        }
    }

    static byte[] bouncy(byte[] key, byte[] input, int outLen) {
        Blake3Digest digest = new Blake3Digest(outLen * 8 >= 256 ? outLen * 8 : 256);
        if (key != null) {
            digest.init(Blake3Parameters.key(key));
        }
        digest.update(input, 0, input.length);
        byte[] out = new byte[outLen];
        digest.doFinal(out, 0, outLen);
        return out;
    }
}
