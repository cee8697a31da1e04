package io.chunkhash.bench;

import io.chunkhash.Algorithm;
import io.chunkhash.Blake3;
import io.chunkhash.Checksums;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.zip.CRC32;
import java.util.zip.CRC32C;
import net.jpountz.xxhash.XXHash64;
import net.jpountz.xxhash.XXHashFactory;
import net.openhft.hashing.LongHashFunction;
import org.bouncycastle.crypto.digests.Blake3Digest;

/**
 * chunkhash's Java API against the JVM's other implementations, per call at
 * 64 B, 4 KiB and 1 MiB, and a batch of 1024 x 64 B against a loop of single
 * calls. Run by {@code make java-bench}; arguments: [rounds] [round milliseconds].
 */
public final class JavaBench {
    public static void main(String[] args) {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 7;
        long roundMillis = args.length > 1 ? Long.parseLong(args[1]) : 200;
        System.out.println("BLAKE3 backend " + Blake3.backend() + "; " + rounds + " rounds of " + roundMillis
                + " ms per contender, interleaved, after 3 warm-up rounds; medians");
        SplittableRandom random = new SplittableRandom(1);
        for (int size : new int[] {64, 4096, 1 << 20}) {
            byte[] input = new byte[size];
            random.nextBytes(input);
            XXHash64 lz4Jni = XXHashFactory.nativeInstance().hash64();
            XXHash64 lz4Java = XXHashFactory.fastestJavaInstance().hash64();
            Harness h = new Harness(3, rounds, roundMillis)
                    .add("chunkhash BLAKE3", () -> Blake3.hash(input)[0])
                    .add("Bouncy Castle BLAKE3", () -> bouncy(input))
                    .add("Commons Codec BLAKE3", () -> org.apache.commons.codec.digest.Blake3.hash(input)[0])
                    .add("chunkhash XXH3-64", () -> Checksums.value(Algorithm.XXH3_64, input))
                    .add("zero-allocation-hashing XXH3-64", () -> LongHashFunction.xx3().hashBytes(input))
                    .add("chunkhash XXH64", () -> Checksums.value(Algorithm.XXH64, input))
                    .add("zero-allocation-hashing XXH64", () -> LongHashFunction.xx().hashBytes(input))
                    .add("lz4-java XXH64 (JNI)", () -> lz4Jni.hash(input, 0, input.length, 0))
                    .add("lz4-java XXH64 (Java)", () -> lz4Java.hash(input, 0, input.length, 0))
                    .add("chunkhash CRC32C", () -> Checksums.value(Algorithm.CRC32C, input))
                    .add("JDK CRC32C", () -> {
                        CRC32C c = new CRC32C();
                        c.update(input);
                        return c.getValue();
                    })
                    .add("chunkhash CRC-32", () -> Checksums.value(Algorithm.CRC_32, input))
                    .add("JDK CRC32", () -> {
                        CRC32 c = new CRC32();
                        c.update(input);
                        return c.getValue();
                    })
                    .add("chunkhash CRC-64/NVME", () -> Checksums.value(Algorithm.CRC_64_NVME, input));
            print(size + " B per call", size, h.run(), new String[][] {
                    {"chunkhash BLAKE3", "Bouncy Castle BLAKE3"}, {"chunkhash BLAKE3", "Commons Codec BLAKE3"},
                    {"chunkhash XXH3-64", "zero-allocation-hashing XXH3-64"},
                    {"chunkhash XXH64", "zero-allocation-hashing XXH64"}, {"chunkhash XXH64", "lz4-java XXH64 (JNI)"},
                    {"chunkhash CRC32C", "JDK CRC32C"}, {"chunkhash CRC-32", "JDK CRC32"}});
        }

        // 1024 values of 64 B: one batch call against a loop of single calls.
        int n = 1024;
        byte[] values = new byte[64 * n];
        random.nextBytes(values);
        int[] offsets = new int[n + 1];
        for (int i = 0; i <= n; i++) offsets[i] = 64 * i;
        byte[][] singles = new byte[n][];
        for (int i = 0; i < n; i++) singles[i] = java.util.Arrays.copyOfRange(values, 64 * i, 64 * i + 64);
        Harness h = new Harness(3, rounds, roundMillis)
                .add("Blake3.hashMany 1024 x 64 B", () -> Blake3.hashMany(values, offsets)[0])
                .add("loop of Blake3.hash", () -> {
                    long acc = 0;
                    for (byte[] v : singles) acc += Blake3.hash(v)[0];
                    return acc;
                })
                .add("loop of Blake3.hash(values, off, 64)", () -> {
                    long acc = 0;
                    for (int i = 0; i < n; i++) acc += Blake3.hash(values, 64 * i, 64)[0];
                    return acc;
                })
                .add("loop of Bouncy Castle BLAKE3", () -> {
                    long acc = 0;
                    for (byte[] v : singles) acc += bouncy(v);
                    return acc;
                })
                .add("Checksums.valueMany XXH3-64", () -> Checksums.valueMany(Algorithm.XXH3_64, values, offsets)[0])
                .add("loop of Checksums.value XXH3-64", () -> {
                    long acc = 0;
                    for (byte[] v : singles) acc += Checksums.value(Algorithm.XXH3_64, v);
                    return acc;
                })
                .add("loop of zero-allocation-hashing XXH3-64", () -> {
                    long acc = 0;
                    for (byte[] v : singles) acc += LongHashFunction.xx3().hashBytes(v);
                    return acc;
                });
        print("batch of 1024 x 64 B (per batch)", 64 * n, h.run(), new String[][] {
                {"Blake3.hashMany 1024 x 64 B", "loop of Blake3.hash"},
                {"Blake3.hashMany 1024 x 64 B", "loop of Bouncy Castle BLAKE3"},
                {"Checksums.valueMany XXH3-64", "loop of Checksums.value XXH3-64"},
                {"Checksums.valueMany XXH3-64", "loop of zero-allocation-hashing XXH3-64"}});
        System.out.println("(sink " + (Harness.sink & 1) + ")");
    }

    static long bouncy(byte[] input) {
        Blake3Digest d = new Blake3Digest(256);
        d.update(input, 0, input.length);
        byte[] out = new byte[32];
        d.doFinal(out, 0);
        return out[0];
    }

    static void print(String title, int bytes, Map<String, Double> ns, String[][] ratios) {
        System.out.println();
        System.out.println("## " + title);
        System.out.printf("%-42s %14s %12s%n", "contender", "ns/op", "MB/s");
        for (Map.Entry<String, Double> e : ns.entrySet()) {
            System.out.printf("%-42s %14.1f %12.1f%n", e.getKey(), e.getValue(), bytes * 1e3 / e.getValue());
        }
        for (String[] r : ratios) {
            System.out.printf("  %s / %s: %.2fx faster%n", r[0], r[1], ns.get(r[1]) / ns.get(r[0]));
        }
    }
}
