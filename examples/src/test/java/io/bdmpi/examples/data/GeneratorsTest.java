package io.bdmpi.examples.data;

import io.bdmpi.examples.store.HeapStorage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The generators' output depends only on their parameters, never on chunks, threads or memory. */
class GeneratorsTest {

    @TempDir
    Path dir;

    @Test
    void rmatIsTheSameForEveryChunkThreadCountAndMemoryBudget() throws IOException {
        RmatGenerator g = new RmatGenerator(12, 8, 7);
        Path reference = dir.resolve("one-thread-one-bucket");
        g.write(reference, 1 << 20, 1, 1L << 30);
        Path many = dir.resolve("many");
        g.write(many, 999, 3, 4096); // 64 buckets, odd chunk size, 3 threads
        Path other = dir.resolve("other");
        g.write(other, 1 << 14, 2, 100_000);
        byte[] expected = Files.readAllBytes(reference);
        assertArrayEquals(expected, Files.readAllBytes(many));
        assertArrayEquals(expected, Files.readAllBytes(other));
        try (var files = Files.list(dir)) {
            assertEquals(3, files.count(), "scratch bucket files and directories must be gone");
        }
    }

    @Test
    void rmatIsASkewedSimpleGraph() throws IOException {
        RmatGenerator g = new RmatGenerator(12, 8, 3);
        Path out = dir.resolve("g");
        g.write(out, 5000, 2, 1 << 16);
        try (CsrFile f = CsrFile.open(out)) {
            assertEquals(4096, f.rows());
            assertEquals(4096, f.cols());
            assertTrue(!f.hasValues());
            // duplicates and self-loops dropped: fewer than the 32768 drawn, but most of them
            assertTrue(f.nnz() > 20_000 && f.nnz() < 32_768, "nnz " + f.nnz());
            CsrBlock all = f.read(0, f.rows(), HeapStorage.INSTANCE);
            int maxDegree = 0;
            for (int v = 0; v < all.rows(); v++) {
                int start = all.rowPtr().get(v);
                int end = all.rowPtr().get(v + 1);
                maxDegree = Math.max(maxDegree, end - start);
                for (int k = start; k < end; k++) {
                    assertTrue(all.cols().get(k) != v, "self-loop at " + v);
                }
            }
            double average = (double) f.nnz() / f.rows();
            assertTrue(maxDegree > 10 * average, "R-MAT must be skewed: max degree " + maxDegree + ", average " + average);
            // renumbering spreads the heavy rows: the first and second half hold similar shares of edges
            long half = f.rowPtr(f.rows() / 2);
            assertTrue(half > f.nnz() / 3 && half < 2 * f.nnz() / 3, "first half has " + half + " of " + f.nnz());
        }
    }

    @Test
    void differentSeedsGiveDifferentGraphs() throws IOException {
        new RmatGenerator(10, 4, 1).write(dir.resolve("a"), 1000, 1, 1 << 20);
        new RmatGenerator(10, 4, 2).write(dir.resolve("b"), 1000, 1, 1 << 20);
        assertTrue(!Arrays.equals(Files.readAllBytes(dir.resolve("a")), Files.readAllBytes(dir.resolve("b"))));
    }

    @Test
    void documentsAreTheSameForEveryChunkAndThreadCount() throws IOException {
        DocTermGenerator g = new DocTermGenerator(3000, 700, 30, 5);
        g.write(dir.resolve("a"), 4096, 1);
        g.write(dir.resolve("b"), 7, 3);
        assertArrayEquals(Files.readAllBytes(dir.resolve("a")), Files.readAllBytes(dir.resolve("b")));
        try (CsrFile f = CsrFile.open(dir.resolve("a"))) {
            assertEquals(3000, f.rows());
            assertEquals(700, f.cols());
            assertTrue(f.hasValues());
            CsrBlock all = f.read(0, f.rows(), HeapStorage.INSTANCE);
            float total = 0;
            for (int k = 0; k < all.nnz(); k++) {
                total += all.values().get(k);
                assertTrue(all.values().get(k) >= 1, "a term count is at least 1");
            }
            // draws per document average 30 (15 .. 45); counts of repeated terms add up to the draws
            assertEquals(30.0, total / 3000, 1.0);
        }
    }

    @Test
    void ratingsAreTheSameForEveryChunkAndThreadCountAndInRange() throws IOException {
        RatingGenerator g = new RatingGenerator(2000, 500, 20, 9);
        g.write(dir.resolve("a"), 4096, 1);
        g.write(dir.resolve("b"), 13, 4);
        assertArrayEquals(Files.readAllBytes(dir.resolve("a")), Files.readAllBytes(dir.resolve("b")));
        try (CsrFile f = CsrFile.open(dir.resolve("a"))) {
            CsrBlock all = f.read(0, f.rows(), HeapStorage.INSTANCE);
            int[] histogram = new int[6];
            for (int k = 0; k < all.nnz(); k++) {
                float r = all.values().get(k);
                assertTrue(r >= 1 && r <= 5 && r == Math.rint(r), "rating " + r);
                histogram[(int) r]++;
            }
            for (int r = 1; r <= 5; r++) {
                assertTrue(histogram[r] > 0, "no rating " + r + ": " + Arrays.toString(histogram));
            }
        }
    }

    @Test
    void permutationIsABijection() {
        for (long n : new long[]{1, 2, 3, 17, 1000, 4096, 5000}) {
            Permutation p = new Permutation(n, 42);
            boolean[] hit = new boolean[(int) n];
            for (long x = 0; x < n; x++) {
                long y = p.apply(x);
                assertTrue(y >= 0 && y < n && !hit[(int) y], "n=" + n + ": " + x + " -> " + y);
                hit[(int) y] = true;
            }
        }
        Permutation p = new Permutation(1000, 1);
        long fixed = java.util.stream.LongStream.range(0, 1000).filter(x -> p.apply(x) == x).count();
        assertTrue(fixed < 20, "a random permutation fixes about one point, this one " + fixed);
    }
}
