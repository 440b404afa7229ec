package io.bdmpi.ooc;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Off-heap arrays: element access of every type, bounds, sizes above 2 GiB, reopening, and residency (mincore). */
class MappedArrayTest {

    @TempDir
    Path dir;

    @Test
    void everyTypeKeepsWhatIsWritten() throws IOException {
        try (ArrayStore store = ArrayStore.open(dir)) {
            ByteArray b = store.bytes("b", 1000, Residency.NONE);
            IntArray i = store.ints("i", 1000, Residency.WILLNEED);
            LongArray l = store.longs("l", 1000, Residency.SEQUENTIAL);
            FloatArray f = store.floats("f", 1000, Residency.MLOCK);
            DoubleArray d = store.doubles("d", 1000, Residency.NONE);
            for (int k = 0; k < 1000; k++) {
                b.set(k, (byte) k);
                i.set(k, -k * 7);
                l.set(k, (long) k << 40);
                f.set(k, k / 3f);
                d.set(k, Math.sqrt(k));
            }
            for (int k = 0; k < 1000; k++) {
                assertEquals((byte) k, b.get(k));
                assertEquals(-k * 7, i.get(k));
                assertEquals((long) k << 40, l.get(k));
                assertEquals(k / 3f, f.get(k));
                assertEquals(Math.sqrt(k), d.get(k));
            }
            assertEquals(1000, b.byteSize());
            assertEquals(8000, d.byteSize());
            assertEquals(0, store.ints("fresh", 10, Residency.NONE).get(9), "a new array holds zeros");
            assertEquals(1000 + 4000 + 8000 + 4000 + 8000 + 40, store.mappedBytes());
            assertTrue(store.residentBytes() >= 8000 && store.residentBytes() <= store.mappedBytes() + 6 * 4096,
                    "written pages are resident: " + store.residentBytes());
        }
    }

    @Test
    void indicesOutsideTheArrayAreRejected() throws IOException {
        try (ArrayStore store = ArrayStore.open(dir)) {
            IntArray a = store.ints("a", 10, Residency.NONE);
            assertThrows(IndexOutOfBoundsException.class, () -> a.get(-1));
            assertThrows(IndexOutOfBoundsException.class, () -> a.get(10));
            assertThrows(IndexOutOfBoundsException.class, () -> a.set(10, 1));
            assertThrows(IndexOutOfBoundsException.class, () -> a.set(Long.MIN_VALUE, 1));
            IntArray empty = store.ints("empty", 0, Residency.NONE);
            assertThrows(IndexOutOfBoundsException.class, () -> empty.get(0));
            a.close();
            assertThrows(IllegalStateException.class, () -> a.get(0));
            assertThrows(IllegalArgumentException.class, () -> store.ints("neg", -1, Residency.NONE));
            assertThrows(IllegalArgumentException.class, () -> store.longs("huge", Long.MAX_VALUE / 4, Residency.NONE));
        }
    }

