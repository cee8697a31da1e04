package io.chunkhash.bench;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * A small benchmark harness: contenders run in interleaved rounds (each round
 * times every contender once, in turn), so that a noisy machine slows all of
 * them alike; the first rounds are warm-up (JIT) and dropped; the figure is
 * the median of the rest. Each contender returns a value that is folded into
 * a sink, so the JIT cannot drop the work.
 */
public final class Harness {
    private final Map<String, LongSupplier> contenders = new LinkedHashMap<>();
    private final int warmupRounds;
    private final int rounds;
    private final long roundNanos;
    public static long sink;

    public Harness(int warmupRounds, int rounds, long roundMillis) {
        this.warmupRounds = warmupRounds;
        this.rounds = rounds;
        this.roundNanos = roundMillis * 1_000_000L;
    }

    public Harness add(String name, LongSupplier op) {
        contenders.put(name, op);
        return this;
    }

    /** Median nanoseconds per operation of each contender, in the order added. */
    public Map<String, Double> run() {
        Map<String, List<Double>> samples = new LinkedHashMap<>();
        for (String name : contenders.keySet()) samples.put(name, new ArrayList<>());
        Map<String, Long> batch = new LinkedHashMap<>();
        for (String name : contenders.keySet()) batch.put(name, 1L);
        for (int round = 0; round < warmupRounds + rounds; round++) {
            for (Map.Entry<String, LongSupplier> c : contenders.entrySet()) {
                long n = batch.get(c.getKey());
                long acc = 0;
                long start = System.nanoTime();
                for (long i = 0; i < n; i++) acc += c.getValue().getAsLong();
                long elapsed = System.nanoTime() - start;
                sink += acc;
                // Aim each timing at the round length.
                double perOp = (double) elapsed / n;
                batch.put(c.getKey(), Math.max(1L, (long) (roundNanos / Math.max(perOp, 1.0))));
                if (round >= warmupRounds) samples.get(c.getKey()).add(perOp);
            }
        }
        Map<String, Double> medians = new LinkedHashMap<>();
        for (Map.Entry<String, List<Double>> s : samples.entrySet()) {
            double[] v = s.getValue().stream().mapToDouble(Double::doubleValue).toArray();
            Arrays.sort(v);
            medians.put(s.getKey(), v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2);
        }
        return medians;
    }
}
