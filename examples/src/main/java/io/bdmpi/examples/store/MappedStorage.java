package io.bdmpi.examples.store;

import io.bdmpi.ooc.ArrayStore;
import io.bdmpi.ooc.DoubleArray;
import io.bdmpi.ooc.FloatArray;
import io.bdmpi.ooc.IntArray;
import io.bdmpi.ooc.LongArray;
import io.bdmpi.ooc.Residency;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The paper's {@code mlock} style: every array is an off-heap array of the rank's
 * {@link ArrayStore}, a memory-mapped file that the slave runtime releases when the rank parks and
 * brings back in before its blocking call returns. The program itself does nothing around blocking
 * calls.
 *
 * <p>The residency is {@link Residency#SEQUENTIAL}, not {@link Residency#MLOCK}: what the paper's
 * {@code mlock} buys is that a resumed rank finds its whole data in memory instead of faulting it
 * in page by page, and SEQUENTIAL gives exactly that (a synchronous sequential read with
 * aggressive read-ahead before the call returns) — the applications scan their arrays whole every
 * iteration. Locking would add only that the running ranks' pages cannot be evicted, at the price
 * of {@code RLIMIT_MEMLOCK} (often 8 MiB for a user, so MLOCK fails without privileges) and of
 * locked pages counting against the memory limit with no way to reclaim them.
 */
public final class MappedStorage implements Storage {

    /** How every array of this style is brought back at resume (see the class comment). */
    static final Residency RESIDENCY = Residency.SEQUENTIAL;

    private final ArrayStore store;
    /** Store names of the arrays made, so that close deletes their files. */
    private final List<String> names = new ArrayList<>();

    /** A storage whose arrays live in {@code store} (the rank's {@code OutOfCore.store()}). */
    public MappedStorage(ArrayStore store) {
        this.store = store;
    }

    /**
     * A store name of its own for each array: the store reopens an existing name with its old
     * contents, while every array of a Storage is new and all zeros.
     */
    private String unique(String name) {
        String n = "style-" + names.size() + "-" + name;
        names.add(n);
        return n;
    }

    @Override
    public Ints ints(String name, int length) {
        try {
            return new MappedInts(store.ints(unique(name), length, RESIDENCY), length);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public Longs longs(String name, int length) {
        try {
            return new MappedLongs(store.longs(unique(name), length, RESIDENCY), length);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public Floats floats(String name, int length) {
        try {
            return new MappedFloats(store.floats(unique(name), length, RESIDENCY), length);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public Doubles doubles(String name, int length) {
        try {
            return new MappedDoubles(store.doubles(unique(name), length, RESIDENCY), length);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Unmaps and deletes every array made here. */
    @Override
    public void close() throws IOException {
        for (String n : names) {
            store.delete(n);
        }
        names.clear();
    }

    private record MappedInts(IntArray a, int length) implements Ints {
        @Override
        public int get(int i) {
            return a.get(i);
        }

        @Override
        public void set(int i, int value) {
            a.set(i, value);
        }
    }

    private record MappedLongs(LongArray a, int length) implements Longs {
        @Override
        public long get(int i) {
            return a.get(i);
        }

        @Override
        public void set(int i, long value) {
            a.set(i, value);
        }
    }

    private record MappedFloats(FloatArray a, int length) implements Floats {
        @Override
        public float get(int i) {
            return a.get(i);
        }

        @Override
        public void set(int i, float value) {
            a.set(i, value);
        }
    }

    private record MappedDoubles(DoubleArray a, int length) implements Doubles {
        @Override
        public double get(int i) {
            return a.get(i);
        }

        @Override
        public void set(int i, double value) {
            a.set(i, value);
        }
    }
}
