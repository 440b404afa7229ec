package io.bdmpi.master.memory;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What the master reads of a job's memory cgroup: a file that a process of the cgroup reads once
 * is charged to it as page cache on the inactive list, which read-ahead counts as free memory.
 * Needs root and a memory controller; skipped otherwise.
 */
class MemoryCgroupTest {

    @TempDir
    Path dir;

    @Test
    void aFileReadOnceIsInactivePageCacheOfItsReadersCgroup() throws Exception {
        Assumptions.assumeTrue(MemoryCgroup.unavailableReason() == null, "no memory cgroup here");
        long bytes = 64L << 20;
        Path file = dir.resolve("data");
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            ByteBuffer chunk = ByteBuffer.allocate(1 << 20);
            for (long at = 0; at < bytes; at += chunk.capacity()) {
                ch.write(chunk.clear());
            }
            ch.force(true); // clean pages, so that the reader can drop them and read them from disk
        }
        Path cgroupDir;
        try (MemoryCgroup cgroup = MemoryCgroup.create(512L << 20)) {
            cgroupDir = cgroup.directory();
            long before = cgroup.inactiveFileBytes();
            // Dropped first: pages cached by the writer are charged to the writer's cgroup.
            Process reader = new ProcessBuilder("sh", "-c", "echo $$ > \"$0/cgroup.procs\" && dd if=\"$1\" iflag=nocache count=0 "
                    + "status=none && cat \"$1\" > /dev/null", cgroupDir.toString(), file.toString()).inheritIO().start();
            assertEquals(0, reader.waitFor());
            long inactive = cgroup.inactiveFileBytes();

            assertTrue(before < bytes / 8, "inactive page cache of a new cgroup: " + before);
            assertTrue(inactive >= bytes * 3 / 4, "after reading " + bytes + " bytes once: " + inactive + " inactive");
            assertTrue(cgroup.usageBytes() >= inactive, "usage " + cgroup.usageBytes() + " holds the inactive " + inactive);
        }
        assertFalse(Files.exists(cgroupDir), "the cgroup is removed");
    }
}
