package io.bdmpi.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The storage I/O of this JVM and of every child process it has waited for (the kernel adds a
 * reaped child's counters, its own reaped children's included, to its parent's), from
 * {@code /proc/self/io}: the difference of two readings around a run that starts and waits for a
 * process tree is that tree's I/O. {@code read_bytes} counts reads that reached the disk (page
 * cache misses), {@code write_bytes} bytes written into the page cache (to reach the disk unless
 * deleted first).
 *
 * @param readBytes    read_bytes
 * @param writtenBytes write_bytes
 */
record IoCounters(long readBytes, long writtenBytes) {

    /** The counters now. */
    static IoCounters now() {
        long read = -1;
        long written = -1;
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/io"))) {
                if (line.startsWith("read_bytes:")) {
                    read = Long.parseLong(line.substring("read_bytes:".length()).trim());
                } else if (line.startsWith("write_bytes:")) {
                    written = Long.parseLong(line.substring("write_bytes:".length()).trim());
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (read < 0 || written < 0) {
            throw new IllegalStateException("no read_bytes/write_bytes in /proc/self/io");
        }
        return new IoCounters(read, written);
    }

    /** What was read and written from {@code before} to now. */
    IoCounters since(IoCounters before) {
        IoCounters now = now();
        return new IoCounters(now.readBytes - before.readBytes, now.writtenBytes - before.writtenBytes);
    }
}
