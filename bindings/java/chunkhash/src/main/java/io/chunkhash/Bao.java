package io.chunkhash;

import java.nio.ByteBuffer;
import java.util.Objects;

/**
 * Verified streaming (Bao, {@code chunkhash::blake3::bao}): outboards, the
 * combined encoding and slices of a message, and a decoder that returns only
 * bytes proven to belong to a root hash (the message's BLAKE3 hash).
 *
 * <pre>{@code
 * Bao.Tree tree = Bao.tree(4);                          // 16 KiB chunk groups (0: bao's format)
 * Bao.Outboard outboard = tree.outboard(data);          // root hash + parent nodes
 * byte[] slice = tree.slice(data, outboard, 40_000, 1000);
 * byte[] bytes = tree.decodeSlice(outboard.root(), slice, 40_000, 1000);  // or BaoException
 * }</pre>
 *
 * <p>A {@link Tree} fixes the BLAKE3 mode (plain, keyed, key derivation) and
 * the chunk group size, 2^groupLog KiB; readers must use the tree the data was
 * made with. Outboards and encodings are made in one native call over the
 * whole input, with the same SIMD kernels as {@link Blake3#hash}. Null
 * arguments throw {@link NullPointerException}; a group log outside 0..16, a
 * negative start or count, an {@code (off, len)} outside an array and a root
 * that is not 32 bytes throw {@link IllegalArgumentException} or
 * {@link IndexOutOfBoundsException}; data that does not verify throws a
 * {@link BaoException}. Thread-safe.
 */
public final class Bao {
    /** The largest group log: groups of 2^16 chunks (64 MiB), bao-tree's largest. */
    public static final int MAX_GROUP_LOG = 16;

    private Bao() {}

    /** The order of an outboard's parent nodes. */
    public enum Order {
        /** A parent before its subtrees: {@code bao}'s order, which a reader follows without seeking. */
        PRE,
        /** A parent after its subtrees: bao-tree's post-order outboard, which a writer can append. */
        POST,
    }

    /** {@code bao}'s tree: the plain hash, groups of one chunk (1 KiB). */
    public static Tree tree() {
        return tree(0);
    }

    /** The plain hash's tree with groups of 2^groupLog chunks. */
    public static Tree tree(int groupLog) {
        return new Tree(Native.PLAIN, null, groupLog);
    }

    /** The keyed hash's tree (root: {@link Blake3#keyedHash}); the key is 32 bytes. */
    public static Tree keyed(byte[] key, int groupLog) {
        return new Tree(Native.KEYED, Blake3.checkKey(key).clone(), groupLog);
    }

    /** Key derivation's tree over the key material (root: {@link Blake3#deriveKey}). */
    public static Tree deriveKey(String context, int groupLog) {
        return new Tree(Native.DERIVE_KEY, Blake3.contextBytes(context), groupLog);
    }

    /** A message's outboard: its root hash and {@code bao}'s outboard file. */
    public static final class Outboard {
        private final byte[] root;
        private final byte[] bytes;
        private final Order order;

        Outboard(byte[] root, byte[] bytes, Order order) {
            this.root = root;
            this.bytes = bytes;
            this.order = order;
        }

        /** The root hash (32 bytes; a copy). */
        public byte[] root() {
            return root.clone();
        }

        /**
         * {@code bao}'s outboard file (a copy): the message's length as 8
         * little-endian bytes, then the parent nodes, 64 bytes each; without
         * the first 8 bytes, bao-tree's outboard data.
         */
        public byte[] bytes() {
            return bytes.clone();
        }

        /** The order of the nodes. */
        public Order order() {
            return order;
        }
    }

    /** A combined encoding and its root hash. */
    public static final class Encoded {
        private final byte[] root;
        private final byte[] encoding;

        Encoded(byte[] root, byte[] encoding) {
            this.root = root;
            this.encoding = encoding;
        }

        /** The root hash (32 bytes; a copy). */
        public byte[] root() {
            return root.clone();
        }

        /** The encoding ({@code bao encode}'s output for group log 0; a copy): header, then nodes and groups in pre-order. */
        public byte[] encoding() {
            return encoding.clone();
        }
    }

    /** A BLAKE3 mode and a chunk group size: the shape every format of one message shares. */
    public static final class Tree {
        private final int mode;
        private final byte[] keyOrContext;
        private final int groupLog;

        Tree(int mode, byte[] keyOrContext, int groupLog) {
            if (groupLog < 0 || groupLog > MAX_GROUP_LOG) {
                throw new IllegalArgumentException(
                        "group log " + groupLog + " is outside 0 (1 KiB groups) to " + MAX_GROUP_LOG + " (64 MiB)");
            }
            this.mode = mode;
            this.keyOrContext = keyOrContext;
            this.groupLog = groupLog;
        }

        /** Chunks per group, as a power of two. */
        public int groupLog() {
            return groupLog;
        }

