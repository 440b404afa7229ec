package io.bdmpi.ooc;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.ReadOnlyBufferException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Views: off-heap arrays that map a range of a file the store does not own, read-only, at an
 * offset that need not fall on a page; released and brought back like the store's own arrays,
 * never written, seen by the master (descriptor, read-ahead, residency), deleted without the file.
 */
class ArrayViewTest {

    /** A header that puts the ints off any page boundary, as a CSR file's columns are. */
    private static final int HEADER = 72;
    private static final int INTS = 3 << 20;
    private static final int FLOATS = 1 << 20;

    @TempDir
    Path dir;
    @TempDir
    Path inputDir;

    /** A file of HEADER bytes, INTS little-endian ints (3 i + 1) and FLOATS floats (i / 7). */
    private Path input() throws IOException {
        Path file = inputDir.resolve("input.bin");
        ByteBuffer b = ByteBuffer.allocate(HEADER + 4 * (INTS + FLOATS)).order(ByteOrder.LITTLE_ENDIAN);
        b.position(HEADER);
        for (int i = 0; i < INTS; i++) {
            b.putInt(3 * i + 1);
        }
        for (int i = 0; i < FLOATS; i++) {
            b.putFloat(i / 7f);
        }
        b.flip();
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            while (b.hasRemaining()) {
                ch.write(b);
            }
            ch.force(true); // on disk, as an input is: its pages are clean and can be dropped
        }
        return file;
    }

    @Test
    void aViewReadsTheFileInPlaceAndComesBackAfterARelease() throws Exception {
        Path file = input();
        byte[] digest = digest(file);
        try (ArrayStore store = ArrayStore.open(dir)) {
            long first = 1000;
            IntArray ints = store.intView("cols", file, HEADER + 4 * first, INTS - first, Residency.SEQUENTIAL);
            FloatArray floats = store.floatView("values", file, HEADER + 4L * INTS, FLOATS, Residency.SEQUENTIAL);
            assertEquals(INTS - first, ints.length());
            assertTrue(ints.isView() && ints.fileOffset() == HEADER + 4 * first);
            for (long i = 0; i < ints.length(); i += 4099) {
                assertEquals(3 * (i + first) + 1, ints.get(i));
            }
            assertEquals(3 * (INTS - 1) + 1, ints.get(ints.length() - 1));
            assertEquals((FLOATS - 1) / 7f, floats.get(FLOATS - 1));
            int[] run = new int[5];
            ints.chunkView(0).asIntBuffer().get(12345, run);
            assertArrayEquals(new int[] {3 * (12345 + 1000) + 1, 3 * (12346 + 1000) + 1, 3 * (12347 + 1000) + 1,
                    3 * (12348 + 1000) + 1, 3 * (12349 + 1000) + 1}, run);
            assertThrows(ReadOnlyBufferException.class, () -> ints.set(0, 5), "a view is read-only");

            for (long i = 0; i < ints.length(); i += 1024) {
                ints.get(i); // every page in memory
            }
            store.release();
            assertTrue(fraction(ints) < 0.1, "released: still " + fraction(ints) + " resident");
            store.prefetch();
            long deadline = System.nanoTime() + 10_000_000_000L;
            while (fraction(ints) < 0.9 && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            assertTrue(fraction(ints) >= 0.9, "brought back: " + fraction(ints) + " resident");
            assertEquals(3 * (77777 + first) + 1, ints.get(77777));
            assertEquals(5 / 7f, floats.get(5));
        }
        assertArrayEquals(digest, digest(file), "the file is not written");
    }

    @Test
    void theMasterSeesAViewAndDeletingItLeavesTheFile() throws Exception {
        Path file = input();
        long size = Files.size(file);
        try (ArrayStore store = ArrayStore.open(dir)) {
            IntArray own = store.ints("own", 1 << 16, Residency.SEQUENTIAL);
            store.intView("cols", file, HEADER, INTS, Residency.SEQUENTIAL);
            store.floatView("buffer", file, HEADER + 4L * INTS, FLOATS, Residency.NONE);
            assertEquals(List.of(new ArrayStore.View(file.toAbsolutePath(), HEADER, 4L * INTS, Residency.SEQUENTIAL),
                    new ArrayStore.View(file.toAbsolutePath(), HEADER + 4L * INTS, 4L * FLOATS, Residency.NONE)),
                    ArrayStore.views(dir).stream().sorted((a, b) -> Long.compare(a.offset(), b.offset())).toList());
            assertEquals(own.byteSize() + 4L * INTS, ArrayStore.readAhead(dir, Long.MAX_VALUE),
                    "read ahead: the store's array and the SEQUENTIAL view, not the NONE one");
            assertEquals(own.byteSize() + 4L * (INTS + FLOATS), MappedResidency.ofStore(dir).totalBytes());

            store.delete("cols");
            store.delete("buffer");
            assertEquals(List.of(), ArrayStore.views(dir));
            assertEquals(size, Files.size(file), "the viewed file stays");
            assertEquals(0, store.ints("cols", 10, Residency.NONE).get(9), "the name is free again");
        }
    }

    @Test
    void aViewMustLieInItsFileAndHaveAFreeName() throws Exception {
        Path file = input();
        try (ArrayStore store = ArrayStore.open(dir)) {
            IOException shortFile = assertThrows(IOException.class,
                    () -> store.intView("past", file, HEADER + 4L * INTS, FLOATS + 1, Residency.SEQUENTIAL));
            assertTrue(shortFile.getMessage().contains("past"), shortFile.getMessage());
            assertEquals(List.of(), ArrayStore.views(dir), "a failed view leaves no descriptor");
            store.ints("taken", 4, Residency.NONE);
            assertThrows(IllegalArgumentException.class, () -> store.intView("taken", file, HEADER, 4, Residency.NONE));
            store.intView("v", file, HEADER, 4, Residency.NONE);
            assertThrows(IllegalArgumentException.class, () -> store.ints("v", 4, Residency.NONE),
                    "a view is not reopened as an array of the store's own");
            assertThrows(IllegalArgumentException.class, () -> store.intView("neg", file, -4, 4, Residency.NONE));
        }
    }

    private static double fraction(MappedArray a) throws IOException {
        return (double) a.residentBytes() / a.byteSize();
    }

    private static byte[] digest(Path file) throws IOException, NoSuchAlgorithmException {
        return MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(file));
    }
}
