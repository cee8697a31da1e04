package io.chunkhash;

import java.io.IOException;

/**
 * Bao data that does not verify, or that has the wrong length: thrown by
 * {@link Bao.Tree#decode} and {@link Bao.Tree#decodeSlice} at the first byte
 * that fails, and by {@link Bao.Tree#slice} for an outboard or encoding whose
 * length does not fit its header. No unverified byte is ever returned;
 * {@link #verified()} gives the requested bytes verified before the failure.
 */
public final class BaoException extends IOException {
    private static final long serialVersionUID = 1L;

    /** Why the data was refused. */
    public enum Kind {
        /**
         * A parent node or chunk group does not hash to what its parent (or the
         * root hash) says: damage, another root, key, group size or range.
         */
        MISMATCH,
        /** The stream ends before every requested byte is verified. */
        TRUNCATED,
        /** Bytes follow the end of the slice or encoding. */
        EXTENDED,
        /** An outboard or encoding whose length does not fit its header. */
        LENGTH,
    }

    private final Kind kind;
    private final byte[] verified;

    /** Made by the native side: {@code kind} is the lower-case name of a {@link Kind}. */
    BaoException(String kind, String message, byte[] verified) {
        super("chunkhash: " + message);
        this.kind = Kind.valueOf(kind.toUpperCase(java.util.Locale.ROOT));
        this.verified = verified;
    }

    /** Why the data was refused. */
    public Kind kind() {
        return kind;
    }

    /** The requested bytes verified before the failure (a copy; empty if none). */
    public byte[] verified() {
        return verified.clone();
    }
}
