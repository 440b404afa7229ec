package io.bdmpi.examples.sgd;

import io.bdmpi.examples.BadInput;
import io.bdmpi.examples.IterationTimer;
import io.bdmpi.examples.Options;
import io.bdmpi.examples.data.CsrBlock;
import io.bdmpi.examples.data.CsrFile;
import io.bdmpi.examples.data.VectorFile;
import io.bdmpi.examples.store.HeapStorage;
import io.bdmpi.examples.store.Storage;
import io.bdmpi.examples.store.Styles;
import mpi.Comm;
import mpi.MPI;
import mpi.MPIException;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Set;

/**
 * Matrix factorization by SGD as an MPI program on p = q * q ranks: rank {@code b * q + c} holds
 * block (b, c) of the q x q grid of the rating matrix (see {@link SgdCore}). In each iteration the
 * rank works once, at step {@code (c - b) mod q}: it receives the user factors of range b from rank
 * (b, c-1) and the item factors of range c from rank (b+1, c), sweeps its block, and sends them on
 * to (b, c+1) and (b-1, c), the ranks of the next step. The diagonal ranks (b, b) start each
 * iteration, and hold the factors in the end.
 *
 * <pre>bdmpiexec -ns 9 -nr 3 -cp examples.jar io.bdmpi.examples.sgd.Sgd
 *     --ratings R --out PREFIX [--factors 10] [--iterations 10] [--rate 0.01] [--reg 0.05] [--seed 1] [--style heap]</pre>
 *
 * After the training iterations one more pass, without updates, measures the RMSE of the result.
 * {@code PREFIX.users} and {@code PREFIX.items} receive the factors (float64, row major, see
 * {@link VectorFile}). Rank 0 prints the training RMSE of each iteration and a summary line; both
 * are bit-identical to {@link SgdSerial}'s with {@code --grid q}. Bad input aborts with code 2.
 */
public final class Sgd {

    private static final int TAG_USERS = 1;
    private static final int TAG_ITEMS = 2;

    private Sgd() {
    }

    /** Runs the program with the options of the class comment. */
    public static void main(String[] args) throws MPIException {
        args = MPI.Init(args);
        Comm comm = MPI.COMM_WORLD;
        try {
            Options o = Options.parse(args, 0, Set.of("ratings", "out", "factors", "iterations", "rate", "reg", "seed", "style"));
            SgdSerial.Settings s = SgdSerial.Settings.of(o);
            try (Storage st = Styles.open(o.string("style", Styles.HEAP))) {
                run(comm, o.path("ratings"), o.string("out"), s, st);
            }
        } catch (IllegalArgumentException | IOException e) {
            BadInput.abort("Sgd", comm, e);
        }
        MPI.Finalize();
    }

