package io.bdmpi.ooc;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Random;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Saved heap arrays: round trips of every type across I/O-buffer boundaries, replacement, and misuse. */
class SaveLoadTest {

    /** Lengths around the I/O buffer's size in elements, so the last chunk is partial or empty. */
    private static final int[] LENGTHS = {0, 1, 1000, ArrayStore.IO_BYTES / 8 * 2 + 3};

    @TempDir
    Path dir;

    @Test
    void everyTypeRoundTrips() throws IOException {
        Random rnd = new Random(5);
        try (ArrayStore store = ArrayStore.open(dir)) {
            for (int n : LENGTHS) {
                byte[] b = new byte[n];
                rnd.nextBytes(b);
                int[] i = rnd.ints(n).toArray();
                long[] l = rnd.longs(n).toArray();
                double[] d = rnd.doubles(n).toArray();
                float[] f = new float[n];
                for (int k = 0; k < n; k++) {
                    f[k] = rnd.nextFloat();
                }
                store.save("b", b);
                store.save("i", i);
                store.save("l", l);
                store.save("f", f);
                store.save("d", d);
                assertTrue(store.isSaved("d"));
                assertArrayEquals(b, store.loadBytes("b"), "byte[" + n + "]");
                assertArrayEquals(i, store.loadInts("i"), "int[" + n + "]");
                assertArrayEquals(l, store.loadLongs("l"), "long[" + n + "]");
                assertArrayEquals(f, store.loadFloats("f"), "float[" + n + "]");
                assertArrayEquals(d, store.loadDoubles("d"), "double[" + n + "]");
                assertFalse(store.isSaved("d"), "a load takes the saved copy away");
            }
        }
        try (Stream<Path> left = Files.list(dir)) {
            assertEquals(0, left.count(), "nothing is left on disk after every array was loaded");
        }
    }

    @Test
    void saveReplacesAndLoadChecksTheType() throws IOException {
        try (ArrayStore store = ArrayStore.open(dir)) {
            store.save("x", new int[] {1, 2, 3});
            store.save("x", new int[] {4});
            assertArrayEquals(new int[] {4}, store.loadInts("x"));
            assertThrows(NoSuchFileException.class, () -> store.loadInts("x"));
            store.save("y", new double[] {1.5});
            IOException e = assertThrows(IOException.class, () -> store.loadLongs("y"));
            assertTrue(e.getMessage().contains("saved as double[]"), e.getMessage());
            store.save("y", new long[] {7});
            assertArrayEquals(new long[] {7}, store.loadLongs("y"), "a save of another type replaces the old one");
            assertFalse(store.isSaved("y"));
            assertThrows(IllegalArgumentException.class, () -> store.save("a/b", new int[1]));
        }
    }

    @Test
    void aKeptCopyLoadsAgainUntilDeleted() throws IOException {
        try (ArrayStore store = ArrayStore.open(dir)) {
            float[] f = {1.5f, -2f, 3.25f};
            store.save("f", f);
            assertArrayEquals(f, store.loadFloats("f", true));
            assertArrayEquals(f, store.loadFloats("f", true), "a kept copy loads again");
            assertTrue(store.isSaved("f"));
            store.save("i", new int[] {9, 8});
            assertArrayEquals(new int[] {9, 8}, store.loadInts("i", true));
            store.deleteSaved("i");
            store.deleteSaved("never-saved");
            assertFalse(store.isSaved("i"));
            assertArrayEquals(f, store.loadFloats("f", false));
            assertFalse(store.isSaved("f"), "a load that does not keep deletes the copy");
        }
    }

    @Test
    void aClosedStoreRefuses() throws IOException {
        ArrayStore store = ArrayStore.open(dir);
        store.close();
        assertThrows(IllegalStateException.class, () -> store.save("x", new int[1]));
        assertThrows(IllegalStateException.class, () -> store.ints("x", 1, Residency.NONE));
    }
}
