package io.chunkhash;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * The switch-over lengths of {@link ShortPath}: each Java path against the
 * native call, per length. Each contender is a plain loop of its own (one
 * call site, as in a caller's loop), the two timed in turn for several
 * rounds after a warm-up; figures are medians in ns per call. The limit is
 * the longest length at which Java is still the faster. Run by
 * {@code make java-bench}; arguments: [rounds] [round milliseconds] [algorithm name or its prefix:
 * that one only].
 */
public final class SwitchOverBench {
    private static final byte[] INPUT = new byte[1 << 20];
    private static final byte[] OUT = new byte[32];
    private static final byte[] OUT16 = new byte[16];
    private static long sink;

    public static void main(String[] args) {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 7;
        long roundMillis = args.length > 1 ? Long.parseLong(args[1]) : 100;
        new SplittableRandom(1).nextBytes(INPUT);
        System.out.println("Java path against the native call, ns per call (medians of " + rounds
                + " alternating rounds of " + roundMillis + " ms each, after 3 warm-up rounds);"
                + " ratio > 1: Java faster");
        System.out.printf("%-12s %6s %10s %10s %7s%n", "algorithm", "bytes", "java", "native", "ratio");
        String only = args.length > 2 ? args[2] : "";
        if ("XXH3-64".startsWith(only)) {
            for (int len : new int[] {0, 8, 16, 64, 128, 240}) row("XXH3-64", 0, len, rounds, roundMillis);
        }
        if ("XXH3-128".startsWith(only)) {
            for (int len : new int[] {0, 16, 64, 128, 160, 192, 240}) row("XXH3-128", 4, len, rounds, roundMillis);
        }
        if ("CRC32C".startsWith(only)) {
            for (int len : new int[] {16, 64, 256, 1024, 4096, 65536, 1 << 20}) row("CRC32C", 1, len, rounds, roundMillis);
        }
        if ("CRC-64/NVME".startsWith(only)) {
            for (int len : new int[] {16, 32, 64, 80, 96, 112, 128}) row("CRC-64/NVME", 2, len, rounds, roundMillis);
        }
        if ("BLAKE3".startsWith(only)) {
            // Both sides allocate the 32-byte result, as Blake3.hash does.
            for (int len : new int[] {0, 64, 65, 128, 256, 512, 768, 1024}) row("BLAKE3", 3, len, rounds, roundMillis);
        }
        System.out.println("(sink " + (sink & 1) + ")");
    }

    private static void row(String name, int algorithm, int len, int rounds, long roundMillis) {
        double[] java = new double[rounds];
        double[] nat = new double[rounds];
        long[] iterations = {1000, 1000};
        for (int round = -3; round < rounds; round++) {
            for (int side = 0; side < 2; side++) {
                long n = iterations[side];
                long start = System.nanoTime();
                sink += side == 0 ? java(algorithm, len, n) : nat(algorithm, len, n);
                double perCall = (double) (System.nanoTime() - start) / n;
                iterations[side] = Math.max(1000, (long) (roundMillis * 1e6 / Math.max(perCall, 1)));
                if (round >= 0) (side == 0 ? java : nat)[round] = perCall;
            }
        }
        double j = median(java);
        double n = median(nat);
        System.out.printf("%-12s %6d %10.1f %10.1f %7.2f%n", name, len, j, n, n / j);
    }

    private static long java(int algorithm, int len, long n) {
        long acc = 0;
        switch (algorithm) {
            case 0:
                for (long i = 0; i < n; i++) acc += JavaXxh3.hash64(INPUT, 0, len);
                break;
            case 1:
                for (long i = 0; i < n; i++) acc += ShortPath.value(Algorithm.CRC32C, INPUT, 0, len);
                break;
            case 2:
                for (long i = 0; i < n; i++) acc += JavaCrc64Nvme.value(INPUT, 0, len);
                break;
            case 4:
                for (long i = 0; i < n; i++) {
                    JavaXxh3.hash128(INPUT, 0, len, OUT, 0);
                    acc += OUT[0];
                }
                break;
            default:
                for (long i = 0; i < n; i++) {
                    byte[] out = new byte[32];
                    JavaBlake3.hash(JavaBlake3.IV, 0, INPUT, 0, len, out);
                    acc += out[0];
                }
        }
        return acc;
    }

    private static long nat(int algorithm, int len, long n) {
        long acc = 0;
        switch (algorithm) {
            case 0:
                for (long i = 0; i < n; i++) acc += Native.value(Algorithm.XXH3_64.id(), INPUT, 0, len);
                break;
            case 1:
                for (long i = 0; i < n; i++) acc += Native.value(Algorithm.CRC32C.id(), INPUT, 0, len);
                break;
            case 2:
                for (long i = 0; i < n; i++) acc += Native.value(Algorithm.CRC_64_NVME.id(), INPUT, 0, len);
                break;
            case 4:
                for (long i = 0; i < n; i++) {
                    Native.digest(Algorithm.XXH3_128.id(), INPUT, 0, len, OUT16);
                    acc += OUT16[0];
                }
                break;
            default:
                for (long i = 0; i < n; i++) {
                    byte[] out = new byte[32];
                    Native.blake3(Native.PLAIN, null, INPUT, 0, len, out);
                    acc += out[0];
                }
        }
        return acc;
    }

    private static double median(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    }
}
