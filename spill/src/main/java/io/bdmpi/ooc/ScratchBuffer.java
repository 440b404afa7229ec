package io.bdmpi.ooc;

import java.io.IOException;
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

    /** Starts at a page boundary, so that a drop covers whole pages of this buffer only. */
    private final ByteBuffer bytes;

    private ScratchBuffer(int length) {
        int page = Libc.pageSize();
        // One page more than asked for leaves room for the alignment, a second for the rounding of
        // the length up to whole pages that a drop releases.
        ByteBuffer allocation = ByteBuffer.allocateDirect(Math.addExact(length, 2 * page));
        bytes = allocation.alignedSlice(page).limit(length).slice().order(ByteOrder.nativeOrder());
    }

    /** A buffer of {@code length} bytes, all zero. */
    public static ScratchBuffer allocate(int length) {
        if (length < 0) {
            throw new IllegalArgumentException("negative scratch buffer length: " + length);
        }
        return new ScratchBuffer(length);
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
        long pages = (bytes.capacity() + (long) Libc.pageSize() - 1) / Libc.pageSize();
        if (pages > 0) {
            Libc.madvise(Libc.address(bytes), pages * Libc.pageSize(), Libc.MADV_DONTNEED);
        }
    }
}
