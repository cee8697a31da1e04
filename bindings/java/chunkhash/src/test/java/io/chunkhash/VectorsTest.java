package io.chunkhash;

import static io.chunkhash.TestSupport.HEX;
import static io.chunkhash.TestSupport.pattern;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Every known answer of vectors/ (official BLAKE3 vectors, golden.json) through every Java entry point. */
class VectorsTest {
    private static final JsonNode OFFICIAL = TestSupport.json("blake3/test_vectors.json");
    private static final JsonNode GOLDEN = TestSupport.json("golden.json");

    @Test
    void officialBlake3Vectors() {
        byte[] key = OFFICIAL.get("key").asText().getBytes(StandardCharsets.US_ASCII);
        String context = OFFICIAL.get("context_string").asText();
        int cases = 0;
        List<byte[]> inputs = new ArrayList<>();
        List<byte[]> hashes = new ArrayList<>();
        for (JsonNode c : OFFICIAL.get("cases")) {
            byte[] input = pattern(c.get("input_len").asInt());
            byte[] hash = HEX.parseHex(c.get("hash").asText());
            byte[] keyed = HEX.parseHex(c.get("keyed_hash").asText());
            byte[] derived = HEX.parseHex(c.get("derive_key").asText());
            String what = "input_len " + input.length;

            assertArrayEquals(TestSupport.slice(hash, 0, 32), Blake3.hash(input), what);
            assertArrayEquals(hash, Blake3.hash(input, hash.length), what);
            assertArrayEquals(TestSupport.slice(hash, 0, 20), Blake3.address(input), what);
            assertArrayEquals(TestSupport.slice(keyed, 0, 32), Blake3.keyedHash(key, input), what);
            assertArrayEquals(TestSupport.slice(derived, 0, 32), Blake3.deriveKey(context, input), what);
            assertArrayEquals(derived, Blake3.deriveKey(context, input, derived.length), what);

            ByteBuffer direct = ByteBuffer.allocateDirect(input.length + 3);
            direct.position(3);
            direct.put(input).position(3);
            assertArrayEquals(TestSupport.slice(hash, 0, 32), Blake3.hash(direct), what + " direct");
            assertArrayEquals(TestSupport.slice(keyed, 0, 32), Blake3.keyedHash(key, direct), what + " direct");
            assertArrayEquals(TestSupport.slice(hash, 0, 20), Blake3.address(direct), what + " direct");
            assertEquals(3, direct.position(), "one-shot hashing leaves the position");
            ByteBuffer heap = ByteBuffer.wrap(new byte[input.length + 5], 2, input.length).slice();
            heap.put(input).flip();
            assertArrayEquals(TestSupport.slice(hash, 0, 32), Blake3.hash(heap), what + " heap slice");
            assertArrayEquals(TestSupport.slice(hash, 0, 32), Blake3.hash(heap.asReadOnlyBuffer()), what + " read-only");

            // Incremental, in three pieces, with every mode and the XOF.
            int a = input.length / 3;
            int b = 2 * input.length / 3;
            try (Blake3.Hasher h = new Blake3.Hasher();
                    Blake3.Hasher k = Blake3.Hasher.keyed(key);
                    Blake3.Hasher d = Blake3.Hasher.deriveKey(context)) {
                for (Blake3.Hasher x : List.of(h, k, d)) {
                    x.update(input, 0, a).update(ByteBuffer.wrap(input, a, b - a)).update(direct(input, b));
                }
                assertArrayEquals(hash, h.digest(hash.length), what);
                assertArrayEquals(TestSupport.slice(hash, 0, 32), h.digest(), what);
                byte[] tail = new byte[hash.length - 40];
                h.output(40, tail);
                assertArrayEquals(TestSupport.slice(hash, 40, tail.length), tail, what + " XOF from 40");
                assertArrayEquals(keyed, k.digest(keyed.length), what);
                assertArrayEquals(derived, d.digest(derived.length), what);
                h.reset().update(input);
                assertArrayEquals(TestSupport.slice(hash, 0, 32), h.digest(), what + " after reset");
            }
            inputs.add(input);
            hashes.add(hash);
            cases++;
        }
        assertEquals(35, cases);

        // All inputs in one batch, every mode.
        Object[] packed = TestSupport.pack(inputs.toArray(new byte[0][]));
        byte[] many = Blake3.hashMany((byte[]) packed[0], (int[]) packed[1]);
        byte[] addresses = Blake3.addressMany((byte[]) packed[0], (int[]) packed[1]);
        byte[] keyedMany = Blake3.keyedHashMany(key, (byte[]) packed[0], (int[]) packed[1]);
        List<ByteBuffer> directs = new ArrayList<>();
        List<ByteBuffer> mixed = new ArrayList<>();
        for (byte[] input : inputs) {
            directs.add(direct(input, 0));
            mixed.add(mixed.size() % 2 == 0 ? direct(input, 0) : ByteBuffer.wrap(input));
        }
        byte[] fromDirect = Blake3.hashMany(directs);
        byte[] fromMixed = Blake3.hashMany(mixed);
        byte[] addressesDirect = Blake3.addressMany(directs);
        int i = 0;
        for (JsonNode c : OFFICIAL.get("cases")) {
            byte[] hash = TestSupport.slice(hashes.get(i), 0, 32);
            assertArrayEquals(hash, TestSupport.slice(many, 32 * i, 32));
            assertArrayEquals(hash, TestSupport.slice(fromDirect, 32 * i, 32));
            assertArrayEquals(hash, TestSupport.slice(fromMixed, 32 * i, 32));
            assertArrayEquals(TestSupport.slice(hash, 0, 20), TestSupport.slice(addresses, 20 * i, 20));
            assertArrayEquals(TestSupport.slice(hash, 0, 20), TestSupport.slice(addressesDirect, 20 * i, 20));
            assertArrayEquals(TestSupport.slice(HEX.parseHex(c.get("keyed_hash").asText()), 0, 32),
                    TestSupport.slice(keyedMany, 32 * i, 32));
            i++;
        }
    }

