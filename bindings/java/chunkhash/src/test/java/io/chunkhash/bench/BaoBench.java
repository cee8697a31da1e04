package io.chunkhash.bench;

import io.chunkhash.Bao;
import io.chunkhash.Blake3;
import java.nio.ByteBuffer;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Bao outboard creation from Java ({@link Bao.Tree#outboard}, from a byte[]
 * and from a direct buffer) beside {@link Blake3#hash} of the same input, at
 * 1 MiB and 16 MiB, 1 KiB and 16 KiB groups. The outboard/hash ratio here is
 * set beside the same ratio of the Rust calls (crates/bench's bao_vs_crates,
 * rows "chunkhash outboard" and "chunkhash hash"): equal ratios mean the JNI
 * call adds nothing per byte. Run:
 *
 * <pre>
 * cd bindings/java/chunkhash && java -cp target/classes:target/test-classes:$(cat target/test-classpath.txt) \
 *   io.chunkhash.bench.BaoBench [rounds] [roundMillis]
 * </pre>
 */
public final class BaoBench {
    private BaoBench() {}

    public static void main(String[] args) {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 7;
        long roundMillis = args.length > 1 ? Long.parseLong(args[1]) : 300;
        System.out.println("BLAKE3 backend " + Blake3.backend() + "; " + rounds + " rounds of " + roundMillis
                + " ms per contender, interleaved, after 3 warm-up rounds; medians");
        SplittableRandom random = new SplittableRandom(1);
        for (int size : new int[] {1 << 20, 16 << 20}) {
            byte[] input = new byte[size];
            random.nextBytes(input);
            ByteBuffer direct = ByteBuffer.allocateDirect(size).put(input);
            direct.flip();
            Bao.Tree bao = Bao.tree(0);
            Bao.Tree groups = Bao.tree(4);
            Harness h = new Harness(3, rounds, roundMillis)
                    .add("hash", () -> Blake3.hash(input)[0])
                    .add("outboard 1 KiB", () -> bao.outboard(input).root()[0])
                    .add("outboard 1 KiB direct", () -> bao.outboard(direct, Bao.Order.PRE).root()[0])
                    .add("outboard 16 KiB", () -> groups.outboard(input).root()[0])
                    .add("outboard 16 KiB direct", () -> groups.outboard(direct, Bao.Order.PRE).root()[0]);
            Map<String, Double> ns = h.run();
            double hash = ns.get("hash");
            for (Map.Entry<String, Double> e : ns.entrySet()) {
                System.out.printf("%2d MiB  %-24s %8.0f MB/s  %.3fx hash%n", size >> 20, e.getKey(),
                        size / e.getValue() * 1e3, hash / e.getValue());
            }
        }
    }
}
