package io.bdmpi.examples.kmeans;

import io.bdmpi.examples.BadInput;
import io.bdmpi.examples.Checkpoints;
import io.bdmpi.examples.IterationTimer;
import io.bdmpi.examples.Options;
import io.bdmpi.examples.data.CsrBlock;
import io.bdmpi.examples.data.CsrFile;
import io.bdmpi.examples.data.VectorFile;
import io.bdmpi.examples.store.HeapStorage;
import io.bdmpi.examples.store.Storage;
import io.bdmpi.examples.store.Styles;
import mpi.Checkpointable;
import mpi.Comm;
import mpi.MPI;
import mpi.MPIException;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;

/**
 * Spherical K-means on the rows of a sparse matrix (a {@link CsrFile} with values, e.g. a
 * document-term matrix) as an MPI program. Rows are split in blocks balanced by non-zeros; a rank
 * chosen by the seed picks k of its rows as the initial centroids; each iteration broadcasts the
 * centroids, assigns every row, and reduces the new centroid sums to rank 0; it stops when no row
 * moved or after {@code --iterations}.
 *
 * <pre>bdmpiexec -ns 8 -nr 2 -cp examples.jar io.bdmpi.examples.kmeans.KMeans
 *     --matrix M --out ASSIGNMENT --k 10 [--iterations 20] [--seed 1] [--style heap]
 *     [--checkpoint-every 0] [--die-at RANK:ITERATION]</pre>
 *
 * {@code ASSIGNMENT} receives each row's cluster as int32 (see {@link VectorFile}); it is the same
 * as {@link KMeansSerial}'s with {@code --init-parts} equal to the number of ranks (which only
 * decides the initial rows). Rank 0 prints a summary line; bad input aborts with code 2.
 * With {@code --checkpoint-every N} it checkpoints its {@link State} every N iterations, and goes
 * on from the last checkpoint when restarted or recovered (see {@link Checkpoints}).
 */
public final class KMeans {


    private KMeans() {
    }

    /**
     * What carries over from one iteration to the next: the rows' clusters (to count the moved
     * ones) and, on the rank that broadcasts them, the next centroids.
     */
    private static final class State implements Checkpointable {
        int iteration;
        int holder;
        final Storage.Ints assignment;
        final double[] centroidMessage;
        private final int rank;

        State(int rank, Storage.Ints assignment, double[] centroidMessage) {
            this.rank = rank;
            this.assignment = assignment;
            this.centroidMessage = centroidMessage;
        }

        @Override
        public void save(DataOutputStream out) throws IOException {
            out.writeInt(iteration);
            out.writeInt(holder);
            Checkpoints.save(out, assignment);
            if (rank == holder) {
                for (double c : centroidMessage) {
                    out.writeDouble(c);
                }
            }
        }

        @Override
        public void restore(DataInputStream in) throws IOException {
            iteration = in.readInt();
            holder = in.readInt();
            Checkpoints.restore(in, assignment);
            if (rank == holder) {
                for (int c = 0; c < centroidMessage.length; c++) {
                    centroidMessage[c] = in.readDouble();
                }
            }
        }
    }

    /** Runs the program with the options of the class comment. */
    public static void main(String[] args) throws MPIException {
        args = MPI.Init(args);
        Comm comm = MPI.COMM_WORLD;
        try {
            Options o = Options.parse(args, 0,
                    Checkpoints.withOptions(Set.of("matrix", "out", "k", "iterations", "seed", "style")));
            try (Storage st = Styles.open(o.string("style", Styles.HEAP))) {
                run(comm, o.path("matrix"), o.path("out"), o.integer("k", 1, Integer.MAX_VALUE),
                        o.integer("iterations", 20, 1, Integer.MAX_VALUE), o.number("seed", 1),
                        Checkpoints.from(o), st);
            }
        } catch (IllegalArgumentException | IOException e) {
            BadInput.abort("KMeans", comm, e);
        }
        MPI.Finalize();
    }