    private static void run(Comm comm, Path ratings, String out, SgdSerial.Settings s, Storage st)
            throws MPIException, IOException {
        int rank = comm.getRank();
        int p = comm.getSize();
        int q = (int) Math.round(Math.sqrt(p));
        if (q * q != p) {
            throw new IllegalArgumentException("SGD needs a square number of ranks (4, 9, 16, ...), not " + p);
        }
        int b = rank / q;
        int c = rank % q;
        IterationTimer timer = new IterationTimer();
        try (CsrFile file = CsrFile.open(ratings)) {
            SgdSerial.checkShape(ratings, file);
            SgdCore.Grid grid = SgdCore.Grid.of(file, q);
            CsrBlock block = file.read(grid.users()[b], grid.users()[b + 1],
                    (int) grid.items()[c], (int) grid.items()[c + 1], st);
            st.readOnly(block.rowPtr());
            st.readOnly(block.cols());
            st.readOnly(block.values());
            int f = s.factors();
            int userLength = grid.userCount(b) * f;
            int itemLength = grid.itemCount(c) * f;
            int userFrom = b * q + Math.floorMod(c - 1, q);
            int itemFrom = Math.floorMod(b + 1, q) * q + c;
            int userTo = b * q + Math.floorMod(c + 1, q);
            int itemTo = Math.floorMod(b - 1, q) * q + c;
            // The factors are what moves between ranks. A rank holds them (on the heap, as the
            // message buffers themselves) only from the receive to the send of its step: it
            // parks in a probe, not in the receive, so a parked rank holds no factors at all.
            double[] userMessage = null;
            double[] itemMessage = null;
            if (b == c) {
                userMessage = new double[userLength];
                itemMessage = new double[itemLength];
                SgdCore.initUsers(HeapStorage.wrap(userMessage), grid.users()[b], grid.userCount(b), f, s.seed());
                SgdCore.initItems(HeapStorage.wrap(itemMessage), grid.items()[c], grid.itemCount(c), f, s.seed());
            }
            double[] blockSse = new double[p];
            double rmse = 0;
            // The ratings are needed only to sweep: the allReduce that ends an iteration and the
            // wait for the next iteration's factors run in one blocking stretch. The clock starts
            // once every rank is set up: with fewer running than ranks, the others' set-up would
            // count as the first iteration.
            st.blocking(() -> {
                comm.barrier();
                timer.start();
                if (b != c) {
                    awaitFactors(comm, userFrom, itemFrom);
                }
            });
            for (int iteration = 0; iteration <= s.iterations(); iteration++) {
                boolean training = iteration < s.iterations();
                if (userMessage == null) {
                    userMessage = receive(comm, userLength, userFrom, TAG_USERS);
                    itemMessage = receive(comm, itemLength, itemFrom, TAG_ITEMS);
                }
                Arrays.fill(blockSse, 0);
                blockSse[rank] = SgdCore.sweep(block, HeapStorage.wrap(userMessage), grid.users()[b], HeapStorage.wrap(itemMessage),
                        grid.items()[c], f, s.rate(), s.reg(), training, 0);
                if (userTo != rank) {
                    comm.send(userMessage, userLength, MPI.DOUBLE, userTo, TAG_USERS);
                    comm.send(itemMessage, itemLength, MPI.DOUBLE, itemTo, TAG_ITEMS);
                    userMessage = null;
                    itemMessage = null;
                }
                boolean more = iteration < s.iterations();
                if (!more) {
                    // Let the ratings go before the stretch, whose end would bring them back.
                    block.discard(st);
                }
                st.blocking(() -> {
                    comm.allReduce(blockSse, p, MPI.DOUBLE, MPI.SUM);
                    if (more) {
                        awaitFactors(comm, userFrom, itemFrom);
                    }
                });
                rmse = SgdCore.rmse(blockSse, file.nnz());
                if (rank == 0 && training) {
                    System.out.println(SgdSerial.progress(iteration + 1, rmse));
                }
                timer.iterationDone();
            }
            Path userFile = Path.of(out + ".users");
            Path itemFile = Path.of(out + ".items");
            if (rank == 0) {
                Files.deleteIfExists(userFile);
                Files.deleteIfExists(itemFile);
                Files.createFile(userFile);
                Files.createFile(itemFile);
            }
            st.blocking(() -> {
                timer.gather(comm);
                comm.barrier();
            });
            String timing = timer.line("Sgd", s.iterations() + 1);
            if (b == c) {
                // The final factors, too, are held only while they are written.
                if (userMessage == null) {
                    st.blocking(() -> awaitFactors(comm, userFrom, itemFrom));
                    userMessage = receive(comm, userLength, userFrom, TAG_USERS);
                    itemMessage = receive(comm, itemLength, itemFrom, TAG_ITEMS);
                }
                VectorFile.writeDoubles(userFile, grid.users()[b] * f, HeapStorage.wrap(userMessage), userLength);
                VectorFile.writeDoubles(itemFile, grid.items()[c] * f, HeapStorage.wrap(itemMessage), itemLength);
                userMessage = null;
                itemMessage = null;
            }
            st.blocking(comm::barrier);
            if (rank == 0) {
                System.out.println(SgdSerial.summary(file, s, q, rmse));
                System.out.println(timing);
            }
        }
    }

    /**
     * Waits until the factors of this rank's next step have arrived (nothing to wait for when
     * they come from this rank itself, which kept them: a 1 x 1 grid).
     */
    private static void awaitFactors(Comm comm, int userFrom, int itemFrom) throws MPIException {
        if (userFrom != comm.getRank()) {
            comm.probe(userFrom, TAG_USERS);
            comm.probe(itemFrom, TAG_ITEMS);
        }
    }

    /** Takes over factors that have arrived (see awaitFactors): the receive does not wait. */
    private static double[] receive(Comm comm, int length, int from, int tag) throws MPIException {
        double[] message = new double[length];
        comm.recv(message, length, MPI.DOUBLE, from, tag);
        return message;
    }
}
