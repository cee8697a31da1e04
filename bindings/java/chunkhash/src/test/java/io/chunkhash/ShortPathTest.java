package io.chunkhash;

import static io.chunkhash.TestSupport.HEX;
import static io.chunkhash.TestSupport.pattern;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The plain-Java short paths ({@link ShortPath}: XXH3-64, XXH3-128, CRC32C, CRC-64/NVME,
 * and the one-chunk BLAKE3 {@link JavaBlake3} in its three modes) against the native
 * library at every length 0 to 4160 (every length the Java code takes, and the
 * public API, which switches from one to the other, on both sides of each
 * switch-over), at an offset inside a larger array, streaming across the
 * switch-over, and against the shared vectors.
 */
class ShortPathTest {
    private static final int MAX_LEN = 4160;
    private static final int OFF = 3;

    @Test
    void javaAgainstNativeAtEveryLength() {
        SplittableRandom random = TestSupport.random("ShortPathTest", 0x73686f7274L);
        byte[] key = TestSupport.bytes(random, 32);
        int javaCalls = 0;
        for (int len = 0; len <= MAX_LEN; len++) {
            byte[] buffer = TestSupport.bytes(random, len + 2 * OFF); // the value at OFF, foreign bytes either side
            byte[] input = TestSupport.slice(buffer, OFF, len);
            String what = len + " bytes";
            if (len <= JavaXxh3.MAX_LEN) {
                assertEquals(Native.value(Algorithm.XXH3_64.id(), buffer, OFF, len), JavaXxh3.hash64(buffer, OFF, len),
                        "XXH3-64 " + what);
                byte[] expected = new byte[16];
                byte[] actual = new byte[16 + OFF];
                Native.digest(Algorithm.XXH3_128.id(), buffer, OFF, len, expected);
                JavaXxh3.hash128(buffer, OFF, len, actual, OFF);
                assertArrayEquals(expected, TestSupport.slice(actual, OFF, 16), "XXH3-128 " + what);
                javaCalls++;
            }
            for (Algorithm crc : new Algorithm[] {Algorithm.CRC32C, Algorithm.CRC_64_NVME}) {
                assertEquals(Native.value(crc.id(), buffer, OFF, len), ShortPath.value(crc, buffer, OFF, len),
                        crc + " " + what);
                javaCalls++;
            }
            if (len <= JavaBlake3.MAX_LEN) {
                for (int outLen : new int[] {32, 20, 0, 1, 63, 64, 65, 131}) {
                    byte[] expected = new byte[outLen];
                    byte[] actual = new byte[outLen];
                    Native.blake3(Native.PLAIN, null, buffer, OFF, len, expected);
                    JavaBlake3.hash(JavaBlake3.IV, 0, buffer, OFF, len, actual);
                    assertArrayEquals(expected, actual, "BLAKE3 " + what + ", " + outLen + " bytes out");
                    Native.blake3(Native.KEYED, key, buffer, OFF, len, expected);
                    JavaBlake3.hash(JavaBlake3.keyWords(key), JavaBlake3.KEYED_HASH, buffer, OFF, len, actual);
                    assertArrayEquals(expected, actual, "keyed BLAKE3 " + what + ", " + outLen + " bytes out");
                    // The context as long as the input, so contexts of 0 to 1024 bytes are covered too.
                    byte[] context = new byte[len]; // ASCII: the native side takes only UTF-8 contexts
                    for (int i = 0; i < len; i++) context[i] = (byte) ('a' + (buffer[OFF + i] & 15));
                    Native.blake3(Native.DERIVE_KEY, context, buffer, OFF, len, expected);
                    JavaBlake3.hash(JavaBlake3.contextKey(context), JavaBlake3.DERIVE_KEY_MATERIAL, buffer, OFF, len,
                            actual);
                    assertArrayEquals(expected, actual, "derive-key BLAKE3 " + what + ", " + outLen + " bytes out");
                }
                javaCalls++;
            }
            // Blake3's one-shot calls, whichever path they take at this length, against the native call.
            byte[] hash = new byte[32];
            Native.blake3(Native.PLAIN, null, input, 0, len, hash);
            assertArrayEquals(hash, Blake3.hash(input), "Blake3.hash " + what);
            assertArrayEquals(hash, Blake3.hash(buffer, OFF, len), "Blake3.hash " + what + " at an offset");
            assertArrayEquals(hash, Blake3.hash(java.nio.ByteBuffer.wrap(buffer, OFF, len)), "heap buffer " + what);
            assertArrayEquals(TestSupport.slice(hash, 0, 20), Blake3.address(input), "Blake3.address " + what);
            for (int outLen : new int[] {0, 1, 64, 65}) {
                byte[] extended = new byte[outLen];
                Native.blake3(Native.PLAIN, null, input, 0, len, extended);
                assertArrayEquals(extended, Blake3.hash(input, outLen), "Blake3.hash " + what + ", " + outLen + " out");
            }
            Native.blake3(Native.KEYED, key, input, 0, len, hash);
            assertArrayEquals(hash, Blake3.keyedHash(key, input), "Blake3.keyedHash " + what);
            // Derive-key (native at every length) with a non-ASCII context.
            String context = "chunkhash ShortPathTest \u00e9\u6f22 " + "c".repeat(len % 100);
            Native.blake3(Native.DERIVE_KEY, context.getBytes(StandardCharsets.UTF_8), input, 0, len, hash);
            assertArrayEquals(hash, Blake3.deriveKey(context, input), "Blake3.deriveKey " + what);
            // The public API, whichever path it takes at this length, against the native call.
            byte[] digest128 = new byte[16];
            Native.digest(Algorithm.XXH3_128.id(), input, 0, len, digest128);
            assertArrayEquals(digest128, Checksums.of(Algorithm.XXH3_128, input), "XXH3-128 " + what);
            assertArrayEquals(digest128, Checksums.of(Algorithm.XXH3_128, buffer, OFF, len), "XXH3-128 at an offset");
            for (Algorithm a : new Algorithm[] {Algorithm.XXH3_64, Algorithm.CRC32C, Algorithm.CRC_64_NVME}) {
                long expected = Native.value(a.id(), input, 0, len);
                assertEquals(expected, Checksums.value(a, input), a + " " + what);
                assertEquals(expected, Checksums.value(a, buffer, OFF, len), a + " " + what + " at an offset");
                byte[] digest = new byte[a.digestLength()];
                Native.digest(a.id(), input, 0, len, digest);
                assertArrayEquals(digest, Checksums.of(a, input), a + " " + what + " digest");
            }
        }
        // Every Java path ran at every length it takes.
        assertEquals((JavaXxh3.MAX_LEN + 1) + 2 * (MAX_LEN + 1) + (JavaBlake3.MAX_LEN + 1), javaCalls);
        // Past one chunk JavaBlake3 refuses, rather than give a wrong hash.
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> JavaBlake3.hash(JavaBlake3.IV, 0, new byte[1025], 0, 1025, new byte[32]));
        assertTrue(ShortPath.maxLen(Algorithm.XXH3_64) > 0 && ShortPath.maxLen(Algorithm.CRC_64_NVME) > 0
                && ShortPath.maxLen(Algorithm.CRC32C) > 0);
    }

    /** The streaming checksums keep short input in Java and move it to the native state when more comes. */
    @Test
    void streamingAcrossTheSwitchOver() {
        SplittableRandom random = TestSupport.random("ShortPathTest.streaming", 0x73747265616dL);
        for (Algorithm a : new Algorithm[] {Algorithm.XXH3_64, Algorithm.XXH3_128, Algorithm.CRC32C,
                Algorithm.CRC_64_NVME}) {
            int limit = ShortPath.maxLen(a);
            try (StreamingChecksum s = Checksums.newHasher(a)) {
                for (int total : new int[] {0, 1, limit - 1, limit, limit + 1, 2 * limit + 7, 5000}) {
                    byte[] input = TestSupport.bytes(random, total);
                    // The input in random pieces, then the value; then again after a reset (Java first once more).
                    for (int pass = 0; pass < 2; pass++) {
                        s.reset();
                        int at = 0;
                        while (at < total) {
                            int piece = Math.min(total - at, random.nextInt(1, limit + 2));
                            if (piece % 3 == 0) {
                                s.update(VectorsTest.direct(java.util.Arrays.copyOfRange(input, at, at + piece), 0));
                            } else {
                                s.update(input, at, piece);
                            }
                            at += piece;
                        }
                        String what = a + " " + total + " bytes streamed, pass " + pass;
                        if (a.hasValue()) assertEquals(Native.value(a.id(), input, 0, total), s.getValue(), what);
                        byte[] digest = new byte[a.digestLength()];
                        Native.digest(a.id(), input, 0, total, digest);
                        assertArrayEquals(digest, s.digest(), what);
                    }
                }
            }
        }
    }

    @Test
    void javaPathsOnTheSharedVectors() {
        JsonNode golden = TestSupport.json("golden.json");
        int checked = 0;
        for (JsonNode d : golden.get("digests")) {
            String name = d.get("algorithm").asText();
            int len = d.get("input_len").asInt();
            if (!d.get("mode").asText().equals("hash")) continue;
            byte[] input = pattern(len);
            long expected = new java.math.BigInteger(1, HEX.parseHex(d.get("hex").asText())).longValue();
            String what = name + " input_len " + len;
            if (name.equals("XXH3-64") && len <= JavaXxh3.MAX_LEN) {
                assertEquals(expected, JavaXxh3.hash64(input, 0, len), what);
            } else if (name.equals("XXH3-128") && len <= JavaXxh3.MAX_LEN) {
                byte[] out = new byte[16];
                JavaXxh3.hash128(input, 0, len, out, 0);
                assertArrayEquals(HEX.parseHex(d.get("hex").asText()), out, what);
            } else if (name.equals("CRC32C")) {
                assertEquals(expected, ShortPath.value(Algorithm.CRC32C, input, 0, len), what);
            } else if (name.equals("CRC-64/NVME")) {
                assertEquals(expected, JavaCrc64Nvme.value(input, 0, len), what);
            } else if (name.equals("BLAKE3") && len <= JavaBlake3.MAX_LEN) {
                byte[] out = new byte[32];
                JavaBlake3.hash(JavaBlake3.IV, 0, input, 0, len, out);
                assertArrayEquals(HEX.parseHex(d.get("hex").asText()), out, what);
            } else {
                continue;
            }
            checked++;
        }
        assertTrue(checked >= 10, "golden digests checked on the Java paths: " + checked);

        // The official BLAKE3 vectors (all 131 output bytes) of one chunk or less: plain, keyed, derive-key.
        JsonNode official = TestSupport.json("blake3/test_vectors.json");
        byte[] key = official.get("key").asText().getBytes(StandardCharsets.US_ASCII);
        byte[] context = official.get("context_string").asText().getBytes(StandardCharsets.UTF_8);
        int cases = 0;
        for (JsonNode c : official.get("cases")) {
            int len = c.get("input_len").asInt();
            if (len > JavaBlake3.MAX_LEN) continue;
            byte[] hash = HEX.parseHex(c.get("hash").asText());
            byte[] keyed = HEX.parseHex(c.get("keyed_hash").asText());
            byte[] out = new byte[hash.length];
            JavaBlake3.hash(JavaBlake3.IV, 0, pattern(len), 0, len, out);
            assertArrayEquals(hash, out, "input_len " + len);
            JavaBlake3.hash(JavaBlake3.keyWords(key), JavaBlake3.KEYED_HASH, pattern(len), 0, len, out);
            assertArrayEquals(keyed, out, "keyed, input_len " + len);
            JavaBlake3.hash(JavaBlake3.contextKey(context), JavaBlake3.DERIVE_KEY_MATERIAL, pattern(len), 0, len, out);
            assertArrayEquals(HEX.parseHex(c.get("derive_key").asText()), out, "derive-key, input_len " + len);
            // The public calls, on their Java path here (32 bytes out).
            assertArrayEquals(TestSupport.slice(hash, 0, 32), Blake3.hash(pattern(len)), "Blake3.hash " + len);
            assertArrayEquals(TestSupport.slice(keyed, 0, 32), Blake3.keyedHash(key, pattern(len)), "keyed " + len);
            assertArrayEquals(TestSupport.slice(HEX.parseHex(c.get("derive_key").asText()), 0, 32),
                    Blake3.deriveKey(official.get("context_string").asText(), pattern(len)), "derive-key " + len);
            cases++;
        }
        assertTrue(cases >= 10, "official cases of one chunk or less: " + cases);
        // CRC-64/NVME's check value (CRC catalogue) and CRC32C's.
        byte[] check = "123456789".getBytes(StandardCharsets.US_ASCII);
        assertEquals(0xae8b14860a799888L, JavaCrc64Nvme.value(check, 0, 9));
        assertEquals(0xe3069283L, ShortPath.value(Algorithm.CRC32C, check, 0, 9));
    }
}
