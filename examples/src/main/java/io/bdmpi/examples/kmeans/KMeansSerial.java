package io.bdmpi.examples.kmeans;

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
import java.util.Locale;
import java.util.Set;

/**
 * Serial out-of-core spherical K-means, as one would write it by hand: centroids, their sums and
 * the assignment (4 bytes per row) stay in memory; each iteration streams the matrix once in
 * chunks of at most {@code --chunk-nnz} non-zeros.
 *
 * <pre>java -cp examples.jar io.bdmpi.examples.kmeans.KMeansSerial
 *     --matrix M --out ASSIGNMENT --k 10 [--iterations 20] [--seed 1] [--init-parts 1] [--chunk-nnz 4m]</pre>
 *
 * {@code --init-parts P} picks the initial centroids as a {@link KMeans} run on P ranks does, so
 * that the two can be compared; the rest is the same {@link KMeansCore}.
 */
public final class KMeansSerial {

    private KMeansSerial() {
    }

    /** Runs the program with the options of the class comment. */
    public static void main(String[] args) {
        try {
            Options o = Options.parse(args, 0, Set.of("matrix", "out", "k", "iterations", "seed", "init-parts", "chunk-nnz"));
            SerialResult result = run(o.path("matrix"), o.path("out"), o.integer("k", 1, Integer.MAX_VALUE),
                    o.integer("iterations", 20, 1, Integer.MAX_VALUE), o.number("seed", 1),
                    o.integer("init-parts", 1, 1, 1 << 20), o.number("chunk-nnz", 4L << 20));
            System.out.println(result.summary());
            System.out.println(result.timing());
        } catch (IllegalArgumentException | IOException e) {
            BadInput.exit("KMeansSerial", e);
        }
    }

    /** Clusters and writes the assignment. */
    public static SerialResult run(Path matrix, Path out, int k, int maxIterations, long seed, int initParts, long chunkNnz)
            throws IOException {
        if (chunkNnz < 1) {
            throw new IllegalArgumentException("--chunk-nnz must be at least 1");
        }
        Storage st = HeapStorage.INSTANCE;
        IterationTimer timer = new IterationTimer();
        try (CsrFile m = CsrFile.open(matrix)) {
            int cols = checkShape(matrix, m, k);
            if (m.rows() > Integer.MAX_VALUE) {
                throw new IllegalArgumentException(matrix + " has more than 2^31 rows");
            }
            int n = (int) m.rows();
            Storage.Doubles centroids = st.doubles("centroids", k * cols);
            Storage.Longs sums = st.longs("sums", k * cols);
            Storage.Ints assignment = st.ints("assignment", n);
            for (int i = 0; i < n; i++) {
                assignment.set(i, -1);
            }
            long[] bounds = m.partitionByNonZeros(initParts);
            int part = KMeansCore.pickingPart(seed, initParts);
            long first = bounds[part];
            int[] rows = KMeansCore.initialRows(seed, (int) (bounds[part + 1] - first), k);
            for (int j = 0; j < k; j++) {
                KMeansCore.setCentroid(m.read(first + rows[j], first + rows[j] + 1, st), 0, j, centroids, cols);
            }
            timer.start();
            int iteration = 0;
            KMeansCore.Tally tally;
            while (true) {
                for (int c = 0; c < k * cols; c++) {
                    sums.set(c, 0);
                }
                tally = new KMeansCore.Tally();
                CsrBlock chunk = null;
                for (long lo = 0; lo < n; ) {
                    long hi = m.chunkEnd(lo, chunkNnz);
                    chunk = m.read(lo, hi, 0, cols, chunk, st);
                    KMeansCore.assign(chunk, assignment, (int) lo, centroids, k, cols, sums, tally);
                    lo = hi;
                }
                iteration++;
                timer.iterationDone();
                if (tally.moved() == 0 || iteration == maxIterations) {
                    break;
                }
                KMeansCore.recenter(sums, centroids, k, cols);
            }
            String timing = timer.line("KMeansSerial", iteration);
            Files.deleteIfExists(out);
            VectorFile.writeInts(out, 0, assignment, n);
            return new SerialResult(summary(n, k, iteration, tally.moved(), tally.similarity()), timing);
        }
    }

    /** Checks that the matrix has values and that k dense centroids fit in an array; returns its columns. */
    static int checkShape(Path matrix, CsrFile m, int k) {
        if (!m.hasValues()) {
            throw new IllegalArgumentException(matrix + " has no values: K-means needs a matrix with values");
        }
        if (m.cols() * k > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException(k + " dense centroids of " + m.cols() + " columns do not fit in an array");
        }
        return (int) m.cols();
    }

    /** The line both programs print at the end. */
    static String summary(long rows, int k, int iterations, long moved, long similarity) {
        return String.format(Locale.ROOT, "KMeans: %d rows, %d clusters, %d iterations, %d moved in the last, similarity %.6f",
                rows, k, iterations, moved, KMeansCore.fromFixed(similarity));
    }
}