    private static void run(Comm comm, Path matrix, Path out, int k, int maxIterations, long seed,
            Checkpoints checkpoints, Storage st) throws MPIException, IOException {
        int rank = comm.getRank();
        int p = comm.getSize();
        IterationTimer timer = new IterationTimer();
        try (CsrFile m = CsrFile.open(matrix)) {
            int cols = KMeansSerial.checkShape(matrix, m, k);
            int size = k * cols;
            long[] bounds = m.partitionByNonZeros(p);
            long lo = bounds[rank];
            int local = CsrFile.blockRows(lo, bounds[rank + 1]);
            // The centroids and their sums are small and read for every non-zero: always on the heap.
            Storage.Doubles centroids = HeapStorage.INSTANCE.doubles("centroids", size);
            Storage.Longs sums = HeapStorage.INSTANCE.longs("sums", size);
            State state = new State(rank, st.ints("assignment", local), new double[size]);
            Storage.Ints assignment = state.assignment;
            double[] centroidMessage = state.centroidMessage;
            long[] sumMessage = new long[size];
            // Before the rank reads its share: parked here it holds next to nothing, whereas a park
            // after the read would send the share out of memory and bring it back before set-up ends.
            boolean restored = checkpoints.restore(st, state);
            CsrBlock block = m.readOnly(lo, bounds[rank + 1], st);
            if (!restored) {
                for (int i = 0; i < local; i++) {
                    assignment.set(i, -1);
                }
                state.holder = KMeansCore.pickingPart(seed, p);
                if (rank == state.holder) {
                    int[] rows = KMeansCore.initialRows(seed, local, k);
                    for (int j = 0; j < k; j++) {
                        KMeansCore.setCentroid(block, rows[j], j, centroids, cols);
                    }
                    copy(centroids, centroidMessage);
                }
            }
            int firstIteration = state.iteration + 1;
            long[] totals = new long[2];
            // The rank's data is needed only to assign; every call from one assignment to the next
            // (allReduce, reduce, the next bcast) runs in one blocking stretch, so the data leaves
            // memory and comes back once per iteration. A checkpoint (which saves the assignment)
            // ends the stretch before the bcast.
            boolean broadcastDue = true;
            while (true) {
                int iteration = state.iteration + 1;
                checkpoints.startIteration(rank, iteration);
                if (broadcastDue) {
                    int root = state.holder;
                    boolean clockStarts = iteration == firstIteration;
                    st.blocking(() -> {
                        if (clockStarts) {
                            // Once every rank is set up: with fewer running than ranks, the
                            // others' set-up would count as this rank's first iteration.
                            comm.barrier();
                            timer.start();
                        }
                        comm.bcast(centroidMessage, size, MPI.DOUBLE, root);
                    });
                }
                for (int c = 0; c < size; c++) {
                    centroids.set(c, centroidMessage[c]);
                    sums.set(c, 0);
                }
                KMeansCore.Tally tally = new KMeansCore.Tally();
                KMeansCore.assign(block, assignment, 0, centroids, k, cols, sums, tally);
                state.iteration = iteration;
                totals[0] = tally.moved();
                totals[1] = tally.similarity();
                boolean checkpointDue = checkpoints.due(iteration);
                boolean last = iteration == maxIterations;
                if (last) {
                    // Let the data go before the stretch, whose end would bring it back, and before
                    // the master reads it ahead for the resumes in it.
                    block.discard(st);
                }
                st.blocking(() -> {
                    comm.allReduce(totals, 2, MPI.LONG, MPI.SUM);
                    if (finished(totals, iteration, maxIterations)) {
                        if (!last) {
                            // Converged, which only the allReduce could tell.
                            block.discard(st);
                        }
                        return;
                    }
                    for (int c = 0; c < size; c++) {
                        sumMessage[c] = sums.get(c);
                    }
                    comm.reduce(sumMessage, size, MPI.LONG, MPI.SUM, 0);
                    state.holder = 0;
                    if (rank == 0) {
                        for (int c = 0; c < size; c++) {
                            sums.set(c, sumMessage[c]);
                        }
                        KMeansCore.recenter(sums, centroids, k, cols);
                        copy(centroids, centroidMessage);
                    }
                    if (!checkpointDue) {
                        comm.bcast(centroidMessage, size, MPI.DOUBLE, 0);
                    }
                });
                if (finished(totals, iteration, maxIterations)) {
                    timer.iterationDone();
                    break;
                }
                checkpoints.endIteration(st, iteration, state);
                broadcastDue = checkpointDue;
                timer.iterationDone();
            }
            int iteration = state.iteration;
            if (rank == 0) {
                Files.deleteIfExists(out);
                Files.createFile(out);
            }
            st.blocking(() -> {
                timer.gather(comm);
                comm.barrier();
            });
            String timing = timer.line("KMeans", iteration);
            VectorFile.writeInts(out, lo, assignment, local);
            st.blocking(comm::barrier);
            if (rank == 0) {
                System.out.println(KMeansSerial.summary(m.rows(), k, iteration, totals[0], totals[1]));
                System.out.println(timing);
            }
        }
    }

    /** No row moved, or the last iteration is done. */
    private static boolean finished(long[] totals, int iteration, int maxIterations) {
        return totals[0] == 0 || iteration == maxIterations;
    }

    private static void copy(Storage.Doubles from, double[] to) {
        for (int i = 0; i < to.length; i++) {
            to[i] = from.get(i);
        }
    }
}
