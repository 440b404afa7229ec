package io.bdmpi.examples.pagerank;

import io.bdmpi.examples.BadInput;
import io.bdmpi.examples.IterationTimer;
import io.bdmpi.examples.Options;
import io.bdmpi.examples.SerialResult;
import io.bdmpi.examples.data.CsrBlock;
import io.bdmpi.examples.data.CsrFile;
import io.bdmpi.examples.data.VectorFile;
import io.bdmpi.examples.store.HeapStorage;
import io.bdmpi.examples.store.Storage;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import java.util.Set;

/**
 * Serial out-of-core PageRank, as one would write it by hand: the rank vector and the incoming
 * sums (16 bytes per vertex) stay in memory; each iteration streams the graph file once, in chunks
 * of at most {@code --chunk-nnz} edges, pushing every chunk's contributions before reading the next.
 *
 * <pre>java -cp examples.jar io.bdmpi.examples.pagerank.PageRankSerial
 *     --graph G --out RANKS [--iterations 100] [--tolerance 1e-9] [--chunk-nnz 4m]</pre>
 *
 * Same arithmetic ({@link PageRankCore}) and same output as {@link PageRank}.
 */
public final class PageRankSerial {

    private PageRankSerial() {
    }

    /** Runs the program with the options of the class comment. */
    public static void main(String[] args) {
        try {
            Options o = Options.parse(args, 0, Set.of("graph", "out", "iterations", "tolerance", "chunk-nnz"));
            SerialResult result = run(o.path("graph"), o.path("out"), o.integer("iterations", 100, 1, Integer.MAX_VALUE),
                    o.real("tolerance", 1e-9), o.number("chunk-nnz", 4L << 20));
            System.out.println(result.summary());
            System.out.println(result.timing());
        } catch (IllegalArgumentException | IOException e) {
            BadInput.exit("PageRankSerial", e);
        }
    }

    /** Runs to convergence and writes the ranks. */
    public static SerialResult run(Path graph, Path out, int maxIterations, double tolerance, long chunkNnz) throws IOException {
        if (chunkNnz < 1) {
            throw new IllegalArgumentException("--chunk-nnz must be at least 1");
        }
        Storage st = HeapStorage.INSTANCE;
        IterationTimer timer = new IterationTimer();
        try (CsrFile g = CsrFile.open(graph)) {
            if (g.rows() != g.cols() || g.rows() > Integer.MAX_VALUE) {
                throw new IllegalArgumentException(graph + " is " + g.rows() + " x " + g.cols()
                        + ", not a square matrix of fewer than 2^31 vertices");
            }
            int n = (int) g.rows();
            Storage.Doubles pr = st.doubles("pr", n);
            long[] in = new long[n];
            for (int v = 0; v < n; v++) {
                pr.set(v, PageRankCore.initialRank(n));
            }
            timer.start();
            int iteration = 0;
            long change = 0;
            boolean converged = false;
            while (iteration < maxIterations && !converged) {
                iteration++;
                Arrays.fill(in, 0);
                long dangling = 0;
                CsrBlock chunk = null;
                for (long lo = 0; lo < n; ) {
                    long hi = g.chunkEnd(lo, chunkNnz);
                    chunk = g.read(lo, hi, 0, n, chunk, st);
                    PageRankCore.push(chunk, chunk.cols(), pr, (int) lo, in);
                    dangling += PageRankCore.dangling(chunk, pr, (int) lo);
                    lo = hi;
                }
                change = 0;
                for (int v = 0; v < n; v++) {
                    double next = PageRankCore.rank(in[v], dangling, n);
                    change += PageRankCore.change(next, pr.get(v));
                    pr.set(v, next);
                }
                converged = PageRankCore.converged(change, tolerance);
                timer.iterationDone();
            }
            String timing = timer.line("PageRankSerial", iteration);
            Files.deleteIfExists(out);
            VectorFile.writeDoubles(out, 0, pr, n);
            return new SerialResult(summary(n, g.nnz(), iteration, change), timing);
        }
    }

    /** The line both programs print at the end. */
    static String summary(long vertices, long edges, int iterations, long change) {
        return String.format(Locale.ROOT, "PageRank: %d vertices, %d edges, %d iterations, L1 change %.6e",
                vertices, edges, iterations, PageRankCore.fromFixed(change));
    }
}
