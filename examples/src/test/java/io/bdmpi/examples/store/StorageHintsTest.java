package io.bdmpi.examples.store;

import io.bdmpi.ooc.ArrayStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.LongBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The read-only and discard hints and the bulk reads of the file-backed styles, on a real ArrayStore. */
class StorageHintsTest {

    @TempDir
    Path dir;

    @Test
    void savedStorageWritesAReadOnlyArrayOnceAndKeepsTheOthersExact() throws IOException {
        try (ArrayStore store = ArrayStore.open(dir); SavedStorage st = new SavedStorage(store)) {
            Storage.Ints input = st.ints("input", 5);
            Storage.Doubles state = st.doubles("state", 3);
            Storage.Floats scratch = st.floats("scratch", 4);
            for (int i = 0; i < 5; i++) {
                input.set(i, 10 * i);
            }
            st.readOnly(input);
            st.discard(scratch);
            assertNull(((HeapStorage.HeapFloats) scratch).a, "a discarded array lets its heap array go at once");
            assertTrue(savedFiles().isEmpty(), "nothing is on disk outside a blocking call");

            st.beforeBlocking();
            assertEquals(2, savedFiles().size(), "the discarded array is not saved");
            Path inputFile = savedFiles().stream().filter(p -> p.toString().contains("input")).findFirst().orElseThrow();
            Object written = Files.getAttribute(inputFile, "unix:ino"); // a save writes a new file and renames it over
            st.afterBlocking();
            assertEquals(1, savedFiles().size(), "the read-only array's copy stays, the other's is deleted at load");
            state.set(2, 2.5);

            st.beforeBlocking();
            st.afterBlocking();
            assertEquals(written, Files.getAttribute(inputFile, "unix:ino"), "the read-only copy was not written again");
            int[] back = new int[5];
            input.copyTo(0, back, 5);
            assertArrayEquals(new int[] {0, 10, 20, 30, 40}, back);
            assertEquals(2.5, state.get(2));
        }
        assertTrue(savedFiles().isEmpty(), "close deletes the read-only copies");
    }

    @Test
    void mappedStorageReadsInBulkAndDeletesADiscardedArray() throws IOException {
        try (ArrayStore store = ArrayStore.open(dir); MappedStorage st = new MappedStorage(store)) {
            Storage.Floats values = st.floats("values", 1000);
            Storage.Ints cols = st.ints("cols", 1000);
            for (int i = 0; i < 1000; i++) {
                values.set(i, i / 4f);
                cols.set(i, 3 * i);
            }
            Storage.Longs sums = st.longs("sums", 1000);
            long[] source = new long[1000];
            for (int i = 0; i < 1000; i++) {
                source[i] = -5L * i;
            }
            sums.copyFrom(0, source, 1000);
            float[] v = new float[10];
            int[] c = new int[10];
            long[] s = new long[10];
            values.copyTo(990, v, 10);
            cols.copyTo(500, c, 10);
            sums.copyTo(100, s, 10);
            assertEquals(990 / 4f, v[0]);
            assertEquals(999 / 4f, v[9]);
            assertEquals(1500, c[0]);
            assertEquals(1527, c[9]);
            assertEquals(-500, s[0]);
            assertEquals(-545, s[9]);
            int before = store.arrays().size();
            st.discard(cols);
            assertEquals(before - 1, store.arrays().size());
            assertFalse(store.arrays().stream().anyMatch(a -> a.name().contains("cols")));
        }
    }

    @Test
    void bulkDoubleCopiesMatchTheElementsInEveryStyle() throws IOException {
        try (ArrayStore store = ArrayStore.open(dir); MappedStorage mapped = new MappedStorage(store);
             SavedStorage saved = new SavedStorage(store)) {
            for (Storage st : new Storage[]{HeapStorage.INSTANCE, mapped, saved}) {
                Storage.Doubles d = st.doubles("ranks", 1000);
                double[] source = new double[300];
                for (int i = 0; i < source.length; i++) {
                    source[i] = i / 7.0;
                }
                d.copyFrom(650, source, 300);
                d.set(649, -1);
                for (int i = 0; i < 300; i++) {
                    assertEquals(i / 7.0, d.get(650 + i), st.getClass().getSimpleName());
                }
                assertEquals(0.0, d.get(950));
                double[] back = new double[12];
                d.copyTo(649, back, 12);
                assertEquals(-1, back[0]);
                assertEquals(10 / 7.0, back[11]);
            }
        }
    }

    @Test
    void messageBuffersOfTheOocStyleStayMappedThroughABlockingCallAndAreDeletedAtClose() throws IOException {
        try (ArrayStore store = ArrayStore.open(dir); SavedStorage st = new SavedStorage(store)) {
            Storage.LongMessage recv = st.longMessage("recv", 1000);
            Storage.LongMessage empty = st.longMessage("empty", 0);
            LongBuffer buffer = (LongBuffer) recv.buffer();
            assertTrue(buffer.isDirect(), "MPI takes only direct buffers");
            assertEquals(1000, buffer.capacity());
            assertEquals(0, ((LongBuffer) empty.buffer()).capacity());
            assertTrue(((LongBuffer) empty.buffer()).isDirect());

            st.beforeBlocking();
            buffer.put(999, 42); // what a receive does while the rank is parked
            st.afterBlocking();
            assertEquals(42, recv.get(999));
            recv.set(0, -7);
            assertEquals(-7, buffer.get(0));
            assertEquals(2, savedFiles().size(), "one mapped file per buffer, nothing saved");
        }
        assertTrue(savedFiles().isEmpty(), "close deletes the buffers' files");
    }

    @Test
    void aMessageBufferLargerThanOneMappingIsRefusedAndTheHeapStyleHandsOverItsArray() throws IOException {
        try (ArrayStore store = ArrayStore.open(dir); MappedStorage st = new MappedStorage(store)) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> st.longMessage("huge", (1 << 27) + 1));
            assertTrue(e.getMessage().contains("huge"), e.getMessage());
            assertTrue(savedFiles().isEmpty());
        }
        Storage.LongMessage heap = HeapStorage.INSTANCE.longMessage("send", 3);
        heap.set(2, 5);
        assertArrayEquals(new long[] {0, 0, 5}, (long[]) heap.buffer());
    }

    private java.util.List<Path> savedFiles() throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(Files::isRegularFile).toList();
        }
    }
}
