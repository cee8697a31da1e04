package io.chunkhash;

import java.lang.ref.Cleaner;
import java.util.function.LongConsumer;

/**
 * A native state owned by one Java object: freed by {@code close()} or, if the
 * owner is dropped unclosed, by the cleaner. Every use holds this object's
 * lock, so a state is never freed while a native call uses it.
 */
final class NativeHandle implements Runnable {
    private static final Cleaner CLEANER = Cleaner.create();

    private long handle;
    private final LongConsumer free;
    private final Cleaner.Cleanable cleanable;

    NativeHandle(Object owner, long handle, LongConsumer free) {
        this.handle = handle;
        this.free = free;
        this.cleanable = CLEANER.register(owner, this);
    }

    /** The handle, for a native call made under this object's lock. */
    long get() {
        assert Thread.holdsLock(this);
        if (handle == 0) {
            throw new IllegalStateException("the hasher is closed");
        }
        return handle;
    }

    void close() {
        cleanable.clean();
    }

    /** The cleaning action: frees the state once. */
    @Override
    public synchronized void run() {
        long h = handle;
        handle = 0;
        if (h != 0) {
            free.accept(h);
        }
    }
}
