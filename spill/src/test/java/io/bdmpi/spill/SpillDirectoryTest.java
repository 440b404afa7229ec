package io.bdmpi.spill;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SpillDirectoryTest {

    @TempDir
    Path dir;

    @Test
    void shouldWriteNewFilesAndDeleteThemWhenRead() throws Exception {
        SpillDirectory spill = new SpillDirectory(dir, "r0-");
        ByteBuffer data = ByteBuffer.allocate(1 << 20);
        for (int i = 0; i < data.capacity(); i++) {
            data.put(i, (byte) i);
        }
        String a = spill.write(data);
        String b = spill.write(data);
        assertNotEquals(a, b, "every message gets a new file");
        assertEquals(0, data.position(), "the sender's buffer is untouched");
        ByteBuffer dest = ByteBuffer.allocate(1 << 20);
        spill.readAndDelete(a, 1 << 20, dest);
        assertEquals(data, dest.flip());
        assertFalse(Files.exists(dir.resolve(a)));
        spill.discard(b);
        assertFalse(Files.exists(dir.resolve(b)));
    }

    @Test
    void aFileWrittenInPiecesIsPublishedWholeOnlyWhenFinished() throws Exception {
        SpillDirectory spill = new SpillDirectory(dir, "r3-");
        String name;
        try (SpillDirectory.Writer w = spill.newFile(6)) {
            w.write(ByteBuffer.wrap(new byte[] {1, 2, 3}));
            w.write(ByteBuffer.wrap(new byte[] {4, 5, 6}));
            name = w.finish();
        }
        ByteBuffer dest = ByteBuffer.allocate(6);
        spill.readAndDelete(name, 6, dest);
        assertEquals(ByteBuffer.wrap(new byte[] {1, 2, 3, 4, 5, 6}), dest.flip());

        try (SpillDirectory.Writer w = spill.newFile(6)) {
            w.write(ByteBuffer.wrap(new byte[] {1, 2, 3}));
        }
        try (Stream<Path> files = Files.list(dir)) {
            assertEquals(0, files.count(), "a writer closed before it finished leaves no file");
        }
    }

    @Test
    void shouldRefuseFilesOfTheWrongLengthOrTooBigForTheBuffer() throws Exception {
        SpillDirectory spill = new SpillDirectory(dir, "r1-");
        String name = spill.write(ByteBuffer.allocate(100));
        SpillException e = assertThrows(SpillException.class, () -> spill.readAndDelete(name, 99, ByteBuffer.allocate(100)));
        assertTrue(e.getMessage().contains("expected 99"), e.getMessage());
        String other = spill.write(ByteBuffer.allocate(100));
        assertThrows(SpillException.class, () -> spill.readAndDelete(other, 100, ByteBuffer.allocate(50)));
        assertThrows(SpillException.class, () -> spill.readAndDelete("missing", 1, ByteBuffer.allocate(1)));
    }

    @Test
    void shouldNameTheDirectoryWhenWritingFails() throws Exception {
        SpillDirectory spill = new SpillDirectory(dir.resolve("gone"), "r2-");
        SpillException e = assertThrows(SpillException.class, () -> spill.write(ByteBuffer.allocate(10)));
        assertTrue(e.getMessage().contains("10 bytes") && e.getMessage().contains("gone"), e.getMessage());
    }

    /** On a full disk (a 1 MiB tmpfs, where mounting is permitted) no partial file is left behind. */
    @Test
    void shouldLeaveNoPartialFileWhenTheDiskIsFull() throws Exception {
        Path small = Files.createDirectory(dir.resolve("small"));
        Process mount = new ProcessBuilder("mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", small.toString())
                .redirectErrorStream(true).start();
        mount.getInputStream().readAllBytes();
        Assumptions.assumeTrue(mount.waitFor() == 0, "cannot mount a tmpfs here");
        try {
            SpillDirectory spill = new SpillDirectory(small, "r3-");
            SpillException e = assertThrows(SpillException.class, () -> spill.write(ByteBuffer.allocate(2 << 20)));
            assertTrue(e.getMessage().contains("of " + (2 << 20) + " bytes to " + small) && e.getMessage().contains("No space"),
                    e.getMessage());
            try (Stream<Path> left = Files.list(small)) {
                assertEquals(0, left.count(), "a partial file was left");
            }
            String name = spill.write(ByteBuffer.allocate(1000)); // the space is free again
            ByteBuffer dest = ByteBuffer.allocate(1000);
            spill.readAndDelete(name, 1000, dest);
        } finally {
            new ProcessBuilder("umount", small.toString()).inheritIO().start().waitFor();
        }
    }
}
