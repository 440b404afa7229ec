package io.bdmpi.examples.store;

/** The plain style: every array is an ordinary Java array on the heap. */
public final class HeapStorage implements Storage {

    /** The one instance: heap arrays need no per-program state. */
    public static final HeapStorage INSTANCE = new HeapStorage();

    private HeapStorage() {
    }

    @Override
    public Ints ints(String name, int length) {
        return new HeapInts(new int[length]);
    }

    @Override
    public Longs longs(String name, int length) {
        return new HeapLongs(new long[length]);
    }

    @Override
    public Floats floats(String name, int length) {
        return new HeapFloats(new float[length]);
    }

    @Override
    public Doubles doubles(String name, int length) {
        return new HeapDoubles(new double[length]);
    }

    /** Plain direct memory that a drop leaves alone: this style keeps all its data in RAM anyway. */
    @Override
    public LongScratch longScratch(String name, int length) {
        return ScratchLongs.kept(length);
    }

    @Override
    public LongMessage longMessage(String name, int length) {
        return new HeapLongMessage(new long[length]);
    }

    @Override
    public IntMessage intMessage(String name, int length) {
        return new HeapIntMessage(new int[length]);
    }

    /** A view of {@code a} itself (e.g. an MPI message buffer that a core fills directly): no copy. */
    public static Longs wrap(long[] a) {
        return new HeapLongs(a);
    }

    /** As {@link #wrap(long[])}, for {@code double}. */
    public static Doubles wrap(double[] a) {
        return new HeapDoubles(a);
    }

    /** A heap array; {@link SavedStorage} swaps the array out and back in. */
    static class HeapInts implements Ints {
        int[] a;

        HeapInts(int[] a) {
            this.a = a;
        }

        @Override
        public int get(int i) {
            return a[i];
        }

        @Override
        public void set(int i, int value) {
            a[i] = value;
        }

        @Override
        public int length() {
            return a.length;
        }

        @Override
        public void copyFrom(int at, int[] src, int len) {
            System.arraycopy(src, 0, a, at, len);
        }

        @Override
        public void copyTo(int at, int[] dst, int len) {
            System.arraycopy(a, at, dst, 0, len);
        }

        @Override
        public int[] heapArray() {
            return a;
        }
    }

    /** A heap array; {@link SavedStorage} swaps the array out and back in. */
    static class HeapLongs implements Longs {
        long[] a;

        HeapLongs(long[] a) {
            this.a = a;
        }

        @Override
        public long get(int i) {
            return a[i];
        }

        @Override
        public void set(int i, long value) {
            a[i] = value;
        }

        @Override
        public void copyFrom(int at, long[] src, int len) {
            System.arraycopy(src, 0, a, at, len);
        }

        @Override
        public void copyTo(int at, long[] dst, int len) {
            System.arraycopy(a, at, dst, 0, len);
        }

        @Override
        public int length() {
            return a.length;
        }
    }

    /** A message buffer on the heap: the array itself goes to MPI. */
    private static final class HeapIntMessage extends HeapInts implements IntMessage {
        HeapIntMessage(int[] a) {
            super(a);
        }

        @Override
        public Object buffer() {
            return a;
        }
    }

    /** A message buffer on the heap: the array itself goes to MPI. */
    private static final class HeapLongMessage extends HeapLongs implements LongMessage {
        HeapLongMessage(long[] a) {
            super(a);
        }

        @Override
        public Object buffer() {
            return a;
        }
    }

    /** A heap array; {@link SavedStorage} swaps the array out and back in. */
    static class HeapFloats implements Floats {
        float[] a;

        HeapFloats(float[] a) {
            this.a = a;
        }

        @Override
        public float get(int i) {
            return a[i];
        }

        @Override
        public void set(int i, float value) {
            a[i] = value;
        }

        @Override
        public int length() {
            return a.length;
        }

        @Override
        public void copyFrom(int at, float[] src, int len) {
            System.arraycopy(src, 0, a, at, len);
        }

        @Override
        public void copyTo(int at, float[] dst, int len) {
            System.arraycopy(a, at, dst, 0, len);
        }
    }

    /** A heap array; {@link SavedStorage} swaps the array out and back in. */
    static class HeapDoubles implements Doubles {
        double[] a;

        HeapDoubles(double[] a) {
            this.a = a;
        }

        @Override
        public double get(int i) {
            return a[i];
        }

        @Override
        public void set(int i, double value) {
            a[i] = value;
        }

        @Override
        public void copyTo(int at, double[] dst, int len) {
            System.arraycopy(a, at, dst, 0, len);
        }

        @Override
        public void copyFrom(int at, double[] src, int len) {
            System.arraycopy(src, 0, a, at, len);
        }

        @Override
        public int length() {
            return a.length;
        }
    }
}