    @Test
    void arraysLargerThan2GiBUseLongIndices() throws IOException {
        long length = 3L << 28; // 768 Mi longs = 6 GiB, sparse: only touched pages take disk
        long[] at = {0, (1L << 27) - 1, 1L << 27, (1L << 28) + 5, length - 1};
        try (ArrayStore store = ArrayStore.open(dir)) {
            LongArray a = store.longs("big", length, Residency.NONE);
            assertEquals(6L << 30, a.byteSize());
            for (long i : at) {
                a.set(i, i * 31);
            }
            a.close();
            LongArray again = store.longs("big", length, Residency.NONE);
            for (long i : at) {
                assertEquals(i * 31, again.get(i), "element " + i);
            }
            assertEquals(0, again.get(1L << 29));
            assertThrows(IndexOutOfBoundsException.class, () -> again.get(length));
            ByteArray bytes = store.bytes("bytes", 3L << 30, Residency.NONE);
            long beyondInt = (1L << 31) + 5;
            bytes.set(beyondInt, (byte) 7);
            bytes.set((3L << 30) - 1, (byte) 9);
            assertEquals(7, bytes.get(beyondInt));
            assertEquals(9, bytes.get((3L << 30) - 1));
            assertEquals(0, bytes.get(beyondInt - 1));

            // chunk views: full chunks of CHUNK_BYTES but the last, the same memory as get/set
            assertEquals(6, again.chunkCount());
            assertEquals(MappedArray.CHUNK_BYTES, again.chunkView(0).capacity());
            java.nio.LongBuffer second = again.chunkView(1).asLongBuffer();
            assertEquals((1L << 27) * 31, second.get(0), "element 2^27 is the first of chunk 1");
            second.put(5, 77);
            assertEquals(77, again.get((1L << 27) + 5));
            assertThrows(IndexOutOfBoundsException.class, () -> again.chunkView(6));
            again.close();
            assertThrows(IllegalStateException.class, () -> again.chunkView(0));
        }
    }

    @Test
    void storeReopensArraysByNameWithTheirContents() throws IOException {
        try (ArrayStore store = ArrayStore.open(dir)) {
            DoubleArray a = store.doubles("x", 100, Residency.NONE);
            a.set(42, 4.2);
            assertSame(a, store.doubles("x", 100, Residency.NONE));
            assertThrows(IllegalArgumentException.class, () -> store.doubles("x", 99, Residency.NONE));
            assertThrows(IllegalArgumentException.class, () -> store.ints("x", 100, Residency.NONE));
            assertThrows(IllegalArgumentException.class, () -> store.doubles("x", 100, Residency.MLOCK));
            assertThrows(IllegalArgumentException.class, () -> store.doubles("../x", 1, Residency.NONE));
            assertThrows(IllegalArgumentException.class, () -> store.doubles(".x", 1, Residency.NONE));
            assertThrows(IllegalArgumentException.class, () -> store.doubles("", 1, Residency.NONE));
        }
        try (ArrayStore store = ArrayStore.open(dir)) {
            DoubleArray x = store.doubles("x", 100, Residency.NONE);
            assertEquals(4.2, x.get(42), "contents survive closing the store");
            x.close();
            assertThrows(IOException.class, () -> store.doubles("x", 50, Residency.NONE), "another size of an existing file");
            store.delete("x");
            assertEquals(java.util.List.of(), ArrayStore.arrayRanges(dir));
            assertEquals(0, store.doubles("x", 100, Residency.NONE).get(42), "deleted, so made anew");
        }
    }

    @Test
    void releaseEvictsAndPrefetchBringsBackEveryResidency() throws Exception {
        long length = 16L << 20; // 64 MiB of ints
        try (ArrayStore store = ArrayStore.open(dir)) {
            for (Residency r : Residency.values()) {
                IntArray a = store.ints("r-" + r, length, r);
                for (long i = 0; i < length; i += 1024) {
                    a.set(i, (int) i + 1);
                }
                a.release(); // writes the dirty pages back, then reclaims them
                if (r == Residency.NONE) {
                    assertTrue(fraction(a) > 0.9, "NONE leaves the pages to the OS, yet " + fraction(a) + " resident");
                    a.flush();
                    a.close();
                    evictFromPageCache(a.file());
                    a = store.ints("r-" + r, length, r);
                }
                assertTrue(fraction(a) < 0.1, r + ": after release " + fraction(a) + " resident");
                a.prefetch();
                if (r == Residency.NONE || r == Residency.LAZY) {
                    assertTrue(fraction(a) < 0.1, r + " prefetches nothing, yet " + fraction(a) + " resident");
                } else {
                    awaitResident(a, r);
                }
                for (long i = 0; i < length; i += 1024) {
                    assertEquals((int) i + 1, a.get(i), r + ": element " + i + " after release and prefetch");
                }
                a.release();
                if (r != Residency.NONE) {
                    assertTrue(fraction(a) < 0.1, r + ": after the second release " + fraction(a) + " resident");
                }
                store.delete(a.name());
            }
        }
    }