        /** The pre-order outboard of {@code data}. */
        public Outboard outboard(byte[] data) {
            return outboard(Inputs.nonNull(data, "data"), 0, data.length, Order.PRE);
        }

        /** The outboard of {@code len} bytes of {@code data} from {@code off}, nodes in {@code order}. */
        public Outboard outboard(byte[] data, int off, int len, Order order) {
            Inputs.checkRange(data, off, len);
            boolean post = Objects.requireNonNull(order, "order is null") == Order.POST;
            byte[] root = new byte[Blake3.OUT_LEN];
            byte[] bytes = Native.baoOutboard(mode, keyOrContext, groupLog, post, data, off, len, root);
            return new Outboard(root, bytes, order);
        }

        /** The outboard of the buffer's remaining bytes (a direct buffer read in place); the position is not moved. */
        public Outboard outboard(ByteBuffer data, Order order) {
            Objects.requireNonNull(data, "data is null");
            boolean post = Objects.requireNonNull(order, "order is null") == Order.POST;
            if (data.isDirect()) {
                byte[] root = new byte[Blake3.OUT_LEN];
                byte[] bytes = Native.baoOutboardDirect(
                        mode, keyOrContext, groupLog, post, data, data.position(), data.remaining(), root);
                return new Outboard(root, bytes, order);
            }
            if (data.hasArray()) {
                return outboard(data.array(), data.arrayOffset() + data.position(), data.remaining(), order);
            }
            byte[] copy = Inputs.copyRemaining(data); // a read-only heap buffer
            return outboard(copy, 0, copy.length, order);
        }

        /** The combined encoding of {@code data}. */
        public Encoded encode(byte[] data) {
            Inputs.nonNull(data, "data");
            byte[] root = new byte[Blake3.OUT_LEN];
            byte[] encoding = Native.baoEncode(mode, keyOrContext, groupLog, data, 0, data.length, root);
            return new Encoded(root, encoding);
        }

        /**
         * The slice for bytes {@code start .. start + count} of {@code data}
         * (as {@code bao slice} makes it), taken from its outboard. Nodes and
         * data are copied, not checked: readers check them. A
         * {@link BaoException} of kind {@code LENGTH} if the outboard is not
         * for a message of {@code data}'s length.
         */
        public byte[] slice(byte[] data, Outboard outboard, long start, long count) throws BaoException {
            Objects.requireNonNull(outboard, "outboard is null");
            return slice(data, outboard.bytes, outboard.order, start, count);
        }

        /** {@link #slice(byte[], Outboard, long, long)} with an outboard file read from elsewhere. */
        public byte[] slice(byte[] data, byte[] outboardFile, Order order, long start, long count) throws BaoException {
            Inputs.nonNull(data, "data");
            Inputs.nonNull(outboardFile, "outboard");
            boolean post = Objects.requireNonNull(order, "order is null") == Order.POST;
            checkRange(start, count);
            return sliceOrThrow(post, data, outboardFile, start, count);
        }

        /** The slice for bytes {@code start .. start + count}, taken from a combined encoding. */
        public byte[] sliceEncoding(byte[] encoding, long start, long count) throws BaoException {
            Inputs.nonNull(encoding, "encoding");
            checkRange(start, count);
            return sliceOrThrow(false, encoding, null, start, count);
        }

        private byte[] sliceOrThrow(boolean post, byte[] source, byte[] outboard, long start, long count)
                throws BaoException {
            return Native.baoSlice(groupLog, post, source, outboard, start, count);
        }

        /** The whole message of a combined encoding, verified against {@code root}; a {@link BaoException} otherwise. */
        public byte[] decode(byte[] root, byte[] encoding) throws BaoException {
            Inputs.nonNull(encoding, "encoding");
            return Native.baoDecode(mode, keyOrContext, groupLog, checkRoot(root), encoding, true, 0, 0);
        }

        /**
         * The bytes {@code start .. start + count} (capped at the message's
         * end) of a slice made for that range, verified against {@code root};
         * a {@link BaoException} at the first byte that does not verify, or for
         * a slice that ends early or runs on past its end.
         */
        public byte[] decodeSlice(byte[] root, byte[] slice, long start, long count) throws BaoException {
            Inputs.nonNull(slice, "slice");
            checkRange(start, count);
            return Native.baoDecode(mode, keyOrContext, groupLog, checkRoot(root), slice, false, start, count);
        }

        private static byte[] checkRoot(byte[] root) {
            Inputs.nonNull(root, "root");
            if (root.length != Blake3.OUT_LEN) {
                throw new IllegalArgumentException("root: " + root.length + " bytes, a BLAKE3 hash is " + Blake3.OUT_LEN);
            }
            return root;
        }

        private static void checkRange(long start, long count) {
            if (start < 0 || count < 0) {
                throw new IllegalArgumentException("start " + start + " and count " + count + " must not be negative");
            }
        }
    }
}
