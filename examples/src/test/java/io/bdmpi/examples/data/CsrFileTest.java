package io.bdmpi.examples.data;

import io.bdmpi.examples.store.HeapStorage;
import io.bdmpi.examples.store.MappedStorage;
import io.bdmpi.examples.store.SavedStorage;
import io.bdmpi.examples.store.Storage;
import io.bdmpi.ooc.ArrayStore;
import io.bdmpi.ooc.Residency;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The CSR file format: round trips, row ranges, column filters, partitions, damaged files. */
class CsrFileTest {

    @TempDir
    Path dir;

    /** Row r has columns {r % 7, r % 7 + 3, ...} up to r % 5 of them, value = 10 r + column. */
    private static Row row(int r) {
        int len = r % 5;
        int[] cols = new int[len];
        float[] values = new float[len];
        for (int i = 0; i < len; i++) {
            cols[i] = r % 7 + 3 * i;
            values[i] = 10f * r + cols[i];
        }
        return new Row(cols, values);
    }

    private Path write(int rows) throws IOException {
        Path p = dir.resolve("m");
        try (CsrWriter w = new CsrWriter(p, rows, 20, true)) {
            for (int r = 0; r < rows; r++) {
                Row row = row(r);
                w.appendRow(row.cols(), row.values(), row.cols().length);
            }
            w.finish();
        }
        return p;
    }

    @Test
    void roundTripOfEveryRowRange() throws IOException {
        Path p = write(50);
        try (CsrFile f = CsrFile.open(p)) {
            assertEquals(50, f.rows());
            assertEquals(20, f.cols());
            assertTrue(f.hasValues());
            long nnz = 0;
            for (int r = 0; r < 50; r++) {
                assertEquals(nnz, f.rowPtr(r));
                nnz += r % 5;
            }
            assertEquals(nnz, f.nnz());
            assertEquals(nnz, f.rowPtr(50));
            for (int from : new int[]{0, 3, 49, 50}) {
                for (int to = from; to <= 50; to += 7) {
                    CsrBlock b = f.read(from, to, HeapStorage.INSTANCE);
                    assertEquals(from, b.firstRow());
                    assertEquals(to - from, b.rows());
                    for (int i = 0; i < b.rows(); i++) {
                        Row expected = row(from + i);
                        int start = b.rowPtr().get(i);
                        assertEquals(expected.cols().length, b.rowPtr().get(i + 1) - start);
                        for (int k = 0; k < expected.cols().length; k++) {
                            assertEquals(expected.cols()[k], b.cols().get(start + k));
                            assertEquals(expected.values()[k], b.values().get(start + k));
                        }
                    }
                }
            }
        }
    }

    @Test
    void aReadOnlyBlockIsTheSameInEveryStyleAndMappedInPlaceInMlock() throws IOException {
        Path p = bigMatrix(300, 700);
        try (CsrFile f = CsrFile.open(p); ArrayStore store = ArrayStore.open(dir.resolve("store"));
             MappedStorage mapped = new MappedStorage(store); SavedStorage saved = new SavedStorage(store)) {
            CsrBlock copy = f.read(7, 251, HeapStorage.INSTANCE);
            for (Storage st : List.of(HeapStorage.INSTANCE, mapped, saved)) {
                CsrBlock b = f.readOnly(7, 251, st);
                assertEquals(copy.rows(), b.rows());
                assertEquals(copy.nnz(), b.nnz());
                for (int i = 0; i <= b.rows(); i++) {
                    assertEquals(copy.rowPtr().get(i), b.rowPtr().get(i));
                }
                int[] cols = new int[b.nnz()];
                float[] values = new float[b.nnz()];
                b.cols().copyTo(0, cols, cols.length);
                b.values().copyTo(0, values, values.length);
                for (int k = 0; k < b.nnz(); k++) {
                    assertEquals(copy.cols().get(k), cols[k], st.getClass().getSimpleName());
                    assertEquals(copy.values().get(k), values[k], st.getClass().getSimpleName());
                }
            }
            // 7 x 700 non-zeros before the block: its columns start at byte 72 + 19600 of the file, inside a page.
            assertEquals(List.of(new ArrayStore.View(p.toAbsolutePath(), 72 + 4 * 7 * 700, 4L * 244 * 700, Residency.SEQUENTIAL),
                            new ArrayStore.View(p.toAbsolutePath(), 72 + 4L * 300 * 700 + 4 * 7 * 700, 4L * 244 * 700,
                                    Residency.SEQUENTIAL)),
                    ArrayStore.views(store.directory()).stream().sorted((a, b) -> Long.compare(a.offset(), b.offset())).toList(),
                    "mlock maps the columns and values from the file");
            assertEquals(1, store.arrays().stream().filter(a -> !a.isView()).count(), "mlock copies only the row offsets");
        }
    }

