package io.chunkhash;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class AlgorithmTest {
    @Test
    void enumMirrorsTheNativeRegistry() {
        for (Algorithm a : Algorithm.values()) {
            assertEquals(a.canonicalName(), Native.algorithmName(a.id()));
            assertEquals(a.digestLength(), Native.digestLength(a.id()));
            assertEquals(a, Algorithm.fromId(a.id()));
            assertEquals(a, Algorithm.fromName(a.canonicalName()));
        }
        // The id after the last is unknown to both sides: nothing was added natively and forgotten here.
        int next = Algorithm.values().length + 1;
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Native.algorithmName(next));
        assertEquals("unknown algorithm id " + next, e.getMessage());
    }

    @Test
    void namesParseAsTheCliParsesThem() {
        assertEquals(Algorithm.XXH3_64, Algorithm.fromName("xxh3"));
        assertEquals(Algorithm.CRC_64_NVME, Algorithm.fromName("crc64nvme"));
        assertEquals(Algorithm.SHA_256, Algorithm.fromName("sha256"));
        assertEquals(Algorithm.BLAKE3, Algorithm.fromName("b3"));
        assertEquals(Algorithm.XXH3_128, Algorithm.fromName("XXH3_128"));
    }

    @Test
    void valuesExistForShortDigestsOnly() {
        assertTrue(Algorithm.CRC32C.hasValue());
        assertTrue(Algorithm.XXH3_64.hasValue());
        assertFalse(Algorithm.XXH3_128.hasValue());
        assertFalse(Algorithm.BLAKE3.hasValue());
    }

    @Test
    void backendIsNamed() {
        assertFalse(Blake3.backend().isEmpty());
        System.out.println("BLAKE3 backend: " + Blake3.backend());
    }
}