    @Test
    void aDeferredPrefetchBringsTheArraysBackOnceAtTheEndOfTheStretch() throws Exception {
        try (ArrayStore store = ArrayStore.open(dir)) {
            IntArray a = store.ints("stretch", 4L << 20, Residency.SEQUENTIAL);
            for (long i = 0; i < a.length(); i += 1024) {
                a.set(i, 7);
            }
            store.deferPrefetch();
            store.release(); // parked in the first call of the stretch
            store.prefetch(); // resumed between two calls: nothing comes back
            assertTrue(fraction(a) < 0.1, "deferred, yet " + fraction(a) + " resident");
            store.release();
            store.endPrefetchDeferral();
            awaitResident(a, Residency.SEQUENTIAL);
            assertEquals(7, a.get(a.length() - 1024));

            store.deferPrefetch(); // a stretch in which the rank never parked
            store.endPrefetchDeferral();
            assertTrue(fraction(a) >= 0.9);
        }
    }

    @Test
    void aParkInsideAStretchReleasesOnlyWhatCameBackOrWasMadeSinceTheLastRelease() throws Exception {
        try (ArrayStore store = ArrayStore.open(dir)) {
            IntArray a = store.ints("early", 4L << 20, Residency.SEQUENTIAL);
            store.deferPrefetch();
            store.release();
            a.prefetch(); // what a read-ahead does while the rank is parked
            store.release(); // parked again in the same stretch: the read-ahead stays
            assertTrue(fraction(a) >= 0.9, "read ahead, then dropped: " + fraction(a) + " resident");
            IntArray late = store.ints("late", 4L << 20, Residency.SEQUENTIAL);
            for (long i = 0; i < late.length(); i += 1024) {
                late.set(i, 1);
            }
            store.release(); // an array made since the last release goes
            assertTrue(fraction(late) < 0.1, "made inside the stretch, yet " + fraction(late) + " resident after a park");
            store.endPrefetchDeferral();
            awaitResident(late, Residency.SEQUENTIAL);
        }
    }

    @Test
    void aResumeReadsSequentialArraysInWhileTheRankGoesOnAndAParkWaitsForThoseReads() throws Exception {
        try (ArrayStore store = ArrayStore.open(dir)) {
            IntArray a = store.ints("a", 16L << 20, Residency.SEQUENTIAL);
            IntArray b = store.ints("b", 16L << 20, Residency.SEQUENTIAL);
            for (long i = 0; i < a.length(); i += 1024) {
                a.set(i, (int) i);
                b.set(i, (int) -i);
            }
            for (int round = 0; round < 5; round++) {
                store.release();
                assertTrue(fraction(a) < 0.1 && fraction(b) < 0.1, "parked: " + fraction(a) + ", " + fraction(b) + " resident");
                store.prefetch();
                // Parked again at once: the reads just started must not bring pages back after the release.
                store.release();
                Thread.sleep(50);
                assertTrue(fraction(a) < 0.1 && fraction(b) < 0.1,
                        "round " + round + ": read back in after the park: " + fraction(a) + ", " + fraction(b) + " resident");
            }
            store.prefetch();
            assertEquals((int) (a.length() - 1024), a.get(a.length() - 1024), "touched while it is being read in");
            awaitResident(a, Residency.SEQUENTIAL);
            awaitResident(b, Residency.SEQUENTIAL);
            assertEquals((int) -(b.length() - 1024), b.get(b.length() - 1024));
            store.delete("a"); // while nothing is being read, or while b is
            store.prefetch();
            store.delete("b");
            assertTrue(store.arrays().isEmpty());
        }
    }