    @Test
    void goldenDigestsOfEveryAlgorithm() {
        byte[] key = GOLDEN.get("key").asText().getBytes(StandardCharsets.US_ASCII);
        String context = GOLDEN.get("context_string").asText();
        int checked = 0;
        for (JsonNode d : GOLDEN.get("digests")) {
            Algorithm algorithm = Algorithm.fromName(d.get("algorithm").asText());
            assertEquals(d.get("algorithm").asText(), algorithm.canonicalName());
            byte[] input = pattern(d.get("input_len").asInt());
            byte[] expected = HEX.parseHex(d.get("hex").asText());
            String mode = d.get("mode").asText();
            String what = algorithm + " " + mode + " input_len " + input.length;
            switch (mode) {
                case "hash":
                    assertArrayEquals(expected, Checksums.of(algorithm, input), what);
                    assertArrayEquals(expected, Checksums.of(algorithm, direct(input, 0)), what + " direct");
                    assertArrayEquals(expected, Checksums.ofMany(algorithm, input, new int[] {0, input.length}), what);
                    assertArrayEquals(expected, Checksums.ofMany(algorithm, List.of(direct(input, 0))), what);
                    try (StreamingChecksum s = Checksums.newHasher(algorithm)) {
                        s.update(input, 0, input.length / 2);
                        s.update(ByteBuffer.wrap(input, input.length / 2, input.length - input.length / 2));
                        assertArrayEquals(expected, s.digest(), what + " streaming");
                        if (algorithm.hasValue()) {
                            assertEquals(new java.math.BigInteger(1, expected).longValue(), s.getValue(), what);
                        }
                    }
                    if (algorithm.hasValue()) {
                        long value = new java.math.BigInteger(1, expected).longValue();
                        assertEquals(value, Checksums.value(algorithm, input), what);
                        assertEquals(value, Checksums.value(algorithm, direct(input, 0)), what + " direct");
                        assertEquals(value, Checksums.valueMany(algorithm, input, new int[] {0, input.length})[0]);
                    }
                    break;
                case "keyed_hash":
                    assertArrayEquals(expected, Blake3.keyedHash(key, input), what);
                    break;
                case "derive_key":
                    assertArrayEquals(expected, Blake3.deriveKey(context, input), what);
                    break;
                default:
                    throw new AssertionError("unknown mode in golden.json: " + mode);
            }
            checked++;
        }
        assertEquals(GOLDEN.get("digests").size(), checked);
    }

    static ByteBuffer direct(byte[] input, int from) {
        ByteBuffer buffer = ByteBuffer.allocateDirect(input.length - from);
        buffer.put(input, from, input.length - from).flip();
        return buffer;
    }
}
