package io.bdmpi.ooc;

import java.io.IOException;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * How much of a store's off-heap arrays is in memory, measured from outside the rank: the files
 * are mapped read-only (which reads nothing) and {@code mincore} reports which of their pages are
 * in the page cache. The master measures its slaves' arrays this way, so slaves need not report.
 *
 * <p>It is an estimate from a sample: a window of {@link #SAMPLE_WINDOW} bytes in every
 * {@link #SAMPLE_STRIDE} of each file. {@code mincore} on a mapping with no page table entries
 * looks every page up in the page cache; at 32 slaves of PageRank (5 GB of arrays and message
 * buffers) measuring every page took a third of a core, every period, and cost the job 10 to 20 %
 * of its time. Arrays are released and brought back whole, and evicted in long runs, so a
 * thirty-second of their pages tells the same.
 *
 * @param residentBytes bytes of the arrays in memory (estimated)
 * @param totalBytes    bytes of the arrays
 */
public record MappedResidency(long residentBytes, long totalBytes) {

    /** Bytes whose pages are looked at in every {@link #SAMPLE_STRIDE} (from its start). */
    static final long SAMPLE_WINDOW = 64 << 10;
    /** One window in this many bytes. */
    static final long SAMPLE_STRIDE = 2 << 20;

    /** Measures every array file and view of a store's directory (nothing: 0 of 0). Files may vanish meanwhile. */
    public static MappedResidency ofStore(Path storeDir) throws IOException {
        double resident = 0;
        long total = 0;
        for (ArrayStore.View range : ArrayStore.arrayRanges(storeDir)) {
            try (FileChannel ch = FileChannel.open(range.file(), StandardOpenOption.READ)) {
                long size = Math.min(range.length(), ch.size() - range.offset());
                long sampled = 0;
                long residentSampled = 0;
                for (long from = 0; from < size; from += MappedArray.CHUNK_BYTES) {
                    MappedByteBuffer map = ch.map(FileChannel.MapMode.READ_ONLY, range.offset() + from,
                            Math.min(MappedArray.CHUNK_BYTES, size - from));
                    try {
                        // A view may start inside a page: mincore takes the page it starts in.
                        long address = Libc.address(map);
                        for (long at = 0; at < map.capacity(); at += SAMPLE_STRIDE) {
                            long window = Math.min(SAMPLE_WINDOW, map.capacity() - at);
                            long first = Libc.pageStart(address + at);
                            residentSampled += Libc.residentPages(first, address + at + window - first)
                                    * Libc.pageSize();
                            sampled += address + at + window - first;
                        }
                    } finally {
                        Unmapper.unmap(map);
                    }
                }
                total += size;
                resident += sampled == 0 ? 0 : (double) Math.min(residentSampled, sampled) / sampled * size;
            } catch (NoSuchFileException gone) {
                // Deleted since the listing: not the rank's data any more.
            }
        }
        return new MappedResidency(Math.min(Math.round(resident), total), total);
    }
}
