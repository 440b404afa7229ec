package io.bdmpi.examples.store;

import io.bdmpi.ooc.ArrayStore;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The paper's {@code ooc} style (its fastest): every array is a plain heap array, written to disk
 * with {@link ArrayStore#save} and dropped just before each blocking MPI call, and read back just
 * after it. A parked rank then holds none of its data on the heap (with
 * {@code --shrink-heap-on-park} the freed heap also goes back to the OS), and each array moves as
 * one large sequential write and read, with no per-element cost while the rank runs. An array the
 * program declared {@link #readOnly} is written once and then only read back, like the input file
 * a serial out-of-core program reads again each pass. Message buffers, which a receive fills while
 * the rank is parked, cannot leave memory that way: they are mapped like the {@code mlock} style's
 * arrays.
 */
public final class SavedStorage implements Storage {

    private final ArrayStore store;
    private final List<Saved> arrays = new ArrayList<>();
    private final MappedStorage messages;

    /** A storage that saves its arrays in {@code store} (the rank's {@code OutOfCore.store()}). */
    public SavedStorage(ArrayStore store) {
        this.store = store;
        this.messages = new MappedStorage(store);
    }

    /** A save name of its own for each array, as two arrays may share a program's name. */
    private String unique(String name) {
        return "style-" + arrays.size() + "-" + name;
    }

    @Override
    public Ints ints(String name, int length) {
        return add(new SavedInts(unique(name), new int[length]));
    }

    @Override
    public Longs longs(String name, int length) {
        return add(new SavedLongs(unique(name), new long[length]));
    }

    @Override
    public Floats floats(String name, int length) {
        return add(new SavedFloats(unique(name), new float[length]));
    }

    @Override
    public Doubles doubles(String name, int length) {
        return add(new SavedDoubles(unique(name), new double[length]));
    }

    @Override
    public LongMessage longMessage(String name, int length) {
        return messages.longMessage(name, length);
    }

    @Override
    public IntMessage intMessage(String name, int length) {
        return messages.intMessage(name, length);
    }

    private <A extends Saved> A add(A array) {
        arrays.add(array);
        return array;
    }

    /** Saves every array and drops it from the heap. */
    @Override
    public void beforeBlocking() {
        try {
            for (Saved a : arrays) {
                a.save();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Loads every array back (which deletes its saved copy). */
    @Override
    public void afterBlocking() {
        try {
            for (Saved a : arrays) {
                a.load();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void readOnly(Array array) {
        for (Saved a : arrays) {
            if (a == array) {
                a.copy().readOnly = true;
            }
        }
    }

    @Override
    public void discard(Array array) {
        try {
            for (Saved a : arrays) {
                if (a == array) {
                    a.copy().delete();
                    // The program may keep the object (e.g. a CsrBlock whose columns are discarded):
                    // its heap array must not stay with it, in every parked rank.
                    a.drop();
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        arrays.removeIf(a -> a == array);
        messages.discard(array);
    }

    /** Drops the arrays and the saved copies of the read-only ones (the others are on disk only inside a blocking call). */
    @Override
    public void close() throws IOException {
        for (Saved a : arrays) {
            a.copy().delete();
        }
        arrays.clear();
        messages.close();
    }

    /** A heap array that can move to disk and back. */
    private interface Saved {
        void save() throws IOException;

        void load() throws IOException;

        /** Lets the heap array go: the array was discarded (whoever still refers to this object must not use it). */
        void drop();

        DiskCopy copy();
    }

    /** An array's copy on disk, and whether a save must write it. */
    private final class DiskCopy {
        final String name;
        boolean readOnly;
        /** A copy that is still the array's content is on disk. */
        boolean current;

        DiskCopy(String name) {
            this.name = name;
        }

        /** Whether the next save has to write: always, unless the array is read-only and already written. */
        boolean mustWrite() {
            return !(readOnly && current);
        }

        /** After a save (written or not): the copy on disk is the array's content. */
        void saved() {
            current = true;
        }

        /** After a load: a read-only array's copy stays (and stays current), another's is gone. */
        void loaded() {
            current = readOnly;
        }

        void delete() throws IOException {
            if (current) {
                store.deleteSaved(name);
                current = false;
            }
        }
    }

    private final class SavedInts extends HeapStorage.HeapInts implements Saved {
        private final DiskCopy copy;

        SavedInts(String name, int[] a) {
            super(a);
            this.copy = new DiskCopy(name);
        }

        @Override
        public void save() throws IOException {
            if (copy.mustWrite()) {
                store.save(copy.name, a);
            }
            copy.saved();
            a = null;
        }

        @Override
        public void drop() {
            a = null;
        }

        @Override
        public void load() throws IOException {
            a = store.loadInts(copy.name, copy.readOnly);
            copy.loaded();
        }

        @Override
        public DiskCopy copy() {
            return copy;
        }
    }

    private final class SavedLongs extends HeapStorage.HeapLongs implements Saved {
        private final DiskCopy copy;

        SavedLongs(String name, long[] a) {
            super(a);
            this.copy = new DiskCopy(name);
        }

        @Override
        public void save() throws IOException {
            if (copy.mustWrite()) {
                store.save(copy.name, a);
            }
            copy.saved();
            a = null;
        }

        @Override
        public void drop() {
            a = null;
        }

        @Override
        public void load() throws IOException {
            a = store.loadLongs(copy.name, copy.readOnly);
            copy.loaded();
        }

        @Override
        public DiskCopy copy() {
            return copy;
        }
    }

    private final class SavedFloats extends HeapStorage.HeapFloats implements Saved {
        private final DiskCopy copy;

        SavedFloats(String name, float[] a) {
            super(a);
            this.copy = new DiskCopy(name);
        }

        @Override
        public void save() throws IOException {
            if (copy.mustWrite()) {
                store.save(copy.name, a);
            }
            copy.saved();
            a = null;
        }

        @Override
        public void drop() {
            a = null;
        }

        @Override
        public void load() throws IOException {
            a = store.loadFloats(copy.name, copy.readOnly);
            copy.loaded();
        }

        @Override
        public DiskCopy copy() {
            return copy;
        }
    }

    private final class SavedDoubles extends HeapStorage.HeapDoubles implements Saved {
        private final DiskCopy copy;

        SavedDoubles(String name, double[] a) {
            super(a);
            this.copy = new DiskCopy(name);
        }

        @Override
        public void save() throws IOException {
            if (copy.mustWrite()) {
                store.save(copy.name, a);
            }
            copy.saved();
            a = null;
        }

        @Override
        public void drop() {
            a = null;
        }

        @Override
        public void load() throws IOException {
            a = store.loadDoubles(copy.name, copy.readOnly);
            copy.loaded();
        }

        @Override
        public DiskCopy copy() {
            return copy;
        }
    }
}
