package io.bdmpi.examples.sgd;

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
import java.util.function.Consumer;

/**
 * Serial out-of-core SGD matrix factorization, as one would write it by hand: the user and item
 * factors stay in memory, the ratings are streamed from the file in chunks of at most
 * {@code --chunk-nnz} non-zeros. With {@code --grid q} (default 1) it visits the ratings in the
 * block-diagonal order of an {@link Sgd} run on q*q ranks (reading the file once per step, q times
 * per iteration) and then gives bit-identical results; with q = 1 it is plain row-order SGD, one
 * pass per iteration.
 *
 * <pre>java -cp examples.jar io.bdmpi.examples.sgd.SgdSerial
 *     --ratings R --out PREFIX [--factors 10] [--iterations 10] [--rate 0.01] [--reg 0.05] [--seed 1]
 *     [--grid 1] [--chunk-nnz 4m]</pre>
 */
public final class SgdSerial {

    private SgdSerial() {
    }

    /**
     * The training settings both programs share.
     *
     * @param factors    latent factors per user and item
     * @param iterations training passes over the ratings
     * @param rate       learning rate
     * @param reg        regularization
     * @param seed       selects the initial factors
     */
    public record Settings(int factors, int iterations, double rate, double reg, long seed) {

        static Settings of(Options o) {
            return new Settings(o.integer("factors", 10, 1, 1024), o.integer("iterations", 10, 0, Integer.MAX_VALUE),
                    o.real("rate", 0.01), o.real("reg", 0.05), o.number("seed", 1));
        }
    }

    /** Runs the program with the options of the class comment. */
    public static void main(String[] args) {
        try {
            Options o = Options.parse(args, 0,
                    Set.of("ratings", "out", "factors", "iterations", "rate", "reg", "seed", "grid", "chunk-nnz"));
            SerialResult result = run(o.path("ratings"), o.string("out"), Settings.of(o), o.integer("grid", 1, 1, 1 << 15),
                    o.number("chunk-nnz", 4L << 20), System.out::println);
            System.out.println(result.summary());
            System.out.println(result.timing());
        } catch (IllegalArgumentException | IOException e) {
            BadInput.exit("SgdSerial", e);
        }
    }

    /**
     * Trains, writes {@code PREFIX.users} and {@code PREFIX.items}, and hands the line of each
     * training iteration to {@code report}.
     */
    public static SerialResult run(Path ratings, String out, Settings s, int q, long chunkNnz, Consumer<String> report)
            throws IOException {
        if (chunkNnz < 1) {
            throw new IllegalArgumentException("--chunk-nnz must be at least 1");
        }
        Storage st = HeapStorage.INSTANCE;
        IterationTimer timer = new IterationTimer();
        try (CsrFile file = CsrFile.open(ratings)) {
            checkShape(ratings, file);
            SgdCore.Grid grid = SgdCore.Grid.of(file, q);
            int f = s.factors();
            if ((file.rows() + file.cols()) * f > Integer.MAX_VALUE - 8) {
                throw new IllegalArgumentException("the factors of " + file.rows() + " users and " + file.cols()
                        + " items do not fit in arrays");
            }
            Storage.Doubles users = st.doubles("users", (int) file.rows() * f);
            Storage.Doubles items = st.doubles("items", (int) file.cols() * f);
            SgdCore.initUsers(users, 0, (int) file.rows(), f, s.seed());
            SgdCore.initItems(items, 0, (int) file.cols(), f, s.seed());
            double rmse = 0;
            CsrBlock chunk = null;
            timer.start();
            for (int iteration = 0; iteration <= s.iterations(); iteration++) {
                boolean training = iteration < s.iterations();
                double[] blockSse = new double[q * q];
                for (int step = 0; step < q; step++) {
                    for (int b = 0; b < q; b++) {
                        int c = (b + step) % q;
                        double sse = 0;
                        for (long lo = grid.users()[b]; lo < grid.users()[b + 1]; ) {
                            long hi = Math.min(grid.users()[b + 1], file.chunkEnd(lo, chunkNnz));
                            chunk = file.read(lo, hi, (int) grid.items()[c], (int) grid.items()[c + 1], chunk, st);
                            sse = SgdCore.sweep(chunk, users, 0, items, 0, f, s.rate(), s.reg(), training, sse);
                            lo = hi;
                        }
                        blockSse[b * q + c] = sse;
                    }
                }
                rmse = SgdCore.rmse(blockSse, file.nnz());
                if (training) {
                    report.accept(progress(iteration + 1, rmse));
                }
                timer.iterationDone();
            }
            String timing = timer.line("SgdSerial", s.iterations() + 1);
            Path userFile = Path.of(out + ".users");
            Path itemFile = Path.of(out + ".items");
            Files.deleteIfExists(userFile);
            Files.deleteIfExists(itemFile);
            VectorFile.writeDoubles(userFile, 0, users, users.length());
            VectorFile.writeDoubles(itemFile, 0, items, items.length());
            return new SerialResult(summary(file, s, q, rmse), timing);
        }
    }

    /** Checks that the file is a rating matrix. */
    static void checkShape(Path ratings, CsrFile file) {
        if (!file.hasValues()) {
            throw new IllegalArgumentException(ratings + " has no values: SGD needs a rating matrix");
        }
    }

    /** The line printed after each training iteration. */
    static String progress(int iteration, double rmse) {
        return String.format(Locale.ROOT, "SGD iteration %d: training RMSE %.17g", iteration, rmse);
    }

    /** The line both programs print at the end. */
    static String summary(CsrFile file, Settings s, int q, double rmse) {
        return String.format(Locale.ROOT, "SGD: %d users, %d items, %d ratings, %d factors, %d iterations, grid %d, RMSE %.17g",
                file.rows(), file.cols(), file.nnz(), s.factors(), s.iterations(), q, rmse);
    }
}
