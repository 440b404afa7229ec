package io.bdmpi.examples.pagerank;

import io.bdmpi.examples.data.CsrBlock;
import io.bdmpi.examples.store.Storage;

/**
 * The PageRank arithmetic shared by the MPI program and the serial baseline (push form, damping
 * {@value #DAMPING}, the mass of dangling vertices spread evenly).
 *
 * <p>Sums are exact: every contribution is rounded once to a fixed-point {@code long} with
 * {@value #FRACTION_BITS} fraction bits and added as an integer, so a sum does not depend on the
 * order of its terms. That makes the result bit-identical for any number of ranks and any chunking
 * of the serial run. A rank's total is at most 1, so sums cannot overflow; the rounding costs at
 * most 2^-61 per term, far below PageRank's own precision.
 */
public final class PageRankCore {

    /** Probability of following a link. */
    public static final double DAMPING = 0.85;
    static final int FRACTION_BITS = 60;
    private static final double ONE = 0x1.0p60;

    private PageRankCore() {
    }

    /** {@code x} in fixed point. */
    public static long toFixed(double x) {
        return Math.round(x * ONE);
    }

    /** Fixed point {@code f} as a double. */
    public static double fromFixed(long f) {
        return f / ONE;
    }

    /**
     * Pushes the rank of every row of {@code block} along its edges: for the k-th non-zero of row
     * i, {@code acc[targets[k]] += fixed(pr[prOffset + i] / degree(i))}. The sums are a heap array
     * because they are random updates: on a mapped array each also pays an index check and a view
     * lookup (a push on mapped arrays took 2x to 5x as long), and on a direct buffer the push took
     * 20 % longer than into a heap array copied out afterwards. The targets are read a run of whole
     * rows at a time.
     */
    public static void push(CsrBlock block, Storage.Ints targets, Storage.Doubles pr, int prOffset, long[] acc) {
        forEachRun(block, targets, (first, last, runTargets, base) -> {
            for (int i = first; i < last; i++) {
                int start = block.rowPtr().get(i) - base;
                int end = block.rowPtr().get(i + 1) - base;
                if (start < end) {
                    long share = toFixed(pr.get(prOffset + i) / (end - start));
                    for (int k = start; k < end; k++) {
                        acc[runTargets[k]] += share;
                    }
                }
            }
        });
    }

    /** Rows {@code first .. last-1}, whose targets are {@code targets[k - base]} for non-zero k. */
    @FunctionalInterface
    private interface Run {
        void push(int first, int last, int[] targets, int base);
    }

    /**
     * Hands the rows to {@code run} in runs whose targets are one heap array: all at once when the
     * targets are one, else a run of rows at a time copied out (the inner loop then reads a heap
     * array, not a mapped one that checks every index).
     */
    private static void forEachRun(CsrBlock block, Storage.Ints targets, Run run) {
        int rows = block.rows();
        int[] onHeap = targets.heapArray();
        if (onHeap != null) {
            run.push(0, rows, onHeap, 0);
            return;
        }
        Storage.Ints rowPtr = block.rowPtr();
        int[] chunk = new int[Math.min(CsrBlock.RUN_NNZ, block.nnz())];
        for (int first = 0; first < rows; ) {
            int last = block.runEnd(first);
            int base = rowPtr.get(first);
            int length = rowPtr.get(last) - base;
            if (length > chunk.length) {
                chunk = new int[length];
            }
            targets.copyTo(base, chunk, length);
            run.push(first, last, chunk, base);
            first = last;
        }
    }

    /** The fixed-point rank of the block's dangling rows (no out-edges), whose mass is spread evenly. */
    public static long dangling(CsrBlock block, Storage.Doubles pr, int prOffset) {
        Storage.Ints rowPtr = block.rowPtr();
        long sum = 0;
        for (int i = 0; i < block.rows(); i++) {
            if (rowPtr.get(i) == rowPtr.get(i + 1)) {
                sum += toFixed(pr.get(prOffset + i));
            }
        }
        return sum;
    }

    /** The new rank of a vertex with fixed-point incoming sum {@code in}, in a graph of {@code n} vertices. */
    public static double rank(long in, long danglingTotal, long n) {
        return (1 - DAMPING) / n + DAMPING * (fromFixed(in) + fromFixed(danglingTotal) / n);
    }

    /** The first rank of every vertex. */
    public static double initialRank(long n) {
        return 1.0 / n;
    }

    /** {@code |a - b|} in fixed point, for an exact L1 norm of the change. */
    public static long change(double a, double b) {
        return toFixed(Math.abs(a - b));
    }

    /** Whether the L1 change {@code changeTotal} (fixed point) is below {@code tolerance}. */
    public static boolean converged(long changeTotal, double tolerance) {
        return fromFixed(changeTotal) < tolerance;
    }
}