    @Test
    void releaseAlsoDropsPagesReadAheadButNeverTouched() throws Exception {
        try (ArrayStore store = ArrayStore.open(dir)) {
            IntArray a = store.ints("w", 16L << 20, Residency.WILLNEED);
            for (long i = 0; i < a.length(); i += 1024) {
                a.set(i, 3);
            }
            a.release();
            a.prefetch();
            awaitResident(a, Residency.WILLNEED);
            a.release();
            assertTrue(fraction(a) < 0.1, "read ahead, untouched, released: still " + fraction(a) + " resident");
            assertEquals(3, a.get(a.length() - 1024));
        }
    }

    @Test
    void readAheadBringsTheArraysIntoMemoryButNotTheBuffersNorMoreThanItsLimit() throws Exception {
        try (ArrayStore store = ArrayStore.open(dir)) {
            IntArray data = store.ints("data", 8L << 20, Residency.SEQUENTIAL);
            IntArray buffer = store.ints("buffer", 8L << 20, Residency.NONE);
            for (long i = 0; i < data.length(); i += 1024) {
                data.set(i, 5);
                buffer.set(i, 6);
            }
            store.release();
            buffer.flush();
            buffer.close();
            evictFromPageCache(buffer.file());
            buffer = store.ints("buffer", 8L << 20, Residency.NONE);
            assertTrue(fraction(data) < 0.1 && fraction(buffer) < 0.1, "released: " + fraction(data) + ", " + fraction(buffer));

            assertEquals(0, ArrayStore.readAhead(dir, data.byteSize() - 1), "more than the limit: nothing read");
            assertTrue(fraction(data) < 0.1, "nothing read, yet " + fraction(data) + " resident");

            assertEquals(data.byteSize(), ArrayStore.readAhead(dir, data.byteSize()));
            long deadline = System.nanoTime() + 10_000_000_000L;
            while (fraction(data) < 0.9 && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            assertTrue(fraction(data) >= 0.9, "read ahead: " + fraction(data) + " resident");
            assertTrue(fraction(buffer) < 0.1, "a message buffer is not read ahead, yet " + fraction(buffer) + " resident");
            assertEquals(0, ArrayStore.readAhead(dir.resolve("gone"), Long.MAX_VALUE), "no store: nothing to read");
        }
    }

    /** Drops a closed array's pages from the page cache (they must have been written back). */
    private static void evictFromPageCache(Path file) throws IOException {
        Libc.dropCleanPages(file, 0, 0);
    }

    /**
     * MLOCK and a SEQUENTIAL array's own prefetch are synchronous; WILLNEED, and SEQUENTIAL
     * through the store, read in the background.
     */
    private static void awaitResident(MappedArray a, Residency r) throws Exception {
        long deadline = System.nanoTime() + 10_000_000_000L;
        if (r != Residency.MLOCK) {
            while (fraction(a) < 0.9 && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
        }
        assertTrue(fraction(a) >= 0.9, r + ": after prefetch only " + fraction(a) + " resident");
    }

    private static double fraction(MappedArray a) throws IOException {
        return (double) a.residentBytes() / a.byteSize();
    }

    private static long diskKiB(Path file) throws IOException {
        Process du = new ProcessBuilder("du", "-k", file.toString()).start();
        return Long.parseLong(new String(du.getInputStream().readAllBytes()).split("\\s+")[0]);
    }

    @Test
    void fileIsSparseUntilWritten() throws IOException {
        try (ArrayStore store = ArrayStore.open(dir)) {
            ByteArray a = store.bytes("s", 1L << 30, Residency.NONE);
            a.set(0, (byte) 1);
            a.flush();
            assertEquals(1L << 30, Files.size(a.file()));
            // du: blocks actually allocated, far below the size
            long kib = diskKiB(a.file());
            assertTrue(kib < 1024, "a fresh 1 GiB array with one byte written takes " + kib + " KiB of disk");
        }
    }
}
