package io.bdmpi.examples.kmeans;

import io.bdmpi.examples.data.Counter;
import io.bdmpi.examples.data.CsrBlock;
import io.bdmpi.examples.store.Storage;

/**
 * Spherical K-means arithmetic shared by the MPI program and the serial baseline. Rows are
 * compared by cosine similarity with k unit-length dense centroids ({@code k * cols} doubles, row
 * major); a row goes to its most similar centroid (the lowest index on ties); a new centroid is
 * the normalized sum of its rows' unit vectors, and an empty cluster keeps its centroid.
 *
 * <p>Centroid sums and the total similarity are exact: each unit-vector component is rounded once
 * to a fixed-point {@code long} with {@value #FRACTION_BITS} fraction bits and summed as an
 * integer, so they do not depend on how rows are split among ranks or chunks, and MPI and serial
 * runs assign every row identically. A sum stays below 2^31 (one per row), so up to 2^31 rows fit.
 */
public final class KMeansCore {

    static final int FRACTION_BITS = 32;
    private static final double ONE = 0x1.0p32;
    private static final long STREAM_ROOT = 31;
    private static final long STREAM_PICK = 32;

    private KMeansCore() {
    }

    /** Rows moved and total similarity (fixed point) of one pass. */
    public static final class Tally {
        long moved;
        long similarity;

        /** Rows whose cluster changed. */
        public long moved() {
            return moved;
        }

        /** Sum of every row's cosine similarity to its centroid, fixed point. */
        public long similarity() {
            return similarity;
        }
    }

    /** The rank (in [0, parts)) that picks the initial centroids for {@code seed}. */
    public static int pickingPart(long seed, int parts) {
        return (int) Counter.below(seed, STREAM_ROOT, 0, parts);
    }

    /**
     * The k distinct rows, as indexes into {@code [0, rows)} of the picking part, that become the
     * initial centroids 0..k-1, in order.
     */
    public static int[] initialRows(long seed, int rows, int k) {
        if (rows < k) {
            throw new IllegalArgumentException("the picking rank has " + rows + " rows, fewer than k = " + k
                    + ": use fewer ranks or a smaller k");
        }
        int[] picked = new int[k];
        java.util.Set<Integer> seen = new java.util.HashSet<>();
        long draw = 0;
        for (int j = 0; j < k; j++) {
            int r;
            do {
                r = (int) Counter.below(seed, STREAM_PICK, draw++, rows);
            } while (!seen.add(r));
            picked[j] = r;
        }
        return picked;
    }

    /** Sets centroid {@code j} to the unit vector of row {@code i} of {@code block}. */
    public static void setCentroid(CsrBlock block, int i, int j, Storage.Doubles centroids, int cols) {
        int base = j * cols;
        for (int c = 0; c < cols; c++) {
            centroids.set(base + c, 0);
        }
        double norm = norm(block, i);
        for (int nz = block.rowPtr().get(i); nz < block.rowPtr().get(i + 1); nz++) {
            centroids.set(base + block.cols().get(nz), norm == 0 ? 0 : block.values().get(nz) / norm);
        }
    }

    /**
     * Assigns every row of {@code block} and adds its unit vector to its cluster's sum.
     *
     * @param assignment current cluster of each row (-1 before the first pass), updated
     * @param sums       {@code k * cols} fixed-point sums, added to
     */
    public static void assign(CsrBlock block, Storage.Ints assignment, int assignOffset, Storage.Doubles centroids,
                              int k, int cols, Storage.Longs sums, Tally tally) {
        Storage.Ints rowPtr = block.rowPtr();
        // Each row is read k + 2 times: a run of rows is copied once into heap buffers, whatever holds the block.
        int[] runCols = new int[0];
        float[] runValues = new float[0];
        for (int first = 0; first < block.rows(); ) {
            int last = block.runEnd(first);
            int base = rowPtr.get(first);
            int length = rowPtr.get(last) - base;
            if (length > runCols.length) {
                runCols = new int[Math.max(length, Math.min(CsrBlock.RUN_NNZ, block.nnz()))];
                runValues = new float[runCols.length];
            }
            block.cols().copyTo(base, runCols, length);
            block.values().copyTo(base, runValues, length);
            for (int i = first; i < last; i++) {
                assignRow(runCols, runValues, rowPtr.get(i) - base, rowPtr.get(i + 1) - base, assignOffset + i, assignment,
                        centroids, k, cols, sums, tally);
            }
            first = last;
        }
    }

    /** Assigns the row whose non-zeros are {@code rowCols/rowValues[start .. end-1]} (see {@link #assign}). */
    private static void assignRow(int[] rowCols, float[] rowValues, int start, int end, int row, Storage.Ints assignment,
                                  Storage.Doubles centroids, int k, int cols, Storage.Longs sums, Tally tally) {
        double squares = 0;
        for (int nz = start; nz < end; nz++) {
            double v = rowValues[nz];
            squares += v * v;
        }
        double norm = Math.sqrt(squares);
        int best = 0;
        double bestSim = Double.NEGATIVE_INFINITY;
        for (int j = 0; j < k; j++) {
            int base = j * cols;
            double dot = 0;
            for (int nz = start; nz < end; nz++) {
                dot += rowValues[nz] * centroids.get(base + rowCols[nz]);
            }
            double sim = norm == 0 ? 0 : dot / norm;
            if (sim > bestSim) {
                bestSim = sim;
                best = j;
            }
        }
        // No branch on whether the row moved: in the first pass every row moves, in the later
        // ones few, and the JIT would compile the first pass's profile and deoptimise at the
        // second, once in every rank's JVM.
        int before = assignment.get(row);
        tally.moved += (before ^ best | -(before ^ best)) >>> 31;
        assignment.set(row, best);
        tally.similarity += toFixed(bestSim);
        if (norm == 0) {
            return; // an empty row adds nothing to its cluster
        }
        int base = best * cols;
        for (int nz = start; nz < end; nz++) {
            int at = base + rowCols[nz];
            sums.set(at, sums.get(at) + toFixed(rowValues[nz] / norm));
        }
    }

    /** Replaces each centroid with its normalized sum; a cluster with a zero sum keeps its centroid. */
    public static void recenter(Storage.Longs sums, Storage.Doubles centroids, int k, int cols) {
        for (int j = 0; j < k; j++) {
            int base = j * cols;
            double squares = 0;
            for (int c = 0; c < cols; c++) {
                double s = fromFixed(sums.get(base + c));
                squares += s * s;
            }
            if (squares == 0) {
                continue;
            }
            double norm = Math.sqrt(squares);
            for (int c = 0; c < cols; c++) {
                centroids.set(base + c, fromFixed(sums.get(base + c)) / norm);
            }
        }
    }

    /** Fixed point {@code f} as a double. */
    public static double fromFixed(long f) {
        return f / ONE;
    }

    private static long toFixed(double x) {
        return Math.round(x * ONE);
    }

    private static double norm(CsrBlock block, int i) {
        double squares = 0;
        for (int nz = block.rowPtr().get(i); nz < block.rowPtr().get(i + 1); nz++) {
            double v = block.values().get(nz);
            squares += v * v;
        }
        return Math.sqrt(squares);
    }
}
