import io.chunkhash.Blake3;
import io.chunkhash.bench.Harness;
public class HashBench {
  public static void main(String[] a) {
    byte[] b64 = new byte[64], b1k = new byte[1024];
    new java.util.SplittableRandom(1).nextBytes(b64); new java.util.SplittableRandom(2).nextBytes(b1k);
    java.util.Map<String, Double> r = new Harness(3, Integer.parseInt(a[0]), Long.parseLong(a[1]))
      .add("Blake3.hash 64 B", () -> Blake3.hash(b64)[0])
      .add("Blake3.hash 1 KiB", () -> Blake3.hash(b1k)[0]).run();
    if (a.length > 3) r = new Harness(3, Integer.parseInt(a[0]), Long.parseLong(a[1])).add("Blake3.hash 64 B", () -> Blake3.hash(b64)[0]).add("Blake3.hash 1 KiB", () -> 0L).run();
    System.out.printf("%s%s 64 B %.1f ns, 1 KiB %.1f ns%n", a[2], a.length > 3 ? " (64 B alone)" : "", r.get("Blake3.hash 64 B"), r.get("Blake3.hash 1 KiB"));
  }
}
