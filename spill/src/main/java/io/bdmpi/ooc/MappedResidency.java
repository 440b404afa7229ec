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
 * @param residentBytes bytes of the arrays in memory
 * @param totalBytes    bytes of the arrays
 */
public record MappedResidency(long residentBytes, long totalBytes) {

    /** Measures every array file in a store's directory (nothing: 0 of 0). Files may vanish meanwhile. */
    public static MappedResidency ofStore(Path storeDir) throws IOException {
        long resident = 0;
        long total = 0;
        for (Path file : ArrayStore.arrayFiles(storeDir)) {
            try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
                long size = ch.size();
                total += size;
                for (long from = 0; from < size; from += MappedArray.CHUNK_BYTES) {
                    MappedByteBuffer map = ch.map(FileChannel.MapMode.READ_ONLY, from, Math.min(MappedArray.CHUNK_BYTES, size - from));
                    try {
                        resident += Libc.residentPages(Libc.address(map), map.capacity()) * Libc.pageSize();
                    } finally {
                        Unmapper.unmap(map);
                    }
                }
            } catch (NoSuchFileException gone) {
                // Deleted since the listing: not the rank's data any more.
            }
        }
        return new MappedResidency(Math.min(resident, total), total);
    }
}
