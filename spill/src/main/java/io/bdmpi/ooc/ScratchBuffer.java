package io.bdmpi.ooc;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Off-heap memory for data that lives only from one blocking call to the next: a message buffer
 * that is filled, sent or read, and emptied with {@link #drop} before its rank blocks again.
 * Unlike an {@link ArrayStore} array it has no file. A file-backed buffer's dirty pages are
 * written to disk once memory is short, and read back (only to be overwritten) when the rank
 * refills it; here nothing ever goes to disk, and a drop gives the pages back to the OS at once.
 * The flip side: without swap, a parked rank holds whatever it did not drop.
 *
 * <p>The garbage collector frees the memory once the buffer is unreachable. Used by one thread.
 */
public final class ScratchBuffer {

    /**
     * A buffer at least this long asks for transparent huge pages ({@code MADV_HUGEPAGE}): refilled
     * after every drop, it then faults in 2 MiB at a time instead of 4 KiB (PageRank's exchange
     * at 4x M ran 15 % faster). Where the kernel has none to give, it gets small pages.
     */
    static final int HUGE_PAGE = 2 << 20;

    /** Starts at a page (or huge page) boundary, so that a drop covers whole pages of this buffer only. */
    private final ByteBuffer bytes;
    /** Bytes a drop releases: the length rounded up to whole (huge) pages, all inside the allocation. */
    private final long span;

    private ScratchBuffer(int length) throws IOException {
        int page = Libc.pageSize();
        boolean huge = length >= HUGE_PAGE;
        int unit = huge ? HUGE_PAGE : page;
        // One unit more than asked for leaves room for the alignment, a second for the rounding of
        // the length up to whole units that a drop releases.
        ByteBuffer allocation = ByteBuffer.allocateDirect(Math.addExact(length, 2 * unit));
        bytes = allocation.alignedSlice(unit).limit(length).slice().order(ByteOrder.nativeOrder());
        span = (length + (long) unit - 1) / unit * unit;
        // allocateDirect has zeroed (so touched) all of it: give every whole page of it back, as a
        // new buffer holds nothing yet. The page the allocation starts in also holds the
        // allocator's header just before it, so it stays.
        long base = Libc.address(allocation);
        long from = (base + page - 1) / page * page;
        long to = (base + allocation.capacity()) / page * page;
        if (to > from) {
            Libc.madvise(from, to - from, Libc.MADV_DONTNEED);
        }
        if (huge) {
            Libc.madvise(Libc.address(bytes), span, Libc.MADV_HUGEPAGE);
        }
    }

    /** A buffer of {@code length} bytes, all zero. */
    public static ScratchBuffer allocate(int length) {
        if (length < 0) {
            throw new IllegalArgumentException("negative scratch buffer length: " + length);
        }
        try {
            return new ScratchBuffer(length);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The memory: {@code length} bytes from a page boundary, native byte order. */
    public ByteBuffer bytes() {
        return bytes;
    }

    /**
     * The contents are no longer needed: their pages go back to the OS now
     * ({@code madvise(MADV_DONTNEED)}), and the buffer reads as zeros until written again.
     */
    public void drop() throws IOException {
        if (span > 0) {
            Libc.madvise(Libc.address(bytes), span, Libc.MADV_DONTNEED);
        }
    }
}
