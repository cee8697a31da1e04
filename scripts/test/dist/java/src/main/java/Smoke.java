// The Java smoke test (scripts/test/dist.sh): compiled by Maven against the
// jar from dist/maven and run with that jar alone, whose native library
// (native/linux-x86_64/ inside it) NativeLoader extracts. Prints "java: ok"
// when both answers match; exits 1 otherwise.

import io.chunkhash.Algorithm;
import io.chunkhash.Blake3;
import io.chunkhash.Checksums;
import java.nio.charset.StandardCharsets;

public final class Smoke {
    public static void main(String[] args) {
        int failed = 0;
        // BLAKE3 of "abc" (the BLAKE3 reference implementation's output).
        failed += check("BLAKE3(abc)", Blake3.hash(ascii("abc")), "6437b3ac38465133ffb63b75273a8db548c558465d79db03fd359c6cd5bd9d85");
        // CRC-32C of "123456789": the check value of the CRC catalogue.
        failed += check("CRC32C(123456789)", Checksums.of(Algorithm.CRC32C, ascii("123456789")), "e3069283");
        System.out.println("java: " + (failed == 0 ? "ok" : "FAILED") + " (backend " + Blake3.backend() + ", "
                + Blake3.class.getProtectionDomain().getCodeSource().getLocation() + ")");
        System.exit(failed == 0 ? 0 : 1);
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    private static int check(String what, byte[] digest, String expected) {
        StringBuilder hex = new StringBuilder();
        for (byte b : digest) hex.append(String.format("%02x", b & 0xff));
        if (hex.toString().equals(expected)) return 0;
        System.err.println("smoke: " + what + ": " + hex + ", expected " + expected);
        return 1;
    }
}
