package io.bdmpi.ooc;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * One rank's out-of-core data, in a directory of the job's work directory (removed with the job):
 * <ul>
 *   <li><b>off-heap arrays</b> ({@link #ints}, {@link #doubles}, ...): memory-mapped files that
 *       stay valid while the rank is parked and resumed. The slave runtime calls {@link #release()}
 *       when the rank parks in a blocking MPI call and {@link #prefetch()} when it resumes, each
 *       array as its {@link Residency} says; the OS can evict a parked rank's arrays without swap.
 *       A <b>view</b> ({@link #intView}, {@link #floatView}) is such an array that maps a range
 *       of a file the store does not own, read-only (a program's input, read in place): nothing
 *       to copy, nothing to write out at a park. A small descriptor file in the store's directory
 *       tells the master where it lies ({@link #views}), so that it reads it ahead and counts it.</li>
 *   <li><b>saved heap arrays</b> ({@link #save(String, double[])}, {@link #loadDoubles}): the
 *       "out-of-core" style of the BDMPI paper. A rank writes its large arrays to disk before a
 *       blocking call, drops its references, and reads them back afterwards, in large sequential
 *       I/O with no per-element cost.</li>
 * </ul>
 * Names are 1-200 characters of {@code [A-Za-z0-9_.-]}, not starting with a dot; an off-heap array
 * and a saved array may share a name. Thread-safe.
 */
public final class ArrayStore implements AutoCloseable {

    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_-][A-Za-z0-9_.-]{0,199}");
    private static final String ARRAY_SUFFIX = ".array";
    /**
     * Off-heap arrays of residency {@link Residency#NONE} (message buffers, which a resume does
     * not bring back) have a suffix of their own, so that {@link #readAhead} can leave them out.
     */
    private static final String BUFFER_SUFFIX = ".buffer";
    private static final String SAVED_SUFFIX = ".saved";
    /** A view's descriptor: "offset length residency path" (see {@link View}). */
    private static final String VIEW_SUFFIX = ".view";
    /** Bytes per read or write of saved arrays: large sequential I/O through one direct buffer. */
    static final int IO_BYTES = 8 << 20;
    /**
     * Threads that read {@link Residency#SEQUENTIAL} arrays back in after a resume (see
     * {@link #prefetch()}); made when needed, gone after a minute idle.
     */
    private static final ExecutorService LOADERS = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "bdmpi-array-load");
        t.setDaemon(true);
        return t;
    });

    private final Path dir;
    private final Map<String, MappedArray> arrays = new LinkedHashMap<>();
    private ByteBuffer staging;
    private long tempSequence;
    private boolean closed;
    /** prefetch() does nothing: the rank is inside a stretch of blocking calls (see deferPrefetch). */
    private volatile boolean prefetchDeferred;
    /** The arrays were released and have not been brought back since. */
    private volatile boolean released;
    /**
     * An array may have pages in memory that a release would let go: one was brought back or
     * made since the last release.
     */
    private volatile boolean mayBeInMemory;
    /** The reads of SEQUENTIAL arrays the last prefetch started. */
    private final List<Future<?>> loads = new ArrayList<>();

    private ArrayStore(Path dir) {
        this.dir = dir;
    }

    /**
     * Opens (making it if needed) the store in {@code dir}; arrays already there can be reopened by
     * name. Starts binding the libc calls its arrays need from the first release on, in the
     * background ({@link Libc#bindInBackground}).
     */
    public static ArrayStore open(Path dir) throws IOException {
        Files.createDirectories(dir);
        Libc.bindInBackground();
        return new ArrayStore(dir);
    }

    /** The store's directory. */
    public Path directory() {
        return dir;
    }

    /** The directory of rank {@code rank}'s store, below the job's spill directory: slaves and master agree on it. */
    public static Path rankDirectory(Path spillDir, int rank) {
        return spillDir.resolve("arrays").resolve("r" + rank);
    }

    /**
     * Where the off-heap arrays of the store in {@code dir} lie, for whoever measures them from
     * outside: each array's file whole, and each view's range of its file. A file deleted
     * meanwhile is left out.
     */
    public static List<View> arrayRanges(Path dir) throws IOException {
        List<View> ranges = wholeFiles(dir, ARRAY_SUFFIX, BUFFER_SUFFIX);
        ranges.addAll(views(dir));
        return ranges;
    }

    /**
     * Asks the kernel to read into the page cache, in the background, what the rank of store
     * {@code dir} reads when it next resumes: its off-heap arrays but message buffers (residency
     * NONE), and its saved arrays. The master calls it for the slave it will resume next, while
     * another runs, so that the slave's prefetch or loads find their data in memory instead of
     * waiting for the disk. A file deleted meanwhile is skipped.
     *
     * @param maxBytes read nothing if the files hold more than this (the memory they may take)
     * @return the bytes asked for
     */
    public static long readAhead(Path dir, long maxBytes) throws IOException {
        List<View> ranges = wholeFiles(dir, ARRAY_SUFFIX, SAVED_SUFFIX);
        for (View v : views(dir)) {
            if (v.residency().broughtBackWhole()) {
                ranges.add(v);
            }
        }
        if (ranges.stream().mapToLong(View::length).sum() > maxBytes) {
            return 0;
        }
        long bytes = 0;
        for (View range : ranges) {
            if (Libc.willNeed(range.file(), range.offset(), range.length())) {
                bytes += range.length();
            }
        }
        return bytes;
    }

    /**
     * A range of a file that holds a rank's data: where a view's elements lie (see {@link #views}),
     * or, for what reads or measures a store's data from outside, a whole array file.
     *
     * @param file      the file
     * @param offset    the range's first byte
     * @param length    its bytes
     * @param residency how the rank brings it back when it resumes
     */
    public record View(Path file, long offset, long length, Residency residency) {

        /** The descriptor's one line. */
        String line() {
            return offset + " " + length + " " + residency + " " + file.toAbsolutePath();
        }

        static View parse(String line) {
            String[] f = line.split(" ", 4);
            return new View(Path.of(f[3]), Long.parseLong(f[0]), Long.parseLong(f[1]), Residency.valueOf(f[2]));
        }
    }

    /**
     * The files of {@code dir} with one of {@code suffixes}, each as a range of its whole length
     * (residency {@code NONE} for a message buffer's, else {@code SEQUENTIAL}: brought back or
     * not); a file deleted since the listing is left out.
     */
    private static List<View> wholeFiles(Path dir, String... suffixes) throws IOException {
        List<View> files = new ArrayList<>();
        for (Path file : filesEndingWith(dir, suffixes)) {
            Residency residency = file.getFileName().toString().endsWith(BUFFER_SUFFIX) ? Residency.NONE : Residency.SEQUENTIAL;
            try {
                files.add(new View(file, 0, Files.size(file), residency));
            } catch (NoSuchFileException gone) {
                // Deleted since the listing: not the rank's data any more.
            }
        }
        return files;
    }

    /** The views of the store in {@code dir} (none if there is no such directory); a view deleted meanwhile is left out. */
    public static List<View> views(Path dir) throws IOException {
        List<View> views = new ArrayList<>();
        for (Path descriptor : filesEndingWith(dir, VIEW_SUFFIX)) {
            try {
                views.add(View.parse(Files.readString(descriptor)));
            } catch (NoSuchFileException gone) {
                // Deleted since the listing.
            }
        }
        return views;
    }

    /** The files of {@code dir} whose names end with one of {@code suffixes}, sorted; none if there is no such directory. */
    private static List<Path> filesEndingWith(Path dir, String... suffixes) throws IOException {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> Arrays.stream(suffixes).anyMatch(p.getFileName().toString()::endsWith)).sorted().toList();
        }
    }

    // ---------------------------------------------------------------- off-heap arrays

    /**
     * The off-heap {@code byte} array {@code name}: made with {@code length} zeros, or reopened with
     * its contents if it exists (in this store, from earlier in the job).
     *
     * @throws IllegalArgumentException if the name is invalid, or the array exists with another
     *                                  type, length or residency
     */
    public ByteArray bytes(String name, long length, Residency residency) throws IOException {
        return array(name, ByteArray.class, length, residency);
    }

    /** As {@link #bytes}, for {@code int}. */
    public IntArray ints(String name, long length, Residency residency) throws IOException {
        return array(name, IntArray.class, length, residency);
    }

    /** As {@link #bytes}, for {@code long}. */
    public LongArray longs(String name, long length, Residency residency) throws IOException {
        return array(name, LongArray.class, length, residency);
    }

    /** As {@link #bytes}, for {@code float}. */
    public FloatArray floats(String name, long length, Residency residency) throws IOException {
        return array(name, FloatArray.class, length, residency);
    }

    /** As {@link #bytes}, for {@code double}. */
    public DoubleArray doubles(String name, long length, Residency residency) throws IOException {
        return array(name, DoubleArray.class, length, residency);
    }

    /**
     * A read-only off-heap array {@code name} of the {@code length} ints at byte {@code offset} of
     * {@code file}, which the store does not own (a view: see the class comment), in the
     * platform's byte order. Writing to it throws {@link java.nio.ReadOnlyBufferException};
     * {@link #delete} unmaps it and leaves the file alone. The file must not change while mapped.
     *
     * @throws IllegalArgumentException if the name is invalid or already in use, or the offset or length is negative
     * @throws IOException              if the file cannot be opened or is shorter than the view
     */
    public IntArray intView(String name, Path file, long offset, long length, Residency residency) throws IOException {
        return view(name, new View(file, offset, length << 2, residency), () -> new IntArray(name, file, offset, length, residency));
    }

    /** As {@link #intView}, for {@code float}. */
    public FloatArray floatView(String name, Path file, long offset, long length, Residency residency) throws IOException {
        return view(name, new View(file, offset, length << 2, residency), () -> new FloatArray(name, file, offset, length, residency));
    }

    /** Makes a view. */
    private interface ViewMaker<A extends MappedArray> {
        A map() throws IOException;
    }

    private synchronized <A extends MappedArray> A view(String name, View where, ViewMaker<A> maker) throws IOException {
        checkOpen();
        checkName(name);
        if (where.offset() < 0 || where.length() < 0 || where.residency() == null) {
            throw new IllegalArgumentException("view " + name + ": offset " + where.offset() + ", " + where.length()
                    + " bytes, residency " + where.residency());
        }
        MappedArray open = arrays.get(name);
        if (open != null && !open.isClosed()) {
            throw new IllegalArgumentException("array " + name + " is open already");
        }
        A a = maker.map();
        Path descriptor = dir.resolve(name + VIEW_SUFFIX);
        try {
            Files.writeString(descriptor, where.line());
        } catch (IOException | RuntimeException e) {
            a.close();
            throw e;
        }
        arrays.put(name, a);
        mayBeInMemory = true;
        return a;
    }

    /** Closes and deletes the off-heap array {@code name}, if there is one (of a view, only its descriptor). */
    public synchronized void delete(String name) throws IOException {
        checkName(name);
        awaitLoads(); // a read that failed cost only time: the array goes anyway
        MappedArray a = arrays.remove(name);
        if (a != null) {
            a.close();
        }
        Files.deleteIfExists(arrayFile(name, Residency.NONE));
        Files.deleteIfExists(arrayFile(name, Residency.SEQUENTIAL));
        Files.deleteIfExists(dir.resolve(name + VIEW_SUFFIX));
    }

    /**
     * Where a direct buffer's memory lies in this store's open arrays.
     *
     * @param file   the array's file
     * @param offset byte offset of the buffer's first byte in the file
     */
    public record Location(Path file, long offset) {
    }

    /**
     * The file and offset of the {@code bytes} bytes from {@code direct}'s base address, when they
     * lie inside one mapping of an open array of this store (the buffer is, say, a {@link
     * MappedArray#chunkView} or a slice of one); else null.
     */
    public synchronized Location locate(java.nio.Buffer direct, long bytes) {
        if (direct == null || !direct.isDirect()) {
            return null;
        }
        long address = Libc.address(direct);
        for (MappedArray a : arrays()) {
            for (int i = 0; i < a.chunkCount(); i++) {
                ByteBuffer chunk = a.chunkView(i);
                long start = Libc.address(chunk);
                if (address >= start && address + bytes <= start + chunk.capacity()) {
                    return new Location(a.file(), a.fileOffset() + ((long) i << MappedArray.CHUNK_SHIFT) + (address - start));
                }
            }
        }
        return null;
    }

    /** The open off-heap arrays, in the order they were made. */
    public synchronized List<MappedArray> arrays() {
        arrays.values().removeIf(MappedArray::isClosed);
        return List.copyOf(arrays.values());
    }

    /**
     * Brings every open array into memory as its {@link Residency} says (called when the rank
     * resumes); does nothing while prefetching is deferred. SEQUENTIAL arrays are read by threads
     * of their own, all at once, and this returns as they start: the rank computes while its data
     * comes in, and an access waits only for its own page, as in a serial program that reads ahead
     * of its computing; a rank the master could not read ahead (e.g. the first to run after a
     * collective) would otherwise wait for all its data before it could begin.
     */
    public void prefetch() throws IOException {
        if (prefetchDeferred) {
            return;
        }
        mayBeInMemory = true;
        IOException failed = awaitLoads();
        for (MappedArray a : arrays()) {
            if (a.residency() == Residency.SEQUENTIAL) {
                startLoad(a);
            } else {
                a.prefetch();
            }
        }
        released = false;
        if (failed != null) {
            throw failed;
        }
    }

    private synchronized void startLoad(MappedArray a) {
        loads.add(LOADERS.submit(() -> {
            a.prefetch();
            return null;
        }));
    }

    /**
     * Waits until the reads the last prefetch started are done (a release must not race them, nor
     * a close); returns how the first one failed, if one did.
     */
    private synchronized IOException awaitLoads() {
        IOException failed = null;
        boolean interrupted = false;
        for (Future<?> load : loads) {
            while (true) {
                try {
                    load.get();
                    break;
                } catch (InterruptedException e) {
                    interrupted = true;
                } catch (ExecutionException e) {
                    if (failed == null) {
                        failed = new IOException("reading an array back in failed", e.getCause());
                    }
                    break;
                }
            }
        }
        loads.clear();
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        return failed;
    }

    /**
     * Lets every open array leave memory, losing nothing (called when the rank parks). Does
     * nothing if none was brought back or made since the last release (a rank parking again
     * inside a stretch of blocking calls): that would only drop what was read ahead for its resume.
     */
    public void release() throws IOException {
        if (!mayBeInMemory) {
            return;
        }
        mayBeInMemory = false;
        released = true;
        IOException failed = awaitLoads();
        for (MappedArray a : arrays()) {
            a.release();
        }
        if (failed != null) {
            throw failed;
        }
    }

    /**
     * Until {@link #endPrefetchDeferral()}, resuming brings nothing back: the program is about to
     * make several blocking calls in a row without touching its arrays in between, and bringing
     * them back at every resume would read them once per call instead of once. Releasing at every
     * park goes on.
     */
    public void deferPrefetch() {
        prefetchDeferred = true;
    }

    /** Ends {@link #deferPrefetch()}: brings the arrays back now if they were released meanwhile. */
    public void endPrefetchDeferral() throws IOException {
        prefetchDeferred = false;
        if (released) {
            prefetch();
        }
    }

    /** Bytes of all open arrays. */
    public long mappedBytes() {
        return arrays().stream().mapToLong(MappedArray::byteSize).sum();
    }

    /** Bytes of all open arrays now in memory ({@code mincore}). */
    public long residentBytes() throws IOException {
        long n = 0;
        for (MappedArray a : arrays()) {
            n += a.residentBytes();
        }
        return n;
    }

    private synchronized <A extends MappedArray> A array(String name, Class<A> type, long length, Residency residency)
            throws IOException {
        checkOpen();
        checkName(name);
        if (length < 0) {
            throw new IllegalArgumentException("array " + name + ": negative length " + length);
        }
        if (residency == null) {
            throw new IllegalArgumentException("array " + name + ": residency is null");
        }
        MappedArray open = arrays.get(name);
        if (open != null && !open.isClosed()) {
            if (open.isView() || open.getClass() != type || open.length() != length || open.residency() != residency) {
                throw new IllegalArgumentException("array " + name + " is open as a " + open.getClass().getSimpleName()
                        + " of " + open.length() + " elements, " + open.residency() + "; asked for a "
                        + type.getSimpleName() + " of " + length + ", " + residency);
            }
            return type.cast(open);
        }
        Path file = arrayFile(name, residency);
        MappedArray a;
        if (type == ByteArray.class) {
            a = new ByteArray(name, file, length, residency);
        } else if (type == IntArray.class) {
            a = new IntArray(name, file, length, residency);
        } else if (type == LongArray.class) {
            a = new LongArray(name, file, length, residency);
        } else if (type == FloatArray.class) {
            a = new FloatArray(name, file, length, residency);
        } else {
            a = new DoubleArray(name, file, length, residency);
        }
        arrays.put(name, a);
        mayBeInMemory = true;
        return type.cast(a);
    }

    // ---------------------------------------------------------------- saved heap arrays

    /** Writes {@code data} to disk as saved array {@code name}, replacing a saved array of that name. */
    public void save(String name, byte[] data) throws IOException {
        write(name, ElementKind.BYTE, data.length, (buf, from, n) -> buf.put(data, from, n));
    }

    /** As {@link #save(String, byte[])}, for {@code int}. */
    public void save(String name, int[] data) throws IOException {
        write(name, ElementKind.INT, data.length, (buf, from, n) -> buf.asIntBuffer().put(data, from, n));
    }

    /** As {@link #save(String, byte[])}, for {@code long}. */
    public void save(String name, long[] data) throws IOException {
        write(name, ElementKind.LONG, data.length, (buf, from, n) -> buf.asLongBuffer().put(data, from, n));
    }

    /** As {@link #save(String, byte[])}, for {@code float}. */
    public void save(String name, float[] data) throws IOException {
        write(name, ElementKind.FLOAT, data.length, (buf, from, n) -> buf.asFloatBuffer().put(data, from, n));
    }

    /** As {@link #save(String, byte[])}, for {@code double}. */
    public void save(String name, double[] data) throws IOException {
        write(name, ElementKind.DOUBLE, data.length, (buf, from, n) -> buf.asDoubleBuffer().put(data, from, n));
    }

    /**
     * Reads saved array {@code name} back and deletes it from disk (the heap copy is now the only
     * one, so a later load can never return stale data).
     *
     * @throws NoSuchFileException if no array of that name is saved
     * @throws IOException         if it was saved with another element type
     */
    public byte[] loadBytes(String name) throws IOException {
        return loadBytes(name, false);
    }

    /**
     * As {@link #loadBytes(String)}, but with {@code keepSaved} the saved copy stays on disk: for
     * an array the caller will not modify, which it can then drop and load again without saving
     * it again ({@link #deleteSaved} removes the copy).
     */
    public byte[] loadBytes(String name, boolean keepSaved) throws IOException {
        byte[][] out = new byte[1][];
        read(name, ElementKind.BYTE, n -> out[0] = new byte[n], (buf, at, n) -> buf.get(out[0], at, n), keepSaved);
        return out[0];
    }

    /** As {@link #loadBytes(String)}, for {@code int}. */
    public int[] loadInts(String name) throws IOException {
        return loadInts(name, false);
    }

    /** As {@link #loadBytes(String, boolean)}, for {@code int}. */
    public int[] loadInts(String name, boolean keepSaved) throws IOException {
        int[][] out = new int[1][];
        read(name, ElementKind.INT, n -> out[0] = new int[n], (buf, at, n) -> buf.asIntBuffer().get(out[0], at, n),
                keepSaved);
        return out[0];
    }

    /** As {@link #loadBytes(String)}, for {@code long}. */
    public long[] loadLongs(String name) throws IOException {
        return loadLongs(name, false);
    }

    /** As {@link #loadBytes(String, boolean)}, for {@code long}. */
    public long[] loadLongs(String name, boolean keepSaved) throws IOException {
        long[][] out = new long[1][];
        read(name, ElementKind.LONG, n -> out[0] = new long[n], (buf, at, n) -> buf.asLongBuffer().get(out[0], at, n),
                keepSaved);
        return out[0];
    }

    /** As {@link #loadBytes(String)}, for {@code float}. */
    public float[] loadFloats(String name) throws IOException {
        return loadFloats(name, false);
    }

    /** As {@link #loadBytes(String, boolean)}, for {@code float}. */
    public float[] loadFloats(String name, boolean keepSaved) throws IOException {
        float[][] out = new float[1][];
        read(name, ElementKind.FLOAT, n -> out[0] = new float[n], (buf, at, n) -> buf.asFloatBuffer().get(out[0], at, n),
                keepSaved);
        return out[0];
    }

    /** As {@link #loadBytes(String)}, for {@code double}. */
    public double[] loadDoubles(String name) throws IOException {
        return loadDoubles(name, false);
    }

    /** As {@link #loadBytes(String, boolean)}, for {@code double}. */
    public double[] loadDoubles(String name, boolean keepSaved) throws IOException {
        double[][] out = new double[1][];
        read(name, ElementKind.DOUBLE, n -> out[0] = new double[n], (buf, at, n) -> buf.asDoubleBuffer().get(out[0], at, n),
                keepSaved);
        return out[0];
    }

    /** Deletes saved array {@code name} (of any element type), if there is one. */
    public synchronized void deleteSaved(String name) throws IOException {
        checkName(name);
        for (ElementKind k : ElementKind.values()) {
            Files.deleteIfExists(savedFile(name, k));
        }
    }

    /** Whether an array of this name is saved (of any element type). */
    public synchronized boolean isSaved(String name) throws IOException {
        checkName(name);
        for (ElementKind k : ElementKind.values()) {
            if (Files.exists(savedFile(name, k))) {
                return true;
            }
        }
        return false;
    }

    /** Element types of saved arrays; part of the file name, so a load of another type is caught. */
    private enum ElementKind {
        BYTE(1), INT(4), LONG(8), FLOAT(4), DOUBLE(8);

        final int bytes;

        ElementKind(int bytes) {
            this.bytes = bytes;
        }
    }

    /** Copies {@code count} elements from {@code from} of a heap array into a buffer (at its position). */
    private interface Fill {
        void into(ByteBuffer buf, int from, int count);
    }

    /** Copies {@code count} elements of a buffer into a heap array at {@code at}. */
    private interface Drain {
        void from(ByteBuffer buf, int at, int count);
    }

    private interface Allocate {
        void array(int length);
    }

    private synchronized void write(String name, ElementKind kind, int length, Fill fill) throws IOException {
        checkOpen();
        checkName(name);
        Path target = savedFile(name, kind);
        // A new file, renamed over the old one: never a half-written array under the name, and no
        // truncate-and-rewrite (which makes ext4 force data to disk).
        Path temp = dir.resolve(".save-" + (++tempSequence) + "-" + name);
        int perChunk = IO_BYTES / kind.bytes;
        try (FileChannel ch = FileChannel.open(temp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            ByteBuffer buf = staging();
            for (int from = 0; from < length; from += perChunk) {
                int n = Math.min(perChunk, length - from);
                buf.clear();
                fill.into(buf, from, n);
                buf.position(0).limit(n * kind.bytes);
                while (buf.hasRemaining()) {
                    ch.write(buf);
                }
            }
        } catch (IOException e) {
            Files.deleteIfExists(temp);
            throw new IOException("cannot save array " + name + " of " + length + " elements to " + dir + ": "
                    + e.getMessage(), e);
        } catch (RuntimeException e) {
            Files.deleteIfExists(temp);
            throw e;
        }
        Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        for (ElementKind other : ElementKind.values()) {
            if (other != kind) {
                Files.deleteIfExists(savedFile(name, other));
            }
        }
    }

    private synchronized void read(String name, ElementKind kind, Allocate allocate, Drain drain, boolean keepSaved)
            throws IOException {
        checkOpen();
        checkName(name);
        Path file = savedFile(name, kind);
        if (!Files.exists(file)) {
            for (ElementKind other : ElementKind.values()) {
                if (Files.exists(savedFile(name, other))) {
                    throw new IOException("array " + name + " was saved as " + other.name().toLowerCase() + "[], not "
                            + kind.name().toLowerCase() + "[]");
                }
            }
            throw new NoSuchFileException(file.toString(), null, "no array " + name + " is saved");
        }
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            long size = ch.size();
            if (size % kind.bytes != 0 || size / kind.bytes > Integer.MAX_VALUE - 8) {
                throw new IOException("saved array " + file + " has " + size + " bytes: not a " + kind.name().toLowerCase() + "[]");
            }
            int length = (int) (size / kind.bytes);
            allocate.array(length);
            int perChunk = IO_BYTES / kind.bytes;
            ByteBuffer buf = staging();
            for (int at = 0; at < length; at += perChunk) {
                int n = Math.min(perChunk, length - at);
                buf.clear().limit(n * kind.bytes);
                while (buf.hasRemaining()) {
                    if (ch.read(buf) < 0) {
                        throw new IOException("saved array " + file + " ended early");
                    }
                }
                buf.flip();
                drain.from(buf, at, n);
            }
        }
        if (!keepSaved) {
            Files.delete(file);
        }
    }

    private ByteBuffer staging() {
        if (staging == null) {
            staging = ByteBuffer.allocateDirect(IO_BYTES).order(ByteOrder.nativeOrder());
        }
        return staging;
    }

    /** Closes every open array, once read back in (their files stay until the job ends), and frees the I/O buffer. */
    @Override
    public synchronized void close() {
        awaitLoads();
        closed = true;
        for (MappedArray a : arrays.values()) {
            a.close();
        }
        arrays.clear();
        if (staging != null) {
            Unmapper.unmap(staging);
            staging = null;
        }
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("the array store in " + dir + " is closed");
        }
    }

    private static void checkName(String name) {
        if (name == null || !NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("bad array name '" + name
                    + "': 1-200 characters of letters, digits, '_', '-', '.', not starting with '.'");
        }
    }

    private Path arrayFile(String name, Residency residency) {
        // Arrays a resume does not bring back whole are not read ahead either.
        return dir.resolve(name + (residency.broughtBackWhole() ? ARRAY_SUFFIX : BUFFER_SUFFIX));
    }

    private Path savedFile(String name, ElementKind kind) {
        return dir.resolve(name + "." + kind.name().toLowerCase() + SAVED_SUFFIX);
    }
}