    /** {@code rows} rows of {@code width} non-zeros each: column c, value 1000 r + c. */
    private Path bigMatrix(int rows, int width) throws IOException {
        Path p = dir.resolve("big");
        try (CsrWriter w = new CsrWriter(p, rows, width, true)) {
            int[] cols = new int[width];
            float[] values = new float[width];
            for (int r = 0; r < rows; r++) {
                for (int c = 0; c < width; c++) {
                    cols[c] = c;
                    values[c] = r * 1000f + c;
                }
                w.appendRow(cols, values, width);
            }
            w.finish();
        }
        return p;
    }

    @Test
    void bulkReadsAcrossManyBufferFills() throws IOException {
        int rows = 300;
        int width = 700; // 210000 non-zeros: several bulk steps and buffer refills
        Path p = bigMatrix(rows, width);
        try (CsrFile f = CsrFile.open(p)) {
            CsrBlock b = f.read(1, rows, HeapStorage.INSTANCE);
            assertEquals((rows - 1) * width, b.nnz());
            for (int k = 0; k < b.nnz(); k++) {
                assertEquals(k % width, b.cols().get(k));
                assertEquals((1 + k / width) * 1000f + k % width, b.values().get(k));
            }
        }
    }

    @Test
    void rowOffsetsReadInBulkAcrossBufferFills() throws IOException {
        // 300000 rows: their 8-byte offsets fill the reader's 1 MiB buffer more than twice, and a
        // block that starts at an odd row reads them from an unaligned position. Each row's length
        // must be what the per-row lookup rowPtr(r) says.
        Path p = write(300_000);
        try (CsrFile f = CsrFile.open(p)) {
            for (int from : new int[]{0, 1, 131_071, 299_999}) {
                CsrBlock b = f.read(from, 300_000, HeapStorage.INSTANCE);
                long first = f.rowPtr(from);
                for (int i = 0; i <= b.rows(); i += i < 10 || b.rows() - i < 10 ? 1 : 997) {
                    assertEquals(f.rowPtr(from + i) - first, b.rowPtr().get(i), "row " + (from + i));
                }
                assertEquals(f.rowPtr(300_000) - first, b.rowPtr().get(b.rows()));
                Row last = row(299_999);
                int start = b.rowPtr().get(b.rows() - 1);
                for (int k = 0; k < last.cols().length; k++) {
                    assertEquals(last.cols()[k], b.cols().get(start + k));
                }
            }
        }
    }

    @Test
    void aReusedChunkBufferReadsLikeAFreshOne() throws IOException {
        try (CsrFile f = CsrFile.open(write(60))) {
            CsrBlock buffer = f.read(0, 60, HeapStorage.INSTANCE);
            for (int from = 0; from < 60; from += 9) {
                CsrBlock fresh = f.read(from, Math.min(60, from + 9), 2, 15, HeapStorage.INSTANCE);
                CsrBlock reused = f.read(from, Math.min(60, from + 9), 2, 15, buffer, HeapStorage.INSTANCE);
                assertTrue(reused.cols() == buffer.cols(), "a large enough buffer is reused");
                assertEquals(fresh.rows(), reused.rows());
                assertEquals(fresh.nnz(), reused.nnz());
                for (int i = 0; i <= fresh.rows(); i++) {
                    assertEquals(fresh.rowPtr().get(i), reused.rowPtr().get(i));
                }
                for (int k = 0; k < fresh.nnz(); k++) {
                    assertEquals(fresh.cols().get(k), reused.cols().get(k));
                    assertEquals(fresh.values().get(k), reused.values().get(k));
                }
                buffer = reused;
            }
        }
    }

