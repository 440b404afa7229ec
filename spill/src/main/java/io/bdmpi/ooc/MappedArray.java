package io.bdmpi.ooc;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * An array of fixed-size elements in a memory-mapped file: off the Java heap, so a parked slave's
 * data can leave RAM without swap (the OS writes dirty pages back to the file and drops clean
 * ones). The file is mapped in chunks of {@link #CHUNK_BYTES}, so arrays may be larger than 2 GiB
 * and are indexed with {@code long}. Elements are in the platform's byte order and never straddle a
 * chunk.
 *
 * <p>A <b>view</b> ({@link ArrayStore#intView}, {@link ArrayStore#floatView}) maps a range of a
 * file the store does not own, read-only: a program's input read in place. Its pages are never
 * dirty, so releasing it writes nothing, and it is brought back from that file.
 *
 * <p>Not thread-safe for concurrent writers of the same element, like a plain array. Using an array
 * after it was closed throws {@link IllegalStateException}; closing it while another thread still
 * uses it is a programming error that may crash the JVM (the mapping is gone).
 */
public abstract sealed class MappedArray implements AutoCloseable
        permits ByteArray, IntArray, LongArray, FloatArray, DoubleArray {

    static final int CHUNK_SHIFT = 30;
    /** Bytes per mapping. A power of two, and a multiple of every element size. */
    public static final long CHUNK_BYTES = 1L << CHUNK_SHIFT;
    static final int CHUNK_MASK = (int) (CHUNK_BYTES - 1);

    private final String name;
    private final Path file;
    /** Where element 0 lies in {@link #file}: 0 for the store's own files, anywhere for a view. */
    private final long fileOffset;
    /** A read-only view of a file the store does not own (see the class comment). */
    private final boolean view;
    private final long length;
    private final int elementShift;
    private final Residency residency;
    /** The mappings, or null once closed. Subclasses read elements through {@link #chunk}. */
    private MappedByteBuffer[] chunks;
    private boolean locked;

    MappedArray(String name, Path file, long length, int elementShift, Residency residency) throws IOException {
        this(name, file, 0, false, length, elementShift, residency);
    }

    /**
     * An array in the store's own {@code file} ({@code view} false, {@code fileOffset} 0), or a
     * read-only view of the bytes at {@code fileOffset} of another file, which must hold them all.
     */
    MappedArray(String name, Path file, long fileOffset, boolean view, long length, int elementShift, Residency residency)
            throws IOException {
        this.name = name;
        this.file = file;
        this.fileOffset = fileOffset;
        this.view = view;
        this.length = length;
        this.elementShift = elementShift;
        this.residency = residency;
        if (length > Long.MAX_VALUE >> elementShift) {
            throw new IllegalArgumentException("array " + name + ": " + length + " elements do not fit a file");
        }
        long bytes = length << elementShift;
        int n = (int) ((bytes + CHUNK_BYTES - 1) >>> CHUNK_SHIFT);
        MappedByteBuffer[] maps = new MappedByteBuffer[n];
        try (FileChannel ch = view ? FileChannel.open(file, StandardOpenOption.READ)
                : FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            long size = ch.size();
            if (view && (fileOffset < 0 || size - fileOffset < bytes)) {
                throw new IOException("view " + name + ": " + file + " has " + size + " bytes, not " + bytes + " from byte "
                        + fileOffset);
            }
            if (!view && size != 0 && size != bytes) {
                throw new IOException("array " + name + " exists with " + size + " bytes, not " + bytes);
            }
            if (!view && size == 0 && bytes > 0) {
                // A sparse file of the full size: zeros, no disk blocks until written.
                ch.write(ByteBuffer.allocate(1), bytes - 1);
            }
            for (int i = 0; i < n; i++) {
                long from = (long) i << CHUNK_SHIFT;
                maps[i] = ch.map(view ? FileChannel.MapMode.READ_ONLY : FileChannel.MapMode.READ_WRITE, fileOffset + from,
                        Math.min(CHUNK_BYTES, bytes - from));
                maps[i].order(ByteOrder.nativeOrder());
            }
        } catch (IOException | RuntimeException e) {
            unmap(maps);
            throw e;
        }
        this.chunks = maps;
    }

    /** The array's name in its {@link ArrayStore}. */
    public String name() {
        return name;
    }

    /** Number of elements. */
    public long length() {
        return length;
    }

    /** Size in bytes. */
    public long byteSize() {
        return length << elementShift;
    }

    /** What happens to this array's pages when the slave resumes. */
    public Residency residency() {
        return residency;
    }

    /** The backing file. */
    public Path file() {
        return file;
    }

    /** The byte of {@link #file()} that holds element 0 (0 but for a view). */
    public long fileOffset() {
        return fileOffset;
    }

    /** Whether this is a read-only view of a file the store does not own. */
    public boolean isView() {
        return view;
    }

    /** How many mappings hold the array: one per {@value #CHUNK_BYTES} bytes (the last may be shorter). */
    public int chunkCount() {
        return mapped().length;
    }

    /**
     * A view of mapping {@code i} in the platform's byte order, for typed bulk or indexed access
     * ({@code asIntBuffer()} and the like) without this class's lookup per element: every mapping
     * but the last holds exactly {@value #CHUNK_BYTES} bytes, and no element straddles two. Like
     * the array, the view must not be used once the array is closed (the mapping is gone).
     */
    public ByteBuffer chunkView(int i) {
        return mapped()[i].duplicate().order(ByteOrder.nativeOrder());
    }

    /** The chunk holding element {@code index}, after a bounds check; {@link #offset} gives the byte in it. */
    final ByteBuffer chunk(long index) {
        MappedByteBuffer[] c = chunks;
        if (c == null) {
            throw new IllegalStateException("array " + name + " is closed");
        }
        if (index < 0 || index >= length) {
            throw new IndexOutOfBoundsException("index " + index + " out of bounds for array " + name + " of length " + length);
        }
        return c[(int) ((index << elementShift) >>> CHUNK_SHIFT)];
    }

    final int offset(long index) {
        return (int) (index << elementShift) & CHUNK_MASK;
    }

    /** Writes every modified page to the file ({@code msync}): afterwards all pages are clean and can be dropped at once. */
    public synchronized void flush() {
        if (view) {
            return;
        }
        for (MappedByteBuffer b : mapped()) {
            b.force();
        }
    }

    /** Bytes of this array now in memory (measured with {@code mincore}). */
    public synchronized long residentBytes() throws IOException {
        long pages = 0;
        for (MappedByteBuffer b : mapped()) {
            pages += Libc.residentPages(pageStart(b), pageSpan(b));
        }
        return Math.min(byteSize(), pages * Libc.pageSize());
    }

    /** Brings the array into memory as its {@link Residency} says. */
    public synchronized void prefetch() throws IOException {
        if (!residency.broughtBackWhole()) {
            // Nothing to bring in, so no addresses either: such an array needs no libc.
            locked = false;
            return;
        }
        for (MappedByteBuffer b : mapped()) {
            long addr = pageStart(b);
            long len = pageSpan(b);
            switch (residency) {
                case NONE, LAZY -> { }
                case WILLNEED -> willNeed(addr, len);
                case SEQUENTIAL -> {
                    Libc.madvise(addr, len, Libc.MADV_SEQUENTIAL);
                    b.load();
                    Libc.madvise(addr, len, Libc.MADV_NORMAL);
                }
                case MLOCK -> Libc.mlock(addr, len);
            }
        }
        locked = residency == Residency.MLOCK;
    }

    /**
     * The kernel reads at most one read-ahead window per WILLNEED call: advise in slices of
     * {@link Libc#READ_AHEAD_SLICE} so the whole range is read.
     */
    private static void willNeed(long addr, long len) throws IOException {
        for (long off = 0; off < len; off += Libc.READ_AHEAD_SLICE) {
            Libc.madvise(addr + off, Math.min(Libc.READ_AHEAD_SLICE, len - off), Libc.MADV_WILLNEED);
        }
    }

    /**
     * Lets the array leave memory (nothing for {@link Residency#NONE}, which leaves it to the OS):
     * unlocks it, writes modified pages back ({@code msync}), asks the kernel to reclaim the pages
     * this process maps ({@code MADV_PAGEOUT}; on kernels without it {@code MADV_DONTNEED}, which
     * after the msync only unmaps clean pages) and drops the file's other cached pages, e.g. read
     * ahead but never touched ({@code posix_fadvise DONTNEED}). Nothing is lost: the next access
     * reads the data back from the file.
     */
    public synchronized void release() throws IOException {
        if (residency == Residency.NONE) {
            return;
        }
        for (MappedByteBuffer b : mapped()) {
            long addr = pageStart(b);
            long len = pageSpan(b);
            if (locked) {
                Libc.munlock(addr, len);
            }
            if (!view) {
                b.force();
            }
            if (!Libc.pageOut(addr, len)) {
                Libc.madvise(addr, len, Libc.MADV_DONTNEED);
            }
        }
        // Only the view's own range of a file that others may be reading too.
        Libc.dropCleanPages(file, fileOffset, view ? byteSize() : 0);
        locked = false;
    }

    /**
     * The page where mapping {@code b} starts: a view's mapping may begin inside a page (the JDK
     * maps from that page's start), and the kernel's calls take whole pages.
     */
    private static long pageStart(MappedByteBuffer b) {
        return Libc.pageStart(Libc.address(b));
    }

    /** Bytes from {@link #pageStart} to the end of mapping {@code b}. */
    private static long pageSpan(MappedByteBuffer b) {
        return Libc.address(b) + b.capacity() - pageStart(b);
    }

    /** Unmaps the array; its file stays (reopen it by name from the store). */
    @Override
    public synchronized void close() {
        MappedByteBuffer[] c = chunks;
        chunks = null;
        if (c != null) {
            unmap(c);
        }
    }

    boolean isClosed() {
        return chunks == null;
    }

    private MappedByteBuffer[] mapped() {
        MappedByteBuffer[] c = chunks;
        if (c == null) {
            throw new IllegalStateException("array " + name + " is closed");
        }
        return c;
    }

    private static void unmap(MappedByteBuffer[] maps) {
        for (MappedByteBuffer m : maps) {
            if (m != null) {
                Unmapper.unmap(m);
            }
        }
    }
}
