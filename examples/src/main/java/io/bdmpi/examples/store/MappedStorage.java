package io.bdmpi.examples.store;

import io.bdmpi.ooc.ArrayStore;
import io.bdmpi.ooc.DoubleArray;
import io.bdmpi.ooc.FloatArray;
import io.bdmpi.ooc.IntArray;
import io.bdmpi.ooc.LongArray;
import io.bdmpi.ooc.MappedArray;
import io.bdmpi.ooc.Residency;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.Buffer;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.DoubleBuffer;
import java.nio.FloatBuffer;
import java.nio.IntBuffer;
import java.nio.LongBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The paper's {@code mlock} style: every array is an off-heap array of the rank's
 * {@link ArrayStore}, a memory-mapped file that the slave runtime releases when the rank parks and
 * brings back in before its blocking call returns. Around blocking calls the style only tells the
 * store when a stretch of them begins and ends (see below).
 *
 * <p>The residency is {@link Residency#SEQUENTIAL}, not {@link Residency#MLOCK}: what the paper's
 * {@code mlock} buys is that a resumed rank finds its data in memory instead of faulting it in
 * page by page, and SEQUENTIAL gives that (a sequential read with aggressive read-ahead that
 * starts as the call returns and runs ahead of the computing) — the applications scan their
 * arrays whole every iteration. Locking would add only that the running ranks' pages cannot be
 * evicted, at the price of {@code RLIMIT_MEMLOCK} (often 8 MiB for a user, so MLOCK fails without
 * privileges) and of locked pages counting against the memory limit with no way to reclaim them.
 *
 * <p>Inside a {@link Storage#blocking} stretch the arrays are brought back once, at its end, not
 * at every resume between two of its calls (a K-means iteration parks three times).
 */
public final class MappedStorage implements Storage {

    /** How every array of this style is brought back at resume (see the class comment). */
    static final Residency RESIDENCY = Residency.SEQUENTIAL;

    /** Whether a file's little-endian elements can be mapped as they are: on a little-endian platform. */
    private static final boolean MAPS_FILES = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN;

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
        return unchecked(() -> new MappedInts(store.ints(unique(name), length, RESIDENCY), length));
    }

    @Override
    public Longs longs(String name, int length) {
        return unchecked(() -> new MappedLongs(store.longs(unique(name), length, RESIDENCY), length));
    }

    /** A view of the file in the store, where the platform reads the file's little-endian elements as they are ({@link #MAPS_FILES}). */
    @Override
    public Ints intsOfFile(String name, Path file, long offset, int length) {
        return MAPS_FILES ? unchecked(() -> new MappedInts(store.intView(unique(name), file, offset, length, RESIDENCY), length))
                : null;
    }

    /** As {@link #intsOfFile}, for {@code float}. */
    @Override
    public Floats floatsOfFile(String name, Path file, long offset, int length) {
        return MAPS_FILES ? unchecked(() -> new MappedFloats(store.floatView(unique(name), file, offset, length, RESIDENCY), length))
                : null;
    }

    /**
     * A mapped array like the others, but with residency {@link Residency#NONE}: a buffer about to
     * be refilled is not worth reading back in at resume; its pages come back as they are touched.
     */
    @Override
    public LongMessage longMessage(String name, int length) {
        checkOneMapping(name, length, Long.BYTES);
        return unchecked(() -> new MappedLongs(store.longs(unique(name), length, Residency.NONE), length));
    }

    /** As {@link #longMessage}, for {@code int}. */
    @Override
    public IntMessage intMessage(String name, int length) {
        checkOneMapping(name, length, Integer.BYTES);
        return unchecked(() -> new MappedInts(store.ints(unique(name), length, Residency.NONE), length));
    }

    /** A call to the store; Storage's methods declare no checked exception, so its I/O errors go unchecked. */
    private interface StoreCall<T> {
        T run() throws IOException;
    }

    private static <T> T unchecked(StoreCall<T> call) {
        try {
            return call.run();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** MPI takes one buffer: a message must fit one mapping. */
    private static void checkOneMapping(String name, int length, int elementBytes) {
        if ((long) length * elementBytes > MappedArray.CHUNK_BYTES) {
            throw new IllegalArgumentException("message buffer " + name + ": " + length + " elements of " + elementBytes
                    + " bytes do not fit one mapping of " + MappedArray.CHUNK_BYTES + " bytes");
        }
    }

    @Override
    public Floats floats(String name, int length) {
        return unchecked(() -> new MappedFloats(store.floats(unique(name), length, RESIDENCY), length));
    }

    @Override
    public Doubles doubles(String name, int length) {
        return unchecked(() -> new MappedDoubles(store.doubles(unique(name), length, RESIDENCY), length));
    }

    /** A stretch of blocking calls begins: resuming inside it need not bring the arrays back. */
    @Override
    public void beforeBlocking() {
        store.deferPrefetch();
    }

    /** The stretch is over: the arrays come back now if the rank was parked in it. */
    @Override
    public void afterBlocking() {
        try {
            store.endPrefetchDeferral();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Unmaps and deletes the array now (a view's file stays: only the mapping goes). */
    @Override
    public void discard(Array array) {
        if (array instanceof Mapped m) {
            try {
                store.delete(m.a().name());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            names.remove(m.a().name());
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

    /** An array of this storage: a view of one array of the store. */
    private interface Mapped {
        MappedArray a();
    }

    /**
     * Index of the chunk view holding element {@code i} is {@code i >>> shift}, its place in it
     * {@code i & mask}: every view but the last is full (a power of two of elements), so a
     * single-view array needs no split at all.
     */
    private static int viewShift(MappedArray a, int elementBytes) {
        return a.chunkCount() <= 1 ? 31 : Integer.numberOfTrailingZeros(a.chunkView(0).capacity() / elementBytes);
    }

    /** A run of {@code n} elements from element {@code from} of view {@code view}, and {@code done} before it in the caller's array. */
    @FunctionalInterface
    private interface Run {
        void copy(int view, int from, int done, int n);
    }

    /** Splits elements {@code at .. at+len-1} into runs that each lie in one view: a bulk copy cannot cross a mapping. */
    private static void runs(Buffer[] views, int shift, int at, int len, Run run) {
        for (int done = 0; done < len; ) {
            int i = at + done;
            int view = i >>> shift;
            int from = i & ((1 << shift) - 1);
            int n = Math.min(len - done, views[view].capacity() - from);
            run.copy(view, from, done, n);
            done += n;
        }
    }

    private static IntBuffer[] intViews(IntArray a) {
        IntBuffer[] v = new IntBuffer[a.chunkCount()];
        for (int i = 0; i < v.length; i++) {
            v[i] = a.chunkView(i).asIntBuffer();
        }
        return v;
    }

    private static LongBuffer[] longViews(LongArray a) {
        LongBuffer[] v = new LongBuffer[a.chunkCount()];
        for (int i = 0; i < v.length; i++) {
            v[i] = a.chunkView(i).asLongBuffer();
        }
        return v;
    }

    private static FloatBuffer[] floatViews(FloatArray a) {
        FloatBuffer[] v = new FloatBuffer[a.chunkCount()];
        for (int i = 0; i < v.length; i++) {
            v[i] = a.chunkView(i).asFloatBuffer();
        }
        return v;
    }

    private static DoubleBuffer[] doubleViews(DoubleArray a) {
        DoubleBuffer[] v = new DoubleBuffer[a.chunkCount()];
        for (int i = 0; i < v.length; i++) {
            v[i] = a.chunkView(i).asDoubleBuffer();
        }
        return v;
    }

    /** The one view of a message buffer, or {@code empty} for an empty one. */
    private static Buffer singleView(MappedArray a, Buffer[] views, Buffer empty) {
        if (views.length > 1) {
            throw new IllegalStateException("array " + a.name() + " spans " + views.length + " mappings: not an MPI buffer");
        }
        return views.length == 0 ? empty : views[0];
    }

    /**
     * Elements are read and written through typed views of the chunks: no chunk lookup per element.
     * Any int array is also a message buffer if it fits one mapping ({@link #intMessage} checks that).
     */
    private record MappedInts(IntArray a, int length, IntBuffer[] views, int shift) implements IntMessage, Mapped {
        MappedInts(IntArray a, int length) {
            this(a, length, intViews(a), viewShift(a, Integer.BYTES));
        }

        @Override
        public Object buffer() {
            return singleView(a, views, ByteBuffer.allocateDirect(0).asIntBuffer());
        }

        @Override
        public int get(int i) {
            return views[i >>> shift].get(i & ((1 << shift) - 1));
        }

        @Override
        public void set(int i, int value) {
            views[i >>> shift].put(i & ((1 << shift) - 1), value);
        }

        @Override
        public void copyTo(int at, int[] dst, int len) {
            runs(views, shift, at, len, (view, from, done, n) -> views[view].get(from, dst, done, n));
        }

        @Override
        public void copyFrom(int at, int[] src, int len) {
            runs(views, shift, at, len, (view, from, done, n) -> views[view].put(from, src, done, n));
        }
    }

    /** Any long array is also a message buffer if it fits one mapping ({@link #longMessage} checks that). */
    private record MappedLongs(LongArray a, int length, LongBuffer[] views, int shift) implements LongMessage, Mapped {
        MappedLongs(LongArray a, int length) {
            this(a, length, longViews(a), viewShift(a, Long.BYTES));
        }

        @Override
        public Object buffer() {
            return singleView(a, views, ByteBuffer.allocateDirect(0).asLongBuffer());
        }

        @Override
        public long get(int i) {
            return views[i >>> shift].get(i & ((1 << shift) - 1));
        }

        @Override
        public void set(int i, long value) {
            views[i >>> shift].put(i & ((1 << shift) - 1), value);
        }

        @Override
        public void copyFrom(int at, long[] src, int len) {
            runs(views, shift, at, len, (view, from, done, n) -> views[view].put(from, src, done, n));
        }

        @Override
        public void copyTo(int at, long[] dst, int len) {
            runs(views, shift, at, len, (view, from, done, n) -> views[view].get(from, dst, done, n));
        }
    }

    private record MappedFloats(FloatArray a, int length, FloatBuffer[] views, int shift) implements Floats, Mapped {
        MappedFloats(FloatArray a, int length) {
            this(a, length, floatViews(a), viewShift(a, Float.BYTES));
        }

        @Override
        public float get(int i) {
            return views[i >>> shift].get(i & ((1 << shift) - 1));
        }

        @Override
        public void set(int i, float value) {
            views[i >>> shift].put(i & ((1 << shift) - 1), value);
        }

        @Override
        public void copyTo(int at, float[] dst, int len) {
            runs(views, shift, at, len, (view, from, done, n) -> views[view].get(from, dst, done, n));
        }

        @Override
        public void copyFrom(int at, float[] src, int len) {
            runs(views, shift, at, len, (view, from, done, n) -> views[view].put(from, src, done, n));
        }
    }

    private record MappedDoubles(DoubleArray a, int length, DoubleBuffer[] views, int shift) implements Doubles, Mapped {
        MappedDoubles(DoubleArray a, int length) {
            this(a, length, doubleViews(a), viewShift(a, Double.BYTES));
        }

        @Override
        public double get(int i) {
            return views[i >>> shift].get(i & ((1 << shift) - 1));
        }

        @Override
        public void set(int i, double value) {
            views[i >>> shift].put(i & ((1 << shift) - 1), value);
        }

        @Override
        public void copyTo(int at, double[] dst, int len) {
            runs(views, shift, at, len, (view, from, done, n) -> views[view].get(from, dst, done, n));
        }

        @Override
        public void copyFrom(int at, double[] src, int len) {
            runs(views, shift, at, len, (view, from, done, n) -> views[view].put(from, src, done, n));
        }
    }
}