    @Test
    void columnFilterKeepsOnlyThatRange() throws IOException {
        try (CsrFile f = CsrFile.open(write(40))) {
            CsrBlock b = f.read(5, 35, 4, 9, HeapStorage.INSTANCE);
            int k = 0;
            for (int i = 0; i < b.rows(); i++) {
                for (int c : row(5 + i).cols()) {
                    if (c >= 4 && c < 9) {
                        assertEquals(c, b.cols().get(k));
                        assertEquals(10f * (5 + i) + c, b.values().get(k));
                        k++;
                    }
                }
                assertEquals(k, b.rowPtr().get(i + 1));
            }
            assertEquals(k, b.nnz());
        }
    }

    @Test
    void partitionsAndChunksCoverTheRowsInOrder() throws IOException {
        try (CsrFile f = CsrFile.open(write(200))) {
            for (int parts : new int[]{1, 2, 3, 7, 16, 300}) {
                long[] b = f.partitionByNonZeros(parts);
                assertEquals(0, b[0]);
                assertEquals(200, b[parts]);
                for (int k = 0; k < parts; k++) {
                    assertTrue(b[k] <= b[k + 1]);
                    long share = f.rowPtr(b[k + 1]) - f.rowPtr(b[k]);
                    assertTrue(share <= f.nnz() / parts + 4, parts + " parts: part " + k + " has " + share);
                }
            }
            for (long budget : new long[]{1, 5, 33, 10_000}) {
                long rows = 0;
                for (long lo = 0; lo < 200; ) {
                    long hi = f.chunkEnd(lo, budget);
                    assertTrue(hi > lo);
                    assertTrue(hi == lo + 1 || f.rowPtr(hi) - f.rowPtr(lo) <= budget);
                    assertTrue(hi == 200 || f.rowPtr(hi + 1) - f.rowPtr(lo) > budget, "chunk could be longer");
                    rows += hi - lo;
                    lo = hi;
                }
                assertEquals(200, rows);
            }
        }
    }

    @Test
    void damagedFilesAreRejected() throws IOException {
        Path p = write(30);
        try (FileChannel ch = FileChannel.open(p, StandardOpenOption.WRITE)) {
            ch.truncate(ch.size() - 8);
        }
        IOException e = assertThrows(IOException.class, () -> CsrFile.open(p));
        assertTrue(e.getMessage().contains("damaged"), e.getMessage());
        Path other = dir.resolve("other");
        Files.write(other, new byte[100]);
        assertThrows(IOException.class, () -> CsrFile.open(other));
    }

    @Test
    void writerRejectsBadRowsAndLeavesNothingBehind() throws IOException {
        Path p = dir.resolve("bad");
        try (CsrWriter w = new CsrWriter(p, 3, 10, false)) {
            w.appendRow(new int[]{1, 4}, null, 2);
            assertThrows(IllegalArgumentException.class, () -> w.appendRow(new int[]{4, 4}, null, 2));
            assertThrows(IllegalArgumentException.class, () -> w.appendRow(new int[]{10}, null, 1));
            assertThrows(IllegalArgumentException.class, () -> w.appendRow(new int[]{1}, new float[]{1}, 1));
            assertThrows(IllegalStateException.class, w::finish);
        }
        try (var left = Files.list(dir)) {
            assertEquals(List.of(), left.toList(), "an unfinished file and its scratch files must be removed");
        }
        assertFalse(Files.exists(p));
        write(3);
        assertThrows(IOException.class, () -> new CsrWriter(dir.resolve("m"), 1, 1, false), "must not overwrite");
    }

    @Test
    void vectorsRoundTrip() throws IOException {
        var v = HeapStorage.INSTANCE.doubles("v", 5);
        for (int i = 0; i < 5; i++) {
            v.set(i, i * 1.5);
        }
        Path p = dir.resolve("v");
        VectorFile.writeDoubles(p, 3, v, 5);
        VectorFile.writeDoubles(p, 0, v, 3);
        assertArrayEquals(new double[]{0, 1.5, 3, 0, 1.5, 3, 4.5, 6}, VectorFile.readDoubles(p));
    }
}
