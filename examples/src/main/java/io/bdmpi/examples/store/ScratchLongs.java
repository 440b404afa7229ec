package io.bdmpi.examples.store;

import io.bdmpi.ooc.ScratchBuffer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.LongBuffer;

/**
 * A {@link Storage.LongScratch}: a {@link ScratchBuffer} whose drop gives its pages back, or plain
 * direct memory that a drop leaves alone.
 */
final class ScratchLongs implements Storage.LongScratch {

    /** Null for plain direct memory. */
    private final ScratchBuffer memory;
    private final LongBuffer longs;

    private ScratchLongs(ScratchBuffer memory, ByteBuffer bytes) {
        this.memory = memory;
        this.longs = bytes.asLongBuffer();
    }

    /** In a {@link ScratchBuffer}: a drop gives the pages back to the OS. */
    static ScratchLongs released(int length) {
        ScratchBuffer memory = ScratchBuffer.allocate(Math.multiplyExact(length, Long.BYTES));
        return new ScratchLongs(memory, memory.bytes());
    }

    /**
     * In plain direct memory, which stays until the buffer is garbage: for a style that keeps its
     * data in RAM anyway. It needs no native call (binding madvise through jnr-ffi costs a slave
     * JVM about 0.25 s of CPU, a large part of a rank's set-up).
     */
    static ScratchLongs kept(int length) {
        return new ScratchLongs(null, ByteBuffer.allocateDirect(Math.multiplyExact(length, Long.BYTES)).order(ByteOrder.nativeOrder()));
    }

    @Override
    public int length() {
        return longs.capacity();
    }

    @Override
    public long get(int i) {
        return longs.get(i);
    }

    @Override
    public void set(int i, long value) {
        longs.put(i, value);
    }

    @Override
    public void copyFrom(int at, long[] src, int len) {
        longs.put(at, src, 0, len);
    }

    @Override
    public void copyTo(int at, long[] dst, int len) {
        longs.get(at, dst, 0, len);
    }

    @Override
    public LongBuffer buffer() {
        return longs;
    }

    @Override
    public void drop() {
        if (memory == null) {
            return;
        }
        try {
            memory.drop();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
