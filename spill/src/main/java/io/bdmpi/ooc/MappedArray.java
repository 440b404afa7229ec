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
    private final long length;
    private final int elementShift;
    private final Residency residency;
    /** The mappings, or null once closed. Subclasses read elements through {@link #chunk}. */
    private MappedByteBuffer[] chunks;
    private boolean locked;

    MappedArray(String name, Path file, long length, int elementShift, Residency residency) throws IOException {
        this.name = name;
        this.file = file;
        this.length = length;
        this.elementShift = elementShift;
        this.residency = residency;
        if (length > Long.MAX_VALUE >> elementShift) {
            throw new IllegalArgumentException("array " + name + ": " + length + " elements do not fit a file");
        }
        long bytes = length << elementShift;
        int n = (int) ((bytes + CHUNK_BYTES - 1) >>> CHUNK_SHIFT);
        MappedByteBuffer[] maps = new MappedByteBuffer[n];
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ,
                StandardOpenOption.WRITE)) {
            long size = ch.size();
            if (size != 0 && size != bytes) {
                throw new IOException("array " + name + " exists with " + size + " bytes, not " + bytes);
            }
            if (size == 0 && bytes > 0) {
                // A sparse file of the full size: zeros, no disk blocks until written.
                ch.write(ByteBuffer.allocate(1), bytes - 1);
            }
            for (int i = 0; i < n; i++) {
                long from = (long) i << CHUNK_SHIFT;
                maps[i] = ch.map(FileChannel.MapMode.READ_WRITE, from, Math.min(CHUNK_BYTES, bytes - from));
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
        for (MappedByteBuffer b : mapped()) {
            b.force();
        }
    }

    /** Bytes of this array now in memory (measured with {@code mincore}). */
    public synchronized long residentBytes() throws IOException {
        long pages = 0;
        for (MappedByteBuffer b : mapped()) {
            pages += Libc.residentPages(Libc.address(b), b.capacity());
        }
        return Math.min(byteSize(), pages * Libc.pageSize());
    }

    /** Brings the array into memory as its {@link Residency} says. */
    public synchronized void prefetch() throws IOException {
        for (MappedByteBuffer b : mapped()) {
            long addr = Libc.address(b);
            switch (residency) {
                case NONE, LAZY -> { }
                case WILLNEED -> willNeed(addr, b.capacity());
                case SEQUENTIAL -> {
                    Libc.madvise(addr, b.capacity(), Libc.MADV_SEQUENTIAL);
                    b.load();
                    Libc.madvise(addr, b.capacity(), Libc.MADV_NORMAL);
                }
                case MLOCK -> Libc.mlock(addr, b.capacity());
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
            long addr = Libc.address(b);
            if (locked) {
                Libc.munlock(addr, b.capacity());
            }
            b.force();
            if (!Libc.pageOut(addr, b.capacity())) {
                Libc.madvise(addr, b.capacity(), Libc.MADV_DONTNEED);
            }
        }
        Libc.dropCleanPages(file);
        locked = false;
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
