package io.bdmpi.examples.store;

import io.bdmpi.ooc.ScratchBuffer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.LongBuffer;

/** A {@link Storage.LongScratch} in a {@link ScratchBuffer}. */
final class ScratchLongs implements Storage.LongScratch {

    private final ScratchBuffer memory;
    private final LongBuffer longs;

    ScratchLongs(int length) {
        memory = ScratchBuffer.allocate(Math.multiplyExact(length, Long.BYTES));
        longs = memory.bytes().asLongBuffer();
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
        try {
            memory.drop();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
