package io.chunkhash;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.SplittableRandom;

/** The repository's vectors/ folder, the test input pattern, seeds. */
final class TestSupport {
    private TestSupport() {}

    static final HexFormat HEX = HexFormat.of();

    /** vectors/ of this repository (Surefire sets the property; the default works from bindings/java/chunkhash). */
    static Path vectors() {
        return Path.of(System.getProperty("chunkhash.vectors", "../../../vectors"));
    }

    static JsonNode json(String relative) {
        try {
            return new ObjectMapper().readTree(vectors().resolve(relative).toFile());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The vectors' input: byte i is i % 251. */
    static byte[] pattern(int len) {
        byte[] input = new byte[len];
        for (int i = 0; i < len; i++) {
            input[i] = (byte) (i % 251);
        }
        return input;
    }

    /** A seeded generator: CHUNKHASH_TEST_SEED if set, else {@code seed}; printed so a failure can be replayed. */
    static SplittableRandom random(String test, long seed) {
        String env = System.getenv("CHUNKHASH_TEST_SEED");
        if (env != null) {
            seed = Long.parseLong(env.trim());
        }
        System.out.println(test + ": seed " + seed + " (set CHUNKHASH_TEST_SEED to replay another)");
        return new SplittableRandom(seed);
    }

    static byte[] bytes(SplittableRandom random, int len) {
        byte[] out = new byte[len];
        random.nextBytes(out);
        return out;
    }

    /** Random lengths weighted to the edges of blocks, chunks and SIMD lanes, up to about 70 KB. */
    static int length(SplittableRandom random) {
        switch (random.nextInt(4)) {
            case 0:
                return random.nextInt(129);
            case 1:
                return random.nextInt(4097);
            case 2:
                return 1024 * random.nextInt(1, 65) + random.nextInt(-1, 2);
            default:
                return random.nextInt(70_001);
        }
    }

    /** {@code values} concatenated, with Arrow offsets (n + 1). */
    static Object[] pack(byte[][] values) {
        int total = 0;
        for (byte[] v : values) total += v.length;
        byte[] all = new byte[total];
        int[] offsets = new int[values.length + 1];
        int at = 0;
        for (int i = 0; i < values.length; i++) {
            System.arraycopy(values[i], 0, all, at, values[i].length);
            at += values[i].length;
            offsets[i + 1] = at;
        }
        return new Object[] {all, offsets};
    }

    static byte[] slice(byte[] bytes, int from, int len) {
        byte[] out = new byte[len];
        System.arraycopy(bytes, from, out, 0, len);
        return out;
    }
}
