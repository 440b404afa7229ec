package io.bdmpi.spill;

import io.bdmpi.ooc.Unmapper;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.stream.Collectors;
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
        MappedByteBuffer mapped = spill.mapMessage(a, 1 << 20);
        assertFalse(Files.exists(dir.resolve(a)), "the name goes at once; the mapping keeps the bytes");
        assertEquals(data, mapped);
        Unmapper.unmap(mapped);
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
        MappedByteBuffer mapped = spill.mapMessage(name, 6);
        assertEquals(ByteBuffer.wrap(new byte[] {1, 2, 3, 4, 5, 6}), mapped);
        Unmapper.unmap(mapped);

        try (SpillDirectory.Writer w = spill.newFile(6)) {
            w.write(ByteBuffer.wrap(new byte[] {1, 2, 3}));
        }
        try (Stream<Path> files = Files.list(dir)) {
            assertEquals(0, files.count(), "a writer closed before it finished leaves no file");
        }
    }

    @Test
    void shouldRefuseFilesOfTheWrongLengthAndDeleteThem() throws Exception {
        SpillDirectory spill = new SpillDirectory(dir, "r1-");
        String name = spill.write(ByteBuffer.allocate(100));
        SpillException e = assertThrows(SpillException.class, () -> spill.mapMessage(name, 99));
        assertTrue(e.getMessage().contains("expected 99"), e.getMessage());
        assertFalse(Files.exists(dir.resolve(name)), "a refused file is not left behind");
        e = assertThrows(SpillException.class, () -> spill.mapMessage("missing", 1));
        assertTrue(e.getMessage().contains("missing"), e.getMessage());
    }

    @Test
    void aRecycledFileKeepsItsNameAndMayBeLongerThanItsMessage() throws Exception {
        SpillDirectory spill = new SpillDirectory(dir, "r0-");
        String name = SpillDirectory.RECYCLED_PREFIX + "7";
        assertTrue(SpillDirectory.isRecycled(name));
        assertFalse(SpillDirectory.isRecycled("r0-1"));
        Files.write(dir.resolve(name), new byte[] {9, 8, 7, 6, 5});
        MappedByteBuffer mapped = spill.mapMessage(name, 3);
        assertEquals(ByteBuffer.wrap(new byte[] {9, 8, 7}), mapped, "only the message's bytes are mapped");
        Unmapper.unmap(mapped);
        assertTrue(Files.exists(dir.resolve(name)), "a recycled file goes back to its master, not away");
        SpillException e = assertThrows(SpillException.class, () -> spill.mapMessage(name, 6));
        assertTrue(e.getMessage().contains("expected 6"), e.getMessage());
        assertTrue(Files.exists(dir.resolve(name)), "a recycled file is never deleted by a reader");
    }

    @Test
    void aWriterTakesBackTheFilesItsMasterReturnedAndOverwritesThemInPlace() throws Exception {
        SpillDirectory spill = new SpillDirectory(dir, "r4-", true);
        String first = written(spill, 1, 2, 3, 4, 5);
        String second = written(spill, 6, 7);
        assertFalse(SpillDirectory.mayBeLonger(first), "a new file has its message's length");
        Object inode = Files.getAttribute(dir.resolve(first), "unix:ino");
        Path returned = SpillDirectory.returnedPath(dir, first);
        assertEquals(dir.resolve("sent-r4-").resolve(first), returned);
        Files.createDirectories(returned.getParent());
        Files.move(dir.resolve(first), returned); // its master sent it

        String reused = written(spill, 9, 9);
        assertTrue(reused.endsWith(SpillDirectory.REUSED_SUFFIX) && SpillDirectory.mayBeLonger(reused), reused);
        assertEquals(inode, Files.getAttribute(dir.resolve(reused), "unix:ino"), "the returned file itself");
        assertFalse(Files.exists(returned), "taken back, not copied");
        assertEquals(ByteBuffer.wrap(new byte[] {9, 9, 3, 4, 5}), ByteBuffer.wrap(Files.readAllBytes(dir.resolve(reused))),
                "overwritten from its start, never truncated");
        assertEquals(returned.getParent(), SpillDirectory.returnedPath(dir, reused).getParent(), "and returned as any of its files");
        MappedByteBuffer mapped = spill.mapMessage(reused, 2);
        assertEquals(ByteBuffer.wrap(new byte[] {9, 9}), mapped, "its reader maps only the message");
        Unmapper.unmap(mapped);
        assertFalse(Files.exists(dir.resolve(reused)), "and deletes it as any writer's file");

        String fresh = written(spill, 1);
        assertFalse(fresh.endsWith(SpillDirectory.REUSED_SUFFIX), "nothing returned: a new file");
        assertEquals(Set.of(second, fresh, "sent-r4-"), names());
    }

    @Test
    void aWriterThatTakesNothingBackNeverLooks() throws Exception {
        SpillDirectory untracked = new SpillDirectory(dir, "r6-");
        String name = written(untracked, 1);
        Path returned = SpillDirectory.returnedPath(dir, name);
        Files.createDirectories(returned.getParent());
        Files.move(dir.resolve(name), returned);
        assertFalse(written(untracked, 2).endsWith(SpillDirectory.REUSED_SUFFIX));
        assertTrue(Files.exists(returned));
    }

    private static String written(SpillDirectory spill, int... bytes) throws SpillException {
        try (SpillDirectory.Writer w = spill.messageFile(bytes.length)) {
            ByteBuffer data = ByteBuffer.allocate(bytes.length);
            for (int b : bytes) {
                data.put((byte) b);
            }
            w.write(data.flip());
            return w.finish();
        }
    }

    private Set<String> names() throws Exception {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(p -> p.getFileName().toString()).collect(Collectors.toSet());
        }
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
            Unmapper.unmap(spill.mapMessage(name, 1000));
        } finally {
            new ProcessBuilder("umount", small.toString()).inheritIO().start().waitFor();
        }
    }
}
